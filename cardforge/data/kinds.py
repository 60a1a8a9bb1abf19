"""Card kinds declared as data: a pydantic model made from ``kinds.<kind>.fields``.

Such a model validates exactly like a hand-written one (same located messages: file, line,
card, field, what was allowed). Models are registered in this module under a name derived
from the game, the kind and the declaration, so validated cards pickle into the data cache
and load back in another process once the game has been found again.
"""

from __future__ import annotations

import hashlib
import json
import sys
from typing import Annotated, Any, Literal

from pydantic import Field, create_model

from cardforge.data.models import CardBase, FieldSpec, KindSpec, Provenance

_MODULE = sys.modules[__name__]

#: field names every card has; a declared field may not take them
BASE_FIELDS = tuple(CardBase.model_fields)


def _annotation(spec: FieldSpec) -> Any:
    bounds: dict[str, Any] = {}
    if spec.min is not None:  # finite, whole for an int field (FieldSpec)
        bounds["ge"] = int(spec.min) if spec.type == "int" else spec.min
    if spec.max is not None:
        bounds["le"] = int(spec.max) if spec.type == "int" else spec.max
    if spec.type == "int":
        return Annotated[int, Field(strict=True, **bounds)]
    if spec.type == "number":  # a card's number is finite (nan and inf are no value to print or count)
        return Annotated[float, Field(allow_inf_nan=False, **bounds)]
    if spec.type == "bool":
        return Annotated[bool, Field(strict=True)]
    if spec.type == "choice":
        return Literal[tuple(spec.choices or ())]
    if spec.type == "list":
        return list[str]
    return Annotated[str, Field(max_length=spec.max_length) if spec.max_length else Field()]


def _class_name(game_id: str, kind: str, spec: KindSpec) -> str:
    declared = json.dumps({k: v.model_dump(mode="json") for k, v in (spec.fields or {}).items()},
                          sort_keys=True)
    digest = hashlib.sha256(f"{game_id}|{kind}|{declared}".encode()).hexdigest()[:12]
    safe = "".join(ch if ch.isalnum() else "_" for ch in f"{game_id}_{kind}")
    return f"Kind_{safe}_{digest}"


def card_model_for(game_id: str, kind: str, spec: KindSpec) -> type[CardBase]:
    """The model of a kind declared in data (``spec.fields``; none: the base fields only)."""
    name = _class_name(game_id, kind, spec)
    existing = getattr(_MODULE, name, None)
    if isinstance(existing, type) and issubclass(existing, CardBase):
        return existing
    fields: dict[str, Any] = {
        "kind": (Literal[kind], ...),
        # a designer's game says where a card comes from only if it wants to
        "provenance": (Provenance, "provisional"),
    }
    for field_name, field_spec in (spec.fields or {}).items():
        if field_name in BASE_FIELDS:  # reported by field_problems
            continue
        annotation = _annotation(field_spec)
        if field_spec.required:
            fields[field_name] = (annotation, Field(..., description=field_spec.help))
        else:
            fields[field_name] = (annotation | None, Field(field_spec.default, description=field_spec.help))
    model = create_model(name, __base__=CardBase, __module__=__name__, **fields)
    model.kind_label = spec.label
    setattr(_MODULE, name, model)
    return model


def field_problems(spec: KindSpec) -> list[tuple[str, str]]:
    """(field, message) for declared fields that clash with the fields every card has."""
    return [(name, f"'{name}' is a field every card has ({', '.join(BASE_FIELDS)}); pick another name")
            for name in spec.fields or {} if name in BASE_FIELDS]
