"""A rule's message in the sheet's words: what a final-state file writes becomes what the sheet does.

The rules speak of the final-state file — ``write partial: true``, ``list it under <field>:``,
``write <card-id> under <field>:`` — and the command line keeps those words. On the sheet the
player has no file: the same message must name the inputs as the sheet labels them. Nothing
here knows a game; the fields mentioned are found among the sheet's own inputs (their names are
the file's keys), and their labels are the sheet's. A mention of a field the sheet does not
have is left as it is.

- ``write F: true`` / ``set F: true`` (a checkbox) → ``tick “Label”`` (``… false`` → untick); a
  bare ``(F: true)`` → ``(“Label” ticked)``; " at the top of the file" goes.
- ``write F: a or F: b`` (a choice) → ``choose “A” or “B” under “Label”`` (the choices' labels;
  a bracket after each value stays with it).
- ``write ID under F:`` (a card picker) → ``pick ID under “Label”`` (the card's name replaces its
  id afterwards, as everywhere on the sheet); ``write ID, or …`` with a card id → ``pick ID``.
- ``under F:`` / ``through F:`` → ``under “Label”`` / ``through “Label”``.

The labels are the sheet's: the tool's English for a field named by its key, the game's words
for a field whose declaration gives a ``label`` (and a choice's own labels), so the message
reads like the input the player looks at. The few words around them (tick, choose … under,
pick) are :data:`ENGLISH`'s: the sheet speaks English, as its buttons and headings do (the
rules' messages are English too); another language is another table of the same phrases.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection

from cardforge.web.forms import Sheet, Widget

_NAME = r"[a-z][a-z0-9_]*"

#: the phrases around the sheet's labels (``{label}``: a label, quoted; ``{choices}``: the
#: choices, quoted, with what follows each)
ENGLISH = {"tick": "tick {label}", "untick": "untick {label}", "ticked": "{label} ticked",
           "not ticked": "{label} not ticked", "choose": "choose {choices} under {label}",
           "pick": "pick {card}", "pick under": "pick {card} under {label}", "under": "under {label}",
           "through": "through {label}"}


def _widgets(sheet: Sheet) -> dict[str, list[Widget]]:
    out: dict[str, list[Widget]] = {}

    def walk(ws: list[Widget]) -> None:
        for w in ws:
            out.setdefault(w.name, []).append(w)
            walk(w.children)

    walk(sheet.game_fields)
    walk(sheet.player_fields)
    if sheet.rounds is not None:
        walk(sheet.rounds.children)
    return out


def _one(found: dict[str, list[Widget]], name: str, kinds: Collection[str] | None = None) -> Widget | None:
    """The sheet's input named ``name`` (of one of ``kinds``), if the sheet has exactly one
    such label for it: a name two inputs share with different labels is left alone."""
    ws = [w for w in found.get(name, []) if kinds is None or w.kind in kinds]
    return ws[0] if ws and len({w.label for w in ws}) == 1 else None


def _q(text: str) -> str:
    return f"“{text}”"


def rewriter(sheet: Sheet, card_ids: Collection[str], phrases: dict[str, str] | None = None) -> Callable[[str], str]:
    """A function that puts one message in ``sheet``'s words (``card_ids``: the deck's ids;
    ``phrases``: the words around the labels, :data:`ENGLISH` by default)."""
    found = _widgets(sheet)
    say = {**ENGLISH, **(phrases or {})}

    def choice_label(w: Widget, value: str) -> str | None:
        return next((label for v, label in w.choices if v == value), None)

    def choices(m: re.Match[str]) -> str:
        w = _one(found, m.group(2), ("choice",))
        mention = re.compile(rf"\b{re.escape(m.group(2))}: ([\w-]+)")
        labels = [choice_label(w, v) for v in mention.findall(m.group(0))] if w is not None else []
        if w is None or None in labels:
            return m.group(0)
        said = mention.sub(lambda v: _q(str(choice_label(w, v.group(1)))), m.group(0)[len(m.group(1)) + 1:])
        return say["choose"].format(choices=said, label=_q(w.label))

    def tick(m: re.Match[str]) -> str:
        w = _one(found, m.group(2), ("bool",))
        if w is None:
            return m.group(0)
        return say["tick" if m.group(3) == "true" else "untick"].format(label=_q(w.label))

    def ticked(m: re.Match[str]) -> str:
        w = _one(found, m.group(1), ("bool",))
        return m.group(0) if w is None else say["ticked" if m.group(2) == "true" else "not ticked"].format(
            label=_q(w.label))

    def pick_under(m: re.Match[str]) -> str:
        w = _one(found, m.group(2))
        return m.group(0) if w is None else say["pick under"].format(card=m.group(1), label=_q(w.label))

    def pick(m: re.Match[str]) -> str:
        return say["pick"].format(card=m.group(1)) if m.group(1) in card_ids else m.group(0)

    def field(m: re.Match[str]) -> str:
        w = _one(found, m.group(2))
        return m.group(0) if w is None else say[m.group(1)].format(label=_q(w.label))

    rules: list[tuple[re.Pattern[str], Callable[[re.Match[str]], str]]] = [
        # each value with its bracket, or none with one (a bracket after the last is the sentence's)
        (re.compile(rf"\b(write|set) ({_NAME}): [\w-]+ \([^()]*\)(?: or \2: [\w-]+ \([^()]*\))+"), choices),
        (re.compile(rf"\b(write|set) ({_NAME}): [\w-]+(?: or \2: [\w-]+)+"), choices),
        (re.compile(rf"\b(write|set) ({_NAME}): (true|false)(?: at the top of the file)?"), tick),
        (re.compile(rf"(?<![\w.])({_NAME}): (true|false)\b"), ticked),
        (re.compile(rf"\bwrite ([\w-]+) under ({_NAME}):(?=\s|$|[),;.])"), pick_under),
        (re.compile(r"\bwrite ([\w-]+)(?=,|;|$)"), pick),
        (re.compile(rf"\b(under|through) ({_NAME}):(?=\s|$|[),;.])"), field),
    ]

    def rewrite(message: str) -> str:
        for pattern, fix in rules:
            message = pattern.sub(fix, message)
        return message

    return rewrite
