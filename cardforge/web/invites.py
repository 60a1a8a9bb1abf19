"""Remote playtests: per-playtester invites and the printed playtest link (issue 44).

- **Invites** (``cardforge invite GAME --name "Club Lyon"``): a random token (24 bytes,
  URL-safe) given once as a link ``/i/<token>``; the log keeps only its SHA-256
  (``invites`` table, schema 5), so a copy of the log lets nobody in. Opening the link keeps
  the token in an http-only cookie and shows that game's score sheet — and nothing else: the
  history, the roster, the stats, the lab and every other game answer 403 to an invite. A play
  saved through it records the invite (``plays.invite_id``). A revoked or expired invite is
  refused, link and cookie alike. Each invite is rate-limited (:class:`RateLimit`); sizes are
  the server's usual limits (a form 256 KB, a CSV upload ``MAX_IMPORT``).
- **The printed link** (``build --playtest URL``, ``render/sheets/playtest.py``):
  ``/p/<game>/<version>/<fingerprint>`` (also under an invite, ``/i/<token>/p/…``) keeps the
  printed deck in a cookie for that game and opens its sheet; a play saved there records that
  deck — the served deck when its fingerprint matches, a deck the log knows by that fingerprint,
  else the printed version alone.

Everything the server promises still holds: the CSRF token on every form, the Host check
without a token, the pages' content security policy; the invite token is compared by its hash
in the database (no timing to learn from a string comparison).
"""

from __future__ import annotations

import hashlib
import re
import secrets
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any
from urllib.parse import unquote

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import Route

from cardforge.playlog.store import PlayLog, StoreError
from cardforge.problems import Problem

if TYPE_CHECKING:
    from cardforge.lab.facts import Deck
    from cardforge.web.site import Site

INVITE_COOKIE = "cf_invite"
DECK_COOKIE = "cf_deck"
SCOPE_KEY = "cardforge.invite"  # the request's admitted invite, for the pages and the save
MAX_INVITE_NAME = 80
MAX_EXPIRY_DAYS = 3650
TOKEN_BYTES = 24
#: an invite's budget, per hour: posts of any kind (the sheet posts as one types) and plays saved
POSTS_PER_HOUR = 1200
SAVES_PER_HOUR = 60
IMPORT_PATH = "/invite/import"
_TOKEN = re.compile(r"^[A-Za-z0-9_-]{16,64}$")
_FINGERPRINT = re.compile(r"^[0-9a-f]{8}$")
_VERSION = re.compile(r"^[A-Za-z0-9.+_~-]{1,40}$")
_GAME = re.compile(r"^[a-z0-9][a-z0-9_-]{0,63}$")
_DURATION = re.compile(r"^\s*(\d{1,5})\s*([hdw])\s*$")


@dataclass(frozen=True)
class Invite:
    id: int
    game: str
    name: str
    created_at: str
    expires_at: str | None
    revoked_at: str | None
    plays: int = 0

    def state(self, now: datetime) -> str:
        """``active``, ``revoked`` or ``expired``."""
        if self.revoked_at:
            return "revoked"
        if self.expires_at and self.expires_at <= _stamp(now):
            return "expired"
        return "active"


def _stamp(when: datetime) -> str:
    return when.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def parse_expiry(text: str) -> timedelta | None:
    """``30d``, ``12h``, ``2w`` or ``never`` (None); ValueError saying what is allowed."""
    if text.strip().lower() == "never":
        return None
    m = _DURATION.match(text)
    if not m:
        raise ValueError(f"expected a number of hours, days or weeks (12h, 30d, 2w) or 'never', got {text!r}")
    count, unit = int(m.group(1)), m.group(2)
    span = {"h": timedelta(hours=count), "d": timedelta(days=count), "w": timedelta(weeks=count)}[unit]
    if not timedelta(hours=1) <= span <= timedelta(days=MAX_EXPIRY_DAYS):
        raise ValueError(f"must be between 1h and {MAX_EXPIRY_DAYS}d, got {text!r}")
    return span


# --- the store side ----------------------------------------------------------------------------

def create_invite(log: PlayLog, game: str, name: str, expires: timedelta | None,
                  now: datetime | None = None) -> tuple[Invite, str]:
    """A new invite and its token (shown once: the log keeps its hash)."""
    clean = " ".join(name.split())
    if not clean or len(clean) > MAX_INVITE_NAME:
        raise StoreError("cannot make the invite", [Problem(
            f"must be 1–{MAX_INVITE_NAME} characters, got {len(clean)}", field="--name")])
    now = now or datetime.now(UTC)
    token = secrets.token_urlsafe(TOKEN_BYTES)
    with log._write() as db:
        cur = db.execute("INSERT INTO invites (game, name, token_sha256, created_at, expires_at)"
                         " VALUES (?, ?, ?, ?, ?)",
                         (game, clean, token_hash(token), _stamp(now),
                          _stamp(now + expires) if expires is not None else None))
        assert cur.lastrowid is not None
        number = cur.lastrowid
    invite = invite_by_id(log, number)
    assert invite is not None
    return invite, token


def _invite(row: Any) -> Invite:
    return Invite(int(row["id"]), row["game"], row["name"], row["created_at"], row["expires_at"], row["revoked_at"],
                  int(row["plays"]))


_SELECT = ("SELECT i.*, (SELECT COUNT(*) FROM plays p WHERE p.invite_id = i.id AND p.deleted_at IS NULL) AS plays"
           " FROM invites i")


def invites(log: PlayLog) -> list[Invite]:
    """Every invite, oldest first, with the plays it sent (deleted ones aside)."""
    with log._read() as db:
        return [_invite(r) for r in db.execute(_SELECT + " ORDER BY i.id")]


def invite_by_id(log: PlayLog, number: int) -> Invite | None:
    with log._read() as db:
        row = db.execute(_SELECT + " WHERE i.id = ?", (number,)).fetchone()
    return _invite(row) if row else None


def invite_by_token(log: PlayLog, token: str) -> Invite | None:
    if not _TOKEN.match(token):
        return None
    with log._read() as db:
        row = db.execute(_SELECT + " WHERE i.token_sha256 = ?", (token_hash(token),)).fetchone()
    return _invite(row) if row else None


def revoke_invite(log: PlayLog, ref: str, now: datetime | None = None) -> list[Invite]:
    """Revoke the invite numbered ``ref``, or every active invite named ``ref``; the invites
    revoked (StoreError when none matches)."""
    now = now or datetime.now(UTC)
    found = [i for i in invites(log) if (ref.isdigit() and i.id == int(ref)) or i.name == " ".join(ref.split())]
    active = [i for i in found if i.state(now) != "revoked"]
    if not active:
        known = ", ".join(f"#{i.id} {i.name}" for i in invites(log) if i.state(now) != "revoked") or "none"
        raise StoreError(f"no invite {ref!r} to revoke", [Problem(
            f"{'already revoked' if found else 'not found'} (invites in use: {known})", field="invite")])
    with log._write() as db:
        for i in active:
            db.execute("UPDATE invites SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL", (_stamp(now), i.id))
    return [i for i in (invite_by_id(log, i.id) for i in active) if i is not None]


# --- the rate limit ------------------------------------------------------------------------------

class RateLimit:
    """At most ``limit`` uses per ``window`` seconds per key (a sliding window)."""

    def __init__(self, limit: int, window: float = 3600.0, clock: Callable[[], float] = time.monotonic) -> None:
        self.limit, self.window, self.clock = limit, window, clock
        self.seen: dict[int, deque[float]] = {}
        self.lock = threading.Lock()

    def allow(self, key: int) -> bool:
        now = self.clock()
        with self.lock:
            times = self.seen.setdefault(key, deque())
            while times and times[0] <= now - self.window:
                times.popleft()
            if len(times) >= self.limit:
                return False
            times.append(now)
            return True


# --- the web side --------------------------------------------------------------------------------

class Gate:
    """What :class:`cardforge.web.app.Guard` asks about invites, for every request."""

    def __init__(self, log: PlayLog, server_token: str | None,
                 error_page: Callable[[int, str, str], Response]) -> None:
        self.log = log
        self.server_token = server_token
        self.error_page = error_page
        self.posts = RateLimit(POSTS_PER_HOUR)
        self.saves = RateLimit(SAVES_PER_HOUR)

    def admit(self, request: Request, access_cookie: str) -> Invite | Response | None:
        """The invite this request comes through (then only its game's sheet is open to it), a
        refusal, or None: no invite — the server's own rules apply (the access token, the Host)."""
        path = request.url.path
        if path.startswith("/i/"):
            token = path.split("/", 3)[2]
        else:
            token = request.cookies.get(INVITE_COOKIE, "")
            if not token:
                return None
            given = request.cookies.get(access_cookie, "")
            if self.server_token and secrets.compare_digest(given.encode(), self.server_token.encode()):
                return None  # the designer's own phone: the whole server, as before
        invite = invite_by_token(self.log, token)
        now = datetime.now(UTC)
        if invite is None or invite.state(now) != "active":
            why = {None: "This invite link is not known to this server.",
                   "revoked": "This invite was revoked by the designer.",
                   "expired": "This invite has expired."}[invite.state(now) if invite else None]
            response = self.error_page(403, "Invite refused", why + " Ask the designer for a new link.")
            response.delete_cookie(INVITE_COOKIE)
            return response
        if not path.startswith("/i/") and (not self.open_to(invite, path) or (
                path.endswith("/sheet") and "play" in request.query_params)):  # a saved play: not an invite's
            return self.error_page(403, "Not part of this invite",
                                   f"An invite opens the score sheet of {invite.game} only.")
        if request.method == "POST":
            if not self.posts.allow(invite.id) or (
                    (path.endswith("/save") or path == IMPORT_PATH) and not self.saves.allow(invite.id)):
                return self.error_page(429, "Too many requests",
                                       f"An invite may save at most {self.saves.limit} plays and send "
                                       f"{self.posts.limit} forms an hour; try again later.")
        request.scope[SCOPE_KEY] = invite
        return invite

    @staticmethod
    def open_to(invite: Invite, path: str) -> bool:
        sheet = f"/g/{invite.game}/"
        return (path.startswith("/static/") or path.startswith("/invite/")
                or path.startswith(f"/p/{invite.game}/")
                or path in (sheet + "sheet", sheet + "score", sheet + "save"))


def invite_of(request: Request) -> Invite | None:
    found = request.scope.get(SCOPE_KEY)
    return found if isinstance(found, Invite) else None


def printed_of(request: Request, game: str) -> tuple[str, str] | None:
    """The printed deck (version, fingerprint) a playtest link left for ``game``, if any."""
    value = request.cookies.get(DECK_COOKIE, "")
    parts = value.split("/")
    if len(parts) != 3 or parts[0] != game or not _VERSION.match(parts[1]) or not _FINGERPRINT.match(parts[2]):
        return None
    return parts[1], parts[2]


def deck_for_save(request: Request, game: str, served: Deck, known: Callable[[str], dict[str, Deck]]
                  ) -> tuple[Deck | None, str | None]:
    """The deck a play saved now records: (deck, version without a deck). Without a printed
    link, the served deck; with one, the served deck when it is that print, a deck the log
    knows by its fingerprint, else the printed version alone."""
    printed = printed_of(request, game)
    if printed is None:
        return served, None
    version, fp = printed
    if served.fingerprint == fp:
        return served, None
    deck = known(game).get(fp)
    return (deck, None) if deck is not None else (None, version)


def after_save(request: Request, play_id: int) -> Response | None:
    """Where an invited save goes (its own page: the history is not open to it)."""
    if invite_of(request) is None:
        return None
    return RedirectResponse(f"/invite/saved?play={play_id}", status_code=303)


def routes(site: Site, csrf_cookie: str, games: Callable[[], list[str]]) -> list[Route]:
    """``/i/<token>``, ``/i/<token>/p/…``, ``/p/…``, ``/invite/saved``, ``/invite/import``."""
    pages = _InvitePages(site, csrf_cookie, games)
    return [
        Route("/i/{token}", pages.invite_home),
        Route("/i/{token}/p/{game}/{version}/{fp}", pages.invite_printed),
        Route("/p/{game}/{version}/{fp}", pages.printed),
        Route("/invite/saved", pages.saved),
        Route(IMPORT_PATH, pages.import_page),
        Route(IMPORT_PATH, pages.import_csv, methods=["POST"]),
    ]


class _InvitePages:
    """The invite and playtest-link routes of one site."""

    def __init__(self, site: Site, csrf_cookie: str, games: Callable[[], list[str]]) -> None:
        self.site = site
        self.csrf_cookie = csrf_cookie
        self.games = games

    def served(self, game: str) -> str:
        if game not in self.games():
            raise HTTPException(404, f"no game '{game[:100]}' on this server")
        return game

    def to_sheet(self, request: Request, game: str, printed: tuple[str, str] | None, token: str | None) -> Response:
        response = RedirectResponse(f"/g/{game}/sheet", status_code=303)
        if token is not None:  # http-only, same-site lax: the link opened from a scan still carries it
            response.set_cookie(INVITE_COOKIE, token, httponly=True, samesite="lax", max_age=90 * 86400)
        if printed is not None:
            response.set_cookie(DECK_COOKIE, f"{game}/{printed[0]}/{printed[1]}", httponly=True, samesite="lax",
                                max_age=2 * 86400)
        else:
            response.delete_cookie(DECK_COOKIE)
        return response

    def printed_link(self, request: Request) -> tuple[str, tuple[str, str]]:
        game = request.path_params["game"]
        version = unquote(request.path_params["version"])
        fp = request.path_params["fp"]
        if not _GAME.match(game) or not _VERSION.match(version) or not _FINGERPRINT.match(fp):
            raise HTTPException(404, "not a playtest link: /p/GAME/VERSION/FINGERPRINT (8 hex digits)")
        return self.served(game), (version, fp)

    async def invite_home(self, request: Request) -> Response:
        invite = invite_of(request)
        assert invite is not None  # Gate.admit let it in
        return self.to_sheet(request, self.served(invite.game), None, request.path_params["token"])

    async def invite_printed(self, request: Request) -> Response:
        invite = invite_of(request)
        assert invite is not None
        game, printed = self.printed_link(request)
        if game != invite.game:
            raise HTTPException(403, f"this invite is for {invite.game}, not {game}")
        return self.to_sheet(request, game, printed, request.path_params["token"])

    async def printed(self, request: Request) -> Response:
        game, deck = self.printed_link(request)
        return self.to_sheet(request, game, deck, None)

    def invite_page(self, request: Request, status: int = 200, **values: Any) -> Response:
        invite = invite_of(request)
        if invite is None:
            raise HTTPException(403, "this page is an invite's: open the invite link first")
        ctx = self.site.ctx_of(invite.game)
        return self.site.page(request, "invite.html", status=status, invite=invite, game=ctx.game,
                              printed=printed_of(request, invite.game), **values)

    async def saved(self, request: Request) -> Response:
        number = request.query_params.get("play", "")
        return self.invite_page(request, saved=number if number.isdigit() and len(number) < 12 else None)

    async def import_page(self, request: Request) -> Response:
        return self.invite_page(request)

    async def import_csv(self, request: Request) -> Response:
        from cardforge.playlog.importer import MAX_IMPORT, read_plays_csv
        from cardforge.web.site import read_upload

        site = self.site
        invite = invite_of(request)
        if invite is None:
            raise HTTPException(403, "this page is an invite's: open the invite link first")
        _, data, filename = await read_upload(request, MAX_IMPORT, self.csrf_cookie)
        plays, problems = read_plays_csv(data, filename or "plays.csv", site)
        name = filename or "plays.csv"
        problems += [Problem(f"game: this invite is for {invite.game}, got {p['game']!r}", file=name)
                     for p in plays if p["game"] != invite.game][:1]
        if problems:
            return self.invite_page(request, status=422, problems=[str(p) for p in problems[:50]])
        added, skipped = site.store.add_plays([{**p, "invite": invite.id} for p in plays])
        return self.invite_page(request, report={"added": added, "skipped": skipped})
