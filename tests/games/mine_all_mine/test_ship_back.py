"""The ship cards' back keeps the turn secret when the print drifts (issue 29).

A ship card is turned a quarter turn, face down, to choose one of its options secretly; its back
(``dos-vaisseau``) must look the same whichever edge is up. Perfectly registered, any 4-fold
symmetric back does. But duplex printers drift and cutters miss by 1–2 mm: then every feature
of the back moves 1–2 mm against the trim, and a feature whose distance to the trim can be
read gives the turn away (the old back's frame 6 mm inside the edge showed margins of 5.8 and
7.8 mm, and which side was narrow turned with the card).

The back is now a star field over the whole card and its bleed
(``card_data/mine_all_mine/art/starfield.svg``, written by :func:`starfield_svg` below): a
square lattice of small stars, 6 mm apart, tilted 20° so that no row of it runs along an edge,
centred on the card (so the back is exactly the same under every quarter turn), with a dot at
each cell's centre and four dim dots per cell placed as one orbit of the quarter turn. Nothing
in it is larger than 1.6 mm, nothing is parallel to an edge, and every star looks like all the
others: a shift moves the field, not a margin.

The test draws the back with its 3 mm bleed, cuts it as a drift of 1 and 2 mm (across, down,
diagonal) would, and compares the card so cut with itself turned 90°, 180° and 270°:

- **edge profiles**: the mean lightness of 0.5 mm strips parallel to each edge, from the edge
  to 25 mm in, over the edge's whole length, is the same for the four edges within
  ``PROFILE_TOLERANCE`` grey levels (of 255). The star field: 0.5; the old back: 65–67;
- **turned, blurred**: after a Gaussian blur of 1.5 mm (features a player could place to the
  millimetre at arm's length survive it; a texture of small stars does not), the mean
  difference with each turn stays under ``MEAN_TOLERANCE`` and 99 % of pixels under
  ``P99_TOLERANCE``. The star field: mean 1.3–1.6, 99th percentile 6; the old back (frame and
  a 30 mm medallion): mean 6.9–18.8, 99th percentile 78–173.

``python tests/games/mine_all_mine/test_ship_back.py`` writes the star field's SVG.
"""

from __future__ import annotations

import math
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
SVG = ROOT / "card_data" / "mine_all_mine" / "art" / "starfield.svg"
PX_PER_MM = 10.0
BLEED = 3.0
DRIFTS = [(1, 0), (0, 1), (1, 1), (-1, 1), (2, 0), (0, 2), (2, 2), (-2, 1)]
PROFILE_TOLERANCE = 3.0  # grey levels, of 255
MEAN_TOLERANCE = 2.0
P99_TOLERANCE = 8


# --- the star field ------------------------------------------------------------------------------

def _n(v: float) -> str:
    return f"{v:.2f}".rstrip("0").rstrip(".")


def starfield_svg(size: float = 70 + 2 * BLEED, step: float = 6.0, tilt: float = 20.0,
                  ink: str = "#1b2a4a") -> str:
    """The back's star field, ``size`` mm square (the card and a 3 mm bleed), centred on the
    card: stars on a square lattice ``step`` mm apart tilted ``tilt``°, a dot at each cell's
    centre, and an orbit of four dim dots per cell (a point and its three quarter turns, in
    lattice coordinates), so that the whole field is its own quarter turn."""
    c = size / 2
    t = math.radians(tilt)
    u = (step * math.cos(t), step * math.sin(t))
    v = (-u[1], u[0])  # u turned a quarter: the lattice is its own quarter turn

    def orbit(p: tuple[float, float]) -> list[tuple[float, float]]:
        out = [p]
        for _ in range(3):
            out.append((-out[-1][1], out[-1][0]))
        return sorted({(round(a % 1, 6), round(b % 1, 6)) for a, b in out})

    motifs = [([(0.0, 0.0)], "star", 0.8, "#f2c230"),
              ([(0.5, 0.5)], "diamond", 0.38, "#f6f1e6"),
              (orbit((0.27, 0.14)), "diamond", 0.24, "#8fa3c8")]
    n = int(size / step) + 3
    lines = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{_n(size)}mm" height="{_n(size)}mm" '
             f'viewBox="0 0 {_n(size)} {_n(size)}">',
             "<!-- Mine, All Mine!: the back of the ship cards, a star field with no feature near the edges",
             "     whose distance to the trim could show a drift (tests/games/mine_all_mine/test_ship_back.py",
             "     writes this file: python tests/games/mine_all_mine/test_ship_back.py). -->",
             f'<rect width="{_n(size)}" height="{_n(size)}" fill="{ink}"/>']
    for offsets, kind, r, colour in motifs:
        parts = []
        for i in range(-n, n + 1):
            for j in range(-n, n + 1):
                for a, b in offsets:
                    x = c + (i + a) * u[0] + (j + b) * v[0]
                    y = c + (i + a) * u[1] + (j + b) * v[1]
                    if not (-r < x < size + r and -r < y < size + r):
                        continue
                    if kind == "star":  # four points, upright: the same turned a quarter
                        q = r * 0.28
                        pts = [(x, y - r), (x + q, y - q), (x + r, y), (x + q, y + q), (x, y + r),
                               (x - q, y + q), (x - r, y), (x - q, y - q)]
                    else:
                        pts = [(x, y - r), (x + r, y), (x, y + r), (x - r, y)]
                    parts.append("M" + "L".join(f"{_n(px)} {_n(py)}" for px, py in pts) + "z")
        lines.append(f'<path fill="{colour}" d="{"".join(parts)}"/>')
    lines.append("</svg>")
    return "\n".join(lines) + "\n"


def test_the_star_field_file_is_the_generators():
    assert SVG.read_text(encoding="utf-8") == starfield_svg()


# --- the back under drift ------------------------------------------------------------------------

@pytest.fixture(scope="module")
def back():
    """The ship back with its 3 mm bleed, rasterised in grey, PX_PER_MM."""
    from cardforge.data.loading import load_game_data
    from cardforge.games import find_game
    from cardforge.render.faces import deck_faces, faces_pdf, rasterise

    game = find_game("mine_all_mine")
    faces = deck_faces(game, load_game_data(game), BLEED)
    face = next(b for b in faces.backs if b.name.startswith("back-vaisseau"))
    assert face.size_mm == (70.0, 70.0)
    side = round((70 + 2 * BLEED) * PX_PER_MM)  # whole pixels: the trim starts on one
    (image,) = rasterise(faces_pdf(faces, [face]), [(side, side)])
    return image.convert("L")


def cut(image, dx: float, dy: float, size: float = 70.0):
    """The card as cut when the back landed (−dx, −dy) mm off its front's trim."""
    x0, y0 = round((BLEED + dx) * PX_PER_MM), round((BLEED + dy) * PX_PER_MM)
    n = round(size * PX_PER_MM)
    return image.crop((x0, y0, x0 + n, y0 + n))


def _turns(image):
    from PIL import Image

    return [image.transpose(t) for t in (Image.Transpose.ROTATE_90, Image.Transpose.ROTATE_180,
                                          Image.Transpose.ROTATE_270)]


def edge_profiles(card, depth: float = 25.0, strip: float = 0.5) -> list[list[float]]:
    """For each edge, the mean grey of the strips parallel to it, from the edge inwards."""
    out = []
    for im in [card] + _turns(card):
        w, data = im.width, im.tobytes()
        rows = [sum(data[y * w:(y + 1) * w]) / w for y in range(round(depth * PX_PER_MM))]
        k = round(strip * PX_PER_MM)
        out.append([sum(rows[i:i + k]) / k for i in range(0, len(rows), k)])
    return out


def profile_spread(card) -> float:
    profiles = edge_profiles(card)
    return max(max(p[i] for p in profiles) - min(p[i] for p in profiles) for i in range(len(profiles[0])))


def turned_difference(card, sigma: float = 1.5) -> tuple[float, int]:
    """(mean, 99th percentile) of |card − card turned|, the worst of the three turns, after a
    Gaussian blur of ``sigma`` mm."""
    from PIL import ImageFilter

    blurred = card.filter(ImageFilter.GaussianBlur(sigma * PX_PER_MM))
    base = blurred.tobytes()
    worst = (0.0, 0)
    for turned in _turns(blurred):
        d = sorted(abs(a - b) for a, b in zip(base, turned.tobytes()))
        worst = max(worst, (sum(d) / len(d), d[int(0.99 * len(d))]))
    return worst


@pytest.mark.slow
def test_registered_the_back_is_its_own_quarter_turn(back):
    card = cut(back, 0, 0)
    assert profile_spread(card) < 1.0
    mean, p99 = turned_difference(card, sigma=0.1)
    assert mean < 1.0 and p99 <= 3, (mean, p99)


@pytest.mark.slow
@pytest.mark.parametrize("drift", DRIFTS, ids=lambda d: f"{d[0]},{d[1]}mm")
def test_drifted_the_back_still_shows_no_turn(back, drift):
    card = cut(back, *drift)
    assert profile_spread(card) <= PROFILE_TOLERANCE, drift
    mean, p99 = turned_difference(card)
    assert mean <= MEAN_TOLERANCE and p99 <= P99_TOLERANCE, (drift, round(mean, 2), p99)


@pytest.mark.slow
def test_the_measures_see_a_frame_near_the_edge(back):
    """The same measures on a back with a frame 7 mm inside the trim (the old design): 1 mm of
    drift shows at once."""
    from PIL import ImageDraw

    framed = back.copy()
    draw = ImageDraw.Draw(framed)
    near, far = round((BLEED + 7) * PX_PER_MM), round((BLEED + 70 - 7) * PX_PER_MM) - 1
    draw.rectangle((near, near, far, far), outline=242, width=round(0.42 * PX_PER_MM))
    assert profile_spread(cut(framed, 0, 0)) < PROFILE_TOLERANCE
    card = cut(framed, 1, 0)
    assert profile_spread(card) > 10 * PROFILE_TOLERANCE
    mean, p99 = turned_difference(card)
    assert mean > MEAN_TOLERANCE and p99 > P99_TOLERANCE, (mean, p99)


if __name__ == "__main__":
    sys.stdout.write(starfield_svg())
