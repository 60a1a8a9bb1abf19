"""Card text templates: jinja2, sandboxed, strict. The only module that imports jinja2.

A layout box's ``text:`` (inline) or ``template:`` (a ``*.j2`` file, looked up in
the game folder's ``templates/`` then ``templates/_shared/``) turns a card's data into card-text markup
(:mod:`cardforge.markup`). Templates see ``card`` (the card's model: its fields and
properties), ``kind`` (id, label, plural), ``deck`` (deck.yaml), ``game`` (id, title, players),
``vars`` (the layout files' ``vars:``) and, on backs, ``back``.

Undefined names fail (``StrictUndefined``) with the name in the message; ``None`` prints as
nothing. Templates cannot touch Python internals (``SandboxedEnvironment``).
"""

from __future__ import annotations

import hashlib
import marshal
import math
import os
import re
import types
import typing
from collections.abc import Callable
from pathlib import Path
from typing import Any

import jinja2
import jinja2.visitor
from jinja2 import StrictUndefined, meta, nodes
from jinja2.environment import TemplateExpression
from jinja2.loaders import split_template_path
from jinja2.sandbox import SandboxedEnvironment
from pydantic import BaseModel

from cardforge import cache as _cache
from cardforge.data.models import CardBase
from cardforge.limits import env_name, limit
from cardforge.paths import path_problem
from cardforge.problems import short_repr

#: fields every card has; the generic layout prints the others
BASE_FIELDS = frozenset(CardBase.model_fields)

#: print-friendly dark colours for the generic layout (``swatch``): one per card kind
SWATCHES = ("#4a3b2a", "#1f4e79", "#7a2e2e", "#2e5e3a", "#5b3f7a", "#8a5a12", "#2f5f66", "#6b3a4f")

ROMAN = ((1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"), (90, "XC"), (50, "L"),
         (40, "XL"), (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I"))


class TemplateError(Exception):
    """A template that does not compile or fails on a card; the message says where and why."""


# --- filters and globals ---------------------------------------------------------------------

def roman(value: int) -> str:
    """4 → 'IV'."""
    n = int(value)
    if n <= 0:
        return str(n)
    out = []
    for v, s in ROMAN:
        while n >= v:
            out.append(s)
            n -= v
    return "".join(out)


def signed(value: int | float) -> str:
    """2 → '+2', -1 → '−1' (typographic minus), 0 → '0'."""
    if value > 0:
        return f"+{value:g}"
    if value < 0:
        return f"−{-value:g}"
    return "0"


def icons(count: int, name: str, sep: str = "") -> str:
    """``3|icons('coin')`` → ':coin::coin::coin:' (the icon repeated)."""
    return sep.join([f":{name}:"] * max(0, int(count)))


def plural(count: int, singular: str, plural_form: str | None = None) -> str:
    """``n|plural('carte')`` → '1 carte' / '3 cartes' (French: 0 and 1 are singular)."""
    word = singular if abs(count) < 2 else (plural_form or singular + "s")
    return f"{count} {word}"


def escape_markup(value: Any) -> str:
    """Make text print literally: escape ``\\ * : <`` of the card-text markup."""
    text = "" if value is None else str(value)
    for ch in ("\\", "*", ":", "<"):
        text = text.replace(ch, "\\" + ch)
    return text


def swatch(key: Any) -> str:
    """A stable print-friendly colour for ``key`` (the generic layout colours kinds by it)."""
    h = hashlib.blake2b(str(key).encode("utf-8"), digest_size=2).digest()
    return SWATCHES[int.from_bytes(h, "big") % len(SWATCHES)]


def text_fields(card: Any) -> list[tuple[str, str]]:
    """(field, text) for each non-empty free-text field of a card beyond the common ones
    (fields typed ``str``; a field with a fixed set of values is a value, not a text)."""
    return [(name, value) for name, value, free in _own_fields(card)
            if free and isinstance(value, str) and value.strip()]


def value_fields(card: Any) -> list[tuple[str, Any]]:
    """(field, value) for each set single value (number, yes/no, one of a fixed set) beyond
    the common fields. A true yes/no field comes with the value ``True``."""
    return [(name, value) for name, value, free in _own_fields(card)
            if not free and _is_scalar(value) and value is not None and value is not False]


def nested_fields(card: Any) -> list[tuple[str, list[str]]]:
    """(field, lines) for each field holding a list or nested data (ships, faces, costs…):
    a list of plain values on one line, other lists one line per item, each summarised as
    '*name* — key value, …'. Zeros, blanks and false flags are left out; a field with nothing
    left is skipped."""
    out = []
    for name, value, _ in _own_fields(card):
        if _is_scalar(value):
            continue
        if isinstance(value, (list, tuple)) and all(_is_scalar(v) for v in value):
            lines = [", ".join(str(v) for v in value if not _is_blank(v))]
        else:
            items = value if isinstance(value, (list, tuple)) else [value]
            lines = [describe(v) for v in items]
        lines = [line for line in lines if line]
        if lines:
            out.append((name, lines))
    return out


def describe(value: Any) -> str:
    """Nested data on one line: '*Éclaireur* — speed 6, attack 1' (texts kept as written)."""
    if hasattr(value, "model_dump"):
        value = {k: getattr(value, k) for k in type(value).model_fields}
    if isinstance(value, dict):
        head = f"*{value['name']}*" if isinstance(value.get("name"), str) else ""
        parts = []
        for k, v in value.items():
            if k == "name" or _is_blank(v):
                continue
            text = v if isinstance(v, str) and " " in v else describe(v)
            if text:
                parts.append(text if isinstance(v, str) and " " in v else f"{k} {text}")
        rest = ", ".join(parts)
        return f"{head} — {rest}" if head and rest else head or rest
    if isinstance(value, (list, tuple)):
        return " ; ".join(d for d in (describe(v) for v in value) if d)
    if value is True:
        return "oui"
    return str(value)


def _is_blank(value: Any) -> bool:
    return (value is None or value is False or (isinstance(value, (int, float)) and value == 0)
            or value in ("", [], {}))


def _is_scalar(value: Any) -> bool:
    return value is None or isinstance(value, (str, int, float, bool))


def _own_fields(card: Any) -> list[tuple[str, Any, bool]]:
    """(name, value, is free text) of the card's own fields, in model order."""
    fields = getattr(type(card), "model_fields", None)
    if fields is None:
        return []
    return [(name, getattr(card, name), _is_free_text(info.annotation))
            for name, info in fields.items() if name not in BASE_FIELDS]


def _is_free_text(annotation: Any) -> bool:
    if annotation is str:
        return True
    args = typing.get_args(annotation)
    return typing.get_origin(annotation) in (typing.Union, types.UnionType) and str in args


@jinja2.pass_context
def label(context, value: Any) -> Any:
    """A field name or value as printed: through ``vars.labels`` when listed there."""
    labels = (context.get("vars") or {}).get("labels") or {}
    try:
        return labels.get(value, value)
    except TypeError:  # unhashable
        return value


FILTERS: dict[str, Callable] = {
    "roman": roman, "signed": signed, "icons": icons, "plural": plural,
    "escape_markup": escape_markup, "text_fields": text_fields, "value_fields": value_fields,
    "nested_fields": nested_fields, "swatch": swatch, "label": label,
}
GLOBALS: dict[str, Any] = {"swatch": swatch, "nbsp": "\u00a0"}


#: what makes a card's text markup beyond icon tokens (``escape_literal`` escapes them)
_MARKUP_CHARS = re.compile(r"[*<\\]")


def escape_literal(value: str) -> str:
    """Card data printed as written: ``\\``, ``*`` and ``<`` escaped (``:icon:`` tokens, checked
    when the data loads, stay icons; :func:`escape_markup` escapes them too)."""
    return value.replace("\\", "\\\\").replace("*", "\\*").replace("<", "\\<")


#: id(card) → (card, its literal texts' ids): the card is kept so that its id is not reused
_LITERALS: dict[int, tuple[Any, Any, frozenset[int]]] = {}


def _literal_ids(card: Any, deck: Any) -> frozenset[int]:
    """The ids of every text object in ``card``'s data (nested ones too) outside the fields
    ``deck`` declares as markup (``DeckMeta.markup_fields``)."""
    hit = _LITERALS.get(id(card))
    if hit is not None and hit[0] is card and hit[1] is deck:
        return hit[2]
    markup_of = getattr(deck, "markup_fields", None)
    markup = markup_of(card.kind) if markup_of is not None else frozenset()
    found: set[int] = set()

    def walk(value: Any, depth: int) -> None:
        if isinstance(value, str):
            found.add(id(value))
        elif depth > 20:
            return
        elif isinstance(value, BaseModel):
            for name in type(value).model_fields:
                walk(getattr(value, name, None), depth + 1)
        elif isinstance(value, dict):
            for v in value.values():
                walk(v, depth + 1)
        elif isinstance(value, (list, tuple)):
            for v in value:
                walk(v, depth + 1)

    for name in type(card).model_fields:
        if name not in markup:
            walk(getattr(card, name, None), 0)
    if len(_LITERALS) > 50_000:
        _LITERALS.clear()
    ids = frozenset(found)
    _LITERALS[id(card)] = (card, deck, ids)
    return ids


@jinja2.pass_context
def _finalize(context: Any, value: Any) -> Any:
    """What ``{{ … }}`` prints: None as nothing; a text of the card's data as written unless its
    field is declared as markup (deck.yaml ``markup:``): a ``*`` in data prints as ``*``.
    A text the template made (a literal, a filter's result, a join) keeps its markup."""
    if value is None:
        return ""
    if type(value) is str and _MARKUP_CHARS.search(value):
        card = context.get("card")
        if card is not None and hasattr(type(card), "model_fields") and id(value) in _literal_ids(
                card, context.get("deck")):
            return escape_literal(value)
    return value


# --- compiled code, kept between runs ---------------------------------------------------------

class CodeCache:
    """Jinja's compiled code and the names each template reads, by template source.

    Turning a template into Python code (parse, generate, ``compile``) costs ~1 ms a template;
    a build compiles every box of every layout. The code objects are kept in memory for the
    process (a watch-mode rebuild compiles only what changed) and, marshalled, in the cache
    folder (:mod:`cardforge.cache`: ``CARDFORGE_NO_CACHE``, ``CARDFORGE_CACHE``) for the
    next run. Keys hold the jinja2, Python and cardforge versions and this module's own source
    (the filters and options that shape the code), so a stale entry is never used.

    Code is what a cache must never take from anyone: an entry is unmarshalled only once its
    HMAC, under the user's key kept outside the cache folder, checks (:func:`cardforge.cache.read`),
    and only a code object or the set of names a template reads is used. Without a key
    nothing is cached (the cache folder is None)."""

    MAX_FILES = 4000  # pruned to half, oldest first, past this

    def __init__(self, folder: Path | None):
        self.folder = folder
        self.memory: dict[str, Any] = {}
        self.salt = _code_salt()
        self.hits = 0
        self.misses = 0

    def _key(self, key: tuple) -> str:
        return hashlib.blake2b(repr(key).encode("utf-8") + self.salt, digest_size=16).hexdigest()

    def get(self, key: tuple) -> Any:
        k = self._key(key)
        value = self.memory.get(k)
        if value is None and self.folder is not None:
            # a miss: missing, damaged, planted (its MAC), or not what a template's entry holds
            value = _cache.read(self.folder / f"{k}.bin", marshal.loads, _CODE_ENTRY)
            if value is not None:
                self.memory[k] = value
        if value is None:
            self.misses += 1
        else:
            self.hits += 1
        return value

    def put(self, key: tuple, value: Any) -> None:
        k = self._key(key)
        self.memory[k] = value
        if self.folder is None:
            return
        # atomic, no *.part left; a read-only home or unmarshallable code is no error
        if _cache.write(self.folder / f"{k}.bin", lambda: marshal.dumps(value)) and self.misses % 64 == 1:
            self._prune()

    def _prune(self) -> None:
        assert self.folder is not None
        try:
            count = sum(1 for _ in self.folder.glob("*.bin"))
        except OSError:
            return
        if count > self.MAX_FILES:
            _cache.prune(self.folder, "*.bin", count - count // 2)


#: what an entry of the code cache holds: a template's code, or the names it reads
_CODE_ENTRY = (types.CodeType, frozenset)


def _code_salt() -> bytes:
    """The part of every key shared by all templates: this module's source (the filters and
    options that shape the code), the versions of jinja2, Python and cardforge."""
    try:
        return _cache.key("jinja", (), [Path(__file__)], ("jinja2",)).encode()
    except OSError:
        return _cache.key("jinja", (), (), ("jinja2",)).encode()


_code_caches: dict[str | None, CodeCache] = {}


def code_cache() -> CodeCache:
    """The process's code cache for the current cache folder (one per folder)."""
    root = _cache.cache_dir()
    key = None if root is None else str(root)
    cache = _code_caches.get(key)
    if cache is None:
        cache = _code_caches[key] = CodeCache(None if root is None else root / "jinja")
    return cache


# --- the sandbox's bounds (issue 21) --------------------------------------------------------------

class TemplateLimit(TemplateError):
    """A template asked for more than :mod:`cardforge.limits` allows (output, loops, numbers)."""


#: loop turns taken by the template rendering now under way (reset by render() and is_true()),
#: and by all renderings since the last :class:`Templates` was made (one build)
_ops = [0, 0]


def _limit_message(name: str, what: str) -> str:
    return f"{what}: at most {limit(name):,} (set {env_name(name)} to allow more)"


#: the limits in force, read once per :class:`Templates` (a build), not once per loop
_bounds: dict[str, int] = {}


def _refresh_bounds() -> None:
    for name in ("template_loop_items", "template_ops", "template_build_ops", "template_output_chars"):
        _bounds[name] = limit(name)


def _bounded_iter(iterable):
    """Every ``{% for %}`` loops through this: at most ``template_loop_items`` items per loop,
    ``template_ops`` per rendering. A sized iterable (list, range, mapping…) is counted at
    once and looped over directly; others item by item."""
    if not _bounds:
        _refresh_bounds()
    max_items, max_ops = _bounds["template_loop_items"], _bounds["template_ops"]
    max_total = _bounds["template_build_ops"]
    ops = _ops
    try:
        size = len(iterable)
    except TypeError:
        return _counting_iter(iterable, max_items, max_ops, max_total)
    if size > max_items:
        raise TemplateLimit(_limit_message("template_loop_items", "a loop over too many items"))
    ops[0] += size
    ops[1] += size
    if ops[0] > max_ops:
        raise TemplateLimit(_limit_message("template_ops", "too many loop turns in one template"))
    if ops[1] > max_total:
        raise TemplateLimit(_limit_message("template_build_ops", "too many loop turns in this build's "
                                           "templates, all cards together"))
    return iterable


def _counting_iter(iterable, max_items: int, max_ops: int, max_total: int):
    ops = _ops
    n = 0
    for item in iterable:
        n += 1
        ops[0] += 1
        ops[1] += 1
        if n > max_items:
            raise TemplateLimit(_limit_message("template_loop_items", "a loop over too many items"))
        if ops[0] > max_ops:
            raise TemplateLimit(_limit_message("template_ops", "too many loop turns in one template"))
        if ops[1] > max_total:
            raise TemplateLimit(_limit_message("template_build_ops", "too many loop turns in this build's "
                                               "templates, all cards together"))
        yield item


def _bounded_range(*args):
    """``range()`` in templates, at most ``template_loop_items`` long."""
    if not _bounds:
        _refresh_bounds()
    try:
        rng = range(*args)
    except (TypeError, ValueError, OverflowError) as exc:
        raise TemplateError(f"range{args!r}: {exc}") from None
    if len(rng) > _bounds["template_loop_items"]:
        raise TemplateLimit(_limit_message("template_loop_items", f"range() of {len(rng):,} numbers"))
    return rng


_WIDTH = re.compile(r"%[-+ #0]*(\d+)|\{[^{}]*?(\d{4,})[^{}]*\}")


def _check_size(n: float, what: str) -> None:
    if not _bounds:
        _refresh_bounds()
    if n > _bounds["template_output_chars"]:
        raise TemplateLimit(_limit_message("template_output_chars", f"{what} too long for a card"))


def _check_widths(fmt: str) -> None:
    for m in _WIDTH.finditer(fmt):
        width = m.group(1) or m.group(2)
        if width and len(width) < 30:
            _check_size(int(width), "a formatted value")
        elif width:
            _check_size(float("inf"), "a formatted value")


def _number_size_ok(base, exp) -> bool:
    """Is ``base ** exp`` a number of sane size (at most ~10,000 bits)?"""
    if isinstance(base, bool) or isinstance(exp, bool):
        return True
    if isinstance(base, int) and isinstance(exp, int):
        if exp < 0 or abs(base) < 2:
            return True
        return exp * math.log2(abs(base)) <= 10_000
    return True  # floats overflow with an OverflowError, caught by render()


def _wrap_filter(name: str, fn: Callable, width_arg: int):
    def bounded(value, *args, **kwargs):
        width = args[width_arg] if len(args) > width_arg else kwargs.get("width")
        if isinstance(width, (int, float)) and not isinstance(width, bool):
            _check_size(width, f"'{name}' width")
        if name == "format" and isinstance(value, str):
            _check_widths(value)
        return fn(value, *args, **kwargs)

    bounded.__name__ = fn.__name__
    for attr in ("jinja_pass_arg",):
        if hasattr(fn, attr):
            setattr(bounded, attr, getattr(fn, attr))
    return bounded


class _BoundedLoader(jinja2.FileSystemLoader):
    """Template files found only inside their folders: a symbolic link leading out of the
    folder (``shared.j2 -> /etc/passwd``) is refused, not followed."""

    def get_source(self, environment, template):
        pieces = split_template_path(template)
        for folder in self.searchpath:
            candidate = os.path.join(folder, *pieces)
            if not os.path.isfile(candidate):
                continue
            refused = path_problem(folder, "/".join(pieces), "template")[1]
            if refused is not None:
                raise TemplateError(f"{refused.message} (in {folder})")
            break
        return super().get_source(environment, template)


def _bounded_concat(*parts):
    """``a ~ b``: at most ``template_output_chars`` long."""
    texts = [str(p) for p in parts]
    _check_size(sum(len(t) for t in texts), "a joined text")
    return "".join(texts)


def _bounded_replace(value, old, new, count=None):
    text, old, new = str(value), str(old), str(new)
    n = text.count(old) if old else len(text) + 1
    if count is not None and isinstance(count, int):
        n = min(n, max(count, 0))
    _check_size(len(text) + n * max(len(new) - len(old), 0), "a replaced text")
    return text.replace(old, new) if count is None else text.replace(old, new, count)


def _make_bounded_join(join):
    def bounded_join(eval_ctx, value, d="", attribute=None):
        items = list(_bounded_iter(value))
        _check_size(len(str(d)) * max(len(items) - 1, 0), "a joined text")
        return join(eval_ctx, items, d, attribute)

    bounded_join.jinja_pass_arg = getattr(join, "jinja_pass_arg", None)
    return bounded_join


class _Bounder(jinja2.visitor.NodeTransformer):
    def visit_For(self, node):
        node = self.generic_visit(node)
        node.iter = nodes.Call(nodes.Name("_bounded_iter", "load"), [node.iter], [], None, None,
                               lineno=node.iter.lineno)
        return node

    def visit_Concat(self, node):
        node = self.generic_visit(node)
        return nodes.Call(nodes.Name("_bounded_concat", "load"), list(node.nodes), [], None, None,
                          lineno=node.lineno)


class _Environment(SandboxedEnvironment):
    """The sandbox, compiling through a :class:`CodeCache`, with bounds: loops and ``range``
    (:func:`_bounded_iter`), ``*`` ``**`` ``%`` on huge operands, padding filters, no
    ``lipsum``; output size and recursion are bounded in :func:`render`."""

    intercepted_binops = frozenset({"*", "**", "%", "+"})
    code_cache: CodeCache | None = None
    _pending: tuple[Any, ...] | None = None

    def call_binop(self, context, operator, left, right):
        if operator == "**":
            if not _number_size_ok(left, right):
                raise TemplateLimit("a power too large for a card (at most about 10,000 bits)")
            return left ** right
        if operator == "*":
            for seq, n in ((left, right), (right, left)):
                if isinstance(seq, (str, list, tuple)) and isinstance(n, int) and not isinstance(n, bool):
                    _check_size(len(seq) * n, "a repeated text or list")
            return left * right
        if operator == "%":
            if isinstance(left, str):
                _check_widths(left)
            return left % right
        if operator == "+":
            if isinstance(left, (str, list, tuple)) and isinstance(right, (str, list, tuple)):
                _check_size(len(left) + len(right), "a joined text or list")
            return left + right
        return super().call_binop(context, operator, left, right)

    def wrap_str_format(self, value):
        """``'{:>999999999}'.format(1)``: widths bounded like the output."""
        if getattr(value, "__name__", None) not in ("format", "format_map"):  # fast path: most reads
            return None
        wrapped = super().wrap_str_format(value)
        if wrapped is None:
            return None
        fmt = getattr(value, "__self__", "")

        def bounded(*args, **kwargs):
            if isinstance(fmt, str):
                _check_widths(fmt)
            return wrapped(*args, **kwargs)

        return bounded

    def _parse(self, source, name, filename):
        """Every ``for`` loop's iterable goes through ``_bounded_iter``, every ``~`` through
        ``_bounded_concat``."""
        return _Bounder().visit(super()._parse(source, name, filename))


    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._safe: dict[tuple[type, str], bool] = {}

    def is_safe_attribute(self, obj, attr, value) -> bool:
        """The sandbox's own verdict, remembered: it depends only on the attribute's name and
        the object's type (a function, a method, a class…), and templates read the same few
        attributes of every card (``card.name``…) thousands of times a build."""
        key = (type(obj), attr)
        safe = self._safe.get(key)
        if safe is None:
            safe = self._safe[key] = super().is_safe_attribute(obj, attr, value)
        return safe

    def compile(self, source, name=None, filename=None, raw=False, defer_init=False):
        cache = self.code_cache
        if isinstance(source, str):
            key = ("template", source, name, filename, defer_init)
        else:
            key, self._pending = self._pending, None
            key = None if key is None else key + (name, filename, defer_init)
        if cache is None or raw or key is None:
            return super().compile(source, name, filename, raw, defer_init)
        code = cache.get(key)
        if code is None:
            code = super().compile(source, name, filename, raw, defer_init)
            cache.put(key, code)
        return code

    def compile_expression(self, source: str, undefined_to_none: bool = True):
        cache = self.code_cache
        if cache is None:
            return super().compile_expression(source, undefined_to_none)
        code = cache.get(("expression", source, None, None, False))
        if code is not None:  # as jinja's compile_expression → from_string(node) does
            template = self.template_class.from_code(self, code, self.make_globals(None), None)
            return TemplateExpression(template, undefined_to_none)
        self._pending = ("expression", source)  # compile() stores the node's code under it
        try:
            return super().compile_expression(source, undefined_to_none)
        finally:
            self._pending = None


# --- the environment ---------------------------------------------------------------------------

class Templates:
    """Compiled templates of one game: inline sources and ``*.j2`` files, each compiled once."""

    def __init__(self, folders: list[Path]):
        self.folders = [Path(f) for f in folders]
        _ops[1] = 0  # a new build: a new budget of loop turns, the limits read afresh
        _refresh_bounds()
        self.env = _Environment(
            loader=_BoundedLoader([str(f) for f in self.folders]),
            undefined=StrictUndefined, finalize=_finalize, autoescape=False,
            trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=False, auto_reload=False,
        )
        self.cache = self.env.code_cache = code_cache()
        self.env.filters.update(FILTERS)
        for name, index in (("center", 0), ("indent", 0), ("wordwrap", 0), ("format", 99)):
            if name in self.env.filters:
                self.env.filters[name] = _wrap_filter(name, self.env.filters[name], index)
        self.env.globals.update(GLOBALS)
        self.env.globals.pop("lipsum", None)
        self.env.globals["range"] = _bounded_range
        self.env.globals["_bounded_iter"] = _bounded_iter
        self.env.globals["_bounded_concat"] = _bounded_concat
        self.env.filters["replace"] = _bounded_replace
        self.env.filters["join"] = _make_bounded_join(self.env.filters["join"])
        self._inline: dict[str, jinja2.Template] = {}
        self._exprs: dict[str, Any] = {}

    def inline(self, source: str) -> jinja2.Template:
        """Compile an inline template (cached by source); TemplateError if it does not parse."""
        tpl = self._inline.get(source)
        if tpl is None:
            try:
                tpl = self._inline[source] = self.env.from_string(source)
            except jinja2.TemplateSyntaxError as exc:
                raise TemplateError(f"template syntax error: {exc.message} (in {short_repr(source)})") from None
        return tpl

    def file(self, name: str) -> jinja2.Template:
        try:
            return self.env.get_template(name)
        except jinja2.TemplateNotFound:
            where = ", ".join(str(f) for f in self.folders)
            raise TemplateError(f"template file '{name}' not found (looked in {where})") from None
        except jinja2.TemplateSyntaxError as exc:
            raise TemplateError(f"{exc.filename or name}:{exc.lineno}: template syntax error: "
                                f"{exc.message}") from None

    def expression(self, source: str):
        """A compiled ``when:`` expression (a jinja expression, e.g. ``card.vp > 0``)."""
        fn = self._exprs.get(source)
        if fn is None:
            try:
                fn = self._exprs[source] = self.env.compile_expression(source, undefined_to_none=False)
            except jinja2.TemplateSyntaxError as exc:
                raise TemplateError(f"expression syntax error: {exc.message} (in {short_repr(source)})") from None
        return fn

    def file_names_used(self, name: str) -> frozenset[str]:
        """Top-level names a ``*.j2`` file reads; one that includes or extends others may read
        anything, so it counts as reading ``card``."""
        try:
            loader = self.env.loader
            assert loader is not None  # Templates always gives its environment a loader
            source = loader.get_source(self.env, name)[0]
        except jinja2.TemplateError:  # reported when the file is compiled
            return frozenset({"card"})
        key = ("file names", source)
        names = self.cache.get(key)
        if names is None:
            try:
                ast = self.env.parse(source)
            except jinja2.TemplateError:  # reported when the file is compiled
                return frozenset({"card"})
            found = set(meta.find_undeclared_variables(ast)) - {"_bounded_iter", "_bounded_concat"}
            if list(meta.find_referenced_templates(ast)):
                found.add("card")
            names = frozenset(found)
            self.cache.put(key, names)
        return names

    def names_used(self, source: str, *, expression: bool = False) -> frozenset[str]:
        """Top-level names an inline template or expression reads (``card``, ``kind``…)."""
        key = ("names", source, expression)
        names = self.cache.get(key)
        if names is None:
            names = _names_used(self.env, source, expression)
            self.cache.put(key, names)
        return names


def _names_used(env, source: str, expression: bool) -> frozenset[str]:
    text = "{{ (" + source + ") }}" if expression else source
    try:
        return frozenset(meta.find_undeclared_variables(env.parse(text))) - {"_bounded_iter", "_bounded_concat"}
    except jinja2.TemplateSyntaxError:
        return frozenset({"card"})  # reported when compiled; treat as card-dependent meanwhile


def is_template(value: str) -> bool:
    """Does a string hold jinja syntax (else it is used as is)?"""
    return "{{" in value or "{%" in value or "{#" in value


def render(template: jinja2.Template, context: dict[str, Any]) -> str:
    """Render; TemplateError with jinja's message (an undefined name, a sandbox refusal, a
    limit: output size, loop turns, recursion…)."""
    _ops[0] = 0
    if not _bounds:
        _refresh_bounds()
    max_chars = _bounds["template_output_chars"]
    try:
        out, size = [], 0
        for piece in template.generate(context):
            size += len(piece)
            if size > max_chars:
                raise TemplateLimit(_limit_message("template_output_chars",
                                                   "the template's text is too long for a card"))
            out.append(piece)
        return "".join(out)
    except TemplateError:
        raise
    except RecursionError:
        raise TemplateError("too deeply nested: a macro calling itself or a template including "
                            "itself?") from None
    except MemoryError:
        raise TemplateError("the template asks for more memory than a card needs") from None
    except OverflowError:
        raise TemplateError("a number too large for a card") from None
    except jinja2.UndefinedError as exc:
        raise TemplateError(f"{_unqualified(exc.message)} (StrictUndefined: every name must exist)") from None
    except jinja2.exceptions.SecurityError as exc:
        raise TemplateError(f"not allowed in a template: {exc}") from None
    except jinja2.TemplateError as exc:
        raise TemplateError(str(exc)) from None
    except (TypeError, ValueError, KeyError, IndexError, AttributeError, ZeroDivisionError) as exc:
        raise TemplateError(f"{type(exc).__name__}: {exc}") from None


def is_true(expression, context: dict[str, Any]) -> bool:
    """Evaluate a compiled ``when:`` expression to a truth value."""
    _ops[0] = 0
    try:
        return bool(expression(**context))
    except TemplateError:
        raise
    except RecursionError:
        raise TemplateError("too deeply nested expression") from None
    except OverflowError:
        raise TemplateError("a number too large for a card") from None
    except jinja2.UndefinedError as exc:
        raise TemplateError(f"{_unqualified(exc.message)} (StrictUndefined: every name must exist)") from None
    except jinja2.exceptions.SecurityError as exc:
        raise TemplateError(f"not allowed in a template: {exc}") from None
    except jinja2.TemplateError as exc:
        raise TemplateError(str(exc)) from None
    except (TypeError, ValueError, KeyError, IndexError, AttributeError, ZeroDivisionError) as exc:
        raise TemplateError(f"{type(exc).__name__}: {exc}") from None


def _unqualified(message: str | None) -> str:
    """jinja2 names an object by its class's module path ("'pkg.cards.Spell object'"): keep the class."""
    return re.sub(r"'(?:[\w]+\.)+(\w+) object'", r"'\1 object'", message or "")
