"""`cardforge studio` (issue 43) at the HTTP level: a copy of Maphr, the studio refreshed by
hand (no file watcher), its app through Starlette's TestClient.

What is checked against what: an edited card's new picture is compared pixel for pixel with the
face drawn afresh by `render/cards/faces.py` (the export's and preview's path) from the edited data,
whose PDF holds the new words; the other faces keep their image address; a data problem lands
on the card whose entry holds its line and goes when fixed; the card's data row and layout
boxes name the lines they are written at (found here by reading the files); the visual diff's
printed side is the picture the studio showed before the edit."""

from __future__ import annotations

import io
import json
import shutil
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from cardforge.games import find_game
from cardforge.studio.app import StudioSettings, create_app, open_argv
from cardforge.studio.session import Studio

from conftest import ROOT

EFFECT = 'effect: "Votre mine passe au niveau III pour 10 :coin: au lieu de 30."'
EDITED = 'effect: "Désormais, votre mine passe au niveau III pour 10 :coin: au lieu de 30."'
DPI = 60  # small pictures: the test draws all 80 faces once


@pytest.fixture
def maphr(tmp_path, monkeypatch):
    """A studio over a copy of Maphr's data (and its own cache)."""
    shutil.copytree(ROOT / "card_data" / "maphr", tmp_path / "data" / "maphr")
    monkeypatch.setenv("CARDFORGE_DATA", str(tmp_path / "data"))
    monkeypatch.setenv("CARDFORGE_CACHE", str(tmp_path / "cache"))
    studio = Studio(find_game("maphr"), dpi=DPI)
    first = studio.refresh()
    assert first.structure and not studio.general, studio.general
    return studio, tmp_path / "data" / "maphr"


def client(studio: Studio, **settings) -> TestClient:
    return TestClient(create_app(studio, StudioSettings(**settings)), base_url="http://127.0.0.1")


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def line_of(path: Path, text: str) -> int:
    return next(i for i, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if text in line)


def pixels(png: bytes):
    from PIL import Image

    image = Image.open(io.BytesIO(png))
    image.load()
    return image.convert("RGB")


def fresh_face(studio: Studio, card_id: str):
    """The card's front drawn by the export's own path (deck_faces → faces_pdf → rasterise), and
    the text of that PDF page."""
    import pypdfium2 as pdfium

    from cardforge.data.loading import load_game_data
    from cardforge.layout.boxes import template_folders
    from cardforge.render.cards.faces import deck_faces, faces_pdf, rasterise
    from cardforge.render.cards.reprint import templates_digest

    faces = deck_faces(studio.game, load_game_data(studio.game), studio.bleed_mm, only=[card_id])
    faces.art.templates_digest = templates_digest(template_folders(studio.game, None))  # the stamp, as built
    pdf = faces_pdf(faces, faces.fronts)
    image = next(rasterise(pdf, [faces.fronts[0].pixels(DPI, studio.bleed_mm)]))
    doc = pdfium.PdfDocument(pdf)
    text = doc[0].get_textpage().get_text_range()
    doc.close()
    return image, text


def test_an_edit_redraws_that_card_alone_with_its_new_text(maphr):
    studio, folder = maphr
    web = client(studio)
    before = {f["name"]: f["src"] for f in web.get("/state").json()["faces"]}
    assert len(before) == 80 and before["etayage"].startswith("/img/")
    version = studio.version

    records = {cid: kept[3] for cid, kept in studio._kept_records.items()}
    edit(folder / "improvements.yaml", EFFECT, EDITED)
    studio.memo.reused = studio.memo.spliced = studio.memo.parsed = 0
    update = studio.refresh()
    assert update.changed == ["etayage"] and not update.structure  # its back is the shared one: unchanged
    # only that card's lines parsed and validated again (data/incremental.py); its record alone made
    assert (studio.memo.spliced, studio.memo.parsed) == (1, 0)
    assert studio.memo.reused == len(studio.data.cards) - 1
    made = {cid for cid, kept in studio._kept_records.items() if kept[3] is not records[cid]}
    assert made == {"etayage"}
    after = {f["name"]: f["src"] for f in web.get("/state").json()["faces"]}
    assert after["etayage"] != before["etayage"]
    assert {n: s for n, s in after.items() if n != "etayage"} == {n: s for n, s in before.items() if n != "etayage"}

    png = web.get(after["etayage"])
    assert png.status_code == 200 and png.headers["content-type"] == "image/png"
    assert png.headers["cache-control"] == "public, max-age=31536000, immutable"
    image, text = fresh_face(studio, "etayage")
    assert "Désormais" in text.replace("\r\n", " ").replace("\n", " ")
    assert pixels(png.content).tobytes() == image.tobytes()  # the studio shows that very face
    assert web.get(before["etayage"]).status_code == 404  # the old picture is gone

    with web.stream("GET", f"/events?v={version}&until={studio.version}") as stream:
        lines = [line for line in stream.iter_lines() if line.startswith("data: ")]
    message = json.loads(lines[-1][len("data: "):])
    assert message["version"] == studio.version
    assert [f["name"] for f in message["faces"]] == ["etayage"]
    assert message["faces"][0]["src"] == after["etayage"] and message["faces"][0]["errors"] == []

    again = studio.refresh()  # nothing changed: nothing drawn, nothing sent
    assert again.changed == []


def test_a_data_error_shows_on_its_card_and_clears(maphr):
    studio, folder = maphr
    web = client(studio)
    src = web.get("/state").json()["faces"][0]["src"]
    cards = folder / "improvements.yaml"
    cost_line = line_of(cards, "cost: 5")
    edit(cards, "cost: 5", 'cost: "beaucoup"')
    update = studio.refresh()
    assert update.changed == ["etayage"]
    state = web.get("/state").json()
    face = next(f for f in state["faces"] if f["name"] == "etayage")
    assert [e["line"] for e in face["errors"]] == [cost_line]
    assert face["errors"][0]["file"].endswith("improvements.yaml") and "cost" in face["errors"][0]["text"]
    assert face["src"]  # the last good picture stays
    assert all(not f["errors"] for f in state["faces"] if f["name"] != "etayage")
    assert state["problems"] == []
    html = web.get("/").text
    assert f"{face['errors'][0]['where']}" in html and "has-errors" in html

    edit(cards, 'cost: "beaucoup"', "cost: 5")
    update = studio.refresh()
    assert update.changed == ["etayage"]
    faces = web.get("/state").json()["faces"]
    assert all(not f["errors"] for f in faces) and faces[0]["src"] == src


def test_a_broken_deck_file_is_the_pages_problem(maphr):
    studio, folder = maphr
    deck = folder / "deck.yaml"
    good = deck.read_text(encoding="utf-8")
    deck.write_text(good + "\n  : [\n", encoding="utf-8")
    studio.refresh()
    assert studio.general and all("deck.yaml" in (p.file or "") for p in studio.general)
    assert "deck.yaml" in client(studio).get("/").text
    deck.write_text(good, encoding="utf-8")
    studio.refresh()
    assert studio.general == []


def test_a_click_finds_the_data_row_and_the_layout_boxes(maphr):
    studio, folder = maphr
    web = client(studio)
    details = web.get("/face/etayage").json()
    row = details["card"]
    assert row["file"].endswith("improvements.yaml") and row["line"] == line_of(folder / "improvements.yaml",
                                                                               "- id: etayage")
    assert row["fields"]["cost"] == 5 and row["fields"]["name"] == "Étayage" and "copies" not in row["fields"]
    layout_file = ROOT / details["layout"]["file"] if not Path(details["layout"]["file"]).is_absolute() \
        else Path(details["layout"]["file"])
    assert layout_file.name == "layout.yaml"
    lines = layout_file.read_text(encoding="utf-8").splitlines()
    assert details["boxes"]
    for box in details["boxes"]:
        written = lines[box["line"] - 1]
        assert written.strip().startswith(f"{box['name']}:") or f"{box['name']}:" in written, (box, written)
        assert 0 <= box["x"] and box["x"] + box["w"] <= details["face"]["w"] + 0.01
    assert details["bleed"] == 3.0
    # a face's size: Maphr's cards are 70 mm square, 3 mm of bleed each side
    assert (details["face"]["w"], details["face"]["h"]) == (76.0, 76.0)
    assert web.get("/face/nosuchcard").status_code == 404


def test_the_editor_opens_a_games_file_at_its_line(maphr):
    studio, folder = maphr
    launched = []
    web = client(studio, editor=["vim"], launch=launched.append)
    cards = folder / "improvements.yaml"
    r = web.post("/open", json={"file": str(cards), "line": 26})
    assert r.status_code == 200, r.text
    assert launched == [["vim", "+26", str(cards.resolve())]]
    assert open_argv(["/usr/bin/code"], cards, 7) == ["/usr/bin/code", "-g", f"{cards}:7"]
    outside = folder.parent.parent / "elsewhere.yaml"
    outside.write_text("x: 1\n", encoding="utf-8")
    assert web.post("/open", json={"file": str(outside), "line": 1}).status_code == 403
    assert web.post("/open", json={"file": str(folder / ".." / ".." / "elsewhere.yaml")}).status_code == 403
    assert web.post("/open", content=b"file=x", headers={"content-type": "text/plain"}).status_code == 415
    cross = web.post("/open", json={"file": str(cards)}, headers={"origin": "http://evil.example"})
    assert cross.status_code == 403
    assert len(launched) == 1
    assert client(studio).post("/open", json={"file": str(cards), "line": 1}).status_code == 403  # no --editor


def test_access_is_serves(maphr):
    studio, _ = maphr
    assert client(studio).get("/", headers={"host": "evil.example"}).status_code == 403  # DNS rebinding
    web = TestClient(create_app(studio, StudioSettings(token="t" * 22, local_only=False)),
                     base_url="http://192.168.1.5:8100")
    assert web.get("/state").status_code == 403
    first = web.get("/?token=" + "t" * 22, follow_redirects=False)
    assert first.status_code == 303 and "cf_access" in first.headers["set-cookie"]
    assert web.get("/state").status_code == 200  # the cookie now
    page = web.get("/")
    assert page.headers["cache-control"] == "no-store" and "default-src 'self'" in page.headers[
        "content-security-policy"]


def test_the_diff_shows_what_a_reprint_would_print(maphr, tmp_path):
    from cardforge.render.cards.reprint import build_record, write_record

    studio, folder = maphr
    record = tmp_path / "printed" / "cards.json"
    record.parent.mkdir()
    assert studio.data is not None and studio.art is not None and studio._faces is not None
    now = build_record(studio.game, studio.data, studio.art, [f.card for f in studio._faces.fronts],
                       with_printables=False)
    write_record(record, "maphr", now["version"], now["cards"])
    web = client(studio, printed=record)
    old_png = web.get(web.get("/face/etayage").json()["face"]["src"]).content
    unchanged = web.get("/diff")
    assert unchanged.status_code == 200 and "No card changed since that print." in unchanged.text

    edit(folder / "improvements.yaml", EFFECT, EDITED)
    studio.refresh()
    result = studio.diff(record)
    assert [(c["card"], c["why"]) for c in result["cards"]] == [("etayage", "changed")]
    change = result["cards"][0]
    assert change["pixels"] > 0
    assert pixels(web.get(change["printed"]).content).tobytes() == pixels(old_png).tobytes()
    new_src = web.get("/face/etayage").json()["face"]["src"]
    assert pixels(web.get(change["now"]).content).tobytes() == pixels(web.get(new_src).content).tobytes()
    page = web.get("/diff").text
    assert 'data-card="etayage"' in page and f"{change['pixels']} pixels changed" in page
    assert client(studio).get("/diff").status_code == 404  # no --printed


def test_cli_refuses_bad_arguments(cli, tmp_path):
    r = cli("studio", "no-such-game")
    assert r.code == 2 and "no-such-game" in r.out + r.err
    r = cli("studio", "maphr", "--printed", str(tmp_path / "none.json"))
    assert r.code == 2 and "none.json" in r.out + r.err
    r = cli("studio", "maphr", "--printed", str(tmp_path))
    assert r.code == 2 and "no cards.json there" in r.out + r.err


def test_the_command_serves_the_page_and_stops_on_ctrl_c(tmp_path):
    """`cardforge studio` in its own process: the address it prints answers with the game's
    faces; Ctrl-C ends it with exit 0."""
    import os
    import signal
    import subprocess
    import sys
    import threading
    import urllib.request

    from browser_support import free_port
    from waiting import PATIENCE, wait_until

    port = free_port()
    env = dict(os.environ, CARDFORGE_CACHE=str(tmp_path / "cache"), CARDFORGE_CONFIG=str(tmp_path / "config"))
    env.pop("CARDFORGE_DATA", None)
    proc = subprocess.Popen([sys.executable, "-m", "cardforge", "studio", "tunhell", "--port", str(port)],
                            cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    out: list[str] = []
    threading.Thread(target=lambda: out.extend(proc.stdout or []), daemon=True).start()
    try:
        wait_until(lambda: any("cardforge studio: open http://127.0.0.1:" in line for line in out) or
                   proc.poll() is not None, "the studio's address")
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/state") as response:
            state = json.load(response)
        assert state["game"] == "tunhell" and state["problems"] == []
        fronts = [f for f in state["faces"] if f["side"] == "front"]
        assert len(fronts) == 34  # TunHell's 34 cards (110 printed with their copies)
        assert any("tunhell: 3" in line and "faces in" in line for line in out), out
    finally:
        proc.send_signal(signal.SIGINT)
        code = proc.wait(PATIENCE)
    wait_until(lambda: any("cardforge studio: stopped." in line for line in out), "the studio's last line")
    assert code == 0


def test_a_drawing_problem_shows_on_the_face_drawn(maphr):
    """Text that no longer fits its box is found when the face is drawn: on that face alone,
    located at the card's entry; gone once the text is short again."""
    studio, folder = maphr
    cards = folder / "improvements.yaml"
    long = " ".join([EFFECT.split('"')[1]] * 30)
    edit(cards, EFFECT, f'effect: "{long}"')
    update = studio.refresh()
    assert update.changed == ["etayage"]
    problems = [p for f in studio.faces.values() for p in f.errors]
    assert len(problems) == 1 and problems[0].line == line_of(cards, "- id: etayage")
    assert "box 'effect': text does not fit" in problems[0].message
    edit(cards, f'effect: "{long}"', EFFECT)
    assert studio.refresh().changed == ["etayage"]
    assert not [p for f in studio.faces.values() for p in f.errors]


def test_the_boxes_shown_are_those_the_face_draws(tmp_path, monkeypatch):
    """A box whose `when:` is false on a card is not drawn there, nor outlined: Cristaux prints
    the three colour stripes on its multi-coloured cards only and the nature disc on cards that
    have a nature (its layout.yaml)."""
    monkeypatch.setenv("CARDFORGE_CACHE", str(tmp_path / "cache"))
    studio = Studio(find_game("cristaux"), dpi=20)
    studio.refresh()
    names = {card: {b["name"] for b in studio.details(card)["boxes"]}
             for card in ("orgue-royal", "stele-d-union")}
    assert {"stripe_red", "stripe_green", "stripe_blue", "nature_disc", "title"} <= names["orgue-royal"]
    assert "title" in names["stele-d-union"]
    assert not {"stripe_red", "stripe_green", "stripe_blue", "nature_disc", "nature"} & names["stele-d-union"]


def test_a_layout_edit_redraws_the_faces_of_that_layout(tmp_path, monkeypatch):
    """The improvements' band edge made thicker: every improvement's front is drawn again (its
    record — its stamp's fingerprint — made again too), no other face; undone, each face shows
    its first picture again."""
    shutil.copytree(ROOT / "card_data" / "maphr", tmp_path / "maphr")
    monkeypatch.setenv("CARDFORGE_CACHE", str(tmp_path / "cache"))
    studio = Studio(find_game(tmp_path / "maphr"), dpi=DPI)
    studio.refresh()
    first = {name: f.png for name, f in studio.faces.items()}
    improvements = {name for name, f in studio.faces.items() if f.kind == "improvement" and f.side == "front"}
    assert len(improvements) == 40
    layout = tmp_path / "maphr" / "templates" / "layout.yaml"
    edge = 'band_edge: {type: rect, y: 15mm, height: 0, stroke: "#3b2a1a", stroke_width: 0.8, bleed: true}'
    edit(layout, edge, edge.replace("0.8", "2.4"))
    update = studio.refresh()
    assert set(update.changed) == improvements
    edit(layout, edge.replace("0.8", "2.4"), edge)
    studio.refresh()
    assert {name: f.png for name, f in studio.faces.items()} == first


def test_a_problem_in_a_layouts_shared_part_shows_on_every_face_of_that_layout(tmp_path, monkeypatch):
    """The band edge is part of the improvements' frame, drawn once and reused by each face: its
    broken colour is found drawing the first one and said on all 40 (with the layout's file and
    line), on no other face; fixed, it goes from all."""
    shutil.copytree(ROOT / "card_data" / "maphr", tmp_path / "maphr")
    monkeypatch.setenv("CARDFORGE_CACHE", str(tmp_path / "cache"))
    studio = Studio(find_game(tmp_path / "maphr"), dpi=DPI)
    studio.refresh()
    layout = tmp_path / "maphr" / "templates" / "layout.yaml"
    edge = 'band_edge: {type: rect, y: 15mm, height: 0, stroke: "#3b2a1a", stroke_width: 0.8, bleed: true}'
    broken = edge.replace('"#3b2a1a"', '"{{ vars.nope.x }}"')
    edit(layout, edge, broken)
    studio.refresh()
    said = {name: [e["where"] + " " + e["message"] for e in f.as_json()["errors"]] for name, f in studio.faces.items()}
    with_problem = {name for name, texts in said.items() if texts}
    assert with_problem == {name for name, f in studio.faces.items() if f.kind == "improvement" and f.side == "front"}
    where = f"{layout}:{line_of(layout, 'band_edge:')}"
    assert all(texts == [f"{where} 'dict object' has no attribute 'nope' (StrictUndefined: every name must exist)"]
               for name, texts in said.items() if texts), said["etayage"]
    edit(layout, broken, edge)
    studio.refresh()
    assert not any(f.errors for f in studio.faces.values())


@pytest.mark.slow
def test_a_folder_replaced_by_a_copy_is_drawn_again_and_watched(maphr):
    """`git checkout` or a sync tool replaces the folder: the OS watcher listened to the old one.
    The studio's watcher notices within its tick, draws the new folder's cards and then hears
    saves in it."""
    import os

    from cardforge.studio.app import Watcher

    from waiting import wait_until

    studio, folder = maphr
    watcher = Watcher(studio, polling=False).start()
    try:
        wait_until(watcher.ready.is_set, "the studio's file watcher")
        before = studio.faces["etayage"].png
        copy = folder.with_name("maphr-copy")
        shutil.copytree(folder, copy)
        edit(copy / "improvements.yaml", EFFECT, EDITED)
        os.rename(folder, folder.with_name("maphr-old"))
        os.rename(copy, folder)
        wait_until(lambda: studio.faces["etayage"].png != before, "the replaced folder's card drawn")
        assert "désormais" in studio.text_of("etayage")
        drawn = studio.faces["poste-de-garde"].png
        edit(folder / "improvements.yaml", "Quand une caravane drow", "Lorsqu'une caravane drow")
        wait_until(lambda: studio.faces["poste-de-garde"].png != drawn, "a save in the new folder heard")
    finally:
        watcher.stop()
