"""Loading a user's YAML file (final state, described deal) into a game's model."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pydantic import BaseModel

from cardforge.data.validate import validate
from cardforge.data.yamlio import YamlDoc, parse_text, read_yaml
from cardforge.problems import Problem, short_name


def load_input(path: Path, model: type[BaseModel], with_lines: bool = False) -> Any:
    """Parse and validate; problems name the file, the line, the player and the field.
    Returns (value, problems); with ``with_lines`` also the file's ``line_of`` and its raw data."""
    return load_doc(read_yaml(Path(path), display=str(path)), model, with_lines)


def load_input_text(text: str, display: str, model: type[BaseModel], with_lines: bool = False) -> Any:
    """:func:`load_input` for a text already in memory (the web sheet's YAML box, stdin): the same
    hardened reader, no file written."""
    return load_doc(parse_text(text, display), model, with_lines)


def load_doc(doc: YamlDoc, model: type[BaseModel], with_lines: bool = False) -> Any:
    """A parsed document validated against ``model`` (see :func:`load_input`)."""
    if doc.data is None:
        problems = doc.problems or [Problem("the file is empty", file=doc.display)]
        return (None, problems, doc.line_of, None) if with_lines else (None, problems)
    value, problems = validate(model, doc.data, file=doc.display, line_of=doc.line_of)
    problems = doc.problems + [_name_item(p, doc.data) for p in problems]
    if with_lines:
        return value, problems, doc.line_of, doc.data
    return value, problems


def _name_item(problem: Problem, data: Any) -> Problem:
    """players[1].coins → item "player 'Ben' (#2)", field "coins"."""
    field = problem.field or ""
    if not isinstance(data, dict) or not field.startswith(("players[", "rounds[")):
        return problem
    head, _, rest = field.partition("]")
    key, _, idx = head.partition("[")
    try:
        index = int(idx)
        entry = data[key][index]
    except (ValueError, KeyError, IndexError, TypeError):
        return problem
    noun = key[:-1]
    name = entry.get("name") if isinstance(entry, dict) else None
    item = f"{noun} '{short_name(name)}' (#{index + 1})" if isinstance(name, str) else f"{noun} #{index + 1}"
    rest = rest.lstrip(".")
    return Problem(problem.message, file=problem.file, item=item, field=rest or None,
                   line=problem.line, severity=problem.severity)
