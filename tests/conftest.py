"""Test-suite set-up: the helper modules beside the tests (reference.py, noi_scenarios.py, boxes.py) are
importable, and boxes.py's ``token`` fixture is every test's."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from boxes import token  # noqa: F401  (the fixture, for every test file)
