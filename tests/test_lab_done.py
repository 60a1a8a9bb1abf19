"""Issue 33, "Done when": a log of Maphr over two deck versions built through `cardforge plays add`
from the example end state (tests/lab_support.py); `cardforge report maphr` and the lab page show
each version's win rates per clan with counts and intervals, per-card rates for the improvements
and the card diff between the versions; `cardforge balance maphr` names the improvement made
too cheap; a data-only game made with `cardforge new` gets the same pages from its declarations.

By hand (lab_support: the clan of the seat holding mine B — the example's winner — wins):
  v0.2 (printed, 4 plays): Irongradd 2 of 4 (Wilson 15 %–85 %), Pic-Ardent 1 of 4 (5 %–70 %),
    Taillepierre 1 of 4; mine A's improvements (Étayage, the Bureau, the Comptoir) held by 4 of 12
    seats, their holders never won (0 of 4, 0 %–49 %); mine B's (the Bibliothèque…) 4 of 4 (51 %–100 %)
  v0.3 (3 plays): Pic-Ardent 3 of 3 (44 %–100 %), Irongradd and Taillepierre 0 of 3 (0 %–56 %);
    mine A 3 of 9 seats, 0 of 3; mine B 3 of 3
  the diff: Étayage cost 5 → 6, Trésor de Kadal cost 25 → 12 (never held in either)
"""

from __future__ import annotations

import io
import re
from html import unescape

import pytest
import yaml
from lab_support import V02, V03, clan_rates, maphr_two_versions, treasure_lab_game

from conftest import run_cli

pytestmark = pytest.mark.slow
pytest.importorskip("httpx2", reason="Starlette's TestClient needs httpx2 (pip install -e '.[test]')")


@pytest.fixture(scope="module")
def maphr_log(tmp_path_factory):
    return maphr_two_versions(tmp_path_factory.mktemp("lab"))


def _pdf_words(path_or_bytes) -> str:
    from pypdf import PdfReader

    source = io.BytesIO(path_or_bytes) if isinstance(path_or_bytes, bytes) else path_or_bytes
    return " ".join(" ".join(p.extract_text() for p in PdfReader(source).pages).split())


def _page_words(html: str) -> str:
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", html)).split())


def _table(html: str, table: str) -> list[list[str]]:
    m = re.search(rf'id="table-{re.escape(table)}">(.*?)</table>', html, re.S)
    assert m, table
    body = m.group(1).split("</thead>", 1)[1]
    return [[unescape(re.sub(r"<[^>]+>", "", c)).strip() for c in re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", row, re.S)]
            for row in re.findall(r"<tr[^>]*>(.*?)</tr>", body, re.S)]


EXPECTED = {
    "v0-2-choice-clan": [["Irongradd", "50 % · 2 of 4", "15 %–85 %", "33 %", "too few plays"],
                         ["Pic-Ardent", "25 % · 1 of 4", "5 %–70 %", "33 %", "too few plays"],
                         ["Taillepierre", "25 % · 1 of 4", "5 %–70 %", "33 %", "too few plays"]],
    "v0-3-choice-clan": [["Irongradd", "0 % · 0 of 3", "0 %–56 %", "33 %", "too few plays"],
                         ["Pic-Ardent", "100 % · 3 of 3", "44 %–100 %", "33 %", "too few plays"],
                         ["Taillepierre", "0 % · 0 of 3", "0 %–56 %", "33 %", "too few plays"]],
    "compare-cards": [
        ["Étayage", "cost: 5 → 6", "33 % · 4 of 12 → 33 % · 3 of 9", "0 % · 0 of 4 → 0 % · 0 of 3", "±0 pts"],
        ["Trésor de Kadal", "cost: 25 → 12", "0 % · 0 of 12 → 0 % · 0 of 9", "– → –", "–"]],
    "compare-choice-clan": [["Irongradd", "50 % · 2 of 4", "0 % · 0 of 3", "−50 pts"],
                            ["Pic-Ardent", "25 % · 1 of 4", "100 % · 3 of 3", "+75 pts"],
                            ["Taillepierre", "25 % · 1 of 4", "0 % · 0 of 3", "−25 pts"]],
}


def test_the_clan_rates_by_hand():
    assert clan_rates(V02) == {"irongradd": (2, 4), "pic-ardent": (1, 4), "taillepierre": (1, 4)}
    assert clan_rates(V03) == {"pic-ardent": (3, 3), "irongradd": (0, 3), "taillepierre": (0, 3)}


def test_report_and_page_show_the_versions_the_clans_the_cards_and_the_diff(maphr_log, tmp_path):
    from starlette.testclient import TestClient

    from cardforge.web.app import Settings, create_app

    db, data = maphr_log["db"], maphr_log["data"]
    out = tmp_path / "report.pdf"
    r = run_cli("--data", data, "report", "maphr", "--db", db, "-o", out)
    assert r.code == 0, r.err
    assert r.out.startswith(f"maphr: {out}, ") and "7 plays (v0.2: 4, v0.3: 3); compared v0.2 → v0.3; balance: 0 " \
                                                 "cards flagged; effects: 0 of 0 tested flagged" in r.out
    c = TestClient(create_app(Settings(db_path=db, data_root=data)), base_url="http://127.0.0.1:8000")
    page = c.get("/g/maphr/lab")
    assert page.status_code == 200
    for table, rows in EXPECTED.items():
        assert _table(page.text, table) == rows, table
    cards = {row[0]: row for row in _table(page.text, "v0-2-cards")}
    assert cards["Étayage"][:4] == ["Étayage", "33 % · 4 of 12", "0 % · 0 of 4", "0 %–49 %"]
    assert cards["Bibliothèque"][:4] == ["Bibliothèque", "33 % · 4 of 12", "100 % · 4 of 4", "51 %–100 %"]
    assert _table(page.text, "v0-3-cards")[0][:3] == ["Bibliothèque", "33 % · 3 of 9", "100 % · 3 of 3"]
    words = _page_words(page.text)
    assert "Never held (" in words and "Trésor de Kadal" in words
    pdf = _pdf_words(out)
    for rows in EXPECTED.values():
        for row in rows:
            for cell in row:
                assert cell in pdf and cell in words, cell
    for text in ("Les Mines de Maphr — playtest lab", "Compare v0.2 → v0.3", "v0.2 — 4 plays", "v0.3 — 3 plays",
                 "Summary", "Nothing survives the correction", "too few plays: about",
                 "Trésor de Kadal", "priced outside its group's costs", "check Trésor de Kadal's cost"):
        assert text in pdf and text in words, text
    # the page's PDF is the report: the same bytes
    assert c.get("/g/maphr/lab.pdf").content == out.read_bytes()
    # one version, and the last two compared by name
    one = c.get("/g/maphr/lab", params={"version": "0.3"})
    assert "v0-2-choice-clan" not in one.text and _table(one.text, "v0-3-choice-clan") == EXPECTED["v0-3-choice-clan"]
    bad = c.get("/g/maphr/lab", params={"version": "0.9..0.1"})
    assert bad.status_code == 422 and "the first version comes after the second" in bad.text


def test_balance_names_the_improvement_made_too_cheap(maphr_log):
    """Issue 39: first of the list and named, not flagged — its cost (12) lies outside its level's
    (22–28), where the others' line is extrapolated: t = 2.75, q = 0.67 over 40 cards
    (tests/test_lab_balance.py works it out)."""
    r = run_cli("--data", maphr_log["data"], "balance", "maphr")
    assert r.code == 0
    rows = [line for line in r.out.splitlines() if line.split()[1:2] == ["level"]]
    assert rows[0].split()[:2] == ["tresor-de-kadal", "level"] and rows[0].endswith("priced outside its group's costs")
    assert [line.split()[0] for line in rows if "⚑" in line] == []


def test_a_data_only_game_gets_the_same_pages(tmp_path):
    """The treasure game (`cardforge new`, then data only): a faction per player and a balance."""
    from starlette.testclient import TestClient

    from cardforge.web.app import Settings, create_app

    folder = treasure_lab_game(tmp_path / "tresors")
    base = yaml.safe_load((folder / "examples" / "final.yaml").read_text(encoding="utf-8"))
    db = tmp_path / "plays.db"
    factions = [("nord", "sud", "nord"), ("sud", "sud", "nord"), ("nord", "nord", "sud")]
    for i, chosen in enumerate(factions):
        state = {"players": [{**p, "faction": f} for p, f in zip(base["players"], chosen)]}
        path = tmp_path / f"p{i}.yaml"
        path.write_text(yaml.safe_dump(state, allow_unicode=True), encoding="utf-8")
        r = run_cli("plays", "add", folder, path, "--db", db, "--date", f"2026-03-0{i + 1}", "--first", "1")
        assert r.code == 0, r.err
    # Cléo (31) wins every play: her faction nord, nord, sud → nord 2 of 5 seats, sud 1 of 4
    c = TestClient(create_app(Settings(db_path=db, games=[folder])), base_url="http://127.0.0.1:8000")
    page = c.get("/g/tresors/lab")
    assert page.status_code == 200
    assert _table(page.text, "v0-1-choice-faction") == [
        ["nord", "40 % · 2 of 5", "12 %–77 %", "33 %", "too few plays"],
        ["sud", "25 % · 1 of 4", "5 %–70 %", "33 %", "too few plays"]]
    cards = {row[0]: row for row in _table(page.text, "v0-1-cards")}
    # Dragon rouge in every hand: 9 of 9 seats, its holders won 3 of 9; 5 points each
    assert cards["Dragon rouge"][:3] == ["Dragon rouge", "100 % · 9 of 9", "33 % · 3 of 9"]
    assert _table(page.text, "v0-1-cards-points")[0][0] == "Dragon rouge"
    assert _table(page.text, "v0-1-cards-points")[0][3] == "5"
    assert _table(page.text, "balance-cards")[0][0] in ("Dragon rouge", "Rubis", "Émeraude", "Saphir", "Perle",
                                                         "Dragon vert")
    words = _page_words(page.text)
    assert "Cartes: points against cout, one line per kind" in words
    out = tmp_path / "report.pdf"
    assert run_cli("report", folder, "--db", db, "-o", out).code == 0
    pdf = _pdf_words(out)
    assert "40 % · 2 of 5" in pdf and "Cartes: points against cout" in pdf
