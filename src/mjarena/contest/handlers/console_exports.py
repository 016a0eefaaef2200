"""The console's downloads: what ``mjarena contest export`` writes (the results as JSON, the standings as CSV)
and every source and replay as one zip (:mod:`mjarena.contest.archive`).
"""

from __future__ import annotations

from pathlib import Path

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import Response

from mjarena.contest.export import results_json, standings_csv
from mjarena.contest.handlers.console_sessions import NO_STORE, logged_in
from mjarena.contest.handlers.context import context_of

__all__ = ["archive", "export_csv", "export_json"]


async def export_json(request: Request) -> Response:
    logged_in(request)
    text = await run_in_threadpool(results_json, context_of(request).contest)
    return Response(text, media_type="application/json", headers={
        "content-disposition": 'attachment; filename="results.json"', **NO_STORE})


async def export_csv(request: Request) -> Response:
    logged_in(request)
    context = context_of(request)
    standings = await run_in_threadpool(context.contest.standings, context.clock())
    return Response(standings_csv(standings["rows"]), media_type="text/csv", headers={
        "content-disposition": 'attachment; filename="standings.csv"', **NO_STORE})


async def archive(request: Request) -> Response:
    """Every source and replay as one zip (:mod:`mjarena.contest.archive`), built in a temporary file."""
    import tempfile

    from starlette.background import BackgroundTask
    from starlette.responses import FileResponse

    from mjarena.contest.archive import write_archive

    logged_in(request)
    handle = tempfile.NamedTemporaryFile(prefix="mjarena-archive-", suffix=".zip", delete=False)  # noqa: SIM115
    path = Path(handle.name)
    try:
        with handle:
            await run_in_threadpool(write_archive, context_of(request).contest, handle)
    except BaseException:
        path.unlink(missing_ok=True)
        raise
    return FileResponse(path, media_type="application/zip", filename="contest.zip", headers=NO_STORE,
                        background=BackgroundTask(path.unlink, missing_ok=True))
