"""Multilingual card texts: one value per language, one edition printed at a time.

A card's text field may hold a value per language: ``name: {fr: Étayage, en: Shoring}`` in
YAML, or a ``name.en`` column beside ``name`` in a spreadsheet (the plain column holds the
game's own language; YAML may also write ``name.en:`` beside ``name:``). A text field is one
whose model takes a text (``name``, a kind's ``type: text`` fields, a rules module's ``str``
fields; not ``id``, ``kind``, ``back``, ``art``); a multilingual value is a mapping, given to a
text field, whose keys are all language codes (two or three lowercase letters) and whose
values are all texts or numbers. Any other mapping is left to the model (a ``{red: 1}`` field
stays a mapping).

Loading the data for an edition (``build --lang en``; default: the game's ``language``)
replaces each such value with that language's text before the card is validated, so every
check and every renderer sees plain text. A value without the edition's language prints the
game's language's text (or, without that either, the first one given) with a warning naming
the card and the field. A field translated on some cards of a kind is taken as translated for
the whole kind: a card of that kind giving it as one text (the game's language) is listed, and
warned about in another edition, too. :func:`missing_by_language` lists, for ``cardforge
check``, what each language lacks.
"""

from __future__ import annotations

import re
import types
import typing
from collections import Counter
from collections.abc import Collection, Mapping
from dataclasses import dataclass
from typing import Any

LANG_CODE = re.compile(r"^[a-z]{2,3}$")
#: ``name.en``: a field's value in one language, beside the field itself
_LANG_KEY = re.compile(r"^(?P<field>[A-Za-z_][\w-]*)\.(?P<lang>[a-z]{2,3})$")


#: text fields that name rather than say: never one value per language
NOT_TRANSLATED = frozenset({"id", "kind", "back", "art", "provenance"})


def _is_text(annotation: Any) -> bool:
    origin = typing.get_origin(annotation)
    if origin is typing.Annotated:
        return _is_text(typing.get_args(annotation)[0])
    if origin in (typing.Union, types.UnionType):
        args = [a for a in typing.get_args(annotation) if a is not type(None)]
        return bool(args) and all(_is_text(a) for a in args)
    return annotation is str


def text_fields(model: Any) -> frozenset[str]:
    """The fields of a card model (a pydantic model class) that take a text, by name and alias."""
    fields = getattr(model, "model_fields", {})
    out = set()
    for name, info in fields.items():
        if name not in NOT_TRANSLATED and _is_text(info.annotation):
            out |= {name, info.alias or name}
    return frozenset(out)


def is_multilingual(value: Any) -> bool:
    """``{fr: Étayage, en: Shoring}``: a mapping of language codes to texts (or numbers)."""
    return (isinstance(value, Mapping) and bool(value)
            and all(isinstance(k, str) and LANG_CODE.match(k) for k in value)
            and all(isinstance(v, (str, int, float)) and not isinstance(v, bool) for v in value.values()))


def language_column(key: Any) -> tuple[str, str] | None:
    """``"name.en"`` → ``("name", "en")``; None for any other key."""
    m = _LANG_KEY.match(key) if isinstance(key, str) else None
    return (m.group("field"), m.group("lang")) if m else None


def gather(raw: Mapping[Any, Any], game_lang: str, text: Collection[str]) -> dict[Any, Any]:
    """``raw`` with every ``field.xx`` key of a ``text`` field folded into ``field``'s
    per-language mapping (the plain ``field`` value being the game's language's)."""
    if not any(language_column(k) for k in raw):
        return dict(raw)
    out: dict[Any, Any] = {}
    for key, value in raw.items():
        split = language_column(key)
        if split is not None and split[0] not in text:
            split = None
        if split is None:
            if key in out and isinstance(out[key], dict) and not isinstance(value, Mapping):
                out[key] = {game_lang: value, **out[key]}  # the plain column after `field.xx`
            elif key in out and isinstance(out[key], dict) and isinstance(value, Mapping):
                out[key] = {**value, **out[key]}
            else:
                out[key] = value
            continue
        field, lang = split
        if value is None:
            continue
        current = out.get(field)
        if current is None:
            out[field] = {lang: value}
        elif isinstance(current, Mapping):
            out[field] = {**current, lang: value}
        else:
            out[field] = {game_lang: current, lang: value}
    return out


def translations(raw: Mapping[Any, Any], text: Collection[str]) -> dict[str, frozenset[str]]:
    """Each multilingual ``text`` field of a card (after :func:`gather`) → the languages it has."""
    return {str(k): frozenset(v) for k, v in raw.items() if k in text and is_multilingual(v)}


def plain_texts(raw: Mapping[Any, Any], text: Collection[str]) -> frozenset[str]:
    """The ``text`` fields of a card given as one text (after :func:`gather`)."""
    return frozenset(str(k) for k, v in raw.items() if k in text and isinstance(v, str))


def same_kind_gaps(found: dict[str, dict[str, frozenset[str]]], plain: Mapping[str, frozenset[str]],
                   kinds: Mapping[str, str], game_lang: str) -> list[tuple[str, str]]:
    """A field translated on some cards of a kind is a translated field of that kind: each card
    of the kind giving it as one text has it in the game's language only. Adds those to
    ``found`` (card id → field → languages); returns them as (card id, field)."""
    translated: dict[str, set[str]] = {}
    for card_id, fields in found.items():
        translated.setdefault(kinds.get(card_id, ""), set()).update(fields)
    added: list[tuple[str, str]] = []
    for card_id, kind in kinds.items():
        for name in sorted(translated.get(kind, set())):
            if name in plain.get(card_id, frozenset()) and name not in found.get(card_id, {}):
                found.setdefault(card_id, {})[name] = frozenset({game_lang})
                added.append((card_id, name))
    return added


def resolve(raw: Mapping[Any, Any], lang: str, game_lang: str,
            text: Collection[str]) -> tuple[dict[Any, Any], list[tuple[str, str]]]:
    """``raw`` (after :func:`gather`) with each multilingual ``text`` value replaced by its text
    in ``lang``; and the fields that had none: (field, the language printed instead)."""
    out: dict[Any, Any] = {}
    fallbacks: list[tuple[str, str]] = []
    for key, value in raw.items():
        if key not in text or not is_multilingual(value):
            out[key] = value
            continue
        if lang in value:
            out[key] = value[lang]
            continue
        instead = game_lang if game_lang in value else next(iter(value))
        out[key] = value[instead]
        fallbacks.append((str(key), instead))
    return out, fallbacks


#: texts named per language by :func:`missing_by_language` (the rest are counted)
MISSING_EXAMPLES = 8


@dataclass(frozen=True)
class Missing:
    """What one language lacks: how many multilingual texts, and the first few (``card 'id' field``)."""

    count: int
    examples: tuple[str, ...]


def missing_by_language(found: Mapping[str, Mapping[str, frozenset[str]]], game_lang: str,
                        examples: int = MISSING_EXAMPLES) -> dict[str, Missing]:
    """For every language any card text is given in (and the game's): how many texts lack it,
    and the first ``examples`` of them in the cards' order. ``found``: card id →
    :func:`translations`. Memory is the languages × ``examples``, and time the texts × their
    languages — not texts × languages: a game in many languages whose texts each give a few
    listed millions of names before (issue 38)."""
    langs = {game_lang}
    texts = 0
    have_count: Counter[str] = Counter()
    for fields in found.values():
        for have in fields.values():
            langs |= have
            have_count.update(have)
            texts += 1
    if len(langs) == 1:
        return {}
    named: dict[str, list[str]] = {lang: [] for lang in langs}
    need = set(langs)  # the languages with fewer than ``examples`` named yet
    for card_id, fields in found.items():
        if not need:
            break
        for field, have in fields.items():
            for lang in need - have:
                named[lang].append(f"card '{card_id}' {field}")
                if len(named[lang]) >= examples:
                    need.discard(lang)
    return {lang: Missing(texts - have_count[lang], tuple(named[lang])) for lang in sorted(langs)}
