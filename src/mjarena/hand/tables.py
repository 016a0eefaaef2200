"""The precomputed hand tables (built by ``tools/build_tables.py``), read once at import.

The file holds, zlib-compressed: the class of every count vector of a numbered suit (5**9 keys) and of the
honours (5**7 keys), the tables that combine classes, and the final distance per number of melds.
See ``tools/build_tables.py`` for how and why.
"""

from __future__ import annotations

import json
import os
import zlib

MAX_MELDS = 4


def read_sections(name: str) -> dict[str, bytes]:
    """The named sections of a table file in ``data/`` (a JSON header of section sizes, then zlib data)."""
    with open(os.path.join(os.path.dirname(__file__), "data", name), "rb") as file:
        raw = file.read()
    head_length = int.from_bytes(raw[:4], "little")
    head = json.loads(raw[4 : 4 + head_length])
    payload = zlib.decompress(raw[4 + head_length :])
    sections: dict[str, bytes] = {}
    offset = 0
    for section, size in head["sections"].items():
        sections[section] = payload[offset : offset + size]
        offset += size
    return sections


_SECTIONS = read_sections("tables.bin")
SUIT_CLASS: bytes = _SECTIONS["suit_class"]
HONOUR_CLASS: bytes = _SECTIONS["honour_class"]
PAIR: memoryview = memoryview(_SECTIONS["pair"]).cast("H")
TRIPLE: memoryview = memoryview(_SECTIONS["triple"]).cast("H")
FINAL: bytes = _SECTIONS["final"]
SUIT_CLASSES = len(_SECTIONS["suit_values"]) // 10
HONOUR_CLASSES = len(_SECTIONS["honour_values"]) // 10
PAIR_CLASSES = max(PAIR) + 1
STRIDE = MAX_MELDS + 1
