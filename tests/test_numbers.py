"""Any number, anywhere a designer writes one, ends in success or a located bad-input error
(issue 38): never an internal error (ReportLab's ``_fp_one failed in _fp_str`` for 1e308 or
inf, a SchemaError, ``cannot convert float NaN to integer``), never a PDF holding ``nan``.

Each surface is a field of a `cardforge new` game: SVG attributes (an icon, card art), layout
boxes and styles, game.yaml's card size and declared field bounds, cardforge.toml's build
settings and a player aid's table. A few representative messages are asserted exactly; the
property tests put any float (nan, ±inf, huge, denormal) into each field and run `check` and
`build`."""

from __future__ import annotations

import math
import re
import shutil
import tempfile
import zlib
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from conftest import run_cli

QUICK = settings(max_examples=12, deadline=None, derandomize=True,
                 suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
HEAD = ('<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="100" '
        'height="80" viewBox="0 0 100 80">')
PNG = ("data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAA"
       "AElFTkSuQmCC")
#: SVG bodies, {v} a number (written as Python writes a float: nan, inf, 1e-320, 1e+308)
SVG_BODIES = {
    "rect x": '<rect x="{v}" y="0" width="10" height="10"/>',
    "circle r": '<circle cx="5" cy="5" r="{v}"/>',
    "path": '<path d="M0 0 C1 {v} 3 4 5 6 Z"/>',
    "arc": '<path d="M0 0 A{v} 5 0 0 1 10 10"/>',
    "stroke-width in style": '<rect width="10" height="10" style="stroke:#000;stroke-width:{v}"/>',
    "scale": '<g transform="scale({v})"><rect width="10" height="10"/></g>',
    "rotate": '<g transform="rotate({v})"><rect width="10" height="10"/></g>',
    "gradient stop": ('<defs><linearGradient id="g"><stop offset="0" stop-color="#f00"/><stop offset="{v}" '
                      'stop-color="#00f"/></linearGradient></defs><rect width="90" height="70" fill="url(#g)"/>'),
    "text size": '<text x="1" y="9" font-size="{v}">ab</text>',
    "dash": '<rect width="10" height="10" stroke="#000" stroke-dasharray="{v} 2"/>',
    "image width": '<image width="{v}" height="30" xlink:href="' + PNG + '"/>',
    "viewBox": None,  # the <svg> itself: no width or height, viewBox 0 0 {v} {v}
}
#: (file, text there, text with {v}: a YAML or TOML number) of the game's other numbers
FIELDS = {
    "layout x": ("templates/layout.yaml", "x: 3.5mm, y: 3mm", "x: {v}, y: 3mm"),
    "layout width": ("templates/layout.yaml", "width: 8mm, height: 8mm, fill", "width: {v}, height: 8mm, fill"),
    "layout stroke_width": ("templates/layout.yaml", 'fill: "#f2c230", z: 1}',
                            'fill: "#f2c230", z: 1, stroke: "#000000", stroke_width: {v}}'),
    "layout dash": ("templates/layout.yaml", 'fill: "#f2c230", z: 1}',
                    'fill: "#f2c230", z: 1, stroke: "#000000", dash: [{v}, 1]}'),
    "text size": ("templates/layout.yaml", "size: 11, min_size: 6", "size: {v}, min_size: 0.5"),
    "leading": ("templates/layout.yaml", "leading: 1.25", "leading: {v}"),
    "paragraph_gap": ("templates/layout.yaml", "leading: 1.25", "leading: 1.25, paragraph_gap: {v}"),
    "card width": ("game.yaml", "card_size: poker", "card_size: {width: {v}, height: 88mm}"),
    "field max": ("game.yaml", "min: 0, max: 10", "min: 0, max: {v}"),
    "aid widths": ("aids.yaml", "      - kind: heading\n",
                   "      - kind: table\n        rows: [[a, b]]\n        widths: [{v}, 1]\n      - kind: heading\n"),
    "toml bleed": ("cardforge.toml", '# bleed = "3mm"', "bleed = {v}"),
    "toml back_offset": ("cardforge.toml", '# back_offset = "0,0"', "back_offset = [{v}, 0]"),
}
#: the numbers every field is tried with, besides hypothesis's own
SPECIAL = [math.nan, math.inf, -math.inf, 1e308, -1e308, 1e-320, -1e-320, 5e-324, 1e20, 1e9, 0.0]
#: an error line of `check`: a file of the game (or the shipped templates' layout), then what
LOCATED = re.compile(r"^(error:|\s+-) \S+\.(yaml|svg|toml)(:\d+)?[: ]")
NUMBERS = st.one_of(st.sampled_from(SPECIAL), st.floats())


@pytest.fixture(scope="module")
def new_game(tmp_path_factory):
    folder = tmp_path_factory.mktemp("base") / "jeu"
    assert run_cli("new", folder, "--lang", "fr").code == 0
    return folder


def game_copy(new_game: Path, tmp_path: Path) -> Path:
    folder = Path(tempfile.mkdtemp(dir=tmp_path)) / "jeu"  # one per hypothesis example
    shutil.copytree(new_game, folder)
    return folder


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, (path, old)
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def yaml_number(value: float) -> str:
    """``value`` as YAML reads it back as that float (.nan, -.inf, 1.0e-320)."""
    from cardforge.data.yamlio import parse_text

    text = yaml.safe_dump(value).split("\n")[0]
    back = parse_text(f"v: {text}\n", "number.yaml").data["v"]  # a float, as cardforge reads it
    assert isinstance(back, float) and (back == value or math.isnan(back) and math.isnan(value)), (text, back)
    return text


def toml_number(value: float) -> str:
    return "nan" if math.isnan(value) else repr(value)  # inf, -inf, 1e-320, 1e+308


def svg_text(body: str | None, value: float) -> str:
    if body is None:
        return f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {value!r} {value!r}"><rect width="1" ' \
               'height="1"/></svg>'
    return HEAD + body.replace("{v}", repr(value)) + "</svg>"


def use_icon(folder: Path, svg: str) -> None:
    (folder / "icons" / "objectif.svg").write_text(svg, encoding="utf-8")


def use_art(folder: Path, svg: str) -> None:
    (folder / "art").mkdir()
    (folder / "art" / "x.svg").write_text(svg, encoding="utf-8")
    edit(folder / "cards.yaml", "    copies: 4\n", "    copies: 4\n    art: art/x.svg\n")


def assert_clean(folder: Path, only: str = "decks") -> None:
    """`check` and `build` end in success or a bad-input error (exit 1), each of check's errors
    located in a file of the game (the one holding the number, or one where a consequence shows:
    a 1 mm card leaves a layout's boxes no room, a max of 0 refuses the cards' costs); never an
    internal error or a traceback."""
    checked = run_cli("check", folder)
    built = run_cli("build", folder, "--only", only, "-o", folder.parent / "out")
    for r in (checked, built):
        assert r.code in (0, 1), r.err[-2000:]
        assert "internal error" not in r.err and "Traceback" not in r.err, r.err[-2000:]
    if checked.code:
        errors = [line for line in checked.err.splitlines() if line.startswith(("error: ", "  - "))]
        assert errors and all(LOCATED.match(e) for e in errors), checked.err[-2000:]
    if built.code:
        assert built.err.strip()
    for pdf in (folder.parent / "out").rglob("*.pdf"):  # never a PDF holding nan
        assert b" nan " not in pdf.read_bytes() and b"-nan " not in pdf.read_bytes(), pdf


# --- property tests ------------------------------------------------------------------------------

@QUICK
@given(body=st.sampled_from(sorted(SVG_BODIES)), value=NUMBERS)
@example(body="viewBox", value=1e-300)  # the issue: scaled to a box, 1.3e+302 reached _fp_str
@example(body="rect x", value=math.nan)
def test_any_number_in_an_icon_is_drawn_or_a_located_problem(new_game, tmp_path, body, value):
    folder = game_copy(new_game, tmp_path)
    use_icon(folder, svg_text(SVG_BODIES[body], value))
    assert_clean(folder, "decks,aids")


@QUICK
@given(body=st.sampled_from(sorted(SVG_BODIES)), value=NUMBERS)
def test_any_number_in_card_art_is_drawn_or_a_located_problem(new_game, tmp_path, body, value):
    folder = game_copy(new_game, tmp_path)
    use_art(folder, svg_text(SVG_BODIES[body], value))
    assert_clean(folder)


def _field_is_clean(new_game, tmp_path, field: str, value: float) -> None:
    """``value`` written into the game-file ``field``: the command ends in success or a located problem."""
    file, old, new = FIELDS[field]
    folder = game_copy(new_game, tmp_path)
    number = toml_number(value) if file.endswith(".toml") else yaml_number(value)
    edit(folder / file, old, new.replace("{v}", number))
    assert_clean(folder, "aids" if file == "aids.yaml" else "decks")


@QUICK
@given(field=st.sampled_from(sorted(FIELDS)), value=NUMBERS)
def test_any_number_in_a_game_file_is_used_or_a_located_problem(new_game, tmp_path, field, value):
    _field_is_clean(new_game, tmp_path, field, value)


@pytest.mark.slow
@pytest.mark.parametrize("value", SPECIAL, ids=repr)
@pytest.mark.parametrize("field", sorted(FIELDS))
def test_every_special_number_in_every_game_field(new_game, tmp_path, field, value):
    _field_is_clean(new_game, tmp_path, field, value)


@pytest.mark.slow
@pytest.mark.parametrize("value", SPECIAL, ids=repr)
@pytest.mark.parametrize("body", sorted(SVG_BODIES))
def test_every_special_number_in_every_svg_attribute(new_game, tmp_path, body, value):
    folder = game_copy(new_game, tmp_path)
    use_icon(folder, svg_text(SVG_BODIES[body], value))
    assert_clean(folder, "decks,aids")


# --- the messages ------------------------------------------------------------------------------

def errors_of(folder: Path) -> list[str]:
    r = run_cli("check", folder)
    assert r.code == 1 and "internal error" not in r.err, r.err[-2000:]
    return [line for line in r.err.splitlines() if line.startswith(("error: ", "  - "))]


def test_an_icon_of_nan_says_which_element_and_attribute(new_game, tmp_path):
    folder = game_copy(new_game, tmp_path)
    use_icon(folder, '<svg xmlns="http://www.w3.org/2000/svg" width="100pt" height="100pt" viewBox="0 0 100 100">\n'
                     '  <circle cx="50" cy="50" r="nan" fill="#c0392b"/>\n</svg>')
    assert errors_of(folder) == [
        f"error: {folder}/icons/objectif.svg: icon ':objectif:': the SVG cannot be used: <circle> (line 2): r: "
        "'nan' is not a number (allowed: a finite number, at most 1,000,000,000 either way)"]


def test_art_of_1e308_in_a_style_attribute(new_game, tmp_path):
    folder = game_copy(new_game, tmp_path)
    use_art(folder, HEAD + '\n<g id="cadre">\n<rect width="10" height="10" style="fill:#000; stroke-width: -1e308"/>'
                    '</g></svg>')
    assert errors_of(folder) == [
        f"error: {folder}/cards.yaml:7: card 'marchand' (#1): art: art 'art/x.svg': the SVG cannot be used: "
        "<rect> (line 3): style stroke-width: '-1e308' is too large for a PDF (allowed: a finite number, at most "
        "1,000,000,000 either way)"]


def test_an_icon_sized_1e_300_by_its_viewbox(new_game, tmp_path):
    """The issue's crash: no width or height, a viewBox of 1e-300 px (7.5e-301 pt at 0.75 pt a
    pixel); drawn at a text's size, the scale 1.3e+302 reached ReportLab's _fp_str."""
    folder = game_copy(new_game, tmp_path)
    use_icon(folder, svg_text(None, 1e-300))
    assert errors_of(folder) == [
        f"error: {folder}/icons/objectif.svg: icon ':objectif:': the SVG's size (7.5e-301 × 7.5e-301 pt) is too "
        "small to scale to a box (at least 0.01 pt each way): give the <svg> a width and height in points, "
        "pixels or mm"]


def test_a_denormal_in_art_is_drawn_as_0(new_game, tmp_path):
    """1e-320 (a denormal) is what a designer means by 0: left alone, ReportLab writes it 0."""
    folder = game_copy(new_game, tmp_path)
    use_art(folder, HEAD + '<rect x="1e-320" y="-1e-320" width="10" height="10" fill="#123456"/></svg>')
    assert run_cli("check", folder).code == 0
    r = run_cli("build", folder, "--only", "decks", "-o", tmp_path / "out")
    assert r.code == 0, r.err
    streams = b"".join(zlib.decompress(m.group(1)) for m in re.finditer(
        rb"/FlateDecode.*?stream\r?\n(.*?)endstream", (tmp_path / "out" / "jeu" / "deck.pdf").read_bytes(), re.S))
    assert b"n 0 0 10 10 re f" in streams  # the art's rect, at 0 0 (its colour: .070588 .203922 .337255)
    assert not re.search(rb"\de-\d|nan", streams)


def test_a_nan_left_in_a_drawing_is_found_by_the_trial(tmp_path):
    """The backstop behind the attribute check: ReportLab writes a NaN as ``nan`` (a PDF no
    reader opens); the trial drawing refuses it."""
    from reportlab.graphics.shapes import Drawing, Rect

    from cardforge.render.drawing.svg import SvgRefused, trial_render

    drawing = Drawing(20, 20)
    drawing.add(Rect(0, 0, math.nan, 5))
    with pytest.raises(SvgRefused) as err:
        trial_render(drawing)
    assert str(err.value) == ("it cannot be drawn (a number in it works out as not a number, NaN): an infinite or "
                              "zero scale, or a shape the SVG reader did not understand")
    fine = Drawing(20, 20)
    fine.add(Rect(0, 0, 1e-320, 5))
    trial_render(fine)  # a denormal: written as 0


@pytest.mark.parametrize("file, old, new, message", [
    ("templates/layout.yaml", "x: 3.5mm, y: 3mm", "x: .nan, y: 3mm",
     "{folder}/templates/layout.yaml:8: layout 'action': boxes.cost_disc.x: a length must be a number, got nan"),
    ("templates/layout.yaml", "x: 3.5mm, y: 3mm", "x: -.inf, y: 3mm",
     "{folder}/templates/layout.yaml:8: layout 'action': boxes.cost_disc.x: a length must be at most 2,000 mm "
     "(5,669 pt) either way, got -inf (set CARDFORGE_LIMIT_LENGTH_MM to allow more)"),
    ("templates/layout.yaml", "leading: 1.25", "leading: 1.0e+308",
     "{folder}/templates/layout.yaml:27: layout 'action': boxes.effect.style.leading: must be ≤ 10.0, got 1e+308"),
    ("game.yaml", "min: 0, max: 10", "min: 0, max: .nan",
     "{folder}/game.yaml:54: deck.kinds.action.fields.cost.max: must be a finite number between "
     "-1,000,000,000,000,000 and 1,000,000,000,000,000, got nan"),
    ("game.yaml", "min: 0, max: 10", "min: 1.0e-320, max: 10",
     "{folder}/game.yaml:54: deck.kinds.action.fields.cost: min and max of an int field must be whole "
     "numbers, got min 9.99989e-321"),
    ("aids.yaml", "      - kind: heading\n",
     "      - kind: table\n        rows: [[a, b]]\n        widths: [.inf, 1]\n      - kind: heading\n",
     "{folder}/aids.yaml:16: aid 'tour-de-jeu' (#1): front[1].widths: column widths are relative and must be > 0 "
     "and at most 1,000,000, got [inf, 1.0]"),
    ("cardforge.toml", '# back_offset = "0,0"', "back_offset = [1e20, 0]",
     "{folder}/cardforge.toml: build.back_offset: a length must be at most 2,000 mm (5,669 pt) either way, got "
     "1e+20 (set CARDFORGE_LIMIT_LENGTH_MM to allow more)"),
    ("cardforge.toml", '# back_offset = "0,0"', "back_offset = [nan, 0]",
     "{folder}/cardforge.toml: build.back_offset: a length must be a number, got nan"),
    ("aids.yaml", "        text: Fin de partie\n", "        text: Fin de partie\n        size: .nan\n",
     "{folder}/aids.yaml:16: aid 'tour-de-jeu' (#1): front[1].size: must be a number, got nan"),
    ("aids.yaml", "      - kind: heading\n", "      - kind: steps\n        items: [a]\n        start: 1.0e+308\n"
                                             "      - kind: heading\n",
     "{folder}/aids.yaml:16: aid 'tour-de-jeu' (#1): front[1].start: must be a whole number, got 1e+308 (too large)"),
], ids=["layout .nan", "layout -.inf", "leading 1e308", "field max .nan", "int field min 1e-320", "aid widths .inf",
        "toml back_offset 1e20", "toml back_offset nan", "aid size .nan", "aid steps start 1e308"])
def test_a_number_out_of_bounds_is_located(new_game, tmp_path, file, old, new, message):
    folder = game_copy(new_game, tmp_path)
    edit(folder / file, old, new)
    lines = [e.removeprefix("error: ").removeprefix("  - ") for e in errors_of(folder)]
    assert message.format(folder=folder) in lines, lines


@pytest.mark.parametrize("value", ["nan", "NaN", "-nan"])
def test_a_command_line_number_is_never_nan(value):
    """click's FloatRange lets a NaN through (it fails no comparison): `export png --bleed-size
    nan` ended in an internal error. A usage error now (exit 2)."""
    r = run_cli("export", "tunhell", "png", "--bleed-size", value)
    assert r.code == 2
    assert f"Error: Invalid value for '--bleed-size': {value} is not a number (allowed: 0 to 10)" in r.err
