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
import re
import stat
import tempfile
from collections.abc import Callable, Iterable
from pathlib import Path, PurePosixPath, PureWindowsPath
from typing import IO, Any

from cardforge.errors import CardforgeError, OutputError
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


def dir_mode() -> int:
    """The mode a new folder gets under the umask (0o755 under the usual 022)."""
    return 0o777 & ~umask()


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


def check_output(path: Path, what: str = "output file", *, folder: bool = False,
                 base: Path | None = None) -> Problem | None:
    """Whether ``-o PATH`` (or another path named on the command line) may be written; the
    problem otherwise. Nothing is created here.

    - a file (``folder=False``): nothing is there, or a regular file (replaced by a rename) —
      never a folder, a device, a FIFO, a socket or a symbolic link (wherever it leads);
    - a folder (``folder=True``): a folder (a symbolic link the user named, to a folder, is
      followed: what cardforge writes inside never follows one), or nothing yet;
    - a missing folder on the way is created only below ``base`` (the current folder when
      None) — or, for a folder target, when its parent exists."""
    path = Path(path)
    where = str(path)
    if folder:
        problem, there = _existing_folder(path, f"the {what}", where)
        if problem is not None or there:
            return problem
    else:
        st = _lstat(path)
        if st is not None and not stat.S_ISREG(st.st_mode):
            return Problem(f"{describe(st)} is there; the {what} must be a regular file or a path where "
                           "nothing is yet", file=where)
    parent = Path(os.path.abspath(path)).parent
    problem, there = _existing_folder(parent, f"its folder {parent}", where)
    if problem is not None or there:
        return problem
    why = _creatable(parent, base)
    return Problem(why, file=where) if why else None


def _existing_folder(folder: Path, name: str, where: str) -> tuple[Problem | None, bool]:
    """(None, True): ``folder`` is a folder; (None, False): nothing is there; else the problem."""
    try:
        st = os.stat(folder)
    except FileNotFoundError:
        if os.path.islink(folder):
            return Problem(f"{name} is a symbolic link to nothing", file=where), False
        return None, False
    except NotADirectoryError:
        return Problem(f"a file is in the way of {name}", file=where), False
    except OSError as exc:
        return Problem(f"cannot reach {name}: {exc.strerror}", file=where), False
    if not stat.S_ISDIR(st.st_mode):
        return Problem(f"{name} is {describe(st)}, not a folder", file=where), False
    return None, True


def check_output_file(path: Path, base: Path | None = None, what: str = "output file") -> Problem | None:
    """:func:`check_output` for a file."""
    return check_output(path, what, base=base)


def check_output_folder(folder: Path, base: Path | None = None, what: str = "output folder") -> Problem | None:
    """:func:`check_output` for a folder."""
    return check_output(folder, what, folder=True, base=base)


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


# --- names that become file names -------------------------------------------------------------

#: the longest file name every platform allows (ext4, APFS, NTFS: 255 bytes or UTF-16 units)
MAX_NAME_BYTES = 255
#: what cardforge adds to a file's name while writing it: ``.<name>.XXXXXXXX.part``
WRITING_OVERHEAD = 15
#: how long each name that becomes part of file names may be (UTF-8 bytes), so that the longest
#: file made of them (``<game>-<w>x<h>-back-<design>-<kind>-<w>x<h>.png``, ``<id>-back.png``,
#: ``.<game>.staging-<pid>-<random>``), while written, stays within :data:`MAX_NAME_BYTES`
NAME_BYTES: dict[str, int] = {"card id": 120, "kind": 40, "back design": 40, "game id": 64, "profile": 64}
#: where each name goes (for messages)
NAME_USES: dict[str, str] = {
    "card id": "<id>.png, <id>-back.png", "kind": "deck-<kind>.pdf, back-<design>-<kind>.png",
    "back design": "back-<design>.png, <game>-back-<design>.png", "game id": "<out>/<game>/, <game>.json",
    "profile": "pod-<profile>/",
}
_NAME = re.compile(r"^\w[\w-]*\Z")  # letters (any script), digits, _ and -
#: names Windows keeps for devices, with any extension: a card 'con' would be 'con.png'
WINDOWS_RESERVED = frozenset({"con", "prn", "aux", "nul", *(f"com{i}" for i in range(10)),
                              *(f"lpt{i}" for i in range(10))})


def name_problem(value: object, what: str) -> str | None:
    """Why ``value`` (a card id, kind, back design, game id or profile name: ``what``, a key of
    :data:`NAME_BYTES`) cannot become part of a file name, or None."""
    most = NAME_BYTES[what]
    allowed = (f"allowed: letters, digits, '_' and '-', starting with a letter, digit or '_', at most "
               f"{most} bytes; it becomes part of file names ({NAME_USES[what]})")
    if not isinstance(value, str) or not value:
        return f"must be a name ({allowed})"
    if not _NAME.match(value):
        bad = next((c for c in value if not (c.isalnum() or c in "_-")), value[:1])
        return f"{short_repr(value)} holds {_char(bad)}, which cannot be part of a file name ({allowed})"
    size = len(value.encode("utf-8"))
    if size > most:
        return f"{short_repr(value)} is {size} bytes long ({allowed})"
    if what in ("card id", "game id") and value.lower() in WINDOWS_RESERVED:
        return f"'{value}' is a device name on Windows, which no file may be called ({allowed})"
    return None


def _char(c: str) -> str:
    if c == "/":
        return "'/'"
    if c.isprintable() and c != " ":
        return f"'{c}'"
    return f"U+{ord(c):04X}" if c != " " else "a space"


def output_name_problem(name: object) -> str | None:
    """Why ``name`` cannot be the name of a file written into an output folder, or None: it
    must be one plain name (no folder, no ``..``, no NUL or control character) short enough
    to be written under its temporary name (:data:`WRITING_OVERHEAD`)."""
    if not isinstance(name, str) or not name or name in (".", ".."):
        return "not a file name"
    if any(c in name for c in "/\\\0") or any(ord(c) < 32 for c in name):
        return f"{short_repr(name)} is not a plain file name (a folder separator or a control character)"
    size = len(name.encode("utf-8", "surrogateescape"))
    if size > MAX_NAME_BYTES - WRITING_OVERHEAD:
        return (f"the file name {short_repr(name)} is {size} bytes long: at most "
                f"{MAX_NAME_BYTES - WRITING_OVERHEAD} (every platform's limit, {MAX_NAME_BYTES}, less what "
                "cardforge adds while writing it); shorten the names it is made of")
    return None


def output_file(folder: Path, name: str, what: str = "file") -> Path:
    """``folder / name``, checked before anything is written: ``name`` is one plain file name
    of a sane length (:func:`output_name_problem`), so the path stays inside ``folder``, and
    what is there already is a regular file or nothing (never a symbolic link, which a rename
    would replace but a reader might follow). Every writer of cardforge names its files
    through this function; :class:`~cardforge.errors.OutputError` otherwise."""
    folder = Path(folder)
    problem = output_name_problem(name)
    if problem is not None:
        raise OutputError(f"cannot write the {what} into {folder}", [Problem(problem, file=str(folder))])
    path = folder / name
    st = _lstat(path)
    if st is not None and not stat.S_ISREG(st.st_mode):
        raise OutputError(f"cannot write the {what} into {folder}; nothing was replaced", [Problem(
            f"{describe(st)} is there, where cardforge writes a file; move it away", file=str(path))])
    return path


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


# --- reading: one rule for every file a game folder names or holds --------------------------------

def too_big(size: int, max_bytes: int, variable: str) -> str:
    """The message for a file over its size limit."""
    return f"file too large: {size:,} bytes, at most {max_bytes:,} bytes (set {variable} to allow more)"


def regular_inside(base: Path | str, name: object, what: str, *, max_bytes: int | None = None,
                   variable: str = "CARDFORGE_LIMIT_GAME_FILE_BYTES", also: Iterable[Path | str] = (),
                   **where: Any) -> tuple[Path | None, Problem | None]:
    """The one rule for a file a game folder names or holds, checked before it is opened:
    ``name`` (relative to ``base``) resolves inside ``base`` (or ``also``) — symbolic links are
    followed only while they stay inside —, is a regular file (never a FIFO, a device, a
    socket or a folder) and holds at most ``max_bytes``. Returns (the resolved path, None) or
    (None, the problem, naming the file and why). A missing file is no problem here: the
    caller says what a missing file means (an error, a warning, a placeholder)."""
    path, problem = path_problem(base, name, what, also=also, **where)
    if problem is not None or path is None:
        return None, problem
    head = "" if what == "file" and "file" in where else f"{what} {_q(str(name))}: "
    try:
        st = os.stat(path)
    except FileNotFoundError:
        return path, None
    except OSError as exc:
        return None, Problem(f"{head}cannot read it ({exc.strerror or exc})", **where)
    if not stat.S_ISREG(st.st_mode):
        return None, Problem(f"{head}cannot read {describe(st)}: give a regular file", **where)
    if max_bytes is not None and st.st_size > max_bytes:
        return None, Problem(f"{head}{too_big(st.st_size, max_bytes, variable)}", **where)
    return path, None


def read_regular(path: Path | str, display: str, max_bytes: int,
                 variable: str = "CARDFORGE_LIMIT_FILE_BYTES") -> tuple[bytes | None, Problem | None]:
    """The bytes of the regular file ``path``, at most ``max_bytes``; or a problem (missing, not
    a regular file, too large, unreadable). Opened without blocking and without following a
    link in its last step (a FIFO, a device or ``/dev/zero`` is never read)."""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
    try:
        fd = os.open(path, flags)
    except FileNotFoundError:
        return None, Problem("file not found", file=display)
    except IsADirectoryError:
        return None, Problem("is a folder, not a file", file=display)
    except OSError as exc:
        return None, Problem(f"cannot read file: {exc.strerror or exc}", file=display)
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            return None, Problem(f"cannot read {describe(info)}: give a regular file", file=display)
        if info.st_size > max_bytes:
            return None, Problem(too_big(info.st_size, max_bytes, variable), file=display)
        if hasattr(os, "set_blocking"):
            os.set_blocking(fd, True)
        chunks, total = [], 0
        while total <= max_bytes:
            chunk = os.read(fd, min(1 << 20, max_bytes + 1 - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
        if total > max_bytes:  # grew while read
            return None, Problem(too_big(total, max_bytes, variable), file=display)
        return b"".join(chunks), None
    except OSError as exc:
        return None, Problem(f"cannot read file: {exc.strerror or exc}", file=display)
    finally:
        os.close(fd)


def read_inside(base: Path | str, name: object, what: str, *, max_bytes: int,
                variable: str = "CARDFORGE_LIMIT_GAME_FILE_BYTES", also: Iterable[Path | str] = (),
                display: str | None = None, **where: Any) -> tuple[bytes | None, Problem | None]:
    """:func:`regular_inside`, then the file's bytes (:func:`read_regular`): a missing file is
    a problem here ("file not found")."""
    path, problem = regular_inside(base, name, what, max_bytes=max_bytes, variable=variable, also=also, **where)
    if problem is not None or path is None:
        return None, problem
    shown = display or where.get("file") or str(Path(base) / str(name))
    return read_regular(path, shown, max_bytes, variable)


def folder_entries(base: Path | str, sub: str, suffixes: Iterable[str], what: str
                   ) -> tuple[list[Path], list[Problem]]:
    """The files of ``base/sub`` with one of ``suffixes`` that obey the one rule (inside the
    game folder once links are resolved, regular files), sorted, as their paths below ``base``
    (not resolved: messages name them as the designer does); and a problem per file left out.
    Hidden files are not looked at."""
    folder = Path(base) / sub
    out: list[Path] = []
    problems: list[Problem] = []
    _, refused = path_problem(base, sub, what)
    if refused is not None:
        try:
            if os.path.lexists(folder):
                problems.append(refused)
        except OSError:
            pass
        return out, problems
    try:
        entries = sorted(os.scandir(folder), key=lambda e: e.name)
    except OSError:
        return out, problems
    wanted = tuple(s.lower() for s in suffixes)
    for entry in entries:
        if entry.name.startswith(".") or not entry.name.lower().endswith(wanted):
            continue
        rel = f"{sub}/{entry.name}"
        path, problem = regular_inside(base, rel, what, file=f"{sub}/{entry.name}")
        if problem is not None:
            problems.append(problem)
        elif path is not None and path.exists():
            out.append(folder / entry.name)
    return out, problems


def check_output_names(folder: Path, names: Iterable[str], what: str = "files") -> None:
    """Every name of a set of files about to be written into ``folder`` checked at once
    (:func:`output_name_problem`), before anything is drawn or written:
    :class:`~cardforge.errors.OutputError` listing each name refused."""
    problems = []
    for name in dict.fromkeys(names):
        why = output_name_problem(name)
        if why is not None:
            problems.append(Problem(why, file=str(Path(folder))))
    if problems:
        raise OutputError(f"cannot write the {what} into {folder}; nothing was written", problems)


def read_head(path: Path | str, n: int) -> tuple[bytes | None, str | None]:
    """The first ``n`` bytes of the regular file ``path`` (opened without blocking: a FIFO or a
    device is refused, never waited on); or why not."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0))
    except OSError as exc:
        return None, f"cannot read the file ({exc.strerror or type(exc).__name__})"
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            return None, f"cannot read {describe(st)}: give a regular file"
        return os.pread(fd, n, 0), None
    except OSError as exc:
        return None, f"cannot read the file ({exc.strerror or type(exc).__name__})"
    finally:
        os.close(fd)
