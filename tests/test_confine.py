"""Issue 31, part 1: exports are transactions, signals stop any command within a second,
export-data copies only the game's own files, watch follows a replaced folder, diff reads a
revision by the game folder's rule. (Game folders and command lines that once escaped are
the corpus: tests/fuzz/corpus/confine.yaml.)"""

from __future__ import annotations

import errno
import hashlib
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import run_cli
from waiting import PATIENCE, wait_until


def env(tmp_path: Path, **extra: str) -> dict[str, str]:
    e = {k: v for k, v in os.environ.items() if not k.startswith("CARDFORGE_")}
    e["CARDFORGE_CONFIG"] = os.environ["CARDFORGE_CONFIG"]  # the suite's cache key, never the user's
    e["CARDFORGE_CACHE"] = str(tmp_path / "cache")
    e.update(extra)
    return e


def cardforge(tmp_path: Path, *args, **extra: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "cardforge", *map(str, args)], cwd=tmp_path, env=env(tmp_path, **extra),
                          capture_output=True, text=True, timeout=180)


def new_game(tmp_path: Path, name: str = "g") -> Path:
    folder = tmp_path / name
    assert run_cli("new", folder, "--lang", "fr").code == 0
    return folder


def tree(folder: Path) -> dict[str, str]:
    """Every file below ``folder`` (but the writers' lock files, which hold a pid): relative
    path → sha256."""
    return {p.relative_to(folder).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file() and not p.name.endswith(".lock")}


def leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.rglob("*") if ".staging-" in p.name or p.name.endswith(".part")
                  or ".ready-" in p.name or ".old-" in p.name)


def interruptible() -> None:
    """In a test's child process: Ctrl-C (SIGINT) at its default, as in a terminal. A pytest
    started in the background (``pytest &`` in a script, ``nohup``) ignores SIGINT and its
    children inherit that: Python then leaves SIGINT ignored, and the signal tests saw exit 0."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def start_paused(tmp_path: Path, point: str, *args) -> subprocess.Popen:
    marker = tmp_path / f"paused-{point.replace(':', '-')}"
    marker.unlink(missing_ok=True)
    proc = subprocess.Popen([sys.executable, "-m", "cardforge", *map(str, args)], cwd=tmp_path,
                            env=env(tmp_path, CARDFORGE_TEST_PAUSE=f"{point}@{marker}"),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, preexec_fn=interruptible)
    wait_until(lambda: marker.exists() or proc.poll() is not None, f"the pause at {point}")
    if not marker.exists():
        raise AssertionError(f"ended before {point}: {proc.returncode} {proc.communicate()}")
    return proc


# --- exports are transactions ----------------------------------------------------------------

@pytest.mark.slow
@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT], ids=lambda s: s.name)
def test_a_signal_during_export_png_leaves_the_previous_images(tmp_path, sig):
    """SIGTERM during `export png` left old and new PNGs mixed (and once in ~12 runs a .part)."""
    game = new_game(tmp_path)
    out = tmp_path / "png"
    assert cardforge(tmp_path, "export", game, "png", "-o", out).returncode == 0
    before = tree(out)
    proc = start_paused(tmp_path, "export-writing", "export", game, "png", "--dpi", "150", "-o", out)
    proc.send_signal(sig)
    _, err = proc.communicate(timeout=PATIENCE)
    assert proc.returncode == 128 + sig, err
    assert f"interrupted ({sig.name})" in err and "was left as it was" in err
    assert tree(out) == before and leftovers(tmp_path) == []


@pytest.mark.slow
def test_a_signal_just_before_the_export_is_switched_in(tmp_path):
    """Held during the switch: the new export goes in whole, then the command stops."""
    game = new_game(tmp_path)
    assert cardforge(tmp_path, "export", game, "png").returncode == 0  # output/g/png: cardforge's own
    out = tmp_path / "output" / "g" / "png"
    before = tree(out)
    proc = start_paused(tmp_path, "export-committing", "export", game, "png", "--dpi", "150")
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=PATIENCE)
    assert proc.returncode == 143 and "that was finished first" in err
    after = tree(out)
    assert after.keys() == before.keys() and all(after[k] != before[k] for k in after if k.endswith(".png"))
    assert leftovers(tmp_path) == []


def _full_disk_after(monkeypatch, module, name: str, calls: int) -> None:
    """``module.name`` (a writer) fails with ENOSPC from its ``calls``-th call on."""
    real = getattr(module, name)
    count = [0]

    def writer(*args, **kwargs):
        count[0] += 1
        if count[0] >= calls:
            raise OSError(errno.ENOSPC, "No space left on device")
        return real(*args, **kwargs)

    monkeypatch.setattr(module, name, writer)


@pytest.mark.parametrize("fmt", ["png", "tts", "pod", "preview", "data"])
def test_a_full_disk_mid_export_leaves_the_previous_export(tmp_path, monkeypatch, fmt):
    import cardforge.data.export_data as export_data
    import cardforge.render.cards.faces as faces
    import cardforge.render.exports.export_png as export_png
    import cardforge.render.exports.pod as pod
    import cardforge.render.exports.preview as preview
    import cardforge.render.exports.tts as tts

    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("CARDFORGE_CACHE", str(tmp_path / "cache"))
    game = new_game(tmp_path)
    args = {"png": ["export", game, "png", "-o", "out"], "tts": ["export", game, "tts", "-o", "out"],
            "pod": ["export", game, "pod", "--profile", "makeplayingcards-poker", "-o", "out"],
            "preview": ["preview", game, "-o", "out/sheet.png"],
            "data": ["export-data", game, "--format", "csv", "-o", "out"]}[fmt]
    assert run_cli(*args).code == 0
    before = tree(tmp_path / "out")
    (game / "cards.yaml").write_text((game / "cards.yaml").read_text(encoding="utf-8").replace("Marchand", "Négociant"),
                                     encoding="utf-8")
    if fmt == "png":
        _full_disk_after(monkeypatch, export_png, "png_bytes", 2)
    elif fmt in ("tts", "pod"):
        _full_disk_after(monkeypatch, {"tts": tts, "pod": pod}[fmt], "save_png", 2)
    elif fmt == "preview":
        _full_disk_after(monkeypatch, preview, "save_png", 1)
    else:
        _full_disk_after(monkeypatch, export_data, "_write_deck", 1)
    assert faces  # the writers above are the exports' own names for faces.png_bytes/save_png
    r = run_cli(*args)
    assert r.code == 1 and "No space left on device" in r.err and "internal error" not in r.err, r.err
    assert tree(tmp_path / "out") == before and leftovers(tmp_path) == []


def test_export_writes_into_a_folder_named_through_a_link(tmp_path, monkeypatch):
    """-o names a link to a folder: the user's choice, followed (links cardforge would make or
    meet inside are not)."""
    monkeypatch.chdir(tmp_path)
    game = new_game(tmp_path)
    (tmp_path / "real").mkdir()
    (tmp_path / "link").symlink_to(tmp_path / "real")
    assert run_cli("export", game, "png", "-o", "link").code == 0
    assert (tmp_path / "link").is_symlink() and (tmp_path / "real" / "marchand.png").is_file()


@pytest.mark.slow  # a fresh process (or five games' data) a run: ~2 s alone
def test_exports_are_byte_identical_run_to_run(tmp_path):
    """Same cards, same bytes: every PNG's sRGB profile carried the time it was made."""
    game = new_game(tmp_path)
    for n in (1, 2):
        assert cardforge(tmp_path, "export", game, "png", "--dpi", "72", "-o", tmp_path / f"png{n}").returncode == 0
    assert tree(tmp_path / "png1") == tree(tmp_path / "png2")


def test_every_output_path_is_checked_where_it_is_written(tmp_path, monkeypatch):
    """Independently of `check`: a name that would leave the output folder is refused by the
    writer itself (paths.output_file, in atomic_path), before anything is written."""
    import cardforge.data.validate as validate
    from cardforge.errors import OutputError
    from cardforge.render.output import atomic_path

    with pytest.raises(OutputError, match="not a plain file name"):
        with atomic_path(tmp_path / "deck-../../x.pdf"):
            pass
    with pytest.raises(OutputError, match="is 300 bytes long"):
        with atomic_path(tmp_path / ("x" * 296 + ".pdf")):
            pass
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(validate, "name_problems", lambda *a: [])  # as if check let it through
    game = new_game(tmp_path)
    text = (game / "game.yaml").read_text(encoding="utf-8")
    (game / "game.yaml").write_text(text.replace("    action:\n      label: Action",
                                                 "    ../../../victim/x:\n      card_size: mini\n      label: Action"),
                                    encoding="utf-8")
    cards = game / "cards.yaml"
    cards.write_text(cards.read_text(encoding="utf-8").replace("{kind: action}", "{kind: ../../../victim/x}"),
                     encoding="utf-8")
    r = run_cli("build", game, "-o", "out")
    assert r.code == 1 and "not a plain file name" in r.err
    assert not (tmp_path / "victim").exists() and not (tmp_path / "out" / "g").exists()


# --- export-data ----------------------------------------------------------------------------

def test_export_data_of_an_inline_deck_builds_the_same_deck(tmp_path, monkeypatch):
    """Every `cardforge new` game keeps its deck in game.yaml: export-data failed on it."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("CARDFORGE_CACHE", str(tmp_path / "cache"))
    game = new_game(tmp_path)
    assert run_cli("build", game, "--only", "decks", "-q", "-o", "yaml").code == 0
    r = run_cli("export-data", game, "--format", "xlsx", "-o", "sheets")
    assert r.code == 0, r.err
    exported = tmp_path / "sheets" / "g"
    assert "card_files:\n  - cards.xlsx" in (exported / "game.yaml").read_text(encoding="utf-8")
    assert run_cli("build", exported, "--only", "decks", "-q", "-o", "xlsx").code == 0
    assert (tmp_path / "xlsx" / "g" / "deck.pdf").read_bytes() == (tmp_path / "yaml" / "g" / "deck.pdf").read_bytes()


def test_export_data_never_merges_two_card_files_of_the_same_name(tmp_path, monkeypatch):
    """a/cards.yaml and b/cards.yaml both became cards.csv: the first file's cards were lost."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("CARDFORGE_CACHE", str(tmp_path / "cache"))
    game = new_game(tmp_path)
    cards = (game / "cards.yaml").read_text(encoding="utf-8")
    for sub, ids in (("a", ("marchand", "eclaireur")), ("b", ("architecte",))):
        (game / sub).mkdir()
        keep = cards.split("cards:\n")[0] + "cards:\n" + "".join(
            "  - id: " + block for block in cards.split("  - id: ")[1:] if block.split("\n")[0] in ids)
        (game / sub / "cards.yaml").write_text(keep, encoding="utf-8")
    (game / "cards.yaml").unlink()
    spec = game / "game.yaml"
    spec.write_text(spec.read_text(encoding="utf-8").replace("card_files: [cards.yaml]",
                                                             "card_files: [a/cards.yaml, b/cards.yaml]"),
                    encoding="utf-8")
    assert run_cli("build", game, "--only", "decks", "-q", "-o", "yaml").code == 0
    r = run_cli("export-data", game, "--format", "csv", "-o", "sheets")
    assert r.code == 0 and "3 cards written to 2 csv file(s)" in r.out, r.out + r.err
    exported = tmp_path / "sheets" / "g"
    assert sorted(p.relative_to(exported).as_posix() for p in exported.rglob("*.csv")) == ["a/cards.csv", "b/cards.csv"]
    assert run_cli("build", exported, "--only", "decks", "-q", "-o", "csv").code == 0
    assert (tmp_path / "csv" / "g" / "deck.pdf").read_bytes() == (tmp_path / "yaml" / "g" / "deck.pdf").read_bytes()


def test_export_data_refuses_to_write_inside_the_game(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    game = new_game(tmp_path)
    r = run_cli("export-data", game, "--format", "csv", "-o", game / "sheets")
    assert r.code == 2 and "inside the data being exported" in r.err


# --- signals --------------------------------------------------------------------------------

@pytest.mark.slow
@pytest.mark.parametrize("point, args", [
    ("printables:busy", ["build", "GAME", "-o", "out"]),
    ("export-writing:busy", ["export", "GAME", "png", "-o", "out/png"]),
    ("check:busy", ["check", "GAME"]),
], ids=["build-printables", "export-png", "check"])
@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT], ids=lambda s: s.name)
def test_a_signal_stops_a_command_busy_in_a_long_call_within_a_second(tmp_path, point, args, sig):
    """The main thread inside one long call (a huge image, a runaway aid…) could not run the
    Python signal handler: SIGTERM was not honoured for seconds. The watchdog ends it inside that
    call (within a second; not timed here: the call is seen never to return), its staging
    folder removed, the previous output untouched."""
    game = new_game(tmp_path)
    args = [str(game) if a == "GAME" else a for a in args]
    if args[0] != "check":
        first = cardforge(tmp_path, *args)
        assert first.returncode == 0, first.stderr
    before = tree(tmp_path / "out") if (tmp_path / "out").exists() else {}
    proc = start_paused(tmp_path, point, *args, *(["--dpi", "150"] if args[0] == "export" else ["--paper", "letter"]
                                                if args[0] == "build" else []))
    proc.send_signal(sig)
    try:
        _, err = proc.communicate(timeout=PATIENCE)
    except subprocess.TimeoutExpired:
        proc.kill()
        pytest.fail("the signal was not honoured while the command was busy")
    assert proc.returncode == 128 + sig, err
    # ended inside the busy call (~30 s of CPU; longer on a loaded machine, never shorter): the
    # watchdog ended it, the signal handler could not have run before the call returned
    assert not (tmp_path / f"paused-{point.replace(':', '-')}.returned").exists(), err
    if args[0] != "check":
        assert tree(tmp_path / "out") == before
    assert leftovers(tmp_path) == []


# --- temporary files --------------------------------------------------------------------------

@pytest.mark.slow  # a fresh process (or five games' data) a run: ~2 s alone
def test_a_cff_font_with_caches_off_leaves_nothing_in_the_temp_folder(tmp_path):
    """With CARDFORGE_NO_CACHE=1 each run with a CFF .otf font left a cardforge-otf-* folder."""
    from test_export_assets import build_cff_font

    game = new_game(tmp_path)
    (game / "fonts").mkdir()
    build_cff_font(game / "fonts" / "Slab-Regular.otf")
    layout = game / "templates" / "layout.yaml"
    text = layout.read_text(encoding="utf-8")
    assert "style: {size: 11, min_size: 6" in text
    layout.write_text(text.replace("style: {size: 11, min_size: 6", "style: {family: Slab, size: 11, min_size: 6"),
                      encoding="utf-8")
    temp = tmp_path / "temp"
    temp.mkdir()
    r = cardforge(tmp_path, "build", game, "--only", "decks", "-o", "out", CARDFORGE_NO_CACHE="1", TMPDIR=str(temp))
    assert r.returncode == 0, r.stderr
    assert any("Slab" in line for line in _pdf_fonts(tmp_path / "out" / "g" / "deck.pdf"))
    assert sorted(p.name for p in temp.iterdir()) == []


def _pdf_fonts(pdf: Path) -> list[str]:
    import pypdf

    names = []
    for page in pypdf.PdfReader(pdf).pages:
        fonts = page.get("/Resources", {}).get("/Font", {})
        names += [str(f.get_object().get("/BaseFont")) for f in fonts.values()]
    return names


# --- watch ------------------------------------------------------------------------------------

class Watching:
    """`cardforge watch` in its own process, its stderr read line by line."""

    def __init__(self, tmp_path: Path, *args, **extra: str):
        self.lines: list[str] = []
        self.proc = subprocess.Popen([sys.executable, "-m", "cardforge", "watch", *map(str, args)], cwd=tmp_path,
                                     env=env(tmp_path, **extra), stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                     preexec_fn=interruptible)
        os.set_blocking(self.proc.stdout.fileno(), False)
        self.pending = b""

    def read(self) -> str:
        try:
            self.pending += os.read(self.proc.stdout.fileno(), 1 << 16)
        except BlockingIOError:
            pass
        *done, self.pending = self.pending.split(b"\n")
        self.lines += [line.decode("utf-8", "replace") for line in done]
        return "\n".join(self.lines)

    def wait_for(self, text: str, timeout: float = PATIENCE, poke=None) -> str:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            seen = self.read()
            if text in seen:
                return seen
            if self.proc.poll() is not None:
                break
            if poke is not None:
                poke()
            time.sleep(0.2)
        raise AssertionError(f"{text!r} not seen: {self.read()[-3000:]}")

    def ready(self, game: Path) -> None:
        """Return once the OS watcher listens: a file saved again until a rebuild shows."""
        self.wait_for("watching")
        cards = game / "cards.yaml"
        self.wait_for("rebuilt", poke=lambda: cards.write_bytes(cards.read_bytes()))
        time.sleep(2)  # let that batch end
        self.lines.clear()

    def stop(self) -> None:
        self.proc.send_signal(signal.SIGINT)
        try:
            self.proc.wait(timeout=PATIENCE)
        except subprocess.TimeoutExpired:
            self.proc.kill()


def until(condition, what: str, w: Watching, timeout: float = PATIENCE) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if condition():
            return
        time.sleep(0.2)
    raise AssertionError(f"{what}: not seen within {timeout:.0f} s; the watch said: {w.read()[-3000:]}")


@pytest.mark.slow
def test_watch_follows_a_game_folder_replaced_by_a_copy(tmp_path):
    """Editors and `git checkout` replace the folder: every later edit was ignored, without a word."""
    game = new_game(tmp_path)
    w = Watching(tmp_path, game, "--only", "decks", "-o", "out")
    try:
        w.wait_for("watching")
        pdf = tmp_path / "out" / "g" / "deck.pdf"
        w.wait_for("deck.pdf")
        first = pdf.read_bytes()
        copy = tmp_path / "g-copy"
        shutil.copytree(game, copy)
        cards = copy / "cards.yaml"
        cards.write_text(cards.read_text(encoding="utf-8").replace("Marchand", "Négociant"), encoding="utf-8")
        game.rename(tmp_path / "g-old")
        copy.rename(game)
        until(lambda: pdf.read_bytes() != first, "the rebuild of the replaced folder", w)
        second = pdf.read_bytes()
        cards = game / "cards.yaml"  # and a later edit of the new folder is seen too
        cards.write_text(cards.read_text(encoding="utf-8").replace("Éclaireur", "Vigie"), encoding="utf-8")
        until(lambda: pdf.read_bytes() != second, "the rebuild after an edit of the new folder", w)
        assert "internal error" not in w.read()
    finally:
        w.stop()


@pytest.mark.slow
def test_watch_reports_a_deleted_game_yaml_and_removed_templates_cleanly(tmp_path):
    game = new_game(tmp_path)
    w = Watching(tmp_path, game, "--only", "decks", "-o", "out")
    try:
        w.ready(game)
        (game / "game.yaml").rename(tmp_path / "game.yaml.bak")
        seen = w.wait_for("previous PDFs kept")
        assert "internal error" not in seen and "no game.yaml in" in seen
        (tmp_path / "game.yaml.bak").rename(game / "game.yaml")
        w.lines.clear()
        w.wait_for("rebuilt")
        w.lines.clear()
        (game / "templates").rename(tmp_path / "templates-away")  # one event, on the folder only
        seen = w.wait_for("g:")  # a rebuild (without the game's layouts) or a clear error
        assert "internal error" not in seen
    finally:
        w.stop()


# --- diff --from a revision ------------------------------------------------------------------

def _git(repo: Path, *args: str) -> None:
    subprocess.run(["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@example.org", *args],
                   check=True, capture_output=True)


@pytest.fixture
def repo(tmp_path):
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    game = new_game(tmp_path)
    _git(game, "init", "-q")
    _git(game, "add", "-A")
    _git(game, "commit", "-q", "-m", "first")
    return game


def test_diff_from_a_revision_holding_a_link_out_of_the_folder(tmp_path, repo):
    (tmp_path / "outside.yaml").write_text("- {id: secret, kind: action, name: SECRET, cost: 1, effect: x}\n",
                                           encoding="utf-8")
    (repo / "more.yaml").symlink_to(tmp_path / "outside.yaml")
    spec = repo / "game.yaml"
    spec.write_text(spec.read_text(encoding="utf-8").replace("card_files: [cards.yaml]",
                                                             "card_files: [cards.yaml, more.yaml]"), encoding="utf-8")
    _git(repo, "add", "-A")
    _git(repo, "commit", "-q", "-m", "a link")
    r = cardforge(tmp_path, "diff", repo, "--from", "HEAD", "--to", "HEAD~1")
    assert r.returncode == 1, r.stderr
    assert "card file 'more.yaml': leads outside the game's folder" in r.stderr
    assert "internal error" not in r.stderr and "SECRET" not in r.stderr + r.stdout


@pytest.mark.slow
def test_diff_from_a_revision_holding_a_huge_file(tmp_path, repo):
    """A 400 MB file in the revision (art, never read by a diff) was held in memory twice:
    under a 1.2 GB address-space limit, an internal error (MemoryError)."""
    art = repo / "art"
    art.mkdir()
    with open(art / "huge.png", "wb") as f:  # sparse: no disk used; git stores it compressed
        f.truncate(400 << 20)
    _git(repo, "add", "-A")
    _git(repo, "commit", "-q", "-m", "huge")
    import resource

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (1200 << 20, 1200 << 20))

    r = subprocess.run([sys.executable, "-m", "cardforge", "diff", str(repo), "--from", "HEAD~1", "--to", "HEAD"],
                       cwd=tmp_path, env=env(tmp_path), capture_output=True, text=True, timeout=300, preexec_fn=limit)
    assert r.returncode == 0, r.stderr
    assert "internal error" not in r.stderr and "no difference" in r.stdout
    cards = repo / "cards.yaml"  # a data file over its limit is a clean error naming it
    cards.write_text(cards.read_text(encoding="utf-8") + "# " + "x" * 10_000 + "\n", encoding="utf-8")
    _git(repo, "commit", "-q", "-a", "-m", "long")
    cards.write_text(cards.read_text(encoding="utf-8").split("# xxx")[0], encoding="utf-8")  # the working copy: short
    r = cardforge(tmp_path, "diff", repo, "--from", "HEAD", CARDFORGE_LIMIT_FILE_BYTES="6000")
    assert r.returncode == 1 and "cards.yaml" in r.stderr, r.stderr
    assert "bytes, at most 6,000 bytes (set CARDFORGE_LIMIT_FILE_BYTES to allow more)" in r.stderr
