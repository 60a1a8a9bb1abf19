"""Watch mode (``cardforge watch GAME``, alias ``cardforge build GAME --watch``): rebuild
whenever a game's data or templates change, fast, until Ctrl-C.

The operating system says what changed (:mod:`watchfiles`: inotify on Linux, FSEvents on
macOS, ReadDirectoryChangesW on Windows), so a save is seen at once and an idle watch costs
nothing. Those notifications do not cross network drives (NFS, SMB, sshfs…), nor WSL's
Windows drives: there the folders are polled instead — automatically on a network file system
(:func:`network_filesystem`, Linux), or when asked (``--poll``, ``CARDFORGE_WATCH_POLL=1``, or
watchfiles' own ``WATCHFILES_FORCE_POLLING``). A rebuild runs in the same process as the last
one, so it keeps everything that did not change: the compiled templates and layouts, the
fonts, every card text already laid out (:data:`cardforge.render.drawing.richtext.LAYOUTS`, by
content: the text, its box and its style), so a one-card edit lays out that card's text only,
and every card face drawn (:data:`cardforge.render.cards.facecache.FACES`): an unchanged face
is written again from its operators when the new PDF reads the same fonts and forms, so the
PDF is byte for byte a fresh build's.
A build that fails (bad data, text that does not fit, a full disk, even a bug in cardforge)
prints what went wrong and leaves the previous PDFs in place (a build is a transaction:
:mod:`cardforge.render.builds.build`); watching goes on.

The loop is :meth:`WatchSession.run`, fed by :func:`file_events`. :meth:`WatchSession.rebuild`
is one rebuild, and returns what it did (time, texts laid out and reused);
:meth:`WatchSession.changed` rebuilds the targets holding some changed files, and
:meth:`WatchSession.poll` finds the changes itself by comparing snapshots — so tests drive a
session without the OS watcher.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

#: what is watched: data, layouts and templates, pictures
WATCHED_SUFFIXES = frozenset({".yaml", ".yml", ".csv", ".xlsx", ".j2", ".png", ".jpg", ".jpeg", ".svg", ".ttf",
                              ".otf"})
POLL_SECONDS = 0.3  # when polling (network drives): how often the folders are looked at
TICK_MS = 1000  # without changes, how often a session checks that its folders are still the ones watched
#: changes arriving within this of each other are one batch: an editor's save (its writes, a
#: temporary file renamed, a back-up) and a save of several files at once take a few ms; a
#: batch is seen STEP_MS to 2 × STEP_MS after its last change (50 ms cost ~0.075 s a save)
STEP_MS = 20
DEBOUNCE_MS = 1600  # …but a batch is handed over after this at most
SETTLE_SECONDS = 0.15  # poll(): wait until files are still before reading them
KEPT_TEXTS = 1_000_000  # laid-out texts kept in watch mode (texts unused by a rebuild are dropped)
POLL_ENV = "CARDFORGE_WATCH_POLL"  # 1: poll the folders instead of OS notifications
#: file systems where OS change notifications do not work (or not for changes made elsewhere)
NETWORK_FILESYSTEMS = frozenset({"nfs", "nfs4", "cifs", "smb3", "smbfs", "9p", "afs", "ncpfs", "coda",
                                 "ceph", "glusterfs", "lustre", "gpfs", "vboxsf", "drvfs", "davfs",
                                 "fuse.sshfs", "sshfs", "fuse.davfs2", "fuse.rclone", "fuse.glusterfs",
                                 "fuse.s3fs", "fuse.gcsfuse"})

#: how poll() waits for a save to settle (tests replace it)
_sleep = time.sleep


def watched(path: str | Path) -> bool:
    """Whether a change to this file can change a build: data, templates, pictures, fonts
    (hidden files and editor back-ups are left out)."""
    name = os.path.basename(path)
    return os.path.splitext(name)[1].lower() in WATCHED_SUFFIXES and not name.startswith((".", "~$"))


def watched_event(path: str | Path) -> bool:
    """Whether a change the OS reports can change a build: a watched file (:func:`watched`), or
    a name without a suffix — a folder, perhaps: ``templates/`` moved away is one event on the
    folder alone, never on the files it held."""
    name = os.path.basename(path)
    return watched(path) or (not os.path.splitext(name)[1] and not name.startswith((".", "~")))


def identity(folder: Path) -> tuple[int, int] | None:
    """(device, inode) of a folder, None when it is not there: a folder replaced by a copy (an
    editor's save, ``git checkout``) is another folder, whose files the OS watcher never saw."""
    try:
        st = os.stat(folder)
    except OSError:
        return None
    return (st.st_dev, st.st_ino)


def snapshot(folders: Iterable[Path]) -> dict[str, tuple[int, int]]:
    """path → (mtime in ns, size) of every watched file below ``folders``."""
    out: dict[str, tuple[int, int]] = {}
    for folder in folders:
        folder = Path(folder)
        if not folder.is_dir():
            continue
        for path in folder.rglob("*"):
            if not watched(path):
                continue
            try:
                st = path.stat()
            except OSError:  # removed meanwhile
                continue
            out[str(path)] = (st.st_mtime_ns, st.st_size)
    return out


def changes(before: dict[str, tuple[int, int]], after: dict[str, tuple[int, int]]) -> list[str]:
    """Files added, removed or modified between two snapshots, sorted."""
    return sorted(p for p in before.keys() | after.keys() if before.get(p) != after.get(p))


def _unescape_mount(field: str) -> str:
    """/proc/mounts writes a space as \\040, a tab as \\011…"""
    out, i = [], 0
    while i < len(field):
        if field[i] == "\\" and field[i + 1:i + 4].isdigit():
            out.append(chr(int(field[i + 1:i + 4], 8)))
            i += 4
        else:
            out.append(field[i])
            i += 1
    return "".join(out)


def filesystem_type(path: Path, mounts: str = "/proc/self/mounts") -> str | None:
    """The type of the file system holding ``path`` ("ext4", "nfs4"…), from the mount table
    (Linux); None where there is none to read."""
    try:
        table = Path(mounts).read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None
    target = os.path.realpath(path)
    best, kind = "", None
    for line in table.splitlines():
        parts = line.split()
        if len(parts) < 3:
            continue
        point = _unescape_mount(parts[1])
        inside = target == point or target.startswith(point.rstrip("/") + "/")
        if inside and len(point) >= len(best):  # the deepest mount holding it (the last one of equals)
            best, kind = point, parts[2]
    return kind


def network_filesystem(path: Path, mounts: str = "/proc/self/mounts") -> bool:
    """Whether ``path`` is on a network drive, where OS change notifications cannot be trusted."""
    kind = filesystem_type(path, mounts)
    return kind is not None and (kind in NETWORK_FILESYSTEMS or kind.split(".")[0] in NETWORK_FILESYSTEMS)


def must_poll(folders: Iterable[Path], asked: bool = False) -> bool:
    """Poll rather than listen: when asked (``--poll``, ``CARDFORGE_WATCH_POLL=1``), or when a
    watched folder is on a network drive."""
    env = os.environ.get(POLL_ENV, "").strip().lower()
    if asked or (env and env not in {"0", "false", "no"}):
        return True
    return any(network_filesystem(f) for f in folders if Path(f).is_dir())


def file_events(folders: Iterable[Path], *, polling: bool = False, interval: float = POLL_SECONDS,
                stop: threading.Event | None = None, ticks: bool = False, step: int = STEP_MS) -> Iterator[set[str]]:
    """Batches of watched files (their paths) changed below ``folders``, as they happen, until
    ``stop`` is set (or Ctrl-C: KeyboardInterrupt). ``polling``: look at the folders every
    ``interval`` seconds rather than listen to the OS. A folder that does not exist yet is
    watched through its parent (a game's template folder made during the session counts; the
    parent's other files are reported too: :meth:`WatchSession.changed` leaves them out), or
    left out when that does not exist either. ``ticks``: also yield an empty batch each
    :data:`TICK_MS` without changes (the session looks at its folders then). ``step``: ms of
    quiet that end a batch (:data:`STEP_MS`; the studio takes less)."""
    from watchfiles import watch

    existing = list(dict.fromkeys(str(f if f.is_dir() else f.parent)
                                  for f in map(Path, folders) if f.is_dir() or f.parent.is_dir()))
    if not existing:
        return
    for batch in watch(*existing, watch_filter=lambda change, path: watched_event(path), step=step,
                       debounce=DEBOUNCE_MS, stop_event=stop, force_polling=True if polling else None,
                       poll_delay_ms=max(1, int(interval * 1000)), raise_interrupt=True,
                       rust_timeout=TICK_MS if ticks else 5000, yield_on_timeout=ticks):
        if batch or ticks:
            yield {path for _, path in batch}


@dataclass
class Rebuild:
    """What one rebuild did."""

    ok: bool
    seconds: float
    texts_laid_out: int  # card texts laid out (not found in the cache)
    texts_reused: int  # card texts found laid out already
    changed: list[str] = field(default_factory=list)
    failure: Any = None  # what the build function returned on failure, or the exception it raised


@dataclass
class Target:
    """One game being watched: how to build it and which folders feed it."""

    name: str
    build: Callable[[], Any]  # None when it built, else a description of the failure
    folders: list[Path]

    def holds(self, path: str | Path) -> bool:
        """Whether ``path`` is below one of the target's folders (as given, or resolved: FSEvents
        reports resolved paths)."""
        path = Path(path)
        for folder in self.folders:
            folder = Path(folder)
            if path.is_relative_to(folder) or path.is_relative_to(folder.resolve()):
                return True
        return False


def game_target(game, settings, build: Callable[[], Any] | None = None) -> Target:
    """A game to watch: its data folder and template folders (``settings.data_root``,
    ``settings.templates_dir``), rebuilt by ``build`` — by default
    :func:`cardforge.render.builds.build.build_game` with ``settings``, a failure (bad input) being
    returned as (game id, problems, title)."""
    from cardforge.data.loading import game_dir
    from cardforge.layout.boxes import template_folders

    if build is None:
        from cardforge.errors import CardforgeError
        from cardforge.render.builds.build import build_game

        def build() -> Any:
            try:
                build_game(game, settings)
            except CardforgeError as exc:
                return game.id, exc.problems, exc.title
            return None

    folders = [game_dir(game, settings.data_root), *template_folders(game, settings.templates_dir)]
    return Target(game.id, build, folders)


def keep_texts() -> None:
    """Keep every laid-out text for the session (the cache is small by default, so that a
    one-off build of a huge deck does not hold every card's text in memory), and every face
    drawn (:mod:`cardforge.render.cards.facecache`: off in a one-off build)."""
    from cardforge.render.cards.facecache import FACES
    from cardforge.render.drawing.richtext import LAYOUTS

    LAYOUTS.maxsize = max(LAYOUTS.maxsize, KEPT_TEXTS)
    FACES.enabled = True


class WatchSession:
    """Rebuilds targets when their files change.

    ``report(rebuild, target)`` is called after each rebuild (the CLI prints there).
    ``polling``: poll the folders (every ``interval`` seconds) rather than listen to the OS;
    None: decide (:func:`must_poll`)."""

    def __init__(self, targets: list[Target], report: Callable[[Rebuild, Target], None] | None = None,
                 interval: float = POLL_SECONDS, polling: bool | None = None):
        from cardforge.render.cards.facecache import FACES
        from cardforge.render.drawing.richtext import LAYOUTS

        self.targets = targets
        self.report = report or (lambda rebuild, target: None)
        self.interval = interval
        self.polling = polling
        self.layouts = LAYOUTS
        self.faces = FACES
        keep_texts()  # every text of the deck stays laid out between rebuilds
        from cardforge.data.incremental import Memo

        self.memo = Memo()  # the data as last loaded
        self.state = {t.name: snapshot(t.folders) for t in targets}  # for poll()

    @property
    def folders(self) -> list[Path]:
        return list(dict.fromkeys(f for t in self.targets for f in t.folders))

    def rebuild(self, target: Target, changed: list[str] | None = None) -> Rebuild:
        """Build ``target`` once; texts the build did not use are dropped from the cache
        afterwards (so that a long session does not pile up old versions of edited texts)."""
        from cardforge.data.incremental import session

        cache, faces = self.layouts, self.faces
        hits, misses = cache.hits, cache.misses
        cache.track()
        faces.track()
        t0 = time.perf_counter()
        try:
            with session(self.memo):  # one card's edit re-reads one card (data/incremental.py)
                failure = target.build()
        except Exception as exc:  # any error at all: reported, the previous output kept, watching on
            failure = exc
        finally:
            seconds = time.perf_counter() - t0
            used = cache.untrack()
            drawn = faces.untrack()
        if failure is None:
            cache.retain(used)
            faces.retain(drawn)
        result = Rebuild(failure is None, seconds, cache.misses - misses, cache.hits - hits,
                         list(changed or []), failure)
        self.report(result, target)
        return result

    def changed(self, paths: Iterable[str]) -> list[Rebuild]:
        """Rebuild every target holding one of ``paths`` (changed files, as the watcher reports
        them; files that cannot change a build are left out)."""
        paths = sorted({str(p) for p in paths if watched_event(p)})
        done = []
        for target in self.targets:
            mine = [p for p in paths if target.holds(p)]
            if mine:
                done.append(self.rebuild(target, mine))
        return done

    def poll(self) -> list[Rebuild]:
        """Rebuild every target whose files changed since the last look (snapshots compared:
        no OS watcher)."""
        done = []
        for target in self.targets:
            before = self.state[target.name]
            after = snapshot(target.folders)
            if after == before:
                continue
            while True:  # let a save finish before reading the files
                _sleep(SETTLE_SECONDS)
                settled = snapshot(target.folders)
                if settled == after:
                    break
                after = settled
            self.state[target.name] = after
            done.append(self.rebuild(target, changes(before, after)))
        return done

    def events(self, stop: threading.Event | None = None) -> Iterator[set[str]]:
        """Changed files, batch by batch, from the OS (or polling: :attr:`polling`); an empty
        batch each :data:`TICK_MS` without changes."""
        folders = self.folders
        polling = must_poll(folders) if self.polling is None else self.polling
        return file_events(folders, polling=polling, interval=self.interval, stop=stop, ticks=True)

    def identities(self) -> dict[str, tuple[tuple[int, int] | None, ...]]:
        """Each target's folders' identities (:func:`identity`)."""
        return {t.name: tuple(identity(f) for f in t.folders) for t in self.targets}

    def replaced(self, before: dict[str, tuple[tuple[int, int] | None, ...]],
                 skip: Iterable[str] = ()) -> list[Rebuild]:
        """Rebuild every target one of whose folders was replaced (or removed, or made) since
        ``before``: its files were never seen by the watcher, which is then started again.
        ``skip``: targets rebuilt already for the same change."""
        now = self.identities()
        done = []
        for target in self.targets:
            if now[target.name] != before.get(target.name):
                changed = [str(f) for f, a, b in zip(target.folders, before.get(target.name, ()), now[target.name])
                           if a != b]
                self.state[target.name] = snapshot(target.folders)
                if target.name not in skip:
                    done.append(self.rebuild(target, changed))
        return done

    def run(self, first_build: bool = True, stop: threading.Event | None = None) -> int:
        """Build (unless told the build was done), then rebuild on every change until Ctrl-C
        (or ``stop`` is set); returns 0. A watched folder replaced by a copy (an editor's save,
        ``git checkout``) is noticed within a second: the game is rebuilt and the new folder
        watched."""
        try:
            if first_build:
                for target in self.targets:
                    self.rebuild(target)
            recheck: list[Target] = []
            while stop is None or not stop.is_set():
                before = self.identities()
                for batch in self.events(stop):
                    rebuilt: set[str] = set()
                    if batch:
                        rebuilt = {t.name for t in self.targets
                                   if any(t.holds(p) for p in batch if watched_event(p))}
                        self.changed(batch)
                    for target in recheck:  # what changed while no watcher listened (the restart)
                        files = snapshot(target.folders)
                        if files != self.state[target.name]:
                            changed = changes(self.state[target.name], files)
                            self.state[target.name] = files
                            self.rebuild(target, changed)
                    recheck = []
                    now = self.identities()
                    if now != before:
                        recheck = [t for t in self.targets if now[t.name] != before.get(t.name)]
                        self.replaced(before, skip=rebuilt)
                        break  # watch the folders now there
                else:
                    return 0  # the watch ended (stop)
        except KeyboardInterrupt:
            return 0
        return 0
