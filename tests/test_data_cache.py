"""The validated-data cache: a hit returns the same data; any change to a data file misses."""

from __future__ import annotations

import shutil

from cardforge.data import cache
from cardforge.data.loading import load_game_data
from cardforge.games import find_game

from conftest import ROOT


def test_hit_then_miss_after_an_edit(tmp_path, monkeypatch):
    monkeypatch.setenv("CARDFORGE_CACHE", str(tmp_path / "cache"))
    monkeypatch.delenv("CARDFORGE_NO_CACHE", raising=False)
    game = find_game("tunhell")
    shutil.copytree(ROOT / "card_data" / "tunhell", tmp_path / "data" / "tunhell")
    root = tmp_path / "data"

    first = load_game_data(game, root)
    key, hit = cache.load(game, root / "tunhell")
    assert hit is not None and [c.id for c in hit.cards] == [c.id for c in first.cards]
    assert hit.card("dragon") == first.card("dragon")

    mine = root / "tunhell" / "mine.yaml"
    mine.write_text(mine.read_text(encoding="utf-8") + "\n# edited\n", encoding="utf-8")
    key2, miss = cache.load(game, root / "tunhell")
    assert key2 != key and miss is None


def test_invalid_data_is_never_cached(tmp_path, monkeypatch):
    from conftest import FIXTURES

    monkeypatch.setenv("CARDFORGE_CACHE", str(tmp_path / "cache"))
    game = find_game("tunhell")
    try:
        load_game_data(game, FIXTURES / "bad_data")
    except Exception:
        pass
    assert not list((tmp_path / "cache").glob("*.pickle"))


def test_cache_can_be_turned_off(monkeypatch):
    monkeypatch.setenv("CARDFORGE_NO_CACHE", "1")
    assert cache.cache_dir() is None


def test_a_change_to_any_module_validation_uses_misses(tmp_path, monkeypatch):
    """The key covers the data layer and every shared module it reads: a palette change in
    markup.py or a unit change in units.py must give fresh data, not the cached one."""
    import os

    import cardforge.markup as markup
    import cardforge.units as units

    monkeypatch.setenv("CARDFORGE_CACHE", str(tmp_path / "cache"))
    game = find_game("tunhell")
    folder = ROOT / "card_data" / "tunhell"
    before = cache.fingerprint(game, folder)
    for module in (markup, units, cache):
        path = module.__file__
        st = os.stat(path)
        try:
            os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000))
            assert cache.fingerprint(game, folder) != before, path
        finally:
            os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))
    assert cache.fingerprint(game, folder) == before
