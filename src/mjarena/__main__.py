"""``python -m mjarena``: the ``mjarena`` command (:func:`mjarena.cli.main`)."""

import sys

from mjarena.cli import main

sys.exit(main())
