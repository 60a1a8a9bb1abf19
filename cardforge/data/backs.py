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
from cardforge.data.spreadsheet import Cell, _read_csv, _read_xlsx, _SheetError, _slug
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

    problems: list[Problem] = []
    declared_kinds = {k: spec.back for k, spec in meta.kinds.items()}
    claimed: dict[str, str] = {}  # kind → the back a file gave it
    for i, name in enumerate(meta.back_files):
        path, refused = path_problem(folder, name, "back file", file=meta_doc.display, field=f"back_files[{i}]",
                                     line=meta_doc.line_of(("back_files", i)))
        if path is None:
            problems.append(refused or Problem("cannot read it", file=meta_doc.display))
            continue
        display = display_path(path)
        suffix = path.suffix.lower()
        if suffix not in (".csv", ".xlsx"):
            problems.append(Problem(f"a back file is a .csv or .xlsx table (one row per back), got {name!r}; "
                                    "backs written in YAML go in the deck's backs:", file=meta_doc.display,
                                    field=f"back_files[{i}]", line=meta_doc.line_of(("back_files", i))))
            continue
        blob, problem = read_bytes(path, display, "sheet_file_bytes")
        if blob is None:
            problems.append(problem or Problem("cannot read the file", file=display))
            continue
        try:
            tables = _read_xlsx(blob) if suffix == ".xlsx" else [(None, _read_csv(blob, display))]
        except _SheetError as exc:
            spot = exc.where.where(display) if exc.where is not None else display
            problems.append(Problem(f"cannot read it as a table of backs: {exc.message}", file=spot))
            continue
        for sheet, rows in tables:
            if not rows:
                continue
            header_number, header_row = rows[0]
            headers = {col: str(v).strip() for col, v in header_row.items() if str(v).strip()}
            for r, values in rows[1:]:
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
                    continue
                row_where = Cell(sheet, r).where(display)
                back_id = settings.pop("id", None) or _slug(settings.get("name"))
                settings.pop("name", None)
                if not back_id:
                    problems.append(Problem("a back needs an id (an 'id' column, or a 'name' to derive it from)",
                                            file=row_where))
                    continue
                kinds = [k.strip() for k in str(settings.pop("kind", "") or "").split(",") if k.strip()]
                spec, p = validate(BackSpec, {**settings, "fields": data}, file=row_where,
                                   item=f"back '{back_id}'")
                problems += p
                if spec is None:
                    continue
                if back_id in written:
                    problems.append(Problem(f"the back '{back_id}' is declared twice (in deck.yaml backs: "
                                            "or another row)", file=row_where, item=f"back '{back_id}'"))
                    continue
                meta.backs[back_id] = spec
                written.add(back_id)
                for kind in kinds:
                    spot = Cell(sheet, r, columns.get("kind"), "kind").where(display)
                    if kind not in meta.kinds:
                        close = difflib.get_close_matches(kind, list(meta.kinds), n=1)
                        problems.append(Problem(
                            f"unknown kind '{kind}' (kinds: {', '.join(meta.kinds) or 'none'})"
                            + (f"; did you mean '{close[0]}'?" if close else ""), file=spot,
                            item=f"back '{back_id}'"))
                    elif declared_kinds.get(kind) or kind in claimed:
                        other = declared_kinds.get(kind) or claimed[kind]
                        problems.append(Problem(f"kind '{kind}' already has the back '{other}'", file=spot,
                                                item=f"back '{back_id}'"))
                    else:
                        claimed[kind] = back_id
                        meta.kinds[kind] = meta.kinds[kind].model_copy(update={"back": back_id})
    return meta, problems
