"""Reprinting only what changed.

Every deck build records, beside its PDFs, ``cards.json``: each card id with a fingerprint of
everything printed for it (its data, the layout of its face, the card-text templates, the deck
version, and its back). A designer keeps the record of the build they printed (e.g. ``cp
output/maphr/cards.json printed-v3.json``); after changing rules, ``cardforge build maphr
--changed-since printed-v3.json`` also writes ``deck-changed.pdf`` holding only the cards that
are new or print differently since then (every copy of each), and names the cards that left the
deck, to take out of the printed one.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path

from cardforge.data.models import CardBase
from cardforge.problems import Problem

RECORD = "cards.json"
RECORD_FORMAT = 1


@dataclass(frozen=True)
class Changes:
    """Cards of this build against an earlier record."""

    changed: tuple[str, ...]  # new or printing differently, in data order
    removed: tuple[str, ...]  # in the record, no longer printed


def templates_digest(folders: list[Path]) -> str:
    """A fingerprint of the card-text templates (``*.j2``) the layouts may use."""
    h = hashlib.blake2b(digest_size=8)
    for folder in folders:
        folder = Path(folder)
        if not folder.is_dir():
            continue
        for path in sorted(folder.glob("*.j2")):
            h.update(path.name.encode("utf-8") + b"\0" + path.read_bytes() + b"\0")
    return h.hexdigest()


def card_prints(art, cards: list[CardBase], templates: str) -> dict[str, str]:
    """Card id → fingerprint of its printed front and back (``art``: render.cards.CardArt)."""
    out: dict[str, str] = {}
    for card in cards:
        size = art.card_size(card)
        front = art.program(art.front_layout_name(card.kind), size, "front")
        parts = [art.fingerprint(card, front) if front is not None else card.id, templates]
        other = art.back_face(card)
        if other is not None:
            back = art.program(art.front_layout_name(other.kind), size, "front")
            parts.append("face:" + (art.fingerprint(other, back) if back is not None else other.id))
        else:
            back_id = art.back_id(card)
            back = art.program(art.back_layout_name(back_id), size, "back")
            spec = art.back_spec(back_id)
            parts.append("back:" + back_id + ":" + (back.layout.digest if back is not None else "")
                         + ":" + json.dumps(_plain_dump(spec), sort_keys=True, ensure_ascii=False))
        parts.append(str(card.copies))
        out[card.id] = hashlib.blake2b("\n".join(parts).encode("utf-8"), digest_size=8).hexdigest()
    return out


def _plain_dump(spec) -> dict:
    """``spec.model_dump(mode="json")`` for a model of plain values (a back's strings), read
    from its fields: the first ``model_dump`` of a build costs ~30 ms (pydantic builds its
    serialiser, the data having come from the cache). Anything else goes through pydantic."""
    fields = {k: getattr(spec, k) for k in type(spec).model_fields}
    if all(v is None or type(v) in (str, int, bool) for v in fields.values()):
        return fields
    return spec.model_dump(mode="json")


def write_record(path: Path, game_id: str, version: str, prints: dict[str, str]) -> None:
    """The record of this build (written through a temporary file, like the PDFs)."""
    from cardforge.render.output import atomic_path

    blob = json.dumps({"format": RECORD_FORMAT, "game": game_id, "version": version, "cards": prints},
                      indent=1, sort_keys=True, ensure_ascii=False) + "\n"
    with atomic_path(path) as tmp:
        tmp.write_text(blob, encoding="utf-8")


def read_record(path: Path, game_id: str) -> tuple[dict[str, str] | None, Problem | None]:
    """The cards of an earlier record (a ``cards.json`` file, or the folder holding one)."""
    from cardforge.resources import display_path

    path = Path(path)
    if path.is_dir():
        path = path / RECORD
    where = display_path(path)
    allowed = f"a {RECORD} written by an earlier `cardforge build` of {game_id}, or its folder"
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None, Problem(f"no such file (allowed: {allowed})", file=where, field="--changed-since")
    except (OSError, ValueError) as exc:
        return None, Problem(f"cannot read it as a build record ({exc}); allowed: {allowed}", file=where,
                             field="--changed-since")
    if not isinstance(data, dict) or data.get("format") != RECORD_FORMAT or not isinstance(data.get("cards"), dict):
        return None, Problem(f"not a build record of this version of cardforge (allowed: {allowed})", file=where,
                             field="--changed-since")
    if data.get("game") != game_id:
        return None, Problem(f"this record is of the game {data.get('game')!r}, not {game_id!r}", file=where,
                             field="--changed-since")
    return {str(k): str(v) for k, v in data["cards"].items()}, None


def compare(prints: dict[str, str], earlier: dict[str, str]) -> Changes:
    changed = tuple(cid for cid, fp in prints.items() if earlier.get(cid) != fp)
    removed = tuple(cid for cid in earlier if cid not in prints)
    return Changes(changed, removed)
