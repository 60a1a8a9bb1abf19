"""A game made by `cardforge new`, then given cards with points and colours and three declared
score categories (issue 27's "done when"): scored by the CLI (tests/test_declared_scoring.py) and
in the web sheet with card pickers (tests/test_web_browser.py)."""

from __future__ import annotations

from pathlib import Path

from cardforge.games.scaffold import create_game

GAME_CATEGORIES = """# What each player holds at the end: the cards in front of them (picked by name on the sheet).
holdings:
  cartes: {widget: cards, label: Cartes}
categories:
  - {id: points, label: Points, score: {sum: points}}
  - {id: couleurs, label: Couleurs, label_en: Colours, score: {sets: couleur, table: {1: 1, 2: 3, 3: 6, 4: 10}}}
  - {id: dragons, label: Le plus de dragons, label_en: Most dragons,
     score: {most: {count: {kind: dragon}}, points: 6, ties: share}}
"""

KINDS = """  kinds:
    tresor:
      label: Trésor
      plural: Trésors
      fields:
        points: {type: int, min: 0, max: 9, required: true}
        couleur: {type: choice, choices: [rouge, vert, bleu, blanc], required: true}
        effect: {type: text}
    dragon:
      label: Dragon
      plural: Dragons
      fields:
        points: {type: int, min: 0, max: 9, required: true}
        couleur: {type: choice, choices: [rouge, vert, bleu, blanc], required: true}
        effect: {type: text}
"""

CARDS = """defaults: {kind: tresor}
cards:
  - {id: rubis, name: Rubis, points: 3, couleur: rouge, copies: 2}
  - {id: emeraude, name: Émeraude, points: 2, couleur: vert, copies: 2}
  - {id: saphir, name: Saphir, points: 4, couleur: bleu, copies: 2}
  - {id: perle, name: Perle, points: 1, couleur: blanc, copies: 2}
  - {id: dragon-rouge, kind: dragon, name: Dragon rouge, points: 5, couleur: rouge, copies: 3}
  - {id: dragon-vert, kind: dragon, name: Dragon vert, points: 2, couleur: vert, copies: 2}
"""

#: the final state: each player's cards, by id
HANDS = {
    "Alice": ["rubis", "emeraude", "saphir", "dragon-rouge"],
    "Ben": ["rubis", "perle", "dragon-rouge", "dragon-vert"],
    "Cleo": ["emeraude", "saphir", "perle", "dragon-rouge", "dragon-vert"],
}

# Worked out by hand:
# points (sum of points):  Alice 3+2+4+5 = 14; Ben 3+1+5+2 = 11; Cleo 2+4+1+5+2 = 14
# couleurs (sets of different colours, 1/3/6/10 for a set of 1/2/3/4):
#   Alice rouge 2, vert 1, bleu 1 → a set of 3 and a set of 1 → 6 + 1 = 7
#   Ben rouge 2, blanc 1, vert 1 → sets of 3 and 1 → 7
#   Cleo vert 2, bleu 1, blanc 1, rouge 1 → sets of 4 and 1 → 10 + 1 = 11
# dragons (most dragons, 6 points, ties share): Alice 1, Ben 2, Cleo 2 → Ben and Cleo tied
#   for the most: each scores 6; Alice 0
# totals: Alice 14+7+0 = 21; Ben 11+7+6 = 24; Cleo 14+11+6 = 31 → Cleo, Ben, Alice
EXPECTED = {
    "Alice": {"points": 14, "couleurs": 7, "dragons": 0, "total": 21, "rank": 3},
    "Ben": {"points": 11, "couleurs": 7, "dragons": 6, "total": 24, "rank": 2},
    "Cleo": {"points": 14, "couleurs": 11, "dragons": 6, "total": 31, "rank": 1},
}


def treasure_game(folder: Path, title: str = "Trésors") -> Path:
    """`cardforge new FOLDER`, then the edits a designer makes in game.yaml and cards.yaml."""
    create_game(folder, title, lang="fr")
    spec = folder / "game.yaml"
    text = spec.read_text(encoding="utf-8")
    start = text.index("categories:")
    end = text.index("# Ties on the total")
    text = text[:start] + GAME_CATEGORIES + text[end:]
    start = text.index("  kinds:")
    end = text.index("  backs:")
    text = text[:start] + KINDS + text[end:]
    spec.write_text(text, encoding="utf-8")
    (folder / "cards.yaml").write_text(CARDS, encoding="utf-8")
    state = "players:\n" + "".join(f"  - {{name: {name}, cartes: [{', '.join(cards)}]}}\n"
                                   for name, cards in HANDS.items())
    (folder / "examples" / "final.yaml").write_text(state, encoding="utf-8")
    return folder
