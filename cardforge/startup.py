"""Start-up time: importing pydantic without importing asyncio.

typing_extensions' ``@deprecated`` runs ``import asyncio.coroutines`` each time it decorates a
function, and pydantic and pydantic-core decorate a few dozen at import. That pulls in the
whole asyncio package (ssl, sockets, subprocess, concurrent.futures): ~50 ms of every
``cardforge build/score/check`` run, a tenth of a whole deck build, for a module cardforge
never uses. :func:`import_pydantic` imports pydantic with a two-attribute stand-in for
``asyncio.coroutines`` (only ``iscoroutinefunction``, which is all ``@deprecated`` asks) and
removes the stand-in at once: a later ``import asyncio`` gets the real package.

Likewise pydantic looks for its plugins (the ``pydantic`` entry point group) when it builds
its first schema: it imports ``importlib.metadata`` and reads every installed distribution
(~15-20 ms). When cardforge's record of what is installed (:func:`cardforge.cache.installed`,
kept under a key of the environment) says no pydantic plugin is installed, pydantic's plugin
loader is given that answer (no plugins), as its own search would find; with a plugin
installed, pydantic searches as usual.

And a one-shot command collects cyclic garbage rarely (:func:`fewer_collections`): with
Python's default thresholds the collector ran ~200 times in a 110-card build and ~880 times in
a 10,000-card one, 55 ms and 0.9 s of CPU, while the objects it scans are nearly all alive
(imported modules, the card data, the drawing's state) and what dies is freed by reference
counting: the peak memory of those builds is the same with the collector off.

And when it ends (:func:`no_collection_at_exit`), its objects are moved out of the collector's
reach (``gc.freeze``) before the interpreter's teardown, whose last collection walked every
object still alive — modules, pydantic's schemas, ReportLab's fonts, the cards: ~70 ms of a
0.5 s deck build, a sixth of it, for garbage that is all freed by reference counting as the
modules are torn down anyway. Teardown is otherwise as usual (atexit, flushing, finalizers).
"""

from __future__ import annotations

import gc
import inspect
import sys
import types

#: the pydantic modules cardforge imports names from (``from pydantic import …``)
PYDANTIC_MODULES = ("pydantic", "pydantic.main", "pydantic.fields", "pydantic.types", "pydantic.config",
                    "pydantic.functional_validators", "pydantic.functional_serializers",
                    "pydantic.errors", "pydantic_core")


def import_pydantic() -> None:
    """Import pydantic's modules, without asyncio when nothing has imported it yet."""
    if "pydantic.main" in sys.modules or "asyncio" in sys.modules:
        return
    package = types.ModuleType("asyncio")
    package.__path__ = []  # a package, so that "import asyncio.coroutines" resolves
    coroutines = types.ModuleType("asyncio.coroutines")
    coroutines.iscoroutinefunction = inspect.iscoroutinefunction  # type: ignore[attr-defined]
    package.coroutines = coroutines  # type: ignore[attr-defined]
    sys.modules["asyncio"], sys.modules["asyncio.coroutines"] = package, coroutines
    try:
        import importlib

        for name in PYDANTIC_MODULES:
            try:
                importlib.import_module(name)
            except ImportError:  # another pydantic layout: its own import will tell
                pass
    finally:
        for name, stub in (("asyncio.coroutines", coroutines), ("asyncio", package)):
            if sys.modules.get(name) is stub:
                del sys.modules[name]
    _no_plugin_search()


def _no_plugin_search() -> None:
    """No pydantic plugin installed (per :func:`cardforge.cache.installed`): pydantic's plugin
    loader is imported with an empty plugin table, without ``importlib.metadata``."""
    if "pydantic.plugin._loader" in sys.modules or "importlib.metadata" in sys.modules:
        return
    from cardforge.cache import installed

    if installed()["entry_points"].get("pydantic"):
        return
    metadata = types.ModuleType("importlib.metadata")
    metadata.entry_points = lambda **_: ()  # type: ignore[attr-defined]  # never called: _plugins is set
    sys.modules["importlib.metadata"] = metadata
    try:
        import importlib

        loader = importlib.import_module("pydantic.plugin._loader")
        if getattr(loader, "_plugins", {}) is None:
            loader._plugins = {}  # type: ignore[attr-defined]
    except ImportError:  # another pydantic layout: it searches for its plugins itself
        pass
    finally:
        if sys.modules.get("importlib.metadata") is metadata:
            del sys.modules["importlib.metadata"]


#: a one-shot command's generation-0 threshold (net new container objects between two
#: collections; Python's default is 700 to 2,000). mypy sets the same for the same reason.
#: A safety valve more than a schedule: a build of 10,000 cards reaches it once.
ONE_SHOT_THRESHOLD = (200_000, 30, 30)
_USUAL: list[tuple[int, ...]] = []


def fewer_collections() -> None:
    """Collect cyclic garbage rarely, for a command that ends soon (the console entry)."""
    if not _USUAL:
        _USUAL.append(gc.get_threshold())
    gc.set_threshold(*ONE_SHOT_THRESHOLD)


def usual_collections() -> None:
    """Python's own thresholds again (``cardforge serve``: a long-lived server)."""
    if _USUAL:
        gc.set_threshold(*_USUAL[0])


def no_collection_at_exit() -> None:
    """A one-shot command is done: no cyclic collection of its objects at exit (the module's
    docstring). Called by the console entry once the command returned."""
    gc.freeze()
