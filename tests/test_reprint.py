"""Reprinting only what changed: every deck build records what it printed for each card
(cards.json); --changed-since an earlier record also writes deck-changed.pdf with only the cards
that are new or print differently (all their copies), and names the cards that left the deck."""

from __future__ import annotations

import json
import shutil

import pypdf
import pytest

from cardforge.data.loading import load_game_data
from cardforge.errors import RenderError
from cardforge.render.decks import build_decks
from cardforge.settings import BuildSettings
from render_helpers import FIXTURE_DATA, FIXTURE_TEMPLATES, register_fixture_game


@pytest.fixture
def game_copy(monkeypatch, tmp_path):
    """The fixture game's data and templates, copied so the test may edit them."""
    register_fixture_game(monkeypatch)
    from cardforge.games import find_game

    data_root, templates = tmp_path / "data", tmp_path / "templates"
    shutil.copytree(FIXTURE_DATA, data_root)
    shutil.copytree(FIXTURE_TEMPLATES, templates)
    return find_game("fixture_deck"), data_root, templates


def _build(game, data_root, templates, out, **options):
    data = load_game_data(game, root=data_root)
    return build_decks(game, data, BuildSettings(out_dir=out, **options), out / game.id, templates_dir=templates)


def _names(path) -> str:
    return " ".join(" ".join(p.extract_text().split()) for p in pypdf.PdfReader(path).pages)


def test_every_build_records_what_it_printed(game_copy, tmp_path):
    game, data_root, templates = game_copy
    _build(game, data_root, templates, tmp_path / "out")
    record = json.loads((tmp_path / "out" / game.id / "cards.json").read_text(encoding="utf-8"))
    assert record["game"] == "fixture_deck" and record["format"] == 1
    # every printed card (copies: 0 cards are not printed)
    assert {"boule-de-feu", "bouclier", "eclair", "jeton-or"} <= set(record["cards"])
    assert "cadeau-verso" not in record["cards"]
    # the same data records the same fingerprints
    _build(game, data_root, templates, tmp_path / "again")
    assert json.loads((tmp_path / "again" / game.id / "cards.json").read_text(encoding="utf-8")) == record


def test_changed_since_prints_only_the_changed_cards(game_copy, tmp_path):
    game, data_root, templates = game_copy
    first = tmp_path / "first"
    _build(game, data_root, templates, first)
    kept = tmp_path / "printed.json"
    shutil.copy(first / game.id / "cards.json", kept)

    # nothing changed: no deck-changed.pdf
    out = tmp_path / "out"
    result = _build(game, data_root, templates, out, changed_since=kept)
    assert result.changes.changed == () and result.changes.removed == ()
    assert not (out / game.id / "deck-changed.pdf").exists()

    # a rule change on one card (3 copies), one card removed, one card's copies changed
    cards = data_root / "fixture_deck" / "cards.yaml"
    text = cards.read_text(encoding="utf-8")
    text = text.replace("Infligez **3** dégâts", "Infligez **4** dégâts")
    text = text.replace("  - id: bouclier\n    kind: spell\n    name: Bouclier\n",
                        "  - id: bouclier\n    kind: spell\n    name: Bouclier\n    copies: 0\n")
    text = text.replace("    name: Jeton d'or\n    copies: 4\n", "    name: Jeton d'or\n    copies: 5\n")
    cards.write_text(text, encoding="utf-8")
    result = _build(game, data_root, templates, out, changed_since=kept)
    assert result.changes.changed == ("boule-de-feu", "jeton-or")
    assert result.changes.removed == ("bouclier",)
    changed = [e for e in result.entries if e.path == "deck-changed.pdf"]
    assert [(e.kind, e.cards) for e in changed] == [("deck", 3 + 5)]
    text = _names(out / game.id / "deck-changed.pdf")
    assert text.count("Boule de feu") == 3 and text.count("Jeton d'or") == 5
    assert "Éclair" not in text and "Bouclier" not in text
    assert "Infligez 4 dégâts" in text
    # the full deck is still built beside it
    assert "Éclair" in _names(out / game.id / "deck.pdf")

    # a card-text template edit reprints every card: the shared card_text.j2, overridden here
    from cardforge.resources import templates_root

    shared = templates / "_shared"
    shared.mkdir(exist_ok=True)
    source = (templates_root() / "_shared" / "card_text.j2").read_text(encoding="utf-8")
    (shared / "card_text.j2").write_text(source + "\n", encoding="utf-8")
    shutil.copy(out / game.id / "cards.json", kept)
    result = _build(game, data_root, templates, out, changed_since=kept)
    assert set(result.changes.changed) == set(json.loads(kept.read_text(encoding="utf-8"))["cards"])


def test_a_bad_record_is_a_clear_error(game_copy, tmp_path):
    game, data_root, templates = game_copy
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": 1, "game": "maphr", "cards": {}}', encoding="utf-8")
    with pytest.raises(RenderError) as exc:
        _build(game, data_root, templates, tmp_path / "out", changed_since=bad)
    message = "\n".join(str(p) for p in exc.value.problems)
    assert "bad.json" in message and "--changed-since" in message and "'maphr', not 'fixture_deck'" in message
    assert not (tmp_path / "out" / game.id / "deck.pdf").exists()
    with pytest.raises(RenderError) as exc:
        _build(game, data_root, templates, tmp_path / "out", changed_since=tmp_path / "missing.json")
    assert "no such file" in "\n".join(str(p) for p in exc.value.problems)


def test_the_cli_lists_the_cards_to_reprint_and_to_take_out(cli, tmp_path):
    out = tmp_path / "out"
    assert cli("build", "maphr", "--only", "decks", "-o", out, "-q").code == 0
    record = json.loads((out / "maphr" / "cards.json").read_text(encoding="utf-8"))
    # one entry per card printed (its copies are 250 cards): 5 galleries, 13 veins, 40 improvements,
    # 10 contracts, 8 catastrophes, 3 impediments
    assert len(record["cards"]) == 5 + 13 + 40 + 10 + 8 + 3 == 79
    # as if Étayage had printed differently and an old card had left the deck since
    record["cards"]["etayage"] = "0" * 16
    record["cards"]["vieille-carte"] = "1" * 16
    kept = tmp_path / "printed.json"
    kept.write_text(json.dumps(record), encoding="utf-8")
    r = cli("build", "maphr", "--only", "decks", "-o", out, "--changed-since", kept)
    assert r.code == 0, r.err
    lines = r.out.splitlines()
    assert (f"maphr: {(out / 'maphr' / 'deck-changed.pdf').as_posix()} (2 pages, 3 cards): landscape, "
            "4 × 2 = 8 a sheet, butted") in lines
    assert "maphr: 1 card to reprint: etayage" in lines
    assert "maphr: 1 card no longer in the deck (take out): vieille-carte" in lines
    changed = pypdf.PdfReader(out / "maphr" / "deck-changed.pdf")
    assert " ".join(changed.pages[0].extract_text().split()).count("Étayage") == 3  # its 3 copies
    manifest = json.loads((out / "maphr" / "manifest.json").read_text(encoding="utf-8"))
    assert {"path": "deck-changed.pdf", "kind": "deck", "cards": 3}.items() <= next(
        f for f in manifest["files"] if f["path"] == "deck-changed.pdf").items()
    # the next build without the option removes the stale deck-changed.pdf
    assert cli("build", "maphr", "--only", "decks", "-o", out, "-q").code == 0
    assert not (out / "maphr" / "deck-changed.pdf").exists()
