"""The end-game choices that give a player the highest total, unless the score file fixes them.

Choices: the nature of each multi-nature card («vous choisissez quelle est sa nature … fixée pour
tout le décompte»), each Bâton's option (1 of 5) and frieze symbol, spending gold on a gift's bonus,
and which stock crystals go on the forge squares.

Exactness. No choice touches a logo, so medallions never depend on them and each player is
optimised alone. Once the Bâton options and bonuses are fixed (the outer loop tries every
combination), the total splits into independent parts:
  total = C + f_natures(natures) + f_forge(placement) + f_music(frieze symbols)
because natures only feed the nature counts (Cadres, Monuments, Concordes), the placement only the
forge counts (Lunettes, Pinces) and frieze symbols only the music sums (Musiciens) — each part is
the points of those cards alone (points.NATURE_KINDS, FORGE_KINDS, MUSIC_KINDS). So each part is
maximised on its own, exhaustively:
  - natures: only how many multi-nature cards of each weight (1, or 2 for a Tambour) take each
    nature matters, so every such split is tried;
  - placement: both Lunettes and Pinces grow with every crystal placed, so a crystal on a square
    of its own colour never hurts and takes nothing another crystal could use: those squares are
    filled as far as the stock allows, and every way to share the wild squares among the crystals
    left is tried;
  - frieze symbols: every split of the free friezes among ♬ ♯ ♪ is tried.
Ties keep the first option tried (natures red, green, blue; Bâton options in printed order; the
gold kept before spent).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from itertools import product
from typing import TYPE_CHECKING, Any

from .cards import (
    CRYSTALS,
    ELEMENTS,
    SYMBOLS,
    CornemuseOption,
    EclatOption,
    ForgeOption,
    RuneOption,
    TambourOption,
    baton_options,
    gold_bonus_of,
)
from .points import (
    FORGE_KINDS,
    MUSIC_KINDS,
    NATURE_KINDS,
    CardScore,
    Owned,
    Played,
    base_cost,
    card_scores,
    total,
)

if TYPE_CHECKING:
    from .cards import BatonOption


@dataclass
class Fixed:
    """Choices the score file fixes, by card key (options 0-based)."""

    natures: dict[str, str] = field(default_factory=dict)
    options: dict[str, int] = field(default_factory=dict)
    symbols: dict[str, str] = field(default_factory=dict)
    bonuses: dict[str, bool] = field(default_factory=dict)
    placement: dict[str, int] | None = None


@dataclass
class Play:
    """A player's cards as they count, the forge placement and the resulting scores."""

    played: list[Played]
    placement: dict[str, int]
    scores: list[CardScore]
    options: dict[int, int]  # index of a Bâton in ``played`` → option index (0-based)

    @property
    def total(self) -> int:
        return total(self.scores)


def play_card(owned: Owned, option: BatonOption | None = None, bonus: bool = False,
              nature: str | None = None, symbol: str | None = None) -> Played:
    """``owned`` as it counts with these choices; a multi-nature card left without a nature counts
    in no nature yet, a Bâton without a symbol adds none yet."""
    card = owned.card
    cost = base_cost(owned)
    runes = {c: getattr(card.runes, c) for c in ELEMENTS}
    music = {s: getattr(card.music, s) for s in SYMBOLS}
    eclats, weight, squares = card.eclats, card.counts_as, list(card.forge_squares)
    if option is not None:
        if isinstance(option, TambourOption):
            weight = 2
        elif isinstance(option, CornemuseOption):
            cost = {c: option.cost.of(c) for c in CRYSTALS}
        elif isinstance(option, RuneOption):
            runes[option.colour] += 1
        elif isinstance(option, EclatOption):
            eclats += option.count
        elif isinstance(option, ForgeOption):
            squares.append(option.square)
    if symbol is not None:
        music[symbol] += 1
    o = owned.opale
    if o is not None:
        if o.school == "esthete":  # «l'or […] vaut pour un [éclat] en fin de partie»
            eclats += 1
        elif o.school == "noblesse" and o.colour:  # «Comptera comme un [rune] […] selon le cristal dépensé»
            runes[o.colour] += 1
        elif o.school == "forge":  # «Les 4 emplacements déjà remplies comptent […] en fin de partie»
            squares += [f"filled:{c}" for c in o.squares]
        elif o.school == "musicien" and o.symbol:  # «Comptera comme un ♬ ou ♯ ou ♪»
            music[o.symbol] += 1
    if card.nature == "multi":
        nature = nature or "multi"
    else:
        nature = card.nature
    return Played(owned, nature, weight, tuple(cost.items()), tuple(runes.items()), eclats,
                  tuple(music.items()), tuple(squares), bonus)


def squares_of(played: list[Played]) -> tuple[Counter[str], int]:
    """Free squares by colour, and the number of wild (``any``) ones."""
    coloured = Counter(s for p in played for s in p.squares if s in CRYSTALS)
    wild = sum(1 for p in played for s in p.squares if s == "any")
    return coloured, wild


def fits(placement: dict[str, int], played: list[Played]) -> bool:
    """Whether these crystals can each go on a free square of their colour or a wild one."""
    coloured, wild = squares_of(played)
    overflow = sum(max(0, n - coloured[c]) for c, n in placement.items())
    return overflow <= wild


def _splits(n: int, parts: int) -> Iterator[tuple[int, ...]]:
    """Every way to write n as an ordered sum of ``parts`` non-negative integers."""
    if parts == 1:
        yield (n,)
        return
    for first in range(n, -1, -1):
        for rest in _splits(n - first, parts - 1):
            yield (first, *rest)


class _Search:
    def __init__(self, owned: list[Owned], stock: dict[str, int], fixed: Fixed):
        self.owned = owned
        self.stock = stock
        self.fixed = fixed
        self._natures: dict[tuple[Any, ...], list[Played]] = {}
        self._placements: dict[tuple[Any, ...], dict[str, int]] = {}
        self._symbols: dict[tuple[Any, ...], list[str]] = {}

    def best(self) -> Play | None:
        batons = [i for i, o in enumerate(self.owned) if o.card.scoring.kind == "baton"]
        gifts = [i for i, o in enumerate(self.owned) if gold_bonus_of(o.card)]
        option_choices = [(self.fixed.options[self.owned[i].key],) if self.owned[i].key in self.fixed.options
                          else range(len(baton_options(self.owned[i].card))) for i in batons]
        bonus_choices = [(self.fixed.bonuses[self.owned[i].key],) if self.owned[i].key in self.fixed.bonuses
                         else (False, True) for i in gifts]
        best: Play | None = None
        for options in product(*option_choices):
            chosen = dict(zip(batons, options))
            for bonuses in product(*bonus_choices):
                taken = {i for i, b in zip(gifts, bonuses) if b}
                play = self._play(chosen, taken)
                if play is not None and (best is None or play.total > best.total):
                    best = play
        return best

    def _play(self, options: dict[int, int], taken: set[int]) -> Play | None:
        available = dict(self.stock)
        available["gold"] -= sum(bonus.gold for i in taken if (bonus := gold_bonus_of(self.owned[i].card)))
        if available["gold"] < 0:
            return None
        played = []
        for i, o in enumerate(self.owned):
            option = baton_options(o.card)[options[i]] if i in options else None
            played.append(play_card(o, option, i in taken, self.fixed.natures.get(o.key),
                                    self.fixed.symbols.get(o.key)))
        placement = self.fixed.placement
        if placement is not None:
            if any(n > available[c] for c, n in placement.items()) or not fits(placement, played):
                return None
        else:
            placement = self._best_placement(played, available)
        played = self._best_natures(played)
        played = self._best_symbols(played)
        return Play(played, placement, card_scores(played, placement), options)

    def _best_natures(self, played: list[Played]) -> list[Played]:
        key = tuple((p.nature, p.weight) for p in played)
        if key not in self._natures:
            free = [i for i, p in enumerate(played) if p.nature == "multi"]
            weights = sorted({played[i].weight for i in free})
            groups = [[i for i in free if played[i].weight == w] for w in weights]
            best, best_total = played, None
            for splits in product(*(list(_splits(len(g), 3)) for g in groups)):
                candidate = list(played)
                for group, split in zip(groups, splits):
                    natures = [c for c, n in zip(ELEMENTS, split) for _ in range(n)]
                    for i, nature in zip(group, natures):
                        candidate[i] = replace(candidate[i], nature=nature)
                t = total(card_scores(candidate, {}, NATURE_KINDS))
                if best_total is None or t > best_total:
                    best, best_total = candidate, t
            self._natures[key] = best
        chosen = self._natures[key]
        return [replace(p, nature=c.nature) for p, c in zip(played, chosen)]

    def _best_placement(self, played: list[Played], available: dict[str, int]) -> dict[str, int]:
        if not any(p.owned.card.scoring.kind in FORGE_KINDS for p in played):
            return dict.fromkeys(CRYSTALS, 0)  # no Lunettes nor Pinces: placing earns nothing
        coloured, wild = squares_of(played)
        key = (tuple(sorted(coloured.items())), wild, tuple(sorted(available.items())))
        if key not in self._placements:
            own = {c: min(available[c], coloured[c]) for c in CRYSTALS}
            left = {c: available[c] - own[c] for c in CRYSTALS}
            k = min(wild, sum(left.values()))
            best, best_total = own, None
            for split in _splits(k, len(CRYSTALS)):
                if any(n > left[c] for c, n in zip(CRYSTALS, split)):
                    continue
                placement = {c: own[c] + n for c, n in zip(CRYSTALS, split)}
                t = total(card_scores(played, placement, FORGE_KINDS))
                if best_total is None or t > best_total:
                    best, best_total = placement, t
            self._placements[key] = best
        return self._placements[key]

    def _best_symbols(self, played: list[Played]) -> list[Played]:
        free = [i for i, p in enumerate(played)
                if p.owned.card.scoring.kind == "baton" and p.owned.key not in self.fixed.symbols]
        if not free:
            return played
        music: Counter[str] = Counter()
        for p in played:
            music.update(dict(p.music))
        key = (tuple(sorted(music.items())), len(free))
        if key not in self._symbols:
            best: list[str] = []  # _splits gives at least one split of the free cards
            best_total = None
            for split in _splits(len(free), len(SYMBOLS)):
                symbols = [s for s, n in zip(SYMBOLS, split) for _ in range(n)]
                candidate = list(played)
                for i, symbol in zip(free, symbols):
                    candidate[i] = _with_symbol(candidate[i], symbol)
                t = total(card_scores(candidate, {}, MUSIC_KINDS))
                if best_total is None or t > best_total:
                    best, best_total = symbols, t
            self._symbols[key] = best
        out = list(played)
        for i, symbol in zip(free, self._symbols[key]):
            out[i] = _with_symbol(out[i], symbol)
        return out


def _with_symbol(p: Played, symbol: str) -> Played:
    music = dict(p.music)
    music[symbol] += 1
    return replace(p, music=tuple(music.items()))


def best_play(owned: list[Owned], stock: dict[str, int], fixed: Fixed) -> Play | None:
    """The highest-scoring way to play ``owned`` with ``stock`` left, within the ``fixed`` choices;
    None when the fixed choices cannot be played together (a placement that needs the gold a fixed
    bonus spends, or squares no Bâton option gives)."""
    return _Search(owned, stock, fixed).best()


def frieze_symbol(p: Played) -> str | None:
    """The symbol a Bâton's frieze was given (its music minus the printed one)."""
    printed = p.owned.card.music
    for s in SYMBOLS:
        if dict(p.music)[s] > getattr(printed, s):
            return s
    return None
