"""A Windows Job Object around an unboxed program: its whole tree killed as one, at the end or when the judge goes.

Windows has no process groups to kill and no ``SIGKILL``; a process started in a job, and every process it starts,
stays in the job (unless it is allowed to break away, which these jobs do not allow), and the job is killed at once
by :func:`kill`, and by the system when its last handle is closed (``JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE``: also
when the judge dies).  :func:`open_job` makes the job and puts the program in it just after it started (a process
that the program started within those first instants is not in it: the caller also kills the tree it can see).

Everything here runs on Windows only (``sys.platform == "win32"``, through ``ctypes`` and ``kernel32``); elsewhere,
and where the system refuses a job, :func:`open_job` gives None and the caller falls back to walking the tree with
psutil.  Linux runs this module only in the test mode for Windows (``tests/platform_sim.py``), where ``ctypes`` has
no ``WinDLL``: there it gives None too, so the job's own calls have been type-checked (``mypy --platform win32``)
but never run by the test suite.

>>> sys.platform == "win32" or open_job(1) is None
True
"""

from __future__ import annotations

import functools
import sys

__all__ = ["close", "kill", "open_job"]

if sys.platform == "win32":
    import ctypes
    from ctypes import wintypes

    _JOB_OBJECT_EXTENDED_LIMIT_INFORMATION = 9  # JOBOBJECTINFOCLASS
    _JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE = 0x2000
    _PROCESS_TERMINATE = 0x0001
    _PROCESS_SET_QUOTA = 0x0100

    class _BasicLimits(ctypes.Structure):
        """JOBOBJECT_BASIC_LIMIT_INFORMATION."""

        _fields_ = [
            ("PerProcessUserTimeLimit", ctypes.c_int64),
            ("PerJobUserTimeLimit", ctypes.c_int64),
            ("LimitFlags", wintypes.DWORD),
            ("MinimumWorkingSetSize", ctypes.c_size_t),
            ("MaximumWorkingSetSize", ctypes.c_size_t),
            ("ActiveProcessLimit", wintypes.DWORD),
            ("Affinity", ctypes.c_size_t),
            ("PriorityClass", wintypes.DWORD),
            ("SchedulingClass", wintypes.DWORD),
        ]

    class _IoCounters(ctypes.Structure):
        """IO_COUNTERS."""

        _fields_ = [(name, ctypes.c_uint64) for name in (
            "ReadOperationCount", "WriteOperationCount", "OtherOperationCount",
            "ReadTransferCount", "WriteTransferCount", "OtherTransferCount")]

    class _ExtendedLimits(ctypes.Structure):
        """JOBOBJECT_EXTENDED_LIMIT_INFORMATION."""

        _fields_ = [
            ("BasicLimitInformation", _BasicLimits),
            ("IoInfo", _IoCounters),
            ("ProcessMemoryLimit", ctypes.c_size_t),
            ("JobMemoryLimit", ctypes.c_size_t),
            ("PeakProcessMemoryUsed", ctypes.c_size_t),
            ("PeakJobMemoryUsed", ctypes.c_size_t),
        ]

    @functools.cache
    def _kernel32() -> ctypes.WinDLL | None:
        """kernel32 with the calls used here typed; None where ctypes has no Windows DLLs (the test mode)."""
        try:
            kernel32 = ctypes.WinDLL("kernel32", use_last_error=True)
        except (AttributeError, OSError):
            return None
        kernel32.CreateJobObjectW.argtypes = [ctypes.c_void_p, wintypes.LPCWSTR]
        kernel32.CreateJobObjectW.restype = wintypes.HANDLE
        kernel32.SetInformationJobObject.argtypes = [wintypes.HANDLE, ctypes.c_int, ctypes.c_void_p, wintypes.DWORD]
        kernel32.SetInformationJobObject.restype = wintypes.BOOL
        kernel32.OpenProcess.argtypes = [wintypes.DWORD, wintypes.BOOL, wintypes.DWORD]
        kernel32.OpenProcess.restype = wintypes.HANDLE
        kernel32.AssignProcessToJobObject.argtypes = [wintypes.HANDLE, wintypes.HANDLE]
        kernel32.AssignProcessToJobObject.restype = wintypes.BOOL
        kernel32.TerminateJobObject.argtypes = [wintypes.HANDLE, wintypes.UINT]
        kernel32.TerminateJobObject.restype = wintypes.BOOL
        kernel32.CloseHandle.argtypes = [wintypes.HANDLE]
        kernel32.CloseHandle.restype = wintypes.BOOL
        return kernel32

    def open_job(pid: int) -> int | None:
        """A new job, killed when its last handle closes, holding process ``pid``; None where that fails."""
        kernel32 = _kernel32()
        if kernel32 is None:
            return None
        job = kernel32.CreateJobObjectW(None, None)
        if not job:
            return None
        limits = _ExtendedLimits()
        limits.BasicLimitInformation.LimitFlags = _JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE
        process = kernel32.OpenProcess(_PROCESS_SET_QUOTA | _PROCESS_TERMINATE, False, pid)
        placed = bool(process) and bool(
            kernel32.SetInformationJobObject(job, _JOB_OBJECT_EXTENDED_LIMIT_INFORMATION, ctypes.byref(limits),
                                             ctypes.sizeof(limits))
            and kernel32.AssignProcessToJobObject(job, process))
        if process:
            kernel32.CloseHandle(process)
        if not placed:
            kernel32.CloseHandle(job)
            return None
        return int(job)

    def kill(job: int) -> None:
        """Kill every process in the job (it stays open: :func:`close` ends it)."""
        kernel32 = _kernel32()
        if kernel32 is not None:
            kernel32.TerminateJobObject(job, 1)

    def close(job: int) -> None:
        """Close the job's handle: the system kills whatever is still in it."""
        kernel32 = _kernel32()
        if kernel32 is not None:
            kernel32.CloseHandle(job)

else:

    def open_job(pid: int) -> int | None:
        """No Job Objects off Windows."""
        return None

    def kill(job: int) -> None:
        """No Job Objects off Windows."""

    def close(job: int) -> None:
        """No Job Objects off Windows."""
