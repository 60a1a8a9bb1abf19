"""Typed errors carrying problems. Only the CLI formats them and picks exit codes.

The library never subclasses click exceptions: the engine must not depend on the CLI.
"""

from __future__ import annotations

from collections.abc import Iterable

from cardforge.problems import Problem, plural


class CardforgeError(Exception):
    """Bad user input (data, setup, score file, build). ``exit_code`` 1."""

    exit_code = 1

    def __init__(self, title: str, problems: Iterable[Problem] = ()):
        self.title = title
        self.problems = list(problems)
        super().__init__(self.render())

    def render(self) -> str:
        errors = [p for p in self.problems if not p.is_warning]
        if not errors:
            return self.title
        head = f"{self.title} ({plural(len(errors), 'problem')}):"
        return "\n".join([head, *(f"  - {p}" for p in errors)])


class DataError(CardforgeError):
    """The game's card data (card_data/<game>/) is invalid."""


class SetupError(CardforgeError):
    """A setup request or a described deal breaks the rules."""


class ScoreInputError(CardforgeError):
    """A final-state file cannot be scored."""


class RenderError(CardforgeError):
    """A printable cannot be produced (text does not fit, missing art with --strict...)."""


class UnknownGameError(CardforgeError, LookupError):
    """A game id that is not registered. The CLI treats it as a usage error (exit 2)."""

    exit_code = 2

    def __init__(self, name: str, known: list[str], suggestion: str | None, message: str | None = None):
        self.name = name
        self.known = known
        self.suggestion = suggestion
        msg = message or f"unknown game '{name}' (known: {', '.join(known)}; or a folder with a game.yaml)"
        if suggestion:
            msg += f"; did you mean '{suggestion}'?"
        super().__init__(msg)


class OutputError(CardforgeError):
    """The output folder, a file in it or an output path cannot be used (a file where a folder
    must be, a folder or a device where a PDF goes, an unreadable manifest, another build
    writing the same folder…). Nothing was replaced."""


class ArtError(Exception):
    """An image that is missing or unreadable; the message says which and why. ``broken``: the
    file exists but cannot be used (an error, not a placeholder)."""

    def __init__(self, message: str, broken: bool = False):
        super().__init__(message)
        self.broken = broken


def reason(exc: BaseException) -> str:
    """An exception's message for a problem line: its text (or its type), cut at 80 characters."""
    text = str(exc).strip() or exc.__class__.__name__
    return text if len(text) < 80 else text[:77] + "…"
