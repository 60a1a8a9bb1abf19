"""Every path a game file names stays inside the game's folder; anything else is refused
before it is opened (relative climbing out, absolute, symlink out, device, FIFO)."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from cardforge.paths import PathRefused, path_problem, resolve_inside

from conftest import ROOT, run_cli


def test_resolve_inside_accepts_files_below(tmp_path):
    (tmp_path / "art").mkdir()
    assert resolve_inside(tmp_path, "art/x.png", "art") == (tmp_path / "art" / "x.png").resolve()
    assert resolve_inside(tmp_path, "art/../y.png", "art") == (tmp_path / "y.png").resolve()


@pytest.mark.parametrize("name, why", [
    ("../x.yaml", "climbs out of the game's folder (..)"),
    ("a/../../x.yaml", "climbs out of the game's folder (..)"),
    ("/etc/passwd", "absolute paths are not allowed"),
    ("/proc/self/environ", "absolute paths are not allowed"),
    ("C:\\Windows\\x", "absolute paths are not allowed"),
    ("~/secret.yaml", "absolute paths are not allowed"),
    ("", "must be a relative path"),
    ("a\0b", "cannot hold a NUL character"),
])
def test_refused_names(tmp_path, name, why):
    with pytest.raises(PathRefused) as err:
        resolve_inside(tmp_path, name, "card file", file="deck.yaml", field="card_files[0]")
    assert why in err.value.problem.message
    assert err.value.problem.file == "deck.yaml" and err.value.problem.field == "card_files[0]"


def test_symlink_out_refused_and_inside_accepted(tmp_path):
    outside = tmp_path / "outside.yaml"
    outside.write_text("x: 1", encoding="utf-8")
    game = tmp_path / "game"
    game.mkdir()
    (game / "link.yaml").symlink_to(outside)
    (game / "real.yaml").write_text("x: 1", encoding="utf-8")
    (game / "inner.yaml").symlink_to(game / "real.yaml")
    assert "leads outside the game's folder (through a symbolic link)" in path_problem(game, "link.yaml", "card file")[1].message
    assert path_problem(game, "inner.yaml", "card file")[1] is None
    (game / "sub").symlink_to(tmp_path)  # a linked folder
    assert path_problem(game, "sub/outside.yaml", "card file")[1] is not None


def test_other_allowed_roots(tmp_path):
    shipped = tmp_path / "shipped"
    shipped.mkdir()
    game = tmp_path / "game"
    game.mkdir()
    assert path_problem(game, "../shipped/a.png", "art", also=[shipped])[1] is None


@pytest.fixture
def tunhell_copy(tmp_path):
    data = tmp_path / "data"
    shutil.copytree(ROOT / "card_data" / "tunhell", data / "tunhell")
    return data


def set_card_files(data: Path, files: str) -> None:
    deck = data / "tunhell" / "deck.yaml"
    text = deck.read_text(encoding="utf-8")
    deck.write_text(text.replace("card_files: [nains.yaml, mine.yaml, fin-de-mine.yaml, trophees.yaml]",
                                 f"card_files: [nains.yaml, {files}]"), encoding="utf-8")


@pytest.mark.parametrize("name, why", [
    ("../../secret.yaml", "climbs out of the game's folder"),
    ("/etc/passwd", "absolute paths are not allowed"),
    ("/proc/self/environ", "absolute paths are not allowed"),
    ("/dev/zero", "absolute paths are not allowed"),
])
def test_check_refuses_card_files_outside(tunhell_copy, name, why):
    (tunhell_copy.parent / "secret.yaml").write_text("- {id: secret, kind: mine, name: SECRET, "
                                                     "provenance: rulebook}\n", encoding="utf-8")
    set_card_files(tunhell_copy, name)
    r = run_cli("--data", tunhell_copy, "check", "tunhell")
    assert r.code == 1
    assert f"deck.yaml:6: card_files[1]: card file '{name}': {why}" in r.err
    assert "SECRET" not in r.out + r.err and "Traceback" not in r.err


def test_check_refuses_symlinked_card_file(tunhell_copy):
    outside = tunhell_copy.parent / "secret.yaml"
    outside.write_text("- {id: secret, kind: mine, name: SECRET, provenance: rulebook}\n", encoding="utf-8")
    (tunhell_copy / "tunhell" / "more.yaml").symlink_to(outside)
    set_card_files(tunhell_copy, "more.yaml")
    r = run_cli("--data", tunhell_copy, "check", "tunhell")
    assert r.code == 1 and "card file 'more.yaml': leads outside the game's folder" in r.err


def test_check_refuses_device_and_fifo_inside(tunhell_copy):
    folder = tunhell_copy / "tunhell"
    (folder / "zero.yaml").symlink_to("/dev/zero")  # outside: refused as a path
    set_card_files(tunhell_copy, "zero.yaml")
    r = run_cli("--data", tunhell_copy, "check", "tunhell")
    assert r.code == 1 and "card file 'zero.yaml': leads outside" in r.err
    if hasattr(os, "mkfifo"):
        os.mkfifo(folder / "pipe.yaml")  # inside, but not a regular file: never opened for reading
        set_card_files(tunhell_copy, "pipe.yaml")
        deck = folder / "deck.yaml"
        deck.write_text(deck.read_text(encoding="utf-8").replace("zero.yaml", "pipe.yaml"), encoding="utf-8")
        r = run_cli("--data", tunhell_copy, "check", "tunhell")
        assert r.code == 1 and "pipe.yaml: cannot read a FIFO (named pipe): give a regular file" in r.err


def test_check_refuses_art_outside(tunhell_copy):
    mine = tunhell_copy / "tunhell" / "mine.yaml"
    text = mine.read_text(encoding="utf-8")
    mine.write_text(text.replace("    name: Terre\n", "    name: Terre\n    art: ../../x.png\n", 1), encoding="utf-8")
    deck = tunhell_copy / "tunhell" / "deck.yaml"
    deck.write_text(deck.read_text(encoding="utf-8").replace(
        'nain: {layout: dos, title: Nain, colour: "#8b5a2b"}',
        'nain: {layout: dos, title: Nain, colour: "#8b5a2b", art: /etc/passwd}'), encoding="utf-8")
    r = run_cli("--data", tunhell_copy, "check", "tunhell")
    assert r.code == 1
    assert "card 'terre': art: art '../../x.png': climbs out of the game's folder" in r.err
    assert "backs.nain.art: art '/etc/passwd': absolute paths are not allowed" in r.err


def test_template_symlink_out_not_followed(tmp_path):
    from cardforge.text.templating import TemplateError, Templates

    secret = tmp_path / "secret.txt"
    secret.write_text("SECRET", encoding="utf-8")
    folder = tmp_path / "tpl"
    folder.mkdir()
    (folder / "ok.j2").write_text("fine", encoding="utf-8")
    (folder / "evil.j2").symlink_to(secret)
    (folder / "inc.j2").write_text("{% include 'evil.j2' %}", encoding="utf-8")
    templates = Templates([folder])
    assert templates.file("ok.j2").render() == "fine"
    with pytest.raises(TemplateError, match="leads outside the template folder"):
        templates.file("evil.j2")
    from cardforge.text.templating import render
    with pytest.raises(TemplateError, match="leads outside the template folder"):
        render(templates.file("inc.j2"), {})


def test_layout_file_linked_outside_refused(tmp_path):
    from cardforge.layout.boxes import LayoutLibrary

    secret = tmp_path / "secret.yaml"
    secret.write_text("layouts: {card: {boxes: {x: {type: text, text: SECRET}}}}\n", encoding="utf-8")
    folder = tmp_path / "tpl" / "maphr"
    folder.mkdir(parents=True)
    (folder / "layout.yaml").symlink_to(secret)
    library = LayoutLibrary([folder])
    assert [p.message for p in library.problems] == [
        "layout file 'layout.yaml': leads outside the template folder (through a symbolic link): "
        "paths must stay inside it"]


def test_copies_limit_raised(tmp_path, monkeypatch):
    data = tmp_path / "data"
    shutil.copytree(ROOT / "card_data" / "tunhell", data / "tunhell")
    mine = data / "tunhell" / "mine.yaml"
    mine.write_text(mine.read_text(encoding="utf-8").replace("copies: 18", "copies: 1500"), encoding="utf-8")
    monkeypatch.setenv("CARDFORGE_LIMIT_COPIES", "2000")
    r = run_cli("--data", data, "check", "tunhell")
    assert "copies: must be" not in r.err  # the rulebook count check still speaks
    assert "the rulebook says 18, got 1500" in r.err
