"""Writing a folder as one transaction: stage, then switch in whole; interrupts and recovery.

Every command that writes a set of files (``build``, ``export png|tts|pod``, ``export-data``)
writes them into a **staging folder** beside the target (same file system), and only when
every file succeeded **switches** it in:

- target missing: the staging folder is renamed to it (one atomic step);
- target present (``whole=True``): every entry of the target this run does not replace or
  retire is carried over into the staging folder (hard links: no copy, the old files stay
  readable meanwhile; subfolders recreated), then the two folders are exchanged in one atomic
  step (Linux ``renameat2(RENAME_EXCHANGE)``); the old folder, now at the staging path, is
  removed. Where the system cannot exchange (another OS, a file system without it), the staging
  folder is first renamed ``.<name>.ready-*`` (complete), the target moved aside
  (``.<name>.old-*``) and the ready folder renamed in: a reader may find the folder missing for
  a moment, never a mix, and :func:`recover` finishes or undoes what a kill left;
- target present, ``whole=False`` (a folder the user named that cardforge does not own, or one
  whose entries cannot be carried over — a FIFO, another file system, too many files): the
  files are renamed in one by one with SIGINT/SIGTERM held, after a plan is written in the
  staging folder, so that :func:`recover` finishes a switch a SIGKILL cut short.

A lock file per target (``.<name>.lock``, an ``flock`` the system releases when the process
dies) makes two writers take turns. :func:`interrupts` turns SIGINT and SIGTERM into
:class:`Interrupted` (a ``KeyboardInterrupt``) while a command runs, holds them during a switch,
and — should the main thread be stuck in a long call that does not return to Python — removes
the staging folders itself and ends the process within a second (a watchdog thread woken by
``signal.set_wakeup_fd``).

A small shared module: standard library only; problems come back as :class:`OutputError`.
"""

from __future__ import annotations

import errno
import json
import os
import re
import shutil
import signal
import stat
import tempfile
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from cardforge.errors import OutputError
from cardforge.paths import describe, dir_mode, write_atomic
from cardforge.problems import Problem

COMMITTING = ".committing"  # in a staging folder switched file by file: the plan (JSON: files, stale)
STAGING, READY, OLD = "staging", "ready", "old"
#: a folder holding more entries than this (subfolders included) is switched file by file
MAX_CARRIED = 20_000
#: after SIGINT/SIGTERM, how long the main thread has to clean up before the watchdog does it
GRACE_SECONDS = 0.75
_PART = re.compile(r"^\..+\.part$")
_PLAIN = re.compile(r"^[^/\\\x00]+$")


# --- interrupts ---------------------------------------------------------------------------

class Interrupted(KeyboardInterrupt):
    """SIGINT or SIGTERM stopped a command. ``committed``: the signal came during a switch,
    which was finished first (the folder holds the new files); else nothing was changed."""

    def __init__(self, signum: int, committed: bool = False):
        self.signum = signum
        self.committed = committed
        super().__init__(signal.Signals(signum).name)


class _Interrupts:
    """The process's SIGINT/SIGTERM handling while a command (or a library call) writes:
    re-entrant (``with interrupts():`` nests), installed only in the main thread and only
    where the default handlers are in place (an ignored signal stays ignored)."""

    def __init__(self) -> None:
        self.depth = 0
        self.saved: dict[int, Any] = {}
        self.defer = 0
        self.pending: int | None = None
        self.cleanups: list[Path] = []  # staging folders the watchdog removes
        self.lock = threading.Lock()
        self.ended = threading.Event()
        self.wakeup: tuple[int, int] | None = None
        self.old_wakeup = -1

    @property
    def active(self) -> bool:
        return bool(self.saved)

    def __enter__(self) -> _Interrupts:
        if self.depth == 0 and threading.current_thread() is threading.main_thread():
            for sig, default in ((signal.SIGINT, signal.default_int_handler), (signal.SIGTERM, signal.SIG_DFL)):
                if signal.getsignal(sig) is default:
                    self.saved[sig] = signal.signal(sig, self._handle)
            if self.saved:
                self._start_watchdog()
        self.depth += 1
        return self

    def __exit__(self, *exc: object) -> None:
        self.depth -= 1
        if self.depth == 0:
            for sig, handler in self.saved.items():
                signal.signal(sig, handler)
            self.saved.clear()
            self._stop_watchdog()
            self.pending = None
            self.defer = 0
            self.cleanups.clear()

    def _handle(self, signum: int, frame: object) -> None:
        if self.defer:
            self.pending = signum
            return
        raise Interrupted(signum)

    @contextmanager
    def deferred(self) -> Iterator[None]:
        """Hold SIGINT/SIGTERM for the block (a switch); raise :class:`Interrupted` (committed)
        after it when one came."""
        self.defer += 1
        try:
            yield
        finally:
            self.defer -= 1
        if not self.defer and self.pending is not None and self.active:
            signum, self.pending = self.pending, None
            raise Interrupted(signum, committed=True)

    @contextmanager
    def cleanup(self, path: Path) -> Iterator[None]:
        """Register a staging folder for the watchdog to remove should the process be stuck."""
        with self.lock:
            self.cleanups.append(Path(path))
        try:
            yield
        finally:
            with self.lock:
                if Path(path) in self.cleanups:
                    self.cleanups.remove(Path(path))

    # the watchdog: the C-level handler writes the signal's number to a pipe at once, even when
    # the main thread is inside a long call and the Python handler cannot run yet
    def _start_watchdog(self) -> None:
        try:
            r, w = os.pipe()
            os.set_blocking(w, False)
            self.old_wakeup = signal.set_wakeup_fd(w, warn_on_full_buffer=False)
        except (OSError, ValueError):
            return
        self.wakeup = (r, w)
        self.ended.clear()
        threading.Thread(target=self._watch, args=(r,), name="cardforge-interrupts", daemon=True).start()

    def _stop_watchdog(self) -> None:
        if self.wakeup is None:
            return
        r, w = self.wakeup
        self.wakeup = None
        try:
            signal.set_wakeup_fd(self.old_wakeup)
        except (OSError, ValueError):
            pass
        self.ended.set()
        os.close(w)  # the thread's read returns b"": it ends, and closes r

    def _watch(self, r: int) -> None:
        try:
            while True:
                data = os.read(r, 16)
                if not data:
                    return
                signums = [b for b in data if b in (signal.SIGINT, signal.SIGTERM)]
                if not signums:
                    continue
                if self.ended.wait(GRACE_SECONDS):
                    return
                while self.defer and not self.ended.is_set():  # a switch: never cut one short
                    time.sleep(0.01)
                if self.ended.is_set():
                    return
                with self.lock:
                    for path in self.cleanups:
                        shutil.rmtree(path, ignore_errors=True)
                name = signal.Signals(signums[-1]).name
                os.write(2, f"interrupted ({name}): stopped; nothing was changed\n".encode())
                os._exit(128 + signums[-1])
        except OSError:
            return
        finally:
            try:
                os.close(r)
            except OSError:
                pass


_INTERRUPTS = _Interrupts()


def interrupts() -> _Interrupts:
    """The process's interrupt handling (a context manager; see :class:`_Interrupts`)."""
    return _INTERRUPTS


# --- locks --------------------------------------------------------------------------------

@contextmanager
def locked(parent: Path, name: str, wait: float, what: str = "build") -> Iterator[None]:
    """Hold ``<parent>/.<name>.lock`` (an ``flock``: the system drops it with the process). A
    second writer polls for ``wait`` seconds, then :class:`OutputError` naming the holder."""
    try:
        import fcntl
    except ImportError:  # not POSIX: no lock (writes are still transactions)
        yield
        return
    path = Path(parent) / f".{name}.lock"
    try:
        st = os.lstat(path)
        if not stat.S_ISREG(st.st_mode):
            raise OutputError(f"cannot write {name}", [Problem(f"{describe(st)} is there, where the {what}'s "
                                                               "lock file goes; move it away", file=str(path))])
    except FileNotFoundError:
        pass
    from cardforge.paths import file_mode

    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_NOFOLLOW", 0),
                     file_mode())
    except OSError as exc:
        raise OutputError(f"cannot write {name}", [os_problem(exc, path)]) from None
    try:
        deadline = time.monotonic() + wait
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                pass  # another writer holds it
            except OSError:  # a file system without locks (some network drives): unlocked
                break
            if time.monotonic() >= deadline:
                other = os.pread(fd, 32, 0).decode("ascii", "replace").strip()
                who = f" (pid {other})" if other.isdigit() else ""
                raise OutputError(f"cannot write {name}", [Problem(
                    f"another cardforge {what}{who} is writing this folder; waited {wait:g} s. Run again "
                    "when it has finished, or write elsewhere with -o", file=str(Path(parent) / name))])
            time.sleep(0.05)
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode("ascii"), 0)
        yield
    finally:
        os.close(fd)  # releases the lock


# --- staging and switching ----------------------------------------------------------------

def new_staging(parent: Path, name: str) -> Path:
    """A fresh staging folder ``<parent>/.<name>.staging-<pid>-<random>``."""
    return Path(tempfile.mkdtemp(prefix=f".{name}.{STAGING}-{os.getpid()}-", dir=parent))


@contextmanager
def staged(parent: Path, name: str) -> Iterator[Path]:
    """A staging folder for ``<parent>/<name>``, removed on the way out whatever happens (after a
    switch it holds the old files, or is gone)."""
    staging = new_staging(parent, name)
    try:
        with _INTERRUPTS.cleanup(staging):
            yield staging
    finally:
        shutil.rmtree(staging, ignore_errors=True)


@contextmanager
def folder_transaction(target: Path, *, whole: bool = True, what: str = "export",
                       lock_wait: float = 10.0) -> Iterator[Path]:
    """Write the folder ``target`` as one transaction: yields a staging folder to write every
    file into; when the block ends without error the staging folder is switched in
    (:func:`switch`; ``whole``: the target is cardforge's own folder, exchanged in one step —
    else files are renamed in one by one), otherwise it is removed and the target is as it was.
    Missing folders on the way to ``target`` are created (the caller checked they may be:
    :func:`cardforge.paths.check_output`). A symbolic link at ``target`` is refused, never followed. Writers of the same
    target take turns (a lock beside it; and the lock of the build folder holding it, when it
    is inside one: ``output/<game>/png``)."""
    target = Path(target)
    parent, name = target.parent, target.name
    from cardforge.paths import output_name_problem

    why = output_name_problem(f".{name}.{STAGING}-0000000-xxxxxxxx")
    if why is not None:
        raise OutputError(f"cannot write the {what} into {target}", [Problem(why, file=str(target))])
    with interrupts():
        _refuse_link(target, what)
        try:
            parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise OutputError(f"cannot write the {what} into {target}", [os_problem(exc, parent)]) from None
        with build_folder_lock(parent, lock_wait, what), locked(parent, name, lock_wait, what):
            try:
                recover(parent, name)
                _refuse_link(target, what)
                with staged(parent, name) as staging:
                    yield staging
                    checkpoint("export-staged")
                    switch(staging, target, whole=whole, pause=lambda: checkpoint("export-committing"))
            except OSError as exc:  # a full disk, a read-only folder…: the target is as it was
                raise OutputError(f"cannot write the {what} into {target}; it was left as it was",
                                  [os_problem(exc, target)]) from None


@contextmanager
def build_folder_lock(folder: Path, wait: float = 10.0, what: str = "export") -> Iterator[None]:
    """Hold the lock of the build folder ``folder`` when it is one (``<out>/.<game>.lock`` is
    there): what is written into ``output/<game>/`` then never races a build's switch."""
    folder = Path(folder)
    if _is_regular(folder.parent / f".{folder.name}.lock"):
        with locked(folder.parent, folder.name, wait, what):
            yield
    else:
        yield


def _refuse_link(target: Path, what: str) -> None:
    try:
        st = os.lstat(target)
    except FileNotFoundError:
        return
    if stat.S_ISLNK(st.st_mode):
        raise OutputError(f"cannot write the {what} into {target}", [Problem(
            "a symbolic link is there, where the folder goes; cardforge does not follow it (it would write "
            "wherever it leads): remove it, or name the folder it leads to with -o", file=str(target))])
    if not stat.S_ISDIR(st.st_mode):
        raise OutputError(f"cannot write the {what} into {target}", [Problem(
            f"{describe(st)} is there, where the folder goes; move it away", file=str(target))])


def switch(staging: Path, target: Path, stale: Iterable[str] = (), *, whole: bool = True,
           pause: Callable[[], None] | None = None) -> None:
    """Make ``target`` hold the staging folder's entries, plus the target's other entries
    (carried over), less the ``stale`` names (see the module's docstring). SIGINT/SIGTERM are
    held meanwhile. ``pause``: called just before the atomic step (the tests' hook)."""
    staging, target = Path(staging), Path(target)
    stale = [s for s in stale if _PLAIN.match(s)]
    with _INTERRUPTS.deferred():
        try:
            st = os.lstat(target)
        except FileNotFoundError:
            st = None
        if st is None:
            os.chmod(staging, dir_mode())
            if pause:
                pause()
            os.rename(staging, target)  # nothing there (the lock keeps it so): one step
            return
        if not stat.S_ISDIR(st.st_mode):
            raise OutputError(f"cannot write into {target}", [Problem(
                f"{describe(st)} is there, where the folder goes; move it away", file=str(target))])
        if whole and _carry_over(target, staging, set(stale)):
            os.chmod(staging, stat.S_IMODE(st.st_mode))
            if pause:
                pause()
            _exchange_folders(staging, target)
            shutil.rmtree(staging, ignore_errors=True)  # the old folder now
            return
        names = sorted(p.name for p in staging.iterdir() if p.name != COMMITTING)
        clash = _clash(staging, target, names)
        if clash is not None:
            raise OutputError(f"cannot write into {target}; nothing was replaced", [clash])
        plan = json.dumps({"files": names, "stale": stale}).encode("utf-8")
        write_atomic(staging / COMMITTING, lambda f: f.write(plan))
        _finish(staging, target, names, stale, pause)


def _clash(staging: Path, target: Path, names: list[str]) -> Problem | None:
    """What in ``target`` a file-by-file switch could not replace: a folder or anything else
    where a file goes, a file or a link where a folder goes (checked first: all or nothing)."""
    for name in names:
        src, dst = staging / name, target / name
        try:
            st = os.lstat(dst)
        except FileNotFoundError:
            continue
        if _is_dir(src):
            if not stat.S_ISDIR(st.st_mode):
                return Problem(f"{describe(st)} is there, where a folder goes; move it away", file=str(dst))
            found = _clash(src, dst, sorted(p.name for p in src.iterdir()))
            if found is not None:
                return found
        elif not stat.S_ISREG(st.st_mode):
            return Problem(f"{describe(st)} is there, where a file goes; move it away", file=str(dst))
    return None


def _carry_over(target: Path, staging: Path, stale: set[str]) -> bool:
    """Hard-link (or copy) every entry of ``target`` that staging does not hold and is not
    stale into staging (subfolders recreated). False when that cannot be done safely (a FIFO or
    device, another file system, over :data:`MAX_CARRIED` entries): the caller switches file by
    file instead (what was carried is removed)."""
    device = os.lstat(target).st_dev
    budget = [MAX_CARRIED]
    made: list[Path] = []

    def carry(src_dir: Path, dst_dir: Path, top: bool) -> bool:
        try:
            entries = list(os.scandir(src_dir))
        except OSError:
            return False
        for entry in entries:
            name = entry.name
            if top and (name in stale or _PART.match(name) or (dst_dir / name).exists()
                        or os.path.lexists(dst_dir / name)):
                continue
            budget[0] -= 1
            if budget[0] < 0:
                return False
            st = entry.stat(follow_symlinks=False)
            if st.st_dev != device:
                return False
            dst = dst_dir / name
            if stat.S_ISREG(st.st_mode):
                try:
                    os.link(entry.path, dst, follow_symlinks=False)
                except OSError:
                    shutil.copy2(entry.path, dst, follow_symlinks=False)
            elif stat.S_ISLNK(st.st_mode):
                os.symlink(os.readlink(entry.path), dst)
            elif stat.S_ISDIR(st.st_mode):
                os.mkdir(dst)
                if not carry(Path(entry.path), dst, False):
                    return False
                os.chmod(dst, stat.S_IMODE(st.st_mode))
            else:
                return False
            if top:
                made.append(dst)
        return True

    if carry(target, staging, True):
        return True
    for path in made:  # undo: the staging folder holds only the new files again
        if path.is_dir() and not path.is_symlink():
            shutil.rmtree(path, ignore_errors=True)
        else:
            path.unlink(missing_ok=True)
    return False


def _finish(staging: Path, target: Path, names: list[str], stale: list[str],
            pause: Callable[[], None] | None = None) -> None:
    """The file-by-file switch (resumable: :func:`recover` runs it again after a SIGKILL)."""
    for i, name in enumerate(names):
        src = staging / name
        if os.path.lexists(src):
            _move_in(src, target / name)
        if pause and i == 0:
            pause()
    for name in stale:
        path = target / name
        if _is_regular(path):
            path.unlink()


def _move_in(src: Path, dst: Path) -> None:
    """Rename ``src`` over ``dst``; a folder onto a folder is merged, entry by entry (what the
    target's folder holds besides is kept)."""
    if _is_dir(src) and _is_dir(dst):
        for child in sorted(os.listdir(src)):
            _move_in(src / child, dst / child)
        return
    os.replace(src, dst)


_RENAME_EXCHANGE = 2
_libc: Any = None


def _renameat2_exchange(a: Path, b: Path) -> bool:
    """Exchange two paths in one step (Linux ≥ 3.15); False where that cannot be done."""
    global _libc
    if not hasattr(os, "sched_getaffinity"):  # not Linux
        return False
    import ctypes

    try:
        if _libc is None:
            _libc = ctypes.CDLL(None, use_errno=True)
        fn = _libc.renameat2
    except (OSError, AttributeError):
        return False
    fn.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_uint]
    fn.restype = ctypes.c_int
    at_fdcwd = -100
    if fn(at_fdcwd, os.fsencode(a), at_fdcwd, os.fsencode(b), _RENAME_EXCHANGE) == 0:
        return True
    err = ctypes.get_errno()
    if err in (errno.ENOSYS, errno.EINVAL, errno.ENOTSUP, errno.EOPNOTSUPP, errno.EPERM):
        return False
    raise OSError(err, os.strerror(err), str(b))


#: tests set this to False to exercise the fallback
USE_EXCHANGE = True


def _exchange_folders(staging: Path, target: Path) -> None:
    """``target`` becomes the staging folder's content and the staging path the old content."""
    if USE_EXCHANGE and _renameat2_exchange(staging, target):
        return
    parent, name = target.parent, target.name
    suffix = staging.name.rpartition(f".{STAGING}-")[2] or f"{os.getpid()}"
    ready, old = parent / f".{name}.{READY}-{suffix}", parent / f".{name}.{OLD}-{suffix}"
    os.rename(staging, ready)  # complete: a kill from here on is finished by recover()
    os.rename(target, old)
    os.rename(ready, target)
    os.rename(old, staging)  # removed by the caller, as after an exchange


def leftovers(parent: Path, name: str) -> list[Path]:
    """What killed runs left for ``<parent>/<name>``: staging, ready and old folders."""
    out: list[Path] = []
    for kind in (STAGING, READY, OLD):
        try:
            out += sorted(Path(parent).glob(f".{glob_escape(name)}.{kind}-*"))
        except OSError:
            continue
    return out


def glob_escape(name: str) -> str:
    return re.sub(r"([*?\[])", r"[\1]", name)


def recover(parent: Path, name: str) -> None:
    """Clear what a killed run left for ``<parent>/<name>`` (under its lock): finish a switch
    it had begun — a ready folder when the target is missing, a file-by-file plan — or put the
    old folder back; remove every other staging, ready and old folder and the ``.*.part``
    files in the target."""
    parent = Path(parent)
    target = parent / name
    found = leftovers(parent, name)
    if not os.path.lexists(target):
        ready = [p for p in found if f".{READY}-" in p.name and _is_dir(p)]
        old = [p for p in found if f".{OLD}-" in p.name and _is_dir(p)]
        if ready:
            os.rename(ready[-1], target)
        elif old:
            os.rename(old[-1], target)
    for path in found:
        if not os.path.lexists(path) or path.is_symlink() or not path.is_dir():
            continue
        plan = _read_plan(path / COMMITTING) if f".{STAGING}-" in path.name else None
        if plan is not None and _is_dir(target):
            _finish(path, target, *plan)
        shutil.rmtree(path, ignore_errors=True)
    if _is_dir(target):
        for entry in os.scandir(target):
            if _PART.match(entry.name) and entry.is_file(follow_symlinks=False):
                Path(entry.path).unlink(missing_ok=True)


def _read_plan(path: Path) -> tuple[list[str], list[str]] | None:
    try:
        plan = json.loads(path.read_bytes())
        names, stale = plan["files"], plan["stale"]
    except (OSError, ValueError, KeyError, TypeError):
        return None
    ok = all(isinstance(n, str) and _PLAIN.match(n) and n not in (".", "..") for n in [*names, *stale])
    return (names, stale) if ok else None


def _is_regular(path: Path) -> bool:
    try:
        return stat.S_ISREG(os.lstat(path).st_mode)
    except OSError:
        return False


def _is_dir(path: Path) -> bool:
    try:
        return stat.S_ISDIR(os.lstat(path).st_mode)
    except OSError:
        return False


def checkpoint(point: str) -> None:
    """The test hook: ``CARDFORGE_TEST_PAUSE=<point>@<file>`` makes the process write its pid to
    ``<file>`` at the named point and sleep there (up to 30 s, or until a signal held during a
    switch: the tests' SIGTERM); ``<point>:busy@<file>``: stay busy inside one long call that
    does not return to Python (~30 s) — what the interrupt watchdog is for — and write
    ``<file>.returned`` if that call ever returns. Points: the build's
    ``locked``, ``decks``, ``printables``, ``staged``, ``committing``; the exports'
    ``export-writing`` (a first file written), ``export-staged``, ``export-committing``;
    ``check``. Read, never written, by cardforge."""
    spec = os.environ.get("CARDFORGE_TEST_PAUSE")
    if not spec:
        return
    where, _, marker = spec.partition("@")
    name, _, how = where.partition(":")
    if name != point:
        return
    if marker:
        Path(marker).write_text(f"{os.getpid()}\n", encoding="ascii")
    if how == "busy":  # releases the GIL, never returns to Python until done
        import hashlib

        hashlib.pbkdf2_hmac("sha256", b"cardforge", b"test-pause", 30_000_000)
        if marker:  # the tests: nothing ended the process inside the call
            Path(marker + ".returned").write_text("the busy call returned\n", encoding="ascii")
        return
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        time.sleep(0.02)
        if _INTERRUPTS.pending is not None:  # a signal held during a switch ends a pause there
            return


def os_problem(exc: OSError, path: Path) -> Problem:
    return Problem(exc.strerror or str(exc), file=str(exc.filename or path))
