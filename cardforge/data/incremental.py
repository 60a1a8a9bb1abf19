"""Incremental loading for long-lived processes: one card's edit re-reads one card.

``cardforge studio`` (and ``build --watch``) load the same game again after every save, and a
save usually changes one card. Inside :meth:`Memo.active`, loading (``data/loading.py``) reuses
what the last load of the same files made:

- **YAML files** (:meth:`Memo.parse`, every file :func:`~cardforge.data.yamlio.read_yaml`
  reads): a file whose text is unchanged gives the same document; a card file (a block list of
  cards, at the top or under ``cards:``) whose edit lies inside one card's lines has only that
  card's lines parsed again, and spliced into the last document — its values, line numbers and
  the line index of every other card kept (shifted when the edit added or removed lines).
- **Cards** (:meth:`Memo.card` / :meth:`Memo.keep`): a card whose raw entry is the very object
  the last load validated (unchanged text gives the same object) in the same context (the
  deck's settings, the card kinds' models, the game's icons, the edition's languages, the file's
  defaults) is that load's card, not validated again. Only cards that loaded with no problem
  at all are kept: a card with a problem or a warning is validated each time (its messages'
  lines follow the file).

What is spliced is exactly what a full parse gives, or the full parse is done: any doubt
(anchors or aliases anywhere in the file, a directive or document marker, a duplicate key, a
limit approached, an edit across two cards or outside the list, a changed indentation) falls
back on parsing the whole file. ``tests/test_incremental.py`` compares both on random edits.

A one-off command never activates it: its load is fresh, as it always was.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import yaml
from yaml.events import (
    AliasEvent,
    MappingEndEvent,
    MappingStartEvent,
    ScalarEvent,
    SequenceEndEvent,
    SequenceStartEvent,
    StreamEndEvent,
)

from cardforge.data import yamlio
from cardforge.data.yamlio import _SURROGATES, Loc, YamlDoc, _Base, _Builder, _line_index, parse_text, walk_index
from cardforge.limits import limit

#: what makes a chunk mean something else alone than in its file: a directive, a document marker
_MARKERS = re.compile(r"^(?:%|---|\.\.\.)", re.MULTILINE)
_Index = tuple[dict[Loc, int], dict[Loc, str]]


@dataclass
class _Items:
    """Where each card of a card file's list is: what splicing one card's new text needs."""

    prefix: Loc  # () or ("cards",)
    column: int  # the dashes' column
    starts: list[int]  # offset of each item's first line
    lines: list[int]  # 1-based line of each item's first line
    end: int  # offset where the list's text ends (the file's end)
    index: list[_Index]  # each item's line index: paths inside it, lines after its first line
    header: _Index  # the line index of what is outside the items (all before them)
    nodes: list[int]  # values in each item
    header_nodes: int


@dataclass
class ItemsDoc(YamlDoc):
    """A card file as :class:`Memo` keeps it: its line index by card, so a splice keeps the rest."""

    items: _Items | None = None

    def line_of(self, loc: Loc) -> int | None:
        it = self.items
        if it is None:
            return super().line_of(loc)
        k = len(it.prefix)
        if len(loc) > k and (loc[:k] == it.prefix or tuple(str(p) for p in loc[:k]) == it.prefix):
            i = loc[k]
            if isinstance(i, int) and not isinstance(i, bool) and 0 <= i < len(it.starts):
                lines, kinds = it.index[i]
                if len(loc) == k + 1:  # the card itself (every card's source asks)
                    return it.lines[i] + lines[()] if () in lines else None
                rel = walk_index(lines, kinds, loc[k + 1:])
                return it.lines[i] + rel if rel is not None else None
        lines, kinds = it.header
        return walk_index(lines, kinds, loc)


_session: Memo | None = None


@contextmanager
def session(memo: Memo | None = None) -> Iterator[Memo]:
    """Every load of game data in this process reuses ``memo`` (a new one by default) until the
    block ends: ``build --watch`` runs in one."""
    global _session
    before, _session = _session, memo or Memo()
    try:
        yield _session
    finally:
        _session = before


def session_memo() -> Memo | None:
    """The memo of the :func:`session` this process is in, if any."""
    return _session


class Memo:
    """What the last load made, for the next (see the module's docstring)."""

    def __init__(self, *, defer_cache: bool = False) -> None:
        #: the data cache's entry written by :meth:`flush` (the studio, when idle), not by the load
        self.defer_cache = defer_cache
        self.files: dict[str, ItemsDoc] = {}
        self.cards: dict[int, tuple[Any, str, Any]] = {}  # id(raw) → (raw, context, what the card gave)
        self._next: dict[int, tuple[Any, str, Any]] = {}
        self._older: dict[int, tuple[Any, str, Any]] = {}
        self._json: dict[int, tuple[Any, str]] = {}  # id(card) → (card, its JSON)
        self._json_next: dict[int, tuple[Any, str]] = {}
        self.good: dict[str, ItemsDoc] = {}  # each file's last reading whose cards are spliceable
        self.spliced = self.parsed = 0  # how files were read (for tests and the benchmark)
        self.reused = 0  # cards taken from the last load
        self._later: Callable[[], None] | None = None
        self._seen: set[str] = set()

    def seen(self, what: str) -> bool:
        """Whether ``what`` (a game's data folder and edition) was loaded in this memo before;
        noted as loaded now."""
        if what in self._seen:
            return True
        self._seen.add(what)
        return False

    def later(self, write: Callable[[], None]) -> None:
        """Keep ``write`` (the data cache's entry of the last load) for :meth:`flush`."""
        self._later = write

    def flush(self) -> None:
        """Do what the last load left for later (write its cache entry), once."""
        write, self._later = self._later, None
        if write is not None:
            write()

    @contextmanager
    def active(self) -> Iterator[Memo]:
        """Loads in this thread (and this context) use the memo; the cards no load met since
        are forgotten at the end."""
        self._next = {}
        token = yamlio.REUSE.set(self)
        try:
            yield self
        finally:
            yamlio.REUSE.reset(token)
            # the load before is kept too: an editor that empties a file before writing it gives
            # one load without its cards, and the next finds them again
            self._older, self.cards, self._next = self.cards, self._next, {}
            if self._json_next:
                self._json, self._json_next = self._json_next, {}

    # --- cards ----------------------------------------------------------------------------------
    def card(self, raw: Any, context: str) -> Any:
        """What the last load kept for this raw entry in this context, or None."""
        found = self.cards.get(id(raw))
        if found is None or found[0] is not raw:
            found = self._older.get(id(raw))
        if found is None or found[0] is not raw or found[1] != context:
            return None
        self.reused += 1
        self._next[id(raw)] = found
        return found[2]

    def card_json(self, card: Any) -> str:
        """``card.model_dump_json()``, remembered for the same card object."""
        found = self._json.get(id(card))
        if found is None or found[0] is not card:
            found = (card, card.model_dump_json())
        self._json_next[id(card)] = found
        return found[1]

    def keep(self, raw: Any, context: str, value: Any) -> None:
        self._next[id(raw)] = (raw, context, value)

    # --- YAML files -----------------------------------------------------------------------------
    def parse(self, text: str, display: str, path: Path) -> YamlDoc:
        key = str(Path(path).absolute())
        before = self.files.get(key)
        doc = None
        if before is not None and before.display == display:
            if before.text == text:
                return replace(before, problems=list(before.problems))
            doc = _splice(before, text)
        good = self.good.get(key)
        if doc is None and good is not None and good is not before and good.display == display:
            # against the last good reading (the file was half-written since, or broken and mended)
            doc = good if good.text == text else _splice(good, text)
        if doc is not None:
            self.spliced += 1
        else:
            self.parsed += 1
            full = parse_text(text, display, Path(path))
            doc = ItemsDoc(full.path, full.display, full.text, full.data, full.problems)
            if not full.problems and full.data is not None:
                doc.items = _split(text, doc.data)
        self.files[key] = doc
        if doc.items is not None:
            self.good[key] = doc
        return replace(doc, problems=list(doc.problems))


def _splice(before: ItemsDoc, text: str) -> ItemsDoc | None:
    """``text`` read by parsing only the card its edit lies in; None: parse the whole file.

    An edit is seen where its text first differs; the same edit may be read further up (a
    line added at a card's end reads as added at the next card's start when they begin alike):
    those readings are tried too, the first that parses alone is taken."""
    it = before.items
    old = before.text
    if it is None or not it.starts:
        return None
    start, old_end = _changed(old, text)
    delta = len(text) - len(old)
    removed, added = old[start:old_end], text[start:old_end + delta]
    for d in _shifts(old, start, old_end, it, removed, added):
        done = _splice_at(before, text, start - d, old_end - d)
        if done is not None:
            return done
    return None


def _shifts(old: str, start: int, old_end: int, it: _Items, removed: str, added: str) -> list[int]:
    """How far up the edit at ``start`` may be read as well: 0, and the least shift that puts it
    in the card before (or ends it before the next card starts), when the text allows."""
    i = bisect_right(it.starts, start) - 1
    if i < 0:
        return [0]
    item_end = it.starts[i + 1] if i + 1 < len(it.starts) else it.end
    wanted = [d for d in (old_end - item_end, start - it.starts[i] + 1) if d > 0]
    out = [0]
    for d in sorted(set(wanted)):
        before = old[start - d:start]
        if d <= start and all(len(part) >= d and part[-d:] == before for part in (removed, added) if part):
            out.append(d)
    return out


def _splice_at(before: ItemsDoc, text: str, start: int, old_end: int) -> ItemsDoc | None:
    """The splice of the edit read as ``old[start:old_end]`` replaced (None: it is not inside one card)."""
    it = before.items
    old = before.text
    assert it is not None
    i = bisect_right(it.starts, start) - 1
    n = len(it.starts)
    item_end = it.starts[i + 1] if i + 1 < n else it.end
    if i < 0 or old_end > item_end:
        return None
    delta = len(text) - len(old)
    chunk = text[it.starts[i]:item_end + delta]
    if (chunk and not chunk.endswith("\n") and item_end + delta != len(text)) or _MARKERS.search(chunk) \
            or _SURROGATES.search(chunk):
        return None
    value, parts = _parse_chunk(chunk, len(it.prefix))
    if parts is None or (value is None and n == 1):
        return None
    if value is not None and (not isinstance(value, list) or parts.column != it.column):
        return None
    new_items = value or []
    nodes = it.nodes[:i] + parts.nodes + it.nodes[i + 1:]
    if 2 * (it.header_nodes + sum(nodes)) > limit("yaml_nodes"):
        return None
    first_line = it.lines[i]
    moved = chunk.count("\n") - old.count("\n", it.starts[i], item_end)
    items = _Items(
        it.prefix, it.column,
        it.starts[:i] + [it.starts[i] + s for s in parts.starts] + [s + delta for s in it.starts[i + 1:]],
        it.lines[:i] + [first_line + ln - 1 for ln in parts.lines] + [ln + moved for ln in it.lines[i + 1:]],
        it.end + delta, it.index[:i] + parts.index + it.index[i + 1:], it.header, nodes, it.header_nodes)
    old_list = before.data["cards"] if it.prefix else before.data
    cards = old_list[:i] + new_items + old_list[i + 1:]
    data: Any = cards
    if it.prefix:
        data = dict(before.data)
        data["cards"] = cards
    return ItemsDoc(before.path, before.display, text, data, [], items=items)


def _changed(old: str, new: str) -> tuple[int, int]:
    """(first offset where ``old`` and ``new`` differ, offset in ``old`` where their common end
    starts)."""
    most = min(len(old), len(new))
    lo, hi = 0, most  # the common beginning's length, by halves (each test a C comparison)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if old[lo:mid] == new[lo:mid]:
            lo = mid
        else:
            hi = mid - 1
    start = lo
    lo, hi = 0, most - start
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if old[len(old) - mid:len(old) - lo] == new[len(new) - mid:len(new) - lo]:
            lo = mid
        else:
            hi = mid - 1
    return start, len(old) - lo


def _parse_chunk(chunk: str, depth: int) -> tuple[Any, _Items | None]:
    """One card's lines (or a few cards') parsed alone, as deep in the file as ``depth`` says;
    (value, where its items are) or (None, None) when alone they may not mean what they mean in
    the file (an anchor, an alias, a duplicate key, anything refused)."""
    if not chunk.strip():
        return None, _Items((), 0, [], [], 0, [], ({}, {}), [], 0)
    loader = _Base(chunk)
    duplicates: list[tuple[int, str]] = []
    builder = _Builder(loader, duplicates)
    builder.max_depth -= depth
    try:
        value = builder.run()
    except (yamlio.YamlRefused, yaml.YAMLError, ValueError, RecursionError):
        return None, None
    finally:
        loader.dispose()
    if duplicates or builder.anchors:
        return None, None
    if value is None:
        return (None, _Items((), 0, [], [], 0, [], ({}, {}), [], 0)) if _blank(chunk) else (None, None)
    parts = _split(chunk, value)
    if parts is None or parts.prefix != ():
        return None, None
    return value, parts


def _blank(text: str) -> bool:
    return all(not line.strip() or line.lstrip().startswith("#") for line in text.splitlines())


def _split(text: str, data: Any) -> _Items | None:
    """Where each card of a card file's list is; None when the file is not a plain block list of
    cards (at the top, or under ``cards:`` as the file's last key) or uses anchors or aliases."""
    if isinstance(data, dict):
        if not isinstance(data.get("cards"), list):
            return None
        prefix: Loc = ("cards",)
    elif isinstance(data, list):
        prefix = ()
    else:
        return None
    spans = _spans(text, prefix)
    if spans is None:
        return None
    column, starts, end = spans
    items = data if not prefix else data["cards"]
    if len(starts) != len(items) or not _blank(text[end:]):
        return None
    lines = []
    line, at = 1, 0
    for s in starts:
        line += text.count("\n", at, s)
        at = s
        lines.append(line)
    full_lines, full_kinds = _line_index(text)
    index: list[_Index] = [({}, {}) for _ in starts]
    header: _Index = ({}, {})
    k = len(prefix)
    for path, line_no in full_lines.items():  # each card's lines from its first line
        if len(path) > k and path[:k] == prefix and isinstance(path[k], int):
            index[path[k]][0][path[k + 1:]] = line_no - lines[path[k]]
        else:
            header[0][path] = line_no
    for path, kind in full_kinds.items():
        if len(path) > k and path[:k] == prefix and isinstance(path[k], int):
            index[path[k]][1][path[k + 1:]] = kind
        else:
            header[1][path] = kind
    nodes = [_nodes(x) for x in items]
    header_nodes = _nodes(data) - sum(nodes)
    return _Items(prefix, column, starts, lines, end, index, header, nodes, header_nodes)


def _spans(text: str, prefix: Loc) -> tuple[int, list[int], int] | None:
    """(the dashes' column, the offset of each item's first line, where the list ends) from the
    parser's events; None for a flow list, an anchor or alias, or an item not on its dash's line."""
    loader = _Base(text)
    starts: list[int] = []
    depth, column, end = 0, -1, -1
    in_list = False
    list_depth = len(prefix)  # the depth the list opens at (inside the root mapping: 1)
    key_next, key = True, None  # the root mapping's keys and values alternate
    try:
        while True:
            event = loader.get_event()
            cls = event.__class__
            if cls is AliasEvent or getattr(event, "anchor", None) is not None:
                return None
            if cls is StreamEndEvent:
                break
            if cls is ScalarEvent or cls is MappingStartEvent or cls is SequenceStartEvent:
                is_value = True
                if prefix and depth == 1:  # a key or a value of the root mapping
                    is_value, key_next = not key_next, not key_next
                    if not is_value:
                        key = event.value if cls is ScalarEvent else None
                if in_list and depth == list_depth + 1:  # an item of the list
                    mark = event.start_mark
                    line_start = text.rfind("\n", 0, mark.index) + 1
                    if text[line_start:line_start + column].strip(" ") or text[line_start + column:][:1] != "-":
                        return None
                    starts.append(line_start)
                elif (cls is SequenceStartEvent and depth == list_depth and column < 0 and is_value
                      and (not prefix or key == "cards")):
                    if event.flow_style:
                        return None
                    column, in_list = event.start_mark.column, True
                if cls is not ScalarEvent:
                    depth += 1
            elif cls is MappingEndEvent or cls is SequenceEndEvent:
                depth -= 1
                if in_list and depth == list_depth:
                    in_list = False
                    end = len(text) if not prefix else event.start_mark.index
    except yaml.YAMLError:
        return None
    finally:
        loader.dispose()
    if column < 0 or end < 0:
        return None
    return column, starts, (text.rfind("\n", 0, end) + 1 if end < len(text) else end)


def _nodes(value: Any) -> int:
    """Values in ``value`` (itself, each key and each value, all the way down)."""
    count, todo = 0, [value]
    while todo:
        v = todo.pop()
        count += 1
        if isinstance(v, dict):
            count += len(v)
            todo.extend(v.values())
        elif isinstance(v, list):
            todo.extend(v)
    return count
