"""The console's submissions: every one (with its errors by version), one with its source and build log, its
exact bytes, and one built again.
"""

from __future__ import annotations

from pathlib import Path

from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response

from mjarena.contest import admin_pages
from mjarena.contest.building import rebuild
from mjarena.contest.failures import version_errors
from mjarena.contest.handlers.console_sessions import NO_STORE, html, logged_in, posted
from mjarena.contest.handlers.context import context_of
from mjarena.contest.rows import Submission
from mjarena.i18n import N_, worded
from mjarena.untrusted import number as ascii_number

__all__ = ["rebuild_submission", "source", "submission", "submissions"]


def submission_of(request: Request) -> Submission:
    """The submission the path names (any team's); 404 if none."""
    raw_id = request.path_params["id"]
    submission_id = ascii_number(raw_id)
    found = context_of(request).db.submission(submission_id) if submission_id is not None else None
    if found is None:
        raise HTTPException(404, worded(N_("no submission %(id)s"), id=raw_id))
    return found


async def submissions(request: Request) -> Response:
    csrf = logged_in(request)
    db = context_of(request).db
    found = await run_in_threadpool(db.submissions)
    figures = await run_in_threadpool(lambda: version_errors(db.games(states=("finished",))))
    return html(admin_pages.submissions_page([s.to_json() for s in found], csrf, figures))


async def submission(request: Request) -> Response:
    csrf = logged_in(request)
    found = submission_of(request)
    source_text = await run_in_threadpool(Path(found.path).read_bytes)
    return html(admin_pages.submission_page(found.to_json(), source_text.decode("utf-8", "replace"), csrf))


async def source(request: Request) -> Response:
    logged_in(request)
    found = submission_of(request)
    raw = await run_in_threadpool(Path(found.path).read_bytes)
    name = f"{found.team}-v{found.version}{Path(found.path).suffix}"
    return Response(raw, media_type="application/octet-stream",
                    headers={"content-disposition": f'attachment; filename="{name}"', **NO_STORE})


async def rebuild_submission(request: Request) -> Response:
    """Build a submission again (a compile that failed on a busy machine, say): logged."""
    context = context_of(request)
    await posted(request)
    found = submission_of(request)
    await run_in_threadpool(lambda: rebuild(context.contest, submission_id=found.id, now=context.clock()))
    if context.on_submission is not None:
        context.on_submission(found.id)
    return RedirectResponse(f"/admin/submissions/{found.id}", status_code=303)
