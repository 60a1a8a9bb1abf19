"""A build of a game is one transaction (issue 22): real `cardforge build` processes are
interrupted (SIGINT, SIGTERM, SIGKILL) at named points of the build, made to fail, raced, and
pointed at output folders in bad states; afterwards the folder is, file for file (sha256,
manifest included), the previous build or the new one — never a mix — and the next build
leaves no staging folder or `.part` file behind.

Builds are paused with the test hook of `cardforge/render/builds/build.py`
(``CARDFORGE_TEST_PAUSE=<point>@<file>``): the process writes its pid to the file and sleeps
at the point, and the test signals it there. Small game (Mine All Mine, 18 cards)."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

from cardforge.errors import OutputError
from cardforge.games import find_game
from cardforge.render.builds.build import BuildInterrupted, build_game, recover
from cardforge.settings import BuildSettings

from conftest import ROOT
from waiting import PATIENCE

pytestmark = pytest.mark.slow  # in `pytest`, left out of the quick lane (`pytest -m "not slow"`)

GAME = "mine_all_mine"
NEW = ("--duplex", "none", "--paper", "letter")  # the interrupted build: every file differs from the default


def env(tmp_path: Path, **extra: str) -> dict[str, str]:
    e = {k: v for k, v in os.environ.items() if not k.startswith("CARDFORGE_")}
    e["CARDFORGE_CONFIG"] = os.environ["CARDFORGE_CONFIG"]  # the suite's cache key, never the user's
    e["CARDFORGE_CACHE"] = os.environ.get("CARDFORGE_CACHE") or str(tmp_path / "cache")
    e.update(extra)
    return e


def cmd(out: Path, *args: str) -> list[str]:
    return [sys.executable, "-m", "cardforge", "build", GAME, "-o", str(out), "-q", *args]


def run(tmp_path: Path, out: Path, *args: str, umask: int | None = None, **extra: str):
    return subprocess.run(cmd(out, *args), cwd=tmp_path, env=env(tmp_path, **extra), capture_output=True,
                          text=True, timeout=120, preexec_fn=(lambda: os.umask(umask)) if umask is not None else None)


def start_paused(tmp_path: Path, out: Path, point: str, *args: str) -> subprocess.Popen:
    """A build that stops at ``point`` (returns once it is there)."""
    from test_confine import start_paused as paused

    return paused(tmp_path, point, "build", GAME, "-o", out, "-q", *args)


def snapshot(folder: Path) -> dict[str, str]:
    """Every entry of the folder: name → sha256 of a file (or what else it is)."""
    out = {}
    for path in sorted(folder.iterdir()):
        out[path.name] = hashlib.sha256(path.read_bytes()).hexdigest() if path.is_file() else "not a file"
    return out


def leftovers(out: Path) -> list[str]:
    return sorted(p.name for p in out.glob(f".{GAME}.staging-*")) + \
        sorted(p.name for p in (out / GAME).glob("*.part"))


def build_in_process(out: Path, **options) -> None:
    build_game(find_game(GAME), BuildSettings(out_dir=out, **options))


@pytest.fixture
def previous(tmp_path, monkeypatch):
    """An output folder holding a complete default build, and its snapshot."""
    monkeypatch.setenv("CARDFORGE_CACHE", os.environ.get("CARDFORGE_CACHE") or str(tmp_path / "cache"))
    monkeypatch.delenv("CARDFORGE_DATA", raising=False)
    out = tmp_path / "out"
    out.mkdir()
    build_in_process(out)
    before = snapshot(out / GAME)
    assert {"deck.pdf", "aids.pdf", "setup.pdf", "manifest.json", "cards.json"} <= set(before)
    return out, before


@pytest.fixture(scope="module")
def new_reference(tmp_path_factory):
    """What a complete build with NEW settings writes (built once, in its own process)."""
    tmp = tmp_path_factory.mktemp("reference")
    out = tmp / "out"
    r = run(tmp, out, *NEW)
    assert r.returncode == 0, r.stderr
    return snapshot(out / GAME)


# --- interrupted builds -----------------------------------------------------------------------

@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM, signal.SIGKILL], ids=lambda s: s.name)
@pytest.mark.parametrize("point", ["locked", "decks", "staged"])
def test_a_killed_build_leaves_the_previous_output(previous, tmp_path, sig, point):
    out, before = previous
    proc = start_paused(tmp_path, out, point, *NEW)
    if point != "locked":  # the new files are written, in the staging folder only
        [staging] = out.glob(f".{GAME}.staging-*")
        assert (staging / "deck.pdf").is_file()
    proc.send_signal(sig)
    _, err = proc.communicate(timeout=PATIENCE)
    if sig == signal.SIGKILL:
        assert proc.returncode == -signal.SIGKILL
    else:
        assert proc.returncode == 128 + sig, err
        assert f"interrupted ({sig.name})" in err and "left as it was" in err
        assert "internal error" not in err and "Traceback" not in err
        assert leftovers(out) == []  # cleaned up on the way out
    assert snapshot(out / GAME) == before  # every file, manifest included, as it was

    # what a SIGKILL leaves (and `.part` files of older versions) goes with the next build
    (out / GAME / ".deck.pdf.k1l2e3d.part").write_bytes(b"%PDF-1.4 half")
    build_in_process(out, only=frozenset({"pads"}))
    assert leftovers(out) == []
    after = snapshot(out / GAME)
    assert after.pop("score-pad.pdf") and after.pop("manifest.json")
    assert after == {k: v for k, v in before.items() if k not in ("score-pad.pdf", "manifest.json")}


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM], ids=lambda s: s.name)
def test_a_signal_during_the_swap_waits_for_it_to_finish(previous, tmp_path, new_reference, sig):
    out, before = previous
    proc = start_paused(tmp_path, out, "committing", *NEW)  # one file renamed in, the rest to go
    proc.send_signal(sig)
    _, err = proc.communicate(timeout=PATIENCE)
    assert proc.returncode == 128 + sig
    assert "it was finished first" in err
    assert snapshot(out / GAME) == new_reference != before
    assert leftovers(out) == []


def test_a_switch_cut_short_by_sigkill_leaves_one_build_whole(previous, tmp_path, new_reference):
    """issue 31: a SIGKILL during the final swap used to leave a folder mixing old and new files
    until the next build. Now everything is staged (the files kept from the folder carried over
    too) before one atomic exchange: a kill just before it leaves the previous build, whole."""
    out, before = previous
    proc = start_paused(tmp_path, out, "committing", *NEW)  # staged, carried over: the exchange is next
    proc.kill()
    proc.wait(timeout=PATIENCE)
    assert snapshot(out / GAME) == before  # never a mix
    [staging] = out.glob(f".{GAME}.staging-*")
    assert (staging / "deck-backs.pdf").is_file()  # the new build, complete, never switched in
    recover(out, GAME)  # the first step of any next build, under the lock
    assert snapshot(out / GAME) == before
    assert leftovers(out) == []


def test_ctrl_c_in_process_raises_and_leaves_the_folder(previous, monkeypatch):
    """The library's own view: a BuildInterrupted (a KeyboardInterrupt) out of build_game."""
    out, before = previous
    import cardforge.render.builds.build as build_module

    def interrupt(point):
        if point == "staged":
            os.kill(os.getpid(), signal.SIGTERM)

    monkeypatch.setattr(build_module, "checkpoint", interrupt)
    with pytest.raises(BuildInterrupted) as caught:
        build_in_process(out, paper="letter")
    assert caught.value.signum == signal.SIGTERM and not caught.value.committed
    assert signal.getsignal(signal.SIGTERM) is signal.SIG_DFL  # handlers put back
    assert snapshot(out / GAME) == before and leftovers(out) == []


# --- failures -----------------------------------------------------------------------------

def test_a_failing_printables_phase_leaves_the_old_deck_and_manifest(tmp_path, monkeypatch):
    data = tmp_path / "data"
    shutil.copytree(ROOT / "card_data" / GAME, data / GAME)
    out = tmp_path / "out"
    monkeypatch.setenv("CARDFORGE_CACHE", os.environ.get("CARDFORGE_CACHE") or str(tmp_path / "cache"))
    build_in_process(out, data_root=data)
    before = snapshot(out / GAME)
    aids = data / GAME / "aids.yaml"
    aids.write_text(aids.read_text(encoding="utf-8").replace("source: exemple-d-arrivee",
                                                             "source: exemple-inconnu"), encoding="utf-8")
    # the deck would change too (letter paper): it is built first, then the aids fail
    r = subprocess.run([sys.executable, "-m", "cardforge", "--data", str(data), "build", GAME, "-o", str(out),
                        "--paper", "letter"], cwd=tmp_path, env=env(tmp_path), capture_output=True, text=True,
                       timeout=120)
    assert r.returncode == 1
    assert "exemple-inconnu" in r.stderr and "build failed" in r.stderr
    assert r.stdout == ""  # no file reported written
    assert snapshot(out / GAME) == before
    assert leftovers(out) == []


def test_a_back_colour_that_is_not_one_fails_cleanly(previous, tmp_path, cli):
    """Boards, pads and aids are drawn in the default back's colour: a bad one is a problem
    naming deck.yaml (it was a ValueError from ReportLab, after cards.json was rewritten)."""
    out, before = previous
    data = tmp_path / "data"
    shutil.copytree(ROOT / "card_data" / GAME, data / GAME)
    deck = data / GAME / "deck.yaml"
    deck.write_text(deck.read_text(encoding="utf-8").replace('colour: "#1b2a4a"', 'colour: "bleu-nuit"'),
                    encoding="utf-8")
    r = cli("--data", data, "build", GAME, "-o", out, "--only", "boards,pads,aids")
    assert r.code == 1, r.err
    # found with the data (as `check` finds it), before anything is drawn
    assert "backs.default.colour: must be a colour '#rrggbb' or one of" in r.err and "got 'bleu-nuit'" in r.err
    assert "internal error" not in r.err
    assert snapshot(out / GAME) == before


def test_an_error_writing_leaves_the_folder(previous, monkeypatch):
    """A full disk while the aids are written: a clean error, the folder as it was."""
    out, before = previous
    import errno

    import cardforge.render.sheets.printables as printables

    def full(*args, **kwargs):
        raise OSError(errno.ENOSPC, "No space left on device", str(out / "x"))

    monkeypatch.setattr(printables, "_write_aids", full)
    with pytest.raises(OutputError) as caught:
        build_in_process(out, paper="letter")
    assert "No space left on device" in str(caught.value)
    assert snapshot(out / GAME) == before and leftovers(out) == []


# --- concurrency --------------------------------------------------------------------------

def test_two_builds_at_once_never_mix(tmp_path, new_reference):
    out = tmp_path / "out"
    out.mkdir()
    default = [*cmd(out), "--paper", "a4"]
    procs = [subprocess.Popen(c, cwd=tmp_path, env=env(tmp_path), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True) for c in (default, cmd(out, *NEW))]
    results = [(p.wait(timeout=120), p.communicate()[1]) for p in procs]
    # the second waited for the first (or, on a machine so busy that the first took longer than
    # the 10 s wait, refused saying why)
    assert all(code == 0 or (code == 1 and "another cardforge build (pid " in err) for code, err in results), results
    assert any(code == 0 for code, _ in results)
    after = snapshot(out / GAME)
    manifest = json.loads((out / GAME / "manifest.json").read_text(encoding="utf-8"))
    papers = {f["paper"] for f in manifest["files"]}
    assert len(papers) == 1  # never an A4 deck.pdf beside a Letter deck-backs.pdf
    listed = {f["path"]: f["sha256"] for f in manifest["files"]}
    assert set(after) == set(listed) | {"manifest.json", "cards.json"}
    assert all(after[name] == sha for name, sha in listed.items())
    if papers == {"letter"}:
        assert after == new_reference


def test_a_second_build_refuses_after_waiting(previous, tmp_path):
    out, before = previous
    proc = start_paused(tmp_path, out, "staged", *NEW)
    try:
        with pytest.raises(OutputError) as caught:
            build_in_process(out, lock_wait=0.3)
        message = str(caught.value)
        assert f"another cardforge build (pid {proc.pid}) is writing this folder; waited 0.3 s" in message
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.communicate(timeout=PATIENCE)
    assert snapshot(out / GAME) == before


# --- the folder's state -------------------------------------------------------------------

def test_stale_files_of_another_mode_are_removed(tmp_path, monkeypatch, cli):
    monkeypatch.setenv("CARDFORGE_CACHE", os.environ.get("CARDFORGE_CACHE") or str(tmp_path / "cache"))
    out = tmp_path / "out"
    assert cli("build", GAME, "-o", out, "-q", "--duplex", "none").code == 0
    assert {"deck-backs.pdf", "aids-backs.pdf"} <= set(snapshot(out / GAME))
    r = cli("build", GAME, "-o", out)
    assert r.code == 0, r.err
    assert f"{(out / GAME / 'aids-backs.pdf').as_posix()} removed (not part of this build)" in r.out
    files = set(snapshot(out / GAME))
    assert "deck-backs.pdf" not in files and "aids-backs.pdf" not in files
    manifest = json.loads((out / GAME / "manifest.json").read_text(encoding="utf-8"))
    assert sorted(f["path"] for f in manifest["files"]) == ["aids.pdf", "boards.pdf", "deck-ship.pdf", "deck.pdf",
                                                             "instructions.pdf", "score-pad.pdf", "setup.pdf"]
    # a build of the pads alone keeps the other printables (and their manifest entries)
    deck = snapshot(out / GAME)["deck.pdf"]
    assert cli("build", GAME, "-o", out, "-q", "--only", "pads", "--paper", "letter").code == 0
    manifest = json.loads((out / GAME / "manifest.json").read_text(encoding="utf-8"))
    assert {f["path"]: f["paper"] for f in manifest["files"]}["score-pad.pdf"] == "letter"
    assert {f["path"]: f["sha256"] for f in manifest["files"]}["deck.pdf"] == deck == snapshot(out / GAME)["deck.pdf"]


BAD_MANIFESTS = {
    "a list": ("[]", "a JSON list, not an object"),
    "files not a list": ('{"game": "mine_all_mine", "files": 5}', "'files' is number, not a list"),
    "deeply nested": ("[" * 100_000 + "]" * 100_000, "nested too deeply"),
    "another game": ('{"game": "maphr", "files": []}', "the manifest of 'maphr', not of 'mine_all_mine'"),
    "a path outside": ('{"game": "mine_all_mine", "files": [{"path": "../../etc/passwd", "kind": "deck", '
                       '"pages": 1, "cards": 1, "paper": "a4", "sha256": "x"}]}',
                       "path '../../etc/passwd' is not the name of a file in this folder"),
    "not JSON": ("{", "not JSON"),
}


@pytest.mark.parametrize("name", BAD_MANIFESTS)
def test_a_bad_manifest_is_a_clean_error_before_anything_is_replaced(previous, cli, name):
    out, _ = previous
    text, message = BAD_MANIFESTS[name]
    (out / GAME / "manifest.json").write_text(text, encoding="utf-8")
    before = snapshot(out / GAME)
    r = cli("build", GAME, "-o", out, "--paper", "letter")
    assert r.code == 1
    assert f"{out / GAME / 'manifest.json'}" in r.err and message in r.err, r.err
    assert "remove the file to start the folder afresh" in r.err
    assert "internal error" not in r.err
    assert snapshot(out / GAME) == before


def test_a_manifest_that_is_a_folder(previous, cli):
    out, _ = previous
    (out / GAME / "manifest.json").unlink()
    (out / GAME / "manifest.json").mkdir()
    r = cli("build", GAME, "-o", out)
    assert r.code == 1 and "a folder, not a file" in r.err and "internal error" not in r.err


def test_the_game_folder_a_file(tmp_path, cli):
    out = tmp_path / "out"
    out.mkdir()
    (out / GAME).write_text("not a folder", encoding="utf-8")
    r = cli("build", GAME, "-o", out)
    assert r.code == 1
    assert f"{out / GAME}: a regular file is there, where the game's output folder goes" in r.err
    assert (out / GAME).read_text(encoding="utf-8") == "not a folder"


def test_a_folder_where_the_deck_goes(previous, cli):
    out, _ = previous
    (out / GAME / "deck.pdf").unlink()
    (out / GAME / "deck.pdf").mkdir()
    before = snapshot(out / GAME)
    r = cli("build", GAME, "-o", out, "--paper", "letter")
    assert r.code == 1, r.err
    assert f"{out / GAME / 'deck.pdf'}: a folder is there, where the build writes a file; move it away" in r.err
    assert "nothing was replaced" in r.err
    assert snapshot(out / GAME) == before and leftovers(out) == []


def test_out_a_file_or_under_a_missing_folder(tmp_path, cli):
    (tmp_path / "file").write_text("x", encoding="utf-8")
    r = cli("build", GAME, "-o", tmp_path / "file")
    assert r.code == 2
    r = cli("build", GAME, "-o", tmp_path / "missing" / "deeper" / "out")
    assert r.code == 2 and "does not exist, and cardforge creates missing folders only below" in r.err
    assert not (tmp_path / "missing").exists()


@pytest.mark.parametrize("kind", ["/dev/zero", "fifo"])
def test_changed_since_at_a_device_or_a_fifo(previous, tmp_path, kind):
    out, before = previous
    path = Path(kind)
    if kind == "fifo":
        path = tmp_path / "record.fifo"
        os.mkfifo(path)
    r = run(tmp_path, out, "--changed-since", str(path), "--paper", "letter")  # would read forever / block
    assert r.returncode == 1, r.stderr
    what = "a character device" if kind == "/dev/zero" else "a FIFO (named pipe)"
    assert f"{path}: --changed-since: {what}, not a build record" in r.stderr
    assert "internal error" not in r.stderr
    assert snapshot(out / GAME) == before


# --- permissions --------------------------------------------------------------------------

@pytest.mark.parametrize("umask,mode", [(0o022, 0o644), (0o077, 0o600)])
def test_files_follow_the_umask(tmp_path, umask, mode):
    out = tmp_path / "out"
    r = run(tmp_path, out, "--only", "decks,pads", umask=umask)
    assert r.returncode == 0, r.stderr
    files = list((out / GAME).iterdir())
    assert {p.name for p in files} == {"deck.pdf", "deck-ship.pdf", "score-pad.pdf", "manifest.json", "cards.json",
                                       "instructions.pdf"}
    assert {p.name: stat.S_IMODE(p.stat().st_mode) for p in files} == {p.name: mode for p in files}
    assert stat.S_IMODE((out / GAME).stat().st_mode) == 0o777 & ~umask


# --- setup --pdf --------------------------------------------------------------------------

def setup_pdf(tmp_path: Path, target: str):
    return subprocess.run([sys.executable, "-m", "cardforge", "setup", GAME, "-p", "2", "--pdf", target],
                          cwd=tmp_path, env=env(tmp_path), capture_output=True, text=True, timeout=120)


def test_setup_pdf_at_a_device_a_fifo_or_a_missing_folder_is_refused(tmp_path):
    fifo = tmp_path / "sheet.pdf"
    os.mkfifo(fifo)
    for target, message in (("/dev/full", "a character device is there"),
                            (str(fifo), "a FIFO (named pipe) is there"),
                            ("/nonexistent-cardforge/dir/x.pdf", "the folder /nonexistent-cardforge/dir does not "
                                                                 "exist, and cardforge creates missing folders only "
                                                                 "below the current folder")):
        r = setup_pdf(tmp_path, target)
        assert r.returncode == 2, (target, r.stderr)
        assert message in r.stderr and "Traceback" not in r.stderr
    assert stat.S_ISCHR(os.stat("/dev/full").st_mode) and stat.S_ISFIFO(os.stat(fifo).st_mode)
    assert not Path("/nonexistent-cardforge").exists()
    # below the current folder, missing folders are made; the file gets the umask's mode
    r = setup_pdf(tmp_path, "sheets/two/setup.pdf")
    assert r.returncode == 0, r.stderr
    assert (tmp_path / "sheets" / "two" / "setup.pdf").read_bytes().startswith(b"%PDF")


# --- caches -------------------------------------------------------------------------------

def test_a_cache_on_a_full_disk_leaves_no_part_files(tmp_path, monkeypatch):
    """Every cache entry is written through cardforge.paths.write_atomic: here each write fails
    as on a full disk; the build goes on without its caches and leaves no `*.part` file."""
    import errno

    import cardforge.paths as paths
    from cardforge.render.cards import buildcache

    cache = tmp_path / "cache"
    monkeypatch.setenv("CARDFORGE_CACHE", str(cache))
    monkeypatch.delenv("CARDFORGE_NO_CACHE", raising=False)
    monkeypatch.delenv("CARDFORGE_DATA", raising=False)
    monkeypatch.setattr(buildcache, "_memory", {})
    real = os.fdopen
    failed = []

    class Full:
        def __init__(self, f):
            self.f = f

        def write(self, blob):
            self.f.write(bytes(blob)[:100])
            failed.append(blob)
            raise OSError(errno.ENOSPC, "No space left on device")

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            self.f.close()

    def fdopen(fd, *args, **kwargs):  # files below the cache folder are on a "full disk"
        f = real(fd, *args, **kwargs)
        return Full(f) if os.readlink(f"/proc/self/fd/{fd}").startswith(str(cache)) else f

    if not Path("/proc/self/fd").is_dir():
        pytest.skip("needs /proc to tell the cache's files apart")
    monkeypatch.setattr(paths.os, "fdopen", fdopen)
    out = tmp_path / "out"
    build_in_process(out, only=frozenset({"decks"}))
    monkeypatch.setattr(paths.os, "fdopen", real)
    assert len(failed) >= 3  # the data, the layouts, compiled templates…
    assert [p for p in cache.rglob("*") if p.is_file()] == []  # no entry, and no *.part
    assert (out / GAME / "deck.pdf").is_file()


# --- the library function -----------------------------------------------------------------

def test_build_game_returns_what_it_wrote(tmp_path, monkeypatch):
    """build_game(game, settings): data and output folders come from the settings (no
    environment variable written); the result lists files, pages, warnings and removals."""
    import pypdf

    monkeypatch.delenv("CARDFORGE_DATA", raising=False)
    monkeypatch.setenv("CARDFORGE_CACHE", os.environ.get("CARDFORGE_CACHE") or str(tmp_path / "cache"))
    data = tmp_path / "data"
    shutil.copytree(ROOT / "card_data" / GAME, data / GAME)
    deck = data / GAME / "deck.yaml"
    text = deck.read_text(encoding="utf-8")
    version = text.split("version:", 1)[1].split("\n", 1)[0].strip().strip("'\"")
    deck.write_text(text.replace(f"version: {version}", "version: 9.9.9-test", 1)
                    .replace(f'version: "{version}"', 'version: "9.9.9-test"', 1), encoding="utf-8")
    out = tmp_path / "out"
    game = find_game(GAME)
    first = build_game(game, BuildSettings(out_dir=out, data_root=data, duplex="none", only=frozenset({"decks"})))
    assert [e.path for e in first.entries] == ["deck.pdf", "deck-backs.pdf", "deck-ship.pdf", "deck-ship-backs.pdf",
                                               "instructions.pdf"]
    assert first.folder == out / GAME and first.files == [out / GAME / e.path for e in first.entries]
    # 6 poker cards, 8 a sheet: 1 page of fronts and 1 of backs; 12 square ships, 6 a sheet (each
    # its own bleed: their brown and navy edges differ): 2 and 2; the instructions page
    assert first.pages == sum(len(pypdf.PdfReader(f).pages) for f in first.files) == 7
    assert first.removed == [] and "CARDFORGE_DATA" not in os.environ
    record = json.loads((out / GAME / "cards.json").read_text(encoding="utf-8"))
    assert record["version"] == "9.9.9-test"  # built from settings.data_root
    second = build_game(game, BuildSettings(out_dir=out, data_root=data, only=frozenset({"decks"})))
    assert [e.path for e in second.entries] == ["deck.pdf", "deck-ship.pdf", "instructions.pdf"]
    assert second.removed == ["deck-backs.pdf", "deck-ship-backs.pdf"]
    assert sorted(p.name for p in (out / GAME).iterdir()) == ["cards.json", "deck-ship.pdf", "deck.pdf",
                                                             "instructions.pdf", "manifest.json"]


def test_stale_removal_touches_only_listed_files_of_the_printables_built(previous):
    """A manifest listing cards.json or a file already gone: the first is kept (this build wrote
    it), the second is not reported; a file of the folder the manifest does not list stays."""
    out, _ = previous
    manifest = out / GAME / "manifest.json"
    data = json.loads(manifest.read_text(encoding="utf-8"))
    extra = {"kind": "deck", "pages": 1, "cards": 1, "paper": "a4", "sha256": "0" * 64}
    data["files"] += [{"path": "cards.json", **extra}, {"path": "deck-gone.pdf", **extra}]
    manifest.write_text(json.dumps(data), encoding="utf-8")
    (out / GAME / "notes.txt").write_text("mine", encoding="utf-8")
    result = build_game(find_game(GAME), BuildSettings(out_dir=out, only=frozenset({"decks"})))
    assert result.removed == []
    assert (out / GAME / "cards.json").is_file() and (out / GAME / "notes.txt").read_text(encoding="utf-8") == "mine"
    listed = [f["path"] for f in json.loads(manifest.read_text(encoding="utf-8"))["files"]]
    assert listed == ["aids.pdf", "boards.pdf", "deck-ship.pdf", "deck.pdf", "instructions.pdf", "score-pad.pdf",
                      "setup.pdf"]


def test_part_files_a_killed_process_left_in_the_cache_are_swept(tmp_path, monkeypatch):
    """A SIGKILL in the middle of a cache write leaves its `.part` (nothing can clean up after
    it): the next data-cache write removes those over an hour old (a fresh one may be another
    process's, writing right now)."""
    from cardforge.data import loading

    cache = tmp_path / "cache"
    monkeypatch.setenv("CARDFORGE_CACHE", str(cache))
    monkeypatch.delenv("CARDFORGE_NO_CACHE", raising=False)
    monkeypatch.delenv("CARDFORGE_DATA", raising=False)
    (cache / "jinja").mkdir(parents=True)
    old, fresh = cache / "jinja" / ".x.bin.abc.part", cache / ".y.pickle.def.part"
    for path in (old, fresh):
        path.write_bytes(b"half")
    os.utime(old, (time.time() - 7200, time.time() - 7200))
    loading.load_game_data(find_game(GAME))  # a miss: validated, then stored
    assert list(cache.glob(f"{GAME}-*.pickle")) and not old.exists() and fresh.exists()
