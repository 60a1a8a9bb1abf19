"""The numbers of Les Mines de Maphr's rules that setup and scoring apply (rulebook)."""

from __future__ import annotations

#: «Se joue de 2 à 4 joueurs.»
MIN_PLAYERS, MAX_PLAYERS = 2, 4
#: «Contenu : 250 cartes»
TOTAL_CARDS = 250
#: «On distribue ensuite 8 pièces et 4 cartes à chacun.»
COINS_EACH = 8
CARDS_EACH = 4
#: «On ne peut pas avoir plus de 6 cartes en main.»
HAND_LIMIT = 6
#: A level-IV mine holds 12 galleries/veins and level + 1 = 5 miners; the box has 20 miners.
MAX_GALLERIES = 12
MAX_MINERS = 5
MINERS_IN_BOX = 20
#: «Un clan de nains gris a besoin de 2 galeries de moins que nécessaire pour finir la partie.»
GREY_ALLOWANCE = 2
#: End-game bonuses of the gallery race and the colour counts (rulebook, «Comptage des points»).
#: The colour rows are scored by game.yaml's declared rules; these two numbers are the report's
#: (a test keeps them equal to game.yaml's tables).
RACE_FIRST = 25
RACE_CLOSE = 10
COLOUR_SQUARE_CAP = 16
SERIES_BONUS = 10
MINER_POINTS = 3


def galleries_required(players: int, grey: bool = False) -> int:
    """Galleries + veins that end the game: 12 with 2–3 players, 11 with 4; 2 fewer for a
    grey-dwarf clan."""
    base = 12 if players <= 3 else 11
    return base - GREY_ALLOWANCE if grey else base
