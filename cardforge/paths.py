"""Paths: what cardforge may read and where it may write.

**Reading** — Paths named in a game's files, confined to the game's folder.

A data or template folder may come from anyone (``--data``, ``--templates``, a downloaded game
folder). Every path one of its files names — card files, art, fonts, icons, templates,
includes, a layout's ``src`` — goes through :func:`resolve_inside` before anything is opened:
it must be relative, and once ``..`` and symbolic links are resolved it must still lie inside
the folder it is relative to (or inside one of the other allowed roots, e.g. the shipped
templates). ``/etc/passwd``, ``../../secret.png``, ``C:\\x`` and a link to outside are refused
with a message naming the path and what it was for.

**Writing** — Output paths made safe: what may be written where, with which permissions.

Every file cardforge writes goes through a temporary name and a rename. This module decides
whether a path may be written at all (a regular file or nothing there: never a folder, a
device or a FIFO), which missing folders may be created on the way to it (only below a base
folder: the current one, or the build's ``-o`` folder), the mode files get (the umask's, as
any other program would create them: ``mkstemp`` alone gives ``-rw-------``), and how a cache
entry is written without leaving ``*.part`` files behind when the disk is full.

A small shared module: no dependency, nothing printed; problems come back as
:class:`~cardforge.problems.Problem`.
"""

from __future__ import annotations

import os
import stat
import tempfile
from collections.abc import Callable, Iterable
from pathlib import Path, PurePosixPath, PureWindowsPath
from typing import IO, Any

from cardforge.errors import CardforgeError
from cardforge.problems import Problem, short_repr

_umask: int | None = None


def umask() -> int:
    """The process's umask (read once: setting it back at once is the only way to read it)."""
    global _umask
    if _umask is None:
        current = os.umask(0o022)
        os.umask(current)
        _umask = current
    return _umask


def file_mode() -> int:
    """The mode a new file gets under the umask (0o644 under the usual 022)."""
    return 0o666 & ~umask()


def describe(st: os.stat_result) -> str:
    """'a folder', 'a FIFO'… for messages saying what is in the way."""
    mode = st.st_mode
    for test, name in ((stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a FIFO (named pipe)"),
                       (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
                       (stat.S_ISSOCK, "a socket"), (stat.S_ISLNK, "a symbolic link"),
                       (stat.S_ISREG, "a regular file")):
        if test(mode):
            return name
    return "not a regular file"


def _lstat(path: Path) -> os.stat_result | None:
    try:
        return os.lstat(path)
    except FileNotFoundError:
        return None
    except NotADirectoryError:  # a file where a parent folder should be: reported by the caller
        return None


def check_output_file(path: Path, base: Path | None = None, what: str = "output file") -> Problem | None:
    """``path`` may be written: nothing is there, or a regular file (replaced by a rename), and
    its folder exists — or may be created, being below ``base`` (the current folder when
    None). Returns the problem otherwise (nothing is created here)."""
    path = Path(path)
    where = str(path)
    st = _lstat(path)
    if st is not None and not stat.S_ISREG(st.st_mode):
        return Problem(f"{describe(st)} is there; the {what} must be a regular file or a path where "
                       "nothing is yet", file=where)
    parent = path.parent
    try:
        pst = os.stat(parent)
    except FileNotFoundError:
        pst = None
    except NotADirectoryError:
        return Problem(f"a file is in the way of the folder {parent}", file=where)
    except OSError as exc:
        return Problem(f"cannot reach the folder {parent}: {exc.strerror}", file=where)
    if pst is not None:
        if not stat.S_ISDIR(pst.st_mode):
            return Problem(f"its folder {parent} is {describe(pst)}", file=where)
        return None
    problem = _creatable(parent, base)
    return Problem(problem, file=where) if problem else None


def _creatable(folder: Path, base: Path | None) -> str | None:
    """None when the missing ``folder`` may be created (it is below ``base``), else why not."""
    base = Path(base) if base is not None else Path.cwd()
    try:
        Path(os.path.abspath(folder)).relative_to(os.path.abspath(base))
    except ValueError:
        below = "the current folder" if base == Path.cwd() else str(base)
        return (f"the folder {folder} does not exist, and cardforge creates missing folders only below "
                f"{below}; create it first")
    # below base: every existing step on the way must be a folder
    probe = Path(os.path.abspath(folder))
    while not probe.exists() and probe != probe.parent:
        probe = probe.parent
    if probe.exists() and not probe.is_dir():
        return f"{probe} is a file, in the way of the folder {folder}"
    return None


def check_output_folder(folder: Path, base: Path | None = None, what: str = "output folder") -> Problem | None:
    """``folder`` is a folder (symbolic links to one are fine), or is missing and may be
    created: its parent exists, or it is below ``base`` (the current folder when None)."""
    folder = Path(folder)
    try:
        st = os.stat(folder)
    except FileNotFoundError:
        st = None
    except NotADirectoryError:
        return Problem(f"a file is in the way of the {what}", file=str(folder))
    except OSError as exc:
        return Problem(f"cannot use the {what}: {exc.strerror}", file=str(folder))
    if st is not None:
        if not stat.S_ISDIR(st.st_mode):
            return Problem(f"the {what} is {describe(st)}, not a folder", file=str(folder))
        return None
    parent = Path(os.path.abspath(folder)).parent
    if parent.is_dir():
        return None
    problem = _creatable(parent, base)
    return Problem(problem, file=str(folder)) if problem else None


def make_folder(folder: Path) -> None:
    """Create ``folder`` and missing parents (after a check_output_* said it may be)."""
    Path(folder).mkdir(parents=True, exist_ok=True)


def write_atomic(path: Path, write: Callable[[IO[bytes]], object], mode: int | None = None) -> None:
    """Write ``path`` through a temporary file in its folder, renamed over it when complete.

    The temporary file is removed whatever goes wrong (a full disk, an interrupt), so no
    ``*.part`` file is ever left behind. ``mode``: the file's permissions (default: the
    umask's). Errors propagate (a cache catches them: a cache that cannot write is no cache)."""
    path = Path(path)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".part")
    try:
        with os.fdopen(fd, "wb") as f:
            write(f)
        os.chmod(tmp, file_mode() if mode is None else mode)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def sweep_parts(folders: Iterable[Path | str], older_than: float = 3600.0) -> int:
    """Remove ``*.part`` files older than ``older_than`` seconds from ``folders`` (not below):
    what a process killed in the middle of :func:`write_atomic` left (a SIGKILL cannot be
    cleaned up after). Returns how many went; errors are ignored."""
    import time

    limit = time.time() - older_than
    removed = 0
    for folder in folders:
        try:
            entries = list(os.scandir(folder))
        except OSError:
            continue
        for entry in entries:
            try:
                if entry.name.endswith(".part") and entry.is_file(follow_symlinks=False) \
                        and entry.stat(follow_symlinks=False).st_mtime < limit:
                    os.unlink(entry.path)
                    removed += 1
            except OSError:
                continue
    return removed


# --- reading: paths a game's files name ------------------------------------------------------

class PathRefused(CardforgeError):
    """A path a game file names that points outside its folder (or is no path at all)."""

    def __init__(self, problem: Problem):
        self.problem = problem
        super().__init__(problem.message, [problem])


def _is_within(path: Path, root: Path) -> bool:
    try:
        path.relative_to(root)
    except ValueError:
        return False
    return True


def path_problem(base: Path | str, name: object, what: str, *, also: Iterable[Path | str] = (),
                 **where: Any) -> tuple[Path | None, Problem | None]:
    """(the resolved path, None) or (None, a problem saying why ``name`` is refused).

    ``what`` names the path's use in the message ("card file", "art", "template");
    ``where`` (``file``, ``item``, ``field``, ``line``) locates the problem."""
    def refuse(why: str) -> tuple[None, Problem]:
        return None, Problem(f"{what} {short_repr(name) if not isinstance(name, str) else _q(name)}: "
                             f"{why}", **where)

    if not isinstance(name, str) or not name.strip():
        return refuse("must be a relative path (text)")
    if "\0" in name:
        return refuse("a path cannot hold a NUL character")
    if (PurePosixPath(name).is_absolute() or PureWindowsPath(name).is_absolute()
            or PureWindowsPath(name).drive or name.startswith(("~", "\\"))):
        return refuse(f"absolute paths are not allowed: give a path relative to {_folder_word(what)}")
    base = Path(base)
    try:
        root = base.resolve()
        resolved = (base / name).resolve()
    except (OSError, RuntimeError, ValueError) as exc:  # a symlink loop, a name too long…
        return refuse(f"cannot be resolved ({type(exc).__name__})")
    roots = [root]
    for extra in also:
        try:
            roots.append(Path(extra).resolve())
        except (OSError, RuntimeError, ValueError):
            continue
    if any(_is_within(resolved, r) for r in roots):
        return resolved, None
    lexical = os.path.normpath(os.path.join(str(base), name))
    if not _is_within(Path(lexical), base) and ".." in PurePosixPath(name.replace("\\", "/")).parts:
        return refuse(f"climbs out of {_folder_word(what)} (..): paths must stay inside it")
    return refuse(f"leads outside {_folder_word(what)} (through a symbolic link): "
                  "paths must stay inside it")


def resolve_inside(base: Path | str, name: object, what: str, *, also: Iterable[Path | str] = (),
                   **where: Any) -> Path:
    """The resolved path of ``name`` under ``base``; :class:`PathRefused` if it is absolute,
    climbs out with ``..`` or leads out through a symbolic link (see :func:`path_problem`)."""
    path, problem = path_problem(base, name, what, also=also, **where)
    if problem is not None:
        raise PathRefused(problem)
    assert path is not None
    return path


def _q(name: str) -> str:
    return "'" + (name if len(name) <= 60 else name[:60] + "…") + "'"


def _folder_word(what: str) -> str:
    return "the template folder" if "template" in what or "layout" in what else "the game's folder"
