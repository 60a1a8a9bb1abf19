"""The deck of a printed build (the playtest lab): a ``cards.json`` that ``cardforge build``
wrote, read as the deck a play was played with — for ``cardforge plays add --printed`` and
``cardforge serve --printed`` alike. Lives beside ``reprint.py``, which reads the record."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from cardforge.errors import DataError
from cardforge.lab.facts import deck_of_record, printed_data
from cardforge.render.cards.reprint import read_record

if TYPE_CHECKING:
    from cardforge.data.loading import GameData
    from cardforge.games.base import Game
    from cardforge.lab.facts import Deck


def printed_deck(game: Game, data: GameData, printed: str | Path, option: str = "--printed") -> tuple[Deck, GameData]:
    """The deck of a printed build record (``cards.json`` or its folder) of ``game`` and the game's
    data with that deck's cards in place of the working ones (a play of it is checked and scored
    with the cards that were on the table); a record that cannot be read or no longer fits the
    game's card models is a :class:`DataError` naming the file and the option."""
    path = Path(printed)
    record, problem = read_record(path, game.id, option=option)
    if record is None:
        raise DataError(f"cannot read {printed}", [problem] if problem else [])
    label = path.name if path.name != "cards.json" or not path.parent.name else f"{path.parent.name}/cards.json"
    deck = deck_of_record(record, label)
    return deck, printed_data(game, data, deck, str(printed))
