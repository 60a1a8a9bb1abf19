"""Watch mode (`cardforge watch GAME`, `cardforge build GAME --watch`): a one-card edit lays out
that card's text only, bad data keeps the previous PDFs and the watch going, Ctrl-C exits 0.
Most tests drive the rebuild function directly (`rebuild`, `poll`, `changed`: no OS watcher);
cache hits are counted, never timed. The real watcher (watchfiles) is tested by waiting for a
condition with a generous deadline, never by asserting how long it took."""

from __future__ import annotations

import hashlib
import os
import queue
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path

import pypdfium2
import pytest

from cardforge import watch
from cardforge.cli.build import Progress, build_one
from cardforge.data.loading import load_game_data
from cardforge.games import find_game
from cardforge.render.cards.facecache import FACES
from cardforge.render.drawing.richtext import LAYOUTS
from cardforge.settings import BuildSettings

from conftest import ROOT
from render_helpers import FIXTURE_DATA, FIXTURE_TEMPLATES, plain, register_fixture_game
from waiting import PATIENCE, wait_until

ETAYAGE = 'effect: "Votre mine passe au niveau III pour 10 :coin: au lieu de 30."'
EDITED = 'effect: "Désormais, votre mine passe au niveau III pour 10 :coin: au lieu de 30."'


@pytest.fixture(autouse=True)
def _faces_kept_for_this_test_only(monkeypatch):
    """A watch session turns the process's face cache on: off again (and emptied) after the test."""
    monkeypatch.setattr(FACES, "enabled", FACES.enabled)
    FACES.clear()
    yield
    FACES.clear()


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
                          [tmp_path / "data" / "maphr", ROOT / "templates" / "_shared"])
    return watch.WatchSession([target]), target, tmp_path / "data" / "maphr", tmp_path / "out" / "maphr" / "deck.pdf"


def page_texts(pdf: Path) -> list[str]:
    doc = pypdfium2.PdfDocument(str(pdf))
    try:
        return [plain(doc[i].get_textpage().get_text_range()) for i in range(len(doc))]
    finally:
        doc.close()


def sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.mark.slow
def test_a_one_card_edit_lays_out_that_card_only(maphr):
    session, target, data, pdf = maphr
    load_game_data(find_game("maphr"))  # the data cache holds the deck: the session reads its files all the same
    first = session.rebuild(target)
    assert first.ok and first.texts_laid_out > 200  # every text of the deck, laid out once
    before, before_sha = page_texts(pdf), sha(pdf)
    assert not any("Désormais" in t for t in before)

    path = data / "improvements.yaml"
    text = path.read_text(encoding="utf-8")
    assert ETAYAGE in text
    path.write_text(text.replace(ETAYAGE, EDITED), encoding="utf-8")
    session.memo.reused = session.memo.spliced = session.memo.parsed = 0
    [second] = session.poll()

    assert second.ok and second.changed == [str(path)]
    # that card's lines alone parsed and validated again (data/incremental.py)
    assert (session.memo.spliced, session.memo.parsed, session.memo.reused) == (1, 0, 78)
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


@pytest.mark.slow
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

    def interrupted(folders, **kwargs):  # Ctrl-C while waiting for a change
        raise KeyboardInterrupt
        yield

    monkeypatch.setattr(watch, "file_events", interrupted)
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
    import cardforge.render.cards.decks as decks

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

    def events(folders, **kwargs):  # what the OS watcher would report, save after save
        assert deck_yaml.parent in folders
        seen["good"] = sha(pdf)
        monkeypatch.setattr(decks, "build_decks", crash)
        save("\n")
        yield {str(deck_yaml)}  # the rebuild crashes
        seen["kept"] = sha(pdf)
        monkeypatch.setattr(decks, "build_decks", real_build)
        save("# again\n")
        yield {str(deck_yaml), str(deck_yaml.parent / "notes.txt")}  # the rebuild works
        raise KeyboardInterrupt

    monkeypatch.setattr(watch, "file_events", events)
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


# -- the OS watcher (watchfiles) and `cardforge watch` ------------------------------------------

@pytest.mark.parametrize("polling", [False, True], ids=["os-notifications", "polling"])
@pytest.mark.slow
def test_the_real_watcher_sees_a_save(tmp_path, polling):
    (tmp_path / "art").mkdir()
    card = tmp_path / "art" / "deck.yaml"
    card.write_text("a: 1\n", encoding="utf-8")
    stop, batches = threading.Event(), queue.Queue()

    def listen():
        for batch in watch.file_events([tmp_path / "art", tmp_path / "later", tmp_path / "no" / "such"],
                                       polling=polling, interval=0.05, stop=stop):
            batches.put(batch)

    thread = threading.Thread(target=listen, daemon=True)
    thread.start()
    seen: set[str] = set()
    saves = iter(range(10**6))

    later = tmp_path / "later" / "layout.yaml"  # in a folder made once the watch began

    def save():
        (tmp_path / "art" / "notes.txt").write_text("not watched", encoding="utf-8")
        card.write_text(f"a: {next(saves)}\n", encoding="utf-8")
        later.parent.mkdir(exist_ok=True)
        later.write_text(f"b: {next(saves)}\n", encoding="utf-8")

    def got():
        while not batches.empty():
            seen.update(batches.get())
        return str(card) in seen and str(later) in seen

    try:
        wait_until(got, "the save of art/deck.yaml", poke=save, every=0.2)
    finally:
        stop.set()
        thread.join(PATIENCE)
    assert not thread.is_alive()  # stop ends the watch
    assert str(tmp_path / "art" / "notes.txt") not in seen  # files that cannot change a build are left out


def test_the_real_watcher_rebuilds_after_an_edit(monkeypatch, tmp_path):
    """WatchSession.run with the OS watcher: the first build, then a save → a rebuild with the
    new text in the PDF."""
    register_fixture_game(monkeypatch)
    shutil.copytree(FIXTURE_DATA, tmp_path / "data")
    monkeypatch.setenv("CARDFORGE_DATA", str(tmp_path / "data"))
    monkeypatch.setenv("CARDFORGE_CACHE", str(tmp_path / "cache"))
    monkeypatch.setattr(LAYOUTS, "maxsize", LAYOUTS.maxsize)
    game = find_game("fixture_deck")
    settings = BuildSettings(only=frozenset({"decks"}), out_dir=tmp_path / "out", templates_dir=FIXTURE_TEMPLATES)
    data = tmp_path / "data" / "fixture_deck"
    target = watch.Target("fixture_deck", lambda: build_one(game, settings, Progress(False), True),
                          [data, FIXTURE_TEMPLATES / "fixture_deck"])
    done: queue.Queue = queue.Queue()
    session = watch.WatchSession([target], lambda rebuild, target: done.put(rebuild), polling=False)
    stop = threading.Event()
    thread = threading.Thread(target=lambda: done.put(session.run(stop=stop)), daemon=True)
    thread.start()
    try:
        first = done.get(timeout=PATIENCE)
        assert first.ok and first.changed == []
        pdf = tmp_path / "out" / "fixture_deck" / "deck.pdf"
        deck = data / "cards.yaml"
        text = deck.read_text(encoding="utf-8")
        assert "    name: Bouclier\n" in text
        edits = iter(range(10**6))
        rebuilds: list = []

        def save():
            deck.write_text(text.replace("name: Bouclier", f"name: Zorglub{next(edits)}"), encoding="utf-8")

        def rebuilt():
            while not done.empty():
                rebuilds.append(done.get())
            return any(r.ok and str(deck) in r.changed for r in rebuilds) and "Zorglub" in " ".join(page_texts(pdf))

        wait_until(rebuilt, f"a rebuild after editing {deck.name}", poke=save, every=0.2)
    finally:
        stop.set()
        thread.join(PATIENCE)
    assert not thread.is_alive()
    rest = [done.get_nowait() for _ in range(done.qsize())]  # rebuilds of saves still in flight, then…
    assert rest[-1] == 0  # …run() returned 0 once stopped


def test_changed_rebuilds_the_targets_holding_the_files(tmp_path):
    built = []
    a = watch.Target("a", lambda: built.append("a"), [tmp_path / "a", tmp_path / "shared"])
    b = watch.Target("b", lambda: built.append("b"), [tmp_path / "b", tmp_path / "shared"])
    session = watch.WatchSession([a, b])
    assert session.changed([str(tmp_path / "a" / "notes.txt"), str(tmp_path / "c" / "x.yaml")]) == []
    [ra] = session.changed([str(tmp_path / "a" / "deck.yaml"), str(tmp_path / "a" / ".deck.yaml.swp")])
    assert ra.ok and ra.changed == [str(tmp_path / "a" / "deck.yaml")] and built == ["a"]
    both = session.changed([str(tmp_path / "shared" / "icons" / "coin.svg")])
    assert [r.ok for r in both] == [True, True] and built == ["a", "a", "b"]


def test_network_drives_are_polled(tmp_path, monkeypatch):
    mounts = tmp_path / "mounts"
    mounts.write_text(
        "/dev/sda1 / ext4 rw 0 0\n"
        "server:/export /mnt/games nfs4 rw 0 0\n"
        "//nas/share /mnt/my\\040share cifs rw 0 0\n"
        "sshfs#me@host: /mnt/ssh fuse.sshfs rw 0 0\n"
        "/dev/sdb1 /mnt/games/local ext4 rw 0 0\n", encoding="utf-8")
    m = str(mounts)
    assert watch.filesystem_type(Path("/home/me/games"), m) == "ext4"
    assert watch.network_filesystem(Path("/mnt/games/maphr"), m)
    assert watch.network_filesystem(Path("/mnt/my share/maphr"), m)
    assert watch.network_filesystem(Path("/mnt/ssh"), m)
    assert not watch.network_filesystem(Path("/mnt/games/local/maphr"), m)  # the deepest mount counts
    assert not watch.network_filesystem(Path("/mnt/gamesx"), m)
    assert not watch.network_filesystem(Path("/mnt/games"), tmp_path / "no-such-table")
    monkeypatch.delenv(watch.POLL_ENV, raising=False)
    assert watch.must_poll([tmp_path], asked=True)
    monkeypatch.setenv(watch.POLL_ENV, "1")
    assert watch.must_poll([tmp_path])
    monkeypatch.setenv(watch.POLL_ENV, "0")
    assert watch.must_poll([tmp_path]) == watch.network_filesystem(tmp_path)


def test_the_watch_command_help_and_usage_errors(cli):
    r = cli("watch", "--help")
    assert r.code == 0
    assert "Usage: cardforge watch [OPTIONS] GAME..." in r.out
    for option in ("--paper", "--duplex", "--only", "--templates", "--poll", "-o, --out", "--changed-since"):
        assert option in r.out  # the options of `cardforge build`…
    options = [line.split()[0] for line in r.out.split("Options:")[1].splitlines() if line.startswith("  -")]
    assert "--json" not in options and "--watch" not in options  # …but those that make no sense here
    assert "watch" in cli("--help").out.split("Commands:")[1]

    r = cli("watch")
    assert r.code == 2 and "Missing argument 'GAME...'" in r.err
    r = cli("watch", "no-such-game")
    assert r.code == 2 and "no-such-game" in r.err
    r = cli("watch", "maphr", "--json")
    assert r.code == 2 and "No such option '--json'" in r.err
    r = cli("watch", "maphr", "--paper", "b52")
    assert r.code == 2 and "--paper" in r.err
    r = cli("build", "maphr", "--poll")
    assert r.code == 2 and "--poll goes with --watch" in r.err


def test_the_watch_command_builds_then_watches(cli, monkeypatch, tmp_path):
    register_fixture_game(monkeypatch)
    monkeypatch.setenv("CARDFORGE_CACHE", str(tmp_path / "cache"))
    monkeypatch.setattr(LAYOUTS, "maxsize", LAYOUTS.maxsize)
    asked = {}

    def interrupted(folders, **kwargs):
        asked.update(kwargs, folders=folders)
        raise KeyboardInterrupt
        yield

    monkeypatch.setattr(watch, "file_events", interrupted)
    r = cli("--data", FIXTURE_DATA, "watch", "fixture_deck", "--templates", FIXTURE_TEMPLATES,
            "-o", tmp_path / "out", "--only", "decks", "--paper", "letter", "--poll")
    assert r.code == 0, r.err
    assert "deck.pdf (4 pages, 12 cards)" in r.out
    assert "watching " in r.err and "(polling every 0.3 s, Ctrl-C to stop)" in r.err
    assert r.err.rstrip().endswith("stopped watching")
    assert asked["polling"] is True and FIXTURE_DATA / "fixture_deck" in asked["folders"]
    import pypdf

    page = pypdf.PdfReader(tmp_path / "out" / "fixture_deck" / "deck.pdf").pages[0]
    size = sorted(round(float(v) / 72 * 25.4) for v in page.mediabox[2:])
    assert size == [216, 279]  # letter: the build's options reach it


@pytest.mark.slow
def test_a_save_during_a_rebuild_is_not_lost(tmp_path):
    """While a batch is being handled (a rebuild), the watcher keeps listening: the next batch
    holds what was saved meanwhile."""
    card = tmp_path / "deck.yaml"
    stop = threading.Event()
    deadline = threading.Timer(PATIENCE, stop.set)  # a lost save ends the watch: the test fails, never hangs
    deadline.start()
    events = watch.file_events([tmp_path], stop=stop)
    saving = threading.Event()

    def save_until_seen():
        n = 0
        while not saving.is_set() and not stop.is_set():
            n += 1
            card.write_text(f"a: {n}\n", encoding="utf-8")
            time.sleep(0.2)

    saver = threading.Thread(target=save_until_seen, daemon=True)
    saver.start()
    try:
        first = next(events, set())
        saving.set()  # no more saves from the loop…
        saver.join(PATIENCE)
        assert str(card) in first
        other = tmp_path / "other.yaml"  # …but one, of another file, while "rebuilding"
        other.write_text("b: during the rebuild\n", encoding="utf-8")
        time.sleep(0.5)  # the rebuild (not timed: a slower watcher only makes this test wait)
        seen: set[str] = set()
        while str(other) not in seen and not stop.is_set():  # (a late save of deck.yaml may come first)
            seen |= next(events, set())
        assert str(other) in seen, "the save made during the rebuild was lost"
    finally:
        stop.set()
        deadline.cancel()


# --- kept faces: a rebuild writes what a fresh build writes ----------------------------------------

MAPHR_EDIT = ("improvements.yaml", "au lieu de 30.", "au lieu de 30. Quelle aubaine !")
#: characters no card of Maphr uses before: the faces drawn after Étayage read other subset codes
MAPHR_NEW_CHARACTERS = ("improvements.yaml", "Quelle aubaine !", "Quelle aubaine ! ½ Ω")
TUNHELL_EDIT = ("fin-de-mine.yaml", "La porte ne bouge plus.", "La porte ne bouge plus jamais.")
TUNHELL_PICTURE = ("icons/door.svg", 'fill="#5a5a5a"', 'fill="#3a3a3a"')  # a card icon
TUNHELL_LAYOUT = ("templates/layout.yaml", "size: 8.5, min_size: 6,", "size: 8, min_size: 6,")
CRISTAUX_EDIT = ("cadeaux.yaml", "puis retournez le Warhammer.", "puis retournez vite le Warhammer.")
CRISTAUX_LAYOUT = ("templates/layout.yaml", "style: {size: 10.5, min_size: 6.5, bold: true",
                   "style: {size: 10, min_size: 6.5, bold: true")


def fresh_build(data_root: Path, game_id: str, out: Path, args: list[str]) -> Path:
    """What `cardforge build` writes in a process of its own (nothing kept from this one)."""
    r = subprocess.run([sys.executable, "-m", "cardforge", "--data", str(data_root), "build", game_id,
                        "--only", "decks", "-o", str(out), "-q", *args], capture_output=True, text=True,
                       env=dict(os.environ), timeout=600)
    assert r.returncode == 0, r.stderr
    return out / game_id


def same_files(a: Path, b: Path) -> list[str]:
    names = sorted(p.relative_to(a).as_posix() for p in a.rglob("*") if p.is_file())
    assert names == sorted(p.relative_to(b).as_posix() for p in b.rglob("*") if p.is_file())
    assert any(n.endswith(".pdf") for n in names)
    return [n for n in names if (a / n).read_bytes() != (b / n).read_bytes()]


@pytest.mark.slow
@pytest.mark.parametrize("game_id, args, settings, edits", [
    ("maphr", [], {}, [(MAPHR_EDIT, True), (MAPHR_NEW_CHARACTERS, True)]),
    ("maphr", ["--cmyk", "--pure-black"], {"cmyk": True, "pure_black": True}, [(MAPHR_EDIT, True)]),
    ("tunhell", [], {}, [(TUNHELL_EDIT, True), (TUNHELL_PICTURE, False), (TUNHELL_LAYOUT, False)]),
    ("cristaux", [], {}, [(CRISTAUX_EDIT, True), (CRISTAUX_LAYOUT, False)]),
], ids=["maphr", "maphr-cmyk", "tunhell", "cristaux"])
def test_a_rebuild_with_kept_faces_writes_what_a_fresh_build_writes(tmp_path, monkeypatch, game_id, args, settings,
                                                                   edits):
    """Watch mode writes an unchanged face again from the last rebuild; the files are byte for
    byte those of a fresh build of the same files, after a card edit (kept faces written again),
    after characters new to the document (the faces after it read other subset codes), and
    after a picture or a layout edit (every face drawn again)."""
    data = tmp_path / "data"
    shutil.copytree(ROOT / "card_data" / game_id, data / game_id)
    monkeypatch.setenv("CARDFORGE_DATA", str(data))
    monkeypatch.setenv("CARDFORGE_CACHE", str(tmp_path / "cache"))
    monkeypatch.delenv("CARDFORGE_NO_CACHE", raising=False)
    monkeypatch.setattr(LAYOUTS, "maxsize", LAYOUTS.maxsize)
    LAYOUTS.clear()
    build_settings = BuildSettings(only=frozenset({"decks"}), out_dir=tmp_path / "out", **settings)
    target = watch.Target(game_id, lambda: build_one(find_game(game_id), build_settings, Progress(False), True),
                          [data / game_id])
    session = watch.WatchSession([target])
    assert FACES.enabled
    first = session.rebuild(target)
    assert first.ok and FACES.hits == 0 and FACES.misses > 0 and len(FACES) > 0
    for i, ((name, old, new), kept) in enumerate(edits):
        path = data / game_id / name
        text = path.read_text(encoding="utf-8")
        assert old in text
        path.write_text(text.replace(old, new, 1), encoding="utf-8")
        hits, misses = FACES.hits, FACES.misses
        rebuilt = session.rebuild(target)
        assert rebuilt.ok
        if kept:  # a card's edit: the other cards' faces written again, some drawn (forms defined…)
            assert FACES.hits > hits and FACES.misses > misses
        else:  # a picture or a layout: no face kept from before it
            assert FACES.hits == hits and FACES.misses > misses
        assert same_files(tmp_path / "out" / game_id, fresh_build(data, game_id, tmp_path / f"fresh{i}", args)) == []


def test_a_one_off_build_keeps_no_face(tmp_path, monkeypatch):
    """Outside watch mode nothing is kept: a build draws every face, as it always did."""
    monkeypatch.setattr(FACES, "enabled", False)
    settings = BuildSettings(only=frozenset({"decks"}), out_dir=tmp_path / "out", data_root=FIXTURE_DATA,
                             templates_dir=FIXTURE_TEMPLATES)
    register_fixture_game(monkeypatch)
    assert build_one(find_game("fixture_deck"), settings, Progress(False), True) is None
    assert (FACES.hits, FACES.misses, len(FACES)) == (0, 0, 0)
    assert list((tmp_path / "out" / "fixture_deck").glob("*.pdf"))
