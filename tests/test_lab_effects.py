"""The lab's effects (issue 39): the shared-win rule, Benjamini–Hochberg and the conditional
logit checked by hand; then simulated logs (tests/lab_sim.py, fixed seeds) where (a) nothing was
planted, (b) one card was planted at +10 points of win probability, (c) only 60 plays exist."""

from __future__ import annotations

import math

import pytest
from lab_sim import Plant, card_names, info, planted_logodds, simulate

from cardforge.lab import effects
from cardforge.lab.facts import SeatFacts
from cardforge.lab.stats import Play, SeatResult


def test_a_shared_win_counts_one_over_k_for_each_winner():
    assert effects.win_shares([True, False, True]) == [0.5, 0.0, 0.5]
    assert effects.win_shares([False, True, False, False]) == [0.0, 1.0, 0.0, 0.0]
    assert effects.win_shares([True, True, True]) == [1 / 3] * 3
    assert effects.win_shares([False, False]) == [0.0, 0.0]  # no winner recorded: nobody's win


def test_benjamini_hochberg_by_hand():
    # p sorted: 0.01 (rank 1), 0.03 (2), 0.04 (3), 0.2 (4); p × 4 / rank: 0.04, 0.06, 0.0533, 0.2;
    # then the running minimum from the largest rank down: 0.2, 0.0533, 0.0533, 0.04
    q = effects.bh([0.01, 0.04, 0.03, 0.2])
    assert q == pytest.approx([0.04, 0.16 / 3, 0.16 / 3, 0.2])
    found = [effects.Effect("card", k, k, 10, 10, 1.0, 0.5) for k in "abcd"]
    for e, p in zip(found, [0.01, 0.04, 0.03, 0.2]):
        e.p = p
    assert effects.correct(found) == 4
    assert [e.flagged for e in found] == [True, False, False, False]  # only q = 0.04 ≤ 0.05


def _two_player(plays: int, holder_wins: int, shared: int = 0) -> list[Play]:
    """2-player plays where seat 0 holds card x and seat 1 card y; the holder of x wins
    ``holder_wins`` of them, the other seat the rest; ``shared`` more plays end in a shared win."""
    out = []
    for i in range(plays + shared):
        win0 = i < holder_wins or i >= plays
        win1 = not (i < holder_wins) or i >= plays
        seats = [SeatResult(0, "A", 1, 1, win0, {}, SeatFacts({}, {"improvements": {"c00": 1}})),
                 SeatResult(1, "B", 1, 1, win1, {}, SeatFacts({}, {"improvements": {"c01": 1}}))]
        out.append(Play(i + 1, "2026-01-01", None, None, None, "0.1", None, None, seats))
    return out


def test_the_conditional_logit_by_hand():
    """Two cards, each 2-player play has one of each: the model is P(x's holder wins) =
    e^θx / (e^θx + e^θy). The contrast of x against the mean of the two is (θx − θy) / 2, and
    with w wins of m: θx − θy = log(w / (m − w)), its variance 1/w + 1/(m − w) (the binomial
    logit). 20 of 30: log 2 / 2 = 0.34657, se √(1/20 + 1/10) / 2 = 0.19365.
    Two more plays with a shared win (½ each): the score equation 21 − 32 p = 0, p = 21/32,
    θx − θy = log(21/11), information 32 p (1 − p)."""
    f = effects.fit_group(_two_player(30, 20), info(), card_names(), target=0.45)
    x = next(e for e in f.effects if e.key == "c00")
    assert x.needed is None and x.estimate == pytest.approx(math.log(2) / 2, abs=1e-9)
    assert x.se == pytest.approx(math.sqrt(1 / 20 + 1 / 10) / 2, abs=1e-9)
    assert (x.seats, x.plays, x.wins, x.fair) == (30, 30, 20, 0.5)
    assert x.p == pytest.approx(2 * effects.normal_sf(math.log(2) / math.sqrt(0.15)), abs=1e-12)
    # the points at the typical table (2 players: 50 %): e^θ / (e^θ + 1) − ½ with θ = log(2)/2
    assert x.pts == pytest.approx(100 * (math.sqrt(2) / (math.sqrt(2) + 1) - 0.5), abs=1e-9)
    f = effects.fit_group(_two_player(30, 20, shared=2), info(), card_names(), target=0.45)
    x = next(e for e in f.effects if e.key == "c00")
    p = 21 / 32
    assert x.estimate == pytest.approx(math.log(21 / 11) / 2, abs=1e-9)
    assert x.se == pytest.approx(1 / math.sqrt(32 * p * (1 - p)) / 2, abs=1e-9)
    assert x.wins == 21  # 20 wins and two halves


def test_the_conditional_logit_against_statsmodels():
    """Without shared wins the fit is statsmodels' ConditionalLogit (exact conditional likelihood
    with one event per play): at our coefficients its score is zero, its log-likelihood at least
    that of its own optimiser (which stops ~1e-4 short), and its Hessian gives our standard errors."""
    import numpy as np
    import statsmodels.discrete.conditional_models as sm  # a test dependency (pyproject.toml [test])

    plays = simulate(400, 7, players=(3, 4), weights=(0.5, 0.5))
    plays = [p for p in plays if p.winners == 1]
    starts = np.cumsum([0] + [p.players for p in plays])
    clans = ["pic-ardent", "taillepierre", "grisfer"]  # irongradd the reference
    X = np.array([[1.0 * (s.facts.choices["clan"] == c) for c in clans] + [len(s.facts.held())]
                  for p in plays for s in p.seats])
    y = np.array([1.0 * s.winner for p in plays for s in p.seats])
    beta, cov, ok = effects.conditional_logit(X, y, starts)
    groups = np.repeat(np.arange(len(plays)), [p.players for p in plays])
    model = sm.ConditionalLogit(y, X, groups=groups)
    ref = model.fit(method="bfgs", gtol=1e-10, maxiter=1000, disp=False)
    assert ok
    assert np.abs(model.score(beta)).max() < 1e-8
    assert model.loglike(beta) >= model.loglike(ref.params)
    assert beta == pytest.approx(ref.params, abs=1e-3)
    assert np.sqrt(np.diag(cov)) == pytest.approx(np.sqrt(np.diag(np.linalg.inv(-model.hessian(beta)))), rel=1e-6)


def _flagged(plays):
    f = effects.fit_group(plays, info(), card_names())
    tested = effects.correct(f.effects)
    return f, tested, {(e.family, e.key) for e in f.effects if e.flagged}


@pytest.mark.slow
def test_a_nothing_planted_10000_plays_nothing_flagged():
    """Every card and clan equally strong, but more cards held wins more: the raw 'holders' rate'
    of every card is above its fair share, and no effect is flagged."""
    plays = simulate(10_000, 11)
    f, tested, flagged = _flagged(plays)
    assert tested == 48 and flagged == set()  # 40 cards, 4 clans, 4 seats, none too few
    cards = f.family("card")
    assert sum(1 for e in cards if e.rate is not None and e.fair is not None and e.rate > e.fair) >= 38
    assert all(e.q is not None and e.q > effects.FDR for e in f.effects)


@pytest.mark.slow
def test_b_one_card_planted_is_the_one_flagged():
    plays = simulate(10_000, 12, Plant(card="c07", logodds=planted_logodds()))
    f, tested, flagged = _flagged(plays)
    assert flagged == {("card", "c07")}
    c07 = next(e for e in f.effects if e.key == "c07")
    low, high = c07.pts_interval
    # planted at +10 points for a seat at the typical table; measured against the mean of the 40
    # cards (itself lifted by c07's 1/40), so about 9.75 is expected: 8.9 (7.4 to 10.5)
    assert c07.status == "stronger" and 0 < low < 9.75 < high


@pytest.mark.slow
def test_a_clan_winning_half_its_seats_is_flagged():
    """The issue's clan: 50 % of its seats against a fair 25 %, 3,000 four-player plays."""
    # odds ratio r with r / (r + 3) = 0.5 → r = 3
    plays = simulate(3_000, 13, Plant(clan="grisfer", logodds=math.log(3)), players=(4,), weights=(1,))
    f, _, flagged = _flagged(plays)
    assert ("choice:clan", "grisfer") in flagged
    g = next(e for e in f.effects if e.key == "grisfer")
    assert 0.45 < g.rate < 0.55 and g.fair == 0.25


def test_c_60_plays_say_too_few_with_the_plays_needed():
    f, tested, flagged = _flagged(simulate(60, 14))
    assert tested == 0 and flagged == set()
    assert all(e.status == "too few plays" and e.needed is not None and e.needed > 60 for e in f.effects)
    clans = f.family("choice:clan")
    # by hand for a clan: at most 4 clans, so a clan is in a play of n with probability n/4, and
    # the null information of a play where it is is (1/n)(1 − 1/n)
    assert all(200 < e.needed < 2000 for e in clans)


@pytest.mark.slow
def test_score_and_build_never_import_numpy(tmp_path):
    """numpy is the lab's alone: `cardforge score` and `cardforge build` run without it."""
    import subprocess
    import sys

    from conftest import ROOT

    final = ROOT / "card_data" / "maphr" / "examples" / "final.yaml"
    code = ("import sys; from cardforge.cli import main\n"
            "for args in (['score', 'maphr', %r], ['build', 'maphr', '--only', 'decks', '-o', %r, '-q']):\n"
            "    assert not main(args), args\n"
            "print(sorted(m for m in ('numpy', 'scipy', 'statsmodels') if m in sys.modules))") % (str(final),
                                                                                                 str(tmp_path))
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.strip().splitlines()[-1] == "[]"


@pytest.mark.slow
def test_report_json_lists_every_effect_tested(tmp_path):
    """The issue's clan (50 % of its seats against a fair 25 %) in a log of 2,000 four-player
    plays: `cardforge report --json` lists every effect with its estimate, interval, q and flag,
    and the number tested; the clan is flagged (before: "flagged": 0)."""
    from lab_sim import log_rows

    from cardforge.playlog.store import PlayLog

    from conftest import run_cli

    plays = simulate(2_000, 15, Plant(clan="grisfer", logodds=math.log(3)), players=(4,), weights=(1,))
    db = tmp_path / "plays.db"
    assert PlayLog(db).add_plays(log_rows(plays)) == (2_000, 0)
    r = run_cli("report", "maphr", "--db", db, "-o", tmp_path / "r.pdf", "--json")
    assert r.code == 0, r.err
    doc = r.json
    assert doc["effects_tested"] == sum(1 for e in doc["effects"] if e["q"] is not None) == 48
    clan = {e["key"]: e for e in doc["effects"] if e["family"] == "choice:clan"}
    planted = clan["runegarde"]  # lab_sim's "grisfer", as a Maphr clan
    assert planted["flagged"] is True and planted["status"] == "stronger"
    assert planted["interval"][0] > 0 and planted["points_interval"][0] > 0
    assert 0.45 < planted["rate"] < 0.55 and planted["fair"] == 0.25
    assert {e["family"] for e in doc["effects"]} == {"card", "choice:clan", "seat"}
    assert doc["flagged"] >= 1 and doc["effects_flagged"] == sum(e["flagged"] for e in doc["effects"])
    assert not [e for e in doc["effects"] if e["family"] == "card" and e["flagged"]]


@pytest.mark.slow
def test_a_difference_between_versions_comes_with_its_interval():
    """v0.1 fair, v0.2 with the clan planted: the change is new − old, its standard error
    √(se_old² + se_new²) (independent plays), and it is flagged as having risen; the cards, the
    same in both, do not move."""
    old = effects.fit_group(simulate(3_000, 16, players=(4,), weights=(1,)), info(), card_names())
    new = effects.fit_group(simulate(3_000, 17, Plant(clan="grisfer", logodds=math.log(3)), players=(4,),
                                     weights=(1,)), info(), card_names())
    found = effects.differences(old, new)
    tested = effects.correct(old.effects + new.effects + found)
    assert tested == len([e for e in old.effects + new.effects + found if e.p is not None])
    d = next(e for e in found if e.key == "grisfer")
    o, n = (next(e for e in f.effects if e.key == "grisfer") for f in (old, new))
    assert d.estimate == pytest.approx(n.estimate - o.estimate, abs=1e-12)
    assert d.se == pytest.approx(math.sqrt(o.se ** 2 + n.se ** 2), abs=1e-12)
    low, high = d.interval
    assert low == pytest.approx(d.estimate - effects.Z95 * d.se) and low > 0
    assert d.flagged and d.status == "rose"
    assert not [e for e in found if e.family == "card" and e.flagged]
