"""The home page (``/``): the games served (those whose data is broken listed with their
problems) and the last plays."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from cardforge.errors import CardforgeError
from cardforge.web.site import site_of


async def home(request: Request) -> Response:
    site = site_of(request)
    games, broken = [], []
    for gid in site.game_ids():
        try:
            games.append(site.ctx_of(gid).game)
        except CardforgeError as exc:  # listed with its problems: `cardforge check` tells more
            broken.append((gid, exc.render()))
    return site.page(request, "home.html", games=games, broken=broken,
                     recent=site.labelled(site.store.plays(limit=5)))


ROUTES = [Route("/", home)]
