"""YAML reading for every file cardforge opens: safe, bounded, located.

:func:`read_yaml` refuses, with a located message and before anything large is built:

- what is not a regular file (a FIFO, a device, a directory) — checked on the open file, so a
  FIFO never blocks; and a file larger than the ``file_bytes`` limit (:mod:`cardforge.limits`);
- bytes that are not UTF-8 (named by offset and line; a UTF-8 BOM is fine);
- nesting deeper than ``yaml_depth`` and alias/merge-key expansion past ``yaml_nodes``
  (aliases count as often as they are used: a 500-byte "billion laughs" stops at once) — in
  cardforge's words whatever the YAML library's version, even where the parser itself refuses
  deep nesting first (see :func:`_refused_before`);
- tags other than the plain YAML ones (``!!str``, ``!!int``, ``!!float``, ``!!bool``,
  ``!!null``, ``!!timestamp``, ``!!map``, ``!!seq``), and values their tag does not allow
  (``!!bool maybe``, ``!!int ''``), integers longer than ``int_digits``;
- a single text longer than ``text_chars``;
- keys that are lists or mappings, a second document, duplicate keys (as problems).

The document is built from libyaml's events (PyYAML's C parser) by a loop with its own stack —
no recursion, so no depth can crash it — and merge keys work as YAML says (``<<: *alice`` then
``name: Ben`` overrides the merged name: not a duplicate). JSON's surrogate-pair escapes
(``"\\ud83d\\ude00"``, what ``json.dumps`` writes for an emoji) are read as the one character.

:meth:`YamlDoc.line_of` indexes the file once (one more pass over the events) and then answers
each lookup in time proportional to the path's length.
"""

from __future__ import annotations

import os
import re
from contextvars import ContextVar
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any, Protocol

import yaml
from yaml.events import (
    AliasEvent,
    DocumentStartEvent,
    MappingEndEvent,
    MappingStartEvent,
    ScalarEvent,
    SequenceEndEvent,
    SequenceStartEvent,
    StreamEndEvent,
)
from yaml.nodes import ScalarNode

from cardforge.limits import env_name, limit
from cardforge.paths import read_regular, regular_inside
from cardforge.problems import Problem, short_repr
from cardforge.resources import display_path

_Base = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

_T = "tag:yaml.org,2002:"
_STR, _MAP, _SEQ, _MERGE = _T + "str", _T + "map", _T + "seq", _T + "merge"
_SCALAR_TAGS = {_T + n for n in ("str", "int", "float", "bool", "null", "timestamp")}
_TAG_NAMES = "!!str, !!int, !!float, !!bool, !!null, !!timestamp, !!map, !!seq"
_KIND_NAMES = {_T + "int": "a whole number", _T + "float": "a number", _T + "bool": "true or false",
               _T + "null": "null", _T + "timestamp": "a date (YYYY-MM-DD)"}

_SURROGATES = re.compile(r"\\u(d[89ab][0-9a-f]{2})\\u(d[c-f][0-9a-f]{2})", re.IGNORECASE)
_DOUBLE_QUOTED = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)

#: the :class:`cardforge.data.incremental.Memo` loads in this context reuse (None: every file parsed)
REUSE: ContextVar[Any] = ContextVar("cardforge_yaml_reuse", default=None)

#: where a value is in a document: its keys and list indexes from the top (``("cards", 3, "cost")``)
Loc = tuple[Any, ...]


class YamlRefused(Exception):
    """Raised inside the builder: the file asks for what no game file needs."""

    def __init__(self, message: str, line: int | None = None, limit: bool = False):
        super().__init__(message)
        self.message = message
        self.line = line
        self.limit = limit  # a depth or expansion limit (not a tag, text or key problem)


# --- reading bytes -------------------------------------------------------------------------------

def read_bytes(path: Path, display: str, limit_name: str = "file_bytes") -> tuple[bytes | None, Problem | None]:
    """The file's bytes, at most the limit ``limit_name`` (``file_bytes``: a YAML/JSON file); or
    a problem (missing, not a regular file, too large, unreadable). A FIFO or device is never
    read, and a file over the limit is refused from its size before any byte is read
    (:func:`cardforge.paths.read_regular`)."""
    return read_regular(path, display, limit(limit_name), env_name(limit_name))


def read_stream(stream: IO[Any], display: str = "<stdin>") -> tuple[bytes | None, Problem | None]:
    """At most the ``file_bytes`` limit from a stream (stdin: its binary buffer when it has one;
    a text stream's characters are taken back to their bytes)."""
    max_bytes = limit("file_bytes")
    stream = getattr(stream, "buffer", stream)
    data = stream.read(max_bytes + 1)
    if isinstance(data, str):
        data = data.encode("utf-8", "surrogateescape")
    if len(data) > max_bytes:
        return None, Problem(_too_big(None, max_bytes), file=display)
    return data, None


def _too_big(size: int | None, max_bytes: int, limit_name: str = "file_bytes") -> str:
    got = f"{size:,} bytes" if size is not None else "more"
    return (f"file too large: {got}, at most {max_bytes:,} bytes "
            f"(set {env_name(limit_name)} to allow more)")


def decode(data: bytes, display: str) -> tuple[str | None, Problem | None]:
    """UTF-8 text (a BOM is dropped); a non-UTF-8 byte is named by offset and line."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        bad = data[exc.start:exc.start + 1].hex()
        return None, Problem(f"not UTF-8 text: byte 0x{bad} at offset {exc.start} "
                             f"({exc.reason}); save the file as UTF-8", file=display, line=line)
    if text.startswith("\ufeff"):
        text = text[1:]
    return text, None


def _join_surrogates(text: str) -> str:
    """``"\\ud83d\\ude00"`` (JSON's escape of one emoji) → ``"\\U0001f600"`` in double-quoted
    scalars, which YAML reads as one character (it refuses lone surrogates)."""
    if "\\u" not in text or not _SURROGATES.search(text):
        return text

    def pair(m: re.Match[str]) -> str:
        hi, lo = int(m.group(1), 16), int(m.group(2), 16)
        return "\\U%08x" % (0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00))

    return _DOUBLE_QUOTED.sub(lambda m: _SURROGATES.sub(pair, m.group(0)), text)


# --- building the document from events ---------------------------------------------------------

class _Frame:
    __slots__ = ("value", "is_map", "anchor", "size", "height", "key", "has_key", "merges", "line",
                 "key_line")

    def __init__(self, value: Any, is_map: bool, anchor: str | None, line: int) -> None:
        self.value = value
        self.is_map = is_map
        self.anchor = anchor
        self.size = 1
        self.height = 0
        self.key: Any = None
        self.has_key = False
        self.merges: list[list[dict[Any, Any]]] | None = None
        self.line = line
        self.key_line = line


def _build(loader: Any, duplicates: list[tuple[int, str]]) -> Any:
    """The document's value; YamlRefused on anything refused (see the module's doc)."""
    return _Builder(loader, duplicates).run()


def _line_of(event: Any) -> int:
    return int(event.start_mark.line) + 1


def _check_tag(event: Any, wanted: str, kind: str) -> None:
    tag = event.tag
    if tag is None or tag == "!" or tag == wanted:
        return
    if tag in _SCALAR_TAGS or tag in (_MAP, _SEQ):
        raise YamlRefused(f"the tag {_short_tag(tag)} cannot be put on a {kind}", _line_of(event))
    raise YamlRefused(f"unsupported tag {_short_tag(tag)} (allowed: {_TAG_NAMES})", _line_of(event))


class _Builder:
    """One document built from the loader's events, with its own stack of open mappings and lists."""

    def __init__(self, loader: Any, duplicates: list[tuple[int, str]]) -> None:
        self.loader = loader
        self.duplicates = duplicates
        self.max_depth, self.max_nodes = limit("yaml_depth"), limit("yaml_nodes")
        self.max_digits, self.max_text = limit("int_digits"), limit("text_chars")
        self.anchors: dict[str, tuple[Any, int, int]] = {}  # name → (value, expanded size, height)
        self.stack: list[_Frame] = []
        self.root: Any = None

    def run(self) -> Any:
        loader, stack, max_depth, add = self.loader, self.stack, self.max_depth, self.add
        documents = 0
        while True:
            event = loader.get_event()
            cls = event.__class__
            if cls is ScalarEvent:
                add(self.scalar(event), 1, 0, event.anchor, event)
            elif cls is MappingStartEvent or cls is SequenceStartEvent:
                is_map = cls is MappingStartEvent
                _check_tag(event, _MAP if is_map else _SEQ, "mapping" if is_map else "list")
                if len(stack) + 1 > max_depth:
                    raise YamlRefused(_depth_message(max_depth), _line_of(event), limit=True)
                stack.append(_Frame({} if is_map else [], is_map, event.anchor, _line_of(event)))
            elif cls is MappingEndEvent or cls is SequenceEndEvent:
                frame = stack.pop()
                add(self.merged(frame) if frame.merges else frame.value, frame.size, frame.height, frame.anchor,
                    event)
            elif cls is AliasEvent:
                found = self.anchors.get(event.anchor)
                if found is None:
                    raise YamlRefused(f"unknown alias *{short_repr(event.anchor)[1:-1]} "
                                      "(no &anchor of that name before it)", _line_of(event))
                add(found[0], found[1], found[2], None, event)
            elif cls is DocumentStartEvent:
                documents += 1
                if documents > 1:
                    raise YamlRefused("a second document (after ---): a file holds one document",
                                      _line_of(event))
            elif cls is StreamEndEvent:
                return self.root

    def merged(self, frame: _Frame) -> dict[Any, Any]:
        """A closed mapping's value with its merge keys' mappings under its own keys."""
        merged: dict[Any, Any] = {}
        assert frame.merges is not None
        for sources in reversed(frame.merges):  # the first merge key wins over later ones
            for source in reversed(sources):  # in a list, earlier mappings win
                merged.update(source)
                frame.size += len(source)
        if frame.size > self.max_nodes:
            raise YamlRefused(_expansion_message(self.max_nodes), frame.line, limit=True)
        merged.update(frame.value)
        return merged

    def scalar(self, event: Any) -> Any:
        max_text = self.max_text
        if len(event.value) > max_text:
            raise YamlRefused(f"a text of {len(event.value):,} characters: at most {max_text:,} "
                              f"(set {env_name('text_chars')} to allow more)", _line_of(event))
        tag = event.tag
        if tag is None or tag == "!":
            tag = self.loader.resolve(ScalarNode, event.value, event.implicit)
        elif tag not in _SCALAR_TAGS:
            if tag in (_MAP, _SEQ):
                raise YamlRefused(f"the tag {_short_tag(tag)} cannot be put on a single value",
                                  _line_of(event))
            raise YamlRefused(f"unsupported tag {_short_tag(tag)} (allowed: {_TAG_NAMES})",
                              _line_of(event))
        if tag == _STR:
            return event.value
        if tag == _MERGE:
            return _MergeKey
        if tag == _T + "int":
            max_digits = self.max_digits
            digits = sum(c.isdigit() for c in event.value) if len(event.value) > max_digits else 0
            if digits > max_digits:
                raise YamlRefused(f"a whole number with {digits:,} digits: at most {max_digits:,} "
                                  f"(set {env_name('int_digits')} to allow more)", _line_of(event))
        node = ScalarNode(tag, event.value, event.start_mark, event.end_mark, event.style)
        try:
            return self.loader.yaml_constructors[tag](self.loader, node)
        except Exception:  # the constructors raise KeyError, ValueError, IndexError…
            what = _KIND_NAMES.get(tag, _short_tag(tag))
            raise YamlRefused(f"{short_repr(event.value)} is not {what} (tag {_short_tag(tag)})",
                              _line_of(event)) from None

    def add(self, value: Any, size: int, height: int, anchor: str | None, event: Any) -> None:
        """``value`` into the open mapping or list (or as the document)."""
        if anchor is not None:
            self.anchors[anchor] = (value, size, height)
        stack = self.stack
        if not stack:
            self.root = value
            return
        parent = stack[-1]
        parent.size += size
        if parent.size > self.max_nodes:
            raise YamlRefused(_expansion_message(self.max_nodes), _line_of(event), limit=True)
        if height + 1 > parent.height:
            parent.height = height + 1
            if parent.height + len(stack) - 1 > self.max_depth:
                raise YamlRefused(_depth_message(self.max_depth), _line_of(event), limit=True)
        if not parent.is_map:
            parent.value.append(value)
            return
        if not parent.has_key:
            parent.key, parent.has_key, parent.key_line = value, True, _line_of(event)
            if value is not _MergeKey:
                try:
                    hash(value)
                except TypeError:
                    raise YamlRefused("a key must be a single value (text or a number), "
                                      "not a list or mapping", _line_of(event)) from None
            return
        key = parent.key
        parent.has_key = False
        if key is _MergeKey:
            sources = value if isinstance(value, list) else [value]
            if not sources or not all(isinstance(s, dict) for s in sources):
                raise YamlRefused("a merge key (<<) takes a mapping or a list of mappings",
                                  parent.key_line)
            if parent.merges is None:
                parent.merges = []
            parent.merges.append(sources)
            return
        if key in parent.value:
            self.duplicates.append((parent.key_line, short_repr(key)[1:-1] if isinstance(key, str)
                                    else short_repr(key)))
        parent.value[key] = value


class _MergeKeyType:
    def __repr__(self) -> str:
        return "<<"


_MergeKey = _MergeKeyType()


def _short_tag(tag: str) -> str:
    short = "!!" + tag[len(_T):] if tag.startswith(_T) else tag
    return short if len(short) <= 40 else short[:40] + "…"


def _depth_message(max_depth: int) -> str:
    return (f"nested too deep: at most {max_depth} levels of lists and mappings (aliases included; "
            f"set {env_name('yaml_depth')} to allow more)")


def _expansion_message(max_nodes: int) -> str:
    return (f"too many values once aliases (*name) and merge keys (<<) are expanded: at most "
            f"{max_nodes:,} (set {env_name('yaml_nodes')} to allow more)")


# --- the document ---------------------------------------------------------------------------------

class LocatedDoc(Protocol):
    """A document as the loaders read it: its shown name, its data, its problems and the line of
    a location (a :class:`YamlDoc`, a part of one, or a spreadsheet's ``SheetDoc``)."""

    display: str
    data: Any
    problems: list[Problem]

    def line_of(self, loc: Loc) -> int | None: ...


@dataclass
class YamlDoc:
    """A parsed YAML file that can tell the line of any value for error messages."""

    path: Path
    display: str
    text: str
    data: Any
    problems: list[Problem] = field(default_factory=list)
    _index: Any = None

    def line_of(self, loc: Loc) -> int | None:
        """1-based line of the node at ``loc`` (keys and list indexes), as deep as exists."""
        if self._index is None:
            self._index = _line_index(self.text)
        lines, kinds = self._index
        return walk_index(lines, kinds, loc)


def walk_index(lines: dict[Loc, int], kinds: dict[Loc, str], loc: Loc) -> int | None:
    """The line :func:`_line_index`'s tables give ``loc``: its node's, or its deepest existing
    parent's."""
    path: Loc = ()
    line: int | None = lines.get(path)
    for part in loc:
        kind = kinds.get(path)
        if kind == "map":
            step = path + (str(part),)
        elif kind == "seq" and isinstance(part, int) and not isinstance(part, bool):
            step = path + (part,)
        else:
            return line
        found = lines.get(step)
        if found is None:
            return line
        path, line = step, found
    return line


def _line_index(text: str) -> tuple[dict[Loc, int], dict[Loc, str]]:
    """{path: line} of every key and list item written in the file, and {path: 'map'|'seq'}.

    Paths follow the text as written (a mapping key by its text, ``str(part)`` in lookups);
    aliases are not followed. Built in one pass over the parser's events."""
    lines: dict[Loc, int] = {}
    kinds: dict[Loc, str] = {}
    if not text:
        return lines, kinds
    loader = _Base(text)
    # stack of [path, is_map, next index or pending-key flag]
    stack: list[list[Any]] = []
    try:
        while True:
            event = loader.get_event()
            cls = event.__class__
            if cls is StreamEndEvent or cls is DocumentStartEvent and lines:
                break
            if cls in (ScalarEvent, AliasEvent, MappingStartEvent, SequenceStartEvent):
                line = event.start_mark.line + 1
                if not stack:
                    path: Loc | None = ()
                    lines[()] = line
                else:
                    top = stack[-1]
                    if top[1]:  # mapping: key or value
                        if top[2] is None:  # this is a key
                            top[2] = event.value if cls is ScalarEvent else "\0complex"
                            lines.setdefault(top[0] + (top[2],), line)
                            if cls is ScalarEvent or cls is AliasEvent:
                                continue
                            path = None  # a complex key: do not index inside
                        else:
                            path = top[0] + (top[2],)
                            top[2] = None
                    else:
                        path = top[0] + (top[2],)
                        lines.setdefault(path, line)
                        top[2] += 1
                if cls is MappingStartEvent or cls is SequenceStartEvent:
                    is_map = cls is MappingStartEvent
                    if path is not None:
                        kinds.setdefault(path, "map" if is_map else "seq")
                        stack.append([path, is_map, None if is_map else 0])
                    else:
                        stack.append([("\0complex",), is_map, None if is_map else 0])
            elif cls is MappingEndEvent or cls is SequenceEndEvent:
                stack.pop()
    except yaml.YAMLError:
        pass
    finally:
        loader.dispose()
    return lines, kinds


def _refused_before(text: str, exc: yaml.YAMLError) -> YamlRefused | None:
    """cardforge's own limit on the part of ``text`` the parser read before it stopped, if one
    is passed there.

    The parser reads ahead: in ``[[[[…`` it scans every bracket before it gives the first event,
    and libyaml 0.2.6 (in PyYAML 6.0.4's wheels) refuses more than 1,000 levels itself, in its
    own words, before cardforge sees any nesting. The text up to where it stopped gives the same
    events, and cardforge's depth limit (at most :data:`cardforge.limits.HARD_MAX_DEPTH`, under
    any parser's own) or expansion limit is passed in them first: that is the message, whatever
    the YAML library's version. Only those two limits are taken from the prefix (a text or a tag
    cut short there says nothing of the file)."""
    mark = getattr(exc, "problem_mark", None)
    end = getattr(mark, "index", None)
    if not isinstance(end, int) or end <= 0 or end >= len(text):
        return None
    loader = _Base(text[:end])
    try:
        _build(loader, [])
    except YamlRefused as refused:
        return refused if refused.limit else None
    except (yaml.YAMLError, ValueError):
        return None
    finally:
        loader.dispose()
    return None


def parse_text(text: str, display: str, path: Path | None = None) -> YamlDoc:
    """Parse YAML text (already decoded); problems as :func:`read_yaml` reports them."""
    text = _join_surrogates(text)
    loader = _Base(text)
    duplicates: list[tuple[int, str]] = []
    try:
        data = _build(loader, duplicates)
    except YamlRefused as exc:
        return YamlDoc(Path(path or display), display, text, None,
                       [Problem(exc.message, file=display, line=exc.line)])
    except yaml.YAMLError as exc:
        refused = _refused_before(text, exc)
        if refused is not None:
            return YamlDoc(Path(path or display), display, text, None,
                           [Problem(refused.message, file=display, line=refused.line)])
        mark = getattr(exc, "problem_mark", None)
        what = getattr(exc, "problem", None) or str(exc)
        if "mapping values are not allowed" in what:
            what += (" (text containing ': ' — an icon token such as ':coin: ' — must be quoted, "
                     "e.g. name: \"2 :coin: par tour\", or written as a block with |)")
        return YamlDoc(
            Path(path or display), display, text, None,
            [Problem(f"invalid YAML: {what}", file=display, line=mark.line + 1 if mark else None)],
        )
    except RecursionError:  # cannot happen (no recursion), kept as a guard
        return YamlDoc(Path(path or display), display, text, None,
                       [Problem(_depth_message(limit("yaml_depth")), file=display)])
    except ValueError as exc:  # an integer of more digits than Python converts (issue 21)
        if "digits" not in str(exc):
            raise
        return YamlDoc(Path(path or display), display, text, None, [Problem(
            "a number too long to read (more than 4,300 digits); no count in a game comes near it",
            file=display)])
    finally:
        loader.dispose()
    problems = [
        Problem(f"duplicate key '{key}' (YAML keeps only the last one)", file=display, line=line)
        for line, key in duplicates
    ]
    return YamlDoc(Path(path or display), display, text, data, problems)


def read_yaml(path: Path, display: str | None = None, *, inside: Path | None = None) -> YamlDoc:
    """Parse ``path``. Syntax errors, refused input (see the module's doc) and duplicate keys
    become problems on the returned doc (``data`` is None unless only duplicates were found);
    a missing file is a problem too. ``inside``: the game folder ``path`` belongs to — it
    must resolve inside it (a ``game.yaml`` linked to a file elsewhere is refused, never read:
    :func:`cardforge.paths.regular_inside`)."""
    display = display or display_path(path)
    if inside is not None:
        rel = os.path.relpath(os.path.abspath(path), os.path.abspath(inside))
        _, refused = regular_inside(inside, rel, "file", file=display)
        if refused is not None:
            return YamlDoc(Path(path), display, "", None, [refused])
    raw, problem = read_bytes(Path(path), display)
    if problem is not None:
        return YamlDoc(Path(path), display, "", None, [problem])
    assert raw is not None  # read_bytes gives the bytes or a problem
    text, problem = decode(raw, display)
    if problem is not None:
        return YamlDoc(Path(path), display, "", None, [problem])
    assert text is not None  # decode gives the text or a problem
    memo = REUSE.get()
    if memo is not None:  # a long-lived process's last reading of this file (data/incremental.py)
        return memo.parse(text, display, Path(path))  # type: ignore[no-any-return]
    return parse_text(text, display, Path(path))
