"""What each card scores once every choice is made, and the royal-fidelity medallions.

A :class:`Played` card is a card as it counts at the end: its chosen nature, the cost it counts
as (X paid, Cornemuse 3+1+1), its runes, éclats, music symbols and forge squares with the Bâton's
option applied. :func:`card_scores` scores a player's played cards and forge placement.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING

from .cards import (
    CRYSTALS,
    ELEMENTS,
    SYMBOLS,
    CadrePortrait,
    Calice,
    CardFields,
    Cocarde,
    ConcordeNatures,
    ConcordeRunes,
    Lunettes,
    Maudit,
    Monument,
    Pinces,
    Raw,
    Religion,
    RuneTable,
    Socle,
    Stele,
    SteleGloire,
)

if TYPE_CHECKING:
    from cardforge.scores import Number

#: «1 cristal payé -> le Calice rapporte 2 points …, 2 payé -> 4 pts, 3 payé -> 7 pts, 4 payé -> 9 pts,
#: 5 payé -> 12 pts, 6 payé -> 14 pts, (puis de +2 en +2)»
CALICE_POINTS: tuple[int, ...] = (0, 2, 4, 7, 9, 12, 14)
MUSIC_CAP = 5  # «pour chaque somme, vous n'avez pas le droit de compter plus de 5 symboles»
LUNETTES_PER_PAIR = 4  # «4 points pour chaque binôme de cristaux indiqués placés»
SOCLE_CARDS = 3  # «Recherchez les 3 cartes dont la somme de coût des 2 couleurs …»
MONOCHROME_BASE, MONOCHROME_PER_LEAD = 6, 2
POLYCHROME_BASE, POLYCHROME_PER_LEAD = 12, 1


@dataclass(frozen=True)
class OpaleEffect:
    """A façon Opale bonus (« Variante : les bonus de la façon Opale »), paid once for one card:
    ``school`` of the card; ``colour`` for the court, noble and religious bonuses; ``symbol`` for
    the musician's (what the gold counts as) and ``raises`` (whose maximum rises by 1);
    ``squares`` the 4 pre-filled squares of the forge's."""

    school: str
    colour: str | None = None
    symbol: str | None = None
    squares: tuple[str, ...] = ()
    raises: str | None = None


#: «Augmente d'un le maximum pouvant être compté dans un symbole au choix […] Ne bonus ne peux
#: pas permettre d'atteindre un «max 7»»
MUSIC_CAP_MAX = 6
#: Scoring kinds whose rate the Mémoriss Opale bonus raises by 1 («Le scoring que cette dernière
#: apporte est amélioré de +1»), with the attribute holding the rate (None: 1 point per unit).
MEMORISS_RATE = {"stele": "per_card", "stele_gloire": "per_card", "monument": "per_card",
                 "concorde_natures": "per_set", "cadre_portrait": None}


@dataclass(frozen=True)
class Owned:
    """A card a player lists: ``key`` names it in choices and messages (its id, or an inline
    card's name when it has no id)."""

    key: str
    name: str
    card: CardFields
    paid: int | None = None
    opale: OpaleEffect | None = None  # a façon Opale bonus bought with the card

    @property
    def label(self) -> str:
        return self.key if self.key == self.name else f"{self.key} ({self.name})"


@dataclass(frozen=True)
class Played:
    owned: Owned
    nature: str  # red | green | blue | none (a multi-nature card's chosen nature)
    weight: int  # how many cards of its nature it counts as
    cost: tuple[tuple[str, int], ...]
    runes: tuple[tuple[str, int], ...]
    eclats: int
    music: tuple[tuple[str, int], ...]
    squares: tuple[str, ...]
    bonus_taken: bool = False

    def cost_of(self, colour: str) -> int:
        return dict(self.cost)[colour]

    @property
    def total_cost(self) -> int:
        return sum(n for _, n in self.cost)


def base_cost(owned: Owned) -> dict[str, int]:
    """The cost a card counts as at the end: its parchment, X replaced by what was paid, or its
    ``final_cost`` (a Cornemuse: «on considère que le coût était en fait de 3 + 1 + 1»)."""
    card = owned.card
    source = card.final_cost or card.cost
    cost = {c: source.of(c) for c in CRYSTALS}
    if card.x_colour is not None:
        cost[card.x_colour] = owned.paid or 0
    return cost


@dataclass
class Tally:
    """A player's totals the scoring kinds read."""

    cards: int
    natures: Counter[str]
    runes: Counter[str]
    eclats: int
    music: Counter[str]
    placed: Counter[str]  # crystals on forge squares: placed from the stock and pre-filled
    cursed: int


def tally(played: list[Played], placement: dict[str, int]) -> Tally:
    natures: Counter[str] = Counter()
    runes: Counter[str] = Counter(dict.fromkeys(ELEMENTS, 0))
    music: Counter[str] = Counter(dict.fromkeys(SYMBOLS, 0))
    placed: Counter[str] = Counter(placement)
    eclats = cursed = 0
    for p in played:
        if p.nature in ELEMENTS:
            natures[p.nature] += p.weight
        for colour, n in p.runes:
            runes[colour] += n
        for symbol, n in p.music:
            music[symbol] += n
        for square in p.squares:
            # «Certains carrés sont représentés avec un cristal directement dedans. Ils sont
            # considérés comme déjà pleins»: a pre-filled square counts as a placed crystal.
            if square.startswith("filled:"):
                placed[square.removeprefix("filled:")] += 1
        eclats += p.eclats
        cursed += p.owned.card.scoring.kind == "maudit"
    # Reading (issue 18): a Tambour «compte comme si vous aviez 2 cartes de leur nature (ils sont
    # donc très efficaces pour scorer avec les cartes Mémoriss-Urbanistes)» — the Stèles are
    # Mémoriss-Urbanistes and «comptent toutes les cartes», so a Tambour (or a Bâton on its
    # Tambour option) counts as 2 cards for them too.
    return Tally(sum(p.weight for p in played), natures, runes, eclats, music, placed, cursed)


@dataclass(frozen=True)
class CardScore:
    owned: Owned
    category: str | None
    points: int
    why: str


def _table_points(table: dict[int, int], count: int) -> tuple[int, int | None]:
    """Points of the highest threshold reached, and that threshold (None: none reached)."""
    reached = [t for t in table if t <= count]
    return (table[max(reached)], max(reached)) if reached else (0, None)


def calice_points(paid: int) -> int:
    if paid < len(CALICE_POINTS):
        return CALICE_POINTS[paid]
    return CALICE_POINTS[-1] + 2 * (paid - (len(CALICE_POINTS) - 1))


def musician_points(music: Counter[str], caps: dict[str, int] | None = None) -> tuple[int, str]:
    caps = caps or {}
    cap = {s: caps.get(s, MUSIC_CAP) for s in SYMBOLS}
    capped = [min(cap[s], music[s]) for s in SYMBOLS]
    shown = " × ".join(f"{min(cap[s], music[s])}{'' if music[s] <= cap[s] else f' (of {music[s]})'}"
                       for s in SYMBOLS)
    raised = [f"max {cap[s]} {SIGNS[s]}" for s in SYMBOLS if cap[s] != MUSIC_CAP]
    return capped[0] * capped[1] * capped[2], f"♬ × ♯ × ♪ = {shown}" + (
        f" (Opale: {', '.join(raised)})" if raised else "")


SIGNS = {"double": "♬", "sharp": "♯", "single": "♪"}


def music_caps(played: list[Played]) -> dict[str, int]:
    caps = dict.fromkeys(SYMBOLS, MUSIC_CAP)
    for p in played:
        o = p.owned.opale
        if o is not None and o.school == "musicien" and o.raises:
            caps[o.raises] = min(MUSIC_CAP_MAX, caps[o.raises] + 1)
    return caps


def _points(p: Played, t: Tally, played: list[Played]) -> tuple[int, str]:
    """What one card scores itself (the musician total is handled by the caller)."""
    s = p.owned.card.scoring
    if isinstance(s, Raw):
        return s.points, "printed points"
    if isinstance(s, Cocarde):
        return t.eclats, f"{t.eclats} éclat(s) × 1"
    if isinstance(s, CadrePortrait):
        n = t.natures[s.nature]
        return n, f"{n} {s.nature} card(s) × 1, itself included"
    if isinstance(s, Stele):
        return t.cards * s.per_card, f"{t.cards} card(s) × {s.per_card}"
    if isinstance(s, SteleGloire):
        n = sum(1 for q in played if q.total_cost >= s.min_cost)
        return n * s.per_card, f"{n} card(s) costing {s.min_cost}+ crystals × {s.per_card}"
    if isinstance(s, Monument):
        n = t.natures[s.nature]
        return n * s.per_card, f"{n} {s.nature} card(s) × {s.per_card}"
    if isinstance(s, ConcordeNatures):
        n = min(t.natures[c] for c in ELEMENTS)
        counts = "/".join(str(t.natures[c]) for c in ELEMENTS)
        return n * s.per_set, f"{n} red+green+blue triplet(s) (natures {counts}) × {s.per_set}"
    if isinstance(s, RuneTable):
        n = sum(t.runes.values()) if s.rune == "any" else t.runes[s.rune]
        what = "rune(s)" if s.rune == "any" else f"{s.rune} rune(s)"
        pts, step = _table_points(s.table, n)
        return pts, f"{n} {what}: " + (f"threshold {step}" if step else "no threshold reached")
    if isinstance(s, ConcordeRunes):
        n = min(t.runes[c] for c in ELEMENTS)
        pts, step = _table_points(s.table, n)
        return pts, f"{n} rune triplet(s): " + (f"column {step}" if step else "no column reached")
    if isinstance(s, Religion):
        costs = sorted((q.cost_of(s.colour) for q in played), reverse=True)[:s.top]
        total = sum(costs)
        return total * s.factor, (f"top {s.top} {s.colour} costs {'+'.join(map(str, costs))} = "
                                  f"{total} × {s.factor}")
    if isinstance(s, Calice):
        paid = p.cost_of(s.colour)
        return calice_points(paid), f"{paid} {s.colour} paid"
    if isinstance(s, Socle):
        a, b = s.colours
        costs = sorted((q.cost_of(a) + q.cost_of(b) for q in played), reverse=True)[:SOCLE_CARDS]
        return sum(costs), f"top {SOCLE_CARDS} {a}+{b} costs {'+'.join(map(str, costs))}"
    if isinstance(s, Lunettes):
        x, y = s.colours  # crystals (gold too), where a Socle's are elements
        pairs = min(t.placed[x], t.placed[y])
        return LUNETTES_PER_PAIR * pairs, (f"{pairs} {x}+{y} pair(s) placed ({x} {t.placed[x]}, "
                                           f"{y} {t.placed[y]}) × {LUNETTES_PER_PAIR}")
    if isinstance(s, Pinces):
        n = sum(t.placed.values())
        return n // 2, f"{n} crystal(s) on forge squares ÷ 2"
    if isinstance(s, Maudit):
        table = s.values
        each = table.get(t.cursed, table[max(table)])
        return each, f"{t.cursed} cursed crystal(s) owned: {each} each"
    return 0, "no points of its own"  # baton, none


#: The only kinds that read the nature counts, the forge placement and the music sums.
NATURE_KINDS = frozenset({"cadre_portrait", "monument", "concorde_natures"})
FORGE_KINDS = frozenset({"lunettes", "pinces"})
MUSIC_KINDS = frozenset({"musicien"})


def music_holder(played: list[Played]) -> Played | None:
    """The card the musician total is written on: the first musician card, else the first card
    with music symbols or a frieze (a Harpe, a Bâton), else none.

    Reading (issue 18): «À la fin de la partie, consultez toutes les cartes musiciens (et Bâtons)
    en une fois et multipliez la somme des ♬, par celle des ♯ et celle de ♪» — the school's
    points are the product over every symbol the player shows, musician project cards or not:
    a Harpe's symbols and a Bâton's frieze count without a musician card (Harpe ♬♯♪ alone: 1)."""
    first = next((p for p in played if p.owned.card.scoring.kind == "musicien"), None)
    if first is not None:
        return first
    return next((p for p in played if any(n for _, n in p.music) or p.owned.card.scoring.kind == "baton"),
                None)


def card_scores(played: list[Played], placement: dict[str, int],
                only: frozenset[str] | None = None) -> list[CardScore]:
    """Every card's points (``only``: just the cards of those scoring kinds). The musician total is
    counted once per player («consultez toutes les cartes musiciens (et Bâtons) en une fois»), on
    the card :func:`music_holder` picks; a gift's gold bonus counts on the gift."""
    t = tally(played, placement)
    out: list[CardScore] = []
    holder = music_holder(played) if only is None or "musicien" in only else None
    caps = music_caps(played)
    if holder is not None and holder.owned.card.scoring.kind != "musicien":
        pts, why = musician_points(t.music, caps)
        out.append(CardScore(holder.owned, "musiciens", pts, why + " (no musician card: the symbols "
                                                                  "of every card still multiply)"))
    for p in played:
        card = p.owned.card
        if only is not None and card.scoring.kind not in only:
            continue
        if card.scoring.kind == "musicien":
            if p is holder:
                pts, why = musician_points(t.music, caps)
            else:
                pts, why = 0, f"musicians count once, on {holder.owned.key if holder else '—'}"
            out.append(CardScore(p.owned, "musiciens", pts, why))
            continue
        pts, why = _points(p, t, played)
        o = p.owned.opale
        if o is not None and o.school == "memoriss" and card.scoring.kind in MEMORISS_RATE:
            attr = MEMORISS_RATE[card.scoring.kind]
            rate = getattr(card.scoring, attr) if attr else 1
            units = pts // rate
            pts += units
            why += f"; Opale: +1 a unit ({units} × {rate + 1})"
        out.append(CardScore(p.owned, card.category, pts, why))
        if o is not None and o.school == "religion" and o.colour:
            # «En fin de partie, ce bonus vous rapporte 1 point par [cristal de la couleur] sur
            # les coût de toutes vos cartes»
            n = sum(q.cost_of(o.colour) for q in played)
            out.append(CardScore(p.owned, "religion", n, f"Opale bonus: {n} {o.colour} crystal(s) on the "
                                                         "costs of all your cards × 1"))
        bonus = getattr(card, "gold_bonus", None)
        if bonus is not None and p.bonus_taken:
            out.append(CardScore(p.owned, bonus.category, bonus.points,
                                 f"gold bonus: {bonus.gold} gold spent"))
    return out


def total(scores: list[CardScore]) -> int:
    return sum(s.points for s in scores)


# --- medallions ------------------------------------------------------------------------------

@dataclass(frozen=True)
class Medallion:
    id: str  # red | green | blue | polychrome
    counts: dict[str, int]  # player name → count
    leaders: tuple[str, ...]
    lead: int | None  # over the second, for a single leader
    points: dict[str, Number]


def logo_counts(owned: list[Owned], king: bool, logo_bonus: bool = False) -> dict[str, int]:
    """The four counts: a multicolour logo counts 1 in each; the ♚ counts 1 in each monochrome
    count only («ici la ♚ compte comme un logo»; the rulebook's example gives the polychrome
    medallion to Odurf's 5 logos against Gurts' 4 logos and the ♚)."""
    counts: Counter[str] = Counter()
    for o in owned:
        logos = o.card.logos
        for colour in ELEMENTS:
            counts[colour] += getattr(logos, colour) + logos.multi
        counts["polychrome"] += logos.red + logos.green + logos.blue + logos.multi
        if o.opale is not None and o.opale.school == "cour" and o.opale.colour:
            # «Comptera comme un [logo] de la couleur correspondant au cristal dépensé»
            counts[o.opale.colour] += 1
            counts["polychrome"] += 1
    if king:
        for colour in ELEMENTS:
            counts[colour] += 1
    if logo_bonus:
        # «il gagne le jeton […] donc 1 logo bonus»: one logo of no colour (the token's picture is
        # lost) — cardforge's reading: it counts in the count of all logos, the polychrome one
        counts["polychrome"] += 1
    return {k: counts[k] for k in (*ELEMENTS, "polychrome")}


def medallion(medal: str, counts: dict[str, int]) -> Medallion:
    """Strict leader: base + per point of lead over the second; tied leaders share the base
    («en cas d'égalité ici, les points offerts par le médaillon sont partagés»); nobody with a
    logo: not awarded."""
    base, per = ((POLYCHROME_BASE, POLYCHROME_PER_LEAD) if medal == "polychrome"
                 else (MONOCHROME_BASE, MONOCHROME_PER_LEAD))
    best = max(counts.values())
    if best == 0:
        return Medallion(medal, counts, (), None, {})
    leaders = tuple(name for name, n in counts.items() if n == best)
    if len(leaders) > 1:
        share = Fraction(base, len(leaders))
        return Medallion(medal, counts, leaders, None, {name: share for name in leaders})
    second = max(n for name, n in counts.items() if name != leaders[0])
    lead = best - second
    return Medallion(medal, counts, leaders, lead, {leaders[0]: base + per * lead})
