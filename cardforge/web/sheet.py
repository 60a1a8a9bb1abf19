"""The score sheet of a game (``/g/<game>/sheet``): drawn from the players named (or a saved
play, to correct it), drawn again when a seat is added, removed or moved, scored live as it is
typed (``/score``: the engine scores, the page never does) and saved to the play log (``/save``).
"""

from __future__ import annotations

import json
import secrets
from typing import Any

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from starlette.routing import Route

from cardforge.data.yamlio import parse_text
from cardforge.lab.facts import facts_of_yaml
from cardforge.playlog.store import Details, details_from_form, is_future, parse_id, today, unconfirmed_date
from cardforge.web import invites, service
from cardforge.web.forms import MAX_PLAYERS_ON_SHEET, form_to_state, player_names, problems_json, state_players
from cardforge.web.site import TEMPLATES, read_form, site_of


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


def _first_state(request: Request, ctx: service.GameContext, state: dict[str, Any] | None) -> dict[str, Any]:
    """The sheet's state: the one given, else the players of the query (and its mode); a sheet
    of rounds names its players from them."""
    if state is None:
        names = sheet_players(request, ctx)
        state = {"players": [{"name": n} for n in names]}
        mode = request.query_params.get("mode")
        if mode in ctx.game.modes:
            state["mode"] = mode
    if ctx.sheet is not None and ctx.sheet.rounds is not None and not state.get("players"):
        state = {**state, "players": state_players(ctx.sheet, state)}  # named by the rounds
    return state


def _details(request: Request, details: Details | None, note: str, seats: int) -> Details:
    """The play's details on the sheet: today unless given; the first player from ``?first=N``."""
    details = details or Details(note=note)
    if not details.played_on:
        details.played_on = today()
    first = request.query_params.get("first", "")
    if details.first_seat is None and first.isascii() and first.isdigit() and 1 <= int(first[:3]) <= seats:
        details.first_seat = int(first) - 1
    return details


def render_sheet(request: Request, ctx: service.GameContext, *, state: dict[str, Any] | None = None,
                 outcome: service.Outcome | None = None, status: int = 200,
                 yaml_text: str | None = None, note: str = "", details: Details | None = None,
                 edit: int | None = None, request_key: str | None = None,
                 redrawn: bool = False) -> HTMLResponse:
    as_yaml = ctx.sheet is None or request.query_params.get("yaml") == "1" or yaml_text is not None
    state = _first_state(request, ctx, state)
    if as_yaml and yaml_text is None:
        yaml_text = skeleton_yaml(ctx, state)
    result = service.sheet_view(outcome.sheet, ctx) if outcome is not None and outcome.sheet is not None else None
    names = [p.get("name", "") for p in state.get("players", []) if isinstance(p, dict)]
    problems = problems_json(outcome.problems, names, ctx.sheet) if outcome is not None else []
    standing = service.standing_view(ctx, outcome.standing, names) if outcome is not None else None
    details = _details(request, details, note, len(names))
    return site_of(request).page(
        request, "sheet.html", status=status, game=ctx.game, sheet=ctx.sheet, state=state,
        as_yaml=as_yaml, yaml_text=yaml_text, result=result, problems=problems, note=details.note,
        details=details, edit=edit, request_key=request_key or secrets.token_urlsafe(18), seat_names=names,
        redrawn=redrawn, seats=seat_controls(ctx, as_yaml, len(names)),
        standing=standing, todo=service.todo_view(problems, names, ctx.sheet, as_yaml),
        future_date=is_future(details.played_on),
        refused=outcome is not None,  # a refused save says so at the top (also without script)
        cards_json=json.dumps(ctx.sheet.cards if ctx.sheet else {}, ensure_ascii=False).replace("</", "<\\/"))


async def sheet(request: Request) -> Response:
    site = site_of(request)
    ctx, _ = site.table_of(request.path_params["game"])
    source = request.query_params.get("play", "")
    if not source:
        return render_sheet(request, ctx)
    # a saved play back in the sheet, to correct it
    number = parse_id(source)
    play = site.store.play(number) if number is not None else None
    if play is None or play["game"] != ctx.game.id or play["deleted_at"] or not play["state_yaml"]:
        raise HTTPException(404, f"no play #{source[:30]} of {ctx.game.id} to open in the sheet")
    details = Details(play["played_on"], play["duration_min"], play["location"], play["note"], play["first_seat"])
    # a player renamed in the roster since: the sheet shows today's name
    text = service.renamed_yaml(ctx.game.id, play["state_yaml"], service.names_now(play))
    if ctx.sheet is None or request.query_params.get("yaml") == "1":
        return render_sheet(request, ctx, yaml_text=text, details=details, edit=play["id"])
    state = parse_text(text, "final.yaml").data
    if isinstance(state, dict):
        return render_sheet(request, ctx, state=state, details=details, edit=play["id"])
    return render_sheet(request, ctx, yaml_text=text, details=details, edit=play["id"])


async def redraw(request: Request) -> Response:
    """The sheet drawn again from what was typed: a seat added, removed or moved (``seat``:
    ``add``, ``remove:N``, ``up:N``, ``down:N``, 0-based), or a draft kept on the phone
    brought back. Nothing is scored for good or saved; the form's key (one play however
    often it is sent) is kept."""
    ctx, _ = site_of(request).table_of(request.path_params["game"])
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
    ctx, _ = site_of(request).table_of(request.path_params["game"])
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
    site = site_of(request)
    ctx, deck = site.table_of(request.path_params["game"])
    pairs = await read_form(request)
    outcome, yaml_text = outcome_of(ctx, pairs)
    form = dict(pairs)
    details, detail_problems = details_from_form(pairs, len(outcome.sheet.players) if outcome.sheet else None)
    detail_problems += unconfirmed_date(details, pairs)
    edit = parse_id(form.get("edit_play", "")) if form.get("edit_play") else None
    if edit is not None and invites.invite_of(request) is not None:
        raise HTTPException(403, "an invite saves new plays only")
    if edit is not None:
        before = site.store.play(edit)
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
        site.store.update_play(edit, mode=mode, state_yaml=text, result=outcome.sheet.to_json(), details=details,
                               request_key=key, facts=facts)
        return RedirectResponse(f"/plays/{edit}", status_code=303)
    played, printed = invites.deck_for_save(request, ctx.game.id, deck, site.store.decks)  # a playtest link's deck
    invite = invites.invite_of(request)
    play_id = site.store.add_play(game=ctx.game.id, title=ctx.game.title, mode=mode, state_yaml=text,
                                  result=outcome.sheet.to_json(), details=details, request_key=key,
                                  deck=played, deck_version=printed, facts=facts,
                                  invite=invite.id if invite is not None else None)
    return invites.after_save(request, play_id) or RedirectResponse(f"/plays/{play_id}", status_code=303)


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


def skeleton_yaml(ctx: service.GameContext, state: dict[str, Any]) -> str:
    """A starting final-state file for the YAML sheet: the game's own example when it has one
    (its folder's ``examples/final.yaml``, shipped games included), else the players' names."""
    example = ctx.game.folder / "examples" / "final.yaml"
    if example.is_file():
        text = example.read_text(encoding="utf-8")
        return "\n".join(line for line in text.splitlines() if not line.startswith("#")).strip() + "\n"
    return service.state_yaml(ctx.game.id, state)


ROUTES = [
    Route("/g/{game}/sheet", sheet),
    Route("/g/{game}/sheet", redraw, methods=["POST"]),
    Route("/g/{game}/score", live, methods=["POST"]),
    Route("/g/{game}/save", save, methods=["POST"]),
]
