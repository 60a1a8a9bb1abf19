"""Small fixes made while typing ``cardforge/render`` (mypy clean): each keeps its behaviour."""

from __future__ import annotations

import pickle

import pytest

from cardforge.errors import RenderError
from cardforge.games import find_game
from cardforge.layout.boxes import Box
from cardforge.render.cards import buildcache
from cardforge.render.cards.cards import BoxProgram
from cardforge.render.cards.decks import template_folders
from cardforge.render.drawing.richtext import TextStyle


def test_a_text_box_program_gives_its_style():
    style = TextStyle(size=7.5)
    prog = BoxProgram(Box("title", "text", {}, "layouts.yaml", "card"), (0.0, 0.0, 10.0, 10.0), frozenset(), {},
                      style=style)
    assert prog.text_style is style


def test_a_box_drawn_as_text_without_a_style_is_a_clear_internal_error():
    prog = BoxProgram(Box("art", "image", {}, "layouts.yaml", "card"), (0.0, 0.0, 10.0, 10.0), frozenset(), {})
    with pytest.raises(RenderError, match="box 'art' is drawn as text but has no text style"):
        _ = prog.text_style


def test_the_cached_layout_library_drops_the_yaml_line_index(monkeypatch):
    """The cache pickles the library without the YAML documents' line index (rebuilt on
    demand); it cleared ``_root``, an attribute YamlDoc no longer has, and so added it."""
    monkeypatch.setattr(buildcache, "_memory", {})
    library = buildcache.layout_library(template_folders(find_game("maphr")))
    assert not library.problems
    (blob,) = buildcache._memory.values()
    docs = [src.doc for src in pickle.loads(blob)._sources if src.doc is not None]
    assert docs
    for doc in docs:
        assert doc._index is None
        assert "_root" not in vars(doc)
