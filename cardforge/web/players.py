"""The roster (``/players``): add a player, a player's page (their games, charts and last
plays), rename or recolour them, merge two names of one person."""

from __future__ import annotations

from collections.abc import Sequence

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import Route

from cardforge.playlog import stats
from cardforge.playlog.store import COLOURS, StoreError, parse_id
from cardforge.problems import Problem
from cardforge.web.site import chart_svgs, number_of, read_form, site_of
from cardforge.web.stats_page import player_drawings


async def players(request: Request, problems: Sequence[Problem] = (), status: int = 200) -> Response:
    site = site_of(request)
    return site.page(request, "players.html", status=status, players=site.store.players(), colours=COLOURS,
                     problems=[{"field": p.field, "text": p.message} for p in problems])


async def player_add(request: Request) -> Response:
    form = dict(await read_form(request))
    try:
        colour = form.get("colour")
        site_of(request).store.add_player(form.get("name", ""), None if colour in (None, "", "none") else colour)
    except StoreError as exc:
        return await players(request, exc.problems, 422)
    return RedirectResponse("/players", status_code=303)


async def player(request: Request, problems: Sequence[Problem] = (), status: int = 200) -> Response:
    site = site_of(request)
    store = site.store
    number = number_of(request, "player")
    who = store.player(number)
    if who is None:
        raise HTTPException(404, f"no player #{number}")
    roster = site.roster()
    records = store.records()
    view = stats.player_games(number, records, roster)
    return site.page(request, "player.html", status=status, who=who, view=view, colours=COLOURS,
                     others=[p for p in roster.values() if p["id"] != number],
                     charts=chart_svgs(lambda w: player_drawings(view, w)), stats=stats,
                     recent=site.labelled(store.plays(player_id=number, limit=10)),
                     problems=[{"field": p.field, "text": p.message} for p in problems])


async def player_edit(request: Request) -> Response:
    form = dict(await read_form(request))
    store = site_of(request).store
    number = number_of(request, "player")
    if store.player(number) is None:
        raise HTTPException(404, f"no player #{number}")
    try:
        colour = form.get("colour", "")
        store.update_player(number, name=form.get("name") or None, colour=None if colour == "none" else colour)
    except StoreError as exc:
        return await player(request, exc.problems, 422)
    return RedirectResponse(f"/players/{number}", status_code=303)


async def player_merge(request: Request) -> Response:
    form = dict(await read_form(request))
    store = site_of(request).store
    number = number_of(request, "player")
    into = parse_id(form.get("into", ""))
    if store.player(number) is None:
        raise HTTPException(404, f"no player #{number}")
    try:
        if into is None:
            raise StoreError("pick a player", [Problem("pick the player to merge into", field="into")])
        store.merge_players(number, into)
    except StoreError as exc:
        return await player(request, exc.problems, 422)
    return RedirectResponse(f"/players/{into}", status_code=303)


ROUTES = [
    Route("/players", players),
    Route("/players/add", player_add, methods=["POST"]),
    Route("/players/{player}", player),
    Route("/players/{player}/edit", player_edit, methods=["POST"]),
    Route("/players/{player}/merge", player_merge, methods=["POST"]),
]
