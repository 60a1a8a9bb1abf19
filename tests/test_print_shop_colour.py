"""``cardforge build --cmyk`` and a print-on-demand profile's ``colour: cmyk``: CMYK PDF/X-1a:2003.

Free PDF/X validators are rare, so the test reads every file of a CMYK build of TunHell (deck,
boards, aids, score pad, setup sheets) and checks what ISO 15930-4 (PDF/X-1a:2003) asks of it:

- PDF 1.4 at most, a file ID, not encrypted;
- the Info dictionary's ``GTS_PDFXVersion (PDF/X-1a:2003)``, ``Trapped /False`` (True or False:
  not Unknown), a title, creation and modification dates;
- an ``/OutputIntents`` entry with a ``/GTS_PDFX`` intent naming its print condition and
  embedding its ICC profile (an output-class CMYK profile, ``/N 4``);
- colour only in DeviceCMYK, DeviceGray or Separation/DeviceN over CMYK: no ``rg``/``RG``, no
  RGB, ICC-based or Lab colour space in any content stream, form or image;
- no transparency: no soft mask in any graphics state or image, opacity 1, blend mode Normal,
  no transparency group;
- every font embedded;
- a TrimBox and a BleedBox on every page, TrimBox ⊆ BleedBox ⊆ MediaBox.

Then Ghostscript renders the CMYK deck through its own output intent (``-dUsePDFX3Profile``)
and the RGB deck, and the pages are compared: mean CAM02-UCS ΔE per page.
"""

from __future__ import annotations

import shutil
import subprocess
from collections import Counter
from pathlib import Path

import pypdf
import pytest
from pypdf.generic import ContentStream

from colour_vision import delta_e
from conftest import run_cli

pytestmark = pytest.mark.slow
GS = shutil.which("gs")
RGB_OPERATORS = {b"rg", b"RG"}
ALLOWED_SPACES = {"/DeviceCMYK", "/DeviceGray", "/Pattern"}


@pytest.fixture(scope="module")
def builds(tmp_path_factory) -> dict[str, Path]:
    out = {}
    for name, extra in (("rgb", []), ("cmyk", ["--cmyk"])):
        folder = tmp_path_factory.mktemp(name)
        r = run_cli("build", "tunhell", "-o", folder, "--paper", "a4", *extra)  # 22 pages, as measured
        assert r.code == 0, r.err
        out[name] = folder / "tunhell"
    return out


def _space_ok(space, resources) -> bool:
    """A colour space name or array: CMYK or grey, or a separation/DeviceN over CMYK."""
    space = space.get_object() if hasattr(space, "get_object") else space
    if isinstance(space, str):
        if space in ALLOWED_SPACES:
            return True
        named = ((resources or {}).get("/ColorSpace") or {}).get(space)
        return named is not None and _space_ok(named, None)
    kind = space[0]
    if kind in ("/Separation", "/DeviceN"):
        return _space_ok(space[2], None)
    if kind == "/Indexed":
        return _space_ok(space[1], None)
    return False  # /ICCBased, /CalRGB, /Lab…


class Walk:
    """Everything the PDF/X-1a colour and transparency rules look at, found in a file."""

    def __init__(self) -> None:
        self.problems: list[str] = []
        self.operators: Counter[bytes] = Counter()
        self.fonts: dict[str, bool] = {}  # font name → embedded
        self.images = 0

    def content(self, where: str, stream, resources) -> None:
        resources = (resources.get_object() if resources is not None else None) or {}
        for operands, op in ContentStream(stream, None).operations:
            self.operators[op] += 1
            if op in RGB_OPERATORS:
                self.problems.append(f"{where}: {op.decode()} (DeviceRGB)")
            elif op in (b"cs", b"CS") and not _space_ok(operands[0], resources):
                self.problems.append(f"{where}: colour space {operands[0]}")
            elif op == b"gs":
                state = resources["/ExtGState"][operands[0]].get_object()
                self.graphics_state(where, state)
            elif op == b"INLINE IMAGE":
                cs = operands["settings"].get("/CS") or operands["settings"].get("/ColorSpace")
                if cs not in ("/DeviceCMYK", "/DeviceGray", "/CMYK", "/G"):
                    self.problems.append(f"{where}: inline image in {cs}")
        for name, ref in ((resources.get("/XObject") or {}).items()):
            obj = ref.get_object()
            if obj.get("/Subtype") == "/Form":
                group = obj.get("/Group")
                if group is not None and group.get_object().get("/S") == "/Transparency":
                    self.problems.append(f"{where} {name}: transparency group")
                self.content(f"{where} {name}", obj, obj.get("/Resources") or resources)
            else:
                self.images += 1
                if not _space_ok(obj.get("/ColorSpace"), resources):
                    self.problems.append(f"{where} {name}: image in {obj.get('/ColorSpace')}")
                if obj.get("/SMask") is not None:
                    self.problems.append(f"{where} {name}: image with a soft mask")
        for name, ref in ((resources.get("/Font") or {}).items()):
            self.font(ref.get_object())

    def graphics_state(self, where: str, state) -> None:
        if state.get("/SMask") not in (None, "/None"):
            self.problems.append(f"{where}: soft mask")
        for key in ("/CA", "/ca"):
            if key in state and float(state[key]) != 1:
                self.problems.append(f"{where}: opacity {key} {state[key]}")
        if state.get("/BM") not in (None, "/Normal", "/Compatible"):
            self.problems.append(f"{where}: blend mode {state.get('/BM')}")

    def font(self, font) -> None:
        name = str(font.get("/BaseFont"))
        if font.get("/Subtype") == "/Type3":
            self.fonts[name] = True
            return
        if font.get("/Subtype") == "/Type0":
            font = font["/DescendantFonts"][0].get_object()
        descriptor = font.get("/FontDescriptor")
        descriptor = descriptor.get_object() if descriptor is not None else {}
        self.fonts[name] = any(k in descriptor for k in ("/FontFile", "/FontFile2", "/FontFile3"))


def _inside(inner, outer) -> bool:
    a, b = [float(v) for v in inner], [float(v) for v in outer]
    return a[0] >= b[0] - 1e-3 and a[1] >= b[1] - 1e-3 and a[2] <= b[2] + 1e-3 and a[3] <= b[3] + 1e-3


def test_every_file_of_a_cmyk_build_is_pdf_x_1a(builds):
    files = sorted(builds["cmyk"].glob("*.pdf"))
    assert {f.name for f in files} >= {"deck.pdf", "boards.pdf", "aids.pdf", "score-pad.pdf", "setup.pdf"}
    for path in files:
        raw = path.read_bytes()
        assert raw.startswith(b"%PDF-1.") and int(raw[7:8]) <= 4, path.name
        reader = pypdf.PdfReader(str(path))
        assert not reader.is_encrypted and reader.trailer.get("/ID") is not None, path.name
        info = reader.trailer["/Info"].get_object()
        assert info["/GTS_PDFXVersion"] == "PDF/X-1a:2003", path.name
        assert info["/Trapped"] == "/False", path.name
        assert info.get("/Title") and info.get("/CreationDate") and info.get("/ModDate"), path.name
        # the output intent and its ICC profile
        intents = reader.trailer["/Root"]["/OutputIntents"]
        assert len(intents) == 1, path.name
        intent = intents[0].get_object()
        assert intent["/S"] == "/GTS_PDFX" and intent["/OutputConditionIdentifier"] == "FOGRA39"
        assert intent["/RegistryName"] == "http://www.color.org"
        profile = intent["/DestOutputProfile"].get_object()
        icc = profile.get_data()
        assert profile["/N"] == 4
        assert int.from_bytes(icc[:4], "big") == len(icc)
        assert icc[12:16] == b"prtr" and icc[16:20] == b"CMYK" and icc[36:40] == b"acsp"
        assert icc[8] == 2  # ICC version 2, as PDF/X-1a:2003 takes
        # boxes, colour, transparency, fonts
        walk = Walk()
        for n, page in enumerate(reader.pages):
            trim, bleed, media = page.get("/TrimBox"), page.get("/BleedBox"), page["/MediaBox"]
            assert trim is not None and bleed is not None, (path.name, n)
            assert _inside(trim, bleed) and _inside(bleed, media), (path.name, n, trim, bleed, media)
            contents = page.get_contents()
            if contents is not None:
                walk.content(f"{path.name} p{n + 1}", contents, page.get("/Resources"))
        assert not walk.problems, walk.problems[:10]
        assert walk.operators[b"k"] + walk.operators[b"K"] > 0, path.name  # colour was drawn, in CMYK
        assert walk.fonts and all(walk.fonts.values()), (path.name, walk.fonts)


def test_the_rgb_build_would_fail_that_check(builds):
    """The check sees RGB: the same deck without --cmyk is full of ``rg``."""
    reader = pypdf.PdfReader(str(builds["rgb"] / "deck.pdf"))
    walk = Walk()
    walk.content("deck p1", reader.pages[0].get_contents(), reader.pages[0].get("/Resources"))
    assert walk.problems and walk.operators[b"rg"] > 10
    assert "/OutputIntents" not in reader.trailer["/Root"]


def test_black_text_is_black_ink_only(builds):
    """The text of the cards (#1a1a1a, #3b2f22…): neutral greys and blacks are set as
    ``0 0 0 k`` with K alone; coloured inks as four-colour CMYK."""
    reader = pypdf.PdfReader(str(builds["cmyk"] / "deck.pdf"))
    fills = Counter()
    for page in reader.pages[:2]:
        for operands, op in ContentStream(page.get_contents(), None).operations:
            if op == b"k":
                fills[tuple(round(float(v), 4) for v in operands)] += 1
    assert fills[(0, 0, 0, 1)] > 20  # solid K: the text black
    assert all(c == m == y == 0 for (c, m, y, k) in fills if k == 1 and c + m + y < 0.05)
    assert any(c > 0.1 and m > 0.1 for (c, m, y, k) in fills)  # the bands: process colours


@pytest.mark.skipif(GS is None, reason="needs Ghostscript (apt-get install ghostscript; .ci/run installs it)")
def test_the_cmyk_deck_renders_like_the_rgb_one(builds, tmp_path):
    """Ghostscript renders the CMYK deck through its output intent and the RGB deck as they
    are (40 dpi); per page the mean CAM02-UCS ΔE between the two. Measured on TunHell's 22
    pages: 0.6–1.4 over the page, 0.7–1.6 over its inked pixels (the round trip through
    FOGRA39; below 2, hardly visible side by side), where the same CMYK file rendered through
    Ghostscript's default CMYK profile, not its output intent, differs by 2.1–2.5."""
    from PIL import Image

    def render(pdf: Path, name: str, extra: list[str]) -> list[Path]:
        out = tmp_path / name
        out.mkdir()
        subprocess.run([GS, "-q", "-dSAFER", "-dBATCH", "-dNOPAUSE", "-sDEVICE=png16m", "-r40", *extra,
                        f"-sOutputFile={out}/p%03d.png", str(pdf)], check=True)
        return sorted(out.glob("p*.png"))

    rgb = render(builds["rgb"] / "deck.pdf", "rgb", [])
    cmyk = render(builds["cmyk"] / "deck.pdf", "cmyk", ["-dUsePDFX3Profile"])
    plain = render(builds["cmyk"] / "deck.pdf", "plain", [])  # Ghostscript's default CMYK, no intent
    assert len(rgb) == len(cmyk) == len(plain) > 4
    means, inked, plains = [], [], []
    for a, b, c in zip(rgb, cmyk, plain):
        with Image.open(a) as ia, Image.open(b) as ib, Image.open(c) as ic:
            ia, ib, ic = ia.convert("RGB"), ib.convert("RGB"), ic.convert("RGB")
            means.append(_mean_delta_e(ia, ib))
            inked.append(_mean_delta_e(ia, ib, inked=True))
            plains.append(_mean_delta_e(ia, ic))
    print("mean ΔE per page: CMYK through its intent", [round(m, 2) for m in means], "inked pixels only",
          [round(m, 2) for m in inked], "Ghostscript's default CMYK", [round(m, 2) for m in plains])
    assert max(means) < 2.0, means
    assert max(inked) < 4.0, inked
    assert sum(means) / len(means) < sum(plains) / len(plains), (means, plains)


def _pixels(image) -> list[tuple[int, int, int]]:
    data = image.tobytes()
    return list(zip(data[0::3], data[1::3], data[2::3]))


def _mean_delta_e(a, b, inked: bool = False) -> float:
    """Mean CAM02-UCS ΔE of two renderings, over the page or (``inked``) over the pixels that
    are not white paper in the first."""
    pairs = Counter(zip(_pixels(a), _pixels(b)))
    if inked:
        pairs = Counter({k: n for k, n in pairs.items() if min(k[0]) < 245})
    total = sum(n * delta_e(p, q) for (p, q), n in pairs.items())
    return total / sum(pairs.values())


def test_a_print_on_demand_profile_asks_for_cmyk(cli, tmp_path):
    """``colour: cmyk`` in a profile (DriveThruCards asks for CMYK PDF/X-1a): its cards.pdf is
    one; a PNG profile cannot be CMYK (named in the error)."""
    out = tmp_path / "pod"
    r = cli("export", "tunhell", "pod", "--profile", "drivethrucards-poker", "-o", out)
    # TunHell is 56 × 88: DriveThruCards' poker template (63.5 × 88.9) is another shape
    assert r.code == 1 and "shapes differ" in r.err
    profile = tmp_path / "bridge-cmyk.yaml"
    profile.write_text("name: Imprimerie CMJN\ntrim: {width: 56mm, height: 88mm}\nbleed: 3mm\nsafe: 3mm\n"
                       "format: pdf\ncolour: cmyk\n", encoding="utf-8")
    r = cli("export", "tunhell", "pod", "--profile", str(profile), "-o", out)
    assert r.code == 0, r.err
    reader = pypdf.PdfReader(str(out / "cards.pdf"))
    assert reader.trailer["/Info"]["/GTS_PDFXVersion"] == "PDF/X-1a:2003"
    walk = Walk()
    for n, page in enumerate(reader.pages):
        walk.content(f"p{n}", page.get_contents(), page.get("/Resources"))
    assert not walk.problems, walk.problems[:5]
    bad = tmp_path / "png-cmyk.yaml"
    bad.write_text("name: X\ntrim: {width: 56mm, height: 88mm}\nbleed: 3mm\nsafe: 3mm\nformat: png\n"
                   "colour: cmyk\n", encoding="utf-8")
    r = cli("export", "tunhell", "pod", "--profile", str(bad), "-o", tmp_path / "x")
    assert r.code == 1 and "png-cmyk.yaml" in r.err and "colour: cmyk" in r.err


def test_same_input_same_cmyk_bytes(builds, tmp_path):
    r = run_cli("build", "tunhell", "--cmyk", "--only", "decks,boards", "-o", tmp_path, "--paper", "a4")
    assert r.code == 0, r.err
    for name in ("deck.pdf", "boards.pdf"):
        assert (tmp_path / "tunhell" / name).read_bytes() == (builds["cmyk"] / name).read_bytes(), name
