"""Every source and every replay of a contest as one zip archive: the console's *Download everything* and
``mjarena contest export DIR --format archive --out FILE`` write the same members.

Members: ``sources/TEAM/vN-FILENAME`` (each submission's exact bytes, compile errors too), ``replays/game-ID.json``
(each finished game's full replay: every seat's output, as the organiser sees it), ``results.json`` (the JSON
export) and ``standings.csv``.
"""

from __future__ import annotations

import zipfile
from pathlib import Path
from typing import IO, Any

__all__ = ["write_archive"]


def write_archive(contest: Any, out: IO[bytes]) -> dict[str, int]:
    """Write the archive to ``out`` (a binary file open for writing); ``{"sources": n, "replays": m}``.  A source
    missing from the folder is listed in ``missing.txt`` instead of stopping the archive."""
    from mjarena.contest.export import results_json, standings_csv

    counts = {"sources": 0, "replays": 0}
    missing = []
    with zipfile.ZipFile(out, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for submission in contest.db.submissions():
            name = f"sources/{submission.team}/v{submission.version}-{Path(submission.filename).name or 'source'}"
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
