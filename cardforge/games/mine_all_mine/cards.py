"""Card models of Mine, All Mine!."""

from __future__ import annotations

from typing import Literal

from cardforge.data.models import CardBase


class MineAllMineCard(CardBase):
    kind: Literal["score"]
    text: str = ""


CARD_MODELS = {"score": MineAllMineCard}
