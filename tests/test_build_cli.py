"""`cardforge build` and `cardforge calibrate` from the command line: options, exit codes,
every problem listed, no partial PDF, the manifest, and every shipped game building."""

from __future__ import annotations

import json
import math
import shutil
import sys
from pathlib import Path

import pypdf
import pytest

from cardforge.data.loading import load_game_data
from cardforge.games import find_game, game_ids
from cardforge.layout.imposition import impose
from cardforge.settings import DEFAULT_PAPER, PAPERS_MM, default_printer_margin

from render_helpers import FIXTURE_DATA, FIXTURE_TEMPLATES, card_clips, operations, register_fixture_game


@pytest.fixture
def fixture_cli(cli, monkeypatch):
    """``run(*args, data=FIXTURE_DATA)``: `cardforge --data DATA build fixture_deck --templates …`."""
    register_fixture_game(monkeypatch)

    def run(*args, data: Path = FIXTURE_DATA):
        return cli("--data", data, "build", "fixture_deck", "--templates", FIXTURE_TEMPLATES, *args)

    return run


def copy_fixture(tmp_path: Path) -> Path:
    root = tmp_path / "data"
    shutil.copytree(FIXTURE_DATA, root)
    return root


def edit_cards(root: Path, old: str, new: str) -> None:
    path = root / "fixture_deck" / "cards.yaml"
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new), encoding="utf-8")


@pytest.mark.parametrize("args, message", [
    (["--paper", "b7"], "Invalid value for '--paper': unknown paper 'b7' (allowed: a4-letter, a4, letter, a3, tabloid, "
                        "legal, a5, or WxH in mm (e.g. 320x450))"),
    (["--paper", "20x30"], "Invalid value for '--paper': paper '20x30': each side must be between 50 and 1500 mm"),
    (["--duplex", "both"], "Invalid value for '--duplex'"),
    (["--bleed", "-1"], "Invalid value for '--bleed': a length must not be negative, got '-1'"),
    (["--bleed", "3 apples"], "expected a length such as '63mm'"),
    (["--back-offset", "1"], "expected two lengths 'X,Y' in mm, e.g. '0.8,-0.5', got '1'"),
    (["--back-offset", "50,0"], "a printer offset is a few mm at most"),
    (["--only", "decks,cards"], "unknown printable 'cards' (allowed: decks, boards, pads, aids"),
    (["--orientation", "sideways"], "Invalid value for '--orientation'"),
])
def test_bad_options_are_usage_errors(fixture_cli, args, message):
    r = fixture_cli(*args)
    assert r.code == 2
    assert message in r.err


def test_unknown_game_is_a_usage_error(cli, tmp_path):
    r = cli("build", "maphrr", "-o", tmp_path)
    assert r.code == 2 and "did you mean 'maphr'?" in r.err


def test_build_writes_the_decks_and_the_manifest(fixture_cli, tmp_path):
    r = fixture_cli("-o", tmp_path, "--only", "decks", "--paper", "a4")
    assert r.code == 0, r.err
    assert "paper: A4 paper, printer margin 5 mm\n" in r.out
    # the fixture's cards differ along their edges (a title band on top, another back per kind):
    # butted, a cut off the line would show a sliver of the neighbour. 12 cards take 2 sheets 3 × 3
    # with bleed between the rows (no room left for the label above and below) or 4 × 2 with every
    # card its own bleed: the latter
    assert (f"fixture_deck: {tmp_path.as_posix()}/fixture_deck/deck.pdf (4 pages, 12 cards): landscape, "
            "4 × 2 = 8 a sheet, each card its own bleed\n") in r.out
    manifest = json.loads((tmp_path / "fixture_deck" / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["game"] == "fixture_deck"
    files = {f["path"]: f for f in manifest["files"]}
    assert set(files) == {"deck.pdf", "deck-board.pdf", "instructions.pdf"}
    deck = files["deck.pdf"]
    assert (deck["kind"], deck["pages"], deck["cards"], deck["paper"]) == ("deck", 4, 12, "a4")
    import hashlib
    assert deck["sha256"] == hashlib.sha256((tmp_path / "fixture_deck" / deck["path"]).read_bytes()).hexdigest()
    assert r.err == ""  # no progress bar when stderr is not a terminal


def test_the_progress_bar_appears_after_a_second_on_a_terminal(monkeypatch):
    import io

    from cardforge.cli import build as build_cli

    terminal = io.StringIO()
    terminal.isatty = lambda: True  # click draws its bar on a terminal only
    monkeypatch.setattr(sys, "stderr", terminal)
    bar = build_cli.Progress(enabled=True)
    bar.start("maphr", 250)
    bar(6)
    assert terminal.getvalue() == ""  # under a second: nothing
    monkeypatch.setattr(build_cli.Progress, "DELAY", 0.0)
    bar(6)
    shown = terminal.getvalue()
    assert "maphr" in shown and "12/250" in shown and "0/250" not in shown and shown.startswith("\r")
    assert "[#" in shown  # 12 of 250 on 30 columns: one filled
    bar.start("maphr", None)  # a phase of unknown length: the count
    bar(3)
    assert terminal.getvalue()[len(shown):].split("\r")[-1].rstrip().endswith("3")
    bar.close()
    assert terminal.getvalue().endswith("\r\x1b[K\x1b[?25h")  # wiped, and the cursor back: no bar left
    end = len(terminal.getvalue())
    bar.close()
    assert len(terminal.getvalue()) == end  # closing twice writes nothing


def test_quiet_prints_nothing(fixture_cli, tmp_path):
    r = fixture_cli("-o", tmp_path, "--only", "decks", "-q")
    assert (r.code, r.out, r.err) == (0, "", "")


def test_letter_paper_and_options_reach_the_pdf(fixture_cli, tmp_path):
    r = fixture_cli("-o", tmp_path, "--only", "decks", "--paper", "letter", "--orientation", "portrait",
                    "--bleed", "2mm", "--gutter", "4")
    assert r.code == 0, r.err
    reader = pypdf.PdfReader(tmp_path / "fixture_deck" / "deck.pdf")
    w, h = (round(float(v) / 72 * 25.4, 1) for v in reader.pages[0].mediabox[2:])
    assert (w, h) == (215.9, 279.4)
    clips = card_clips(reader.pages[0])
    # letter portrait, bleed 2, gutter 4: cells 67 × 92; cols (199.9+4)/(67+4) → 2, rows (263.4+4)/96 → 2
    assert len(clips) == 4 and (clips[0].w, clips[0].h) == (67.0, 92.0)
    assert clips[1].x - (clips[0].x + clips[0].w) == pytest.approx(4)
    manifest = json.loads((tmp_path / "fixture_deck" / "manifest.json").read_text(encoding="utf-8"))
    assert {f["paper"] for f in manifest["files"]} == {"letter"}


def test_text_overflow_fails_listing_every_card_and_writes_no_pdf(fixture_cli, tmp_path):
    root = copy_fixture(tmp_path)
    long = "très long texte " * 400
    edit_cards(root, 'text: "Vaut 1 :coin:."', f'text: "{long}"')
    edit_cards(root, "text: Une carte plus grande, imprimée dans son propre fichier.", f"text: {long}")
    out = tmp_path / "out"
    good = fixture_cli("-o", out, "--only", "decks")  # an earlier good build, kept on failure
    assert good.code == 0
    before = (out / "fixture_deck" / "deck.pdf").read_bytes()
    r = fixture_cli("-o", out, "--only", "decks", data=root)
    assert r.code == 1
    lines = r.err.splitlines()
    assert lines[0] == "error: cannot build the deck of fixture_deck; no PDF written (2 problems):"
    assert "fixture_deck/cards.yaml:" in r.err
    assert "card 'jeton-or' (#4): layout 'card', box 'body_without_art': text does not fit (needs " in r.err
    assert "card 'grand-plateau' (#8): layout 'card', box 'body_without_art': text does not fit (needs " in r.err
    assert "at the 6 pt floor)" in r.err  # the shared body: rules text never under 6 pt
    assert lines[-1] == "build failed: 2 problems in fixture_deck"
    assert (out / "fixture_deck" / "deck.pdf").read_bytes() == before
    assert not list((out / "fixture_deck").glob("*.part"))
    assert (out / "fixture_deck" / "deck-board.pdf").stat().st_size > 0  # nothing of the group kept either


def test_template_errors_name_the_card_box_and_what_is_missing(fixture_cli, tmp_path):
    templates = tmp_path / "templates"
    shutil.copytree(FIXTURE_TEMPLATES, templates)
    layout = templates / "fixture_deck" / "layout.yaml"
    layout.write_text(layout.read_text(encoding="utf-8").replace("{{ card.cost }} :coin:", "{{ card.prix }} :coin:"),
                      encoding="utf-8")
    r = fixture_cli("-o", tmp_path / "out", "--only", "decks", "--templates", templates)
    assert r.code == 1
    assert ("card 'boule-de-feu' (#1): layout 'spell', box 'cost': 'Spell object' has no "
            "attribute 'prix' (StrictUndefined: every name must exist)") in r.err
    assert "card 'bouclier' (#2)" in r.err  # every card that fails, not just the first
    assert not (tmp_path / "out" / "fixture_deck").exists() or \
        not list((tmp_path / "out" / "fixture_deck").glob("*.pdf"))


def test_bad_markup_and_unknown_icons_from_templates(fixture_cli, tmp_path):
    templates = tmp_path / "templates"
    shutil.copytree(FIXTURE_TEMPLATES, templates)
    layout = templates / "fixture_deck" / "layout.yaml"
    layout.write_text(layout.read_text(encoding="utf-8").replace("{{ card.cost }} :coin:", "**{{ card.cost }} :piece:"),
                      encoding="utf-8")
    r = fixture_cli("-o", tmp_path / "out", "--only", "decks", "--templates", templates)
    assert r.code == 1
    assert "box 'cost': bad card-text markup: unknown icon ':piece:'" in r.err


def test_missing_art_warns_and_strict_fails(fixture_cli, tmp_path):
    root = copy_fixture(tmp_path)
    (root / "fixture_deck" / "art" / "flamme.png").unlink()
    r = fixture_cli("-o", tmp_path / "out", "--only", "decks", data=root)
    assert r.code == 0
    assert r.err.count("warning:") == 1  # one card, three copies: warned once
    assert "card 'boule-de-feu' (#1): layout 'spell', box 'art': art 'art/flamme.png': image not found" in r.err
    r = fixture_cli("-o", tmp_path / "strict", "--only", "decks", "--strict", data=root)
    assert r.code == 1 and "image not found" in r.err and "(--strict)" in r.err
    assert not (tmp_path / "strict" / "fixture_deck" / "deck.pdf").exists()


def test_a_layout_problem_is_located(fixture_cli, tmp_path):
    templates = tmp_path / "templates"
    shutil.copytree(FIXTURE_TEMPLATES, templates)
    layout = templates / "fixture_deck" / "layout.yaml"
    layout.write_text(layout.read_text(encoding="utf-8").replace("radius: 1.5mm", "radius: 1.5mm\n        rotation: 90"),
                      encoding="utf-8")
    r = fixture_cli("-o", tmp_path / "out", "--only", "decks", "--templates", templates)
    assert r.code == 1
    assert "fixture_deck/layout.yaml:15: layout 'spell': boxes.cost.rotation: unknown field (allowed: extends, type, x," in r.err
    assert "did you mean 'rotate'?" in r.err


def test_calibrate_writes_two_pages(cli, tmp_path):
    out = tmp_path / "cal.pdf"
    r = cli("calibrate", "-o", out, "--paper", "letter", "--duplex", "short-edge")
    assert r.code == 0, r.err
    reader = pypdf.PdfReader(out)
    assert len(reader.pages) == 2
    assert "short edge" in reader.pages[0].extract_text()
    r = cli("calibrate", "--duplex", "none")
    assert r.code == 2


# --- the shipped games ------------------------------------------------------------------------

@pytest.mark.slow
@pytest.mark.parametrize("game_id", game_ids())
@pytest.mark.slow
def test_every_shipped_game_builds_its_deck(cli, tmp_path, game_id):
    """Whatever the data holds today: the deck builds, the manifest counts match the data and
    the pages follow from the imposition (every card butted: --ignore-edges)."""
    r = cli("build", game_id, "-o", tmp_path, "--only", "decks", "-q", "--ignore-edges")
    assert r.code == 0, r.err
    game = find_game(game_id)
    data = load_game_data(game)
    manifest = json.loads((tmp_path / game_id / "manifest.json").read_text(encoding="utf-8"))
    decks = [f for f in manifest["files"] if f["kind"] == "deck"]
    assert sum(f["cards"] for f in decks) == sum(c.copies for c in data.cards)
    main = next(f for f in decks if f["path"] == "deck.pdf")
    size = (data.meta.card_size.width, data.meta.card_size.height)
    # (--ignore-edges lays plain grids out: no turned rows, columns or blocks)
    per_page = impose(PAPERS_MM[DEFAULT_PAPER], size, printer=default_printer_margin(DEFAULT_PAPER),
                      mixed=False).per_page
    assert main["pages"] == 2 * math.ceil(main["cards"] / per_page)
    reader = pypdf.PdfReader(tmp_path / game_id / main["path"])
    assert len(reader.pages) == main["pages"]


@pytest.mark.slow
def test_the_maphr_back_is_one_form_for_the_whole_deck(cli, tmp_path):
    r = cli("build", "maphr", "-o", tmp_path, "--only", "decks", "-q")
    assert r.code == 0, r.err
    reader = pypdf.PdfReader(tmp_path / "maphr" / "deck.pdf")
    back_forms = set()
    placed = 0
    for page in reader.pages[1::2]:
        for args, op in operations(page):
            if op == b"Do":
                back_forms.add(args[0])  # ReportLab names each form once per document
                placed += 1
    data = load_game_data(find_game("maphr"))
    assert placed == sum(c.copies for c in data.cards)
    assert len(back_forms) == len({c.back or (data.meta.kinds[c.kind].back or "default") for c in data.cards})


def test_build_help_and_the_layout_maths_import_no_pdf_library():
    """`cardforge build --help` stays instant; layout/ is pure maths (no ReportLab, no jinja2)."""
    import subprocess
    import sys

    code = ("import sys; from cardforge.cli import main; main(['build', '--help']); "
            "import cardforge.layout.geometry, cardforge.layout.boxes; "
            "print(sorted(m for m in ('reportlab', 'jinja2', 'PIL') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip().splitlines()[-1] == "[]"
