"""Card-text markup → paragraphs of styled runs and inline icons. Pure Python (no ReportLab).

The markup (what jinja2 templates and data fields produce):

- ``**gras**`` or ``<b>…</b>``; ``*italique*`` or ``<i>…</i>``
- ``<color=#b22222>…</color>`` or a palette name (``<color=red>``); ``<small>…</small>`` (80 %)
- ``:coin:`` — an inline vector icon (names in :mod:`cardforge.icons`)
- a newline (or ``<br>``) breaks the line; a blank line starts a new paragraph
- ``\\*``, ``\\:``, ``\\<`` and ``\\\\`` escape

Runs of spaces and tabs collapse to one space, as in HTML.

French typography is applied to the text (never to icon tokens, tags or escapes), so data
authors need not type it: a straight apostrophe after a letter becomes ’, and the space inside
« » and before ; : ! ? becomes a narrow no-break space (U+202F), added when missing; text that
already has them is left as it is (:func:`french`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from cardforge.icons import closest_icon, icon_label, is_icon
from cardforge.problems import short_repr

#: Colour names usable in ``<color=…>`` (print-friendly, dark enough on cream card stock).
PALETTE: dict[str, str] = {
    "black": "#1a1a1a",
    "white": "#ffffff",
    "red": "#b3261e",
    "green": "#2e7d32",
    "blue": "#1f5fa8",
    "yellow": "#c99a06",
    "grey": "#6b6b6b",
    "gold": "#b8860b",
    "brown": "#6d4c2f",
    "purple": "#6a3d9a",
    "orange": "#d9661f",
}

_HEX = re.compile(r"^#[0-9a-fA-F]{6}$")


class MarkupError(ValueError):
    """Malformed card text; the message says what and where (character offset)."""


@dataclass(frozen=True)
class Style:
    bold: bool = False
    italic: bool = False
    color: str | None = None  # "#rrggbb"
    scale: float = 1.0


@dataclass(frozen=True)
class Text:
    text: str
    style: Style


@dataclass(frozen=True)
class Icon:
    name: str
    style: Style


@dataclass(frozen=True)
class Break:
    """A forced line break inside a paragraph."""


Piece = Text | Icon | Break
Paragraph = tuple[Piece, ...]

_TOKEN = re.compile(
    r"\\[\\*:<]"  # escapes
    r"|\*\*|\*"  # bold / italic toggles
    r"|<(/?)(b|i|small|br|color)(?:=([^>]*))?\s*/?>"  # tags
    r"|:([a-z][a-z0-9-]*):"  # icons
    r"|\n"
)


def resolve_color(value: str) -> str:
    value = value.strip().strip("'\"")
    if value in PALETTE:
        return PALETTE[value]
    if _HEX.match(value):
        return value.lower()
    raise MarkupError(f"unknown colour {short_repr(value)} (use #rrggbb or one of: {', '.join(PALETTE)})")


NNBSP = "\u202f"  # narrow no-break space (espace fine insécable)
_SPACES = "[ \u00a0\u2009\u202f]"
_APOSTROPHE = re.compile(r"(?<=\w)'")
_BEFORE = re.compile(_SPACES + r"*(?<=[\w)\]»'’.…" + _SPACES[1:-1] + r"])([;!?]+)")
_COLON = re.compile(r"(?<=[^\d\s:/])" + _SPACES + r"*:(?=\s|$)|" + _SPACES + r"+:(?!\S*//)")
_ICON_LIKE = re.compile(r"(:[a-z][a-z0-9-]*:)")
_OPEN = re.compile(r"«" + _SPACES + "*")
_CLOSE = re.compile(r"(?<=\S)" + _SPACES + "*»|^" + _SPACES + "*»")


def french(text: str) -> str:
    """French typography for a run of card text: ’ for an apostrophe after a letter; a narrow
    no-break space (U+202F) after « and before », ; : ! ? — replacing a space, a no-break
    space or a thin space written there, and added where there was none (before ; ! ? only
    after a letter, a closing bracket or quote; before : only when a space or the end of the
    text follows, so 10:30, 2:1 and http:// stay). Idempotent: ``french(french(t)) == french(t)``.
    """
    if "'" in text:
        text = _APOSTROPHE.sub("’", text)
    if not any(c in text for c in ";:!?«»"):
        return text
    if ":" in text and _ICON_LIKE.search(text):  # an escaped token (\\:coin:) stays as written
        parts = _ICON_LIKE.split(text)
        return "".join(p if i % 2 else _punctuation(p) for i, p in enumerate(parts))
    return _punctuation(text)


def _punctuation(text: str) -> str:
    text = _BEFORE.sub(NNBSP + r"\1", text)
    text = _COLON.sub(NNBSP + ":", text)
    text = _OPEN.sub("«" + NNBSP, text)
    text = _CLOSE.sub(NNBSP + "»", text)
    return text


def typeset(text: str, lang: str) -> str:
    """``text`` with the typography of ``lang``: French spacing (:func:`french`) only in French;
    any other language as written."""
    return french(text) if lang == "fr" else text


@lru_cache(maxsize=4096)
def parse(markup: str, icons: frozenset[str] = frozenset(), lang: str = "fr") -> tuple[Paragraph, ...]:
    """Parse ``markup``; raises MarkupError naming the problem and its position. ``icons``: the
    game's own icon names, known besides the built-in ones; ``lang``: the language printed
    (its typography: :func:`typeset`)."""
    parser = _Parser(icons, lang)
    pos = 0
    for m in _TOKEN.finditer(markup):
        parser.text(markup[pos:m.start()])
        pos = m.end()
        parser.token(m)
    tail = markup[pos:]
    if tail:
        if parser.newlines:
            parser.flush()
            parser.apply_newlines()
            tail = tail.lstrip(" \t")
        parser.buf.append(tail.rstrip())
    parser.flush()
    return parser.result()


class _Parser:
    """The state of one :func:`parse`: the paragraphs so far, the open styles, the pending text."""

    def __init__(self, icons: frozenset[str], lang: str) -> None:
        self.icons = icons
        self.lang = lang
        self.paragraphs: list[list[Piece]] = [[]]
        self.bold = self.italic = False
        self.small = 0
        self.colors: list[str] = []
        self.buf: list[str] = []
        self.newlines = 0
        self.open_marks: list[tuple[str, int]] = []  # ("**", offset) for error messages

    def style(self) -> Style:
        return Style(self.bold, self.italic, self.colors[-1] if self.colors else None, 0.8 if self.small else 1.0)

    def flush(self) -> None:
        if self.buf:
            text = typeset(re.sub(r"[ \t\r]+", " ", "".join(self.buf)), self.lang)
            if text:
                self.paragraphs[-1].append(Text(text, self.style()))
            self.buf.clear()

    def apply_newlines(self) -> None:
        if self.newlines == 1 and self.paragraphs[-1]:
            self.paragraphs[-1].append(Break())
        elif self.newlines >= 2 and self.paragraphs[-1]:
            self.paragraphs.append([])
        self.newlines = 0

    def toggle(self, mark: str, offset: int) -> None:
        if self.open_marks and self.open_marks[-1][0] == mark:
            self.open_marks.pop()
        else:
            self.open_marks.append((mark, offset))

    def text(self, chunk: str) -> None:
        """Plain text between two tokens."""
        if chunk:
            if self.newlines:
                self.flush()
                self.apply_newlines()
                chunk = chunk.lstrip(" \t")
            self.buf.append(chunk)

    def token(self, m: re.Match[str]) -> None:
        tok = m.group(0)
        if tok == "\n":
            # trailing spaces before a newline vanish
            if self.buf:
                self.buf[-1] = self.buf[-1].rstrip(" \t")
            self.newlines += 1
            return
        self.flush()
        if self.newlines:
            self.apply_newlines()
        if tok.startswith("\\"):
            self.buf.append(tok[1])
        elif tok == "**":
            self.bold = not self.bold
            self.toggle("**", m.start())
        elif tok == "*":
            self.italic = not self.italic
            self.toggle("*", m.start())
        elif m.group(4):
            name = m.group(4)
            if not is_icon(name, self.icons):
                raise MarkupError(_unknown_icon(name, m.start(), self.icons))
            self.paragraphs[-1].append(Icon(name, self.style()))
        else:
            self.tag(m)

    def tag(self, m: re.Match[str]) -> None:
        """``<b>``, ``</i>``, ``<br>``, ``<small>``, ``<color=…>``…"""
        closing, tag, arg = m.group(1), m.group(2), m.group(3)
        if tag == "br":
            self.paragraphs[-1].append(Break())
        elif tag == "b":
            self.bold = not closing
        elif tag == "i":
            self.italic = not closing
        elif tag == "small":
            self.small = max(0, self.small + (-1 if closing else 1))
        elif tag == "color":
            if closing:
                if not self.colors:
                    raise MarkupError(f"'</color>' without '<color=…>' at character {m.start()}")
                self.colors.pop()
            else:
                if not arg:
                    raise MarkupError(f"'<color>' needs a value, e.g. <color=red>, at character {m.start()}")
                self.colors.append(resolve_color(arg))

    def result(self) -> tuple[Paragraph, ...]:
        """The paragraphs, once the text is all read (MarkupError on what is left open)."""
        if self.open_marks:
            mark, offset = self.open_marks[-1]
            what = "bold" if mark == "**" else "italic"
            raise MarkupError(f"unclosed '{mark}' ({what}) opened at character {offset} "
                              f"(write \\{mark[0]} for a literal asterisk)")
        if self.colors:
            raise MarkupError("unclosed '<color=…>'")
        out = []
        for para in self.paragraphs:
            while para and isinstance(para[-1], Break):
                para.pop()
            # strip the leading space of a paragraph / after a break
            if para and isinstance(para[0], Text) and para[0].text.startswith(" "):
                first = para[0]
                para[0] = Text(first.text.lstrip(" "), first.style)
            if para:
                out.append(tuple(para))
        return tuple(out)


def _unknown_icon(name: str, offset: int, icons: frozenset[str]) -> str:
    close = closest_icon(name, icons)
    hint = f"; did you mean ':{close}:'?" if close else ""
    return f"unknown icon ':{name}:' at character {offset}{hint}"


def plain_text(markup: str, icons: frozenset[str] = frozenset(), files: Mapping[str, Path] | None = None) -> str:
    """The text a reader sees, icons as their label in brackets (for search and tests; ``icons``:
    the game's own icon names, ``files``: its icon files, an SVG's ``<title>`` is its label)."""
    out = []
    for para in parse(markup, icons):
        parts = []
        for piece in para:
            if isinstance(piece, Text):
                parts.append(piece.text)
            elif isinstance(piece, Icon):
                parts.append(f"[{icon_label(piece.name, files)}]")
            else:
                parts.append("\n")
        out.append("".join(parts))
    return "\n\n".join(out)
