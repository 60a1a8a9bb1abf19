"""Watch mode (``cardforge build GAME --watch``): rebuild whenever a game's data or templates
change, fast, until Ctrl-C.

Files are polled (their modification time and size, twice a second): no dependency, and it
works the same on every system and on network drives. A rebuild runs in the same process as
the last one, so it keeps everything that did not change: the compiled templates and layouts,
the fonts, and every card text already laid out (:data:`cardforge.render.richtext.LAYOUTS`,
by content: the text, its box and its style), so a one-card edit lays out that card's text
only. A build that fails (bad data, text that does not fit, a full disk, even a bug in
cardforge) prints what went wrong and leaves the previous PDFs in place (a build is a
transaction: :mod:`cardforge.render.build`); watching goes on.

The loop is :meth:`WatchSession.run`; :meth:`WatchSession.rebuild` is one rebuild, and returns
what it did (time, texts laid out and reused) so that tests drive it directly.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

#: what is watched: data, layouts and templates, pictures
WATCHED_SUFFIXES = frozenset({".yaml", ".yml", ".csv", ".xlsx", ".j2", ".png", ".jpg", ".jpeg", ".svg", ".ttf",
                              ".otf"})
POLL_SECONDS = 0.5
SETTLE_SECONDS = 0.15  # an editor's save may take two writes: wait until files are still
KEPT_TEXTS = 1_000_000  # laid-out texts kept in watch mode (texts unused by a rebuild are dropped)

#: how the loop waits between polls (tests replace it)
_sleep = time.sleep


def snapshot(folders: Iterable[Path]) -> dict[str, tuple[int, int]]:
    """path → (mtime in ns, size) of every watched file below ``folders`` (hidden files and
    editor back-ups are left out)."""
    out: dict[str, tuple[int, int]] = {}
    for folder in folders:
        folder = Path(folder)
        if not folder.is_dir():
            continue
        for path in folder.rglob("*"):
            if path.suffix.lower() not in WATCHED_SUFFIXES or path.name.startswith((".", "~$")):
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


def game_target(game, settings, build: Callable[[], Any] | None = None) -> Target:
    """A game to watch: its data folder and template folders (``settings.data_root``,
    ``settings.templates_dir``), rebuilt by ``build`` — by default
    :func:`cardforge.render.build.build_game` with ``settings``, a failure (bad input) being
    returned as (game id, problems, title)."""
    from cardforge.data.loading import game_dir
    from cardforge.render.decks import template_folders

    if build is None:
        from cardforge.errors import CardforgeError
        from cardforge.render.build import build_game

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
    one-off build of a huge deck does not hold every card's text in memory)."""
    from cardforge.render.richtext import LAYOUTS

    LAYOUTS.maxsize = max(LAYOUTS.maxsize, KEPT_TEXTS)


class WatchSession:
    """Rebuilds targets when their files change.

    ``report(rebuild, target)`` is called after each rebuild (the CLI prints there)."""

    def __init__(self, targets: list[Target], report: Callable[[Rebuild, Target], None] | None = None,
                 interval: float = POLL_SECONDS):
        from cardforge.render.richtext import LAYOUTS

        self.targets = targets
        self.report = report or (lambda rebuild, target: None)
        self.interval = interval
        self.layouts = LAYOUTS
        keep_texts()  # every text of the deck stays laid out between rebuilds
        self.state = {t.name: snapshot(t.folders) for t in targets}

    def rebuild(self, target: Target, changed: list[str] | None = None) -> Rebuild:
        """Build ``target`` once; texts the build did not use are dropped from the cache
        afterwards (so that a long session does not pile up old versions of edited texts)."""
        cache = self.layouts
        hits, misses = cache.hits, cache.misses
        cache.track()
        t0 = time.perf_counter()
        try:
            failure = target.build()
        except Exception as exc:  # any error at all: reported, the previous output kept, watching on
            failure = exc
        finally:
            seconds = time.perf_counter() - t0
            used = cache.untrack()
        if failure is None:
            cache.retain(used)
        result = Rebuild(failure is None, seconds, cache.misses - misses, cache.hits - hits,
                         list(changed or []), failure)
        self.report(result, target)
        return result

    def poll(self) -> list[Rebuild]:
        """Rebuild every target whose files changed since the last look."""
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

    def run(self, first_build: bool = True) -> int:
        """Build (unless told the build was done), then poll until Ctrl-C; returns 0."""
        try:
            if first_build:
                for target in self.targets:
                    self.rebuild(target)
            while True:
                _sleep(self.interval)
                self.poll()
        except KeyboardInterrupt:
            return 0
