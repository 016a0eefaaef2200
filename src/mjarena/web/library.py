"""The files a server shows: replays and tournaments under one folder, and nothing outside it.

Every name that comes from a request goes through :meth:`Library.resolve`, which refuses absolute paths, ``..``
and anything (a symbolic link included) that ends up outside the folder.  The folder is only read, except for
``uploads/`` (uploaded replays) and ``played/`` (games played on the page), each within a quota and a share of it
per client (:mod:`mjarena.web.shelf`); a running tournament's files are never touched (its ``games.jsonl`` is read
up to its last complete line).  The replays are listed from an index kept in memory (:mod:`mjarena.web.index`).

>>> import tempfile
>>> library = Library(tempfile.mkdtemp())
>>> library.resolve("../etc/passwd")
Traceback (most recent call last):
...
mjarena.web.library.NotFound: no such file here: '../etc/passwd'
"""

from __future__ import annotations

import hashlib
import json
import re
import threading
import time
from collections import OrderedDict, deque
from pathlib import Path
from types import EllipsisType
from typing import Any

from mjarena.i18n import LOCALES, N_, active, worded
from mjarena.replay import ReplayError, check, load
from mjarena.untrusted import parse_json
from mjarena.web import shelf
from mjarena.web.index import Index
from mjarena.web.tournament_stats import answer_times, eta_seconds, head_to_head, merge_times

__all__ = ["MAX_VIEW_BYTES", "PAGE_SIZE", "PLAYED_FILES", "PLAYED_TOTAL", "SHARE", "UPLOAD_FILES", "UPLOAD_RATE",
           "UPLOAD_TOTAL", "VIEW_CACHE_BYTES", "Library", "NotFound", "QuotaError", "UploadError", "check_replay",
           "view_bytes", "viewer_data"]

PAGE_SIZE = 50
"""Replays per page of the index."""
MAX_REPLAY_BYTES = 64 << 20
"""Larger files are not read as replays."""
ROOT_TOURNAMENT = "-"
"""The name of the tournament held in the folder itself (``mjarena serve results/``)."""
MAX_VIEW_BYTES = 16 << 20
"""The largest viewer's data (JSON bytes) a replay may make: a replay whose view would be larger is refused.  The
longest games make 0.3 to 2.4 MB (a 百搭 game of 107 events: 0.25 MB; 496 draws and discards: 2.4 MB)."""
VIEW_CACHE_BYTES = 64 << 20
"""The viewers' data kept in memory, in all (the least recently viewed go first)."""
UPLOAD_TOTAL = 256 << 20
"""Bytes ``uploads/`` may hold: an upload beyond them is refused (413)."""
UPLOAD_FILES = 1000
"""Files ``uploads/`` may hold: an upload beyond them is refused (413)."""
UPLOAD_RATE = (20, 3600.0)
"""Uploads one client (an IPv4 address, an IPv6 /64) may make in so many seconds: more are refused (429)."""
PLAYED_TOTAL = 256 << 20
"""Bytes ``played/`` may hold: beyond them the oldest games are removed (a game of greedy bots is about 20 KiB)."""
PLAYED_FILES = 10_000
"""Games ``played/`` may hold: beyond them the oldest are removed."""
SHARE = 1 / 8
"""The share of ``uploads/`` and of ``played/`` (bytes and files) one client may hold: its uploads beyond it are
refused (413), its own oldest games removed."""
UPLOADS = "uploads"
"""The folder under the root where uploads are kept, each named by its content's hash."""
PLAYED = "played"
"""The folder under the root where the games played on the page are kept."""
_SERVERS_FOLDERS = {UPLOADS, PLAYED}
"""The server's own folders under the root: never a tournament."""
_MARK = b'"mjarena-replay"'
"""Bytes every replay holds (its ``"format"``): files without them are not replays, and are not listed."""
_GAME_ID = re.compile(r"[A-Za-z0-9_-]{1,80}")
"""A game id a tournament's ``games.jsonl`` may name a replay by (``r1-t2-g3``): nothing with a ``/`` or ``..``."""
_BAD_JSON = (ValueError, RecursionError, TypeError, AttributeError)
"""What reading a hostile file can raise: ``json.loads`` raises RecursionError on deep nesting, not ValueError."""


class NotFound(LookupError):
    """A name that is not a file (or folder) of the library; answered with 404 whatever the reason."""


class UploadError(ValueError):
    """An uploaded file that is not a replay this server can show (the message says why)."""


def check_replay(raw: bytes) -> dict[str, Any]:
    """What the viewer shows of the replay in ``raw`` (JSON bytes): the replay checked by
    :func:`mjarena.replay.check` (as ``mjarena replay --check``, the contest and the viewer all check it), then its
    :func:`viewer_data`; :class:`UploadError` saying what is wrong.

    >>> check_replay(b'{"format": "something else"}')
    Traceback (most recent call last):
    ...
    mjarena.web.library.UploadError: not an mjarena replay (no "format": "mjarena-replay")
    """
    return viewer_data(_checked(raw))


def _checked(raw: bytes) -> dict[str, Any]:
    """The replay in ``raw``, checked by :func:`mjarena.replay.check`; :class:`UploadError` saying what is wrong."""
    try:
        data = parse_json(raw.decode("utf-8"))
    except UnicodeDecodeError:
        raise UploadError(worded(N_("not a replay: the file is not UTF-8 text"))) from None
    except ValueError as error:
        reason = worded(N_("its JSON is nested too deeply to read")) if "nested too deeply" in str(error) \
            else str(error)  # the parser's own words, as a compiler's output is shown
        raise UploadError(worded(N_("not a replay: %(reason)s"), reason=reason)) from None
    try:
        return check(data)
    except ReplayError as error:
        raise UploadError(str(error)) from None


def view_bytes(raw: bytes, limit: int = MAX_VIEW_BYTES) -> bytes:
    """The viewer's data of the replay in ``raw`` (:func:`check_replay`) as JSON bytes, at most ``limit`` of them;
    :class:`UploadError` otherwise.  Built where it is called (a worker thread, never the event loop).

    >>> view_bytes(b'{}')
    Traceback (most recent call last):
    ...
    mjarena.web.library.UploadError: not an mjarena replay (no "format": "mjarena-replay")
    """
    return _encoded(check_replay(raw), limit)


def _encoded(view: dict[str, Any], limit: int) -> bytes:
    encoded = json.dumps(view, ensure_ascii=False, separators=(",", ":")).encode()
    if len(encoded) > limit:
        raise UploadError(f"the viewer's data of this replay would be {len(encoded) >> 10} KiB, more than the "
                          f"limit of {limit >> 10} KiB")
    return encoded


class QuotaError(UploadError):
    """An upload the server has no room for (413) or that comes too soon after the client's last (429)."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


def _light_check(data: Any) -> dict[str, Any]:
    """What the index needs of a replay (its rule set and four seats), without :func:`mjarena.replay.check`'s
    reading of every event (the viewer checks it all when it is opened): :class:`ReplayError` otherwise."""
    from mjarena.rulesets import RULE_SETS

    if not isinstance(data, dict) or data.get("format") != "mjarena-replay":
        raise ReplayError('not an mjarena replay (no "format": "mjarena-replay")')
    if data.get("rules") not in RULE_SETS:
        raise ReplayError(f'"rules": not a rule set of mjarena ({str(data.get("rules"))[:40]!r})')
    seats = data.get("seats")
    if not (isinstance(seats, list) and len(seats) == 4 and all(isinstance(seat, dict) for seat in seats)):
        raise ReplayError('"seats" is not a list of 4 seats')
    return data


def viewer_data(data: dict[str, Any], decided: list[int] | EllipsisType | None = ..., *,
                finished: bool = True) -> dict[str, Any]:
    """Everything the replay viewer shows of a replay: its :func:`~mjarena.web.timeline.timeline`, its
    :func:`~mjarena.web.transcripts.transcripts`, its end-of-game :func:`~mjarena.web.outcome.outcome` (None for
    a game not ``finished``: the contest's live view) and the chart of its ``distances``
    (:func:`~mjarena.web.distances.distance_chart`: ``{"svg", "table"}``); ``decided``: the step of each decision
    when the caller knows them (:func:`~mjarena.web.timeline.decision_steps`, else worked out here);
    :class:`UploadError` if the replay does not hold together."""
    from mjarena.table import TimelineError
    from mjarena.web.distances import distance_chart
    from mjarena.web.outcome import outcome
    from mjarena.web.timeline import decision_steps, timeline
    from mjarena.web.transcripts import transcripts

    try:
        # the game played again once, for the error marks and the transcripts
        steps = decision_steps(data) if decided is ... else decided
        view = timeline(data, steps)
        view["transcripts"] = transcripts(data, steps)
        view["outcome"] = outcome(data) if finished else None
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
    """The replays and tournaments under ``root``; uploads kept in ``root/uploads/`` within ``upload_total`` bytes,
    ``upload_files`` files, and ``upload_rate`` (count, seconds) per client; games played kept in ``root/played/``
    within ``played_total`` bytes and ``played_files`` files (the oldest removed first); a client may hold
    ``share`` of each."""

    def __init__(self, root: str | Path, *, upload_total: int = UPLOAD_TOTAL, upload_files: int = UPLOAD_FILES,
                 upload_rate: tuple[int, float] = UPLOAD_RATE, view_cache: int = VIEW_CACHE_BYTES,
                 played_total: int = PLAYED_TOTAL, played_files: int = PLAYED_FILES, share: float = SHARE) -> None:
        self.root = Path(root).resolve()
        self.upload_rate = upload_rate
        self.view_cache = view_cache
        # the viewer's data of a replay in each language it was asked in (its words are the reader's)
        self._views: OrderedDict[tuple[Path, str], tuple[tuple[int, int], bytes]] = OrderedDict()
        self._times: dict[Path, tuple[tuple[int, int], dict[str, Any]]] = {}
        self._lock = threading.Lock()
        self._recent: OrderedDict[str, deque[float]] = OrderedDict()  # client -> times of its recent uploads
        self.uploads = shelf.Shelf(self.root / UPLOADS, total=upload_total, files=upload_files, share=share,
                                   evict=False, what="uploads")
        self.played = shelf.Shelf(self.root / PLAYED, total=played_total, files=played_files, share=share,
                                  evict=True, what="games played")
        self.index = Index(self.root, self.summary)

    # -- names -----------------------------------------------------------------------------------------

    def resolve(self, name: str, *, folder: bool = False) -> Path:
        """The file (or folder) ``name`` (a relative path with ``/``) under the root; :class:`NotFound` for
        anything else: a missing file, an absolute path, a ``..`` step, a link that leads out."""
        parts = name.split("/")
        if not name or "\x00" in name or "\\" in name or name.startswith("/") or ".." in parts:
            raise NotFound(worded(N_("no such file here: %(name)s"), name=repr(name)))
        try:  # a name too long for the file system (ENAMETOOLONG) is no file here either
            path = (self.root / name).resolve()
            found = path.is_relative_to(self.root) and (path.is_dir() if folder else path.is_file())
        except OSError:
            found = False
        if not found:
            raise NotFound(worded(N_("no such file here: %(name)s"), name=repr(name[:200])))
        return path

    def inside(self, path: Path) -> Path | None:
        """``path`` (a file the server was about to read), resolved, if it is a file under the root; None for a
        missing file or one a link takes outside the root (read as if it did not exist)."""
        try:
            resolved = path.resolve()
            return resolved if resolved.is_relative_to(self.root) and resolved.is_file() else None
        except OSError:
            return None

    def name_of(self, path: Path) -> str:
        return path.relative_to(self.root).as_posix()

    # -- replays ---------------------------------------------------------------------------------------

    def summary(self, path: Path) -> dict[str, Any] | None:
        """Rule set, seed and seats of the replay at ``path``; None if it is not a replay, and a summary with
        ``"unreadable"`` (the reason) if it says it is one but cannot be read.  Read once by the index
        (:mod:`mjarena.web.index`), which keeps it while the file's size and time stand."""
        try:
            stat = path.stat()
        except OSError:
            return None
        summary: dict[str, Any] = {"name": self.name_of(path), "modified": stat.st_mtime}
        try:
            return self._summarize(path, stat.st_size, summary)
        except (OSError, UnicodeDecodeError, ReplayError, *_BAD_JSON) as error:
            reason = "nested too deeply to read" if isinstance(error, RecursionError) else str(error)
            summary["unreadable"] = reason.removeprefix(f"{path}: ")[:200]
        return summary

    @staticmethod
    def _summarize(path: Path, size: int, summary: dict[str, Any]) -> dict[str, Any] | None:
        if size > MAX_REPLAY_BYTES:
            raise ReplayError(f"too large to show ({size} bytes)")
        with open(path, "rb") as file:
            raw = file.read()
        if _MARK not in raw:
            return None
        try:
            data = parse_json(raw.decode("utf-8"))
        except ValueError as error:
            raise ReplayError(f"not a replay ({error})") from None
        return _summary_of(_light_check(data), summary)

    def replays(self) -> list[dict[str, Any]]:
        """Summaries of the replays under the root (see :meth:`summary`), by folder (the root's first), newest
        first in each: the index's (one ``stat`` a folder, the files read once)."""
        return self.index.replays()

    def view(self, name: str) -> bytes:
        """The viewer's data of replay ``name`` as JSON bytes (see :func:`view_bytes`): :class:`NotFound`, or
        :class:`UploadError` if the file is not a replay.  Kept in memory up to ``view_cache`` bytes in all."""
        path = self.resolve(name)
        if not name.endswith(".json"):
            raise NotFound(worded(N_("no such file here: %(name)s"), name=repr(name)))
        stat = path.stat()
        if stat.st_size > MAX_REPLAY_BYTES:
            raise UploadError(f"{name}: too large to show ({stat.st_size} bytes)")
        key = (stat.st_mtime_ns, stat.st_size)
        with self._lock:
            cached = self._views.get((path, active()))
            if cached is not None and cached[0] == key:
                self._views.move_to_end((path, active()))
        if cached is None or cached[0] != key:
            cached = (key, view_bytes(path.read_bytes()))
            self._keep_view(path, cached)
        return b'{"name":' + json.dumps(name, ensure_ascii=False).encode() + b"," + cached[1][1:]

    def cached_view_bytes(self) -> int:
        """The bytes of viewer's data kept in memory now (at most ``view_cache``)."""
        with self._lock:
            return sum(len(view) for _, view in self._views.values())

    def _keep_view(self, path: Path, cached: tuple[tuple[int, int], bytes]) -> None:
        """Keep the viewer's data of ``path`` in the active language (:func:`mjarena.i18n.active`)."""
        with self._lock:
            self._views.pop((path, active()), None)
            if len(cached[1]) > self.view_cache:
                return
            self._views[(path, active())] = cached
            total = sum(len(view) for _, view in self._views.values())
            while total > self.view_cache:
                _, (_, dropped) = self._views.popitem(last=False)
                total -= len(dropped)

    def save_upload(self, raw: bytes, client: str = "") -> str:
        """Check and keep an uploaded replay as ``uploads/<hash of its bytes>.json`` (the same file uploaded again
        is the same name, kept once), without the keys the format does not name; its name.  :class:`UploadError`
        for a file that is not a replay or is larger than a game of its rules (:mod:`mjarena.web.upload_rules`);
        :class:`QuotaError` when ``uploads/`` or the ``client``'s share of it is full (413) or the ``client``
        uploads too often (429)."""
        from mjarena.web.upload_rules import check_upload

        self._count_upload(client)
        try:
            data = check_upload(_checked(raw), len(raw))
        except ReplayError as error:
            raise UploadError(str(error)) from None
        raw = (json.dumps(data, ensure_ascii=False) + "\n").encode()  # what is kept: the format's keys alone
        encoded = _encoded(viewer_data(data), MAX_VIEW_BYTES)  # checked once, here: the viewer and index reuse it
        folder = self.root / UPLOADS
        path = folder / f"{hashlib.sha256(raw).hexdigest()[:32]}.json"
        with self._lock:
            if path in self.uploads:
                return self.name_of(path)
            try:
                self.uploads.make_room(len(raw), client)
            except shelf.QuotaError as error:
                raise QuotaError(error.status, str(error)) from None
            folder.mkdir(exist_ok=True)
            if folder.is_symlink() or not folder.resolve().is_relative_to(self.root):
                raise OSError(f"{UPLOADS}/ leads out of the folder served")
            try:
                with open(path, "xb") as out:
                    out.write(raw)
            except FileExistsError:
                pass  # the same bytes, under their hash
            self.uploads.add(path, len(raw), client)
        stat = path.stat()
        self.index.add(path, _summary_of(data, {"name": self.name_of(path), "modified": stat.st_mtime}))
        self._keep_view(path, ((stat.st_mtime_ns, stat.st_size), encoded))
        return self.name_of(path)

    def save_played(self, data: dict[str, Any], name: str, client: str = "") -> str:
        """Keep the game ``data`` played on the page as ``played/NAME`` (:func:`mjarena.replay.save`), within the
        quota of ``played/`` and the ``client``'s share of it: the oldest games (the client's own first) are
        removed to make room.  Its name under the root; :class:`OSError` if it cannot be written."""
        from mjarena.replay import save

        encoded = json.dumps(data, ensure_ascii=False) + "\n"
        path = self.root / PLAYED / name
        folder = path.parent
        if folder.is_symlink() or (folder.exists() and not folder.resolve().is_relative_to(self.root)):
            raise OSError(f"{PLAYED}/ leads out of the folder served")
        size = len(encoded.encode())
        with self._lock:
            for removed in self.played.make_room(size, client):
                self.index.remove(folder / removed)
                for locale in LOCALES:
                    self._views.pop((folder / removed, locale), None)
            save(data, path)
            self.played.add(path, size, client)
        self.index.add(path, _summary_of(data, {"name": self.name_of(path), "modified": path.stat().st_mtime}))
        return self.name_of(path)

    def _count_upload(self, client: str) -> None:
        """Count an upload of ``client``; :class:`QuotaError` 429 if it made ``upload_rate[0]`` in the last
        ``upload_rate[1]`` seconds."""
        most, seconds = self.upload_rate
        now = time.monotonic()
        with self._lock:
            while self._recent:  # forget clients whose last upload is older than the window
                oldest, times = next(iter(self._recent.items()))
                if times and now - times[-1] < seconds:
                    break
                del self._recent[oldest]
            times = self._recent.setdefault(client, deque())
            self._recent.move_to_end(client)
            while times and now - times[0] >= seconds:
                times.popleft()
            if len(times) >= most:
                wait = int(seconds - (now - times[0])) + 1
                raise QuotaError(429, f"at most {most} uploads per {seconds / 60:g} minutes from one address; "
                                      f"try again in {wait} s")
            times.append(now)

    # -- tournaments -----------------------------------------------------------------------------------

    def tournaments(self) -> list[str]:
        """The names of the tournament folders (holding ``tournament.json``): ``-`` for the root itself; never the
        server's own folders (``uploads/``, ``played/``) or a folder within a ``replays/``, nor a
        ``tournament.json`` that leads out.  From the index's folders (:mod:`mjarena.web.index`)."""
        names = []
        for here in self.index.tournament_folders():
            parts = here.relative_to(self.root).parts
            if parts and (parts[0] in _SERVERS_FOLDERS or "replays" in parts):
                continue
            if self.inside(here / "tournament.json") is not None:
                names.append(self.name_of(here) if here != self.root else ROOT_TOURNAMENT)
        return names

    def tournament(self, name: str) -> dict[str, Any]:
        """The state of tournament ``name`` now: settings, standings and every finished game.  Every file it reads
        is resolved inside the root (a link leading out reads as no file)."""
        from mjarena.arena.standings import Tally
        from mjarena.arena.tournament_settings import Settings, TournamentError

        folder = self.root if name == ROOT_TOURNAMENT else self.resolve(name, folder=True)
        if folder != self.root and folder.relative_to(self.root).parts[0] in _SERVERS_FOLDERS:
            raise NotFound(worded(N_("no tournament here: %(name)s"), name=repr(name)))
        meta_file = self.inside(folder / "tournament.json")
        if meta_file is None:
            raise NotFound(worded(N_("no tournament here: %(name)s"), name=repr(name)))
        try:
            meta = json.loads(meta_file.read_text(encoding="utf-8"))
            settings = Settings.from_json(meta["parameters"])
        except FileNotFoundError:
            raise NotFound(worded(N_("no tournament here: %(name)s"), name=repr(name))) from None
        except (OSError, KeyError, TournamentError, *_BAD_JSON) as error:
            raise UploadError(worded(N_("%(name)s/tournament.json cannot be read: %(error)s"), name=name,
                                     error=str(error)[:200] or "nested too deeply")) from None
        games_file = self.inside(folder / "games.jsonl")
        records = _records(games_file) if games_file is not None else {}
        prefix = "" if folder == self.root else self.name_of(folder) + "/"
        games, finished, timings = [], [], []
        for gid in sorted(records, key=_game_order):
            record = records[gid]
            replay = self.inside(folder / "replays" / f"{gid}.json") if _GAME_ID.fullmatch(str(gid)) else None
            times = self._answer_times(replay, record.get("bots") or []) if replay is not None else None
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
            raise UploadError(worded(N_("%(name)s/games.jsonl holds a damaged game: %(error)s"), name=name,
                                     error=str(error)[:200])) from None
        started = meta_file.stat().st_mtime
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


def _summary_of(data: dict[str, Any], summary: dict[str, Any]) -> dict[str, Any]:
    """``summary`` (name and time) with the rule set, seed, bots, points and errors of the replay ``data``."""
    seats = data["seats"]
    return {
        **summary, "rules": str(data["rules"]), "seed": data.get("seed"),
        "bots": [str(seat.get("bot")) for seat in seats], "points": [seat.get("points") for seat in seats],
        "errors": sum(1 for seat in seats if seat.get("reason")),
    }


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
