"""``cardforge export GAME pod --profile NAME``: files for print-on-demand services.

A **profile** is a YAML file: the service's trim, bleed, safe zone, resolution and pixel size,
and what it takes (``format: png`` — one image per face — or ``pdf`` — one card per page, with
TrimBox and BleedBox set). Shipped profiles live in ``cardforge/pod_profiles/`` (each citing
the spec it comes from); a designer's own go in the game folder's ``pod_profiles/`` or are
named by path (``--profile ./my-printer.yaml``).

The cards are drawn at their own size and scaled onto the profile's trim when the two are
within ``MAX_SIZE_CHANGE`` (3 %) of each other (a 63 × 88 mm deck on a 2.5 × 3.5 in template:
+0.8 %, +1 %; a 56 × 88 mm deck on a bridge template: +2.1 %, +1 %). A shape that differs by
more than 4 % is refused; so is a size that differs by more than 3 % (a 70 mm card on a 3.5 in
template would print ×1.27) unless the export is asked to scale (``scale=True``, the CLI's
``--scale``), and the error names the profiles of the cards' own size. Text laid out closer to
the edge than the profile's safe zone is a warning naming the card and box (measured from the
laid-out lines, not from the boxes).
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, Field, model_validator

from cardforge.data.models import LengthMM, Model
from cardforge.data.validate import validate
from cardforge.data.yamlio import read_yaml
from cardforge.errors import DataError, RenderError
from cardforge.limits import at_most, env_name, limit
from cardforge.paths import check_output_names, folder_entries, name_problem, output_file, regular_inside
from cardforge.problems import Problem, short_name
from cardforge.render.cards.faces import MM_PER_INCH, DeckFaces, Face, faces_pdf, rasterise, save_png
from cardforge.render.cards.textextent import text_extents
from cardforge.render.output import atomic_path
from cardforge.resources import PACKAGE_DIR, display_path
from cardforge.transaction import folder_transaction

SHIPPED = PACKAGE_DIR / "pod_profiles"
USER_FOLDER = "pod_profiles"  # in the game folder
MAX_SHAPE_CHANGE = 0.04
MAX_SIZE_CHANGE = 0.03


class Pixels(Model):
    width: int = Field(gt=0)
    height: int = Field(gt=0)


class Size(Model):
    width: LengthMM = Field(gt=0)
    height: LengthMM = Field(gt=0)


def _bleed(value: float) -> float:
    most = limit("bleed_mm")
    if value > most:
        raise ValueError(f"must be at most {most:,} mm (set {env_name('bleed_mm')} to allow more), "
                         f"got {value:g} mm")
    return value


class Profile(Model):
    """A print service's card template."""

    name: str
    trim: Size
    bleed: Annotated[LengthMM, AfterValidator(_bleed)] = Field(ge=0)
    safe: LengthMM = Field(ge=0)  # inside the trim
    dpi: int = Field(300, ge=72, le=1200)
    pixels: Pixels | None = None  # the image with its bleed, as the service states it
    format: Literal["png", "pdf"] = "pdf"
    order: Literal["front-back", "back-front"] = "front-back"  # pdf pages of a card
    copies: Literal["once", "pages"] = "once"  # pdf: each printed copy on its own pages
    colour: Literal["rgb", "cmyk"] = "rgb"  # cmyk: cards.pdf a CMYK PDF/X-1a (render/colour.py)

    @model_validator(mode="after")
    def _cmyk_is_a_pdf(self) -> Profile:
        if self.colour == "cmyk" and self.format != "pdf":
            raise ValueError("colour: cmyk is for format: pdf (images are sRGB PNGs)")
        return self

    @model_validator(mode="after")
    def _pixels_agree(self) -> Profile:
        """``pixels`` (as the service states them) must be round((trim + 2 × bleed) × dpi),
        each side, within a pixel (services round either way); and the image within the
        ``export_pixels`` limit."""
        want = self.expected_pixels
        if self.pixels is not None and (abs(want[0] - self.pixels.width) > 1 or abs(want[1] - self.pixels.height) > 1):
            raise ValueError(
                f"pixels {self.pixels.width}×{self.pixels.height} do not match trim + 2 × bleed at "
                f"{self.dpi} dpi ({want[0]}×{want[1]}): the images would be stretched")
        w, h = self.pixel_size
        if w * h > limit("export_pixels"):
            raise ValueError(f"an image of {w:,}×{h:,} = {w * h:,} pixels (trim + 2 × bleed at {self.dpi} dpi), "
                             + at_most("export_pixels", " pixels"))
        return self

    @property
    def expected_pixels(self) -> tuple[int, int]:
        """round((trim + 2 × bleed) in inches × dpi), each side."""
        w, h = self.trim.width, self.trim.height
        return (round((w + 2 * self.bleed) / MM_PER_INCH * self.dpi),
                round((h + 2 * self.bleed) / MM_PER_INCH * self.dpi))

    @property
    def pixel_size(self) -> tuple[int, int]:
        """The images' size: ``pixels`` when the profile gives them (they agree with
        :attr:`expected_pixels` within a pixel), else the expected size."""
        if self.pixels is not None:
            return (self.pixels.width, self.pixels.height)
        return self.expected_pixels


@dataclass
class LoadedProfile:
    id: str
    path: Path
    profile: Profile


def profile_files(game_root: Path | None = None) -> dict[str, Path]:
    """Profiles by name: the game folder's ``pod_profiles/`` first (only the files obeying the
    game folder's rule: :func:`cardforge.paths.folder_entries`), then the shipped ones."""
    out: dict[str, Path] = {}
    if game_root:
        for path in folder_entries(game_root, USER_FOLDER, (".yaml",), "print-on-demand profile")[0]:
            out.setdefault(path.stem, path)
    if SHIPPED.is_dir():
        for path in sorted(SHIPPED.glob("*.yaml")):
            out.setdefault(path.stem, path)
    return out


def load_profile(name: str, game_root: Path | None = None) -> LoadedProfile:
    """A profile by name (see :func:`profile_files`) or by path. DataError otherwise."""
    files = profile_files(game_root)
    path = files.get(name)
    if path is None and game_root and name and "/" not in name and "\\" not in name:
        own = f"{USER_FOLDER}/{name}.yaml"
        if os.path.lexists(Path(game_root) / own):  # there, but refused: say why
            shown = display_path(Path(game_root) / own)
            refused = regular_inside(game_root, own, "print-on-demand profile", file=shown)[1]
            if refused is not None:
                raise DataError(f"cannot use the print-on-demand profile '{short_name(name)}'", [refused])
    if path is None:
        candidate = Path(name)
        if candidate.suffix in (".yaml", ".yml") and candidate.is_file():
            path = candidate
        else:
            raise DataError(f"unknown print-on-demand profile '{short_name(name)}'", [Problem(
                f"no profile '{short_name(name)}' (shipped and the game's: {', '.join(files)}; or a path to a "
                ".yaml file)")])
    why = name_problem(path.stem, "profile")
    if why is not None:
        raise DataError(f"cannot use the print-on-demand profile {display_path(path)}", [Problem(
            f"the profile's name (its file's name) {why}", file=display_path(path))])
    doc = read_yaml(path)
    if doc.data is None:
        raise DataError(f"cannot read the profile {display_path(path)}", doc.problems)
    profile, problems = validate(Profile, doc.data, file=doc.display, line_of=doc.line_of)
    problems = list(doc.problems) + problems
    if profile is None or any(not p.is_warning for p in problems):
        raise DataError(f"invalid print-on-demand profile {display_path(path)}", problems)
    return LoadedProfile(path.stem, path, profile)


@dataclass
class PodResult:
    files: list[Path]
    warnings: list[Problem]
    pages: int = 0
    scales: list[float] = field(default_factory=list)  # the factors the cards were printed at, ≠ 1 only


def scale_of(size_mm: tuple[float, float], prof: Profile) -> float:
    """How much a card of ``size_mm`` grows (or shrinks) on the profile's trim: the larger change
    of its two sides, as a factor (1.27 for a 70 mm card on 3.5 in)."""
    sx, sy = prof.trim.width / size_mm[0], prof.trim.height / size_mm[1]
    return sx if abs(sx - 1) >= abs(sy - 1) else sy


def _same_shape(size_mm: tuple[float, float], prof: Profile) -> bool:
    return abs((prof.trim.width / prof.trim.height) / (size_mm[0] / size_mm[1]) - 1) <= MAX_SHAPE_CHANGE


def _same_size(size_mm: tuple[float, float], prof: Profile) -> bool:
    return abs(prof.trim.width / size_mm[0] - 1) <= MAX_SIZE_CHANGE and \
        abs(prof.trim.height / size_mm[1] - 1) <= MAX_SIZE_CHANGE


def profiles_of_size(size_mm: tuple[float, float], game_root: Path | None = None) -> list[str]:
    """The names of the profiles (the game's and the shipped ones) a card of ``size_mm`` prints on
    without scaling."""
    out = []
    for name in profile_files(game_root):
        try:
            prof = load_profile(name, game_root).profile
        except DataError:
            continue
        if _same_shape(size_mm, prof) and _same_size(size_mm, prof):
            out.append(name)
    return out


def export_pod(faces: DeckFaces, loaded: LoadedProfile, out_dir: Path, *, own_folder: bool = True,
               scale: bool = False, game_root: Path | None = None) -> PodResult:
    """Write the profile's files into ``out_dir``: ``cards.pdf`` or one PNG per face, plus
    ``faces.json`` (each card's files and copies); one transaction, as
    :func:`cardforge.render.exports.export_png.export_pngs`. ``scale``: cards whose size differs from the
    profile's by more than ``MAX_SIZE_CHANGE`` are printed scaled to it (else left out, or an
    error when none is left); ``game_root``: whose ``pod_profiles/`` to suggest from."""
    prof = loaded.profile
    tw, th = prof.trim.width, prof.trim.height
    fits, skipped = _fitting_faces(faces, loaded, scale, game_root)
    scales = sorted({round(scale_of(f.size_mm, prof), 4) for f in fits
                     if not _same_size(f.size_mm, prof)})
    names = {f.back_of for f in fits}
    faces = DeckFaces(faces.game_id, faces.art, faces.issues, fits, [b for b in faces.backs if b.name in names],
                      faces.bleed_mm, faces.strict)
    scale_to = {f.name: (tw, th) for f in faces.all}
    warnings = skipped + safe_zone_warnings(faces, prof)
    if faces.strict and warnings:
        raise RenderError(f"cannot export {faces.game_id} with the profile '{loaded.id}' (--strict); nothing "
                          "written", [Problem(p.message + " (--strict)", p.file, p.item, p.field, p.line)
                                      for p in warnings])
    out_dir = Path(out_dir)
    check_output_names(out_dir, ["cards.pdf", "faces.json", *(f"{f.name}.png" for f in faces.all)],
                       "print-on-demand export")
    files: list[Path] = []
    with folder_transaction(out_dir, whole=own_folder, what="print-on-demand export") as staging:
        if prof.format == "pdf":
            pages = _write_pdf(staging, faces, prof, scale_to)
            files.append(out_dir / "cards.pdf")
        else:
            files += [out_dir / name for name in _write_pngs(staging, faces, prof, scale_to)]
            pages = 0
        index = _faces_index(faces, loaded, scales)
        with atomic_path(output_file(staging, "faces.json")) as tmp:
            tmp.write_text(json.dumps(index, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    return PodResult(files, warnings, pages, scales)


def _fitting_faces(faces: DeckFaces, loaded: LoadedProfile, scale: bool,
                   game_root: Path | None) -> tuple[list[Face], list[Problem]]:
    """The fronts the profile prints, and a warning per size left out. Cards of another shape (a
    deck's tarot-sized kind on a poker template) are left out: they need a profile of their own;
    cards of another size (a 70 mm square on a 3.5 in square template) likewise unless asked to
    scale; none fitting is an error (DataError)."""
    prof = loaded.profile
    tw, th = prof.trim.width, prof.trim.height
    shaped = [f for f in faces.fronts if _same_shape(f.size_mm, prof)]
    fits = [f for f in shaped if scale or _same_size(f.size_mm, prof)]
    left_out: dict[tuple[float, float], list[str]] = {}
    too_big: dict[tuple[float, float], list[str]] = {}
    for f in faces.fronts:
        if f not in shaped:
            left_out.setdefault(f.size_mm, []).append(f.name)
        elif f not in fits:
            too_big.setdefault(f.size_mm, []).append(f.name)

    def listed(ids: list[str], w: float, h: float) -> str:
        return (f"{len(ids)} card{'s' if len(ids) > 1 else ''} of {w:g}×{h:g} mm left out "
                f"({', '.join(ids[:5])}{'…' if len(ids) > 5 else ''})")

    def elsewhere(size: tuple[float, float]) -> str:
        names = [n for n in profiles_of_size(size, game_root) if n != loaded.id]
        return f"a profile of their size ({', '.join(names)})" if names else "a profile of their size"

    skipped = [Problem(
        f"{listed(ids, w, h)}: their shape differs from the "
        f"profile's {tw:.1f}×{th:.1f} mm trim by more than {MAX_SHAPE_CHANGE:.0%}; export them with a profile "
        "of that shape", file=display_path(loaded.path), field="trim", severity="warning")
        for (w, h), ids in left_out.items()]
    skipped += [Problem(
        f"{listed(ids, w, h)}: the profile's {tw:.1f}×{th:.1f} mm "
        f"trim would print them ×{scale_of((w, h), prof):.2f}; export them with --scale, or with "
        f"{elsewhere((w, h))}", file=display_path(loaded.path), field="trim", severity="warning")
        for (w, h), ids in too_big.items()]
    if not fits:
        reasons = [f"the cards of {w:g}×{h:g} mm do not fit the profile's {tw:.1f}×{th:.1f} mm trim (the "
                   f"shapes differ by more than {MAX_SHAPE_CHANGE:.0%}); choose a profile of that shape"
                   for w, h in left_out]
        reasons += [f"the cards of {w:g}×{h:g} mm would print ×{scale_of((w, h), prof):.2f} on the profile's "
                    f"{tw:.1f}×{th:.1f} mm trim (their size differs by more than {MAX_SIZE_CHANGE:.0%}); pass "
                    f"--scale to print them so, or choose {elsewhere((w, h))}" for w, h in too_big]
        raise DataError(f"cannot export {faces.game_id} with the profile '{loaded.id}'", [
            Problem(r, file=display_path(loaded.path), field="trim") for r in reasons])
    return fits, skipped


def _write_pdf(staging: Path, faces: DeckFaces, prof: Profile, scale_to: dict[str, tuple[float, float]]) -> int:
    """``cards.pdf``: each card's front and back in the profile's order (every copy, if it asks);
    returns its page count."""
    order: list[Face] = []
    for front in faces.fronts:
        pair = [front, faces.back_of(front)]
        if prof.order == "back-front":
            pair.reverse()
        order += pair * (front.card.copies if prof.copies == "pages" else 1)
    pdf = faces_pdf(faces, order, scale_to=scale_to, boxes=True, strict=faces.strict,
                    title=f"{faces.art.data.meta.title} — {prof.name}", cmyk=prof.colour == "cmyk")
    with atomic_path(output_file(staging, "cards.pdf")) as tmp:
        tmp.write_bytes(pdf)
    return len(order)


def _write_pngs(staging: Path, faces: DeckFaces, prof: Profile,
                scale_to: dict[str, tuple[float, float]]) -> list[str]:
    """One PNG per face at the profile's pixel size; returns their names."""
    which = faces.all
    pdf = faces_pdf(faces, which, scale_to=scale_to, strict=faces.strict)
    size = prof.pixel_size
    names: list[str] = []
    for face, image in zip(which, rasterise(pdf, [size] * len(which))):
        name = f"{face.name}.png"
        with atomic_path(output_file(staging, name)) as tmp:
            with open(tmp, "wb") as fh:
                save_png(image, fh, prof.dpi)
        names.append(name)
    return names


def _faces_index(faces: DeckFaces, loaded: LoadedProfile, scales: list[float]) -> dict[str, Any]:
    """``faces.json``: each card's files and copies, and how the files were made."""
    prof = loaded.profile
    index: dict[str, Any] = {"game": faces.game_id, "profile": loaded.id, "name": prof.name,
             "cards": [{"id": f.name, "copies": f.card.copies, "front": f"{f.name}.png",
                        "back": f"{f.back_of}.png"} for f in faces.fronts]}
    if prof.format == "pdf":
        index["pdf"] = "cards.pdf"
        index["pages"] = f"{prof.order} per card" + (", every copy" if prof.copies == "pages" else "")
        index["colour"] = "CMYK, PDF/X-1a:2003 (FOGRA39)" if prof.colour == "cmyk" else "sRGB"
    if scales:
        index["scaled"] = scales  # the factors the cards were drawn at (--scale)
    return index


def safe_zone_warnings(faces: DeckFaces, prof: Profile) -> list[Problem]:
    """A warning per text box and kind whose laid-out text comes closer to the trim edge than
    the profile's safe zone (in the card's own mm: the safe zone divided by the scale), with
    the count of faces and the closest the text comes (issue 28: one line per box and kind,
    not one per card). A box with ``bleed: true`` is meant to bleed: never warned about."""
    found: dict[tuple[str, str, str], list[tuple[float, Face]]] = {}
    for face in faces.all:
        w, h = face.size_mm
        sx, sy = prof.trim.width / w, prof.trim.height / h
        inset_x, inset_y = prof.safe / sx, prof.safe / sy
        for box, (x0, y0, x1, y1) in text_extents(faces, face):
            gaps = {"left": x0, "bottom": y0, "right": w - x1, "top": h - y1}
            bad = {k: v for k, v in gaps.items() if v < (inset_x if k in ("left", "right") else inset_y) - 0.05}
            if not bad:
                continue
            side, gap = min(bad.items(), key=lambda kv: kv[1])
            scale = sx if side in ("left", "right") else sy
            kind = face.card.kind if face.side == "front" else "back"
            found.setdefault((box, kind, side), []).append((round(gap * scale, 2), face))
    out: list[Problem] = []
    for (box, kind, side), hits in found.items():
        gap = min(g for g, _ in hits)
        closest = "" if len({g for g, _ in hits}) == 1 else "as close as "
        what = (f"box '{box}': text {closest}{gap:.2f} mm from the {side} edge, inside the {prof.safe:.2f} mm "
                f"unsafe margin of '{prof.name}' (may be cut off; bleed: true on the box if it is meant to bleed)")
        if len(hits) == 1:
            face = hits[0][1]
            src = faces.art.data.sources.get(face.card.id) if face.side == "front" else None
            where = {"file": src.file, "line": src.line, "item": src.label(face.card.id)} if src else \
                {"item": f"{face.side} '{face.name}'"}
            out.append(Problem(what, severity="warning", **where))
        else:
            names = [f.name for _, f in hits]
            listed = ", ".join(names[:4]) + (f" and {len(names) - 4} more" if len(names) > 4 else "")
            what_faces = "back faces" if kind == "back" else f"faces of kind '{kind}'"
            out.append(Problem(what, severity="warning", item=f"{len(hits)} {what_faces} ({listed})"))
    return out
