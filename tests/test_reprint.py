"""Reprinting only what changed (render/cards/reprint.py): every deck build records what it printed
(cards.json: each card's face fingerprint, copies, stamp and data, and the game's printables);
--changed-since an earlier record writes a pack, reprint.pdf, opening with a changelog and pull
list (also changes.md/.json), then only the new faces and extra copies."""

from __future__ import annotations

import json
import shutil

import pypdf
import pytest

from cardforge.data.loading import load_game_data
from cardforge.errors import RenderError
from cardforge.render.cards.decks import build_decks
from cardforge.settings import BuildSettings

from render_helpers import FIXTURE_DATA, FIXTURE_TEMPLATES, plain, register_fixture_game


@pytest.fixture
def game_copy(monkeypatch, tmp_path):
    """The fixture game's data and templates, copied so the test may edit them."""
    register_fixture_game(monkeypatch)
    from cardforge.games import find_game

    data_root, templates = tmp_path / "data", tmp_path / "templates"
    shutil.copytree(FIXTURE_DATA, data_root)
    shutil.copytree(FIXTURE_TEMPLATES, templates)
    return find_game("fixture_deck"), data_root, templates


def _build(game, data_root, templates, out, **options):
    data = load_game_data(game, root=data_root)
    return build_decks(game, data, BuildSettings(out_dir=out, **options), out / game.id, templates_dir=templates)


def _text(page) -> str:
    return plain(" ".join(page.extract_text().split()))


def _record(out, game_id="fixture_deck") -> dict:
    return json.loads((out / game_id / "cards.json").read_text(encoding="utf-8"))


def _edit(data_root, *pairs):
    cards = data_root / "fixture_deck" / "cards.yaml"
    text = cards.read_text(encoding="utf-8")
    for old, new in pairs:
        assert old in text, old
        text = text.replace(old, new)
    cards.write_text(text, encoding="utf-8")


def _names(path) -> str:
    return plain(" ".join(" ".join(p.extract_text().split()) for p in pypdf.PdfReader(path).pages))


def test_every_build_records_what_it_printed(game_copy, tmp_path):
    game, data_root, templates = game_copy
    _build(game, data_root, templates, tmp_path / "out")
    record = _record(tmp_path / "out")
    assert record["game"] == "fixture_deck" and record["format"] == 2 and record["version"] == "1.3"
    # every card of the data, copies: 0 ones too (not printed, but their data is diffed)
    assert {"boule-de-feu", "bouclier", "eclair", "jeton-or"} <= set(record["cards"])
    assert record["cards"]["cadeau-verso"]["copies"] == 0
    fire = record["cards"]["boule-de-feu"]
    assert (fire["copies"], fire["name"], fire["kind"]) == (3, "Boule de feu", "spell")
    assert fire["stamp"].startswith("v1.3 · ") and len(fire["stamp"]) == len("v1.3 · ") + 6
    # the card's data, for diffs (its copies apart: they are the record's own field)
    assert fire["data"]["text"] == "Infligez **3** dégâts ; gagnez 1 :coin: par ennemi touché."
    assert fire["data"]["cost"] == 3 and "copies" not in fire["data"]
    # the printables: no boards or aids in the fixture; its score pad's one row
    assert record["printables"]["pad"]["score-pad"]["data"]["rows"] == ["Points"]
    # the same data records the same thing
    _build(game, data_root, templates, tmp_path / "again")
    assert _record(tmp_path / "again") == record


def test_the_pack_holds_the_changed_faces_and_extra_copies(game_copy, tmp_path):
    game, data_root, templates = game_copy
    first = tmp_path / "first"
    _build(game, data_root, templates, first)
    kept = tmp_path / "printed.json"
    shutil.copy(first / game.id / "cards.json", kept)
    before = _record(first)["cards"]

    # nothing changed: no pack, an empty changelog
    out = tmp_path / "out"
    result = _build(game, data_root, templates, out, changed_since=kept)
    assert result.changes.empty
    assert not (out / game.id / "reprint.pdf").exists()
    assert json.loads((out / game.id / "changes.json").read_text(encoding="utf-8"))["add"] == []

    # a rule change on a card of 3 copies, a card removed, copies up (4 → 5) and down (2 → 1)
    _edit(data_root, ("Infligez **3** dégâts", "Infligez **4** dégâts"),
          ("  - id: bouclier\n    kind: spell\n    name: Bouclier\n",
           "  - id: bouclier\n    kind: spell\n    name: Bouclier\n    copies: 0\n"),
          ("    name: Jeton d'or\n    copies: 4\n", "    name: Jeton d'or\n    copies: 5\n"),
          ("    name: Éclair\n    copies: 2\n", "    name: Éclair\n    copies: 1\n"))
    result = _build(game, data_root, templates, out, changed_since=kept)
    after = _record(out)["cards"]
    # a copies-only change keeps the card's stamp; a face change gives a new one
    assert after["jeton-or"]["stamp"] == before["jeton-or"]["stamp"]
    assert after["eclair"]["stamp"] == before["eclair"]["stamp"]
    assert after["boule-de-feu"]["stamp"] != before["boule-de-feu"]["stamp"]
    plan = result.changes
    assert [(x.card, x.count, x.stamp, x.why) for x in plan.add] == [
        ("boule-de-feu", 3, after["boule-de-feu"]["stamp"], "changed"),
        ("jeton-or", 1, after["jeton-or"]["stamp"], "more copies")]
    assert [(x.card, x.count, x.stamp, x.why) for x in plan.take_out] == [
        ("boule-de-feu", 3, before["boule-de-feu"]["stamp"], "changed"),
        ("eclair", 1, before["eclair"]["stamp"], "fewer copies"),
        ("bouclier", 1, before["bouclier"]["stamp"], "removed")]
    [pack] = [e for e in result.entries if e.path == "reprint.pdf"]
    assert (pack.kind, pack.cards) == ("deck", 3 + 1)
    pages = pypdf.PdfReader(out / game.id / "reprint.pdf").pages
    # the changelog and its blank back (long-edge duplex), then one sheet: fronts, backs
    assert len(pages) == 2 + 2 == pack.pages
    changelog = _text(pages[0])
    # in the game's language (French), as the cards it goes with
    assert "À retirer de la boîte" in changelog and "À ajouter (imprimé dans ce paquet)" in changelog
    assert f"3 × Boule de feu — tampon {before['boule-de-feu']['stamp']} (sa face a changé)" in changelog
    assert f"1 × Éclair — tampon {before['eclair']['stamp']} (moins d'exemplaires)" in changelog  # _text: plain apostrophes
    assert f"1 × Bouclier — tampon {before['bouclier']['stamp']} (n'est plus dans le paquet)" in changelog
    assert f"1 × Jeton d'or — tampon {after['jeton-or']['stamp']} (plus d'exemplaires)" in changelog
    assert _text(pages[1]) == ""
    fronts = _text(pages[2])
    assert fronts.count("Boule de feu") == 3 and fronts.count("Jeton d'or") == 1
    assert "Infligez 4 dégâts" in fronts and "Éclair" not in fronts and "Bouclier" not in fronts
    # the same list beside it, in Markdown and JSON
    md = (out / game.id / "changes.md").read_text(encoding="utf-8")
    assert md.startswith("# Réimpression de fixture_deck\u202f: v1.3 → v1.3\n")
    assert f"- 1 × Bouclier — tampon {before['bouclier']['stamp']} (n’est plus dans le paquet)" in md
    js = json.loads((out / game.id / "changes.json").read_text(encoding="utf-8"))
    assert [(x["id"], x["count"]) for x in js["take_out"]] == [("boule-de-feu", 3), ("eclair", 1), ("bouclier", 1)]
    # the full deck is still built beside it
    assert "Éclair" in _text(pypdf.PdfReader(out / game.id / "deck.pdf").pages[0])


def test_a_version_bump_alone_reprints_nothing_unless_restamped(game_copy, tmp_path):
    game, data_root, templates = game_copy
    _build(game, data_root, templates, tmp_path / "first")
    kept = tmp_path / "first" / game.id / "cards.json"
    deck = data_root / "fixture_deck" / "deck.yaml"
    deck.write_text(deck.read_text(encoding="utf-8").replace('version: "1.3"', 'version: "1.4"'), encoding="utf-8")
    out = tmp_path / "out"
    result = _build(game, data_root, templates, out, changed_since=kept)
    assert result.changes.empty and result.changes.restamp_skipped == 7  # the 7 printed cards
    assert not (out / game.id / "reprint.pdf").exists()
    assert _record(out)["cards"]["eclair"]["stamp"].startswith("v1.4 · ")
    md = (out / game.id / "changes.md").read_text(encoding="utf-8")
    assert "7 carte(s) n’ont changé que de version (v1.3 → v1.4 sur le tampon)\u202f: non réimprimées" in md
    result = _build(game, data_root, templates, out, changed_since=kept, restamp=True)
    assert sum(x.count for x in result.changes.add) == 3 + 1 + 2 + 4 + 1 + 1 + 1  # every copy
    assert {x.why for x in result.changes.add} == {"restamped"}


def test_back_faces_carry_the_cards_stamp(game_copy, tmp_path):
    """A double-sided card's back (the planet's moon) is stamped like its front."""
    game, data_root, templates = game_copy
    _build(game, data_root, templates, tmp_path / "out")
    stamp = _record(tmp_path / "out")["cards"]["kessara"]["stamp"]
    pages = pypdf.PdfReader(tmp_path / "out" / game.id / "deck.pdf").pages
    [front] = [_text(p) for p in pages[0::2] if "Kessara Planète" in _text(p)]
    [back] = [_text(p).replace(" ", "") for p in pages[1::2] if "LunedeKessara" in _text(p).replace(" ", "")]
    assert f"Kessara Planète Lune de Kessara Jeu d'essai {stamp}" in front
    assert "LunedeKessara" + stamp.replace(" ", "") in back  # the moon layout: the name, the stamp
    # a shared back design is not a card's face: no stamp on it
    assert "v1.3" not in _text(pages[1])


def test_a_bad_record_is_a_clear_error(game_copy, tmp_path):
    game, data_root, templates = game_copy
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": 2, "game": "maphr", "cards": {}}', encoding="utf-8")
    with pytest.raises(RenderError) as exc:
        _build(game, data_root, templates, tmp_path / "out", changed_since=bad)
    message = "\n".join(str(p) for p in exc.value.problems)
    assert "bad.json" in message and "--changed-since" in message and "'maphr', not 'fixture_deck'" in message
    assert not (tmp_path / "out" / game.id / "deck.pdf").exists()
    bad.write_text('{"format": 1, "game": "fixture_deck", "cards": {}}', encoding="utf-8")
    with pytest.raises(RenderError) as exc:
        _build(game, data_root, templates, tmp_path / "out", changed_since=bad)
    assert "written by an older cardforge" in "\n".join(str(p) for p in exc.value.problems)
    with pytest.raises(RenderError) as exc:
        _build(game, data_root, templates, tmp_path / "out", changed_since=tmp_path / "missing.json")
    assert "no such file" in "\n".join(str(p) for p in exc.value.problems)


@pytest.mark.slow
def test_changed_aids_and_boards_are_listed_and_quiet_still_writes_the_lists(cli, tmp_path):
    data = tmp_path / "data"
    shutil.copytree("card_data/tunhell", data / "tunhell")
    out = tmp_path / "out"
    assert cli("--data", data, "build", "tunhell", "-o", out, "-q").code == 0
    kept = tmp_path / "printed.json"
    shutil.copy(out / "tunhell" / "cards.json", kept)
    aids = data / "tunhell" / "aids.yaml"
    text = aids.read_text(encoding="utf-8")
    aid_id = json.loads(kept.read_text(encoding="utf-8"))["printables"]["aids"]
    [(aid_key, aid)] = aid_id.items()
    import yaml

    loaded = yaml.safe_load(text)
    loaded["aids"][0]["title"] = loaded["aids"][0]["title"] + " (révisé)"
    aids.write_text(yaml.safe_dump(loaded, allow_unicode=True, sort_keys=False), encoding="utf-8")
    r = cli("--data", data, "build", "tunhell", "-o", out, "-q", "--changed-since", kept)
    assert r.code == 0, r.err
    assert r.out == ""  # -q prints nothing…
    js = json.loads((out / "tunhell" / "changes.json").read_text(encoding="utf-8"))  # …the lists are written
    assert js["printables"] == [{"section": "aids", "id": aid_key, "title": aid["title"] + " (révisé)",
                                 "why": "changed", "file": "aids.pdf", "pack": "reprint-aids.pdf"}]
    assert js["add"] == [] and js["take_out"] == []
    pages = pypdf.PdfReader(out / "tunhell" / "reprint.pdf").pages
    assert len(pages) == 2  # the changelog (and its back): no card to reprint
    assert f"aide de jeu « {aid['title']} (révisé) » modifiée : imprimée dans reprint-aids.pdf" in _text(pages[0])
    # the changed aid alone, as many copies as aids.pdf prints of it (one per player), with its back
    manifest = {f["path"]: f for f in json.loads((out / "tunhell" / "manifest.json").read_text())["files"]}
    assert manifest["reprint-aids.pdf"]["cards"] == manifest["aids.pdf"]["cards"]
    assert manifest["reprint-aids.pdf"]["pages"] == manifest["aids.pdf"]["pages"]
    assert aid["title"] in _text(pypdf.PdfReader(out / "tunhell" / "reprint-aids.pdf").pages[0])
    assert not (out / "tunhell" / "reprint-boards.pdf").exists()  # its board did not change
    r = cli("--data", data, "build", "tunhell", "-o", out, "--changed-since", kept, "--only", "decks")
    assert (f"tunhell:   - aid '{aid['title']} (révisé)' changed: not built by this build: build with "
            "--only aids") in r.out.splitlines()
    # the next plain build removes the pack and its lists (no stale pull list beside new PDFs)
    assert cli("--data", data, "build", "tunhell", "-o", out, "-q").code == 0
    assert not (out / "tunhell" / "reprint.pdf").exists() and not (out / "tunhell" / "changes.md").exists()
    assert not (out / "tunhell" / "reprint-aids.pdf").exists()


def test_restamp_needs_a_record(cli, tmp_path):
    r = cli("build", "tunhell", "-o", tmp_path, "--restamp")
    assert r.code == 2 and "--restamp goes with --changed-since RECORD" in r.err
