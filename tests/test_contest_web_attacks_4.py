"""The contest's web side under the fourth round of attacks (issue 43, points 1-4): team names that a spreadsheet
runs as formulas, names that look alike, a flood of questions, archive members named by an upload.

The contest of test_contest.py (games played in this process, the test bot outside the sandbox).
"""

from __future__ import annotations

import csv
import io
import json
import re
import unicodedata
import zipfile
from pathlib import Path
from typing import Any

import pytest

from contest_forms import form_csrf, post_login
from mjarena.arena.collusion import PAIR_COLUMNS, pairs_csv
from mjarena.arena.standings import standings_csv as tournament_csv
from mjarena.cli import main
from mjarena.contest.archive import write_archive
from mjarena.contest.messages import MAX_OPEN_QUESTIONS, QUESTION_SECONDS, QUESTIONS_PER_PAGE, announce
from mjarena.contest.model import Contest, ContestError, Settings
from test_contest import BOT, Server, play_round
from test_contest_admin import console

OWASP_STARTS = ("=", "+", "-", "@", "\t", "\r")
"""What a spreadsheet reads as the start of a formula (OWASP, *CSV injection*)."""
TEAM_FORMULAS = ["+B2", "-2+3", "-A1+A1", "+1.5E+9"]
"""Team names that were accepted and written as bare formulas (a team name's letters allow ``+`` and ``-``)."""
OTHER_FORMULAS = ["=1+1", "@SUM(A1)", "\tx", "\r=1+1", "-2+3"]
"""Formulas that a tournament's bot names, specs or any other writer's text could hold."""


def csv_cells(text: str) -> list[list[str]]:
    """The rows of a CSV text as Python's csv module reads them."""
    rows = list(csv.reader(io.StringIO(text)))
    assert rows and all(rows), text[:200]
    return rows


def assert_no_formula(text: str, names: list[str]) -> None:
    """No cell of ``text`` starts as a formula unless it is a number, and each of ``names`` is there after a
    quote (so it was written, and neutralised)."""
    cells = [cell for row in csv_cells(text) for cell in row]
    for cell in cells:
        if cell.startswith(OWASP_STARTS):
            float(cell)  # a number (a negative score) is not a formula; anything else starting so is
    for name in names:
        assert "'" + name in cells, (name, text[:300])


# -- 1. formulas in exports ------------------------------------------------------------------------------------


def test_every_csv_of_a_contest_writes_formula_names_as_text_and_numbers_as_numbers(tmp_path: Path,
                                                                                    capsys: Any) -> None:
    server = Server(tmp_path / "c", TEAM_FORMULAS)
    for team in TEAM_FORMULAS:
        assert server.upload(team).status_code == 201
    play_round(server)
    root = str(server.contest.root)
    console(server)
    texts = {path: server.client.get(path) for path in ("/admin/export.csv", "/admin/pairs.csv")}
    assert all(response.status_code == 200 for response in texts.values())
    found = {path: response.text for path, response in texts.items()}
    for form in ("csv", "pairs"):
        assert main(["contest", "export", root, "--format", form]) == 0
        found[f"export --format {form}"] = capsys.readouterr().out
    archive = io.BytesIO()
    write_archive(server.contest, archive)
    found["archive.zip standings.csv"] = zipfile.ZipFile(archive).read("standings.csv").decode()
    assert len(found) == 5
    for text in found.values():
        assert_no_formula(text, TEAM_FORMULAS)
    standings = csv_cells(found["/admin/export.csv"])
    for row in standings[1:]:  # rank, team, points, games, points_per_game, version: all but the team numbers
        numbers = [cell for i, cell in enumerate(row) if i != 1]
        assert all(float(cell) == float(cell) for cell in numbers), row
    pairs = csv_cells(found["/admin/pairs.csv"])
    assert len(pairs) > 1 and {row[0] for row in pairs[1:]} <= {"'" + name for name in TEAM_FORMULAS}


def test_a_tournaments_standings_and_any_pairs_report_write_formulas_as_text() -> None:
    rows = [{"rank": 1, "bot": name, "spec": name, "games": 2, "points": -3.5, "average_rank": None, "rating": -1.25,
             "mu": 25.0, "sigma": 7.9, "errors": {}} for name in OTHER_FORMULAS]
    text = tournament_csv(rows)
    assert_no_formula(text, OTHER_FORMULAS)
    assert [row[4] for row in csv_cells(text)[1:]] == ["-3.5"] * len(rows)  # a number stays a number
    report = {"pairs": [{column: None for column in PAIR_COLUMNS} | {"from": name, "to": "red", "games": -1}
                        for name in OTHER_FORMULAS]}
    assert_no_formula(pairs_csv(report), OTHER_FORMULAS)


# -- 2. names that look alike --------------------------------------------------------------------------------

LOOK_ALIKES = [("ada", "ADA"), ("ada", "Ada"), ("bill", "biIl"), ("bill", "bi1l"), ("teamO", "team0"),
               ("max", "rnax"), ("win", "vvin"), ("Sam", "5am")]


@pytest.mark.parametrize(("first", "second"), LOOK_ALIKES)
def test_a_name_like_anothers_is_refused_at_creation(tmp_path: Path, first: str, second: str) -> None:
    with pytest.raises(ContestError, match=f"'{first}' and '{second}' look alike"):
        Contest.create(tmp_path / "c", [first, "red", second], Settings())


def test_a_team_like_one_there_is_refused_on_the_command_line_and_in_the_console(tmp_path: Path,
                                                                                 capsys: Any) -> None:
    server = Server(tmp_path / "c", sorted({first for first, _ in LOOK_ALIKES}))
    root = str(server.contest.root)
    csrf = console(server)
    for first, second in LOOK_ALIKES:
        assert main(["contest", "add-team", root, second]) == 2
        message = capsys.readouterr().err.strip()
        assert "\n" not in message and f"'{second}' looks like team '{first}'" in message
        page = server.client.post("/admin/teams", data={"name": second, "csrf": csrf})
        assert page.status_code == 400 and f"looks like team &#x27;{first}&#x27;" in page.text
        assert server.contest.db.team(second) is None
    for reserved in ("Admin", "adm1n", "HOUSE-1"):
        assert main(["contest", "add-team", root, reserved]) == 2
        assert "kept for the organiser" in capsys.readouterr().err


def test_a_contest_made_with_look_alike_names_still_opens_exports_and_archives_them_apart(tmp_path: Path,
                                                                                          capsys: Any) -> None:
    """A contest made before the rule holds ``ada`` and ``ADA``: both play, export, and have a folder each in
    the archive, even on a disk that ignores case."""
    server = Server(tmp_path / "c", ["ada", "red", "blue"])
    with server.contest.db.transaction() as tx:  # as an older version let it in
        tx.add_team("ADA", "0" * 64, now=1.0)
    contest = Contest.open(server.contest.root)
    team = contest.db.team("ADA")
    assert team is not None
    from mjarena.contest.building import store_submission

    for name in ("ada", "ADA"):  # each its own bot, marked with its name
        found = contest.db.team(name)
        assert found is not None
        store_submission(contest, found, "bot.py", "python", BOT.replace(b"contest-bot-v1", name.encode()))
    assert main(["contest", "export", str(contest.root), "--format", "csv"]) == 0
    assert {row[1] for row in csv_cells(capsys.readouterr().out)[1:]} == {"ada", "ADA", "red", "blue"}
    assert main(["contest", "export", str(contest.root), "--format", "json"]) == 0
    assert {row["team"] for row in json.loads(capsys.readouterr().out)["rows"]} == {"ada", "ADA", "red", "blue"}
    archive = io.BytesIO()
    assert write_archive(contest, archive)["sources"] == 2
    members = zipfile.ZipFile(archive)
    sources = [name for name in members.namelist() if name.startswith("sources/")]
    folders = {name.split("/")[1] for name in sources}
    assert len(folders) == 2 and len({folder.casefold() for folder in folders}) == 2
    assert {members.read(name) for name in sources} == {BOT.replace(b"contest-bot-v1", name.encode())
                                                         for name in ("ada", "ADA")}


# -- 3. the question flood -------------------------------------------------------------------------------------


def ask(server: Server, text: str) -> Any:
    """Post a question as the team logged in on ``server.client`` (the team page's own form)."""
    csrf = form_csrf(server.client.get("/team").text.split('action="/team/questions"', 1)[1])
    return server.client.post("/team/questions", data={"csrf": csrf, "text": text}, follow_redirects=False)


def test_a_team_asks_at_a_limited_rate_with_a_limited_number_waiting(tmp_path: Path) -> None:
    server = Server(tmp_path / "c", ["red", "rival"])
    post_login(server.client, "/login", server.tokens["teams"]["rival"])
    assert ask(server, "first").status_code == 303
    flood = ask(server, "spam")
    assert flood.status_code == 429 and "ask again in" in flood.text
    assert 0 < int(flood.headers["retry-after"]) <= QUESTION_SECONDS
    for n in range(MAX_OPEN_QUESTIONS - 1):
        server.clock.now += QUESTION_SECONDS
        assert ask(server, f"question {n}").status_code == 303
    server.clock.now += QUESTION_SECONDS
    full = ask(server, "one too many")
    assert full.status_code == 429 and "wait for an answer" in full.text and "retry-after" not in full.headers
    rival = server.contest.db.team("rival")
    assert rival is not None
    announce(server.contest, "answered", server.clock.now, team="rival",
             question=server.contest.db.questions(rival.id)[-1].id)
    assert ask(server, "now one more").status_code == 303
    assert len(server.contest.db.questions(rival.id)) == MAX_OPEN_QUESTIONS + 1


def test_the_console_pages_the_questions_with_those_not_answered_first(tmp_path: Path) -> None:
    """A real question asked first, then a page and more of answered spam: it stays at the top of page one."""
    server = Server(tmp_path / "c", ["red", "rival"])
    red, rival = server.contest.db.team("red"), server.contest.db.team("rival")
    assert red is not None and rival is not None
    with server.contest.db.transaction() as tx:
        real = tx.add_question(red.id, 1.0, "May we use numpy?")
        for n in range(2 * QUESTIONS_PER_PAGE):
            spam = tx.add_question(rival.id, 2.0 + n, f"spam {n}")
            tx.add_announcement(2.5 + n, "no", team_id=rival.id, question_id=spam)
    console(server)
    page = server.client.get("/admin").text
    shown = re.findall(r'data-question="(\d+)" data-state="(\w+)"', page)
    assert len(shown) == QUESTIONS_PER_PAGE and shown[0] == (str(real), "open")
    assert all(state == "answered" for _, state in shown[1:])
    assert "1 of 41 not answered" in page
    later = server.client.get("/admin", params={"questions": "3"}).text
    assert 0 < len(re.findall(r'data-question="(\d+)"', later)) < QUESTIONS_PER_PAGE and "May we use" not in later


# -- 4. archive members named by an upload ---------------------------------------------------------------------

HOSTILE_NAMES = ["..\\..\\..\\..\\..\\evil.py", "../../evil.py", "C:\\evil.py", "bot\u202eyp.exe.py",
                 "\\\\srv\\share\\x.py"]


def windows_parts(name: str) -> list[str]:
    """A member's name as a Windows extractor reads it: both slashes separate folders."""
    return re.split(r"[\\/]", name)


def test_the_archive_names_every_member_itself_never_from_an_upload(tmp_path: Path) -> None:
    server = Server(tmp_path / "c", ["eve", "red"], team_quota_mib=256)
    from mjarena.contest.building import store_submission

    eve = server.contest.db.team("eve")
    assert eve is not None
    for name in HOSTILE_NAMES:
        store_submission(server.contest, eve, name, "python", BOT)
    assert server.upload("eve", name="..\\..\\..\\..\\..\\evil.py").status_code == 201
    assert any("\\" in s.filename for s in server.contest.db.submissions())  # the names are kept as sent
    archive = io.BytesIO()
    assert write_archive(server.contest, archive)["sources"] == len(HOSTILE_NAMES) + 1
    for name in zipfile.ZipFile(archive).namelist():
        parts = windows_parts(name)
        assert ".." not in parts and "" not in parts and not re.match(r"[A-Za-z]:", name), name
        assert all(unicodedata.category(char) not in ("Cc", "Cf") for char in name), ascii(name)
        if parts[0] == "sources":
            assert len(parts) == 4 and parts[3] == "bot.py", name
