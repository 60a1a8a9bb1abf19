"""The hook specifications of a game's rules, as pluggy specs (``HookspecMarker("cardforge")``).

One typed class, :class:`GameHooks`, names every hook a game's rules may define, in order:
its methods are pluggy hook specifications (a rules function named as one is its
implementation, marked with :data:`hookimpl` or not), its properties are values a rules module
defines (``card_models = {...}``; pluggy has no values, :mod:`cardforge.games.contract` checks
them). Game authors see these through :mod:`cardforge.api`; this module stays light (pluggy
and the standard library) because every command that loads a game imports it.

cardforge calls a hook with keyword arguments (``score(data=…, state=…)``), so an
implementation's parameters are named as the spec's, in any order. A parameter the spec gains
later gets a default here and is optional for an implementation: one written before it keeps
working. Today every parameter is required.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol

from pluggy import HookimplMarker, HookspecMarker

if TYPE_CHECKING:
    import random

    from pydantic import BaseModel

    from cardforge.data.loading import GameData, Section
    from cardforge.data.models import CardBase
    from cardforge.data.printables import Aid, Block, Board
    from cardforge.problems import Problem
    from cardforge.scores import ScoreResult

__all__ = ["PROJECT", "GameHooks", "hookimpl", "hookspec"]

#: pluggy's project name: the markers' attribute (``cardforge_spec``, ``cardforge_impl``)
PROJECT = "cardforge"
#: marks a hook specification (on :class:`GameHooks`)
hookspec = HookspecMarker(PROJECT)
#: marks a hook implementation (optional: a function named as a hook is one)
hookimpl = HookimplMarker(PROJECT)


class GameHooks(Protocol):
    """Every hook of a game's rules; a rules module defines any of them (each optional).

    Properties are values the module defines (``card_models = {...}``); methods are functions,
    called with these keyword arguments (a module function has no ``self``). What a module
    leaves out is the data-only behaviour of :mod:`cardforge.games.generic`.
    """

    # --- data ----------------------------------------------------------------------------
    @property
    def card_models(self) -> Mapping[str, type[CardBase]]:
        """kinds that need Python models (validators, properties), by kind"""

    @property
    def sections(self) -> Sequence[Section]:
        """the game's other data files (clans, components…)"""

    @hookspec(firstresult=True)
    def check_data(self, data: GameData) -> list[Problem]:
        """cross-card checks once every file validated"""

    # --- setup ---------------------------------------------------------------------------
    @hookspec(firstresult=True)
    def setup_counts(self, players: int, mode: str, options: dict[str, Any]) -> dict[str, Any]:
        """the counts (`options`: every declared option, defaults filled)"""

    @hookspec(firstresult=True)
    def setup_steps(self, players: int, mode: str, options: dict[str, Any],
                    counts: dict[str, Any]) -> list[str]:
        """the checklist, in the game's language"""

    @hookspec(firstresult=True)
    def deal(self, data: GameData, players: int, mode: str, options: dict[str, Any],
             rng: random.Random) -> dict[str, Any]:
        """a JSON-able deal; random only from `rng`"""

    @property
    def setup_model(self) -> type[BaseModel]:
        """the model of a described deal (`cardforge setup GAME --check FILE`)"""

    @hookspec(firstresult=True)
    def check_setup(self, data: GameData, setup: Any) -> list[Problem]:
        """rule-level rejections of a described deal"""

    # --- scoring -------------------------------------------------------------------------
    @property
    def score_model(self) -> type[BaseModel]:
        """the final-state file (pydantic, `extra="forbid"`)"""

    @hookspec(firstresult=True)
    def check_final_state(self, data: GameData, state: Any) -> list[Problem]:
        """rule-level rejections, each naming player and field"""

    @hookspec(firstresult=True)
    def score(self, data: GameData, state: Any) -> ScoreResult:
        """`ScoreResult(players=[PlayerResult(name, breakdown, tiebreak, extra)], details, report)`"""

    @hookspec(firstresult=True)
    def player_names(self, state: Any) -> list[str]:
        """when the state has no `players: [{name}]` list"""

    # --- printables (in the rules module, or in printables.py beside a rules package) -------
    @hookspec(firstresult=True)
    def boards(self, data: GameData) -> list[Board]:
        """whole boards made from the data (`build_board`)"""

    @hookspec(firstresult=True)
    def aids(self, data: GameData) -> list[Aid]:
        """whole player aids made from the data"""

    @hookspec(firstresult=True)
    def blocks(self, data: GameData) -> Mapping[str, list[Block]]:
        """named content that aids and boards insert with `{kind: generated, source: NAME}`"""

    @property
    def SETUP_LABELS(self) -> Mapping[str, str]:  # noqa: N802 (a module constant)
        """how the setup sheet names the game's own setup numbers (`counts` keys)"""
