"""The shapes of a game's loaded data, below the loader and its cache: :class:`GameData` (a
game's validated data), where each card came from (:class:`CardSource`), a game's other data
files (:class:`Section`) and what loading needs from the game (:class:`GameSource`).

Their own module so that the cache (``data/cache.py``), the spreadsheet reader and the small
shared modules name them without importing the loader (no import cycle, type-only ones included).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Generic, Protocol

from pydantic import BaseModel
from typing_extensions import TypeVar  # a default for the type variable on Python 3.11

from cardforge.data.models import CardBase, DeckMeta
from cardforge.problems import Problem, short_name

__all__ = ["C", "CardSource", "CardT", "GameData", "GameSource", "Section"]


@dataclass(frozen=True)
class Section:
    """A data file of a game besides its cards: ``clans.yaml``, ``boards.yaml``…

    ``many``: the file holds a list of entries under ``key`` (each with a unique ``id``);
    otherwise the whole mapping under ``key`` (or the whole file when key is None) is one model.
    """

    name: str
    file: str
    model: type[BaseModel]
    key: str | None = None
    many: bool = True
    required: bool = True
    item: str = "entry"  # how an entry is named in messages: "board 'irongradd' (#1)"


@dataclass
class CardSource:
    file: str  # display path
    index: int  # 1-based position in its file
    line: int | None = None

    def label(self, card_id: str) -> str:
        return f"card '{short_name(card_id)}' (#{self.index})"


#: the card type of a game's data: its card models' union (``GameData[Dwarf | FoundCard | Trophy]``);
#: a plain ``GameData`` (code shared by every game) is ``GameData[CardBase]``
CardT = TypeVar("CardT", bound=CardBase, covariant=True, default=CardBase)
C = TypeVar("C", bound=CardBase)


@dataclass
class GameData(Generic[CardT]):
    """A game's validated data. ``cards`` are definitions in file order; ``printed`` expands
    ``copies`` so renderers never see that field.

    Generic over the card type: a game's rules take ``GameData[<its card union>]`` and read
    their cards' fields without casts; code shared by every game takes ``GameData[CardBase]``."""

    game_id: str
    root: Path
    meta: DeckMeta
    cards: list[CardT]
    sources: dict[str, CardSource]
    sections: dict[str, Any] = field(default_factory=dict)
    warnings: list[Problem] = field(default_factory=list)
    #: the edition loaded: each multilingual text (data/editions.py) in this language
    edition: str = ""
    #: card id → its multilingual fields → the languages each is given in
    translations: dict[str, dict[str, frozenset[str]]] = field(default_factory=dict)
    #: each card's data as JSON (``model_dump_json``), taken by ``load_game_data`` when it
    #: validates: a build served from the cache prints version stamps without building
    #: pydantic's serialisers (~25 ms)
    card_json: dict[str, str] = field(default_factory=dict)

    def card(self, card_id: str) -> CardT:
        return self._by_id[card_id]

    def has_card(self, card_id: str) -> bool:
        return card_id in self._by_id

    @property
    def _by_id(self) -> dict[str, CardT]:
        cache = self.__dict__.get("_by_id_cache")
        if cache is None:
            cache = self.__dict__["_by_id_cache"] = {c.id: c for c in self.cards}
        return cache

    @property
    def printed(self) -> list[CardT]:
        """Every card once per copy, in data order."""
        return [c for c in self.cards for _ in range(c.copies)]

    def cards_of(self, kind: str) -> list[CardT]:
        return [c for c in self.cards if c.kind == kind]

    def cards_as(self, kind: str, model: type[C]) -> list[C]:
        """The cards of ``kind``, typed as the rules' ``model`` of that kind (a game reading its
        own kinds' fields); a card of that kind that is not one is a bug in the game's models."""
        out: list[C] = []
        for card in self.cards_of(kind):
            if not isinstance(card, model):
                raise TypeError(f"card '{card.id}' of kind '{kind}' is a {type(card).__name__}, not a {model.__name__}")
            out.append(card)
        return out

    def count_by_kind(self) -> dict[str, int]:
        counts: Counter[str] = Counter()
        for c in self.cards:
            counts[c.kind] += c.copies
        return dict(counts)

    def entries(self) -> list[Any]:
        """Every entry that has a provenance: cards, boards, clans…"""
        out: list[Any] = list(self.cards)
        for value in self.sections.values():
            items = value if isinstance(value, list) else [value]
            out.extend(v for v in items if hasattr(v, "provenance"))
        return out

    def provisional_count(self) -> int:
        return sum(1 for e in self.entries() if getattr(e, "provenance", None) == "provisional")


class GameSource(Protocol):
    """What loading a game's data needs from the game (``cardforge.games.base.Game`` is one):
    where its files are, its card models per kind, its other data files and its own checks."""

    @property
    def id(self) -> str: ...

    @property
    def folder(self) -> Path:
        """where ``game.yaml`` is"""

    @property
    def data_folder(self) -> Path:
        """where the data files are read (the folder, or ``DIR/<id>/`` with ``--data DIR``)"""

    @property
    def language(self) -> str:
        """the game's language (``game.yaml``'s ``language``): its texts' when they give several"""

    @property
    def id_declared(self) -> bool:
        """whether ``game.yaml`` sets ``id:`` (else the id is the folder's name)"""

    @property
    def inline_deck(self) -> DeckMeta | None:
        """the deck given in ``game.yaml`` (``deck:``), if any"""

    @property
    def sections(self) -> tuple[Section, ...]:
        """the game's other data files"""

    def card_models_for(self, meta: DeckMeta) -> dict[str, type[CardBase]]:
        """a model for every kind of ``meta``"""

    def check_data(self, data: GameData[CardBase]) -> list[Problem]:
        """the game's own checks, once every file validated"""

    def code_files(self) -> list[Path]:
        """the game's own Python files (they shape its validated data: the cache key)"""
