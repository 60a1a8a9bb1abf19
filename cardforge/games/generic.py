"""The data-only game: what a game gets from its ``game.yaml`` when it has no rule code.

- **Scoring from the score pad**: the final-state file gives each player's value per category
  — a number, or a short sum as people write on pads (``3+6+2``, ``10-2``) — and the
  tie-breaker values; cardforge adds them up, the engine ranks and breaks ties.
- **Setup**: the counts from ``setup.counts`` (a row for every player count, over an ``all``
  row), the checklist from ``setup.checklist`` (lines with ``{{ players }}``,
  ``{{ counts.NAME }}``…), and a deal: a random first player and, with ``setup.hand``, a hand
  of cards for each player from the shuffled deck.
"""

from __future__ import annotations

import random
import re
from fractions import Fraction
from functools import lru_cache
from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import BeforeValidator, Field, create_model

from cardforge.data.models import Model
from cardforge.i18n import messages
from cardforge.problems import Problem, plural
from cardforge.scores import Number, PlayerResult, ScoreResult

if TYPE_CHECKING:
    from cardforge.data.loading import GameData
    from cardforge.data.models import CardBase
    from cardforge.games.view import GameView as Game

# --- pad values: numbers and short sums -------------------------------------------------------

_TERM = r"\d+(?:[.,]\d+)?"
_SUM = re.compile(rf"^\s*[+-]?\s*{_TERM}(?:\s*[+-]\s*{_TERM})*\s*$")
_TOKEN = re.compile(rf"([+-]?)\s*({_TERM})")
MAX_SUM_LENGTH = 200


def parse_pad_value(value: Any) -> Number:
    """``7`` → 7, ``"3+6+2"`` → 11, ``"10 - 2"`` → 8, ``"2,5"`` → 5/2. ValueError otherwise."""
    if isinstance(value, bool):
        raise ValueError(f"expected a number or a sum such as 3+6+2, got {value!r}")
    if isinstance(value, int):
        return value
    if isinstance(value, float):
        if value != value or value in (float("inf"), float("-inf")):
            raise ValueError(f"expected a number or a sum such as 3+6+2, got {value!r}")
        frac = Fraction(str(value))
        return int(frac) if frac.denominator == 1 else frac
    if isinstance(value, str) and len(value) <= MAX_SUM_LENGTH and _SUM.match(value):
        total = Fraction(0)
        for sign, number in _TOKEN.findall(value.replace(" ", "")):
            term = Fraction(number.replace(",", "."))
            total += -term if sign == "-" else term
        return int(total) if total.denominator == 1 else total
    shown = value if not isinstance(value, str) or len(value) <= 40 else value[:40] + "…"
    raise ValueError(f"expected a number or a sum such as 3+6+2, got {shown!r}")


def _pad_value(value: Any) -> Any:
    """Keep what was written (a sum stays a string); check it adds up."""
    if value is None:
        return value
    parse_pad_value(value)
    return value


PadValue = Annotated[int | float | str, BeforeValidator(_pad_value)]


class _DataOnlyState(Model):
    mode: str | None = None


def _holding_field(decl: Any) -> tuple[Any, Any]:
    """A declared holding → (type, Field) of the final state's player: card ids, counts of
    cards, or a whole number (0 when not given)."""
    from cardforge import sheet
    from cardforge.limits import limit

    extra = sheet.extra(decl)
    if isinstance(decl, sheet.Cards):
        return list[str], Field(default_factory=list, max_length=limit("inline_cards"), json_schema_extra=extra)
    if isinstance(decl, sheet.Counts):
        return (dict[str, Annotated[int, Field(ge=0)]],
                Field(default_factory=dict, max_length=limit("inline_cards"), json_schema_extra=extra))
    return int, Field(decl.min if decl.min > 0 else 0, ge=decl.min, le=decl.max, json_schema_extra=extra)


@lru_cache(maxsize=None)
def _state_models(game: Game) -> type[Model]:
    fields: dict[str, Any] = {"name": (str, Field(min_length=1, max_length=80))}
    for c in game.spec.categories:
        if c.score is not None:
            continue  # computed from the holdings (declared scoring)
        fields[c.id] = (PadValue | None, None) if c.optional else (PadValue, ...)
    for hid, decl in game.spec.holdings.items():
        fields[hid] = _holding_field(decl)
    for cid, choice in game.spec.choices.items():  # a faction, a role: one of its values, or not said
        if choice.values is not None:
            fields[choice.field or cid] = (Literal[tuple(choice.values)] | None, None)
    cats = {c.id for c in game.spec.categories}
    for t in game.spec.tie_breakers:
        if t.id not in cats and t.id not in game.spec.holdings:
            fields[t.id] = (PadValue | None, None)
    player = create_model(f"{game.id}_player", __base__=Model, **fields)
    return create_model(f"{game.id}_final_state", __base__=_DataOnlyState,
                        players=(list[player], Field(min_length=1)))


def final_state_model(game: Game) -> type[Model]:
    """``{mode?, players: [{name, <category>: value…, <holding>: …, <choice>: value, <tie-breaker>:
    value…}]}`` (a category computed by a declared rule is not given; a choice is optional)."""
    return _state_models(game)


def _values(game: Game, player: Any, computed: dict[str, Number] | None = None
            ) -> tuple[dict[str, Number], dict[str, Number | None]]:
    """A player's value per category (given on the pad, or ``computed``) and per tie-breaker (a
    category's value, a holding's — a number, or how many cards — or a value given for it)."""
    computed = computed or {}
    breakdown: dict[str, Number] = {}
    for c in game.spec.categories:
        if c.score is not None:
            breakdown[c.id] = computed.get(c.id, 0)
        else:
            raw = getattr(player, c.id)
            breakdown[c.id] = parse_pad_value(raw) if raw is not None else 0
    ties: dict[str, Number | None] = {}
    for t in game.spec.tie_breakers:
        if t.id in breakdown:
            ties[t.id] = breakdown[t.id]
            continue
        raw = getattr(player, t.id, None)
        if t.id in game.spec.holdings:
            ties[t.id] = sum(raw.values()) if isinstance(raw, dict) else len(raw) if isinstance(raw, list) else raw
        else:
            ties[t.id] = parse_pad_value(raw) if raw is not None else None
    return breakdown, ties


def check_final_state(game: Game, data: GameData[CardBase], state: Any) -> list[Problem]:
    """A tie-breaker value missing for players it would have to separate."""
    problems: list[Problem] = []
    count = len(state.players)
    if not game.min_players <= count <= game.max_players:
        problems.append(Problem(f"{count} given, {game.id} supports {game.players_label}", field="players"))
    seen: dict[str, int] = {}
    for i, player in enumerate(state.players, start=1):
        key = player.name.strip().casefold()
        if key in seen:
            problems.append(Problem(f"the name '{player.name}' is also player #{seen[key]}'s: give each "
                                    "player a different name", item=f"player '{player.name}' (#{i})", field="name"))
        seen.setdefault(key, i)
    if state.mode is not None and state.mode not in game.modes:
        problems.append(Problem(f"'{state.mode}' is not a mode of {game.id} (modes: {', '.join(game.modes)})",
                                field="mode"))
    from cardforge.games import declared

    held = declared.check_state(game, data, state)  # the cards named: of the deck, not too many
    problems += held
    if not game.spec.tie_breakers or held:
        return problems
    computed = declared.category_values(game, data, state)
    rows = [(p, *_values(game, p, c)) for p, c in zip(state.players, computed)]
    totals = [sum(b.values(), Fraction(0)) for _, b, _ in rows]
    for t in game.spec.tie_breakers:
        for i, (player, _, ties) in enumerate(rows):
            tied = [j for j, total in enumerate(totals) if total == totals[i] and j != i]
            if ties[t.id] is None and tied:
                others = ", ".join(rows[j][0].name for j in tied)
                problems.append(Problem(
                    f"tied with {others}: give '{t.id}' ({t.label_en or t.label}) to break the tie",
                    item=f"player '{player.name}' (#{i + 1})", field=t.id))
        break  # the first tie-breaker is what a tie needs first; later ones only if still tied
    return problems


def _tie_key(value: Number | None, order: str) -> Number:
    """A tie-breaker's value as a key where higher wins (none given: 0)."""
    if value is None:
        return 0
    return -value if order == "low" else value


def score(game: Game, data: GameData[CardBase], state: Any) -> ScoreResult:
    from cardforge.games import declared

    results: list[PlayerResult] = []
    sums: dict[str, dict[str, str]] = {}
    computed = declared.category_values(game, data, state)
    for player, values in zip(state.players, computed):
        breakdown, ties = _values(game, player, values)
        tiebreak = tuple(_tie_key(ties[t.id], t.order) for t in game.spec.tie_breakers)
        results.append(PlayerResult(player.name, breakdown, tiebreak))
        written = {c.id: getattr(player, c.id) for c in game.spec.categories
                   if c.score is None and isinstance(getattr(player, c.id), str)}
        if written:
            sums[player.name] = written
    return ScoreResult(results, details={"sums": sums} if sums else None,
                       report=declared.report(game, data, state))


# --- setup -----------------------------------------------------------------------------------

def setup_counts(game: Game, players: int, mode: str, options: dict[str, Any]) -> dict[str, Any]:
    table = game.spec.setup.counts if game.spec.setup else {}
    counts: dict[str, Any] = {}
    for key in ("all", players, str(players)):
        counts.update(table.get(key) or {})
    return counts


_PLACEHOLDER = re.compile(r"\{\{\s*([a-z_][a-z0-9_]*(?:\.[a-z0-9_]+)?)\s*\}\}", re.IGNORECASE)


def fill(line: str, values: dict[str, Any]) -> str:
    """``"{{ counts.hand }} cartes"`` with ``counts.hand = 5`` → ``"5 cartes"``."""

    def one(m: re.Match[str]) -> str:
        head, _, tail = m.group(1).partition(".")
        value = values.get(head)
        if tail:
            value = value.get(tail) if isinstance(value, dict) else None
        if value is None:
            raise KeyError(m.group(1))
        return str(value)

    return _PLACEHOLDER.sub(one, line)


def setup_steps(game: Game, players: int, mode: str, options: dict[str, Any], counts: dict[str, Any]) -> list[str]:
    lines = game.spec.setup.checklist if game.spec.setup else []
    values = {"players": players, "mode": mode, "counts": counts, "options": options}
    out = []
    for line in lines:
        try:
            out.append(fill(line, values))
        except KeyError as exc:  # checked by check_spec; a line naming nothing known stays as written
            del exc
            out.append(line)
    return out or [messages(game.language).ngettext("Deal the components for {n} player.",
                                                     "Deal the components for {n} players.", players)]


def hand_size(game: Game, counts: dict[str, Any]) -> int:
    hand = game.spec.setup.hand if game.spec.setup else None
    if hand is None:
        return 0
    if isinstance(hand, str):
        value = counts.get(hand, 0)
        return value if isinstance(value, int) else 0
    return hand


def deal(game: Game, data: GameData[CardBase], players: int, mode: str, options: dict[str, Any],
         rng: random.Random) -> dict[str, Any]:
    counts = setup_counts(game, players, mode, options)
    out: dict[str, Any] = {"player_count": players, "mode": mode}
    if game.spec.setup is None or game.spec.setup.first_player:
        out["first_player"] = rng.randrange(players) + 1
    size = hand_size(game, counts)
    if size:
        kinds = game.spec.setup.hand_kinds if game.spec.setup else None
        pile = [c.id for c in data.printed if kinds is None or c.kind in kinds]
        if len(pile) < size * players:
            from cardforge.errors import SetupError

            raise SetupError(f"setup for {game.id} is not playable", [Problem(
                f"{players} hands of {size} need {size * players} cards, the deck has {len(pile)}"
                + (f" of kinds {', '.join(kinds)}" if kinds else ""), field="setup.hand")])
        rng.shuffle(pile)
        out["hands"] = [sorted(pile[i * size:(i + 1) * size]) for i in range(players)]
    return out


class DataOnlyDeal(Model):
    """A deal of a data-only game, as ``cardforge setup --json`` prints it."""

    player_count: int = Field(ge=1, le=99)
    mode: str | None = None
    first_player: int | None = Field(None, ge=1)
    hands: list[list[str]] | None = None
    seed: int | None = None

    def setup_request(self) -> tuple[int, str | None, dict[str, Any] | None]:
        return self.player_count, self.mode, {}


def deal_model(game: Game) -> type[Model]:
    return DataOnlyDeal


def check_setup(game: Game, data: GameData[CardBase], setup: DataOnlyDeal) -> list[Problem]:
    problems: list[Problem] = []
    mode = setup.mode or game.default_mode
    if mode not in game.modes:
        problems.append(Problem(f"'{mode}' is not a mode of {game.id} (modes: {', '.join(game.modes)})",
                                field="mode"))
        return problems
    if setup.first_player is not None and setup.first_player > setup.player_count:
        problems.append(Problem(f"player {setup.first_player} does not exist ({plural(setup.player_count, 'player')})",
                                field="first_player"))
    size = hand_size(game, setup_counts(game, setup.player_count, mode, {}))
    if setup.hands is None:
        if size:
            problems.append(Problem(f"missing: each player starts with {plural(size, 'card')}", field="hands"))
        return problems
    if len(setup.hands) != setup.player_count:
        problems.append(Problem(f"{len(setup.hands)} hands for {plural(setup.player_count, 'player')}", field="hands"))
    available = {c.id: c.copies for c in data.cards}
    used: dict[str, int] = {}
    for i, hand in enumerate(setup.hands, start=1):
        if len(hand) != size:
            problems.append(Problem(f"{plural(len(hand), 'card')}, each player starts with {size}",
                                    field=f"hands[{i - 1}]"))
        for card in hand:
            used[card] = used.get(card, 0) + 1
    for card, n in used.items():
        if card not in available:
            problems.append(Problem(f"unknown card '{card}'", field="hands"))
        elif n > available[card]:
            problems.append(Problem(f"'{card}' dealt {n} times, the deck has {available[card]}", field="hands"))
    return problems
