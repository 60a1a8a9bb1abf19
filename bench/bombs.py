"""Hostile and broken inputs, made small: spreadsheets, SVGs, fonts and print-on-demand profiles
that once crashed cardforge, hung it or took gigabytes (issue 31). Each maker returns the file's
bytes (or text); ``tests/fuzz/corpus/surfaces.yaml`` names them, with what cardforge says now,
and ``bench/fuzz.py`` mixes them into its campaigns as seeds.

Pure standard library (plus Pillow for the rasters), so a test or the fuzzer can call any maker.
"""

from __future__ import annotations

import base64
import io
import struct
import zipfile

NS = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
_SML = "application/vnd.openxmlformats-officedocument.spreadsheetml"
_CT = ('<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/'
       'content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.'
       'relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>'
       f'<Override PartName="/xl/workbook.xml" ContentType="{_SML}.sheet.main+xml"/>'
       f'<Override PartName="/xl/worksheets/sheet1.xml" ContentType="{_SML}.worksheet+xml"/>'
       f'<Override PartName="/xl/sharedStrings.xml" ContentType="{_SML}.sharedStrings+xml"/>'
       f'<Override PartName="/xl/styles.xml" ContentType="{_SML}.styles+xml"/></Types>')
_RELS = ('<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/'
         '2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/'
         'relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>')
_REL_NS = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"


# --- spreadsheets ---------------------------------------------------------------------------------

def xlsx(sheet_xml: str | bytes, shared: str | bytes | None = None, name: str = "action",
         extra: dict[str, bytes] | None = None) -> bytes:
    """A minimal workbook: one sheet ``name`` whose ``<sheetData>`` content is ``sheet_xml``
    (or, when it starts with ``<?xml`` or ``<!``, the whole part), optional shared strings."""
    if isinstance(sheet_xml, str):
        sheet_xml = sheet_xml.encode("utf-8")
    if not sheet_xml.lstrip().startswith((b"<?xml", b"<!")):
        sheet_xml = (f'<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="{NS}"><sheetData>'.encode()
                     + sheet_xml + b"</sheetData></worksheet>")
    rels = [f'<Relationship Id="rId1" Type="{_REL_NS}/worksheet" Target="worksheets/sheet1.xml"/>']
    if shared is not None:
        rels.append(f'<Relationship Id="rId2" Type="{_REL_NS}/sharedStrings" Target="sharedStrings.xml"/>')
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("[Content_Types].xml", _CT)
        z.writestr("_rels/.rels", _RELS)
        z.writestr("xl/workbook.xml", f'<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="{NS}" '
                                      f'xmlns:r="{_REL_NS}"><sheets><sheet name="{name}" sheetId="1" r:id="rId1"/>'
                                      '</sheets></workbook>')
        z.writestr("xl/_rels/workbook.xml.rels", '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns='
                   '"http://schemas.openxmlformats.org/package/2006/relationships">' + "".join(rels)
                   + "</Relationships>")
        z.writestr("xl/worksheets/sheet1.xml", sheet_xml)
        if shared is not None:
            z.writestr("xl/sharedStrings.xml", shared if isinstance(shared, bytes) else shared.encode("utf-8"))
        for part, data in (extra or {}).items():
            z.writestr(part, data)
    return out.getvalue()


def _row(n: int, *values: str) -> str:
    cells = "".join(f'<c t="inlineStr"><is><t>{v}</t></is></c>' for v in values)
    return f'<row r="{n}">{cells}</row>'


HEADER = ("id", "name", "cost", "effect")


def xlsx_row_number(number: int = 99_999_999_999) -> bytes:
    """1.5 KB: a header, then one row numbered ``number`` (a reader padding the rows between
    asked for 2 GB and more)."""
    return xlsx(_row(1, *HEADER) + f'<row r="{number}"><c r="A{number}" t="inlineStr"><is><t>x</t></is></c></row>')


def xlsx_many_rows(rows: int = 100_000) -> bytes:
    """``rows`` small rows of cards (14 s before the card limit applied)."""
    body = [_row(1, *HEADER)] + [_row(i, f"c{i}", f"Carte {i}", "1", "x") for i in range(2, rows + 2)]
    return xlsx("".join(body))


def xlsx_wide_rows(rows: int = 1_700, columns: int = 600) -> bytes:
    """``rows`` cards of ``columns`` filled cells each, numbers in 15 bytes a cell (within the
    part limit, a workbook's sheets together held 3 million cells, ~400 MB, before the cell limit)."""
    body = [_row(1, *HEADER)] + [f'<row r="{i}">' + _row(i, f"c{i}", f"Carte {i}")[len(f'<row r="{i}">'):-6]
                                 + "<c><v>1</v></c>" * (columns - 2) + "</row>" for i in range(2, rows + 2)]
    return xlsx("".join(body))


def xlsx_big_part(megabytes: int = 25, shared: bool = True) -> bytes:
    """A part that unzips to ``megabytes`` MB (one cell's text: a 1 MB workbook held a 1 GB cell)."""
    out = io.BytesIO()
    base = xlsx(_row(1, *HEADER) + '<row r="2"><c t="s"><v>0</v></c></row>', shared="")
    with zipfile.ZipFile(io.BytesIO(base)) as src, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        for info in src.infolist():
            if info.filename == "xl/sharedStrings.xml" and shared:
                with z.open("xl/sharedStrings.xml", "w", force_zip64=True) as f:
                    f.write(f'<?xml version="1.0" encoding="UTF-8"?><sst xmlns="{NS}"><si><t>'.encode())
                    chunk = b"a" * (1 << 20)
                    for _ in range(megabytes):
                        f.write(chunk)
                    f.write(b"</t></si></sst>")
            else:
                z.writestr(info, src.read(info.filename))
    return out.getvalue()


def xlsx_lying_size() -> bytes:
    """A part whose zip directory says 200 bytes while it inflates to 10 MB."""
    blob = bytearray(xlsx(_row(1, *HEADER) + "<row r='2'>" + "<c t='inlineStr'><is><t>x</t></is></c>" * 200_000
                          + "</row>"))
    with zipfile.ZipFile(io.BytesIO(bytes(blob))) as z:
        info = z.getinfo("xl/worksheets/sheet1.xml")
        real = info.file_size
    # patch the uncompressed size in the local header and the central directory entry
    needle = struct.pack("<I", real)
    start = 0
    while True:
        at = blob.find(needle, start)
        if at < 0:
            break
        blob[at:at + 4] = struct.pack("<I", 200)
        start = at + 4
    return bytes(blob)


def xlsx_many_shared_strings(count: int = 1_000_000) -> bytes:
    """``count`` tiny shared texts (17 MB unzipped; openpyxl took 13 s to read them)."""
    sst = (f'<?xml version="1.0" encoding="UTF-8"?><sst xmlns="{NS}">' + "<si><t>a</t></si>" * count + "</sst>")
    return xlsx(_row(1, *HEADER), shared=sst)


def xlsx_malformed() -> bytes:
    """The sheet's XML cut short (was "internal error: ParseError")."""
    return xlsx(f'<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="{NS}"><sheetData><row r="1"><c')


def xlsx_entities() -> bytes:
    """A DTD with a billion-laughs entity in the sheet."""
    ents = '<!ENTITY a "aaaaaaaaaa">' + "".join(
        f'<!ENTITY {chr(98 + i)} "{("&" + chr(97 + i) + ";") * 10}">' for i in range(8))
    return xlsx(f'<?xml version="1.0"?><!DOCTYPE worksheet [{ents}]><worksheet xmlns="{NS}"><sheetData>'
                f'<row r="1"><c t="inlineStr"><is><t>&i;</t></is></c></row></sheetData></worksheet>')


def xlsx_wide(column: str = "ZZZ") -> bytes:
    """A value in column ``column`` (a padding reader made every row 18,278 cells wide)."""
    return xlsx(_row(1, *HEADER) + f'<row r="2"><c r="{column}2" t="inlineStr"><is><t>x</t></is></c></row>')


def csv_text(rows: list[list[str]], sep: str = ",") -> str:
    return "".join(sep.join(r) + "\n" for r in rows)


def csv_big_field(chars: int = 140_000) -> bytes:
    """A field over Python's csv limit of 131,072 characters (was an internal error)."""
    return ("id,kind,name,cost,effect\na,action,A,1," + "x" * chars + "\n").encode()


def csv_long_line(chars: int = 3_000_000) -> bytes:
    """A header line of ``chars`` commas."""
    return ("id,kind,name" + "," * chars + "\n").encode()


def csv_big_file(megabytes: int = 25) -> bytes:
    line = "c{0},action,Carte,1,x\n"
    rows = ["id,kind,name,cost,effect\n"] + [line.format(i) for i in range(megabytes * 1_000_000 // 24)]
    return "".join(rows).encode()


def csv_many_rows(rows: int = 100_000) -> bytes:
    return ("id,kind,name,cost,effect\n" + "".join(f"c{i},action,Carte {i},1,x\n" for i in range(rows))).encode()


def csv_wide_rows(rows: int = 12_000, columns: int = 490) -> bytes:
    """``rows`` cards of ``columns`` filled cells each (an 18 MB file: 6 million cells took 700 MB
    before the card limit applied; found by the campaign)."""
    return ("id,kind,name,cost,effect\n" + "".join(f"c{i},action,Carte {i},1" + ",=1" * (columns - 3) + "\n"
                                                   for i in range(rows))).encode()


def csv_flow_cell(text: str) -> bytes:
    """A card whose ``effect`` cell is ``text`` (cells starting with ``[`` or ``{`` are read as YAML)."""
    quoted = '"' + text.replace('"', '""') + '"'
    return f"id,kind,name,cost,tags\na,action,A,1,{quoted}\n".encode()


def yaml_alias_bomb() -> str:
    """414 bytes of YAML aliases (a flow cell: no answer after 40 s through a plain safe_load)."""
    parts = ['&a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    for p, c in zip("abcdefgh", "bcdefghi"):
        parts.append(f"&{c} [" + ",".join([f"*{p}"] * 9) + "]")
    return "[" + ", ".join(parts) + "]"


def brackets(depth: int = 5000) -> str:
    return "[" * depth + "]" * depth


# --- SVG ------------------------------------------------------------------------------------------

SVG_HEAD = ('<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" '
            'width="100" height="80" viewBox="0 0 100 80">')


def svg(body: str, head: str = SVG_HEAD) -> bytes:
    return (head + body + "</svg>").encode("utf-8")


def svg_use_fanout(levels: int = 8, width: int = 10) -> bytes:
    """Each level uses the one before ``width`` times: ~1.7 KB that draws 10^8 shapes."""
    defs = ['<g id="l0"><rect width="1" height="1"/></g>']
    for i in range(1, levels):
        defs.append(f'<g id="l{i}">' + f'<use xlink:href="#l{i - 1}"/>' * width + "</g>")
    return svg("<defs>" + "".join(defs) + f'</defs><use xlink:href="#l{levels - 1}"/>')


def svg_many_elements(count: int = 1_000_000, element: str = '<rect width="1" height="1"/>') -> bytes:
    return svg(element * count)


def svg_css_backtracking(depth: int = 40, parts: int = 12) -> bytes:
    """A selector of ``parts`` descendant steps over ``depth`` nested groups: a matcher tries
    every way to pick the ancestors (376 bytes: no answer after 60 s)."""
    selector = "x " + " ".join(["g"] * parts) + " rect"  # no <x>: every choice of ancestors is tried
    return svg(f"<style>{selector} {{fill: red}}</style>" + "<g>" * depth + '<rect width="9" height="9"/>'
               + "</g>" * depth)


def png_bytes(width: int = 40, height: int = 30, colour: tuple[int, int, int] = (200, 30, 30)) -> bytes:
    from PIL import Image

    buf = io.BytesIO()
    Image.new("RGB", (width, height), colour).save(buf, "PNG")
    return buf.getvalue()


def png_header_only(width: int, height: int) -> bytes:
    """A PNG that declares ``width`` × ``height`` pixels (its data is not there: a decoder
    that trusts the header first allocates, then fails)."""
    import zlib

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(b"\x00" * 64))
            + chunk(b"IEND", b""))


def svg_with_data_png(png: bytes | None = None) -> bytes:
    """An SVG holding a PNG as a ``data:`` URI (legitimate: every build failed with a TypeError)."""
    uri = "data:image/png;base64," + base64.b64encode(png or png_bytes()).decode()
    return svg(f'<rect width="100" height="80" fill="#2050c0"/>'
               f'<image x="10" y="10" width="40" height="30" xlink:href="{uri}"/>')


def svg_with_file_image(name: str = "red.png") -> bytes:
    """An SVG drawing a PNG beside it (legitimate)."""
    return svg(f'<rect width="100" height="80" fill="#20a040"/><image x="50" y="40" width="40" height="30" '
               f'href="{name}"/>')


def svg_numbers(value: str = "1e308") -> bytes:
    """A shape at coordinates no PDF can hold (was a ValueError or ZeroDivisionError in the build)."""
    return svg(f'<rect x="{value}" y="0" width="{value}" height="10"/>')


def svg_viewbox(value: str = "0 0 1e-320 1e-320") -> bytes:
    return svg('<rect width="10" height="10"/>', head=SVG_HEAD.replace('viewBox="0 0 100 80"', f'viewBox="{value}"'))


def svg_viewbox_only(value: str = "0 0 1e-300 1e-300") -> bytes:
    """An SVG sized by its viewBox alone (no width, height): a tiny one scaled up to a box."""
    return svg('<rect width="1e-300" height="1e-300"/>',
               head='<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" '
                    f'viewBox="{value}">')


def svg_size(width: str = "1e308", height: str = "80") -> bytes:
    return svg('<rect width="10" height="10"/>', head=SVG_HEAD.replace('width="100" height="80"',
                                                                       f'width="{width}" height="{height}"'))


# --- fonts ----------------------------------------------------------------------------------------

def _sfnt(tables: dict[bytes, bytes], version: bytes = b"\x00\x01\x00\x00") -> bytes:
    """An sfnt container holding ``tables`` (checksums left at 0: readers here do not check them)."""
    tags = sorted(tables)
    head = version + struct.pack(">HHHH", len(tags), 0, 0, 0)
    offset = 12 + 16 * len(tags)
    directory, data = b"", b""
    for tag in tags:
        body = tables[tag]
        directory += tag + struct.pack(">III", 0, offset + len(data), len(body))
        data += body + b"\0" * (-len(body) % 4)
    return head + directory + data


def truetype(cmap: bytes, glyphs: int = 2) -> bytes:
    """A minimal TrueType font with the cmap subtable ``cmap`` (platform 3, encoding 10)."""
    head = struct.pack(">IIIIHHQQhhhhHHhhh", 0x00010000, 0x00010000, 0, 0x5F0F3CF5, 0, 1000, 0, 0,
                       0, 0, 500, 700, 0, 8, 2, 0, 0)
    hhea = struct.pack(">IhhhHhhhhhhhhhhhH", 0x00010000, 800, -200, 0, 500, 0, 0, 500, 1, 0, 0, 0, 0, 0, 0, 0,
                       glyphs)
    maxp = struct.pack(">IH13H", 0x00010000, glyphs, *([0] * 13))
    hmtx = struct.pack(">HH", 500, 0) * glyphs
    loca = struct.pack(">H", 0) * (glyphs + 1)
    post = struct.pack(">IIhhIIIII", 0x00030000, 0, -100, 50, 0, 0, 0, 0, 0)
    os2 = struct.pack(">HhHHHhhhhhhhhhhh", 3, 500, 400, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0) + b"\0" * 10 + \
        b"\0" * 16 + b"NONE" + struct.pack(">HHHhhhHH", 0, 0x20, 0x7E, 800, -200, 0, 800, 200) + b"\0" * 18
    name_records = [(3, 1, 0x409, 1, "Bomb"), (3, 1, 0x409, 2, "Regular"), (3, 1, 0x409, 4, "Bomb"),
                    (3, 1, 0x409, 6, "Bomb-Regular")]
    strings = b""
    recs = b""
    for platform, enc, lang, nid, text in name_records:
        raw = text.encode("utf-16-be")
        recs += struct.pack(">HHHHHH", platform, enc, lang, nid, len(raw), len(strings))
        strings += raw
    name = struct.pack(">HHH", 0, len(name_records), 6 + 12 * len(name_records)) + recs + strings
    cmap_table = struct.pack(">HHHHI", 0, 1, 3, 10, 12) + cmap
    return _sfnt({b"head": head, b"hhea": hhea, b"maxp": maxp, b"hmtx": hmtx, b"loca": loca, b"glyf": b"",
                  b"post": post, b"OS/2": os2, b"name": name, b"cmap": cmap_table})


def font_cmap_all_codes(start: int = 0, end: int = 0xFFFFFFFE) -> bytes:
    """A 3.9 KB TrueType whose cmap (format 12) maps ``start``..``end`` (all memory in 8 s)."""
    group = struct.pack(">III", start, end, 0)
    return truetype(struct.pack(">HHIII", 12, 0, 16 + 12, 0, 1) + group)


def font_cmap4_segments(segments: int = 8000) -> bytes:
    """Format 4 with ``segments`` overlapping segments, each 0..0xFFFE: billions of steps."""
    seg_x2 = segments * 2
    body = (struct.pack(">HHHH", seg_x2, 0, 0, 0) + struct.pack(">H", 0xFFFE) * segments + b"\0\0"
            + struct.pack(">H", 0) * segments + struct.pack(">h", 0) * segments + struct.pack(">H", 0) * segments)
    return truetype(struct.pack(">HHH", 4, 6 + len(body), 0) + body)


def font_cff(subr_levels: int = 0, calls: int = 30, chars: str = "AB", family: str = "Bomb") -> bytes:
    """A small OpenType font with PostScript (CFF) outlines (fontTools' FontBuilder): a slab for
    each of ``chars`` (and a space). With ``subr_levels``, glyph 'A' calls a global subroutine that
    calls the one below ``calls`` times, ``subr_levels`` deep (within CFF's nesting limit of 10):
    ~1 KB that asks for calls^levels operations (47 s and 1.9 GB before the bound)."""
    from fontTools.fontBuilder import FontBuilder
    from fontTools.misc.psCharStrings import T2CharString
    from fontTools.pens.t2CharStringPen import T2CharStringPen

    names = {c: (c if c.isascii() and c.isalpha() else f"uni{ord(c):04X}") for c in chars}
    order = [".notdef", "space", *names.values()]
    fb = FontBuilder(1000, isTTF=False)
    fb.setupGlyphOrder(order)
    fb.setupCharacterMap({32: "space", **{ord(c): n for c, n in names.items()}})
    strings = {}
    for name in order:
        pen = T2CharStringPen(600, None)
        if name != "space":
            pen.moveTo((50, 0))
            pen.lineTo((550, 0))
            pen.curveTo((550, 300), (450, 700), (300, 700))
            pen.lineTo((50, 700))
            pen.closePath()
        strings[name] = pen.getCharString()
    ps = f"{family}-Regular"
    fb.setupCFF(ps, {"FullName": f"{family} Regular"}, strings, {})
    fb.setupHorizontalMetrics({name: (600, 50) for name in order})
    fb.setupHorizontalHeader(ascent=800, descent=-200)
    fb.setupNameTable({"familyName": family, "styleName": "Regular", "psName": ps})
    fb.setupOS2(sTypoAscender=800, sTypoDescender=-200, usWinAscent=800, usWinDescent=200)
    fb.setupPost()
    if subr_levels:
        cff = fb.font["CFF "].cff
        top = cff.topDictIndex[0]
        gsubrs = cff.GlobalSubrs
        bias = 107
        gsubrs.append(T2CharString(program=[10, 10, "rlineto", "return"], globalSubrs=gsubrs))
        for i in range(1, subr_levels):
            gsubrs.append(T2CharString(program=[i - 1 - bias, "callgsubr"] * calls + ["return"], globalSubrs=gsubrs))
        glyph = top.CharStrings["A"]
        glyph.program = [600, 0, 0, "rmoveto", subr_levels - 1 - bias, "callgsubr", "endchar"]
        glyph.bytecode = None
    out = io.BytesIO()
    fb.font.recalcBBoxes = False  # computing them would run the subroutines
    fb.font.save(out)
    return out.getvalue()


def svg_styled(paths: int = 2000, depth: int = 10) -> bytes:
    """Legitimate: ``paths`` paths ``depth`` groups deep, styled by class, descendant and child
    selectors (as a hand-written or Figma sheet would be)."""
    body = "".join(f'<path class="p{i % 5}" d="M{i % 97} {i % 71} l3 0 l0 3 z"/>' for i in range(paths))
    style = ("<style>.p0{fill:#c33} .p1{fill:#3c3} svg g path{stroke:#000;stroke-width:0.1} "
             "g > g > path.p2{fill:#33c} g ~ g{opacity:0.9}</style>")
    return svg(style + "<g>" * depth + body + "</g>" * depth)


def nested(depth: int, element: str, count: int) -> str:
    """``count`` copies of ``element`` inside ``depth`` nested groups (SVG body text)."""
    return "<g>" * depth + element * count + "</g>" * depth


def repeat(text: str, count: int) -> str:
    return text * count


# --- what a game means: score rules, languages (issue 38) -----------------------------------------

def rule_alias_bomb(width: int = 14, depth: int = 4, head: str = "") -> str:
    """``head``, then score categories each the max of ``width`` aliases of the one before:
    width^depth sums in under 1 KB (14^4 = 38,416 took seconds to score and printed a 600 KB
    explanation)."""
    lines = [head, "  - {id: b0, label: B0, score: &r0 {sum: cost}}\n"]
    for d in range(1, depth + 1):
        lines.append(f"  - {{id: b{d}, label: B{d}, score: &r{d} {{max: [{', '.join([f'*r{d - 1}'] * width)}]}}}}\n")
    return "".join(lines)


def cards_in_languages(languages: int = 1_000, cards: int = 450, per_card: int = 3, own: str = "fr") -> str:
    """``cards`` cards of kind ``action`` whose names are each in the game's language ``own`` and
    ``per_card`` others, the next ones in turn over ``languages`` − 1 codes: every language lacks
    nearly every name (listing them took 840 MB, 1.7 GB with ``check --json``)."""
    import itertools
    import string

    codes = [c for n in (2, 3) for c in ("".join(p) for p in itertools.product(string.ascii_lowercase, repeat=n))
             if c not in (own, "no", "on", "yes", "off")][:languages - 1]  # never a YAML 1.1 boolean
    rows = []
    for i in range(cards):
        names = ", ".join(f"{codes[(per_card * i + j) % len(codes)]}: N" for j in range(per_card))
        rows.append(f"  - {{id: c{i}, kind: action, cost: 1, effect: x, name: {{{own}: N, {names}}}}}\n")
    return "cards:\n" + "".join(rows)
