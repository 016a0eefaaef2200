"""The optional C accelerator of the hand analysis; everything else is in pyproject.toml.

The extension is optional: without a C compiler the install goes on and mjarena uses its pure-Python path
(same results, slower).  ``python -c "import mjarena.hand.wild as w; print(w.ACCELERATED)"`` tells which.
"""

from setuptools import Extension, setup

setup(ext_modules=[Extension("mjarena.hand._speedups", ["src/mjarena/hand/_speedups.c"], optional=True)])
