"""Memory in pipe buffers, which no process's resident size shows: raises its open-file limit to the hard limit,
then opens up to COUNT pipes (``pipe_buffer_bot.py COUNT``) and fills each; keeps running and reports in its
debug field how many pipes it opened, the bytes they hold, and the error that stopped it."""

import errno
import fcntl
import json
import os
import resource
import sys

MARKER = ">>>BOTZONE_REQUEST_KEEP_RUNNING<<<"


def main():
    wanted = int(sys.argv[1])
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    pipes, held, error = [], 0, None
    try:
        while len(pipes) < wanted:
            read, write = os.pipe()
            pipes.append((read, write))
            fcntl.fcntl(write, fcntl.F_SETFL, os.O_NONBLOCK)
            try:
                while True:
                    held += os.write(write, b"x" * 65536)
            except BlockingIOError:
                pass
    except OSError as failure:
        error = errno.errorcode.get(failure.errno, str(failure.errno))
    report = {"hard_limit": hard, "pipes": len(pipes), "held_mib": held >> 20, "error": error}
    sys.stdin.readline()
    while True:
        print(json.dumps({"response": "PASS", "debug": json.dumps(report)}), flush=True)
        print(MARKER, flush=True)
        if not sys.stdin.readline():
            return


if __name__ == "__main__":
    main()
