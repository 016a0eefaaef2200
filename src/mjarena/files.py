"""Writing result files so that a crash never leaves a partial one.

>>> import tempfile, pathlib
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> write_atomically(folder / "out.txt", "done\\n")
>>> (folder / "out.txt").read_text(), sorted(p.name for p in folder.iterdir())
('done\\n', ['out.txt'])
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

__all__ = ["write_atomically"]


def write_atomically(path: str | Path, text: str, *, sync: bool = True) -> None:
    """Write ``text`` to ``path`` through a temporary file in the same folder, synced, then renamed into place.

    Readers see the old file or the whole new one, never a part; on any error the temporary file is removed.
    ``sync=False`` leaves the fsync to the caller (a tournament syncs a batch of replays at once).
    """
    path = Path(path)
    fd, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as out:
            out.write(text)
            out.flush()
            if sync:
                os.fsync(out.fileno())
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
