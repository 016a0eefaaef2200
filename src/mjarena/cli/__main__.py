"""``python -m mjarena.cli``: the ``mjarena`` command."""

import sys

from mjarena.cli import main

sys.exit(main())
