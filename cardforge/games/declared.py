"""Scoring rules as data, and the checks of every game's score-sheet declarations.

A category of ``game.yaml`` with ``score:`` (a :class:`~cardforge.data.gamespec.ScoreRule`) is
computed from what each player holds — the card fields of the final state (those declared
``cards`` or ``counts``: card ids, or ``{card-id: n}``) and its whole-number fields — instead of
being given per player. Any game may declare such categories: a data-only game reads its
``holdings:``, a game with rules the fields of its own final-state model; its ``score`` hook then
leaves those categories out and the engine adds them (:func:`complete`).

:func:`check` runs with the game's data checks (``cardforge check``): every declaration — the
sheet widgets of the final-state model and the score rules — names kinds, sections, card fields
and values the game has, or is a problem located in ``game.yaml`` (line and field) or in the
rules module.
"""

from __future__ import annotations

import difflib
import types
import typing
from collections import Counter
from collections.abc import Collection, Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ValidationError

from cardforge import sheet
from cardforge.data.names import fold
from cardforge.data.names import resolve as resolve_name
from cardforge.data.names import same as same_name
from cardforge.errors import ScoreInputError
from cardforge.limits import env_name, limit
from cardforge.problems import Problem, plural
from cardforge.scores import Number, PlayerResult, ScoreResult

if TYPE_CHECKING:
    from cardforge.data.gamespec import CategorySpec, ScoreRule
    from cardforge.data.loading import GameData
    from cardforge.data.models import CardBase
    from cardforge.games.view import GameView as Game

#: card fields every card has, besides its kind's own
CARD_FIELDS = ("id", "kind", "name")
#: characters of a rule's description in an explanation (:func:`describe`) at most, before
#: "… (N more terms)"; and the groups or sets of one player listed at most (:func:`_explain`)
DESCRIBE_CHARS = 200
LISTED = 12


class DeclaredScoringError(RuntimeError):
    """A game's ``score`` hook also scored a category that ``game.yaml`` computes (a bug in the game)."""


# --- what the declarations point at -------------------------------------------------------------

def _strip(annotation: Any) -> Any:
    """``Annotated[X, …]`` and ``X | None`` → X."""
    for _ in range(6):
        if typing.get_origin(annotation) is typing.Annotated:
            annotation = typing.get_args(annotation)[0]
            continue
        if typing.get_origin(annotation) in (typing.Union, types.UnionType):
            args = [a for a in typing.get_args(annotation) if a is not type(None)]
            if len(args) == 1:
                annotation = args[0]
                continue
        break
    return annotation


def _is_model(t: Any) -> bool:
    return isinstance(t, type) and issubclass(t, BaseModel)


def player_model(game: Game) -> type[BaseModel] | None:
    """The model of one entry of the final state's ``players`` list, if it has one."""
    model = game.score_model
    if model is None or "players" not in model.model_fields:
        return None
    players = _strip(model.model_fields["players"].annotation)
    if typing.get_origin(players) is not list:
        return None
    item = _strip(typing.get_args(players)[0])
    return item if _is_model(item) else None


@lru_cache(maxsize=64)
def card_sources(model: type[BaseModel]) -> dict[str, Any]:
    """The player's fields that hold cards: name → their ``Cards``/``Counts`` declaration."""
    out = {}
    for name, info in model.model_fields.items():
        try:
            decl = sheet.declaration(info)
        except ValueError:
            continue
        if isinstance(decl, sheet.Cards | sheet.Counts):
            out[name] = decl
    return out


def _number_path(model: type[BaseModel], path: str) -> str | None:
    """Why ``path`` (``veins.coal``) is not a whole-number field of ``model``; None when it is."""
    current: Any = model
    parts = path.split(".")
    for i, part in enumerate(parts):
        if not _is_model(current) or _model_field(current, part) is None:
            known = list(current.model_fields) if _is_model(current) else []
            close = difflib.get_close_matches(part, known, n=1)
            where = ".".join(parts[:i]) or "the player"
            return (f"'{part}' is not a field of {where} (fields: {', '.join(known)})"
                    + (f"; did you mean '{close[0]}'?" if close else ""))
        current = _strip(current.model_fields[_model_field(current, part) or part].annotation)
    if current is not int:
        return f"'{path}' is not a whole number field"
    return None


def _known_kinds(game: Game, data: GameData[CardBase]) -> list[str]:
    kinds = dict.fromkeys(c.kind for c in data.cards)
    kinds.update(dict.fromkeys(data.meta.kinds))
    kinds.update(dict.fromkeys(game.card_models))
    return list(kinds)


def _did_you_mean(value: str, known: Sequence[str]) -> str:
    close = difflib.get_close_matches(value, list(known), n=1)
    return f"; did you mean '{close[0]}'?" if close else ""


def _field_of(card: Any, name: str) -> Any:
    """A card's (or entry's) field by the one rule for names (``Cost`` reads ``cost``:
    :mod:`cardforge.data.names`)."""
    if isinstance(card, dict):
        if name in card or not isinstance(name, str):
            return card.get(name)
        found = resolve_name(name, [k for k in card if isinstance(k, str)])
        return card.get(found) if found is not None else None
    if isinstance(card, BaseModel):
        return getattr(card, _model_field(type(card), name) or name, None)
    return getattr(card, name, None)


@lru_cache(maxsize=4096)
def _model_field(model: type[BaseModel], name: str) -> str | None:
    """The field of ``model`` that ``name`` names (itself first), None when none does."""
    if name in model.model_fields:
        return name
    return resolve_name(name, list(model.model_fields))


def _model_key(key: str) -> str:
    return fold(key) if isinstance(key, str) else key


def _kind_in(kind: str, kinds: Collection[str]) -> bool:
    """Whether ``kind`` is one of ``kinds`` by the one rule for names (``Action`` is ``action``)."""
    return kind in kinds or any(same_name(kind, k) for k in kinds)


# --- a player's holdings -------------------------------------------------------------------------

@dataclass
class Held:
    """One player's cards by field (``[(card, copies)]``) and their final-state entry."""

    name: str
    cards: dict[str, list[tuple[Any, int]]]
    entry: Any


def _cards_in(value: Any, data: GameData[CardBase]) -> list[tuple[Any, int]]:
    """A card field's value → (card, copies): ids of the deck, inline cards (a mapping or model
    with their fields), ``{id, …}`` references, or ``{card-id: n}``."""
    out: list[tuple[Any, int]] = []
    if isinstance(value, dict):
        for card_id, n in value.items():
            if isinstance(card_id, str) and data.has_card(card_id) and isinstance(n, int) and n > 0:
                out.append((data.card(card_id), n))
        return out
    for item in value or ():
        if isinstance(item, str):
            if data.has_card(item):
                out.append((data.card(item), 1))
            continue
        name = _field_of(item, "name")
        ref = _field_of(item, "id")
        if name is None and isinstance(ref, str) and data.has_card(ref):
            out.append((data.card(ref), 1))  # {id: …, paid: N}: a card of the deck
        elif name is not None:
            out.append((item, 1))  # a card typed in, with its own fields
    return out


def holdings(game: Game, data: GameData[CardBase], state: Any) -> list[Held]:
    model = player_model(game)
    sources = card_sources(model) if model is not None else {}
    return [Held(str(getattr(p, "name", "")), {f: _cards_in(getattr(p, f, None), data) for f in sources}, p)
            for p in getattr(state, "players", [])]


# --- how much work scoring takes -----------------------------------------------------------------

def rule_work(rule: ScoreRule, held: list[Held]) -> int:
    """The card looks one evaluation of ``rule`` takes (:func:`evaluate`): a rule reading cards
    looks at every entry of the card fields it reads, for every player, once per value of its
    filter and once more; any other rule takes one step per player (and its inner rules')."""
    measure = rule.measure
    if measure in ("sum", "count", "sets", "groups"):
        fields = rule.sources
        entries = sum(len(cards) for h in held for f, cards in h.cards.items() if fields is None or f in fields)
        filt = rule.count if measure == "count" else rule.where
        values = sum(len(v) if isinstance(v, list) else 1 for v in (filt or {}).values())
        return entries * (1 + values)
    if measure in ("most", "least"):
        inner = rule.most if measure == "most" else rule.least
        assert inner is not None
        return len(held) + rule_work(inner, held)
    if measure in ("min", "max"):
        return len(held) + sum(rule_work(r, held) for r in (rule.min if measure == "min" else rule.max) or [])
    return len(held)


def work_problems(game: Game, data: GameData[CardBase], state: Any,
                  held: list[Held] | None = None) -> list[Problem]:
    """A problem when scoring ``state`` by the declared rules would take more than the
    ``score_work`` limit of card looks (:func:`rule_work`, all categories together): a rule
    of ``rule_nodes`` nodes reading the thousands of cards a final state may name would
    otherwise take seconds — on every keystroke of the web sheet (issue 38)."""
    declared = declared_categories(game)
    if not declared:
        return []
    held = holdings(game, data, state) if held is None else held
    work = {c.id: rule_work(c.score, held) for c in declared if c.score is not None}
    total, most = sum(work.values()), limit("score_work")
    if total <= most:
        return []
    heaviest = max(work, key=lambda k: work[k])
    cards = sum(len(cards) for h in held for cards in h.cards.values())
    return [Problem(f"scoring takes {total:,} card looks (the rules of game.yaml's computed categories × the "
                    f"{plural(cards, 'card')} held; category '{heaviest}' {work[heaviest]:,}), at most {most:,} "
                    f"(set {env_name('score_work')} to allow more)", field="players")]


def _bounded_holdings(game: Game, data: GameData[CardBase], state: Any) -> list[Held]:
    """:func:`holdings`, refused past the ``score_work`` limit (``check_final_state`` says it
    first; this guards the callers that score without checking)."""
    held = holdings(game, data, state)
    problems = work_problems(game, data, state, held)
    if problems:
        raise ScoreInputError("cannot score this final state", problems)
    return held


# --- the vocabulary -----------------------------------------------------------------------------

def _matches(card: Any, where: dict[str, Any] | None) -> bool:
    """Whether the card has every field's value (a list of values: any of them; a card field
    that is a list: any of its items). ``true`` never matches 1."""
    for key, wanted in (where or {}).items():
        have = _field_of(card, key)
        options = wanted if isinstance(wanted, list) else [wanted]
        values = have if isinstance(have, list) else [have]
        if _model_key(key) == "kind":  # a card kind by the one rule for names: `Action` is `action`
            values = [fold(v) if isinstance(v, str) else v for v in values]
            options = [fold(w) if isinstance(w, str) else w for w in options]
        if not any(v == w and isinstance(v, bool) == isinstance(w, bool) for v in values for w in options):
            return False
    return True


def _selected(rule: ScoreRule, held: Held, where: dict[str, Any] | None) -> list[tuple[Any, int]]:
    fields = rule.sources if rule.sources is not None else list(held.cards)
    return [(c, n) for f in fields for c, n in held.cards.get(f, []) if _matches(c, where)]


def _table(table: dict[int, int], size: int) -> int:
    """A size's points; sizes above the largest listed score as it, unlisted ones 0."""
    if size <= 0:
        return 0
    if size in table:
        return table[size]
    top = max(table)
    return table[top] if size > top else 0


def set_runs(values: Counter[Any]) -> list[tuple[int, int]]:
    """Sets of different values, as many as possible, each as large as possible — the k-th set
    takes one card of every value held at least k times — as (size, how many sets of that
    size), largest first: one entry per distinct count, however many cards a count says."""
    counts = sorted(n for n in values.values() if n > 0)
    runs: list[tuple[int, int]] = []
    below = 0
    for i, n in enumerate(counts):
        if n > below:
            runs.append((len(counts) - i, n - below))  # sets below+1 … n take every value from i on
            below = n
    return runs


def _values_of(rule: ScoreRule, field: str, held: Held) -> Counter[Any]:
    counts: Counter[Any] = Counter()
    for card, n in _selected(rule, held, rule.where):
        value = _field_of(card, field)
        if isinstance(value, list):
            for v in value:
                if v is not None and v != "":
                    counts[v] += n
        elif value is not None and value != "":
            counts[value] += n
    return counts


def _number(value: Any) -> Number:
    if isinstance(value, bool) or not isinstance(value, int | Fraction):
        return 0
    return value


def _value_path(entry: Any, path: str) -> Number:
    current = entry
    for part in path.split("."):
        current = _field_of(current, part)
    return _number(current)


def _places(amounts: list[Number], awards: list[int], ties: str, fewest: bool) -> list[Number]:
    """Majority points: players ordered by amount (most first, or fewest first); a player needs
    at least 1 to take a place for "most". Tied players: ``share`` each scores the place's
    points and the places they fill are used up (two first, no second); ``all`` each scores the
    place's points and the next player takes the next place; ``split`` the points of the places
    they fill are added up and divided among them, rounded down; ``none`` none of them scores
    and the places they fill are used up."""
    out: list[Number] = [0] * len(amounts)
    eligible = [i for i, a in enumerate(amounts) if fewest or a > 0]
    levels = sorted({amounts[i] for i in eligible}, reverse=not fewest)
    place = 0
    for level in levels:
        tied = [i for i in eligible if amounts[i] == level]
        if place >= len(awards):
            break
        if len(tied) == 1 or ties in ("share", "all"):
            for i in tied:
                out[i] = awards[place]
        elif ties == "split":
            pool = sum(awards[place:place + len(tied)])
            for i in tied:
                out[i] = pool // len(tied)
        place += 1 if ties == "all" else len(tied)
    return out


def evaluate(rule: ScoreRule, held: list[Held]) -> list[Number]:
    """The rule's value for every player (in order)."""
    measure = rule.measure
    raw: list[Number]
    if measure == "sum":
        raw = [sum((_number(_field_of(c, rule.sum or "")) * n for c, n in _selected(rule, h, rule.where)), 0)
               for h in held]
    elif measure == "count":
        raw = [sum(n for _, n in _selected(rule, h, rule.count)) for h in held]
    elif measure == "value":
        raw = [_value_path(h.entry, rule.value or "") for h in held]
    elif measure == "sets":
        raw = [sum(_table(rule.table or {}, size) * times
                   for size, times in set_runs(_values_of(rule, rule.sets or "", h))) for h in held]
    elif measure == "groups":
        raw = [sum(_table(rule.table or {}, n) for n in _values_of(rule, rule.groups or "", h).values()) for h in held]
    elif measure in ("most", "least"):
        inner = rule.most if measure == "most" else rule.least
        assert inner is not None
        raw = _places(evaluate(inner, held), rule.awards, rule.ties or "share", measure == "least")
    else:  # min, max
        parts = [evaluate(r, held) for r in (rule.min if measure == "min" else rule.max) or []]
        pick = min if measure == "min" else max
        raw = [pick(values) for values in zip(*parts)]
    out = []
    for value in raw:
        if rule.per is not None:
            value = value // rule.per
        if rule.points is not None and measure not in ("most", "least"):
            value = value * rule.awards[0]
        if rule.at_least is not None:
            value = max(value, rule.at_least)
        if rule.at_most is not None:
            value = min(value, rule.at_most)
        out.append(value)
    return out


def declared_categories(game: Game) -> list[CategorySpec]:
    return [c for c in game.spec.categories if c.score is not None]


def category_values(game: Game, data: GameData[CardBase], state: Any) -> list[dict[str, Number]]:
    """Every declared category's value, per player (in order)."""
    held = _bounded_holdings(game, data, state)
    out: list[dict[str, Number]] = [{} for _ in held]
    for category in declared_categories(game):
        assert category.score is not None
        for values, value in zip(out, evaluate(category.score, held)):
            values[category.id] = value
    return out


def complete(game: Game, data: GameData[CardBase], state: Any, result: ScoreResult) -> ScoreResult:
    """A ``score`` hook's result with the declared categories added (the hook leaves them out)."""
    declared = declared_categories(game)
    if not declared:
        return result
    ids = [c.id for c in declared]
    names = [str(getattr(p, "name", "")) for p in getattr(state, "players", [])]
    by_name = dict(zip(names, category_values(game, data, state)))
    order = [c.id for c in game.spec.categories]
    players = []
    for r in result.players:
        twice = sorted(set(ids) & set(r.breakdown))
        if twice:
            raise DeclaredScoringError(
                f"the rules of {game.id} score {', '.join(twice)}, which game.yaml computes (score:): "
                "leave them out of the score hook's breakdown")
        merged = {**r.breakdown, **by_name.get(r.name, dict.fromkeys(ids, 0))}
        breakdown = {k: merged[k] for k in order if k in merged}
        breakdown.update({k: v for k, v in merged.items() if k not in breakdown})
        players.append(PlayerResult(r.name, breakdown, r.tiebreak, r.extra))
    return ScoreResult(players, result.details, result.report, result.mode, result.partial)


def report(game: Game, data: GameData[CardBase], state: Any) -> list[str]:
    """How each declared category was counted, one line per category (data-only games)."""
    held = _bounded_holdings(game, data, state)
    lines = []
    for category in declared_categories(game):
        rule = category.score
        assert rule is not None
        parts = []
        for h, v in zip(held, evaluate(rule, held)):
            amount = _explain(rule, h)
            same = amount == _show(v) or amount.endswith(f"= {_show(v)}")
            parts.append(f"{h.name} {amount}" + ("" if same else f" → {_show(v)}"))
        label = game.category(category.id).label_en
        lines.append(f"{label} ({describe(rule)}): " + "; ".join(parts))
    return lines


def _show(value: Number) -> str:
    from cardforge.scores import format_number

    return format_number(value)


def _explain(rule: ScoreRule, held: Held) -> str:
    """One player's amount as counted, before points and bounds."""
    measure = rule.measure
    if measure == "sum":
        terms = [f"{_show(_number(_field_of(c, rule.sum or '')))}" + (f"×{n}" if n > 1 else "")
                 for c, n in _selected(rule, held, rule.where) if _number(_field_of(c, rule.sum or ""))]
        total = _show(evaluate_one(rule, held, raw=True))
        return total if len(terms) < 2 or len(terms) > 12 else f"{'+'.join(terms)} = {total}"
    if measure in ("most", "least"):
        inner = rule.most if measure == "most" else rule.least
        assert inner is not None
        return _explain(inner, held)
    if measure == "count":
        return plural(sum(n for _, n in _selected(rule, held, rule.count)), "card")
    if measure == "sets":
        runs = set_runs(_values_of(rule, rule.sets or "", held))
        shown = [str(size) for size, times in runs for _ in range(min(times, LISTED))][:LISTED]
        return ("sets of " + _listed(shown, sum(times for _, times in runs))) if runs else "no set"
    if measure == "groups":
        groups = _values_of(rule, rule.groups or "", held)
        return _listed([f"{v} {n}" for v, n in groups.items()]) or "none"
    return _show(evaluate_one(rule, held, raw=True))


def _listed(items: list[str], total: int | None = None) -> str:
    """At most :data:`LISTED` items, then how many more (of ``total``, default all the items)."""
    total = len(items) if total is None else total
    shown = ", ".join(items[:LISTED])
    return shown + (f", … ({total - LISTED:,} more)" if total > LISTED else "")


def evaluate_one(rule: ScoreRule, held: Held, raw: bool = False) -> Number:
    """A rule that reads one player only (not a majority) for one player; ``raw``: its amount
    before per, points and bounds."""
    if raw:
        plain = rule.model_copy(update={"per": None, "points": None, "at_least": None, "at_most": None})
        return evaluate(plain, [held])[0]
    return evaluate(rule, [held])[0]


def describe(rule: ScoreRule, most: int = DESCRIBE_CHARS) -> str:
    """The rule in a few English words: ``sum of points``, ``most count of kind=dragon, ties
    share``; past ``most`` characters, cut where a part ends with ``… (N more terms)`` — N the
    rules that measure (sum, count…) left unsaid."""
    out: list[str] = []
    size = said = 0
    for text, term in _describe_parts(rule):
        if size + len(text) > most:
            if not out:  # one part longer than the whole: cut inside it
                out.append(text[:most])
                said += term
            left = _terms(rule) - said
            head = "".join(out).rstrip(", ")
            return head + (f" … ({left:,} more term{'s' if left != 1 else ''})" if left else "…")
        out.append(text)
        size += len(text)
        said += term
    return "".join(out)


def _describe_parts(rule: ScoreRule) -> Iterator[tuple[str, bool]]:
    """:func:`describe`'s words in order, each with whether it begins a measuring rule."""
    measure = rule.measure
    if measure in ("sum", "sets", "groups", "value"):
        yield f"{measure} of {getattr(rule, measure)}", True
    elif measure == "count":
        yield "count of " + (", ".join(f"{k}={v}" for k, v in (rule.count or {}).items()) or "cards"), True
    elif measure in ("most", "least"):
        inner = rule.most if measure == "most" else rule.least
        assert inner is not None
        yield f"{measure} ", False
        yield from _describe_parts(inner)
        yield f", ties {rule.ties or 'share'}", False
    else:
        yield f"{measure} of ", False
        for i, sub in enumerate((rule.min if measure == "min" else rule.max) or []):
            if i:
                yield ", ", False
            yield from _describe_parts(sub)
    if rule.where:
        yield " where " + ", ".join(f"{k}={v}" for k, v in rule.where.items()), False
    if rule.per is not None or (rule.points is not None and measure not in ("most", "least")):
        yield f", {rule.awards[0] if rule.points is not None else 1} per {rule.per or 1}", False


def _terms(rule: ScoreRule) -> int:
    """The rules that measure (sum, count, value, sets, groups) in ``rule``."""
    measure = rule.measure
    if measure in ("most", "least"):
        inner = rule.most if measure == "most" else rule.least
        assert inner is not None
        return _terms(inner)
    if measure in ("min", "max"):
        return sum(_terms(r) for r in (rule.min if measure == "min" else rule.max) or [])
    return 1


# --- checks of a final state --------------------------------------------------------------------

def check_state(game: Game, data: GameData[CardBase], state: Any) -> list[Problem]:
    """The cards a final state names in its card fields: cards of the deck, of the kinds the
    field declares, and not more often across all players than the deck holds."""
    model = player_model(game)
    if model is None:
        return []
    sources = card_sources(model)
    problems: list[Problem] = []
    held: dict[str, list[str]] = {}
    for index, player in enumerate(getattr(state, "players", [])):
        item = f"player '{player.name}' (#{index + 1})"
        for field, decl in sources.items():
            value = getattr(player, field, None)
            if isinstance(value, dict):
                refs = [(f"{field}.{k}", k, n) for k, n in value.items()]
            elif isinstance(value, list):
                refs = [(f"{field}[{j}]", v, 1) for j, v in enumerate(value) if isinstance(v, str)]
            else:
                continue
            for where, card_id, n in refs:
                why = _card_problem(data, card_id, decl.kinds)
                if why:
                    problems.append(Problem(why, item=item, field=where))
                elif isinstance(n, int) and n > 0:
                    held.setdefault(card_id, []).extend([player.name] * n)
    for card_id, names in held.items():
        copies = data.card(card_id).copies
        if len(names) > copies:
            who = ", ".join(f"{n} {names.count(n)}" if names.count(n) > 1 else n for n in dict.fromkeys(names))
            problems.append(Problem(f"'{card_id}' held {len(names)} times ({who}), the deck has {copies}",
                                    field="players"))
    return problems


def _card_problem(data: GameData[CardBase], card_id: str, kinds: list[str] | None) -> str | None:
    if not data.has_card(card_id):
        ids = [c.id for c in data.cards if not kinds or _kind_in(c.kind, kinds)]
        return f"unknown card '{card_id}'" + _did_you_mean(card_id, ids)
    card = data.card(card_id)
    if kinds and not _kind_in(card.kind, kinds):
        return f"'{card_id}' ({card.name}) is a {card.kind} card; this field holds {' or '.join(kinds)} cards"
    return None


# --- checks of the declarations (with the game's data) ------------------------------------------

@dataclass
class _Where:
    """Where a declaration is written: game.yaml (with lines) or a rules module."""

    file: str | None
    line_of: Any = None
    item: str | None = None

    def problem(self, message: str, field: str, loc: tuple[Any, ...] = ()) -> Problem:
        line = self.line_of(loc) if self.line_of is not None and loc else None
        return Problem(message, file=self.file, item=self.item, field=field, line=line)


def _spec_where(game: Game) -> _Where:
    from cardforge.data.yamlio import read_yaml
    from cardforge.resources import display_path

    path = Path(game.folder) / "game.yaml"
    if not path.is_file():
        return _Where(None)
    doc = read_yaml(path)
    return _Where(display_path(path), doc.line_of)


def check(game: Game, data: GameData[CardBase]) -> list[Problem]:
    """Every declaration of ``game`` checked against its data (see the module's docstring)."""
    problems: list[Problem] = []
    model = game.score_model
    holdings_from_yaml = bool(game.spec.holdings) and model is not None and not _python_model(game)
    spec_where: _Where | None = None
    if game.spec.holdings and not holdings_from_yaml:
        spec_where = spec_where or _spec_where(game)
        problems.append(spec_where.problem(
            "holdings: are for a game whose final state is data; the rules' score_model gives this game's "
            "(declare its fields' widgets there)", "holdings", ("holdings",)))
    if model is not None:
        if holdings_from_yaml:
            spec_where = spec_where or _spec_where(game)
            for hid, decl in game.spec.holdings.items():
                problems += _check_decl(game, data, decl, None, f"holdings.{hid}", spec_where, ("holdings", hid))
        else:
            where = _Where(_module_file(model), item=f"final-state model {model.__name__}")
            for path, decl, owner, info in walk(model):
                problems += _check_decl(game, data, decl, (owner, info), path, where, ())
    if declared_categories(game):
        spec_where = spec_where or _spec_where(game)
        problems += _check_rules(game, data, spec_where)
    if game.spec.choices:
        spec_where = spec_where or _spec_where(game)
        problems += _check_choices(game, spec_where)
    if game.spec.balance:
        spec_where = spec_where or _spec_where(game)
        problems += _check_balance(game, data, spec_where)
    return problems


# --- the playtest lab's declarations: choices and balance --------------------------------------

def field_at(entry: Any, path: str) -> Any:
    """The value at a dotted ``path`` (``cost.red``) of a model or mapping; None when absent."""
    current = entry
    for part in path.split("."):
        if current is None:
            return None
        current = _field_of(current, part)
    return current


def choice_field_problem(model: type[BaseModel], path: str) -> str | None:
    """Why ``path`` is not a field of the player model that a choice can be (one value: a word,
    a number, yes/no); None when it is."""
    current: Any = model
    parts = path.split(".")
    for i, part in enumerate(parts):
        if not _is_model(current) or part not in current.model_fields:
            known = list(current.model_fields) if _is_model(current) else []
            where = ".".join(parts[:i]) or "the player"
            return (f"'{part}' is not a field of {where} in the final state (fields: {', '.join(known)})"
                    + _did_you_mean(part, known))
        current = _strip(current.model_fields[part].annotation)
    if current in (str, int, bool) or typing.get_origin(current) is typing.Literal:
        return None
    return f"'{path}' holds {_type_name(current)}; a choice is one value per player (a word, a number, yes/no)"


def _check_choices(game: Game, where: _Where) -> list[Problem]:
    model = player_model(game)
    problems = []
    for cid, choice in game.spec.choices.items():
        loc: tuple[Any, ...] = ("choices", cid)
        path = choice.field or cid
        if model is None:
            problems.append(where.problem("a choice is a field of each player, and this game's final state has no "
                                          "players: [{name, …}] list", f"choices.{cid}", loc))
            continue
        if choice.values is not None and _python_model(game):
            problems.append(where.problem("values: are for a data-only game; the rules' final-state model says "
                                          "what this field holds", f"choices.{cid}.values", (*loc, "values")))
            continue
        if choice.values is None and not _python_model(game):
            problems.append(where.problem("a data-only game lists the values a player may choose: values: [a, b, …]",
                                          f"choices.{cid}", loc))
            continue
        why = choice_field_problem(model, path)
        if why:
            problems.append(where.problem(why, f"choices.{cid}.field" if choice.field else f"choices.{cid}",
                                          (*loc, "field") if choice.field else loc))
    return problems


def balance_cards(game: Game, data: GameData[CardBase], kinds: Sequence[str] | None) -> list[CardBase]:
    return [c for c in data.cards if not kinds or _kind_in(c.kind, kinds)]


def _check_balance(game: Game, data: GameData[CardBase], where: _Where) -> list[Problem]:
    problems: list[Problem] = []
    known = _known_kinds(game, data)
    for bid, spec in game.spec.balance.items():
        loc: tuple[Any, ...] = ("balance", bid)
        bad = [k for k in spec.kinds or () if not _kind_in(k, known)]
        for kind in bad:
            problems.append(where.problem(f"unknown card kind '{kind}' (kinds: {', '.join(known)})"
                                          + _did_you_mean(kind, known), f"balance.{bid}.kinds", (*loc, "kinds")))
        if bad:
            continue
        cards = balance_cards(game, data, spec.kinds)
        if not cards:
            problems.append(where.problem("no card to compare", f"balance.{bid}", loc))
            continue
        fields = _fields_of(cards)
        for which in ("cost", "value"):
            for path in spec.fields(which):
                values = [(c, field_at(c, path)) for c in cards]
                given = [(c, v) for c, v in values if v is not None]
                at = f"balance.{bid}.{which}"
                if not given:
                    head = path.split(".")[0]
                    problems.append(where.problem(
                        f"no card here has a field '{path}' (fields: {', '.join(fields)})"
                        + (_did_you_mean(head, fields) if head not in fields else ""), at, (*loc, which)))
                    continue
                wrong = next(((c, v) for c, v in given if isinstance(v, bool) or not isinstance(v, int | float)),
                             None)
                if wrong is not None:
                    problems.append(where.problem(f"'{path}' is not a number on every card (card '{wrong[0].id}': "
                                                  f"{wrong[1]!r})", at, (*loc, which)))
        if spec.group is not None and all(field_at(c, spec.group) is None for c in cards):
            head = spec.group.split(".")[0]
            problems.append(where.problem(f"no card here has a field '{spec.group}' (fields: {', '.join(fields)})"
                                          + _did_you_mean(head, fields), f"balance.{bid}.group", (*loc, "group")))
    return problems


def _python_model(game: Game) -> bool:
    return game.has_hook("score_model")


def _module_file(model: type[BaseModel]) -> str | None:
    import sys

    from cardforge.resources import display_path

    module = sys.modules.get(model.__module__)
    file = getattr(module, "__file__", None)
    return display_path(Path(file)) if file else None


def walk(model: type[BaseModel], prefix: str = "", seen: frozenset[type[BaseModel]] = frozenset()
         ) -> Iterator[tuple[str, Any, type[BaseModel], Any]]:
    """(path, declaration, owner model, field info) of every declared field of ``model`` and the
    models it holds (list items, mapping values, unions). A malformed declaration is yielded as
    the ValueError it raises."""
    if model in seen:
        return
    seen = seen | {model}
    for name, info in model.model_fields.items():
        path = f"{prefix}.{name}" if prefix else name
        try:
            decl = sheet.declaration(info)
        except ValueError as exc:
            decl = exc
        if decl is not None:
            yield path, decl, model, info
        for inner in _models_in(info.annotation):
            yield from walk(inner, path, seen)


def _models_in(annotation: Any) -> list[type[BaseModel]]:
    out: list[type[BaseModel]] = []
    stack = [annotation]
    while stack:
        t = stack.pop()
        if _is_model(t):
            out.append(t)
        else:
            stack.extend(typing.get_args(t))
    return out


#: what type each widget needs (a declaration not listed fits any field)
_SHAPES: dict[str, tuple[type, ...]] = {
    "cards": (list,), "counts": (dict,), "grid": (list,), "rounds": (list,), "slots": (list,), "numbers": (list,),
    "per_player": (dict,), "number": (int,), "section": (str,), "card_key": (int, str), "section_list": (list,),
    "items": (list,)}


def _shape_problem(decl: Any, info: Any) -> str | None:
    want = _SHAPES.get(decl.widget)
    if want is None or info is None:
        return None
    annotation = _strip(info.annotation)
    origin = typing.get_origin(annotation) or annotation
    if origin in want or (origin in (typing.Union, types.UnionType)
                          and all(_strip(a) in want for a in typing.get_args(annotation))):
        return None
    shown = " or ".join(t.__name__ for t in want)
    return f"a {decl.widget} widget needs a {shown} field, this one is {_type_name(annotation)}"


def _type_name(annotation: Any) -> str:
    if typing.get_origin(annotation) is None and hasattr(annotation, "__name__"):
        return str(annotation.__name__)
    return str(annotation).replace("typing.", "")


def _check_decl(game: Game, data: GameData[CardBase], decl: Any, owner: tuple[Any, Any] | None, path: str,
                where: _Where, loc: tuple[Any, ...]) -> list[Problem]:
    if isinstance(decl, ValidationError):  # a "sheet" entry that is not a declaration
        from cardforge.data.validate import validation_problems

        return [where.problem(f"sheet declaration: {p.field + ': ' if p.field else ''}{p.message}", path)
                for p in validation_problems(decl, sheet.Declaration)]
    if isinstance(decl, ValueError):
        return [where.problem(f"sheet declaration: {decl}", path)]
    problems = []
    info = owner[1] if owner else None
    shape = _shape_problem(decl, info)
    if shape:
        problems.append(where.problem(shape, path, loc))
    kinds = _known_kinds(game, data)
    for kind in getattr(decl, "kinds", None) or ():
        if not _kind_in(kind, kinds):
            problems.append(where.problem(f"kinds: unknown card kind '{kind}' (kinds: {', '.join(kinds)})"
                                          + _did_you_mean(kind, kinds), path, (*loc, "kinds")))
    if isinstance(decl, sheet.CardKey):
        if not _kind_in(decl.kind, kinds):
            problems.append(where.problem(f"kind: unknown card kind '{decl.kind}' (kinds: {', '.join(kinds)})"
                                          + _did_you_mean(decl.kind, kinds), path, (*loc, "kind")))
        else:
            problems += _card_field_problems([c for c in data.cards if same_name(c.kind, decl.kind)], decl.key,
                                             "key", path, where, (*loc, "key"))
    if isinstance(decl, sheet.Cards) and decl.paid:
        offered = [c for c in data.cards if not decl.kinds or _kind_in(c.kind, decl.kinds)]
        problems += _card_field_problems(offered, decl.paid, "paid", path, where, (*loc, "paid"))
    if isinstance(decl, sheet.Section | sheet.SectionList) and decl.section not in data.sections:
        known = list(data.sections)
        problems.append(where.problem(f"section: no data section '{decl.section}' (sections: "
                                      f"{', '.join(known) or 'none'})" + _did_you_mean(decl.section, known),
                                      path, (*loc, "section")))
    if owner is not None:
        model = owner[0]
        if isinstance(decl, sheet.SlotName) and decl.given_with not in model.model_fields:
            problems.append(where.problem(f"given_with: '{decl.given_with}' is not a field of {model.__name__}",
                                          path))
        for other in getattr(decl, "replaces", None) or ():
            if other not in model.model_fields:
                problems.append(where.problem(f"replaces: '{other}' is not a field of {model.__name__}", path))
        if isinstance(decl, sheet.Grid):
            cell = next(iter(_models_in(info.annotation)), None) if info is not None else None
            if decl.edges and (cell is None or decl.edges not in cell.model_fields):
                problems.append(where.problem(f"edges: '{decl.edges}' is not a field of the grid's cells", path))
            if decl.junctions and decl.junctions not in model.model_fields:
                problems.append(where.problem(f"junctions: '{decl.junctions}' is not a field of "
                                              f"{model.__name__}", path))
    return problems


def _card_field_problems(cards: list[Any], name: str, what: str, path: str, where: _Where,
                         loc: tuple[Any, ...]) -> list[Problem]:
    fields = _fields_of(cards)
    if resolve_name(name, fields) is not None:
        return []
    return [where.problem(f"{what}: no card here has a field '{name}' (fields: {', '.join(fields)})"
                          + _did_you_mean(name, fields), path, loc)]


def _fields_of(cards: list[Any]) -> list[str]:
    """The fields these cards have that a rule may read: id, kind, name and their kinds' own
    (not the print fields every card has: copies, art…)."""
    from cardforge.data.models import CardBase

    printing = set(CardBase.model_fields) - set(CARD_FIELDS)
    names: dict[str, None] = dict.fromkeys(CARD_FIELDS)
    seen: set[type] = set()  # a model's fields once (a 1,000-card deck has a handful of kinds)
    for card in cards:
        if isinstance(card, BaseModel):
            if type(card) in seen:
                continue
            seen.add(type(card))
        fields = type(card).model_fields if isinstance(card, BaseModel) else card
        names.update(dict.fromkeys(f for f in fields if f not in printing))
    return list(names)


def _check_rules(game: Game, data: GameData[CardBase], where: _Where) -> list[Problem]:
    model = player_model(game)
    problems = []
    for index, category in enumerate(game.spec.categories):
        if category.score is None:
            continue
        path = f"categories[{index}].score"
        loc: tuple[Any, ...] = ("categories", index, "score")
        if model is None:
            problems.append(where.problem("declared scoring reads the final state's players: [{name, …}] list, "
                                          "which this game's final state does not have", path, loc))
            continue
        problems += _check_rule(category.score, model, data, path, loc, where)
    return problems


def _check_rule(rule: ScoreRule, model: type[BaseModel], data: GameData[CardBase], path: str,
                loc: tuple[Any, ...], where: _Where) -> list[Problem]:
    problems: list[Problem] = []
    sources = card_sources(model)
    measure = rule.measure
    if measure in ("most", "least"):
        inner = rule.most if measure == "most" else rule.least
        assert inner is not None
        return _check_rule(inner, model, data, f"{path}.{measure}", (*loc, measure), where)
    if measure in ("min", "max"):
        for i, sub in enumerate((rule.min if measure == "min" else rule.max) or []):
            problems += _check_rule(sub, model, data, f"{path}.{measure}[{i}]", (*loc, measure, i), where)
        return problems
    if measure == "value":
        why = _number_path(model, rule.value or "")
        if why:
            problems.append(where.problem(why, f"{path}.value", (*loc, "value")))
        return problems
    if not sources:
        return [where.problem(f"{measure}: reads the cards players hold, and the final state has no card field "
                              "(declare one: holdings: {NAME: {widget: cards}})", path, loc)]
    names = rule.sources if rule.sources is not None else list(sources)
    for i, name in enumerate(names):
        if name not in sources:
            at = (*loc, "of") if isinstance(rule.of, str) else (*loc, "of", i)
            problems.append(where.problem(f"'{name}' is not a card field of the final state (card fields: "
                                          f"{', '.join(sources)})" + _did_you_mean(name, list(sources)),
                                          f"{path}.of", at))
    kinds = {k for n in names if n in sources for k in (sources[n].kinds or [])}
    cards = [c for c in data.cards if not kinds or _kind_in(c.kind, kinds)]
    inline = _inline_fields(model, [n for n in names if n in sources])
    fields = (held := _fields_of(cards)) + [f for f in inline if f not in held]
    read = {"sum": rule.sum, "sets": rule.sets, "groups": rule.groups}.get(measure)
    if read is not None:
        if resolve_name(read, fields) is None:
            problems.append(where.problem(f"no card held here has a field '{read}' (fields: {', '.join(fields)})"
                                          + _did_you_mean(read, fields), f"{path}.{measure}", (*loc, measure)))
        elif measure == "sum":
            bad = next((c for c in cards if _field_of(c, read) is not None
                        and (isinstance(_field_of(c, read), bool) or not isinstance(_field_of(c, read), int))), None)
            if bad is not None:
                problems.append(where.problem(f"'{read}' is not a whole number on every card (card '{bad.id}': "
                                              f"{_field_of(bad, read)!r})", f"{path}.sum", (*loc, "sum")))
    for key, filt in (("count", rule.count), ("where", rule.where)):
        for field, wanted in (filt or {}).items():
            at = (*loc, key, field)
            if resolve_name(field, fields) is None:
                problems.append(where.problem(f"no card held here has a field '{field}' (fields: {', '.join(fields)})"
                                              + _did_you_mean(field, fields), f"{path}.{key}.{field}", at))
                continue
            seen = _seen_values(cards, field)
            for value in wanted if isinstance(wanted, list) else [wanted]:
                if seen and value not in seen and field not in inline and not (
                        _model_key(field) == "kind" and any(same_name(value, v) for v in seen)):
                    shown = sorted(map(str, seen))
                    problems.append(where.problem(
                        f"no card held here has {field} {value!r} (values: {', '.join(shown[:20])}"
                        f"{', …' if len(shown) > 20 else ''})" + _did_you_mean(str(value), shown),
                        f"{path}.{key}.{field}", at))
    return problems


def _seen_values(cards: list[Any], field: str) -> set[Any]:
    seen: set[Any] = set()
    for card in cards:
        value = _field_of(card, field)
        for v in value if isinstance(value, list) else [value]:
            if v is not None and isinstance(v, str | int | bool):
                seen.add(v)
    return seen


def _inline_fields(model: type[BaseModel], names: list[str]) -> list[str]:
    """The fields of the cards typed in (inline) that these card fields accept."""
    out: list[str] = []
    for name in names:
        for inner in _models_in(model.model_fields[name].annotation):
            out += [f for f in inner.model_fields if f not in out]
    return out
