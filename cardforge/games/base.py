"""A game: its folder, what its ``game.yaml`` declares, and its rule hooks.

What a game *is* is data (:class:`~cardforge.data.gamespec.GameSpec`); what it *does* beyond
data is an optional Python module of plain functions, one signature each: implementations of
the pluggy hook specifications :class:`~cardforge.games.specs.GameHooks` (public as
:mod:`cardforge.api`), checked when the game loads and called by keyword through pluggy. A
game without that module — or a hook the module leaves out — gets the data-only behaviour of
:mod:`cardforge.games.generic`: scoring from its score pad, setup counts from its table, the
checklist from its templates.

No game subclasses anything: the engine, the renderers and the CLI talk to every game
through this one class.
"""

from __future__ import annotations

import random
from functools import cached_property
from pathlib import Path
from types import ModuleType, SimpleNamespace
from typing import TYPE_CHECKING, Any

from cardforge.games.contract import HOOKS, Hooks, check_rules
from cardforge.scores import Category, ScoreResult, TieBreaker

if TYPE_CHECKING:
    from pydantic import BaseModel

    from cardforge.data.gamespec import GameSpec, OptionSpec
    from cardforge.data.loading import GameData, Section
    from cardforge.data.models import CardBase, DeckMeta
    from cardforge.problems import Problem

__all__ = ["Game", "HOOKS"]


class Game:
    """A game found by the registry (:mod:`cardforge.games`)."""

    def __init__(self, spec: GameSpec, folder: Path, rules: ModuleType | None = None, *,
                 game_id: str, data_folder: Path | None = None, origin: str = "folder",
                 hooks: Hooks | None = None):
        #: the rules' hooks, checked against the contract (DataError, each problem located)
        self.hooks = hooks if hooks is not None else check_rules(rules, game_id)
        self.spec = spec
        self.id = game_id
        #: the game folder: game.yaml, card files, templates/, icons/, fonts/, art
        self.folder = Path(folder)
        #: where the data files are read (the folder, or DIR/<id>/ with ``--data DIR``)
        self.data_folder = Path(data_folder) if data_folder is not None else self.folder
        self.rules = rules
        self.origin = origin  # "shipped", "folder" (a path) or "entry point"

    @classmethod
    def define(cls, game_id: str, spec: dict[str, Any], rules: Any = None, folder: Path | None = None) -> Game:
        """A game made in code (tests, library users): ``spec`` as game.yaml would say it,
        ``rules`` any object with hook attributes (a module, a namespace)."""
        from cardforge.data.gamespec import GameSpec

        return cls(GameSpec.model_validate(spec), folder or Path(game_id), rules, game_id=game_id,
                   origin="code")

    # --- metadata -------------------------------------------------------------------------
    @property
    def title(self) -> str:
        return self.spec.title

    @property
    def language(self) -> str:
        return self.spec.language

    @property
    def status(self) -> str:
        return self.spec.status

    @property
    def prints(self) -> str:
        return self.spec.prints

    @property
    def min_players(self) -> int:
        return self.spec.players.min

    @property
    def max_players(self) -> int:
        return self.spec.players.max

    @cached_property
    def categories(self) -> tuple[Category, ...]:
        return tuple(Category(c.id, c.label, c.label_en or c.label, icon=c.icon) for c in self.spec.categories)

    @cached_property
    def tie_breakers(self) -> tuple[TieBreaker, ...]:
        return tuple(TieBreaker(t.id, t.label, t.label_en or t.label, row=t.row or "", row_en=t.row_en or "")
                     for t in self.spec.tie_breakers)

    @property
    def modes(self) -> tuple[str, ...]:
        return tuple(self.spec.modes)

    @property
    def default_mode(self) -> str:
        return self.spec.default_mode or self.modes[0]

    @property
    def options(self) -> dict[str, OptionSpec]:
        return dict(self.spec.options)

    @property
    def setup_flags(self) -> frozenset[str]:
        """The ids of the setup options (``first_game``…)."""
        return frozenset(self.spec.options)

    def option_flag(self, option_id: str) -> str:
        spec = self.spec.options[option_id]
        return spec.flag or "--" + option_id.replace("_", "-")

    def default_options(self) -> dict[str, Any]:
        return {oid: o.default_value() for oid, o in self.spec.options.items()}

    @property
    def players_label(self) -> str:
        if self.min_players == self.max_players:
            return str(self.min_players)
        return f"{self.min_players}–{self.max_players}"

    def category(self, category_id: str) -> Category:
        for c in self.categories:
            if c.id == category_id:
                return c
        raise KeyError(category_id)

    @property
    def has_rules(self) -> bool:
        return self.rules is not None

    # --- data -----------------------------------------------------------------------------
    def _hook(self, name: str) -> Any:
        return self.hooks.get(name)

    def has_hook(self, name: str) -> bool:
        """Whether the game's rules define hook ``name`` (one of :data:`HOOKS`)."""
        if name not in HOOKS:
            raise KeyError(f"no hook {name!r} in the game contract")
        return self.hooks.defines(name)  # a lazy hook too, not loaded for asking

    @property
    def id_declared(self) -> bool:
        """Whether ``game.yaml`` sets ``id:`` (else the id is the folder's name)."""
        return self.spec.id is not None

    @property
    def inline_deck(self) -> DeckMeta | None:
        """The deck given in ``game.yaml`` (``deck:``), if any."""
        return self.spec.deck

    @property
    def card_models(self) -> dict[str, type[CardBase]]:
        """Kinds with a Python model, plus those declared in ``game.yaml``'s inline deck."""
        models = dict(self._hook("card_models") or {})
        if self.spec.deck is not None:
            models.update(self.card_models_for(self.spec.deck))
        return models

    def card_models_for(self, meta: DeckMeta) -> dict[str, type[CardBase]]:
        """Every kind of ``meta``: the Python model where the rules give one (and the kind
        declares no fields of its own), else a model made from its declared fields."""
        from cardforge.data.kinds import card_model_for

        python = dict(self._hook("card_models") or {})
        models = dict(python)
        for kind, spec in meta.kinds.items():
            if spec.fields is not None or kind not in python:
                models[kind] = card_model_for(self.id, kind, spec)
        return models

    @property
    def sections(self) -> tuple[Section, ...]:
        return tuple(self._hook("sections") or ())

    def check_data(self, data: GameData[CardBase]) -> list[Problem]:
        from cardforge.games import declared

        fn = self._hook("check_data")
        # and the game's declarations: sheet widgets and score rules name what the data has
        return (list(self.hooks.call("check_data", data=data)) if fn else []) + declared.check(self, data)

    # --- setup ----------------------------------------------------------------------------
    def with_defaults(self, options: dict[str, Any] | None) -> dict[str, Any]:
        """Every declared option, with its default where ``options`` does not give it."""
        given = dict(options or {})
        return {**self.default_options(), **{k: v for k, v in given.items() if k in self.spec.options}}

    def setup_counts(self, players: int, mode: str, options: dict[str, Any]) -> dict[str, Any]:
        from cardforge.games import generic

        options = self.with_defaults(options)
        fn = self._hook("setup_counts")
        if fn is None:
            return generic.setup_counts(self, players, mode, options)
        counts: dict[str, Any] = self.hooks.call("setup_counts", players=players, mode=mode, options=options)
        return counts

    def setup_steps(self, players: int, mode: str, options: dict[str, Any],
                    counts: dict[str, Any]) -> list[str]:
        from cardforge.games import generic

        options = self.with_defaults(options)
        fn = self._hook("setup_steps")
        if fn is None:
            return generic.setup_steps(self, players, mode, options, counts)
        steps: list[str] = self.hooks.call("setup_steps", players=players, mode=mode, options=options, counts=counts)
        return steps

    def deal(self, data: GameData[CardBase], players: int, mode: str, options: dict[str, Any],
             rng: random.Random) -> dict[str, Any]:
        from cardforge.games import generic

        options = self.with_defaults(options)
        fn = self._hook("deal")
        if fn is None:
            return generic.deal(self, data, players, mode, options, rng)
        deal: dict[str, Any] = self.hooks.call("deal", data=data, players=players, mode=mode, options=options, rng=rng)
        return deal

    @property
    def setup_model(self) -> type[BaseModel] | None:
        from cardforge.games import generic

        model: type[BaseModel] | None = self._hook("setup_model")
        if model is not None:
            return model
        if self._hook("deal") is not None:  # a deal of the game's own making: no generic check of it
            return None
        return generic.deal_model(self)

    def check_setup(self, data: GameData[CardBase], setup: Any) -> list[Problem]:
        from cardforge.games import generic

        fn = self._hook("check_setup")
        return list(self.hooks.call("check_setup", data=data, setup=setup)) if fn else \
            generic.check_setup(self, data, setup)

    # --- scoring --------------------------------------------------------------------------
    @property
    def score_model(self) -> type[BaseModel] | None:
        from cardforge.games import generic

        model = self._hook("score_model")
        return model if model is not None else generic.final_state_model(self)

    def check_final_state(self, data: GameData[CardBase], state: Any) -> list[Problem]:
        from cardforge.games import declared, generic

        too_much = declared.work_problems(self, data, state)  # before any rule is evaluated
        if too_much:
            return too_much
        fn = self._hook("check_final_state")
        if fn is not None:
            return list(self.hooks.call("check_final_state", data=data, state=state))
        if self._hook("score") is None:
            return generic.check_final_state(self, data, state)
        return declared.check_state(self, data, state)  # the cards its card fields name, at least

    def score(self, data: GameData[CardBase], state: Any) -> ScoreResult:
        from cardforge.games import declared, generic

        fn = self._hook("score")
        if fn is None:
            return generic.score(self, data, state)
        # categories game.yaml computes (score:) are added to what the rules score
        return declared.complete(self, data, state, self.hooks.call("score", data=data, state=state))

    def player_names(self, state: Any) -> list[str]:
        fn = self._hook("player_names")
        return list(self.hooks.call("player_names", state=state)) if fn else [p.name for p in state.players]

    # --- printables -----------------------------------------------------------------------
    def printables(self) -> SimpleNamespace:
        """The printables hooks (``boards``, ``aids``, ``blocks``, ``SETUP_LABELS``; None where
        left out): from ``printables.py`` beside a rules package (imported, and checked whole,
        on first use), else from the rules module."""
        return self.hooks.printables_namespace()

    def code_files(self) -> list[Path]:
        """The game's own Python files (for cache keys): its rules module or package."""
        file = getattr(self.rules, "__file__", None) if self.rules is not None else None
        if not file:
            return []
        path = Path(file)
        if hasattr(self.rules, "__path__"):
            return sorted(path.parent.rglob("*.py"))
        return [path]

    def __repr__(self) -> str:
        return f"<Game {self.id} ({self.folder})>"
