"""The one disk cache of cardforge: every cache (validated data, ``game.yaml`` specs, layout
libraries, compiled templates, parsed fonts) keeps its entries through these functions.

An entry's key (:func:`key`) covers what can change the result: the input bytes the caller
gives, every source file that shapes it (size and modification time: a stat, no read) and the
versions of cardforge, Python and the libraries involved. Entries are written atomically
(:func:`cardforge.paths.write_atomic`: no half-written file, no ``*.part`` left) and any entry
that cannot be read back (missing, truncated, from another version) is a miss: the result is
computed again. A cache that cannot write (a read-only home, a full disk) costs only the time.

**The cache is data, never code from anywhere** (issue 38). Whoever can write the cache folder
(a shared ``CARDFORGE_CACHE``, a CI cache restored from another branch) must not be able to
make a later run execute anything, crash or hang:

- every entry is an envelope (:func:`write`): a magic and format number, the cardforge and
  Python versions that wrote it, the payload's length and an HMAC-SHA256 of all that, of the
  entry's name and of the payload, under a key kept *outside* the cache folder
  (:func:`secret`: ``cache-key`` in the user's config folder, mode 0600, made once). An
  entry whose MAC, length, versions or magic is off is a miss, removed; only then is the
  payload decoded (pickle, marshal, JSON). A copied, restored or planted entry cannot carry a
  valid MAC: the key never travels with the cache. No key (none can be made or it is
  readable by others): nothing is cached at all, with one warning.
- entries are opened with ``O_NOFOLLOW | O_NONBLOCK``, must be regular files no larger than
  :data:`MAX_ENTRY_BYTES`: a link (to ``/dev/zero``), a FIFO or a device is a miss at once.
- the cache folder, and each sub-folder, must belong to the user and not be writable by its
  group or others; otherwise the cache is not used, with one warning saying how to fix it.
  Folders cardforge makes there are ``0700`` and entries ``0600``, whatever the umask.
- pickles are decoded by :func:`unpickle`, which builds only classes of an allow-list
  (cardforge's, pydantic's, ReportLab's and plain containers): a second fence behind the MAC.

``CARDFORGE_NO_CACHE=1`` turns every cache off; ``CARDFORGE_CACHE=DIR`` moves them (default
``$XDG_CACHE_HOME/cardforge`` or ``~/.cache/cardforge``); ``CARDFORGE_CONFIG=DIR`` moves the
key's folder (default: platformdirs' user config folder, ``~/.config/cardforge`` on Linux). The
test suite points both at temporary folders (``tests/conftest.py``): tests never read or write
the user's cache or key.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import stat
import sys
from collections.abc import Callable, Iterable
from functools import lru_cache
from pathlib import Path
from typing import Any, TypeVar

from cardforge import __version__
from cardforge.paths import describe, write_atomic

T = TypeVar("T")

PACKAGE = Path(__file__).resolve().parent

#: importable name → (distribution name, the module attribute holding its version)
_LIBRARIES: dict[str, tuple[str, str]] = {
    "pydantic": ("pydantic", "VERSION"),
    "pydantic_core": ("pydantic_core", "__version__"),
    "yaml": ("PyYAML", "__version__"),
    "jinja2": ("Jinja2", "__version__"),
    "reportlab": ("reportlab", "Version"),
    "openpyxl": ("openpyxl", "__version__"),
    "fontTools": ("fonttools", "version"),
    "svglib": ("svglib", "__version__"),
}


def cache_dir() -> Path | None:
    """The cache folder, or None when caching is off: ``CARDFORGE_NO_CACHE``, a folder that is
    not safe to use (:func:`folder_problem`: another user's, or writable by others) or no key
    to authenticate entries with (:func:`secret`); the last two with one warning."""
    if os.environ.get("CARDFORGE_NO_CACHE"):
        return None
    root = configured_dir()
    if not _safe_folder(root) or secret() is None:
        return None
    return root


def configured_dir() -> Path:
    """The folder the cache is asked to live in (``CARDFORGE_CACHE``, else the user's cache
    folder), whether or not it may be used."""
    explicit = os.environ.get("CARDFORGE_CACHE")
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "cardforge"


# --- the folders: the user's own, writable by nobody else ---------------------------------------

#: folders found safe in this process (a folder is checked once: a stat)
_safe: set[str] = set()
#: warnings already given in this process (each once)
_warned: set[str] = set()
#: POSIX permissions and owners mean something here (not on Windows)
_POSIX = os.name == "posix"


def warn(message: str) -> None:
    """Print ``message`` once per process on stderr: the cache never fails a command, but a
    cache that cannot be used is said (once), or every run is silently slow."""
    if message in _warned:
        return
    _warned.add(message)
    try:
        sys.stderr.write(f"warning: {message}\n")
    except (OSError, ValueError):  # no stderr (closed, a GUI): nothing to say it on
        pass


def folder_problem(st: os.stat_result) -> str | None:
    """Why a folder (its ``os.stat``) may not hold cache entries, or None: it must be a folder
    of the user's own that neither its group nor other users can write into (they could plant,
    swap or remove entries)."""
    if not stat.S_ISDIR(st.st_mode):
        return f"is {describe(st)}, not a folder"
    if not _POSIX:
        return None
    if st.st_uid != os.geteuid():
        return f"belongs to another user (uid {st.st_uid}, you are {os.geteuid()})"
    if st.st_mode & 0o022:
        who = "other users" if st.st_mode & 0o002 else "its group"
        return f"can be written by {who} (mode {stat.S_IMODE(st.st_mode):04o})"
    return None


def _safe_folder(folder: Path | str) -> bool:
    """Whether entries may be read from or written into ``folder`` (nothing there yet counts:
    it will be made ``0700``); a warning otherwise. The cache's root may be a symbolic link the
    user made (``CARDFORGE_CACHE``), its sub-folders may not."""
    name = os.fspath(folder)
    if name in _safe:
        return True
    folder = Path(folder)
    try:
        st = os.stat(folder) if folder == configured_dir() else os.lstat(folder)
    except FileNotFoundError:
        return True
    except OSError as exc:
        warn(f"{folder}: cannot use this cache folder ({exc.strerror or exc}); the cache is not used")
        return False
    problem = folder_problem(st)
    if problem is not None:
        fix = f"run 'chmod go-w {folder}'" if "written by" in problem else "remove it"
        warn(f"{folder}: the cache folder {problem}: anyone who can write there could plant entries, so "
             f"the cache is not used (every run computes everything again); {fix}, or set CARDFORGE_CACHE "
             "to a folder of your own")
        return False
    _safe.add(name)
    return True


def _make_folder(folder: Path) -> bool:
    """Make ``folder`` and its missing parents, each ``0700`` (``os.makedirs`` gives the parents the
    umask's mode), then check it: whether entries may go there."""
    missing: list[Path] = []
    probe = Path(folder)
    while not os.path.lexists(probe) and probe != probe.parent:
        missing.append(probe)
        probe = probe.parent
    try:
        for step in reversed(missing):
            try:
                os.mkdir(step, 0o700)
            except FileExistsError:  # made meanwhile (another process): checked below
                pass
    except OSError:
        return False
    root = configured_dir()
    if root in missing[1:] and not _safe_folder(root):  # the root, made on the way here
        return False
    return _safe_folder(folder)


# --- the key: outside the cache, the user's only -----------------------------------------------

#: the key's file name, in the user's config folder
KEY_FILE = "cache-key"
KEY_BYTES = 32
#: (CARDFORGE_CONFIG, CARDFORGE_CACHE) → the key (None: there is none, none can be made, or it
#: may not be used): read once a process
_keys: dict[tuple[str | None, str | None], bytes | None] = {}


def config_dir() -> Path:
    """The user's config folder for cardforge (``CARDFORGE_CONFIG``, else platformdirs'
    ``user_config_dir``: worked out here on Linux and macOS, where importing platformdirs
    would cost ~20 ms of every run's start-up)."""
    explicit = os.environ.get("CARDFORGE_CONFIG")
    if explicit:
        return Path(explicit)
    if sys.platform == "darwin":
        return Path(os.path.expanduser("~/Library/Application Support/cardforge"))
    if os.name == "posix":
        base = os.environ.get("XDG_CONFIG_HOME", "").strip() or os.path.expanduser("~/.config")
        return Path(base) / "cardforge"
    from platformdirs import user_config_path

    return user_config_path("cardforge", appauthor=False)


def secret() -> bytes | None:
    """The key that authenticates cache entries (read once a process), made on first use: 32
    random bytes in ``cache-key`` in the user's config folder, mode 0600, created atomically
    (a hard link of a complete file: two processes starting at once agree on one key). None,
    with one warning, when it cannot be read or made, when another user could read or replace
    it, or when it lies inside the cache folder (it would travel with a copied cache)."""
    where = (os.environ.get("CARDFORGE_CONFIG"), os.environ.get("CARDFORGE_CACHE"))
    if where in _keys:  # every read and write asks: answered from memory after the first
        return _keys[where]
    path = config_dir() / KEY_FILE
    key, why = _read_key(path)
    if key is None and why is None:  # none yet
        key, why = _make_key(path)
    if key is None:
        warn(f"{path}: {why}; the cache is not used (every run computes everything again): set "
             "CARDFORGE_CONFIG to a folder of your own for the key, or CARDFORGE_NO_CACHE=1 to say so")
    elif _inside(path, configured_dir()):
        key = None
        warn(f"{path}: the cache's key is inside the cache folder {configured_dir()} (it would travel with "
             "a copy of the cache); the cache is not used: set CARDFORGE_CACHE or CARDFORGE_CONFIG elsewhere")
    _keys[where] = key
    return key


def _inside(path: Path, folder: Path) -> bool:
    try:
        return Path(os.path.realpath(path)).is_relative_to(os.path.realpath(folder))
    except OSError:
        return False


def _read_key(path: Path) -> tuple[bytes | None, str | None]:
    """(key, None), (None, None) when there is no key file yet, or (None, why it is refused)."""
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    try:
        fd = os.open(path, flags)
    except (FileNotFoundError, NotADirectoryError):  # none yet (or no folder for it: said when made)
        return None, None
    except OSError as exc:
        if os.path.islink(path):
            return None, "the cache's key is a symbolic link (it could lead anywhere); remove it (a new one is made)"
        return None, f"cannot read the cache's key ({exc.strerror or exc})"
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            return None, f"the cache's key is {describe(st)}, not a regular file; remove it (a new one is made)"
        if _POSIX and st.st_uid != os.geteuid():
            return None, f"the cache's key belongs to another user (uid {st.st_uid}); remove it (a new one is made)"
        if _POSIX and st.st_mode & 0o077:
            return None, (f"the cache's key can be read by others (mode {stat.S_IMODE(st.st_mode):04o}); "
                          "remove it (a new one is made)")
        blob = os.read(fd, KEY_BYTES + 1)
    except OSError as exc:
        return None, f"cannot read the cache's key ({exc.strerror or exc})"
    finally:
        os.close(fd)
    if len(blob) != KEY_BYTES:
        return None, f"the cache's key is {len(blob)} bytes, not {KEY_BYTES}; remove it (a new one is made)"
    return blob, None


def _make_key(path: Path) -> tuple[bytes | None, str | None]:
    import tempfile

    try:
        os.makedirs(path.parent, mode=0o700, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".part")  # 0600
    except OSError as exc:
        return None, f"cannot make the cache's key ({exc.strerror or exc})"
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(os.urandom(KEY_BYTES))
        try:
            os.link(tmp, path)  # never replaces a key another process made meanwhile
        except FileExistsError:
            pass
        except OSError:  # no hard links here: a rename (a key made meanwhile is replaced, once)
            os.replace(tmp, path)
    except OSError as exc:
        return None, f"cannot make the cache's key ({exc.strerror or exc})"
    finally:
        try:
            os.unlink(tmp)
        except OSError:
            pass
    key, why = _read_key(path)
    return key, why or (None if key is not None else "cannot read the cache's key just made")


def library_version(name: str) -> str:
    """The installed version of library ``name`` (its import name): read from the module when
    it is already imported, from the package metadata otherwise (both give the same string, so
    a key does not depend on what was imported first); ``"-"`` when it is not installed."""
    dist, attr = _LIBRARIES[name]
    module = sys.modules.get(name)
    if module is not None:
        value = getattr(module, attr, None)
        if value is not None:
            return str(value)
    return _metadata_version(dist)


def _metadata_version(dist: str) -> str:
    """The installed version of distribution ``dist`` (``"-"``: not installed), from
    :func:`installed`: no scan of the installed distributions on a run whose environment did
    not change."""
    versions = installed()["versions"]
    if dist not in versions:  # not one of _LIBRARIES: asked of the metadata itself
        return _scan_version(dist)
    return str(versions[dist])


def _scan_version(dist: str) -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(dist)
    except PackageNotFoundError:
        return "-"


#: the entry point groups cardforge reads: the game registry's (``cardforge/games/__init__.py``)
#: and pydantic's plugins' (:mod:`cardforge.startup`: none installed, none looked for)
ENTRY_POINT_GROUPS = ("cardforge.games", "pydantic")


@lru_cache(maxsize=1)
def installed() -> dict[str, Any]:
    """What cardforge needs to know of the installed distributions: ``{"versions": {dist:
    version or "-"}, "entry_points": {group: [[name, value], ...]}}`` for the libraries of
    :data:`_LIBRARIES` and the groups of :data:`ENTRY_POINT_GROUPS`.

    Reading it from the package metadata imports ``importlib.metadata`` and reads every
    installed distribution (~15-20 ms, each run); it is kept in the cache under a key of the
    environment (:func:`environment_stamp`): an install, an upgrade or an uninstall changes the
    key, so a new plug-in is seen on the next run."""
    import json

    try:
        path = entry("", f"installed-{environment_stamp()}.json")
    except OSError:
        path = None
    kept = read(path, json.loads)
    if isinstance(kept, dict) and set(kept) == {"versions", "entry_points"}:
        return kept
    from importlib.metadata import entry_points

    value: dict[str, Any] = {
        "versions": {dist: _scan_version(dist) for dist, _ in _LIBRARIES.values()},
        "entry_points": {group: sorted([ep.name, ep.value] for ep in entry_points(group=group))
                         for group in ENTRY_POINT_GROUPS},
    }
    if path is not None and write(path, json.dumps(value, sort_keys=True).encode()):
        prune(path.parent, "installed-*.json", 4)  # one per environment in use (venvs, tox…)
    return value


def environment_stamp() -> str:
    """A key of the installed distributions, read with a few stats and no metadata: every
    ``sys.path`` entry, its modification time (an install, upgrade or uninstall adds or
    removes a ``*.dist-info`` folder there) and, for each ``*.dist-info``/``*.egg-info`` in it,
    its name (name and version) and its ``entry_points.txt``'s size and modification time (an
    entry point edited in place)."""
    h = hashlib.blake2b(digest_size=12)
    h.update(f"{sys.version}|{sys.prefix}".encode())
    for item in sys.path:
        folder = item or os.curdir
        try:
            st = os.stat(folder)
        except OSError:
            h.update(f"|{item}:-".encode())
            continue
        h.update(f"|{item}:{st.st_mtime_ns}".encode())
        if not os.path.isdir(folder):
            continue
        try:
            with os.scandir(folder) as it:
                names = sorted(e.name for e in it if e.name.endswith((".dist-info", ".egg-info")))
        except OSError:
            continue
        for name in names:
            try:
                ep = os.stat(os.path.join(folder, name, "entry_points.txt"))
                h.update(f"|{name}:{ep.st_size}:{ep.st_mtime_ns}".encode())
            except OSError:
                h.update(f"|{name}".encode())
    return h.hexdigest()


def code_files(*names: str) -> list[Path]:
    """Source files of the package by relative name: ``"units.py"``, ``"data/"`` (every
    module of the folder, not below), ``"*.py"`` (the top-level small shared modules)."""
    return list(_code_files(names))


@lru_cache(maxsize=64)
def _code_files(names: tuple[str, ...]) -> tuple[Path, ...]:  # the folders' listings, once a process
    files: list[Path] = []
    for name in names:
        if name.endswith("/"):
            files += sorted((PACKAGE / name).glob("*.py"))
        elif "*" in name:
            files += sorted(PACKAGE.glob(name))
        else:
            files.append(PACKAGE / name)
    return tuple(files)


def file_stamps(folders: Iterable[str | Path], skip: Iterable[str] = ()) -> list[str]:
    """``path:size:mtime_ns`` of every file below ``folders`` in a stable order, but those of
    ``skip`` (normalised paths); a file gone while listed is left out. A key's part for what a
    folder's files are, read without reading them."""
    skipped = {os.path.normpath(p) for p in skip}
    out = []
    for folder in folders:
        for dirpath, dirnames, filenames in os.walk(folder):
            dirnames.sort()
            for name in sorted(filenames):
                path = os.path.join(dirpath, name)
                if os.path.normpath(path) in skipped:
                    continue
                try:
                    st = os.stat(path)
                except OSError:
                    continue
                out.append(f"{path}:{st.st_size}:{st.st_mtime_ns}")
    return out


def key(namespace: str, parts: Iterable[bytes | str] = (), code: Iterable[Path] = (),
        libraries: Iterable[str] = ()) -> str:
    """The key of an entry: ``namespace``, the input ``parts`` (bytes or text, in order), the
    ``code`` files that shape the result (path, size, modification time) and the versions of
    cardforge, Python and ``libraries``. OSError when a code file is missing."""
    h = hashlib.blake2b(digest_size=16)
    h.update(f"{namespace}|cardforge={__version__}|python={sys.version}".encode())
    for lib in libraries:
        h.update(f"|{lib}={library_version(lib)}".encode())
    for part in parts:
        data = part.encode("utf-8") if isinstance(part, str) else part
        h.update(len(data).to_bytes(8, "little"))
        h.update(data)
    for path in code:
        st = os.stat(path)
        h.update(f"|{path}:{st.st_size}:{st.st_mtime_ns}".encode())
    return h.hexdigest()


def entry(folder: str, name: str) -> Path | None:
    """The path of entry ``name`` in the cache's sub-folder ``folder`` ("" for the top), or
    None when caching is off (or the cache cannot be used: :func:`cache_dir`)."""
    root = cache_dir()
    if root is None:
        return None
    return root / folder / name if folder else root / name


# --- entries: an envelope around the payload ------------------------------------------------------

#: what an entry starts with: a magic and the format's number (a new format: a miss, rewritten)
MAGIC = b"CFCACHE" + bytes([1])
#: the largest entry read (a 10,000-card deck's validated data is ~20 MB): a larger file is a miss
MAX_ENTRY_BYTES = 256 * 1024 * 1024
_MAC_BYTES = 32


def stamp() -> bytes:
    """The versions an entry was written by: another cardforge or Python reads it as a miss."""
    return f"cardforge={__version__}|python={sys.version}|{sys.implementation.cache_tag}".encode()


def _mac(key: bytes, name: str, head: bytes | memoryview, payload: bytes | memoryview) -> bytes:
    h = hmac.new(key, digestmod="sha256")  # OpenSSL's HMAC: ~1 ms for 2 MB
    h.update(name.encode("utf-8", "surrogateescape") + b"\0")  # an entry moved to another name: a miss
    h.update(head)
    h.update(payload)
    return h.digest()


def _head(payload_len: int) -> bytes:
    mark = stamp()
    return MAGIC + len(mark).to_bytes(2, "little") + mark + payload_len.to_bytes(8, "little")


def seal(name: str, payload: bytes, key: bytes) -> bytes:
    """The bytes of an entry named ``name`` holding ``payload`` (tests plant entries with it)."""
    head = _head(len(payload))
    return head + _mac(key, name, head, payload) + payload


#: how an entry is opened: never through a symbolic link, never waiting (a FIFO), never a terminal
_READ_FLAGS = (os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
               | getattr(os, "O_BINARY", 0))


def read_payload(path: Path | None) -> bytes | None:
    """The payload of the entry at ``path`` once everything about it checks; None on a miss:
    caching off, no entry, not a regular file (a link, a FIFO, a device: never followed, never
    waited on), larger than :data:`MAX_ENTRY_BYTES`, in a folder others can write, another
    format or version, a length or MAC that does not match. A bad entry is removed."""
    if path is None:
        return None
    key = secret()
    where = os.fspath(path)
    if key is None or not _safe_folder(os.path.dirname(where)):
        return None
    try:
        fd = os.open(where, _READ_FLAGS)
    except FileNotFoundError:
        return None
    except OSError:  # a symbolic link (ELOOP), a folder, no permission
        _discard(path)
        return None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode) or st.st_size > MAX_ENTRY_BYTES:
            _discard(path)
            return None
        chunks = []
        left = st.st_size
        while left > 0:  # one read, for a regular file
            chunk = os.read(fd, left)
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
    except OSError:
        return None
    finally:
        os.close(fd)
    payload = _unwrap(chunks[0] if len(chunks) == 1 else b"".join(chunks), os.path.basename(where), key)
    if payload is None:
        _discard(path)
    return payload


def _unwrap(blob: bytes, name: str, key: bytes) -> bytes | None:
    """The payload of an entry's bytes, or None if anything about them is off."""
    fixed = len(MAGIC) + 2
    if len(blob) < fixed + 8 + _MAC_BYTES or not blob.startswith(MAGIC):
        return None
    mark_end = fixed + int.from_bytes(blob[len(MAGIC):fixed], "little")
    if blob[fixed:mark_end] != stamp():
        return None
    length = int.from_bytes(blob[mark_end:mark_end + 8], "little")
    start = mark_end + 8 + _MAC_BYTES
    if start + length != len(blob):  # truncated, or more than it says
        return None
    view = memoryview(blob)
    mac = _mac(key, name, view[:mark_end + 8], view[start:])
    if not hmac.compare_digest(mac, blob[mark_end + 8:start]):
        return None
    return blob[start:]


def _discard(path: Path) -> None:
    """Remove a bad entry (a link or a FIFO itself: unlink follows nothing)."""
    try:
        os.unlink(path)
    except OSError:
        pass


def read(path: Path | None, loads: Callable[[bytes], T], expect: type | tuple[type, ...] | None = None) -> T | None:
    """``loads`` of the entry's payload (:func:`read_payload`: decoded only once its MAC
    checks); None on a miss, or when it cannot be decoded or is not an instance of ``expect``."""
    payload = read_payload(path)
    if payload is None:
        return None
    try:
        value = loads(payload)
    except Exception:
        return None
    if expect is not None and not isinstance(value, expect):
        return None
    return value


def write(path: Path | None, blob: bytes | Callable[[], bytes]) -> bool:
    """Store an entry atomically (``blob`` or a function making it), sealed (:func:`seal`),
    mode 0600, its folder made 0700; False when it could not be kept (caching off, no key, an
    unsafe folder, unpicklable, read-only or full disk): never an error."""
    if path is None:
        return False
    key = secret()
    if key is None:
        return False
    try:
        data = blob() if callable(blob) else blob
        if not _make_folder(path.parent):
            return False
        sealed = seal(path.name, data, key)
        write_atomic(path, lambda f: f.write(sealed), mode=0o600)
    except Exception:
        return False
    return True


# --- pickles: only classes of an allow-list ------------------------------------------------------

#: packages whose classes a cache's pickle may build (their sub-modules too): classes only, never
#: a function (a pickle calls what it names: a function of an allowed package could still run code)
_PICKLE_PACKAGES = frozenset({"cardforge", "pydantic", "pydantic_core", "reportlab", "collections", "datetime",
                              "decimal", "fractions", "enum", "pathlib", "uuid"})
#: the prefix of the names a game folder's rules are imported under (``games/__init__.py``): the
#: classes of a game's rules (its card models) are in its cached data. They are built only when
#: that module is already imported in this process (its game was found: its rules have run)
RULES_MODULE_PREFIX = "_cardforge_game_"
#: the functions a pickle of plain objects needs (object reconstruction, compiled patterns)
_PICKLE_FUNCTIONS = frozenset({("copyreg", "_reconstructor"), ("copyreg", "__newobj__"),
                               ("copyreg", "__newobj_ex__"), ("re", "_compile")})
#: the built-in types of plain values
_PICKLE_BUILTINS = frozenset({"dict", "list", "tuple", "set", "frozenset", "bytearray", "bytes", "str", "int",
                              "float", "complex", "bool", "slice", "range", "object", "NoneType"})


def unpickle(blob: bytes) -> Any:
    """``pickle.loads`` that builds only classes of :data:`_PICKLE_PACKAGES`, plain built-in
    types and the few functions of :data:`_PICKLE_FUNCTIONS` (an UnpicklingError otherwise):
    behind the MAC, a second fence between a cache entry and running code."""
    import io

    return _Unpickler(io.BytesIO(blob)).load()


def _allowed_global(module: str, name: str, found: object) -> bool:
    if (module, name) in _PICKLE_FUNCTIONS:
        return True
    if not isinstance(found, type):
        return False
    if module == "builtins":
        return name in _PICKLE_BUILTINS
    return _allowed_top(module.partition(".")[0])


def _allowed_top(top: str) -> bool:
    return top in _PICKLE_PACKAGES or (top.startswith(RULES_MODULE_PREFIX) and top in sys.modules)


def _make_unpickler() -> type:
    import pickle

    class Unpickler(pickle.Unpickler):
        def find_class(self, module: str, name: str) -> Any:
            top = module.partition(".")[0]
            if "." in name or not (_allowed_top(top) or module in ("builtins", "copyreg", "re")):
                raise pickle.UnpicklingError(f"{module}.{name} is not built from the cache")
            found = super().find_class(module, name)
            if not _allowed_global(module, name, found):
                raise pickle.UnpicklingError(f"{module}.{name} is not built from the cache")
            return found

    return Unpickler


class _LazyUnpickler:
    """The restricted unpickler class, made on first use (no ``pickle`` import at start-up)."""

    cls: type | None = None

    def __call__(self, file: Any) -> Any:
        if self.cls is None:
            self.cls = _make_unpickler()
        return self.cls(file)


_Unpickler = _LazyUnpickler()


def prune(folder: Path, pattern: str, keep: int) -> None:
    """Remove all but the ``keep`` newest entries of ``folder`` matching ``pattern``."""
    try:
        entries = sorted(folder.glob(pattern), key=lambda p: p.lstat().st_mtime_ns)  # a link: itself
        for old in entries[:max(0, len(entries) - keep)]:  # fewer than keep: none (a negative end removed some)
            old.unlink(missing_ok=True)
    except OSError:
        pass


def memo(namespace: str, parts: Iterable[bytes | str], code: Iterable[Path], compute: Callable[[], T],
         libraries: Iterable[str] = (), keep: int = 128, codec: str = "pickle",
         expect: type | tuple[type, ...] | None = None) -> T:
    """``compute()``, kept in the cache under :func:`key` of the arguments (``codec``:
    ``"json"`` for plain values, else pickled and read back by :func:`unpickle`); errors
    from ``compute`` propagate and are never kept. A value read back that is not an
    ``expect`` is a miss. A new entry prunes the namespace to its ``keep`` newest (a
    designer's edits each make one: without a bound they piled up by the hundred)."""
    import json
    import pickle

    suffix = "json" if codec == "json" else "pickle"
    try:
        path = entry("", f"{namespace}-{key(namespace, parts, code, libraries)[:32]}.{suffix}")
    except OSError:
        return compute()
    loads: Callable[[bytes], Any] = json.loads if codec == "json" else unpickle
    kept: T | None = read(path, loads, expect)
    if kept is not None:
        return kept
    value = compute()
    dumps: Callable[[], bytes] = ((lambda: json.dumps(value, sort_keys=True).encode()) if codec == "json"
                                  else (lambda: pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)))
    if path is not None and write(path, dumps):
        prune(path.parent, f"{namespace}-*.{suffix}", keep)
    return value
