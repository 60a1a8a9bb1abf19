"""The playtest lab's numbers: what a set of plays says about seats, declared choices and
cards, per deck version (every definition is here beside its code, and in DEVELOPING.md,
"The playtest lab").

Conventions:
- Deleted plays count nowhere (the store gives none). A *solo* play (one player) is counted
  among the plays and their lengths, never in a rate.
- A *win*: a play's winners (after the tie-breakers) share it — a win shared by k players
  counts 1/k for each, so a play gives exactly one win and, over seats of plays of n players,
  the *fair share* (what a rate would be if nothing mattered) is 1/n. Each rate shows its fair
  share: the mean of 1/n over the seats it counts.
- Every rate shows the count it rests on ("50 % · 3 of 6") and its Wilson 95 % interval;
  below :data:`MIN_COUNT` seats it says "too few plays" and is not ranked.
- *Winner's margin*: the lowest winner's total minus the best total of the other players
  (0 when a tie-breaker decided); a play every player won has none.
- *Category share*: a category's points over the total points, summed over the winners'
  seats (the winners' share) or over every seat (everyone's), in plays of 2 players or more.
- *Per card* (cards the final state names through its declared card fields): how many seats
  held it (at least one copy); the holders' win rate; how often it was among the winners'
  cards and among the others'; the points it brought where a declared category adds a card
  field (``sum``) or counts cards (``count``) without bounds — each copy held brings its
  value; and the cards of the deck no seat held.
"""

from __future__ import annotations

import math
import statistics
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Any

from cardforge.lab.effects import Fitted, fit_group, win_shares
from cardforge.lab.facts import Deck, SeatFacts
from cardforge.lab.names import key_of as _key
from cardforge.lab.names import ordinal as _ordinal
from cardforge.lab.names import sort_name
from cardforge.lab.versions import label as version_label
from cardforge.lab.versions import version_key

if TYPE_CHECKING:
    from cardforge.data.loading import GameData
    from cardforge.data.models import CardBase
    from cardforge.games.base import Game

#: a rate resting on fewer seats says "too few plays" and is not ranked: at 10 seats a rate of
#: 50 % is only known to lie between 24 % and 76 % (Wilson 95 %); below, the ranking is noise
MIN_COUNT = 10
Z95 = 1.959963984540054  # the normal quantile of 97.5 %: a two-sided 95 % interval


# --- formatting --------------------------------------------------------------------------------

def wilson(successes: float, n: int, z: float = Z95) -> tuple[float, float] | None:
    """The Wilson score interval of a rate (95 % with the default ``z``): honest with few plays,
    where the plain ± is not (it can leave 0–1)."""
    if n <= 0:
        return None
    p = successes / n
    denominator = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denominator
    half = z * math.sqrt(max(0.0, p * (1 - p) / n + z * z / (4 * n * n))) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


def whole_percent(value: float) -> int:
    """A rate in whole percent, halves rounded up (3 of 8 → 38, 5 of 8 → 63)."""
    return math.floor(value * 100 + 0.5 + 1e-9)


def percent(value: float | None) -> str:
    """A rate as a whole percentage, halves rounded up (3 of 8 → 38 %, 5 of 8 → 63 %)."""
    return "–" if value is None else f"{whole_percent(value)} %"


def number(value: float) -> str:
    """1, 2.5, 3.33: as few digits as the value needs (at most 2 decimals)."""
    if float(value).is_integer():
        return str(int(value))
    return f"{value:.2f}".rstrip("0").rstrip(".")


def bins_of(values: Sequence[float], most: int = 8) -> list[tuple[float, float, int]]:
    """Equal bins of round width (1, 2, 2.5, 5 × 10ⁿ; whole numbers for whole scores), at
    most about ``most`` of them, from the lowest value's bin to the highest's: (low, high,
    count) with low ≤ value < high."""
    if not values:
        return []
    lo, hi = min(values), max(values)
    width = _step((hi - lo) / most if hi > lo else 1)
    if all(float(v).is_integer() for v in values):
        width = max(1.0, math.ceil(width))
    start = math.floor(lo / width) * width
    count = int((hi - start) // width) + 1
    counts = Counter(int((v - start) // width) for v in values)
    return [(start + i * width, start + (i + 1) * width, counts.get(i, 0)) for i in range(count)]


def _step(raw: float) -> float:
    power = 10 ** math.floor(math.log10(raw)) if raw > 0 else 1
    for m in (1, 2, 2.5, 5, 10):
        if raw <= m * power:
            return float(m * power)
    return float(10 * power)


def signed(value: float, digits: int = 1) -> str:
    text = f"{value:+.{digits}f}"
    text = text.rstrip("0").rstrip(".") if "." in text else text
    return "±0" if text in ("+0", "-0") else text.replace("-", "−")


@dataclass
class Rate:
    """``wins`` (possibly fractional: a shared win) out of ``n`` seats; ``expected``: the fair
    share of those seats (the mean of 1/players)."""

    wins: float
    n: int
    expected: float | None = None
    min_count: int = MIN_COUNT

    @property
    def value(self) -> float | None:
        return self.wins / self.n if self.n else None

    @property
    def interval(self) -> tuple[float, float] | None:
        return wilson(self.wins, self.n)

    @property
    def too_few(self) -> bool:
        return self.n < self.min_count

    def text(self) -> str:
        """``50 % · 3 of 6`` (``–`` with no seat)."""
        if not self.n:
            return "–"
        return f"{percent(self.value)} · {number(round(self.wins, 2))} of {self.n}"

    def interval_text(self) -> str:
        iv = self.interval
        return "–" if iv is None else f"{percent(iv[0])}–{percent(iv[1])}"

    def flag(self) -> str:
        return "too few plays" if self.too_few else ""


# --- the plays, as the lab reads them --------------------------------------------------------------

@dataclass
class SeatResult:
    seat: int  # 0-based, in seat order
    name: str
    total: float
    rank: int
    winner: bool
    breakdown: dict[str, float] = field(default_factory=dict)
    facts: SeatFacts | None = None


@dataclass
class Play:
    id: int
    played_on: str
    mode: str | None
    first_seat: int | None
    duration_min: int | None
    deck_version: str | None
    deck_fp: str | None
    deck_source: str | None
    seats: list[SeatResult]
    state_yaml: str = ""  # its final state, when its facts were not recorded (a play saved before)

    @property
    def players(self) -> int:
        return len(self.seats)

    @property
    def winners(self) -> int:
        return sum(1 for s in self.seats if s.winner)

    def win(self, seat: SeatResult) -> float:
        """The seat's share of the play's win (1/k for each of k winners: ``effects.win_shares``)."""
        return self._shares[id(seat)]

    @cached_property
    def _shares(self) -> dict[int, float]:
        return {id(s): share for s, share in zip(self.seats, win_shares([s.winner for s in self.seats]))}


# --- what the game declares, resolved once ----------------------------------------------------------

@dataclass
class Attribution:
    """A declared category whose points each card brings on its own: ``sum`` of a card field
    (``per_card``: the field) or ``count`` of cards (``per_card``: None, one each), times
    ``points``, over the card fields ``sources`` (None: every one), cards matching ``where``."""

    category: str
    label: str
    sources: list[str] | None
    per_card: str | None
    points: int
    where: dict[str, Any]


@dataclass
class GameInfo:
    """What the numbers need from the game: labels, declared choices and card fields."""

    id: str
    title: str
    categories: list[tuple[str, str]]  # (id, English label)
    choices: list[tuple[str, str]]  # (id, label)
    value_labels: dict[str, dict[str, str]]  # choice id → {str(value): label}
    card_fields: dict[str, list[str] | None]  # final-state card field → its kinds (None: any)
    attributions: list[Attribution]
    current: Deck  # the working data's deck: card names and fields for plays without a stored deck

    def value_label(self, choice: str, value: Any) -> str:
        key = _key(value)
        return self.value_labels.get(choice, {}).get(key, key)

    @property
    def card_kinds(self) -> set[str] | None:
        kinds: set[str] = set()
        for k in self.card_fields.values():
            if k is None:
                return None
            kinds.update(k)
        return kinds




def game_info(game: Game, data: GameData[CardBase]) -> GameInfo:
    from cardforge import sheet
    from cardforge.games import declared
    from cardforge.lab.facts import deck_of_data

    model = declared.player_model(game)
    sources = declared.card_sources(model) if model is not None else {}
    value_labels: dict[str, dict[str, str]] = {}
    for cid, spec in game.spec.choices.items():
        labels: dict[str, str] = {}
        if spec.values is not None:
            labels = {_key(v): _key(v) for v in spec.values}
        elif model is not None:
            decl = _declaration_at(model, spec.field or cid)
            if isinstance(decl, sheet.Section):
                labels = {str(e.id): str(getattr(e, "name", e.id)) for e in data.sections.get(decl.section) or []}
            elif isinstance(decl, sheet.CardKey):
                labels = {str(getattr(c, decl.key, c.id)): c.name for c in data.cards if c.kind == decl.kind}
        value_labels[cid] = labels
    attributions = []
    for c in declared.declared_categories(game):
        rule = c.score
        assert rule is not None
        if rule.per not in (None, 1) or rule.at_least is not None or rule.at_most is not None:
            continue
        if rule.measure == "sum":
            attributions.append(Attribution(c.id, c.label_en or c.label, rule.sources, rule.sum, rule.awards[0]
                                            if rule.points is not None else 1, dict(rule.where or {})))
        elif rule.measure == "count":
            attributions.append(Attribution(c.id, c.label_en or c.label, rule.sources, None, rule.awards[0]
                                            if rule.points is not None else 1, dict(rule.count or {})))
    return GameInfo(
        game.id, game.title, [(c.id, c.label_en or c.label) for c in game.categories],
        [(cid, spec.label or cid.replace("_", " ").capitalize()) for cid, spec in game.spec.choices.items()],
        value_labels, {f: (list(d.kinds) if d.kinds else None) for f, d in sources.items()}, attributions,
        deck_of_data(game.id, data))


def _declaration_at(model: Any, path: str) -> Any:
    from cardforge import sheet
    from cardforge.games.declared import _strip

    current = model
    info = None
    for part in path.split("."):
        fields = getattr(current, "model_fields", {})
        if part not in fields:
            return None
        info = fields[part]
        current = _strip(info.annotation)
    try:
        return sheet.declaration(info) if info is not None else None
    except ValueError:
        return None


# --- the numbers of a group of plays --------------------------------------------------------------

@dataclass
class RateRow:
    key: str
    label: str
    rate: Rate


@dataclass
class CardRow:
    id: str
    name: str
    kind: str
    held: Rate  # seats holding it, of the seats with facts
    holders: Rate  # the holders' wins
    among_winners: Rate  # winners' seats holding it, of the winners' seats
    among_others: Rate  # the other seats holding it, of theirs
    copies: int  # copies held, every seat
    points: float | None  # points brought (declared sum/count categories); None: not attributable
    points_by: dict[str, float] = field(default_factory=dict)  # per category

    @property
    def points_per_holder(self) -> float | None:
        return self.points / self.held.wins if self.points is not None and self.held.wins else None


@dataclass
class Share:
    category: str
    label: str
    winners: float | None
    everyone: float | None


@dataclass
class Group:
    """The numbers of one group of plays (a version, or the selection pooled)."""

    label: str
    versions: list[str | None]
    decks: list[tuple[str, str, int]]  # (fingerprint, source, plays)
    plays: int
    solo: int
    player_counts: dict[int, int]
    min_count: int
    positions: list[RateRow]
    plays_with_first: int
    choices: dict[str, list[RateRow]]
    choice_missing: dict[str, int]  # seats (of multi-player plays) whose choice is not known
    margins: list[float]
    shares: list[Share]
    durations: list[int]
    cards: list[CardRow]
    never: list[tuple[str, str]]  # (id, name): cards of the deck no seat held
    seats_with_facts: int
    plays_with_facts: int
    first_day: str = ""
    last_day: str = ""
    plays_with_breakdown: int = 0  # the plays (of 2+) whose seats all recorded their categories
    fitted: Fitted = field(default_factory=Fitted)  # the effects (lab.effects)

    @property
    def multi(self) -> int:
        return self.plays - self.solo

    @property
    def margin_summary(self) -> dict[str, float] | None:
        if not self.margins:
            return None
        return {"plays": len(self.margins), "mean": statistics.fmean(self.margins),
                "median": statistics.median(self.margins), "min": min(self.margins), "max": max(self.margins)}

    @property
    def duration_summary(self) -> dict[str, float] | None:
        if not self.durations:
            return None
        return {"plays": len(self.durations), "mean": statistics.fmean(self.durations),
                "median": statistics.median(self.durations), "min": min(self.durations),
                "max": max(self.durations)}

    def ranked(self, rows: Sequence[RateRow]) -> tuple[list[RateRow], list[RateRow]]:
        """(rates resting on enough seats, by name; the others, most seats first). Never ordered
        by a raw rate: what ranks is the effects' table (corrected for many comparisons)."""
        return _ranked(rows, lambda r: r.rate, lambda r: r.label)

    def ranked_cards(self) -> tuple[list[CardRow], list[CardRow]]:
        held = [c for c in self.cards if c.held.wins > 0]
        return _ranked(held, lambda c: c.holders, lambda c: c.name)




def _ranked(rows: Sequence[Any], rate: Callable[[Any], Rate], name: Callable[[Any], str]
            ) -> tuple[list[Any], list[Any]]:
    enough = sorted((r for r in rows if not rate(r).too_few), key=lambda r: sort_name(name(r)))
    few = sorted((r for r in rows if rate(r).too_few), key=lambda r: (-rate(r).n, sort_name(name(r))))
    return enough, few


def _expected(plays_seats: Iterable[tuple[Play, SeatResult]]) -> float | None:
    """The fair share of these seats: the mean of 1/players (counted per player count, then
    exact fractions: the same float whatever the order, and fast at 10,000 plays)."""
    from fractions import Fraction

    counts = Counter(p.players for p, _ in plays_seats)
    seats = sum(counts.values())
    if not seats:
        return None
    return float(sum((Fraction(k, n) for n, k in counts.items()), Fraction(0)) / seats)


def _rate(pairs: Sequence[tuple[Play, SeatResult]], min_count: int) -> Rate:
    return Rate(sum(p.win(s) for p, s in pairs), len(pairs), _expected(pairs), min_count)


def group_stats(label: str, plays: Sequence[Play], info: GameInfo, decks: dict[str, Deck],
                min_count: int = MIN_COUNT) -> Group:
    """The numbers of ``plays`` (one version, or several pooled). ``decks``: the stored decks
    by fingerprint (a play's cards' names and fields); plays without one use the working data's."""
    plays = sorted(plays, key=lambda p: (p.played_on, p.id))
    multi = [p for p in plays if p.players >= 2]
    counts: dict[int, int] = {}
    for p in plays:
        counts[p.players] = counts.get(p.players, 0) + 1
    positions, with_first = _positions(multi, min_count)
    choices, missing = _choices(multi, info, min_count)
    # the winner's margin
    margins = []
    for p in multi:
        won = [s.total for s in p.seats if s.winner]
        lost = [s.total for s in p.seats if not s.winner]
        if won and lost:
            margins.append(min(won) - max(lost))
    # category shares, over the plays whose every seat recorded its categories (an import may
    # give totals only: its points would count in the totals and in no category)
    broken = [p for p in multi if all(s.breakdown for s in p.seats)]
    shares = _shares(broken, info)
    durations = [p.duration_min for p in plays if p.duration_min is not None]
    cards, never, seats_with, plays_with = _card_rows(multi, info, decks, min_count)
    versions = sorted({p.deck_version for p in plays}, key=version_key)
    fps: dict[tuple[str, str], int] = {}
    for p in plays:
        if p.deck_fp:
            key = (p.deck_fp, p.deck_source or "")
            fps[key] = fps.get(key, 0) + 1
    return Group(label, list(versions), [(fp, src, n) for (fp, src), n in sorted(fps.items())], len(plays),
                 len(plays) - len(multi), dict(sorted(counts.items())), min_count, positions, with_first, choices,
                 missing, margins, shares, durations, cards, never, seats_with, plays_with,
                 plays[0].played_on if plays else "", plays[-1].played_on if plays else "", len(broken),
                 fit_group(multi, info, {c.id: c.name for c in cards}))


def _positions(multi: Sequence[Play], min_count: int) -> tuple[list[RateRow], int]:
    """Seats by turn position (1 is the recorded first player, then in seat order), and how many
    plays recorded their first player."""
    by_position: dict[int, list[tuple[Play, SeatResult]]] = {}
    with_first = 0
    for p in multi:
        if p.first_seat is None or not 0 <= p.first_seat < p.players:
            continue
        with_first += 1
        for s in p.seats:
            by_position.setdefault((s.seat - p.first_seat) % p.players + 1, []).append((p, s))
    positions = [RateRow(str(k), _ordinal(k) + " player", _rate(v, min_count)) for k, v in sorted(by_position.items())]
    return positions, with_first


def _choices(multi: Sequence[Play], info: GameInfo, min_count: int) -> tuple[dict[str, list[RateRow]], dict[str, int]]:
    """Each declared choice's values with their rates, and the seats that did not record it."""
    choices: dict[str, list[RateRow]] = {}
    missing: dict[str, int] = {}
    for cid, _ in info.choices:
        by_value: dict[str, list[tuple[Play, SeatResult]]] = {}
        missing[cid] = 0
        for p in multi:
            for s in p.seats:
                value = s.facts.choices.get(cid) if s.facts is not None else None
                if value is None:
                    missing[cid] += 1
                    continue
                by_value.setdefault(_key(value), []).append((p, s))
        choices[cid] = [RateRow(k, info.value_label(cid, k), _rate(v, min_count))
                        for k, v in sorted(by_value.items(), key=lambda kv: sort_name(info.value_label(cid, kv[0])))]
    return choices, missing


def _shares(broken: Sequence[Play], info: GameInfo) -> list[Share]:
    """Each category's share of the winners' points and of everyone's."""
    shares = []
    for cid, clabel in info.categories:
        w_points = sum(s.breakdown.get(cid, 0.0) for p in broken for s in p.seats if s.winner)
        w_total = sum(s.total for p in broken for s in p.seats if s.winner)
        a_points = sum(s.breakdown.get(cid, 0.0) for p in broken for s in p.seats)
        a_total = sum(s.total for p in broken for s in p.seats)
        shares.append(Share(cid, clabel, w_points / w_total if w_total else None,
                            a_points / a_total if a_total else None))
    return shares


def _card_rows(multi: Sequence[Play], info: GameInfo, decks: dict[str, Deck], min_count: int
               ) -> tuple[list[CardRow], list[tuple[str, str]], int, int]:
    kinds = info.card_kinds
    if not info.card_fields:
        return [], [], 0, 0
    seats = [(p, s) for p in multi for s in p.seats if s.facts is not None and s.facts.cards is not None]
    plays_with = len({p.id for p, _ in seats})
    winners = [(p, s) for p, s in seats if s.winner]
    others = [(p, s) for p, s in seats if not s.winner]
    # the cards that could be held: every card of the declared kinds in the plays' decks
    catalogue: dict[str, dict[str, Any]] = {}
    used_decks = {p.deck_fp for p in multi}
    for fp in sorted(d for d in used_decks if d):
        for cid, c in (decks.get(fp) or info.current).cards.items():
            catalogue.setdefault(cid, c)
    if not used_decks or None in used_decks or any(fp not in decks for fp in used_decks if fp):
        for cid, c in info.current.cards.items():
            catalogue.setdefault(cid, c)
    offered = {cid: c for cid, c in catalogue.items()
               if (kinds is None or c.get("kind") in kinds) and c.get("copies", 0) > 0}
    held_by: dict[str, list[tuple[Play, SeatResult, int]]] = {}
    for p, s in seats:
        assert s.facts is not None
        for cid, n in s.facts.held().items():
            held_by.setdefault(cid, []).append((p, s, n))
    rows = []
    for cid in sorted(set(held_by) | set(offered), key=lambda c: (sort_name(_name(catalogue, c)), c)):
        holders = held_by.get(cid, [])
        pairs = [(p, s) for p, s, _ in holders]
        points, by = _points(cid, holders, info, decks)
        in_winners = sum(1 for _, s, _ in holders if s.winner)
        in_others = len(holders) - in_winners
        rows.append(CardRow(cid, _name(catalogue, cid), str(catalogue.get(cid, {}).get("kind", "")),
                            Rate(len(holders), len(seats), None, min_count), _rate(pairs, min_count),
                            Rate(in_winners, len(winners), None, min_count),
                            Rate(in_others, len(others), None, min_count),
                            sum(n for _, _, n in holders), points, by))
    never = [(cid, _name(catalogue, cid)) for cid in offered if cid not in held_by]
    never.sort(key=lambda x: (sort_name(x[1]), x[0]))
    return rows, never, len(seats), plays_with


def _name(catalogue: dict[str, dict[str, Any]], cid: str) -> str:
    return str(catalogue.get(cid, {}).get("name", cid))


def _points(cid: str, holders: Sequence[tuple[Play, SeatResult, int]], info: GameInfo, decks: dict[str, Deck]
            ) -> tuple[float | None, dict[str, float]]:
    """The points a card brought its holders through the categories that attribute them."""
    from cardforge.games.declared import _matches, field_at

    if not info.attributions:
        return None, {}
    by: dict[str, float] = {}
    # what each copy brings, per deck and category: worked out once per deck, not per holder
    per_deck: dict[str | None, list[tuple[Attribution, float]]] = {}
    for p, s, _ in holders:
        if s.facts is None:
            continue
        if p.deck_fp not in per_deck:
            card = (decks.get(p.deck_fp or "") or info.current).cards.get(cid) or info.current.cards.get(cid)
            rules: list[tuple[Attribution, float]] = []
            if card is not None:
                fields = {**(card.get("data") or {}), "kind": card.get("kind"), "id": cid, "name": card.get("name")}
                for a in info.attributions:
                    if not _matches(fields, a.where):
                        continue
                    value = field_at(fields, a.per_card) if a.per_card else 1
                    if isinstance(value, bool) or not isinstance(value, int | float):
                        continue
                    rules.append((a, float(value)))
            per_deck[p.deck_fp] = rules
        for a, value in per_deck[p.deck_fp]:
            n = sum(per.get(cid, 0) for f, per in (s.facts.cards or {}).items() if a.sources is None or f in a.sources)
            if n:
                by[a.category] = by.get(a.category, 0.0) + value * n * a.points
    return sum(by.values()), by




# --- several versions --------------------------------------------------------------------------------

def by_version(plays: Sequence[Play]) -> dict[str | None, list[Play]]:
    """The plays of each version, oldest version first."""
    out: dict[str | None, list[Play]] = {}
    for p in sorted(plays, key=lambda p: version_key(p.deck_version)):
        out.setdefault(p.deck_version, []).append(p)
    return out


@dataclass
class CardChange:
    """A card's change between two decks (``cardforge diff``'s entries)."""

    id: str
    name: str
    status: str  # changed, added, removed
    fields: list[tuple[str, Any, Any]]
    copies: tuple[int, int] | None = None


@dataclass
class Comparison:
    old: Group
    new: Group
    changes: list[CardChange]
    deck_note: str  # how the decks were compared (fingerprints, or why not)
    old_version: str | None = None
    new_version: str | None = None

    def card(self, group: Group, cid: str) -> CardRow | None:
        return next((c for c in group.cards if c.id == cid), None)

    def choice_pairs(self, cid: str) -> list[tuple[str, Rate | None, Rate | None]]:
        old = {r.key: r for r in self.old.choices.get(cid, [])}
        new = {r.key: r for r in self.new.choices.get(cid, [])}
        keys = sorted(set(old) | set(new), key=lambda k: (sort_name((old.get(k) or new[k]).label), k))
        return [((old.get(k) or new[k]).label, old[k].rate if k in old else None, new[k].rate if k in new else None)
                for k in keys]

    def position_pairs(self) -> list[tuple[str, Rate | None, Rate | None]]:
        old = {r.key: r for r in self.old.positions}
        new = {r.key: r for r in self.new.positions}
        return [((old.get(k) or new[k]).label, old[k].rate if k in old else None, new[k].rate if k in new else None)
                for k in sorted(set(old) | set(new), key=int)]


def compare(old: Group, new: Group, changes: Sequence[CardChange], deck_note: str,
            old_version: str | None = None, new_version: str | None = None) -> Comparison:
    return Comparison(old, new, list(changes), deck_note, old_version, new_version)


@dataclass
class Trend:
    """A declared choice's win rate per version (oldest first): (version label, rate)."""

    choice: str
    label: str
    series: list[tuple[str, list[tuple[int, Rate]]]]  # (value label, [(version index, rate)])
    versions: list[str]


def trends(groups: Sequence[tuple[str | None, Group]], info: GameInfo) -> list[Trend]:
    """Each declared choice's values over the versions (``groups``: oldest first)."""
    out = []
    labels = [version_label(v) for v, _ in groups]
    for cid, clabel in info.choices:
        series: dict[str, list[tuple[int, Rate]]] = {}
        for i, (_, g) in enumerate(groups):
            for row in g.choices.get(cid, []):
                series.setdefault(row.label, []).append((i, row.rate))
        if series:
            out.append(Trend(cid, clabel, sorted(series.items(), key=lambda kv: sort_name(kv[0])), labels))
    return out
