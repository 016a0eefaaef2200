"""Issue 30, part 1, wherever untrusted bots play: ``mjarena tournament`` and ``compare`` with a program bot and
no ``--seed`` deal their walls from a random secret (a tournament keeps it in ``DIR/secret``, readable by its
owner only; a comparison gives it once every game is played); a given ``--seed`` is the public derivation it
always was, and built-in bots alone keep a public seed."""

from __future__ import annotations

import json
import os
import stat
import sys
from pathlib import Path
from typing import Any

from mjarena.arena.draws import Draws, derive_seed
from mjarena.cli import main

BOT = f"{sys.executable} {Path(__file__).parent / 'bots' / 'good_bot.py'} keep"


def tournament(out: Path, *extra: str) -> int:
    return main(["tournament", "--bot", f"p={BOT}", "--bot", "g=builtin:greedy", "--rounds", "1", "--sandbox",
                 "none", "--workers", "1", "--quiet", "--out", str(out), *extra])


def test_a_tournament_with_a_program_bot_and_no_seed_deals_from_a_secret_kept_in_its_folder(
        tmp_path: Path, capsys: Any) -> None:
    out = tmp_path / "t"
    assert tournament(out) == 0
    secret = out / "secret"
    assert stat.S_IMODE(os.stat(secret).st_mode) == 0o600  # a bot run as another user cannot read it
    key = bytes.fromhex(secret.read_text())
    assert len(key) == 32
    parameters = json.loads((out / "tournament.json").read_text())["parameters"]
    assert parameters["seed"] is None and key.hex() not in (out / "tournament.json").read_text()
    (game,) = [json.loads(line) for line in (out / "games.jsonl").read_text().splitlines()]
    assert game["wall_seed"] == Draws.secret(key)("wall", 1, 1, 0)
    assert game["wall_seed"] not in {derive_seed(seed, "wall", 1, 1, 0) for seed in [2014, *range(1000)]}
    capsys.readouterr()
    assert tournament(out) == 0  # resumed: the same secret, every game played already
    assert secret.read_text() == key.hex() + "\n"
    assert main(["standings", str(out)]) == 0 and "secret seed" in capsys.readouterr().out
    secret.unlink()  # a tournament that has lost its secret says so
    assert main(["standings", str(out)]) == 2 and "secret: missing" in capsys.readouterr().err


def test_a_given_seed_and_built_in_bots_alone_keep_a_public_seed(tmp_path: Path) -> None:
    out = tmp_path / "seeded"
    assert tournament(out, "--seed", "2014") == 0
    (game,) = [json.loads(line) for line in (out / "games.jsonl").read_text().splitlines()]
    assert game["wall_seed"] == derive_seed(2014, "wall", 1, 1, 0) and not (out / "secret").exists()
    builtins = tmp_path / "builtins"
    assert main(["tournament", "--bot", "a=builtin:greedy", "--bot", "b=builtin:random", "--rounds", "1",
                 "--workers", "1", "--quiet", "--out", str(builtins)]) == 0
    assert type(json.loads((builtins / "tournament.json").read_text())["parameters"]["seed"]) is int
    assert not (builtins / "secret").exists()


class Recording:
    """An executor that plays here and keeps the tasks it was given."""

    workers = 1

    def __init__(self) -> None:
        self.tasks: list[Any] = []

    def run(self, fn: Any, tasks: list[Any]) -> Any:
        self.tasks += tasks
        return ((task, fn(task)) for task in tasks)


def test_compare_deals_each_set_from_the_draws_it_is_given() -> None:
    from mjarena.arena.compare import compare as run_compare

    key = bytes(range(32))
    executor = Recording()
    result = run_compare("builtin:greedy", "builtin:random", games=1, seed=Draws.secret(key), executor=executor,
                         luck=False)
    assert {task.wall_seed for task in executor.tasks} == {Draws.secret(key)("compare", 0)}
    assert result.to_json()["secret"] == key.hex()
    executor = Recording()
    assert "secret" not in run_compare("builtin:greedy", "builtin:random", games=1, seed=5, executor=executor,
                                       luck=False).to_json()
    assert {task.wall_seed for task in executor.tasks} == {derive_seed(5, "compare", 0)}


def test_compare_with_a_program_bot_and_no_seed_plays_secret_walls_and_gives_the_secret_at_the_end(
        capsys: Any) -> None:
    assert main(["compare", BOT, "builtin:greedy", "--games", "1", "--quiet", "--sandbox", "none", "--workers", "1",
                 "--json"]) == 0
    secret = json.loads(capsys.readouterr().out)["secret"]
    assert len(bytes.fromhex(secret)) == 32
    for given in ([], ["--seed", "0"]):  # built-in bots alone, and any given seed: public, as before
        assert main(["compare", "builtin:greedy", "builtin:random", "--games", "1", "--quiet", "--json", *given]) == 0
        assert "secret" not in json.loads(capsys.readouterr().out)
