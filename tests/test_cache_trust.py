"""The cache is data, never code from anywhere (issue 38).

Whoever can write the cache folder — a shared ``CARDFORGE_CACHE``, a CI cache restored from an
untrusted branch, three flipped bits on a disk — must not make a later run execute anything,
fail, crash or hang: every entry is sealed with an HMAC under a key kept outside the cache
folder, read only if it is a regular file of a bounded size, in a folder of the user's own.
"""

from __future__ import annotations

import json
import marshal
import os
import pickle
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from cardforge import cache

from conftest import ROOT, run_cli

GAME = "mine_all_mine"  # its decks build makes an entry of every kind but the OTF copies
#: how long a guarded read may take before the test calls it a hang (a busy machine: generous;
#: a FIFO read that blocks never returns at all)
GUARD_SECONDS = 60


@pytest.fixture(autouse=True)
def fresh_state(monkeypatch):
    """Each test sees folders, keys and warnings afresh (a process checks each once)."""
    monkeypatch.setattr(cache, "_safe", set())
    monkeypatch.setattr(cache, "_warned", set())
    monkeypatch.setattr(cache, "_keys", {})


@pytest.fixture
def folder(tmp_path, monkeypatch) -> Path:
    monkeypatch.setenv("CARDFORGE_CACHE", str(tmp_path / "cache"))
    monkeypatch.setenv("CARDFORGE_CONFIG", str(tmp_path / "config"))
    monkeypatch.delenv("CARDFORGE_NO_CACHE", raising=False)
    return tmp_path / "cache"


def _kind(path: Path, root: Path) -> str:
    """An entry's kind from its name: ``jinja``, ``fonts``, ``edge-book``, ``data``…"""
    rel = path.relative_to(root)
    if len(rel.parts) > 1:
        return rel.parts[0]
    stem = path.name.rsplit("-", 1)[0]
    return "data" if stem == GAME else stem


def _entries(root: Path) -> list[Path]:
    return sorted(p for p in root.rglob("*") if p.is_file() and not p.name.endswith(".part"))


def _build(tmp_path: Path, out: str, timeout: float = 600) -> dict[str, bytes]:
    """A fresh process building the game's decks on the test's cache; its files' bytes."""
    env = {**os.environ, "CARDFORGE_CACHE": str(tmp_path / "cache"), "CARDFORGE_CONFIG": str(tmp_path / "config")}
    env.pop("CARDFORGE_NO_CACHE", None)
    run = subprocess.run([sys.executable, "-m", "cardforge", "build", GAME, "--only", "decks", "-o",
                          str(tmp_path / out)], env=env, cwd=ROOT, capture_output=True, text=True, timeout=timeout)
    assert run.returncode == 0, run.stderr
    assert "Traceback" not in run.stderr and "warning: " not in run.stderr, run.stderr
    return {str(p.relative_to(tmp_path / out)): p.read_bytes() for p in sorted((tmp_path / out).rglob("*"))
            if p.is_file() and not p.name.startswith(".")}  # not the lock file (its process id)


def _user_key(tmp_path: Path) -> bytes:
    return (tmp_path / "config" / cache.KEY_FILE).read_bytes()


def _flip(blob: bytes, offsets: list[int]) -> bytes:
    data = bytearray(blob)
    for i, at in enumerate(offsets):
        data[at] ^= 1 << (i * 3 % 8)
    return bytes(data)


# --- every entry kind, end to end --------------------------------------------------------------

KINDS = {"data", "game-spec", "installed", "layouts", "jinja", "fonts", "svg-program", "svg-programs", "edges",
         "edge-book", "sheet-choice"}


def test_flipped_bits_in_every_entry_kind_are_misses_and_the_output_is_the_same(tmp_path, monkeypatch):
    root = tmp_path / "cache"
    first = _build(tmp_path, "out1")
    entries = _entries(root)
    assert {_kind(p, root) for p in entries} == KINDS
    monkeypatch.setenv("CARDFORGE_CONFIG", str(tmp_path / "config"))  # this process reads with the same key
    copies = tmp_path / "copies"
    for path in entries:
        blob = path.read_bytes()
        flipped = _flip(blob, [len(blob) // 3, len(blob) // 2, len(blob) - 1])  # three bits
        path.write_bytes(flipped)
        copy = copies / path.relative_to(root)  # checked on a copy: the build meets the originals
        copy.parent.mkdir(parents=True, exist_ok=True)
        copy.write_bytes(flipped)
        assert cache.read_payload(copy) is None, path
        assert not copy.exists()  # a bad entry is removed
    again = _build(tmp_path, "out2")
    assert again == first  # byte for byte: every damaged entry was computed again
    for path in entries:  # and stored again, sound
        assert cache.read_payload(path) is not None, path


def _planted(path: Path, root: Path, sentinel: Path) -> bytes:
    """A payload for an entry of ``path``'s kind that, were it decoded or run, would write
    ``sentinel``."""
    write_it = f"open({str(sentinel)!r}, 'w').write('ran')"

    class Gadget:
        def __reduce__(self):
            return (exec, (write_it,))

    kind = _kind(path, root)
    if kind == "jinja":  # a template's code: run by jinja once loaded
        return marshal.dumps(compile(write_it, "<planted>", "exec"))
    if kind == "fonts":
        return marshal.dumps((pickle.dumps(Gadget()), {}, b""))
    if kind == "installed":  # an entry point the registry would load
        return json.dumps({"versions": {}, "entry_points": {"cardforge.games": [[GAME, "os:system"]],
                                                            "pydantic": []}}).encode()
    if kind == "sheet-choice":
        return b"0"
    return pickle.dumps(Gadget())


def test_planted_entries_never_run_code(tmp_path, monkeypatch):
    """Every entry replaced by one that would write a file if decoded or run, behind a header
    that looks right (magic, versions, length) but a MAC made with another key — what anyone
    without the user's key can write: all misses, nothing runs, the output is the same."""
    root = tmp_path / "cache"
    sentinel = tmp_path / "ran"
    first = _build(tmp_path, "out1")
    entries = _entries(root)
    attacker = os.urandom(cache.KEY_BYTES)
    for path in entries:
        path.write_bytes(cache.seal(path.name, _planted(path, root, sentinel), attacker))
    assert _build(tmp_path, "out2") == first
    assert not sentinel.exists()
    monkeypatch.setenv("CARDFORGE_CONFIG", str(tmp_path / "config"))  # this process reads with the user's key
    for path in entries:  # each planted entry was a miss, computed and stored again
        assert cache.read_payload(path) is not None, path


def test_a_leaked_key_still_builds_no_gadget_from_a_pickle(tmp_path, monkeypatch):
    """The second fence: a pickle sealed with the user's own key (a leaked key) is still
    decoded by the allow-list unpickler, which refuses ``exec``: a miss, nothing runs."""
    root = tmp_path / "cache"
    sentinel = tmp_path / "ran"
    first = _build(tmp_path, "out1")
    key = _user_key(tmp_path)
    planted = [p for p in _entries(root) if p.suffix == ".pickle" or _kind(p, root) == "fonts"]
    assert {_kind(p, root) for p in planted} == KINDS - {"jinja", "installed", "sheet-choice"}
    for path in planted:
        path.write_bytes(cache.seal(path.name, _planted(path, root, sentinel), key))
    assert _build(tmp_path, "out2") == first
    assert not sentinel.exists()
    monkeypatch.setenv("CARDFORGE_CONFIG", str(tmp_path / "config"))
    for path in planted:  # refused by the unpickler, computed and stored again
        payload = cache.read_payload(path)
        assert payload is not None and b"exec" not in payload, path


# --- the envelope, field by field -----------------------------------------------------------------

def test_every_field_of_the_envelope_is_checked(folder):
    path = folder / "entry.bin"
    assert cache.write(path, b"payload")
    sound = path.read_bytes()
    assert sound.startswith(cache.MAGIC) and sound.endswith(b"payload")
    assert oct(path.stat().st_mode & 0o777) == oct(0o600) and oct(folder.stat().st_mode & 0o777) == oct(0o700)
    mark = len(cache.MAGIC) + 2
    stamp_len = len(cache.stamp())
    length_at = mark + stamp_len
    mac_at = length_at + 8
    damaged = {
        "magic": _flip(sound, [0]),
        "format": sound[:len(cache.MAGIC) - 1] + b"\x02" + sound[len(cache.MAGIC):],
        "stamp": _flip(sound, [mark + 10]),
        "length": _flip(sound, [length_at]),
        "MAC": _flip(sound, [mac_at + 5]),
        "payload": _flip(sound, [len(sound) - 3]),
        "truncated": sound[:-1],
        "appended": sound + b"x",
        "empty": b"",
    }
    for what, blob in damaged.items():
        path.write_bytes(blob)
        assert cache.read_payload(path) is None, what
    path.write_bytes(sound)
    assert cache.read_payload(path) == b"payload"
    moved = folder / "other.bin"  # the MAC covers the entry's name: an entry moved is a miss
    os.rename(path, moved)
    assert cache.read_payload(moved) is None


def test_an_entry_of_another_cardforge_or_python_is_a_miss(folder, monkeypatch):
    path = folder / "entry.bin"
    assert cache.write(path, b"payload")
    with monkeypatch.context() as m:
        m.setattr(cache, "__version__", "0.0-test")
        assert cache.read_payload(path) is None
    assert cache.write(path, b"payload")
    with monkeypatch.context() as m:
        m.setattr(sys, "version", "2.7.18 (test)")
        assert cache.read_payload(path) is None


def test_folders_and_entries_are_private_whatever_the_umask(folder):
    old = os.umask(0o002)
    try:
        assert cache.write(folder / "sub" / "entry.bin", b"x")
    finally:
        os.umask(old)
    assert [oct(p.stat().st_mode & 0o777) for p in (folder, folder / "sub", folder / "sub" / "entry.bin")] \
        == [oct(0o700), oct(0o700), oct(0o600)]
    assert cache.read_payload(folder / "sub" / "entry.bin") == b"x"


# --- another type, planted with the user's own key -----------------------------------------------

def test_a_sealed_entry_of_another_type_is_a_miss(folder, tmp_path):
    from cardforge.data.loading import load_game_data
    from cardforge.games import find_game, read_game_spec
    from cardforge.text.templating import CodeCache

    game = find_game("tunhell")
    first = load_game_data(game)
    key = _user_key(tmp_path)
    [data_entry] = folder.glob("tunhell-*.pickle")
    data_entry.write_bytes(cache.seal(data_entry.name, pickle.dumps("not a game's data"), key))
    again = load_game_data(game)  # a miss, validated again: no AttributeError, no internal error
    assert [c.id for c in again.cards] == [c.id for c in first.cards]

    spec = read_game_spec(game.folder)
    for entry in folder.glob("game-spec-*.pickle"):
        entry.write_bytes(cache.seal(entry.name, pickle.dumps({"id": "forged"}), key))
    assert read_game_spec(game.folder) == spec

    store = CodeCache(folder / "jinja")
    store.put(("tpl", 1), compile("x = 1", "<t>", "exec"))
    [code_entry] = (folder / "jinja").glob("*.bin")
    code_entry.write_bytes(cache.seal(code_entry.name, marshal.dumps(42), key))
    assert CodeCache(folder / "jinja").get(("tpl", 1)) is None

    code = [tmp_path / "mod.py"]
    code[0].write_text("")
    assert cache.memo("n", [b"x"], code, lambda: 3, codec="json", expect=int) == 3
    [memo_entry] = folder.glob("n-*.json")
    memo_entry.write_bytes(cache.seal(memo_entry.name, b'"three"', key))
    assert cache.memo("n", [b"x"], code, lambda: 4, codec="json", expect=int) == 4


def test_the_unpickler_builds_plain_data_and_refuses_anything_that_runs_code():
    from cardforge.data.models import CardBase
    from cardforge.paths import write_atomic

    plain = {"a": [1, 2.5, "é", b"x", None, True], "b": (frozenset({1}), {2}), "p": Path("x/y")}
    assert cache.unpickle(pickle.dumps(plain)) == plain
    card = CardBase(id="etayage", kind="action", name="Étayage")
    assert cache.unpickle(pickle.dumps(card)) == card

    class Call:
        def __init__(self, fn, *args):
            self.fn, self.args = fn, args

        def __reduce__(self):
            return (self.fn, self.args)

    for gadget in (Call(exec, "x = 1"), Call(eval, "1"), Call(os.system, "true"), Call(getattr, Path("x"), "unlink"),
                   Call(write_atomic, "x", print), Call(subprocess.Popen, ["true"]), Call(__import__, "os")):
        with pytest.raises(pickle.UnpicklingError, match="is not built from the cache"):
            cache.unpickle(pickle.dumps(gadget))



def test_the_unpickler_builds_the_classes_of_a_game_s_rules_only_once_they_are_imported():
    """A game folder's rules (a shipped game's too) are imported under a name of their own; their
    card models are in the game's cached data, built only when that module is already loaded (its
    game was found); any other name of the kind, or a function of the rules, is refused."""
    import sys

    from cardforge.games import find_game

    rules = find_game("tunhell").rules
    assert rules.__name__.startswith(cache.RULES_MODULE_PREFIX)
    cards = sys.modules[rules.__name__ + ".cards"]
    dwarf = next(c for c in cards.__dict__.values() if isinstance(c, type) and c.__name__ == "Dwarf")
    blob = pickle.dumps(dwarf)
    assert cache.unpickle(blob) is dwarf
    with pytest.raises(pickle.UnpicklingError, match="is not built from the cache"):
        other = rules.__name__[:-10] + "0" * 10  # another folder's copy, never imported (same length)
        assert other not in sys.modules
        cache.unpickle(blob.replace(rules.__name__.encode(), other.encode()))
    with pytest.raises(pickle.UnpicklingError, match="is not built from the cache"):
        cache.unpickle(pickle.dumps(cards.is_plus))  # a function: never

# --- special files where an entry goes ----------------------------------------------------------------

def _guarded(fn):
    """``fn()`` in a thread; its result, or a failure if it is still running after the guard."""
    result: list = []
    thread = threading.Thread(target=lambda: result.append(fn()), daemon=True)
    thread.start()
    thread.join(GUARD_SECONDS)
    assert not thread.is_alive(), "still reading the entry: it blocked"
    assert result, "it failed (see the thread's traceback above)"
    return result[0]


def _special(path: Path, what: str) -> None:
    path.unlink()
    if what == "fifo":
        os.mkfifo(path)
    elif what == "link to /dev/zero":
        os.symlink("/dev/zero", path)
    elif what == "link to a sound entry":  # even a link to a good entry is not followed
        os.symlink(path.with_name("elsewhere"), path)
    elif what == "huge file":
        with open(path, "wb") as f:
            f.truncate(cache.MAX_ENTRY_BYTES + 1)  # sparse: no disk used
    else:  # a folder
        path.mkdir()


SPECIALS = ["fifo", "link to /dev/zero", "link to a sound entry", "huge file", "folder"]


@pytest.mark.parametrize("what", SPECIALS)
def test_a_special_file_at_a_data_entry_is_a_miss(folder, what):
    from cardforge.data.loading import load_game_data
    from cardforge.games import find_game

    game = find_game("tunhell")
    first = load_game_data(game)
    [entry] = folder.glob("tunhell-*.pickle")
    if what == "link to a sound entry":
        os.link(entry, entry.with_name("elsewhere"))
    _special(entry, what)
    again = _guarded(lambda: load_game_data(game))
    assert [c.id for c in again.cards] == [c.id for c in first.cards]
    if what != "folder":  # stored again, as a regular file (a folder cannot be replaced by a rename)
        assert entry.is_file() and not entry.is_symlink() and cache.read_payload(entry) is not None


@pytest.mark.parametrize("what", SPECIALS)
def test_a_special_file_at_a_font_or_code_entry_is_a_miss(folder, what):
    from cardforge.render import fonts
    from cardforge.resources import FONTS_DIR
    from cardforge.text.templating import CodeCache

    path = FONTS_DIR / "DejaVuSans-Bold.ttf"
    fonts._load_ttf("T-Bold", path)
    [entry] = (folder / "fonts").glob("T-Bold-*.bin")
    if what == "link to a sound entry":
        os.link(entry, entry.with_name("elsewhere"))
    _special(entry, what)
    font = _guarded(lambda: fonts._load_ttf("T-Bold", path))
    assert font.stringWidth("Œuvre", 10) > 0

    store = CodeCache(folder / "jinja")
    store.put(("tpl", 1), compile("x = 1", "<t>", "exec"))
    [code] = (folder / "jinja").glob("*.bin")
    if what == "link to a sound entry":
        os.link(code, code.with_name("elsewhere"))
    _special(code, what)
    assert _guarded(lambda: CodeCache(folder / "jinja").get(("tpl", 1)) is None)


# --- the cache folder: the user's own, writable by nobody else ---------------------------------------

def _load_counting(monkeypatch):
    import cardforge.data.loading as loading
    from cardforge.games import find_game

    calls: list[int] = []
    real = loading.check_game_data

    def counting(*args, **kwargs):
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(loading, "check_game_data", counting)
    return lambda: loading.load_game_data(find_game("tunhell")), calls


@pytest.mark.parametrize("mode, who", [(0o777, "other users"), (0o770, "its group"), (0o702, "other users")])
def test_a_cache_folder_others_can_write_is_refused_with_one_clear_warning(folder, monkeypatch, mode, who):
    load, calls = _load_counting(monkeypatch)
    first = load()
    assert len(calls) == 1 and load() and len(calls) == 1  # a hit
    before = {p: p.stat().st_mtime_ns for p in _entries(folder)}
    folder.chmod(mode)
    monkeypatch.setattr(cache, "_safe", set())  # a new process
    result = run_cli("check", "tunhell")
    assert result.code == 0, result.err
    lines = [line for line in result.err.splitlines() if "cache" in line]
    assert lines == [f"warning: {folder}: the cache folder can be written by {who} (mode {mode:04o}): anyone "
                     "who can write there could plant entries, so the cache is not used (every run computes "
                     f"everything again); run 'chmod go-w {folder}', or set CARDFORGE_CACHE to a folder of your own"]
    validated = len(calls)
    again = load()  # uncached: validated again though a sound entry is there
    assert len(calls) == validated + 1 and [c.id for c in again.cards] == [c.id for c in first.cards]
    assert {p: p.stat().st_mtime_ns for p in _entries(folder)} == before  # nothing read, written or removed
    assert cache.cache_dir() is None
    folder.chmod(0o700)
    monkeypatch.setattr(cache, "_safe", set())
    assert cache.cache_dir() == folder


def test_a_sub_folder_others_can_write_or_a_linked_one_is_refused(folder, tmp_path, capsys):
    from cardforge.render import fonts
    from cardforge.resources import FONTS_DIR

    path = FONTS_DIR / "DejaVuSans-Bold.ttf"
    (folder / "fonts").mkdir(parents=True, mode=0o700)
    (folder / "fonts").chmod(0o777)
    fonts._load_ttf("T-Bold", path)
    assert list((folder / "fonts").iterdir()) == []  # nothing written there
    assert f"warning: {folder / 'fonts'}: the cache folder can be written by other users (mode 0777)" \
        in capsys.readouterr().err
    (folder / "fonts").rmdir()
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir(mode=0o700)
    os.symlink(elsewhere, folder / "fonts")
    fonts._load_ttf("T-Bold", path)
    assert list(elsewhere.iterdir()) == []
    assert f"warning: {folder / 'fonts'}: the cache folder is a symbolic link, not a folder" in capsys.readouterr().err


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="giving a folder away needs root")
def test_another_users_cache_folder_is_refused(folder, monkeypatch):
    load, calls = _load_counting(monkeypatch)
    load()
    os.chown(folder, 65534, 65534)
    monkeypatch.setattr(cache, "_safe", set())
    result = run_cli("check", "tunhell")
    assert result.code == 0
    assert f"warning: {folder}: the cache folder belongs to another user (uid 65534, you are 0)" in result.err
    assert cache.cache_dir() is None


# --- the key: outside the cache, the user's only -----------------------------------------------------

def test_the_key_is_made_once_private_and_kept(folder, tmp_path, monkeypatch):
    key_file = tmp_path / "config" / cache.KEY_FILE
    assert not key_file.exists()
    assert cache.write(folder / "entry.bin", b"payload")
    key = key_file.read_bytes()
    assert len(key) == 32 and oct(key_file.stat().st_mode & 0o777) == oct(0o600)
    assert oct(key_file.parent.stat().st_mode & 0o777) == oct(0o700)
    assert [p.name for p in key_file.parent.iterdir()] == [cache.KEY_FILE]  # no *.part left
    monkeypatch.setattr(cache, "_keys", {})  # a new process: the same key, the entry a hit
    assert cache.read_payload(folder / "entry.bin") == b"payload" and key_file.read_bytes() == key


def test_a_cache_from_elsewhere_is_all_misses(folder, tmp_path, monkeypatch):
    """A cache restored from another machine or branch (or shared with another account) was
    sealed with another key: nothing in it is used."""
    assert cache.write(folder / "entry.bin", b"payload")
    monkeypatch.setenv("CARDFORGE_CONFIG", str(tmp_path / "other-config"))
    assert cache.read_payload(folder / "entry.bin") is None


@pytest.mark.parametrize("problem", ["readable by others", "a symbolic link", "wrong size", "inside the cache",
                                     "cannot be made"])
def test_a_key_that_cannot_be_trusted_turns_the_cache_off_with_a_warning(folder, tmp_path, monkeypatch, capsys,
                                                                         problem):
    config = tmp_path / "config"
    config.mkdir(mode=0o700)
    key_file = config / cache.KEY_FILE
    if problem == "readable by others":
        key_file.write_bytes(os.urandom(32))
        key_file.chmod(0o644)
        expected = f"warning: {key_file}: the cache's key can be read by others (mode 0644); remove it"
    elif problem == "a symbolic link":
        (tmp_path / "key").write_bytes(os.urandom(32))
        (tmp_path / "key").chmod(0o600)
        os.symlink(tmp_path / "key", key_file)
        expected = f"warning: {key_file}: the cache's key is a symbolic link (it could lead anywhere); remove it"
    elif problem == "wrong size":
        key_file.write_bytes(b"short")
        key_file.chmod(0o600)
        expected = f"warning: {key_file}: the cache's key is 5 bytes, not 32; remove it"
    elif problem == "inside the cache":
        monkeypatch.setenv("CARDFORGE_CONFIG", str(folder / "config"))
        key_file = folder / "config" / cache.KEY_FILE
        expected = f"warning: {key_file}: the cache's key is inside the cache folder {folder}"
    else:
        config.rmdir()
        config.write_text("a file where the config folder goes")
        expected = f"warning: {key_file}: cannot make the cache's key ("
    code = [tmp_path / "mod.py"]
    code[0].write_text("")
    assert cache.memo("n", [b"x"], code, lambda: 1) == 1
    assert cache.memo("n", [b"x"], code, lambda: 2) == 2  # nothing kept
    assert cache.cache_dir() is None
    err = capsys.readouterr().err
    assert err.count("warning: ") == 1 and err.startswith(expected), err
    assert "the cache is not used" in err
    assert not list(folder.glob("n-*"))


def _cff_font(chars: str) -> bytes:
    """A small OpenType font with CFF outlines, by bench/bombs.py's maker (loaded by path: the
    name ``fuzz`` may be bench's module or the tests' package, depending on the tests run before)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("cache_trust_bombs", ROOT / "bench" / "bombs.py")
    assert spec is not None and spec.loader is not None
    bombs = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bombs)
    return bombs.font_cff(chars=chars, family="Slab")


def test_an_otf_copy_is_a_sealed_entry_and_a_planted_font_is_a_miss(folder, tmp_path, monkeypatch):
    """A CFF font's TrueType copy (render/otf.py) used to be a bare ``.ttf`` in the cache that
    ReportLab parsed as found: now a sealed entry like any other."""
    from cardforge.render import otf

    font = tmp_path / "Slab-Regular.otf"
    font.write_bytes(_cff_font("ABCDEFabcdef0123456789"))
    monkeypatch.setattr(otf, "_CONVERTED", {})
    made = otf.truetype_copy(font)
    assert isinstance(made, bytes) and made[:4] == b"\x00\x01\x00\x00"  # TrueType outlines
    [entry] = (folder / "otf").glob("*.ttf")
    assert entry.read_bytes().startswith(cache.MAGIC) and cache.read_payload(entry) == made
    for planted in (_flip(entry.read_bytes(), [len(made) // 2, 60, 200]), made):  # damaged; a bare font
        entry.write_bytes(planted)
        monkeypatch.setattr(otf, "_CONVERTED", {})  # a new process
        assert otf.truetype_copy(font) == made  # converted again
        assert cache.read_payload(entry) == made


def test_an_otf_copy_does_not_depend_on_the_clock(tmp_path, monkeypatch):
    """A miss converts the font again: the copy must be the same bytes whenever it is made
    (fontTools stamped ``head.modified`` with the clock; the flipped-bit test above saw it)."""
    from cardforge.render import otf

    blob = _cff_font("ABCabc")
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1000000000")  # the clock fontTools reads (reproducible builds)
    before = otf._convert(blob)
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "2000000000")
    assert otf._convert(blob) == before
