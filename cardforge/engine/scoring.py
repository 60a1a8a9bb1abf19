"""score_game: final state → ScoreSheet, with the shared ranking and tie-breaks."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from cardforge.data.loading import GameData
from cardforge.engine.inputs import load_input
from cardforge.errors import ScoreInputError
from cardforge.games.base import Game
from cardforge.problems import Problem
from cardforge.scores import PlayerResult, PlayerScore, ScoreSheet, TieBreaker, format_number


def competition_ranks(keys: Sequence[tuple]) -> list[int]:
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


def build_sheet(game: Game, results: Sequence[PlayerResult], details: Any = None,
                report: Sequence[str] = ()) -> ScoreSheet:
    ids = {c.id for c in game.categories}
    for r in results:
        unknown = set(r.breakdown) - ids
        if unknown:
            raise ValueError(f"{game.id} scored unknown categories {sorted(unknown)}")
    ranks, how = rank_players(results, game.tie_breakers)
    players = [
        PlayerScore(r.name, r.total, rank, {c.id: r.breakdown.get(c.id, 0) for c in game.categories}, r.extra)
        for r, rank in zip(results, ranks)
    ]
    winners = [p.name for p in players if p.rank == 1]
    return ScoreSheet(game.id, game.title, list(game.categories), players, winners, how, details, list(report))


def check_player_count(game: Game, count: int, what: str = "players") -> list[Problem]:
    if game.min_players <= count <= game.max_players:
        return []
    return [Problem(f"{count} given, {game.id} supports {game.players_label}", field=what)]


def score_state(game: Game, data: GameData, state: Any, source: str | None = None) -> ScoreSheet:
    """Score an already validated final state."""
    problems = game.check_final_state(data, state)
    if source:  # rule-level problems name the file too
        problems = [p if p.file else replace(p, file=source) for p in problems]
    if problems:
        raise ScoreInputError(f"cannot score {source or 'this game'}", problems)
    result = game.score(data, state)
    sheet = build_sheet(game, result.players, result.details, result.report)
    from cardforge.scores import annotate_sheet  # issue 18: mode, partial, tie-break values

    return annotate_sheet(sheet, game, result)


def score_file(game: Game, data: GameData, path: Path) -> ScoreSheet:
    if game.score_model is None:
        raise ScoreInputError(f"{game.id} has no scoring", [])
    state, problems = load_input(path, game.score_model)
    if problems:
        raise ScoreInputError(f"cannot score {path}", problems)
    return score_state(game, data, state, str(path))
