"""End-game scoring of Imperial Miners (rulebook, « Fin de la partie » and « Mode solo »).

« Faites la somme de vos points de victoire, en comptant vos jetons PV et vos chariots
complets (ces derniers valent chacun 1 point). » Coins score nothing; they break ties, then
the complete carts in the mine, then the victory is shared.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated, Any

from pydantic import BeforeValidator, Field

from cardforge import sheet
from cardforge.data.loading import GameData
from cardforge.data.models import Model
from cardforge.limits import limit  # issue 21: bounded inputs
from cardforge.problems import Problem, plural, short_repr
from cardforge.scores import Number, PlayerResult, ScoreResult

from .cards import HalfCarts, MineTemplate
from .carts import CartCount, count_carts, junction_lines, token_problem
from .sections import NUMERALS, Event, Grade
from .setup_rules import EVENTS_PER_GAME

Count = Annotated[int, Field(ge=0, strict=True)]
# « Le niveau indique où la carte doit être jouée » and there are four levels (I–IV): one row
# per level under the surface board, so a mine has at most four rows.
MAX_ROWS = len(NUMERALS)


def _row_and_junction(value: Any) -> Any:
    if not isinstance(value, list | tuple) or len(value) != 2:
        raise ValueError(f"must be [row, junction] (two whole numbers ≥ 0), got {short_repr(value)}")
    return value


CartToken = Annotated[tuple[Count, Count], BeforeValidator(_row_and_junction)]


class MineCard(Model):
    """A card of the mine, by its half-carts: "L" left edge, "R" right edge, "LR", or ""."""

    carts: HalfCarts = ""


class PlayerState(Model):
    name: str = Field(min_length=1)
    vp: Count  # VP tokens
    coins: Count
    carts: Count | None = None  # complete carts, counted at the table…
    mine: list[list[MineCard | None]] | None = Field(  # …or the mine, rows from the surface down
        None, json_schema_extra=sheet.grid(
            MAX_ROWS, 6, max_rows=MAX_ROWS, edges="carts", junctions="cart_tokens", edge_name="half-cart",
            junction_name="cart token",
            help="tap a place for a card, then its half-carts and cart tokens; or give the carts above"))
    # [row, junction] of each token
    cart_tokens: list[CartToken] = Field(default_factory=list, max_length=limit("inline_cards"),
                                         json_schema_extra=sheet.skip("tapped on the mine grid"))

    def layout(self) -> list[list[str | None]]:
        return [[None if card is None else card.carts for card in row] for row in self.mine or []]


#: An event card by its id (``evenement-03``) or its number (``3``).
EventRef = Annotated[str, Field(min_length=1, max_length=100)] | Annotated[int, Field(strict=True)]


class FinalState(Model):
    players: list[PlayerState] = Field(max_length=limit("players"))
    # the event cards played, in order (« Phase Événement »), as the table recorded them: they
    # score nothing at the end (their effects are already in the VP tokens and coins), but a
    # play log keeps what the game was made of
    events: list[EventRef] = Field(default_factory=list, max_length=limit("inline_cards"),
                                   json_schema_extra=sheet.section_list("events", label="Events played",
                                                                        help="in the order they were drawn"))




def check_final_state(state: FinalState, game_id: str, min_players: int, max_players: int,
                      events: Sequence[Event] = ()) -> list[Problem]:
    """Every rule the final state breaks, each located by player and field; ``events`` the
    event cards of the data (for ``events:``)."""
    problems = []  # the player count and distinct names are the engine's (engine/scoring.py)
    for index, player in enumerate(state.players, start=1):
        item = f"player '{player.name}' (#{index})"
        problems += [Problem(message, item=item, field=field) for field, message in _player_problems(player)]
    return problems + _event_problems(state.events, events)


def _event_problems(played: Sequence[str | int], events: Sequence[Event]) -> list[Problem]:
    """« Mélangez les cartes Événement et piochez-en 10 pour former le paquet Événement »: each
    event played is one of the data's, drawn once, and a game draws 10 (one a round)."""
    problems = []
    first: dict[str, int] = {}
    for i, ref in enumerate(played):
        event = find_event(ref, events)
        if event is None:
            span = f"{events[0].id} … {events[-1].id}, or their numbers 1–{len(events)}" if events else "none"
            problems.append(Problem(f"unknown event {short_repr(ref)} (events: {span})", field=f"events[{i}]"))
        elif event.id in first:
            problems.append(Problem(f"{event.name} ({event.id}) is listed twice (first at events[{first[event.id]}]): "
                                    "each event card is drawn once", field=f"events[{i}]"))
        else:
            first[event.id] = i
    if len(played) > EVENTS_PER_GAME:
        problems.append(Problem(f"{len(played)} events listed, a game draws {EVENTS_PER_GAME} (one a round)",
                                field="events"))
    return problems


def find_event(ref: str | int, events: Sequence[Event]) -> Event | None:
    """The event card ``ref`` names: by id, or by its number."""
    if isinstance(ref, int):
        return next((e for e in events if e.number == ref), None)
    return next((e for e in events if e.id == ref), None)


def _player_problems(player: PlayerState) -> list[tuple[str, str]]:
    """(field, message) for one player's carts, mine and tokens."""
    if player.mine is None:
        out = []
        if player.carts is None:
            out.append(("carts", "required: give carts (the number of complete carts) or mine (its layout)"))
        if player.cart_tokens:
            out.append(("cart_tokens", "tokens are placed on a mine: give mine, or count the carts "
                                       "they complete in carts"))
        return out
    out = []
    layout = player.layout()
    if len(layout) > MAX_ROWS:
        out.append(("mine", f"{len(layout)} rows given, a mine has at most {MAX_ROWS} "
                            f"(one per level {', '.join(NUMERALS)})"))
    seen: dict[tuple[int, int], int] = {}
    for i, token in enumerate(player.cart_tokens):
        if token in seen:
            out.append((f"cart_tokens[{i}]", f"row {token[0]}, junction {token[1]}: two tokens on one "
                                             f"junction (first at cart_tokens[{seen[token]}])"))
            continue
        seen[token] = i
        message = token_problem(layout, token)
        if message:
            out.append((f"cart_tokens[{i}]", message))
    counted = mine_count(player)
    if player.carts is not None and counted is not None and counted.complete != player.carts:
        out.append(("carts", f"says {player.carts} complete carts but the mine shows {counted.complete} "
                             f"({counted.printed} printed + {counted.tokens} completed by tokens); "
                             "give one of them, or make them agree"))
    return out


def mine_count(player: PlayerState) -> CartCount | None:
    """The carts counted from the player's mine (valid tokens only); None without a mine."""
    if player.mine is None:
        return None
    layout = player.layout()
    return count_carts(layout, [t for t in player.cart_tokens if token_problem(layout, t) is None])


def grade_for(total: Number, grades: Sequence[Grade]) -> Grade:
    """The solo grade whose range holds ``total`` (the table covers every score: check_data)."""
    return next(g for g in grades if g.min <= total and (g.max is None or total <= g.max))


def score(data: GameData[MineTemplate], state: FinalState) -> ScoreResult:
    results, details, report = [], [], []
    for player in state.players:
        counted = mine_count(player)
        carts = counted.complete if counted is not None else player.carts or 0
        results.append(PlayerResult(
            player.name,
            {"carts": carts},  # the VP tokens: game.yaml declares them ({value: vp})
            tiebreak=(player.coins, carts),  # « le plus grand nombre de pièces », then carts
        ))
        details.append(_details(player, carts, counted))
        report.append(_report_line(player, carts, counted))
        if player.mine is not None:  # each junction, so a typo in the mine can be found
            layout = player.layout()
            valid = [t for t in player.cart_tokens if token_problem(layout, t) is None]
            report += [f"  {line}" for line in junction_lines(layout, valid)]
    events = [e for e in (find_event(ref, data.sections["events"]) for ref in state.events) if e is not None]
    if events:
        report.append(f"Events played ({len(events)} of the {EVENTS_PER_GAME}; they score nothing at the end): "
                      + ", ".join(e.name for e in events) + ".")
    if len(results) > 1:
        report.append("Coins score nothing; they only break ties: "
                      + ", ".join(f"{p.name} {p.coins}" for p in state.players) + ".")
    else:
        solo, player = results[0], state.players[0]
        total = player.vp + solo.total  # the declared VP tokens and the carts: the solo's total
        grade = grade_for(total, data.sections["grades"])
        solo.extra["grade"] = grade.name
        report.append(f"Solo grade: {grade.name} ({grade.span} points) with {total} points.")
    extra = {"events": [e.id for e in events]} if events else {}
    return ScoreResult(results, {"players": details, **extra}, report)


def _details(player: PlayerState, carts: int, counted: CartCount | None) -> dict[str, Any]:
    out: dict[str, Any] = {"name": player.name, "vp_tokens": player.vp, "coins": player.coins,
                           "complete_carts": carts}
    if counted is not None:
        out["mine"] = {"printed": counted.printed, "completed_by_tokens": counted.tokens,
                       "incomplete_left": counted.incomplete}
    return out


def _report_line(player: PlayerState, carts: int, counted: CartCount | None) -> str:
    if counted is None:
        return f"{player.name}: {plural(carts, 'complete cart')} (as given)."
    line = (f"{player.name}: {plural(carts, 'complete cart')} from the mine "
            f"({counted.printed} printed + {counted.tokens} completed by tokens)")
    if counted.incomplete:
        line += f"; {plural(counted.incomplete, 'incomplete cart')} left, worth nothing"
    return line + "."
