"""``python -m mjarena.cli``: the ``mjarena`` command."""

import sys

from mjarena.cli import main

if __name__ == "__main__":  # imported (as tests/platform_sim.py imports every module): nothing runs
    sys.exit(main())
