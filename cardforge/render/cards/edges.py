"""What the edges of each card look like, so that the layout butts only cards whose edges meet
(``layout/imposition.py``: :func:`~cardforge.layout.imposition.sequence`).

Where two butted cards share a cut line, a cut δ off the line leaves on one card a δ-wide
sliver of its neighbour, where its own bleed should have been. So for every face (fronts, and
backs: the back page is cut with the front) the rendered card is sampled along each side, in
1 mm steps: the strip 0–0.5 mm inside the trim and the strip 0–0.5 mm outside it (the bleed).
Two cards meet along a side when, all along it, each one's bleed looks like the other's edge
strip: CIELAB ΔE (1976) at most :data:`DELTA_E`, about what a 0.5 mm sliver needs to be seen
against its neighbour's edge (two differently coloured level frames: ΔE 31; two parchment
textures: 2.5).

Why the rendered card and not the layout's boxes: the layout language has frames, bands,
pictures with bleed, icons on the trim line (half icons meant to meet across cards), colours computed
from the card's data and boxes drawn in another turn; what prints is what the renderer draws,
so the renderer draws it. Only what can reach the edge is drawn (``Painter(edges_only=…)``:
boxes lying further inside, the text, are left out), at 4 pixels a millimetre; the samples of
each face are kept in the cache (``edges/``) under everything that draws it, so a rebuild
samples only the faces that changed.
"""

from __future__ import annotations

import hashlib
import io
import os
import pickle
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import chain
from pathlib import Path
from typing import TYPE_CHECKING

from PIL import Image as PILImage

from cardforge import cache
from cardforge.data.models import CardBase
from cardforge.layout.geometry import Placement, Rect
from cardforge.layout.imposition import OPPOSITE
from cardforge.render.cards.cards import CardArt, Painter, back_face_name
from cardforge.render.cards.faces import rasterise
from cardforge.render.output import new_canvas
from cardforge.units import mm

if TYPE_CHECKING:
    from PIL import Image

PX_PER_MM = 4.0
STRIP_MM = 0.5
STEP_MM = 1.0
DELTA_E = 10.0
SAME_DE = 2.0  # faces this close on every side are one class
EDGE_ZONE_MM = 1.5  # boxes lying this far inside the trim cannot reach the strips: not drawn
CACHE_KEEP = 64

Lab = tuple[float, float, float]
Profile = tuple[Lab, ...]  # along a side: left to right (bottom, top), bottom to top (left, right)


@dataclass(frozen=True)
class FaceEdges:
    """A face's four sides (own frame: L, R, B, T), each (inside strip, bleed strip)."""

    sides: tuple[tuple[Profile, Profile], ...]  # in the order L, R, B, T

    def side(self, name: str) -> tuple[Profile, Profile]:
        return self.sides["LRBT".index(name)]


# --- colour ------------------------------------------------------------------------------------

def _linear(c: float) -> float:
    c /= 255.0
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def _f(t: float) -> float:
    return t ** (1 / 3) if t > 216 / 24389 else (24389 / 27 * t + 16) / 116


@lru_cache(maxsize=65536)
def lab(rgb: tuple[int, int, int]) -> Lab:
    """sRGB (0–255) → CIELAB (D65)."""
    r, g, b = (_linear(v) for v in rgb)
    x = (0.4124564 * r + 0.3575761 * g + 0.1804375 * b) / 0.95047
    y = 0.2126729 * r + 0.7151522 * g + 0.0721750 * b
    z = (0.0193339 * r + 0.1191920 * g + 0.9503041 * b) / 1.08883
    fx, fy, fz = _f(x), _f(y), _f(z)
    return (116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz))


def delta_e(a: Lab, b: Lab) -> float:
    return float(((a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2 + (a[2] - b[2]) ** 2) ** 0.5)


def worst(a: Profile, b: Profile) -> float:
    """The largest ΔE between two profiles, point by point (inf if they differ in length)."""
    if len(a) != len(b):
        return float("inf")
    return max((delta_e(p, q) for p, q in zip(a, b)), default=0.0)


# --- sampling ------------------------------------------------------------------------------------

def sample(image: Image.Image, size_mm: tuple[float, float], bleed: float) -> FaceEdges:
    """A face's edges from its picture (the card with its bleed, ``size_mm`` the trim)."""
    w, h = size_mm
    kx = image.width / (w + 2 * bleed)
    ky = image.height / (h + 2 * bleed)
    strip = STRIP_MM
    out_strip = min(STRIP_MM, bleed) if bleed > 0 else 0.0

    def profile(x0: float, y0: float, x1: float, y1: float, steps: int, along_x: bool) -> Profile:
        # mm from the picture's top-left corner, y downwards
        box = (int(round(x0 * kx)), int(round(y0 * ky)), max(int(round(x1 * kx)), int(round(x0 * kx)) + 1),
               max(int(round(y1 * ky)), int(round(y0 * ky)) + 1))
        crop = image.crop(box)
        line = crop.convert("RGB").resize((steps, 1) if along_x else (1, steps), PILImage.Resampling.BOX)
        raw = line.tobytes()
        return tuple(lab((raw[i], raw[i + 1], raw[i + 2])) for i in range(0, len(raw), 3))

    nx, ny = max(1, round(w / STEP_MM)), max(1, round(h / STEP_MM))
    b = bleed
    left_in = profile(b, b, b + strip, b + h, ny, False)[::-1]  # bottom to top
    right_in = profile(b + w - strip, b, b + w, b + h, ny, False)[::-1]
    top_in = profile(b, b, b + w, b + strip, nx, True)
    bottom_in = profile(b, b + h - strip, b + w, b + h, nx, True)
    if out_strip > 0:
        left_out = profile(b - out_strip, b, b, b + h, ny, False)[::-1]
        right_out = profile(b + w, b, b + w + out_strip, b + h, ny, False)[::-1]
        top_out = profile(b, b - out_strip, b + w, b, nx, True)
        bottom_out = profile(b, b + h, b + w, b + h + out_strip, nx, True)
    else:  # no bleed: what is beyond the trim is the edge itself
        left_out, right_out, top_out, bottom_out = left_in, right_in, top_in, bottom_in
    return FaceEdges(((left_in, left_out), (right_in, right_out), (bottom_in, bottom_out), (top_in, top_out)))


def page_side(edges: FaceEdges, turn: int, side: str) -> tuple[Profile, Profile]:
    """The face's profiles on its page side ``side`` when drawn turned ``turn``, ordered
    along the page (left to right, bottom to top)."""
    normals = {"L": (-1, 0), "R": (1, 0), "B": (0, -1), "T": (0, 1)}
    params = {"L": (0, 1), "R": (0, 1), "B": (1, 0), "T": (1, 0)}

    def rot(v: tuple[int, int]) -> tuple[int, int]:
        x, y = v
        for _ in range(turn % 4):
            x, y = -y, x
        return (x, y)

    own = next(s for s in "LRBT" if rot(normals[s]) == normals[side])
    inner, outer = edges.side(own)
    if rot(params[own]) != params[side]:
        return inner[::-1], outer[::-1]
    return inner, outer


# --- a deck group's edges --------------------------------------------------------------------------

@dataclass
class EdgeBook:
    """The edge classes of one deck file's cards and the judge of which classes may be butted
    (:class:`~cardforge.layout.imposition.Meets`)."""

    fronts: dict[int, FaceEdges]  # class → a representative front
    backs: dict[int, FaceEdges]
    classes: dict[str, int]  # card id → class
    _memo: dict[tuple[int, int, str, int, int, str], bool] = field(default_factory=dict)

    def key(self, card: CardBase) -> int:
        return self.classes[card.id]

    def __call__(self, a: int, turn_a: int, side: str, b: int, turn_b: int, face: str) -> bool:
        memo = (a, turn_a, side, b, turn_b, face)
        found = self._memo.get(memo)
        if found is None:
            faces = self.fronts if face == "front" else self.backs
            a_in, a_out = page_side(faces[a], turn_a, side)
            b_in, b_out = page_side(faces[b], turn_b, OPPOSITE[side])
            found = self._memo[memo] = within(a_out, b_in, DELTA_E) and within(b_out, a_in, DELTA_E)
        return found

    @property
    def uniform(self) -> bool:
        """One class, meeting itself on every side: butting is safe whatever the order."""
        return len(self.fronts) == 1 and all(self(0, 0, s, 0, 0, f) for s in "LRBT" for f in ("front", "back"))


def within(a: Profile, b: Profile, limit: float) -> bool:
    """Every point of two profiles at most ``limit`` apart (stops at the first that is not)."""
    if len(a) != len(b):
        return False
    limit2 = limit * limit
    for p, q in zip(a, b):
        if (p[0] - q[0]) ** 2 + (p[1] - q[1]) ** 2 + (p[2] - q[2]) ** 2 > limit2:
            return False
    return True


def _similar(a: FaceEdges, b: FaceEdges) -> bool:
    return all(within(x[0], y[0], SAME_DE) and within(x[1], y[1], SAME_DE) for x, y in zip(a.sides, b.sides))


def _signature(e: FaceEdges) -> tuple[int, ...]:
    """The face's samples rounded: faces drawn alike have the same one."""
    flat = chain.from_iterable
    return tuple(map(round, flat(flat(flat(e.sides)))))  # in C: a rebuild groups every face again


#: face key → :func:`_signature` of its samples, for the process: a key always samples alike, and
#: watch mode groups every face of the deck again on each rebuild (~10 ms for a 250-card deck)
_SIGNATURES: dict[str, tuple[int, ...]] = {}
_SIGNATURES_KEPT = 50_000


def _signature_of(key: str, e: FaceEdges) -> tuple[int, ...]:
    sig = _SIGNATURES.get(key)
    if sig is None:
        if len(_SIGNATURES) >= _SIGNATURES_KEPT:
            _SIGNATURES.clear()
        sig = _SIGNATURES[key] = _signature(e)
    return sig


def edge_book(art: CardArt, cards: list[CardBase], size: tuple[float, float], bleed: float) -> EdgeBook:
    """Sample every face the ``cards`` show (from the cache where it has them) and sort the
    cards into classes: cards whose front and back both look alike on every side."""
    faces: dict[str, tuple[str, CardBase]] = {}  # face key → (side, a card showing it)
    card_faces: dict[str, tuple[str, str]] = {}
    for card in cards:
        if card.id in card_faces:
            continue
        front, back = f"front:{card.id}", f"back:{back_face_name(art, card)}"
        faces.setdefault(front, ("front", card))
        faces.setdefault(back, ("back", card))
        card_faces[card.id] = (front, back)
    assets = _assets_signature(art.data.root, frozenset(art.data.meta.card_file_names))
    keys = {name: _face_key(art, side, card, size, bleed, assets) for name, (side, card) in faces.items()}
    # the classes depend on nothing but the faces: kept in the cache under their keys
    parts = [f"{card_id}\x00{keys[f]}\x00{keys[b]}" for card_id, (f, b) in card_faces.items()]
    try:
        return cache.memo("edge-book", parts, _code(), lambda: _book(art, faces, card_faces, keys, size, bleed),
                          libraries=("reportlab",), expect=EdgeBook)
    except OSError:
        return _book(art, faces, card_faces, keys, size, bleed)


def _code() -> list[Path]:
    return cache.code_files("render/", "render/cards/", "render/drawing/", "render/sheets/", "render/exports/",
                            "render/reports/", "render/builds/", "layout/", "text/")


def _book(art: CardArt, faces: dict[str, tuple[str, CardBase]], card_faces: dict[str, tuple[str, str]],
          keys: dict[str, str], size: tuple[float, float], bleed: float) -> EdgeBook:
    sampled = _sample_faces(art, faces, keys, size, bleed)
    reps_f: list[FaceEdges] = []
    reps_b: list[FaceEdges] = []
    cluster: dict[str, int] = {}

    seen: dict[tuple[int, ...], int] = {}

    def group(key: str, reps: list[FaceEdges]) -> int:
        if key not in cluster:
            e = sampled[key]
            sig = (id(reps), *_signature_of(keys[key], e))
            found = seen.get(sig)
            if found is None:
                found = next((i for i, r in enumerate(reps) if _similar(r, e)), len(reps))
                if found == len(reps):
                    reps.append(e)
                seen[sig] = found
            cluster[key] = found
        return cluster[key]

    pairs: dict[tuple[int, int], int] = {}
    classes: dict[str, int] = {}
    fronts: dict[int, FaceEdges] = {}
    backs: dict[int, FaceEdges] = {}
    for card_id, (front, back) in card_faces.items():
        pair = (group(front, reps_f), group(back, reps_b))
        if pair not in pairs:
            pairs[pair] = len(pairs)
            fronts[pairs[pair]] = reps_f[pair[0]]
            backs[pairs[pair]] = reps_b[pair[1]]
        classes[card_id] = pairs[pair]
    return EdgeBook(fronts, backs, classes)


def _face_key(art: CardArt, side: str, card: CardBase, size: tuple[float, float], bleed: float,
              assets: str) -> str:
    """Everything that draws the face (data, layouts, templates, the game's files)."""
    parts = [side, f"{size}", f"{bleed}", f"{PX_PER_MM}", art.templates_digest or "", assets]
    if side == "front":
        program = art.program(art.front_layout_name(card.kind), size, "front")
        parts += [art.card_content(card), program.layout.digest if program is not None else ""]
    else:
        other = art.back_face(card)
        if other is not None:
            program = art.program(art.front_layout_name(other.kind), size, "front")
            parts += ["face", art.card_content(other), program.layout.digest if program is not None else ""]
        else:
            back_id = art.back_id(card)
            program = art.program(art.back_layout_name(back_id), size, "back")
            parts += [back_id, program.layout.digest if program is not None else ""]
            if program is not None and "card" in program.uses:
                parts.append(art.card_content(card))
            elif program is not None and "kind" in program.uses:
                parts.append(card.kind)
    return hashlib.blake2b("\x00".join(parts).encode("utf-8"), digest_size=16).hexdigest()


def _assets_signature(root: Path, card_files: frozenset[str] = frozenset()) -> str:
    """The game folder's files (name, size, modification time): pictures, icons and fonts
    the faces draw. Not the card files (``card_files``, as ``deck.yaml`` names them): each
    face's key holds its own card's data, so an edit to one card samples that card's faces
    again, not the deck's (it had been every face: ~0.1 s of a 250-card deck's watch-mode rebuild)."""
    skip = [os.path.join(root, name) for name in card_files]
    stamps = "".join(f"{line}\n" for line in cache.file_stamps([root], skip))
    return hashlib.blake2b(stamps.encode(), digest_size=16).hexdigest()


def _sample_faces(art: CardArt, faces: dict[str, tuple[str, CardBase]], keys: dict[str, str],
                  size: tuple[float, float], bleed: float) -> dict[str, FaceEdges]:
    try:
        code = cache.key("edges", code=_code(), libraries=("reportlab",))
        path = cache.entry("edges", f"{art.game.id}-{code[:16]}.pickle")
    except OSError:
        path = None
    kept: dict[str, FaceEdges] = cache.read(path, cache.unpickle, dict) or {}
    missing = [name for name in faces if keys[name] not in kept]
    if missing:
        drawn = _draw(art, [faces[n] for n in missing], size, bleed)
        for name, edges in zip(missing, drawn):
            kept[keys[name]] = edges
        # keep this deck's faces and a bounded number of others (other sizes, other builds)
        wanted = set(keys.values())
        others = [k for k in kept if k not in wanted][-CACHE_KEEP * 8:]
        cache.write(path, pickle.dumps({k: kept[k] for k in others + list(wanted)}, protocol=pickle.HIGHEST_PROTOCOL))
        if path is not None:
            cache.prune(path.parent, f"{art.game.id}-*.pickle", CACHE_KEEP)
    return {name: kept[keys[name]] for name in faces}


def _draw(art: CardArt, faces: list[tuple[str, CardBase]], size: tuple[float, float],
          bleed: float) -> list[FaceEdges]:
    buf = io.BytesIO()
    page = (mm(size[0] + 2 * bleed), mm(size[1] + 2 * bleed))
    c = new_canvas(buf, page, "edges", subject="card edges")
    painter = Painter(c, art, edges_only=EDGE_ZONE_MM)
    place = Placement(Rect(bleed, bleed, *size))
    for side, card in faces:
        (painter.front if side == "front" else painter.back)(place, card)
        c.showPage()
    c.save()
    px = (max(1, round((size[0] + 2 * bleed) * PX_PER_MM)), max(1, round((size[1] + 2 * bleed) * PX_PER_MM)))
    return [sample(image, size, bleed) for image in rasterise(buf.getvalue(), [px] * len(faces))]


__all__ = ["DELTA_E", "EdgeBook", "FaceEdges", "edge_book", "page_side", "sample"]
