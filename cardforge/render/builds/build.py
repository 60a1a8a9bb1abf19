"""Building one game: the library function the CLI, watch mode and the benchmark all call.

``build_game(game, settings)`` loads the game's data, builds its decks and printables and
returns a :class:`BuildResult`. A build is **one transaction** over ``<out>/<game>/``
(the machinery is :mod:`cardforge.transaction`, shared with the exports):

1. a lock per output folder (``<out>/.<game>.lock``, ``flock``: released by the system when the
   process dies, so a killed build never leaves a lock that blocks the next one); a second
   build waits up to ``settings.lock_wait`` seconds, then refuses naming the other build;
2. leftovers of a killed build are cleared (``transaction.recover``): staging folders
   (``<out>/.<game>.staging-*``) are removed — or, when one was killed in the middle of a
   switch, the switch is finished —, and ``.*.part`` files in the game folder removed;
3. the output folder and the previous ``manifest.json`` are checked before anything is built
   (a file or a symbolic link where the folder goes, a manifest that is not one…:
   :class:`OutputError`);
4. every file is written into a staging folder beside the game folder (same file system);
5. only when every file succeeded is it switched in, in one atomic step: the files of the
   game folder this build neither rewrites nor retires (the other printables' files after
   ``--only pads``, exports in ``png/``, a designer's notes) are hard-linked into the staging
   folder, the new manifest written there, and the two folders exchanged
   (``renameat2(RENAME_EXCHANGE)``); files of the previous build that this build covers but
   no longer produces (another duplex mode's ``deck-backs.pdf``…), as the previous manifest
   lists them, are simply not carried over. A reader sees the old folder or the new one,
   never a mix; SIGINT and SIGTERM arriving during the switch are held until it is done; a
   SIGKILL at any point leaves the old folder or the new one, whole.

On any failure, error or signal before the switch, the staging folder is removed and the game
folder stays exactly as it was, manifest included. Files get the umask's permissions, the
folder keeps its own.

Entries of the previous manifest for printables this build does not cover (``--only pads``
after a full build) are kept while their file is there: the manifest always lists every file
of the folder that cardforge built.

Test hook: ``CARDFORGE_TEST_PAUSE=<point>@<file>`` makes a build write its pid to ``<file>``
at the named point (``locked``, ``decks``, ``printables``, ``staged``, ``committing``) and sleep
there (``<point>:busy@<file>``: stay busy inside one long call that does not return to Python
— the case the interrupt watchdog is for), so that tests can interrupt it at a known moment.
It is read, never written, by cardforge.
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import stat
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from cardforge import transaction
from cardforge.data.loading import load_game_data
from cardforge.errors import CardforgeError, DataError, OutputError, RenderError
from cardforge.paths import check_output_folder, describe, name_problem, output_name_problem, write_atomic
from cardforge.problems import Problem
from cardforge.render.cards.reprint import RECORD
from cardforge.render.output import MANIFEST_KINDS, ManifestEntry
from cardforge.settings import BuildSettings
from cardforge.transaction import Interrupted, interrupts

if TYPE_CHECKING:
    from cardforge.data.loading import GameData
    from cardforge.games.base import Game
    from cardforge.render.cards.reprint import Reprint

MANIFEST = "manifest.json"
#: the manifest kinds each ``--only`` printable produces (what a build of it replaces)
BUILD_KINDS: dict[str, tuple[str, ...]] = {"decks": ("deck", "backs"), "boards": ("board",), "pads": ("pad",),
                                           "aids": ("aid", "setup")}
#: every build writes instructions.pdf (render/builds/instructions.py) for the files it wrote
INSTRUCTIONS = "instructions"
PRINTABLES_MODULE = "cardforge.render.sheets.printables"
COMMITTING = transaction.COMMITTING  # in a staging folder switched file by file: the plan
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


#: SIGINT or SIGTERM stopped a build (``committed``: during the switch, which was finished)
BuildInterrupted = Interrupted


def build_game(game: Game, settings: BuildSettings, progress: Progress | None = None) -> BuildResult:
    """Build ``game``'s decks and printables (``settings.only``) into ``settings.out_dir/<game>``
    as one transaction (see the module's docstring). Raises :class:`DataError`,
    :class:`RenderError` or :class:`OutputError` carrying every problem (the folder is then
    untouched), or :class:`BuildInterrupted`."""
    progress = progress or _NoProgress()
    out_dir = Path(settings.out_dir)
    folder = out_dir / game.id
    with interrupts():
        _check_folders(out_dir, folder, game.id)
        try:
            out_dir.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise OutputError(f"cannot build {game.id}", [_os_problem(exc, out_dir)]) from None
        with transaction.locked(out_dir, game.id, settings.lock_wait):
            try:
                recover(out_dir, game.id)
            except OSError as exc:
                raise OutputError(f"cannot clear what an interrupted build left in {out_dir}",
                                  [_os_problem(exc, folder)]) from None
            _check_folders(out_dir, folder, game.id)  # a folder a recovered switch put back, too
            previous = read_manifest(folder, game.id)
            checkpoint("locked")
            return _build_locked(game, settings, progress, out_dir, folder, previous)


def _build_locked(game: Game, settings: BuildSettings, progress: Progress, out_dir: Path, folder: Path,
                  previous: list[dict[str, Any]]) -> BuildResult:
    data = load_game_data(game, settings.data_root, settings.lang)
    warnings = list(data.warnings)
    if settings.strict and warnings:
        strict = [Problem(p.message + " (--strict)", p.file, p.item, p.field, p.line) for p in warnings]
        raise DataError(f"card data for {game.id} has warnings", strict)
    if settings.changed_since is not None and "decks" in settings.only:
        problem = check_record_path(Path(settings.changed_since))
        if problem is not None:
            raise RenderError(f"cannot build the deck of {game.id}; no PDF written", [*warnings, problem])
    try:
        with transaction.staged(out_dir, game.id) as staging:
            entries, changes, covered, deck_warnings, layouts = _render(game, data, settings, staging, progress,
                                                                        warnings, previous, folder)
            checkpoint("staged")
            names = sorted(p.name for p in staging.iterdir() if not _PART.match(p.name))
            manifest, stale = _next_manifest(game.id, folder, previous, entries, covered)
            if "deck" in covered:  # a deck build's reprint lists go with the build that wrote them
                from cardforge.render.cards.reprint import CHANGES_JSON, CHANGES_MD

                stale += [n for n in (CHANGES_MD, CHANGES_JSON) if _is_regular(folder / n)]
            stale = [name for name in stale if name not in names]  # never what this build just wrote
            if names or stale:
                _check_targets(folder, names + [MANIFEST])
                write_atomic(staging / MANIFEST, lambda f: f.write(manifest))
                transaction.switch(staging, folder, stale, whole=True, pause=lambda: checkpoint("committing"))
        return BuildResult(game.id, folder, entries, warnings + deck_warnings, changes, stale, layouts)
    except OSError as exc:  # a full disk, a read-only folder…: the folder is as it was
        raise OutputError(f"cannot build {game.id}; {folder} left as it was",
                          [_os_problem(exc, folder)]) from None


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
            from cardforge.render.cards.decks import build_decks, deck_card_count

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
            checkpoint("printables")
            progress.start(game.id, None)
            entries += printables.build_printables(game, data, settings, staging, progress=progress)
            for kind in kinds:
                covered.update(BUILD_KINDS[kind])
        if "decks" in settings.only:  # a build of the decks says how to print the folder's files
            from cardforge.render.builds.instructions import write_instructions

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


def recover(out_dir: Path, game_id: str) -> None:
    """Clear what a killed build left (:func:`cardforge.transaction.recover`): finish a switch
    it had begun, remove every other staging folder of the game and the ``.*.part`` files in
    the game folder. Runs under the folder's lock."""
    transaction.recover(Path(out_dir), game_id)


def _is_regular(path: Path) -> bool:
    try:
        return stat.S_ISREG(os.lstat(path).st_mode)
    except OSError:
        return False


# --- checks before use --------------------------------------------------------------------

def _check_folders(out_dir: Path, folder: Path, game_id: str) -> None:
    """``-o`` is a folder or may be made; ``<out>/<game>`` is a folder or nothing — never a
    symbolic link (not followed: the build would write wherever it leads) — and the game's
    id is a name a folder may have."""
    why = name_problem(game_id, "game id") or output_name_problem(f".{game_id}.staging-0000000-xxxxxxxx")
    if why is not None:
        raise OutputError(f"cannot build into {out_dir}", [Problem(f"the game's id {why}", field="id")])
    problem = check_output_folder(out_dir)
    if problem is None:
        try:
            st = os.lstat(folder)
        except FileNotFoundError:
            return
        except OSError as exc:
            problem = _os_problem(exc, folder)
        else:
            if stat.S_ISDIR(st.st_mode):
                return
            if stat.S_ISLNK(st.st_mode):
                problem = Problem("a symbolic link is there, where the game's output folder goes; cardforge "
                                  "does not follow it (it would write wherever it leads): remove it, or build "
                                  "there with -o", file=str(folder))
            else:
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


# --- the test hook -------------------------------------------------------------------------

def checkpoint(point: str) -> None:
    """The test hook (module docstring): :func:`cardforge.transaction.checkpoint`."""
    transaction.checkpoint(point)
