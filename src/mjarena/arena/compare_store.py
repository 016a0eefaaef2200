"""``compare --save DIR``: a comparison's games kept in a folder, so that a stopped run resumes where it stopped and
the games that went wrong can be looked at (as cutechess-cli's ``-pgnout`` keeps its games).

``DIR`` holds:

* ``compare.json``: the parameters that decide the games (the bots, rule set, limits and seed); a resume with other
  ones is refused, ``--games`` and ``--sprt`` may change (a run can be made longer);
* ``secret``: the walls' secret of a run without ``--seed`` that has a program bot (hex, readable by its owner
  only), so that a resumed run plays the same walls;
* ``games.jsonl``: one line per finished game, ``{"game": "000003-ABBB", "wall_seed": N, "outcome": {...}}``, the
  outcome as :func:`~mjarena.arena.compare.play_seating` gave it;
* ``replays/<game>.json``: the replay of each game where a seat erred (with ``--save-all``: of every game).

Running ``compare --save DIR`` again plays only the games not in ``games.jsonl``: every wall comes from the seed
and the set's number, and sets are counted in order, so the result is the one an uninterrupted run gives.

>>> import tempfile
>>> folder = tempfile.mkdtemp()
>>> store = CompareStore.open(folder, {"a": "builtin:greedy", "b": "builtin:random", "rules": "noi2014"}, seed=5)
>>> store.add("000000-AABB", 17, {"a": 2.5, "b": 2.5, "errors": {"A": 0, "B": 0}})
>>> store.close()
>>> again = CompareStore.open(folder, {"a": "builtin:greedy", "b": "builtin:random", "rules": "noi2014"}, seed=None)
>>> again.seed, again.outcome("000000-AABB", 17)["a"], again.outcome("000000-AABB", 18)
(5, 2.5, None)
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from pathlib import Path
from typing import IO, Any

from mjarena.arena.draws import Draws, new_secret, read_secret_file, write_secret_file
from mjarena.untrusted import excerpt, parse_json

__all__ = ["CompareStore", "CompareStoreError"]

FORMAT = "mjarena-compare"
SECRET_FILE = "secret"


class CompareStoreError(ValueError):
    """A folder that cannot hold or resume this comparison: the message names the file and what is wrong."""


class CompareStore:
    """The folder of one comparison: its parameters, its walls' seed or secret, its finished games and the
    replays kept.  Open it with :meth:`open`; :meth:`add` keeps a game; :meth:`close` puts everything on disk."""

    def __init__(self, folder: Path, seed: int | None, key: bytes | None, done: dict[str, dict[str, Any]],
                 games: IO[str]) -> None:
        self.folder = folder
        self.seed = seed
        self.key = key
        self._done = done
        self._games = games
        self._unsynced: list[Path] = []

    @classmethod
    def open(cls, folder: str | Path, parameters: Mapping[str, Any], *, seed: int | None,
             secret: bool = False) -> CompareStore:
        """Open ``folder`` for the comparison of ``parameters`` (the bots, rule set and limits: what decides a
        game).  ``seed``: the public seed asked for (None: the one stored, or for a fresh folder a new secret when
        ``secret``, else 0).  :class:`CompareStoreError` when the folder holds another comparison or cannot be
        used."""
        folder = Path(folder)
        meta = folder / "compare.json"
        try:
            folder.mkdir(parents=True, exist_ok=True)
            (folder / "replays").mkdir(exist_ok=True)
            stored = _read_meta(meta) if meta.exists() else None
        except OSError as error:
            raise CompareStoreError(f"{folder}: cannot use the folder: {error.strerror or error}") from None
        key = None
        if stored is None:
            if (folder / "games.jsonl").exists():
                raise CompareStoreError(f"{folder}: holds games.jsonl without compare.json (another run's games); "
                                        "use another folder")
            if seed is None and secret:
                key = new_secret()
                _write_secret(folder / SECRET_FILE, key)
            elif seed is None:
                seed = 0
            _write_meta(meta, {**parameters, "seed": seed})
        else:
            theirs = stored["parameters"]
            changed = [name for name in parameters if theirs.get(name) != parameters[name]]
            if seed is not None and theirs.get("seed") != seed:
                changed.append("seed")
            if changed:
                raise CompareStoreError(f"{folder} holds a comparison with other parameters ({', '.join(changed)}); "
                                        "use the same command to resume it, or another folder")
            seed = theirs.get("seed")
            if seed is None:
                key = _read_secret(folder / SECRET_FILE)
        done = _read_games(folder / "games.jsonl")
        try:
            games = open(folder / "games.jsonl", "a", encoding="utf-8")  # noqa: SIM115 (closed by close())
        except OSError as error:
            raise CompareStoreError(f"{folder / 'games.jsonl'}: cannot write: {error.strerror or error}") from None
        return cls(folder, seed, key, done, games)

    @property
    def draws(self) -> Draws:
        """The walls' randomness: the stored secret, or the public seed."""
        return Draws.secret(self.key) if self.key is not None else Draws.public(self.seed or 0)

    @property
    def finished(self) -> int:
        """Games kept in ``games.jsonl``."""
        return len(self._done)

    def outcome(self, game: str, wall_seed: int) -> dict[str, Any] | None:
        """The outcome kept for ``game`` on the wall ``wall_seed``, or None when it is still to be played."""
        line = self._done.get(game)
        if line is None or line["wall_seed"] != wall_seed:
            return None
        return dict(line["outcome"])

    def add(self, game: str, wall_seed: int, outcome: Mapping[str, Any], replay: Mapping[str, Any] | None = None
            ) -> None:
        """Keep one finished game: its replay first (when there is one), then its line (written at once; put on disk
        by :meth:`sync`)."""
        if replay is not None:
            from mjarena.replay import save

            save(dict(replay), self.replay_path(game), sync=False)
            self._unsynced.append(self.replay_path(game))
        line = {"game": game, "wall_seed": wall_seed, "outcome": dict(outcome)}
        self._games.write(json.dumps(line, ensure_ascii=False) + "\n")
        self._games.flush()
        self._done[game] = line

    def replay_path(self, game: str) -> Path:
        return self.folder / "replays" / f"{game}.json"

    def replays(self) -> int:
        """How many replays the folder holds."""
        return sum(1 for _ in (self.folder / "replays").glob("*.json"))

    def sync(self) -> None:
        """Put the games kept so far on disk (their replays, then ``games.jsonl``)."""
        from mjarena.files import sync_files

        sync_files(self._unsynced)
        self._unsynced = []
        os.fsync(self._games.fileno())

    def close(self) -> None:
        if not self._games.closed:
            self.sync()
            self._games.close()


def _read_meta(path: Path) -> dict[str, Any]:
    try:
        data = parse_json(path.read_text(encoding="utf-8"))
    except (UnicodeDecodeError, ValueError) as error:
        raise CompareStoreError(f"{path}: not a comparison's parameters ({error})") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT or not isinstance(data.get("parameters"), dict):
        raise CompareStoreError(f"{path}: not a comparison's parameters (format {FORMAT!r} expected)")
    return data


def _write_meta(path: Path, parameters: Mapping[str, Any]) -> None:
    from mjarena.files import write_atomically

    write_atomically(path, json.dumps({"format": FORMAT, "version": 1, "parameters": dict(parameters)},
                                      indent=2, ensure_ascii=False) + "\n")


def _write_secret(path: Path, key: bytes) -> None:
    """Keep ``key`` in ``path``, readable by its owner only (a run that dealt no game may have left one)."""
    path.unlink(missing_ok=True)
    write_secret_file(path, key)


def _read_secret(path: Path) -> bytes:
    try:
        return read_secret_file(path, "this comparison's")
    except ValueError as error:
        raise CompareStoreError(str(error)) from None


def _line_problem(line: Any) -> str | None:
    """What is wrong with one parsed line of ``games.jsonl``, or None."""
    if not isinstance(line, dict) or type(line.get("game")) is not str or type(line.get("wall_seed")) is not int:
        return "not a game line (game, wall_seed, outcome)"
    outcome = line.get("outcome")
    if not isinstance(outcome, dict) or not all(type(outcome.get(key)) in (int, float) for key in ("a", "b")):
        return f"game {excerpt(line['game'], 30)}: its outcome has no points"
    errors = outcome.get("errors")
    if not isinstance(errors, dict) or not all(type(errors.get(side)) is int for side in "AB"):
        return f"game {excerpt(line['game'], 30)}: its outcome has no errors of A and B"
    return None


def _read_games(path: Path) -> dict[str, dict[str, Any]]:
    """The lines of ``games.jsonl`` by game; a last line cut short (a run killed while writing it) is dropped."""
    from mjarena.files import complete_lines

    try:
        lines = complete_lines(path)
    except OSError as error:
        raise CompareStoreError(f"{path}: cannot read: {error.strerror or error}") from None
    done: dict[str, dict[str, Any]] = {}
    for number, text in lines:
        try:
            line = parse_json(text.decode("utf-8"))
        except (UnicodeDecodeError, ValueError) as error:
            raise CompareStoreError(f"{path}:{number}: not a game line ({error})") from None
        problem = _line_problem(line)
        if problem is not None:
            raise CompareStoreError(f"{path}:{number}: {problem}")
        done[line["game"]] = line
    return done
