"""``mjarena serve``'s index with many games kept: the first ``/`` (the index read) and every later one, as ratios
to a request that reads nothing (``/tiles/1.svg``).

    python benchmarks/serve_index.py [--games 2000] [--repeat 15] [--json FILE]

Writes ``--games`` copies of one game of greedy bots (each with its own seed, ~20 KiB, as ``played/`` holds them)
into a temporary folder, starts the app (Starlette's test client, in-process), times the first ``/`` (which reads
every file once), then ``/`` and ``/tiles/1.svg`` in ``--repeat`` alternating rounds (medians).  Issue 43 measured
the code before :mod:`mjarena.web.index` at 2,000 games: 31 to 45 s for the first ``/``, 0.67 to 1.25 s for every
later one.  Goal: a later ``/`` within 20 times the tile's (one stat a folder, a slice of the kept order, the page).
"""

from __future__ import annotations

import json
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from _bench import Record, interleave, machine_line, median, parser


def main() -> None:
    arguments = parser(__doc__)
    arguments.add_argument("--games", type=int, default=2000, help="games in the folder (default 2000)")
    arguments.add_argument("--repeat", type=int, default=15, help="alternating rounds (default 15)")
    args = arguments.parse_args()
    from starlette.testclient import TestClient

    from mjarena.arena.match import run_match
    from mjarena.web.app import create_app

    record = Record("serve_index")
    print(machine_line())
    game = run_match(["builtin:greedy"] * 4, rules="noi2014", seed=1).to_json()
    with tempfile.TemporaryDirectory() as folder:
        played = Path(folder) / "played"
        played.mkdir()
        for number in range(args.games):
            (played / f"game{number:05}.json").write_text(json.dumps({**game, "seed": number}) + "\n")
        client = TestClient(create_app(folder))
        began = time.perf_counter()
        assert client.get("/").status_code == 200
        first = time.perf_counter() - began

        def timed(path: str) -> float:
            began = time.perf_counter()
            assert client.get(path).status_code == 200
            return time.perf_counter() - began

        rounds = interleave({"/": lambda: timed("/"), "/tiles/1.svg": lambda: timed("/tiles/1.svg")}, args.repeat)
    tile = median(rounds["/tiles/1.svg"])
    later = record.add(f"a later / with {args.games} games / GET /tiles/1.svg", median(rounds["/"]) * 1000, "ms",
                       anchor=("GET /tiles/1.svg, ms", tile * 1000), goal=("<=", 20))
    opening = record.add(f"the first / with {args.games} games (the index read)", first, "s")
    print(f"{args.games} games; medians of {args.repeat} alternating rounds")
    print(f"  later /: {later['ratio']:.1f}x /tiles/1.svg ({later['value']:.1f} ms against {tile * 1000:.2f} ms; "
          f"goal <= 20x)")
    print(f"  first /: {opening['value']:.2f} s (every file read once)")
    record.save(args.json)


if __name__ == "__main__":
    main()
