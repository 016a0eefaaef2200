"""Writes an 8 MiB file to /tmp (under a file-size limit the write fails: Python ignores SIGXFSZ)."""


def main() -> None:
    with open("/tmp/big", "wb") as handle:
        handle.write(b"x" * (8 << 20))


if __name__ == "__main__":
    main()
