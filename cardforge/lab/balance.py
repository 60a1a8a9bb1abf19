"""Balance from the card data alone (``cardforge balance``): the cards' value against their
cost, one line per group, and the cards far off their group's line.

The model, for each group a game's ``balance:`` declares (its cards of ``kinds``, grouped by a
card field such as the level): **value = a + b × cost**, fitted by ordinary least squares.
A line because a cost is paid in one currency and a value counted in one (coins for victory
points): within a group the exchange rate is what a designer sets, and with the handful of
cards a group holds (often about ten) more parameters would fit the noise. A group whose
costs are all the same is fitted by its mean value.

Each card is judged against the **other** cards of its group (leave-one-out), so that a card
priced far off cannot drag the line to itself — the standard outlier test of regression:

- its *expected* value is what the line fitted to the others gives for its cost, its
  *residual* its value minus that (statisticians' deleted residual);
- its *score* is the **externally studentised residual**: that residual over its standard error,
  the others' scatter about their line widened by the line's own uncertainty at that cost
  (s₍ᵢ₎ √(1 + 1/m + (x − x̄)²/Sxx) for m others; √(1 + 1/m) for a mean), which follows Student's t
  with m − 2 (a mean: m − 1) degrees of freedom when the card is in line; its *p* is two-sided.
- A group where every card is worth the same (every level-I card 1 point, say) has a flat
  line that says nothing of cost; there each card's **cost** is judged the same way against the
  others' mean cost (a card much cheaper than its peers scores high).
- **Many cards, one question each**: the p of every judged card of a fit are corrected together
  (Benjamini–Hochberg, false discovery rate 5 %, ``q``). A card is **flagged** when q ≤ 5 % *and*
  |score| > ``flag`` (3 by default: big enough to matter). Positive: more value than its cost buys
  (too cheap, or too strong); negative: too dear.
- When the others lie exactly on their line (no scatter), a card off it has no finite score: its
  score is left empty, p = 0 and it is flagged; a card on it, p = 1. Never ±∞.
- A group too small to judge (a line needs 4 cards: 3 others and a degree of freedom; a mean 3)
  says so; its cards have no score. A card priced so far outside the others' costs that the
  line's uncertainty there exceeds their scatter ((x − x̄)²/Sxx + 1/m > 1) is judged by an
  extrapolation the interval widens: it is named "priced outside its group's costs".

Same data, same flags: the cards are ordered by (cost, value, id) before any sum.

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
    score: float | None = None  # externally studentised residual (None: too few cards, or an exact line)
    p: float | None = None  # two-sided, Student's t
    q: float | None = None  # Benjamini–Hochberg over the fit's judged cards
    outside: bool = False  # priced outside the others' costs: judged by extrapolation
    flagged: bool = False
    threshold: float = 3.0
    expected_cost: float | None = None  # a group worth the same: the others' mean cost
    cost_gap: float | None = None  # its cost − that

    @property
    def direction(self) -> str:
        if not self.flagged:
            return "priced outside its group's costs" if self.outside and self.score is not None else ""
        sign = self.score if self.score is not None else (self.residual or 0.0) - (self.cost_gap or 0.0)
        return "too cheap for its value" if sign > 0 else "too dear for its value"


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
            if p.score is None and p.flagged:  # off a line the others fit exactly: first or last
                score = 1e9 if p.direction.startswith("too cheap") else -1e9
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
    ordered = {name: sorted(groups[name], key=lambda p: (p.cost, p.value, p.id))
               for name in sorted(groups, key=lambda g: version_key(g.split(" ", 1)[-1]))}
    judged = flag_points(ordered)
    for name, points in ordered.items():
        out.points += points
        out.lines.append(_line(name, points, judged[name]))
    return out


def flag_points(groups: dict[str, list[Point]]) -> dict[str, bool]:
    """Judge every group's cards (sorted), then correct their p together (Benjamini–Hochberg) and
    flag; whether each group could be judged."""
    from cardforge.lab.effects import FDR, bh

    judged = {name: _judge_costs(points) if len({p.value for p in points}) == 1 else _judge_values(points)
              for name, points in groups.items()}
    tested = [p for points in groups.values() for p in points if p.p is not None]
    for p, q in zip(tested, bh([p.p for p in tested if p.p is not None])):
        p.q = q
        p.flagged = q <= FDR and (p.score is None or abs(p.score) > p.threshold)
    return judged


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


def _line(name: str, points: list[Point], judged: bool) -> Line:
    """The group's line as drawn: through its cards not flagged."""
    xs, ys = [p.cost for p in points], [p.value for p in points]
    n = len(points)
    flat = len(set(ys)) == 1
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
        note = f"{_cards(n)}: too few to judge one against the others (a line needs 4, a mean 3)"
    return Line(name, n, a, b, model, spread, min(xs), max(xs), note, "cost" if flat else "value")


def _cards(n: int) -> str:
    return f"{n} card{'s' if n != 1 else ''}"


def _t_p(t: float, df: int) -> float:
    """Two-sided p of Student's t with ``df`` degrees of freedom: I_x(df/2, 1/2) at
    x = df / (df + t²), the regularised incomplete beta (no scipy: its import alone cost seconds)."""
    if not math.isfinite(t):
        return 0.0
    return _betainc(df / 2, 0.5, df / (df + t * t))


def _betainc(a: float, b: float, x: float) -> float:
    """The regularised incomplete beta I_x(a, b), by its continued fraction (Lentz's method;
    Numerical Recipes' betai/betacf), to about 1e-14."""
    if x <= 0:
        return 0.0
    if x >= 1:
        return 1.0
    front = math.exp(math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x))
    if x > (a + 1) / (a + b + 2):
        return 1.0 - _betainc(b, a, 1 - x)
    tiny = 1e-300
    c, d = 1.0, 1.0 - (a + b) * x / (a + 1)
    d = 1 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 300):
        for num in (m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)),
                    -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1))):
            d = 1 + num * d
            d = 1 / (d if abs(d) > tiny else tiny)
            c = 1 + num / c
            c = c if abs(c) > tiny else tiny
            h *= d * c
        if abs(d * c - 1) < 1e-15:
            break
    return front * h / a


def _tiny(values: list[float]) -> float:
    return 1e-9 * max(1.0, max(abs(v) for v in values))


def _judge_values(points: list[Point]) -> bool:
    """Each card's value against the line fitted to the others (least squares): its externally
    studentised residual and p. False when the group is too small to judge."""
    tiny = _tiny([p.value for p in points])
    judged = False
    for p in points:
        others = [q for q in points if q is not p]
        xs = [q.cost for q in others]
        a, b, model = _ols(xs, [q.value for q in others])
        k = 2 if model == "line" else 1
        m = len(others)
        p.expected = a + b * p.cost
        p.residual = p.value - p.expected
        if abs(p.residual) <= tiny:
            p.residual, p.expected = 0.0, p.value
        if m - k < 1:
            continue
        judged = True
        spread = math.sqrt(sum((q.value - a - b * q.cost) ** 2 for q in others) / (m - k))
        widen = 1 + 1 / m
        if model == "line":
            mx = sum(xs) / m
            widen += (p.cost - mx) ** 2 / sum((x - mx) ** 2 for x in xs)
        # outside the others' costs, so far that the line's own uncertainty there is larger than
        # their scatter: the value it is judged against is an extrapolation
        p.outside = widen > 2 and not min(xs) <= p.cost <= max(xs)
        _test(p, p.residual, spread * math.sqrt(widen), m - k, tiny)
    return judged


def _judge_costs(points: list[Point]) -> bool:
    """A group where every card is worth the same: each card's cost against the others' mean
    cost (a card much cheaper than its peers scores high), studentised the same way."""
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
            m = len(others)
            spread = math.sqrt(sum((c - mean) ** 2 for c in others) / (m - 1))
            _test(p, -gap, spread * math.sqrt(1 + 1 / m), m - 1, tiny)
    return judged


def _test(p: Point, deviation: float, se: float, df: int, tiny: float) -> None:
    if se <= tiny:
        # the others fit exactly: no scatter to measure against; off it is certain, on it is not
        p.score = None
        p.p = 0.0 if abs(deviation) > tiny else 1.0
        return
    p.score = deviation / se
    p.p = _t_p(p.score, df)


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
        return _unbounded(value)
    return _round(value, digits)


def _unbounded(value: float) -> str:
    """An infinite number in words (issue 42: never "−∞" in a table; the scores themselves are
    never infinite, see the module's docstring)."""
    return "unbounded" if value > 0 else "−unbounded"


def score_text(p: Point) -> str:
    """A card's score as shown: ``+2.75``; off a line the others fit exactly: ``exact line``."""
    if p.score is None and p.p is not None:
        return "exact line" if p.p == 0 else "0"
    return fmt_signed(p.score)


def fmt_signed(value: float | None, digits: int = 2) -> str:
    if value is None:
        return "–"
    if math.isinf(value):
        return "+" + _unbounded(value) if value > 0 else _unbounded(value)
    text = _round(value, digits)
    return text if text.startswith("−") or text == "0" else "+" + text
