"""Card models of TunHell."""

from __future__ import annotations

from typing import Literal

from cardforge.data.models import CardBase


class TunHellCard(CardBase):
    kind: Literal["trophy"]
    text: str = ""


CARD_MODELS = {"trophy": TunHellCard}
