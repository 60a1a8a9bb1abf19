"""Setup plumbing: player count, mode and flags checked once, then the game's hooks."""

from __future__ import annotations

import json
import random
import secrets
from dataclasses import replace
from pathlib import Path
from typing import Annotated, Any

from pydantic import Field

from cardforge.data.loading import GameData
from cardforge.data.models import CardBase, Model
from cardforge.data.validate import validate
from cardforge.data.yamlio import YamlDoc, parse_text, read_yaml
from cardforge.engine.inputs import _name_item
from cardforge.engine.scoring import check_player_count
from cardforge.errors import SetupError, UnknownGameError
from cardforge.games import find_game
from cardforge.games.base import Game
from cardforge.problems import Problem, plural, short_repr


def check_setup_request(game: Game, players: int, mode: str | None, options: dict[str, Any]) -> list[Problem]:
    problems = check_player_count(game, players)
    if mode is not None and mode not in game.modes:
        problems.append(Problem(f"'{mode}' is not a mode of {game.id} (modes: {', '.join(game.modes)})",
                                field="mode"))
    chosen = mode or game.default_mode
    for option_id, value in options.items():
        spec = game.options.get(option_id)
        if spec is not None and spec.modes and value != spec.default_value() and chosen not in spec.modes:
            problems.append(Problem(f"{game.option_flag(option_id)} is for mode {' or '.join(spec.modes)} only "
                                    f"(this setup is mode {chosen})", field=option_id))
    return problems


def run_setup(game: Game, data: GameData[CardBase], players: int, mode: str | None = None,
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
    return {"game": game.id, "player_count": players, "mode": mode, "counts": counts, "steps": steps, "deal": deal}


class SetupContract(Model):
    """The whole object ``cardforge setup GAME --json`` prints. Only ``deal`` is required; every
    other field, when given, must agree with the deal, the rules and the data."""

    game: str | None = None
    # how many play; ``players`` is, in every JSON cardforge prints, the list of the players
    player_count: Annotated[int, Field(strict=True)] | None = None
    mode: str | None = None
    counts: dict[str, Any] | None = None
    steps: list[str] | None = None
    deal: dict[str, Any]


def check_setup_file(game: Game, data: GameData[CardBase], path: Path) -> list[Problem]:
    """Problems of a described deal (empty list: the deal follows the rules).

    The file is either a deal (the ``deal`` that ``--json`` prints, or one written by hand,
    validated by ``game.setup_model`` and checked by ``game.check_setup``) or the whole object
    ``--json`` prints — a mapping with a ``deal`` key — whose ``game``, ``players``, ``mode``,
    ``counts`` and ``steps`` are then checked against the deal: they are derived from it, so a
    wrong value is an error saying what was given and what was expected. A deal model tells the
    request it was made for with ``setup_request() -> (players, mode, options)`` (None where the
    deal does not tell; options None: the deal's own problems leave them unknown).
    """
    if game.setup_model is None:
        raise SetupError(f"{game.id} has no setup check", [])
    return check_setup_doc(game, data, read_yaml(Path(path), display=str(path)))


def check_setup_text(game: Game, data: GameData[CardBase], text: str, display: str = "<stdin>") -> list[Problem]:
    """:func:`check_setup_file` for a text already in memory (stdin): the same hardened reader."""
    if game.setup_model is None:
        raise SetupError(f"{game.id} has no setup check", [])
    return check_setup_doc(game, data, parse_text(text, display))


def check_setup_doc(game: Game, data: GameData[CardBase], doc: YamlDoc) -> list[Problem]:
    """Problems of a parsed described deal (see :func:`check_setup_file`)."""
    if game.setup_model is None:
        raise SetupError(f"{game.id} has no setup check", [])
    if doc.data is None:
        return doc.problems or [Problem("the file is empty", file=doc.display)]
    contract: SetupContract | None = None
    problems: list[Problem] = []
    deal_data: Any = doc.data
    prefix: tuple[str, ...] = ()
    if isinstance(doc.data, dict) and "deal" in doc.data:
        contract, problems = validate(SetupContract, doc.data, file=doc.display, line_of=doc.line_of)
        if contract is not None:
            wrong_game = _check_game(game, contract, doc)
            if wrong_game:  # its deal would only show this game's model rejecting another game's fields
                return doc.problems + wrong_game
        deal_data, prefix = doc.data["deal"], ("deal",)
        if not isinstance(deal_data, dict):  # reported by the contract's validation
            return doc.problems + problems
    setup, invalid = validate(game.setup_model, deal_data, file=doc.display, line_of=doc.line_of,
                              loc_prefix=prefix)
    problems += [_name_item(p, deal_data) for p in invalid]
    if setup is None:
        return doc.problems + problems
    found = game.check_setup(data, setup)
    problems += [p if p.file else replace(p, file=doc.display) for p in found]
    if contract is not None:
        problems += _check_contract(game, contract, setup, doc, deal_ok=not found)
    return doc.problems + problems


def _check_game(game: Game, contract: SetupContract, doc: YamlDoc) -> list[Problem]:
    """A whole object printed for another game is not checked against this one's rules."""
    if contract.game is None:
        return []
    line = doc.line_of(("game",))
    try:
        named = find_game(contract.game)
    except UnknownGameError as exc:
        return [Problem(str(exc), file=doc.display, field="game", line=line)]
    if named.id == game.id:
        return []
    return [Problem(f"this file holds a deal of {named.id}, not {game.id}; check it with "
                    f"`cardforge setup {named.id} --check {doc.display}`", file=doc.display, field="game", line=line)]


def _check_contract(game: Game, contract: SetupContract, setup: Any, doc: YamlDoc,
                    deal_ok: bool) -> list[Problem]:
    """The printed ``player_count``, ``mode``, ``counts`` and ``steps`` against the deal."""
    problems: list[Problem] = []

    def add(message: str, field: str, *loc: Any) -> None:
        problems.append(Problem(message, file=doc.display, field=field, line=doc.line_of(loc or (field,))))

    request = setup.setup_request() if hasattr(setup, "setup_request") else (None, None, None)
    deal_players, deal_mode, options = request
    players = deal_players if deal_players is not None else contract.player_count
    if contract.player_count is not None:
        if deal_players is not None and contract.player_count != deal_players:
            add(f"got {contract.player_count}, expected {deal_players} (the deal is for "
                f"{plural(deal_players, 'player')})", "player_count")
        elif deal_players is None:
            for p in check_player_count(game, contract.player_count):
                add(p.message, "player_count")
    mode = deal_mode or game.default_mode
    if contract.mode is not None:
        if contract.mode not in game.modes:
            add(f"'{contract.mode}' is not a mode of {game.id} (modes: {', '.join(game.modes)})", "mode")
        elif contract.mode != mode:
            add(f"got '{contract.mode}', expected '{mode}' (the deal is a{'n' if mode[0] in 'aeiou' else ''} "
                f"'{mode}' deal)", "mode")
    if contract.counts is None and contract.steps is None:
        return problems
    if players is None:
        if deal_ok:  # otherwise the deal's own problems say why
            add("cannot be checked: neither the deal nor the file says the number of players (give player_count: N)",
                "counts" if contract.counts is not None else "steps")
        return problems
    if check_player_count(game, players) or mode not in game.modes or options is None:
        return problems  # reported above, or by the deal's own problems
    for_what = _request_label(game, players, mode, options)
    counts = game.setup_counts(players, mode, options)
    if contract.counts is not None:
        for key, given in contract.counts.items():
            if key not in counts:
                add(f"not a count of {game.id} (counts: {', '.join(counts)})", f"counts.{key}", "counts", key)
            elif given != counts[key] or type(given) is not type(counts[key]):
                add(f"got {_show(given)}, expected {_show(counts[key])} {for_what}", f"counts.{key}", "counts", key)
        for key, wanted in counts.items():
            if key not in contract.counts:
                add(f"missing, expected {_show(wanted)} {for_what}", f"counts.{key}", "counts")
    if contract.steps is not None:
        steps = game.setup_steps(players, mode, options, counts)
        if len(contract.steps) != len(steps):
            add(f"{len(contract.steps)} steps given, the checklist {for_what} has {len(steps)}", "steps")
        for i, (given, wanted) in enumerate(zip(contract.steps, steps)):
            if given != wanted:
                add(f"got {short_repr(given)}, expected {wanted!r} {for_what}", f"steps[{i}]", "steps", i)
    return problems


def _request_label(game: Game, players: int, mode: str, options: dict[str, Any]) -> str:
    """«for 4 players, mode expert, --short 3»: what the counts and checklist follow from."""
    label = f"for {players} player{'s' if players != 1 else ''}"
    if len(game.modes) > 1:
        label += f", mode {mode}"
    for flag, value in options.items():
        if value:
            label += f", --{flag.replace('_', '-')}" + ("" if value is True else f" {value}")
    return label


def _show(value: Any) -> str:
    """JSON as the deal file writes it, cut to a short prefix (an alias bomb must not
    be formatted whole)."""
    text = json.dumps(_short_value(value), ensure_ascii=False)
    return text if len(text) <= 80 else text[:80] + "…"


def _short_value(value: Any, budget: int = 40) -> Any:
    if isinstance(value, list):
        keep = max(budget // 4, 1)
        return [_short_value(v, budget // 2) for v in value[:keep]] + (["…"] if len(value) > keep else [])
    if isinstance(value, dict):
        items = list(value.items())[:max(budget // 4, 1)]
        return {str(k): _short_value(v, budget // 2) for k, v in items}
    if isinstance(value, str) and len(value) > 60:
        return value[:60] + "…"
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) > 10 ** 30:
        return "a huge number"
    return value
