"""Card models of Cristaux Élémentaires Joailliers."""

from __future__ import annotations

from typing import Literal

from cardforge.data.models import CardBase


class CristauxCard(CardBase):
    kind: Literal["project"]
    text: str = ""


CARD_MODELS = {"project": CristauxCard}
