"""Card faces and backs drawn from resolved layouts (a game's ``templates/layout.yaml``, ``templates/_shared/``).

A layout is compiled once per card size into a :class:`FaceProgram`: box rectangles in points,
templates compiled, and the boxes that do not read ``card`` grouped into *frames*: runs of boxes
drawn once into a PDF form and reused by every card of that layout (per kind when they read
``kind``). A card printed in several copies is drawn once into its own form and placed as many
times; a back design is always a form. Only what depends on the card is drawn per card.

Problems (a template that fails, text that does not fit, a missing image) are collected, one
per card and box, never raised mid-sheet: the build reports them all at the end.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypedDict

from pydantic import ValidationError
from reportlab.lib.colors import Color
from reportlab.pdfgen.canvas import Canvas

from cardforge.assets import art_file
from cardforge.data.loading import GameData
from cardforge.data.models import BackSpec, CardBase
from cardforge.data.validate import friendly_message
from cardforge.errors import RenderError
from cardforge.icons import unknown_icon_note
from cardforge.layout.boxes import (
    Box,
    Layout,
    LayoutLibrary,
    StyleSpec,
    box_points,
    box_rect,
    frame_matrix,
    frame_size,
    is_template_text,
)
from cardforge.layout.geometry import Placement, Rect
from cardforge.markup import MarkupError, resolve_color
from cardforge.paths import path_problem
from cardforge.problems import Problem
from cardforge.render import rl_internals as rl
from cardforge.render.canvas import begin_card, colour
from cardforge.render.cards.facecache import FACES, scope
from cardforge.render.colour import lighten, readable_on
from cardforge.render.drawing.drawing_assets import DrawingAssets
from cardforge.render.drawing.game_assets import drawing_assets
from cardforge.render.drawing.images import ArtError, draw_art, draw_placeholder, load_art
from cardforge.render.drawing.richtext import TextOverflow, TextStyle, draw_layout, fit_text
from cardforge.render.output import form_needs_no_clip
from cardforge.resources import display_path
from cardforge.text.templating import TemplateError, Templates, is_template, is_true, render
from cardforge.units import mm

if TYPE_CHECKING:
    from cardforge.games.base import Game


class _Where(TypedDict, total=False):
    """Where a problem is (the location fields of :class:`~cardforge.problems.Problem`)."""

    file: str | None
    line: int | None
    item: str | None
    field: str | None

#: the shared generic layouts, used by any kind or back without a layout of its own
GENERIC_FRONT = "card"
GENERIC_BACK = "back"
DEFAULT_STAMP_STYLE = {"size": 5, "colour": "#2a2a2a", "align": "right", "valign": "bottom"}
TEXT_DEFAULTS = {"size": 8.0, "min_size": None, "leading": 1.2, "family": "sans", "colour": "#1a1a1a",
                 "align": "left", "valign": "top", "bold": False, "italic": False, "paragraph_gap": 0.35,
                 "line_spacing": 0.0, "wrap": "word"}
TEMPLATED = ("text", "fill", "stroke", "icon", "src")


@dataclass(frozen=True)
class KindInfo:
    """What templates see as ``kind``."""

    id: str
    label: str
    plural: str


@dataclass(frozen=True)
class GameInfo:
    """What templates see as ``game``."""

    id: str
    title: str
    min_players: int
    max_players: int
    players: str


@dataclass(frozen=True)
class BackInfo:
    """What templates see as ``back`` (a design from deck.yaml ``backs:``)."""

    id: str
    title: str | None
    colour: str | None
    art: str | None
    fields: dict[str, Any] = field(default_factory=dict, compare=False, hash=False)

    def __getattr__(self, name: str) -> Any:
        """``back.Type``: a column of the back's row (``back_files``), else jinja's undefined."""
        fields = self.__dict__.get("fields") or {}
        if name in fields:
            return fields[name]
        raise AttributeError(name)


@dataclass
class BoxProgram:
    box: Box
    rect: tuple[float, float, float, float]  # points, trim-relative, y up
    uses: frozenset[str]
    values: dict[str, Any]  # templated field → compiled template, or its static value
    when: Any = None
    style: TextStyle | None = None
    padding: float = 0.0
    #: style values computed per card (``colour: "{{ card.TextColor }}"``): field → template
    style_templates: dict[str, Any] = field(default_factory=dict)

    @property
    def name(self) -> str:
        return self.box.name

    @property
    def text_style(self) -> TextStyle:
        """The style of a text box (every text box's program has one)."""
        if self.style is None:
            raise RenderError(f"box '{self.name}' is drawn as text but has no text style (a cardforge bug)")
        return self.style

    @property
    def per_card(self) -> bool:
        return "card" in self.uses or self.box.type == "stamp"


@dataclass
class Frame:
    """Consecutive boxes that do not read ``card``: drawn once into a form."""

    boxes: list[BoxProgram]
    index: int

    @property
    def uses(self) -> frozenset[str]:
        return frozenset().union(*(b.uses for b in self.boxes))


@dataclass
class FaceProgram:
    layout: Layout
    size_mm: tuple[float, float]
    steps: list[BoxProgram | Frame]
    key: int
    uses: frozenset[str] = field(default_factory=frozenset)

    @property
    def per_card(self) -> bool:
        return any(isinstance(s, BoxProgram) for s in self.steps)


class Issues:
    """Problems found while drawing, each reported once; a warning about cards (``add_card``)
    is reported once per message and kind, with the count of cards (issue 28: not a line per
    card on every build, export and watch rebuild)."""

    def __init__(self) -> None:
        self.items: list[Problem] = []
        self._seen: set[tuple[Any, ...]] = set()
        #: (message, kind) → the cards' located warnings, in order
        self._by_kind: dict[tuple[str, str], dict[str, Problem]] = {}
        #: problems reported so far, each time (one reported again counts): a face that reports one
        #: is drawn on every rebuild, never written again from kept operators (render/cards/facecache.py)
        self.reported = 0

    def add(self, problem: Problem) -> None:
        self.reported += 1
        key = (problem.message, problem.file, problem.item, problem.field, problem.severity)
        if key not in self._seen:
            self._seen.add(key)
            self.items.append(problem)

    def add_card(self, problem: Problem, kind: str, card_id: str, summary: str | None = None) -> None:
        """A warning about one card: summarised with the other cards of its kind that have the
        same ``summary`` (the message said of them all; default: the problem's message)."""
        self.reported += 1
        if not problem.is_warning:
            self.add(problem)
            return
        self._by_kind.setdefault((summary or problem.message, kind), {}).setdefault(card_id, problem)

    @property
    def errors(self) -> list[Problem]:
        return [p for p in self.items if not p.is_warning]

    @property
    def warnings(self) -> list[Problem]:
        return [p for p in self.items if p.is_warning] + [
            summarised(list(cards.values()), list(cards), kind, summary)
            for (summary, kind), cards in self._by_kind.items()]


def summarised(problems: list[Problem], card_ids: list[str], kind: str, summary: str | None = None) -> Problem:
    """One warning for the same message on several cards of a kind: ``12 cards of kind 'spell'
    (boule-de-feu, eclair, … and 8 more)`` (one card: its own located warning)."""
    if len(problems) == 1:
        return problems[0]
    files = {p.file for p in problems}
    names = ", ".join(card_ids[:4]) + (f" and {len(card_ids) - 4} more" if len(card_ids) > 4 else "")
    first = problems[0]
    return Problem(summary or first.message, file=files.pop() if len(files) == 1 else None,
                   item=f"{len(card_ids)} cards of kind '{kind}' ({names})", field=first.field,
                   severity=first.severity)


class CardArt:
    """Compiles layouts for a game and knows which layout and back each card uses."""

    def __init__(self, game: Game, data: GameData, library: LayoutLibrary, templates: Templates,
                 bleed_mm: float, issues: Issues, lang: str | None = None):
        self.game = game
        #: the edition printed: its typography (``lang``, else the game's language)
        self.lang = lang or game.language
        self.data = data
        self.library = library
        self.templates = templates
        self.bleed_mm = bleed_mm
        self.issues = issues
        #: the game's own fonts/ and icons/ (render/drawing/game_assets.py; the game's folder's when the data
        #: comes from elsewhere): in every text style, and the icon boxes
        self.assets: DrawingAssets = drawing_assets(data, issues.add, game.folder, self.lang)
        self.vars = library.vars
        self.deck_file = display_path(data.root / "deck.yaml")
        meta = data.meta
        self.game_info = GameInfo(game.id, meta.title, game.min_players, game.max_players,
                                  game.players_label)
        self.kinds: dict[str, KindInfo] = {}
        self._programs: dict[tuple[Any, ...], FaceProgram | None] = {}
        self._fingerprints: dict[str, str] = {}
        self._warned_layouts: set[tuple[Any, ...]] = set()
        #: fingerprint of the card-text templates (render/cards/reprint.py), part of every stamp
        self.templates_digest = ""
        #: cards drawn more than once besides their copies (another card's back face)
        self.reused: set[str] = set()
        for kind, spec in data.meta.kinds.items():
            if spec.back_face:
                for c in data.cards_of(kind):
                    other = self.back_face(c)
                    if other is not None and c.copies:
                        self.reused.add(other.id)

    # --- which layout, which back ---------------------------------------------------------
    def kind_info(self, kind: str) -> KindInfo:
        info = self.kinds.get(kind)
        if info is None:
            spec = self.data.meta.kinds.get(kind)
            model = self.game.card_models.get(kind)
            label = spec.label if spec else (getattr(model, "kind_label", "") or kind)
            plural = (spec.plural if spec and spec.plural else label)
            info = self.kinds[kind] = KindInfo(kind, label, plural)
        return info

    def card_size(self, card: CardBase) -> tuple[float, float]:
        spec = self.data.meta.kinds.get(card.kind)
        size = spec.card_size if spec and spec.card_size else self.data.meta.card_size
        return (size.width, size.height)

    def back_id(self, card: CardBase) -> str:
        if card.back:
            return card.back
        spec = self.data.meta.kinds.get(card.kind)
        return spec.back if spec and spec.back else "default"

    def back_spec(self, back_id: str) -> BackSpec:
        return self.data.meta.backs.get(back_id) or BackSpec()

    def back_info(self, back_id: str) -> BackInfo:
        spec = self.back_spec(back_id)
        return BackInfo(back_id, spec.title, spec.colour, spec.art, dict(spec.fields))

    def front_layout_name(self, kind: str) -> str:
        spec = self.data.meta.kinds.get(kind)
        wanted = spec.layout if spec and spec.layout else kind
        if self.library.has(wanted):
            return wanted
        if spec and spec.layout and (kind, wanted) not in self._warned_layouts:
            self._warned_layouts.add((kind, wanted))
            self.issues.add(Problem(
                f"layout '{wanted}' not found in {' or '.join(self.library.files())}; "
                f"printing kind '{kind}' with the generic '{GENERIC_FRONT}' layout",
                file=self.deck_file, field=f"kinds.{kind}.layout",
                severity="warning"))
        return GENERIC_FRONT

    def back_layout_name(self, back_id: str) -> str:
        wanted = self.back_spec(back_id).layout
        if self.library.has(wanted):
            return wanted
        if ("back", wanted) not in self._warned_layouts:
            self._warned_layouts.add(("back", wanted))
            self.issues.add(Problem(
                f"layout '{wanted}' not found in {' or '.join(self.library.files())}; "
                f"printing back '{back_id}' with the generic '{GENERIC_BACK}' layout",
                file=self.deck_file, field=f"backs.{back_id}.layout",
                severity="warning"))
        return GENERIC_BACK

    # --- compiling --------------------------------------------------------------------------
    def program(self, layout_name: str, size: tuple[float, float], side: str) -> FaceProgram | None:
        key = (layout_name, size, side)
        if key not in self._programs:
            self._programs[key] = self._compile(layout_name, size, side, len(self._programs))
        return self._programs[key]

    def _compile(self, layout_name: str, size: tuple[float, float], side: str, key: int) -> FaceProgram | None:
        before = len(self.library.problems)
        layout = self.library.get(layout_name)
        for p in self.library.problems[before:]:
            self.issues.add(p)
        if layout is None:
            if not self.library.problems[before:]:
                self.issues.add(Problem(f"layout '{layout_name}' not found in "
                                        f"{' or '.join(self.library.files())}"))
            return None
        boxes = list(layout.boxes)
        if side == "front" and not any(b.type == "stamp" for b in boxes):
            boxes.append(_default_stamp(layout))
        ok = True
        programs: list[BoxProgram] = []
        for box in boxes:
            if side != "front" and box.type == "stamp":
                continue
            prog = self._compile_box(layout, box, size)
            if prog is None:
                ok = False
            else:
                programs.append(prog)
        if not ok:
            return None
        if side != "front" and any("card" in p.uses for p in programs):
            # the back face of a double-sided card (a moon side) is stamped like its front
            stamps = [b for b in boxes if b.type == "stamp"] or [_default_stamp(layout)]
            for box in stamps:
                prog = self._compile_box(layout, box, size)
                if prog is None:
                    return None
                programs.append(prog)
        steps: list[BoxProgram | Frame] = []
        for prog in programs:
            if prog.per_card:
                steps.append(prog)
            elif steps and isinstance(steps[-1], Frame):
                steps[-1].boxes.append(prog)
            else:
                steps.append(Frame([prog], len(steps)))
        uses = frozenset().union(*(p.uses for p in programs)) if programs else frozenset()
        return FaceProgram(layout, size, steps, key, uses)

    def _compile_box(self, layout: Layout, box: Box, size: tuple[float, float]) -> BoxProgram | None:
        where: _Where = {"file": box.file, "item": f"layout '{layout.name}'", "field": f"boxes.{box.name}",
                         "line": box.line}
        try:
            r = box_rect(box, size[0], size[1], self.bleed_mm)
        except ValueError as exc:
            self.issues.add(Problem(str(exc), **where))
            return None
        uses: set[str] = set()
        values: dict[str, Any] = {}
        try:
            for key in TEMPLATED:
                value = box.fields.get(key)
                if value is None:
                    continue
                value = str(value)
                if is_template(value):
                    values[key] = self.templates.inline(value)
                    uses |= self.templates.names_used(value)
                elif key in ("fill", "stroke"):
                    values[key] = colour(value)
                else:
                    values[key] = value
            if box.type == "art" and "src" not in values:
                values["src"] = self.templates.inline("{{ card.art }}")
                uses.add("card")
            if box.type == "text" and box.fields.get("template"):
                name = box.fields["template"]
                values["text"] = self.templates.file(name)
                uses |= self.templates.file_names_used(name)
            when = None
            if box.fields.get("when") is not None:
                src = str(box.fields["when"])
                when = self.templates.expression(src)
                uses |= self.templates.names_used(src, expression=True)
        except (TemplateError, ValueError) as exc:
            self.issues.add(Problem(str(exc), **where))
            return None
        style = None
        style_templates: dict[str, Any] = {}
        if box.type in ("text", "stamp"):
            style_where: _Where = {**where, "field": f"boxes.{box.name}.style"}
            try:
                for key, value in box.style.items():
                    if is_template_text(value):
                        style_templates[key] = self.templates.inline(value)
                        uses |= self.templates.names_used(value)
                style = _text_style(box, self.assets, skip=set(style_templates))
            except (TemplateError, ValueError) as exc:
                self.issues.add(Problem(str(exc), **style_where))
                return None
        rect = (mm(r.x), mm(r.y), mm(r.w), mm(r.h))
        self._check_safe_zone(layout, box, r, frame_size(size[0], size[1], box.get("rotate")), where)
        return BoxProgram(box, rect, frozenset(uses), values, when, style, mm(box.get("padding", 0.0)),
                          style_templates)

    def _check_safe_zone(self, layout: Layout, box: Box, r: Rect, size: tuple[float, float], where: _Where) -> None:
        if box.type not in ("text", "icon", "stamp") or box.fields.get("bleed"):  # bleed: true: meant to
            return
        s = layout.safe_zone
        if r.x < s - 1e-6 or r.y < s - 1e-6 or r.right > size[0] - s + 1e-6 or r.top > size[1] - s + 1e-6:
            turned = f" turned {box.get('rotate')}°" if box.get("rotate") else ""
            self.issues.add(Problem(
                f"the box reaches outside the {s:g} mm safe zone on a {size[0]:g}×{size[1]:g} mm card{turned} "
                "(text there may be cut off)", severity="warning", **where))

    # --- drawing ----------------------------------------------------------------------------
    def context(self, card: CardBase | None, kind: str | None, back_id: str | None, side: str) -> dict[str, Any]:
        return {
            "card": card,
            "kind": self.kind_info(kind) if kind else None,
            "deck": self.data.meta,
            "game": self.game_info,
            "vars": self.vars,
            "back": self.back_info(back_id) if back_id else None,
            "side": side,
        }

    def back_face(self, card: CardBase) -> CardBase | None:
        """The card printed on ``card``'s back when its kind names a ``back_face`` field."""
        spec = self.data.meta.kinds.get(card.kind)
        if spec is None or not spec.back_face:
            return None
        other = getattr(card, spec.back_face, None)
        return self.data.card(other) if isinstance(other, str) and self.data.has_card(other) else None

    def fingerprint(self, card: CardBase, program: FaceProgram | None = None) -> str:
        """The card's printed faces as 6 hex digits: its data (not its ``copies``: a card
        printed once more looks the same), the layouts of its front and back, the card-text
        templates (``templates_digest``) and the card on its back, if any. Not the deck's
        version, printed beside it: both sides of a card carry the same stamp, and a face
        that looks the same keeps it (render/cards/reprint.py compares them)."""
        fp = self._fingerprints.get(card.id)
        if fp is None:
            size = self.card_size(card)
            front = self.program(self.front_layout_name(card.kind), size, "front")
            parts = [self.card_content(card), front.layout.digest if front is not None else "", self.templates_digest]
            other = self.back_face(card)
            if other is not None:
                back = self.program(self.front_layout_name(other.kind), size, "front")
                parts += ["face", self.card_content(other), back.layout.digest if back is not None else ""]
            else:
                back = self.program(self.back_layout_name(self.back_id(card)), size, "back")
                if back is not None and "card" in back.uses:  # a double-sided card's own back
                    parts += ["back", back.layout.digest]
            blob = "\n".join(parts)
            fp = self._fingerprints[card.id] = hashlib.blake2b(blob.encode("utf-8"), digest_size=3).hexdigest()
        return fp

    def card_content(self, card: CardBase) -> str:
        """The card's data as JSON without its ``copies``."""
        known: dict[str, str] = getattr(self.data, "card_json", None) or {}  # taken when the data was validated
        content = known.get(card.id)
        if content is None:
            content = _card_json(card)
        return _COPIES.sub("", content, count=1)

    def stamp_text(self, card: CardBase, program: FaceProgram) -> str:
        """``v0.3 · 1a2b3c``; in an edition other than the game's language, its language too
        (``v0.3 · EN · 1a2b3c``): the printed cards of two editions are told apart."""
        edition = f"{self.lang.upper()} · " if self.lang != self.game.language else ""
        return f"v{self.data.meta.version} · {edition}{self.fingerprint(card, program)}"


_COPIES = re.compile(r',"copies":\d+')


def _card_json(card: CardBase) -> str:
    """The card's data as JSON, whether or not pydantic built its serialiser in this process.

    Models defer their schemas (``data/models.py``); data served from the cache was never
    validated here, and a model holding other models then fails to serialise until it is
    rebuilt. Without the rebuild the stamp fell back to ``repr`` and a cached build printed
    other fingerprints than a fresh one."""
    try:
        return card.model_dump_json()
    except Exception:
        pass
    try:
        _rebuild_models(card, set())
        return card.model_dump_json()
    except Exception:  # a model pydantic cannot serialise: its repr holds the same values
        return repr(card)


def _rebuild_models(value: Any, seen: set[int]) -> None:
    """Build the serialisers of ``value``'s model and of every model held in its fields."""
    if isinstance(value, (list, tuple, set, frozenset)):
        for v in value:
            _rebuild_models(v, seen)
    elif isinstance(value, dict):
        for v in value.values():
            _rebuild_models(v, seen)
    elif hasattr(type(value), "model_rebuild") and id(value) not in seen:
        seen.add(id(value))
        if not getattr(type(value), "__pydantic_complete__", True):
            type(value).model_rebuild(force=True)
        for name in type(value).model_fields:
            _rebuild_models(getattr(value, name, None), seen)


#: the auto-placed version stamp's inset from the trim: inside every print-on-demand service's
#: safe zone (the bundled profiles' largest is 1/8 in, 3.175 mm), with room for a card printed
#: smaller to fit a service's trim (tests/test_warnings_summary.py checks every bundled profile)
STAMP_INSET_MM = 3.5


def _default_stamp(layout: Layout) -> Box:
    s = max(layout.safe_zone, STAMP_INSET_MM)
    fields = {"type": "stamp", "right": s, "bottom": s, "width": 30.0, "height": 2.4,
              "style": dict(DEFAULT_STAMP_STYLE)}
    return Box("stamp", "stamp", fields, layout.file, layout.name)


def _text_style(box: Box, assets: DrawingAssets, skip: set[str] | frozenset[str] = frozenset(),
                values: dict[str, Any] | None = None) -> TextStyle:
    """The box's text style: the defaults, its style's fields (not those in ``skip``: templates
    rendered per card) and ``values`` (those, rendered and validated). ValueError naming what
    is wrong."""
    base: dict[str, Any] = dict(TEXT_DEFAULTS)
    if box.type == "stamp":
        base.update(DEFAULT_STAMP_STYLE)
    base.update({k: v for k, v in box.style.items() if v is not None and k not in skip and k != "extends"})
    base.update(values or {})
    try:
        col = resolve_color(str(base["colour"]))
    except MarkupError as exc:
        raise ValueError(f"colour: {exc}") from None
    assets.font_name(base["family"])  # ValueError naming the bundled families and the game's
    if base["min_size"] is not None and base["min_size"] > base["size"]:
        raise ValueError(f"min_size ({base['min_size']:g} pt) is larger than size ({base['size']:g} pt)")
    return TextStyle(size=float(base["size"]), min_size=base["min_size"], leading=float(base["leading"]),
                     family=base["family"], color=col, align=base["align"], valign=base["valign"],
                     paragraph_gap=float(base["paragraph_gap"]), bold=bool(base["bold"]),
                     italic=bool(base["italic"]), line_spacing=float(base["line_spacing"]),
                     wrap=str(base["wrap"]), assets=assets)


#: the ink saver: a filled box this large a share of its card (or running into the bleed) is a
#: background, lightened
BACKGROUND_SHARE = 0.1


@dataclass
class _Behind:
    """A filled box already drawn on the face (in the upright card's frame, points): what text
    drawn over it stands on. ``light``: the ink saver lightened it."""

    rect: tuple[float, float, float, float]
    fill: Color
    light: bool
    was: str = ""  # its colour before the ink saver (hex)


class Painter:
    """Draws cards on one canvas (one PDF): forms are per document. ``ink_saver``: backgrounds
    lightened (``render/colour.py``), text over them kept readable."""

    def __init__(self, canvas: Canvas, art: CardArt, *, ink_saver: bool = False, edges_only: float | None = None):
        """``edges_only`` (mm): draw only what may reach that close to the trim (boxes lying
        further inside are left out), for sampling the card's edges (render/cards/edges.py)."""
        self.c = canvas
        self.art = art
        self.edges_only = mm(edges_only) if edges_only is not None else None
        self.issues = art.issues
        self.bleed_pt = mm(art.bleed_mm)
        self.ink_saver = ink_saver
        self._forms: dict[tuple[Any, ...], str] = {}
        self._recorded: dict[tuple[Any, ...], tuple[list[str], list[str]]] = {}  # see _replay
        self._broken: set[tuple[Any, ...]] = set()
        self._behind: list[_Behind] = []  # the face being drawn's filled boxes (ink saver)
        self._frame_behind: dict[tuple[Any, ...], list[_Behind]] = {}  # a shared frame's, drawn once
        self._turn: tuple[float, float, float, float, float, float] | None = None  # a turned box's map
        self._styles: dict[tuple[Any, ...], TextStyle | str] = {}  # styles from card data, or why not
        # watch mode: faces kept from the last rebuild (render/cards/facecache.py), per this canvas's colours
        self._kept = scope(art, canvas, ink_saver) if FACES.enabled and edges_only is None else None

    # --- placing cards on a sheet -------------------------------------------------------------
    def front(self, placement: Placement, card: CardBase) -> None:
        art = self.art
        program = art.program(art.front_layout_name(card.kind), art.card_size(card), "front")
        if program is None:
            return
        begin_card(self.c, placement, self.bleed_pt)
        draw = partial(self._face, program, card, card.kind, None, "front")
        if self._kept is not None:
            draw = partial(self._kept_face, program, card, "front", None, draw)
        if card.copies > 1 or card.id in self.art.reused:
            self._replay(("front", card.id, program.key), draw)
        else:
            draw()
        self.c.restoreState()

    def back(self, placement: Placement, card: CardBase) -> None:
        art = self.art
        other = art.back_face(card)
        if other is not None:  # a two-sided card: its back is another card's face
            self.front(placement, other)
            return
        back_id = art.back_id(card)
        program = art.program(art.back_layout_name(back_id), art.card_size(card), "back")
        if program is None:
            return
        begin_card(self.c, placement, self.bleed_pt)
        if "card" in program.uses:  # a double-sided card: its back shows its own data
            draw = partial(self._face, program, card, card.kind, back_id, "back")
            if self._kept is not None:
                draw = partial(self._kept_face, program, card, "back", back_id, draw)
            if card.copies > 1:
                self._replay(("back", card.id, program.key), draw)
            else:
                draw()
        else:
            kind = card.kind if "kind" in program.uses else None
            self._form(("backs", back_id, kind, program.key), program,
                       lambda: self._face(program, None, kind, back_id, "back"))
        self.c.restoreState()

    def _kept_face(self, program: FaceProgram, card: CardBase, side: str, back_id: str | None,
                   draw: Callable[[], None]) -> None:
        """Watch mode: the face written again as the last rebuild drew it, or drawn (``draw``)."""
        FACES.draw(self, self._face_key(program, card, side, back_id), draw)

    def _face_key(self, program: FaceProgram, card: CardBase, side: str, back_id: str | None) -> tuple[Any, ...]:
        """Everything that decides how a card's face is drawn, but what the build shares
        (``self._kept``: render/cards/facecache.py)."""
        art = self.art
        front = program if side == "front" else art.program(art.front_layout_name(card.kind), program.size_mm,
                                                            "front")
        back = "" if back_id is None else f"{back_id}\x00{art.back_spec(back_id).model_dump_json()}\x00" \
                                          f"{art.back_info(back_id)!r}"
        return (self._kept, side, card.id, card.kind, card.copies, art.card_content(card),
                art.stamp_text(card, front) if front is not None else "", program.layout.digest, program.size_mm,
                repr(art.kind_info(card.kind)), repr(art.game_info), back)

    def _replay(self, key: tuple[Any, ...], draw: Callable[[], None]) -> None:
        """A card printed more than once: drawn once, and its operators written again for every
        other copy (in the card's own frame, so they do not depend on where it sits). In the
        page's stream zlib shares the repeats; a form per card cost ~250 bytes of dictionary and
        a stream compressed on its own. The forms and images the face uses are listed in the
        page's resources again when a copy lands on another page."""
        c = self.c
        recorded = self._recorded.get(key)
        if recorded is None:
            n, f = len(rl.page_operators(c)), len(rl.forms_in_use(c))
            draw()
            self._recorded[key] = (rl.page_operators(c)[n:], list(dict.fromkeys(rl.forms_in_use(c)[f:])))
            return
        code, forms = recorded
        rl.page_operators(c).extend(code)
        used = rl.forms_in_use(c)
        used.extend(name for name in forms if name not in used)

    def _form(self, key: tuple[Any, ...], program: FaceProgram, draw: Callable[[], None]) -> None:
        name = self._forms.get(key)
        if name is None:
            name = self._forms[key] = f"cf{len(self._forms)}"
            form_needs_no_clip(self.c, name)  # drawn inside the card's clip (begin_card)
            w, h = (mm(v) for v in program.size_mm)
            b = self.bleed_pt
            self.c.beginForm(name, -b, -b, w + b, h + b)
            draw()
            self.c.endForm()
        self.c.doForm(name)

    # --- one face -----------------------------------------------------------------------------
    def _face(self, program: FaceProgram, card: CardBase | None, kind: str | None, back_id: str | None,
              side: str) -> None:
        ctx = self.art.context(card, kind, back_id, side)
        self._behind = []
        for step in program.steps:
            if isinstance(step, Frame):
                uses = step.uses
                key = ("frame", program.key, step.index, kind if "kind" in uses else None,
                       back_id if "back" in uses else None)
                frame_ctx = {**ctx, "card": None}
                before = len(self._behind)
                self._form(key, program, partial(self._boxes, step.boxes, frame_ctx, program, None))
                if key in self._frame_behind:  # drawn for an earlier card: what it laid down
                    self._behind[before:] = self._frame_behind[key]
                else:
                    self._frame_behind[key] = self._behind[before:]
            else:
                self._boxes([step], ctx, program, card)

    def _boxes(self, boxes: list[BoxProgram], ctx: dict[str, Any], program: FaceProgram,
               card: CardBase | None) -> None:
        for prog in boxes:
            if self.edges_only is not None and self._inside(prog, program):
                continue
            try:
                if prog.box.get("rotate"):
                    self._turned(prog, ctx, program, card)
                else:
                    self._box(prog, ctx, program, card)
            except TemplateError as exc:
                self._problem(prog, program, card, str(exc))

    def _inside(self, prog: BoxProgram, program: FaceProgram) -> bool:
        """The box's ink stays ``edges_only`` inside the trim (pictures and turned boxes are
        always drawn: a picture may cover more than its box)."""
        if prog.box.get("rotate") or prog.box.type == "art":
            return False
        assert self.edges_only is not None
        z = self.edges_only + float(prog.box.get("stroke_width", 0.5) or 0)
        x, y, w, h = prog.rect
        W, H = (mm(v) for v in program.size_mm)
        return x >= z and y >= z and x + w <= W - z and y + h <= H - z

    def _turned(self, prog: BoxProgram, ctx: dict[str, Any], program: FaceProgram, card: CardBase | None) -> None:
        """A box with ``rotate``: its rect is in the frame of the card turned that way, so it is
        drawn through that frame's map onto the card."""
        if prog.when is not None and not is_true(prog.when, ctx):
            return
        w, h = (mm(v) for v in program.size_mm)
        self.c.saveState()
        self._turn = frame_matrix(prog.box.get("rotate"), w, h)
        try:
            self.c.transform(*self._turn)
            self._box(prog, ctx, program, card)
        finally:
            self._turn = None
            self.c.restoreState()

    def _problem(self, prog: BoxProgram, program: FaceProgram, card: CardBase | None, message: str,
                 severity: str = "error", summary: str | None = None) -> None:
        """A problem drawing a box; about a card, located at the card (a warning summarised per
        box and kind: ``summary`` is what is said of several cards, default ``message``)."""
        if card is not None:
            src = self.art.data.sources.get(card.id)
            where: _Where = {"file": src.file if src else None, "line": src.line if src else None,
                             "item": src.label(card.id) if src else f"card '{card.id}'"}
            head = f"layout '{program.layout.name}', box '{prog.name}': "
            self.issues.add_card(Problem(head + message, severity=severity, **where), card.kind, card.id,
                                 head + (summary or message))
            return
        where = {"file": prog.box.file, "line": prog.box.line, "item": f"layout '{program.layout.name}'",
                 "field": f"boxes.{prog.name}"}
        self.issues.add(Problem(message, severity=severity, **where))

    def _value(self, prog: BoxProgram, key: str, ctx: dict[str, Any]) -> Any:
        value = prog.values.get(key)
        if value is None or not hasattr(value, "render"):
            return value
        return render(value, ctx)

    def _box(self, prog: BoxProgram, ctx: dict[str, Any], program: FaceProgram, card: CardBase | None) -> None:
        if prog.when is not None and not is_true(prog.when, ctx):
            return
        c = self.c
        x, y, w, h = prog.rect
        kind = prog.box.type
        fill, stroke = self._colour(prog, "fill", ctx, program, card), self._colour(prog, "stroke", ctx, program, card)
        if kind in ("line", "polygon"):
            self._path(prog, program, fill, stroke)
            return
        background = self.ink_saver and self._is_background(prog, program)
        if fill is not None and kind in ("rect", "ellipse") and w > 1e-9 and h > 1e-9:
            was = fill.hexval()
            # a smaller piece of a background's colour (a tunnel's centre between its arms) goes
            # with it: the picture stays whole
            background = background or (self.ink_saver and any(b.light and b.was == was for b in self._behind))
            if background:
                fill = lighten(fill)
            self._behind.append(_Behind(self._upright(x, y, w, h), fill, background, was))
        if fill is not None or stroke is not None:
            c.saveState()
            if fill is not None:
                c.setFillColor(fill)
            if stroke is not None:
                c.setStrokeColor(stroke)
                c.setLineWidth(prog.box.get("stroke_width", 0.5))
                if prog.box.get("dash"):
                    c.setDash(list(prog.box.get("dash")), 0)
            path = c.beginPath()
            if kind == "ellipse":
                path.ellipse(x, y, w, h)
            elif prog.box.get("radius"):
                path.roundRect(x, y, w, h, mm(prog.box.get("radius")))
            elif w <= 1e-9 or h <= 1e-9:
                path.moveTo(x, y)
                path.lineTo(x + w, y + h)
            else:
                path.rect(x, y, w, h)
            c.drawPath(path, stroke=1 if stroke is not None else 0, fill=1 if fill is not None else 0)
            c.restoreState()
        pad = prog.padding
        ix, iy, iw, ih = x + pad, y + pad, w - 2 * pad, h - 2 * pad
        if kind == "text":
            self._text(prog, self._value(prog, "text", ctx), ix, iy, iw, ih, program, card, ctx)
        elif kind == "stamp" and card is not None:
            self._text(prog, self.art.stamp_text(card, program), ix, iy, iw, ih, program, card, ctx)
        elif kind == "icon":
            self._icon(prog, str(self._value(prog, "icon", ctx) or "").strip().strip(":"), ix, iy, iw, ih,
                       program, card)
        elif kind == "art":
            self._image(prog, str(self._value(prog, "src", ctx) or "").strip(), x, y, w, h, program, card,
                        light=background)
            if background:  # lightened art: as pale as paper for the text over it
                self._behind.append(_Behind(self._upright(x, y, w, h), Color(1, 1, 1), True))

    def _path(self, prog: BoxProgram, program: FaceProgram, fill: Color | None, stroke: Color | None) -> None:
        """A line (``stroke`` black unless given) or a polygon, through its points (mm from the
        top-left, y down, in the frame of the card as the box is turned)."""
        box = prog.box
        if box.type == "line" and box.get("stroke") is None:
            stroke = Color(0, 0, 0)
        if box.type == "line":
            fill = None
        if fill is None and stroke is None:
            return
        _, height = frame_size(*program.size_mm, box.get("rotate"))
        c = self.c
        c.saveState()
        if fill is not None:
            c.setFillColor(fill)
        if stroke is not None:
            c.setStrokeColor(stroke)
            c.setLineWidth(box.get("stroke_width", 0.5))
            c.setLineCap({"butt": 0, "round": 1, "square": 2}[box.get("cap", "butt")])
            if box.get("dash"):
                c.setDash(list(box.get("dash")), 0)
        path = c.beginPath()
        for i, (px, py) in enumerate(box_points(box)):
            (path.lineTo if i else path.moveTo)(mm(px), mm(height - py))
        if box.type == "polygon":
            path.close()
        c.drawPath(path, stroke=1 if stroke is not None else 0, fill=1 if fill is not None else 0)
        c.restoreState()

    # --- the ink saver ------------------------------------------------------------------------
    def _is_background(self, prog: BoxProgram, program: FaceProgram) -> bool:
        """A filled rect or ellipse, or art, that runs into the bleed or covers a tenth of the
        card: lightened by the ink saver (frames, icons and text are not)."""
        if prog.box.type not in ("rect", "ellipse", "art"):
            return False
        if prog.box.get("bleed"):
            return True
        w, h = prog.rect[2], prog.rect[3]
        card_w, card_h = (mm(v) for v in program.size_mm)
        return w * h >= BACKGROUND_SHARE * card_w * card_h

    def _upright(self, x: float, y: float, w: float, h: float) -> tuple[float, float, float, float]:
        """A box's rect in the upright card's frame (a turned box's mapped back)."""
        if self._turn is None:
            return (x, y, w, h)
        a, b, c, d, e, f = self._turn
        xs = [a * px + c * py + e for px, py in ((x, y), (x + w, y + h))]
        ys = [b * px + d * py + f for px, py in ((x, y), (x + w, y + h))]
        return (min(xs), min(ys), abs(xs[1] - xs[0]), abs(ys[1] - ys[0]))

    def _readable(self, style: TextStyle, x: float, y: float, w: float, h: float) -> TextStyle:
        """The ink saver: a text box's style, its colour turned dark when the background it
        stands on was lightened and its own colour would no longer read on it (white titles on
        bands)."""
        ux, uy, uw, uh = self._upright(x, y, w, h)
        cx, cy = ux + uw / 2, uy + uh / 2
        under = next((b for b in reversed(self._behind)
                      if b.rect[0] <= cx <= b.rect[0] + b.rect[2] and b.rect[1] <= cy <= b.rect[1] + b.rect[3]), None)
        if under is None or not under.light:
            return style
        ink = colour(style.color)
        if ink is None:
            return style
        readable = readable_on(ink, under.fill)
        if readable is ink:
            return style
        return replace(style, color=f"#{round(readable.red * 255):02x}{round(readable.green * 255):02x}"
                                    f"{round(readable.blue * 255):02x}")

    def _colour(self, prog: BoxProgram, key: str, ctx: dict[str, Any], program: FaceProgram,
                card: CardBase | None) -> Color | None:
        value = prog.values.get(key)
        if value is None or not hasattr(value, "render"):
            return value
        text = render(value, ctx)
        try:
            return colour(text)
        except ValueError as exc:
            self._problem(prog, program, card, f"{key}: {exc}")
            return None

    def _text(self, prog: BoxProgram, markup: str, x: float, y: float, w: float, h: float, program: FaceProgram,
              card: CardBase | None, ctx: dict[str, Any] | None = None) -> None:
        if not markup or not markup.strip():
            return
        style = self._style_for(prog, ctx, program, card)
        if style is None:
            return
        style = self._readable(style, x, y, w, h) if self.ink_saver else style
        try:
            layout = fit_text(markup, w, h, style)
        except TextOverflow as exc:
            self._problem(prog, program, card, f"text does not fit ({exc.describe()})")
            return
        except MarkupError as exc:
            self._problem(prog, program, card, f"bad card-text markup: {exc}")
            return
        draw_layout(self.c, layout, x, y, w, h)

    def _style_for(self, prog: BoxProgram, ctx: dict[str, Any] | None, program: FaceProgram,
                   card: CardBase | None) -> TextStyle | None:
        """A text box's style for this card: its own, or with the values its templates give
        (None: one is wrong, reported)."""
        if not prog.style_templates:
            return prog.text_style
        return self._templated_style(prog, ctx or {}, program, card)

    def _templated_style(self, prog: BoxProgram, ctx: dict[str, Any], program: FaceProgram,
                         card: CardBase | None) -> TextStyle | None:
        """A style with values from the card (templates), each rendered then checked as if
        written in the layout; None (a problem reported for the card) when one is not allowed."""
        rendered = {key: render(t, ctx).strip() for key, t in prog.style_templates.items()}
        key = (id(prog), tuple(sorted(rendered.items())))
        known = self._styles.get(key)
        if known is not None:
            if isinstance(known, str):
                self._problem(prog, program, card, known)
                return None
            return known

        values: dict[str, Any] = {}
        try:
            for name, text in rendered.items():
                checked = StyleSpec.model_validate({name: text})  # as in layout.yaml: '12', 'true', 'right'
                values[name] = getattr(checked, name)
            style = _text_style(prog.box, self.art.assets, values=values)
        except ValidationError as exc:
            err = exc.errors()[0]
            name = str(err["loc"][0]) if err["loc"] else "style"
            message = (f"style.{name}: {friendly_message(dict(err))} "
                       f"(from {prog.box.style.get(name)!s})")
            self._styles[key] = message
            self._problem(prog, program, card, message)
            return None
        except ValueError as exc:
            names = ", ".join(f"{n} = {v!r}" for n, v in rendered.items())
            message = f"style: {exc} ({names}, from the card's data)"
            self._styles[key] = message
            self._problem(prog, program, card, message)
            return None
        self._styles[key] = style
        return style

    def _icon(self, prog: BoxProgram, name: str, x: float, y: float, w: float, h: float, program: FaceProgram,
              card: CardBase | None) -> None:
        if not name:
            return
        assets = self.art.assets
        if not assets.has_icon(name):
            self._problem(prog, program, card,
                          f"unknown icon '{name}'{unknown_icon_note(name, assets.names, token=False)}")
            return
        iw = assets.icon_width(name)
        size = min(h, w / iw)
        assets.draw_icon(self.c, name, x + (w - size * iw) / 2, y + (h - size) / 2, size)

    def _image(self, prog: BoxProgram, src: str, x: float, y: float, w: float, h: float, program: FaceProgram,
               card: CardBase | None, light: bool = False) -> None:
        if not src:
            return

        in_data, refused = path_problem(self.art.data.root, src, "art")
        beside, refused_beside = path_problem(prog.box.folder, src, "art")
        if refused is not None and refused_beside is not None:
            self._problem(prog, program, card, refused.message)  # never opened: an error
            draw_placeholder(self.c, x, y, w, h, "")
            return
        path = self._art_path(src, prog) if refused is None and refused_beside is None else (in_data or beside)
        assert path is not None  # path_problem gives (path, None) or (None, why): one side is not refused
        try:
            image = load_art(path)
        except ArtError as exc:
            if exc.broken:  # a file that is there but cannot be used: an error, as in `check`
                self._problem(prog, program, card, f"art '{src}': {exc} ({display_path(path)})")
                return
            self._problem(prog, program, card, f"art '{src}': {exc} (looked for {path}); "
                          "printed a placeholder", severity="warning",
                          summary=f"art not found ({display_path(path.parent)}); printed placeholders")
            draw_placeholder(self.c, x, y, w, h, Path(src).name)
            return
        draw_art(self.c, image, x, y, w, h, prog.box.get("fit", "cover"), light=light)

    def _art_path(self, src: str, prog: BoxProgram) -> Path:
        """Relative to the game's data folder; a layout's own pictures may sit beside the
        layout file instead."""
        path = art_file(self.art.data.root, src)
        if not path.exists():
            beside = Path(prog.box.folder) / src
            if beside.exists():
                return beside
        return path


def back_face_name(art: CardArt, card: CardBase) -> str:
    """The back face's name, as ``Painter.back`` decides what a back shows."""
    if art.back_face(card) is not None:
        return f"{card.id}-back"
    back_id = art.back_id(card)
    size = art.card_size(card)
    program = art.program(art.back_layout_name(back_id), size, "back")
    suffix = "" if size == (art.data.meta.card_size.width, art.data.meta.card_size.height) else \
        f"-{size[0]:g}x{size[1]:g}"
    if program is None:
        return f"back-{back_id}{suffix}"
    if "card" in program.uses:
        return f"{card.id}-back"
    if "kind" in program.uses:
        return f"back-{back_id}-{card.kind.replace('_', '-')}{suffix}"
    return f"back-{back_id}{suffix}"
