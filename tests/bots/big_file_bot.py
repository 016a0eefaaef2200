"""Writes an 8 MiB file to /tmp (under a file-size limit the write fails: Python ignores SIGXFSZ)."""

with open("/tmp/big", "wb") as handle:
    handle.write(b"x" * (8 << 20))
