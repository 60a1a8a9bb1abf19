"""The score sheet as data: a game's final-state model → the inputs of its sheet, and back.

Nothing here is written per game. Everything is read from the game's ``score_model``
(pydantic): whole numbers become number inputs, pad values (a data-only game's categories) text
inputs that keep sums such as ``3+6+2``, ``bool`` a checkbox, a ``Literal`` a select, a nested
model a group of inputs — and what a type cannot say is the **declaration** the game put on the
field (:mod:`cardforge.sheet`: card pickers, counters per card, a data section's entries, a
grid, rounds, fixed slots, rows per player, fields left to the engine). A data-only game's
holdings carry the same declarations, made from its ``game.yaml``.

Input names are the fields' paths in the final-state file (``players[0].bag.pebbles``), so a
problem the validator or the rules report (``players[0].bag.pebbles``, or ``player 'Ana' (#1)`` +
``bag.pebbles``) is shown beside the input it concerns.
"""

from __future__ import annotations

import re
import types
import typing
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, TypeGuard

from pydantic import BaseModel

from cardforge import sheet as decls
from cardforge.problems import Problem

if TYPE_CHECKING:
    from cardforge.data.loading import GameData
    from cardforge.games.base import Game

MAX_PLAYERS_ON_SHEET = 8
MAX_LIST_ITEMS = 60  # cards per player

#: what an input is (``Widget.kind``): a scalar the model's type says, or a declared widget
SCALARS = ("int", "pad", "bool", "text", "choice")


@dataclass
class Widget:
    kind: str  # a scalar (SCALARS), group, or a declaration's widget: cards, counts, section, grid…
    name: str  # the field's name in its model
    label: str
    required: bool = False
    choices: list[tuple[str, str]] = field(default_factory=list)  # (value, label)
    children: list[Widget] = field(default_factory=list)  # a group's, a slot's or a row's inputs
    options: dict[str, Any] = field(default_factory=dict)  # the declaration's values, and the field's path
    inline: list[Widget] = field(default_factory=list)  # cards: the fields of a card typed in
    default: Any = None
    decl: Any = None  # the declaration (cardforge.sheet), if any

    @property
    def help(self) -> str | None:
        return getattr(self.decl, "help", None)

    def grid_size(self, value: Any, tokens: Any = None) -> tuple[int, int]:
        """A grid's rows and columns on the sheet: as declared, or as many as ``value`` (its
        rows) and ``tokens`` (their junctions) fill, within the declared bounds."""
        d = self.decl
        rows = value if isinstance(value, list) else []
        cols = [len(r) for r in rows if isinstance(r, list)]
        cols += [t[1] + 2 for t in tokens or () if isinstance(t, list | tuple) and len(t) == 2
                 and isinstance(t[1], int)]
        return (min(max(d.rows, len(rows)), d.row_bound), min(max([d.cols, *cols]), d.col_bound))


@dataclass
class Sheet:
    """What the sheet asks: the game-level fields (mode…) and each player's."""

    game_fields: list[Widget]
    player_fields: list[Widget]
    tabular: bool  # every player field is one cell: players as columns, fields as rows
    cards: dict[str, list[dict[str, Any]]]  # a cards widget's name → the pickable cards
    rounds: Widget | None = None  # a final state of rounds: the players are named once, then each round

    @property
    def keyed(self) -> list[str]:
        """The names of the fields keyed by the players' names (each player's boats in a round)."""
        return [w.name for w in _walk(self.rounds.children if self.rounds else []) if w.kind == "per_player"]


def _walk(widgets: list[Widget]) -> list[Widget]:
    out = []
    for w in widgets:
        out.append(w)
        out += _walk(w.children)
    return out


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


def _inner(annotation: Any) -> Any:
    """``list[X]`` → X, ``dict[str, X]`` → X (Optional and Annotated stripped); else None."""
    annotation = _bare(_strip_optional(_bare(annotation))[0])
    args = typing.get_args(annotation)
    if typing.get_origin(annotation) is list and args:
        return _bare(args[0])
    if typing.get_origin(annotation) is dict and args:
        return _bare(args[-1])
    return None


def _item_model(annotation: Any) -> type[BaseModel] | None:
    """The model among a list's (or mapping's) item types, if any."""
    item = _inner(annotation)
    return next((a for a in _union_args(item) if _is_model(a)), None) if item is not None else None


def model_widgets(model: type[BaseModel], prefix: str, labels: dict[str, str],
                  unasked: list[str] | None = None) -> list[Widget]:
    """One widget per field of ``model`` the sheet can ask for (or a declared one); the paths of
    the others are added to ``unasked``."""
    unasked = unasked if unasked is not None else []
    out: list[Widget] = []
    for name, info in model.model_fields.items():
        path = f"{prefix}.{name}" if prefix else name
        decl = decls.declaration(info)
        label = getattr(decl, "label", None) or labels.get(name) or humanise(name)
        required = info.is_required()
        default = None if required else info.get_default(call_default_factory=True)
        if isinstance(decl, decls.Skip):
            continue
        if decl is not None:
            out.append(_declared(decl, name, label, required, default, info.annotation, path, unasked))
            continue
        scalar = _scalar(name, label, info.annotation, required, default, path, labels, unasked)
        if scalar is not None:
            out.append(scalar)
        else:
            unasked.append(path)
    return out


def _declared(decl: Any, name: str, label: str, required: bool, default: Any, annotation: Any, path: str,
              unasked: list[str]) -> Widget:
    kind = "int" if isinstance(decl, decls.Number) else decl.widget
    w = Widget(kind, name, label, required, options={**decl.model_dump(), "path": path},
               default=default if kind == "int" else None, decl=decl)
    if isinstance(decl, decls.Cards) and decl.inline:
        inline = _item_model(annotation)
        if inline is not None:
            w.inline = model_widgets(inline, "", {})
    if isinstance(decl, decls.Slots | decls.PerPlayer | decls.Rounds | decls.Items):
        item = _item_model(annotation)
        if item is None:
            unasked.append(path)
        else:
            w.children = model_widgets(item, path, {}, unasked)
    return w


def _scalar(name: str, label: str, annotation: Any, required: bool, default: Any, path: str,
            labels: dict[str, str], unasked: list[str]) -> Widget | None:
    ann, optional = _strip_optional(_bare(annotation))
    ann = _bare(ann)
    if optional:
        required = False
    args = _union_args(ann)
    if set(args) >= {int, str}:  # a pad value: a number or a sum, kept as written
        return Widget("pad", name, label, required, default=default)
    if ann is bool:
        return Widget("bool", name, label, required, default=default)
    if ann is int:
        return Widget("int", name, label, required, default=default)
    if ann is str:
        return Widget("text", name, label, required, default=default)
    if typing.get_origin(ann) is Literal:
        values = {str(v): v for v in typing.get_args(ann)}  # posted as text, written as the model's value
        return Widget("choice", name, label, required, choices=[(v, v) for v in values], default=default,
                      options={"values": values})
    if _is_model(ann):
        return Widget("group", name, label, required,
                      children=model_widgets(ann, path, labels, unasked), default=None)
    return None  # lists, mappings…: not asked on the sheet unless declared


def build_sheet(game: Game, data: GameData[Any]) -> Sheet | None:
    """The sheet of ``game``; None when it cannot ask for its whole final state (the YAML sheet
    instead)."""
    model = game.score_model
    if model is None:
        return None
    unasked: list[str] = []
    top = model_widgets(model, "", {}, unasked)
    rounds = next((w for w in top if w.kind == "rounds"), None)
    if rounds is not None:
        game_fields = [w for w in top if w is not rounds]
        player_fields = [Widget("text", "name", "Name", True)]
        sheet = Sheet(game_fields, player_fields, False, {}, rounds=rounds)
    else:
        if "players" not in model.model_fields:
            return None
        player_model = _item_model(model.model_fields["players"].annotation)
        if player_model is None:
            return None
        labels: dict[str, str] = {}
        if not game.has_hook("score"):  # data-only: a player's field is a pad row
            labels = {c.id: c.label + (f" · {c.label_en}" if c.label_en and c.label_en != c.label else "")
                      for c in game.categories}
        for t in game.tie_breakers:
            labels.setdefault(t.id, f"{humanise(t.id)} (tie-break: {t.label_en})")
        game_fields = [w for w in top if w.name != "players"]
        unasked = [u for u in unasked if u != "players"]
        player_fields = model_widgets(player_model, "players", labels, unasked)
        tabular = all(w.kind in SCALARS for w in player_fields)
        sheet = Sheet(game_fields, player_fields, tabular, {})
    if unasked:
        return None  # the sheet cannot ask for everything: the YAML sheet instead
    for w in sheet.game_fields:
        if w.name == "mode" and game.modes:
            w.kind = "choice"
            w.choices = [(m, game.spec.modes[m].label or m) for m in game.modes]
            # chosen on the sheet, never taken silently from the game's default: a blank mode is
            # refused (``service.score_form``), the game page brings the last play's
            if len(game.modes) > 1:
                w.default, w.required = None, True
            else:
                w.default = game.default_mode
    _with_data(_walk(sheet.game_fields + sheet.player_fields + ([sheet.rounds] if sheet.rounds else [])),
               data, sheet)
    return sheet


def _with_data(widgets: list[Widget], data: GameData[Any], sheet: Sheet) -> None:
    """What the declarations take from the game's data: cards to pick, counters, choices."""
    for w in widgets:
        d = w.decl
        if isinstance(d, decls.Cards):
            sheet.cards[w.name] = card_choices(data, d.kinds, d.paid)
        elif isinstance(d, decls.SectionList):
            sheet.cards[w.name] = [{"id": e.id, "name": str(getattr(e, "name", e.id)), "x": False}
                                   for e in data.sections.get(d.section) or []]
        elif isinstance(d, decls.Counts):
            w.children = [Widget("int", c.id, c.name) for c in data.cards
                          if (not d.kinds or c.kind in d.kinds) and c.id not in (d.exclude or ())]
        elif isinstance(d, decls.Section):
            entries = data.sections.get(d.section) or []
            w.choices = [(e.id, getattr(e, "name", e.id)) for e in entries]
        elif isinstance(d, decls.CardKey):
            w.choices = []
            labels = card_labels(data)
            for c in data.cards:
                if c.kind == d.kind:
                    key = str(getattr(c, d.key, c.id))
                    w.choices.append((key, labels[c.id] if key == c.id else f"{key} · {labels[c.id]}"))


def card_choices(data: GameData[Any], kinds: Any = None, paid: str | None = None) -> list[dict[str, Any]]:
    """The cards a list field picks from, by the names players read (:func:`card_labels`: two
    cards sharing a name told apart by what their ids add: ``Harpe des profondeurs
    (inactive)``). ``x``: the card has the field ``paid`` set, so the sheet asks what was paid."""
    labels = card_labels(data)
    return [{"id": c.id, "name": labels[c.id], "x": bool(paid and getattr(c, paid, None))}
            for c in data.cards if not kinds or c.kind in kinds]


def card_labels(data: GameData[Any]) -> dict[str, str]:
    """Each card's id → the name a player reads: its name, or for cards sharing a name (the two
    sides of one card) the name and what its id adds to it ("Harpe des profondeurs (inactive)",
    "Warhammer (forges)")."""
    import unicodedata
    from collections import Counter

    def slug(text: str) -> str:
        ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
        return re.sub(r"[^a-z0-9]+", "-", ascii_text.lower()).strip("-")

    shared = Counter(c.name.casefold() for c in data.cards)
    out: dict[str, str] = {}
    for c in data.cards:
        if shared[c.name.casefold()] == 1:
            out[c.id] = c.name
            continue
        base = slug(c.name)
        extra = c.id[len(base):].strip("-") if c.id.startswith(base) else c.id
        out[c.id] = f"{c.name} ({extra.replace('-', ' ')})" if extra else c.name
    return out


# --- the posted form → the final-state dict ----------------------------------------------------

_PART = re.compile(r"([A-Za-z_][\w-]*)|\[(\d{1,3})\]")
_NAME = re.compile(r"[A-Za-z_][\w-]*(?:\.[A-Za-z_][\w-]*|\[\d{1,3}\])*")


def unflatten(pairs: list[tuple[str, str]]) -> dict[str, Any]:
    """``[("players[0].bag.pebbles", "4")]`` → ``{"players": {0: {"bag": {"pebbles": "4"}}}}``
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
    """A whole number; a sum of whole numbers (``40+7``) is added up for a field that
    takes a number (the sheet keeps showing what was typed); anything else is left for the
    validator to name."""
    text = text.strip()
    if re.fullmatch(r"-?\d{1,12}", text):
        return int(text)
    if _SUM.fullmatch(text):
        from cardforge.games.generic import parse_pad_value

        return int(parse_pad_value(text))
    return text


def _text(value: Any) -> str:
    return value.strip() if isinstance(value, str) else ""


def coerce(widgets: list[Widget], raw: dict[str, Any], names: list[str] | None = None,
           blanks: list[str] | None = None, at: str = "") -> dict[str, Any]:
    """The raw strings of one model's inputs → the values a final-state file would hold.

    Empty cells are left out, but for a required number: 0 there, so the rules can still say
    what else is wrong, and its input's name (``at`` + the field's) is added to ``blanks``: a
    blank is "not entered", never a silent zero (``service.score_form`` refuses the sheet
    until it is typed). A blank counter per card is none of that card.
    ``names``: the players' names, for the fields keyed by them."""
    out: dict[str, Any] = {}
    for w in widgets:
        value = raw.get(w.name) if isinstance(raw, dict) else None
        if w.kind in _SCALAR_KINDS:
            _coerce_scalar(w, value, out, blanks, at)
        else:
            _coerce_nested(w, value, out, names, blanks, at)
    return out


_SCALAR_KINDS = frozenset({"bool", "int", "pad", "text", "choice", "section", "card_key", "numbers"})


def _coerce_scalar(w: Widget, value: Any, out: dict[str, Any], blanks: list[str] | None, at: str) -> None:
    """One input holding one value (or a fixed list of numbers) into ``out`` (see :func:`coerce`)."""
    if w.kind == "bool":
        if value not in (None, ""):
            out[w.name] = True
        elif w.required or w.default is not None:
            out[w.name] = False
    elif w.kind in ("int", "pad"):
        text = _text(value)
        if text:
            if w.kind == "pad" and not re.fullmatch(r"-?\d{1,12}", text):
                out[w.name] = text  # a sum is kept as written
            else:
                out[w.name] = _number(text)
        elif w.required:
            out[w.name] = 0
            if blanks is not None:
                blanks.append(at + w.name)
    elif w.kind in ("text", "choice", "section"):
        if _text(value):
            out[w.name] = w.options.get("values", {}).get(_text(value), _text(value))
    elif w.kind == "card_key":
        if _text(value):
            out[w.name] = _number(_text(value))
    elif w.kind == "numbers":
        texts = [_text(v) for v in _indexed(value)][: w.decl.count]
        if any(texts):
            out[w.name] = [_number(t) if t else 0 for t in texts + [""] * (w.decl.count - len(texts))]


def _coerce_nested(w: Widget, value: Any, out: dict[str, Any], names: list[str] | None, blanks: list[str] | None,
                   at: str) -> None:
    """One input holding others (counts, a group, cards, items, a grid, slots, a model per
    player or per round) into ``out`` (see :func:`coerce`); an unknown kind adds nothing."""
    if w.kind == "counts":
        sub = {k: v for k, v in coerce(w.children, value if isinstance(value, dict) else {}).items() if v != 0}
        if sub or w.required:
            out[w.name] = sub
    elif w.kind == "group":
        sub = coerce(w.children, value if isinstance(value, dict) else {}, names, blanks, f"{at}{w.name}.")
        if sub or w.required:
            out[w.name] = sub
    elif w.kind in ("cards", "section_list"):
        items = _card_items(w, value, blanks, f"{at}{w.name}")
        if items or w.required:
            out[w.name] = items
    elif w.kind == "items":
        entries = [coerce(w.children, row, names, blanks, f"{at}{w.name}[{k}].")
                   for k, row in enumerate(_indexed(value)[:MAX_LIST_ITEMS])
                   if isinstance(row, dict) and any(_text(v) for v in row.values())]
        if entries or w.required:
            out[w.name] = entries
    elif w.kind == "grid":
        out.update(grid_state(value, w))
    elif w.kind == "slots":
        slots = _slot_entries(w, value, names)
        if slots or w.required:
            out[w.name] = slots
    elif w.kind == "per_player":
        rows = _indexed(value)
        keyed = {n: coerce(w.children, rows[i] if i < len(rows) and isinstance(rows[i], dict) else {}, names,
                           blanks, f"{at}{w.name}[{i}].")
                 for i, n in enumerate(names or []) if n}
        if keyed or w.required:
            out[w.name] = keyed
    elif w.kind == "rounds":
        rounds = _indexed(value)[: w.decl.count]
        out[w.name] = [coerce(w.children, rnd if isinstance(rnd, dict) else {}, names, blanks,
                              f"{at}{w.name}[{k}].") for k, rnd in enumerate(rounds)]


def _card_items(w: Widget, value: Any, blanks: list[str] | None = None, at: str = "") -> list[str | dict[str, Any]]:
    items: list[str | dict[str, Any]] = []
    for k, entry in enumerate(_indexed(value)[:MAX_LIST_ITEMS]):
        if isinstance(entry, str):
            if entry.strip():
                items.append(entry.strip())
            continue
        if not isinstance(entry, dict):
            continue
        if "name" in entry and w.inline:  # a card typed in with its fields
            items.append(coerce(w.inline, entry, None, blanks, f"{at}[{k}]."))
            continue
        card_id = _text(entry.get("id"))
        if not card_id:
            continue
        paid = _text(entry.get("paid"))
        items.append({"id": card_id, "paid": _number(paid)} if paid else card_id)
    return items


def _slot_entries(w: Widget, value: Any, names: list[str] | None) -> list[dict[str, Any]]:
    """The entries given, in place order; a place left blank is left out. A picked card
    (``card_key``) leaves out the fields it ``replaces``; a ``slot_name`` field takes the
    place's name when its ``given_with`` field is given."""
    entries = []
    for k, raw in enumerate(_indexed(value)[: w.decl.count]):
        asked = [c for c in w.children if c.kind != "slot_name"]
        entry = coerce(asked, raw if isinstance(raw, dict) else {}, names)
        for c in asked:  # a card picked stands for the fields it replaces
            if c.kind == "card_key" and c.name in entry:
                for other in c.decl.replaces:
                    entry.pop(other, None)
        if not entry:
            continue
        for c in w.children:
            if c.kind == "slot_name" and c.decl.given_with in entry:
                entry[c.name] = w.decl.name(k)
        entries.append(entry)
    return entries


#: a grid cell's state, as a tap cycles it: no card, a card with no mark, marked left, right, both
GRID_STATES = ("none", "", "L", "R", "LR")


def grid_state(value: Any, w: Widget) -> dict[str, Any]:
    """A grid's rows (cells None or ``{edges: marks}``) and, when declared, the ``junctions``
    tokens ([row, junction]) tapped between two cards."""
    decl: decls.Grid = w.decl
    rows = _indexed(value)
    grid: list[list[Any]] = []
    tokens: list[list[int]] = []
    for r, row in enumerate(rows[: decl.row_bound]):
        cells = _indexed(row.get("cell") if isinstance(row, dict) else None)
        line: list[Any] = []
        for cell in cells[: decl.col_bound]:
            state = cell if isinstance(cell, str) and cell in GRID_STATES else "none"
            if state != "none" and not decl.edges:
                state = ""
            line.append(None if state == "none" else ({decl.edges: state} if decl.edges else {}))
        while line and line[-1] is None:
            line.pop()
        grid.append(line)
        junctions = _indexed(row.get("token") if isinstance(row, dict) else None)
        for j, on in enumerate(junctions[: decl.col_bound]):
            if on not in (None, "", "0"):
                tokens.append([r, j])
    while grid and not grid[-1]:
        grid.pop()
    if decl.junctions is None:
        tokens = []
    if not grid and not tokens:
        return {}
    out: dict[str, Any] = {w.name: grid}
    if tokens and decl.junctions:
        out[decl.junctions] = tokens
    return out


def form_to_state(sheet: Sheet, pairs: list[tuple[str, str]], blanks: list[str] | None = None) -> dict[str, Any]:
    """The posted sheet as a final state; the inputs of required numbers left blank (0 in the
    state) are added to ``blanks`` by name."""
    raw = unflatten(pairs)
    players = _indexed(raw.get("players"))[:MAX_PLAYERS_ON_SHEET]
    if sheet.rounds is not None:
        names = [_text(p.get("name")) if isinstance(p, dict) else "" for p in players]
        return coerce(sheet.game_fields + [sheet.rounds], raw, names, blanks)
    state = coerce(sheet.game_fields, raw, None, blanks)
    state["players"] = [coerce(sheet.player_fields, p, None, blanks, f"players[{i}].") for i, p in enumerate(players)]
    return state


def state_players(sheet: Sheet | None, state: dict[str, Any]) -> list[dict[str, Any]]:
    """The players of a rounds state (it has no players list): every name its rounds key a
    field by, in order of first appearance."""
    if sheet is None or sheet.rounds is None:
        return list(state.get("players") or [])
    names: dict[str, None] = {}
    keyed = sheet.keyed
    for rnd in state.get(sheet.rounds.name) or []:
        if not isinstance(rnd, dict):
            continue
        for key in keyed:
            value = rnd.get(key)
            if isinstance(value, dict):
                names.update(dict.fromkeys(str(n) for n in value))
    return [{"name": n} for n in names]


# --- problems → the inputs they concern --------------------------------------------------------

_ITEM = re.compile(r"^([a-z]+)\b.*\(#(\d+)\)$|^([a-z]+) #(\d+)$")


def field_key(problem: Problem, names: list[str] | None = None, keyed: list[str] | tuple[str, ...] = ()) -> str:
    """Where on the sheet a problem goes: an input's name (or a prefix of one), or "".

    ``player 'Ana' (#1)`` + ``bag.pebbles`` → ``players[0].bag.pebbles`` (any ``<noun> (#N)``
    item: ``round #2`` → ``rounds[1]``); a field keyed by a player's name (``keyed``:
    ``rounds[1].boats.Ben.size``) → its row (``rounds[1].boats[1].size``)."""
    fld = problem.field or ""
    m = _ITEM.match(problem.item or "")
    if m:
        noun = m.group(1) or m.group(3)
        index = int(m.group(2) or m.group(4)) - 1
        fld = f"{noun}s[{index}]" + (f".{fld}" if fld else "")
    for key in keyed:
        found = re.match(rf"^(.*?\.{re.escape(key)})\.(.+)$", fld)
        if not found or not names:
            continue
        head, rest = found.groups()
        for name in sorted((n for n in names if n), key=len, reverse=True):
            if rest == name or rest.startswith(name + "."):
                fld = f"{head}[{names.index(name)}]{rest[len(name):]}"
                break
        break
    return fld


def problems_json(problems: list[Problem], names: list[str] | None = None,
                  sheet: Sheet | None = None) -> list[dict[str, str]]:
    keyed = sheet.keyed if sheet is not None else ()
    return [{"field": field_key(p, names, keyed), "message": NOT_ENTERED if p.message == MISSING else p.message,
             "text": str(p), "severity": p.severity} for p in problems]


#: a required input left blank: the validator's words (``data.validate``) → the sheet's
MISSING, NOT_ENTERED = "required field is missing", "not entered yet"


def player_names(pairs: list[tuple[str, str]]) -> list[str]:
    raw = unflatten([(k, v) for k, v in pairs if k.startswith("players[")])
    return [_text(p.get("name")) if isinstance(p, dict) else "" for p in _indexed(raw.get("players"))]


# --- what a problem is about, in the sheet's words ------------------------------------------

_KEY_PART = re.compile(r"([^.\[\]]+)|\[(\d+)\]")


def where(sheet: Sheet | None, key: str, names: list[str]) -> tuple[str, str]:
    """Whom and what a problem's input key (``players[1].bag.pebbles``) concerns, as the sheet
    names them: ``("Ben", "Bag · Pebbles")``; a round's ``("Round 2", "Boats · Ben")``; a
    field of the whole game ``("", "Mode")``."""
    parts = [(m.group(1), int(m.group(2)) if m.group(2) else None) for m in _KEY_PART.finditer(key)]
    who = ""
    widgets: list[Widget] = sheet.game_fields if sheet is not None else []
    if sheet is not None and len(parts) >= 2 and parts[1][1] is not None:
        index = parts[1][1]
        if sheet.rounds is None and parts[0][0] == "players":
            who = names[index] if index < len(names) and names[index] else f"Player {index + 1}"
            widgets, parts = sheet.player_fields, parts[2:]
        elif sheet.rounds is not None and parts[0][0] == sheet.rounds.name:
            who, widgets, parts = f"Round {index + 1}", sheet.rounds.children, parts[2:]
    if sheet is not None and [n for n, _ in parts] == ["players" if sheet.rounds is None else sheet.rounds.name]:
        parts = []  # all the players (all the rounds): said by "who"
    labels: list[str] = []
    current: Widget | None = None
    for name, at in parts:
        if at is not None:
            if current is not None and current.kind == "slots":
                labels.append(current.decl.name(at).capitalize())
            elif current is not None and current.kind == "per_player" and at < len(names):
                labels.append(names[at] or f"Player {at + 1}")
            elif current is not None and current.kind in ("cards", "items", "section_list"):
                labels.append(f"#{at + 1}")
            continue
        found = next((w for w in widgets if w.name == name), None)
        if found is None:
            labels.append(humanise(name))  # a field the sheet does not ask (the engine's words)
            widgets = []
            current = None
            continue
        labels.append(found.label)
        current = found
        widgets = found.children or found.inline
    return who, " · ".join(labels)
