"""Building the contest's submissions: in parallel, fairly, within limits, and within each team's storage quota.

- :class:`Builder` builds in ``Settings.build_workers`` threads.  Each team has a first-in first-out queue; the
  teams are served in turn (round-robin), and a team has at most one build running at a time.  So a team that
  floods the queue with slow builds holds one worker at most, and delays another team's build by at most one
  build's time (none while another worker is free).  Every compile has the contest's wall-clock limit
  (``compile_wall``) and output cap (``build_output_mib``) besides the toolchain's CPU and memory limits; running
  out of time or room is a cached ``compile_error``, so sending the same source again costs nothing.  A compile
  that ran out of time while the machine was busy (:class:`~mjarena.builds.BuildBusy`) is the judge's failure:
  nothing is kept, the organiser's log says so, and it is built again :data:`BUSY_RETRY_SECONDS` later, up to
  :data:`BUSY_TRIES` tries; then its verdict says what happened (not kept in the cache either).
- :func:`rebuild` has the organiser build a submission, or a team's latest, again (the console's *Build again*,
  ``mjarena contest rebuild``): a verdict kept in the cache for its source is dropped first; logged.
- After each build, :func:`evict` removes the successful builds of ``DIR/builds/`` that no game needs: a
  team's current bot (its newest submission that built), the submissions pinned in games not finished (running,
  or held after judge errors) or being played again by the organiser's *Play again*, and builds made or
  superseded within the last :data:`GRACE_SECONDS` are kept.  The cache is keyed by content and team
  (:func:`~mjarena.contest.sources.build_scope`), so one folder may serve several submissions of one team (never
  of two): it is kept while any of them is.  An
  evicted build is built again from its stored source if a game ever needs it
  (:func:`~mjarena.contest.sources.program_of`).
- :func:`store_submission` keeps an upload as its team's next version; :func:`check_quota` refuses it
  (:class:`QuotaError`) when the team's sources (``DIR/submissions/TEAM/``), its builds, the builds still to make
  for its pending submissions, and this upload with room for its build
  (:func:`~mjarena.contest.model.upload_room`) would pass ``team_quota_mib``.

The contest's model (:mod:`mjarena.contest.model`) knows nothing of this module: it owns the settings and the
arithmetic of a build's room; this module uses them.
"""

from __future__ import annotations

import hashlib
import logging
import re
import threading
import time
from collections import deque
from pathlib import Path

from mjarena import builds
from mjarena.builds.cache import remove
from mjarena.contest.model import MIB, Contest, ContestError, build_room, upload_room
from mjarena.contest.rows import Submission, Team
from mjarena.contest.sources import build_scope, build_source, contest_sandbox
from mjarena.i18n import N_, worded

__all__ = ["BUSY_RETRY_SECONDS", "BUSY_TRIES", "GRACE_SECONDS", "Builder", "QuotaError", "check_quota", "evict",
           "kept_keys", "rebuild", "store_submission", "team_usage"]

log = logging.getLogger("mjarena.contest")

GRACE_SECONDS = 60.0
"""A build made, or superseded by a newer one of its team, less than this long ago is never evicted: a game may
be pinning it at this moment (the scheduler reads the current bots, then pins them)."""
BUSY_TRIES = 3
"""How many times a submission whose compile ran out of time on a busy machine is tried before its verdict says so."""
BUSY_RETRY_SECONDS = 30.0
"""How long after such a compile it is tried again."""
_evicting = threading.Lock()
_SAFE = re.compile(r"[^A-Za-z0-9_.-]+")


class QuotaError(ContestError):
    """An upload that would take a team past its storage quota; the message gives the figures."""


def _size(path: str) -> int:
    try:
        return Path(path).stat().st_size
    except OSError:
        return 0


def team_usage(contest: Contest, team: Team) -> int:
    """The bytes that count against ``team``'s quota: its sources folder, the cache folders its submissions built
    into (its own: builds are not shared between teams), and :func:`~mjarena.contest.model.build_room` for each
    submission still to build."""
    used = builds.disk_bytes(contest.root / "submissions" / team.name)
    keys = {key for key, _ in contest.db.build_records(team.id).values() if key}
    used += sum(builds.disk_bytes(contest.root / "builds" / key) for key in keys)
    for submission in contest.db.submissions(team_id=team.id, status="pending"):
        used += build_room(contest.settings, _size(submission.path))
    return used


def check_quota(contest: Contest, team: Team, size: int) -> None:
    """Raise :class:`QuotaError` when an upload of ``size`` bytes (with room for its build) would take ``team``
    past the contest's ``team_quota_mib``."""
    quota = contest.settings.team_quota_mib * MIB
    used = team_usage(contest, team)
    need = upload_room(contest.settings, size)
    if used + need > quota:
        raise QuotaError(worded(N_(
            "team %(team)s's storage quota of %(quota)s MiB is used up: its sources and builds take %(used)s MiB, "
            "and this upload needs %(need)s MiB with room for its build (at most %(build)s MiB); builds that no "
            "game needs any more are removed (those of games in progress when the games end), so try again later, "
            "or ask the organiser"), team=team.name, quota=contest.settings.team_quota_mib, used=f"{used / MIB:.1f}",
            need=f"{need / MIB:.1f}", build=contest.settings.build_output_mib))


def _key_now(contest: Contest, submission: Submission) -> str | None:
    """The cache key a build of ``submission`` would have now (None when its source cannot be read)."""
    try:
        return builds.cache_key_of(submission.path, scope=build_scope(submission.path))
    except builds.BuildError:
        return None


def kept_keys(contest: Contest, now: float) -> set[str]:
    """The cache folders that a game may need: those of each team's current bot, of the submissions pinned in
    games not finished or being played again (:meth:`~mjarena.contest.db.Database.pinned_submissions`), and of
    the builds superseded less than :data:`GRACE_SECONDS` ago (each by the key it was recorded with and by the key
    it would have now, which differ after a compiler upgrade)."""
    db = contest.db
    records = db.build_records()
    wanted = {submission.id for submission in db.current_submissions().values()} | db.pinned_submissions()
    newer: dict[int, float] = {}  # team -> when its newest ok build so far (walking back) was made
    for submission in reversed(db.submissions(status="ok")):
        successor = newer.get(submission.team_id)
        if successor is not None and successor > now - GRACE_SECONDS:
            wanted.add(submission.id)
        newer[submission.team_id] = records.get(submission.id, ("", 0.0))[1]
    keys = {records[sid][0] for sid in wanted if sid in records and records[sid][0]}
    for submission_id in wanted:
        wanted_one = db.submission(submission_id)
        key = _key_now(contest, wanted_one) if wanted_one is not None else None
        if key is not None:
            keys.add(key)
    return keys


def evict(contest: Contest, now: float | None = None) -> list[str]:
    """Remove the contest's successful builds that no game needs (see :func:`kept_keys`; failed builds hold only
    their verdict and stay); the keys removed.  One eviction at a time in this process."""
    now = time.time() if now is None else now
    with _evicting:
        root = contest.root / "builds"
        if not root.is_dir():
            return []
        removed = builds.evict(root, kept_keys(contest, now), min_age=GRACE_SECONDS, now=now)
    if removed:
        log.info("evicted %d build(s) that no game needs", len(removed))
    return removed


def store_submission(contest: Contest, team: Team, filename: str, language: str, raw: bytes) -> Submission:
    """Keep an upload (exactly its bytes) as the team's next version, pending its build; a :class:`QuotaError` (a
    :class:`~mjarena.contest.settings.ContestError`) when it and its build would pass the team's storage quota
    (checked again after evicting the builds no game needs)."""
    try:
        check_quota(contest, team, len(raw))
    except QuotaError:
        evict(contest)
    digest = hashlib.sha256(raw).hexdigest()
    suffix = Path(filename).suffix.lower()
    with contest.db.transaction() as tx:
        check_quota(contest, team, len(raw))  # again, one upload at a time
        submission_id, version = tx.add_submission(team.id, language, filename[:255], "", digest,
                                                   now=time.time())
        folder = contest.root / "submissions" / team.name / f"v{version}"
        folder.mkdir(parents=True, exist_ok=True)
        stem = _SAFE.sub("_", Path(filename).stem).strip("._")[:60] or "source"
        path = folder / f"{stem}{suffix}"  # the compiler's messages name the team's own file
        path.write_bytes(raw)
        tx.set_source_path(submission_id, str(path))
    found = contest.db.submission(submission_id)
    assert found is not None
    return found


def rebuild(contest: Contest, *, submission_id: int | None = None, team: str | None = None,
            now: float | None = None) -> Submission:
    """Make a submission (by id, or ``team``'s latest) pending again, to be built afresh; a verdict that the cache
    keeps for its source (a ``compile_error``) is dropped first (a build that passed stays: games may be using
    it).  Logged in the organiser's log.  :class:`ContestError` when there is no such submission.

    The caller queues it (:meth:`Builder.submit`, or :meth:`Builder.build` at once)."""
    db = contest.db
    if submission_id is not None:
        found = db.submission(submission_id)
        if found is None:
            raise ContestError(f"no submission {submission_id}")
    else:
        known = {row.name: row for row in db.teams()}
        if team not in known:
            raise ContestError(f"no team {team!r}")
        mine = db.submissions(team_id=known[team].id)
        if not mine:
            raise ContestError(f"team {team!r} has sent no submission yet")
        found = max(mine, key=lambda row: row.version)
    if found.status == "compile_error":
        key = _key_now(contest, found)
        if key:
            remove(contest.root / "builds", key)
    with db.transaction() as tx:
        tx.set_verdict(found.id, "pending", "")
        tx.log_admin(time.time() if now is None else now, "rebuild",
                     f"submission {found.id} ({found.team} v{found.version}, was {found.status})")
    return found


class Builder:
    """Builds submissions in ``workers`` threads (the contest's ``build_workers`` by default), fairly: teams are
    served in turn from their own queues, one build per team at a time (see the module's docstring).  Each
    verdict is recorded, then the builds no game needs are evicted."""

    def __init__(self, contest: Contest, *, workers: int | None = None, retry: float = BUSY_RETRY_SECONDS) -> None:
        self.contest = contest
        self.workers = workers or contest.settings.build_workers
        self.retry = retry
        self._busy_tries: dict[int, int] = {}  # submission -> compiles that ran out of time on a busy machine
        self._ready = threading.Condition()
        self._queues: dict[int, deque[int]] = {}
        self._turns: deque[int] = deque()  # the teams waiting for a worker, in the order they are served
        self._busy: set[int] = set()  # the teams with a build running (back in line when it ends)
        self._known: set[int] = set()  # the submissions queued or building (each is queued once)
        self._stopping = False
        self._threads = [threading.Thread(target=self._run, name=f"contest-builder-{n}", daemon=True)
                         for n in range(self.workers)]

    def start(self) -> None:
        """Queue the uploads a crash left unbuilt, and start the workers."""
        for submission in self.contest.db.submissions(status="pending"):
            self._enqueue(submission.team_id, submission.id)
        for thread in self._threads:
            thread.start()

    def submit(self, submission_id: int) -> None:
        """Queue a submission behind its team's earlier ones."""
        submission = self.contest.db.submission(submission_id)
        if submission is not None:
            self._enqueue(submission.team_id, submission.id)

    def stop(self) -> None:
        """No new build starts (the running ones finish; their boxes die with the server)."""
        with self._ready:
            self._stopping = True
            self._ready.notify_all()

    def join(self, timeout: float | None = None) -> None:
        """Wait (at most ``timeout`` seconds for each) until the workers have stopped."""
        for thread in self._threads:
            if thread.is_alive():
                thread.join(timeout)

    def _enqueue(self, team_id: int, submission_id: int) -> None:
        with self._ready:
            if submission_id in self._known:
                return
            self._known.add(submission_id)
            self._queues.setdefault(team_id, deque()).append(submission_id)
            if team_id not in self._turns and team_id not in self._busy:
                self._turns.append(team_id)
            self._ready.notify()

    def _take(self) -> tuple[int, int] | None:
        """The next ``(team, submission)`` to build: the first team in line leaves it until its build ends (so a
        team that joins the line meanwhile is served before its next build).  Waits while the line is empty; None
        once stopping."""
        with self._ready:
            while not self._stopping:
                if self._turns:
                    team_id = self._turns.popleft()
                    queue = self._queues[team_id]
                    submission_id = queue.popleft()
                    if not queue:
                        del self._queues[team_id]
                    self._busy.add(team_id)
                    # queued no more: submitted again while it builds (a busy compile's retry), it is queued again
                    self._known.discard(submission_id)
                    return team_id, submission_id
                self._ready.wait()
            return None

    def _done(self, team_id: int, submission_id: int) -> None:
        """A build ended: its team goes to the back of the line if it has more to build."""
        with self._ready:
            self._busy.discard(team_id)
            if team_id in self._queues:
                self._turns.append(team_id)
            self._ready.notify_all()

    def _run(self) -> None:
        while (job := self._take()) is not None:
            team_id, submission_id = job
            try:
                self.build(submission_id)
            except Exception:  # one bad build must not stop the others
                log.exception("building submission %s failed", submission_id)
            finally:
                self._done(team_id, submission_id)

    def build(self, submission_id: int) -> None:
        """Build one submission now (in the calling thread), record its verdict, and evict what no game needs."""
        contest = self.contest
        submission = contest.db.submission(submission_id)
        if submission is None or submission.status != "pending":
            return
        settings = contest.settings
        try:
            verdict = build_source(Path(submission.path), sandbox=contest_sandbox(settings),
                                   cache_dir=contest.root / "builds", wall_limit=settings.compile_wall,
                                   max_output_bytes=settings.build_output_mib * MIB)
        except builds.BuildBusy as error:
            self._retry_busy(submission, str(error))
            return
        self._busy_tries.pop(submission_id, None)
        with contest.db.transaction() as tx:
            tx.set_verdict(submission_id, verdict.status, verdict.message)
            tx.record_build(submission_id, verdict.key, time.time())
        try:
            evict(contest)
        except Exception:  # the build stands; the next eviction tries again
            log.exception("evicting old builds failed")

    def _retry_busy(self, submission: Submission, why: str) -> None:
        """A compile ran out of time on a busy machine: the organiser's log says so, and it is tried again later (at
        most :data:`BUSY_TRIES` tries; then the verdict says what happened, kept nowhere but in the record)."""
        tries = self._busy_tries[submission.id] = self._busy_tries.get(submission.id, 0) + 1
        what = f"submission {submission.id} ({submission.team} v{submission.version}), try {tries} of {BUSY_TRIES}"
        log.warning("build of %s: %s", what, why)
        with self.contest.db.transaction() as tx:
            tx.log_admin(time.time(), "build busy", f"{what}: the machine was too busy to compile it")
            if tries >= BUSY_TRIES:
                tx.set_verdict(submission.id, "compile_error", f"{why}\n(tried {tries} times; the organiser can "
                               "build it again: the console's Build again, or mjarena contest rebuild)")
        if tries < BUSY_TRIES:
            timer = threading.Timer(self.retry, self.submit, [submission.id])
            timer.daemon = True
            timer.start()
