"""One resolver, one precedence (cardforge/games/__init__.py, find_game): a path always wins, then
the current directory's folder of that name, then an installed plug-in, then a shipped game — and
the renderers work on the game found, never looking its id up again (issue 41: `cardforge new
tunhell` then `cardforge preview ./tunhell` drew the shipped game's layouts)."""

from __future__ import annotations

import io
import shutil
import sys

import pypdf
import pytest

from cardforge import games
from cardforge.data.loading import load_game_data
from cardforge.errors import UnknownGameError
from cardforge.games import find_game, game_ids
from cardforge.render.cards.faces import deck_faces, faces_pdf

from conftest import FIXTURES

MARK = "Édité à la main"


def _pdf_text(data: bytes) -> str:
    return "\n".join(page.extract_text() for page in pypdf.PdfReader(io.BytesIO(data)).pages)


@pytest.fixture
def designer_tunhell(cli, tmp_path, monkeypatch):
    """`cardforge new tunhell` in an empty working directory, its card text box edited."""
    monkeypatch.chdir(tmp_path)
    r = cli("new", "tunhell")
    assert r.code == 0, r.err
    layout = tmp_path / "tunhell" / "templates" / "layout.yaml"
    text = layout.read_text(encoding="utf-8")
    assert text.count('text: "{{ card.effect }}"') == 1
    layout.write_text(text.replace('text: "{{ card.effect }}"', f'text: "{MARK} — {{{{ card.effect }}}}"'),
                      encoding="utf-8")
    return tmp_path / "tunhell"


def test_a_folder_in_the_current_directory_wins_over_the_shipped_game(designer_tunhell):
    for name in ("tunhell", "./tunhell", str(designer_tunhell)):
        game = find_game(name)
        assert game.id == "tunhell" and game.origin == "folder"
        assert game.folder == designer_tunhell.resolve()
        assert game.title == "Tunhell"  # the scaffold's title, from the folder's name


def test_the_preview_draws_the_folder_s_own_templates(designer_tunhell, cli, tmp_path):
    r = cli("preview", "./tunhell", "-o", tmp_path / "sheet.png", "--dpi", "36")
    assert r.code == 0, r.err
    assert "tunhell: 3 cards" in r.out
    # the faces preview draws (the same call), as a PDF: the edited text box is on every front
    game = find_game("./tunhell")
    faces = deck_faces(game, load_game_data(game), 0.0)
    assert [f.name for f in faces.fronts] == ["merchant", "scout", "architect"]
    text = _pdf_text(faces_pdf(faces, faces.fronts))
    assert text.count(MARK) == 3 and "Gain" in text and "Draw a" in text


def test_the_build_by_name_prints_the_folder_s_templates(designer_tunhell, cli, tmp_path):
    r = cli("build", "tunhell", "-o", tmp_path / "out", "--only", "decks", "-q")
    assert r.code == 0, r.err
    text = _pdf_text((tmp_path / "out" / "tunhell" / "deck.pdf").read_bytes())
    assert text.count(MARK) == 10  # 4 merchants, 4 scouts, 2 architects
    assert "Nain" not in text  # nothing of the shipped TunHell


def test_without_the_folder_the_name_is_the_shipped_game(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    game = find_game("tunhell")
    assert game.origin == "shipped" and game.folder.name == "tunhell" and game.folder.parent.name == "card_data"


def test_a_path_wins_over_an_id(tmp_path, monkeypatch):
    """`./maphr` is a folder even when it holds no game (a usage error naming it), never the shipped maphr."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "maphr").mkdir()
    with pytest.raises(UnknownGameError, match="no game.yaml in maphr"):
        find_game("./maphr")
    assert find_game("maphr").origin == "shipped"  # an empty folder of that name is not a game


def test_an_installed_plugin_wins_over_the_shipped_game(tmp_path, monkeypatch):
    """A plug-in (entry point group cardforge.games) with a shipped game's id replaces it."""
    package = tmp_path / "site" / "my_tunhell"
    shutil.copytree(FIXTURES / "games" / "chasse_aux_reliques", package)
    (package / "__init__.py").write_text("", encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path / "site"))
    monkeypatch.setattr(games, "_entry_points", lambda: {"tunhell": games._EntryPoint("tunhell", "my_tunhell")})
    games._load_entry_point.cache_clear()
    try:
        assert game_ids().count("tunhell") == 1
        game = find_game("tunhell")
        assert game.origin == "entry point" and game.folder == package and game.title == "Chasse aux reliques"
        # a path still wins over the plug-in
        shipped = find_game(games._shipped()["tunhell"])
        assert shipped.title == "TunHell" and shipped.origin == "folder"
    finally:
        games._load_entry_point.cache_clear()
        sys.modules.pop("my_tunhell", None)
