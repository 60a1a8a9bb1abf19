"""Functions longer than 60 lines in the parts of cardforge that keep them short (issue 41):
``render/``, ``data/``, ``layout/``, ``text/``, ``cli/`` and the top-level modules.

    python bench/long_functions.py            # every function over the limit, longest first
    python bench/long_functions.py --all      # the whole package, not only those parts

A function may stay longer when its docstring says why, in a sentence that starts with
``Not split:`` (e.g. one flat table of options, or one state machine read top to bottom); those
are listed apart. The ones over the limit when this check was added are in :data:`KNOWN`, to be
split. Exits 1 when a function over the limit has no reason and is not known, or a known one
has grown (``tests/test_long_functions.py`` checks the same). Lines are counted from the ``def`` (decorators
left out) to the function's last line, docstring included.
"""

from __future__ import annotations

import argparse
import ast
import sys
from dataclasses import dataclass
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "cardforge"
LIMIT = 60
#: the folders kept short, and the top-level modules (``*.py``)
CHECKED = ("render", "data", "layout", "text", "cli", "*.py")
REASON = "Not split:"
#: the functions over the limit when this check was added (issue 41), with their length then:
#: to be split; one may shrink or go, none may grow, and no other may join them
KNOWN: dict[str, int] = {
    "cardforge/data/yamlio.py::_build": 133,
    "cardforge/data/spreadsheet.py::_read_table": 114,
    "cardforge/markup.py::parse": 114,
    "cardforge/data/backs.py::load_back_files": 90,
    "cardforge/data/loading.py::_load_cards": 89,
    "cardforge/cli/check.py::_check_one": 76,
    "cardforge/cli/export.py::export": 74,
    "cardforge/data/loading.py::check_game_data": 73,
    "cardforge/cli/build.py::run_build": 73,
    "cardforge/layout/boxes.py::LayoutLibrary._resolve_once": 67,
}


@dataclass(frozen=True)
class Long:
    path: str  # relative to the package's parent: cardforge/render/cards/decks.py
    name: str  # qualified: Class.method, outer.<locals>.inner
    line: int
    length: int
    reason: bool  # its docstring says why it is not split


def files(everything: bool = False) -> list[Path]:
    if everything:
        return sorted(PACKAGE.rglob("*.py"))
    out: list[Path] = []
    for part in CHECKED:
        out += sorted(PACKAGE.glob(part)) if part == "*.py" else sorted((PACKAGE / part).rglob("*.py"))
    return out


def long_functions(paths: list[Path], limit: int = LIMIT) -> list[Long]:
    """Every function of ``paths`` longer than ``limit`` lines, longest first."""
    found: list[Long] = []
    for path in paths:
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        rel = str(path.relative_to(PACKAGE.parent))
        _walk(tree, "", rel, limit, found)
    return sorted(found, key=lambda f: (-f.length, f.path, f.line))


def _walk(node: ast.AST, prefix: str, rel: str, limit: int, found: list[Long]) -> None:
    for child in ast.iter_child_nodes(node):
        if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
            name = prefix + child.name
            end = child.end_lineno or child.lineno
            length = end - child.lineno + 1
            if length > limit:
                doc = ast.get_docstring(child) or ""
                found.append(Long(rel, name, child.lineno, length, REASON in doc))
            _walk(child, name + ".<locals>.", rel, limit, found)
        elif isinstance(child, ast.ClassDef):
            _walk(child, prefix + child.name + ".", rel, limit, found)
        else:
            _walk(child, prefix, rel, limit, found)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--all", action="store_true", help="the whole package")
    parser.add_argument("--limit", type=int, default=LIMIT, help=f"longest allowed (default {LIMIT} lines)")
    args = parser.parse_args(argv)
    found = long_functions(files(args.all), args.limit)
    unexplained = [f for f in found if not f.reason]
    for f in unexplained:
        known = KNOWN.get(f"{f.path}::{f.name}")
        note = "" if known is None else f"  (known: {known})"
        print(f"{f.length:4} lines  {f.path}:{f.line}  {f.name}{note}")
    kept = [f for f in found if f.reason]
    if kept:
        print(f"\nkept whole, with a reason in the docstring ({len(kept)}):")
        for f in kept:
            print(f"{f.length:4} lines  {f.path}:{f.line}  {f.name}")
    new = not_allowed(found)
    print(f"\n{len(unexplained)} function(s) over {args.limit} lines without a reason, "
          f"{len(new)} of them new or grown")
    return 1 if new else 0


def not_allowed(found: list[Long]) -> list[Long]:
    """The long functions without a reason that are not in :data:`KNOWN`, or have grown since."""
    return [f for f in found if not f.reason and f.length > KNOWN.get(f"{f.path}::{f.name}", LIMIT)]


if __name__ == "__main__":
    sys.exit(main())
