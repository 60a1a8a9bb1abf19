"""Colour for print shops and for home printers that run low on ink.

**CMYK, PDF/X-1a** (``cardforge build --cmyk``, a print-on-demand profile's ``colour: cmyk``).
Every colour cardforge draws is set through ReportLab's ``setFillColor``/``setStrokeColor``,
which call the canvas's colour enforcer: :class:`CmykConverter` is that enforcer, so every fill,
stroke and text colour of every file is written as DeviceCMYK, converted through the FOGRA39
output profile (``cardforge/colour_profiles/``; relative colorimetric with black-point
compensation, LittleCMS through Pillow). Neutral colours (greys, blacks: r = g = b) are black
ink only: text never gets a rich-black fringe when the plates drift, and greys do not turn
green or brown on a press. Near-black (below #404040, cardforge's text inks #1a1a1a…) is solid
K; a lighter grey is the K tint that prints the same lightness (L*, read from the profile).
Large black areas are K too, not rich black: none of the shipped games has one (their dark
areas — navy, browns, dark bands — are colours and convert rich through the profile), and
K alone never misregisters. Raster art is converted to CMYK the same way (transparency
flattened onto white: PDF/X-1a allows none). :func:`make_pdfx` adds what the standard asks of
the file: the output intent with its ICC profile, ``GTS_PDFXVersion`` and ``Trapped``.

PDF/X-1a:2003 rather than X-4: it is what print-on-demand services ask for (DriveThruCards:
CMYK PDF/X-1a), every RIP takes it, and it says the file is final — all CMYK, no RGB to convert
and no transparency to flatten at the printer. cardforge's drawings have no transparency, so
X-4's live transparency and ICC-based RGB would buy nothing.

**Ink saver** (``--ink-saver``): :func:`lighten` is what the card painter applies to a face's
backgrounds (``render/cards/cards.py``: bands, panels, full-bleed fills and art), keeping a quarter of
their ink; frames (strokes), icons and text keep theirs, and text whose background got too light
for it turns dark (:func:`readable_on`).
"""

from __future__ import annotations

import io
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from reportlab.lib.colors import CMYKColor, Color, toColor

from cardforge.render import rl_internals as rl
from cardforge.resources import PACKAGE_DIR

if TYPE_CHECKING:
    from PIL import Image
    from reportlab.pdfgen.canvas import Canvas

PROFILE = PACKAGE_DIR / "colour_profiles" / "fogra39l-coated.icc"
#: the ICC registry's name of the print condition and its description (the output intent)
OUTPUT_CONDITION = "FOGRA39"
OUTPUT_CONDITION_INFO = ("Coated FOGRA39 (ISO 12647-2:2004/Amd 1, offset, paper types 1 and 2, "
                         "coated art, 115 g/m2, screen 60/cm)")
REGISTRY = "http://www.color.org"
PDFX_VERSION = "PDF/X-1a:2003"
K_SOLID_BELOW = 0x40  # neutral colours darker than this print as 100 % K (as --pure-black)
INK_KEPT = 0.25  # the ink saver keeps this share of a background's ink
DARK_INK = (0x1A, 0x1A, 0x1A)  # cardforge's text black


def _apply(transform: Any, image: Image.Image) -> Image.Image:
    from PIL import ImageCms  # Pillow only where a colour is converted

    out = ImageCms.applyTransform(image, transform)
    assert out is not None  # not in place: a new image
    return out


def _pixel(image: Image.Image) -> tuple[float, ...]:
    px = image.getpixel((0, 0))
    assert isinstance(px, tuple)
    return px


def _rgb255(colour: Color) -> tuple[int, int, int]:
    return (round(colour.red * 255), round(colour.green * 255), round(colour.blue * 255))


@lru_cache(maxsize=1)
def profile_bytes() -> bytes:
    return PROFILE.read_bytes()


class CmykConverter:
    """The canvas's colour enforcer for CMYK files (``Canvas(enforceColorSpace=…)``): any colour
    in, a DeviceCMYK colour out. One per process is enough (see :func:`converter`)."""

    def __init__(self) -> None:
        from PIL import Image, ImageCms  # Pillow only where a colour is converted

        cmyk = ImageCms.getOpenProfile(io.BytesIO(profile_bytes()))
        srgb = ImageCms.createProfile("sRGB")
        lab = ImageCms.createProfile("LAB")
        flags = ImageCms.Flags.BLACKPOINTCOMPENSATION
        relative = ImageCms.Intent.RELATIVE_COLORIMETRIC
        self._to_cmyk = ImageCms.buildTransform(srgb, cmyk, "RGB", "CMYK", renderingIntent=relative, flags=flags)
        self._rgb_lab = ImageCms.buildTransform(srgb, lab, "RGB", "LAB", renderingIntent=relative)
        cmyk_lab = ImageCms.buildTransform(cmyk, lab, "CMYK", "LAB", renderingIntent=relative)

        # L* of each K tint alone (0 … 100 %), to print a grey with black ink at its lightness
        ramp = Image.new("CMYK", (101, 1))
        ramp.putdata([(0, 0, 0, round(k * 2.55)) for k in range(101)])
        lab_ramp = _apply(cmyk_lab, ramp)
        self._k_lightness = [_pixel(lab_ramp.crop((k, 0, k + 1, 1)))[0] for k in range(101)]
        self._cache: dict[tuple[int, int, int], CMYKColor] = {}

    def __call__(self, colour: Any) -> CMYKColor:
        c = toColor(colour)
        if isinstance(c, CMYKColor):  # already CMYK (a separation stays one)
            return c
        return self.cmyk(_rgb255(c), getattr(c, "alpha", 1))

    def cmyk(self, rgb: tuple[int, int, int], alpha: float = 1) -> CMYKColor:
        found = self._cache.get(rgb)
        if found is None:
            found = self._cache[rgb] = self._convert(rgb)
        return found if alpha == 1 else found.clone(alpha=alpha)

    def _convert(self, rgb: tuple[int, int, int]) -> CMYKColor:
        from PIL import Image  # Pillow only where a colour is converted

        r, g, b = rgb
        if max(rgb) - min(rgb) <= 1:  # neutral: black ink only
            return CMYKColor(0, 0, 0, self._k_for(round((r + g + b) / 3)))
        px = _pixel(_apply(self._to_cmyk, Image.new("RGB", (1, 1), rgb)))
        return CMYKColor(*(round(v / 255, 4) for v in px))

    def _k_for(self, grey: int) -> float:
        """The K tint printing grey ``grey`` (0–255) at its lightness: solid below #404040."""
        from PIL import Image  # Pillow only where a colour is converted

        if grey < K_SOLID_BELOW:
            return 1.0
        if grey >= 255:
            return 0.0

        lightness = _pixel(_apply(self._rgb_lab, Image.new("RGB", (1, 1), (grey,) * 3)))[0]
        ramp = self._k_lightness  # falls as K grows
        for k in range(1, 101):
            if ramp[k] <= lightness:
                hi, lo = ramp[k - 1], ramp[k]
                frac = (hi - lightness) / (hi - lo) if hi != lo else 0.0
                return round((k - 1 + frac) / 100, 4)
        return 1.0

    def image(self, image: Image.Image) -> Image.Image:
        """A raster image in CMYK (transparency flattened onto white, as PDF/X-1a has none)."""
        from PIL import Image  # Pillow only where a colour is converted

        if image.mode in ("RGBA", "LA", "PA") or (image.mode == "P" and "transparency" in image.info):
            rgba = image.convert("RGBA")
            flat = Image.new("RGB", rgba.size, (255, 255, 255))
            flat.paste(rgba, mask=rgba.getchannel("A"))
            image = flat
        if image.mode == "CMYK":
            return image
        return _apply(self._to_cmyk, image.convert("RGB"))


@lru_cache(maxsize=1)
def converter() -> CmykConverter:
    return CmykConverter()


def is_cmyk(canvas: Canvas) -> bool:
    enforcer = rl.colour_enforcer(canvas)
    return isinstance(getattr(enforcer, "cmyk_converter", enforcer), CmykConverter)


def make_pdfx(canvas: Canvas) -> None:
    """Make the canvas's document a PDF/X-1a:2003 file when saved: the output intent (FOGRA39,
    its ICC profile embedded), ``GTS_PDFXVersion`` and ``Trapped /False`` in the Info dictionary.
    The rest the standard asks for — CMYK or grey only, fonts embedded, TrimBox and BleedBox on
    every page, no transparency, dates, a file ID — cardforge's canvases already do."""
    rl.add_output_intent(canvas, profile_bytes(), n=4, identifier=OUTPUT_CONDITION, info=OUTPUT_CONDITION_INFO,
                         registry=REGISTRY)
    rl.set_info_entries(canvas, {"GTS_PDFXVersion": PDFX_VERSION}, trapped="False")


# --- the ink saver -------------------------------------------------------------------------------

def lighten(colour: Color) -> Color:
    """A background's colour with a quarter of its ink (blended towards white)."""
    r, g, b = (1 - INK_KEPT * (1 - v) for v in (colour.red, colour.green, colour.blue))
    return Color(r, g, b)


def _luminance(rgb: tuple[float, float, float]) -> float:
    def lin(v: float) -> float:
        return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4
    return 0.2126 * lin(rgb[0]) + 0.7152 * lin(rgb[1]) + 0.0722 * lin(rgb[2])


def contrast(a: Color, b: Color) -> float:
    """WCAG 2 contrast ratio of two colours (1 to 21)."""
    la, lb = sorted((_luminance((a.red, a.green, a.blue)), _luminance((b.red, b.green, b.blue))), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def readable_on(ink: Color, background: Color, minimum: float = 4.5) -> Color:
    """``ink``, or cardforge's text black when ``ink`` would read under ``minimum``:1 on
    ``background`` (white text on a band the ink saver made pale)."""
    if contrast(ink, background) >= minimum:
        return ink
    return Color(*(v / 255 for v in DARK_INK))


class lightened:  # noqa: N801  (a context manager, used as ``with lightened(canvas):``)
    """Everything drawn inside, fills and strokes, lightened as :func:`lighten` does (the ink
    saver's background art), before any CMYK conversion."""

    def __init__(self, canvas: Canvas):
        self.canvas = canvas

    def __enter__(self) -> None:
        self.before = inner = rl.colour_enforcer(self.canvas)

        def enforce(colour: Any) -> Any:
            c = toColor(colour)
            if not isinstance(c, CMYKColor):
                c = lighten(c)
            return inner(c) if inner is not None else c

        enforce.cmyk_converter = inner  # type: ignore[attr-defined]  # is_cmyk sees through it
        rl.set_colour_enforcer(self.canvas, enforce)

    def __exit__(self, *exc: Any) -> None:
        rl.set_colour_enforcer(self.canvas, self.before)


def lightened_image(image: Image.Image) -> Image.Image:
    """Raster art with a quarter of its ink (alpha kept)."""
    from PIL import Image  # Pillow only where a colour is converted

    alpha = image.getchannel("A") if image.mode in ("RGBA", "LA") else None
    rgb = image.convert("RGB")
    white = Image.new("RGB", rgb.size, (255, 255, 255))
    out = Image.blend(white, rgb, INK_KEPT)
    if alpha is not None:
        out.putalpha(alpha)
    return out


def ink_coverage(image: Image.Image) -> float:
    """The mean ink an RGB image prints with, in % of full coverage of one ink (0–400: C + M + Y
    + K through the FOGRA39 profile, as the CMYK file would print it; white paper 0)."""
    cmyk = converter().image(image)
    total = 0
    for band in cmyk.split():
        total += sum(i * n for i, n in enumerate(band.histogram()))
    return total / (255 * image.width * image.height) * 100
