"""Back designs declared in card data: ``back_files:`` in the deck (a CSV or XLSX like Squib's
``card_back.csv``), one row per back design.

A row: ``id`` (else derived from ``name``), the fields of a back in deck.yaml (``layout``,
``title``, ``colour`` or ``color``, ``art``) and ``kind`` (the card kinds, comma-separated, whose
back it is, unless a kind names another). Every other column is the back's own data, read by
back layouts as ``back.<column>`` (``back.fields`` holds them all). A card picks a back of its own
with its ``back`` column. Headers are matched case-insensitively. Designs named in deck.yaml's
``backs:`` and in a file are the same namespace: an id given twice is an error.
"""

from __future__ import annotations

import difflib
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from cardforge.data.models import BackSpec
from cardforge.data.spreadsheet import Cell, Rows, _read_csv, _read_xlsx, _SheetError, _slug
from cardforge.data.validate import validate
from cardforge.data.yamlio import read_bytes
from cardforge.paths import path_problem
from cardforge.problems import Problem
from cardforge.resources import display_path

if TYPE_CHECKING:
    from cardforge.data.models import DeckMeta

#: the columns that are a back's own settings (the rest is its data)
SETTINGS = {"id": "id", "name": "name", "layout": "layout", "title": "title", "colour": "colour",
            "color": "colour", "art": "art", "kind": "kind", "kinds": "kind"}


class _Located(Protocol):
    display: str

    def line_of(self, loc: tuple[Any, ...]) -> int | None: ...


def load_back_files(folder: Path, meta: DeckMeta, meta_doc: _Located) -> tuple[DeckMeta, list[Problem]]:
    """``meta`` with ``back_files`` read into its ``backs`` (and the kinds' ``back``), a copy
    (the deck given in game.yaml is the game's own object); the problems found."""
    written = set(meta.backs) if "backs" in meta.model_fields_set else set()  # deck.yaml's own
    meta = meta.model_copy(update={"backs": dict(meta.backs), "kinds": dict(meta.kinds)})
    backs = _Backs(meta, written)
    for i, name in enumerate(meta.back_files):
        read = _back_tables(folder, i, name, meta_doc, backs.problems)
        if read is None:
            continue
        display, tables = read
        for sheet, rows in tables:
            if not rows:
                continue
            _, header_row = rows[0]
            headers = {col: str(v).strip() for col, v in header_row.items() if str(v).strip()}
            for r, values in rows[1:]:
                backs.row(Cell(sheet, r), values, headers, display)
    return meta, backs.problems


def _back_tables(folder: Path, i: int, name: str, meta_doc: _Located, problems: list[Problem]
                 ) -> tuple[str, list[tuple[str | None, Rows]]] | None:
    """The tables of the back file ``name`` (the ``i``-th) and its name as shown; None when it
    cannot be read (a problem added)."""
    path, refused = path_problem(folder, name, "back file", file=meta_doc.display, field=f"back_files[{i}]",
                                 line=meta_doc.line_of(("back_files", i)))
    if path is None:
        problems.append(refused or Problem("cannot read it", file=meta_doc.display))
        return None
    display = display_path(path)
    suffix = path.suffix.lower()
    if suffix not in (".csv", ".xlsx"):
        problems.append(Problem(f"a back file is a .csv or .xlsx table (one row per back), got {name!r}; "
                                "backs written in YAML go in the deck's backs:", file=meta_doc.display,
                                field=f"back_files[{i}]", line=meta_doc.line_of(("back_files", i))))
        return None
    blob, problem = read_bytes(path, display, "sheet_file_bytes")
    if blob is None:
        problems.append(problem or Problem("cannot read the file", file=display))
        return None
    tables: list[tuple[str | None, Rows]]
    try:
        tables = _read_xlsx(blob) if suffix == ".xlsx" else [(None, _read_csv(blob, display))]
    except _SheetError as exc:
        spot = exc.where.where(display) if exc.where is not None else display
        problems.append(Problem(f"cannot read it as a table of backs: {exc.message}", file=spot))
        return None
    return display, tables


class _Backs:
    """The backs read so far into ``meta`` (a copy), and the problems found."""

    def __init__(self, meta: DeckMeta, written: set[str]) -> None:
        self.meta = meta
        self.written = written
        self.problems: list[Problem] = []
        self.declared_kinds = {k: spec.back for k, spec in meta.kinds.items()}
        self.claimed: dict[str, str] = {}  # kind → the back a file gave it

    def row(self, at: Cell, values: dict[int, Any], headers: dict[int, str], display: str) -> None:
        """One row of a back file: one back, and the kinds it is the back of."""
        problems, meta = self.problems, self.meta
        sheet, r = at.sheet, at.row
        settings: dict[str, Any] = {}
        data: dict[str, Any] = {}
        columns: dict[str, int] = {}
        for col, value in sorted(values.items()):
            header = headers.get(col)
            if header is None:
                problems.append(Problem("a value in a column without a header",
                                        file=Cell(sheet, r, col).where(display)))
                continue
            key = SETTINGS.get(header.lower())
            if key is None:
                data[header] = value
            else:
                settings[key] = str(value).strip() if value is not None else None
                columns[key] = col
        if not settings and not data:
            return
        row_where = at.where(display)
        back_id = settings.pop("id", None) or _slug(settings.get("name"))
        settings.pop("name", None)
        if not back_id:
            problems.append(Problem("a back needs an id (an 'id' column, or a 'name' to derive it from)",
                                    file=row_where))
            return
        kinds = [k.strip() for k in str(settings.pop("kind", "") or "").split(",") if k.strip()]
        spec, p = validate(BackSpec, {**settings, "fields": data}, file=row_where,
                           item=f"back '{back_id}'")
        problems += p
        if spec is None:
            return
        if back_id in self.written:
            problems.append(Problem(f"the back '{back_id}' is declared twice (in deck.yaml backs: "
                                    "or another row)", file=row_where, item=f"back '{back_id}'"))
            return
        meta.backs[back_id] = spec
        self.written.add(back_id)
        for kind in kinds:
            self.kind(kind, back_id, Cell(sheet, r, columns.get("kind"), "kind").where(display))

    def kind(self, kind: str, back_id: str, spot: str) -> None:
        """``back_id`` as the back of the cards of ``kind`` (unless it has one already)."""
        meta = self.meta
        if kind not in meta.kinds:
            close = difflib.get_close_matches(kind, list(meta.kinds), n=1)
            self.problems.append(Problem(
                f"unknown kind '{kind}' (kinds: {', '.join(meta.kinds) or 'none'})"
                + (f"; did you mean '{close[0]}'?" if close else ""), file=spot,
                item=f"back '{back_id}'"))
        elif self.declared_kinds.get(kind) or kind in self.claimed:
            other = self.declared_kinds.get(kind) or self.claimed[kind]
            self.problems.append(Problem(f"kind '{kind}' already has the back '{other}'", file=spot,
                                         item=f"back '{back_id}'"))
        else:
            self.claimed[kind] = back_id
            meta.kinds[kind] = meta.kinds[kind].model_copy(update={"back": back_id})
