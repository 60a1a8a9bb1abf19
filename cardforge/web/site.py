"""What every page of ``cardforge serve`` shares: the server's settings, the :class:`Site` (its
play log, the games it serves, how a page is rendered), the page templates, and reading what a
browser posts (a form, a file) within its limits.

Each page's module (``home``, ``game``, ``sheet``, ``logbook``, ``players``, ``stats_page``,
``backup``, ``lab``) has a ``ROUTES`` list whose handlers find the site at ``request.app.state.site``;
``app.create_app`` puts them together.
"""

from __future__ import annotations

import email.parser
import email.policy
import json
import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qsl

from jinja2 import Environment, FileSystemLoader, select_autoescape
from starlette.exceptions import HTTPException
from starlette.requests import ClientDisconnect, Request
from starlette.responses import HTMLResponse

from cardforge.errors import CardforgeError, UnknownGameError
from cardforge.lab.facts import deck_of_data
from cardforge.playlog.store import PlayLog, PlaySummary, open_log, parse_id
from cardforge.web import service
from cardforge.web.forms import GRID_STATES, SCALARS, build_sheet

if TYPE_CHECKING:
    from cardforge.lab.facts import Deck
    from cardforge.render.reports.charts import Drawing

HERE = Path(__file__).parent
MAX_BODY = 256 * 1024  # bytes of a posted form
MAX_FIELDS = 3000
CSRF_COOKIE = "cf_csrf"


@dataclass
class Settings:
    db_path: Path | str  # a file, or a PostgreSQL URL (``serve --db postgresql://…``)
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


TEMPLATES = _env()


def error_page(status: int, title: str, message: str) -> HTMLResponse:
    html = TEMPLATES.get_template("error.html").render(title=title, message=message, status=status, csrf="")
    return HTMLResponse(html, status_code=status)


class Site:
    """What the pages share: the play log, the games served (the sheet's view of a game, as it
    is on the table), how a page is rendered, and the games' names as the log shows them."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.store: PlayLog = open_log(settings.db_path)
        self.catalogue = service.Catalogue(settings.games, settings.data_root)
        self._tables: dict[str, tuple[service.GameContext, service.GameContext, Deck]] = {}

    def ctx_of(self, game_id: str, /) -> service.GameContext:
        """A game this server serves (see :class:`service.Catalogue`), else 404."""
        served = self.catalogue.get(game_id)
        if served is None:
            raise HTTPException(404, f"no game '{game_id[:100]}' on this server")
        try:
            return service.context(served, self.catalogue.data_root)
        except UnknownGameError:
            raise HTTPException(404, f"no game '{game_id[:100]}' on this server") from None

    def served(self, game_id: str) -> bool:
        return self.catalogue.get(game_id) is not None

    def game_ids(self) -> list[str]:
        """The games served, in the home page's order."""
        return self.catalogue.ids()

    def table_of(self, game_id: str) -> tuple[service.GameContext, Deck]:
        """The game as it is on the table: with ``--printed``, its data holds the printed deck's
        cards (the sheet scores with them, a play records that deck); else the working data."""
        from cardforge.render.cards.printed_deck import printed_deck  # (ReportLab: loaded when a deck is printed)

        ctx = self.ctx_of(game_id)
        record = self.settings.printed.get(ctx.game.id)
        if record is None:
            return ctx, deck_of_data(ctx.game.id, ctx.data)
        cached = self._tables.get(ctx.game.id)
        if cached is not None and cached[0] is ctx:  # rebuilt when the served data changes
            return cached[1], cached[2]
        try:
            deck, data = printed_deck(ctx.game, ctx.data, record)
        except CardforgeError as exc:
            raise HTTPException(409, f"the printed deck of {ctx.game.id} ({record.name}) does not fit the "
                                     f"game's data now: {exc.render()[:2000]}") from None
        table = service.GameContext(ctx.game, data, build_sheet(ctx.game, data), ctx.stamp)
        self._tables[ctx.game.id] = (ctx, table, deck)
        return table, deck

    def page(self, request: Request, name: str, status: int = 200, **values: Any) -> HTMLResponse:
        """A page of the templates, with the form's CSRF token (set as a cookie on first visit)."""
        csrf = request.cookies.get(CSRF_COOKIE) or secrets.token_urlsafe(24)
        html = TEMPLATES.get_template(name).render(csrf=csrf, request=request, **values)
        response = HTMLResponse(html, status_code=status)
        if request.cookies.get(CSRF_COOKIE) != csrf:
            response.set_cookie(CSRF_COOKIE, csrf, httponly=True, samesite="lax")
        return response

    def title_of(self, game: str, fallback: str = "") -> str:
        """A game's title: the served game's, else the one the log saved with its plays."""
        if self.served(game):
            try:
                return self.ctx_of(game).game.title
            except Exception:  # a game whose data is broken: the log's title
                pass
        return fallback or game

    def labels_of(self, game: str) -> dict[str, str]:
        """A game's score categories by id → their label (as on its pad), when it is served."""
        if not self.served(game):
            return {}
        try:
            return {c.id: c.label for c in self.ctx_of(game).game.categories}
        except Exception:
            return {}

    def roster(self) -> dict[int, dict[str, Any]]:
        return {p["id"]: p for p in self.store.players()}

    def mode_label(self, game: str, mode: str | None) -> str:
        """A mode as the game names it (its game.yaml label, "Mode expert", not ``expert``)."""
        if not mode or not self.served(game):
            return mode or ""
        try:
            spec = self.ctx_of(game).game.spec.modes.get(mode)
        except Exception:
            return mode
        return (spec.label if spec is not None and spec.label else None) or mode

    def labelled(self, plays: list[PlaySummary]) -> list[PlaySummary]:
        """The plays with their games' titles and modes' labels as the games say them now."""
        titles: dict[str, str] = {}  # a game's context is looked up once per page, not once per play
        modes: dict[tuple[str, str | None], str] = {}
        for p in plays:
            if p.game not in titles:
                titles[p.game] = self.title_of(p.game, p.title)
            if (p.game, p.mode) not in modes:
                modes[(p.game, p.mode)] = self.mode_label(p.game, p.mode)
            p.title, p.mode_label = titles[p.game], modes[(p.game, p.mode)]
        return plays

    def games_filter(self) -> list[tuple[str, str]]:
        """The games of the log (id, title as served now): the history's and the stats' filter."""
        return [(g, self.title_of(g, title)) for g, title in self.store.games()]


def site_of(request: Request) -> Site:
    """The site of the app the request came to (``create_app`` keeps it in ``app.state``)."""
    site: Site = request.app.state.site
    return site


def number_of(request: Request, key: str = "play") -> int:
    number = parse_id(request.path_params.get(key, ""))
    if number is None:
        raise HTTPException(404, f"no such {key}")
    return number


def chart_svgs(draw: Callable[[float], Sequence[tuple[str, str, str, Drawing]]]) -> list[dict[str, str]]:
    """Each chart ``draw(width)`` makes, twice: laid out for a wide screen (``svg``) and for a
    phone (``phone``: fewer points wide, so the page scales its text up to 14 px or more); the
    page's CSS shows the one that suits the screen."""
    # ReportLab: loaded by the first page with charts
    from cardforge.render.reports.charts import PHONE_WIDTH, WIDTH, to_svg

    return [{"id": key, "title": title, "svg": to_svg(d, title=title, desc=desc, css_class="chart wide"),
             "phone": to_svg(p, title=title, desc=desc, css_class="chart phone")}
            for (key, title, desc, d), (_, _, _, p) in zip(draw(WIDTH), draw(PHONE_WIDTH), strict=True)]


# --- what a browser posts ------------------------------------------------------------------------

async def read_body(request: Request, limit: int, too_large: str) -> bytes:
    """A request's body, refused (413, ``too_large``) as soon as it passes ``limit`` bytes; 400
    when the client went away before sending it all (a page closed or left while it posted:
    nobody to answer, and nothing wrong with the server)."""
    body = b""
    try:
        async for chunk in request.stream():
            body += chunk
            if len(body) > limit:
                raise HTTPException(413, too_large)
    except ClientDisconnect:
        raise HTTPException(400, "the request ended before its body was sent") from None
    return body


async def read_form(request: Request) -> list[tuple[str, str]]:
    """The posted urlencoded form, within the limits; 400 otherwise."""
    kind = request.headers.get("content-type", "").split(";")[0].strip()
    if kind != "application/x-www-form-urlencoded":
        raise HTTPException(415, "forms are sent as application/x-www-form-urlencoded")
    body = await read_body(request, MAX_BODY, f"a form is at most {MAX_BODY // 1024} KB")
    try:
        pairs = parse_qsl(body.decode("utf-8"), keep_blank_values=True, max_num_fields=MAX_FIELDS)
    except (UnicodeDecodeError, ValueError):
        raise HTTPException(400, f"the form is not readable (at most {MAX_FIELDS} fields, UTF-8)") from None
    csrf = request.cookies.get(CSRF_COOKIE, "")
    given = next((v for k, v in pairs if k == "csrf"), "")
    if not csrf or not secrets.compare_digest(csrf.encode(), given.encode()):
        raise HTTPException(403, "the form's security token is missing or stale: reload the page")
    return pairs


async def read_upload(request: Request, limit: int, csrf_cookie: str = CSRF_COOKIE
                      ) -> tuple[dict[str, str], bytes, str]:
    """A posted ``multipart/form-data`` form with one file: its text fields, the file's bytes
    and name. At most ``limit`` bytes; the CSRF field must match its cookie."""
    kind = request.headers.get("content-type", "")
    if not kind.startswith("multipart/form-data"):
        raise HTTPException(415, "a file is sent as multipart/form-data")
    body = await read_body(request, limit, f"a file here is at most {limit // (1024 * 1024)} MB")
    message = email.parser.BytesParser(policy=email.policy.HTTP).parsebytes(
        b"Content-Type: " + kind.encode("latin-1") + b"\r\n\r\n" + body)
    fields: dict[str, str] = {}
    data, filename = b"", ""
    if not message.is_multipart():
        raise HTTPException(400, "the form is not readable")
    for part in message.iter_parts():
        name = part.get_param("name", header="content-disposition")
        payload = part.get_payload(decode=True)
        if not isinstance(name, str) or not isinstance(payload, bytes):
            continue
        file = part.get_param("filename", header="content-disposition")
        if isinstance(file, str):
            data, filename = payload, file
        else:
            fields[name] = payload.decode("utf-8", "replace")[:1000]
    cookie = request.cookies.get(csrf_cookie, "")
    if not cookie or not secrets.compare_digest(cookie.encode(), fields.get("csrf", "").encode()):
        raise HTTPException(403, "the form's security token is missing or stale: reload the page")
    return fields, data, filename
