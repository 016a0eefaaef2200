"""``python -m mjarena``: the ``mjarena`` command (:func:`mjarena.cli.main`)."""

import sys

from mjarena.cli import main

if __name__ == "__main__":  # imported (as tests/platform_sim.py imports every module): nothing runs
    sys.exit(main())
