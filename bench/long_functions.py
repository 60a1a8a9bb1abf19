"""Functions longer than 60 lines (issue 41), in the whole package (``cardforge/**``) and the
shipped games' rules (``card_data/*/rules/**``).

    python bench/long_functions.py            # every function over the limit, longest first
    python bench/long_functions.py --limit 40 # the same at another length

A function may stay longer when its docstring says why, in a sentence that starts with
``Not split:`` (e.g. one flat table of options, or one state machine read top to bottom); those
are listed apart. :data:`KNOWN` lists the ones allowed to stay over the limit without a reason
for now (none: every one was split), each with its length then. Exits 1 when a function over
the limit has no reason and is not known, or a known one has grown
(``tests/test_long_functions.py`` checks the same). Lines are counted from the ``def``
(decorators left out) to the function's last line, docstring included.
"""

from __future__ import annotations

import argparse
import ast
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "cardforge"
LIMIT = 60
#: what is checked, relative to the repository: the package and the shipped games' rules
CHECKED = ("cardforge/**/*.py", "card_data/*/rules/**/*.py")
REASON = "Not split:"
#: functions over the limit without a reason, allowed for now with their length then (path::name):
#: one may shrink or go, none may grow, and no other may join them
KNOWN: dict[str, int] = {}


@dataclass(frozen=True)
class Long:
    path: str  # relative to the repository: cardforge/render/cards/decks.py, card_data/x/rules/y.py
    name: str  # qualified: Class.method, outer.<locals>.inner
    line: int
    length: int
    reason: bool  # its docstring says why it is not split


def files() -> list[Path]:
    """Every Python file checked: :data:`CHECKED`, in order."""
    out: list[Path] = []
    for pattern in CHECKED:
        out += sorted(p for p in ROOT.glob(pattern) if p.is_file())
    return out


def long_functions(paths: list[Path], limit: int = LIMIT) -> list[Long]:
    """Every function of ``paths`` longer than ``limit`` lines, longest first."""
    found: list[Long] = []
    for path in paths:
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        rel = path.relative_to(ROOT).as_posix()
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
    parser.add_argument("--limit", type=int, default=LIMIT, help=f"longest allowed (default {LIMIT} lines)")
    args = parser.parse_args(argv)
    found = long_functions(files(), args.limit)
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
