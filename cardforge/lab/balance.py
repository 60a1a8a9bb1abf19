"""Balance from the card data alone (``cardforge balance``): the cards' value against their
cost, one line per group, and the cards far off their group's line.

The model, for each group a game's ``balance:`` declares (its cards of ``kinds``, grouped by a
card field such as the level): **value = a + b × cost**, fitted by ordinary least squares.
A line because a cost is paid in one currency and a value counted in one (coins for victory
points): within a group the exchange rate is what a designer sets, and with the handful of
cards a group holds (often about ten) more parameters would fit the noise. A group whose
costs are all the same is fitted by its mean value.

Each card is judged against the **other** cards of its group (leave-one-out), so that a card
priced far off cannot drag the line to itself:

- its *expected* value is what the line fitted to the others gives for its cost, its
  *residual* its value minus that (statisticians' deleted residual);
- its *score* is that residual in units of the others' scatter about their own line (their
  residual standard deviation). Not divided by the line's own uncertainty at that cost: a
  card priced outside its group's range is the case to catch, and widening the band there
  would hide it.
- A group where every card is worth the same (every level-I card 1 point, say) has a flat
  line that says nothing of cost; there each card's **cost** is judged against the others'
  mean cost, in units of their standard deviation (a card much cheaper than its peers scores
  high).

A score beyond ``flag`` (3 by default) is **flagged**: positive, more value than its cost buys
(too cheap, or too strong); negative, too dear. The others must be one more than their line's
parameters (3 others for a line, 2 for a mean) for a card to be judged.

The curve drawn is each group's line through its cards that are not flagged.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from cardforge.lab.versions import version_key

if TYPE_CHECKING:
    from cardforge.data.gamespec import BalanceSpec
    from cardforge.data.loading import GameData
    from cardforge.data.models import CardBase
    from cardforge.games.base import Game


@dataclass
class Point:
    id: str
    name: str
    kind: str
    group: str
    cost: float
    value: float
    expected: float | None = None  # from the line through the group's other cards
    residual: float | None = None  # value − expected
    score: float | None = None  # how far off, in the others' spreads (None: too few cards to judge)
    flagged: bool = False
    threshold: float = 3.0
    expected_cost: float | None = None  # a group worth the same: the others' mean cost
    cost_gap: float | None = None  # its cost − that

    @property
    def direction(self) -> str:
        if not self.flagged or self.score is None:
            return ""
        return "too cheap for its value" if self.score > 0 else "too dear for its value"


@dataclass
class Line:
    group: str
    n: int
    intercept: float
    slope: float  # 0 for a group fitted by its mean
    model: str  # "line" or "mean"
    spread: float | None  # residual standard deviation of the drawn line
    low: float  # the group's costs, lowest and highest
    high: float
    note: str = ""
    basis: str = "value"  # what judged its cards: their value ("value") or, all worth the same, their cost

    def at(self, cost: float) -> float:
        return self.intercept + self.slope * cost


@dataclass
class Fit:
    id: str
    label: str
    cost: str  # as shown: "cost", "cost.red + 2 × cost.gold"
    value: str
    group: str | None
    flag: float
    lines: list[Line] = field(default_factory=list)
    points: list[Point] = field(default_factory=list)
    left_out: list[tuple[str, str, str]] = field(default_factory=list)  # (id, name, why)

    @property
    def flagged(self) -> list[Point]:
        return [p for p in self.by_score() if p.flagged]

    def by_score(self) -> list[Point]:
        """Every card, the most value for its cost first (flagged above the line), the least last."""
        def key(p: Point) -> tuple[float, float, str, str]:
            score = p.score if p.score is not None else 0.0
            return (-score, -(p.residual or 0.0), p.name.casefold(), p.id)

        return sorted(self.points, key=key)

    def line(self, group: str) -> Line | None:
        return next((ln for ln in self.lines if ln.group == group), None)


def _measure_text(weights: dict[str, float]) -> str:
    parts = []
    for path, w in weights.items():
        parts.append(path if w == 1 else f"{_num(w)} × {path}")
    return " + ".join(parts)


def _num(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


def _amount(card: CardBase, weights: dict[str, float]) -> float | None:
    from cardforge.games.declared import field_at

    total, seen = 0.0, False
    for path, w in weights.items():
        v = field_at(card, path)
        if v is None:
            continue
        if isinstance(v, bool) or not isinstance(v, int | float):
            return None
        total += w * v
        seen = True
    return total if seen else None


def fit_spec(bid: str, spec: BalanceSpec, data: GameData[CardBase]) -> Fit:
    from cardforge.games.declared import field_at

    cost_w, value_w = spec.fields("cost"), spec.fields("value")
    out = Fit(bid, spec.label or bid.replace("_", " ").capitalize(), _measure_text(cost_w), _measure_text(value_w),
              spec.group, spec.flag)
    groups: dict[str, list[Point]] = {}
    for card in data.cards:
        if spec.kinds and card.kind not in spec.kinds:
            continue
        cost, value = _amount(card, cost_w), _amount(card, value_w)
        if cost is None or value is None:
            why = "no cost" if cost is None else "no value"
            out.left_out.append((card.id, card.name, why))
            continue
        group = field_at(card, spec.group) if spec.group else None
        if spec.group and group is None:
            out.left_out.append((card.id, card.name, f"no {spec.group}"))
            continue
        name = f"{spec.group.split('.')[-1]} {_group_text(group)}" if spec.group else "all"
        groups.setdefault(name, []).append(Point(card.id, card.name, card.kind, name, float(cost), float(value),
                                                 threshold=spec.flag))
    for name in sorted(groups, key=lambda g: version_key(g.split(" ", 1)[-1])):
        points = sorted(groups[name], key=lambda p: (p.cost, p.value, p.id))
        out.lines.append(_fit_group(name, points))
        out.points += points
    return out


def _group_text(value: Any) -> str:
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def _ols(xs: list[float], ys: list[float]) -> tuple[float, float, str]:
    """(intercept, slope, model) of the least-squares line; the mean when the x do not vary."""
    n = len(xs)
    mx, my = sum(xs) / n, sum(ys) / n
    sxx = sum((x - mx) ** 2 for x in xs)
    if n < 3 or sxx <= 1e-12 * max(1.0, mx * mx):
        return my, 0.0, "mean"
    slope = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sxx
    return my - slope * mx, slope, "line"


def _fit_group(name: str, points: list[Point]) -> Line:
    xs, ys = [p.cost for p in points], [p.value for p in points]
    n = len(points)
    flat = len(set(ys)) == 1
    if flat:
        judged = _judge_costs(points)
    else:
        judged = _judge_values(points)
    # the line drawn: through the cards not flagged
    kept = [p for p in points if not p.flagged] or points
    a, b, model = _ols([p.cost for p in kept], [p.value for p in kept])
    k = 2 if model == "line" else 1
    spread = None
    if len(kept) > k:
        spread = math.sqrt(sum((p.value - (a + b * p.cost)) ** 2 for p in kept) / (len(kept) - k))
    note = ""
    if flat:
        note = f"every card is worth {_num(ys[0])}: each cost is judged against the others' costs"
    if not judged:
        note = f"{n} card{'s' if n != 1 else ''}: too few to judge one against the others"
    return Line(name, n, a, b, model, spread, min(xs), max(xs), note, "cost" if flat else "value")


def _tiny(values: list[float]) -> float:
    return 1e-9 * max(1.0, max(abs(v) for v in values))


def _judge_values(points: list[Point]) -> bool:
    """Each card's value against the line fitted to the others (least squares), in units of the
    others' scatter about their line (its residual standard deviation). False when the group is
    too small to judge."""
    tiny = _tiny([p.value for p in points])
    judged = False
    for p in points:
        others = [q for q in points if q is not p]
        a, b, model = _ols([q.cost for q in others], [q.value for q in others])
        k = 2 if model == "line" else 1
        p.expected = a + b * p.cost
        p.residual = p.value - p.expected
        if abs(p.residual) <= tiny:
            p.residual, p.expected = 0.0, p.value
        if len(others) - k < 1:
            continue
        judged = True
        spread = math.sqrt(sum((q.value - a - b * q.cost) ** 2 for q in others) / (len(others) - k))
        p.score = _score(p.residual, spread, tiny)
        p.flagged = abs(p.score) > p.threshold
    return judged


def _judge_costs(points: list[Point]) -> bool:
    """A group where every card is worth the same: each card's cost against the others' mean
    cost, in units of their spread (a card much cheaper than its peers scores high)."""
    n = len(points)
    costs = [p.cost for p in points]
    tiny = _tiny(costs)
    judged = n >= 3
    total = sum(costs)
    for p in points:
        others = [c for q, c in zip(points, costs) if q is not p]
        mean = (total - p.cost) / (n - 1) if n > 1 else p.cost
        gap = p.cost - mean
        if abs(gap) <= tiny:
            gap = 0.0
        p.expected_cost, p.cost_gap = mean, gap
        p.expected, p.residual = p.value, 0.0
        if judged:
            spread = math.sqrt(sum((c - mean) ** 2 for c in others) / (len(others) - 1))
            p.score = _score(-gap, spread, tiny)
            p.flagged = abs(p.score) > p.threshold
    return judged


def _score(deviation: float, spread: float, tiny: float) -> float:
    if spread <= tiny:
        return 0.0 if deviation == 0 else math.copysign(math.inf, deviation)
    return deviation / spread


def fits(game: Game, data: GameData[CardBase]) -> list[Fit]:
    """Every fit ``balance:`` declares, in its order."""
    return [fit_spec(bid, spec, data) for bid, spec in game.spec.balance.items()]


def equation(line: Line, value: str, cost: str) -> str:
    """``vp = 0.14 × cost + 0.93`` (the mean: ``vp = 1``)."""
    if line.model == "mean" or abs(line.slope) < 1e-12:
        return f"{value} = {_round(line.intercept)}"
    sign = "+" if line.intercept >= 0 else "−"
    return f"{value} = {_round(line.slope, 3)} × {cost} {sign} {_round(abs(line.intercept))}"


def _round(value: float, digits: int = 2) -> str:
    text = f"{value:.{digits}f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text.replace("-", "−")


def fmt(value: float | None, digits: int = 2) -> str:
    """A number as shown in the tables (``∞`` for a card off a line the others fit exactly)."""
    if value is None:
        return "–"
    if math.isinf(value):
        return "+∞" if value > 0 else "−∞"
    return _round(value, digits)


def fmt_signed(value: float | None, digits: int = 2) -> str:
    if value is None:
        return "–"
    if math.isinf(value):
        return "+∞" if value > 0 else "−∞"
    text = _round(value, digits)
    return text if text.startswith("−") or text == "0" else "+" + text
