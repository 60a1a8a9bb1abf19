"""Effects, not raw rates: what a card, a declared choice or a seat does to a player's chance of
winning once what else was on the table is accounted for, with its interval, the plays it rests
on, a correction for the many things tested, and — when the plays are too few to tell — how many
would be needed.

**The shared-win rule** (:func:`win_shares`, the one place it is decided; the lab's rates, the
web stats and the exports use it): a play's winners (after the tie-breakers) share its win, 1/k
each of k winners, so every play gives exactly one win and the fair share at n players is 1/n.

**The model**: a conditional logit, one stratum per play (a fixed effect per play): a play's win
goes to seat i with probability exp(xᵢ·β) / Σⱼ exp(xⱼ·β) over its seats. What is the same for
every seat of a play (the player count, the deck version, the day) cancels out, so the player
count is controlled for by construction; the model has, per seat, an indicator per card held,
per value of each declared choice and per turn position. A shared win enters as the outcome
1/k for each winner (the play split into k weighted copies with one winner each, the play still
weighing one): the same rule as the rates, and the estimating equations stay unbiased when ties
fall at random among the strongest. One joint fit, so a card is measured against seats of the
same table holding as many cards, with the same seats and choices. A block (the cards, a choice,
the positions) enters a play only when every seat of it has that fact recorded (otherwise the
block's columns are 0 for every seat of the play: it then says nothing of that block).

**What is reported** per card, choice value or position: its *contrast*, the log odds of winning
with it minus the mean over the family's measured levels (an average card, clan or position), so
that "holding one more card" is the family's mean and not every card's merit. Shown as the
change of the win probability at the log's typical table (1/n̄ → what that odds ratio gives),
with its 95 % Wald interval, the plain rate beside it for reading.

**Many comparisons**: every measured effect of a view (cards, choices, positions, version
differences) is tested against 0 (Wald), and the Benjamini–Hochberg procedure controls the false
discovery rate at :data:`FDR` over all of them: ``q`` is the BH-adjusted p, ``flagged`` is
q ≤ FDR, and the view says how many it tested.

**Too few plays**: before any fit, each level's Fisher information under "nothing matters" (the
within-play variance of its indicator, summed over plays) gives the standard error the data can
reach; a level whose :data:`TARGET` (10 points of win probability at the typical table) could not
be detected with 80 % power at the Bonferroni level α/m (which BH is never stricter than) is not
fitted nor ranked: it says "too few plays" and the plays it would need, scaled from the plays it
has. The information depends on who held what, never on who won, so this filter does not bias
the tests that remain.

numpy is imported here only, when a lab view is computed (never by build or score).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from collections.abc import Mapping

    import numpy as np

    from cardforge.lab.facts import SeatFacts

    class _Seat(Protocol):
        @property
        def seat(self) -> int: ...
        @property
        def winner(self) -> bool: ...
        @property
        def facts(self) -> SeatFacts | None: ...

    class Play(Protocol):
        """What the fit reads of a play (``lab.stats.Play`` is one; a protocol: stats imports this
        module, so this one does not import stats, not even for types)."""

        @property
        def seats(self) -> Sequence[_Seat]: ...
        @property
        def first_seat(self) -> int | None: ...
        @property
        def players(self) -> int: ...
        @property
        def winners(self) -> int: ...

    class GameInfo(Protocol):
        """What the fit reads of the game (``lab.stats.GameInfo`` is one)."""

        @property
        def card_fields(self) -> Mapping[str, object]: ...
        @property
        def choices(self) -> Sequence[tuple[str, str]]: ...
        def value_label(self, choice: str, value: Any) -> str: ...

#: the false discovery rate the flags control (Benjamini–Hochberg)
FDR = 0.05
#: the smallest effect a designer cares about: 10 points of win probability at the typical table
TARGET = 0.10
#: the power a view needs to rank a level: 80 % to detect TARGET
POWER = 0.80


def win_shares(winners: Sequence[bool]) -> list[float]:
    """Each seat's share of a play's win: 1/k for each of k winners, 0 for the others (no winner:
    every share 0). The lab's, the web stats' and the exports' one shared-win rule."""
    k = sum(1 for w in winners if w)
    return [1 / k if w else 0.0 for w in winners] if k else [0.0 for _ in winners]


def normal_sf(z: float) -> float:
    """P(Z > z) for a standard normal Z."""
    return 0.5 * math.erfc(z / math.sqrt(2))


def normal_quantile(p: float) -> float:
    from statistics import NormalDist

    return NormalDist().inv_cdf(p)


def bh(pvalues: Sequence[float]) -> list[float]:
    """Benjamini–Hochberg adjusted p-values (q), in the order given."""
    m = len(pvalues)
    order = sorted(range(m), key=lambda i: pvalues[i])
    q = [0.0] * m
    running = 1.0
    for rank in range(m, 0, -1):
        i = order[rank - 1]
        running = min(running, pvalues[i] * m / rank)
        q[i] = running
    return q


@dataclass
class Effect:
    """One card's, choice value's, position's (or a version difference's) effect on winning."""

    family: str  # "card", "choice:<id>", "seat", "change:<family>"
    key: str
    label: str
    seats: int  # seats with it, in plays that could measure it
    plays: int  # plays in which some seats had it and some not (what the estimate rests on)
    wins: float  # its seats' wins (shared wins 1/k)
    fair: float | None  # the fair share of its seats (mean of 1/n)
    estimate: float | None = None  # log odds ratio against the family's mean
    se: float | None = None
    p: float | None = None
    q: float | None = None
    flagged: bool = False
    needed: int | None = None  # too few: the plays that would detect TARGET
    base: float = 0.25  # the typical table's fair share (1/n̄), where points are shown
    old: Effect | None = None  # a version difference: the two sides
    new: Effect | None = None

    @property
    def tested(self) -> bool:
        return self.p is not None

    @property
    def rate(self) -> float | None:
        return self.wins / self.seats if self.seats else None

    @property
    def interval(self) -> tuple[float, float] | None:
        if self.estimate is None or self.se is None:
            return None
        return self.estimate - Z95 * self.se, self.estimate + Z95 * self.se

    def points(self, value: float | None) -> float | None:
        """A log odds ratio as the change of win probability (×100: points) at the typical table."""
        if value is None:
            return None
        if self.old is not None and self.new is not None:
            return None
        return 100 * (_prob(value, self.base) - self.base)

    @property
    def pts(self) -> float | None:
        """The effect in points of win probability at the typical table (a difference: new − old)."""
        if self.estimate is None:
            return None
        if self.old is not None and self.new is not None:
            return (self.new.pts or 0.0) - (self.old.pts or 0.0)
        return self.points(self.estimate)

    @property
    def pts_interval(self) -> tuple[float, float] | None:
        """The 95 % interval in points: the log odds interval mapped through the (monotone) points
        scale; a difference: the delta method on each side's points (independent versions)."""
        iv = self.interval
        if iv is None:
            return None
        if self.old is not None and self.new is not None:
            se = math.hypot(_slope(self.old), _slope(self.new))
            d = self.pts or 0.0
            return d - Z95 * se, d + Z95 * se
        return self.points(iv[0]) or 0.0, self.points(iv[1]) or 0.0

    @property
    def status(self) -> str:
        if self.needed is not None:
            return "too few plays"
        if self.flagged:
            if self.old is not None:
                return "rose" if (self.estimate or 0) > 0 else "fell"
            return "stronger" if (self.estimate or 0) > 0 else "weaker"
        return "no clear effect" if self.tested else ""


Z95 = 1.959963984540054


def _slope(e: Effect) -> float:
    """The standard error of an effect in points (delta method: d p / d log odds = p (1 − p))."""
    p = _prob(e.estimate or 0.0, e.base)
    return 100 * p * (1 - p) * (e.se or 0.0)


def _prob(logodds: float, base: float) -> float:
    """The win probability of a seat whose odds are exp(logodds) × a fair seat's, at a table
    where the fair share is ``base`` (n = 1/base seats, the others fair)."""
    others = 1 / base - 1
    r = math.exp(max(-50.0, min(50.0, logodds)))
    return r / (r + others)


def target_logodds(base: float, target: float = TARGET) -> float:
    """The log odds ratio that moves a seat from the fair share ``base`` to ``base + target``."""
    p1 = min(0.999, base + target)
    return math.log(p1 * (1 / base - 1) / (1 - p1))


@dataclass
class Block:
    """A family of levels (cards, a choice's values, the positions) and, per seat, the levels it
    has (None: not recorded for that seat)."""

    family: str
    levels: dict[str, str]  # key → label, in the order shown
    seats: list[list[set[str] | None]]  # per play, per seat
    one_each: bool  # every seat has exactly one level (a choice, a position): a reference is dropped


@dataclass
class Fitted:
    """The effects of one group of plays (see the module's docstring)."""

    effects: list[Effect] = field(default_factory=list)
    plays: int = 0  # plays of 2 players or more with a winner
    base: float = 0.25
    note: str = ""

    def family(self, family: str) -> list[Effect]:
        return [e for e in self.effects if e.family == family]


def blocks_of(plays: Sequence[Play], info: GameInfo, card_names: dict[str, str]) -> list[Block]:
    """The families the lab measures: cards held, each declared choice, the turn positions."""
    out: list[Block] = []
    if info.card_fields:
        seats: list[list[set[str] | None]] = []
        for p in plays:
            seats.append([set(s.facts.held()) if s.facts is not None and s.facts.cards is not None else None
                          for s in p.seats])
        keys = sorted({k for ps in seats for held in ps if held for k in held},
                      key=lambda k: (_sort(str(card_names.get(k, k))), str(k)))
        out.append(Block("card", {k: card_names.get(k, k) for k in keys}, seats, False))
    from cardforge.lab.names import key_of as _key

    for cid, _ in info.choices:
        seats = []
        values: set[str] = set()
        for p in plays:
            row: list[set[str] | None] = []
            for s in p.seats:
                v = s.facts.choices.get(cid) if s.facts is not None else None
                row.append(None if v is None else {_key(v)})
                if v is not None:
                    values.add(_key(v))
            seats.append(row)
        order = sorted(values, key=lambda v: (_sort(info.value_label(cid, v)), v))
        out.append(Block(f"choice:{cid}", {v: info.value_label(cid, v) for v in order}, seats, True))
    seats = []
    positions: set[int] = set()
    for p in plays:
        if p.first_seat is None or not 0 <= p.first_seat < p.players:
            seats.append([None] * p.players)
            continue
        row = []
        for s in p.seats:
            pos = (s.seat - p.first_seat) % p.players + 1
            positions.add(pos)
            row.append({str(pos)})
        seats.append(row)
    from cardforge.lab.names import ordinal as _ordinal

    out.append(Block("seat", {str(k): f"{_ordinal(k)} player" for k in sorted(positions)}, seats, True))
    return out


def _sort(name: str) -> str:
    from cardforge.lab.names import sort_name

    return sort_name(name)


@dataclass
class _Design:
    """The seats of a group's plays, one row each, play after play."""

    starts: np.ndarray  # the first row of each play (and the end)
    sizes: np.ndarray  # each play's players
    y: np.ndarray  # each seat's share of its play's win
    fair: np.ndarray  # each seat's fair share, 1/n
    base: float
    delta: float  # the target, in log odds
    z_needed: float
    plays: int

    @property
    def n_seats(self) -> int:
        return int(self.starts[-1])


def fit_group(plays: Sequence[Play], info: GameInfo, card_names: dict[str, str], m_hint: int | None = None,
              target: float = TARGET) -> Fitted:
    """Every family's effects in ``plays`` (one group): gated by power, then one joint conditional
    logit over the levels with enough information. p-values are raw here; :func:`correct` sets q."""
    import numpy as np

    multi = [p for p in plays if p.players >= 2 and p.winners > 0]
    out = Fitted(plays=len(multi))
    if not multi:
        out.note = "no play of 2 players or more"
        return out
    base = sum(1 / p.players for p in multi) / len(multi)
    out.base = base
    blocks = blocks_of(multi, info, card_names)
    d = _design(multi, base, target, max(1, m_hint or sum(len(b.levels) for b in blocks)))
    columns: list[np.ndarray] = []
    col_of: list[tuple[int, str | None]] = []  # (block index, level key or None: pooled/unreported)
    measured: list[list[str]] = []
    per_block_effects: list[dict[str, Effect]] = []
    for bi, b in enumerate(blocks):
        effects, gated, cols = _block(b, d)
        per_block_effects.append(effects)
        measured.append(gated)
        for key, v in cols:
            columns.append(v)
            col_of.append((bi, key))
    if columns:
        beta, cov, ok = conditional_logit(np.column_stack(columns), d.y, d.starts)
        if not ok:
            out.note = "the fit did not converge: effects not shown"
        else:
            _contrasts(blocks, measured, per_block_effects, col_of, beta, cov)
    for effects in per_block_effects:
        out.effects += list(effects.values())
    return out


def _design(multi: Sequence[Play], base: float, target: float, m: int) -> _Design:
    """The seats' outcomes, and the z a level must reach to be detected among ``m`` tests."""
    import numpy as np

    starts = np.cumsum([0] + [p.players for p in multi])
    sizes = np.array([p.players for p in multi], dtype=float)
    y = np.zeros(int(starts[-1]))
    for i, p in enumerate(multi):
        y[starts[i]:starts[i + 1]] = win_shares([s.winner for s in p.seats])
    fair = np.repeat(1 / sizes, sizes.astype(int))
    z_needed = normal_quantile(1 - FDR / (2 * m)) + normal_quantile(POWER)
    return _Design(starts, sizes, y, fair, base, target_logodds(base, target), z_needed, len(multi))


def _block(b: Block, d: _Design) -> tuple[dict[str, Effect], list[str], list[tuple[str | None, np.ndarray]]]:
    """A block's effects, its levels with enough information (gated), and the columns it adds
    to the fit (level key, or None for the pooled others)."""
    import numpy as np

    M = _indicators(b, d)
    col = {key: c for c, key in enumerate(b.levels)}
    ind: dict[str, np.ndarray] = {key: M[:, c] for key, c in col.items()}
    effects: dict[str, Effect] = {}
    gated: list[str] = []
    ungated: list[str] = []
    for key, lab in b.levels.items():
        x = ind[key]
        info_, varying = _null_information(x, d.starts, d.sizes)
        has = x > 0
        e = Effect(b.family, key, lab, int(has.sum()), varying, float(d.y[has].sum()),
                   float(d.fair[has].mean()) if has.any() else None, base=d.base)
        if info_ > 0 and d.delta / math.sqrt(1 / info_) >= d.z_needed:
            gated.append(key)
        else:
            ungated.append(key)
            plays_in = varying or 1
            per_play = info_ / plays_in if info_ > 0 else 0.0
            e.needed = _needed(d.z_needed, d.delta, per_play, d.plays, varying)
        effects[key] = e
    if not gated:
        return effects, gated, []
    cols: list[tuple[str | None, np.ndarray]] = [(key, ind[key]) for key in gated]
    pooled = sum((ind[k] for k in ungated), np.zeros(d.n_seats)) if ungated else None
    # the levels sum to the same number at every seat of each play (a choice, a position —
    # or cards when everyone holds as many): that sum is constant within the play
    total = M.sum(axis=1)
    lo = d.starts[:-1]
    same = np.maximum.reduceat(total, lo) - np.minimum.reduceat(total, lo)
    if b.one_each or not same.any():
        # the levels sum to one at each seat: a constant within the play; drop one column
        # (the pooled levels if any, else the level with most seats) as the reference
        if pooled is None or not pooled.any():
            ref = max(gated, key=lambda k: (ind[k].sum(), k))
            cols = [(k, v) for k, v in cols if k != ref]
        pooled = None
    if pooled is not None and pooled.any():
        cols.append((None, pooled))
    return effects, gated, cols


def _indicators(b: Block, d: _Design) -> np.ndarray:
    """One column per level of ``b``, 1 at the seats that have it, in the plays where every
    seat recorded the block."""
    import numpy as np

    starts = d.starts
    complete = np.zeros(d.n_seats, dtype=bool)
    for i, row in enumerate(b.seats):
        if all(s is not None for s in row):
            complete[starts[i]:starts[i + 1]] = True
    M = np.zeros((d.n_seats, len(b.levels)))
    col = {key: c for c, key in enumerate(b.levels)}
    for i, row in enumerate(b.seats):
        if not complete[starts[i]]:
            continue
        for j, s in enumerate(row):
            for key in s or ():
                M[starts[i] + j, col[key]] = 1.0
    return M


def _contrasts(blocks: Sequence[Block], measured: Sequence[list[str]], per_block_effects: Sequence[dict[str, Effect]],
               col_of: list[tuple[int, str | None]], beta: np.ndarray, cov: np.ndarray) -> None:
    """Each measured level's estimate, standard error and p: its contrast against the mean of
    its block's measured levels (a dropped reference: 0)."""
    import numpy as np

    index = {c: i for i, c in enumerate(col_of)}
    for bi, b in enumerate(blocks):
        gated = measured[bi]
        if not gated:
            continue
        k = len(gated)
        A = np.zeros((k, len(col_of)))
        for r, key in enumerate(gated):
            for key2 in gated:
                c = index.get((bi, key2))
                if c is None:
                    continue
                A[r, c] += (1.0 if key2 == key else 0.0) - 1.0 / k
        est = A @ beta
        var = np.einsum("ij,jk,ik->i", A, cov, A)
        for r, key in enumerate(gated):
            e = per_block_effects[bi][key]
            if k == 1 and (bi, None) not in index and b.one_each:
                continue  # a single measured level against nothing: no contrast
            e.estimate, e.se = float(est[r]), float(math.sqrt(max(var[r], 0.0)))
            e.p = 2 * normal_sf(abs(e.estimate) / e.se) if e.se > 0 else 1.0


def _needed(z_needed: float, delta: float, per_play: float, plays: int, varying: int) -> int:
    """The plays (of this group's mix) that would bring a level's information to detecting
    ``delta`` with the power asked."""
    if per_play <= 0:
        return 0  # never varies within a play: no number of such plays would tell
    informative = (z_needed / delta) ** 2 / per_play
    share = varying / plays if plays else 1.0
    return int(math.ceil(informative / share)) if share > 0 else 0


def _null_information(x: np.ndarray, starts: np.ndarray, sizes: np.ndarray) -> tuple[float, int]:
    """Fisher information about a level's coefficient when nothing matters (every seat 1/n):
    Σ over plays of the within-play variance of its indicator; and the plays where it varies."""
    import numpy as np

    s1 = np.add.reduceat(x, starts[:-1])
    s2 = np.add.reduceat(x * x, starts[:-1])
    var = s2 / sizes - (s1 / sizes) ** 2
    return float(var.sum()), int((var > 1e-12).sum())


def conditional_logit(X: np.ndarray, y: np.ndarray, starts: np.ndarray, max_iter: int = 60
                      ) -> tuple[np.ndarray, np.ndarray, bool]:
    """The maximum (pseudo-)likelihood of the conditional logit, one stratum per play (seats
    ``starts[i]:starts[i+1]``), outcome ``y`` (per play summing to 1: shares of the win), by
    Newton's method with step halving. (β, covariance = inverse information, converged)."""
    import numpy as np

    n, k = X.shape
    beta = np.zeros(k)
    lo = starts[:-1]
    play_of = np.repeat(np.arange(len(lo)), np.diff(starts))
    ysum = np.add.reduceat(y, lo)

    def loglik(b: np.ndarray) -> tuple[float, np.ndarray]:
        eta = np.einsum("ni,i->n", X, b)
        mx = np.maximum.reduceat(eta, lo)
        e = np.exp(eta - mx[play_of])
        s = np.add.reduceat(e, lo)
        logp = eta - mx[play_of] - np.log(s)[play_of]
        return float((y * logp).sum()), np.exp(logp)

    ll, prob = loglik(beta)
    info = np.eye(k)
    converged = False
    for _ in range(max_iter):
        w = prob * ysum[play_of]
        grad = np.einsum("ni,n->i", X, y - w)
        pm = np.add.reduceat(prob[:, None] * X, lo)  # per play: Σ p x
        info = _gram(X, w) - _gram(pm, ysum)
        try:
            step = np.linalg.solve(info, grad)
        except np.linalg.LinAlgError:
            return beta, np.full((k, k), np.nan), False
        t = 1.0
        while True:
            new = beta + t * step
            nll, nprob = loglik(new)
            if nll >= ll - 1e-12 or t < 1e-6:
                break
            t /= 2
        beta, prob, change = new, nprob, abs(nll - ll)
        ll = nll
        if float(np.max(np.abs(t * step))) < 1e-9 or change < 1e-12:
            converged = True
            break
    if not converged or not np.all(np.isfinite(beta)) or float(np.max(np.abs(beta), initial=0)) > 20:
        return beta, np.full((k, k), np.nan), False
    w = prob * ysum[play_of]
    pm = np.add.reduceat(prob[:, None] * X, lo)
    info = _gram(X, w) - _gram(pm, ysum)
    try:
        cov = np.linalg.inv(info)
    except np.linalg.LinAlgError:
        return beta, np.full((k, k), np.nan), False
    return beta, cov, True


def _gram(A: np.ndarray, w: np.ndarray) -> np.ndarray:
    """Aᵀ diag(w) A without BLAS (einsum): the same bytes on every machine, and no thread pool —
    BLAS's threads made one fit 18× slower on a busy two-core machine (7.3 s against 0.4 s)."""
    import numpy as np

    return np.einsum("ni,nj->ij", A * w[:, None], A)


def difference(family: str, old: Effect, new: Effect, z_needed: float, delta: float,
               old_plays: int, new_plays: int) -> Effect:
    """The change of an effect between two versions (new − old), its interval from the two
    independent fits; too few when the two sides cannot detect a change of TARGET."""
    e = Effect(f"change:{family}", new.key, new.label, new.seats, new.plays, new.wins, new.fair,
               base=new.base, old=old, new=new)
    if old.estimate is None or new.estimate is None or old.se is None or new.se is None:
        return e
    se = math.sqrt(old.se ** 2 + new.se ** 2)
    if delta / se < z_needed:
        # as many plays again on each side, scaled until the difference's standard error allows it
        factor = (z_needed * se / delta) ** 2
        e.needed = int(math.ceil(factor * max(old_plays, new_plays)))
        return e
    e.estimate, e.se = new.estimate - old.estimate, se
    e.p = 2 * normal_sf(abs(e.estimate) / se) if se > 0 else 1.0
    return e


def differences(old: Fitted, new: Fitted, target: float = TARGET) -> list[Effect]:
    """Each level measured in both versions: its change (new − old) with its interval, or too few."""
    pairs = [(e, n) for e in old.effects for n in new.effects if (e.family, e.key) == (n.family, n.key)]
    pairs = [(e, n) for e, n in pairs if e.needed is None and n.needed is None]
    if not pairs:
        return []
    z_needed = normal_quantile(1 - FDR / (2 * len(pairs))) + normal_quantile(POWER)
    delta = target_logodds(new.base, target)
    return [difference(n.family, e, n, z_needed, delta, old.plays, new.plays) for e, n in pairs]


def correct(effects: Sequence[Effect], fdr: float = FDR) -> int:
    """Benjamini–Hochberg over every tested effect: sets q and flagged; returns how many were tested."""
    tested = [e for e in effects if e.p is not None]
    qs = bh([e.p for e in tested if e.p is not None])
    for e, q in zip(tested, qs):
        e.q = q
        e.flagged = q <= fdr
    return len(tested)


def as_json(e: Effect) -> dict[str, Any]:
    """An effect as ``report --json`` lists it."""
    iv = e.interval
    piv = e.pts_interval
    out: dict[str, Any] = {
        "family": e.family, "key": e.key, "label": e.label, "seats": e.seats, "plays": e.plays,
        "wins": round(e.wins, 6), "rate": None if e.rate is None else round(e.rate, 6),
        "fair": None if e.fair is None else round(e.fair, 6),
        "estimate": _r(e.estimate), "interval": None if iv is None else [_r(iv[0]), _r(iv[1])],
        "points": _r(e.pts), "points_interval": None if piv is None else [_r(piv[0]), _r(piv[1])],
        "p": _r(e.p), "q": _r(e.q), "flagged": e.flagged, "status": e.status, "needed_plays": e.needed,
    }
    return out


def _r(value: float | None) -> float | None:
    return None if value is None else float(f"{value:.6g}")
