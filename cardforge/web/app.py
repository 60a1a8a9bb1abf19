"""``cardforge serve``: the score sheet, the setup and the play log in a browser.

Starlette (ASGI, small, well kept; served by uvicorn) with server-rendered jinja2 pages and one
small script of our own (``static/sheet.js``): the sheet posts itself as you type and the server
scores it with the engine — the page never computes a score.

:func:`create_app` puts the pages together — one module each: ``home``, ``game`` (a game's page
and its setup), ``sheet``, ``logbook`` (the history and a play), ``players``, ``stats_page``,
``backup`` (backup, restore, import), ``lab`` — around the :class:`~cardforge.web.site.Site` they
share. Who may connect: see :class:`Guard`.
"""

from __future__ import annotations

import logging
import secrets
from urllib.parse import urlencode

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import Mount
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from cardforge.errors import CardforgeError
from cardforge.playlog.importer import MAX_IMPORT
from cardforge.playlog.store import StoreUnreachable
from cardforge.web import backup, game, home, invites, lab, logbook, players, sheet, stats_page
from cardforge.web.site import CSRF_COOKIE, HERE, MAX_BODY, Settings, Site, error_page

__all__ = ["MAX_BODY", "Guard", "Settings", "create_app"]

LOCAL_HOSTS = {"127.0.0.1", "localhost", "::1", "[::1]"}
ACCESS_COOKIE = "cf_access"

log = logging.getLogger("cardforge.serve")

#: every page: nothing from elsewhere (no CDN, no inline script), never framed, no sniffing
SECURITY_HEADERS = [
    (b"content-security-policy", b"default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
                                 b"form-action 'self'; frame-ancestors 'none'; base-uri 'none'"),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"same-origin"),
    (b"cache-control", b"no-store"),
]


class Guard:
    """Every request passes here first.

    - With a token (``--host 0.0.0.0``): the request carries it (``?token=`` once, then the
      cookie it sets) or is refused with 403.
    - Without (127.0.0.1): the ``Host`` header must be this machine, so a web page elsewhere
      cannot reach the server through DNS rebinding.
    - Posted forms: at most ``MAX_BODY`` bytes and ``MAX_FIELDS`` fields, and the CSRF token of
      the form must match its cookie; a cross-site ``Sec-Fetch-Site`` or foreign ``Origin`` is
      refused.
    """

    def __init__(self, app: ASGIApp, settings: Settings, gate: invites.Gate | None = None) -> None:
        self.app = app
        self.settings = settings
        self.gate = gate  # invites: a playtester's link opens one game's sheet (web/invites.py)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        request = Request(scope)
        refusal = self.refuse(request)
        if refusal is not None:
            return await refusal(scope, receive, send)
        token = self.settings.token
        if token and request.query_params.get("token"):
            # first visit from the printed URL or QR code: keep the token in a cookie, clean the URL
            query = urlencode([(k, v) for k, v in request.query_params.multi_items() if k != "token"])
            response = RedirectResponse(request.url.path + (f"?{query}" if query else ""), status_code=303)
            # Lax, not Strict: a phone that opens the address from another app or page must
            # still send it on the redirect (forms are guarded by the CSRF token, not by this)
            response.set_cookie(ACCESS_COOKIE, token, httponly=True, samesite="lax", max_age=7 * 86400)
            return await response(scope, receive, send)
        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message.setdefault("headers", [])
                message["headers"] = list(message["headers"]) + SECURITY_HEADERS
            await send(message)

        return await self.app(scope, receive, send_with_headers)

    def refuse(self, request: Request) -> Response | None:
        token = self.settings.token
        invite = self.gate.admit(request, ACCESS_COOKIE) if self.gate is not None else None
        if isinstance(invite, Response):
            return invite
        if token and invite is None:
            given = request.query_params.get("token") or request.cookies.get(ACCESS_COOKIE) or ""
            if not secrets.compare_digest(given.encode(), token.encode()):
                if given:  # a link or cookie of an older token (``serve --new-token``)
                    response = error_page(403, "This link has expired",
                                           "The server's access token was changed since this phone joined. "
                                           "Scan the QR code `cardforge serve` shows now (or open the address "
                                           "it prints); what was typed on a score sheet here is kept on this "
                                           "phone and comes back on the sheet.")
                    response.delete_cookie(ACCESS_COOKIE)
                    return response
                return error_page(403, "Access token required",
                                   "Open the address printed by `cardforge serve` (it carries the token), "
                                   "or scan its QR code.")
        elif self.settings.local_only:
            host = (request.headers.get("host") or "").rsplit(":", 1)[0] if not (
                request.headers.get("host") or "").startswith("[") else request.headers["host"].split("]")[0] + "]"
            if host not in LOCAL_HOSTS:
                return error_page(403, "Forbidden host", "This server answers on 127.0.0.1 only.")
        if request.method == "POST":
            size = request.headers.get("content-length")
            if size is None or not size.isdigit():
                return error_page(411, "Length required", "Send the form with its length.")
            limit = {**backup.UPLOAD_LIMITS, invites.IMPORT_PATH: MAX_IMPORT}.get(request.url.path, MAX_BODY)
            if int(size) > limit:
                return error_page(413, "Too large", f"A form is at most {MAX_BODY // 1024} KB." if limit == MAX_BODY
                                   else f"A file here is at most {limit // (1024 * 1024)} MB.")
            if request.headers.get("sec-fetch-site") == "cross-site":
                return error_page(403, "Cross-site request refused", "Forms are accepted from this site only.")
            origin = request.headers.get("origin")
            if origin and origin != "null" and origin.split("://", 1)[-1] != request.headers.get("host"):
                return error_page(403, "Cross-site request refused", "Forms are accepted from this site only.")
        return None


async def http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)  # registered for HTTPException only
    return error_page(exc.status_code, {404: "Not found", 405: "Method not allowed"}.get(
        exc.status_code, "Request refused"), str(exc.detail))


async def server_error(request: Request, exc: Exception) -> Response:
    log.error("internal error on %s: %s: %s", request.url.path, type(exc).__name__, exc)
    if isinstance(exc, StoreUnreachable):  # the database server's address stays in the server's log
        return error_page(503, "The play log is unavailable", "Its database does not answer: try again later.")
    if isinstance(exc, CardforgeError):
        return error_page(422, "Cannot do that", exc.render())
    return error_page(500, "Internal error", f"{type(exc).__name__} (details in the server's log).")


def create_app(settings: Settings) -> Guard:
    site = Site(settings)
    routes = [
        *home.ROUTES,
        *game.GAME_ROUTES,
        *sheet.ROUTES,
        *game.SETUP_ROUTES,
        *backup.IMPORT_ROUTES,  # before /plays/{play}
        *logbook.ROUTES,
        *players.ROUTES,
        *stats_page.ROUTES,
        *backup.LOG_ROUTES,
        *lab.ROUTES,
        *invites.routes(site, CSRF_COOKIE, site.catalogue.ids),
        Mount("/static", StaticFiles(directory=str(HERE / "static")), name="static"),
    ]
    app = Starlette(routes=routes, exception_handlers={HTTPException: http_error, Exception: server_error})
    app.state.site = site
    app.state.store = site.store
    app.state.settings = settings
    return Guard(app, settings, invites.Gate(site.store, settings.token, error_page))
