"""What was on the table: the deck a play used and what each player chose and held.

- A **deck** is identified by its version (``deck.yaml``'s ``version``, printed on every card's
  stamp) and its **fingerprint**: a digest of that version and every card's data and copies
  (not the layouts: a new look plays the same). The working data's and a build record's (``cards.json``, see
  ``render/cards/reprint.py``) of the same cards are the same fingerprint, so plays of the printed
  deck and of the data it was printed from are one deck.
- A play's **facts**: per seat, the choices the game declares (``choices:`` in game.yaml: a
  faction, a role…) and the cards its final state names in the fields declared as cards
  (``cards``/``counts`` widgets: cards played, cards won…), ``{field: {card id: copies}}``.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from cardforge.errors import DataError
from cardforge.problems import Problem

if TYPE_CHECKING:
    from cardforge.data.loading import GameData
    from cardforge.data.models import CardBase
    from cardforge.games.base import Game

#: the facts' format, stored with each play (a later cardforge reads older facts)
FACTS_FORMAT = 1


@dataclass(frozen=True)
class Deck:
    """A deck as played: its version, fingerprint, where it came from and its cards
    (``id → {name, kind, copies, data}``, as ``cardforge diff`` compares them)."""

    game: str
    version: str
    fingerprint: str
    source: str  # "data" (the working data) or "printed <record>"
    cards: dict[str, dict[str, Any]]

    @property
    def label(self) -> str:
        return f"v{self.version} · {self.fingerprint}"


def _canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def fingerprint(cards: dict[str, dict[str, Any]], version: str) -> str:
    """8 hex digits of the deck's version and every card's id, copies and data (sorted by id)."""
    h = hashlib.blake2b(digest_size=4)
    h.update(f"version\t{version}\n".encode())
    for cid in sorted(cards):
        c = cards[cid]
        h.update(f"{cid}\t{c.get('copies', 0)}\t{_canonical(c.get('data') or {})}\n".encode())
    return h.hexdigest()


def card_data(data: GameData[CardBase], card: CardBase) -> dict[str, Any]:
    """A card's data as JSON values, without its copies (as the build record keeps it)."""
    known = data.card_json.get(card.id)
    dumped: dict[str, Any] = json.loads(known) if known else card.model_dump(mode="json")
    dumped.pop("copies", None)
    return dumped


def deck_of_data(game_id: str, data: GameData[CardBase]) -> Deck:
    cards = {c.id: {"name": c.name, "kind": c.kind, "copies": c.copies, "data": card_data(data, c)}
             for c in data.cards}
    return Deck(game_id, data.meta.version, fingerprint(cards, data.meta.version), "data", cards)


def deck_of_record(record: dict[str, Any], label: str) -> Deck:
    """The deck of a build record (as ``render.reprint.read_record`` gives it)."""
    cards = {cid: {"name": c.get("name", cid), "kind": c.get("kind", ""), "copies": c.get("copies", 0),
                   "data": c.get("data") or {}} for cid, c in record["cards"].items()}
    version = str(record.get("version"))
    return Deck(str(record.get("game")), version, fingerprint(cards, version), f"printed {label}", cards)


def printed_data(game: Game, data: GameData[CardBase], deck: Deck, label: str) -> GameData[CardBase]:
    """``data`` with the cards of a printed deck in place of the working ones (and its version):
    a play of the printed deck is checked and scored with the cards that were on the table.
    Every card is validated by the game's models; a card that no longer fits them is a
    located problem naming the record."""
    from cardforge.data.validate import validate

    models = game.card_models_for(data.meta)
    order = {c.id: i for i, c in enumerate(data.cards)}
    problems: list[Problem] = []
    cards: list[CardBase] = []
    for cid in sorted(deck.cards, key=lambda c: (order.get(c, len(order)), c)):
        entry = deck.cards[cid]
        raw = {**(entry.get("data") or {}), "copies": entry.get("copies", 0)}
        kind = raw.get("kind") or entry.get("kind")
        model = models.get(str(kind))
        if model is None:
            problems.append(Problem(f"kind '{kind}' is not a card kind of {game.id} now (kinds: "
                                    f"{', '.join(models)})", file=label, item=f"card '{cid}'", field="kind"))
            continue
        card, found = validate(model, raw, file=label, item=f"card '{cid}'")
        problems += found
        if card is not None:
            cards.append(card)
    if problems:
        raise DataError(f"the cards of {label} do not fit {game.id}'s card models now", problems)
    meta = data.meta.model_copy(update={"version": deck.version})
    return replace(data, meta=meta, cards=cards, card_json={})


@dataclass
class SeatFacts:
    """One player's declared choices (``id → value``; absent: not said) and the deck's cards
    their final state names (``field → {card id: copies}``; None: not known — a play imported
    from a spreadsheet gives its choices, never its cards)."""

    choices: dict[str, Any]
    cards: dict[str, dict[str, int]] | None

    def held(self) -> dict[str, int]:
        """Every card held, whatever the field: ``{card id: copies}``."""
        out: dict[str, int] = {}
        for per_field in (self.cards or {}).values():
            for cid, n in per_field.items():
                out[cid] = out.get(cid, 0) + n
        return out


def seat_facts(game: Game, data: GameData[CardBase], state: Any) -> dict[str, SeatFacts]:
    """Each player's facts by name, from a validated final state."""
    from cardforge.games import declared

    out: dict[str, SeatFacts] = {}
    players = list(getattr(state, "players", None) or [])
    held = declared.holdings(game, data, state) if players else []
    for player, h in zip(players, held):
        choices = {}
        for cid, spec in game.spec.choices.items():
            value = declared.field_at(player, spec.field or cid)
            if isinstance(value, str | int | bool) and value != "":
                choices[cid] = value
        cards: dict[str, dict[str, int]] = {}
        for field, items in h.cards.items():
            counts: dict[str, int] = {}
            for card, n in items:
                ref = getattr(card, "id", None)
                if isinstance(ref, str) and data.has_card(ref) and data.card(ref) is card:
                    counts[ref] = counts.get(ref, 0) + n
            if counts:
                cards[field] = dict(sorted(counts.items()))
        out[str(getattr(player, "name", ""))] = SeatFacts(choices, cards)
    return out


def facts_json(facts: dict[str, SeatFacts], names: list[str] | None) -> dict[str, Any]:
    """The facts to store with a play: lists in seat order (``names``: the score's players;
    None: the final state's order); ``cards`` left out when they are not known."""
    seats = [facts.get(n) or SeatFacts({}, None) for n in names] if names is not None else list(facts.values())
    out: dict[str, Any] = {"format": FACTS_FORMAT, "choices": [s.choices for s in seats]}
    if all(s.cards is not None for s in seats):
        out["cards"] = [s.cards for s in seats]
    return out


def facts_of_yaml(game: Game, data: GameData[CardBase], text: str, names: list[str] | None
                  ) -> dict[str, Any] | None:
    """The facts of a final-state YAML text (None when it does not read as one: a play imported
    with its scores only, or a final state that no longer fits the game)."""
    from cardforge.engine.inputs import load_input_text

    model = game.score_model
    if model is None or not text.strip():
        return None
    state, problems = load_input_text(text, "final.yaml", model)
    if state is None or problems:
        return None
    return facts_json(seat_facts(game, data, state), names)


def seats_of(facts: dict[str, Any] | None, count: int) -> list[SeatFacts] | None:
    """Stored facts back as one :class:`SeatFacts` per seat (None: not recorded)."""
    if not isinstance(facts, dict):
        return None
    choices = facts.get("choices") or []
    cards = facts.get("cards")
    out = []
    for i in range(count):
        c = choices[i] if i < len(choices) and isinstance(choices[i], dict) else {}
        k = cards[i] if isinstance(cards, list) and i < len(cards) and isinstance(cards[i], dict) else None
        held = None if k is None else {f: {str(cid): int(n) for cid, n in v.items() if isinstance(n, int)}
                                      for f, v in k.items() if isinstance(v, dict)}
        out.append(SeatFacts({str(key): v for key, v in c.items() if isinstance(v, str | int | bool)}, held))
    return out
