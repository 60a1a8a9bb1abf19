"""The one cache helper (cardforge/cache.py) and the caches on it: keys cover inputs, code and
library versions; entries are written atomically; an unreadable entry is a miss."""

from __future__ import annotations

import json
import os
import pickle
import subprocess
import sys
from pathlib import Path

import pytest

from cardforge import cache

from conftest import FIXTURES, ROOT


@pytest.fixture(autouse=True)
def fresh_state(monkeypatch):
    """Each test sees folders, keys and warnings afresh (the process keeps them once checked)."""
    monkeypatch.setattr(cache, "_safe", set())
    monkeypatch.setattr(cache, "_warned", set())
    monkeypatch.setattr(cache, "_keys", {})


@pytest.fixture
def folder(tmp_path, monkeypatch) -> Path:
    monkeypatch.setenv("CARDFORGE_CACHE", str(tmp_path / "cache"))
    monkeypatch.setenv("CARDFORGE_CONFIG", str(tmp_path / "config"))
    monkeypatch.delenv("CARDFORGE_NO_CACHE", raising=False)
    return tmp_path / "cache"


def test_the_suite_never_uses_the_users_cache():
    root = cache.cache_dir()
    assert root is not None and "cardforge-test-cache-" in str(root)
    home = Path(os.path.expanduser("~")) / ".cache" / "cardforge"
    assert root != home


def test_cache_dir_off_moved_and_default(monkeypatch, tmp_path):
    monkeypatch.setenv("CARDFORGE_NO_CACHE", "1")
    assert cache.cache_dir() is None
    assert cache.entry("fonts", "x.bin") is None
    monkeypatch.delenv("CARDFORGE_NO_CACHE")
    monkeypatch.setenv("CARDFORGE_CACHE", str(tmp_path / "c"))
    assert cache.cache_dir() == tmp_path / "c"
    assert cache.entry("fonts", "x.bin") == tmp_path / "c" / "fonts" / "x.bin"
    assert cache.entry("", "x.pickle") == tmp_path / "c" / "x.pickle"
    monkeypatch.delenv("CARDFORGE_CACHE")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert cache.cache_dir() == tmp_path / "xdg" / "cardforge"


def test_key_covers_namespace_parts_code_and_versions(tmp_path, monkeypatch):
    code = tmp_path / "mod.py"
    code.write_text("x = 1\n")
    base = cache.key("ns", [b"abc", "def"], [code], ("yaml",))
    assert base == cache.key("ns", [b"abc", "def"], [code], ("yaml",))  # stable
    assert len(base) == 32
    assert cache.key("other", [b"abc", "def"], [code], ("yaml",)) != base
    assert cache.key("ns", [b"abd", "def"], [code], ("yaml",)) != base
    assert cache.key("ns", [b"ab", "cdef"], [code], ("yaml",)) != base  # parts are not just joined
    assert cache.key("ns", [b"abc", "def"], [], ("yaml",)) != base
    assert cache.key("ns", [b"abc", "def"], [code], ()) != base
    st = code.stat()
    os.utime(code, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000))  # the code file changed
    assert cache.key("ns", [b"abc", "def"], [code], ("yaml",)) != base
    os.utime(code, ns=(st.st_atime_ns, st.st_mtime_ns))
    assert cache.key("ns", [b"abc", "def"], [code], ("yaml",)) == base
    import yaml

    with monkeypatch.context() as m:
        m.setattr(yaml, "__version__", "0.0-test")  # another PyYAML
        assert cache.key("ns", [b"abc", "def"], [code], ("yaml",)) != base
    with monkeypatch.context() as m:
        m.setattr(cache, "__version__", "0.0-test")  # another cardforge
        assert cache.key("ns", [b"abc", "def"], [code], ("yaml",)) != base
    with monkeypatch.context() as m:
        m.setattr(sys, "version", "2.7.18 (test)")  # another Python
        assert cache.key("ns", [b"abc", "def"], [code], ("yaml",)) != base
    assert cache.key("ns", [b"abc", "def"], [code], ("yaml",)) == base
    with pytest.raises(OSError):
        cache.key("ns", [], [tmp_path / "missing.py"])


def test_library_versions_do_not_depend_on_what_was_imported():
    """Read from the module when imported, from the metadata otherwise: the same string."""
    import importlib

    for name in cache._LIBRARIES:
        try:
            importlib.import_module(name)
        except ImportError:
            assert cache.library_version(name) == "-"
            continue
        dist, _ = cache._LIBRARIES[name]
        from_module = cache.library_version(name)
        assert from_module == cache._metadata_version(dist), name
        assert from_module[0].isdigit(), name


def test_read_treats_anything_unreadable_as_a_miss(tmp_path):
    path = tmp_path / "entry.pickle"
    assert cache.read(None, pickle.loads) is None
    assert cache.read(path, pickle.loads) is None  # missing
    path.write_bytes(pickle.dumps({"a": 1})[:5])  # truncated
    assert cache.read(path, pickle.loads) is None
    path.write_bytes(b"\x80\x05garbage")
    assert cache.read(path, pickle.loads) is None
    path.write_bytes(pickle.dumps({"a": 1}))  # a bare pickle: no envelope, no MAC
    assert cache.read(path, pickle.loads) is None
    assert not path.exists()  # a bad entry is removed
    assert cache.write(path, pickle.dumps({"a": 1}))
    assert cache.read(path, pickle.loads) == {"a": 1}
    assert cache.read(path, pickle.loads, list) is None  # not what was expected: a miss


def test_write_is_atomic_and_never_an_error(tmp_path):
    path = tmp_path / "sub" / "entry.bin"
    assert cache.write(path, b"one")
    assert cache.read_payload(path) == b"one"
    assert cache.write(path, lambda: b"two")
    assert cache.read_payload(path) == b"two"
    assert [p.name for p in path.parent.iterdir()] == ["entry.bin"]  # no *.part left

    def broken() -> bytes:
        raise pickle.PicklingError("cannot pickle a lambda")

    assert not cache.write(path, broken)
    assert cache.read_payload(path) == b"two"
    assert [p.name for p in path.parent.iterdir()] == ["entry.bin"]
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    assert not cache.write(blocker / "entry.bin", b"x")  # a folder that cannot be made
    assert not cache.write(None, b"x")  # caching off


def test_prune_keeps_the_newest(tmp_path):
    for i in range(5):
        p = tmp_path / f"e{i}.bin"
        p.write_bytes(b"x")
        os.utime(p, ns=(i * 10**9, i * 10**9))
    (tmp_path / "other.txt").write_text("kept")
    cache.prune(tmp_path, "*.bin", 9)  # fewer than it keeps: all stay
    assert len(list(tmp_path.glob("*.bin"))) == 5
    cache.prune(tmp_path, "*.bin", 2)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["e3.bin", "e4.bin", "other.txt"]
    cache.prune(tmp_path, "*.bin", 0)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["other.txt"]
    cache.prune(tmp_path / "missing", "*", 0)  # no error


def test_memo_computes_once_and_recomputes_a_damaged_entry(folder, tmp_path):
    calls = []

    def compute():
        calls.append(1)
        return {"value": len(calls)}

    code = [tmp_path / "mod.py"]
    code[0].write_text("")
    assert cache.memo("t", [b"in"], code, compute) == {"value": 1}
    assert cache.memo("t", [b"in"], code, compute) == {"value": 1}
    assert len(calls) == 1
    assert cache.memo("t", [b"other"], code, compute) == {"value": 2}
    for entry in folder.glob("t-*.pickle"):
        entry.write_bytes(entry.read_bytes()[:-1] + b"!")  # the last byte of the payload
    assert cache.memo("t", [b"in"], code, compute) == {"value": 3}
    assert cache.memo("t", [b"in"], code, compute) == {"value": 3}

    def failing():
        raise ValueError("bad input")

    with pytest.raises(ValueError):
        cache.memo("t", [b"bad"], code, failing)
    with pytest.raises(ValueError):  # errors are never kept
        cache.memo("t", [b"bad"], code, failing)
    assert not list(folder.glob("*.part")) and not list(folder.glob(".*.part"))


def test_memo_keeps_a_bounded_number_of_entries_per_namespace(folder, tmp_path):
    """Each edit of a designer's makes new entries (game.yaml specs, edge books…): a
    namespace keeps its ``keep`` newest, other namespaces untouched."""
    code = [tmp_path / "mod.py"]
    code[0].write_text("")
    cache.memo("other", [b"x"], code, lambda: 0)
    for i in range(7):
        assert cache.memo("t", [str(i)], code, lambda i=i: i, keep=3) == i
        newest = max(folder.glob("t-*.pickle"), key=lambda p: p.stat().st_mtime_ns)
        os.utime(newest, ns=(i * 10**9, i * 10**9))  # the order they were made in, whatever the clock
    assert len(list(folder.glob("t-*.pickle"))) == 3
    assert len(list(folder.glob("other-*.pickle"))) == 1
    calls = []
    assert cache.memo("t", ["6"], code, lambda: calls.append(1) or -1, keep=3) == 6  # the newest kept
    assert cache.memo("t", ["0"], code, lambda: calls.append(1) or -1, keep=3) == -1  # the oldest went
    assert len(calls) == 1


def _modules_used(snippet: str) -> list[str]:
    """Files of the cardforge modules a fresh process has imported after ``snippet`` (caches off)."""
    script = snippet + (
        "\nimport sys, json\n"
        "print(json.dumps(sorted({m.__file__ for n, m in list(sys.modules.items())"
        " if n.startswith('cardforge') and getattr(m, '__file__', None)})))\n")
    env = dict(os.environ, CARDFORGE_NO_CACHE="1")
    out = subprocess.run([sys.executable, "-c", script], cwd=ROOT, env=env, capture_output=True, text=True,
                         check=True).stdout
    return [str(Path(f).resolve()) for f in json.loads(out.splitlines()[-1])]


@pytest.mark.parametrize("game_id", ["maphr", "tunhell", "cristaux", "imperial_miners", "mine_all_mine"])
@pytest.mark.slow
def test_data_key_covers_every_module_loading_imports(game_id):
    """The stale-cache bug (issue 15: the key left out markup.py and units.py, a palette change
    kept the old colour): every cardforge module imported while validating a game's data is
    part of the validated-data key, so a change to any of them is a miss."""
    from cardforge.data import cache as data_cache
    from cardforge.games import find_game

    used = _modules_used(f"from cardforge.games import find_game\nfrom cardforge.data.loading import "
                         f"load_game_data\nload_game_data(find_game({game_id!r}))")
    keyed = {str(p.resolve()) for p in data_cache.code_files(find_game(game_id))}
    assert [f for f in used if f not in keyed] == []


def test_layout_key_covers_every_module_the_library_imports():
    from cardforge.render.cards import buildcache

    used = _modules_used("from cardforge.games import find_game\n"
                         "from cardforge.render.cards.decks import template_folders\n"
                         "from cardforge.layout.boxes import LayoutLibrary\n"
                         "lib = LayoutLibrary(template_folders(find_game('maphr'), None))\n"
                         "[lib.get(n) for n in lib.names()]")
    keyed = {str(p.resolve()) for p in cache.code_files(*buildcache._CODE)}
    # what deciding the folders needs (render, games) is not the library's content; layout may not
    # import text (independent layers, pyproject.toml)
    used = [f for f in used if "/render/" not in f and "/games/" not in f and "/text/" not in f]
    assert [f for f in used if f not in keyed] == []


def test_svg_program_key_covers_every_module_its_recording_imports():
    """An SVG icon's recorded drawing (render/drawing/svgdraw.py) is keyed on every module it reads."""
    from cardforge.render.drawing import svgdraw

    used = _modules_used("from pathlib import Path\nfrom cardforge.render.drawing.svgdraw import svg_program\n"
                         "svg_program(Path('card_data/cristaux/icons/king.svg'))")
    keyed = {str(p.resolve()) for p in cache.code_files(*svgdraw._CODE)}
    assert [f for f in used if f not in keyed] == []


def test_a_change_to_a_module_validation_uses_gives_fresh_data(folder, monkeypatch):
    """End to end: after a change to markup.py (where the palette lives), load_game_data
    validates again instead of returning the cached data."""
    import cardforge.data.loading as loading
    import cardforge.markup as markup
    from cardforge.games import find_game

    game = find_game("tunhell")
    calls = []
    real = loading.check_game_data

    def counting(*args, **kwargs):
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(loading, "check_game_data", counting)
    loading.load_game_data(game)
    loading.load_game_data(game)
    assert len(calls) == 1  # the second is a hit
    st = os.stat(markup.__file__)
    try:
        os.utime(markup.__file__, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000))
        loading.load_game_data(game)
        assert len(calls) == 2  # validated again
    finally:
        os.utime(markup.__file__, ns=(st.st_atime_ns, st.st_mtime_ns))


def test_a_damaged_data_entry_is_a_miss(folder):
    from cardforge.data import cache as data_cache
    from cardforge.data.loading import game_dir, load_game_data
    from cardforge.games import find_game

    game = find_game("tunhell")
    first = load_game_data(game)
    entries = list(folder.glob("tunhell-*.pickle"))
    assert len(entries) == 1
    entries[0].write_bytes(b"\x80\x05damaged")
    assert data_cache.load(game, game_dir(game, None))[1] is None
    again = load_game_data(game)
    assert [c.id for c in again.cards] == [c.id for c in first.cards]
    assert data_cache.load(game, game_dir(game, None))[1] is not None  # stored again


def test_layout_library_from_the_cache_is_the_same(folder):
    from cardforge.games import find_game
    from cardforge.layout.boxes import LayoutLibrary
    from cardforge.render.cards import buildcache
    from cardforge.render.cards.decks import template_folders

    folders = template_folders(find_game("maphr"), None)
    fresh = LayoutLibrary(folders)
    buildcache._memory.clear()
    first = buildcache.layout_library(folders)
    buildcache._memory.clear()
    second = buildcache.layout_library(folders)  # read from disk
    assert len(list((folder / "layouts").glob("*.pickle"))) == 1
    for name in fresh.names():
        assert second.get(name) == fresh.get(name) == first.get(name)
        assert second.get(name).digest == fresh.get(name).digest
    for entry in (folder / "layouts").glob("*.pickle"):
        entry.write_bytes(b"damaged")
    buildcache._memory.clear()
    third = buildcache.layout_library(folders)  # a miss, built again
    assert sorted(third.names()) == sorted(fresh.names())


def test_code_cache_misses_on_a_damaged_entry_and_keys_on_jinja2(folder, monkeypatch):
    import jinja2

    from cardforge.text.templating import CodeCache

    store = CodeCache(folder / "jinja")
    code = compile("x = 1", "<t>", "exec")
    store.put(("tpl", 1), code)
    again = CodeCache(folder / "jinja")
    assert again.get(("tpl", 1)) == code and again.hits == 1
    for entry in (folder / "jinja").glob("*.bin"):
        entry.write_bytes(b"damaged")
    assert CodeCache(folder / "jinja").get(("tpl", 1)) is None
    salt = again.salt
    monkeypatch.setattr(jinja2, "__version__", "0.0-test")
    assert CodeCache(folder / "jinja").salt != salt


def test_font_from_the_cache_is_the_parsed_font(folder):
    from reportlab.pdfbase.ttfonts import TTFont

    from cardforge.render import fonts
    from cardforge.resources import FONTS_DIR

    path = FONTS_DIR / "DejaVuSans-Bold.ttf"
    parsed = TTFont("T-Bold", str(path), asciiReadable=False)
    first = fonts._load_ttf("T-Bold", path)  # a miss: parsed and stored
    entries = list((folder / "fonts").glob("T-Bold-*.bin"))
    assert len(entries) == 1
    cached = fonts._load_ttf("T-Bold", path)  # a hit
    assert isinstance(cached.face, fonts._CachedFace)
    for font in (first, cached):
        assert (font.fontName, font._asciiReadable) == (parsed.fontName, parsed._asciiReadable)
        assert font.face.charWidths == parsed.face.charWidths
        assert font.face.glyphToChar == parsed.face.glyphToChar  # the lazy table
        assert font.stringWidth("Œuvre ♚ café", 10) == parsed.stringWidth("Œuvre ♚ café", 10)
    entries[0].write_bytes(b"damaged")
    again = fonts._load_ttf("T-Bold", path)  # a miss: parsed again
    assert again.face.charWidths == parsed.face.charWidths


# --- what is installed: read once per environment (issue 32) -----------------------------------

@pytest.mark.slow
def test_a_new_install_is_seen_on_the_next_run(tmp_path):
    """The games registry reads the entry points from the cache of what is installed; a
    distribution installed since (a new ``*.dist-info`` on ``sys.path``) changes the key, so
    the next run finds its game without being told."""
    import shutil

    site = tmp_path / "site"
    game = site / "reliques_plugin"
    shutil.copytree(FIXTURES / "games" / "chasse_aux_reliques", game)
    (game / "__init__.py").write_text("GAME_FOLDER = __path__[0]\n", encoding="utf-8")
    env = {**os.environ, "CARDFORGE_CACHE": str(tmp_path / "cache"), "PYTHONPATH": str(site)}
    env.pop("CARDFORGE_NO_CACHE", None)

    def games() -> str:
        run = subprocess.run([sys.executable, "-m", "cardforge", "games"], env=env, cwd=tmp_path,
                             capture_output=True, text=True, timeout=120)
        assert run.returncode == 0, run.stderr
        return run.stdout

    assert "chasse_aux_reliques" not in games()
    assert "chasse_aux_reliques" not in games()  # now from the cache
    assert list((tmp_path / "cache").glob("installed-*.json"))
    dist = site / "reliques_plugin-1.0.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: reliques-plugin\nVersion: 1.0\n", encoding="utf-8")
    (dist / "entry_points.txt").write_text("[cardforge.games]\nchasse_aux_reliques = reliques_plugin\n",
                                           encoding="utf-8")
    assert "chasse_aux_reliques" in games()
    shutil.rmtree(dist)  # uninstalled: gone again
    assert "chasse_aux_reliques" not in games()


def test_installed_matches_the_package_metadata(folder):
    from importlib.metadata import entry_points, version

    cache.installed.cache_clear()
    first = cache.installed()
    cache.installed.cache_clear()
    again = cache.installed()  # from the entry written by the first
    assert first == again and list(folder.glob("installed-*.json"))
    assert again["versions"]["pydantic"] == version("pydantic")
    for group, found in again["entry_points"].items():
        assert found == sorted([ep.name, ep.value] for ep in entry_points(group=group))


def test_an_entry_point_loads_as_importlib_metadata_does():
    from cardforge.games import _EntryPoint

    assert _EntryPoint("x", "cardforge.units").load().__name__ == "cardforge.units"
    assert _EntryPoint("x", "cardforge.units:parse_length").load() is cache_module_attr("cardforge.units",
                                                                                         "parse_length")


def cache_module_attr(module: str, attr: str) -> object:
    import importlib

    return getattr(importlib.import_module(module), attr)


@pytest.mark.slow
def test_pydantic_finds_its_plugins_as_it_would_itself():
    """cardforge tells pydantic there are no plugins only when none is installed."""
    code = ("from cardforge.startup import import_pydantic; import_pydantic(); import sys;"
            "import pydantic.plugin._loader as l; searched = 'importlib.metadata' in sys.modules;"
            "from importlib.metadata import entry_points;"
            "print(searched, l._plugins, [e.value for e in entry_points(group='pydantic')])")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, cwd=ROOT)
    searched, plugins, installed = run.stdout.strip().split(" ", 2)
    if installed == "[]":  # none installed: none looked for, and pydantic knows there are none
        assert (searched, plugins) == ("False", "{}"), run.stderr
    else:  # pydantic searches itself
        assert searched == "True" and plugins == "None", run.stderr
