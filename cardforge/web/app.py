"""``cardforge serve``: the score sheet, the setup and the play log in a browser.

Starlette (ASGI, small, well kept; served by uvicorn) with server-rendered jinja2 pages and one
small script of our own (``static/sheet.js``): the sheet posts itself as you type and the server
scores it with the engine — the page never computes a score.

Who may connect: see :class:`Guard`.
"""

from __future__ import annotations

import json
import logging
import secrets
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qsl, urlencode

from jinja2 import Environment, FileSystemLoader, select_autoescape
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from cardforge.data.yamlio import parse_text
from cardforge.errors import CardforgeError
from cardforge.lab.facts import deck_of_data, facts_of_yaml
from cardforge.web import invites, lab, logbook, service
from cardforge.web.forms import (
    GRID_STATES,
    MAX_PLAYERS_ON_SHEET,
    SCALARS,
    build_sheet,
    form_to_state,
    player_names,
    problems_json,
    state_players,
)
from cardforge.web.store import (
    Details,
    PlayLog,
    details_from_form,
    is_future,
    parse_id,
    today,
    unconfirmed_date,
)

if TYPE_CHECKING:
    from cardforge.games.base import Game
    from cardforge.lab.facts import Deck
    from cardforge.problems import Problem

HERE = Path(__file__).parent
MAX_BODY = 256 * 1024  # bytes of a posted form
MAX_FIELDS = 3000
LOCAL_HOSTS = {"127.0.0.1", "localhost", "::1", "[::1]"}
ACCESS_COOKIE = "cf_access"
CSRF_COOKIE = "cf_csrf"

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


@dataclass
class Settings:
    db_path: Path
    token: str | None = None  # required from every client when set (--host 0.0.0.0)
    data_root: Path | None = None
    local_only: bool = True  # the Host header must name this machine (DNS rebinding)
    #: game folders (or ids) named on the command line, served besides the shipped games
    games: list[str | Path] = field(default_factory=list)
    #: the playtest lab: game id → the build record (cards.json) of the printed deck on the table;
    #: that game's sheet scores with those cards and its plays record that deck (else the working data's)
    printed: dict[str, Path] = field(default_factory=dict)


def _env() -> Environment:
    env = Environment(loader=FileSystemLoader(str(HERE / "templates")),
                      autoescape=select_autoescape(default=True, default_for_string=True),
                      trim_blocks=True, lstrip_blocks=True)
    env.globals["GRID_STATES"] = GRID_STATES
    env.globals["SCALARS"] = SCALARS
    env.filters["tojson_attr"] = lambda v: json.dumps(v, ensure_ascii=False)
    return env


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
                    response = _error_page(403, "This link has expired",
                                           "The server's access token was changed since this phone joined. "
                                           "Scan the QR code `cardforge serve` shows now (or open the address "
                                           "it prints); what was typed on a score sheet here is kept on this "
                                           "phone and comes back on the sheet.")
                    response.delete_cookie(ACCESS_COOKIE)
                    return response
                return _error_page(403, "Access token required",
                                   "Open the address printed by `cardforge serve` (it carries the token), "
                                   "or scan its QR code.")
        elif self.settings.local_only:
            host = (request.headers.get("host") or "").rsplit(":", 1)[0] if not (
                request.headers.get("host") or "").startswith("[") else request.headers["host"].split("]")[0] + "]"
            if host not in LOCAL_HOSTS:
                return _error_page(403, "Forbidden host", "This server answers on 127.0.0.1 only.")
        if request.method == "POST":
            size = request.headers.get("content-length")
            if size is None or not size.isdigit():
                return _error_page(411, "Length required", "Send the form with its length.")
            limit = {**logbook.UPLOAD_LIMITS, invites.IMPORT_PATH: logbook.MAX_IMPORT}.get(request.url.path, MAX_BODY)
            if int(size) > limit:
                return _error_page(413, "Too large", f"A form is at most {MAX_BODY // 1024} KB." if limit == MAX_BODY
                                   else f"A file here is at most {limit // (1024 * 1024)} MB.")
            if request.headers.get("sec-fetch-site") == "cross-site":
                return _error_page(403, "Cross-site request refused", "Forms are accepted from this site only.")
            origin = request.headers.get("origin")
            if origin and origin != "null" and origin.split("://", 1)[-1] != request.headers.get("host"):
                return _error_page(403, "Cross-site request refused", "Forms are accepted from this site only.")
        return None


TEMPLATES = _env()


def _error_page(status: int, title: str, message: str) -> HTMLResponse:
    html = TEMPLATES.get_template("error.html").render(title=title, message=message, status=status, csrf="")
    return HTMLResponse(html, status_code=status)


async def read_form(request: Request) -> list[tuple[str, str]]:
    """The posted urlencoded form, within the limits; 400 otherwise."""
    kind = request.headers.get("content-type", "").split(";")[0].strip()
    if kind != "application/x-www-form-urlencoded":
        raise HTTPException(415, "forms are sent as application/x-www-form-urlencoded")
    body = await logbook.read_body(request, MAX_BODY, f"a form is at most {MAX_BODY // 1024} KB")
    try:
        pairs = parse_qsl(body.decode("utf-8"), keep_blank_values=True, max_num_fields=MAX_FIELDS)
    except (UnicodeDecodeError, ValueError):
        raise HTTPException(400, f"the form is not readable (at most {MAX_FIELDS} fields, UTF-8)") from None
    csrf = request.cookies.get(CSRF_COOKIE, "")
    given = next((v for k, v in pairs if k == "csrf"), "")
    if not csrf or not secrets.compare_digest(csrf.encode(), given.encode()):
        raise HTTPException(403, "the form's security token is missing or stale: reload the page")
    return pairs


def create_app(settings: Settings) -> Guard:
    store = PlayLog(settings.db_path)
    catalogue = service.Catalogue(settings.games, settings.data_root)

    def ctx_of(game_id: str) -> service.GameContext:
        """A game this server serves (see :class:`service.Catalogue`), else 404."""
        from cardforge.errors import UnknownGameError

        served = catalogue.get(game_id)
        if served is None:
            raise HTTPException(404, f"no game '{game_id[:100]}' on this server")
        try:
            return service.context(served, catalogue.data_root)
        except UnknownGameError:
            raise HTTPException(404, f"no game '{game_id[:100]}' on this server") from None

    def page(request: Request, name: str, status: int = 200, **values: Any) -> HTMLResponse:
        csrf = request.cookies.get(CSRF_COOKIE) or secrets.token_urlsafe(24)
        html = TEMPLATES.get_template(name).render(csrf=csrf, request=request, **values)
        response = HTMLResponse(html, status_code=status)
        if request.cookies.get(CSRF_COOKIE) != csrf:
            response.set_cookie(CSRF_COOKIE, csrf, httponly=True, samesite="lax")
        return response

    tables: dict[str, tuple[service.GameContext, service.GameContext, Deck]] = {}

    def table_of(game_id: str) -> tuple[service.GameContext, Deck]:
        """The game as it is on the table: with ``--printed``, its data holds the printed deck's
        cards (the sheet scores with them, a play records that deck); else the working data."""
        from cardforge.render.printed_deck import printed_deck

        ctx = ctx_of(game_id)
        record = settings.printed.get(ctx.game.id)
        if record is None:
            return ctx, deck_of_data(ctx.game.id, ctx.data)
        cached = tables.get(ctx.game.id)
        if cached is not None and cached[0] is ctx:  # rebuilt when the served data changes
            return cached[1], cached[2]
        try:
            deck, data = printed_deck(ctx.game, ctx.data, record)
        except CardforgeError as exc:
            raise HTTPException(409, f"the printed deck of {ctx.game.id} ({record.name}) does not fit the "
                                     f"game's data now: {exc.render()[:2000]}") from None
        table = service.GameContext(ctx.game, data, build_sheet(ctx.game, data), ctx.stamp)
        tables[ctx.game.id] = (ctx, table, deck)
        return table, deck

    site = logbook.Site(store, ctx_of, page, read_form, lambda g: catalogue.get(g) is not None, catalogue.ids)

    async def home(request: Request) -> Response:
        games, broken = [], []
        for gid in catalogue.ids():
            try:
                games.append(ctx_of(gid).game)
            except CardforgeError as exc:  # listed with its problems: `cardforge check` tells more
                broken.append((gid, exc.render()))
        return page(request, "home.html", games=games, broken=broken, recent=site.labelled(store.plays(limit=5)))

    async def game_page(request: Request) -> Response:
        ctx, deck = table_of(request.path_params["game"])
        roster = store.players()  # most plays first: picked with one tap
        deck_text = f"the working data, {deck.label}" if deck.source == "data" else f"{deck.source}, {deck.label}"
        last = store.plays(game=ctx.game.id, limit=1)
        last_mode = last[0].mode if last and last[0].mode in ctx.game.modes else None
        return page(request, "game.html", game=ctx.game, has_sheet=ctx.sheet is not None, roster=roster[:60],
                    last_mode=last_mode,
                    deck_text=deck_text,
                    known=[p["name"] for p in roster[:200]], groups=store.recent_groups(ctx.game.id),
                    slots=max(2, min(ctx.game.max_players, 8) - min(len(roster), 8)))

    def sheet_players(request: Request, ctx: service.GameContext) -> list[str]:
        names = [n.strip()[:80] for n in request.query_params.getlist("name") if n.strip()]
        if not names:
            try:
                count = int(request.query_params.get("players", ctx.game.min_players))
            except ValueError:
                count = ctx.game.min_players
            count = max(1, min(count, ctx.game.max_players, MAX_PLAYERS_ON_SHEET))
            names = [f"Player {i + 1}" for i in range(count)]
        return names[:MAX_PLAYERS_ON_SHEET]

    def render_sheet(request: Request, ctx: service.GameContext, *, state: dict[str, Any] | None = None,
                     outcome: service.Outcome | None = None, status: int = 200,
                     yaml_text: str | None = None, note: str = "", details: Details | None = None,
                     edit: int | None = None, request_key: str | None = None,
                     redrawn: bool = False) -> HTMLResponse:
        as_yaml = ctx.sheet is None or request.query_params.get("yaml") == "1" or yaml_text is not None
        if state is None:
            names = sheet_players(request, ctx)
            state = {"players": [{"name": n} for n in names]}
            mode = request.query_params.get("mode")
            if mode in ctx.game.modes:
                state["mode"] = mode
        if ctx.sheet is not None and ctx.sheet.rounds is not None and not state.get("players"):
            state = {**state, "players": state_players(ctx.sheet, state)}  # named by the rounds
        if as_yaml and yaml_text is None:
            yaml_text = skeleton_yaml(ctx, state)
        result = service.sheet_view(outcome.sheet, ctx) if outcome is not None and outcome.sheet is not None else None
        names = [p.get("name", "") for p in state.get("players", []) if isinstance(p, dict)]
        problems = problems_json(outcome.problems, names, ctx.sheet) if outcome is not None else []
        standing = service.standing_view(ctx, outcome.standing, names) if outcome is not None else None
        details = details or Details(note=note)
        if not details.played_on:
            details.played_on = today()
        first = request.query_params.get("first", "")
        if details.first_seat is None and first.isascii() and first.isdigit() and 1 <= int(first[:3]) <= len(names):
            details.first_seat = int(first) - 1
        return page(request, "sheet.html", status=status, game=ctx.game, sheet=ctx.sheet, state=state,
                    as_yaml=as_yaml, yaml_text=yaml_text, result=result, problems=problems, note=details.note,
                    details=details, edit=edit, request_key=request_key or secrets.token_urlsafe(18), seat_names=names,
                    redrawn=redrawn, seats=seat_controls(ctx, as_yaml, len(names)),
                    standing=standing, todo=service.todo_view(problems, names, ctx.sheet, as_yaml),
                    future_date=is_future(details.played_on),
                    refused=outcome is not None,  # a refused save says so at the top (also without script)
                    cards_json=json.dumps(ctx.sheet.cards if ctx.sheet else {},
                                          ensure_ascii=False).replace("</", "<\\/"))

    async def sheet(request: Request) -> Response:
        ctx, _ = table_of(request.path_params["game"])
        source = request.query_params.get("play", "")
        if source:  # a saved play back in the sheet, to correct it
            number = parse_id(source)
            play = store.play(number) if number is not None else None
            if play is None or play["game"] != ctx.game.id or play["deleted_at"] or not play["state_yaml"]:
                raise HTTPException(404, f"no play #{source[:30]} of {ctx.game.id} to open in the sheet")
            details = Details(play["played_on"], play["duration_min"], play["location"], play["note"],
                              play["first_seat"])
            # a player renamed in the roster since: the sheet shows today's name
            text = service.renamed_yaml(ctx.game.id, play["state_yaml"], service.names_now(play))
            if ctx.sheet is None or request.query_params.get("yaml") == "1":
                return render_sheet(request, ctx, yaml_text=text, details=details, edit=play["id"])
            state = parse_text(text, "final.yaml").data
            if isinstance(state, dict):
                return render_sheet(request, ctx, state=state, details=details, edit=play["id"])
            return render_sheet(request, ctx, yaml_text=text, details=details, edit=play["id"])
        return render_sheet(request, ctx)

    async def redraw(request: Request) -> Response:
        """The sheet drawn again from what was typed: a seat added, removed or moved (``seat``:
        ``add``, ``remove:N``, ``up:N``, ``down:N``, 0-based), or a draft kept on the phone
        brought back. Nothing is scored for good or saved; the form's key (one play however
        often it is sent) is kept."""
        ctx, _ = table_of(request.path_params["game"])
        pairs = await read_form(request)
        form = dict(pairs)
        yaml_text = form.get("yaml")
        edit = parse_id(form.get("edit_play", "")) if form.get("edit_play") else None
        key = form.get("request_key") or None
        if key is not None and (len(key) > 64 or not key.replace("-", "").replace("_", "").isalnum()):
            key = None
        if ctx.sheet is None or yaml_text is not None:
            details, _ = details_from_form(pairs, None)
            return render_sheet(request, ctx, yaml_text=yaml_text or "", details=details, edit=edit,
                                request_key=key, redrawn=True)
        state = form_to_state(ctx.sheet, pairs)
        details, _ = details_from_form(pairs, len(state.get("players") or []))
        if ctx.sheet.rounds is None:
            state["players"], details.first_seat = move_seat(
                state.get("players") or [], form.get("seat", ""), details.first_seat,
                min(ctx.game.max_players, MAX_PLAYERS_ON_SHEET))
        return render_sheet(request, ctx, state=state, details=details, edit=edit, request_key=key, redrawn=True)

    def outcome_of(ctx: service.GameContext, pairs: list[tuple[str, str]]) -> tuple[service.Outcome, str | None]:
        yaml_text = next((v for k, v in pairs if k == "yaml"), None)
        if yaml_text is not None or ctx.sheet is None:
            return service.score_yaml(ctx, yaml_text or ""), yaml_text
        return service.score_form(ctx, pairs), None

    async def live(request: Request) -> Response:
        ctx, _ = table_of(request.path_params["game"])
        pairs = await read_form(request)
        outcome, yaml_text = outcome_of(ctx, pairs)
        result = service.sheet_view(outcome.sheet, ctx) if outcome.sheet is not None else None
        names = player_names(pairs)
        problems = problems_json(outcome.problems, names, ctx.sheet)
        standing = service.standing_view(ctx, outcome.standing, names)
        todo = service.todo_view(problems, names, ctx.sheet, yaml_text is not None)
        values = {"result": result, "standing": standing, "todo": todo}
        html = TEMPLATES.get_template("result.html").render(**values)
        bar = TEMPLATES.get_template("bar.html").render(**values)
        return JSONResponse({"ok": outcome.ok, "html": html, "bar": bar, "problems": problems,
                             "score": outcome.sheet.to_json() if outcome.sheet is not None else None,
                             "standing": standing["json"] if standing is not None else None})

    async def save(request: Request) -> Response:
        ctx, deck = table_of(request.path_params["game"])
        pairs = await read_form(request)
        outcome, yaml_text = outcome_of(ctx, pairs)
        form = dict(pairs)
        details, detail_problems = details_from_form(pairs, len(outcome.sheet.players) if outcome.sheet else None)
        detail_problems += unconfirmed_date(details, pairs)
        edit = parse_id(form.get("edit_play", "")) if form.get("edit_play") else None
        if edit is not None and invites.invite_of(request) is not None:
            raise HTTPException(403, "an invite saves new plays only")
        if edit is not None:
            before = store.play(edit)
            if before is None or before["game"] != ctx.game.id or before["deleted_at"]:
                raise HTTPException(404, f"no play #{edit} of {ctx.game.id} to change")
        if outcome.sheet is None or detail_problems:  # not saved: the sheet again, with every problem
            refused = service.Outcome(outcome.state, None, outcome.problems + detail_problems, outcome.standing)
            return render_sheet(request, ctx, state=outcome.state if isinstance(outcome.state, dict) else None,
                                outcome=refused, status=422, yaml_text=yaml_text, details=details, edit=edit)
        text = yaml_text if yaml_text is not None else service.state_yaml(ctx.game.id, outcome.state)
        mode = outcome.state.get("mode") if isinstance(outcome.state, dict) else None
        key = form.get("request_key") or None  # the same form sent twice: one play
        # what was on the table (the playtest lab): the served deck (--printed, else the working
        # data's), each seat's choices and cards
        facts = facts_of_yaml(ctx.game, ctx.data, text, [p.name for p in outcome.sheet.players])
        if edit is not None:  # the play changed in place; the version it replaces is kept
            store.update_play(edit, mode=mode, state_yaml=text, result=outcome.sheet.to_json(), details=details,
                              request_key=key, facts=facts)
            return RedirectResponse(f"/plays/{edit}", status_code=303)
        played, printed = invites.deck_for_save(request, ctx.game.id, deck, store.decks)  # a playtest link's deck
        invite = invites.invite_of(request)
        play_id = store.add_play(game=ctx.game.id, title=ctx.game.title, mode=mode, state_yaml=text,
                                 result=outcome.sheet.to_json(), details=details, request_key=key,
                                 deck=played, deck_version=printed, facts=facts,
                                 invite=invite.id if invite is not None else None)
        return invites.after_save(request, play_id) or RedirectResponse(f"/plays/{play_id}", status_code=303)

    async def setup(request: Request) -> Response:
        ctx, _ = table_of(request.path_params["game"])
        q = request.query_params
        result, problems = None, []
        if "players" in q:
            try:
                players = int(q["players"])
                seed = int(q["seed"]) if q.get("seed", "").strip() else None
            except ValueError:
                players, seed = -1, None
            options, bad = setup_options(ctx.game, q)
            if bad:
                players = -2
            if players == -2:
                problems = bad
            elif players < 0:
                from cardforge.problems import Problem

                problems = [Problem("players and seed are whole numbers", field="players")]
            else:
                result, problems = service.run_setup_view(ctx, players, q.get("mode") or None, options, seed)
        names = {c.id: c.name for c in ctx.data.cards}
        return page(request, "setup.html", game=ctx.game, result=result, problems=problems_json(problems), names=names,
                    query=q, deal_json=json.dumps(result["deal"], ensure_ascii=False, indent=2) if result else "")

    async def http_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, HTTPException)  # registered for HTTPException only
        return _error_page(exc.status_code, {404: "Not found", 405: "Method not allowed"}.get(
            exc.status_code, "Request refused"), str(exc.detail))

    async def server_error(request: Request, exc: Exception) -> Response:
        log.error("internal error on %s: %s: %s", request.url.path, type(exc).__name__, exc)
        if isinstance(exc, CardforgeError):
            return _error_page(422, "Cannot do that", exc.render())
        return _error_page(500, "Internal error", f"{type(exc).__name__} (details in the server's log).")

    routes = [
        Route("/", home),
        Route("/g/{game}", game_page),
        Route("/g/{game}/sheet", sheet),
        Route("/g/{game}/sheet", redraw, methods=["POST"]),
        Route("/g/{game}/score", live, methods=["POST"]),
        Route("/g/{game}/save", save, methods=["POST"]),
        Route("/g/{game}/setup", setup),
        *logbook.routes(site, CSRF_COOKIE),
        *lab.routes(site),
        *invites.routes(site, CSRF_COOKIE, catalogue.ids),
        Mount("/static", StaticFiles(directory=str(HERE / "static")), name="static"),
    ]
    app = Starlette(routes=routes, exception_handlers={HTTPException: http_error, Exception: server_error})
    app.state.store = store
    app.state.settings = settings
    return Guard(app, settings, invites.Gate(store, settings.token, _error_page))


def move_seat(players: list[Any], op: str, first: int | None, most: int) -> tuple[list[Any], int | None]:
    """The players after a seat operation (``add``, ``remove:N``, ``up:N``, ``down:N``; N
    0-based), and the first player's seat, which follows its player. Anything else: as they are."""
    players = list(players)
    what, _, at = op.partition(":")
    i = int(at) if at.isascii() and at.isdigit() and len(at) < 3 else -1
    follow = players[first] if first is not None and 0 <= first < len(players) else None
    if what == "add" and len(players) < most:
        players.append({"name": f"Player {len(players) + 1}"})
    elif what == "remove" and 0 <= i < len(players) and len(players) > 1:
        players.pop(i)
    elif what in ("up", "down"):
        j = i - 1 if what == "up" else i + 1
        if 0 <= i < len(players) and 0 <= j < len(players):
            players[i], players[j] = players[j], players[i]
    seat = next((k for k, p in enumerate(players) if p is follow), None) if follow is not None else None
    return players, seat


def seat_controls(ctx: service.GameContext, as_yaml: bool, count: int) -> dict[str, Any] | None:
    """What the sheet offers to change its seats (none on a sheet of rounds or YAML)."""
    if as_yaml or ctx.sheet is None or ctx.sheet.rounds is not None:
        return None
    most = min(ctx.game.max_players, MAX_PLAYERS_ON_SHEET)
    return {"can_add": count < most, "can_remove": count > 1, "most": most}


def setup_options(game: Game, query: Mapping[str, str]) -> tuple[dict[str, Any], list[Problem]]:
    """The setup form's options: flags, choices and whole numbers as the game declares them."""
    from cardforge.problems import Problem

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


def skeleton_yaml(ctx: service.GameContext, state: dict[str, Any]) -> str:
    """A starting final-state file for the YAML sheet: the game's own example when it has one
    (its folder's ``examples/final.yaml``, shipped games included), else the players' names."""
    example = ctx.game.folder / "examples" / "final.yaml"
    if example.is_file():
        text = example.read_text(encoding="utf-8")
        return "\n".join(line for line in text.splitlines() if not line.startswith("#")).strip() + "\n"
    return service.state_yaml(ctx.game.id, state)
