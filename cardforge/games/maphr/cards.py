"""Card models of Les Mines de Maphr."""

from __future__ import annotations

from typing import Literal

from cardforge.data.models import CardBase


class MaphrCard(CardBase):
    kind: Literal["improvement"]
    text: str = ""


CARD_MODELS = {"improvement": MaphrCard}
