"""Colour as readers see it: sRGB → CAM02-UCS (ΔE), and greyscale and the three dichromacies
simulated, for the palette tests (``test_colour_vision.py``).

Implemented here (pure Python, a few hundred colours) rather than taken from ``colorspacious``,
which needs numpy, a dependency cardforge has nowhere else; the numbers are checked against
colorspacious 1.1.2 in the tests (its CAM02-UCS and its Machado matrices, to 4 decimals).

- **CAM02-UCS** (Luo, Cui & Li 2006) on CIECAM02 with sRGB's viewing conditions as colorspacious
  sets them: D65 white (95.047, 100, 108.883), Y_b = 20, L_A = 64/π/5 cd/m², average surround.
  ΔE is the Euclidean distance in (J', a', b'); about 1 is a just-noticeable difference between
  two large patches side by side, and cardforge asks far more of categories (``MIN_DELTA_E``).
- **Dichromacy**: Machado, Oliveira & Fernandes (2009) at severity 1.0 (protanopia,
  deuteranopia, tritanopia), applied to linear RGB, unclipped (as colorspacious does).
- **Greyscale**: the neutral grey of the same luminance (CIE Y from linear sRGB): lightness
  kept, hue and chroma lost, as a colour-managed greyscale print or a photocopy keeps them.
  (Luma on the encoded values, ``a11y_helpers.grey``, differs by a few units of ΔE; the issue's
  own figures, red/blue 4.4 and green/grey 6.4, are this definition's 4.3 and 6.3.)

``python tests/colour_vision.py`` prints the palettes' ΔE table (docs/internals/typography.md).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

RGB = tuple[int, int, int]
VISIONS = ("normal", "greyscale", "deuteranopia", "protanopia", "tritanopia")
#: what cardforge asks of two categories told apart by colour alone, in every vision
MIN_DELTA_E = 10.0

_MACHADO = {
    "protanopia": ((0.152286, 1.052583, -0.204868),
                   (0.114503, 0.786281, 0.099216),
                   (-0.003882, -0.048116, 1.051998)),
    "deuteranopia": ((0.367322, 0.860646, -0.227968),
                     (0.280085, 0.672501, 0.047413),
                     (-0.011820, 0.042940, 0.968881)),
    "tritanopia": ((1.255528, -0.076749, -0.178779),
                   (-0.078411, 0.930809, 0.147602),
                   (0.004733, 0.691367, 0.303900)),
}
_SRGB_TO_XYZ = ((0.4124, 0.3576, 0.1805), (0.2126, 0.7152, 0.0722), (0.0193, 0.1192, 0.9505))
_CAT02 = ((0.7328, 0.4296, -0.1624), (-0.7036, 1.6975, 0.0061), (0.0030, 0.0136, 0.9834))
_HPE = ((0.38971, 0.68898, -0.07868), (-0.22981, 1.18340, 0.04641), (0.0, 0.0, 1.0))
_WHITE = (95.047, 100.0, 108.883)


def _mul(m: Sequence[Sequence[float]], v: Sequence[float]) -> tuple[float, float, float]:
    return (m[0][0] * v[0] + m[0][1] * v[1] + m[0][2] * v[2],
            m[1][0] * v[0] + m[1][1] * v[1] + m[1][2] * v[2],
            m[2][0] * v[0] + m[2][1] * v[1] + m[2][2] * v[2])


def _inverse(m: Sequence[Sequence[float]]) -> tuple[tuple[float, float, float], ...]:
    (a, b, c), (d, e, f), (g, h, i) = m
    det = a * (e * i - f * h) - b * (d * i - f * g) + c * (d * h - e * g)
    return ((( e * i - f * h) / det, -(b * i - c * h) / det, ( b * f - c * e) / det),
            (-(d * i - f * g) / det, ( a * i - c * g) / det, -(a * f - c * d) / det),
            (( d * h - e * g) / det, -(a * h - b * g) / det, ( a * e - b * d) / det))


_CAT02_INV = _inverse(_CAT02)


def linear(rgb: Sequence[float]) -> tuple[float, float, float]:
    """sRGB 0–255 → linear 0–1."""
    def lin(v: float) -> float:
        v /= 255.0
        return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4
    return lin(rgb[0]), lin(rgb[1]), lin(rgb[2])


def encoded(lin: Sequence[float]) -> RGB:
    """Linear 0–1 → sRGB 0–255, clipped (for images)."""
    def enc(v: float) -> int:
        v = min(max(v, 0.0), 1.0)
        return round(255 * (v * 12.92 if v <= 0.0031308 else 1.055 * v ** (1 / 2.4) - 0.055))
    return enc(lin[0]), enc(lin[1]), enc(lin[2])


def seen_linear(rgb: Sequence[float], vision: str) -> tuple[float, float, float]:
    """The linear RGB a reader with ``vision`` sees for sRGB ``rgb`` (unclipped)."""
    if vision == "normal":
        return linear(rgb)
    if vision == "greyscale":
        r, g, b = linear(rgb)
        y = 0.2126 * r + 0.7152 * g + 0.0722 * b
        return y, y, y
    return _mul(_MACHADO[vision], linear(rgb))


def seen(rgb: Sequence[float], vision: str) -> RGB:
    """As :func:`seen_linear`, back to sRGB 0–255 (clipped): for simulated images."""
    return encoded(seen_linear(rgb, vision))


class _Viewing:
    def __init__(self, white: Sequence[float] = _WHITE, y_b: float = 20.0, l_a: float = 64 / math.pi / 5,
                 f: float = 1.0, c: float = 0.69, n_c: float = 1.0):
        self.c, self.n_c = c, n_c
        rgb_w = _mul(_CAT02, white)
        d = min(max(f * (1 - (1 / 3.6) * math.exp((-l_a - 42) / 92)), 0.0), 1.0)
        self.d_rgb = tuple(d * white[1] / v + 1 - d for v in rgb_w)
        k = 1 / (5 * l_a + 1)
        self.f_l = 0.2 * k ** 4 * (5 * l_a) + 0.1 * (1 - k ** 4) ** 2 * (5 * l_a) ** (1 / 3)
        n = y_b / white[1]
        self.n = n
        self.z = 1.48 + math.sqrt(n)
        self.n_bb = self.n_cb = 0.725 * (1 / n) ** 0.2
        self.a_w = self._achromatic(self._adapted(white))[0]

    def _adapted(self, xyz: Sequence[float]) -> tuple[float, float, float]:
        rgb = _mul(_CAT02, xyz)
        rgb_c = tuple(dv * v for dv, v in zip(self.d_rgb, rgb))
        rgb_p = _mul(_HPE, _mul(_CAT02_INV, rgb_c))

        def compress(v: float) -> float:
            x = (self.f_l * abs(v) / 100) ** 0.42
            return math.copysign(400 * x / (x + 27.13), v) + 0.1
        return compress(rgb_p[0]), compress(rgb_p[1]), compress(rgb_p[2])

    def _achromatic(self, rgb_a: Sequence[float]) -> tuple[float, float, float]:
        r, g, b = rgb_a
        return (2 * r + g + b / 20 - 0.305) * self.n_bb, r - 12 * g / 11 + b / 11, (r + g - 2 * b) / 9

    def ucs(self, xyz: Sequence[float]) -> tuple[float, float, float]:
        rgb_a = self._adapted(xyz)
        a_big, a, b = self._achromatic(rgb_a)
        h = math.degrees(math.atan2(b, a)) % 360
        j = 100 * (max(a_big, 0.0) / self.a_w) ** (self.c * self.z)
        e_t = 0.25 * (math.cos(math.radians(h) + 2) + 3.8)
        denom = rgb_a[0] + rgb_a[1] + 21 / 20 * rgb_a[2]
        t = (50000 / 13 * self.n_c * self.n_cb * e_t * math.hypot(a, b)) / denom if denom else 0.0
        chroma = t ** 0.9 * math.sqrt(j / 100) * (1.64 - 0.29 ** self.n) ** 0.73
        m = chroma * self.f_l ** 0.25
        j_p = (1 + 100 * 0.007) * j / (1 + 0.007 * j)
        m_p = math.log(1 + 0.0228 * m) / 0.0228
        return j_p, m_p * math.cos(math.radians(h)), m_p * math.sin(math.radians(h))


_SRGB_VIEW = _Viewing()


def cam02ucs(rgb: Sequence[float], vision: str = "normal") -> tuple[float, float, float]:
    """(J', a', b') of sRGB ``rgb`` (0–255) as seen with ``vision``."""
    lin = seen_linear(rgb, vision)
    return _SRGB_VIEW.ucs(tuple(100 * v for v in _mul(_SRGB_TO_XYZ, lin)))


def delta_e(a: Sequence[float], b: Sequence[float], vision: str = "normal") -> float:
    """CAM02-UCS ΔE between two sRGB colours as seen with ``vision``."""
    return math.dist(cam02ucs(a, vision), cam02ucs(b, vision))


def hex_rgb(value: str) -> RGB:
    value = value.lstrip("#")
    return int(value[0:2], 16), int(value[2:4], 16), int(value[4:6], 16)
