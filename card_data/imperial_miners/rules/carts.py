"""Carts counted from a mine layout.

A mine is a list of rows from the surface down; a row is a list of slots, each a card's
half-cart edges ("L", "R", "LR" or "") or None for an empty slot. Junction ``j`` of a row
lies between slot ``j`` and slot ``j + 1``.

Rulebook, « Chariots »: « Vous pouvez placer un jeton Chariot sur tout symbole Chariot
**incomplet** à la jonction de deux cartes Mine adjacentes. Une fois que vous avez placé un
jeton sur un chariot incomplet, on considère qu'il s'agit d'un **chariot complet** ». So:

- two cards side by side, the left one with its right half (R) and the right one with its
  left half (L): a complete cart;
- only one of the two halves: an incomplete cart, which one token completes;
- neither half: nothing is printed, no cart and no token;
- a half on a row's outer edge, or facing an empty slot, is not « à la jonction de deux
  cartes Mine adjacentes »: no cart, and no token can complete it. Once the game is over
  no card will ever fill that slot, so it never counts.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

Row = Sequence[str | None]
Mine = Sequence[Row]
Token = tuple[int, int]


@dataclass(frozen=True)
class Junction:
    """Where two cards of a row meet and at least one of them prints a half-cart."""

    row: int
    index: int
    halves: int  # 1 or 2

    @property
    def is_complete(self) -> bool:
        return self.halves == 2


@dataclass(frozen=True)
class CartCount:
    printed: int  # complete carts printed on the cards (two halves face to face)
    tokens: int  # incomplete carts completed by a token
    incomplete: int  # incomplete carts left without a token

    @property
    def complete(self) -> int:
        return self.printed + self.tokens


def junctions(mine: Mine) -> Iterator[Junction]:
    """Every junction of the mine where a half-cart is printed, row by row, left to right."""
    for r, row in enumerate(mine):
        for j in range(len(row) - 1):
            left, right = row[j], row[j + 1]
            if left is None or right is None:
                continue  # no junction next to an empty slot
            halves = ("R" in left) + ("L" in right)
            if halves:
                yield Junction(r, j, halves)


def token_problem(mine: Mine, token: Token) -> str | None:
    """Why a cart token cannot sit at ``[row, junction]`` (None: it completes an incomplete cart)."""
    r, j = token
    where = f"row {r}, junction {j}"
    if r >= len(mine):
        rows = f"rows 0–{len(mine) - 1}" if mine else "no rows"
        return f"{where}: no such row (the mine has {rows})"
    row = mine[r]
    if j >= len(row) - 1:
        span = f"junctions 0–{len(row) - 2}" if len(row) > 1 else "no junction"
        return f"{where}: no such junction (row {r} has {len(row)} slot(s): {span})"
    empty = [k for k in (j, j + 1) if row[k] is None]
    if empty:
        return f"{where}: no junction next to an empty slot (slot {empty[0]} is empty)"
    found = next((x for x in junctions([row]) if x.index == j), None)
    if found is None:
        return (f"{where}: nothing is printed there (neither card has a half-cart on that edge); "
                "a token only completes an incomplete cart")
    if found.is_complete:
        return (f"{where}: the cart there is already complete (two halves printed); "
                "a token only completes an incomplete cart")
    return None


def count_carts(mine: Mine, tokens: Sequence[Token] = ()) -> CartCount:
    """Complete and incomplete carts of a mine; ``tokens`` must all be valid (see token_problem)."""
    placed = set(tokens)
    found = list(junctions(mine))
    printed = sum(1 for x in found if x.is_complete)
    incomplete = [x for x in found if not x.is_complete]
    completed = sum(1 for x in incomplete if (x.row, x.index) in placed)
    return CartCount(printed, completed, len(incomplete) - completed)


def junction_lines(mine: Mine, tokens: Sequence[Token] = ()) -> list[str]:
    """Each row's junctions where a half-cart is printed, so a typo in a mine can be found:
    ``row 0: j0 complete; j2 half (R|·) + token; j3 half (·|L), no token — 1 + 1 of 3``."""
    placed = set(tokens)
    lines = []
    for r, row in enumerate(mine):
        parts, complete = [], 0
        found = list(junctions([row]))
        for x in found:
            left, right = row[x.index] or "", row[x.index + 1] or ""
            edge = ("R" if "R" in left else "·") + "|" + ("L" if "L" in right else "·")
            if x.is_complete:
                parts.append(f"j{x.index} complete ({edge})")
                complete += 1
            elif (r, x.index) in placed:
                parts.append(f"j{x.index} half ({edge}) + token")
                complete += 1
            else:
                parts.append(f"j{x.index} half ({edge}), no token")
        summary = f" — {complete} complete" if found else ""
        lines.append(f"row {r}: " + ("; ".join(parts) if parts else "no half-cart at a junction") + summary)
    return lines
