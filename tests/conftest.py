"""Test-suite set-up: the helper modules beside the tests (reference.py, noi_scenarios.py) are importable."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
