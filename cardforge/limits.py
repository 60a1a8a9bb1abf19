"""Limits on what an input file may ask of cardforge.

Nothing a real game needs comes near these numbers; they stop a broken or hostile file (an
alias bomb, ``copies: 1000000000``, a template looping a billion times) from taking the
machine's memory or an hour before failing. Each one is refused with a message naming the
file, item and field, the limit and how to raise it.

Every limit can be raised (or lowered) for one run with an environment variable
``CARDFORGE_LIMIT_<NAME>`` (e.g. ``CARDFORGE_LIMIT_CARDS_PER_DECK=20000``); DEVELOPING.md
("Limits") lists them. The YAML nesting depth cannot go above :data:`HARD_MAX_DEPTH`: deeper
structures would exhaust Python's stack.
"""

from __future__ import annotations

import os

#: name → (default, what it bounds). Keep DEVELOPING.md's table in step.
LIMITS: dict[str, tuple[int, str]] = {
    "file_bytes": (8_000_000, "bytes in one YAML/JSON input file (or stdin)"),
    "game_file_bytes": (128_000_000, "bytes in one other file of a game folder (spreadsheet, image, font…)"),
    "yaml_depth": (64, "nesting depth of lists and mappings in one file (aliases included)"),
    "yaml_nodes": (200_000, "values in one file once its aliases and merge keys are expanded"),
    "int_digits": (4_000, "digits of one whole number in a file"),
    "copies": (1_000, "copies of one card, board or aid"),
    "cards_per_deck": (10_000, "printed cards in one game (copies counted)"),
    "pages_per_build": (2_000, "pages in one PDF file"),
    "players": (100, "players in a score or setup file"),
    "rounds": (1_000, "rounds in a score file"),
    "inline_cards": (1_000, "cards listed in a score or setup file"),
    "text_chars": (20_000, "characters in one text field"),
    "template_output_chars": (10_000, "characters one template renders"),
    "template_loop_items": (10_000, "items of one template loop or range()"),
    "template_ops": (100_000, "loop iterations in one template rendering, all loops together"),
    "template_build_ops": (2_000_000, "loop iterations of all the templates of one build together"),
    "template_depth": (20, "nested macro calls and includes in one template rendering"),
    "image_pixels": (50_000_000, "pixels in one image (width × height): art, icons, an SVG's embedded images"),
    "image_bytes": (100_000_000, "bytes in one PNG or JPEG file (art, icons, an SVG's embedded images)"),
    # spreadsheets (data/spreadsheet.py)
    "sheet_file_bytes": (20_000_000, "bytes in one .csv or .xlsx card file"),
    "xlsx_inflated_bytes": (50_000_000, "bytes of one .xlsx workbook once unzipped (all its parts together)"),
    "xlsx_part_bytes": (20_000_000, "bytes of one part of an .xlsx workbook once unzipped (a sheet, its texts…)"),
    "sheet_rows": (1_048_576, "the row number of a row in a sheet (rows with content are also cards)"),
    "sheet_columns": (1_000, "columns in one sheet or CSV file"),
    "sheet_cells": (1_000_000, "cells with content in one .csv or .xlsx card file (~120 bytes of memory each)"),
    "csv_line_chars": (1_000_000, "characters in one line of a CSV file"),
    "sheet_cell_chars": (100_000, "characters in one spreadsheet cell (its texts each within text_chars)"),
    # SVG (render/drawing/images.py)
    "svg_bytes": (10_000_000, "bytes in one SVG file"),
    "svg_elements": (10_000, "elements of one SVG, each <use> counted as the elements it copies, one more per "
                             "16 levels of nesting past 4 (svglib takes ~0.5 ms an element)"),
    "svg_text_chars": (50_000, "characters of text in one SVG"),
    "svg_css_work": (2_000_000, "steps one SVG's CSS selectors may take to match its elements (estimated)"),
    # fonts (render/fonts.py, render/otf.py)
    "font_bytes": (50_000_000, "bytes in one font file"),
    "font_cmap_codes": (300_000, "character codes mapped by a font's cmap (a full Unicode font maps ~100,000)"),
    "font_cff_ops": (4_000_000, "charstring operations run to convert one CFF font's outlines"),
    "font_glyph_ops": (100_000, "charstring operations run to convert one glyph of a CFF font"),
    # sizes on paper and in pixels
    "length_mm": (2_000, "millimetres in any length of a data, layout or profile file (points alike)"),
    "bleed_mm": (10, "millimetres of bleed in a print-on-demand profile"),
    "export_pixels": (40_000_000, "pixels in one exported image (width × height)"),
    # declared scoring (data/gamespec.py, games/declared.py) and multilingual texts (data/loading.py)
    "rule_nodes": (1_000, "values in one category's score: rule once its aliases are expanded (keys not counted)"),
    "score_work": (200_000, "card looks of the declared score rules for one final state (each rule reading "
                              "cards × the entries of the card fields it reads × (1 + its filter's values))"),
    "languages": (50, "languages of one game's card texts (its own language included)"),
}

HARD_MAX_DEPTH = 200


def limit(name: str) -> int:
    """The limit ``name`` in force: its ``CARDFORGE_LIMIT_<NAME>`` override, else the default."""
    default = LIMITS[name][0]
    raw = os.environ.get(env_name(name))
    if raw:
        try:
            value = int(raw.strip().replace("_", ""))
        except ValueError:
            return default
        if value > 0:
            if name == "yaml_depth":
                return min(value, HARD_MAX_DEPTH)
            return value
    return default


def env_name(name: str) -> str:
    return f"CARDFORGE_LIMIT_{name.upper()}"


def over(name: str, got: int | None = None, what: str | None = None) -> str:
    """The message for a value past the limit ``name``: what, the limit, how to raise it."""
    n = limit(name)
    head = what or LIMITS[name][1]
    got_text = f" (got {got:,})" if got is not None and got < 10 ** 30 else (" (got more)" if got else "")
    return (f"too many {head}: at most {n:,}{got_text}; set {env_name(name)} to allow more"
            if name != "yaml_depth" else
            f"nested too deep: at most {n} levels of lists and mappings{got_text}")


def at_most(name: str, unit: str = "") -> str:
    """``at most 20,000 characters (set CARDFORGE_LIMIT_TEXT_CHARS to allow more)``: the tail of
    a message for a value past the limit ``name`` (``unit`` with its leading space)."""
    return f"at most {limit(name):,}{unit} (set {env_name(name)} to allow more)"
