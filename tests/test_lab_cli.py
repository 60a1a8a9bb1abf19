"""`cardforge plays add | list | export | import` (issue 33): every play tied to the deck it was
played with, the same log as `cardforge serve`; exit codes 0/1/2 and located errors; old logs
migrate (a log the shipped schema 3 wrote)."""

from __future__ import annotations

import json
import sqlite3

import pytest
import yaml
from lab_support import example_final

from cardforge.data.loading import load_game_data
from cardforge.games import find_game
from cardforge.lab.facts import deck_of_data, fingerprint
from cardforge.playlog.store import SCHEMA_VERSION, PlayLog

from conftest import FIXTURES

EXAMPLE = example_final("maphr")


def _record(tmp_path, version="0.1", game="maphr", change=None):
    """A build record as `cardforge build` writes it (format 2), of Maphr's cards as they are
    (``change``: (card, field, value) made in it)."""
    deck = deck_of_data("maphr", load_game_data(find_game("maphr")))
    cards = {cid: {"face": "0" * 16, "copies": c["copies"], "stamp": f"v{version} · 000000", "name": c["name"],
                   "kind": c["kind"], "data": dict(c["data"])} for cid, c in deck.cards.items()}
    if change:
        card, field, value = change
        cards[card]["data"][field] = value
    path = tmp_path / f"printed-{version}.json"
    path.write_text(json.dumps({"format": 2, "game": game, "version": version, "cards": cards, "printables": None}),
                    encoding="utf-8")
    return path


def test_add_records_the_deck_the_choices_and_the_cards(cli, tmp_path, log_db):
    db = log_db
    r = cli("plays", "add", "maphr", EXAMPLE, "--db", db, "--date", "2026-11-20", "--first", "Ben", "--minutes", "1:25",
            "--location", "chez Ana")
    assert r.code == 0, r.err
    deck = deck_of_data("maphr", load_game_data(find_game("maphr")))
    assert r.out.strip() == (f"maphr: play #1 saved — 2026-11-20, deck v0.2 · {deck.fingerprint} (working data), "
                             "3 players, won by Ben")
    log = PlayLog(db)
    play = log.play(1)
    assert (play["deck_version"], play["deck_fp"], play["deck_source"]) == ("0.2", deck.fingerprint, "data")
    assert (play["played_on"], play["duration_min"], play["location"], play["first_seat"], play["source"]) == (
        "2026-11-20", 85, "chez Ana", 1, "cli")
    facts = json.loads(play["facts_json"])
    assert facts["choices"] == [{"clan": "irongradd"}, {"clan": "pic-ardent"}, {"clan": "taillepierre"}]
    # the deck's cards named in each mine (Alice's inline Forge runique is no card of the deck)
    assert facts["cards"] == [
        {"improvements": {"bureau-ordination-logique-tunnels": 1, "comptoir": 1, "etayage": 1}},
        {"improvements": {"bibliotheque": 1, "cabinet-du-cartographe": 1, "cantine-des-mineurs": 1,
                          "hotel-des-monnaies": 1, "lampes-a-huile": 1, "portes-de-fer": 1}},
        {}]
    assert set(log.decks("maphr")) == {deck.fingerprint}
    # the same file, date and deck again: nothing added
    again = cli("plays", "add", "maphr", EXAMPLE, "--db", db, "--date", "2026-11-20", "--json")
    assert again.code == 0 and again.json["added"] is False and again.json["play"] == 1
    assert len(log.plays()) == 1
    listed = cli("plays", "list", "--db", db)
    assert listed.out.strip() == f"#1     2026-11-20  maphr            v0.2 · {deck.fingerprint}      Alice 67, ★Ben 67, Cid 10"


def test_a_printed_deck_is_recorded_and_scores_with_its_own_cards(cli, tmp_path, log_db):
    db = log_db
    # the printed v0.1 gave Étayage 4 VP (the data now: 1): Alice's improvements 7 → 10 VP
    record = _record(tmp_path, "0.1", change=("etayage", "vp", 4))
    r = cli("plays", "add", "maphr", EXAMPLE, "--db", db, "--printed", record, "--json")
    assert r.code == 0, r.err
    assert r.json["deck"]["version"] == "0.1" and r.json["deck"]["source"] == "printed printed-0.1.json"
    cards = {cid: {"name": c["name"], "kind": c["kind"], "copies": c["copies"], "data": c["data"]}
             for cid, c in json.loads(record.read_text())["cards"].items()}
    assert r.json["deck"]["fingerprint"] == fingerprint(cards, "0.1")
    play = PlayLog(db).play(1)
    alice = play["result"]["players"][0]
    assert alice["breakdown"]["improvement_vp"] == 10 and alice["total"] == 70  # 67 with today's Étayage
    assert play["result"]["winners"] == ["Alice"]
    stored = PlayLog(db).decks("maphr")[r.json["deck"]["fingerprint"]]
    assert stored.cards["etayage"]["data"]["vp"] == 4 and stored.version == "0.1"


def test_bad_input_exit_codes_and_located_errors(cli, tmp_path, log_db, write_yaml):
    db = log_db
    state = yaml.safe_load(EXAMPLE.read_text(encoding="utf-8"))
    state["players"][1]["clan"] = "pic-ardant"
    bad = write_yaml("bad.yaml", yaml.safe_dump(state, allow_unicode=True, sort_keys=False))
    r = cli("plays", "add", "maphr", bad, "--db", db)
    assert r.code == 1
    assert "bad.yaml:" in r.err and "player 'Ben' (#2): clan: unknown clan 'pic-ardant'" in r.err
    assert PlayLog(db).plays() == []  # nothing saved
    r = cli("plays", "add", "maphr", tmp_path / "missing.yaml", "--db", db)
    missing = tmp_path / "missing.yaml"
    assert (r.code, r.err.strip()) == (1, f"error: cannot add {missing} (1 problem):\n  - {missing}: file not found")
    r = cli("plays", "add", "maphr", EXAMPLE, "--db", db, "--date", "2026-13-01")
    assert r.code == 2 and "'--date'" in r.err and "a date is YYYY-MM-DD" in r.err
    r = cli("plays", "add", "maphr", EXAMPLE, "--db", db, "--first", "Zoé")
    assert r.code == 2 and "'Zoé' is neither a seat (1 to 3) nor a player of this play (Alice, Ben, Cid)" in r.err
    r = cli("plays", "add", "maphr", EXAMPLE, "--db", db, "--first", "4")
    assert r.code == 2 and "'--first'" in r.err
    r = cli("plays", "add", "maphrr", EXAMPLE, "--db", db)
    assert r.code == 2 and "did you mean 'maphr'" in r.err
    other = _record(tmp_path, "0.1", game="tunhell")
    r = cli("plays", "add", "maphr", EXAMPLE, "--db", db, "--printed", other)
    assert r.code == 1 and "this record is of the game 'tunhell', not 'maphr'" in r.err
    broken = _record(tmp_path, "0.0", change=("etayage", "vp", "beaucoup"))
    r = cli("plays", "add", "maphr", EXAMPLE, "--db", db, "--printed", broken)
    assert r.code == 1 and "card 'etayage': vp:" in r.err and str(broken) in r.err
    r = cli("plays", "list", "--db", db, "--version", "0.3..0.1")
    assert r.code == 2 and "the first version comes after the second" in r.err
    assert PlayLog(db).plays() == []


def _two_plays(cli, tmp_path, db):
    assert cli("plays", "add", "maphr", EXAMPLE, "--db", db, "--date", "2026-11-01").code == 0
    record = _record(tmp_path, "0.1")
    assert cli("plays", "add", "maphr", EXAMPLE, "--db", db, "--date", "2026-10-01", "--printed", record).code == 0
    return db


def test_list_and_a_version_selection(cli, tmp_path, log_db):
    db = _two_plays(cli, tmp_path, log_db)
    r = cli("plays", "list", "maphr", "--db", db, "--json")
    assert [(p["play"], p["played_on"], p["deck"]["version"]) for p in r.json["plays"]] == [
        (1, "2026-11-01", "0.2"), (2, "2026-10-01", "0.1")]
    r = cli("plays", "list", "maphr", "--db", db, "--version", "since 0.2", "--json")
    assert [p["play"] for p in r.json["plays"]] == [1]
    r = cli("plays", "list", "tunhell", "--db", db)
    assert r.code == 0 and r.out.strip() == "no play of tunhell"


def test_export_and_import_csv_keep_versions_and_choices(cli, tmp_path, log_db, new_log_db):
    db = _two_plays(cli, tmp_path, log_db)
    out = tmp_path / "plays.csv"
    r = cli("plays", "export", "--db", db, "-o", out)
    assert r.code == 0, r.err
    rows = out.read_text(encoding="utf-8").splitlines()
    header = rows[0].split(",")
    assert header[:12] == ["play", "played_on", "game", "mode", "player", "seat", "first", "rank", "winner", "total",
                           "version", "clan"]
    assert rows[1].split(",")[10:12] == ["0.1", "irongradd"]  # the older play first (by date)
    fresh = new_log_db()
    r = cli("plays", "import", out, "--db", fresh)
    assert (r.code, r.out.strip()) == (0, f"{out}: 2 plays added, 0 already in the log ({fresh})")
    log = PlayLog(fresh)
    plays = {p.played_on: p for p in log.plays()}
    assert (plays["2026-10-01"].deck_version, plays["2026-11-01"].deck_version) == ("0.1", "0.2")
    assert plays["2026-10-01"].deck_source == "import" and plays["2026-10-01"].deck_fp is None
    facts = json.loads(log.play(plays["2026-10-01"].id)["facts_json"])
    assert facts == {"format": 1, "choices": [{"clan": "irongradd"}, {"clan": "pic-ardent"}, {"clan": "taillepierre"}]}
    again = cli("plays", "import", out, "--db", fresh, "--json")
    assert again.json["added"] == 0 and again.json["skipped"] == 2
    # a clan by its name is read as its id; an unknown one is located by row and column
    text = out.read_text(encoding="utf-8").replace(",irongradd,", ",Irongradd,", 1)
    named = tmp_path / "named.csv"
    named.write_text(text.replace("2026-10-01", "2026-09-01"), encoding="utf-8")
    r = cli("plays", "import", named, "--db", fresh, "--json")
    assert r.code == 0 and (r.json["added"], r.json["skipped"]) == (1, 1)  # the other play is in the log
    moved = next(p for p in PlayLog(fresh).plays() if p.played_on == "2026-09-01")
    assert json.loads(PlayLog(fresh).play(moved.id)["facts_json"])["choices"][0] == {"clan": "irongradd"}
    bad = tmp_path / "bad.csv"
    bad.write_text(text.replace(",pic-ardent,", ",pic-ardant,", 1), encoding="utf-8")
    r = cli("plays", "import", bad, "--db", fresh)
    assert r.code == 1
    assert f"{bad}: row 3: column L (clan): 'pic-ardant' is not a clan of Les Mines de Maphr (known:" in r.err
    assert "nothing imported" in r.err
    bad.write_text(text.replace(",0.1,", ",v 0.1,", 1), encoding="utf-8")
    r = cli("plays", "import", bad, "--db", fresh)
    assert r.code == 1 and "column K (version): a version as on the cards' stamps (0.3, v1.2), got 'v 0.1'" in r.err


def test_export_and_import_a_backup_keep_decks_and_facts(cli, tmp_path, log_db, new_log_db):
    db = _two_plays(cli, tmp_path, log_db)
    out = tmp_path / "log.json"
    assert cli("plays", "export", "--db", db, "-o", out).code == 0
    doc = json.loads(out.read_text(encoding="utf-8"))
    assert doc["schema"] == SCHEMA_VERSION == 5 and len(doc["decks"]) == 2
    fresh = new_log_db()
    r = cli("plays", "import", out, "--db", fresh, "--json")
    assert r.code == 0 and r.json["added"] == 2
    a, b = PlayLog(db), PlayLog(fresh)
    assert set(a.decks("maphr")) == set(b.decks("maphr"))
    for play in a.plays():
        other = b.play(b.play_by_uid(a.play(play.id)["uid"]))
        assert (other["deck_version"], other["deck_fp"], other["facts_json"]) == (
            play.deck_version, play.deck_fp, a.play(play.id)["facts_json"])
    assert a.backup() == b.backup().replace(str(fresh), str(db))
    r = cli("plays", "export", "--db", db, "--game", "maphr", "--format", "json")
    assert r.code == 2 and "--game is for CSV" in r.err


def test_a_log_of_schema_3_migrates(tmp_path):
    """The play log as issue 30 shipped it: the lab reads its plays as "unrecorded" versions,
    the choices and cards read from their final states; the imported play counts in the plays only."""
    from cardforge.lab.view import build_view

    path = tmp_path / "old.db"
    with sqlite3.connect(path) as db:
        db.executescript(FIXTURES.joinpath("playlog", "schema3.sql").read_text(encoding="utf-8"))
    log = PlayLog(path)
    assert log.version() == 5
    p1 = log.play(1)
    assert (p1["deck_version"], p1["deck_fp"], p1["facts_json"], p1["duration_min"]) == (None, None, None, 85)
    game = find_game("maphr")
    data = load_game_data(game)
    view = build_view(game, data, log.lab_plays("maphr"), log.decks("maphr"))
    (group,) = view.groups
    assert (group.label, group.plays, view.versions[0].label) == ("unrecorded", 2, "unrecorded")
    clans = {r.key: r.rate.text() for r in group.choices["clan"]}
    assert clans == {"irongradd": "0 % · 0 of 1", "pic-ardent": "100 % · 1 of 1", "taillepierre": "0 % · 0 of 1"}
    assert group.choice_missing == {"clan": 2}  # the imported play's two seats
    assert group.seats_with_facts == 3 and group.plays_with_facts == 1
    # a play added now records its deck beside the old ones
    number = log.add_play(game="maphr", title="Les Mines de Maphr", mode=None, state_yaml="",
                          result=p1["result"], deck=deck_of_data("maphr", data))
    assert log.play(number)["deck_version"] == "0.2"
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        assert db.execute("PRAGMA foreign_key_check").fetchall() == []


@pytest.mark.parametrize("args, message", [
    (("--version", "x y"), "'x y' is not a version selection"),
    (("--compare", "0.2"), "two versions, OLD,NEW"),
    (("--compare", "0.1,0.9"), "no play of version 0.1, 0.9 in the log (versions: v0.2)"),
    (("--min-plays", "0"), "a whole number from 1 to 1000"),
])
def test_report_options_are_checked(cli, tmp_path, log_db, args, message):
    db = log_db
    assert cli("plays", "add", "maphr", EXAMPLE, "--db", db).code == 0
    r = cli("report", "maphr", "--db", db, "-o", tmp_path / "r.pdf", *args)
    assert r.code == 2 and message in r.err, r.err
    assert not (tmp_path / "r.pdf").exists()


@pytest.mark.parametrize("game", ["maphr", "tunhell", "mine_all_mine", "cristaux", "imperial_miners"])
def test_every_shipped_example_is_added_with_what_its_game_declares(cli, tmp_path, log_db, game):
    db = log_db
    r = cli("plays", "add", game, example_final(game), "--db", db, "--json")
    assert r.code == 0, r.err
    play = PlayLog(db).play(1)
    facts = json.loads(play["facts_json"])
    assert play["deck_version"] == load_game_data(find_game(game)).meta.version
    seats = len(play["result"]["players"])
    assert len(facts["choices"]) == seats
    if game == "cristaux":  # the ♚ is the choice it declares: the example's Gurts holds it
        assert [c["king"] for c in facts["choices"]] == [True] + [False] * (seats - 1)
    if game == "tunhell":  # loot counted per card, the hand and the trophies by card
        assert set(facts["cards"][0]) <= {"loot", "hand", "trophies"} and facts["cards"][0]["loot"]
    if game == "mine_all_mine":  # a final state of rounds: no player's cards to read
        assert "cards" not in facts


def test_plays_add_takes_many_final_states_in_one_transaction(cli, tmp_path, log_db):
    """Issue 39: 10,000 `plays add` took 961 s, a process and a sync each. Several files are added
    together, all or none: a bad one adds nothing; the same file twice is one play."""
    import shutil

    from cardforge.playlog.store import PlayLog

    db = log_db
    files = []
    for i in range(3):
        shutil.copy(EXAMPLE, tmp_path / f"p{i}.yaml")
        files.append(tmp_path / f"p{i}.yaml")
    bad = tmp_path / "bad.yaml"
    bad.write_text("players: 3\n", encoding="utf-8")
    r = cli("plays", "add", "maphr", *files, bad, "--db", db)
    assert r.code == 1 and "bad.yaml" in r.err and PlayLog(db).lab_stamp("maphr")[0] == 0  # nothing added
    r = cli("plays", "add", "maphr", files[0], files[1], "--db", db, "--date", "2026-11-20", "--json")
    # the same final state, date and deck: one play (its uid), as when added twice one by one
    assert r.code == 0 and r.json["files"] == 2 and r.json["plays"] == [1, 1]
    r = cli("plays", "add", "maphr", files[2], "--db", db, "--date", "2026-11-21")
    assert r.code == 0 and "play #2 saved" in r.out
    assert cli("plays", "add", "maphr", "-", files[0], "--db", db).code == 2
