"""The playtest lab's numbers, every one worked out by hand on a small fixed log, and the page and
the PDF report showing exactly those (issue 33, "Honest numbers").

The game: the treasure game `cardforge new` makes (tests/sheet_support.py) with a declared
choice, ``faction`` (nord or sud), its categories points (sum of the cards' points: the points
each card brings), couleurs (Colours) and dragons (Most dragons). Two deck versions:
v0.1 (printed) and v0.2, the working data: Rubis's points 3 → 4, Perle's copies 2 → 3, a new
card Diamant.

v0.1 — cards: Rubis 3, Émeraude 2, Saphir 4, Perle 1, Dragon rouge 5, Dragon vert 2 (points)
  P1 2026-01-01, first seat 1, 60 min: Ana nord 21 [14, 7, 0] r3 · Ben sud 24 [11, 7, 6] r2 ·
     Cléo nord 31 [14, 11, 6] r1 (wins)
     cards: Ana rubis emeraude saphir dragon-rouge; Ben rubis perle dragon-rouge dragon-vert;
     Cléo emeraude saphir perle dragon-rouge dragon-vert
  P2 2026-01-08, first seat 2, 45 min: Ana sud 20 [14, 6, 0] r1 (wins the tie-break) · Ben nord 20 [11, 3, 6] r2
     cards: Ana rubis emeraude saphir dragon-rouge; Ben rubis perle dragon-rouge dragon-vert
  P3 2026-01-15, no first player, no length, imported with its choices only (no cards):
     Ana nord 18 [10, 2, 6] r1 · Ben sud 18 [9, 3, 6] r1 (a shared win) · Cléo (faction not said) 10 [7, 3, 0] r3
v0.2 — cards: Rubis 4 (else as v0.1), Diamant 5 (never held)
  P4 2026-02-01, first seat 1, 30 min: Ana nord 25 [13, 6, 6] r1 · Dan sud 15 [5, 4, 6] r2
     cards: Ana rubis saphir dragon-rouge; Dan perle emeraude dragon-vert
  P5 2026-02-08, solo, 20 min: Ana nord 11 [8, 3, 0]
  P6 2026-02-15, first seat 3, no length: Ben nord 30 [14, 10, 6] r1 · Cléo sud 22 [12, 4, 6] r2 ·
     Dan sud 22 [16, 6, 0] r2 (shared rank)
     cards: Ben rubis saphir emeraude dragon-rouge; Cléo perle dragon-rouge dragon-vert;
     Dan perle saphir dragon-rouge

By hand (a win shared by k counts 1/k; fair share = mean of 1/players over the seats; Wilson 95 %
with z = 1.95996: p̃ = (p + z²/2n)/(1 + z²/n), half-width z·√(p(1−p)/n + z²/4n²)/(1 + z²/n)):

v0.1, 3 plays, 8 seats in plays of 2+:
  faction nord: P1 Ana 0, P1 Cléo 1, P2 Ben 0, P3 Ana ½ → 1.5 of 4 = 37.5 % → "38 %", Wilson
    0.0919–0.7806 → 9 %–78 %, fair (⅓ + ⅓ + ½ + ⅓)/4 = 0.375 → 38 %
  faction sud: P1 Ben 0, P2 Ana 1, P3 Ben ½ → 1.5 of 3 = 50 %, Wilson 0.1253–0.8747 → 13 %–87 %,
    fair (⅓ + ½ + ⅓)/3 = 0.3889 → 39 %; 1 seat without a faction (P3 Cléo)
  turn order (P1, P2): 1st P1 Ana 0, P2 Ben 0 → 0 of 2, 0 %–66 %, fair (⅓ + ½)/2 = 42 %;
    2nd P1 Ben 0, P2 Ana 1 → 1 of 2, 9 %–91 %, 42 %; 3rd P1 Cléo 1 → 1 of 1, 21 %–100 %, 33 %
  margin: P1 31 − 24 = 7, P2 20 − 20 = 0, P3 18 − 10 = 8 → mean 5, median 7, 0 to 8
  shares: winners (P1 Cléo, P2 Ana, P3 Ana, P3 Ben) points 47, colours 22, dragons 18 of 87
    → 54 %, 25 %, 21 %; everyone points 90, colours 42, dragons 30 of 162 → 56 %, 26 %, 19 %
  length: 60, 45 → mean 52.5, median 52.5, 45 to 60
  cards over 5 seats of 2 plays (P3 recorded none); winners' seats 2 (P1 Cléo, P2 Ana), others 3:
    Dragon rouge 5 of 5 held; holders won 2 of 5 (12 %–77 %), fair (3·⅓ + 2·½)/5 = 40 %;
      among winners 2 of 2, others 3 of 3; 5 points a holder
    Rubis 4 of 5 (80 %); won 1 of 4 (5 %–70 %), fair (⅓ + ⅓ + ½ + ½)/4 = 42 %; winners 1 of 2,
      others 3 of 3; 3 points
    Émeraude, Saphir 3 of 5; won 2 of 3 (21 %–94 %), fair (⅓ + ⅓ + ½)/3 = 39 %; winners 2 of 2,
      others 1 of 3; 2 and 4 points
    Perle, Dragon vert 3 of 5; won 1 of 3 (6 %–79 %), fair 39 %; winners 1 of 2, others 2 of 3; 1, 2 points
v0.2, 3 plays (1 solo: no rate), 5 seats:
  nord: P4 Ana 1, P6 Ben 1 → 2 of 2, 34 %–100 %, fair (½ + ⅓)/2 = 42 %
  sud: P4 Dan 0, P6 Cléo 0, P6 Dan 0 → 0 of 3, 0 %–56 %, fair 39 %
  turn order: 1st P4 Ana 1, P6 Dan 0 → 1 of 2; 2nd P4 Dan 0, P6 Ben 1 → 1 of 2; 3rd P6 Cléo 0 → 0 of 1
  margin: 25 − 15 = 10, 30 − 22 = 8 → mean 9, median 9, 8 to 10
  shares: winners points 27, colours 16, dragons 12 of 55 → 49 %, 29 %, 22 %;
    everyone 60, 30, 24 of 114 → 53 %, 26 %, 21 %
  length: 30, 20 → mean 25, 20 to 30
  cards (winners P4 Ana, P6 Ben): Dragon rouge 4 of 5, won 2 of 4 (15 %–85 %), fair (½ + 3·⅓)/4 = 38 %,
    winners 2 of 2, others 2 of 3; Rubis 2 of 5, won 2 of 2, 4 points (v0.2's); Diamant never held
compare v0.1 → v0.2: Rubis points 3 → 4, holders won 25 % → 100 % (+75 pts); Perle copies 2 → 3,
  33 % → 0 % (−33 pts); Diamant added; nord 38 % → 100 % (+62), sud 50 % → 0 % (−50)
"""

from __future__ import annotations

import io
import re
from html import unescape
from pathlib import Path

import pytest

pytest.importorskip("httpx2", reason="Starlette's TestClient needs httpx2 (pip install -e '.[test]')")

from lab_support import treasure_lab_game  # noqa: E402
from starlette.testclient import TestClient  # noqa: E402

from cardforge.data.loading import load_game_data  # noqa: E402
from cardforge.games import load_game_folder  # noqa: E402
from cardforge.lab.facts import Deck, deck_of_data, fingerprint  # noqa: E402
from cardforge.lab.stats import Rate, wilson  # noqa: E402
from cardforge.lab.view import build_view  # noqa: E402
from cardforge.playlog.store import Details, PlayLog  # noqa: E402
from cardforge.web.app import Settings, create_app  # noqa: E402

CATS = ["points", "couleurs", "dragons"]


def _game(tmp_path: Path):
    folder = treasure_lab_game(tmp_path / "tresors")
    spec = folder / "game.yaml"
    spec.write_text(spec.read_text(encoding="utf-8").replace('version: "0.1"', 'version: "0.2"'), encoding="utf-8")
    cards = folder / "cards.yaml"
    text = cards.read_text(encoding="utf-8")
    text = text.replace("{id: rubis, name: Rubis, points: 3,", "{id: rubis, name: Rubis, points: 4,")
    text = text.replace("{id: perle, name: Perle, points: 1, couleur: blanc, cout: 1, copies: 2}",
                        "{id: perle, name: Perle, points: 1, couleur: blanc, cout: 1, copies: 3}")
    text += "  - {id: diamant, name: Diamant, points: 5, couleur: blanc, cout: 5, copies: 1}\n"
    cards.write_text(text, encoding="utf-8")
    game = load_game_folder(folder)
    return game, load_game_data(game)


def _v01(game, data) -> Deck:
    """The printed v0.1 deck: Rubis 3 points, Perle 2 copies, no Diamant."""
    now = deck_of_data(game.id, data)
    cards = {cid: {**c, "data": dict(c["data"])} for cid, c in now.cards.items() if cid != "diamant"}
    cards["rubis"]["data"]["points"] = 3
    cards["perle"]["copies"] = 2
    return Deck(game.id, "0.1", fingerprint(cards, "0.1"), "printed printed-v0.1.json", cards)


def _play(log, game, deck, day, first, minutes, seats, winners, cards=True, source="cli"):
    """seats: (name, faction or None, total, rank, breakdown, cards)."""
    result = {"ok": True, "game": game.id, "categories": CATS,
              "players": [{"name": n, "total": t, "rank": r, "breakdown": dict(zip(CATS, b))}
                          for n, _, t, r, b, _ in seats], "winners": winners}
    facts = {"format": 1, "choices": [({"faction": f} if f else {}) for _, f, *_ in seats]}
    if cards:
        facts["cards"] = [{"cartes": dict.fromkeys(c, 1)} for *_, c in seats]
    log.add_play(game=game.id, title=game.title, mode=None, state_yaml="", result=result, source=source,
                 details=Details(day, minutes, first_seat=first), deck=deck, facts=facts)


def fixed_log(tmp_path: Path):
    game, data = _game(tmp_path)
    v01, v02 = _v01(game, data), deck_of_data(game.id, data)
    log = PlayLog(tmp_path / "plays.db")
    _play(log, game, v01, "2026-01-01", 0, 60, [
        ("Ana", "nord", 21, 3, [14, 7, 0], ["rubis", "emeraude", "saphir", "dragon-rouge"]),
        ("Ben", "sud", 24, 2, [11, 7, 6], ["rubis", "perle", "dragon-rouge", "dragon-vert"]),
        ("Cléo", "nord", 31, 1, [14, 11, 6], ["emeraude", "saphir", "perle", "dragon-rouge", "dragon-vert"])],
        ["Cléo"])
    _play(log, game, v01, "2026-01-08", 1, 45, [
        ("Ana", "sud", 20, 1, [14, 6, 0], ["rubis", "emeraude", "saphir", "dragon-rouge"]),
        ("Ben", "nord", 20, 2, [11, 3, 6], ["rubis", "perle", "dragon-rouge", "dragon-vert"])], ["Ana"])
    _play(log, game, v01, "2026-01-15", None, None, [
        ("Ana", "nord", 18, 1, [10, 2, 6], []), ("Ben", "sud", 18, 1, [9, 3, 6], []),
        ("Cléo", None, 10, 3, [7, 3, 0], [])], ["Ana", "Ben"], cards=False, source="import")
    _play(log, game, v02, "2026-02-01", 0, 30, [
        ("Ana", "nord", 25, 1, [13, 6, 6], ["rubis", "saphir", "dragon-rouge"]),
        ("Dan", "sud", 15, 2, [5, 4, 6], ["perle", "emeraude", "dragon-vert"])], ["Ana"])
    _play(log, game, v02, "2026-02-08", None, 20, [("Ana", "nord", 11, 1, [8, 3, 0], ["rubis"])], ["Ana"])
    _play(log, game, v02, "2026-02-15", 2, None, [
        ("Ben", "nord", 30, 1, [14, 10, 6], ["rubis", "saphir", "emeraude", "dragon-rouge"]),
        ("Cléo", "sud", 22, 2, [12, 4, 6], ["perle", "dragon-rouge", "dragon-vert"]),
        ("Dan", "sud", 22, 2, [16, 6, 0], ["perle", "saphir", "dragon-rouge"])], ["Ben"])
    return game, data, log, v01, v02


@pytest.fixture
def lab(tmp_path):
    return fixed_log(tmp_path)


def test_wilson_by_hand():
    # 1.5 of 4: p = 0.375, n = 4, z² = 3.8415: p̃ = (0.375 + 0.48019)/1.96037 = 0.43624,
    # half = 1.95996·√(0.05859 + 0.06002)/1.96037 = 0.34434 → 0.0919 to 0.7806
    lo, hi = wilson(1.5, 4)
    assert (round(lo, 4), round(hi, 4)) == (0.0919, 0.7806)
    assert Rate(1.5, 4, 0.375).text() == "38 % · 1.5 of 4"
    assert Rate(1.5, 4).interval_text() == "9 %–78 %"
    assert Rate(0, 0).text() == "–" and Rate(0, 0).interval is None


RATE_ROWS = {
    # (table id, rows as shown): the page's and the PDF's
    "v0-2-choice-faction": [["sud", "0 % · 0 of 3", "0 %–56 %", "39 %", "too few plays"],
                            ["nord", "100 % · 2 of 2", "34 %–100 %", "42 %", "too few plays"]],
    "v0-2-positions": [["1st player", "50 % · 1 of 2", "9 %–91 %", "42 %", "too few plays"],
                       ["2nd player", "50 % · 1 of 2", "9 %–91 %", "42 %", "too few plays"],
                       ["3rd player", "0 % · 0 of 1", "0 %–79 %", "33 %", "too few plays"]],
    "v0-2-shares": [["Points", "49 %", "53 %"], ["Colours", "29 %", "26 %"], ["Most dragons", "22 %", "21 %"]],
    "v0-2-cards": [
        ["Dragon rouge", "80 % · 4 of 5", "50 % · 2 of 4", "15 %–85 %", "38 %", "100 % · 2 of 2", "67 % · 2 of 3", "5",
         "too few plays"],
        ["Perle", "60 % · 3 of 5", "0 % · 0 of 3", "0 %–56 %", "39 %", "0 % · 0 of 2", "100 % · 3 of 3", "1",
         "too few plays"],
        ["Saphir", "60 % · 3 of 5", "67 % · 2 of 3", "21 %–94 %", "39 %", "100 % · 2 of 2", "33 % · 1 of 3", "4",
         "too few plays"],
        ["Dragon vert", "40 % · 2 of 5", "0 % · 0 of 2", "0 %–66 %", "42 %", "0 % · 0 of 2", "67 % · 2 of 3", "2",
         "too few plays"],
        ["Émeraude", "40 % · 2 of 5", "50 % · 1 of 2", "9 %–91 %", "42 %", "50 % · 1 of 2", "33 % · 1 of 3", "2",
         "too few plays"],
        ["Rubis", "40 % · 2 of 5", "100 % · 2 of 2", "34 %–100 %", "42 %", "100 % · 2 of 2", "0 % · 0 of 3", "4",
         "too few plays"]],
    "v0-1-choice-faction": [["nord", "38 % · 1.5 of 4", "9 %–78 %", "38 %", "too few plays"],
                            ["sud", "50 % · 1.5 of 3", "13 %–87 %", "39 %", "too few plays"]],
    "v0-1-positions": [["1st player", "0 % · 0 of 2", "0 %–66 %", "42 %", "too few plays"],
                       ["2nd player", "50 % · 1 of 2", "9 %–91 %", "42 %", "too few plays"],
                       ["3rd player", "100 % · 1 of 1", "21 %–100 %", "33 %", "too few plays"]],
    "v0-1-shares": [["Points", "54 %", "56 %"], ["Colours", "25 %", "26 %"], ["Most dragons", "21 %", "19 %"]],
    "v0-1-cards": [
        ["Dragon rouge", "100 % · 5 of 5", "40 % · 2 of 5", "12 %–77 %", "40 %", "100 % · 2 of 2", "100 % · 3 of 3",
         "5", "too few plays"],
        ["Rubis", "80 % · 4 of 5", "25 % · 1 of 4", "5 %–70 %", "42 %", "50 % · 1 of 2", "100 % · 3 of 3", "3",
         "too few plays"],
        ["Dragon vert", "60 % · 3 of 5", "33 % · 1 of 3", "6 %–79 %", "39 %", "50 % · 1 of 2", "67 % · 2 of 3", "2",
         "too few plays"],
        ["Émeraude", "60 % · 3 of 5", "67 % · 2 of 3", "21 %–94 %", "39 %", "100 % · 2 of 2", "33 % · 1 of 3", "2",
         "too few plays"],
        ["Perle", "60 % · 3 of 5", "33 % · 1 of 3", "6 %–79 %", "39 %", "50 % · 1 of 2", "67 % · 2 of 3", "1",
         "too few plays"],
        ["Saphir", "60 % · 3 of 5", "67 % · 2 of 3", "21 %–94 %", "39 %", "100 % · 2 of 2", "33 % · 1 of 3", "4",
         "too few plays"]],
    "compare-cards": [
        ["Perle", "copies 2 → 3", "60 % · 3 of 5 → 60 % · 3 of 5", "33 % · 1 of 3 → 0 % · 0 of 3", "−33 pts"],
        ["Rubis", "points: 3 → 4", "80 % · 4 of 5 → 40 % · 2 of 5", "25 % · 1 of 4 → 100 % · 2 of 2", "+75 pts"],
        ["Diamant", "added", "– → 0 % · 0 of 5", "– → –", "–"]],
    "compare-choice-faction": [["nord", "38 % · 1.5 of 4", "100 % · 2 of 2", "+62 pts"],
                               ["sud", "50 % · 1.5 of 3", "0 % · 0 of 3", "−50 pts"]],
    "compare-positions": [["1st player", "0 % · 0 of 2", "50 % · 1 of 2", "+50 pts"],
                          ["2nd player", "50 % · 1 of 2", "50 % · 1 of 2", "±0 pts"],
                          ["3rd player", "100 % · 1 of 1", "0 % · 0 of 1", "−100 pts"]],
}

# issue 39: the 9-column card table is two tables (full names, numbers unwrapped on A4 and a phone)
for _v in ("v0-2", "v0-1"):
    _rows = RATE_ROWS.pop(f"{_v}-cards")
    RATE_ROWS[f"{_v}-cards"] = [r[:5] + [r[8]] for r in _rows]
    RATE_ROWS[f"{_v}-cards-points"] = [[r[0], r[5], r[6], r[7]] for r in _rows]

TEXTS = [
    "6 of the 6 plays in the log (every version)",
    "2026-02-01 – 2026-02-15 · solo: 1, 2 players: 1, 3 players: 1 · 2 of 2 with the first player recorded",
    "Over 2 plays: mean 9, median 9, from 8 to 10",
    "2 plays with a length: mean 25 min, median 25 min, from 20 to 30 min.",
    "Never held (1): Diamant.",
    "2026-01-01 – 2026-01-15 · 2 players: 1, 3 players: 2 · 2 of 3 with the first player recorded",
    "1 seat did not say their faction (not counted).",
    "Over 3 plays: mean 5, median 7, from 0 to 8",
    "2 plays with a length: mean 52.5 min, median 52.5 min, from 45 to 60 min.",
    "over 5 seats of 2 plays",
    "Winner's margin: mean 5 (3 plays) → mean 9 (2 plays).",
]


def test_the_numbers_by_hand(lab):
    game, data, log, v01, v02 = lab
    view = build_view(game, data, log.lab_plays(game.id), log.decks(game.id))
    assert [(v.label, v.plays, v.decks) for v in view.versions] == [
        ("v0.1", 3, [(v01.fingerprint, "printed printed-v0.1.json", 3)]), ("v0.2", 3, [(v02.fingerprint, "data", 3)])]
    new, old = view.groups  # newest first
    assert (old.label, old.plays, old.solo, new.label, new.plays, new.solo) == ("v0.1", 3, 0, "v0.2", 3, 1)
    nord = {r.key: r.rate for r in old.choices["faction"]}["nord"]
    assert (nord.wins, nord.n, nord.expected) == (1.5, 4, 0.375)
    sud = {r.key: r.rate for r in old.choices["faction"]}["sud"]
    assert (sud.wins, sud.n, round(sud.expected, 6)) == (1.5, 3, round(7 / 18, 6))
    assert old.choice_missing == {"faction": 1} and new.choice_missing == {"faction": 0}
    assert old.margins == [7, 0, 8] and new.margins == [10, 8]
    assert old.durations == [60, 45] and new.durations == [30, 20]
    assert [(s.category, round(s.winners, 6), round(s.everyone, 6)) for s in old.shares] == [
        ("points", round(47 / 87, 6), round(90 / 162, 6)), ("couleurs", round(22 / 87, 6), round(42 / 162, 6)),
        ("dragons", round(18 / 87, 6), round(30 / 162, 6))]
    assert (old.seats_with_facts, old.plays_with_facts, new.seats_with_facts, new.plays_with_facts) == (5, 2, 5, 2)
    rubis = next(c for c in old.cards if c.id == "rubis")
    assert (rubis.held.wins, rubis.held.n, rubis.holders.wins, rubis.holders.n) == (4, 5, 1, 4)
    assert rubis.points == 12 and rubis.points_per_holder == 3  # 4 holders × 3 points (v0.1's)
    assert next(c for c in new.cards if c.id == "rubis").points == 8  # 2 holders × 4 (v0.2's)
    assert new.never == [("diamant", "Diamant")] and old.never == []
    c = view.comparison
    assert (c.old_version, c.new_version) == ("0.1", "0.2")
    assert [(ch.id, ch.status, ch.fields, ch.copies) for ch in c.changes] == [
        ("perle", "changed", [], (2, 3)), ("rubis", "changed", [("points", 3, 4)], None), ("diamant", "added", [], None)]
    assert c.deck_note == f"the decks compared: v0.1 · {v01.fingerprint} → v0.2 · {v02.fingerprint}"
    assert [(t.choice, [(name, [(i, r.text()) for i, r in pts]) for name, pts in t.series]) for t in view.trends] == [
        ("faction", [("nord", [(0, "38 % · 1.5 of 4"), (1, "100 % · 2 of 2")]),
                     ("sud", [(0, "50 % · 1.5 of 3"), (1, "0 % · 0 of 3")])])]


def _tables(html: str) -> dict[str, list[list[str]]]:
    out = {}
    for m in re.finditer(r'<table class="result stats lab" id="table-([^"]+)">(.*?)</table>', html, re.S):
        body = m.group(2).split("</thead>", 1)[1]
        rows = []
        for row in re.findall(r"<tr[^>]*>(.*?)</tr>", body, re.S):
            rows.append([unescape(re.sub(r"<[^>]+>", "", c)).strip() for c in re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", row,
                                                                                         re.S)])
        out[m.group(1)] = rows
    return out


def _pdf_text(data: bytes) -> str:
    from pypdf import PdfReader

    text = " ".join(page.extract_text() for page in PdfReader(io.BytesIO(data)).pages)
    return " ".join(text.split())


def test_the_page_and_the_pdf_show_exactly_those(lab, tmp_path, cli):
    game, data, log, _, _ = lab
    c = TestClient(create_app(Settings(db_path=log.path, games=[game.folder])), base_url="http://127.0.0.1:8000")
    page = c.get(f"/g/{game.id}/lab")
    assert page.status_code == 200
    tables = _tables(page.text)
    for table, rows in RATE_ROWS.items():
        assert tables[table] == rows, table
    text = " ".join(unescape(re.sub(r"<[^>]+>", " ", page.text)).split())
    for line in TEXTS:
        assert line in text, line
    # the charts carry the same numbers (SVG text)
    assert "38 % · 1.5 of 4" in page.text and "100 % · 2 of 2" in page.text
    # the PDF: the page's link, and `cardforge report` — the same bytes
    pdf = c.get(f"/g/{game.id}/lab.pdf")
    assert pdf.status_code == 200 and pdf.headers["content-type"] == "application/pdf"
    out = tmp_path / "report.pdf"
    r = cli("report", game.folder, "--db", log.path, "-o", out)
    assert r.code == 0, r.err
    assert out.read_bytes() == pdf.content
    r = cli("report", game.folder, "--db", log.path, "-o", tmp_path / "again.pdf")
    assert (tmp_path / "again.pdf").read_bytes() == pdf.content  # the same log: the same bytes
    words = _pdf_text(pdf.content)
    for rows in RATE_ROWS.values():
        for row in rows:
            for cell in row:
                assert " ".join(cell.split()) in words, cell
    for line in TEXTS:
        assert line in words, line


def test_a_lower_threshold_ranks_and_a_selection_narrows(lab):
    game, data, log, *_ = lab
    from cardforge.lab.versions import parse_selection

    view = build_view(game, data, log.lab_plays(game.id), log.decks(game.id), min_count=3)
    old = view.groups[1]
    enough, few = old.ranked(old.choices["faction"])
    # issue 39: a raw rate never ranks (the effects' table does, corrected): by name
    assert [r.label for r in enough] == ["nord", "sud"] and few == []
    assert [r.rate.flag() for r in old.choices["faction"]] == ["", ""]
    ranked, few_cards = old.ranked_cards()
    assert [c.id for c in ranked] == ["dragon-rouge", "dragon-vert", "emeraude", "perle", "rubis", "saphir"]
    assert few_cards == []
    since, _ = parse_selection("since 0.2")
    view = build_view(game, data, log.lab_plays(game.id), log.decks(game.id), since)
    assert [g.label for g in view.groups] == ["v0.2"] and view.comparison is None
    assert [v.selected for v in view.versions] == [False, True]
    pooled = build_view(game, data, log.lab_plays(game.id), log.decks(game.id), pool=True)
    (both,) = pooled.groups
    assert both.label == "v0.1 – v0.2 pooled" and both.plays == 6
    nord = {r.key: r.rate for r in both.choices["faction"]}["nord"]
    assert (nord.wins, nord.n) == (3.5, 6)  # 1.5 of 4, then 2 of 2


def test_the_web_sheet_records_the_deck_and_the_facts(tmp_path):
    """A play saved on `cardforge serve`'s sheet is tied to the served data's deck, with each seat's
    faction and cards; corrected in place, its facts follow (the deck stays the one it was played with)."""
    import json

    import yaml

    game, data = _game(tmp_path)
    c = TestClient(create_app(Settings(db_path=tmp_path / "plays.db", games=[game.folder])),
                   base_url="http://127.0.0.1:8000")
    assert c.get(f"/g/{game.id}/sheet?yaml=1").status_code == 200
    csrf = c.cookies.get("cf_csrf")
    state = {"players": [{"name": "Ana", "faction": "nord", "cartes": ["rubis", "diamant"]},
                         {"name": "Ben", "faction": "sud", "cartes": ["perle"]}]}
    r = c.post(f"/g/{game.id}/save", data={"csrf": csrf, "yaml": yaml.safe_dump(state)}, follow_redirects=False)
    assert r.status_code == 303, r.text
    number = int(r.headers["location"].rsplit("/", 1)[1])
    log = PlayLog(tmp_path / "plays.db")
    play = log.play(number)
    deck = deck_of_data(game.id, data)
    assert (play["deck_version"], play["deck_fp"], play["deck_source"]) == ("0.2", deck.fingerprint, "data")
    assert json.loads(play["facts_json"]) == {"format": 1, "choices": [{"faction": "nord"}, {"faction": "sud"}],
                                              "cards": [{"cartes": {"diamant": 1, "rubis": 1}},
                                                        {"cartes": {"perle": 1}}]}
    state["players"][1]["faction"] = "nord"
    r = c.post(f"/g/{game.id}/save", data={"csrf": csrf, "yaml": yaml.safe_dump(state), "edit_play": str(number)},
               follow_redirects=False)
    assert r.status_code == 303
    edited = log.play(number)
    assert json.loads(edited["facts_json"])["choices"] == [{"faction": "nord"}, {"faction": "nord"}]
    assert edited["deck_fp"] == deck.fingerprint and edited["version"] == 2
    assert c.get(f"/g/{game.id}/lab").status_code == 200
    assert c.get("/g/no-such-game/lab").status_code == 404


def test_serve_printed_scores_with_the_printed_deck_and_records_it(tmp_path):
    """`cardforge serve --printed GAME=RECORD`: the printed v0.1 is on the table while the data is
    at v0.2 (Rubis 3 → 4 points, Diamant added). The sheet scores with the printed cards (Ana's
    Rubis + Émeraude: 3 + 2 = 5 points, not 4 + 2), refuses Diamant (not in that deck), and the
    play records the printed deck; without --printed the same sheet gives 6 and the working deck."""
    import json

    import yaml

    from conftest import run_cli

    printed_folder = treasure_lab_game(tmp_path / "v01" / "tresors")
    r = run_cli("build", printed_folder, "--only", "decks", "-o", tmp_path / "out", "-q")
    assert r.code == 0, r.err
    record = tmp_path / "out" / "tresors" / "cards.json"
    game, data = _game(tmp_path)
    assert json.loads(record.read_text(encoding="utf-8"))["version"] == "0.1"
    state = {"players": [{"name": "Ana", "faction": "nord", "cartes": ["rubis", "emeraude"]},
                         {"name": "Ben", "faction": "sud", "cartes": ["perle"]}]}
    points = {}
    for label, printed in (("printed", {game.id: record}), ("working", {})):
        db = tmp_path / f"{label}.db"
        c = TestClient(create_app(Settings(db_path=db, games=[game.folder], printed=printed)),
                       base_url="http://127.0.0.1:8000")
        home = c.get(f"/g/{game.id}")
        assert home.status_code == 200
        csrf = c.cookies.get("cf_csrf")
        r = c.post(f"/g/{game.id}/save", data={"csrf": csrf, "yaml": yaml.safe_dump(state)}, follow_redirects=False)
        assert r.status_code == 303, r.text
        play = PlayLog(db).play(int(r.headers["location"].rsplit("/", 1)[1]))
        points[label] = [p["breakdown"]["points"] for p in play["result"]["players"]]
        if printed:
            assert "The deck played: printed tresors/cards.json, v0.1 · " in unescape(home.text)
            assert (play["deck_version"], play["deck_source"]) == ("0.1", "printed tresors/cards.json")
            assert play["deck_fp"] == PlayLog(db).decks(game.id)[play["deck_fp"]].fingerprint != \
                deck_of_data(game.id, data).fingerprint
            bad = {"players": [{**state["players"][0], "cartes": ["diamant"]}, state["players"][1]]}
            refused = c.post(f"/g/{game.id}/save", data={"csrf": csrf, "yaml": yaml.safe_dump(bad)})
            assert refused.status_code == 422 and "diamant" in unescape(refused.text)
        else:
            assert "The deck played: the working data, v0.2 · " in unescape(home.text)
            assert (play["deck_version"], play["deck_fp"]) == ("0.2", deck_of_data(game.id, data).fingerprint)
    assert points == {"printed": [5, 1], "working": [6, 1]}
    # the command line: a record that is not GAME=RECORD, or cannot be read, stops the server from starting
    r = run_cli("serve", "--printed", str(record), game.folder)
    assert r.code == 2 and "GAME=RECORD" in r.err
    r = run_cli("serve", "--printed", f"{game.folder}={tmp_path / 'nope.json'}", game.folder)
    assert r.code == 1 and "nope.json" in r.err and "no such file" in r.err
    r = run_cli("serve", "--printed", f"maphr={record}")
    assert r.code == 1 and "this record is of the game 'tresors', not 'maphr'" in r.err
