"""The surfaces of issue 31 for ``bench/fuzz.py``: spreadsheets, SVG, fonts, print-on-demand
profiles, export-data and diff. Each ``make_<surface>(rng, case, seeds)`` writes one input under
``case`` (a game folder, mutated from valid seeds or one of ``bench/bombs.py``'s known bombs)
and returns ``(what, commands, checks)``: the ``cardforge`` command lines to run in turn (the
next only when the one before exits 0) and extra checks on the result (export-data's round
trip and inertness).

A ``decoy`` folder beside each case holds files no input may reach; some mutations point at it
(symbolic links, ``../decoy/…`` names): ``bench/fuzz.py`` reports any access to it, and any file
opened outside the case, the cache and Python's own folders (audit hooks).
"""

from __future__ import annotations

import copy
import csv
import io
import json
import os
import random
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path
from typing import Any, Callable

import yaml

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent
if str(BENCH) not in sys.path:
    sys.path.insert(0, str(BENCH))

import bombs  # noqa: E402

SURFACES = ("sheets", "svg", "fonts", "pod", "export-data", "diff")
GAME = "jeu"
#: the base games, made once per campaign (set by bench/fuzz.py to a folder of its own)
BASES = ROOT / "output" / "fuzz-base"


# --- bytes and texts -----------------------------------------------------------------------------

INTERESTING = [b"99999999999", b"1e308", b"-1", b"0", b"\xff\xff\xff\xff", b"\x00\x00", b"\x7f\xff", b"4294967295",
               b"NaN", b"-1e308", b"1e-320", b"65535", b"\x80\x00\x00\x00", b'"', b"'", b"<", b"&", b"]]>"]


def mutate_bytes(rng: random.Random, blob: bytes, count: int = 1, start: int = 0, end: int | None = None) -> bytes:
    """``count`` byte-level damages of ``blob`` (between ``start`` and ``end``)."""
    data = bytearray(blob)
    for _ in range(count):
        hi = min(len(data), end if end is not None else len(data))
        lo = min(start, hi)
        pos = rng.randrange(lo, hi + 1) if hi > lo else lo
        op = rng.randrange(8)
        if op == 0 and pos < len(data):
            data[pos] ^= 1 << rng.randrange(8)
        elif op == 1 and pos < len(data):
            data[pos] = rng.choice([0, 0xFF, 0x7F, 0x80, rng.randrange(256)])
        elif op == 2:
            data[pos:pos] = rng.randbytes(rng.choice([1, 4, 16]))
        elif op == 3:
            del data[pos:pos + rng.choice([1, 4, 64, 1024])]
        elif op == 4:
            chunk = data[pos:pos + rng.choice([4, 64, 512])]
            data[pos:pos] = chunk * rng.choice([2, 10, 200])
        elif op == 5:
            del data[pos:]
        else:
            value = rng.choice(INTERESTING)
            data[pos:pos + len(value)] = value
    return bytes(data)


HOSTILE_TEXTS = ["=HYPERLINK(\"http://evil\",\"x\")", "+1+cmd|' /C calc'!A0", "-2+3", "@SUM(A1)", "\tx", "\rx", "'",
                 "''", "'=x", " ", "", "a\rb", 'quo"te', "a,b;c", "line\nline", "[a, b]", "{a: 1}", "[" * 300,
                 "x" * 30000, "9" * 5000, "1e999", ".inf", "-0", "null", "true", "_x000D_", "\u2028", "é♚😀",
                 ":coin:", "**gras", "{{ 7*7 }}", "\x85", "#", "- x", "a; b; c", "\\", "' '", "sep=;"]


def hostile_text(rng: random.Random) -> str:
    if rng.random() < 0.3:
        return "".join(rng.choice(HOSTILE_TEXTS[:20] + ["a", "b", " "]) for _ in range(rng.randrange(1, 5)))
    if rng.random() < 0.2:
        return bombs.yaml_alias_bomb() if rng.random() < 0.5 else bombs.brackets(rng.choice([100, 5000]))
    return rng.choice(HOSTILE_TEXTS)


# --- the base games ------------------------------------------------------------------------------

def new_game(folder: Path, deck_file: bool = False) -> Path:
    """A `cardforge new` game (made once per worker, then copied): its kind also has a list
    field (``tags``) and a number (``weight``); ``deck_file``: its deck in deck.yaml."""
    from cardforge.cli import main

    cache = BASES / ("deck-file" if deck_file else "inline") / GAME
    if not (cache / "game.yaml").exists():
        made = BASES / f"tmp-{os.getpid()}" / GAME
        shutil.rmtree(made.parent, ignore_errors=True)
        with _quiet():
            assert main(["new", str(made), "--lang", "fr"]) == 0  # the makers edit the French scaffold
        game = yaml.safe_load((made / "game.yaml").read_text(encoding="utf-8"))
        fields = {"cost": {"type": "int", "min": 0, "max": 10, "required": True}, "effect": {"type": "text"},
                  "tags": {"type": "list"}, "weight": {"type": "number"}}
        game["deck"]["kinds"]["action"]["fields"] = fields
        if deck_file:
            deck = game.pop("deck")
            deck["title"] = game["title"]
            (made / "deck.yaml").write_text(yaml.safe_dump(deck, allow_unicode=True, sort_keys=False),
                                            encoding="utf-8")
        (made / "game.yaml").write_text(yaml.safe_dump(game, allow_unicode=True, sort_keys=False), encoding="utf-8")
        cache.parent.mkdir(parents=True, exist_ok=True)
        try:  # another worker may have made it meanwhile
            os.rename(made, cache)
        except OSError:
            pass
        shutil.rmtree(made.parent, ignore_errors=True)
    shutil.copytree(cache, folder)
    return folder


class _quiet:
    def __enter__(self) -> None:
        import contextlib

        self._ctx = contextlib.ExitStack()
        self._ctx.enter_context(contextlib.redirect_stdout(io.StringIO()))
        self._ctx.enter_context(contextlib.redirect_stderr(io.StringIO()))

    def __exit__(self, *exc: Any) -> None:
        self._ctx.close()


def _set_card_files(folder: Path, names: list[str]) -> None:
    if (folder / "deck.yaml").exists():
        path = folder / "deck.yaml"
        doc = yaml.safe_load(path.read_text(encoding="utf-8"))
        doc["card_files"] = names
    else:
        path = folder / "game.yaml"
        doc = yaml.safe_load(path.read_text(encoding="utf-8"))
        doc["deck"]["card_files"] = names
    path.write_text(yaml.safe_dump(doc, allow_unicode=True, sort_keys=False), encoding="utf-8")


def _first_card_art(folder: Path, art: str) -> None:
    path = folder / "cards.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("    copies: 4\n", f"    copies: 4\n    art: {art}\n", 1),
                    encoding="utf-8")


def _family(folder: Path, family: str) -> None:
    path = folder / "templates" / "layout.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("style: {size: 11, min_size: 6",
                                                             f"style: {{family: {family}, size: 11, min_size: 6"),
                    encoding="utf-8")


def random_cards(rng: random.Random, n: int) -> list[dict]:
    cards = []
    for i in range(n):
        card: dict = {"id": f"c{i}", "kind": "action", "name": hostile_text(rng) or "x", "cost": rng.randrange(0, 11)}
        if rng.random() < 0.8:
            card["effect"] = hostile_text(rng)
        if rng.random() < 0.5:
            card["tags"] = [hostile_text(rng) or "t" for _ in range(rng.randrange(0, 4))]
        if rng.random() < 0.3:
            card["weight"] = rng.choice([0.1, 1e16 + 2, -3.5, 1.3510798882111062e16, 2 ** 60, 1e-7])
        if rng.random() < 0.2:
            card["copies"] = rng.choice([0, 1, 3, 1000])
        cards.append(card)
    return cards


def _decoy_link(rng: random.Random, folder: Path, decoy: Path, name: str) -> str:
    target = decoy / rng.choice(["secret.png", "secret.csv", "secret.ttf", "secret.svg", "secret.yaml"])
    (folder / name).parent.mkdir(parents=True, exist_ok=True)
    (folder / name).symlink_to(target)
    return f"{name} → decoy"


# --- spreadsheets ------------------------------------------------------------------------------------

def _table_rows(cards: list[dict]) -> list[list[str]]:
    headers = ["id", "kind", "name", "cost", "effect", "tags", "copies"]
    rows = [headers]
    for c in cards:
        rows.append([str(c.get(h, "")) if not isinstance(c.get(h), list) else "; ".join(map(str, c[h]))
                     for h in headers])
    return rows


def sheet_seeds(rng: random.Random) -> list[tuple[str, bytes]]:
    """Valid card files (as export-data writes them, and as Excel or LibreOffice would: ``;``,
    a BOM, CRLF, tabs), some with hostile texts."""
    from cardforge.data.spreadsheet import Table, write_csv, write_xlsx

    out = []
    tmp = Path(os.environ.get("TMPDIR", "/tmp")) / f"cf-seed-{os.getpid()}"
    tmp.mkdir(exist_ok=True)
    for n, plain in ((3, True), (30, True), (10, False)):
        cards = plain_cards(rng, n) if plain else random_cards(rng, n)
        rows = _table_rows(cards)
        table = Table("action", rows[0], rows[1:])
        write_csv(tmp / "s.csv", table)
        write_xlsx(tmp / "s.xlsx", [table])
        out += [("csv", (tmp / "s.csv").read_bytes()), ("xlsx", (tmp / "s.xlsx").read_bytes())]
        for sep, bom, eol in ((";", "\ufeff", "\r\n"), ("\t", "", "\n")):
            buf = io.StringIO(newline="")
            csv.writer(buf, delimiter=sep, lineterminator=eol).writerows(rows)
            out.append(("csv", (bom + buf.getvalue()).encode("utf-8", "surrogatepass")))
    shutil.rmtree(tmp, ignore_errors=True)
    return out


def plain_cards(rng: random.Random, n: int) -> list[dict]:
    words = ["Marchand", "Gagnez 2 :coin:.", "Piochez une carte.", "**Une fois** par partie.", "Éclaireur", "Œuvre"]
    return [{"id": f"c{i}", "kind": "action", "name": f"{rng.choice(words)} {i}", "cost": rng.randrange(0, 11),
             "effect": rng.choice(words), "tags": rng.sample(["feu", "eau", "terre"], rng.randrange(0, 3)),
             "copies": rng.randrange(1, 4)} for i in range(n)]


SHEET_BOMBS: list[tuple[str, Callable[[], bytes]]] = [
    ("xlsx", bombs.xlsx_row_number), ("xlsx", lambda: bombs.xlsx_many_rows(20000)),
    ("xlsx", lambda: bombs.xlsx_big_part(21)), ("xlsx", bombs.xlsx_lying_size), ("xlsx", bombs.xlsx_malformed),
    ("xlsx", bombs.xlsx_entities), ("xlsx", bombs.xlsx_wide), ("xlsx", lambda: bombs.xlsx_many_shared_strings(300000)),
    ("csv", bombs.csv_big_field), ("csv", bombs.csv_long_line), ("csv", lambda: bombs.csv_many_rows(20000)),
    ("csv", lambda: bombs.csv_flow_cell(bombs.yaml_alias_bomb())),
    ("csv", lambda: bombs.csv_flow_cell(bombs.brackets())),
]


def _mutate_csv(rng: random.Random, blob: bytes) -> bytes:
    op = rng.randrange(6)
    if op == 0:
        return mutate_bytes(rng, blob, rng.choice([1, 3, 10]))
    try:
        text = blob.decode("utf-8-sig")
        sep = ";" if text.count(";") > text.count(",") else ","
        rows = list(csv.reader(io.StringIO(text, newline=""), delimiter=sep))
    except (UnicodeDecodeError, csv.Error):
        return mutate_bytes(rng, blob)
    if not rows:
        return blob
    size = len(blob)
    if op == 1:  # hostile cells
        for _ in range(rng.randrange(1, 4)):
            r = rng.randrange(len(rows))
            if rows[r]:
                rows[r][rng.randrange(len(rows[r]))] = hostile_text(rng)
    elif op == 2:  # rows ×N (within what the fuzzer itself can write: ~25 MB)
        row = rng.choice(rows)
        n = min(rng.choice([2, 50, 12000]), 25_000_000 // (sum(len(c) + 1 for c in row) + 1))
        rows += [row] * n
    elif op == 3:  # columns
        k = min(rng.choice([1, 5, 1200]), 25_000_000 // (2 * len(rows) + size + 1))
        for r in rows:
            r += [rng.choice(["", "x", "=1"])] * k
    elif op == 4:  # a header changed
        rows[0][rng.randrange(len(rows[0]))] = rng.choice(["qty", "id", "tags.x", "", "cost.red", hostile_text(rng)])
    buf = io.StringIO(newline="")
    sep = rng.choice([",", ";", "\t"])
    csv.writer(buf, delimiter=sep, lineterminator=rng.choice(["\n", "\r\n", "\r"])).writerows(rows)
    head = rng.choice(["", "", "\ufeff", f"sep={sep}\n"])
    return (head + buf.getvalue()).encode("utf-8", "surrogatepass")


def _mutate_xlsx(rng: random.Random, blob: bytes) -> bytes:
    op = rng.randrange(5)
    if op == 0:
        return mutate_bytes(rng, blob, rng.choice([1, 3]))
    try:
        parts = {}
        with zipfile.ZipFile(io.BytesIO(blob)) as z:
            for info in z.infolist():
                parts[info.filename] = z.read(info.filename)
    except Exception:
        return mutate_bytes(rng, blob)
    names = sorted(parts)
    name = rng.choice([n for n in names if n.endswith(".xml")] or names)
    data = parts[name]
    if op == 1:
        data = mutate_bytes(rng, data, rng.choice([1, 2, 5]))
    elif op == 2:  # XML-level: a row far away, a wide cell, a DTD, a shared index out of range
        n = rng.choice([5, 10 ** 6, 10 ** 11])
        snippet = rng.choice([
            b'<row r="%d"><c r="A%d" t="inlineStr"><is><t>x</t></is></c></row>' % (n, n),
            b'<row><c r="XFD1"><v>1</v></c></row>', b'<row r="3"><c t="s"><v>999999</v></c></row>',
            b'<row r="3"><c t="e"><v>#N/A</v></c><c t="d"><v>not a date</v></c><c t="b"><v>7</v></c></row>',
            b'<row r="4"><c s="999"><v>45000</v></c><c><v>1e999</v></c><c><v>' + b"9" * 5000 + b"</v></c></row>"])
        if b"</sheetData>" in data:
            data = data.replace(b"</sheetData>", snippet + b"</sheetData>", 1)
        elif rng.random() < 0.5:
            data = b'<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "aaaa">]>' + data.split(b"?>", 1)[-1]
    elif op == 3:  # a part removed or renamed
        del parts[name]
        if rng.random() < 0.5:
            parts[name + "x"] = data
        data = None
    else:  # every string cell replaced by a hostile text
        for _ in range(rng.randrange(1, 4)):
            text = hostile_text(rng).replace("&", "&amp;").replace("<", "&lt;").encode("utf-8", "surrogatepass")
            data = data.replace(b"<t>", b"<t>" + text, 1) if b"<t>" in data else data
    if data is not None:
        parts[name] = data
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        for n, d in parts.items():
            z.writestr(n, d)
    return out.getvalue()


def make_sheets(rng: random.Random, case: Path, seeds: dict, decoy: Path) -> tuple[str, list[list[str]], list]:
    folder = new_game(case / GAME)
    if "sheets" not in seeds:
        seeds["sheets"] = sheet_seeds(random.Random(1))
    if rng.random() < 0.05:
        kind, maker = rng.choice(SHEET_BOMBS)
        blob, what = maker(), "known bomb"
    else:
        kind, blob = rng.choice(seeds["sheets"])
        for _ in range(rng.choice([1, 1, 2, 3])):
            blob = _mutate_csv(rng, blob) if kind == "csv" else _mutate_xlsx(rng, blob)
        what = "mutated"
    name = f"cards.{kind}"
    if rng.random() < 0.02:
        what = _decoy_link(rng, folder, decoy, name)
    else:
        (folder / name).write_bytes(blob)
    _set_card_files(folder, [name])
    commands = [["check", str(folder)]]
    if rng.random() < 0.15:
        commands.append(["build", str(folder), "--only", "decks", "-o", str(case / "out")])
    return f"{name} {what}", commands, []


# --- SVG --------------------------------------------------------------------------------------------

SVG_SEEDS = [
    bombs.svg('<defs><linearGradient id="g"><stop offset="0" stop-color="#f00"/><stop offset="1" stop-color="#00f"/>'
              '</linearGradient></defs><rect x="5" y="5" width="90" height="70" rx="8" fill="url(#g)" stroke="#000"/>'
              '<circle cx="50" cy="40" r="20" fill="#fff" opacity="0.5"/><path d="M10 70 L50 10 L90 70 Z" fill="none" '
              'stroke="#333" stroke-width="2"/><text x="50" y="75" font-family="Arial" font-size="8">Carte</text>'),
    bombs.svg('<style>.a{fill:#c33}.b rect{stroke:#000}g > circle{fill:#3c3}</style><g class="b"><rect class="a" '
              'width="40" height="40"/><circle cx="70" cy="20" r="10"/></g><g transform="rotate(20 50 50) scale(0.5)">'
              '<ellipse cx="50" cy="50" rx="30" ry="10"/><polyline points="0,0 10,20 30,5"/></g>'),
    bombs.svg('<defs><symbol id="s"><rect width="10" height="10"/></symbol><clipPath id="c"><circle cx="50" cy="40" '
              'r="30"/></clipPath></defs><g clip-path="url(#c)"><use xlink:href="#s" x="10"/><use href="#s" x="30" '
              'y="20"/><use xlink:href="#s" x="50"/></g>'),
    bombs.svg_with_data_png(),
    bombs.svg_with_file_image("red.png"),
]
SVG_BOMBS = [lambda: bombs.svg_use_fanout(6, 8), lambda: bombs.svg_css_backtracking(30, 10),
             lambda: bombs.svg_many_elements(200000, "<g/>"), lambda: bombs.svg_numbers("1e308"),
             lambda: bombs.svg_size("1e-320", "1"),
             lambda: bombs.svg_with_data_png(bombs.png_header_only(13000, 13000)),
             lambda: bombs.svg_viewbox("0 0 0 0")]
HOSTILE_NUMBERS = ["1e308", "-1e308", "nan", "inf", "1e-320", "99999999999", "", "0", "-5", "1e20", "3e38", "%", "1px",
                   "1e-300", "-1e-45", "1e9", "Infinity", "+.5e-310"]  # tiny: scaled past a PDF (issue 38)
HOSTILE_HREFS = ["../../decoy/secret.png", "/etc/passwd", "pipe.png", "red.png", "http://example.com/x.png",
                 "file:///etc/passwd", "data:image/png;base64,AAAA", "data:image/svg+xml;base64,PHN2Zy8+",
                 "missing.png",
                 "link.png", "#nothing", "big.png", ""]


def _mutate_svg(rng: random.Random, blob: bytes) -> bytes:
    from lxml import etree

    if rng.random() < 0.2:
        return mutate_bytes(rng, blob, rng.choice([1, 3]))
    try:
        root = etree.fromstring(blob, etree.XMLParser(resolve_entities=False, no_network=True))
    except etree.XMLSyntaxError:
        return mutate_bytes(rng, blob)
    for _ in range(rng.randrange(1, 4)):
        elements = [e for e in root.iter() if isinstance(e.tag, str)]
        el = rng.choice(elements)
        op = rng.randrange(8)
        if op == 0 and el is not root:  # duplicated (the tree kept under ~300,000 elements)
            parent = el.getparent()
            weight = sum(1 for _ in el.iter())
            for _ in range(min(rng.choice([1, 10, 300]), 300_000 // (weight * len(elements)) + 1)):
                parent.append(copy.deepcopy(el))
        elif op == 1:  # nested deep
            parent, inner = el, el
            for _ in range(rng.choice([5, 50, 300])):
                inner = etree.SubElement(inner, "{http://www.w3.org/2000/svg}g")
            inner.append(etree.fromstring('<rect xmlns="http://www.w3.org/2000/svg" width="1" height="1"/>'))
        elif op == 2:  # a number attribute made hostile
            attr = rng.choice(["x", "y", "width", "height", "r", "cx", "stroke-width", "font-size", "transform",
                               "viewBox", "d", "points", "opacity", "offset"])
            value = rng.choice(HOSTILE_NUMBERS)
            if attr == "transform":
                value = f"scale({value}) rotate({rng.choice(HOSTILE_NUMBERS)})"
            elif attr == "d":
                value = f"M0 0 L{value} {value} C 1 1 {value} 2 3 3 Z"
            elif attr == "viewBox":
                value = " ".join(rng.choice(HOSTILE_NUMBERS) or "0" for _ in range(4))
                if el is root and rng.random() < 0.5:  # sized by its viewBox alone (issue 38)
                    el.attrib.pop("width", None)
                    el.attrib.pop("height", None)
            el.set(attr, value)
        elif op == 3:  # a <use> of a random element (an ancestor: a cycle)
            target = rng.choice(elements)
            ident = target.get("id") or f"id{rng.randrange(10 ** 6)}"
            target.set("id", ident)
            use = etree.SubElement(el, "{http://www.w3.org/2000/svg}use")
            use.set("{http://www.w3.org/1999/xlink}href", "#" + ident if rng.random() < 0.9 else f"other.svg#{ident}")
        elif op == 4:  # a style sheet
            parts = [rng.choice(["g", "rect", "*", ".a", "#x", "svg", "circle", ":not(g)", "[fill]", "g:first-child"])
                     for _ in range(rng.choice([1, 3, 12]))]
            sep = rng.choice([" ", " > ", " ~ ", " + ", ""])
            style = etree.SubElement(root, "{http://www.w3.org/2000/svg}style")
            style.text = sep.join(parts) + " {fill: red; stroke-width: " + rng.choice(HOSTILE_NUMBERS) + "}" + \
                rng.choice(["", "@import url(/etc/passwd);", "a{", "}}}", "@font-face{src:url(../decoy/x.ttf)}"])
        elif op == 5:  # an image
            img = etree.SubElement(el if rng.random() < 0.5 else root, "{http://www.w3.org/2000/svg}image")
            img.set("width", "20")
            img.set("height", "20")
            href = rng.choice(HOSTILE_HREFS)
            img.set("href" if rng.random() < 0.5 else "{http://www.w3.org/1999/xlink}href", href)
        elif op == 6 and el is not root:
            el.getparent().remove(el)
        else:  # text and fonts
            text = etree.SubElement(el, "{http://www.w3.org/2000/svg}text")
            text.text = rng.choice(["é♚😀", "x" * 10000, "\u202e", ""])
            text.set("font-family", rng.choice(["../decoy/secret", "Arial", "DejaVu Sans", "x" * 500]))
    return etree.tostring(root)


def make_svg(rng: random.Random, case: Path, seeds: dict, decoy: Path) -> tuple[str, list[list[str]], list]:
    folder = new_game(case / GAME)
    art = folder / "art"
    art.mkdir()
    (art / "red.png").write_bytes(bombs.png_bytes())
    (art / "big.png").write_bytes(bombs.png_header_only(12000, 12000))
    if hasattr(os, "mkfifo"):
        os.mkfifo(art / "pipe.png")
    (art / "link.png").symlink_to(decoy / "secret.png")
    if rng.random() < 0.05:
        blob, what = rng.choice(SVG_BOMBS)(), "known bomb"
    else:
        blob = rng.choice(SVG_SEEDS)
        for _ in range(rng.choice([1, 1, 2])):
            blob = _mutate_svg(rng, blob)
        what = "mutated"
    (art / "x.svg").write_bytes(blob)
    where = "art"
    if rng.random() < 0.3:  # as an icon (:x: in the card text)
        (folder / "icons").mkdir(exist_ok=True)  # the scaffold may already have one
        os.replace(art / "x.svg", folder / "icons" / "motif.svg")
        cards = folder / "cards.yaml"
        cards.write_text(cards.read_text(encoding="utf-8").replace("Piochez une carte.", "Piochez :motif:."),
                         encoding="utf-8")
        where = "icon"
    else:
        _first_card_art(folder, "art/x.svg")
    commands = [["check", str(folder)]]
    if rng.random() < 0.3:
        commands.append(["build", str(folder), "--only", "decks", "-o", str(case / "out")])
    return f"{where} {what}", commands, []


# --- fonts ------------------------------------------------------------------------------------------

def font_seeds() -> list[tuple[str, bytes]]:
    return [("ttf", (ROOT / "cardforge" / "fonts" / "DejaVuSans.ttf").read_bytes()),
            ("ttf", (ROOT / "cardforge" / "fonts" / "DejaVuSansCondensed-Bold.ttf").read_bytes()),
            ("ttf", bombs.font_cmap_all_codes(0x20, 0x7E)),
            ("otf", bombs.font_cff())]


FONT_BOMBS = [("ttf", bombs.font_cmap_all_codes), ("ttf", lambda: bombs.font_cmap4_segments(8000)),
              ("otf", lambda: bombs.font_cff(9, 30)), ("ttf", lambda: bombs.font_cmap_all_codes(0, 0x10FFFF))]


def _tables(blob: bytes) -> list[tuple[bytes, int, int]]:
    import struct

    try:
        count = struct.unpack_from(">H", blob, 4)[0]
        return [struct.unpack_from(">4sxxxxII", blob, 12 + 16 * i) for i in range(min(count, 64))]
    except struct.error:
        return []


def make_fonts(rng: random.Random, case: Path, seeds: dict, decoy: Path) -> tuple[str, list[list[str]], list]:
    folder = new_game(case / GAME)
    if "fonts" not in seeds:
        seeds["fonts"] = font_seeds()
    (folder / "fonts").mkdir()
    if rng.random() < 0.05:
        kind, maker = rng.choice(FONT_BOMBS)
        blob, what = maker(), "known bomb"
    else:
        kind, blob = rng.choice(seeds["fonts"])
        tables = _tables(blob)
        op = rng.randrange(5)
        if op == 4:
            what = "undamaged"
        elif op == 0 or not tables:
            blob, what = mutate_bytes(rng, blob, rng.choice([1, 5, 20])), "damaged anywhere"
        elif op == 1:  # inside one table (cmap, hmtx, loca, glyf, CFF…)
            tag, offset, length = rng.choice(tables)
            blob = mutate_bytes(rng, blob, rng.choice([1, 3, 10]), offset, offset + length)
            what = f"damaged in {tag.decode('latin-1')}"
        elif op == 2:  # the table directory
            blob, what = mutate_bytes(rng, blob, rng.choice([1, 2]), 0, 12 + 16 * len(tables)), "damaged directory"
        else:
            blob, what = blob[:rng.randrange(len(blob))], "truncated"
    name = f"fonts/Bomb-Regular.{kind}"
    if rng.random() < 0.02:
        what = _decoy_link(rng, folder, decoy, name)
    else:
        (folder / name).write_bytes(blob)
    _family(folder, "Bomb")
    commands = [["check", str(folder)]]
    if rng.random() < 0.3:
        commands.append(["build", str(folder), "--only", "decks", "-o", str(case / "out")])
    return f"{kind} {what}", commands, []


# --- print-on-demand profiles ---------------------------------------------------------------------------

POD_VALUES = ["6300mm", "1e308mm", "-3mm", ".inf", "0mm", "1000mm", "0.0001mm", "2in", "99999999999", 10 ** 12, -1,
              0, 1e308, "3mm", "63mm", "88mm", None, [], {}, "x" * 300]


def make_pod(rng: random.Random, case: Path, seeds: dict, decoy: Path) -> tuple[str, list[list[str]], list]:
    from fuzz import mutate_text, mutate_value  # the score-file mutators

    folder = new_game(case / GAME)
    cards = folder / "cards.yaml"  # one card, one copy: the export draws little
    text = cards.read_text(encoding="utf-8")
    cards.write_text(text[:text.index("  - id: eclaireur")].replace("copies: 4", "copies: 1"), encoding="utf-8")
    if "pod" not in seeds:
        seeds["pod"] = [yaml.safe_load(p.read_text(encoding="utf-8"))
                        for p in sorted((ROOT / "cardforge" / "pod_profiles").glob("*.yaml"))]
    profile = copy.deepcopy(rng.choice(seeds["pod"]))
    op = rng.randrange(6)
    if op >= 4:  # a valid variant: drawn and written (png) or paged (pdf)
        profile.update({"trim": {"width": "63mm", "height": "88mm"}, "bleed": rng.choice(["3mm", "0mm", "0.125in"]),
                        "dpi": rng.choice([72, 150, 300]), "format": rng.choice(["png", "pdf"]),
                        "order": rng.choice(["front-back", "back-front"]), "copies": rng.choice(["once", "pages"])})
        profile.pop("pixels", None)
        what = f"valid {profile['format']} at {profile['dpi']} dpi"
    elif op == 0:  # a size, bleed, dpi or pixel count made hostile
        key = rng.choice(["trim.width", "trim.height", "bleed", "safe", "dpi", "pixels.width", "pixels.height"])
        head, _, tail = key.partition(".")
        value = rng.choice(POD_VALUES)
        if tail:
            profile.setdefault(head, {})
            if isinstance(profile[head], dict):
                profile[head][tail] = value
        else:
            profile[head] = value
        what = f"{key} = {str(value)[:30]}"
    elif op == 1 and "pixels" in profile:
        profile["pixels"] = {"width": rng.choice([100, 99999999999, 822, 1]), "height": rng.choice([700, 1122, 0])}
        what = "pixels"
    else:
        profile = mutate_value(rng, profile, rng.choice([1, 2]))
        what = "mutated"
    try:
        body: str | bytes = yaml.safe_dump(profile, allow_unicode=True, sort_keys=False)
    except Exception:
        body = "name: x\n"
    if rng.random() < 0.2:
        body = mutate_text(rng, body if isinstance(body, str) else "name: x\n")
    path = folder / "pod_profiles" / "mine.yaml"
    path.parent.mkdir()
    if rng.random() < 0.02:
        what = _decoy_link(rng, folder, decoy, "pod_profiles/mine.yaml")
    elif isinstance(body, bytes):
        path.write_bytes(body)
    else:
        path.write_text(body, encoding="utf-8", errors="surrogatepass")
    return what, [["export", str(folder), "pod", "--profile", "mine", "-o", str(case / "out")]], []


# --- export-data ----------------------------------------------------------------------------------------

def make_export_data(rng: random.Random, case: Path, seeds: dict, decoy: Path) -> tuple[str, list[list[str]], list]:
    folder = new_game(case / GAME, deck_file=True)
    n = rng.choice([1, 3, 10, 30])
    cards = random_cards(rng, n) if rng.random() < 0.7 else plain_cards(rng, n)
    (folder / "cards.yaml").write_text(yaml.safe_dump({"cards": cards}, allow_unicode=True, sort_keys=False),
                                       encoding="utf-8")
    fmt = rng.choice(["csv", "xlsx"])
    what = f"{len(cards)} cards as {fmt}"
    if rng.random() < 0.02:
        what += "; " + _decoy_link(rng, folder, decoy, "notes/secret.txt")
    out = case / "out"
    return (what, [["export-data", str(folder), "--format", fmt, "-o", str(out)]],
            [("roundtrip", folder, out / GAME, fmt)])


def check_export(folder: Path, exported: Path, fmt: str) -> str | None:
    """None when the export loads back to the same cards and is inert; else what is wrong."""
    from cardforge.data.loading import check_game_data
    from cardforge.data.spreadsheet import FORMULA_TRIGGERS
    from cardforge.games import find_game

    def cards(where: Path) -> list[dict] | None:
        data, problems = check_game_data(find_game(where))
        if data is None or any(not p.is_warning for p in problems):
            return None
        return [c.model_dump() for c in data.cards]

    before = cards(folder)
    if before is None:
        return None  # the YAML itself is not a valid deck: nothing to compare
    if not exported.is_dir():
        return "no export written for a valid deck"
    after = cards(exported)
    if after != before:
        return "round trip: the exported cards differ"
    for path in exported.glob(f"*.{fmt}"):
        if fmt == "xlsx":
            with zipfile.ZipFile(path) as z:
                for name in z.namelist():
                    if name.startswith("xl/worksheets/") and (b"<f>" in z.read(name) or b"<f " in z.read(name)):
                        return f"not inert: a formula in {path.name}"
        else:
            for row in csv.reader(io.StringIO(path.read_text(encoding="utf-8"), newline="")):
                for cell in row:
                    if cell[:1] in FORMULA_TRIGGERS and not _number(cell):
                        return f"not inert: a CSV cell starts with {cell[:1]!r} in {path.name}"
    return None


def _number(text: str) -> bool:
    try:
        float(text)
        return True
    except ValueError:
        return False


# --- diff ---------------------------------------------------------------------------------------------------

def make_diff(rng: random.Random, case: Path, seeds: dict, decoy: Path) -> tuple[str, list[list[str]], list]:
    from mutations import make_file, mutate_value

    folder = new_game(case / GAME, deck_file=True)
    base = yaml.safe_load((folder / "cards.yaml").read_text(encoding="utf-8"))
    other = case / "before" / GAME
    shutil.copytree(folder, other)
    op = rng.randrange(5)
    if op <= 1:  # the earlier version's cards mutated (values, structure, text damage)
        (other / "cards.yaml").write_text(str(make_file(rng, base)) if op == 0 else
                                          yaml.safe_dump(mutate_value(rng, base, 2), allow_unicode=True),
                                          encoding="utf-8", errors="surrogatepass")
        source, what = str(other), "folder mutated"
    elif op == 2:  # a build record (cards.json) mutated
        with _quiet():
            from cardforge.cli import main

            main(["build", str(folder), "--only", "decks", "-o", str(case / "rec")])
        record = case / "rec" / GAME / "cards.json"
        if record.exists():
            value = json.loads(record.read_text(encoding="utf-8"))
            value = mutate_value(rng, value, rng.choice([1, 2, 3]))
            try:
                record.write_text(json.dumps(value, allow_nan=True), encoding="utf-8")
            except (TypeError, ValueError):
                pass
        source, what = str(record), "cards.json mutated"
    elif op == 3:  # a sheet as the earlier version
        cards = random_cards(rng, 5)
        (other / "cards.yaml").write_text(yaml.safe_dump({"cards": cards}, allow_unicode=True), encoding="utf-8")
        source, what = str(other), "hostile texts"
    else:  # a git revision
        repo = case / "repo"
        shutil.copytree(folder, repo / GAME)
        env = {**os.environ, "GIT_AUTHOR_NAME": "f", "GIT_AUTHOR_EMAIL": "f@x", "GIT_COMMITTER_NAME": "f",
               "GIT_COMMITTER_EMAIL": "f@x", "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1"}
        git = ["git", "-C", str(repo)]
        subprocess.run(git + ["init", "-q"], check=True, env=env)
        if rng.random() < 0.3:
            (repo / GAME / "cards.yaml").unlink()
            (repo / GAME / "cards.yaml").symlink_to(decoy / "secret.yaml")
        subprocess.run(git + ["add", "-A"], check=True, env=env)
        subprocess.run(git + ["commit", "-qm", "v1"], check=True, env=env)
        (repo / GAME / "cards.yaml").unlink()
        (repo / GAME / "cards.yaml").write_text((folder / "cards.yaml").read_text(encoding="utf-8"), encoding="utf-8")
        folder = repo / GAME
        source = rng.choice(["HEAD", "HEAD~5", "x" * 100000, "--output=" + str(decoy / "w"), "HEAD:../..", "-",
                             "nope", "HEAD^{tree}", "@{-1}"])
        what = f"git --from {source[:20]}"
    command = ["diff", str(folder), "--from", source] + (["--json"] if rng.random() < 0.3 else [])
    return what, [command], []


MAKERS: dict[str, Callable[..., tuple[str, list[list[str]], list]]] = {
    "sheets": make_sheets, "svg": make_svg, "fonts": make_fonts, "pod": make_pod,
    "export-data": make_export_data, "diff": make_diff}


def make_decoy(folder: Path) -> Path:
    """Files no input may read or change (what a link or a ``../`` name points at)."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "secret.png").write_bytes(bombs.png_bytes(8, 8, (1, 2, 3)))
    (folder / "secret.csv").write_text("id,kind,name,cost\nsecret,action,SECRET,1\n", encoding="utf-8")
    (folder / "secret.ttf").write_bytes((ROOT / "cardforge" / "fonts" / "DejaVuSans.ttf").read_bytes()[:4096])
    (folder / "secret.svg").write_bytes(bombs.svg('<text x="1" y="9">SECRET</text>'))
    (folder / "secret.yaml").write_text("cards: [{id: secret, kind: action, name: SECRET, cost: 1}]\n",
                                        encoding="utf-8")
    return folder


def decoy_state(folder: Path) -> list[tuple[str, int, int]]:
    return sorted((p.name, p.stat().st_size, p.stat().st_mtime_ns) for p in folder.iterdir())

