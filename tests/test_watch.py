"""Watch mode (`cardforge build GAME --watch`): a one-card edit lays out that card's text only,
bad data keeps the previous PDFs and the watch going, Ctrl-C exits 0. The rebuild function is
driven directly (no real loop); cache hits are counted, never timed."""

from __future__ import annotations

import hashlib
import shutil
from pathlib import Path

import pypdfium2
import pytest

from cardforge import watch
from cardforge.cli.build import Progress, build_one
from cardforge.games import find_game
from cardforge.render.richtext import LAYOUTS
from cardforge.settings import BuildSettings

from conftest import ROOT
from render_helpers import FIXTURE_DATA, FIXTURE_TEMPLATES, plain, register_fixture_game

ETAYAGE = 'effect: "Votre mine passe au niveau III pour 10 :coin: au lieu de 30."'
EDITED = 'effect: "Désormais, votre mine passe au niveau III pour 10 :coin: au lieu de 30."'


@pytest.fixture
def maphr(tmp_path, monkeypatch):
    """A copy of Maphr's data, its own caches, and a watch target building its deck."""
    shutil.copytree(ROOT / "card_data" / "maphr", tmp_path / "data" / "maphr")
    monkeypatch.setenv("CARDFORGE_DATA", str(tmp_path / "data"))
    monkeypatch.setenv("CARDFORGE_CACHE", str(tmp_path / "cache"))
    monkeypatch.delenv("CARDFORGE_NO_CACHE", raising=False)
    monkeypatch.setattr(LAYOUTS, "maxsize", LAYOUTS.maxsize)  # restored after the test
    LAYOUTS.clear()  # texts laid out by earlier tests in this process would count as reused
    monkeypatch.setattr(watch, "_sleep", lambda seconds: None)
    game = find_game("maphr")
    settings = BuildSettings(only=frozenset({"decks"}), out_dir=tmp_path / "out")
    target = watch.Target("maphr", lambda: build_one(game, settings, Progress(False), True),
                          [tmp_path / "data" / "maphr", ROOT / "templates" / "maphr"])
    return watch.WatchSession([target]), target, tmp_path / "data" / "maphr", tmp_path / "out" / "maphr" / "deck.pdf"


def page_texts(pdf: Path) -> list[str]:
    doc = pypdfium2.PdfDocument(str(pdf))
    try:
        return [plain(doc[i].get_textpage().get_text_range()) for i in range(len(doc))]
    finally:
        doc.close()


def sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_a_one_card_edit_lays_out_that_card_only(maphr):
    session, target, data, pdf = maphr
    first = session.rebuild(target)
    assert first.ok and first.texts_laid_out > 200  # every text of the deck, laid out once
    before, before_sha = page_texts(pdf), sha(pdf)
    assert not any("Désormais" in t for t in before)

    path = data / "improvements.yaml"
    text = path.read_text(encoding="utf-8")
    assert ETAYAGE in text
    path.write_text(text.replace(ETAYAGE, EDITED), encoding="utf-8")
    [second] = session.poll()

    assert second.ok and second.changed == [str(path)]
    # Étayage's effect and its version stamp (a new fingerprint) are new; every other text of
    # the deck (names, values, labels, the other 249 cards) comes from the cache
    assert second.texts_laid_out == 2
    assert second.texts_reused == first.texts_laid_out + first.texts_reused - 2
    after = page_texts(pdf)
    assert sha(pdf) != before_sha and len(after) == len(before)
    changed_pages = [i for i, (a, b) in enumerate(zip(before, after)) if a != b]
    # Étayage comes in 3 copies: the pages holding it changed, and only those
    assert changed_pages and all("Désormais" in after[i] for i in changed_pages)
    assert all("Désormais" not in after[i] for i in set(range(len(after))) - set(changed_pages))
    assert sum(t.count("Désormais") for t in after) == 3

    assert session.poll() == []  # nothing changed since: no rebuild


def test_bad_data_keeps_the_previous_pdf_and_the_watch(maphr):
    session, target, data, pdf = maphr
    assert session.rebuild(target).ok
    good = sha(pdf)
    path = data / "improvements.yaml"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("    cost: 5\n", "    cost: -5\n", 1), encoding="utf-8")

    [failed] = session.poll()
    assert not failed.ok
    game_id, problems, title = failed.failure
    assert game_id == "maphr" and "invalid" in title
    assert any("cost: must be ≥ 0, got -5" in str(p) and "etayage" in str(p) for p in problems)
    assert sha(pdf) == good  # the previous PDF, untouched; no partial file beside it
    assert not list(pdf.parent.glob("*.part"))

    path.write_text(text, encoding="utf-8")
    [fixed] = session.poll()
    assert fixed.ok and fixed.texts_laid_out == 0  # the failed build dropped nothing from the cache
    assert sha(pdf) == good


def test_only_watched_files_count(tmp_path):
    (tmp_path / "deck.yaml").write_text("a: 1\n", encoding="utf-8")
    first = watch.snapshot([tmp_path, tmp_path / "missing"])
    (tmp_path / ".deck.yaml.swp").write_text("x", encoding="utf-8")  # editor files are ignored
    (tmp_path / "notes.txt").write_text("x", encoding="utf-8")
    assert watch.changes(first, watch.snapshot([tmp_path])) == []
    (tmp_path / "art").mkdir()
    (tmp_path / "art" / "flamme.png").write_bytes(b"png")
    (tmp_path / "deck.yaml").write_text("a: 22\n", encoding="utf-8")
    assert watch.changes(first, watch.snapshot([tmp_path])) == [
        str(tmp_path / "art" / "flamme.png"), str(tmp_path / "deck.yaml")]


def test_ctrl_c_stops_watching_with_exit_0(cli, monkeypatch, tmp_path):
    register_fixture_game(monkeypatch)
    monkeypatch.setenv("CARDFORGE_CACHE", str(tmp_path / "cache"))
    monkeypatch.setattr(LAYOUTS, "maxsize", LAYOUTS.maxsize)

    def interrupt(seconds):
        raise KeyboardInterrupt

    monkeypatch.setattr(watch, "_sleep", interrupt)
    r = cli("--data", FIXTURE_DATA, "build", "fixture_deck", "--templates", FIXTURE_TEMPLATES,
            "-o", tmp_path / "out", "--only", "decks", "--watch")
    assert r.code == 0, r.err
    assert "fixture_deck: " in r.out and "deck.pdf (4 pages, 12 cards)" in r.out
    assert "watching " in r.err and "(Ctrl-C to stop)" in r.err
    assert r.err.rstrip().endswith("stopped watching")
    assert LAYOUTS.maxsize >= watch.KEPT_TEXTS  # every text kept from the first build on


def test_a_template_edit_is_picked_up(monkeypatch, tmp_path):
    register_fixture_game(monkeypatch)
    monkeypatch.setenv("CARDFORGE_DATA", str(FIXTURE_DATA))
    monkeypatch.setenv("CARDFORGE_CACHE", str(tmp_path / "cache"))
    monkeypatch.setattr(LAYOUTS, "maxsize", LAYOUTS.maxsize)
    monkeypatch.setattr(watch, "_sleep", lambda seconds: None)
    templates = tmp_path / "templates"
    shutil.copytree(FIXTURE_TEMPLATES, templates)
    game = find_game("fixture_deck")
    settings = BuildSettings(only=frozenset({"decks"}), out_dir=tmp_path / "out", templates_dir=templates)
    target = watch.Target("fixture_deck", lambda: build_one(game, settings, Progress(False), True),
                          [FIXTURE_DATA / "fixture_deck", templates / "fixture_deck"])
    session = watch.WatchSession([target])
    assert session.rebuild(target).ok
    pdf = tmp_path / "out" / "fixture_deck" / "deck.pdf"
    assert not any("Lune :" in t for t in page_texts(pdf))

    layout = templates / "fixture_deck" / "layout.yaml"
    text = layout.read_text(encoding="utf-8")
    layout.write_text(text.replace('text: "{{ card.moon }}"', 'text: "Lune : {{ card.moon }}"'), encoding="utf-8")
    [rebuilt] = session.poll()
    assert rebuilt.ok and rebuilt.changed == [str(layout)]
    assert rebuilt.texts_laid_out >= 1  # the moon names, now with their new prefix
    assert any("Lune :" in t for t in page_texts(pdf))


def test_an_internal_error_in_a_rebuild_keeps_the_pdfs_and_the_watch(cli, monkeypatch, tmp_path):
    """The real `build --watch` loop: a rebuild that crashes (a bug, not bad data) is reported
    as an internal error, the previous PDFs stay, and the next save rebuilds."""
    import cardforge.render.decks as decks

    register_fixture_game(monkeypatch)
    monkeypatch.setenv("CARDFORGE_CACHE", str(tmp_path / "cache"))
    monkeypatch.setattr(LAYOUTS, "maxsize", LAYOUTS.maxsize)
    shutil.copytree(FIXTURE_DATA, tmp_path / "data")
    deck_yaml = tmp_path / "data" / "fixture_deck" / "deck.yaml"
    pdf = tmp_path / "out" / "fixture_deck" / "deck.pdf"
    real_build = decks.build_decks
    seen = {}

    def crash(*args, **kwargs):
        raise RuntimeError("a bug in the renderer")

    def save(extra: str) -> None:  # a new mtime and size: the next poll sees a change
        deck_yaml.write_text(deck_yaml.read_text(encoding="utf-8") + extra, encoding="utf-8")

    steps = iter([
        lambda: (seen.setdefault("good", sha(pdf)), monkeypatch.setattr(decks, "build_decks", crash), save("\n")),
        lambda: None,  # the settle wait; then the rebuild crashes
        lambda: (seen.setdefault("kept", sha(pdf)), monkeypatch.setattr(decks, "build_decks", real_build),
                 save("# again\n")),
        lambda: None,  # settle; the rebuild works
    ])

    def step(seconds):
        try:
            next(steps)()
        except StopIteration:
            raise KeyboardInterrupt from None

    monkeypatch.setattr(watch, "_sleep", step)
    r = cli("--data", tmp_path / "data", "build", "fixture_deck", "--templates", FIXTURE_TEMPLATES,
            "-o", tmp_path / "out", "--only", "decks", "--watch")
    assert r.code == 0, r.err
    assert "internal error: RuntimeError: a bug in the renderer" in r.err
    assert "fixture_deck: previous PDFs kept; watching on" in r.err
    assert seen["kept"] == seen["good"]  # the crashed rebuild left the PDF
    assert "fixture_deck: rebuilt in " in r.out  # and the watch went on to rebuild
    assert r.err.rstrip().endswith("stopped watching")
    assert not list((tmp_path / "out").glob(".fixture_deck.staging-*"))


def test_a_game_target_builds_with_build_game(monkeypatch, tmp_path):
    """watch.game_target: the folders of the settings' data and templates, and build_game."""
    register_fixture_game(monkeypatch)
    monkeypatch.delenv("CARDFORGE_DATA", raising=False)
    monkeypatch.setenv("CARDFORGE_CACHE", str(tmp_path / "cache"))
    monkeypatch.setattr(LAYOUTS, "maxsize", LAYOUTS.maxsize)
    settings = BuildSettings(only=frozenset({"decks"}), out_dir=tmp_path / "out", data_root=FIXTURE_DATA,
                             templates_dir=FIXTURE_TEMPLATES)
    target = watch.game_target(find_game("fixture_deck"), settings)
    assert target.name == "fixture_deck"
    assert target.folders[:3] == [FIXTURE_DATA / "fixture_deck", FIXTURE_TEMPLATES / "fixture_deck",
                                  FIXTURE_TEMPLATES / "_shared"]
    result = watch.WatchSession([target]).rebuild(target)
    assert result.ok and result.failure is None
    assert (tmp_path / "out" / "fixture_deck" / "deck.pdf").is_file()
