"""What the web pages ask of cardforge, without the web framework: a game's context (data and
sheet, loaded once and again when its files change), scoring a posted sheet or a YAML text
with the engine, a setup."""

from __future__ import annotations

import threading
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import yaml

from cardforge.data.validate import validate
from cardforge.errors import CardforgeError, ScoreInputError
from cardforge.problems import Problem
from cardforge.scores import ScoreSheet, format_number
from cardforge.web.forms import Sheet, build_sheet, form_to_state

if TYPE_CHECKING:
    from cardforge.data.loading import GameData
    from cardforge.games.base import Game

MAX_YAML_CHARS = 60_000


@dataclass
class GameContext:
    game: Game
    data: GameData
    sheet: Sheet | None
    stamp: tuple[tuple[str, int, int], ...] = ()


_LOCK = threading.Lock()
_CONTEXTS: dict[str, GameContext] = {}


def context(game_id: str, data_root: Path | None = None) -> GameContext:
    """The game, its validated data and its sheet, loaded once per server."""
    from cardforge.data.loading import load_game_data
    from cardforge.games import find_game

    key = f"{game_id}\0{data_root}"
    with _LOCK:
        ctx = _CONTEXTS.get(key)
        if ctx is not None and ctx.stamp == _stamp(ctx.game, ctx.data):
            return ctx
        if ctx is not None and ctx.game.origin == "folder":  # a folder given by path: read it again
            game = find_game(ctx.game.folder)
        else:  # read again: a designer edited the game while serving
            game = find_game(game_id, data_root)
        data = load_game_data(game)
        ctx = _CONTEXTS[key] = GameContext(game, data, build_sheet(game, data), _stamp(game, data))
        return ctx


def _stamp(game: Game, data: GameData) -> tuple[tuple[str, int, int], ...]:
    """The game's files as they are now (a stat each, no reading): the data, game.yaml, rules."""
    files: list[Path] = [Path(game.data_folder) / f for f in getattr(data.meta, "card_files", None) or ()]
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
class Outcome:
    state: Any  # the final state as a final-state file holds it (dict), or None
    sheet: ScoreSheet | None
    problems: list[Problem]

    @property
    def ok(self) -> bool:
        return self.sheet is not None


def score_state_dict(ctx: GameContext, state: Any) -> Outcome:
    """Validate ``state`` with the game's final-state model, then score it with the engine."""
    from cardforge.engine.scoring import score_state

    model = ctx.game.score_model
    if model is None:
        return Outcome(state, None, [Problem(f"{ctx.game.id} has no scoring")])
    value, problems = validate(model, state)
    if problems:
        return Outcome(state, None, problems)
    try:
        return Outcome(state, score_state(ctx.game, ctx.data, value), [])
    except ScoreInputError as exc:
        return Outcome(state, None, exc.problems or [Problem(exc.title)])


def score_form(ctx: GameContext, pairs: list[tuple[str, str]]) -> Outcome:
    assert ctx.sheet is not None
    return score_state_dict(ctx, form_to_state(ctx.sheet, pairs))


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
        return Outcome(state, score_state(ctx.game, ctx.data, value, "final.yaml"), [])
    except ScoreInputError as exc:
        return Outcome(state, None, exc.problems or [Problem(exc.title)])


def state_yaml(game_id: str, state: Any) -> str:
    """The final-state file of a play: ``cardforge score GAME FILE`` gives the same result."""
    head = f"# A game of {game_id}, saved by `cardforge serve`. Score it: cardforge score {game_id} FILE\n"
    body: str = yaml.safe_dump(state, allow_unicode=True, sort_keys=False, default_flow_style=None, width=100)
    return head + body


def sheet_view(sheet: ScoreSheet) -> dict[str, Any]:
    """The score sheet for the templates: the CLI's table as rows, with the same explanations."""
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
        "report": list(sheet.report),
        "json": sheet.to_json(),
    }


def run_setup_view(ctx: GameContext, players: int, mode: str | None, options: dict[str, Any],
                   seed: int | None) -> tuple[dict[str, Any] | None, list[Problem]]:
    from cardforge.engine.setup import run_setup

    try:
        return run_setup(ctx.game, ctx.data, players, mode, options, seed), []
    except CardforgeError as exc:
        return None, exc.problems or [Problem(exc.title)]
