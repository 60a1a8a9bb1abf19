"""The log's own page (``/log``): a backup of the whole log (JSON), restoring one, and plays
imported from a spreadsheet (CSV, with a template per game) — ``playlog/importer.py`` reads it,
every problem located by row and column; nothing is added while one remains.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import date
from typing import Any

from pydantic import ValidationError
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from cardforge.data.validate import validation_problems
from cardforge.errors import CardforgeError
from cardforge.playlog.importer import COLUMNS, MAX_BACKUP, MAX_IMPORT, read_plays_csv, template_csv
from cardforge.playlog.store import BackupDoc
from cardforge.web.site import read_upload, site_of

#: the posts that carry a file, and how large it may be (every other form: site.MAX_BODY)
UPLOAD_LIMITS = {"/log/restore": MAX_BACKUP, "/plays/import": MAX_IMPORT}


async def log_page(request: Request, report: dict[str, Any] | None = None, problems: Sequence[str] = (),
                   status: int = 200) -> Response:
    site = site_of(request)
    served = []
    for gid in site.game_ids():
        try:
            served.append(site.ctx_of(gid).game)
        except (CardforgeError, HTTPException):  # a game whose data is broken: listed on the home page
            continue
    return site.page(request, "log.html", status=status, report=report, problems=list(problems),
                     columns=COLUMNS, served=served)


async def backup(request: Request) -> Response:
    return Response(site_of(request).store.backup(), media_type="application/json; charset=utf-8", headers={
        "Content-Disposition": f'attachment; filename="cardforge-plays-{date.today().isoformat()}.json"'})


async def restore(request: Request) -> Response:
    _, data, filename = await read_upload(request, MAX_BACKUP)
    try:
        doc = BackupDoc.model_validate(json.loads(data.decode("utf-8")))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        return await log_page(request, problems=[f"{filename or 'the file'}: not a cardforge backup ({exc})"[:300]],
                              status=422)
    except ValidationError as exc:
        found = validation_problems(exc, BackupDoc, file=filename or "backup")
        return await log_page(request, problems=[str(p) for p in found[:20]], status=422)
    if doc.format != "cardforge play log":
        return await log_page(request, problems=[f"{filename}: format {doc.format[:40]!r}, not a cardforge play "
                                                 "log backup"], status=422)
    done = site_of(request).store.restore(doc)
    return await log_page(request, report={"kind": "restore", **done})


async def import_csv(request: Request) -> Response:
    site = site_of(request)
    _, data, filename = await read_upload(request, MAX_IMPORT)
    plays, problems = read_plays_csv(data, filename or "plays.csv", site)
    if problems:
        return await log_page(request, problems=[str(p) for p in problems[:50]], status=422)
    added, skipped = site.store.add_plays(plays)  # one transaction: all or none
    return await log_page(request, report={"kind": "import", "added": added, "skipped": skipped})


async def import_template(request: Request) -> Response:
    game = request.query_params.get("game", "")
    ctx = site_of(request).ctx_of(game)
    return Response(template_csv(ctx.game), media_type="text/csv; charset=utf-8", headers={
        "Content-Disposition": f'attachment; filename="cardforge-import-{ctx.game.id}.csv"'})


#: before the play pages' routes: ``/plays/{play}`` would take ``import-template.csv``
IMPORT_ROUTES = [
    Route("/plays/import", import_csv, methods=["POST"]),
    Route("/plays/import-template.csv", import_template),
]
LOG_ROUTES = [
    Route("/log", log_page),
    Route("/log/backup.json", backup),
    Route("/log/restore", restore, methods=["POST"]),
]
