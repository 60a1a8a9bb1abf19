"""Card files as spreadsheets: ``.csv`` and ``.xlsx`` read into the raw card dicts the YAML
path produces (and written back by ``cardforge export-data``).

A sheet is a header row naming fields, then one row per card:

- a header is a card field (``id``, ``name``, ``cost``…), matched ignoring case, accents and
  spaces (``Name`` → ``name``, ``Coût`` → ``cout``); a dotted header fills a nested mapping
  (``cost.red``, ``planet.name``); ``qty`` is another name for ``copies``; deck.yaml's entry for
  the file may map its own headers to fields (``{file: x.csv, columns: {Action: name}}``);
- a header naming the game's title field (``title_field:``) fills ``name`` when the kind has no
  such field;
- a text field's header with a language code, ``name.en``, is that field's text in that
  language (the plain column holds the game's language: data/editions.py);
- an empty cell is "not given" (the field's default applies);
- numbers are numbers (``3`` → 3, ``2.0`` in a workbook → 2), ``true``/``false`` are booleans,
  unless the field is text: a ``name`` of ``7`` stays the text ``7``;
- a list field takes ``a; b; c``; any list or mapping may also be written in YAML flow
  syntax, ``[a, b]`` or ``{red: 2, gold: 1}`` (a list of mappings has to be);
- a row repeated identically adds a copy (as does a ``copies``/``qty`` column);
- without an ``id`` column, ids are derived from the titles (``Boule de feu`` →
  ``boule-de-feu``), unique in the whole game: the kind as prefix when another kind (or an
  earlier file) has that id (``metal-man-jump``); cards of one kind sharing a title each add
  the first 6 hex digits of their content's SHA-256 (``boule-de-feu-1754b3``: never a row
  number, so deleting or moving a row renames no other card), numbered only for cards saying
  the same in two files; with a warning: renaming such a card reads as one card removed and
  one added in diffs and reprints;
- the kind is the ``kind`` column, else the sheet's name when it names a kind (a workbook may
  hold one sheet per kind), else the file's kind: deck.yaml's ``kind:`` for the file, or the
  file's name when it names a kind (so Excel's ``Sheet1``/``Feuil1`` in ``player.xlsx`` holds
  players); sheets whose name starts with ``_`` are left out (notes, lookup tables).

Problems are located ``cards.xlsx › Sheet1 › row 7 › column C (cost)``.
"""

from __future__ import annotations

import csv
import datetime
import difflib
import io
import math
import os
import re
import types
import typing
import unicodedata
import zipfile
from collections import Counter
from collections.abc import Callable, Container, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel

from cardforge.data.editions import language_column
from cardforge.data.yamlio import decode, parse_text, read_bytes, read_yaml
from cardforge.errors import DataError
from cardforge.limits import at_most, env_name, limit
from cardforge.paths import regular_inside
from cardforge.problems import Problem
from cardforge.resources import display_path

if TYPE_CHECKING:
    from cardforge.data.gamedata import CardSource
    from cardforge.data.models import CardBase
    from cardforge.data.yamlio import Loc, LocatedDoc

SUFFIXES = (".csv", ".xlsx")
LIST_SEPARATOR = ";"
_TOKEN_BASE = 1_000_000_000  # "line numbers" above this are cells of a sheet (see SheetDoc.line_of)
_INT = re.compile(r"^[+-]?\d+$")
_FLOAT = re.compile(r"^[+-]?(\d+\.\d*|\.\d+|\d+(\.\d*)?[eE][+-]?\d+)$")
_TRUE, _FALSE = {"true", "vrai"}, {"false", "faux"}
FIXED_TIME = (1980, 1, 1, 0, 0, 0)


def is_spreadsheet(path: Path | str) -> bool:
    return Path(path).suffix.lower() in SUFFIXES


# --- reading -----------------------------------------------------------------------------------
@dataclass
class Cell:
    sheet: str | None  # None for a CSV file
    row: int  # 1-based, as the spreadsheet shows it
    column: int | None = None  # 1-based
    header: str | None = None

    def where(self, display: str) -> str:
        parts = [display]
        if self.sheet is not None:
            parts.append(self.sheet)
        parts.append(f"row {self.row}")
        if self.column is not None:
            parts.append(f"column {column_letter(self.column)}" + (f" ({self.header})" if self.header else ""))
        return " › ".join(parts)


@dataclass
class _Row:
    sheet: str | None
    row: int
    columns: dict[str, int]  # header → column
    raw: dict[str, Any]


@dataclass
class SheetDoc:
    """A spreadsheet read like a YAML card file: ``data`` is the list of raw cards and
    ``line_of(loc)`` a token for the cell at ``loc`` (``(index, field, …)``), turned into a
    located file name by :func:`locate` once the cards are validated."""

    path: Path
    display: str
    data: list[dict[str, Any]] | None
    problems: list[Problem] = field(default_factory=list)
    rows: list[_Row] = field(default_factory=list)
    cells: list[Cell] = field(default_factory=list)

    def line_of(self, loc: Loc) -> int | None:
        if not loc or not isinstance(loc[0], int) or not 0 <= loc[0] < len(self.rows):
            return None
        row = self.rows[loc[0]]
        path = [str(p) for p in loc[1:]]
        column = header = None
        for n in range(len(path), 0, -1):
            name = ".".join(path[:n])
            if name in row.columns:
                column, header = row.columns[name], name
                break
        if column is None and path:
            prefix = ".".join(path) + "."
            nested = [h for h in row.columns if h.startswith(prefix)]
            if len(nested) == 1:
                column, header = row.columns[nested[0]], nested[0]
        self.cells.append(Cell(row.sheet, row.row, column, header))
        return _TOKEN_BASE + len(self.cells) - 1

    def locate(self, problem: Problem) -> Problem:
        if problem.file != self.display:
            return problem
        if problem.line is not None and problem.line >= _TOKEN_BASE:
            where = self.cells[problem.line - _TOKEN_BASE].where(self.display)
            return Problem(problem.message, where, problem.item, problem.field, None, problem.severity)
        return problem


@dataclass
class SheetOptions:
    """How deck.yaml says to read one card file (see :class:`cardforge.data.models.CardFile`)."""

    #: the file's kind (deck.yaml's ``kind:`` for it), for sheets no kind column or name decides
    kind: str | None = None
    #: the file's own header → card field
    columns: Mapping[str, str] = field(default_factory=dict)
    #: kind → the field that is its cards' title (when it is not ``name``)
    titles: Mapping[str, str] = field(default_factory=dict)
    #: ids already taken in the game (earlier files): derived ids avoid them
    taken: Container[str] = ()
    #: how deck.yaml names the file's entry, for messages (``deck.yaml › card_files[2]``)
    entry: str = "deck.yaml"


def load_card_file(path: Path, load: Callable[[Any], list[Problem]], *, models: Mapping[str, type[BaseModel]],
                   sources: dict[str, CardSource] | None = None, require_provenance: bool = False,
                   inside: Path | None = None, options: SheetOptions | None = None) -> list[Problem]:
    """Read one card file (YAML, CSV or XLSX, by its suffix) and hand it to ``load`` (the YAML
    path's card loader, which validates the raw cards); returns the problems, located.
    ``inside``: the game folder, which the file must obey the rule of
    (:func:`cardforge.paths.regular_inside`: inside it, a regular file, of a bounded size)."""
    if not is_spreadsheet(path):
        doc = read_yaml(path, inside=inside)
        problems = list(doc.problems)
        if doc.data is not None:
            problems += load(doc)
            if require_provenance:
                problems += _missing_provenance(doc)
        return problems
    if inside is not None:  # checked before anything opens it: a FIFO would block, a link lead out
        rel = os.path.relpath(os.path.abspath(path), os.path.abspath(inside))
        refused = regular_inside(inside, rel, "card file", max_bytes=limit("game_file_bytes"),
                                 variable=env_name("game_file_bytes"), file=display_path(path))[1]
        if refused is not None:
            return [refused]
    options = options or SheetOptions()
    if sources is not None and not options.taken:
        options.taken = sources
    sheet = read_sheet(path, models, options)
    problems = [sheet.locate(p) for p in sheet.problems]
    if sheet.data is None:
        return problems
    problems += [sheet.locate(p) for p in load(sheet)]
    if require_provenance:
        problems += [sheet.locate(p) for p in _missing_provenance(sheet)]
    for src in (sources or {}).values():  # where each card of this file is, for later messages
        if src.file == sheet.display and src.line is not None and src.line >= _TOKEN_BASE:
            cell = sheet.cells[src.line - _TOKEN_BASE]
            src.file, src.line = Cell(cell.sheet, cell.row).where(sheet.display), None
    return problems


def _missing_provenance(doc: LocatedDoc) -> list[Problem]:
    """``require_provenance: true`` in deck.yaml: every card says where it comes from."""
    data: Any = doc.data
    defaults: dict[str, Any] = {}
    prefix: Loc = ()
    if isinstance(data, dict):
        given = data.get("defaults")
        defaults = given if isinstance(given, dict) else {}
        data, prefix = data.get("cards"), ("cards",)
    out = []
    for i, raw in enumerate(data if isinstance(data, list) else [], start=1):
        if isinstance(raw, dict) and {**defaults, **raw}.get("provenance") is None:
            ident = raw.get("id")
            item = f"card '{ident}' (#{i})" if isinstance(ident, str) else f"card #{i}"
            out.append(Problem("required field is missing (deck.yaml has require_provenance: true; "
                               "allowed: rulebook, provisional)", file=doc.display, item=item,
                               field="provenance", line=doc.line_of(prefix + (i - 1,))))
    return out


class _SheetError(Exception):
    """A spreadsheet that cannot be read (``where``: the file, or a cell of it)."""

    def __init__(self, message: str, where: Cell | None = None):
        super().__init__(message)
        self.message, self.where = message, where


def read_sheet(path: Path, models: Mapping[str, type[BaseModel]], options: SheetOptions | None = None) -> SheetDoc:
    """A CSV or XLSX card file → raw cards (see the module's docstring)."""
    path = Path(path)
    display = display_path(path)
    doc = SheetDoc(path, display, None)
    is_xlsx = path.suffix.lower() == ".xlsx"
    blob, problem = read_bytes(path, display, "sheet_file_bytes")
    if problem is not None or blob is None:
        doc.problems.append(problem or Problem("cannot read the file", file=display))
        return doc
    try:
        tables = _read_xlsx(blob) if is_xlsx else [(None, _read_csv(blob, display))]
    except _SheetError as exc:
        what = "an .xlsx workbook" if is_xlsx else "a CSV file"
        where = exc.where.where(display) if exc.where is not None else display
        doc.problems.append(Problem(f"cannot read it as {what}: {exc.message}", file=where))
        return doc
    options = options or SheetOptions()
    default_kind = options.kind or _kind_named(path.stem, models) or (next(iter(models)) if len(models) == 1 else None)
    raws: list[dict[str, Any]] = []
    derived = False
    ids: dict[str, str | None] = {}  # derived id → its kind, in this file
    used: set[str] = set()  # the column map's headers found
    for sheet, rows in tables:
        kind = (_kind_named(sheet, models) if sheet is not None else None) or default_kind
        derived |= _read_table(doc, sheet, rows, kind, models, raws, ids, options, used)
    for header in options.columns:
        if header not in used:
            doc.problems.append(Problem(
                f"columns: no header {header!r} in {display} (a column map names the file's own headers)",
                file=options.entry, field=f"columns.{header}"))
    if derived:
        doc.problems.append(Problem(
            "no 'id' column: ids are derived from the names (or the title field: slug; the kind as prefix when another "
            "kind or file has it; cards sharing a name add a digest of their content, so deleting a row renames no "
            "other card); renaming such a card reads as one card "
            "removed and one added in diffs and reprints: add an 'id' column to keep them",
            file=display, severity="warning"))
    doc.data = raws
    return doc


def normalise_header(text: str) -> str:
    """A header or field name as headers are matched: the one rule for names
    (:func:`cardforge.data.names.fold`: ``Coût total`` → ``cout_total``)."""
    from cardforge.data.names import fold

    return fold(text)


def _kind_named(name: str, models: Mapping[str, type[BaseModel]]) -> str | None:
    """The kind ``name`` (a sheet's or file's name) names, ignoring case and accents."""
    if name in models:
        return name
    wanted = normalise_header(name)
    found = [k for k in models if normalise_header(k) == wanted]
    return found[0] if len(found) == 1 else None


#: a sheet's rows with content: (row number, {column: value}); blank cells are left out
Rows = list[tuple[int, dict[int, Any]]]
#: characters that make a spreadsheet program read a cell as a formula (OWASP, "CSV injection")
FORMULA_TRIGGERS = ("=", "+", "-", "@", "\t", "\r")


def _escaped(text: str) -> bool:
    """Whether a cell's text carries cardforge's leading ``'`` (see :func:`escape_cell`)."""
    return text[:1] == "'" and (text[1:2] in FORMULA_TRIGGERS or text[1:2] in ("'", "{") or not text[1:].strip())


class Escaped(str):
    """A cell's text that carried the leading ``'``: a text as it is (``'{a: 1}`` in a text
    field is the text ``{a: 1}``, not a mapping read from the cell)."""

    __slots__ = ()


class MapLike(str):
    """A text field's value that a cell would read as a mapping (``{power: 3}``): written with
    the leading ``'`` (:func:`escape_cell`), so it reads back as the text it is."""

    __slots__ = ()


def escape_cell(text: str, csv_file: bool) -> str:
    """A text as a cell. A leading ``'`` is added, as spreadsheet programs do (and OWASP's
    CSV-injection guidance asks), when the text would otherwise be misread: in a CSV file, text
    starting with a formula trigger (``= + - @``, tab, carriage return) and not a plain number;
    in any file, text that is empty or only spaces (a blank cell is "not given") or that itself
    looks escaped. :func:`unescape_cell` takes exactly that ``'`` away."""
    if (csv_file and text[:1] in FORMULA_TRIGGERS and not (_INT.match(text) or _FLOAT.match(text))) \
            or not text.strip() or _escaped(text) or isinstance(text, MapLike):
        return "'" + text
    return str(text)


def unescape_cell(text: str) -> str:
    """A cell's text without the leading ``'`` of :func:`escape_cell` (``'=1+1`` → ``=1+1``,
    ``'`` → an empty text, ``'  `` → two spaces); any other text as it is."""
    return Escaped(text[1:]) if _escaped(text) else text


def _content(values: Any) -> dict[int, Any]:
    """The row's non-blank cells, 1-based column → value (texts unescaped)."""
    out = {}
    for col, value in enumerate(values, start=1):
        if _blank(value):
            continue
        out[col] = unescape_cell(value) if isinstance(value, str) else value
    return out


def _delimiter(text: str) -> tuple[str, int]:
    """The CSV file's separator and how many characters to skip: Excel's ``sep=;`` first line,
    else the most frequent of ``,`` ``;`` tab outside quotes in the header line (``,`` on a tie
    or when there is none): a French Excel or LibreOffice writes ``;``."""
    first = re.match(r"sep=([,;\t|])[ \t]*(\r\n|\r|\n|$)", text)
    if first:
        return first.group(1), first.end()
    counts = {",": 0, ";": 0, "\t": 0}
    quoted = False
    for ch in text[:limit("csv_line_chars")]:
        if ch == '"':
            quoted = not quoted
        elif not quoted:
            if ch in counts:
                counts[ch] += 1
            elif ch in "\r\n":
                break
    best = max(counts.values())
    return (next(d for d, n in counts.items() if n == best) if best else ","), 0


def _read_csv(blob: bytes, display: str) -> Rows:
    text, problem = decode(blob, display)
    if text is None:
        why = problem.message if problem else "not UTF-8 text"
        line = f" (line {problem.line})" if problem and problem.line else ""
        raise _SheetError(why.replace("; save the file as UTF-8", "") + line
                          + "; save it as UTF-8 (Excel: \"CSV UTF-8\"; LibreOffice: character set Unicode UTF-8)")
    delimiter, skip = _delimiter(text)
    max_line, max_cols, max_text = limit("csv_line_chars"), limit("sheet_columns"), limit("sheet_cell_chars")
    max_content, max_cells = limit("cards_per_deck"), limit("sheet_cells")
    cells = 0
    lines = io.StringIO(text[skip:], newline="")
    number = 0

    def checked() -> Any:
        for n, line in enumerate(lines, start=1):
            if len(line) > max_line:
                raise _SheetError(f"line {n} has {len(line):,} characters, "
                                  + at_most("csv_line_chars", " characters in a line"))
            yield line

    rows: Rows = []
    previous = csv.field_size_limit(max_text)
    try:
        reader = csv.reader(checked(), delimiter=delimiter, quotechar='"', doublequote=True, strict=False)
        for number, record in enumerate(reader, start=1):
            values = _content(record)
            if not values:
                continue
            if max(values) > max_cols:
                raise _SheetError(f"{len(record):,} columns, " + at_most("sheet_columns", " columns"),
                                  Cell(None, number, max(values)))
            rows.append((number, values))
            cells += len(values)
            if cells > max_cells:  # before the rows' limit: 10,000 rows of 1,000 cells take ~1.2 GB
                raise _SheetError(f"more than {max_cells:,} cells with content: "
                                  + at_most("sheet_cells", " cells with content in a card file"), Cell(None, number))
            if len(rows) > max_content:
                raise _SheetError(f"more than {max_content:,} rows with content (each is a card): "
                                  + at_most("cards_per_deck", " cards in a game"), Cell(None, number))
    except csv.Error as exc:
        if "field larger than field limit" in str(exc):
            raise _SheetError(f"a field longer than {max_text:,} characters (set {env_name('sheet_cell_chars')} to "
                              "allow more)", Cell(None, number + 1)) from None
        raise _SheetError(f"{exc} (line {reader.line_num})", Cell(None, number + 1)) from None
    finally:
        csv.field_size_limit(previous)
    return rows


def _read_xlsx(blob: bytes) -> list[tuple[str | None, Rows]]:
    from cardforge.data.xlsx import XlsxError, read_workbook

    try:
        sheets = read_workbook(blob, skip=lambda name: name.startswith("_"))
    except XlsxError as exc:
        where = Cell(exc.sheet, exc.row, exc.column) if exc.row is not None else None
        raise _SheetError(exc.message, where) from None
    except Exception as exc:  # a damaged archive: zipfile's and zlib's errors have no common type
        # (BadZipFile, zlib.error, struct.error, EOFError, NotImplementedError, RuntimeError…)
        raise _SheetError(f"the archive is damaged ({str(exc)[:200] or type(exc).__name__})") from None
    return [(s.name, [(r, {c: unescape_cell(v) if type(v) is str else v for c, v in values.items()})
                      for r, values in s.rows]) for s in sheets]


def _blank(value: Any) -> bool:
    return value is None or (isinstance(value, str) and not value.strip())


def _read_table(doc: SheetDoc, sheet: str | None, rows: Rows, kind: str | None,
                models: Mapping[str, type[BaseModel]], raws: list[dict[str, Any]], ids: dict[str, str | None],
                options: SheetOptions, used: set[str]) -> bool:
    """Append the cards of one sheet; returns whether ids were derived."""
    pending: list[tuple[dict[str, Any], str, str | None]] = []  # cards whose id is derived: (raw, slug, kind)
    display = doc.display
    if not rows:
        return False
    header_number, header_row = rows[0]
    headers = _header_fields(doc, sheet, header_number, header_row, kind, models, options, used)
    columns = {name: col for col, name in headers.items()}
    has_id = "id" in columns
    if kind is None and "kind" not in columns:
        _no_kind(doc, sheet, header_number, models)
        return False
    merged: dict[tuple[Any, ...], dict[str, Any]] = {}
    for r, values in rows[1:]:
        cells = {col: v for col, v in sorted(values.items()) if col in headers}
        stray = [col for col in sorted(values) if col not in headers and col not in header_row]
        if stray:  # one problem a row, not one a cell (a mutated file had 237,172 of them: 9 s to print)
            more = (f" (and {len(stray) - 1:,} more, up to column {column_letter(stray[-1])})"
                    if len(stray) > 1 else "")
            doc.problems.append(Problem(f"a value in a column without a header{more}: give the column a "
                                        "header, or clear it", file=Cell(sheet, r, stray[0]).where(display)))
        if not cells:
            continue
        raw, row_kind = _row_card(doc, sheet, r, cells, headers, columns, kind, models)
        copies = raw.pop("copies", None) if "copies" in raw else None
        key = tuple(sorted((k, repr(v)) for k, v in raw.items()))
        if key in merged:  # a repeated row: one more copy (or as many as its copies say)
            target = merged[key]
            extra = copies if isinstance(copies, int) else 1
            if isinstance(target.get("copies"), int):
                target["copies"] += extra
            else:
                target["copies"] = 1 + extra
            continue
        if copies is not None:
            raw["copies"] = copies
        if not has_id:
            title = options.titles.get(row_kind or "")
            text = raw.get("name") if raw.get("name") is not None or not title else raw.get(title)
            if isinstance(text, dict) and text:  # a language map in the cell: its first text names the card
                text = next(iter(text.values()))
            pending.append((raw, _slug(str(text)) if text is not None else "", row_kind))
        merged[key] = raw
        raws.append(raw)
        doc.rows.append(_Row(sheet, r, columns, raw))
    _derive_ids(pending, ids, options)
    return not has_id and bool(merged)


def _header_fields(doc: SheetDoc, sheet: str | None, header_number: int, header_row: dict[int, Any],
                   kind: str | None, models: Mapping[str, type[BaseModel]], options: SheetOptions,
                   used: set[str]) -> dict[int, str]:
    """The field each header names, by column (unknown and repeated ones: a problem each)."""
    display = doc.display
    headers: dict[int, str] = {}
    candidates = {kind: models[kind]} if kind else models
    allowed: list[str] = []
    for m in candidates.values():
        for name in _field_names(m):
            if name not in allowed:
                allowed.append(name)
    # a title field that is no field of the kind stands for name
    title_alias = {t for k, t in options.titles.items() if k in candidates and t not in allowed}
    by_norm: dict[str, str] = {normalise_header(a): a for a in allowed}
    by_norm.setdefault("qty", "copies")
    for t in title_alias:
        by_norm.setdefault(normalise_header(t), "name")
    mapped = {normalise_header(h): f for h, f in options.columns.items()}
    mapped_from = {normalise_header(h): h for h in options.columns}
    allowed_text = ", ".join(allowed + ["qty"] + sorted(title_alias))
    seen: dict[str, str] = {}  # field → the header that gave it
    for col, value in sorted(header_row.items()):
        written = _at_language(str(value).strip())
        cell = Cell(sheet, header_number, col, str(value).strip())
        if written in options.columns or normalise_header(written) in mapped:
            source = written if written in options.columns else mapped_from[normalise_header(written)]
            used.add(source)
            name = options.columns[source].strip()
            via = f" (columns: {source!r} → {name!r} in {options.entry})"
        else:
            name = _canonical(written, by_norm)
            via = ""
        top = name.split(".", 1)[0]
        if name in seen:
            again = (f"the column {written!r} appears twice" if seen[name] == written else
                     f"the column {written!r} gives the field {name!r} again (first: {seen[name]!r})")
            doc.problems.append(Problem(again + via, file=cell.where(display)))
            continue
        if top not in allowed:
            close = difflib.get_close_matches(top, allowed, n=1)
            hint = f"; did you mean '{close[0]}'?" if close else ""
            if not close and not via:
                hint = (f"; or map it in deck.yaml: card_files: [{{file: {doc.path.name}, "
                        f"columns: {{{written}: FIELD}}}}]")
            doc.problems.append(Problem(f"unknown field{via} (allowed: {allowed_text}){hint}",
                                        file=cell.where(display)))
            continue
        seen[name] = written
        headers[col] = name
    return headers


def _no_kind(doc: SheetDoc, sheet: str | None, header_number: int, models: Mapping[str, type[BaseModel]]) -> None:
    display = doc.display
    where = f"sheet {sheet!r} of {display}" if sheet is not None else display
    named = "its name" if sheet is not None else "the file's name"
    doc.problems.append(Problem(
        f"{where}: no kind for its cards ({named} names no card kind, and there is no 'kind' column; "
        f"kinds: {', '.join(models)}): give the file's kind in deck.yaml "
        f"(card_files: [{{file: {doc.path.name}, kind: {next(iter(models), 'KIND')}}}]), add a 'kind' "
        f"column, or name the {'sheet' if sheet is not None else 'file'} after its kind",
        file=Cell(sheet, header_number).where(display) if sheet is not None else display))


def _row_card(doc: SheetDoc, sheet: str | None, r: int, cells: dict[int, Any], headers: dict[int, str],
              columns: dict[str, int], kind: str | None, models: Mapping[str, type[BaseModel]]
              ) -> tuple[dict[str, Any], str | None]:
    """One row's card (its cells converted to its kind's fields; a problem per wrong cell), and its kind."""
    row_kind = cells.get(columns.get("kind", -1))
    row_kind = str(row_kind).strip() if row_kind is not None else kind
    if row_kind and row_kind not in models:  # `Action` for `action`: the one rule for names
        row_kind = _kind_named(row_kind, models) or row_kind
    model = models.get(row_kind) if row_kind else None
    raw: dict[str, Any] = {} if "kind" in columns or row_kind is None else {"kind": row_kind}
    for col, value in cells.items():
        name = headers[col]
        path = name.split(".")
        in_language = language_column(name)  # `name.en`: a text field's English (data/editions.py)
        if in_language is not None and _kind_of(_annotation_at(model, [in_language[0]])) == "text":
            path = [name]
        try:
            converted = _convert(value, _annotation_at(model, [in_language[0]] if len(path) == 1 and in_language
                                                       else path))
        except ValueError as exc:
            doc.problems.append(Problem(str(exc), file=Cell(sheet, r, col, name).where(doc.display)))
            continue
        _put(raw, path, converted)
    return raw, row_kind


def _derive_ids(pending: list[tuple[dict[str, Any], str, str | None]], ids: dict[str, str | None],
                options: SheetOptions) -> None:
    """Ids from content, not row numbers (issue 42): a title borne by one card is its id; cards
    sharing a title each add their content's digest, so deleting or moving a row never renames another."""
    shared = Counter(base or "card" for _, base, _ in pending)
    for raw, base, row_kind in pending:
        base = base or "card"
        digest = content_digest(raw)
        wanted = f"{base}-{digest}" if shared[base] > 1 else base
        derived = _derived_id(wanted, row_kind, ids, options.taken, digest)
        card = {"id": derived, **raw}
        raw.clear()
        raw.update(card)


#: hex digits of a card's content digest in a derived id (``goblin-3f9a2c``)
DIGEST_CHARS = 6


def content_digest(raw: Mapping[str, Any]) -> str:
    """A digest of what a card says (its fields but ``id`` and ``copies``), for derived ids:
    equal cards give equal digests whatever row they are on."""
    import hashlib
    import json

    said = {k: v for k, v in raw.items() if k not in ("id", "copies")}
    text = json.dumps(said, sort_keys=True, ensure_ascii=False, default=repr)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:DIGEST_CHARS]


def _at_language(header: str) -> str:
    """``name@fr`` (a column holding a text field in one language) → ``name.fr``, the form
    :func:`cardforge.data.editions.language_column` reads; any other header as it is."""
    m = re.match(r"^(?P<field>[^@.]+?)\s*@\s*(?P<lang>[A-Za-z]{2,3})$", header)
    return f"{m.group('field').strip()}.{m.group('lang').lower()}" if m else header


def _canonical(header: str, by_norm: Mapping[str, str]) -> str:
    """The field a header names (matched ignoring case and accents; a dotted header by its
    first part); the header as written when it names none (reported as unknown)."""
    top, dot, rest = header.partition(".")
    found = by_norm.get(normalise_header(top))
    return (found + dot + rest) if found is not None else header


def _derived_id(base: str, kind: str | None, ids: dict[str, str | None], taken: Container[str],
                digest: str = "") -> str:
    """A card's id from its title's slug, unique in the game: ``kind-slug`` when another kind in
    this file or an earlier file has the slug; the card's content digest added when a card of
    the same kind has it (``slug-3f9a2c``); numbered (``-2``…) only for cards saying the same."""
    base = base or "card"
    if (base in taken or (base in ids and ids[base] != kind)) and kind:
        base = f"{_slug(kind)}-{base}"
    if (base in taken or base in ids) and digest and not base.endswith(f"-{digest}"):
        base = f"{base}-{digest}"
    candidate, n = base, 1
    while candidate in taken or candidate in ids:
        n += 1
        candidate = f"{base}-{n}"
    ids[candidate] = kind
    return candidate


def _field_names(model: type[BaseModel]) -> list[str]:
    return [info.alias or name for name, info in model.model_fields.items()]


def _slug(name: Any) -> str:
    if not isinstance(name, str):
        return ""
    text = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode("ascii").lower()
    return re.sub(r"[^a-z0-9]+", "-", text).strip("-")


def _put(raw: dict[str, Any], path: list[str], value: Any) -> None:
    for part in path[:-1]:
        nxt = raw.get(part)
        if not isinstance(nxt, dict):
            nxt = raw[part] = {}
        raw = nxt
    raw[path[-1]] = value


# --- types ----------------------------------------------------------------------------------------
def _strip(annotation: Any) -> list[Any]:
    """The alternatives of ``annotation`` (Optional, unions and Annotated unwrapped)."""
    origin = typing.get_origin(annotation)
    if origin is typing.Annotated:
        return _strip(typing.get_args(annotation)[0])
    if origin is typing.Union or (origin is not None and str(origin) == "<class 'types.UnionType'>"):
        out = []
        for a in typing.get_args(annotation):
            if a is not type(None):
                out += _strip(a)
        return out

    if isinstance(annotation, types.UnionType):
        return [x for a in typing.get_args(annotation) if a is not type(None) for x in _strip(a)]
    return [annotation]


def _annotation_at(model: type | None, path: list[str]) -> Any:
    """The annotation of the field at ``path`` in ``model`` (None when it cannot be told)."""
    current: Any = model
    for part in path:
        options = _strip(current) if current is not None else []
        models = [o for o in options if isinstance(o, type) and hasattr(o, "model_fields")]
        if len(options) != 1 or not models:
            return None
        fields = {info.alias or name: info for name, info in models[0].model_fields.items()}
        info = fields.get(part)
        if info is None:
            return None
        current = info.annotation
    return current


def _kind_of(annotation: Any) -> str | None:
    """'text' (only text allowed), 'list', or None (anything: read the cell's own type)."""
    if annotation is None:
        return None
    options = _strip(annotation)
    if all(o is str or (typing.get_origin(o) is typing.Literal
                        and all(isinstance(a, str) for a in typing.get_args(o))) for o in options):
        return "text"
    if len(options) == 1 and typing.get_origin(options[0]) in (list, tuple, set, frozenset):
        return "list"
    return None


_SPECIAL_FLOATS = {".inf": math.inf, "+.inf": math.inf, "-.inf": -math.inf, ".nan": math.nan}


def _scalar(text: str) -> Any:
    t = text.strip()
    if _INT.match(t) and len(t) <= 4000:  # longer: text (Python refuses to read past 4,300 digits)
        return int(t)
    if _FLOAT.match(t):
        return float(t)
    if t.lower() in _SPECIAL_FLOATS:
        return _SPECIAL_FLOATS[t.lower()]
    if t.lower() in _TRUE:
        return True
    if t.lower() in _FALSE:
        return False
    return text


def _flow(text: str) -> Any:
    """A cell written as a YAML flow value (``[a, b]``, ``{key: value}``, a quoted text), read by
    cardforge's hardened YAML reader: the same limits on nesting, aliases and tags as a file."""
    doc = parse_text(text, "cell")
    if doc.problems:
        what = doc.problems[0].message.removeprefix("invalid YAML: ")
        raise ValueError(f"cannot read {text[:60]!r}{'…' if len(text) > 60 else ''} as a YAML flow value "
                         f"({what}); write a list as 'a; b' or [a, b] and a mapping as {{key: value, …}}")
    return doc.data


def _convert(value: Any, annotation: Any) -> Any:
    from cardforge.data.xlsx import CellError

    if isinstance(value, CellError):
        raise ValueError(f"the cell shows the error {value} (a formula that failed): fix the formula "
                         "or type the value")
    kind = _kind_of(annotation)
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    literal = isinstance(value, Escaped)
    if literal:
        value = str(value)
    if kind == "text":
        if isinstance(value, bool):
            return "true" if value else "false"
        if isinstance(value, str) and not literal and _looks_like_map(value):
            return _text_map(value.strip())
        return _text(value if isinstance(value, str) else str(value))
    if not isinstance(value, str):
        if hasattr(value, "isoformat"):
            raise ValueError(f"a date or time ({value}) where a number or text was expected; "
                             "format the cell as text")
        return value
    stripped = value.strip()
    if stripped[:1] in ("[", "{", "'", '"'):
        return _flow(stripped)  # (each text in it bounded by the YAML reader)
    if kind == "list":
        return [_scalar(_text(v.strip())) for v in stripped.split(LIST_SEPARATOR) if v.strip()]
    return _scalar(_text(value))


def _looks_like_map(text: str) -> bool:
    stripped = text.strip()
    return stripped[:1] == "{" and stripped[-1:] == "}"


def reads_as_map(text: str) -> bool:
    """Whether a text field's cell holding ``text`` would be read as a mapping (a language map,
    or a mapping refused) rather than as the text itself."""
    if not _looks_like_map(text):
        return False
    try:
        return _text_map(text.strip()) != text.strip()
    except ValueError:
        return True


def _text_map(text: str) -> str | dict[str, Any]:
    """A text cell written as a YAML mapping (issue 42): a language map (``{en: Merchant, fr:
    Marchand}``, as in a YAML card file) is read as one, so it is never printed with its braces;
    any other mapping with values is an error saying how to write languages; text that is no
    mapping (``{X}``, ``{{ x }}``) stays text."""
    from cardforge.data.editions import is_multilingual

    try:
        parsed = _flow(text)
    except ValueError:
        return _text(text)
    if not isinstance(parsed, dict) or all(v is None for v in parsed.values()):
        return _text(text)
    if is_multilingual(parsed):
        for v in parsed.values():
            _text(str(v))
        return {k: str(v) for k, v in parsed.items()}
    raise ValueError(f"a text cell holding a mapping ({text[:60]!r}{'…' if len(text) > 60 else ''}): a text field "
                     "takes a text, or one text per language as {en: …, fr: …} (keys: language codes such as "
                     "en, fr); or give each language its own column: name@en, name@fr")


def _text(text: str) -> str:
    """A text of a cell within ``text_chars``, as a YAML file's texts are (a cell itself may be
    longer: a list or mapping written in one cell holds several texts)."""
    most = limit("text_chars")
    if len(text) > most:
        raise ValueError(f"a text of {len(text):,} characters, " + at_most("text_chars", " characters"))
    return text


# --- writing ------------------------------------------------------------------------------------
def card_row(card: BaseModel) -> dict[str, Any]:
    """A card's cells: dotted header → value (what its data gives; defaults left out)."""
    data = card.model_dump(mode="json", exclude_unset=True, by_alias=True)
    model = type(card)
    out: dict[str, Any] = {}
    for key, value in data.items():
        _flatten(out, [key], value, model)
    return out


def _flatten(out: dict[str, Any], path: list[str], value: Any, model: type[BaseModel]) -> None:
    annotation = _annotation_at(model, path)
    kind = _kind_of(annotation)
    name = ".".join(path)
    if value is None:
        return
    if isinstance(value, dict) and value and all(isinstance(k, str) and k and "." not in k for k in value):
        for k, v in value.items():
            _flatten(out, path + [k], v, model)
        return
    if isinstance(value, (dict, list)):
        simple = (kind == "list" and value and all(
            isinstance(v, (str, int, float)) and not isinstance(v, bool)
            and _scalar(str(v)) == v and LIST_SEPARATOR not in str(v) and str(v).strip() == str(v) != ""
            and str(v)[:1] not in ("[", "{", "'", '"') for v in value))  # (an empty item: flow syntax)
        out[name] = f"{LIST_SEPARATOR} ".join(str(v) for v in value) if simple else _dump_flow(value)
        return
    if isinstance(value, str) and kind != "text":
        if _scalar(value) != value or type(_scalar(value)) is not str or value[:1] in ("[", "{", "'", '"') \
                or value.strip() != value or not value.strip():
            out[name] = _dump_flow(value)
            return
    if isinstance(value, str) and kind == "text" and reads_as_map(value):
        out[name] = MapLike(value)  # written '{…}: read back as this text (escape_cell)
        return
    out[name] = value


def _dump_flow(value: Any) -> str:
    import yaml

    text: str = yaml.safe_dump(value, default_flow_style=True, allow_unicode=True, width=1 << 30, sort_keys=False)
    text = text.strip()
    if text.endswith("\n..."):
        text = text[:-4].strip()
    elif text.endswith("..."):
        text = text[:-3].strip()
    return text


def column_letter(n: int) -> str:
    out = ""
    while n:
        n, r = divmod(n - 1, 26)
        out = chr(65 + r) + out
    return out


@dataclass
class Table:
    name: str  # sheet name (or the CSV's stem)
    headers: list[str]
    rows: list[list[Any]]


def tables_for(cards: list[CardBase], with_kind: bool) -> Table:
    rows = [card_row(c) for c in cards]
    headers: list[str] = ["id"] + (["kind"] if with_kind else [])
    for r in rows:
        r.pop("kind", None) if not with_kind else None
        for h in r:
            if h not in headers:
                headers.append(h)
    lead = [h for h in ("id", "kind", "name", "copies", "provenance") if h in headers]
    headers = lead + [h for h in headers if h not in lead]
    if with_kind:
        for r, c in zip(rows, cards):
            r["kind"] = c.kind
    return Table("", headers, [[r.get(h) for h in headers] for r in rows])


def split_by_kind(cards: list[CardBase]) -> list[list[CardBase]]:
    """Runs of cards of one kind, in order; a workbook gets one sheet per run when each kind
    makes one run (the data order is the print order, and sheets are read in order)."""
    runs: list[list[CardBase]] = []
    for c in cards:
        if runs and runs[-1][0].kind == c.kind:
            runs[-1].append(c)
        else:
            runs.append([c])
    return runs


def _special_float(value: Any) -> str | None:
    """YAML's spelling of a float a cell cannot hold as a number (``.inf``, ``-.inf``, ``.nan``)."""
    if isinstance(value, float) and not math.isfinite(value):
        return ".nan" if math.isnan(value) else (".inf" if value > 0 else "-.inf")
    return None


def _csv_cell(value: Any) -> Any:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return escape_cell(value, csv_file=True)
    return _special_float(value) or value


def write_csv(path: Path, table: Table) -> None:
    """One CSV file (UTF-8, ``,``, quotes doubled), inert: no cell starts with a formula
    trigger (see :func:`escape_cell`); :func:`read_sheet` reads back every value exactly."""
    lines = [",".join(_csv_field(_csv_cell(h)) for h in table.headers)]
    lines += [",".join(_csv_field(_csv_cell(v)) for v in row) for row in table.rows]
    Path(path).write_bytes(("\n".join(lines) + "\n").encode("utf-8"))


def _csv_field(value: Any) -> str:
    """RFC 4180: a field holding a comma, a quote, a line feed or a carriage return is quoted,
    its quotes doubled (Python's csv module leaves a lone carriage return unquoted when lines
    end with a line feed, and a reader then splits the record there)."""
    text = str(value)
    if any(ch in text for ch in ',"\r\n'):
        return '"' + text.replace('"', '""') + '"'
    return text


#: the most characters a workbook's cell holds (Excel's limit; openpyxl cuts a longer text short)
XLSX_CELL_CHARS = 32_767


def _xlsx_cell(ws: Any, row: int, column: int, value: Any) -> str | None:
    """A cell of the type of its value; a text always a text cell (never a formula, whatever
    it starts with), escaped as OOXML and :func:`escape_cell` say. Returns why the value cannot
    be written (a text longer than a cell holds), else None."""
    from cardforge.data.xlsx import escape

    if value is None:
        return None
    special = _special_float(value)
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 2 ** 53:
        special = str(value)  # past a double's exact integers: a spreadsheet would round it
    elif isinstance(value, float) and special is None and float("%.16g" % value) != value:
        special = repr(value)  # openpyxl writes 16 digits; the 17th of this float would be lost
    cell = ws.cell(row=row, column=column)
    if isinstance(value, str) or special is not None:
        text = escape(escape_cell(special or value, csv_file=False))
        if len(text) > XLSX_CELL_CHARS:
            return (f"{len(text):,} characters in one cell, more than an .xlsx cell holds "
                    f"({XLSX_CELL_CHARS:,}): export as csv")
        cell.value = text
        cell.data_type = "s"
    else:
        cell.value = value
    return None


def write_xlsx(path: Path, tables: list[Table]) -> None:
    """A workbook with one sheet per table, the same bytes for the same tables (fixed times)."""
    import openpyxl
    from openpyxl.styles import Font

    wb = openpyxl.Workbook()
    wb.remove(wb.active)
    stamp = datetime.datetime(2000, 1, 1)
    wb.properties.created = stamp
    wb.properties.modified = stamp
    wb.properties.creator = "cardforge"
    bold = Font(bold=True)
    too_long: list[Problem] = []
    for t in tables:
        ws = wb.create_sheet(t.name[:31])
        for c, h in enumerate(t.headers, start=1):
            _xlsx_cell(ws, 1, c, h)
            ws.cell(row=1, column=c).font = bold
        id_col = t.headers.index("id") if "id" in t.headers else None
        for r, row in enumerate(t.rows, start=2):
            for c, value in enumerate(row, start=1):
                why = _xlsx_cell(ws, r, c, value)
                if why:
                    card = row[id_col] if id_col is not None else None
                    too_long.append(Problem(why, file=Path(path).name, item=f"card '{card}'" if card else None,
                                            field=t.headers[c - 1]))
        ws.freeze_panes = "A2"
        for i, h in enumerate(t.headers, start=1):
            ws.column_dimensions[column_letter(i)].width = max(8, min(40, len(h) + 2))
    if too_long:
        raise DataError(f"cannot write {Path(path).name}", too_long)
    buf = io.BytesIO()
    wb.save(buf)
    # openpyxl stamps each zip entry with the current time, and the core properties' "modified"
    # with now: both are fixed so that the same cards give the same bytes
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(buf.getvalue())) as src, \
            zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
        for info in src.infolist():
            data = src.read(info.filename)
            if info.filename == "docProps/core.xml":
                data = re.sub(rb"(<dcterms:modified[^>]*>)[^<]*(<)", rb"\g<1>2000-01-01T00:00:00Z\2", data)
            zi = zipfile.ZipInfo(info.filename, FIXED_TIME)
            zi.compress_type = zipfile.ZIP_DEFLATED
            zi.external_attr = 0o600 << 16
            dst.writestr(zi, data)
    Path(path).write_bytes(out.getvalue())
