"""Mine, All Mine!'s card faces, read back from the built deck PDFs: the ship card's 4 options,
each along its own edge and readable with the card turned that way (square cards, in
deck-ship.pdf), the planet face with its moon face behind it, the extra and score cards (poker,
deck.pdf), French labels only, no missing-layout warning."""

from __future__ import annotations

import re

import pypdf
import pytest

from cardforge.data.loading import load_game_data
from cardforge.games import find_game
from cardforge.render.cards.decks import build_decks
from cardforge.settings import BuildSettings
from cardforge.testing import rules_module

from render_helpers import card_clips, page_chars, page_texts_by_rect

_mine_all_mine_cards = rules_module("mine_all_mine", "cards")
PlanetCard = _mine_all_mine_cards.PlanetCard
ShipCard = _mine_all_mine_cards.ShipCard

BLEED = 3.0
PAGE_H = 210.0  # A4 landscape: poker cards 4 × 2 to a sheet
SHIP = 70.0  # mm: ship cards are square (a quarter turn must not show in the outline)
#: option → how far the card is turned (counter-clockwise) to read it on top: ships 1–3, action 4
TURNS = {1: 0, 2: 90, 3: 180, 4: 270}
STRIP = 18.5  # mm: an option's strip (band with badge and name, then the value cells) from its edge


@pytest.fixture(scope="module")
def deck(tmp_path_factory):
    game = find_game("mine_all_mine")
    data = load_game_data(game)
    out = tmp_path_factory.mktemp("mam")
    result = build_decks(game, data, BuildSettings(out_dir=out, paper="a4", gutter_mm=0), out / game.id)
    path = out / game.id / "deck.pdf"
    return data, result, path, pypdf.PdfReader(path)


@pytest.fixture(scope="module")
def ships(deck):
    """The square ship cards' file, from the same build."""
    data, result, path, reader = deck
    ship_path = path.with_name("deck-ship.pdf")
    return data, result, ship_path, pypdf.PdfReader(ship_path)


def box(clip, x, y, w, h):
    """A layout box (mm from the card's top-left, y down) of a card placed upright on a front
    page, as a page rectangle (x, y, w, h in mm, y up)."""
    cx, cy, cw, ch = clip.trim(BLEED)
    return (cx + x, cy + ch - y - h, w, h)


def card_texts(path, reader, page: int) -> list[str]:
    clips = card_clips(reader.pages[page])
    return page_texts_by_rect(path, page, [c.trim(BLEED) for c in clips])


def test_every_kind_has_its_layout_and_the_deck_counts(deck):
    data, result, path, reader = deck
    assert result.warnings == []  # no "layout 'ship' not found…", nothing outside a safe zone
    poker, square = result.entries
    # 3 planets + 2 extras + 1 score = 6 poker cards: one sheet, front + back
    assert (poker.path, poker.cards, poker.pages) == ("deck.pdf", 6, 2)
    assert [len(card_clips(p)) for p in reader.pages] == [6, 6]
    # 12 square ship cards in their own file, 6 to an A4 sheet
    assert (square.path, square.cards, square.pages) == ("deck-ship.pdf", 12, 4)
    ship_reader = pypdf.PdfReader(path.with_name("deck-ship.pdf"))
    assert [len(card_clips(p)) for p in ship_reader.pages] == [6, 6, 6, 6]
    for page in ship_reader.pages:
        for clip in card_clips(page):
            assert clip.trim(BLEED)[2:] == pytest.approx((SHIP, SHIP), abs=1e-3)


def read_turned(chars, clip, turn: int, depth: float = STRIP) -> list[list]:
    """What a player reads at the top of the card turned ``turn``° counter-clockwise: the
    characters pdfium finds drawn at that angle within ``depth`` mm of the edge then on top,
    as lines (top to bottom) of characters (left to right), in that turned card's frame."""
    x0, y0, w, h = clip.trim(BLEED)

    def frame(px, py):  # page mm → mm from the turned card's top-left corner, y down
        cx, cy = px - x0, y0 + h - py
        return {0: (cx, cy), 90: (cy, w - cx), 180: (w - cx, h - cy), 270: (h - cy, cx)}[turn]

    width = h if turn in (90, 270) else w
    picked = []
    for ch in chars:
        fx, fy = frame(*ch.centre)
        if ch.angle == turn and 0 <= fx <= width and 0 <= fy <= depth:
            xs = [frame(x, y)[0] for x in (ch.box[0], ch.box[2]) for y in (ch.box[1], ch.box[3])]
            picked.append((fy, min(xs), max(xs), ch))
    lines: list[list] = []
    for item in sorted(picked, key=lambda t: t[0]):
        if lines and item[0] - lines[-1][0][0] < 2.5:
            lines[-1].append(item)
        else:
            lines.append([item])
    return [sorted(line, key=lambda t: t[1]) for line in lines]


def as_text(line) -> str:
    """A line's characters, a space where they stand apart (by more than about a space's
    width: 9 % of the font size in mm per point, 0.8 mm at 9 pt)."""
    out, right = "", None
    for _, left, r, ch in line:
        if right is not None and left - right > 0.09 * ch.size:
            out += " "
        out += ch.text
        right = r
    return out


def option_lines(card: ShipCard, option: int) -> list[str]:
    """What option ``option`` must read: its badge and name, then its values (ships.yaml)."""
    if option == 4:
        a = card.action
        return [f"4 Action · {a.name}", " ".join(f"+{v}" if v else "–" for v in (a.speed, a.attack, a.cargo))]
    ship = card.ships[option - 1]
    return [f"{option} {ship.name}", f"{ship.speed} {ship.attack} {ship.cargo}"]


def ship_slots(reader):
    """(page, clip) of the 12 ship cards: 6 on the first sheet, 6 on the second."""
    return ([(0, c) for c in card_clips(reader.pages[0])] + [(2, c) for c in card_clips(reader.pages[2])])


def test_ship_card_1_reads_each_option_when_turned_to_it(ships):
    data, result, path, reader = ships
    chars = page_chars(path, 0)
    clip = card_clips(reader.pages[0])[0]  # ship card 1, first on the first sheet
    read = {n: [as_text(line) for line in read_turned(chars, clip, turn)] for n, turn in TURNS.items()}
    # carte vaisseau 1 (ships.yaml): Éclaireur 6/1/1, Frégate 3/3/2, Cargo léger 2/1/5, and the
    # action Postcombustion, +5 speed only (the others a dash); its text only repeated the +5
    assert read == {
        1: ["1 Éclaireur", "6 1 1"],  # upright, along the top edge
        2: ["2 Frégate", "3 3 2"],  # turned 90°: along the right edge
        3: ["3 Cargo léger", "2 1 5"],  # turned 180°: along the bottom edge
        4: ["4 Action · Postcombustion", "+5 – –"],  # turned 270°: along the left edge
    }
    # every turned character is in its option's strip (none elsewhere on the card)
    x0, y0, w, h = clip.trim(BLEED)
    on_card = [c for c in chars if x0 <= c.centre[0] <= x0 + w and y0 <= c.centre[1] <= y0 + h]
    for n, turn in TURNS.items():
        if turn:
            assert sum(len(line) for line in read_turned(chars, clip, turn)) == \
                sum(1 for c in on_card if c.angle == turn), n
    assert {c.angle for c in on_card} == {0, 90, 180, 270}
    # the centre, upright: the card's number, what a ship card is, how to play it, the icons' names
    centre = " ".join(page_texts_by_rect(path, 0, [box(clip, 18.4, 18.4, 33.2, 33.2)])[0].split())
    assert centre.startswith("Carte vaisseau 1 Tournez la carte : l'option lisible en haut, face")
    assert "est celle jouée. vitesse attaque soute v0.1" in centre


def test_every_ship_card_reads_its_ships_and_action_on_its_four_edges(ships):
    data, result, path, reader = ships
    ships = [c for c in data.cards if isinstance(c, ShipCard)]
    slots = ship_slots(reader)
    assert len(ships) == len(slots) == 12
    chars = {0: page_chars(path, 0), 2: page_chars(path, 2)}
    for card, (page, clip) in zip(ships, slots):
        for option, turn in TURNS.items():
            lines = read_turned(chars[page], clip, turn)
            assert [as_text(line) for line in lines] == option_lines(card, option), (card.id, option)
            # names (and badges) at 6.5 pt at least, values at 12 pt at least
            name, values = lines
            assert min(t[3].size for t in name) >= 6.5, (card.id, option)
            assert min(t[3].size for t in values) >= 12, (card.id, option)
        centre = page_texts_by_rect(path, page, [box(clip, 18.4, 18.4, 33.2, 16)])[0].split()
        assert centre == ["Carte", "vaisseau", str(card.number)]


def test_planet_face_front_and_moon_face_on_the_mirrored_back(deck):
    data, result, path, reader = deck
    planets = [c for c in data.cards if isinstance(c, PlanetCard)]
    fronts, backs = card_clips(reader.pages[0]), card_clips(reader.pages[1])
    front_texts = page_texts_by_rect(path, 0, [c.trim(BLEED) for c in fronts])
    back_texts = page_texts_by_rect(path, 1, [c.trim(BLEED) for c in backs])
    # deck.pdf: the planets 1–3 (slots 0–2), the two extra cards, the score card
    for slot, card in zip((0, 1, 2), planets):
        f, b = fronts[slot], backs[slot]
        # long-edge duplex on a landscape sheet: the back is mirrored top to bottom, turned 180°
        assert (b.x, b.w, b.h) == (f.x, f.w, f.h)
        assert b.y == pytest.approx(PAGE_H - f.y - f.h) and b.rotated and not f.rotated
        front, back = front_texts[slot], back_texts[slot]
        assert card.planet.name in front and f"Carte planète n° {card.number} · côté planète" in front
        assert {"Premier", "Deuxième", "Troisième"} <= set(front.split())
        assert card.moon.name not in front and "Quatrième" not in front
        # turned 180°, pdfium reads the back's words right to left: compare the words
        words = back.split()
        assert set(card.moon.name.split()) <= set(words)
        assert {"Quatrième", "Cinquième", "Sixième", "lune"} <= set(words)
        assert not {"Premier", "Deuxième", "Troisième"} & set(words)
    # Kessara: planet low end 3, 3, 2 (total 8), high end 4, 5, 3 (total 12); moon low 2, 1, 2
    # (total 5), high 3, 2, 4 (total 9) (planets.yaml). Issue 18: both ends print — the low end
    # upright in the lower half (circles 8.5 mm at right 5 mm, rows from y 52.8 mm), the high end
    # turned half a turn in the upper half (the same boxes mirrored through the card's centre).
    # (The ships are square and print apart, in deck-ship.pdf: Kessara is deck.pdf's first card.)
    kessara = fronts[0]
    w, h = kessara.trim(BLEED)[2:]
    low = page_texts_by_rect(path, 0, [box(kessara, w - 5 - 8.5, y + 0.75, 8.5, 8.5) for y in (52.8, 63.4, 74.0)])
    assert [v.strip() for v in low] == ["3", "3", "2"]
    high = page_texts_by_rect(path, 0, [box(kessara, 5, h - (y + 0.75) - 8.5, 8.5, 8.5) for y in (52.8, 63.4, 74.0)])
    assert [v.strip() for v in high] == ["4", "5", "3"]
    assert "Total : 8" in front_texts[0] and "(faible)" in front_texts[0]
    assert "(élevé)" in front_texts[0] and "12" in front_texts[0].split()  # « 12 : Total » read backwards
    assert {"5", "9"} <= set(back_texts[0].split())  # the moon's two totals


def test_extra_and_score_cards(deck):
    data, result, path, reader = deck
    texts = card_texts(path, reader, 0)
    sans_table = " ".join(texts[3].split())
    assert "Jouer sans table" in sans_table and "Carte supplémentaire" in sans_table
    assert "accrochez les clips" in sans_table
    en_ligne, score = (" ".join(t.split()) for t in texts[4:6])
    assert "Jouer en ligne" in en_ligne and "un hôte tient toutes les cartes" in en_ligne
    assert "Carte de score" in score and "Assemblez votre flotte" in score
    [card] = data.cards_of("score")
    # the track round the edge: every number from 1 to track_max, once
    numbers = [int(n) for n in re.findall(r"\b\d+\b", score)]
    track = [n for n in numbers if n not in (card.track_max, 0)]
    assert sorted(set(track) | {card.track_max}) == list(range(1, card.track_max + 1)) == list(range(1, 41))
    assert f"Au-delà de {card.track_max}, repartez de 1" in score


def test_faces_use_french_labels_only(deck, ships):
    text = ""
    for data, result, path, reader in (deck, ships):
        text += " ".join(t for page in range(len(reader.pages)) for t in card_texts(path, reader, page))
    # (« action » is French too: « 3 vaisseaux et 1 action »)
    english = re.findall(r"\b(speed|attack|cargo|ships|number|turns|resources|label|moon|planet|"
                         r"track_max|text|side|front|back)\b", text)
    assert english == []
    assert text.count("vitesse") == text.count("attaque") == text.count("soute") == 12


def test_backs_of_the_other_cards(deck, ships):
    data, result, path, reader = deck
    back = card_texts(path, reader, 1)[3:]  # the extra and score cards (the planets: their moons)
    assert len(back) == 3 and all(sorted(t.split()) == sorted("Mine, All Mine !".split()) for t in back)  # « Mine ! »: French typography
    # a ship card's back has no text at all: nothing that reads one way up
    data, result, path, reader = ships
    assert [t.strip() for page in (1, 3) for t in card_texts(path, reader, page)] == [""] * 12
