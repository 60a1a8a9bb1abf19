"""The playtest lab's options and view of a game's plays: what the lab page of ``cardforge
serve`` (``web/lab.py``) and ``cardforge report`` (the PDF, ``render/reports/lab_report.py``) both read,
checked the same way, from the same log — no web framework here.

The lab's own modules are imported inside the functions: ``cardforge.lab.view`` and the
statistics under it take 0.1–0.2 s to import (``python -X importtime``, a busy machine), which
the server's start and the play log's other pages do not need.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from cardforge.problems import Problem

if TYPE_CHECKING:
    from cardforge.lab.view import LabView

MAX_MIN_COUNT = 1000


@dataclass
class Options:
    version: str = ""
    pool: bool = False
    versus: tuple[str, str] | None = None
    min_count: int = 10


def options_problems(version: str | None, compare: str | None, min_count: str | int | None,
                     known: list[str | None]) -> tuple[Options, list[Problem]]:
    """The lab's options read and checked (the page's query, the report's options): the problems
    name the option and say what is allowed."""
    from cardforge.lab.stats import MIN_COUNT
    from cardforge.lab.versions import parse_selection

    problems: list[Problem] = []
    opts = Options(version or "", False, None, MIN_COUNT)
    _, problem = parse_selection(version)
    if problem is not None:
        problems.append(problem)
    if compare:
        opts.versus = _versus(compare, known, problems)
    if min_count not in (None, ""):
        try:
            value = int(str(min_count))
            if not 1 <= value <= MAX_MIN_COUNT:
                raise ValueError
            opts.min_count = value
        except ValueError:
            problems.append(Problem(f"a whole number from 1 to {MAX_MIN_COUNT}, got {str(min_count)[:20]!r}",
                                    field="--min-plays"))
    return opts, problems


def _versus(compare: str, known: list[str | None], problems: list[Problem]) -> tuple[str, str] | None:
    """The two versions of ``--compare`` (``OLD,NEW``), each with plays in the log; else None and
    the problem added to ``problems``."""
    from cardforge.lab.versions import label, normal

    parts = [normal(p) for p in compare.replace("..", ",").split(",") if p.strip()]
    have = [v for v in known if v is not None]
    if len(parts) != 2:
        problems.append(Problem(f"two versions, OLD,NEW (e.g. 0.2,0.3), got {compare[:40]!r}", field="--compare"))
        return None
    missing = [p for p in parts if p not in have]
    if missing:
        problems.append(Problem(f"no play of version {', '.join(missing)} in the log (versions: "
                                + (", ".join(label(v) for v in have) or "none recorded") + ")",
                                field="--compare"))
        return None
    return parts[0], parts[1]


def lab_view(store: Any, game: Any, data: Any, opts: Options) -> LabView:
    from cardforge.lab.versions import parse_selection
    from cardforge.lab.view import build_view

    selection, _ = parse_selection(opts.version)
    return build_view(game, data, store.lab_plays(game.id), store.decks(game.id), selection, opts.pool, opts.versus,
                      opts.min_count)
