"""Setup plumbing: player count, mode and flags checked once, then the game's hooks."""

from __future__ import annotations

import random
import secrets
from pathlib import Path
from typing import Any

from cardforge.data.loading import GameData
from cardforge.engine.inputs import load_input
from cardforge.engine.scoring import check_player_count
from cardforge.errors import SetupError
from cardforge.games.base import Game
from cardforge.problems import Problem


def check_setup_request(game: Game, players: int, mode: str | None, options: dict[str, Any]) -> list[Problem]:
    problems = check_player_count(game, players)
    if mode is not None and mode not in game.modes:
        problems.append(Problem(f"'{mode}' is not a mode of {game.id} (modes: {', '.join(game.modes)})",
                                field="mode"))
    return problems


def run_setup(game: Game, data: GameData, players: int, mode: str | None = None,
              options: dict[str, Any] | None = None, seed: int | None = None) -> dict[str, Any]:
    """The setup contract: {"game", "players", "mode", "counts", "steps", "deal"}.

    ``deal["seed"]`` records the seed, so a deal made without ``--seed`` can be replayed.
    """
    options = dict(options or {})
    problems = check_setup_request(game, players, mode, options)
    if problems:
        raise SetupError(f"setup for {game.id} is not playable", problems)
    mode = mode or game.default_mode
    counts = game.setup_counts(players, mode, options)
    steps = game.setup_steps(players, mode, options, counts)
    if seed is None:
        seed = secrets.randbelow(2**31)
    deal = dict(game.deal(data, players, mode, options, random.Random(seed)))
    deal["seed"] = seed
    return {"game": game.id, "players": players, "mode": mode, "counts": counts, "steps": steps, "deal": deal}


def check_setup_file(game: Game, data: GameData, path: Path) -> list[Problem]:
    """Problems of a described deal (empty list: the deal follows the rules)."""
    if game.setup_model is None:
        raise SetupError(f"{game.id} has no setup check", [])
    setup, problems = load_input(path, game.setup_model)
    if problems:
        return problems
    return [p if p.file else Problem(p.message, file=str(path), item=p.item, field=p.field,
                                     line=p.line, severity=p.severity)
            for p in game.check_setup(data, setup)]
