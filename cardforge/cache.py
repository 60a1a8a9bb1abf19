"""The one disk cache of cardforge: every cache (validated data, ``game.yaml`` specs, layout
libraries, compiled templates, parsed fonts) keeps its entries through these functions.

An entry's key (:func:`key`) covers what can change the result: the input bytes the caller
gives, every source file that shapes it (size and modification time: a stat, no read) and the
versions of cardforge, Python and the libraries involved. Entries are written atomically
(:func:`cardforge.paths.write_atomic`: no half-written file, no ``*.part`` left) and any entry
that cannot be read back (missing, truncated, from another version) is a miss: the result is
computed again. A cache that cannot write (a read-only home, a full disk) costs only the time.

``CARDFORGE_NO_CACHE=1`` turns every cache off; ``CARDFORGE_CACHE=DIR`` moves them (default
``$XDG_CACHE_HOME/cardforge`` or ``~/.cache/cardforge``). The test suite points it at a
temporary folder (``tests/conftest.py``): tests never read or write the user's cache.
"""

from __future__ import annotations

import hashlib
import os
import sys
from collections.abc import Callable, Iterable
from functools import lru_cache
from pathlib import Path
from typing import Any, TypeVar

from cardforge import __version__
from cardforge.paths import write_atomic

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
    """The cache folder, or None when caching is off (``CARDFORGE_NO_CACHE``)."""
    if os.environ.get("CARDFORGE_NO_CACHE"):
        return None
    explicit = os.environ.get("CARDFORGE_CACHE")
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "cardforge"


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
    None when caching is off."""
    root = cache_dir()
    if root is None:
        return None
    return root / folder / name if folder else root / name


def read(path: Path | None, loads: Callable[[bytes], T]) -> T | None:
    """``loads`` of the entry's bytes; None on a miss: no entry, caching off, or an entry that
    cannot be read or decoded (any error: truncated, corrupt, from another version)."""
    if path is None:
        return None
    try:
        return loads(path.read_bytes())
    except Exception:
        return None


def write(path: Path | None, blob: bytes | Callable[[], bytes]) -> bool:
    """Store an entry atomically (``blob`` or a function making it); False when it could not
    be kept (caching off, unpicklable, read-only or full disk): never an error."""
    if path is None:
        return False
    try:
        data = blob() if callable(blob) else blob
        path.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(path, lambda f: f.write(data))
    except Exception:
        return False
    return True


def prune(folder: Path, pattern: str, keep: int) -> None:
    """Remove all but the ``keep`` newest entries of ``folder`` matching ``pattern``."""
    try:
        entries = sorted(folder.glob(pattern), key=lambda p: p.stat().st_mtime_ns)
        for old in entries[:max(0, len(entries) - keep)]:  # fewer than keep: none (a negative end removed some)
            old.unlink(missing_ok=True)
    except OSError:
        pass


def memo(namespace: str, parts: Iterable[bytes | str], code: Iterable[Path], compute: Callable[[], T],
         libraries: Iterable[str] = (), keep: int = 128) -> T:
    """``compute()``, pickled in the cache under :func:`key` of the arguments; errors from
    ``compute`` propagate and are never kept. A new entry prunes the namespace to its ``keep``
    newest (a designer's edits each make one: without a bound they piled up by the hundred)."""
    import pickle

    try:
        path = entry("", f"{namespace}-{key(namespace, parts, code, libraries)[:32]}.pickle")
    except OSError:
        return compute()
    kept: T | None = read(path, pickle.loads)
    if kept is not None:
        return kept
    value = compute()
    if path is not None and write(path, lambda: pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)):
        prune(path.parent, f"{namespace}-*.pickle", keep)
    return value
