"""Caches that make a rebuild cheap, each keyed by content so a stale entry is never used.

- :func:`layout_library`: the game's ``layout.yaml`` files read, validated and resolved
  (every layout's ``extends`` merged), kept pickled in the cache folder: reading and
  validating them costs ~40 ms a build (YAML, pydantic schemas) for files that rarely change.
- compiled jinja templates: :class:`cardforge.text.templating.CodeCache`;
- parsed TrueType fonts: :func:`cardforge.render.fonts.font_name`;
- laid-out card text: :data:`cardforge.render.richtext.LAYOUTS` (in memory, for watch mode).

All live in the folder of the validated-data cache (``cardforge/data/cache.py``):
``CARDFORGE_NO_CACHE=1`` turns them off, ``CARDFORGE_CACHE=DIR`` moves them.
"""

from __future__ import annotations

import hashlib
import os
import pickle
import sys
from pathlib import Path

from cardforge import __version__
from cardforge.layout.boxes import LAYOUT_FILE, LayoutLibrary
from cardforge.paths import write_atomic

_PACKAGE = Path(__file__).resolve().parent.parent
#: code whose changes change what a layout library holds
_CODE = ("layout/boxes.py", "layout/geometry.py", "data/models.py", "data/validate.py", "data/yamlio.py",
         "units.py", "problems.py", "resources.py")

#: pickled libraries of this process by key (a watch-mode rebuild reads no file for them)
_memory: dict[str, bytes] = {}


def layout_library(folders: list[Path]) -> LayoutLibrary:
    """The :class:`LayoutLibrary` of ``folders``, every layout resolved, from the cache when
    the layout files and the code are unchanged. A library with problems is never cached (its
    problems are reported again on every build)."""
    from cardforge.data.cache import cache_dir

    try:
        key = _key(folders)
    except OSError:
        return LayoutLibrary(folders)
    root = cache_dir()
    path = None if root is None else root / "layouts" / f"{key}.pickle"
    blob = _memory.get(key)
    if blob is None and path is not None:
        try:
            blob = path.read_bytes()
        except OSError:
            blob = None
    if blob is not None:
        try:
            library = pickle.loads(blob)
            if isinstance(library, LayoutLibrary) and not library.problems:
                _memory[key] = blob
                return library
        except Exception:  # a stale or corrupt entry is just a miss
            pass
    library = LayoutLibrary(folders)
    for name in library.names():
        library.get(name)
    if library.problems:
        return library
    for src in library._sources:  # the YAML node tree (for line numbers) is rebuilt on demand
        if src.doc is not None:
            src.doc._index = None
    try:
        blob = pickle.dumps(library, protocol=pickle.HIGHEST_PROTOCOL)
    except Exception:
        return library
    _memory.clear()
    _memory[key] = blob
    if path is not None:
        _store(path, blob)
    return library


def _key(folders: list[Path]) -> str:
    h = hashlib.blake2b(digest_size=16)
    # messages name files relative to the current folder or the templates root
    h.update(f"{__version__}|{sys.version}|{os.getcwd()}|{os.environ.get('CARDFORGE_TEMPLATES')}".encode())
    for folder in folders:
        file = Path(folder) / LAYOUT_FILE
        h.update(f"|{Path(folder).resolve()}|".encode())
        if file.is_file():
            h.update(file.read_bytes())
        else:
            h.update(b"(none)")
    for rel in _CODE:
        st = (_PACKAGE / rel).stat()
        h.update(f"{rel}:{st.st_size}:{st.st_mtime_ns}".encode())
    return h.hexdigest()


def _store(path: Path, blob: bytes) -> None:
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        entries = sorted(path.parent.glob("*.pickle"), key=lambda p: p.stat().st_mtime_ns)
        for old in entries[:-31]:  # a few games and template folders: keep the newest 31
            old.unlink(missing_ok=True)
        write_atomic(path, lambda f: f.write(blob))  # no *.part left, even on a full disk
    except OSError:
        pass  # a read-only home or a full disk must not break a build
