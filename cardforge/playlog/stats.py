"""The numbers of the stats pages, from the play log's records (no web framework): what each
is, exactly, is written beside it (and in DEVELOPING.md, "The stats").

Conventions:
- Only plays that count: deleted plays are left out (the store gives none).
- A *win* follows the lab's one shared-win rule (``lab.effects.win_shares``): a play's k winners
  share its win, 1/k each, so a play gives one win (a 2-way shared win: ½ to each).
- *Win rate* = wins ÷ plays with at least 2 players; solo plays (one seat) are counted apart,
  never as wins. Every rate is shown with its count ("3 of 5") and, on the charts, its Wilson 95 %
  interval (where the rate plausibly lies given so few plays).
- *Opponents beaten* (the scale-free measure across games): in a play, the share of the other
  players ranked behind this one, a tie counting half; averaged over plays. Raw totals are
  never averaged across games (one game's scale is not another's).
- *Turn position*: where a play records its first player, a seat's position is 1 for the first
  player, 2 for the next in seat order, and so on.
- *Head-to-head*: for two players in one play, the one ranked better is ahead; equal ranks tie.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from cardforge.lab.effects import win_shares
from cardforge.lab.stats import bins_of, number, percent, wilson
from cardforge.playlog.store import PlayRecord, Seat

__all__ = ["bins_of", "number", "percent", "wilson"]  # the lab's, shared with these pages

TREND_PLAYS = 30  # plays a trend line shows, the latest


@dataclass
class Rate:
    wins: float
    plays: int

    @property
    def value(self) -> float | None:
        return self.wins / self.plays if self.plays else None

    def interval(self, z: float = 1.96) -> tuple[float, float] | None:
        return wilson(self.wins, self.plays, z)

    def text(self) -> str:
        if not self.plays:
            return "–"
        return f"{percent(self.value)} · {number(self.wins)} of {self.plays}"


def win_of(play: PlayRecord, seat: Seat) -> float:
    """The seat's share of the play's win (the lab's rule, ``lab.effects.win_shares``: 1/k for
    each of k winners): the one place the stats count a win."""
    shares = win_shares([s.winner for s in play.seats])
    return next(share for s, share in zip(play.seats, shares) if s is seat)


def beaten_share(play: PlayRecord, seat: Seat) -> float | None:
    """The share of the other players this seat was ranked ahead of, a tie counting half
    (None for a solo play)."""
    others = [s for s in play.seats if s.seat != seat.seat]
    if not others:
        return None
    ahead = sum(1.0 if seat.rank < o.rank else 0.5 if seat.rank == o.rank else 0.0 for o in others)
    return ahead / len(others)


@dataclass
class PlayerLine:
    player_id: int
    name: str
    colour: str | None
    plays: int = 0  # with at least 2 players
    wins: float = 0  # shared wins 1/k (win_shares)
    solo: int = 0
    totals: list[float] = field(default_factory=list)  # every total (solo plays too), one game
    beaten: list[float] = field(default_factory=list)
    categories: dict[str, list[float]] = field(default_factory=dict)
    games: set[str] = field(default_factory=set)

    @property
    def rate(self) -> Rate:
        return Rate(self.wins, self.plays)

    @property
    def average(self) -> float | None:
        return sum(self.totals) / len(self.totals) if self.totals else None

    @property
    def best(self) -> float | None:
        return max(self.totals) if self.totals else None

    @property
    def beaten_average(self) -> float | None:
        return sum(self.beaten) / len(self.beaten) if self.beaten else None

    def category_average(self, category: str) -> float | None:
        values = self.categories.get(category)
        return sum(values) / len(values) if values else None


def _players(records: Sequence[PlayRecord], roster: dict[int, dict[str, Any]]) -> dict[int, PlayerLine]:
    lines: dict[int, PlayerLine] = {}
    for play in records:
        for seat in play.seats:
            who = roster.get(seat.player_id, {})
            line = lines.setdefault(seat.player_id, PlayerLine(seat.player_id, who.get("name", seat.name),
                                                               who.get("colour")))
            line.games.add(play.game)
            line.totals.append(seat.total)
            for category, value in seat.breakdown.items():
                line.categories.setdefault(category, []).append(value)
            if len(play.seats) < 2:
                line.solo += 1
                continue
            line.plays += 1
            line.wins += win_of(play, seat)
            share = beaten_share(play, seat)
            if share is not None:
                line.beaten.append(share)
    return lines


@dataclass
class Position:
    position: int  # 1 = the first player
    seats: int
    wins: float

    @property
    def rate(self) -> Rate:
        return Rate(self.wins, self.seats)


@dataclass
class Pair:
    a: str
    b: str
    plays: int = 0
    a_ahead: int = 0
    b_ahead: int = 0
    ties: int = 0


@dataclass
class GameStats:
    game: str
    title: str
    plays: int  # every play of the game (solo ones too)
    solo_plays: int
    players: list[PlayerLine]  # most plays first
    totals: list[float]
    bins: list[tuple[float, float, int]]
    categories: list[tuple[str, str, float]]  # (id, label, average over every seat)
    positions: list[Position]
    plays_with_first: int
    pairs: list[Pair]
    trend: list[tuple[str, list[tuple[int, float]]]]  # (player, [(index among the last plays, total)])
    dates: list[str]  # of the trend's plays, in order (its x)
    category_ids: list[str] = field(default_factory=list)


def game_stats(game: str, title: str, records: Sequence[PlayRecord], roster: dict[int, dict[str, Any]],
               labels: dict[str, str] | None = None, trend_players: int = 5) -> GameStats:
    """Everything the page of one game shows, from that game's plays (oldest first)."""
    labels = labels or {}
    records = [r for r in records if r.game == game]
    lines = sorted(_players(records, roster).values(), key=lambda p: (-(p.plays + p.solo), -p.wins, p.name.casefold()))
    totals = [s.total for r in records for s in r.seats]
    category_ids: list[str] = []
    for r in records:
        category_ids += [c for c in r.categories if c not in category_ids]
    cat_values: dict[str, list[float]] = defaultdict(list)
    for r in records:
        for s in r.seats:
            for c in r.categories:
                cat_values[c].append(s.breakdown.get(c, 0.0))
    categories = [(c, labels.get(c, c), sum(cat_values[c]) / len(cat_values[c])) for c in category_ids if cat_values[c]]
    positions: dict[int, Position] = {}
    with_first = 0
    for r in records:
        n = len(r.seats)
        if r.first_seat is None or n < 2 or not 0 <= r.first_seat < n:
            continue
        with_first += 1
        for s in r.seats:
            pos = (s.seat - r.first_seat) % n + 1
            entry = positions.setdefault(pos, Position(pos, 0, 0))
            entry.seats += 1
            entry.wins += win_of(r, s)
    pairs: dict[tuple[int, int], Pair] = {}
    for r in records:
        for i, s in enumerate(r.seats):
            for t in r.seats[i + 1:]:
                first, second = sorted((s, t), key=lambda x: (_name(x, roster).casefold(), x.player_id))
                key = (first.player_id, second.player_id)
                pair = pairs.setdefault(key, Pair(_name(first, roster), _name(second, roster)))
                pair.plays += 1
                if first.rank < second.rank:
                    pair.a_ahead += 1
                elif second.rank < first.rank:
                    pair.b_ahead += 1
                else:
                    pair.ties += 1
    # the trend: the last TREND_PLAYS plays (more is no longer readable on a phone), the players
    # with most plays among them
    recent = list(records)[-TREND_PLAYS:]
    counts = Counter(s.player_id for r in recent for s in r.seats)
    top = sorted((p for p in lines if counts[p.player_id]), key=lambda p: (-counts[p.player_id], p.name.casefold()))
    trend = []
    for p in top[:trend_players]:
        points = [(i, s.total) for i, r in enumerate(recent) for s in r.seats if s.player_id == p.player_id]
        trend.append((p.name, points))
    return GameStats(game, title, len(records), sum(1 for r in records if len(r.seats) < 2), lines, totals,
                     bins_of(totals), categories, [positions[k] for k in sorted(positions)], with_first,
                     sorted(pairs.values(), key=lambda x: (-x.plays, x.a.casefold(), x.b.casefold())), trend,
                     [r.played_on for r in recent], category_ids)


def _name(seat: Seat, roster: dict[int, dict[str, Any]]) -> str:
    return str(roster.get(seat.player_id, {}).get("name", seat.name))


@dataclass
class Overview:
    """Every game at once, without mixing their scales: per player, plays and wins, the win
    rate and the share of opponents beaten; per game, its plays; plays per month."""

    players: list[PlayerLine]
    games: list[tuple[str, str, int]]  # (id, title, plays)
    months: list[tuple[str, int]]  # (YYYY-MM, plays), oldest first


def overview(records: Sequence[PlayRecord], roster: dict[int, dict[str, Any]]) -> Overview:
    lines = _players(records, roster)
    for line in lines.values():  # raw totals and categories mean nothing across games
        line.totals, line.categories = [], {}
    players = sorted(lines.values(), key=lambda p: (-p.plays, -p.wins, p.name.casefold()))
    by_game: dict[str, list[Any]] = {}
    for r in records:
        entry = by_game.setdefault(r.game, [r.game, r.title, 0])
        entry[1] = r.title
        entry[2] += 1
    months = Counter(r.played_on[:7] for r in records)
    return Overview(players, sorted((tuple(v) for v in by_game.values()), key=lambda g: (-g[2], str(g[1]).casefold())),
                    sorted(months.items()))


@dataclass
class PlayerGames:
    """One player across games: a line per game (that game's own scale), and the share of
    opponents beaten play after play."""

    line: PlayerLine  # across games: plays, wins, beaten (no totals)
    by_game: list[tuple[str, str, PlayerLine]]  # (game, title, line of that game)
    beaten_over_time: list[tuple[int, float, str]]  # (play index, share, date)


def player_games(player_id: int, records: Sequence[PlayRecord], roster: dict[int, dict[str, Any]]) -> PlayerGames:
    theirs = [r for r in records if any(s.player_id == player_id for s in r.seats)]
    across = _players(theirs, roster).get(player_id) or PlayerLine(player_id, str(roster.get(player_id, {}).get(
        "name", "?")), roster.get(player_id, {}).get("colour"))
    across.totals, across.categories = [], {}
    titles: dict[str, str] = {}
    for r in theirs:
        titles[r.game] = r.title
    by_game = []
    for game in sorted(titles, key=lambda g: titles[g].casefold()):
        line = _players([r for r in theirs if r.game == game], roster).get(player_id)
        if line is not None:
            by_game.append((game, titles[game], line))
    over_time = []
    for i, r in enumerate([x for x in theirs if len(x.seats) > 1][-TREND_PLAYS:]):
        seat = next(s for s in r.seats if s.player_id == player_id)
        share = beaten_share(r, seat)
        if share is not None:
            over_time.append((i, share, r.played_on))
    return PlayerGames(across, by_game, over_time)
