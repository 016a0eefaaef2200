"""The two web apps' pages and API, each request as a ratio to a bare Starlette route's through the same client.

    python benchmarks/web_pages.py [--repeat 15] [--calls 20] [--json FILE]

A contest of four teams (no bot uploaded, no game: what is timed is the handlers' own work, not the games'),
in a temporary folder, its app in-process (Starlette's test client); a team's session and a console session are
written to its database as a login would.  And ``mjarena serve``'s app over an empty folder.  Each page is
requested ``--calls`` times in a row, the pages in ``--repeat`` alternating rounds (medians), with the anchor: a
route that answers ``ok`` in an app of its own, through the same kind of client (what the client and Starlette
cost, the same in any tree).  Times are the process's CPU time (every thread of it: the client's, the app's
and its worker threads'), not the wall clock's: on a loaded machine the wall clock mostly measures the others.
And, in a process of its own, the Python calls each request makes (every thread's, counted by a profile hook):
a figure the machine's load cannot move.  Meant for a before/after check of a change that should leave speed
alone (issue 45's handlers by area), in the same run:

    python benchmarks/trees.py OLD_CHECKOUT NEW_CHECKOUT --repeat 2 -- web_pages.py --repeat 5
"""

from __future__ import annotations

import argparse
import contextlib
import json
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))
from _bench import Record, interleave, machine_line, median, parser

CONTEST_PAGES = ["/", "/rounds", "/results", "/teams/red", "/team", "/admin", "/admin/games", "/api/standings",
                 "/api/games", "/api/rounds", "/api/submissions"]
SERVE_PAGES = ["/", "/play", "/api/play", "/tiles/1.svg"]


@contextmanager
def clients() -> Iterator[dict[str, Any]]:
    """Test clients, started (their lifespans run): ``anchor`` (a bare route), ``contest`` (a team's session, the
    console's session and the team's bearer token sent with every request) and ``serve`` (an empty folder)."""
    from starlette.applications import Starlette
    from starlette.responses import PlainTextResponse
    from starlette.routing import Route
    from starlette.testclient import TestClient

    from mjarena.contest.app import create_app as contest_app
    from mjarena.contest.auth import hash_token
    from mjarena.contest.model import Contest, Settings
    from mjarena.web.app import create_app as serve_app

    async def ok(request: object) -> PlainTextResponse:
        return PlainTextResponse("ok")

    with tempfile.TemporaryDirectory() as folder:
        contest, tokens = Contest.create(Path(folder) / "contest", ["red", "blue", "green", "gold"],
                                         Settings(sandbox="none", duration=60.0))
        red = next(team.id for team in contest.db.teams() if team.name == "red")
        with contest.db.transaction() as tx:
            tx.add_session(hash_token("team-cookie"), red, "csrf", time.time() + 3600)
            tx.add_admin_session(hash_token("console-cookie"), "csrf", time.time() + 3600)
        (Path(folder) / "served").mkdir()
        with contextlib.ExitStack() as running:  # each client as a context: its app started once (lifespan)
            yield {
                "anchor": running.enter_context(TestClient(Starlette(routes=[Route("/", ok)]))),
                "contest": running.enter_context(TestClient(
                    contest_app(contest), cookies={"mjarena_contest": "team-cookie", "mjarena_admin": "console-cookie"},
                    headers={"authorization": f"Bearer {tokens['teams']['red']}"})),
                "serve": running.enter_context(TestClient(serve_app(Path(folder) / "served"))),
            }


def pages() -> list[tuple[str, str]]:
    return [("contest", path) for path in CONTEST_PAGES] + [("serve", path) for path in SERVE_PAGES]


def count_calls(requests: int = 10) -> dict[str, float]:
    """The Python calls per request of each page, in every thread (the hook set before any thread starts)."""
    count = [0]

    def hook(frame: object, event: str, argument: object) -> None:
        if event == "call":
            count[0] += 1

    threading.setprofile(hook)
    found = {}
    with clients() as started:
        for client, path in pages():
            started[client].get(path)  # once before: what a first request builds, built
            sys.setprofile(hook)
            count[0] = 0
            for _ in range(requests):
                started[client].get(path)
            sys.setprofile(None)
            found[f"{client} {path}"] = count[0] / requests
    threading.setprofile(None)  # type: ignore[arg-type]
    return found


def main() -> None:
    arguments = parser(__doc__)
    arguments.add_argument("--repeat", type=int, default=15, help="alternating rounds (default 15)")
    arguments.add_argument("--calls", type=int, default=20, help="requests per page and round (default 20)")
    arguments.add_argument("--count-calls", action="store_true", help=argparse.SUPPRESS)
    args = arguments.parse_args()
    if args.count_calls:
        print(json.dumps(count_calls()))
        return
    record = Record("web_pages")
    print(machine_line())
    with clients() as started:
        def timed(client: str, path: str) -> Callable[[], float]:
            def run() -> float:
                began = time.process_time()
                for _ in range(args.calls):
                    status = started[client].get(path).status_code
                    assert status == 200, f"{client} {path}: {status}"
                return (time.process_time() - began) / args.calls

            return run

        for client, path in [("anchor", "/"), *pages()]:
            started[client].get(path)  # once before the rounds: what a first request builds, built
        contenders = {"anchor": timed("anchor", "/")}
        contenders.update({f"{client} {path}": timed(client, path) for client, path in pages()})
        rounds = interleave(contenders, args.repeat)
    anchor = median(rounds.pop("anchor")) * 1000
    print(f"CPU time, medians of {args.repeat} alternating rounds of {args.calls} requests; the anchor, a bare "
          f"route: {anchor:.2f} ms")
    for name, times in rounds.items():
        figure = record.add(f"GET {name} / a bare route", median(times) * 1000, "ms",
                            anchor=("a bare Starlette route, ms", anchor))
        print(f"  {name}: {figure['value']:.2f} ms, {figure['ratio']:.2f}x the bare route")
    counted = subprocess.run([sys.executable, __file__, "--count-calls"], capture_output=True, text=True, check=True)
    print("Python calls per request (every thread's)")
    for name, calls in json.loads(counted.stdout.splitlines()[-1]).items():
        record.add(f"Python calls per GET {name}", calls, "calls")
        print(f"  {name}: {calls:.0f}")
    record.save(args.json)


if __name__ == "__main__":
    main()
