"""Pydantic validation errors → located, readable problems.

``my-game/cards.yaml:34: card 'marchand' (#12): cost: must be ≥ 0, got -3``
"""

from __future__ import annotations

import difflib
import math
import typing
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ValidationError

from cardforge.limits import env_name, limit
from cardforge.paths import name_problem, path_problem
from cardforge.problems import Problem, short_repr
from cardforge.resources import templates_root

if TYPE_CHECKING:
    from cardforge.data.models import CardBase, DeckMeta
    from cardforge.data.yamlio import Loc, LocatedDoc

#: a document's ``line_of``: the line of the value at a location, if known
LineOf = Callable[[tuple[Any, ...]], int | None]


def _show(value: Any) -> str:
    if isinstance(value, str):
        return short_repr(value)
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    if value is None:
        return "nothing"
    return short_repr(value)


def _model_at(model: type[BaseModel] | None, loc: Loc) -> type[BaseModel] | None:
    """The pydantic model class that owns the last element of ``loc``, if it can be told."""
    current: Any = model
    for part in loc[:-1]:
        if isinstance(part, int):
            continue
        if not (isinstance(current, type) and issubclass(current, BaseModel)):
            return None
        info = current.model_fields.get(part)
        if info is None:
            return None
        current = _unwrap(info.annotation)
    return current if isinstance(current, type) and issubclass(current, BaseModel) else None


def _unwrap(annotation: Any) -> Any:
    """list[X] / dict[str, X] / X | None / Annotated[X, ...] → X when X is a model."""
    for _ in range(4):
        args = typing.get_args(annotation)
        if not args:
            return annotation
        models = [a for a in args if isinstance(a, type) and issubclass(a, BaseModel)]
        if models:
            return models[0]
        annotation = args[-1] if typing.get_origin(annotation) is dict else args[0]
    return annotation


def allowed_fields(model: type[BaseModel]) -> list[str]:
    return [info.alias or name for name, info in model.model_fields.items()]


def _is_nan(value: Any) -> bool:
    """``value`` is a NaN, or a text that reads as one ('nan', 'NaN')."""
    if isinstance(value, float):
        return math.isnan(value)
    return isinstance(value, str) and value.strip().lower().lstrip("+-") == "nan"


def friendly_message(err: dict[str, Any], model: type[BaseModel] | None = None) -> str:
    """One pydantic error → 'what is wrong, what was allowed'."""
    kind = err["type"]
    ctx = err.get("ctx") or {}
    got = err.get("input")
    if kind == "missing":
        return "required field is missing"
    if kind == "extra_forbidden":
        owner = _model_at(model, err["loc"]) if model else None
        if owner is None:
            return "unknown field"
        names = allowed_fields(owner)
        msg = f"unknown field (allowed: {', '.join(names)})"
        close = difflib.get_close_matches(str(err["loc"][-1]) if err["loc"] else "", names, n=1)
        return msg + (f"; did you mean '{close[0]}'?" if close else "")
    if kind == "literal_error":
        return f"must be one of {ctx.get('expected')}, got {_show(got)}"
    if kind == "union_tag_invalid":  # a declaration's widget: (cardforge/sheet.py)
        key = str(ctx.get("discriminator", "")).strip("'")
        return f"{key}: must be one of {ctx.get('expected_tags')}, got {_show(ctx.get('tag'))}"
    if kind == "union_tag_not_found":
        key = str(ctx.get("discriminator", "")).strip("'")
        return f"{key}: required field is missing"
    if kind == "enum":
        return f"must be one of {ctx.get('expected')}, got {_show(got)}"
    bounds = {
        "greater_than_equal": ("≥", "ge"),
        "greater_than": (">", "gt"),
        "less_than_equal": ("≤", "le"),
        "less_than": ("<", "lt"),
    }
    if kind in bounds:
        sign, key = bounds[kind]
        if _is_nan(got):  # NaN fails every comparison: not "more than 10", not a number at all
            return "must be a number, got nan"
        return f"must be {sign} {ctx.get(key)}, got {_show(got)}"
    typed = _type_message(kind, ctx, got)
    if typed is not None:
        return typed
    if kind in ("value_error", "assertion_error"):
        msg = str(err["msg"])
        for prefix in ("Value error, ", "Assertion failed, "):
            if msg.startswith(prefix):
                msg = msg[len(prefix):]
        return msg
    return f"{err['msg'].rstrip('.')}, got {_show(got)}"


def _type_message(kind: str, ctx: dict[str, Any], got: Any) -> str | None:
    """The message of a wrong type or size (a whole number, a list, text too short…), else None."""
    if kind in ("int_type", "int_parsing", "int_from_float"):
        return f"must be a whole number, got {_show(got)}"
    if kind == "int_parsing_size":
        return f"must be a whole number, got {_show(got)} (too large)"
    if kind == "finite_number":
        return f"must be a finite number, got {_show(got)}"
    if kind in ("float_type", "float_parsing"):
        return f"must be a number, got {_show(got)}"
    if kind in ("bool_type", "bool_parsing"):
        return f"must be true or false, got {_show(got)}"
    if kind in ("string_type",):
        return f"must be text, got {_show(got)}"
    if kind in ("dict_type", "model_type", "model_attributes_type"):
        return f"must be a mapping (key: value), got {_show(got)}"
    if kind in ("list_type", "tuple_type", "set_type"):
        return f"must be a list, got {_show(got)}"
    if kind == "too_short":
        return f"must have at least {ctx.get('min_length')} item(s), got {ctx.get('actual_length')}"
    if kind == "too_long":
        return f"must have at most {ctx.get('max_length')} item(s), got {ctx.get('actual_length')}"
    if kind == "string_too_short":
        return "must not be empty"
    if kind == "string_pattern_mismatch":
        return f"must match {ctx.get('pattern')}, got {_show(got)}"
    return None


def format_loc(loc: Loc) -> str:
    """('stock', 'wood') → 'stock.wood'; ('players', 2, 'coins') → 'players[2].coins'."""
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += ("." if out else "") + str(part)
    return out


def _clean_loc(loc: Loc) -> Loc:
    """Drop pydantic's union/tag branch markers (e.g. 'function-after[...]', 'int')."""
    return tuple(p for p in loc if isinstance(p, int) or not _is_branch_marker(p))


def _is_branch_marker(part: str) -> bool:
    return "[" in part or part in {"int", "str", "float", "bool", "list", "dict"}


def validation_problems(
    exc: ValidationError,
    model: type[BaseModel],
    *,
    file: str | None = None,
    item: str | None = None,
    line_of: LineOf | None = None,
    loc_prefix: Loc = (),
) -> list[Problem]:
    """Every error of ``exc`` as a problem; ``line_of(loc)`` gives the YAML line."""
    problems = []
    seen: set[tuple[Loc, str]] = set()
    for err in exc.errors(include_url=False):
        loc = _clean_loc(tuple(err["loc"]))
        msg = friendly_message({**err, "loc": loc}, model)
        key = (loc, msg)
        if key in seen:  # unions report the same problem once per branch
            continue
        seen.add(key)
        problems.append(
            Problem(
                msg,
                file=file,
                item=item,
                field=format_loc(loc) or None,
                line=line_of(loc_prefix + loc) if line_of else None,
            )
        )
    return problems


def validate(model: type[BaseModel], data: Any, *, file: str | None = None, item: str | None = None,
             line_of: LineOf | None = None, loc_prefix: Loc = (),
             context: dict[str, Any] | None = None) -> tuple[Any, list[Problem]]:
    """(instance, []) or (None, problems). ``context``: pydantic's validation context (the game's
    own icon names, ``{"icons": …}``, for the fields that name an icon)."""
    try:
        return model.model_validate(data, context=context), []
    except ValidationError as exc:
        return None, validation_problems(exc, model, file=file, item=item, line_of=line_of, loc_prefix=loc_prefix)


def deck_problems(meta_doc: LocatedDoc, meta: DeckMeta | None, cards: list[CardBase], folder: Path,
                  cards_failed: bool = False) -> list[Problem]:
    """What would stop a build that the models cannot see, so that a green ``check`` means the
    build will not fail on data: an empty deck.yaml, a deck with nothing to print, more printed
    cards than the ``cards_per_deck`` limit, card or back art outside the game's folder.
    ``cards_failed``: the card files had errors (then an empty deck is not news)."""
    file = meta_doc.display
    if meta_doc.data is None and not meta_doc.problems:
        return [Problem("the file is empty: deck.yaml needs title, version, card_size and card_files", file=file)]
    if meta is None:
        return []
    problems: list[Problem] = []
    printed = sum(getattr(c, "copies", 0) for c in cards)
    if printed == 0 and not cards_failed:
        problems.append(Problem("the deck has no cards to print (the card files list none, "
                                "or every card has copies: 0)", field="card_files", file=file))
    elif printed > limit("cards_per_deck"):
        problems.append(Problem(
            f"{printed:,} printed cards (copies counted): at most {limit('cards_per_deck'):,} "
            f"(set {env_name('cards_per_deck')} to allow more)", field="card_files", file=file))
    problems += name_problems(meta_doc, meta)
    roots = [templates_root()]
    for back_id, back in meta.backs.items():
        if back.art:
            problems += [p for p in [path_problem(folder, back.art, "art", also=roots, field=f"backs.{back_id}.art",
                                                  line=meta_doc.line_of(("backs", back_id, "art")), file=file)[1]] if p]
    for card in cards:
        art = getattr(card, "art", None)
        if art:
            problem = path_problem(folder, art, "art", also=roots, item=f"card '{card.id}'", field="art")[1]
            if problem is not None:
                problems.append(problem)
    return problems


def name_problems(meta_doc: LocatedDoc, meta: DeckMeta) -> list[Problem]:
    """Kinds and back designs become parts of file names (``deck-<kind>.pdf``,
    ``back-<design>.png``): each must be a name, never a path, short enough for every
    platform (:func:`cardforge.paths.name_problem`). Card ids are checked by their model."""
    problems: list[Problem] = []
    for key, what in (("kinds", "kind"), ("backs", "back design")):
        for name in getattr(meta, key):
            why = name_problem(name, what)
            if why is not None:
                problems.append(Problem(f"{what} {why}", file=meta_doc.display, field=key,
                                        line=meta_doc.line_of((key, name))))
    return problems
