"""The playtest lab's test logs.

- :func:`maphr_two_versions`: Maphr played over two deck versions, every play added through
  ``cardforge plays add`` from the example end state (its three mines dealt to other players
  and clans): v0.2 as printed (a build record, ``--printed``), v0.3 the working data after two
  changes (Étayage's cost 5 → 6, and the Trésor de Kadal made far too cheap: 25 → 12 coins).
- :func:`treasure_lab_game`: the data-only game made by ``cardforge new`` (tests/sheet_support.py)
  with a declared choice (``faction``) and a ``balance:``.
"""

from __future__ import annotations

import copy
import re
import shutil
from pathlib import Path

import yaml

from conftest import ROOT, run_cli


def example_final(game: str) -> Path:
    """A shipped game's example end state (card_data/<game>/examples/final.yaml)."""
    return ROOT / "card_data" / game / "examples" / "final.yaml"


# The example's three mines (card_data/maphr/tests: Alice's 67 points and 47 coins, Ben's 67 and 53 — he
# wins the tie on coins —, Cid's 10): "A", "B", "C". A play deals them to three players with clans
# (none grey: the clan does not change a score), so the winner is whoever holds mine B.
MINES = ("A", "B", "C")
#: (date, first player's seat (1-based) or None, minutes, [(name, clan, mine)] in seat order)
V02 = [
    ("2026-10-01", 1, 70, [("Ana", "irongradd", "B"), ("Ben", "pic-ardent", "A"), ("Cléo", "taillepierre", "C")]),
    ("2026-10-08", 2, 80, [("Ana", "pic-ardent", "A"), ("Ben", "taillepierre", "B"), ("Cléo", "irongradd", "C")]),
    ("2026-10-15", 3, 65, [("Ana", "taillepierre", "C"), ("Ben", "irongradd", "B"), ("Cléo", "pic-ardent", "A")]),
    ("2026-10-22", None, None, [("Ana", "irongradd", "A"), ("Ben", "pic-ardent", "B"), ("Cléo", "taillepierre", "C")]),
]
V03 = [
    ("2026-11-05", 1, 75, [("Ana", "pic-ardent", "B"), ("Ben", "irongradd", "A"), ("Cléo", "taillepierre", "C")]),
    ("2026-11-12", 1, 60, [("Ana", "irongradd", "C"), ("Ben", "pic-ardent", "B"), ("Cléo", "taillepierre", "A")]),
    ("2026-11-19", 2, 90, [("Ana", "taillepierre", "A"), ("Ben", "irongradd", "C"), ("Cléo", "pic-ardent", "B")]),
]


def _variant(base: dict, seats: list[tuple[str, str, str]]) -> dict:
    mines = dict(zip(MINES, base["players"]))
    out = copy.deepcopy(base)
    out["players"] = []
    for name, clan, mine in seats:
        player = copy.deepcopy(mines[mine])
        player["name"], player["clan"] = name, clan
        out["players"].append(player)
    return out


def maphr_v03(data_root: Path) -> Path:
    """A copy of Maphr's data as v0.3: Étayage costs 6, the Trésor de Kadal 12 (from 25)."""
    folder = data_root / "maphr"
    shutil.copytree(ROOT / "card_data" / "maphr", folder)
    deck = folder / "deck.yaml"
    deck.write_text(deck.read_text(encoding="utf-8").replace('version: "0.2"', 'version: "0.3"'), encoding="utf-8")
    cards = folder / "improvements.yaml"
    text = cards.read_text(encoding="utf-8")
    for card, old, new in (("etayage", 5, 6), ("tresor-de-kadal", 25, 12)):
        text, n = re.subn(rf"(- id: {card}\n(?:    .*\n)*?    cost: ){old}\n", rf"\g<1>{new}\n", text)
        assert n == 1, card
    cards.write_text(text, encoding="utf-8")
    return folder


def maphr_two_versions(tmp: Path) -> dict:
    """The log (``tmp/plays.db``): 4 plays of the printed v0.2, 3 of the working v0.3."""
    db = tmp / "plays.db"
    code = run_cli("build", "maphr", "--only", "decks", "-o", tmp / "out", "-q")
    assert code.code == 0, code.err
    record = tmp / "printed-v0.2.json"
    shutil.copy(tmp / "out" / "maphr" / "cards.json", record)
    data_root = tmp / "data"
    maphr_v03(data_root)
    base = yaml.safe_load(example_final("maphr").read_text(encoding="utf-8"))
    (tmp / "plays").mkdir()
    for version, plays in (("0.2", V02), ("0.3", V03)):
        for day, first, minutes, seats in plays:
            path = tmp / "plays" / f"{day}.yaml"
            path.write_text(yaml.safe_dump(_variant(base, seats), allow_unicode=True, sort_keys=False),
                            encoding="utf-8")
            args = ["plays", "add", "maphr", path, "--db", db, "--date", day]
            if first:
                args += ["--first", str(first)]
            if minutes:
                args += ["--minutes", str(minutes)]
            if version == "0.2":
                result = run_cli(*args, "--printed", record)
            else:
                result = run_cli("--data", data_root, *args)
            assert result.code == 0, result.err
    return {"db": db, "record": record, "data": data_root}


def clan_rates(plays: list) -> dict[str, tuple[int, int]]:
    """(wins, seats) per clan, by hand: the clan of the seat holding mine B wins."""
    out: dict[str, list[int]] = {}
    for _, _, _, seats in plays:
        for _, clan, mine in seats:
            entry = out.setdefault(clan, [0, 0])
            entry[0] += mine == "B"
            entry[1] += 1
    return {k: (v[0], v[1]) for k, v in out.items()}


# --- a data-only game ----------------------------------------------------------------------------

LAB_DECLARATIONS = """
# the playtest lab: each player's faction, and the cards' points against their cost
choices:
  faction: {label: Faction, values: [nord, sud]}
balance:
  cards: {label: Cartes, kinds: [tresor, dragon], cost: cout, value: points, group: kind}
"""


def treasure_lab_game(folder: Path) -> Path:
    """`cardforge new` + the treasure game's cards (sheet_support), each with a cost (``cout``),
    a faction per player and a balance declaration."""
    from sheet_support import treasure_game

    treasure_game(folder)
    spec = folder / "game.yaml"
    text = spec.read_text(encoding="utf-8")
    text = text.replace("        effect: {type: text}\n",
                        "        effect: {type: text}\n        cout: {type: int, min: 0, max: 20}\n")
    spec.write_text(text + LAB_DECLARATIONS, encoding="utf-8")
    cards = folder / "cards.yaml"
    costs = {"rubis": 3, "emeraude": 2, "saphir": 4, "perle": 1, "dragon-rouge": 6, "dragon-vert": 3}
    out = []
    for line in cards.read_text(encoding="utf-8").splitlines():
        m = re.search(r"\{id: ([a-z-]+),", line)
        if m and m.group(1) in costs:
            line = line.replace(", copies:", f", cout: {costs[m.group(1)]}, copies:")
        out.append(line)
    cards.write_text("\n".join(out) + "\n", encoding="utf-8")
    return folder
