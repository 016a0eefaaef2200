"""The files a server shows: replays and tournaments under one folder, and nothing outside it.

Every name that comes from a request goes through :meth:`Library.resolve`, which refuses absolute paths, ``..``
and anything (a symbolic link included) that ends up outside the folder.  The folder is only read, except for
``uploads/`` (uploaded replays) and ``played/`` (games played on the page); a running tournament's files are
never touched (its ``games.jsonl`` is read up to its last complete line).

>>> import tempfile
>>> library = Library(tempfile.mkdtemp())
>>> library.resolve("../etc/passwd")
Traceback (most recent call last):
...
mjarena.web.library.NotFound: no such file here: '../etc/passwd'
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from mjarena.replay import ReplayError, load
from mjarena.web.tournament_stats import answer_times, eta_seconds, head_to_head, merge_times

__all__ = ["PAGE_SIZE", "Library", "NotFound", "UploadError", "check_replay", "viewer_data"]

PAGE_SIZE = 50
"""Replays per page of the index."""
MAX_REPLAY_BYTES = 64 << 20
"""Larger files are not read as replays."""
ROOT_TOURNAMENT = "-"
"""The name of the tournament held in the folder itself (``mjarena serve results/``)."""
_SKIPPED = {"tournament.json", "standings.json"}
_SAFE_STEM = re.compile(r"[^A-Za-z0-9._-]+")
_MARK = b'"mjarena-replay"'
"""Bytes every replay holds (its ``"format"``): files without them are not replays, and are not listed."""
_BAD_JSON = (ValueError, RecursionError, TypeError, AttributeError)
"""What reading a hostile file can raise: ``json.loads`` raises RecursionError on deep nesting, not ValueError."""


class NotFound(LookupError):
    """A name that is not a file (or folder) of the library; answered with 404 whatever the reason."""


class UploadError(ValueError):
    """An uploaded file that is not a replay this server can show (the message says why)."""


def check_replay(raw: bytes) -> dict[str, Any]:
    """What the viewer shows of the replay in ``raw`` (JSON bytes): the replay checked as
    :func:`mjarena.replay.load` checks a file, then its :func:`viewer_data`; :class:`UploadError` saying what is
    wrong.

    >>> check_replay(b'{"format": "something else"}')
    Traceback (most recent call last):
    ...
    mjarena.web.library.UploadError: not an mjarena replay (no "format": "mjarena-replay")
    """
    try:
        data = json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        raise UploadError("not a replay: the file is not UTF-8 text") from None
    except json.JSONDecodeError as error:
        raise UploadError(f"not a replay: invalid JSON ({error})") from None
    except RecursionError:
        raise UploadError("not a replay: its JSON is nested too deeply to read") from None
    if not isinstance(data, dict) or data.get("format") != "mjarena-replay":
        raise UploadError('not an mjarena replay (no "format": "mjarena-replay")')
    for key in ("rules", "wall", "seats", "events", "decisions"):
        if key not in data:
            raise UploadError(f"the replay has no {key!r}")
    return viewer_data(data)


def viewer_data(data: dict[str, Any]) -> dict[str, Any]:
    """Everything the replay viewer shows of a replay: its :func:`~mjarena.web.timeline.timeline`, its
    :func:`~mjarena.web.transcripts.transcripts`, its end-of-game :func:`~mjarena.web.outcome.outcome` and the
    chart of its ``distances`` (:func:`~mjarena.web.distances.distance_chart`: ``{"svg", "table"}``);
    :class:`UploadError` if the replay does not hold together."""
    from mjarena.web.distances import distance_chart
    from mjarena.web.outcome import outcome
    from mjarena.web.timeline import TimelineError, timeline
    from mjarena.web.transcripts import transcripts

    try:
        view = timeline(data)
        view["transcripts"] = transcripts(data)
        view["outcome"] = outcome(data)
        view["distance_chart"] = distance_chart(view, _players(view))
        return view
    except TimelineError as error:
        raise UploadError(str(error)) from None
    except (KeyError, IndexError, *_BAD_JSON) as error:
        raise UploadError(f"a damaged replay ({type(error).__name__}: {str(error)[:200]})") from None


def _players(view: dict[str, Any]) -> list[str]:
    """Who played each seat, as the viewer names them: a tournament's entrant name, else the bot.

    >>> _players({"seats": [{"bot": "builtin:greedy"}] * 2, "tournament": {"bots": ["greedy-1", "greedy-2"]}})
    ['greedy-1', 'greedy-2']
    """
    tournament = view.get("tournament")
    entrants = tournament.get("bots") if isinstance(tournament, dict) else None
    bots = [str(seat.get("bot")) for seat in view["seats"]]
    if isinstance(entrants, list) and len(entrants) == len(bots):
        return [str(entrant) for entrant in entrants]
    return bots


class Library:
    """The replays and tournaments under ``root``."""

    def __init__(self, root: str | Path) -> None:
        self.root = Path(root).resolve()
        self._meta: dict[Path, tuple[tuple[int, int], dict[str, Any] | None]] = {}
        self._views: dict[Path, tuple[tuple[int, int], dict[str, Any]]] = {}
        self._times: dict[Path, tuple[tuple[int, int], dict[str, Any]]] = {}

    # -- names -----------------------------------------------------------------------------------------

    def resolve(self, name: str, *, folder: bool = False) -> Path:
        """The file (or folder) ``name`` (a relative path with ``/``) under the root; :class:`NotFound` for
        anything else: a missing file, an absolute path, a ``..`` step, a link that leads out."""
        parts = name.split("/")
        if not name or "\x00" in name or "\\" in name or name.startswith("/") or ".." in parts:
            raise NotFound(f"no such file here: {name!r}")
        try:  # a name too long for the file system (ENAMETOOLONG) is no file here either
            path = (self.root / name).resolve()
            found = path.is_relative_to(self.root) and (path.is_dir() if folder else path.is_file())
        except OSError:
            found = False
        if not found:
            raise NotFound(f"no such file here: {name[:200]!r}")
        return path

    def name_of(self, path: Path) -> str:
        return path.relative_to(self.root).as_posix()

    # -- replays ---------------------------------------------------------------------------------------

    def _files(self) -> Iterator[Path]:
        """Every ``*.json`` under the root (hidden folders skipped; links only to files under the root)."""
        for folder, dirs, files in os.walk(self.root):
            dirs[:] = sorted(d for d in dirs if not d.startswith("."))
            for file in files:
                path = Path(folder) / file
                if (file.endswith(".json") and file not in _SKIPPED and not file.startswith(".")
                        and path.resolve().is_relative_to(self.root)):
                    yield path

    def summary(self, path: Path) -> dict[str, Any] | None:
        """Rule set, seed and seats of the replay at ``path``; None if it is not a replay, and a summary with
        ``"unreadable"`` (the reason) if it says it is one but cannot be read.  Cached by size and time."""
        try:
            stat = path.stat()
        except OSError:
            return None
        key = (stat.st_mtime_ns, stat.st_size)
        cached = self._meta.get(path)
        if cached is not None and cached[0] == key:
            return cached[1]
        summary: dict[str, Any] | None = {"name": self.name_of(path), "modified": stat.st_mtime}
        try:
            summary = self._summarize(path, stat.st_size, summary)  # type: ignore[arg-type]
        except (OSError, UnicodeDecodeError, ReplayError, *_BAD_JSON) as error:
            reason = "nested too deeply to read" if isinstance(error, RecursionError) else str(error)
            summary["unreadable"] = reason.removeprefix(f"{path}: ")[:200]  # type: ignore[index]
        self._meta[path] = (key, summary)
        return summary

    @staticmethod
    def _summarize(path: Path, size: int, summary: dict[str, Any]) -> dict[str, Any] | None:
        if size > MAX_REPLAY_BYTES:
            raise ReplayError(f"too large to show ({size} bytes)")
        with open(path, "rb") as file:
            if _MARK not in file.read():
                return None
        data = load(path)
        seats = data["seats"]
        return {
            **summary, "rules": str(data["rules"]), "seed": data.get("seed"),
            "bots": [str(seat.get("bot")) for seat in seats], "points": [seat.get("points") for seat in seats],
            "errors": sum(1 for seat in seats if seat.get("reason")),
        }

    def replays(self) -> list[dict[str, Any]]:
        """Summaries of the replays under the root (see :meth:`summary`), by folder (the root's first), newest
        first in each."""
        found = [s for s in map(self.summary, self._files()) if s is not None]
        found.sort(key=lambda s: (s["name"].count("/") > 0, s["name"].rpartition("/")[0], -s["modified"], s["name"]))
        return found

    def view(self, name: str) -> dict[str, Any]:
        """The viewer's data of replay ``name`` (see :func:`check_replay`): :class:`NotFound`, or
        :class:`UploadError` if the file is not a replay."""
        path = self.resolve(name)
        if not name.endswith(".json"):
            raise NotFound(f"no such file here: {name!r}")
        stat = path.stat()
        if stat.st_size > MAX_REPLAY_BYTES:
            raise UploadError(f"{name}: too large to show ({stat.st_size} bytes)")
        key = (stat.st_mtime_ns, stat.st_size)
        cached = self._views.get(path)
        if cached is None or cached[0] != key:
            cached = (key, check_replay(path.read_bytes()))
            self._views[path] = cached
            while len(self._views) > 16:
                self._views.pop(next(iter(self._views)))
        return {"name": name, **cached[1]}

    def save_upload(self, filename: str, raw: bytes) -> str:
        """Check and keep an uploaded replay as ``uploads/<name>.json``; its name."""
        check_replay(raw)
        stem = _SAFE_STEM.sub("-", Path(filename or "upload").stem).strip("-.")[:60] or "upload"
        folder = self.root / "uploads"
        folder.mkdir(exist_ok=True)
        for number in range(1, 10_000):
            path = folder / (f"{stem}.json" if number == 1 else f"{stem}-{number}.json")
            try:
                with open(path, "xb") as out:
                    out.write(raw)
                return self.name_of(path)
            except FileExistsError:
                continue
        raise UploadError("too many uploads of that name")

    # -- tournaments -----------------------------------------------------------------------------------

    def tournaments(self) -> list[str]:
        """The names of the tournament folders (holding ``tournament.json``): ``-`` for the root itself."""
        names = []
        for folder, dirs, files in os.walk(self.root):
            dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d != "replays")
            if "tournament.json" in files:
                names.append(self.name_of(Path(folder)) if Path(folder) != self.root else ROOT_TOURNAMENT)
        return names

    def tournament(self, name: str) -> dict[str, Any]:
        """The state of tournament ``name`` now: settings, standings and every finished game."""
        from mjarena.arena.tournament import Settings, Tally, TournamentError

        folder = self.root if name == ROOT_TOURNAMENT else self.resolve(name, folder=True)
        try:
            meta = json.loads((folder / "tournament.json").read_text(encoding="utf-8"))
            settings = Settings.from_json(meta["parameters"])
        except FileNotFoundError:
            raise NotFound(f"no tournament here: {name!r}") from None
        except (OSError, KeyError, TournamentError, *_BAD_JSON) as error:
            raise UploadError(f"{name}/tournament.json cannot be read: {str(error)[:200] or 'nested too deeply'}") \
                from None
        records = _records(folder / "games.jsonl")
        prefix = "" if folder == self.root else self.name_of(folder) + "/"
        games, finished, timings = [], [], []
        for gid in sorted(records, key=_game_order):
            record = records[gid]
            replay = folder / "replays" / f"{gid}.json"
            times = self._answer_times(replay, record.get("bots") or [])
            if times is not None:
                finished.append(times[0])
                timings.append(times[1])
            games.append({
                "game": gid, "round": record.get("round"), "table": record.get("table"),
                "results": [{key: seat.get(key) for key in ("seat", "bot", "status", "reason", "rank", "points")}
                            for seat in record.get("results", [])],
                "replay": f"{prefix}replays/{gid}.json" if times is not None else None,
            })
        try:
            tally = Tally(settings)
            tally.extend(records)
            standings = tally.rows()
            versus = head_to_head(records)
        except (KeyError, *_BAD_JSON) as error:
            raise UploadError(f"{name}/games.jsonl holds a damaged game: {str(error)[:200]}") from None
        started = (folder / "tournament.json").stat().st_mtime
        return {
            "name": name, "rules": settings.rules, "format": settings.format, "rounds": settings.rounds,
            "seed": settings.seed, "played": len(records), "total": settings.total_games,
            "complete": len(records) >= settings.total_games,
            "eta_seconds": eta_seconds(started, finished, len(records), settings.total_games),
            "standings": standings, "ratings_by_round": tally.ratings_by_round(), "head_to_head": versus,
            "times": {bot: item for bot, item in merge_times(timings).items() if bot in settings.names}, "games": games,
        }

    def _answer_times(self, replay: Path, names: list[str]) -> tuple[float, dict[str, Any]] | None:
        """(when the replay was written, :func:`~mjarena.web.tournament_stats.answer_times`) of a tournament's
        replay, cached by size and time; None if there is no such file."""
        try:
            stat = replay.stat()
        except OSError:
            return None
        key = (stat.st_mtime_ns, stat.st_size)
        cached = self._times.get(replay)
        if cached is None or cached[0] != key:
            try:
                times = answer_times(load(replay), [str(name) for name in names])
            except (ReplayError, *_BAD_JSON):
                times = {}
            cached = self._times[replay] = (key, times)
        return stat.st_mtime, cached[1]


def _game_order(gid: str) -> tuple[int, ...]:
    """``r2-t1-g10`` sorts after ``r2-t1-g9``."""
    return tuple(int(number) for number in re.findall(r"\d+", gid))


def _records(path: Path) -> dict[str, dict[str, Any]]:
    """The complete lines of a ``games.jsonl`` by game id, read only (a line being written is left out)."""
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        return {}
    records: dict[str, dict[str, Any]] = {}
    for line in raw[: raw.rfind(b"\n") + 1].decode("utf-8", errors="replace").splitlines():
        try:
            record = json.loads(line)
            records.setdefault(record["game"], record)
        except (KeyError, *_BAD_JSON):
            continue
    return records
