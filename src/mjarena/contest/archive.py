"""Every source and every replay of a contest as one zip archive: the console's *Download everything* and
``mjarena contest export DIR --format archive --out FILE`` write the same members.

Members: ``sources/ID-TEAM/vN/FILE`` (each submission's exact bytes, compile errors too), ``replays/game-ID.json``
(each finished game's full replay: every seat's output, as the organiser sees it), ``results.json`` (the JSON
export) and ``standings.csv``.

The archive names every member itself, never from what a team sent: ``ID-TEAM`` is the team's id and its name
made safe (:func:`mjarena.contest.names.team_folder`: no two teams share a folder, even on a disk that ignores
case), ``FILE`` the file name its language compiles (``bot.py``, ``Main.java``, ``bot.cpp``: the toolchain
table's ``source_name``).  An upload named ``..\\..\\evil.py``, or with a right-to-left mark, is
``sources/3-eve/v1/bot.py`` here.

>>> member_name(3, "ADA", 2, "java"), member_name(4, "ada", 1, "no-such-language")
('sources/3-ADA/v2/Main.java', 'sources/4-ada/v1/source.txt')
"""

from __future__ import annotations

import re
import zipfile
from pathlib import Path
from typing import IO, Any

from mjarena.builds import load_toolchains
from mjarena.contest.names import team_folder

__all__ = ["member_name", "write_archive"]

_PLAIN = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.-]{0,63}")


def member_name(team_id: int, team: str, version: int, language: str) -> str:
    """The archive's name for version ``version`` of team ``team`` (id ``team_id``) in ``language``: the
    language's own file name, ``source.txt`` for a language the toolchain table no longer knows."""
    toolchain = load_toolchains().get(language)
    filename = toolchain.source_name if toolchain is not None else ""
    if not _PLAIN.fullmatch(filename) or ".." in filename:
        filename = "source.txt"
    return f"sources/{team_folder(team_id, team)}/v{version}/{filename}"


def write_archive(contest: Any, out: IO[bytes]) -> dict[str, int]:
    """Write the archive to ``out`` (a binary file open for writing); ``{"sources": n, "replays": m}``.  A source
    missing from the folder is listed in ``missing.txt`` instead of stopping the archive."""
    from mjarena.contest.export import results_json, standings_csv

    counts = {"sources": 0, "replays": 0}
    missing = []
    with zipfile.ZipFile(out, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for submission in contest.db.submissions():
            name = member_name(submission.team_id, submission.team, submission.version, submission.language)
            try:
                archive.writestr(name, Path(submission.path).read_bytes())
                counts["sources"] += 1
            except OSError as error:
                missing.append(f"{name}: {error.strerror or error}")
        for game_id, replay in contest.db.finished_replays():
            archive.writestr(f"replays/game-{game_id}.json", replay)
            counts["replays"] += 1
        archive.writestr("results.json", results_json(contest))
        archive.writestr("standings.csv", standings_csv(contest.standings()["rows"]))
        if missing:
            archive.writestr("missing.txt", "\n".join(missing) + "\n")
    return counts
