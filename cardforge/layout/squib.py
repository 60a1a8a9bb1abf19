"""``cardforge import squib FOLDER``: a Squib project as a cardforge game folder.

Reads what a Squib project declares — its layout YAML files, its CSV or XLSX data and, when
they are plain enough, its deck script's ``Squib::Deck.new(width:, height:, dpi:, cards:,
layout:)``, ``data = csv(file:)`` / ``xlsx(file:)`` and drawing calls (``text str:
data['name'], layout: :title``) — by pattern, never running Ruby. Writes a game folder whose
layout keeps Squib's numbers as they are: ``units: px``, ``dpi:`` the deck's, ``origin:
bleed`` (Squib measures from the corner of the whole image, bleed included), its ``extends``
and relative values (``+= 10``) unchanged. Whatever it cannot carry over is said in
:attr:`SquibImport.notes`. The format is documented in docs/squib.md.
"""

from __future__ import annotations

import os
import re
import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from cardforge.errors import CardforgeError
from cardforge.problems import Problem

#: Squib's default deck: a 2.5×3.5 in poker card with 1/8 in of bleed, at 300 dpi
SQUIB_WIDTH_PX = 825.0
SQUIB_HEIGHT_PX = 1125.0
SQUIB_DPI = 300.0
SQUIB_BLEED_IN = 0.125
#: Squib drawing calls → cardforge box types
_CALLS = {"text": "text", "rect": "rect", "roundrect": "rect", "circle": "ellipse", "ellipse": "ellipse",
          "svg": "art", "png": "art", "line": "line", "background": "rect"}
#: calls that save or show, not draw: nothing to port
_OUTPUT_CALLS = {"save", "save_png", "save_pdf", "save_sheet", "save_home", "showcase", "hand", "build",
                 "cut_zone", "safe_zone", "use_layout", "csv", "xlsx", "yaml", "puts", "require", "p", "pp"}
#: Squib layout keys → cardforge box fields (the same numbers)
_SAME = ("x", "y", "width", "height", "radius", "x1", "y1", "x2", "y2", "extends")
_RENAMED = {"fill_color": "fill", "stroke_color": "stroke", "file": "src"}
_STYLE = {"color": "colour", "font_size": "size", "align": "align", "valign": "valign"}
_ARG = re.compile(r"""\s*(?P<key>\w+):\s*(?:'(?P<sq>[^']*)'|"(?P<dq>[^"]*)"|:(?P<sym>\w+)"""
                  r"""|data\[\s*(?:['"](?P<col>[^'"]+)['"]|:(?P<colsym>\w+))\s*\]|data\.(?P<colattr>\w+)(?![\w.(])"""
                  r"""|\[(?P<list>[^\]]*)\]|(?P<num>-?\d+(?:\.\d+)?)\b)\s*,?""")


@dataclass
class SquibImport:
    """What :func:`import_squib` wrote and what it could not carry over."""

    written: list[Path] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


@dataclass
class _Call:
    method: str
    args: dict[str, tuple[str, str]]  # key → (kind: str|sym|data|num|list, text)
    line: int


#: the title of every error the import stops on
IMPORT_FAILED = "the Squib project cannot be imported"


def _error(problem: Problem) -> CardforgeError:
    return CardforgeError(IMPORT_FAILED, [problem])


def _read(folder: Path, name: str, what: str) -> bytes:
    """A file of the project, by the one rule for files a folder names (inside it, regular,
    bounded): CardforgeError naming it otherwise."""
    from cardforge.limits import limit
    from cardforge.paths import read_inside

    blob, problem = read_inside(folder, name, what, max_bytes=limit("file_bytes"),
                                variable="CARDFORGE_LIMIT_FILE_BYTES", file=str(folder / name))
    if problem is not None or blob is None:
        raise _error(problem or Problem("cannot be read", file=str(folder / name)))
    return blob


def _text(folder: Path, name: str, what: str) -> str:
    blob = _read(folder, name, what)
    try:
        return blob.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise _error(Problem(f"not UTF-8 text (byte {exc.start})", file=str(folder / name))) from None


def _ruby_args(text: str) -> dict[str, tuple[str, str]]:
    """``key: value, …`` of a Ruby call, for the values this reads: strings, symbols, numbers,
    ``data['col']`` and ``[...]`` lists; anything else is left out."""
    out: dict[str, tuple[str, str]] = {}
    for m in _ARG.finditer(text):
        g = m.groupdict()
        key = g["key"]
        if g["sq"] is not None or g["dq"] is not None:
            out[key] = ("str", g["sq"] if g["sq"] is not None else g["dq"])
        elif g["sym"] is not None:
            out[key] = ("sym", g["sym"])
        elif (g["col"] or g["colsym"] or g["colattr"]) is not None:
            out[key] = ("data", g["col"] or g["colsym"] or g["colattr"])
        elif g["list"] is not None:
            out[key] = ("list", g["list"])
        elif g["num"] is not None:
            out[key] = ("num", g["num"])
    return out


def _logical_lines(lines: list[str], first: int) -> list[tuple[int, str]]:
    """Ruby lines from ``first`` (0-based), comments out, a call continued over several lines
    (a trailing comma, backslash or open bracket) joined: (1-based number, text)."""
    out: list[tuple[int, str]] = []
    pending: tuple[int, str] | None = None
    for index in range(first, len(lines)):
        line = _strip_comment(lines[index]).strip()
        if pending is not None:
            pending = (pending[0], f"{pending[1]} {line}")
        elif line:
            pending = (index + 1, line)
        if pending is None:
            continue
        text = pending[1]
        opened = sum(text.count(c) for c in "([{") - sum(text.count(c) for c in ")]}")
        if text.endswith((",", "\\")) or opened > 0:
            pending = (pending[0], text.rstrip("\\"))
            continue
        out.append(pending)
        pending = None
    if pending is not None:
        out.append(pending)
    return out


def _strip_comment(line: str) -> str:
    quote = None
    for i, ch in enumerate(line):
        if quote:
            if ch == quote:
                quote = None
        elif ch in "'\"":
            quote = ch
        elif ch == "#":
            return line[:i]
    return line


@dataclass
class _Script:
    deck: dict[str, tuple[str, str]]
    calls: list[_Call]
    data_file: str | None
    data_kind: str | None
    sheet: dict[str, tuple[str, str]] = field(default_factory=dict)  # save_sheet's arguments
    layouts: list[str] = field(default_factory=list)  # use_layout's files


def read_script(text: str, notes: list[str], name: str) -> _Script:
    """The first ``Squib::Deck.new … do … end`` block of a deck script, by pattern."""
    lines = text.splitlines()
    start = next((i for i, line in enumerate(lines) if "Squib::Deck.new" in _strip_comment(line)), None)
    data_file = data_kind = None
    for line in lines:
        m = re.search(r"(?:Squib\.)?\b(csv|xlsx)\b\s*\(?\s*file:\s*['\"]([^'\"]+)['\"]", _strip_comment(line))
        if m:
            data_kind, data_file = m.group(1), m.group(2)
            break
    if start is None:
        notes.append(f"{name}: no Squib::Deck.new found: the deck's defaults (825×1125 px at 300 dpi) are used")
        return _Script({}, [], data_file, data_kind)
    head = _strip_comment(lines[start]).split("Squib::Deck.new", 1)[1]
    head = re.sub(r"\bdo\s*(\|[^|]*\|)?\s*$", "", head).strip().strip("()")
    deck = _ruby_args(head)
    calls: list[_Call] = []
    sheet: dict[str, tuple[str, str]] = {}
    layouts: list[str] = []
    depth = 0
    for number, line in _logical_lines(lines, start + 1):
        if re.match(r"^end\b", line):
            if depth == 0:
                break
            depth -= 1
            continue
        if re.search(r"\bdo\b(\s*\|[^|]*\|)?$", line) or re.match(r"^(if|unless|while|until|case|begin)\b", line):
            depth += 1
        m = re.match(r"^(?:\w+\s*=\s*)?(\w+)\b\s*\(?(.*?)\)?$", line)
        if not m:
            notes.append(f"{name}:{number}: not read ({line[:60]})")
            continue
        method, rest = m.group(1), m.group(2)
        if method == "save_sheet" or (method == "save" and "sheet" in rest):
            sheet = _ruby_args(rest)
        if method == "use_layout":  # Squib::Deck's layouts, merged after those of Deck.new
            used = _ruby_args(rest).get("file")
            if used is not None:
                layouts += [f.strip().strip("'\"") for f in used[1].split(",")] if used[0] == "list" else [used[1]]
        if method in _OUTPUT_CALLS:
            continue
        if method not in _CALLS:
            notes.append(f"{name}:{number}: '{method}' is not ported (cardforge draws {', '.join(sorted(_CALLS))})")
            continue
        calls.append(_Call(method, _ruby_args(rest), number))
    return _Script(deck, calls, data_file, data_kind, sheet, layouts)


def _px(value: tuple[str, str] | None, default: float, dpi: float) -> float:
    """A deck dimension (``825``, ``'2.75in'``, ``'70mm'``) in pixels."""
    if value is None:
        return default
    text = value[1].strip()
    m = re.fullmatch(r"(-?\d+(?:\.\d+)?)\s*(in|mm|cm|pt)?", text)
    if not m:
        raise _error(Problem(f"the deck's size {text!r} is not a number of pixels or a length "
                                      "('825', '2.75in', '70mm')", field="Squib::Deck.new"))
    number = float(m.group(1))
    per = {"in": dpi, "mm": dpi / 25.4, "cm": dpi / 2.54, "pt": dpi / 72.0}
    return number * per[m.group(2)] if m.group(2) else number


def _load_layouts(folder: Path, files: list[str], notes: list[str]) -> dict[str, dict[str, Any]]:
    """Squib's layout files merged in order (a later file's entry replaces an earlier one's)."""
    merged: dict[str, dict[str, Any]] = {}
    for name in files:
        from cardforge.data.yamlio import parse_text

        path = folder / name
        if not os.path.lexists(path):
            raise _error(Problem(f"layout file not found: {name} (Squib's built-in layouts are not "
                                          "shipped with cardforge: copy it from Squib's "
                                          "lib/squib/builtin/layouts/ into the project)", file=str(path)))
        text = re.sub(r"!ruby/symbol\s+", "", _text(folder, name, "layout file"))
        doc = parse_text(text, str(path))
        if doc.problems and doc.data is None:
            raise CardforgeError(IMPORT_FAILED, doc.problems)
        data = doc.data or {}
        if not isinstance(data, dict):
            raise _error(Problem("a Squib layout is a mapping of entries", file=str(path)))
        for key, entry in data.items():
            if isinstance(entry, dict):
                merged[str(key)] = {str(k).lstrip(":"): v for k, v in entry.items()}
            else:
                notes.append(f"{name}: entry '{key}' is not a mapping: left out")
    return merged


def _box_fields(name: str, entry: dict[str, Any], notes: list[str], where: str) -> dict[str, Any]:
    """A Squib layout entry's keys as cardforge box fields (numbers unchanged: ``units: px``)."""
    box: dict[str, Any] = {}
    style: dict[str, Any] = {}
    for key, value in entry.items():
        if key in _SAME:
            box[key] = value
        elif key in ("fill_color", "stroke_color"):
            colour = _colour(value, notes, f"{where}: '{name}' {key}")
            if colour is not None:
                box[_RENAMED[key]] = colour
        elif key == "color":
            colour = _colour(value, notes, f"{where}: '{name}' color")
            if colour is not None:
                style["colour"] = colour
        elif key in _RENAMED:
            box[_RENAMED[key]] = value
        elif key in _STYLE:
            style[_STYLE[key]] = str(value).lstrip(":") if key in ("align", "valign") else value
        elif key == "stroke_width":
            box["stroke_width"] = f"{value}px" if isinstance(value, (int, float)) else value
        elif key == "spacing":  # Squib's: pixels between lines
            style["line_spacing"] = f"{value}px" if isinstance(value, (int, float)) else value
        elif key == "wrap":  # Squib's word_char (its default) is cardforge's char
            style["wrap"] = "word" if str(value).lstrip(":") in ("word", "none", "false") else "char"
        elif key == "font" and isinstance(value, str):
            m = re.search(r"(\d+(?:\.\d+)?)\s*$", value)
            if m and "font_size" not in entry:
                style["size"] = float(m.group(1))
            notes.append(f"{where}: '{name}' font {value!r}: the size is kept, the family is cardforge's "
                         "(put the font in fonts/ and set style.family)")
        else:
            notes.append(f"{where}: '{name}' {key}: not ported")
    if style:
        box["style"] = style
    return box


def _field_name(header: str) -> str:
    from cardforge.data.spreadsheet import normalise_header

    return normalise_header(header)


def _rows(folder: Path, path: Path) -> list[Any]:
    """The data's rows (the first sheet with any, of a workbook)."""
    from cardforge.data.spreadsheet import _read_csv, _read_xlsx, _SheetError

    blob = _read(folder, path.relative_to(folder).as_posix(), "data file")
    try:
        if path.suffix.lower() == ".csv":
            return list(_read_csv(blob, path.name))
        return next((list(r) for _, r in _read_xlsx(blob) if r), [])
    except _SheetError as exc:
        raise _error(Problem(exc.message, file=str(path))) from None


def _headers(folder: Path, path: Path) -> list[str]:
    rows = _rows(folder, path)
    if not rows:
        return []
    first = rows[0][1]
    return [str(first[c]) for c in sorted(first) if first[c] not in (None, "")]


def import_squib(folder: Path, out: Path, *, title: str | None = None) -> SquibImport:
    """Write the game folder ``out`` (new or empty) from the Squib project in ``folder``.

    CardforgeError (file and what is wrong) when the project cannot be read; nothing is written
    then."""
    folder, out = Path(folder), Path(out)
    result = SquibImport()
    if not folder.is_dir():
        raise _error(Problem("not a folder: give a Squib project's folder", file=str(folder)))
    if out.exists() and (not out.is_dir() or any(out.iterdir())):
        raise _error(Problem("the output folder is not empty: give a new one", file=str(out)))
    deck = _read_deck(folder, result.notes)
    port = _Port(deck)
    for call in deck.script.calls:
        port.call(call)
    layout_boxes = _layout_boxes(deck, port.boxes)
    out_files = _game_files(deck, layout_boxes, title)  # written at the end, all or nothing
    _add_images(deck, port.images, out_files)
    result.written = _commit(out, out_files)
    return result


@dataclass
class _Deck:
    """What a Squib project's deck is: its script, size, layout entries and data."""

    folder: Path
    notes: list[str]
    script: _Script
    script_name: str
    dpi: float
    width: float
    height: float
    cards: int
    files: list[str]  # the layout files
    entries: dict[str, dict[str, Any]]
    data_path: Path | None = None
    headers: list[str] = field(default_factory=list)

    @property
    def bleed_px(self) -> float:
        return SQUIB_BLEED_IN * self.dpi

    @property
    def fields(self) -> dict[str, str]:
        return {_field_name(h): h for h in self.headers}


def _read_deck(folder: Path, notes: list[str]) -> _Deck:
    script, script_name = _find_script(folder, notes)
    dpi = _number(script.deck.get("dpi"), SQUIB_DPI, "dpi", script_name, 1, 10_000)
    width = _px(script.deck.get("width"), SQUIB_WIDTH_PX, dpi)
    height = _px(script.deck.get("height"), SQUIB_HEIGHT_PX, dpi)
    cards_arg = script.deck.get("cards")
    if cards_arg is not None and cards_arg[0] == "data":  # cards: data.nrows — the data's rows
        cards_arg = None
    cards = int(_number(cards_arg, 1, "cards", script_name, 1, 10_000))
    files = _layout_files(folder, script, notes)
    entries = _load_layouts(folder, files, notes)
    deck = _Deck(folder, notes, script, script_name, dpi, width, height, cards, files, entries)
    if _trim(deck)[0] <= 0 or _trim(deck)[1] <= 0:
        raise _error(Problem(f"a {width:g}×{height:g} px deck at {dpi:g} dpi is smaller than Squib's "
                                      "1/8 in of bleed each side", file=script_name))
    deck.data_path = _data_file(folder, script, script_name)
    deck.headers = _headers(folder, deck.data_path) if deck.data_path else []
    return deck


def _trim(deck: _Deck) -> tuple[float, float]:
    """The card's trim size in mm."""
    return ((deck.width - 2 * deck.bleed_px) * 25.4 / deck.dpi,
            (deck.height - 2 * deck.bleed_px) * 25.4 / deck.dpi)


def _find_script(folder: Path, notes: list[str]) -> tuple[_Script, str]:
    """The first script that makes a deck, and its name."""
    for path in sorted(p for p in folder.rglob("*.rb") if p.is_file()):
        text = _text(folder, path.relative_to(folder).as_posix(), "deck script")
        if "Squib::Deck.new" in text:
            script_name = path.relative_to(folder).as_posix()
            return read_script(text, notes, script_name), script_name
    return _Script({}, [], None, None), "the project"


def _layout_files(folder: Path, script: _Script, notes: list[str]) -> list[str]:
    """The layout files the deck reads: its ``layout:``, the script's ``use_layout``s, else every
    YAML file of the project."""
    layout_arg = script.deck.get("layout")
    if layout_arg is None and script.layouts:
        files = list(script.layouts)
    elif layout_arg is None:
        files = sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*.yml") if p.is_file()
                       and not p.name.startswith(("config", "_")))
        if files:
            notes.append(f"no layout: in Squib::Deck.new: read {', '.join(files)}")
    elif layout_arg[0] == "list":
        files = [f.strip().strip("'\"") for f in layout_arg[1].split(",") if f.strip()]
    else:
        files = [layout_arg[1]]
    if layout_arg is not None:
        files += script.layouts
    return files


def _data_file(folder: Path, script: _Script, script_name: str) -> Path | None:
    """The data: the script's csv/xlsx, else the only one in the folder."""
    if script.data_file:
        data_path = folder / script.data_file
        if not os.path.lexists(data_path):
            raise _error(Problem(f"the data file {script.data_file} is not in the project",
                                          file=script_name))
        return data_path
    found = sorted(p for p in folder.rglob("*") if p.suffix.lower() in (".csv", ".xlsx") and p.is_file())
    return found[0] if len(found) == 1 else None


class _Port:
    """The boxes a script's drawing calls make, and the images they show."""

    def __init__(self, deck: _Deck) -> None:
        self.deck = deck
        self.notes = deck.notes
        self.entries = deck.entries
        self.boxes: dict[str, Any] = {}
        self.used: set[str] = set()
        self.images: set[str] = set()

    def add(self, name: str, fields_: dict[str, Any]) -> None:
        base, n = name, 2
        while name in self.boxes:
            name, n = f"{base}_{n}", n + 1
        self.boxes[name] = fields_

    def call(self, call: _Call) -> None:
        """The box (or boxes) of one drawing call, or a note saying why it is left out."""
        where = f"{self.deck.script_name}:{call.line}"
        own: dict[str, Any] = {"type": _CALLS[call.method]}
        layout = call.args.get("layout")
        chain = layout[1] if layout is not None and layout[0] != "data" else None
        inline = {k: (float(v[1]) if v[0] == "num" else v[1]) for k, v in call.args.items()
                  if v[0] in ("num", "str", "sym") and k not in ("layout", "str", "file", "color")}
        if call.method == "line":
            ends = [k for k in ("x1", "y1", "x2", "y2")
                    if not (call.args.get(k, ("", ""))[0] == "num" or _entry_sets(self.entries, chain, k))]
            if ends:
                self.notes.append(f"{where}: a line whose {', '.join(ends)} are not plain pixels is not ported")
                return
        if call.method == "background":
            self._background(call, own, where)
            return
        if call.method == "circle":
            self._circle(call, own, where)
            return
        if call.method == "text" and not self._text(call, own, where, chain):
            return
        if call.method in ("svg", "png"):
            self._art(call, own)
        if call.method in ("rect", "roundrect", "ellipse"):  # Squib's defaults: no fill, a black 2 px outline
            for key, cf_key, default in (("fill_color", "fill", "none"), ("stroke_color", "stroke", "black"),
                                         ("stroke_width", "stroke_width", "2px")):
                if key not in call.args and not _entry_sets(self.entries, chain, key):
                    own[cf_key] = default
        for key, value in inline.items():
            own.update(_box_fields(call.method, {key: value}, self.notes, where))
        if layout is None:
            self.add(call.method, own)
        elif layout[0] == "data":
            self._data_layout(call, own, where, layout[1])
        else:
            self._place(call, own, layout[1])

    def _background(self, call: _Call, own: dict[str, Any], where: str) -> None:
        own.update({"x": 0, "y": 0, "width": self.deck.width, "height": self.deck.height, "bleed": True})
        colour = call.args.get("color")
        own["fill"] = _colour(colour[1], self.notes, f"{where}: background color") or "white" if colour else "white"
        self.add("background", own)

    def _circle(self, call: _Call, own: dict[str, Any], where: str) -> None:
        """Squib's circle: x, y its centre, radius: an ellipse box of its own."""
        layout = call.args.get("layout")
        if layout is not None and layout[0] == "data":
            self.notes.append(f"{where}: a circle with a layout from the data is not ported")
            return
        values = (_resolve_entry(self.entries, layout[1], self.deck.dpi)
                  if layout is not None and layout[1] in self.entries else {})
        values.update({k: float(v[1]) if v[0] == "num" else v[1] for k, v in call.args.items()})
        try:
            cx, cy, r = (float(values[k]) for k in ("x", "y", "radius"))
        except (KeyError, TypeError, ValueError):
            self.notes.append(f"{where}: a circle whose x, y and radius are not plain pixels is not ported")
            return
        own.update({"x": cx - r, "y": cy - r, "width": 2 * r, "height": 2 * r})
        for key, cf_key, default in (("fill_color", "fill", "none"), ("stroke_color", "stroke", "black"),
                                     ("stroke_width", "stroke_width", 2)):
            value = values.get(key, default)
            own[cf_key] = f"{value}px" if key == "stroke_width" else _colour(value, self.notes, where) or default
        self.add("circle", own)

    def _text(self, call: _Call, own: dict[str, Any], where: str, chain: str | None) -> bool:
        """A text's ``text`` and wrap into ``own``; False (and a note) when it is left out."""
        given = call.args.get("str")
        data_path = self.deck.data_path
        if given is None:
            self.notes.append(f"{where}: a text whose str: is not a quoted text or data['column'] "
                              "(computed in Ruby): left out")
            return False
        if given[0] == "data":
            if data_path is None:
                self.notes.append(f"{where}: data['{given[1]}'] but no CSV or XLSX data was found: left out")
                return False
            if _field_name(given[1]) not in self.deck.fields:
                raise _error(Problem(f"data['{given[1]}'] is not a column of "
                                              f"{data_path.name if data_path else 'the data (none found)'}"
                                              f" (columns: {', '.join(self.deck.headers) or 'none'})",
                                              file=self.deck.script_name, line=call.line))
            own["text"] = "{{ card.%s }}" % _field_name(given[1])
        else:
            own["text"] = given[1].replace("{", "{{ '{' }}") if "{" in given[1] else given[1]
        if "wrap" not in call.args and not _entry_sets(self.entries, chain, "wrap"):
            own["style"] = {"wrap": "char"}  # Squib's default, word_char: words, then letters
        return True

    def _art(self, call: _Call, own: dict[str, Any]) -> None:
        src = call.args.get("file")
        if src and src[0] == "data":
            own["src"] = "{{ card.%s }}" % _field_name(src[1])
            data_path = self.deck.data_path
            self.images.update(_column_values(self.deck.folder, data_path, src[1]) if data_path else [])
        elif src:
            own["src"] = src[1]
            self.images.add(src[1])
        own["fit"] = "contain"

    def _data_layout(self, call: _Call, own: dict[str, Any], where: str, header: str) -> None:
        """One box per entry the column names, drawn for its cards."""
        column = _field_name(header)
        data_path = self.deck.data_path
        for value in _column_values(self.deck.folder, data_path, header) if data_path else []:
            if value not in self.entries:
                self.notes.append(f"{where}: layout {value!r} (data['{header}']) is not in the layout files")
                continue
            self.used.add(value)
            entry = dict(own)
            entry["extends"] = value
            entry["when"] = f"card.{column} == {value!r}"
            if "file" in self.entries[value] and "src" not in entry:
                self.images.add(str(self.entries[value]["file"]))
            self.add(f"{value}_{call.method}", entry)

    def _place(self, call: _Call, own: dict[str, Any], name: str) -> None:
        """A box extending the layout entry ``name``."""
        entries = self.entries
        if name not in entries:
            raise _error(Problem(f"layout '{name}' is not an entry of {', '.join(self.deck.files) or 'any layout file'}"
                                          f" (entries: {', '.join(entries) or 'none'})",
                                          file=self.deck.script_name, line=call.line))
        self.used.add(name)
        own["extends"] = name
        if "file" in entries[name] and "src" not in own:
            self.images.add(str(entries[name]["file"]))
        self.add(f"{name}_{call.method}" if name in self.boxes or name in entries else name, own)


def _layout_boxes(deck: _Deck, boxes: dict[str, Any]) -> dict[str, Any]:
    """The entries the drawn boxes extend (a base has no type: it is not drawn itself), then the
    drawn boxes."""
    entries = deck.entries
    needed: list[str] = []

    def need(name: str) -> None:
        if name in needed or name not in entries:
            return
        needed.append(name)
        parents = entries[name].get("extends")
        for parent in [parents] if isinstance(parents, str) else (parents or []):
            need(str(parent))

    for fields_ in list(boxes.values()):
        for parent in [fields_.get("extends")] if fields_.get("extends") else []:
            need(parent)
    layout_boxes: dict[str, Any] = {}
    for name in entries:
        if name in needed:
            layout_boxes[name] = _box_fields(name, entries[name], deck.notes, "layout")
        else:
            deck.notes.append(f"layout entry '{name}' is not drawn by {deck.script_name}: left out")
    for name, fields_ in boxes.items():
        key = name if name not in layout_boxes else f"{name}_box"
        layout_boxes[key] = fields_
    return layout_boxes


def _game_files(deck: _Deck, layout_boxes: dict[str, Any], title: str | None) -> dict[str, bytes]:
    """The game folder's layout, game.yaml, cards and cardforge.toml, by name."""
    folder, dpi, bleed_px = deck.folder, deck.dpi, deck.bleed_px
    out_files: dict[str, bytes] = {}
    layout_doc = {
        "dpi": dpi if dpi != int(dpi) else int(dpi),
        "units": "px",
        "origin": "bleed",
        "origin_bleed": bleed_px if bleed_px != int(bleed_px) else int(bleed_px),
        "layouts": {"card": {"safe_zone": 0, "boxes": layout_boxes}},
    }
    _put(out_files, "templates/layout.yaml",
           f"# From the Squib project {folder.name} ({', '.join(deck.files) or 'no layout file'}, "
           f"{deck.script_name}):\n"
           "# Squib's numbers as they are: pixels at the deck's dpi, from the bleed's corner.\n"
           + yaml.safe_dump(layout_doc, sort_keys=False, allow_unicode=True, width=100))
    game = _game_yaml(deck, out_files, title)
    _put(out_files, "game.yaml", f"# Imported from the Squib project {folder.name} by `cardforge import squib`.\n"
           + yaml.safe_dump(game, sort_keys=False, allow_unicode=True, width=100))
    _put(out_files, "cardforge.toml", _toml(deck))
    return out_files


def _game_yaml(deck: _Deck, out_files: dict[str, bytes], title: str | None) -> dict[str, Any]:
    """game.yaml's content; the cards' file (the data, or cards.yaml) put into ``out_files``."""
    folder, data_path, fields = deck.folder, deck.data_path, deck.fields
    game_title = title or folder.resolve().name.replace("_", " ").replace("-", " ").title()
    card_files: list[Any]
    kind_fields = {f: {"type": "text"} for f in fields if f not in ("id", "name", "copies", "qty", "art", "back")}
    trim_w, trim_h = _trim(deck)
    deck_doc: dict[str, Any] = {"version": "0.1",
                                "card_size": {"width": f"{round(trim_w, 4):g}mm", "height": f"{round(trim_h, 4):g}mm"}}
    if data_path is not None:
        out_files[data_path.name] = _read(folder, data_path.relative_to(folder).as_posix(), "data file")
        card_files = [data_path.name]
        if "name" not in fields and fields:
            deck_doc["title_field"] = next(iter(fields))
    else:
        _put(out_files, "cards.yaml", yaml.safe_dump(
            [{"id": f"card-{i}", "kind": "card", "name": f"Card {i}"} for i in range(1, deck.cards + 1)],
            sort_keys=False))
        card_files = ["cards.yaml"]
    deck_doc["card_files"] = card_files
    deck_doc["kinds"] = {"card": {"label": "Card", "plural": "Cards", "layout": "card", "fields": kind_fields}}
    return {"title": game_title, "language": "en", "players": "1-6",
            "categories": [{"id": "points", "label": "Points"}], "deck": deck_doc}


def _toml(deck: _Deck) -> str:
    """cardforge.toml: Squib's bleed, and the sheet grid of the script's save_sheet."""
    toml = ("[build]\n# Squib's bleed, so that a card with its bleed is Squib's image\n"
            f'bleed = "{SQUIB_BLEED_IN * 25.4:g}mm"\n')
    sheet = deck.script.sheet
    if sheet:
        toml += "# the sheet grid of the script's save_sheet\n"
        for key in ("columns", "rows"):
            if sheet.get(key, ("", ""))[0] == "num":
                toml += f"{key} = {int(float(sheet[key][1]))}\n"
        if sheet.get("gap", ("", ""))[0] == "num":
            toml += f'gutter = "{float(sheet["gap"][1]) * 25.4 / deck.dpi:.4g}mm"\n'
    return toml


def _add_images(deck: _Deck, images: set[str], out_files: dict[str, bytes]) -> None:
    """The images the cards show, and the project's licence, into ``out_files``."""
    folder = deck.folder
    for image in sorted(images):
        if not os.path.lexists(folder / image):
            deck.notes.append(f"image {image} is not in the project: the card shows a placeholder")
            continue
        try:
            out_files[Path(image).as_posix()] = _read(folder, image, "image")
        except CardforgeError as exc:
            deck.notes.append(f"image {image} left out: {exc.problems[0].message if exc.problems else exc.title}")
    for name in ("LICENSE", "LICENSE.txt", "LICENSE.md"):  # the project's licence goes with its files
        if os.path.lexists(folder / name):
            out_files[name] = _read(folder, name, "licence")


def _column_values(folder: Path, path: Path | None, header: str) -> list[str]:
    """The distinct values of a column, in order (the images or layouts a column names)."""
    if path is None:
        return []
    rows = _rows(folder, path)
    if not rows:
        return []
    head = rows[0][1]
    column = next((c for c, v in head.items() if _field_name(str(v)) == _field_name(header)), None)
    values: list[str] = []
    for _, row in rows[1:]:
        value = row.get(column) if column is not None else None
        if value not in (None, "") and str(value) not in values:
            values.append(str(value))
    return values


_RELATIVE_OP = re.compile(r"^\s*([-+*/])=\s*(.*?)\s*$")


def _resolve_entry(entries: dict[str, dict[str, Any]], name: str, dpi: float, depth: int = 0) -> dict[str, Any]:
    """A Squib layout entry with what it extends merged in, as Squib does (each parent in turn
    under the entry, a later parent winning unless its value is still relative; ``+=``, ``-=``
    on pixels or lengths, ``*=``, ``/=`` on plain numbers). Values Squib would not compute are
    kept as written."""
    entry = entries.get(name, {})
    parents = entry.get("extends")
    names = [parents] if isinstance(parents, str) else list(parents or [])
    if not names or depth > 32:
        return {k: v for k, v in entry.items() if k != "extends"}
    out: dict[str, Any] = {}
    for parent_name in names:
        parent = _resolve_entry(entries, str(parent_name), dpi, depth + 1) if parent_name in entries else {}
        merged = dict(parent)
        for key, value in entry.items():
            if key == "extends":
                continue
            merged[key] = _relative(parent[key], value, dpi) if key in parent else value
        for key, value in merged.items():
            if key in out and isinstance(value, str) and _RELATIVE_OP.match(value):
                continue
            out[key] = value
    return out


def _relative(parent: Any, child: Any, dpi: float) -> Any:
    m = _RELATIVE_OP.match(child) if isinstance(child, str) else None
    if m is None:
        return child
    try:
        base = _pixels(parent, dpi)
        if m.group(1) in "+-":
            amount = _pixels(m.group(2), dpi)
            return base + amount if m.group(1) == "+" else base - amount
        factor = float(m.group(2))
        return base * factor if m.group(1) == "*" else base / factor
    except (TypeError, ValueError, ZeroDivisionError, CardforgeError):
        return child


def _pixels(value: Any, dpi: float) -> float:
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return float(value)
    return _px(("str", str(value)), 0.0, dpi)


def _colour(value: Any, notes: list[str], where: str) -> str | None:
    """A Squib colour as cardforge writes it: ``#rrggbb``, a palette name or ``none`` (Squib's
    transparent ``#0000``); ``#rgb`` spelt out, an alpha channel dropped (said), ``gray`` as
    ``grey``; None (said) for a colour cardforge does not know."""
    from cardforge.markup import MarkupError, resolve_color

    text = str(value).strip().lstrip(":")
    if re.fullmatch(r"#[0-9a-fA-F]{4}|#[0-9a-fA-F]{8}", text) and text[-2 if len(text) == 9 else -1:] in ("0", "00"):
        return "none"  # fully transparent
    if re.fullmatch(r"#[0-9a-fA-F]{3,4}", text):
        text = "#" + "".join(c * 2 for c in text[1:4])
    elif re.fullmatch(r"#[0-9a-fA-F]{8}", text):
        notes.append(f"{where}: {value!r}: its transparency is not ported")
        text = text[:7]
    if text.lower() in ("none", "transparent"):
        return "none"
    for candidate in (text, text.lower(), text.lower().replace("gray", "grey")):
        try:
            resolve_color(candidate)
            return candidate
        except MarkupError:
            continue
    notes.append(f"{where}: colour {value!r} is not one cardforge knows (#rrggbb or a palette name): left out")
    return None


def _entry_sets(entries: dict[str, dict[str, Any]], name: str | None, key: str, depth: int = 0) -> bool:
    """Whether the layout entry ``name`` or one it extends sets ``key``."""
    if name is None or name not in entries or depth > 32:
        return False
    entry = entries[name]
    if key in entry:
        return True
    parents = entry.get("extends")
    return any(_entry_sets(entries, str(p), key, depth + 1) for p in ([parents] if isinstance(parents, str)
                                                                        else parents or []))


def _put(files: dict[str, bytes], name: str, text: str) -> None:
    files[name] = text.encode("utf-8")


def _commit(out: Path, files: dict[str, bytes]) -> list[Path]:
    """Write ``files`` into a new folder beside ``out`` and move it into place: all or nothing."""
    out.parent.mkdir(parents=True, exist_ok=True)
    work = out.parent / f".{out.name}.importing-{os.getpid()}"
    work.mkdir()  # the usual permissions (the umask's), unlike a temporary folder's
    try:
        for name, blob in files.items():
            target = work / name
            if not target.resolve().is_relative_to(work.resolve()):
                raise _error(Problem(f"{name}: a path leading out of the game folder", file=name))
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(blob)
        if out.exists():
            out.rmdir()  # checked empty before anything was read
        os.replace(work, out)
    except BaseException:
        shutil.rmtree(work, ignore_errors=True)
        raise
    return [out / name for name in files]


def _number(value: tuple[str, str] | None, default: float, key: str, script: str, low: float,
            high: float) -> float:
    """A number of Squib::Deck.new (``dpi: 300``, ``cards: 4``), bounded."""
    if value is None:
        return default
    try:
        number = float(value[1])
    except ValueError:
        number = float("nan")
    if not low <= number <= high:
        raise _error(Problem(f"{key}: expected a number from {low:g} to {high:g}, got {value[1]!r}",
                                      file=script, field=f"Squib::Deck.new {key}"))
    return number
