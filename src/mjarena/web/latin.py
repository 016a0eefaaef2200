"""Latin spellings of the Chinese terms the pages show, so that every glyph renders on a machine without CJK
fonts (the tiles are drawn as strokes: :mod:`mjarena.web.tiles`).  The Chinese stays in tooltips.

>>> latin("South  scores 3 台"), latin("清三台")
('South  scores 3 tai', 'qing san tai')
"""

from __future__ import annotations

__all__ = ["TERMS", "latin"]

TERMS = {  # the longest first: 清四台 before 台
    "胡牌机会值": "win chance", "凑一台": "cou yi tai", "清三台": "qing san tai", "清四台": "qing si tai",
    "七巧对": "qi qiao dui (seven pairs)", "清一色": "qing yi se (one suit)", "小胡": "xiao hu (basic win)",
    "边张": "bian zhang (edge wait)", "诈胡": "zha hu", "百搭": "baida (wildcard)", "和牌距离": "distance",
    "台": "tai",
}


def latin(text: str) -> str:
    """``text`` with each known Chinese term spelt in Latin letters."""
    for term, spelling in TERMS.items():
        text = text.replace(term, spelling)
    return text
