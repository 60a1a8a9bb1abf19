"""cardforge's public game API: the one module a game's rules import.

A game's rules (``rules:`` in game.yaml: a ``rules.py``, a ``rules/`` package, or an installed
module) implement any of the hook specifications of :class:`GameHooks`: plain functions named
as the hooks (``@hookimpl`` optional), called by keyword, checked when the game loads — an
unknown hook is refused with the closest name, a hook whose parameters are not the spec's is
refused where it is defined. Everything a hook sees and returns is exported here, with the
helpers rules need (and pydantic's ``Field``, for the models' fields); every other module of
cardforge is private and may change.

The game author's guide, with a worked example: docs/game-api.md.
"""

from __future__ import annotations

from pydantic import Field

from cardforge import sheet
from cardforge.data.loading import GameData, Section
from cardforge.data.models import CardBase, Entry, Model, Slug
from cardforge.data.printables import Aid, Block, Board, IconName, build_blocks, build_board
from cardforge.games.contract import lazy_hooks
from cardforge.games.specs import GameHooks, hookimpl, hookspec
from cardforge.limits import limit
from cardforge.problems import Problem, plural, short_name, short_repr
from cardforge.resources import display_path
from cardforge.scores import Number, PlayerResult, ScoreResult, as_number, format_number

__all__ = [
    # the hooks: their specifications and the markers
    "GameHooks", "hookimpl", "hookspec",
    # a rules package's hooks imported from its submodules on first use (PEP 562)
    "lazy_hooks",
    # what a hook sees: the game's data, its card and section models
    "GameData", "Section", "CardBase", "Model", "Entry", "Slug", "Field",
    # what a hook returns: scores, problems, printables
    "ScoreResult", "PlayerResult", "Number", "Problem", "Board", "Aid", "Block", "IconName",
    # helpers
    "sheet", "build_board", "build_blocks", "as_number", "format_number", "plural", "short_name", "short_repr",
    "display_path", "limit",
]
