"""The play log's pages: the history, a play (its details, versions, delete and undo), the
roster, the stats with their charts, backup and restore, and the CSV import.

Routes are made by :func:`routes` from the :class:`Site` the app builds (its store, its games,
its page renderer); nothing here scores a game — a play is scored by the sheet's routes in
``app.py`` (or, imported from a spreadsheet, recorded with its scores as given).
"""

from __future__ import annotations

import email.parser
import email.policy
import json
import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any
from urllib.parse import urlencode

from pydantic import ValidationError
from starlette.exceptions import HTTPException
from starlette.requests import ClientDisconnect, Request
from starlette.responses import HTMLResponse, PlainTextResponse, RedirectResponse, Response
from starlette.routing import Route

from cardforge.playlog import stats
from cardforge.playlog.importer import MAX_BACKUP, MAX_IMPORT
from cardforge.playlog.store import (
    COLOURS,
    BackupDoc,
    PlayLog,
    PlaySummary,
    StoreError,
    details_from_form,
    parse_id,
    unconfirmed_date,
)
from cardforge.problems import Problem
from cardforge.web import service

if TYPE_CHECKING:
    from reportlab.graphics.shapes import Drawing

#: the posts that carry a file, and how large it may be (every other form: app.MAX_BODY)
UPLOAD_LIMITS = {"/log/restore": MAX_BACKUP, "/plays/import": MAX_IMPORT}
CHART_ROWS = 12  # players a bar chart shows (those with most plays): readable on a phone


@dataclass
class Site:
    """What the pages share: the store, the games served, how a page is rendered."""

    store: PlayLog
    ctx_of: Callable[[str], service.GameContext]  # a served game, else HTTPException 404
    page: Callable[..., HTMLResponse]
    read_form: Callable[[Request], Any]  # async: the posted form's pairs (CSRF checked)
    served: Callable[[str], bool]
    game_ids: Callable[[], list[str]]  # the games served, in the home page's order

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


def number_of(request: Request, key: str = "play") -> int:
    number = parse_id(request.path_params.get(key, ""))
    if number is None:
        raise HTTPException(404, f"no such {key}")
    return number


def chart_svgs(drawings: Sequence[tuple[str, str, str, Drawing]]) -> list[dict[str, str]]:
    from cardforge.render.charts import to_svg

    return [{"id": key, "title": title, "svg": to_svg(d, title=title, desc=desc)} for key, title, desc, d in drawings]


# --- charts of the stats (ReportLab drawings: the same for a PDF) --------------------------------

def game_drawings(g: stats.GameStats) -> list[tuple[str, str, str, Drawing]]:
    from cardforge.render.charts import Bar, Series, bar_chart, histogram, line_chart, stacked_bars

    out: list[tuple[str, str, str, Drawing]] = []
    rated = [p for p in g.players if p.plays]
    if rated:
        bars = [Bar(p.name, 100 * (p.rate.value or 0), p.rate.text(), p.colour,
                    tuple(100 * v for v in p.rate.interval() or (0, 0)))  # type: ignore[arg-type]
                for p in rated[:CHART_ROWS]]
        more = f" ({CHART_ROWS} players with most plays)" if len(rated) > CHART_ROWS else ""
        out.append(("win-rate", "Win rate", "Each player's wins out of their plays (2 players or more); the "
                    "whisker: where the rate plausibly lies (Wilson 95 %).",
                    bar_chart("Win rate", bars, max_value=100, unit=" %",
                              note="wins ÷ plays; the whisker: 95 % interval" + more)))
    if g.totals:
        out.append(("totals", "Scores", "How many final scores fell in each range.",
                    histogram("Scores", g.bins, x_label="final score (every player of every play)")))
    if g.categories and len(g.categories) > 1:
        rows = [(p.name, [p.category_average(c) or 0 for c, _, _ in g.categories])
                for p in g.players if p.totals][:CHART_ROWS]
        out.append(("categories", "Average score by category", "Each player's average final score, cut into "
                    "the score pad's categories.",
                    stacked_bars("Average score by category", rows, [label for _, label, _ in g.categories])))
    if g.positions:
        bars = [Bar(_ordinal(p.position) + " player", 100 * (p.rate.value or 0), p.rate.text(),
                    interval=tuple(100 * v for v in p.rate.interval() or (0, 0)))  # type: ignore[arg-type]
                for p in g.positions]
        out.append(("positions", "Wins by turn order", "The win rate of the first player, the second… over "
                    "the plays whose first player was recorded.",
                    bar_chart("Wins by turn order", bars, max_value=100, unit=" %",
                              note=f"{g.plays_with_first} play{'s' if g.plays_with_first != 1 else ''} "
                                   "with their first player recorded")))
    if len(g.dates) > 1 and g.trend:
        series = [Series(name, [(float(i), t) for i, t in points]) for name, points in g.trend]
        labels = [(0.0, g.dates[0]), (float(len(g.dates) - 1), g.dates[-1])]
        note = f"the last {len(g.dates)} plays" if g.plays > len(g.dates) else ""
        out.append(("trend", "Scores over time", "Each player's final score, play after play (the players "
                    "with most plays; the latest plays).", line_chart("Scores over time", series, x_labels=labels,
                                                                       note=note)))
    return out


def overview_drawings(o: stats.Overview) -> list[tuple[str, str, str, Drawing]]:
    from cardforge.render.charts import Bar, bar_chart

    out: list[tuple[str, str, str, Drawing]] = []
    rated = [p for p in o.players if p.plays][:CHART_ROWS]
    if rated:
        bars = [Bar(p.name, 100 * (p.beaten_average or 0), f"{stats.percent(p.beaten_average)} · {p.plays} plays",
                    p.colour) for p in rated]
        out.append(("beaten", "Opponents beaten", "In every game at once: the share of the other players each "
                    "player finished ahead of (a tie counts half), on average over their plays.",
                    bar_chart("Opponents beaten", bars, max_value=100, unit=" %",
                              note="all games: share of the others ranked behind")))
    if o.months:
        bars = [Bar(month, count, str(count)) for month, count in o.months[-12:]]
        out.append(("months", "Plays per month", "How many plays were saved each month (the last 12 with plays).",
                    bar_chart("Plays per month", bars)))
    return out


def player_drawings(p: stats.PlayerGames) -> list[tuple[str, str, str, Drawing]]:
    from cardforge.render.charts import Bar, Series, bar_chart, line_chart

    out: list[tuple[str, str, str, Drawing]] = []
    rated = [(title, line) for _, title, line in p.by_game if line.plays]
    if rated:
        bars = [Bar(title, 100 * (line.rate.value or 0), line.rate.text(), p.line.colour,
                    tuple(100 * v for v in line.rate.interval() or (0, 0)))  # type: ignore[arg-type]
                for title, line in rated]
        out.append(("by-game", "Win rate by game", "Wins out of plays in each game (2 players or more).",
                    bar_chart("Win rate by game", bars, max_value=100, unit=" %")))
    if len(p.beaten_over_time) > 1:
        points = [(float(i), 100 * share) for i, share, _ in p.beaten_over_time]
        labels = [(points[0][0], p.beaten_over_time[0][2]), (points[-1][0], p.beaten_over_time[-1][2])]
        out.append(("beaten", "Opponents beaten, play after play", "The share of the other players finished "
                    "behind, in each play, every game (a scale shared by all games).",
                    line_chart("Opponents beaten, play after play", [Series(p.line.name, points, p.line.colour)],
                               x_labels=labels, y_unit=" %", y_range=(0, 100))))
    return out


def _ordinal(n: int) -> str:
    suffix = {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th") if n % 100 not in (11, 12, 13) else "th"
    return f"{n}{suffix}"


# --- uploads -------------------------------------------------------------------------------------

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


async def read_upload(request: Request, limit: int, csrf_cookie: str) -> tuple[dict[str, str], bytes, str]:
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


# --- the routes ----------------------------------------------------------------------------------

def routes(site: Site, csrf_cookie: str) -> list[Route]:
    store = site.store

    def play_or_404(request: Request) -> dict[str, Any]:
        number = number_of(request)
        play = store.play(number)
        if play is None:
            raise HTTPException(404, f"no play #{number}")
        return play

    def games_filter() -> list[tuple[str, str]]:
        return [(g, site.title_of(g, title)) for g, title in store.games()]

    async def plays(request: Request) -> Response:
        game = request.query_params.get("game") or None
        deleted = request.query_params.get("deleted") == "1"
        player = parse_id(request.query_params.get("player", "")) if request.query_params.get("player") else None
        just = parse_id(request.query_params.get("undo", "")) if request.query_params.get("undo") else None
        undo = store.play(just) if just is not None else None
        who = store.player(player) if player is not None else None
        shown = site.labelled(store.plays(game, deleted=deleted, player_id=player))
        return site.page(request, "plays.html", plays=shown, game=game, games=games_filter(), deleted=deleted,
                         undo=undo if undo and undo["deleted_at"] else None, player=who,
                         title=site.title_of(game) if game else "")

    async def plays_csv(request: Request) -> Response:
        game = request.query_params.get("game") or None
        name = "".join(c for c in (game or "") if c.isalnum() or c in "_-")[:60]
        return Response(store.csv(game), media_type="text/csv; charset=utf-8", headers={
            "Content-Disposition": f'attachment; filename="cardforge-plays{"-" + name if name else ""}.csv"'})

    async def play(request: Request) -> Response:
        p = play_or_404(request)
        return site.page(request, "play.html", **play_view(p))

    def play_view(p: dict[str, Any], version: dict[str, Any] | None = None) -> dict[str, Any]:
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
                "names": names, "colours": COLOURS, "again": again_url(p), "request_key": secrets.token_urlsafe(18)}

    def again_url(p: dict[str, Any]) -> str | None:
        if not site.served(p["game"]):
            return None
        query = [("name", s["player"]) for s in p["players"]]
        if p.get("mode"):
            query.append(("mode", p["mode"]))
        return f"/g/{p['game']}/sheet?" + urlencode(query)

    async def play_version(request: Request) -> Response:
        p = play_or_404(request)
        number = number_of(request, "version")
        v = store.play_version(p["id"], number)
        if v is None:
            raise HTTPException(404, f"play #{p['id']} has no version {number}")
        return site.page(request, "play.html", **play_view(p, v))

    async def play_yaml(request: Request) -> Response:
        p = play_or_404(request)
        if not p["state_yaml"]:
            raise HTTPException(404, f"play #{p['id']} was imported with its scores only: it has no final-state file")
        text = service.renamed_yaml(p["game"], p["state_yaml"], service.names_now(p))  # today's names
        return PlainTextResponse(text, media_type="application/yaml; charset=utf-8", headers={
            "Content-Disposition": f'attachment; filename="{p["game"]}-play-{p["id"]}.yaml"'})

    async def play_details(request: Request) -> Response:
        pairs = await site.read_form(request)
        p = play_or_404(request)
        details, problems = details_from_form(pairs, len(p["players"]))
        problems += unconfirmed_date(details, pairs)
        if problems:
            view = play_view(p)
            return site.page(request, "play.html", status=422, **{**view, "detail_problems": [
                {"field": pr.field, "text": pr.message} for pr in problems], "form": dict(pairs)})
        form = dict(pairs)
        try:
            store.update_play(p["id"], details=details, request_key=form.get("request_key") or None)
        except StoreError as exc:
            raise HTTPException(409, exc.problems[0].message if exc.problems else exc.title) from None
        return RedirectResponse(f"/plays/{p['id']}", status_code=303)

    async def delete_play(request: Request) -> Response:
        await site.read_form(request)
        p = play_or_404(request)
        store.delete_play(p["id"])
        return RedirectResponse(f"/plays?undo={p['id']}", status_code=303)

    async def restore_play(request: Request) -> Response:
        await site.read_form(request)
        p = play_or_404(request)
        store.restore_play(p["id"])
        return RedirectResponse(f"/plays/{p['id']}", status_code=303)

    # --- the roster ------------------------------------------------------------------------
    async def players(request: Request, problems: Sequence[Problem] = (), status: int = 200) -> Response:
        return site.page(request, "players.html", status=status, players=store.players(), colours=COLOURS,
                         problems=[{"field": p.field, "text": p.message} for p in problems])

    async def player_add(request: Request) -> Response:
        form = dict(await site.read_form(request))
        try:
            colour = form.get("colour")
            store.add_player(form.get("name", ""), None if colour in (None, "", "none") else colour)
        except StoreError as exc:
            return await players(request, exc.problems, 422)
        return RedirectResponse("/players", status_code=303)

    async def player(request: Request, problems: Sequence[Problem] = (), status: int = 200) -> Response:
        number = number_of(request, "player")
        who = store.player(number)
        if who is None:
            raise HTTPException(404, f"no player #{number}")
        roster = site.roster()
        records = store.records()
        view = stats.player_games(number, records, roster)
        return site.page(request, "player.html", status=status, who=who, view=view, colours=COLOURS,
                         others=[p for p in roster.values() if p["id"] != number],
                         charts=chart_svgs(player_drawings(view)), stats=stats,
                         recent=site.labelled(store.plays(player_id=number, limit=10)),
                         problems=[{"field": p.field, "text": p.message} for p in problems])

    async def player_edit(request: Request) -> Response:
        form = dict(await site.read_form(request))
        number = number_of(request, "player")
        if store.player(number) is None:
            raise HTTPException(404, f"no player #{number}")
        try:
            colour = form.get("colour", "")
            store.update_player(number, name=form.get("name") or None,
                                colour=None if colour == "none" else colour)
        except StoreError as exc:
            return await player(request, exc.problems, 422)
        return RedirectResponse(f"/players/{number}", status_code=303)

    async def player_merge(request: Request) -> Response:
        form = dict(await site.read_form(request))
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

    # --- the stats -------------------------------------------------------------------------
    async def stats_page(request: Request) -> Response:
        game = request.query_params.get("game") or None
        roster = site.roster()
        games = games_filter()
        if game:
            if game not in dict(games) and not site.served(game):
                raise HTTPException(404, f"no game '{game[:100]}' in the log")
            title = site.title_of(game, dict(games).get(game, ""))
            g = stats.game_stats(game, title, store.records(game), roster, site.labels_of(game))
            return site.page(request, "stats.html", game=game, title=title, g=g, games=games, stats=stats,
                             charts=chart_svgs(game_drawings(g)), served=site.served(game))
        o = stats.overview(store.records(), roster)
        return site.page(request, "stats.html", game=None, o=o, games=games, stats=stats,
                         charts=chart_svgs(overview_drawings(o)),
                         titles={g: site.title_of(g, t) for g, t, _ in o.games})

    # --- backup, restore, import -----------------------------------------------------------
    async def log_page(request: Request, report: dict[str, Any] | None = None, problems: Sequence[str] = (),
                       status: int = 200) -> Response:
        from cardforge.errors import CardforgeError
        from cardforge.playlog.importer import COLUMNS

        served = []
        for gid in site.game_ids():
            try:
                served.append(site.ctx_of(gid).game)
            except (CardforgeError, HTTPException):  # a game whose data is broken: listed on the home page
                continue
        return site.page(request, "log.html", status=status, report=report, problems=list(problems),
                         columns=COLUMNS, served=served)

    async def backup(request: Request) -> Response:
        from datetime import date

        return Response(store.backup(), media_type="application/json; charset=utf-8", headers={
            "Content-Disposition": f'attachment; filename="cardforge-plays-{date.today().isoformat()}.json"'})

    async def restore(request: Request) -> Response:
        _, data, filename = await read_upload(request, MAX_BACKUP, csrf_cookie)
        try:
            doc = BackupDoc.model_validate(json.loads(data.decode("utf-8")))
        except (UnicodeDecodeError, json.JSONDecodeError) as exc:
            return await log_page(request, problems=[f"{filename or 'the file'}: not a cardforge backup ({exc})"[:300]],
                                  status=422)
        except ValidationError as exc:
            from cardforge.data.validate import validation_problems

            found = validation_problems(exc, BackupDoc, file=filename or "backup")
            return await log_page(request, problems=[str(p) for p in found[:20]], status=422)
        if doc.format != "cardforge play log":
            return await log_page(request, problems=[f"{filename}: format {doc.format[:40]!r}, not a cardforge play "
                                                     "log backup"], status=422)
        done = store.restore(doc)
        return await log_page(request, report={"kind": "restore", **done})

    async def import_csv(request: Request) -> Response:
        from cardforge.playlog.importer import read_plays_csv

        _, data, filename = await read_upload(request, MAX_IMPORT, csrf_cookie)
        plays, problems = read_plays_csv(data, filename or "plays.csv", site)
        if problems:
            return await log_page(request, problems=[str(p) for p in problems[:50]], status=422)
        added, skipped = store.add_plays(plays)  # one transaction: all or none
        return await log_page(request, report={"kind": "import", "added": added, "skipped": skipped})

    async def import_template(request: Request) -> Response:
        from cardforge.playlog.importer import template_csv

        game = request.query_params.get("game", "")
        ctx = site.ctx_of(game)
        return Response(template_csv(ctx.game), media_type="text/csv; charset=utf-8", headers={
            "Content-Disposition": f'attachment; filename="cardforge-import-{ctx.game.id}.csv"'})

    return [
        Route("/plays", plays),
        Route("/plays.csv", plays_csv),
        Route("/plays/import", import_csv, methods=["POST"]),
        Route("/plays/import-template.csv", import_template),
        Route("/plays/{play}.yaml", play_yaml),
        Route("/plays/{play}", play),
        Route("/plays/{play}/v/{version}", play_version),
        Route("/plays/{play}/details", play_details, methods=["POST"]),
        Route("/plays/{play}/delete", delete_play, methods=["POST"]),
        Route("/plays/{play}/restore", restore_play, methods=["POST"]),
        Route("/players", players),
        Route("/players/add", player_add, methods=["POST"]),
        Route("/players/{player}", player),
        Route("/players/{player}/edit", player_edit, methods=["POST"]),
        Route("/players/{player}/merge", player_merge, methods=["POST"]),
        Route("/stats", stats_page),
        Route("/log", log_page),
        Route("/log/backup.json", backup),
        Route("/log/restore", restore, methods=["POST"]),
    ]


def saved_view(result: dict[str, Any]) -> dict[str, Any]:
    """The score saved with a play (its JSON), shaped as :func:`service.sheet_view` shapes a
    fresh one: for a play imported from a spreadsheet, or of a game this server does not serve."""
    from cardforge.scores import format_number

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
