"""score_game: final state → ScoreSheet, with the shared ranking and tie-breaks.

A final state is scored from a file (:func:`score_file`), a text already in memory
(:func:`score_text`: stdin, the web sheet's box) or a mapping (:func:`score_mapping`): each read by
the hardened YAML reader (``cardforge.data.yamlio``) where it is text, none written anywhere.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from cardforge.data.loading import GameData
from cardforge.data.models import CardBase
from cardforge.data.validate import validate
from cardforge.data.yamlio import YamlDoc, parse_text, read_yaml
from cardforge.engine.inputs import _name_item, load_doc
from cardforge.errors import ScoreInputError
from cardforge.games.base import Game
from cardforge.problems import Problem
from cardforge.scores import PlayerResult, PlayerScore, ScoreSheet, TieBreaker, format_number


def competition_ranks(keys: Sequence[tuple[Any, ...]]) -> list[int]:
    """Competition numbering (1, 2, 2, 4): rank = 1 + number of strictly better keys."""
    return [1 + sum(1 for other in keys if other > k) for k in keys]


def rank_players(
    results: Sequence[PlayerResult], tie_breakers: Sequence[TieBreaker]
) -> tuple[list[int], str | None]:
    """Ranks for ``results`` (input order kept) and how a tie on the top total was decided."""
    n = len(tie_breakers)
    for r in results:
        if len(r.tiebreak) != n:
            raise ValueError(f"{r.name}: {len(r.tiebreak)} tie-break values, the game declares {n}")
    keys = [(r.total, *r.tiebreak) for r in results]
    ranks = competition_ranks(keys)
    best_total = max(r.total for r in results)
    top = [k for k in keys if k[0] == best_total]
    how = None
    if len(top) > 1:
        how = "shared: no tie-breaker" if not n else None
        for i, tb in enumerate(tie_breakers, start=1):
            best = max(k[i] for k in top)
            leaders = [k for k in top if k[i] == best]
            if len(leaders) < len(top):
                how = f"tie on {format_number(best_total)} broken by {tb.label_en}"
                break
            top = leaders
        if how is None:
            how = "shared: still tied after " + ", ".join(tb.label_en for tb in tie_breakers)
    return ranks, how


class GameRulesError(RuntimeError):
    """A game's rule code broke its contract with the engine (a bug in the game, not bad input)."""


def build_sheet(game: Game, results: Sequence[PlayerResult], details: Any = None,
                report: Sequence[str] = ()) -> ScoreSheet:
    declared = [c.id for c in game.categories]
    for r in results:
        unknown = sorted(set(r.breakdown) - set(declared))
        missing = [c for c in declared if c not in r.breakdown]
        if unknown or missing:  # never a silent 0: the pad and the score would disagree
            raise GameRulesError(
                f"the rules of {game.id} scored {r.name!r} with "
                + "; ".join(filter(None, [f"unknown categories {unknown}" if unknown else "",
                                          f"no value for the declared categories {missing}" if missing else ""]))
                + f" (game.yaml declares {declared})")
    ranks, how = rank_players(results, game.tie_breakers)
    players = [
        PlayerScore(r.name, r.total, rank, {c: r.breakdown[c] for c in declared}, r.extra)
        for r, rank in zip(results, ranks)
    ]
    winners = [p.name for p in players if p.rank == 1]
    return ScoreSheet(game.id, game.title, list(game.categories), players, winners, how, details, list(report))


def check_player_count(game: Game, count: int, what: str = "players") -> list[Problem]:
    if game.min_players <= count <= game.max_players:
        return []
    return [Problem(f"{count} given, {game.id} supports {game.players_label}", field=what)]


def check_players(game: Game, state: Any) -> list[Problem]:
    """What every game shares: the number of players and their names (each its own)."""
    return check_player_count(game, len(game.player_names(state))) + check_names(game, state)


def check_names(game: Game, state: Any) -> list[Problem]:
    """Each player's name their own (a problem on the second of two players named alike)."""
    names = game.player_names(state)
    problems: list[Problem] = []
    first: dict[str, int] = {}
    for index, name in enumerate(names, start=1):
        key = name.strip().casefold()
        if key in first:
            problems.append(Problem(f"duplicate name (also player #{first[key]}); each player needs their own name",
                                    item=f"player '{name}' (#{index})", field="name"))
        first.setdefault(key, index)
    return problems


def score_state(game: Game, data: GameData[CardBase], state: Any, source: str | None = None,
                line_of: Callable[[tuple[Any, ...]], int | None] | None = None) -> ScoreSheet:
    """Score an already validated final state: the engine's own checks (player count, names),
    then the game's rule checks, then its score — every declared category present."""
    problems = check_players(game, state) + game.check_final_state(data, state)
    if source:  # rule-level problems name the file too, and the line where the data can tell it
        problems = [p if p.file else replace(p, file=source) for p in problems]
    if line_of is not None:
        problems = [p if p.line else replace(p, line=_line(p, line_of)) for p in problems]
    if problems:
        raise ScoreInputError(f"cannot score {source or 'this game'}", problems)
    return score_checked(game, data, state)


def score_checked(game: Game, data: GameData[CardBase], state: Any) -> ScoreSheet:
    """The score of a validated final state its checks accept: the game's ``score``, every
    declared category present, ranked and annotated (mode, partial, tie-break values)."""
    result = game.score(data, state)
    sheet = build_sheet(game, result.players, result.details, result.report)
    from cardforge.scores import annotate_sheet  # issue 18: mode, partial, tie-break values

    return annotate_sheet(sheet, game, result)


_INDEX = re.compile(r"\(#(\d+)\)$")
_PART = re.compile(r"([^.\[\]]+)|\[(\d+)\]")


def _line(problem: Problem, line_of: Callable[[tuple[Any, ...]], int | None]) -> int | None:
    """The line of a rule-level problem: its player (``item`` "player 'Ben' (#2)") and field."""
    loc: tuple[Any, ...] = ()
    if problem.item:
        m = _INDEX.search(problem.item)
        noun = problem.item.split(" ", 1)[0]
        if m and noun in ("player", "round"):
            loc = (noun + "s", int(m.group(1)) - 1)
    for name, index in _PART.findall(problem.field or ""):
        loc += (int(index),) if index else (name,)
    return line_of(loc) if loc else None


def score_file(game: Game, data: GameData[CardBase], path: Path) -> ScoreSheet:
    """Score the final-state file at ``path``; ScoreInputError with every problem located."""
    if game.score_model is None:
        raise ScoreInputError(f"{game.id} has no scoring", [])
    return score_doc(game, data, read_yaml(Path(path), display=str(path)))


def score_text(game: Game, data: GameData[CardBase], text: str, display: str = "<stdin>") -> ScoreSheet:
    """Score a final state given as YAML text (stdin, a text box), named ``display`` in problems."""
    if game.score_model is None:
        raise ScoreInputError(f"{game.id} has no scoring", [])
    return score_doc(game, data, parse_text(text, display))


def score_mapping(game: Game, data: GameData[CardBase], state: Mapping[str, Any],
                  display: str | None = None) -> ScoreSheet:
    """Score a final state given as a mapping (a program's own, a form's fields)."""
    model = game.score_model
    if model is None:
        raise ScoreInputError(f"{game.id} has no scoring", [])
    raw = dict(state)
    value, problems = validate(model, raw, file=display)
    problems = [_name_item(p, raw) for p in problems]
    if problems:
        problems += _rules_of_the_rest(game, data, model, raw, display or "", lambda loc: None)
        raise ScoreInputError(f"cannot score {display or 'this game'}", problems)
    return score_state(game, data, value, display)


def score_doc(game: Game, data: GameData[CardBase], doc: YamlDoc) -> ScoreSheet:
    """Score a parsed final-state document: every problem located (file, line, player, field)."""
    model = game.score_model
    if model is None:
        raise ScoreInputError(f"{game.id} has no scoring", [])
    state, problems, line_of, raw = load_doc(doc, model, with_lines=True)
    if problems:
        if state is None:  # the rules of the players that read well, in the same run
            problems += _rules_of_the_rest(game, data, model, raw, doc.display, line_of)
        raise ScoreInputError(f"cannot score {doc.display}", problems)
    return score_state(game, data, state, doc.display, line_of)


def _rules_of_the_rest(game: Game, data: GameData[CardBase], model: type[Any], raw: Any, source: str,
                       line_of: Callable[[tuple[Any, ...]], int | None]) -> list[Problem]:
    """Field-level problems hide no rule-level ones: the players whose fields are in error are
    left out, the rules are checked on the players that read well, and the problems that name
    one of those players are kept (renumbered as in the file). A problem of the whole table
    (counts, totals across players) is not shown: without the players left out it would guess."""
    import copy

    from pydantic import ValidationError

    if not isinstance(raw, dict) or not isinstance(raw.get("players"), list):
        return []
    try:
        model.model_validate(raw)
        return []
    except ValidationError as exc:
        locs = [tuple(e["loc"]) for e in exc.errors()]
    if not all(len(loc) >= 2 and loc[0] == "players" and isinstance(loc[1], int) for loc in locs):
        return []  # an error outside the players' own entries: the table itself is unknown
    bad = {int(loc[1]) for loc in locs}
    kept_index = [i for i in range(len(raw["players"])) if i not in bad]
    if not kept_index:
        return []
    lenient = copy.deepcopy(raw)
    lenient["players"] = [raw["players"][i] for i in kept_index]
    try:
        state = model.model_validate(lenient)
    except ValidationError:
        return []
    found = check_players(game, state) + game.check_final_state(data, state)
    kept = []
    for p in found:
        m = _INDEX.search(p.item or "")
        if m is None or not (p.item or "").startswith("player "):
            continue
        original = kept_index[int(m.group(1)) - 1] + 1
        item = _INDEX.sub(f"(#{original})", p.item or "")
        p = replace(p, item=item, file=p.file or source)
        kept.append(replace(p, line=p.line or _line(p, line_of)))
    return kept
