"""cardforge export GAME png|tts|pod and cardforge preview: exact pixel sizes, TTS sheets and
their saved object, print-on-demand pages and profiles, the contact sheet."""

from __future__ import annotations

import json
from pathlib import Path

import pypdf
import pytest
from PIL import Image

from render_helpers import FIXTURE_DATA, FIXTURE_TEMPLATES, card_clips, register_fixture_game

POKER, TAROT = (63.0, 88.0), (70.0, 120.0)
FRONTS = ["boule-de-feu", "bouclier", "eclair", "jeton-or", "kessara", "cadeau-recto", "grand-plateau"]
COPIES = {"boule-de-feu": 3, "bouclier": 1, "eclair": 2, "jeton-or": 4, "kessara": 1, "cadeau-recto": 1,
          "grand-plateau": 1}


@pytest.fixture
def fixture_cli(cli, monkeypatch):
    register_fixture_game(monkeypatch)

    def run(*args):
        return cli("--data", FIXTURE_DATA, *args[:1], "fixture_deck", *args[1:], "--templates", FIXTURE_TEMPLATES)

    return run


def _profile_name(icc: bytes) -> str:
    import io

    from PIL import ImageCms

    return ImageCms.getProfileDescription(ImageCms.ImageCmsProfile(io.BytesIO(icc))).strip()


def px(mm: float, dpi: int) -> int:
    return round(mm / 25.4 * dpi)


@pytest.mark.parametrize("dpi, bleed", [(300, False), (300, True), (150, True), (72, False)])
def test_png_sizes_are_trim_plus_bleed_times_dpi(fixture_cli, tmp_path, dpi, bleed):
    out = tmp_path / "png"
    r = fixture_cli("export", "png", "--dpi", str(dpi), "--bleed" if bleed else "--no-bleed", "-o", out)
    assert r.code == 0, r.err
    b = 3.0 if bleed else 0.0
    sizes = {name: TAROT if name.startswith("grand-plateau") or name.endswith("70x120") else POKER
             for name in [p.stem for p in out.glob("*.png")]}
    # fronts by card id; backs by design (per kind when the design reads it), or per card
    assert sorted(sizes) == sorted(FRONTS + ["back-default", "back-token", "kessara-back", "cadeau-recto-back",
                                             "back-default-70x120"])
    for name, (w, h) in sizes.items():
        with Image.open(out / f"{name}.png") as im:
            assert im.size == (px(w + 2 * b, dpi), px(h + 2 * b, dpi)), name
            assert im.mode == "RGB"
            assert round(im.info["dpi"][0]) == dpi
            assert _profile_name(im.info["icc_profile"]).startswith("sRGB")
    index = json.loads((out / "faces.json").read_text(encoding="utf-8"))
    assert {c["id"]: c["copies"] for c in index["cards"]} == COPIES
    assert {c["id"]: c["back"] for c in index["cards"]}["jeton-or"] == "back-token.png"


def test_a_png_is_the_printed_card(fixture_cli, tmp_path):
    """The PNG and the card in the print's PDF, both at 300 dpi with their 3 mm bleed, agree
    pixel for pixel (up to antialiasing at sub-pixel offsets)."""
    r = fixture_cli("export", "png", "--bleed", "-o", tmp_path / "png")
    assert r.code == 0, r.err
    r = fixture_cli("build", "-o", tmp_path / "pdf", "--only", "decks", "-q", "--gutter", "0")  # each card its own bleed
    assert r.code == 0, r.err
    pdf = tmp_path / "pdf" / "fixture_deck" / "deck.pdf"
    clip = card_clips(pypdf.PdfReader(pdf).pages[0])[3]  # the 4th card printed: bouclier
    import pypdfium2 as pdfium

    doc = pdfium.PdfDocument(str(pdf))
    page = doc[0].render(scale=300 / 72).to_pil().convert("RGB")
    height = page.height
    doc.close()
    png = Image.open(tmp_path / "png" / "bouclier.png").convert("RGB")
    left, top = px(clip.x, 300), height - px(clip.y + clip.h, 300)
    printed = page.crop((left, top, left + png.width, top + png.height))
    from PIL import ImageChops, ImageStat

    diff = ImageStat.Stat(ImageChops.difference(png, printed)).mean
    assert max(diff) < 4.0, diff  # mean difference per channel, out of 255
    assert ImageStat.Stat(png).stddev[0] > 20  # not a blank image


@pytest.mark.slow
def test_tts_sheets_and_saved_object(cli, tmp_path):
    """Maphr: 250 cards, a deck per kind, all in maphr.json; the decks load every card."""
    out = tmp_path / "tts"
    r = cli("export", "maphr", "tts", "-o", out)
    assert r.code == 0, r.err
    saved = json.loads((out / "maphr.json").read_text(encoding="utf-8"))
    from cardforge.data.loading import load_game_data
    from cardforge.games import find_game

    data = load_game_data(find_game("maphr"))
    data_cards = {c.id: c.copies for c in data.cards if c.copies}
    kinds = {c.id: c.kind for c in data.cards}
    objects = saved["ObjectStates"]
    assert len(objects) == len({c.kind for c in data.cards if c.copies})  # a deck (or lone card) per kind
    counted: dict[str, int] = {}
    for deck in objects:
        contained = deck["ContainedObjects"] if deck["Name"] == "DeckCustom" else [deck]
        assert len({kinds[o["Description"]] for o in contained}) == 1  # one kind a deck
        for obj in contained:
            counted[obj["Description"]] = counted.get(obj["Description"], 0) + 1
        if deck["Name"] != "DeckCustom":
            continue
        assert len(deck["DeckIDs"]) == len(contained)
        slots_used: dict[str, set[int]] = {}
        for card_id in deck["DeckIDs"]:
            slots_used.setdefault(str(card_id // 100), set()).add(card_id % 100)
        for key, entry in deck["CustomDeck"].items():
            cols, rows = entry["NumWidth"], entry["NumHeight"]
            assert cols <= 10 and rows <= 7
            assert entry["BackIsHidden"] is True and entry["UniqueBack"] is False
            assert max(slots_used[key]) < cols * rows - 1  # the last slot is not a card
            sheet = Path(entry["FaceURL"].removeprefix("file://"))
            assert entry["FaceURL"].startswith("file:///") and sheet.exists()
            with Image.open(sheet) as im:
                assert im.width <= 4096 and im.height <= 4096
                cw, ch = im.width // cols, im.height // rows
                # 70 mm at 300 dpi is 827 px, shrunk to fit 4096 px across (10 across: 409)
                side = min(827, 4096 // cols, 4096 // rows)
                assert (cw, ch) == (side, side)
                hidden = im.crop((im.width - cw, im.height - ch, im.width, im.height))
                back = Image.open(entry["BackURL"].removeprefix("file://")).convert("RGB")
                assert back.size == (cw, ch)
                assert hidden.convert("RGB").tobytes() == back.tobytes()
    assert counted == data_cards and sum(counted.values()) == 250


def test_tts_groups_sizes_and_back_designs(fixture_cli, tmp_path):
    out = tmp_path / "tts"
    r = fixture_cli("export", "tts", "-o", out, "--url-base", "https://example.org/jeu/")
    assert r.code == 0, r.err
    assert sorted(p.name for p in out.glob("*.json")) == ["fixture_deck.json"]  # every deck in one saved object
    objects = json.loads((out / "fixture_deck.json").read_text(encoding="utf-8"))["ObjectStates"]
    # a deck per kind: spells, tokens, the planet, the gift, the (tarot-sized) board
    by_desc = {o.get("Nickname"): o for o in objects}
    spells, tokens = by_desc["Jeu d'essai — Sortilèges (v1.3)"], by_desc["Jeu d'essai — Jetons (v1.3)"]
    assert len(spells["DeckIDs"]) == COPIES["boule-de-feu"] + COPIES["bouclier"] + COPIES["eclair"]
    assert len(tokens["DeckIDs"]) == COPIES["jeton-or"]
    lone = sorted(o["Description"] for o in objects if o["Name"] == "Card")
    assert lone == ["cadeau-recto", "grand-plateau", "kessara"]  # one card: not a deck
    entries = [e for o in objects for e in (o.get("CustomDeck") or {}).values()]
    assert all(e["FaceURL"].startswith("https://example.org/jeu/fixture_deck-") for e in entries)
    backs = sorted({e["BackURL"].rsplit("/", 1)[1] for e in entries if not e["UniqueBack"]})
    assert backs == ["fixture_deck-board-back-default-70x120.png", "fixture_deck-spell-back-default.png",
                     "fixture_deck-token-back-token.png"]
    unique = [e for e in entries if e["UniqueBack"]]  # kessara (its moon) and the two-sided gift
    assert len(unique) == 2 and all(e["BackURL"].endswith("-backs.png") for e in unique)
    # their hidden-card image gives nothing away: the neutral card, not one of their backs
    from cardforge.render.exports.tts import hidden_card

    for e in unique:
        with Image.open(out / e["FaceURL"].rsplit("/", 1)[1]) as im:
            cw, ch = im.width // e["NumWidth"], im.height // e["NumHeight"]
            last = im.convert("RGB").crop((im.width - cw, im.height - ch, im.width, im.height))
            assert last.tobytes() == hidden_card((cw, ch)).tobytes()
    for e in entries:
        with Image.open(out / e["FaceURL"].rsplit("/", 1)[1]) as im:
            size = (70, 120) if "-board-" in e["FaceURL"] else (63, 88)
            assert im.size == (e["NumWidth"] * px(size[0], 300), e["NumHeight"] * px(size[1], 300))


def test_pod_pdf_has_trim_and_bleed_boxes_at_the_profile_size(fixture_cli, tmp_path):
    out = tmp_path / "pod"
    r = fixture_cli("export", "pod", "--profile", "drivethrucards-poker", "-o", out)
    assert r.code == 0, r.err
    reader = pypdf.PdfReader(out / "cards.pdf")
    # every poker card copy: its back then its front (the tarot-sized card is left out, warned)
    assert len(reader.pages) == 2 * (sum(COPIES.values()) - 1) == 24
    assert "1 card of 70×120 mm left out (grand-plateau)" in r.err
    inch = 72
    for page in reader.pages:
        trim, bleed, media = page.trimbox, page.bleedbox, page.mediabox
        assert [round(float(v), 3) for v in trim] == [9, 9, 9 + 2.5 * inch, 9 + 3.5 * inch]
        assert [round(float(v), 3) for v in bleed] == [0, 0, 2.75 * inch, 3.75 * inch]
        assert [round(float(v), 3) for v in media] == [round(float(v), 3) for v in bleed]
    import pypdfium2 as pdfium

    doc = pdfium.PdfDocument(str(out / "cards.pdf"))
    first_front = doc[1].get_textpage().get_text_range()
    first_back = doc[0].get_textpage().get_text_range()
    assert "Boule de feu" in first_front and "Boule de feu" not in first_back
    doc.close()


def test_pod_refuses_a_card_of_another_shape(fixture_cli, tmp_path):
    r = fixture_cli("export", "pod", "--profile", "thegamecrafter-square", "-o", tmp_path / "pod")
    assert r.code == 1
    assert "do not fit the profile's 88.9×88.9 mm trim" in r.err
    assert not (tmp_path / "pod").exists()


def test_pod_checks_the_size_as_well_as_the_shape(cli, tmp_path):
    """Maphr's 70 mm square cards on The Game Crafter's 3.5 in square deck would print ×1.27:
    refused, naming the profiles of their size, unless --scale says so."""
    r = cli("export", "maphr", "pod", "--profile", "thegamecrafter-square", "-o", tmp_path / "pod")
    assert r.code == 1
    assert ("the cards of 70×70 mm would print ×1.27 on the profile's 88.9×88.9 mm trim (their size differs "
            "by more than 3%); pass --scale to print them so, or choose a profile of their size "
            "(makeplayingcards-square, thegamecrafter-euro-square)") in r.err
    assert not (tmp_path / "pod").exists()
    from cardforge.render.exports.pod import load_profile, profiles_of_size, scale_of

    assert scale_of((70, 70), load_profile("thegamecrafter-square").profile) == pytest.approx(88.9 / 70)
    assert profiles_of_size((56, 88)) == ["thegamecrafter-bridge"]
    assert profiles_of_size((63, 88)) == ["drivethrucards-poker", "makeplayingcards-poker", "thegamecrafter-poker"]


@pytest.mark.slow
def test_pod_scale_prints_the_cards_enlarged_when_asked(cli, tmp_path):
    out = tmp_path / "pod"
    r = cli("export", "maphr", "pod", "--profile", "thegamecrafter-square", "--scale", "-o", out)
    assert r.code == 0, r.err
    assert "cards scaled ×1.27" in r.out
    index = json.loads((out / "faces.json").read_text(encoding="utf-8"))
    assert index["scaled"] == [pytest.approx(1.27, abs=0.0001)]
    with Image.open(out / "etayage.png") as im:
        assert im.size == (1125, 1125)


@pytest.mark.slow
def test_tunhell_exports_to_a_bridge_profile(cli, tmp_path):
    """TunHell's 56 × 88 mm cards on The Game Crafter's bridge deck (2.25 × 3.5 in): +2.1 % and
    +1 %, within 3 %, so no --scale; every face at the template's 750 × 1125 px."""
    out = tmp_path / "pod"
    r = cli("export", "tunhell", "pod", "--profile", "thegamecrafter-bridge", "-o", out)
    assert r.code == 0, r.err
    assert "scaled" not in r.out
    index = json.loads((out / "faces.json").read_text(encoding="utf-8"))
    assert "scaled" not in index and len(index["cards"]) == 34
    pngs = sorted(out.glob("*.png"))
    assert len(pngs) == 34 + 4  # every front, four back designs
    for png in pngs:
        with Image.open(png) as im:
            assert im.size == (750, 1125), png.name


def test_a_user_profile_png_sizes_and_unsafe_text(fixture_cli, tmp_path):
    profile = tmp_path / "big-margin.yaml"
    profile.write_text("name: Imprimerie du coin\ntrim: {width: 63mm, height: 88mm}\nbleed: 2mm\nsafe: 6mm\n"
                       "dpi: 200\nformat: png\n", encoding="utf-8")
    out = tmp_path / "pod"
    r = fixture_cli("export", "pod", "--profile", str(profile), "-o", out)
    assert r.code == 0, r.err
    with Image.open(out / "bouclier.png") as im:
        assert im.size == (px(67, 200), px(92, 200))
    # the generic card's text boxes start 4 mm in: inside a 6 mm unsafe margin
    lines = [ln for ln in r.err.splitlines() if "unsafe margin of 'Imprimerie du coin'" in ln]
    # …one warning per box and kind, with the count of faces, located when a single card has it
    assert any(ln.startswith("warning: 2 faces of kind 'spell' (bouclier, eclair): "
                             "box 'body_without_art': text 4.00 mm from the left edge") for ln in lines)
    assert len([ln for ln in lines if "of kind 'spell'" in ln]) == 4  # title, deck_name, stamp, body_without_art
    assert any("cards.yaml:3: card 'boule-de-feu' (#1): box 'body': text 4.00 mm from the left edge" in ln
               for ln in lines)
    # the stamp's text sits 3.2 mm up; its line box (descent included, 5 pt) 3.38 mm
    assert any("box 'stamp': text 3.38 mm from the bottom edge" in ln for ln in lines)
    assert r.code == 0 and "warning:" in r.err
    r = fixture_cli("export", "pod", "--profile", str(profile), "-o", out, "--strict")
    assert r.code == 1


def test_a_bad_profile_names_file_and_field(fixture_cli, tmp_path):
    profile = tmp_path / "wrong.yaml"
    profile.write_text("name: X\ntrim: {width: 63mm, height: 88mm}\nbleed: 3mm\nsafe: 3mm\n"
                       "pixels: {width: 800, height: 1100}\nformat: tiff\n", encoding="utf-8")
    r = fixture_cli("export", "pod", "--profile", str(profile))
    assert r.code == 1
    assert "wrong.yaml:6: format: " in r.err and "'png'" in r.err
    r = fixture_cli("export", "pod", "--profile", "no-such-service")
    assert r.code == 1 and "thegamecrafter-poker" in r.err


def test_shipped_profiles_agree_with_their_pixel_sizes():
    from cardforge.render.exports.pod import SHIPPED, load_profile

    names = sorted(p.stem for p in SHIPPED.glob("*.yaml"))
    assert len(names) >= 8
    for name in names:
        text = (SHIPPED / f"{name}.yaml").read_text(encoding="utf-8")
        assert "# Source: https://" in text
        prof = load_profile(name).profile  # validates pixels == (trim + 2 bleed) × dpi
        assert prof.pixel_size == (prof.pixels.width, prof.pixels.height)


def test_preview_contact_sheet(fixture_cli, tmp_path):
    target = tmp_path / "sheet.png"
    r = fixture_cli("preview", "bouclier", "kessara", "-o", target)
    assert r.code == 0, r.err
    w, h = px(63, 100), px(88, 100)
    with Image.open(target) as im:
        # margins 24, a pair = front + 8 + back, 28 between pairs, 22 for the caption
        assert im.size == (2 * 24 + 2 * (2 * w + 8) + 28, 2 * 24 + h + 22)
        kessara_back = im.crop((24 + (2 * w + 8) + 28 + w + 8, 24, 24 + (2 * w + 8) + 28 + 2 * w + 8, 24 + h))
        assert kessara_back.convert("RGB").getpixel((5, 5)) == (0x20, 0x24, 0x3a)  # the moon layout's night
    r = fixture_cli("preview", "nope")
    assert r.code == 1 and "unknown card id 'nope'" in r.err


def test_export_usage_errors(fixture_cli):
    assert fixture_cli("export").code == 2
    r = fixture_cli("export", "pod")
    assert r.code == 2 and "--profile" in r.err
    r = fixture_cli("export", "png", "--profile", "x")
    assert r.code == 2
    r = fixture_cli("export", "gif")
    assert r.code == 2 and "'png'" in r.err


@pytest.mark.slow
def test_same_input_same_bytes(fixture_cli, tmp_path):
    """Two exports of the same data write byte-identical files (PNG, TTS, POD PDF)."""
    import hashlib

    def digests(folder: Path) -> dict[str, str]:
        return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(folder.iterdir())}

    for args in (("png", "--bleed"), ("tts", "--url-base", "https://x.org"),
                 ("pod", "--profile", "drivethrucards-poker")):
        a, b = tmp_path / f"{args[0]}-a", tmp_path / f"{args[0]}-b"
        assert fixture_cli("export", *args, "-o", a).code == 0
        assert fixture_cli("export", *args, "-o", b).code == 0
        assert digests(a) == digests(b) and len(digests(a)) >= 2


def test_missing_art_is_a_warning_and_strict_writes_nothing(cli, monkeypatch, tmp_path):
    import shutil

    register_fixture_game(monkeypatch)
    data = tmp_path / "data"
    shutil.copytree(FIXTURE_DATA, data)
    (data / "fixture_deck" / "art" / "flamme.png").unlink()
    out = tmp_path / "png"
    base = ("--data", data, "export", "fixture_deck", "png", "--templates", FIXTURE_TEMPLATES, "-o", out)
    r = cli(*base)
    assert r.code == 0 and "warning:" in r.err and "art 'art/flamme.png': image not found" in r.err
    assert (out / "boule-de-feu.png").exists()
    shutil.rmtree(out)
    r = cli(*base, "--strict")
    assert r.code == 1 and "(--strict)" in r.err and not out.exists()


@pytest.mark.slow
def test_the_png_bench_runs(tmp_path):
    """bench/export_png.py still works (its breakdown, at a low dpi; nothing timed here)."""
    import importlib.util
    import sys

    from conftest import ROOT

    spec = importlib.util.spec_from_file_location("bench_export_png", ROOT / "bench" / "export_png.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules["bench_export_png"] = module
    try:
        spec.loader.exec_module(module)
        parts = module.breakdown("maphr", 36, 0.0, tmp_path)
        pool = module.compare_workers("maphr", 36, 0.0, tmp_path / "workers", 1)
    finally:
        sys.modules.pop("bench_export_png", None)
    assert (parts["faces"], parts["cards"], parts["size"]) == (80, 250, (px(70, 36), px(70, 36)))
    assert len(list(tmp_path.glob("*.png"))) == 80
    assert pool["faces"] == 80 and pool["workers"] >= 1 and len(list((tmp_path / "workers" / "w1").glob("*.png"))) == 80


@pytest.mark.slow
def test_png_export_over_processes_writes_the_bytes_of_one_process(tmp_path):
    """Issue 32: the export rasterises and encodes in forked workers; every PNG (and
    faces.json) is the same bytes as one process writes, in the same order, with progress
    counted face by face."""
    import hashlib

    from cardforge.data.loading import load_game_data
    from cardforge.games import find_game
    from cardforge.render.cards.faces import deck_faces
    from cardforge.render.exports.export_png import export_pngs, worker_count

    game = find_game("tunhell")
    faces = deck_faces(game, load_game_data(game), 3.0)
    assert len(faces.all) >= 20  # enough for several runs of pages per worker
    results, ticks = {}, {}
    for workers in (1, 3):
        out = tmp_path / f"w{workers}"
        counted: list[int] = []
        written = export_pngs(faces, out, 60, workers=workers, progress=counted.append)
        assert [w.face.name for w in written] == [f.name for f in faces.all]
        results[workers] = {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(out.iterdir())}
        ticks[workers] = sum(counted)
    assert results[1] == results[3] and len(results[1]) == len(faces.all) + 1
    assert ticks[1] == ticks[3] == len(faces.all)
    assert worker_count(3) == 1 and worker_count(500, 2) == 2 and worker_count(2, 8) == 2
