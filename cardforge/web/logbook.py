"""The play log's pages: the history (``/plays``, as CSV too), a play (its details, versions,
final-state file, delete and undo).

Nothing here scores a game for good — a play is scored by the sheet's routes (``sheet.py``) or,
imported from a spreadsheet, recorded with its scores as given; a play's page scores its final
state again with today's engine when the game is served. The store and its numbers live in
``cardforge.playlog``; the roster, the stats and the backups have their own pages (``players.py``,
``stats_page.py``, ``backup.py``).
"""

from __future__ import annotations

import secrets
from typing import Any
from urllib.parse import urlencode

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import PlainTextResponse, RedirectResponse, Response
from starlette.routing import Route

from cardforge.playlog.store import COLOURS, StoreError, details_from_form, parse_id, unconfirmed_date
from cardforge.scores import format_number
from cardforge.web import service
from cardforge.web.site import Site, number_of, read_form, site_of


def play_or_404(request: Request) -> dict[str, Any]:
    number = number_of(request)
    play = site_of(request).store.play(number)
    if play is None:
        raise HTTPException(404, f"no play #{number}")
    return play


async def plays(request: Request) -> Response:
    site = site_of(request)
    store, q = site.store, request.query_params
    game = q.get("game") or None
    deleted = q.get("deleted") == "1"
    player = parse_id(q.get("player", "")) if q.get("player") else None
    just = parse_id(q.get("undo", "")) if q.get("undo") else None
    undo = store.play(just) if just is not None else None
    who = store.player(player) if player is not None else None
    shown = site.labelled(store.plays(game, deleted=deleted, player_id=player))
    return site.page(request, "plays.html", plays=shown, game=game, games=site.games_filter(), deleted=deleted,
                     undo=undo if undo and undo["deleted_at"] else None, player=who,
                     title=site.title_of(game) if game else "")


async def plays_csv(request: Request) -> Response:
    game = request.query_params.get("game") or None
    name = "".join(c for c in (game or "") if c.isalnum() or c in "_-")[:60]
    return Response(site_of(request).store.csv(game), media_type="text/csv; charset=utf-8", headers={
        "Content-Disposition": f'attachment; filename="cardforge-plays{"-" + name if name else ""}.csv"'})


async def play(request: Request) -> Response:
    p = play_or_404(request)
    site = site_of(request)
    return site.page(request, "play.html", **play_view(site, p))


def play_view(site: Site, p: dict[str, Any], version: dict[str, Any] | None = None) -> dict[str, Any]:
    """What the play page shows: the play (or one of its versions), its score table — scored
    again by today's engine when the game is served and the play has its final state, else
    the score saved with it — its players and what can be done with it."""
    shown = version or p
    result, problems, rescored = None, [], False
    served = site.served(p["game"])
    now = service.names_now(p)  # a player renamed since: today's name, everywhere on the page
    shown = {**shown, "state_yaml": service.renamed_yaml(p["game"], shown["state_yaml"], now)}
    if served and shown["state_yaml"]:
        ctx = site.ctx_of(p["game"])
        outcome = service.score_yaml(ctx, shown["state_yaml"])
        if outcome.sheet is not None:
            result, rescored = service.sheet_view(outcome.sheet), True
            result["report"] = service.named(ctx, result["report"])
        problems = [{"text": str(pr)} for pr in outcome.problems]
    if result is None:
        result = saved_view(service.renamed(shown["result"], now))
    names = [s["player"] for s in p["players"]]
    return {"play": p, "shown": shown, "version": version, "result": result, "problems": problems,
            "mode_label": site.mode_label(p["game"], shown.get("mode")),
            "rescored": rescored, "served": served, "title": site.title_of(p["game"], p["title"]),
            "names": names, "colours": COLOURS, "again": again_url(site, p),
            "request_key": secrets.token_urlsafe(18)}


def again_url(site: Site, p: dict[str, Any]) -> str | None:
    if not site.served(p["game"]):
        return None
    query = [("name", s["player"]) for s in p["players"]]
    if p.get("mode"):
        query.append(("mode", p["mode"]))
    return f"/g/{p['game']}/sheet?" + urlencode(query)


async def play_version(request: Request) -> Response:
    site = site_of(request)
    p = play_or_404(request)
    number = number_of(request, "version")
    v = site.store.play_version(p["id"], number)
    if v is None:
        raise HTTPException(404, f"play #{p['id']} has no version {number}")
    return site.page(request, "play.html", **play_view(site, p, v))


async def play_yaml(request: Request) -> Response:
    p = play_or_404(request)
    if not p["state_yaml"]:
        raise HTTPException(404, f"play #{p['id']} was imported with its scores only: it has no final-state file")
    text = service.renamed_yaml(p["game"], p["state_yaml"], service.names_now(p))  # today's names
    return PlainTextResponse(text, media_type="application/yaml; charset=utf-8", headers={
        "Content-Disposition": f'attachment; filename="{p["game"]}-play-{p["id"]}.yaml"'})


async def play_details(request: Request) -> Response:
    site = site_of(request)
    pairs = await read_form(request)
    p = play_or_404(request)
    details, problems = details_from_form(pairs, len(p["players"]))
    problems += unconfirmed_date(details, pairs)
    if problems:
        view = play_view(site, p)
        return site.page(request, "play.html", status=422, **{**view, "detail_problems": [
            {"field": pr.field, "text": pr.message} for pr in problems], "form": dict(pairs)})
    form = dict(pairs)
    try:
        site.store.update_play(p["id"], details=details, request_key=form.get("request_key") or None)
    except StoreError as exc:
        raise HTTPException(409, exc.problems[0].message if exc.problems else exc.title) from None
    return RedirectResponse(f"/plays/{p['id']}", status_code=303)


async def delete_play(request: Request) -> Response:
    await read_form(request)
    p = play_or_404(request)
    site_of(request).store.delete_play(p["id"])
    return RedirectResponse(f"/plays?undo={p['id']}", status_code=303)


async def restore_play(request: Request) -> Response:
    await read_form(request)
    p = play_or_404(request)
    site_of(request).store.restore_play(p["id"])
    return RedirectResponse(f"/plays/{p['id']}", status_code=303)


def saved_view(result: dict[str, Any]) -> dict[str, Any]:
    """The score saved with a play (its JSON), shaped as :func:`service.sheet_view` shapes a
    fresh one: for a play imported from a spreadsheet, or of a game this server does not serve."""
    players = result.get("players", [])
    categories = result.get("categories") or sorted({c for p in players for c in p.get("breakdown", {})})
    labels = result.get("labels", {})
    return {
        "title": result.get("game", ""),
        "players": [p["name"] for p in players],
        "rows": [{"id": c, "label": labels.get(c, c), "label_en": "",
                  "cells": [format_number(p.get("breakdown", {}).get(c, 0)) for p in players]} for c in categories],
        "totals": [format_number(p["total"]) for p in players],
        "ranks": [p["rank"] for p in players],
        "extras": [],
        "winners": list(result.get("winners", [])),
        "tie_break": result.get("tie_break"),
        "report": [],
        "json": result,
    }


ROUTES = [
    Route("/plays", plays),
    Route("/plays.csv", plays_csv),
    Route("/plays/{play}.yaml", play_yaml),
    Route("/plays/{play}", play),
    Route("/plays/{play}/v/{version}", play_version),
    Route("/plays/{play}/details", play_details, methods=["POST"]),
    Route("/plays/{play}/delete", delete_play, methods=["POST"]),
    Route("/plays/{play}/restore", restore_play, methods=["POST"]),
]
