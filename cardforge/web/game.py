"""A game's own pages: its start page (``/g/<game>``: the players, the mode, the deck on the
table) and its setup (``/g/<game>/setup``: the deal for N players with the options it declares).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from cardforge.problems import Problem
from cardforge.web import service
from cardforge.web.forms import problems_json
from cardforge.web.site import site_of

if TYPE_CHECKING:
    from cardforge.games.base import Game


async def game_page(request: Request) -> Response:
    site = site_of(request)
    store = site.store
    ctx, deck = site.table_of(request.path_params["game"])
    roster = store.players()  # most plays first: picked with one tap
    deck_text = f"the working data, {deck.label}" if deck.source == "data" else f"{deck.source}, {deck.label}"
    last = store.plays(game=ctx.game.id, limit=1)
    last_mode = last[0].mode if last and last[0].mode in ctx.game.modes else None
    return site.page(request, "game.html", game=ctx.game, has_sheet=ctx.sheet is not None, roster=roster[:60],
                     last_mode=last_mode,
                     deck_text=deck_text,
                     known=[p["name"] for p in roster[:200]], groups=store.recent_groups(ctx.game.id),
                     slots=max(2, min(ctx.game.max_players, 8) - min(len(roster), 8)))


async def setup(request: Request) -> Response:
    site = site_of(request)
    ctx, _ = site.table_of(request.path_params["game"])
    q = request.query_params
    result, problems = None, []
    if "players" in q:
        try:
            players = int(q["players"])
            seed = int(q["seed"]) if q.get("seed", "").strip() else None
        except ValueError:
            players, seed = -1, None
        options, bad = setup_options(ctx.game, q)
        if bad or players == -2:  # (as before the split: -2 typed shows no problem and no deal)
            problems = bad
        elif players < 0:
            problems = [Problem("players and seed are whole numbers", field="players")]
        else:
            result, problems = service.run_setup_view(ctx, players, q.get("mode") or None, options, seed)
    names = {c.id: c.name for c in ctx.data.cards}
    return site.page(request, "setup.html", game=ctx.game, result=result, problems=problems_json(problems),
                     names=names, query=q,
                     deal_json=json.dumps(result["deal"], ensure_ascii=False, indent=2) if result else "")


def setup_options(game: Game, query: Mapping[str, str]) -> tuple[dict[str, Any], list[Problem]]:
    """The setup form's options: flags, choices and whole numbers as the game declares them."""
    options: dict[str, Any] = {}
    problems: list[Problem] = []
    for oid, spec in game.options.items():
        raw = (query.get(oid) or "").strip()
        if spec.type == "flag":
            options[oid] = raw in ("1", "on", "true")
        elif not raw:
            continue  # the default
        elif spec.type == "choice":
            match = [c for c in spec.choices or () if str(c) == raw]
            if match:
                options[oid] = match[0]
            else:
                problems.append(Problem(f"must be one of {', '.join(map(str, spec.choices or ()))}, got {raw!r}",
                                        field=oid))
        else:
            try:
                value = int(raw)
            except ValueError:
                problems.append(Problem(f"must be a whole number, got {raw!r}", field=oid))
                continue
            if (spec.min is not None and value < spec.min) or (spec.max is not None and value > spec.max):
                problems.append(Problem(f"must be {spec.min}–{spec.max}, got {value}", field=oid))
            else:
                options[oid] = value
    return options, problems


GAME_ROUTES = [Route("/g/{game}", game_page)]
SETUP_ROUTES = [Route("/g/{game}/setup", setup)]
