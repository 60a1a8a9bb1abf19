"""``cardforge.toml`` in a game folder: build settings a designer would otherwise retype.

```toml
[build]
paper = "letter"          # a4 | letter
orientation = "auto"      # portrait | landscape | auto
duplex = "short-edge"     # long-edge | short-edge | none
back_offset = "0.8,-0.5"  # mm, as measured with `cardforge calibrate`
bleed = "3mm"
gutter = "0"
margin = "8mm"
printer_margin = "4mm"    # what your printer cannot print (default 5 mm; 6.35 on Letter)
crop_marks = true
cut_lines = false
output = "output"         # relative to the game folder
playtest = "https://plays.example.org"   # a QR code to this server's score sheet (build --playtest)
```

What the command line gives wins; the file fills in only what it leaves at its default.
"""

from __future__ import annotations

import dataclasses
import os
import tomllib
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import Field, field_validator

from cardforge.data.models import Model
from cardforge.data.validate import validate
from cardforge.errors import DataError
from cardforge.limits import limit
from cardforge.paths import read_inside
from cardforge.problems import Problem, short_repr
from cardforge.resources import display_path
from cardforge.settings import PAPERS_MM
from cardforge.units import parse_length, to_mm

if TYPE_CHECKING:
    from cardforge.data.loading import GameSource
    from cardforge.settings import BuildSettings

PROJECT_FILE = "cardforge.toml"


def _mm(value: Any, allow_negative: bool = False) -> float:
    given = value if isinstance(value, (int, float)) and not isinstance(value, bool) else str(value)
    return round(to_mm(parse_length(given, allow_negative=allow_negative)), 4)


class BuildTable(Model):
    paper: str | None = None
    orientation: Literal["portrait", "landscape", "auto"] | None = None
    duplex: Literal["long-edge", "short-edge", "none"] | None = None
    back_offset: tuple[float, float] | None = None
    bleed: float | None = None
    gutter: float | None = None
    margin: float | None = None
    printer_margin: float | None = None
    crop_marks: bool | None = None
    cut_lines: bool | None = None
    output: str | None = None
    #: the sheet grid: at most this many columns and rows of cards a sheet (Squib's save_sheet)
    columns: Annotated[int, Field(strict=True, ge=1, le=100)] | None = None
    rows: Annotated[int, Field(strict=True, ge=1, le=100)] | None = None
    playtest: str | None = None  # build --playtest URL

    @field_validator("paper")
    @classmethod
    def _paper(cls, value: str | None) -> str | None:
        if value is not None and value not in PAPERS_MM:
            raise ValueError(f"unknown paper {value!r} (allowed: {', '.join(PAPERS_MM)})")
        return value

    @field_validator("playtest")
    @classmethod
    def _playtest(cls, value: str | None) -> str | None:
        from cardforge.settings import playtest_url_problem

        problem = playtest_url_problem(value) if value is not None else None
        if problem is not None:
            raise ValueError(problem)
        return value

    @field_validator("bleed", "gutter", "margin", "printer_margin", mode="before")
    @classmethod
    def _length(cls, value: Any) -> Any:
        return None if value is None else _mm(value)

    @field_validator("back_offset", mode="before")
    @classmethod
    def _offset(cls, value: Any) -> Any:
        if isinstance(value, str):
            parts = value.split(",")
            if len(parts) != 2:
                raise ValueError(f"expected 'X,Y' in mm, e.g. '0.8,-0.5', got {value!r}")
            return tuple(_mm(p.strip(), allow_negative=True) for p in parts)
        if isinstance(value, list) and len(value) == 2 and not any(isinstance(v, (bool, list, dict)) for v in value):
            return tuple(_mm(v, allow_negative=True) for v in value)  # [0.8, -0.5]: each a length, bounded
        return value


class ProjectFile(Model):
    build: BuildTable = BuildTable()


#: BuildTable field → (BuildSettings field, CLI parameter name)
_FIELDS = {
    "paper": ("paper", "paper"), "orientation": ("orientation", "orientation"), "duplex": ("duplex", "duplex"),
    "back_offset": ("back_offset_mm", "back_offset"), "bleed": ("bleed_mm", "bleed"),
    "gutter": ("gutter_mm", "gutter"), "margin": ("margin_mm", "margin"),
    "printer_margin": ("printer_margin_mm", "printer_margin"), "playtest": ("playtest_url", "playtest"),
    "columns": ("columns", "columns"), "rows": ("rows", "rows"),
}


def read_project(folder: Path) -> BuildTable | None:
    """The folder's ``cardforge.toml`` build table (None without a file); DataError if invalid."""
    path = Path(folder) / PROJECT_FILE
    if not os.path.lexists(path):
        return None
    shown = display_path(path)
    blob, problem = read_inside(folder, PROJECT_FILE, "build settings", max_bytes=limit("file_bytes"),
                                variable="CARDFORGE_LIMIT_FILE_BYTES", file=shown)
    if problem is not None or blob is None:
        raise DataError(f"{shown} cannot be read", [problem or Problem("cannot be read", file=shown)])
    try:
        raw = tomllib.loads(blob.decode("utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise DataError(f"{shown} is not valid TOML", [Problem(str(exc), file=shown)]) from None
    project, problems = validate(ProjectFile, raw, file=shown)
    if project is None or problems:
        raise DataError(f"{shown} has invalid build settings", problems)
    build: BuildTable | None = project.build
    return build


def settings_for(game: GameSource, settings: BuildSettings, given: set[str]) -> BuildSettings:
    """``settings`` with the game folder's ``cardforge.toml`` filling what the command line
    did not give (``given``: the CLI parameter names set on the command line)."""
    table = read_project(game.folder)
    if table is None:
        return settings
    changes: dict[str, Any] = {}
    for name, (target, param) in _FIELDS.items():
        value = getattr(table, name)
        if value is not None and param not in given:
            changes[target] = value
    if table.crop_marks is not None and "no_crop_marks" not in given:
        changes["crop_marks"] = table.crop_marks
    if table.cut_lines is not None and "cut_lines" not in given:
        changes["cut_lines"] = table.cut_lines
    if table.output is not None and "out_dir" not in given:
        changes["out_dir"] = output_folder(game.folder, table.output)
    return dataclasses.replace(settings, **changes) if changes else settings


def output_folder(folder: Path, output: str) -> Path:
    """Where ``cardforge.toml``'s ``output`` sends a build: inside the game's folder or the
    current folder (links resolved), nowhere else — a downloaded game must not make
    ``cardforge build`` write elsewhere; ``-o`` on the command line may. DataError otherwise."""
    resolved = (Path(folder) / output).resolve()
    roots = [Path(folder).resolve(), Path.cwd().resolve()]
    if any(resolved == r or resolved.is_relative_to(r) for r in roots):
        return resolved
    shown = display_path(Path(folder) / PROJECT_FILE)
    raise DataError(f"{shown} sends the build outside the game's folder", [Problem(
        f"output {short_repr(output)} is {resolved}: outside the game's folder and the current folder "
        "(allowed: a folder inside either; to build elsewhere, say so on the command line with -o)",
        file=shown, field="build.output")])
