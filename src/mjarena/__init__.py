"""mjarena: mahjong rules engines, a bot judge and arena, and table-driven hand analysis.

The core (:mod:`mjarena.tiles`, :mod:`mjarena.hand`, :mod:`mjarena.variants`) uses only the standard library,
does no I/O beyond reading its own tables, and is deterministic given a wall.
"""

__version__ = "0.1.0"
