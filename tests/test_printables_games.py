"""Every shipped game: `cardforge build GAME --only boards,pads,aids` works, and every board and
aid declared in its data (boards.yaml, aids.yaml and its printables.py) is in the PDFs."""

from __future__ import annotations

import json
import re

import pytest
from pypdf import PdfReader

from cardforge.data.loading import load_game_data
from cardforge.games import all_games, game_ids
from cardforge.render.sheets.printables import collect

from render_helpers import plain as untypeset


def plain(markup: str) -> str:
    """Markup as extracted from a PDF, without any whitespace (pypdf drops the spaces of
    text turned 180°, as backs on a landscape sheet are)."""
    text = re.sub(r":[a-z][a-z0-9-]*:", " ", markup)
    text = re.sub(r"\*\*|\*|<[^>]+>", "", text)
    return "".join(text.split())


def pdf_text(path) -> str:
    return untypeset("".join("".join(page.extract_text().split()) for page in PdfReader(path).pages))


@pytest.mark.parametrize("game_id", game_ids())
@pytest.mark.slow
def test_build_boards_pads_aids(cli, tmp_path, game_id):
    r = cli("build", game_id, "--only", "boards,pads,aids", "-o", str(tmp_path), "-q")
    assert r.code == 0, r.err
    folder = tmp_path / game_id
    manifest = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
    kinds = {f["path"]: f["kind"] for f in manifest["files"]}
    assert kinds.get("score-pad.pdf") == "pad"
    game = next(g for g in all_games() if g.id == game_id)
    data = load_game_data(game)
    found = collect(game, data)
    assert found.problems == []
    if found.boards:
        text = pdf_text(folder / "boards.pdf")
        for p in found.boards:
            assert plain(p.model.title) in text, p.model.id
            if p.model.subtitle:
                assert plain(p.model.subtitle) in text, p.model.id
        entry = next(f for f in manifest["files"] if f["path"] == "boards.pdf")
        assert entry["cards"] == sum(p.model.copies for p in found.boards)
    if found.aids:
        text = pdf_text(folder / "aids.pdf")
        for p in found.aids:
            assert plain(p.model.title) in text, p.model.id
            if p.model.back_title:
                assert plain(p.model.back_title) in text, p.model.id
        entry = next(f for f in manifest["files"] if f["path"] == "aids.pdf")
        assert entry["cards"] == sum(p.model.printed_copies(game.max_players) for p in found.aids)
    pads = pdf_text(folder / "score-pad.pdf")
    for category in game.categories:
        assert plain(category.label) in pads


def test_every_game_has_boards_and_aids():
    """The issue's content: every game ships at least one aid, and boards where it has some."""
    for game in all_games():
        found = collect(game, load_game_data(game))
        assert found.aids, game.id
        assert found.boards, game.id
