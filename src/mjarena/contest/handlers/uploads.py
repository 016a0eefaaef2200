"""A team's upload and its own submissions, for the API and the team's page alike: checked (the rate, the
size, the language, the text), stored within the team's quota, handed to the builder's queue.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.datastructures import UploadFile
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response

from mjarena.contest.forms import FORM_OVERHEAD, check_csrf, read_limited, upload_form
from mjarena.contest.handlers.context import context_of
from mjarena.contest.model import ADMIN
from mjarena.contest.rows import Team
from mjarena.contest.sources import accepted_suffixes, check_text, language_of
from mjarena.i18n import N_, worded
from mjarena.untrusted import number as ascii_number

__all__ = ["own_submission", "receive_upload", "source_response"]


async def receive_upload(request: Request, team: Team, *, csrf: str | None = None) -> Any:
    """Check, read and store one upload of ``team``; the stored submission."""
    context = context_of(request)
    settings, clock = context.settings, context.clock
    if not context.uploads.allow(team.name, now=clock()):
        wait = context.uploads.retry_after(team.name, now=clock())
        raise HTTPException(429, worded(N_("too many uploads: at most %(limit)s a minute; try again in %(wait)s s"),
                                        limit=settings.uploads_per_minute, wait=f"{wait:.0f}"),
                            headers={"retry-after": str(max(1, round(wait)))})
    body = await read_limited(request, settings.max_upload + FORM_OVERHEAD)
    form = await upload_form(request, body)
    if csrf is not None:
        check_csrf(form, csrf)
    source = form.get("source")
    if not isinstance(source, UploadFile):
        raise HTTPException(400, N_("no file: send the source in the form field 'source'"))
    raw = await source.read(settings.max_upload + 1)
    if len(raw) > settings.max_upload:
        raise HTTPException(413, worded(N_("the upload is larger than the limit of %(kib)s KiB"),
                                        kib=settings.max_upload // 1024))
    filename = Path(source.filename or "").name
    language = language_of(filename)
    if language is None:
        raise HTTPException(415, worded(N_("%(file)s: unknown language; send one of %(suffixes)s"),
                                        file=filename or worded(N_("the file")),
                                        suffixes=", ".join(accepted_suffixes())))
    problem = check_text(raw)
    if problem is not None:
        raise HTTPException(400, worded(N_("%(file)s: %(problem)s"), file=filename, problem=problem))
    from mjarena.contest.building import QuotaError, store_submission  # (uploads alone need it)

    try:
        submission = await run_in_threadpool(store_submission, context.contest, team, filename, language, raw)
    except QuotaError as error:  # the team's sources and builds would pass its storage quota
        raise HTTPException(413, error.args[0]) from None
    if context.on_submission is not None:
        context.on_submission(submission.id)
    return submission


def own_submission(request: Request, team: Team) -> Any:
    """The submission the path names, if it is ``team``'s (the organiser: any); 404 otherwise."""
    raw_id = request.path_params["id"]
    submission_id = ascii_number(raw_id)
    submission = context_of(request).db.submission(submission_id) if submission_id is not None else None
    if submission is None or (team.name != ADMIN and submission.team_id != team.id):
        raise HTTPException(404, worded(N_("no submission %(id)s of team %(team)s"), id=raw_id, team=team.name))
    return submission


def source_response(submission: Any) -> Response:
    """The submission's exact bytes, as a download."""
    raw = Path(submission.path).read_bytes()
    return Response(raw, media_type="application/octet-stream", headers={
        "content-disposition": f'attachment; filename="{submission.team}-v{submission.version}'
                               f'{Path(submission.path).suffix}"', "cache-control": "no-store"})
