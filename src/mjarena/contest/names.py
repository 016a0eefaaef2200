"""Team names: which are allowed, which two are one name to the eye, and the folder a team's files go in.

A team name is 1 to 64 ASCII letters, digits and ``_ . + -`` (:func:`name_problem`).  Two names are the same
name when their :func:`skeleton` is: in the spirit of Unicode's UTS #39 (*confusable detection*), but for the
ASCII that a name may hold, and small enough to read at once:

======================  ==============================================
case                    ``Ada``, ``ADA`` and ``ada`` are one name
``l I i 1 |``           one letter (``bill``, ``biIl``, ``bi1l``)
``O o 0``               one letter (``teamO``, ``team0``)
``S s 5``               one letter (``Sam``, ``5am``)
``rn`` and ``m``        one letter (``rnax``, ``max``)
``vv`` and ``w``        one letter (``vvin``, ``win``)
======================  ==============================================

A new team whose name has the skeleton of a team's already there, or of another name given with it, is refused
with the name it collides with (:func:`clash_problem`).  A contest made before this rule may hold two such
teams: it still opens, plays and exports, each team by its exact name, and no two of its folders in the archive
are one folder on a disk that ignores case (:func:`team_folder` puts the team's id first).

>>> skeleton("biIl") == skeleton("bill") == skeleton("BI1L"), skeleton("teamO") == skeleton("team0")
(True, True)
>>> clash_problem(["ADA"], ["red", "ada"]).split(":")[0]
"team name 'ADA' looks like team 'ada'"
>>> team_folder(3, "ADA"), team_folder(4, "ada")
('3-ADA', '4-ada')
"""

from __future__ import annotations

import re
from collections.abc import Iterable

__all__ = ["ADMIN", "HOUSE_PREFIX", "LOOK_ALIKES", "clash_problem", "name_problem", "skeleton",
           "team_folder"]

ADMIN = "admin"
"""The name that the organiser's token authenticates as."""
HOUSE_PREFIX = "house-"
"""The start of the house bots' seat names."""
LOOK_ALIKES = "l/I/1, O/0, S/5, rn/m, vv/w"
"""The look-alikes that :func:`skeleton` makes one, as the messages name them."""
_TEAM_NAME = re.compile(r"[A-Za-z0-9_.+-]{1,64}")
_SINGLE = str.maketrans({"i": "l", "1": "l", "|": "l", "0": "o", "5": "s"})
_PAIRS = (("rn", "m"), ("vv", "w"))
_UNSAFE = re.compile(r"[^A-Za-z0-9_.+-]")


def skeleton(name: str) -> str:
    """What ``name`` looks like, for comparing names: case folded, then the look-alikes of the module's table
    made one (``rn`` and ``vv`` first, then single letters).

    >>> skeleton("RnVV-0l5")
    'mw-ols'
    """
    folded = name.casefold()
    for pair, letter in _PAIRS:
        folded = folded.replace(pair, letter)
    return folded.translate(_SINGLE)


def name_problem(name: object) -> str | None:
    """Why ``name`` cannot name a team (not 1 to 64 letters, digits, ``_ . + -``; dots alone; looks like
    ``admin`` or ``house-…``), in one line; None when it can.

    >>> name_problem("team/1")
    "team name 'team/1': use 1 to 64 letters, digits, _ . + -"
    >>> name_problem("Adrnin")
    "team name 'Adrnin': names like 'admin' and 'house-…' are kept for the organiser and the house bots"
    >>> name_problem("red") is None
    True
    """
    if not isinstance(name, str) or not _TEAM_NAME.fullmatch(name):
        return f"team name {name!r}: use 1 to 64 letters, digits, _ . + -"
    if not name.strip("."):  # "." and ".." name folders already: a team's uploads would land in the contest's
        return f"team name {name!r}: a name of dots alone names a folder already; add a letter or digit"
    mine = skeleton(name)
    if mine == skeleton(ADMIN) or mine.startswith(skeleton(HOUSE_PREFIX)):
        return (f"team name {name!r}: names like {ADMIN!r} and '{HOUSE_PREFIX}…' are kept for the organiser and the "
                "house bots")
    return None


def clash_problem(names: Iterable[str], existing: Iterable[str] = ()) -> str | None:
    """Why one of ``names`` cannot join ``existing``: the first whose :func:`skeleton` is that of a team in
    ``existing`` or of an earlier one of ``names``, with the name it collides with; None when none does.

    >>> clash_problem(["bill", "red", "biIl"]).split(":")[0], clash_problem(["Bill"], ["bi1l"]).split(":")[0]
    ("team names 'bill' and 'biIl' look alike", "team name 'Bill' looks like team 'bi1l'")
    >>> clash_problem(["red"], ["red"]), clash_problem(["red", "blue"], ["ada"])
    ("team name 'red': team 'red' exists already", None)
    """
    seen = [(name, "team") for name in existing]
    for name in names:
        mine = skeleton(name)
        found = next(((other, what) for other, what in seen if skeleton(other) == mine), None)
        if found is not None and found[0] == name:
            again = "given twice: team names must be unique" if found[1] == "name" else f"team {name!r} exists already"
            return f"team name {name!r}: {again}"
        if found is not None:
            clash = (f"team names {found[0]!r} and {name!r} look alike" if found[1] == "name"
                     else f"team name {name!r} looks like team {found[0]!r}")
            return f"{clash}: names must differ in more than case and the look-alikes {LOOK_ALIKES}"
        seen.append((name, "name"))
    return None


def team_folder(team_id: int, name: str) -> str:
    """A team's folder in an archive: its id, then its name made safe for any disk (no two teams share one, even
    where case is ignored)."""
    return f"{team_id}-{_UNSAFE.sub('_', name).lstrip('.')[:64] or 'team'}"
