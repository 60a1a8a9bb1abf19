"""The score sheet as data: a game's final-state model → the inputs of its sheet, and back.

Nothing here is written per game except :data:`HINTS` — which fields are cards of the deck, a
clan of the game, a mine grid, or left to the engine ("best") — everything else is read from
the game's ``score_model`` (pydantic): whole numbers become number inputs, pad values (a
data-only game's categories) text inputs that keep sums such as ``3+6+2``, ``bool`` a checkbox,
a ``Literal`` a select, a nested model a group of inputs.

Input names are the fields' paths in the final-state file (``players[0].veins.coal``), so a
problem the validator or the rules report (``players[0].veins.coal``, or ``player 'Ana' (#1)`` +
``veins.coal``) is shown beside the input it concerns.
"""

from __future__ import annotations

import re
import types
import typing
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, TypeGuard

from pydantic import BaseModel

from cardforge.problems import Problem

if TYPE_CHECKING:
    from cardforge.data.loading import GameData
    from cardforge.games.base import Game

#: Per game and field path (``players.<field>``): how the sheet asks for it.
#:  ``cards``: card ids of the deck picked by name (``kinds``; ``paid``: X-cost cards carry
#:  what was paid; ``inline``: a card not in the deck may be typed with its fields).
#:  ``section``: a choice among a data section's entries. ``skip``: left out (the engine
#:  chooses the best). ``grid``: a mine of half-carts and cart tokens.
HINTS: dict[str, dict[str, dict[str, Any]]] = {
    "maphr": {
        "players.improvements": {"widget": "cards", "kinds": ["improvement"], "inline": True},
        "players.clan": {"widget": "section", "section": "clans"},
        "players.grey": {"widget": "skip"},  # the clan says it
    },
    "cristaux": {
        "players.cards": {"widget": "cards", "kinds": ["project", "gift"], "paid": True},
        "players.choices": {"widget": "skip"},  # natures, bâtons, bonuses, forge: the best is found
        "players.opale": {"widget": "skip"},  # façon Opale bonuses: given in the YAML sheet
    },
    "tunhell": {
        "players.loot": {"widget": "counts", "kinds": ["mine", "end_of_mine"]},
        "players.hand": {"widget": "cards", "kinds": ["mine"]},
        "players.trophies": {"widget": "cards", "kinds": ["trophy"]},
    },
    "imperial_miners": {
        "players.mine": {"widget": "grid", "rows": 4, "cols": 6},
        "players.cart_tokens": {"widget": "skip"},  # part of the grid
        "events": {"widget": "skip"},  # the events played: recorded in the YAML sheet (they score nothing)
    },
}

#: Games whose final state is rounds (not players): each round's planets and every player's
#: fleet. ``planets``: the most planet cards a round plays (a planet, then a moon).
ROUND_GAMES: dict[str, dict[str, Any]] = {
    "mine_all_mine": {"rounds": 3, "planets": 2, "turns": 3, "sides": ["planet", "moon"],
                      "planet_kind": "planet", "planets_by_players": {2: 1}},  # « 1 carte planète pour 2 joueurs »
}

MAX_PLAYERS_ON_SHEET = 8
MAX_LIST_ITEMS = 60  # cards per player


@dataclass
class Widget:
    kind: str  # int | pad | bool | text | choice | group | cards | grid
    name: str  # the field's name in its model
    label: str
    required: bool = False
    choices: list[tuple[str, str]] = field(default_factory=list)  # (value, label)
    children: list[Widget] = field(default_factory=list)
    options: dict[str, Any] = field(default_factory=dict)
    inline: list[Widget] = field(default_factory=list)  # cards: the fields of a card typed in
    default: Any = None


@dataclass
class Sheet:
    """What the sheet asks: the game-level fields (mode…) and each player's."""

    game_fields: list[Widget]
    player_fields: list[Widget]
    tabular: bool  # every player field is one cell: players as columns, fields as rows
    cards: dict[str, list[dict[str, Any]]]  # hint path → the pickable cards
    rounds: dict[str, Any] | None = None  # a rounds game: see ROUND_GAMES (+ fleet widgets, planet cards)


def humanise(name: str) -> str:
    return name.replace("_", " ").capitalize()


def _strip_optional(annotation: Any) -> tuple[Any, bool]:
    """``X | None`` → (X, True)."""
    origin = typing.get_origin(annotation)
    if origin in (typing.Union, types.UnionType):
        args = [a for a in typing.get_args(annotation) if a is not type(None)]
        if len(args) < len(typing.get_args(annotation)):
            return (args[0] if len(args) == 1 else typing.Union[tuple(args)]), True
    return annotation, False


def _bare(annotation: Any) -> Any:
    while typing.get_origin(annotation) is typing.Annotated:
        annotation = typing.get_args(annotation)[0]
    return annotation


def _union_args(annotation: Any) -> list[Any]:
    annotation = _bare(annotation)
    if typing.get_origin(annotation) in (typing.Union, types.UnionType):
        return [_bare(a) for a in typing.get_args(annotation)]
    return [annotation]


def _is_model(t: Any) -> TypeGuard[type[BaseModel]]:
    return isinstance(t, type) and issubclass(t, BaseModel)


def model_widgets(model: type[BaseModel], hints: dict[str, dict[str, Any]], prefix: str,
                  labels: dict[str, str], unasked: list[str] | None = None) -> list[Widget]:
    """One widget per field of ``model`` the sheet can ask for; the paths of the others are
    added to ``unasked``."""
    unasked = unasked if unasked is not None else []
    out: list[Widget] = []
    for name, info in model.model_fields.items():
        path = f"{prefix}.{name}" if prefix else name
        hint = hints.get(path, {})
        label = labels.get(name) or humanise(name)
        required = info.is_required()
        default = None if required else info.get_default(call_default_factory=True)
        if hint.get("widget") == "skip":
            continue
        if hint.get("widget") in ("cards", "grid", "section", "counts"):
            w = Widget(hint["widget"], name, label, required, options=dict(hint, path=path))
            if hint["widget"] == "cards" and hint.get("inline"):
                item = _list_item(info.annotation)
                inline = next((a for a in _union_args(item) if _is_model(a)), None) if item else None
                if inline is not None:
                    w.inline = model_widgets(inline, {}, "", {})
            out.append(w)
            continue
        scalar = _scalar(name, label, info.annotation, required, default, hints, path, labels, unasked)
        if scalar is not None:
            out.append(scalar)
        else:
            unasked.append(path)
    return out


def _list_item(annotation: Any) -> Any:
    annotation, _ = _strip_optional(_bare(annotation))
    annotation = _bare(annotation)
    if typing.get_origin(annotation) is list:
        return typing.get_args(annotation)[0]
    return None


def _scalar(name: str, label: str, annotation: Any, required: bool, default: Any,
            hints: dict[str, dict[str, Any]], path: str, labels: dict[str, str], unasked: list[str]) -> Widget | None:
    ann, optional = _strip_optional(_bare(annotation))
    ann = _bare(ann)
    if optional:
        required = False
    args = _union_args(ann)
    if set(args) >= {int, str}:  # a pad value: a number or a short sum, kept as written
        return Widget("pad", name, label, required, default=default)
    if ann is bool:
        return Widget("bool", name, label, required, default=default)
    if ann is int:
        return Widget("int", name, label, required, default=default)
    if ann is str:
        return Widget("text", name, label, required, default=default)
    if typing.get_origin(ann) is Literal:
        values = [str(v) for v in typing.get_args(ann)]
        return Widget("choice", name, label, required, choices=[(v, v) for v in values], default=default)
    if _is_model(ann):
        return Widget("group", name, label, required,
                      children=model_widgets(ann, hints, path, labels, unasked), default=None)
    return None  # lists, mappings…: not asked on the sheet


def build_sheet(game: Game, data: GameData) -> Sheet | None:
    """The sheet of ``game``; None when its final state has no ``players`` list."""
    model = game.score_model
    if model is not None and game.id in ROUND_GAMES and "rounds" in model.model_fields:
        return _rounds_sheet(game, data, model)
    if model is None or "players" not in model.model_fields:
        return None
    player_model = _list_item(model.model_fields["players"].annotation)
    if not _is_model(player_model):
        return None
    hints = HINTS.get(game.id, {})
    labels: dict[str, str] = {}
    if getattr(game.rules, "score", None) is None:  # data-only: a player's field is a pad row
        labels = {c.id: c.label + (f" · {c.label_en}" if c.label_en and c.label_en != c.label else "")
                  for c in game.categories}
    for t in game.tie_breakers:
        labels.setdefault(t.id, f"{humanise(t.id)} (tie-break: {t.label_en})")
    unasked: list[str] = []
    game_fields = [w for w in model_widgets(model, hints, "", {}, unasked) if w.name != "players"]
    for w in game_fields:
        if w.name == "mode" and game.modes:
            w.kind = "choice"
            w.choices = [(m, game.spec.modes[m].label or m) for m in game.modes]
            w.default = game.default_mode
    player_fields = model_widgets(player_model, hints, "players", labels, unasked)
    if [u for u in unasked if u != "players"]:
        return None  # the sheet cannot ask for everything: the YAML sheet instead
    tabular = all(w.kind in ("int", "pad", "bool", "text", "choice") for w in player_fields)
    cards = {}
    for w in player_fields:
        if w.kind == "cards":
            cards[w.name] = card_choices(data, w.options.get("kinds"))
        if w.kind == "counts":
            kinds = set(w.options.get("kinds") or ())
            w.children = [Widget("int", c.id, c.name) for c in data.cards if not kinds or c.kind in kinds]
        if w.kind == "section":
            entries = data.sections.get(w.options["section"]) or []
            w.choices = [(e.id, getattr(e, "name", e.id)) for e in entries]
    return Sheet(game_fields, player_fields, tabular, cards)


def _rounds_sheet(game: Game, data: GameData, model: type[BaseModel]) -> Sheet | None:
    spec = dict(ROUND_GAMES[game.id])
    round_model = _list_item(model.model_fields["rounds"].annotation)
    if not _is_model(round_model) or "fleets" not in round_model.model_fields:
        return None
    fleet_model = _bare(_strip_optional(_bare(round_model.model_fields["fleets"].annotation))[0])
    fleet_model = typing.get_args(fleet_model)[-1] if typing.get_origin(fleet_model) is dict else None
    if not _is_model(fleet_model):
        return None
    spec["fleet"] = model_widgets(fleet_model, {}, "", {}, [])  # lists (ship picks) are not asked
    spec["planet_cards"] = [(getattr(c, "number", c.id), f"{getattr(c, 'number', '')} · {c.name}".strip(" ·"))
                            for c in data.cards if c.kind == spec["planet_kind"]]
    name = Widget("text", "name", "Name", True)
    return Sheet([], [name], False, {}, rounds=spec)


def rounds_state(sheet: Sheet, raw: dict[str, Any]) -> dict[str, Any]:
    """The rounds sheet → ``{rounds: [{planets: [...], fleets: {name: {...}}}]}``."""
    spec = sheet.rounds or {}
    names = [str((p or {}).get("name") or "").strip() if isinstance(p, dict) else ""
             for p in _indexed(raw.get("players"))[:MAX_PLAYERS_ON_SHEET]]
    rounds = []
    for rnd in _indexed(raw.get("rounds"))[: spec.get("rounds", 3)]:
        rnd = rnd if isinstance(rnd, dict) else {}
        planets = []
        for k, planet in enumerate(_indexed(rnd.get("planets"))[: spec.get("planets", 2)]):
            planet = planet if isinstance(planet, dict) else {}
            card = str(planet.get("card") or "").strip()
            turns = [str(t).strip() for t in _indexed(planet.get("turns"))]
            if card:
                picked = {"card": _number(card), "side": spec["sides"][min(k, len(spec["sides"]) - 1)]}
                end = str(planet.get("end") or "").strip()
                planets.append({**picked, "end": end} if end else picked)  # which end was up: asked, never assumed
            elif any(turns):
                planets.append({"turns": [_number(t) if t else 0 for t in turns]})
        fleets: dict[str, Any] = {}
        for i, fleet in enumerate(_indexed(rnd.get("fleets"))):
            if i < len(names) and names[i]:
                fleets[names[i]] = coerce(spec.get("fleet", []), fleet if isinstance(fleet, dict) else {})
        rounds.append({"planets": planets, "fleets": fleets})
    return {"rounds": rounds}


def card_choices(data: GameData, kinds: Any = None) -> list[dict[str, Any]]:
    """The cards a list field picks from, by name; a name several cards share (the two sides of
    a gift) is told apart by the card's id: ``Warhammer (warhammer-forges)``."""
    from collections import Counter

    chosen = [c for c in data.cards if not kinds or c.kind in kinds]
    count = Counter(c.name.casefold() for c in chosen)
    return [{"id": c.id, "name": c.name if count[c.name.casefold()] == 1 else f"{c.name} ({c.id})",
             "x": bool(getattr(c, "x_colour", None))} for c in chosen]


# --- the posted form → the final-state dict ----------------------------------------------------

_PART = re.compile(r"([A-Za-z_][\w-]*)|\[(\d{1,3})\]")
_NAME = re.compile(r"[A-Za-z_][\w-]*(?:\.[A-Za-z_][\w-]*|\[\d{1,3}\])*")


def unflatten(pairs: list[tuple[str, str]]) -> dict[str, Any]:
    """``[("players[0].veins.coal", "4")]`` → ``{"players": {0: {"veins": {"coal": "4"}}}}``
    (indices as int keys; the last value of a repeated name wins)."""
    root: dict[Any, Any] = {}
    for name, value in pairs:
        if len(name) > 200 or not _NAME.fullmatch(name):
            continue  # not a sheet field (csrf, note…)
        parts = [m.group(1) if m.group(1) is not None else int(m.group(2)) for m in _PART.finditer(name)]
        node = root
        for part in parts[:-1]:
            nxt = node.get(part)
            if not isinstance(nxt, dict):
                nxt = node[part] = {}
            node = nxt
        node[parts[-1]] = value
    return root


def _indexed(node: Any) -> list[Any]:
    if not isinstance(node, dict):
        return []
    return [node[k] for k in sorted(k for k in node if isinstance(k, int))]


_SUM = re.compile(r"\s*\d{1,9}(\s*[+-]\s*\d{1,9}){1,30}\s*")


def _number(text: str) -> Any:
    """A whole number; a short sum of whole numbers (``40+7``) is added up for a field that
    takes a number (the sheet keeps showing what was typed); anything else is left for the
    validator to name."""
    text = text.strip()
    if re.fullmatch(r"-?\d{1,12}", text):
        return int(text)
    if _SUM.fullmatch(text):
        from cardforge.games.generic import parse_pad_value

        return int(parse_pad_value(text))
    return text


def coerce(widgets: list[Widget], raw: dict[str, Any]) -> dict[str, Any]:
    """The raw strings of one model's inputs → the values a final-state file would hold.

    Empty cells: 0 for a required number (a blank on a pad is a zero), left out otherwise.
    """
    out: dict[str, Any] = {}
    for w in widgets:
        value = raw.get(w.name) if isinstance(raw, dict) else None
        if w.kind == "bool":
            if value not in (None, ""):
                out[w.name] = True
            elif w.required or w.default is not None:
                out[w.name] = False
            continue
        if w.kind in ("int", "pad"):
            text = (value or "").strip() if isinstance(value, str) else ""
            if text:
                if w.kind == "pad" and not re.fullmatch(r"-?\d{1,12}", text):
                    out[w.name] = text  # a sum is kept as written
                else:
                    out[w.name] = _number(text)
            elif w.required:
                out[w.name] = 0
            continue
        if w.kind in ("text", "choice", "section"):
            text = value.strip() if isinstance(value, str) else ""
            if text:
                out[w.name] = text
            continue
        if w.kind == "counts":
            sub = coerce(w.children, value if isinstance(value, dict) else {})
            sub = {k: v for k, v in sub.items() if v != 0}
            if sub or w.required:
                out[w.name] = sub
            continue
        if w.kind == "group":
            sub = coerce(w.children, value if isinstance(value, dict) else {})
            if sub or w.required:
                out[w.name] = sub
            continue
        if w.kind == "cards":
            items: list[str | dict[str, Any]] = []
            for entry in _indexed(value)[:MAX_LIST_ITEMS]:
                if isinstance(entry, str):
                    if entry.strip():
                        items.append(entry.strip())
                    continue
                if not isinstance(entry, dict):
                    continue
                if "name" in entry and w.inline:  # a card typed in with its fields
                    items.append(coerce(w.inline, entry))
                    continue
                card_id = str(entry.get("id") or "").strip()
                if not card_id:
                    continue
                paid = str(entry.get("paid") or "").strip()
                items.append({"id": card_id, "paid": _number(paid)} if paid else card_id)
            if items or w.required:
                out[w.name] = items
            continue
        if w.kind == "grid":
            grid = grid_state(value, w.options)
            out.update(grid)
    return out


#: a grid cell's state, as a tap cycles it: empty card, half-cart left, right, both; "" no card
GRID_STATES = ("none", "", "L", "R", "LR")


def grid_state(value: Any, options: dict[str, Any]) -> dict[str, Any]:
    """An Imperial Miners mine from the grid: ``mine`` rows (cells None or {carts}) and the
    ``cart_tokens`` ([row, junction]) tapped between two cards."""
    rows = _indexed(value)
    mine: list[list[Any]] = []
    tokens: list[list[int]] = []
    for r, row in enumerate(rows[: options.get("rows", 4)]):
        cells = _indexed(row.get("cell") if isinstance(row, dict) else None)
        line: list[Any] = []
        for cell in cells[: options.get("cols", 6)]:
            state = cell if isinstance(cell, str) and cell in GRID_STATES else "none"
            line.append(None if state == "none" else {"carts": state})
        while line and line[-1] is None:
            line.pop()
        mine.append(line)
        junctions = _indexed(row.get("token") if isinstance(row, dict) else None)
        for j, on in enumerate(junctions):
            if on not in (None, "", "0"):
                tokens.append([r, j])
    while mine and not mine[-1]:
        mine.pop()
    if not mine and not tokens:
        return {}
    out: dict[str, Any] = {"mine": mine}
    if tokens:
        out["cart_tokens"] = tokens
    return out


def form_to_state(sheet: Sheet, pairs: list[tuple[str, str]]) -> dict[str, Any]:
    raw = unflatten(pairs)
    if sheet.rounds is not None:
        return rounds_state(sheet, raw)
    state = coerce(sheet.game_fields, raw)
    players = [coerce(sheet.player_fields, p) for p in _indexed(raw.get("players"))[:MAX_PLAYERS_ON_SHEET]]
    state["players"] = players
    return state


# --- problems → the inputs they concern --------------------------------------------------------

_PLAYER_ITEM = re.compile(r"^player\b.*\(#(\d+)\)$|^player #(\d+)$")
_ROUND_ITEM = re.compile(r"^round #(\d+)$")
_FLEET = re.compile(r"^(rounds\[\d+\]\.fleets)\.(.+?)(\.(?:speed|attack|cargo|cards|ships)\b.*)?$")


def field_key(problem: Problem, names: list[str] | None = None) -> str:
    """Where on the sheet a problem goes: an input's name (or a prefix of one), or ""."""
    fld = problem.field or ""
    item = problem.item or ""
    m = _PLAYER_ITEM.match(item)
    if m:
        index = int(m.group(1) or m.group(2)) - 1
        return f"players[{index}]" + (f".{fld}" if fld else "")
    m = _ROUND_ITEM.match(item)
    if m:
        fld = f"rounds[{int(m.group(1)) - 1}]" + (f".{fld}" if fld else "")
    m = _FLEET.match(fld)
    if m and names and m.group(2) in names:  # a fleet is keyed by its player's name
        fld = f"{m.group(1)}[{names.index(m.group(2))}]{m.group(3) or ''}"
    return fld


def problems_json(problems: list[Problem], names: list[str] | None = None) -> list[dict[str, str]]:
    return [{"field": field_key(p, names), "message": p.message, "text": str(p),
             "severity": p.severity} for p in problems]


def player_names(pairs: list[tuple[str, str]]) -> list[str]:
    raw = unflatten([(k, v) for k, v in pairs if k.startswith("players[")])
    return [str(p.get("name") or "").strip() if isinstance(p, dict) else "" for p in _indexed(raw.get("players"))]
