"""The stats of the play log, every number worked out by hand on a small fixed log, and the
pages that show them (issue 30, "Statistics worth looking at").

The log (TunHell's pad rows loot and rings; a play of Imperial Miners for the across-games view):
  P1 2026-01-01, first seat 0: Ana 10 (loot 8, rings 2) rank 1 · Ben 6 (6, 0) rank 2
  P2 2026-01-08, first seat 1: Ana 5 (5, 0) rank 2 · Ben 9 (7, 2) rank 1 · Cy 5 (5, 0) rank 2
  P3 2026-01-15:               Ana 7 (7, 0) rank 1 · Ben 7 (5, 2) rank 1 (a shared win)
  P4 2026-01-22, solo:         Ana 4 (4, 0)
  P5 2026-02-03, Imperial Miners: Ana 39 (31, 8) rank 1 · Cy 33 (30, 3) rank 2
"""

from __future__ import annotations

import re
from html import unescape

import pytest

pytest.importorskip("httpx2", reason="Starlette's TestClient needs httpx2 (pip install -e '.[test]')")

from starlette.testclient import TestClient  # noqa: E402

from cardforge.playlog import stats  # noqa: E402
from cardforge.playlog.store import Details, PlayLog  # noqa: E402
from cardforge.web.app import Settings, create_app  # noqa: E402


def _result(game: str, cats: list[str], seats: list[tuple[str, float, int, list[float]]]) -> dict:
    return {"ok": True, "game": game, "categories": cats,
            "players": [{"name": n, "total": t, "rank": r, "breakdown": dict(zip(cats, b))} for n, t, r, b in seats],
            "winners": [n for n, _, r, _ in seats if r == 1]}


@pytest.fixture
def log(log_db) -> PlayLog:
    """On SQLite and on PostgreSQL (tests/pg_support.py)."""
    log = PlayLog(log_db)
    t = ["loot", "rings"]
    plays = [
        ("2026-01-01", 0, [("Ana", 10, 1, [8, 2]), ("Ben", 6, 2, [6, 0])]),
        ("2026-01-08", 1, [("Ana", 5, 2, [5, 0]), ("Ben", 9, 1, [7, 2]), ("Cy", 5, 2, [5, 0])]),
        ("2026-01-15", None, [("Ana", 7, 1, [7, 0]), ("Ben", 7, 1, [5, 2])]),
        ("2026-01-22", None, [("Ana", 4, 1, [4, 0])]),
    ]
    for day, first, seats in plays:
        log.add_play(game="tunhell", title="TunHell", mode="full", state_yaml="", result=_result("tunhell", t, seats),
                     details=Details(day, first_seat=first), source="import")
    log.add_play(game="imperial_miners", title="Imperial Miners", mode=None, state_yaml="",
                 result=_result("imperial_miners", ["vp_tokens", "carts"],
                                [("Ana", 39, 1, [31, 8]), ("Cy", 33, 2, [30, 3])]),
                 details=Details("2026-02-03"), source="import")
    return log


def roster(log: PlayLog) -> dict:
    return {p["id"]: p for p in log.players()}


def test_one_game_s_numbers(log):
    g = stats.game_stats("tunhell", "TunHell", log.records("tunhell"), roster(log), {"loot": "Butin", "rings": "Anneaux"})
    assert (g.plays, g.solo_plays) == (4, 1)
    by = {p.name: p for p in g.players}
    assert [p.name for p in g.players] == ["Ana", "Ben", "Cy"]  # most plays first
    # win rate: wins ÷ plays of 2 players or more; P3's shared win counts ½ to each (the lab's
    # rule, lab.effects.win_shares); the solo play apart. Ana: P1 1 + P3 ½ = 1.5 of 3 = 50 %
    assert (by["Ana"].plays, by["Ana"].wins, by["Ana"].solo) == (3, 1.5, 1)
    assert (by["Ben"].plays, by["Ben"].wins, by["Cy"].plays, by["Cy"].wins) == (3, 1.5, 1, 0)
    assert by["Ana"].rate.text() == "50 % · 1.5 of 3" and by["Cy"].rate.text() == "0 % · 0 of 1"
    # averages and bests of this game's scores (the solo play's too): Ana (10 + 5 + 7 + 4) / 4
    assert (by["Ana"].average, by["Ana"].best) == (6.5, 10)
    assert by["Ben"].average == pytest.approx(22 / 3)
    assert (by["Ana"].category_average("loot"), by["Ana"].category_average("rings")) == (6, 0.5)
    # each category over every seat: loot 47 / 8, rings 6 / 8
    assert g.categories == [("loot", "Butin", 5.875), ("rings", "Anneaux", 0.75)]
    # the distribution of the 8 scores 10, 6, 5, 9, 5, 7, 7, 4 in bins of 1 from 4 to 10
    assert g.bins == [(4, 5, 1), (5, 6, 2), (6, 7, 1), (7, 8, 2), (8, 9, 0), (9, 10, 1), (10, 11, 1)]
    # turn order over P1 and P2 (first seat recorded): P2's first is Ben (seat 1), so Cy is 2nd, Ana 3rd
    assert g.plays_with_first == 2
    assert [(p.position, p.seats, p.wins) for p in g.positions] == [(1, 2, 2), (2, 2, 0), (3, 1, 0)]
    # head to head: Ana–Ben P1 Ana, P2 Ben, P3 tie; Ana–Cy P2 tie; Ben–Cy P2 Ben
    assert [(x.a, x.b, x.plays, x.a_ahead, x.b_ahead, x.ties) for x in g.pairs] == [
        ("Ana", "Ben", 3, 1, 1, 1), ("Ana", "Cy", 1, 0, 0, 1), ("Ben", "Cy", 1, 1, 0, 0)]
    # the trend: each player's scores in date order (play index 0–3)
    assert dict(g.trend) == {"Ana": [(0, 10), (1, 5), (2, 7), (3, 4)], "Ben": [(0, 6), (1, 9), (2, 7)], "Cy": [(1, 5)]}


def test_across_games_nothing_mixes_the_scales(log):
    """Before: the all-games average mixed TunHell's and Imperial Miners' totals (Ana 13 here:
    (10 + 5 + 7 + 4 + 39) / 5). Now: plays, wins, the win rate and the share of opponents
    beaten — in P1 Ana beat 1 of 1, in P2 none of 2 and tied 1 (0.5 / 2), in P3 tied her one
    opponent (0.5), in P5 beat 1 of 1: (1 + 0.25 + 0.5 + 1) / 4 = 0.6875."""
    o = stats.overview(log.records(), roster(log))
    by = {p.name: p for p in o.players}
    assert [p.name for p in o.players] == ["Ana", "Ben", "Cy"]
    assert (by["Ana"].plays, by["Ana"].wins, by["Ana"].solo) == (4, 2.5, 1)  # P3's shared win: ½
    assert by["Ana"].beaten_average == 0.6875
    assert by["Ben"].beaten_average == 0.5  # (0 + 1 + 0.5) / 3
    assert by["Cy"].beaten_average == 0.125  # (0.25 + 0) / 2
    assert by["Ana"].average is None and by["Ana"].categories == {}  # no total across games
    assert o.games == [("tunhell", "TunHell", 4), ("imperial_miners", "Imperial Miners", 1)]
    assert o.months == [("2026-01", 4), ("2026-02", 1)]


def test_one_player_across_games(log):
    ana = log.player_by_name("Ana")["id"]
    p = stats.player_games(ana, log.records(), roster(log))
    assert [(title, line.plays, line.wins, line.solo, line.average) for _, title, line in p.by_game] == [
        ("Imperial Miners", 1, 1, 0, 39), ("TunHell", 3, 1.5, 1, 6.5)]
    assert [(i, share) for i, share, _ in p.beaten_over_time] == [(0, 1.0), (1, 0.25), (2, 0.5), (3, 1.0)]


def test_percentages_round_halves_up():
    assert [stats.percent(v) for v in (3 / 8, 5 / 8, 2 / 3, 0.0, 1.0, None)] == ["38 %", "63 %", "67 %", "0 %",
                                                                                  "100 %", "–"]


def test_wilson_interval():
    lo, hi = stats.wilson(2, 3)  # worked by hand: centre 0.57308, half-width 0.36543
    assert (round(lo, 4), round(hi, 4)) == (0.2077, 0.9385)
    assert stats.wilson(0, 0) is None
    assert stats.wilson(5, 5)[1] == 1.0


def test_deleted_plays_count_nowhere(log):
    log.delete_play(1)
    g = stats.game_stats("tunhell", "TunHell", log.records("tunhell"), roster(log))
    # P2 Ben, P3 shared (½ each)
    assert {p.name: (p.plays, p.wins) for p in g.players} == {"Ana": (2, 0.5), "Ben": (2, 1.5), "Cy": (1, 0)}


# --- the pages ------------------------------------------------------------------------------------

def client(log: PlayLog) -> TestClient:
    return TestClient(create_app(Settings(db_path=log.spec)), base_url="http://127.0.0.1:8000",
                      raise_server_exceptions=False)


def test_the_game_page_shows_rates_with_counts_and_charts(log):
    c = client(log)
    page = c.get("/stats?game=tunhell").text
    text = unescape(page)
    assert "4 plays (1 solo) · 3 players · scores 4 to 10" in text
    assert re.search(r"<th><a href=\"/players/\d+\">Ana</a></th><td>3 \+ 1 solo</td><td>1.5</td><td>50 % "
                     r"<span class=\"muted\">\(1.5/3\)</span>", text)
    charts = re.findall(r'<figure class="chart" id="chart-([\w-]+)">(.*?)</figure>', page, re.S)
    assert [cid for cid, _ in charts] == ["win-rate", "totals", "categories", "positions", "trend"]
    win_rate = unescape(charts[0][1])
    assert "<title>Win rate</title>" in win_rate and "50 % · 1.5 of 3" in win_rate and "0 % · 0 of 1" in win_rate
    assert "Butin" in unescape(charts[2][1])  # the categories by their pad labels
    for _, svg in charts:
        assert "style=" not in svg and " id=" not in svg  # the page's security policy; several charts a page
    assert "<th>Ana – Ben</th><td>3</td><td>1 – 1</td><td>1</td>" in text  # head to head
    assert "<th>1st player</th><td>2</td><td>2</td><td>100 %</td>" in text
    assert c.get("/stats?game=nope").status_code == 404


def test_the_all_games_page(log):
    text = unescape(client(log).get("/stats").text)
    assert "5 plays of 2 games" in text
    assert re.search(r">Ana</a></th><td>4 \+ 1 solo</td><td>2.5</td><td>63 % <span class=\"muted\">\(2.5/4\)</span>"
                     r"</td><td>69 %</td><td>2</td>", text)
    assert 'id="chart-beaten"' in text and 'id="chart-months"' in text
    table = text.split('id="players-table"')[1].split("</table>")[0]
    assert "<th>Beaten</th>" in table and "Average" not in table  # no total averaged across games
    assert re.search(r">Cy</a></th><td>2</td><td>0</td><td>0 % <span class=\"muted\">\(0/2\)</span></td><td>13 %</td>",
                     table)  # 0.125, rounded half up


def test_the_player_page(log):
    ana = log.player_by_name("Ana")["id"]
    text = unescape(client(log).get(f"/players/{ana}").text)
    assert "4 plays with others, 1 solo · 2.5 wins (63 % · 2.5 of 4) · opponents beaten 69 %" in text
    assert 'id="chart-by-game"' in text and 'id="chart-beaten"' in text
