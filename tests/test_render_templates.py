"""Card-text templates: sandboxed jinja2, strict names, lookup order, filters."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Literal

import pytest
from pydantic import BaseModel

from cardforge.data.models import CardBase
from cardforge.text.templating import (
    TemplateError,
    Templates,
    escape_markup,
    icons,
    is_true,
    nested_fields,
    plural,
    render,
    roman,
    signed,
    text_fields,
    value_fields,
)


class Ship(BaseModel):
    name: str
    speed: int


class Card(CardBase):
    kind: Literal["spell"]
    cost: int = 0
    colour: Literal["red", "blue"] = "red"
    effect: str = ""
    note: str | None = None
    fast: bool = False
    ships: list[Ship] = []


CARD = Card(id="boule", kind="spell", name="Boule de feu", provenance="rulebook", cost=3,
            effect="Infligez **3** dégâts.", fast=True, ships=[Ship(name="Éclaireur", speed=6)])


@pytest.fixture
def templates(tmp_path):
    (tmp_path / "g").mkdir()
    (tmp_path / "_shared").mkdir()
    (tmp_path / "_shared" / "text.j2").write_text("shared {{ card.name }}", encoding="utf-8")
    (tmp_path / "_shared" / "only_shared.j2").write_text("S", encoding="utf-8")
    (tmp_path / "g" / "text.j2").write_text("game {{ card.name }}", encoding="utf-8")
    return Templates([tmp_path / "g", tmp_path / "_shared"])


def test_the_game_folder_wins_then_shared(templates):
    assert render(templates.file("text.j2"), {"card": CARD}) == "game Boule de feu"
    assert render(templates.file("only_shared.j2"), {}) == "S"
    with pytest.raises(TemplateError, match="template file 'nope.j2' not found"):
        templates.file("nope.j2")


def test_undefined_names_fail_with_the_name(templates):
    with pytest.raises(TemplateError, match="has no attribute 'prix'"):
        render(templates.inline("{{ card.prix }}"), {"card": CARD})
    with pytest.raises(TemplateError, match="'deck' is undefined"):
        render(templates.inline("{{ deck.title }}"), {"card": CARD})


def test_none_prints_as_nothing(templates):
    assert render(templates.inline("[{{ card.note }}]"), {"card": CARD}) == "[]"


def test_the_sandbox_refuses_python_internals(templates):
    with pytest.raises(TemplateError, match="not allowed in a template|has no attribute"):
        render(templates.inline("{{ card.__class__.__mro__ }}"), {"card": CARD})
    with pytest.raises(TemplateError):
        render(templates.inline("{{ card.model_config.__class__.__subclasses__() }}"), {"card": CARD})


def test_syntax_errors_are_template_errors(templates):
    with pytest.raises(TemplateError, match="template syntax error"):
        templates.inline("{{ card.name ")


def test_when_expressions(templates):
    assert is_true(templates.expression("card.cost > 2"), {"card": CARD})
    assert not is_true(templates.expression("card.note"), {"card": CARD})
    with pytest.raises(TemplateError, match="has no attribute 'vp'"):
        is_true(templates.expression("card.vp > 0"), {"card": CARD})


def test_names_used_tells_what_a_box_depends_on(templates):
    assert templates.names_used("{{ kind.label }} · {{ deck.title }}") == {"kind", "deck"}
    assert templates.names_used("card.cost > 0", expression=True) == {"card"}
    assert templates.names_used("Coût") == frozenset()


def test_filters():
    assert [roman(n) for n in (1, 4, 9, 14, 40)] == ["I", "IV", "IX", "XIV", "XL"]
    assert (signed(2), signed(-1), signed(0)) == ("+2", "−1", "0")
    assert icons(3, "coin") == ":coin::coin::coin:" and icons(0, "coin") == ""
    assert (plural(1, "carte"), plural(0, "carte"), plural(3, "carte"), plural(2, "œil", "yeux")) == \
        ("1 carte", "0 carte", "3 cartes", "2 yeux")
    assert escape_markup("2*3: <b>") == "2\\*3\\: \\<b>"


def test_label_filter_reads_vars_labels(templates):
    tpl = templates.inline("{{ card.colour | label }} / {{ 'cost' | label }}")
    assert render(tpl, {"card": CARD, "vars": {"labels": {"red": "rouge"}}}) == "rouge / cost"


def test_fields_for_the_generic_layout():
    assert text_fields(CARD) == [("effect", "Infligez **3** dégâts.")]
    # the fixed-choice colour is a value, not a text; false flags and empty fields are left out
    assert value_fields(CARD) == [("cost", 3), ("colour", "red"), ("fast", True)]
    assert nested_fields(CARD) == [("ships", ["*Éclaireur* — speed 6"])]


def test_the_shared_generic_text(tmp_path):
    from conftest import ROOT

    t = Templates([tmp_path, ROOT / "templates" / "_shared"])
    deck = SimpleNamespace(markup_fields=lambda kind: frozenset({"effect"}))  # deck.yaml: markup: [effect]
    text = render(t.file("card_text.j2"), {"card": CARD, "deck": deck, "vars": {"labels": {"cost": "coût"}}})
    assert text == ("**coût**\u00a03 · **colour**\u00a0red · **fast**\n\n"
                    "**ships**\n*Éclaireur* — speed 6\n\n"
                    "Infligez **3** dégâts.\n\n")


def test_compiled_code_comes_from_the_code_cache_the_second_time(tmp_path):
    """A template compiled once is not compiled again by the next build (the code cache)."""
    source = "{{ card.name }} — cached code " + tmp_path.name  # a source no other test compiles
    first = Templates([tmp_path])
    assert render(first.inline(source), {"card": {"name": "A"}}) == "A — cached code " + tmp_path.name
    misses, hits = first.cache.misses, first.cache.hits
    second = Templates([tmp_path])  # a new build: templates compiled again, code from the cache
    assert render(second.inline(source), {"card": {"name": "B"}}) == "B — cached code " + tmp_path.name
    assert second.cache is first.cache
    assert (second.cache.misses, second.cache.hits) == (misses, hits + 1)
    expression = "card.cost > " + str(len(tmp_path.name))
    assert is_true(first.expression(expression), {"card": {"cost": 99}}) is True
    hits = first.cache.hits
    assert is_true(second.expression(expression), {"card": {"cost": 0}}) is False
    assert second.cache.hits == hits + 1
