"""Card models of Imperial Miners."""

from __future__ import annotations

from typing import Literal

from cardforge.data.models import CardBase


class ImperialMinersCard(CardBase):
    kind: Literal["template"]
    text: str = ""


CARD_MODELS = {"template": ImperialMinersCard}
