"""`build --playtest URL` (issue 44): the QR code printed on the score pad and setup sheets reads,
with a real decoder (zxing-cpp), as the server's address for this game and this build's deck —
the version and fingerprint of its build record (cards.json), as the playtest lab knows them."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pypdfium2
import pytest
import zxingcpp

from cardforge.lab.facts import deck_of_record
from cardforge.render.sheets.playtest import qr_matrix

URL = "https://plays.example.org/club"


def codes(pdf: Path) -> list[list[str]]:
    """The QR codes each page holds, decoded from the page rasterised at 144 dpi."""
    doc = pypdfium2.PdfDocument(str(pdf))
    try:
        return [[r.text for r in zxingcpp.read_barcodes(page.render(scale=2).to_pil())
                 if r.format == zxingcpp.BarcodeFormat.QRCode] for page in doc]
    finally:
        doc.close()


def page_texts(pdf: Path) -> list[str]:
    doc = pypdfium2.PdfDocument(str(pdf))
    try:
        return [page.get_textpage().get_text_range() for page in doc]
    finally:
        doc.close()


def sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.fixture
def new_game(cli, tmp_path) -> Path:
    folder = tmp_path / "mon-jeu"
    r = cli("new", folder, "--lang", "fr")
    assert r.code == 0, r.err
    return folder


def record_deck(folder: Path):
    record = json.loads((folder / "cards.json").read_text(encoding="utf-8"))
    return deck_of_record(record, "cards.json")


@pytest.mark.slow
def test_the_printed_code_reads_as_the_address_of_this_builds_deck(cli, new_game, tmp_path):
    out = tmp_path / "out"
    r = cli("build", new_game, "--only", "decks,pads,aids", "--playtest", URL, "-o", out)
    assert r.code == 0, r.err
    folder = out / "mon_jeu"
    deck = record_deck(folder)  # what the build recorded of its cards: the lab's fingerprint
    assert len(deck.fingerprint) == 8 and deck.version
    expected = f"{URL}/p/mon_jeu/{deck.version}/{deck.fingerprint}"
    assert codes(folder / "score-pad.pdf") == [[expected]]
    short = expected.removeprefix("https://")
    assert short in page_texts(folder / "score-pad.pdf")[0]
    assert f"v{deck.version} · {deck.fingerprint}" in page_texts(folder / "score-pad.pdf")[0]
    if (folder / "setup.pdf").exists():  # a setup sheet: every page carries it
        assert all(found == [expected] for found in codes(folder / "setup.pdf"))

    # the same input and address: the same bytes; another address: another code
    again = tmp_path / "again"
    assert cli("build", new_game, "--only", "decks,pads,aids", "--playtest", URL, "-o", again).code == 0
    assert sha(again / "mon_jeu" / "score-pad.pdf") == sha(folder / "score-pad.pdf")
    other = tmp_path / "other"
    assert cli("build", new_game, "--only", "pads", "--playtest", "http://192.168.1.20:8000", "-o", other).code == 0
    assert codes(other / "mon_jeu" / "score-pad.pdf") == [[f"http://192.168.1.20:8000/p/mon_jeu/{deck.version}/"
                                                           f"{deck.fingerprint}"]]
    plain = tmp_path / "plain"
    assert cli("build", new_game, "--only", "pads", "-o", plain).code == 0
    assert codes(plain / "mon_jeu" / "score-pad.pdf") == [[]]  # no address, no code

    # a card changed: another fingerprint in the code
    cards = new_game / "cards.yaml"
    cards.write_text(cards.read_text(encoding="utf-8").replace("copies: 2", "copies: 3", 1), encoding="utf-8")
    changed = tmp_path / "changed"
    assert cli("build", new_game, "--only", "decks,pads", "--playtest", URL, "-o", changed).code == 0
    moved = record_deck(changed / "mon_jeu")
    assert moved.fingerprint != deck.fingerprint
    assert codes(changed / "mon_jeu" / "score-pad.pdf") == [[f"{URL}/p/mon_jeu/{moved.version}/{moved.fingerprint}"]]


def test_cardforge_toml_gives_the_address_and_the_command_line_wins(cli, new_game, tmp_path):
    (new_game / "cardforge.toml").write_text(f'[build]\nplaytest = "{URL}"\n', encoding="utf-8")
    r = cli("build", new_game, "--only", "pads", "-o", tmp_path / "a")
    assert r.code == 0, r.err
    (found,) = codes(tmp_path / "a" / "mon_jeu" / "score-pad.pdf")[0]
    assert found.startswith(f"{URL}/p/mon_jeu/")
    r = cli("build", new_game, "--only", "pads", "--playtest", "https://elsewhere.example", "-o", tmp_path / "b")
    assert r.code == 0, r.err
    (found,) = codes(tmp_path / "b" / "mon_jeu" / "score-pad.pdf")[0]
    assert found.startswith("https://elsewhere.example/p/mon_jeu/")
    (new_game / "cardforge.toml").write_text('[build]\nplaytest = "plays.example.org"\n', encoding="utf-8")
    r = cli("build", new_game, "--only", "pads", "-o", tmp_path / "c")
    assert r.code == 1
    assert ("cardforge.toml: build.playtest: must be http(s)://host[:port][/path] without a query or fragment "
            "(e.g. https://plays.example.org), got 'plays.example.org'") in r.err
    assert not (tmp_path / "c" / "mon_jeu").exists()


@pytest.mark.parametrize(("url", "says"), [
    ("ftp://plays.example.org", "must be http(s)://host[:port][/path]"),
    ("https://plays.example.org/?a=1", "without a query or fragment"),
    ("https://plays.example.org/#x", "without a query or fragment"),
    ("https://" + "a" * 120 + ".org", "must be at most 120 characters, got 132"),
])
def test_a_bad_address_is_a_usage_error(cli, url, says, tmp_path):
    r = cli("build", "maphr", "--only", "pads", "--playtest", url, "-o", tmp_path)
    assert r.code == 2
    assert "--playtest" in r.err and says in r.err


def test_the_drawn_modules_are_segnos_matrix():
    """The drawing's source: error correction M, no quiet zone in the matrix, a version
    large enough for the address: 46 bytes, more than version 3-M holds (42), so version 4-M
    (62 bytes at most), 4 × 4 + 17 = 33 modules a side."""
    matrix = qr_matrix("https://plays.example.org/p/maphr/0.2/42802ac1")
    assert len(matrix) == 33 and all(len(row) == 33 for row in matrix)
    # the three finder patterns: a dark 7 × 7 ring around a 3 × 3 core
    for top, left in ((0, 0), (0, 26), (26, 0)):
        ring = [matrix[top + i][left + j] for i in range(7) for j in range(7) if i in (0, 6) or j in (0, 6)]
        assert all(ring)
        assert all(matrix[top + 2 + i][left + 2 + j] for i in range(3) for j in range(3))


@pytest.mark.slow
def test_every_setup_page_carries_the_code(cli, tmp_path):
    """Maphr's setup sheets (two pages of checklists by player count) each carry the code of the
    deck a play of the working data records (what `plays add` and the sheet record)."""
    from cardforge.cli.common import find_game, load_data
    from cardforge.lab.facts import deck_of_data

    deck = deck_of_data("maphr", load_data(find_game("maphr")))
    r = cli("build", "maphr", "--only", "aids", "--playtest", URL, "-o", tmp_path)
    assert r.code == 0, r.err
    found = codes(tmp_path / "maphr" / "setup.pdf")
    assert len(found) == 2 and all(page == [f"{URL}/p/maphr/{deck.version}/{deck.fingerprint}"] for page in found)
