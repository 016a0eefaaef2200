"""What following a game played on a Ray node costs (:mod:`mjarena.contest.live_relay`): the actor calls a game makes,
the bytes they carry, the sender's CPU for them and the relay's.

    python benchmarks/live_relay.py [--games 10] [--sandbox none|bwrap] [--json FILE]

A local Ray instance (2 CPUs) and the relay on it, made as the judge makes it; the games are played here as a
node's worker plays them (two seats of the contest tests' bot, ``tests/bots/contest_bot.py``, beside two built-in
``greedy`` players: a team's program at a table padded with house bots), their live lines handed to the relay
(:class:`~mjarena.contest.live_relay.RelaySink`, one ``append.remote`` a batch, never waited for).  The sender's CPU
is summed around each of its calls (``time.thread_time``), against the game's CPU in this process; the relay's
own CPU is summed inside its ``append``, after every call has arrived (its ``counts`` is asked last: a caller's
calls run in order).
"""

from __future__ import annotations

import resource
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))
from _bench import Record, machine_line, parser

from mjarena.arena.match import run_match
from mjarena.contest.live_file import LiveWriter
from mjarena.contest.live_relay import LiveRelay, RelaySink
from mjarena.limits import Limits
from mjarena.sandbox import Sandbox

BOT = Path(__file__).resolve().parent.parent / "tests" / "bots" / "contest_bot.py"


class CountingRelay(LiveRelay):
    """The relay, counting its calls, the bytes they carry and its own CPU time in them."""

    def __init__(self, root: str) -> None:
        super().__init__(root)
        self.calls, self.bytes, self.cpu = 0, 0, 0.0

    def append(self, game_id: int, play: int, data: bytes) -> bool:
        start = time.thread_time()
        try:
            return super().append(game_id, play, data)
        finally:
            self.calls += 1
            self.bytes += len(data)
            self.cpu += time.thread_time() - start

    def counts(self) -> tuple[int, int, float]:
        return self.calls, self.bytes, self.cpu


def own_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def main() -> None:
    arguments = parser(__doc__)
    arguments.add_argument("--games", type=int, default=10, help="games (default 10)")
    arguments.add_argument("--sandbox", default="none", help="the program bots' box: none or bwrap (default none)")
    args = arguments.parse_args()
    import ray

    record = Record("live_relay")
    print(machine_line())
    ray.init(address="local", num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        relay = ray.remote(num_cpus=0, max_restarts=0)(CountingRelay).remote(tempfile.mkdtemp(prefix="mjarena-relay-"))
        program = f"{sys.executable} {BOT}"
        bots = [program, program, "builtin:greedy", "builtin:greedy"]
        limits = Limits(time=2.0, sandbox=Sandbox.parse(args.sandbox))
        sent = [0.0]

        def timed(sink: RelaySink) -> Any:
            def send(data: bytes) -> None:
                start = time.thread_time()
                sink(data)
                sent[0] += time.thread_time() - start
            return send

        game_cpu = 0.0
        for seed in range(1, args.games + 1):
            writer = LiveWriter("noi2014", bots, timed(RelaySink(relay, seed, 1)))
            start = own_cpu()
            run_match(bots, seed=seed, limits=limits, watch=writer)
            game_cpu += own_cpu() - start
            writer.close()
            relay.done.remote(seed, 1)
        calls, size, relay_cpu = ray.get(relay.counts.remote())
    finally:
        ray.shutdown()
    games = args.games
    game = ("the game's CPU in its worker, ms", game_cpu * 1000 / games)
    record.add("actor calls a game", calls / games, "calls")
    record.add("bytes a game", size / games, "bytes")
    mine = record.add("the sender's CPU a game", sent[0] * 1000 / games, "ms", anchor=game)
    theirs = record.add("the relay's CPU a game", relay_cpu * 1000 / games, "ms", anchor=game)
    print(f"program bots ({args.sandbox}), {games} games:\n"
          f"  {calls / games:.1f} actor calls a game, {size / games / 1000:.1f} KB a game\n"
          f"  the sender's CPU {mine['value']:.3f} ms a game: {mine['ratio']:.4f}x the game's "
          f"{mine['anchor_value']:.2f} ms\n"
          f"  the relay's CPU {theirs['value']:.3f} ms a game ({relay_cpu * 1e6 / max(calls, 1):.0f} us a call)")
    record.save(args.json)


if __name__ == "__main__":
    main()
