"""Card models of Imperial Miners.

cardforge does not reprint the 136 published mine cards. Its deck is a blank mine-card
template, one frame per level, that a designer fills by hand to prototype variant cards.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from cardforge.data.models import CardBase

from .sections import Numeral

#: half-cart symbols on a card's left and right edges (same spelling as the score file)
HalfCarts = Literal["L", "R", "LR", ""]


class MineTemplate(CardBase):
    """A blank mine-card frame (rulebook, « Aperçu d'une carte Mine »): name line, cost box,
    faction boxes, half-cart boxes on the edges, effect boxes and the level numeral."""

    kind: Literal["template"]
    level: Numeral
    cost: int | None = Field(None, ge=0)  # printed in the cost box; None: a blank box to fill
    factions: int = Field(2, ge=0, le=2)  # empty faction boxes: « une ou deux factions »
    half_carts: HalfCarts = "LR"  # blank half-cart boxes on these edges
    effects: int = Field(2, ge=1, le=2)  # effect boxes: « La plupart des cartes proposent deux effets »
    text: str = ""  # small print on the frame (French), e.g. the cost range of the level


CARD_MODELS = {"template": MineTemplate}
