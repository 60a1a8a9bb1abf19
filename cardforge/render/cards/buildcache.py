"""Caches that make a rebuild cheap, each keyed by content so a stale entry is never used.

- :func:`layout_library`: the game's ``layout.yaml`` files read, validated and resolved
  (every layout's ``extends`` merged), kept pickled in the cache folder (read back once the
  entry's MAC checks, through :func:`cardforge.cache.unpickle`): reading and
  validating them costs ~40 ms a build (YAML, pydantic schemas) for files that rarely change.
- compiled jinja templates: :class:`cardforge.text.templating.CodeCache`;
- parsed TrueType fonts: :func:`cardforge.render.fonts.font_name`;
- laid-out card text: :data:`cardforge.render.drawing.richtext.LAYOUTS` (in memory, for watch mode).

All are entries of the one cache (:mod:`cardforge.cache`): ``CARDFORGE_NO_CACHE=1`` turns
them off, ``CARDFORGE_CACHE=DIR`` moves them.
"""

from __future__ import annotations

import os
import pickle
from pathlib import Path

from cardforge import cache
from cardforge.layout.boxes import LAYOUT_FILE, LayoutLibrary

#: code whose changes change what a layout library holds: the layout layer, the data layer
#: (schemas, YAML reading, validation) and the small shared modules (units, problems, markup…)
_CODE = ("*.py", "data/", "layout/")
#: libraries whose versions shape it
_LIBRARIES = ("pydantic", "pydantic_core", "yaml")

#: pickled libraries of this process by key (a watch-mode rebuild reads no file for them)
_memory: dict[str, bytes] = {}


def layout_library(folders: list[Path]) -> LayoutLibrary:
    """The :class:`LayoutLibrary` of ``folders``, every layout resolved, from the cache when
    the layout files and the code are unchanged. A library with problems is never cached (its
    problems are reported again on every build)."""
    try:
        key = _key(folders)
    except OSError:
        return LayoutLibrary(folders)
    path = cache.entry("layouts", f"{key}.pickle")
    blob = _memory.get(key)
    if blob is None:
        blob = cache.read_payload(path)
    if blob is not None:
        try:
            library = cache.unpickle(blob)
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
    # messages name files relative to the current folder or the templates root
    parts: list[bytes | str] = [os.getcwd(), os.environ.get("CARDFORGE_TEMPLATES") or ""]
    for folder in folders:
        file = Path(folder) / LAYOUT_FILE
        parts.append(str(Path(folder).resolve()))
        parts.append(file.read_bytes() if file.is_file() else b"(none)")
    return cache.key("layouts", parts, cache.code_files(*_CODE), _LIBRARIES)


def _store(path: Path, blob: bytes) -> None:
    cache.prune(path.parent, "*.pickle", 31)  # a few games and template folders: keep the newest 31
    cache.write(path, blob)  # no *.part left, even on a full disk; a read-only home is no error
