"""The values in an ``.xlsx`` workbook's sheets, read with the standard library (``zipfile`` and
expat) within cardforge's limits (:mod:`cardforge.limits`).

A workbook is a zip of XML parts; a few kilobytes can unzip to gigabytes, name a row
99,999,999,999 (a reader that fills the rows between takes all memory) or hold a million tiny
texts (openpyxl takes 13 s to read a million). So, before anything is built:

- every part's unzipped size is checked from the zip's directory (``xlsx_part_bytes``), and
  their total (``xlsx_inflated_bytes``); a part that unzips to more than its directory says
  fails its checksum, never more;
- the XML is parsed by expat as it is unzipped, with no DTD (so no entity can expand);
- rows are kept sparse (row number → {column → value}, blank cells left out): a row number is
  only a number, bounded by ``sheet_rows``; columns by ``sheet_columns``; a cell's text by
  ``sheet_cell_chars``; the rows with content by ``cards_per_deck`` (each is at least one card), so a
  sheet of 100,000 rows stops at the 10,001st.

Values: a number is an ``int`` or ``float``, a boolean a ``bool``, a text a ``str`` (shared,
inline or a formula's cached result, ``_xHHHH_`` escapes decoded), a date a ``datetime``, a
formula's error (``#DIV/0!``) a :class:`CellError`. Formulas are not evaluated: the value a
spreadsheet program saved with the formula is read, as openpyxl's ``data_only`` does.
"""

from __future__ import annotations

import datetime
import io
import posixpath
import re
import zipfile
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any
from xml.parsers import expat

from cardforge.limits import at_most, env_name, limit

#: a sheet's rows: (row number, {column number: value}), blank cells and rows left out
Rows = list[tuple[int, dict[int, Any]]]

_CHUNK = 1 << 20
_ESCAPE = re.compile(r"_x([0-9A-Fa-f]{4})_")
_COLUMN = re.compile(r"^\$?([A-Za-z]{1,4})\$?(\d*)$")
_INT = re.compile(r"^[+-]?\d+$")
# openpyxl's test for a date format (styles/numbers.py): quoted text, escapes and bracketed
# sections ([Red], [$-409]) stripped, then any of d m y h s
_FORMAT_STRIP = re.compile(r"""\[(?!(hh?|mm?|ss?)\])[^\]]*\]|"[^"]*"|\\.""")
_DATE_CHARS = re.compile(r"(?<![_\\])[dmhysDMHYS]")
#: built-in number formats that are dates or times (ECMA-376 18.8.30, and the East Asian ones)
_DATE_FORMAT_IDS = frozenset([*range(14, 23), *range(27, 37), 45, 46, 47, *range(50, 59)])


class XlsxError(Exception):
    """The workbook cannot be read; ``message`` says why, ``sheet``/``row``/``column`` where
    (when known); ``bound``: a limit was passed (not damage)."""

    def __init__(self, message: str, sheet: str | None = None, row: int | None = None,
                 column: int | None = None, bound: bool = False):
        super().__init__(message)
        self.message = message
        self.sheet, self.row, self.column = sheet, row, column
        self.bound = bound


class CellError(str):
    """A formula's error value as the spreadsheet saved it (``#DIV/0!``, ``#N/A``)."""


@dataclass
class Sheet:
    name: str
    rows: Rows = field(default_factory=list)


def unescape(text: str) -> str:
    """OOXML's ``_xHHHH_`` escapes (``_x000D_`` is a carriage return) → the characters."""
    if "_x" not in text:
        return text
    return _ESCAPE.sub(lambda m: chr(int(m.group(1), 16)), text)


_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]|_(?=x[0-9A-Fa-f]{4}_)")


def escape(text: str) -> str:
    """The text as an OOXML string: characters XML cannot hold as ``_xHHHH_``, and an ``_``
    that would start such an escape as ``_x005F_`` (so :func:`unescape` gives the text back)."""
    return _CONTROL.sub(lambda m: f"_x{ord(m.group(0)):04X}_", text)


def column_number(letters: str) -> int:
    n = 0
    for ch in letters.upper():
        n = n * 26 + ord(ch) - 64
    return n


def read_workbook(blob: bytes, skip: Callable[[str], bool] = lambda name: False) -> list[Sheet]:
    """The sheets of the workbook ``blob`` (in the workbook's order; those for which
    ``skip(name)`` is true are not read). XlsxError when it cannot be read or is past a limit."""
    try:
        archive = zipfile.ZipFile(io.BytesIO(blob))
    except zipfile.BadZipFile:
        raise XlsxError("not a zip archive (an .xlsx file is one; a workbook saved with a password "
                        "is not: save it without one)") from None
    _check_sizes(archive)
    names = set(archive.namelist())
    wb_path = _office_document(archive, names)
    wb_rels = _rels(archive, names, wb_path)
    sheets, date1904 = _sheet_list(archive, wb_path)
    shared: list[str] = []
    dates: set[int] = set()
    for rel_type, target in wb_rels.values():
        if rel_type.endswith("/sharedStrings") and target in names:
            shared = _shared_strings(archive, target)
        elif rel_type.endswith("/styles") and target in names:
            dates = _date_styles(archive, target)
    out = []
    content_rows = cells = 0
    for name, rel_id in sheets:
        rel = wb_rels.get(rel_id)
        if rel is None or not rel[0].endswith("/worksheet") or skip(name):
            continue  # a chart sheet, a dialog sheet, a note sheet left out
        if rel[1] not in names:
            raise XlsxError(f"the sheet '{name}' names a part that is not in the archive ({rel[1]})")
        sheet = Sheet(name)
        content_rows, cells = _read_sheet(archive, rel[1], sheet, shared, dates, date1904, content_rows, cells)
        out.append(sheet)
    return out


def _check_sizes(archive: zipfile.ZipFile) -> None:
    part_max, total_max = limit("xlsx_part_bytes"), limit("xlsx_inflated_bytes")
    total = 0
    for info in archive.infolist():
        if info.file_size > part_max:
            raise XlsxError(f"its part {info.filename} unzips to {info.file_size:,} bytes, "
                            f"{at_most('xlsx_part_bytes', ' bytes')}", bound=True)
        total += info.file_size
        if total > total_max:
            raise XlsxError(f"it unzips to more than {total_max:,} bytes, "
                            f"{at_most('xlsx_inflated_bytes', ' bytes')}", bound=True)


def _parse(archive: zipfile.ZipFile, part: str, start: Callable[[str, dict[str, str]], None],
           end: Callable[[str], None], text: Callable[[str], None] | None = None) -> None:
    """Stream the XML part through expat. The handlers get names as written (a writer may
    prefix them: ``x:row``); :func:`_local` takes the prefix off. No DTD is accepted."""
    parser = expat.ParserCreate()
    parser.buffer_text = True
    parser.SetParamEntityParsing(expat.XML_PARAM_ENTITY_PARSING_NEVER)

    def no_dtd(*_: Any) -> None:
        raise XlsxError(f"{part} declares a DTD (a workbook's XML never does)")

    parser.StartDoctypeDeclHandler = no_dtd
    parser.EntityDeclHandler = no_dtd
    parser.StartElementHandler = start
    parser.EndElementHandler = end
    if text is not None:
        parser.CharacterDataHandler = text
    try:
        with archive.open(part) as stream:
            while True:
                chunk = stream.read(_CHUNK)
                parser.Parse(chunk, not chunk)
                if not chunk:
                    break
    except expat.ExpatError as exc:
        raise XlsxError(f"{part} is not well-formed XML ({expat.ErrorString(exc.code)}, "
                        f"line {exc.lineno})") from None


def _local(name: str) -> str:
    """``x:row`` → ``row`` (a name without its namespace prefix)."""
    return name[name.find(":") + 1:]


def _attributes(archive: zipfile.ZipFile, part: str, tags: set[str]) -> list[tuple[str, dict[str, str]]]:
    found: list[tuple[str, dict[str, str]]] = []

    def start(tag: str, attrs: dict[str, str]) -> None:
        tag = _local(tag)
        if tag in tags:
            found.append((tag, {_local(k): v for k, v in attrs.items()}))

    _parse(archive, part, start, lambda tag: None)
    return found


def _office_document(archive: zipfile.ZipFile, names: set[str]) -> str:
    if "_rels/.rels" in names:
        for _, attrs in _attributes(archive, "_rels/.rels", {"Relationship"}):
            if attrs.get("Type", "").endswith("/officeDocument") and attrs.get("TargetMode") != "External":
                path = _resolve("", attrs.get("Target", ""))
                if path in names:
                    return path
    if "xl/workbook.xml" in names:
        return "xl/workbook.xml"
    raise XlsxError("it has no workbook part (xl/workbook.xml)")


def _resolve(base_dir: str, target: str) -> str:
    target = target.replace("\\", "/")
    if target.startswith("/"):
        return posixpath.normpath(target.lstrip("/"))
    return posixpath.normpath(posixpath.join(base_dir, target))


def _rels(archive: zipfile.ZipFile, names: set[str], part: str) -> dict[str, tuple[str, str]]:
    """A part's relationships: id → (type, the target's part name)."""
    folder, base = posixpath.split(part)
    rels_path = posixpath.join(folder, "_rels", base + ".rels")
    if rels_path not in names:
        return {}
    out = {}
    for _, attrs in _attributes(archive, rels_path, {"Relationship"}):
        if attrs.get("TargetMode") == "External" or "Id" not in attrs:
            continue
        out[attrs["Id"]] = (attrs.get("Type", ""), _resolve(folder, attrs.get("Target", "")))
    return out


def _sheet_list(archive: zipfile.ZipFile, wb_path: str) -> tuple[list[tuple[str, str]], bool]:
    sheets: list[tuple[str, str]] = []
    date1904 = False
    for tag, attrs in _attributes(archive, wb_path, {"sheet", "workbookPr"}):
        if tag == "sheet":
            sheets.append((attrs.get("name", ""), attrs.get("id", "")))
        else:
            date1904 = attrs.get("date1904", "0").lower() in ("1", "true")
    return sheets, date1904


def _shared_strings(archive: zipfile.ZipFile, part: str) -> list[str]:
    """The workbook's shared texts (a text's runs joined; phonetic guides left out). Plain
    closures: expat calls them for every element (a million texts read in about a second)."""
    out: list[str] = []
    parts: list[str] = []
    state = [False, 0]  # inside a <t> to keep, inside <rPh>

    def start(tag: str, attrs: dict[str, str]) -> None:
        tag = tag[tag.find(":") + 1:]
        if tag == "t":
            state[0] = not state[1]
        elif tag == "si":
            parts.clear()
        elif tag == "rPh":
            state[1] += 1

    def end(tag: str) -> None:
        tag = tag[tag.find(":") + 1:]
        if tag == "t":
            state[0] = False
        elif tag == "si":
            out.append(unescape("".join(parts)) if parts else "")
        elif tag == "rPh":
            state[1] -= 1

    def text(data: str) -> None:
        if state[0]:
            parts.append(data)

    _parse(archive, part, start, end, text)
    return out


def _is_date_format(code: str) -> bool:
    code = code.split(";")[0]
    if code.strip().lower() == "general":
        return False
    return bool(_DATE_CHARS.search(_FORMAT_STRIP.sub("", code)))


def _date_styles(archive: zipfile.ZipFile, part: str) -> set[int]:
    """Indexes of the cell styles (``cellXfs``) whose number format shows a date or time."""
    formats: dict[int, str] = {}
    xfs: list[int] = []
    state = {"cell_xfs": False}

    def start(tag: str, attrs: dict[str, str]) -> None:
        tag = _local(tag)
        if tag == "numFmt":
            try:
                formats[int(attrs.get("numFmtId", "-1"))] = attrs.get("formatCode", "")
            except ValueError:
                pass
        elif tag == "cellXfs":
            state["cell_xfs"] = True
        elif tag == "xf" and state["cell_xfs"]:
            try:
                xfs.append(int(attrs.get("numFmtId", "0")))
            except ValueError:
                xfs.append(0)

    def end(tag: str) -> None:
        if _local(tag) == "cellXfs":
            state["cell_xfs"] = False

    _parse(archive, part, start, end)
    return {i for i, fmt in enumerate(xfs)
            if (fmt in formats and _is_date_format(formats[fmt])) or (fmt not in formats and fmt in _DATE_FORMAT_IDS)}


class _SheetReader:
    """The state of one sheet's parse (see :func:`_read_sheet`)."""

    def __init__(self, sheet: Sheet, shared: list[str], dates: set[int], date1904: bool, content_rows: int,
                 cells: int = 0):
        self.sheet, self.shared, self.dates, self.date1904 = sheet, shared, dates, date1904
        self.max_row, self.max_col = limit("sheet_rows"), limit("sheet_columns")
        self.max_text, self.max_content = limit("sheet_cell_chars"), limit("cards_per_deck")
        self.content_rows, self.cells, self.max_cells = content_rows, cells, limit("sheet_cells")
        self.row_number = 0
        self.row: dict[int, Any] | None = None
        self.col = 0
        self.cell_type = "n"
        self.style = 0
        self.collect: list[str] | None = None
        self.collected = 0
        self.value: list[str] = []
        self.inline: list[str] = []
        self.in_inline = False
        self.phonetic = 0

    def error(self, message: str, bound: bool = False, column: bool = True) -> XlsxError:
        return XlsxError(message, self.sheet.name, self.row_number or None,
                         self.col if column and self.col else None, bound)

    def start(self, tag: str, attrs: dict[str, str]) -> None:
        tag = tag[tag.find(":") + 1:]
        if tag == "row":
            ref = attrs.get("r")
            self.row_number = self._number(ref, "row") if ref else self.row_number + 1
            if self.row_number > self.max_row:
                raise self.error(f"row number {self.row_number:,}: " + at_most("sheet_rows"), True, False)
            self.row, self.col = {}, 0
        elif tag == "c":
            if self.row is None:
                raise self.error("a cell outside a row")
            ref = attrs.get("r")
            if ref:
                m = _COLUMN.match(ref)
                if not m:
                    raise self.error(f"a cell named {ref[:20]!r}, not a cell reference such as B7")
                self.col = column_number(m.group(1))
            else:
                self.col += 1
            if self.col > self.max_col:
                raise self.error(f"column {self.col:,}: " + at_most("sheet_columns", " columns"), True)
            self.cell_type = attrs.get("t", "n")
            try:
                self.style = int(attrs.get("s", "0"))
            except ValueError:
                self.style = 0
            self.value.clear()
            self.inline.clear()
        elif tag == "v":
            self._collect(self.value)
        elif tag == "is":
            self.in_inline = True
        elif tag == "rPh":
            self.phonetic += 1
        elif tag == "t" and self.in_inline and not self.phonetic:
            self._collect(self.inline)

    def _collect(self, into: list[str]) -> None:
        self.collect = into
        self.collected = sum(len(s) for s in into)

    def text(self, data: str) -> None:
        if self.collect is not None:
            self.collected += len(data)
            if self.collected > self.max_text:
                raise self.error(f"a cell longer than {self.max_text:,} characters (set "
                                 f"{env_name('sheet_cell_chars')} to allow more)", True)
            self.collect.append(data)

    def end(self, tag: str) -> None:
        tag = tag[tag.find(":") + 1:]
        if tag in ("v", "t"):
            self.collect = None
        elif tag == "is":
            self.in_inline = False
        elif tag == "rPh":
            self.phonetic -= 1
        elif tag == "c" and self.row is not None:
            value = self._value()
            if value is not None and not (isinstance(value, str) and not value.strip()):
                self.row[self.col] = value
                self.cells += 1
                if self.cells > self.max_cells:
                    raise self.error(f"more than {self.max_cells:,} cells with content: "
                                     + at_most("sheet_cells", " cells with content in a card file"), True)
        elif tag == "row" and self.row is not None:
            if self.row:
                self.content_rows += 1
                if self.content_rows > self.max_content:
                    raise self.error(f"more than {self.max_content:,} rows with content (each is a card): "
                                     + at_most("cards_per_deck", " cards in a game"), True, False)
                self.sheet.rows.append((self.row_number, self.row))
            self.row = None

    def _number(self, text: str, what: str) -> int:
        text = text.strip()
        if not text.isdigit() or len(text) > 15:
            raise self.error(f"a {what} numbered {text[:20]!r}, not a whole number up to {self.max_row:,}",
                             column=False)
        return int(text)

    def _value(self) -> Any:
        t = self.cell_type
        raw = "".join(self.value)
        if t == "inlineStr":
            return unescape("".join(self.inline))
        if t == "s":
            try:
                text = self.shared[int(raw)]
            except (ValueError, IndexError):
                raise self.error(f"the cell names shared text #{raw[:20]} and the workbook has "
                                 f"{len(self.shared):,}") from None
            if len(text) > self.max_text:
                raise self.error(f"a cell of {len(text):,} characters, "
                                 + at_most("sheet_cell_chars", " characters"), True)
            return text
        if t == "str":
            return unescape(raw)
        if t == "b":
            return raw.strip() in ("1", "true")
        if t == "e":
            return CellError(raw.strip())
        if not raw.strip():
            return None
        if t == "d":
            try:
                return datetime.datetime.fromisoformat(raw.strip())
            except ValueError:
                raise self.error(f"a date cell holding {raw[:30]!r}") from None
        number = self._numeric(raw.strip())
        if self.style in self.dates:
            from openpyxl.utils.datetime import CALENDAR_MAC_1904, CALENDAR_WINDOWS_1900, from_excel

            try:
                return from_excel(number, CALENDAR_MAC_1904 if self.date1904 else CALENDAR_WINDOWS_1900)
            except (OverflowError, ValueError, TypeError):
                return CellError("#VALUE!")
        return number

    def _numeric(self, raw: str) -> int | float:
        try:
            if _INT.match(raw):
                if len(raw) > limit("int_digits"):
                    raise self.error(f"a number of {len(raw):,} digits: " + at_most("int_digits", " digits"), True)
                return int(raw)
            return float(raw)
        except ValueError:
            raise self.error(f"a number cell holding {raw[:30]!r}") from None


def _read_sheet(archive: zipfile.ZipFile, part: str, sheet: Sheet, shared: list[str], dates: set[int],
                date1904: bool, content_rows: int, cells: int = 0) -> tuple[int, int]:
    reader = _SheetReader(sheet, shared, dates, date1904, content_rows, cells)
    _parse(archive, part, reader.start, reader.end, reader.text)
    return reader.content_rows, reader.cells
