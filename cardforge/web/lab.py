"""The playtest lab's page of a game (``/g/<game>/lab``) and its PDF (``/g/<game>/lab.pdf``):
the parts ``render/reports/lab_report.py`` makes from the play log and the game's data, as HTML (the
charts inline as SVG) or as the PDF ``cardforge report`` writes — the same strings, the same
drawings, the same bytes for the same log and options.

Query: ``version`` (a selection: ``0.3``, ``0.2..0.3``, ``since 0.3``), ``pool=1`` (the
selection as one group), ``compare=A,B`` (the two versions compared), ``min=N`` (the seats a
rate needs to be ranked).
"""

from __future__ import annotations

from collections import OrderedDict
from typing import TYPE_CHECKING, Any

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from cardforge.playlog.lab import Options, lab_view, options_problems
from cardforge.web.site import site_of

if TYPE_CHECKING:
    from cardforge.lab.view import LabView
    from cardforge.problems import Problem

#: the lab pages computed last, by (log, its stamp, game, data, options): a page of a log that has
#: not changed since is served from here (10,000 plays: seconds to compute, milliseconds to serve)
_CACHE: OrderedDict[tuple[Any, ...], tuple[Any, list[dict[str, Any]]]] = OrderedDict()
CACHE_SIZE = 8


def cached_parts(store: Any, game: Any, data: Any, opts: Options) -> list[dict[str, Any]]:
    """The page's parts, computed once per state of the log (``PlayLog.lab_stamp``) and of the
    game's data (the loaded data object, kept alive with the entry so its id is not reused)."""
    key = (store.where, store.lab_stamp(game.id), game.id, id(data), opts.version, opts.pool, opts.versus,
           opts.min_count)
    hit = _CACHE.get(key)
    if hit is not None:
        _CACHE.move_to_end(key)
        return hit[1]
    parts = html_parts(lab_view(store, game, data, opts))
    _CACHE[key] = (data, parts)
    while len(_CACHE) > CACHE_SIZE:
        _CACHE.popitem(last=False)
    return parts


def html_parts(view: LabView) -> list[dict[str, Any]]:
    """The report's parts for the page: charts as inline SVG."""
    from cardforge.render.reports import lab_report
    from cardforge.render.reports.charts import PHONE_WIDTH, to_svg

    out: list[dict[str, Any]] = []
    # each chart twice: for a wide screen, and laid out narrower for a phone (its text scaled up
    # to 14 px or more); the page's CSS shows the one that suits the screen
    phone = iter([p for p in lab_report.parts(view, PHONE_WIDTH) if isinstance(p, lab_report.Chart)])
    for part in lab_report.parts(view):
        if isinstance(part, lab_report.Chart):
            small = next(phone)
            out.append({"kind": "chart", "id": part.id,
                        "svg": to_svg(part.drawing, title=part.title, desc=part.desc, css_class="chart wide"),
                        "phone": to_svg(small.drawing, title=part.title, desc=part.desc, css_class="chart phone")})
        elif isinstance(part, lab_report.Table):
            out.append({"kind": "table", "id": part.id, "columns": part.columns, "rows": part.rows,
                        "numeric": part.numeric, "flagged": part.flagged})
        elif isinstance(part, lab_report.Heading):
            out.append({"kind": "heading", "level": part.level, "text": part.text, "id": part.id})
        else:
            out.append({"kind": "text", "text": part.text, "style": part.style})
    return out


def pdf_bytes(view: LabView) -> bytes:
    import io

    from cardforge.render.reports import lab_report

    buf = io.BytesIO()
    lab_report.write_report(view, buf)
    return buf.getvalue()


def _read(request: Request) -> tuple[Any, Options, list[Problem]]:
    site = site_of(request)
    ctx = site.ctx_of(request.path_params["game"])
    q = request.query_params
    known = site.store.deck_versions(ctx.game.id)
    opts, problems = options_problems(q.get("version"), q.get("compare"), q.get("min"), known)
    opts.pool = q.get("pool") == "1"
    return ctx, opts, problems


async def page(request: Request) -> Response:
    site = site_of(request)
    ctx, opts, problems = _read(request)
    if problems:
        return site.page(request, "lab.html", status=422, game=ctx.game, parts=[], opts=opts,
                         query=request.query_params, problems=[str(p) for p in problems], pdf_query="")
    parts = cached_parts(site.store, ctx.game, ctx.data, opts)
    return site.page(request, "lab.html", game=ctx.game, parts=parts, opts=opts,
                     query=request.query_params, problems=[], pdf_query=request.url.query)


async def pdf(request: Request) -> Response:
    ctx, opts, problems = _read(request)
    if problems:
        raise HTTPException(422, "; ".join(str(p) for p in problems))
    data = pdf_bytes(lab_view(site_of(request).store, ctx.game, ctx.data, opts))
    return Response(data, media_type="application/pdf", headers={
        "Content-Disposition": f'attachment; filename="{ctx.game.id}-lab.pdf"'})


ROUTES = [Route("/g/{game}/lab", page), Route("/g/{game}/lab.pdf", pdf)]
