"""What the web pages ask of cardforge, without the web framework: a game's context (data and
sheet, loaded once and again when its files change), scoring a posted sheet or a YAML text
with the engine, a setup."""

from __future__ import annotations

import os
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import yaml

from cardforge.data.validate import validate
from cardforge.errors import CardforgeError, ScoreInputError
from cardforge.problems import Problem
from cardforge.scores import ScoreSheet, as_number, format_number
from cardforge.web.forms import NOT_ENTERED, Sheet, build_sheet, card_labels, form_to_state

if TYPE_CHECKING:
    from cardforge.data.loading import GameData
    from cardforge.games.base import Game

MAX_YAML_CHARS = 60_000
MAX_NAME = 80  # characters of a player's name (the sheet's inputs say so; the server enforces it)


@dataclass
class GameContext:
    game: Game
    data: GameData
    sheet: Sheet | None
    stamp: tuple[tuple[str, int, int], ...] = ()


@dataclass(frozen=True)
class Served:
    """A game this server serves: a shipped or installed game by its id, or a folder named
    when the server started (``folder``, absolute)."""

    id: str
    folder: Path | None = None


class Catalogue:
    """The games a server serves, decided once when it starts: the shipped and installed games
    (``cardforge games``), the folders named on its command line and, with ``--data DIR``, the
    games of ``DIR/<id>/``. A page asks for a game by its id only: any other name is not served
    (404) and nothing of it is read, let alone executed — a folder that happens to lie in the
    server's working directory is not a game of this server."""

    def __init__(self, games: Sequence[str | Path] = (), data_root: Path | None = None):
        from cardforge.games import game_ids, is_game_path, normalise_game_id

        self.data_root = Path(data_root).resolve() if data_root is not None else None
        named: dict[str, Served] = {}
        for name in games:
            if isinstance(name, Path) or is_game_path(name):
                folder = Path(os.path.expanduser(os.fspath(name))).resolve()
                named.setdefault(_folder_id(folder), Served(_folder_id(folder), folder))
            else:
                key = normalise_game_id(name)
                named.setdefault(key, Served(key))
        found = dict(named)
        for gid in game_ids():
            found.setdefault(gid, Served(gid))
        if self.data_root is not None and self.data_root.is_dir():
            for folder in sorted(self.data_root.iterdir()):
                if (folder / "game.yaml").is_file():
                    key = normalise_game_id(folder.name)
                    found.setdefault(key, Served(key))  # loaded from DIR/<id>/ by `load_served`
        #: the games named on the command line first (the designer's own), then the others
        self.named = list(named)
        self.games = found

    def ids(self) -> list[str]:
        return list(self.games)

    def get(self, game_id: str) -> Served | None:
        return self.games.get(game_id) if isinstance(game_id, str) and len(game_id) <= 100 else None


def _folder_id(folder: Path) -> str:
    """A game folder's id without running its rules: its game.yaml's ``id``, else the folder's
    name (as the registry names it)."""
    from cardforge.games import normalise_game_id, read_game_spec

    try:
        spec_id = read_game_spec(folder).id
    except CardforgeError:  # listed with its problems on the home page
        spec_id = None
    return normalise_game_id(spec_id or folder.name)


def load_served(served: Served, data_root: Path | None) -> Game:
    """The game ``served`` names, read from where the catalogue says — never by a name that
    the registry could read as a path relative to the working directory."""
    from cardforge.errors import UnknownGameError
    from cardforge.games import game_ids, load_game_folder, loaded_game
    from cardforge.games.base import Game

    if served.folder is not None:
        return load_game_folder(served.folder)
    if data_root is not None and (data_root / served.id / "game.yaml").is_file():
        return load_game_folder(data_root / served.id)  # a game of the --data folder's own
    game = loaded_game(served.id)
    if game is None:
        raise UnknownGameError(served.id, game_ids(), None)
    if data_root is not None:  # its data files from DIR/<id>/, its rules from the shipped game
        return Game(game.spec, game.folder, game.rules, game_id=game.id, data_folder=data_root / game.id,
                    origin=game.origin)
    return game


_LOCK = threading.Lock()
_CONTEXTS: dict[str, GameContext] = {}


def context(served: Served, data_root: Path | None = None) -> GameContext:
    """The game, its validated data and its sheet, loaded once per server and again when its
    files change (a designer editing the game while serving)."""
    from cardforge.data.loading import load_game_data

    key = f"{served.id}\0{served.folder}\0{data_root}"
    with _LOCK:
        ctx = _CONTEXTS.get(key)
        if ctx is not None and ctx.stamp == _stamp(ctx.game, ctx.data):
            return ctx
        game = load_served(served, data_root)
        data = load_game_data(game)
        ctx = _CONTEXTS[key] = GameContext(game, data, build_sheet(game, data), _stamp(game, data))
        return ctx


def _stamp(game: Game, data: GameData) -> tuple[tuple[str, int, int], ...]:
    """The game's files as they are now (a stat each, no reading): the data, game.yaml, rules."""
    files: list[Path] = [Path(game.data_folder) / f for f in getattr(data.meta, "card_file_names", None) or ()]
    for folder in {Path(game.folder), Path(game.data_folder)}:
        if folder.is_dir():
            files += [p for p in folder.glob("*.yaml") if p.is_file()]
    files += list(game.code_files())
    out = []
    for path in sorted(set(files)):
        try:
            st = path.stat()
            out.append((str(path), st.st_mtime_ns, st.st_size))
        except OSError:
            out.append((str(path), 0, 0))
    return tuple(out)


@dataclass
class Standing:
    """The totals so far of a sheet that cannot be saved yet (a partial outcome): the engine's
    score of the part of the final state that reads well. In a game of players, the players
    whose fields and rules read well (``kept``: their places on the sheet), the others left
    out; in a game of rounds, the rounds that read well, in order (``rounds``: how many).
    ``before_end``: scored as a game not over (the final state's ``partial: true``, the game's
    own way to score a game not over) because the rules' conditions for a finished game are not met yet."""

    sheet: ScoreSheet
    kept: list[int]
    rounds: int | None = None
    before_end: bool = False


@dataclass
class Outcome:
    state: Any  # the final state as a final-state file holds it (dict), or None
    sheet: ScoreSheet | None
    problems: list[Problem]
    standing: Standing | None = None  # when not ok: the totals so far, if anything reads well

    @property
    def ok(self) -> bool:
        return self.sheet is not None


def score_state_dict(ctx: GameContext, state: Any, standing: bool = False) -> Outcome:
    """Validate ``state`` with the game's final-state model, then score it with the engine;
    with ``standing``, a state that cannot be scored whole gets its totals so far."""
    from cardforge.engine.scoring import score_state

    model = ctx.game.score_model
    if model is None:
        return Outcome(state, None, [Problem(f"{ctx.game.id} has no scoring")])
    value, problems = validate(model, state)
    if not problems:
        try:
            return _within_limits(Outcome(state, score_state(ctx.game, ctx.data, value), []))
        except ScoreInputError as exc:
            problems = exc.problems or [Problem(exc.title)]
    problems = named_problems(ctx, problems)
    return Outcome(state, None, problems, score_standing(ctx, state) if standing else None)


# --- the totals so far ------------------------------------------------------------------------

#: the top-level flag of a final state that scores a game not over (issue 18's convention: the
#: rules' checks of a finished game are skipped and the score is marked partial)
BEFORE_END = "partial"


def score_standing(ctx: GameContext, state: Any, leave_out: set[int] | frozenset[int] = frozenset()) -> Standing | None:
    """The totals so far of ``state``, which the engine refuses whole (see :class:`Standing`);
    None when nothing reads well yet. The same engine scores them, on the part of the state
    that reads well: the players (or rounds) that some problem concerns are left out, one
    pass at a time (and those of ``leave_out`` from the start: an input still blank), until
    the rest passes every check the engine and the game make — but the
    player count (the others are still to come). A problem of the whole game that leaving
    players out does not settle is set aside only where the game can score a game not over
    (a top-level ``partial`` flag): the standing that scores more players wins, the game as it
    is at equal count. Nothing here changes what the CLI or a save accepts."""
    model = ctx.game.score_model
    if model is None or ctx.sheet is None or not isinstance(state, dict):
        return None
    try:
        if ctx.sheet.rounds is not None:
            return _rounds_standing(ctx, state, ctx.sheet.rounds.name, min(leave_out, default=None))
        players = state.get("players")
        if not isinstance(players, list) or not players:
            return None
        flag = model.model_fields.get(BEFORE_END)
        tries = [False]
        if flag is not None and flag.annotation is bool and state.get(BEFORE_END) is not True:
            tries.append(True)
        best: Standing | None = None
        for before_end in tries:
            found = _players_standing(ctx, state, players, before_end, leave_out)
            if found is not None and (best is None or len(found.kept) > len(best.kept)):
                best = found
        return best
    except Exception as exc:  # noqa: BLE001 — a courtesy: the page shows the problems without it
        import logging

        logging.getLogger("cardforge.serve").warning("no standing for %s: %s: %s", ctx.game.id,
                                                     type(exc).__name__, exc)
        return None


def _errors_of(ctx: GameContext, state: dict[str, Any]) -> tuple[Any, list[Problem]]:
    """The validated state and every error the model, the engine (names) and the rules find —
    the player count aside."""
    from cardforge.engine.scoring import check_names

    assert ctx.game.score_model is not None
    value, problems = validate(ctx.game.score_model, state)
    if not problems:
        problems = check_names(ctx.game, value) + ctx.game.check_final_state(ctx.data, value)
    return value, [p for p in problems if not p.is_warning]


def _unit_of(problem: Problem, field: str) -> int | None:
    """The index of the entry of the list ``field`` (the players, the rounds) that ``problem``
    concerns (``players[1].pebbles``, ``player 'Ben' (#2)``, ``round #2``), if one."""
    import re

    from cardforge.web.forms import field_key

    m = re.match(rf"^{re.escape(field)}\[(\d+)\]", field_key(problem))
    return int(m.group(1)) if m else None


def _players_standing(ctx: GameContext, state: dict[str, Any], players: list[Any],
                      before_end: bool, leave_out: set[int] | frozenset[int] = frozenset()) -> Standing | None:
    from cardforge.engine.scoring import score_checked

    kept = [i for i in range(len(players)) if i not in leave_out]
    while kept:
        trial = {**state, "players": [players[i] for i in kept]}
        if before_end:
            trial[BEFORE_END] = True
        value, problems = _errors_of(ctx, trial)
        if not problems:
            return Standing(score_checked(ctx.game, ctx.data, value), kept, before_end=before_end)
        bad = {u for u in (_unit_of(p, "players") for p in problems) if u is not None and u < len(kept)}
        if not bad:
            return None  # a problem of the whole game that leaving players out does not settle
        kept = [k for j, k in enumerate(kept) if j not in bad]
    return None


def _rounds_standing(ctx: GameContext, state: dict[str, Any], field: str, upto: int | None = None) -> Standing | None:
    """The rounds that read well, in order: the first round some problem concerns (or ``upto``,
    one with an input still blank), and every round after it, are left out."""
    from cardforge.engine.scoring import score_checked

    rounds = state.get(field)
    if not isinstance(rounds, list):
        return None
    count = len(rounds) if upto is None else min(upto, len(rounds))
    while count > 0:
        value, problems = _errors_of(ctx, {**state, field: rounds[:count]})
        if not problems:
            sheet = score_checked(ctx.game, ctx.data, value)
            return Standing(sheet, list(range(len(sheet.players))), rounds=count)
        units = [_unit_of(p, field) for p in problems]
        if None in units:
            return None  # a problem of the whole game: no round explains it
        count = min(count - 1, *(u for u in units if u is not None))
    return None


def _within_limits(outcome: Outcome) -> Outcome:
    """What the play log keeps is bounded here, not only in the page: a player's name is at
    most ``MAX_NAME`` characters (a longer one is refused, never stored or shown whole)."""
    if outcome.sheet is None:
        return outcome
    problems = [Problem(f"a name is at most {MAX_NAME} characters, got {len(p.name):,}", field=f"players[{i}].name")
                for i, p in enumerate(outcome.sheet.players) if len(p.name) > MAX_NAME]
    return Outcome(outcome.state, None, problems) if problems else outcome


#: the sheet's own fields (the rest are the play's details, checked with the play)
_NOT_SHEET = {"csrf", "yaml", "note", "request_key", "edit_play", "play_date", "play_duration", "play_location",
              "play_first"}
MAX_FIELD = 200  # characters of any other input of the sheet (a pad's sum: the longest the page allows)


def score_form(ctx: GameContext, pairs: list[tuple[str, str]]) -> Outcome:
    """A posted sheet, scored; an input longer than the page lets one type (a name ``MAX_NAME``,
    anything else ``MAX_FIELD`` characters) is refused beside it, never stored."""
    assert ctx.sheet is not None
    too_long = []
    for name, value in pairs:
        most = MAX_NAME if name.endswith(".name") else MAX_FIELD
        if name not in _NOT_SHEET and len(value) > most:
            too_long.append(Problem(f"at most {most} characters, got {len(value):,}", field=name[:200]))
    blanks: list[str] = []
    state = form_to_state(ctx.sheet, pairs, blanks)
    if too_long:
        return Outcome(state, None, too_long)
    missing = _unchosen(ctx.sheet, state) + [Problem(NOT_ENTERED, field=name) for name in blanks]
    outcome = score_state_dict(ctx, state, standing=True)
    if not missing:
        return outcome
    # not scored for good until every required input is in; the rules' other problems are
    # still said, and the totals so far leave out the players (rounds) with a blank
    said = {p.field for p in missing}
    problems = missing + [p for p in outcome.problems if p.field not in said]
    units = {u for u in (_unit_of(p, ctx.sheet.rounds.name if ctx.sheet.rounds else "players") for p in missing)
             if u is not None}
    return Outcome(state, None, problems, score_standing(ctx, state, leave_out=units))


def _unchosen(sheet: Sheet, state: dict[str, Any]) -> list[Problem]:
    """The game's mode, left blank on the sheet: the model would take its default without a
    word (a sheet never chooses for the players)."""
    return [Problem("not chosen yet: " + ", ".join(label for _, label in w.choices), field=w.name)
            for w in sheet.game_fields if w.name == "mode" and w.kind == "choice" and len(w.choices) > 1
            and state.get(w.name) in (None, "")]





def score_yaml(ctx: GameContext, text: str) -> Outcome:
    """A final-state file typed or pasted: read exactly as ``cardforge score`` reads a file."""
    from cardforge.engine.inputs import load_input_text
    from cardforge.engine.scoring import score_state

    if len(text) > MAX_YAML_CHARS:
        return Outcome(None, None, [Problem(f"at most {MAX_YAML_CHARS} characters, got {len(text)}",
                                            field="yaml")])
    model = ctx.game.score_model
    if model is None:  # as score_state_dict: a game without scoring
        return Outcome(None, None, [Problem(f"{ctx.game.id} has no scoring")])
    value, problems, _, state = load_input_text(text, "final.yaml", model, with_lines=True)
    if problems:
        return Outcome(None, None, problems)
    try:
        return _within_limits(Outcome(state, score_state(ctx.game, ctx.data, value, "final.yaml"), []))
    except ScoreInputError as exc:
        return Outcome(state, None, exc.problems or [Problem(exc.title)])


# --- a player renamed in the roster: one name everywhere ---------------------------------------

def names_now(play: dict[str, Any]) -> dict[str, str]:
    """A saved play's names as typed → its players' names in the roster today, for the players
    renamed since (a play saved as "Alice", Alice renamed "Alix": ``{"Alice": "Alix"}``)."""
    return {s["typed"]: s["player"] for s in play.get("players", [])
            if s.get("typed") and s.get("player") and s["typed"] != s["player"]}


def renamed(state: Any, names: dict[str, str]) -> Any:
    """``state`` (a final state, a saved score) with the players' names in ``names`` replaced:
    a ``name`` field, a mapping's key (a round's entries keyed by player), a ``winners`` entry.
    Nothing else is touched (a card or a note that happens to read like a name stays)."""
    if not names:
        return state
    def one(v: Any) -> Any:
        return names.get(v, v) if isinstance(v, str) else v

    if isinstance(state, dict):
        return {one(k): (one(v) if k == "name" else [one(x) for x in v] if k == "winners" and isinstance(v, list)
                         else renamed(v, names))
                for k, v in state.items()}
    if isinstance(state, list):
        return [renamed(v, names) for v in state]
    return state


def renamed_yaml(game_id: str, text: str, names: dict[str, str]) -> str:
    """A final-state file with the players' names of today (:func:`renamed`); the text as it
    is when nobody was renamed or it does not read as a mapping."""
    if not names or not text:
        return text
    try:
        state = yaml.safe_load(text)
    except yaml.YAMLError:
        return text
    return state_yaml(game_id, renamed(state, names)) if isinstance(state, dict) else text


def state_yaml(game_id: str, state: Any) -> str:
    """The final-state file of a play: ``cardforge score GAME FILE`` gives the same result."""
    head = f"# A game of {game_id}, saved by `cardforge serve`. Score it: cardforge score {game_id} FILE\n"
    body: str = yaml.safe_dump(state, allow_unicode=True, sort_keys=False, default_flow_style=None, width=100)
    return head + body


def sheet_view(sheet: ScoreSheet, ctx: GameContext | None = None) -> dict[str, Any]:
    """The score sheet for the templates: the CLI's table as rows, with the same explanations
    (with ``ctx``, cards named by their names, not their ids)."""
    extras = sorted({k for p in sheet.players for k in p.extra})
    return {
        "title": sheet.title,
        "players": [p.name for p in sheet.players],
        "rows": [{"id": c.id, "label": c.label, "label_en": c.label_en,
                  "cells": [format_number(p.breakdown.get(c.id, 0)) for p in sheet.players]}
                 for c in sheet.categories],
        "totals": [format_number(p.total) for p in sheet.players],
        "ranks": [p.rank for p in sheet.players],
        "extras": [{"key": k.capitalize(), "cells": [str(p.extra.get(k, "")) for p in sheet.players]}
                   for k in extras],
        "winners": list(sheet.winners),
        "tie_break": sheet.tie_break,
        "report": named(ctx, list(sheet.report)) if ctx is not None else list(sheet.report),
        "json": sheet.to_json(),
    }


def standing_view(ctx: GameContext, standing: Standing | None, names: list[str]) -> dict[str, Any] | None:
    """The totals so far for the templates: a column per player of the sheet (``names``, in
    order), "—" for a player not scored yet."""
    if standing is None:
        return None
    sheet = standing.sheet
    if standing.rounds is None:
        by_place = {place: sheet.players[j] for j, place in enumerate(standing.kept)}
        scored = [by_place.get(i) for i in range(len(names))]
    else:
        by_name = {p.name: p for p in sheet.players}
        scored = [by_name.get(n.strip()) for n in names]
    rounds = ctx.sheet.rounds if ctx.sheet is not None else None
    return {
        "players": [n or f"Player {i + 1}" for i, n in enumerate(names)],
        "rows": [{"label": c.label, "label_en": c.label_en,
                  "cells": [format_number(p.breakdown.get(c.id, 0)) if p else "—" for p in scored]}
                 for c in sheet.categories],
        "totals": [format_number(p.total) if p else None for p in scored],
        "rounds": standing.rounds,
        "of_rounds": rounds.decl.count if rounds is not None and standing.rounds is not None else None,
        "before_end": standing.before_end,
        "json": {"players": [{"name": p.name, "total": as_number(p.total)} for p in sheet.players],
                 **({"rounds": standing.rounds} if standing.rounds is not None else {}),
                 **({"before_end": True} if standing.before_end else {})},
    }


def todo_view(problems: list[dict[str, str]], names: list[str], sheet: Sheet | None,
              as_yaml: bool = False) -> list[dict[str, Any]]:
    """What is still to fix, grouped by whom it concerns — the whole game first, then each
    player (or round) in order, named as on the sheet — each item the input it goes to."""
    import re

    from cardforge.web.forms import where

    groups: dict[str, dict[str, Any]] = {}
    for p in problems:
        if p.get("severity") == "warning":
            continue
        if as_yaml or sheet is None:
            who, what, message = "", "", p["text"]
        else:
            who, what = where(sheet, p["field"], names)
            message = p["message"]
        m = re.match(r"^[\w-]+\[(\d+)\]", p["field"]) if who else None
        group = groups.setdefault(who, {"who": who, "order": int(m.group(1)) if m else -1, "items": []})
        group["items"].append({"field": p["field"], "what": what, "message": message})
    return sorted(groups.values(), key=lambda g: g["order"])  # the whole game first, then in order


def run_setup_view(ctx: GameContext, players: int, mode: str | None, options: dict[str, Any],
                   seed: int | None) -> tuple[dict[str, Any] | None, list[Problem]]:
    from cardforge.engine.setup import run_setup

    try:
        return run_setup(ctx.game, ctx.data, players, mode, options, seed), []
    except CardforgeError as exc:
        return None, exc.problems or [Problem(exc.title)]


# --- names, never ids ----------------------------------------------------------------------------

_NAMERS: dict[int, tuple[GameData, Any, dict[str, str]]] = {}


def named(ctx: GameContext, lines: list[str]) -> list[str]:
    """Report lines ("How it was counted") with the game's card ids replaced by card names: an
    id followed by its name in brackets ("autel-du-feu (Autel du feu)", quoted or not) becomes the
    name alone."""
    import re

    cached = _NAMERS.get(id(ctx.data))
    if cached is None or cached[0] is not ctx.data:
        labels = card_labels(ctx.data)
        ids = sorted((i for i in labels if labels[i] != i), key=len, reverse=True)
        if not ids:
            return lines
        pattern = re.compile(r"(?<![\w-])(')?(" + "|".join(map(re.escape, ids)) + r")(?![\w-])(?(1)')( \(([^()]*)\))?")
        cached = _NAMERS[id(ctx.data)] = (ctx.data, pattern, labels)
    _, pattern, labels = cached

    def swap(m: re.Match[str]) -> str:
        label = labels[m.group(2)]
        quote = m.group(1) or ""
        bracket = m.group(4)
        if bracket is not None and (bracket == label or label.startswith(bracket)):
            return label  # "id (Name)", "'id' (Name)" → "Name"
        return quote + label + quote + (m.group(3) or "")

    return [pattern.sub(swap, line) for line in lines]


_WORDERS: dict[int, tuple[GameContext, Any]] = {}


def named_problems(ctx: GameContext, problems: list[Problem]) -> list[Problem]:
    """Problems as the sheet shows them: in the sheet's words (``tick “Partial”`` where the file
    says ``write partial: true``, :mod:`cardforge.web.words`) and with card names in place of
    card ids in their messages."""
    from dataclasses import replace

    from cardforge.web.words import rewriter

    messages = [p.message for p in problems]
    if ctx.sheet is not None:
        cached = _WORDERS.get(id(ctx))
        if cached is None or cached[0] is not ctx:
            cached = _WORDERS[id(ctx)] = (ctx, rewriter(ctx.sheet, card_labels(ctx.data)))
        messages = [cached[1](m) for m in messages]
    messages = named(ctx, messages)
    return [p if m == p.message else replace(p, message=m) for p, m in zip(problems, messages)]
