"""Building one game: the library function the CLI, watch mode and the benchmark all call.

``build_game(game, settings)`` loads the game's data, builds its decks and printables and
returns a :class:`BuildResult`. A build is **one transaction** over ``<out>/<game>/``:

1. a lock per output folder (``<out>/.<game>.lock``, ``flock``: released by the system when the
   process dies, so a killed build never leaves a lock that blocks the next one); a second
   build waits up to ``settings.lock_wait`` seconds, then refuses naming the other build;
2. leftovers of a killed build are cleared: staging folders (``<out>/.<game>.staging-*``) are
   removed — or, when one was killed in the middle of its swap, the swap is finished (see 5) —
   and ``.*.part`` files in the game folder removed;
3. the output folder and the previous ``manifest.json`` are checked before anything is built
   (a file where the folder goes, a manifest that is not one…: :class:`OutputError`);
4. every file is written into a staging folder beside the game folder (same file system);
5. only when every file succeeded is it swapped in: the staging folder is marked as
   committing (with the list of stale files), files are renamed into the game folder one by
   one, ``manifest.json`` last, then files of the previous build that this build covers but
   no longer produces (another duplex mode's ``deck-backs.pdf``, ``aids-backs.pdf``…), as the
   previous manifest lists them, are removed. SIGINT and SIGTERM arriving during the swap (a
   few milliseconds) are held until it is done; a SIGKILL during it leaves the marked staging
   folder, and the next build finishes the swap before anything else.

On any failure, error or signal before the swap, the staging folder is removed and the game
folder stays exactly as it was, manifest included. Files get the umask's permissions.

Entries of the previous manifest for printables this build does not cover (``--only pads``
after a full build) are kept while their file is there: the manifest always lists every file
of the folder that cardforge built.

Test hook: ``CARDFORGE_TEST_PAUSE=<point>@<file>`` makes a build write its pid to ``<file>``
at the named point (``locked``, ``decks``, ``staged``, ``committing``) and sleep there, so
that tests can interrupt it at a known moment. It is read, never written, by cardforge.
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import shutil
import signal
import stat
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from cardforge.errors import CardforgeError, DataError, OutputError, RenderError
from cardforge.paths import check_output_folder, describe, file_mode, write_atomic
from cardforge.problems import Problem
from cardforge.render.output import MANIFEST_KINDS, ManifestEntry
from cardforge.settings import BuildSettings

if TYPE_CHECKING:
    from cardforge.data.loading import GameData
    from cardforge.games.base import Game
    from cardforge.render.reprint import Reprint

MANIFEST = "manifest.json"
#: the manifest kinds each ``--only`` printable produces (what a build of it replaces)
BUILD_KINDS: dict[str, tuple[str, ...]] = {"decks": ("deck", "backs"), "boards": ("board",), "pads": ("pad",),
                                           "aids": ("aid", "setup")}
#: every build writes instructions.pdf (render/instructions.py) for the files it wrote
INSTRUCTIONS = "instructions"
PRINTABLES_MODULE = "cardforge.render.printables"
COMMITTING = ".committing"  # in a staging folder: its swap has begun (JSON: files, stale)
MAX_MANIFEST_BYTES = 8 << 20  # a manifest lists a few files: anything larger is not one
MAX_RECORD_BYTES = 64 << 20  # a cards.json of 100,000 cards is ~4 MiB
MAX_JSON_DEPTH = 20
_PART = re.compile(r"^\..+\.part$")
_SAFE_NAME = re.compile(r"^[^/\\\x00]+$")


class Progress(Protocol):
    """What a build reports to: ``start(label, total)`` per phase, ``progress(n)`` as items
    finish, ``clear()`` when done (the CLI's progress bar)."""

    def start(self, label: str, total: int | None) -> None: ...

    def __call__(self, advance: int = 1) -> None: ...

    def clear(self) -> None: ...


class _NoProgress:
    def start(self, label: str, total: int | None) -> None:
        pass

    def __call__(self, advance: int = 1, *args: Any, **kwargs: Any) -> None:
        pass

    def clear(self) -> None:
        pass


@dataclass
class BuildResult:
    """What one build of a game did."""

    game: str
    folder: Path  # <out>/<game>
    entries: list[ManifestEntry]  # the files this build wrote (as in the manifest), in build order
    warnings: list[Problem] = field(default_factory=list)  # the data's and the decks' warnings
    changes: Any = None  # with ``changed_since``: render.reprint.Changes (cards to reprint, removed)
    removed: list[str] = field(default_factory=list)  # files of the previous build removed as stale
    layouts: dict[str, str] = field(default_factory=dict)  # deck file → how its sheets are laid out

    @property
    def files(self) -> list[Path]:
        return [self.folder / e.path for e in self.entries]

    @property
    def pages(self) -> int:
        return sum(e.pages for e in self.entries)


class BuildInterrupted(KeyboardInterrupt):
    """SIGINT or SIGTERM stopped a build. ``committed``: the signal came during the swap, which
    was finished first (the folder holds the new build); else the folder is as it was."""

    def __init__(self, signum: int, committed: bool = False):
        self.signum = signum
        self.committed = committed
        super().__init__(signal.Signals(signum).name)


def build_game(game: Game, settings: BuildSettings, progress: Progress | None = None) -> BuildResult:
    """Build ``game``'s decks and printables (``settings.only``) into ``settings.out_dir/<game>``
    as one transaction (see the module's docstring). Raises :class:`DataError`,
    :class:`RenderError` or :class:`OutputError` carrying every problem (the folder is then
    untouched), or :class:`BuildInterrupted`."""
    progress = progress or _NoProgress()
    out_dir = Path(settings.out_dir)
    folder = out_dir / game.id
    with _Signals() as signals:
        _check_folders(out_dir, folder)
        try:
            out_dir.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise OutputError(f"cannot build {game.id}", [_os_problem(exc, out_dir)]) from None
        with _locked(out_dir, game.id, settings.lock_wait):
            try:
                recover(out_dir, game.id)
            except OSError as exc:
                raise OutputError(f"cannot clear what an interrupted build left in {out_dir}",
                                  [_os_problem(exc, folder)]) from None
            previous = read_manifest(folder, game.id)
            checkpoint("locked")
            return _build_locked(game, settings, progress, out_dir, folder, previous, signals)


def _build_locked(game: Game, settings: BuildSettings, progress: Progress, out_dir: Path, folder: Path,
                  previous: list[dict[str, Any]], signals: _Signals) -> BuildResult:
    from cardforge.data.loading import load_game_data

    data = load_game_data(game, settings.data_root)
    warnings = list(data.warnings)
    if settings.strict and warnings:
        strict = [Problem(p.message + " (--strict)", p.file, p.item, p.field, p.line) for p in warnings]
        raise DataError(f"card data for {game.id} has warnings", strict)
    if settings.changed_since is not None and "decks" in settings.only:
        problem = check_record_path(Path(settings.changed_since))
        if problem is not None:
            raise RenderError(f"cannot build the deck of {game.id}; no PDF written", [*warnings, problem])
    try:
        staging = Path(tempfile.mkdtemp(prefix=f".{game.id}.staging-{os.getpid()}-", dir=out_dir))
    except OSError as exc:
        raise OutputError(f"cannot build {game.id}", [_os_problem(exc, out_dir)]) from None
    try:
        entries, changes, covered, deck_warnings, layouts = _render(game, data, settings, staging, progress,
                                                                    warnings, previous, folder)
        checkpoint("staged")
        names = sorted(p.name for p in staging.iterdir() if not _PART.match(p.name))
        manifest, stale = _next_manifest(game.id, folder, previous, entries, covered)
        if "deck" in covered:  # a deck build's reprint lists go with the build that wrote them
            from cardforge.render.reprint import CHANGES_JSON, CHANGES_MD

            stale += [n for n in (CHANGES_MD, CHANGES_JSON) if _is_regular(folder / n)]
        stale = [name for name in stale if name not in names]  # never what this build just wrote
        if names or stale:
            _check_targets(folder, names + [MANIFEST])
            write_atomic(staging / MANIFEST, lambda f: f.write(manifest))
            with signals.deferred():
                _commit(staging, folder, names + [MANIFEST], stale)
        return BuildResult(game.id, folder, entries, warnings + deck_warnings, changes, stale, layouts)
    except OSError as exc:  # a full disk, a read-only folder…: the folder is as it was
        raise OutputError(f"cannot build {game.id}; {folder} left as it was",
                          [_os_problem(exc, folder)]) from None
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def _render(game: Game, data: GameData, settings: BuildSettings, staging: Path, progress: Progress,
            warnings: list[Problem], previous: list[dict[str, Any]] | None = None, folder: Path | None = None
            ) -> tuple[list[ManifestEntry], Reprint | None, set[str], list[Problem], dict[str, str]]:
    """Every file of the build, written into ``staging``: (entries, changes, kinds covered,
    the decks' warnings, the decks' sheet layouts)."""
    entries: list[ManifestEntry] = []
    layouts: dict[str, str] = {}
    covered: set[str] = set()
    changes = None
    deck_warnings: list[Problem] = []
    deck_files: list[Any] = []
    try:
        if "decks" in settings.only:
            from cardforge.render.decks import build_decks, deck_card_count

            progress.start(game.id, deck_card_count(data))
            result = build_decks(game, data, settings, staging, templates_dir=settings.templates_dir,
                                 progress=progress)
            entries += result.entries
            changes = result.changes
            deck_warnings = list(result.warnings)
            layouts = dict(result.layouts)
            deck_files = result.files
            covered.update(BUILD_KINDS["decks"])
            checkpoint("decks")
        kinds = settings.only & {"boards", "pads", "aids"}
        if kinds and importlib.util.find_spec(PRINTABLES_MODULE):
            from importlib import import_module

            printables = import_module(PRINTABLES_MODULE)
            progress.start(game.id, None)
            entries += printables.build_printables(game, data, settings, staging, progress=progress)
            for kind in kinds:
                covered.update(BUILD_KINDS[kind])
        if "decks" in settings.only:  # a build of the decks says how to print the folder's files
            from cardforge.render.instructions import write_instructions

            kept = [ManifestEntry(**e) for e in previous or ()
                    if e.get("kind") not in covered and e.get("kind") != INSTRUCTIONS
                    and e.get("path") not in {x.path for x in entries}]
            entries.append(write_instructions(game, data, settings, deck_files, entries, staging, kept, folder))
            covered.add(INSTRUCTIONS)
    except CardforgeError as exc:
        exc.problems = [*warnings, *deck_warnings, *(exc.problems or [Problem(exc.title)])]
        raise
    finally:
        progress.clear()
    return entries, changes, covered, deck_warnings, layouts


# --- the swap -----------------------------------------------------------------------------

def _next_manifest(game_id: str, folder: Path, previous: list[dict[str, Any]], entries: list[ManifestEntry],
                   covered: set[str]) -> tuple[bytes, list[str]]:
    """The new manifest's bytes, and the previous build's files this one replaces by nothing."""
    files: dict[str, dict[str, Any]] = {}
    stale: list[str] = []
    new = {e.path for e in entries}
    for old in previous:
        path = old["path"]
        if path in new:
            continue
        if old["kind"] in covered:
            if _is_regular(folder / path):
                stale.append(path)
        elif _is_regular(folder / path):  # another printable's file, still there: still listed
            files[path] = old
    for e in entries:
        files[e.path] = asdict(e)
    data = {"game": game_id, "files": [files[k] for k in sorted(files)]}
    return (json.dumps(data, ensure_ascii=False, indent=2) + "\n").encode("utf-8"), sorted(set(stale))


def _check_targets(folder: Path, names: list[str]) -> None:
    """Every file about to be renamed in replaces a regular file or nothing."""
    problems = []
    for name in names:
        try:
            st = os.lstat(folder / name)
        except FileNotFoundError:
            continue
        except NotADirectoryError:
            problems.append(Problem(f"{describe(os.stat(folder))} is where the game's folder goes",
                                    file=str(folder)))
            break
        if not stat.S_ISREG(st.st_mode):
            problems.append(Problem(f"{describe(st)} is there, where the build writes a file; move it away",
                                    file=str(folder / name)))
    if problems:
        raise OutputError(f"cannot write the build into {folder}; nothing was replaced", problems)


def _commit(staging: Path, folder: Path, names: list[str], stale: list[str]) -> None:
    """Mark ``staging`` as committing, then move its files in (the manifest last) and remove
    the stale ones. Resumable: :func:`recover` runs the same steps after a SIGKILL."""
    plan = json.dumps({"files": names, "stale": stale}).encode("utf-8")
    write_atomic(staging / COMMITTING, lambda f: f.write(plan))
    folder.mkdir(exist_ok=True)
    _finish(staging, folder, names, stale, pause=True)


def _finish(staging: Path, folder: Path, names: list[str], stale: list[str], pause: bool = False) -> None:
    for i, name in enumerate(names):
        src = staging / name
        if _is_regular(src):
            os.replace(src, folder / name)
        if pause and i == 0:
            checkpoint("committing")
    for name in stale:
        target = folder / name
        if _is_regular(target):
            target.unlink()


def recover(out_dir: Path, game_id: str) -> None:
    """Clear what a killed build left: finish a swap it had begun (its staging folder is marked
    committing: the files were complete), remove every other staging folder of the game and
    the ``.*.part`` files in the game folder. Runs under the folder's lock."""
    folder = Path(out_dir) / game_id
    try:
        leftovers = sorted(Path(out_dir).glob(f".{game_id}.staging-*"))
    except OSError:
        leftovers = []
    for staging in leftovers:
        if staging.is_symlink() or not staging.is_dir():
            continue
        plan = _read_plan(staging / COMMITTING)
        if plan is not None and folder.is_dir():
            _finish(staging, folder, *plan)
        shutil.rmtree(staging, ignore_errors=True)
    if folder.is_dir():
        for path in folder.iterdir():
            if _PART.match(path.name) and _is_regular(path):
                path.unlink(missing_ok=True)


def _read_plan(path: Path) -> tuple[list[str], list[str]] | None:
    try:
        plan = json.loads(path.read_bytes())
        names, stale = plan["files"], plan["stale"]
    except (OSError, ValueError, KeyError, TypeError):
        return None
    ok = all(isinstance(n, str) and _SAFE_NAME.match(n) and n not in (".", "..") for n in [*names, *stale])
    return (names, stale) if ok else None


def _is_regular(path: Path) -> bool:
    try:
        return stat.S_ISREG(os.lstat(path).st_mode)
    except OSError:
        return False


# --- checks before use --------------------------------------------------------------------

def _check_folders(out_dir: Path, folder: Path) -> None:
    problem = check_output_folder(out_dir)
    if problem is None:
        try:
            st = os.stat(folder)
        except FileNotFoundError:
            return
        except OSError as exc:
            problem = _os_problem(exc, folder)
        else:
            if stat.S_ISDIR(st.st_mode):
                return
            problem = Problem(f"{describe(st)} is there, where the game's output folder goes; move it away "
                              "or build elsewhere with -o", file=str(folder))
    raise OutputError(f"cannot build into {out_dir}", [problem])


def read_manifest(folder: Path, game_id: str) -> list[dict[str, Any]]:
    """The file entries of ``<folder>/manifest.json`` (none when there is no manifest), each
    checked; :class:`OutputError` naming the file and what is wrong otherwise."""
    path = Path(folder) / MANIFEST
    where = str(path)
    allowed = (f'allowed: what cardforge writes, {{"game": "{game_id}", "files": [{{"path", "kind", "pages", '
               '"cards", "paper", "sha256"}, …]}; remove the file to start the folder afresh')

    def fail(message: str, field: str | None = None) -> OutputError:
        return OutputError(f"cannot build into {folder}: its manifest is not usable",
                           [Problem(f"{message} ({allowed})", file=where, field=field)])

    try:
        st = os.stat(path)
    except FileNotFoundError:
        return []
    except OSError as exc:
        raise OutputError(f"cannot build into {folder}", [_os_problem(exc, path)]) from None
    if not stat.S_ISREG(st.st_mode):
        raise fail(f"{describe(st)}, not a file")
    if st.st_size > MAX_MANIFEST_BYTES:
        raise fail(f"{st.st_size} bytes, more than a manifest ever holds")
    try:
        with open(path, "rb") as f:
            data = json.loads(f.read(MAX_MANIFEST_BYTES + 1).decode("utf-8"))
    except RecursionError:
        raise fail("nested too deeply") from None
    except (ValueError, UnicodeDecodeError) as exc:
        raise fail(f"not JSON: {exc}") from None
    except OSError as exc:
        raise OutputError(f"cannot build into {folder}", [_os_problem(exc, path)]) from None
    if _depth(data) > MAX_JSON_DEPTH:
        raise fail("nested too deeply")
    if not isinstance(data, dict):
        raise fail(f"a JSON {_json_type(data)}, not an object")
    if data.get("game") != game_id:
        raise fail(f"the manifest of {data.get('game')!r}, not of {game_id!r}", "game")
    files = data.get("files")
    if not isinstance(files, list):
        raise fail(f"'files' is {_json_type(files)}, not a list", "files")
    out = []
    for i, entry in enumerate(files):
        problem = _entry_problem(entry)
        if problem:
            raise fail(problem, f"files[{i}]")
        out.append(entry)
    return out


def _entry_problem(entry: Any) -> str | None:
    if not isinstance(entry, dict):
        return f"a JSON {_json_type(entry)}, not an object"
    path = entry.get("path")
    if not isinstance(path, str) or not _SAFE_NAME.match(path) or path in (".", "..", MANIFEST):
        return f"path {path!r} is not the name of a file in this folder"
    if entry.get("kind") not in MANIFEST_KINDS:
        return f"kind {entry.get('kind')!r} is not one of {', '.join(MANIFEST_KINDS)}"
    for key in ("pages", "cards"):
        if not isinstance(entry.get(key), int) or isinstance(entry.get(key), bool) or entry[key] < 0:
            return f"{key} {entry.get(key)!r} is not a count"
    if not isinstance(entry.get("paper"), str) or not isinstance(entry.get("sha256"), str):
        return "paper and sha256 must be strings"
    return None


def _depth(value: Any, limit: int = MAX_JSON_DEPTH + 1) -> int:
    depth, level = 0, [value]
    while level and depth <= limit:
        depth += 1
        nxt: list[Any] = []
        for v in level:
            if isinstance(v, dict):
                nxt.extend(v.values())
            elif isinstance(v, list):
                nxt.extend(v)
        level = nxt
    return depth - 1 if not level else depth


def _json_type(value: Any) -> str:
    return {dict: "object", list: "list", str: "string", int: "number", float: "number", bool: "boolean",
            type(None): "null"}.get(type(value), type(value).__name__)


def check_record_path(path: Path) -> Problem | None:
    """``--changed-since``: a regular file (or a folder holding ``cards.json``) of a sane size,
    checked before it is opened (``/dev/zero`` would be read forever, a FIFO block)."""
    from cardforge.render.reprint import RECORD

    path = Path(path)
    if path.is_dir():
        path = path / RECORD
    try:
        st = os.stat(path)
    except FileNotFoundError:
        return None  # read_record says so, with what is allowed
    except OSError as exc:
        return Problem(f"cannot read it: {exc.strerror}", file=str(path), field="--changed-since")
    allowed = f"allowed: a {RECORD} written by an earlier `cardforge build`, or its folder"
    if not stat.S_ISREG(st.st_mode):
        return Problem(f"{describe(st)}, not a build record ({allowed})", file=str(path), field="--changed-since")
    if st.st_size > MAX_RECORD_BYTES:
        return Problem(f"{st.st_size} bytes: too large for a build record ({allowed})", file=str(path),
                       field="--changed-since")
    return None


def _os_problem(exc: OSError, path: Path) -> Problem:
    return Problem(exc.strerror or str(exc), file=str(exc.filename or path))


# --- the lock -----------------------------------------------------------------------------

@contextmanager
def _locked(out_dir: Path, game_id: str, wait: float) -> Iterator[None]:
    """Hold ``<out>/.<game>.lock`` (an ``flock``: the system drops it with the process)."""
    try:
        import fcntl
    except ImportError:  # not POSIX: no lock (builds are still transactions)
        yield
        return
    path = Path(out_dir) / f".{game_id}.lock"
    try:
        st = os.lstat(path)
        if not stat.S_ISREG(st.st_mode):
            raise OutputError(f"cannot build {game_id}", [Problem(f"{describe(st)} is there, where the build's "
                                                                  "lock file goes; move it away", file=str(path))])
    except FileNotFoundError:
        pass
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT | getattr(os, "O_CLOEXEC", 0), file_mode())
    except OSError as exc:
        raise OutputError(f"cannot build {game_id}", [_os_problem(exc, path)]) from None
    try:
        deadline = time.monotonic() + wait
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                pass  # another build holds it
            except OSError:  # a file system without locks (some network drives): build unlocked
                break
            if time.monotonic() >= deadline:
                other = os.pread(fd, 32, 0).decode("ascii", "replace").strip()
                who = f" (pid {other})" if other.isdigit() else ""
                raise OutputError(f"cannot build {game_id}", [Problem(
                    f"another cardforge build{who} is writing this folder; waited {wait:g} s. Run again "
                    "when it has finished, or build elsewhere with -o", file=str(Path(out_dir) / game_id))])
            time.sleep(0.05)
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode("ascii"), 0)
        yield
    finally:
        os.close(fd)  # releases the lock


# --- signals ------------------------------------------------------------------------------

class _Signals:
    """SIGINT and SIGTERM raise :class:`BuildInterrupted` (so the staging folder is removed on
    the way out); inside :meth:`deferred` they are held until the block ends. Handlers are
    installed only in the main thread, and only where the default ones are in place (an
    ignored signal stays ignored)."""

    def __init__(self) -> None:
        self.saved: dict[int, Any] = {}
        self.defer = False
        self.pending: int | None = None

    def __enter__(self) -> _Signals:
        if threading.current_thread() is threading.main_thread():
            for sig, default in ((signal.SIGINT, signal.default_int_handler), (signal.SIGTERM, signal.SIG_DFL)):
                if signal.getsignal(sig) is default:
                    self.saved[sig] = signal.signal(sig, self._handle)
        return self

    def __exit__(self, *exc: object) -> None:
        for sig, handler in self.saved.items():
            signal.signal(sig, handler)

    def _handle(self, signum: int, frame: object) -> None:
        if self.defer:
            self.pending = signum
            return
        raise BuildInterrupted(signum)

    @contextmanager
    def deferred(self) -> Iterator[None]:
        self.defer = True
        try:
            yield
        finally:
            self.defer = False
        if self.pending is not None:
            raise BuildInterrupted(self.pending, committed=True)


def checkpoint(point: str) -> None:
    """The test hook (module docstring): pause at ``point`` when asked to."""
    spec = os.environ.get("CARDFORGE_TEST_PAUSE")
    if not spec or spec.partition("@")[0] != point:
        return
    marker = spec.partition("@")[2]
    if marker:
        Path(marker).write_text(f"{os.getpid()}\n", encoding="ascii")
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        time.sleep(0.02)
        if _signal_held():
            return


def _signal_held() -> bool:
    """A signal held during the swap ends a pause there (the tests' SIGTERM)."""
    handler = signal.getsignal(signal.SIGTERM)
    owner = getattr(handler, "__self__", None)
    return isinstance(owner, _Signals) and owner.pending is not None
