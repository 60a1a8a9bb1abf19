"""Issue 18, at the table: -v/-q on every command, Ctrl-C, --json failures, check of several
games, score-table labels (French as on the pad, or --lang en), mode and tie-break rows."""

from __future__ import annotations

import pytest

from cardforge.games import game_ids

from conftest import FIXTURES, ROOT

MAPHR = ROOT / "card_data" / "maphr" / "examples" / "final.yaml"


@pytest.mark.parametrize("command", [
    ["games"], ["check", "maphr"], ["setup", "maphr", "--players", "2", "--seed", "1"],
    ["score", "maphr", str(MAPHR)],
])
@pytest.mark.parametrize("flag", ["-v", "-q", "--verbose", "--quiet"])
def test_verbosity_flags_are_accepted_after_the_command(cli, command, flag):
    r = cli(*command, flag)
    assert r.code == 0, r.err
    r = cli(flag, *command)
    assert r.code == 0, r.err


def test_quiet_check_prints_only_the_verdict(cli):
    r = cli("check", "maphr", "-q")
    assert r.out == "maphr: OK\n"


def test_ctrl_c_exits_130_without_aborted(cli, monkeypatch):
    import cardforge.engine.scoring as scoring

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(scoring, "score_file", interrupted)
    r = cli("score", "maphr", MAPHR)
    assert r.code == 130
    assert "Aborted" not in r.err and "Traceback" not in r.err


@pytest.mark.slow
def test_check_takes_several_games_or_none(cli):
    r = cli("check", "maphr", "tunhell")
    assert r.code == 0
    assert "maphr: OK" in r.out and "tunhell: OK" in r.out and "cristaux" not in r.out
    r = cli("check")
    assert r.code == 0
    for gid in game_ids():
        assert f"{gid}: OK" in r.out
    out = cli("check", "--json").json
    assert out["ok"] is True and [g["game"] for g in out["games"]] == game_ids()
    assert cli("check", "maphr", "--json").json["game"] == "maphr"  # one game: its object


def test_check_of_several_games_fails_when_one_fails(cli):
    r = cli("--data", FIXTURES / "bad_data", "check", "tunhell", "maphr", "--json")
    assert r.code == 1
    out = r.json
    assert out["ok"] is False
    assert [(g["game"], g["ok"], len(g["problems"])) for g in out["games"]] == [("tunhell", False, 3),
                                                                              ("maphr", False, 1)]
    r = cli("--data", FIXTURES / "bad_data", "check", "tunhell", "maphr")
    assert r.code == 1 and "tunhell: 3 problems found" in r.err and "maphr: 1 problem found" in r.err


def test_setup_json_failure_is_a_json_object_on_stdout(cli):
    r = cli("setup", "tunhell", "--players", 9, "--json")
    assert r.code == 1 and r.err == ""
    assert r.json == {"ok": False, "error": "setup for tunhell is not playable", "problems": [
        {"severity": "error", "file": None, "line": None, "item": None, "field": "players",
         "message": "9 given, tunhell supports 2–4"}]}


def test_score_json_failure_names_file_player_and_field(cli, write_yaml):
    path = write_yaml("final.yaml", "players:\n  - {name: A, coins: -1, galleries: 12}\n"
                      "  - {name: B, coins: 2, galleries: 3}\n")
    r = cli("score", "maphr", path, "--json")
    assert r.code == 1 and r.err == ""
    problem = r.json["problems"][0]
    assert (problem["file"], problem["line"], problem["item"], problem["field"]) == (str(path), 2, "player 'A' (#1)", "coins")


def test_build_json(cli, tmp_path):
    r = cli("build", "tunhell", "--only", "pads", "-o", tmp_path, "--json")
    assert r.code == 0, r.err
    out = r.json
    assert out["ok"] is True
    (game,) = out["games"]
    assert game["game"] == "tunhell" and game["problems"] == []
    assert [(f["kind"], f["pages"], f["cards"]) for f in game["files"]] == [("pad", 1, 3)]
    assert game["files"][0]["path"] == (tmp_path / "tunhell" / "score-pad.pdf").as_posix()
    r = cli("--data", FIXTURES / "bad_data", "build", "tunhell", "-o", tmp_path, "--json")
    assert r.code == 1
    game = r.json["games"][0]
    assert game["ok"] is False and game["error"] == "card data for tunhell is invalid"
    assert len(game["problems"]) == 3


def test_score_rows_are_the_pads_french_labels_or_english(cli):
    fr = cli("score", "maphr", MAPHR).out.splitlines()
    assert fr[0] == "Les Mines de Maphr — score"
    assert fr[3].split() == ["Pièces", "÷", "6", "7", "8", "2"]
    assert fr[10].split() == ["Total", "67", "67", "10"]
    assert fr[11].split() == ["Pièces", "(départage)", "47", "53", "12"]  # the coins that decided
    assert fr[12].split() == ["Rang", "2", "1", "3"]
    en = cli("score", "maphr", MAPHR, "--lang", "en").out.splitlines()
    assert en[3].split() == ["Coins", "÷", "6", "7", "8", "2"]
    assert en[11].split() == ["Coins", "(tie-break)", "47", "53", "12"]
    assert en[12].split() == ["Rank", "2", "1", "3"]
    assert cli("score", "maphr", MAPHR, "--lang", "de").code == 2


def test_score_json_has_the_tie_break_values(cli):
    out = cli("score", "maphr", MAPHR, "--json").json
    assert [p["tiebreak"] for p in out["players"]] == [{"coins": 47}, {"coins": 53}, {"coins": 12}]
    assert out["tie_break"] == "tie on 67 broken by more coins"


def test_the_mode_is_in_the_header(cli):
    r = cli("score", "tunhell", ROOT / "card_data" / "tunhell" / "examples" / "final.yaml")
    assert r.out.splitlines()[0] == "TunHell — score (mode full)"
    r = cli("score", "cristaux", ROOT / "card_data" / "cristaux" / "examples" / "final.yaml", "--lang", "en")
    assert r.out.splitlines()[0] == "Cristaux Élémentaires Joailliers — score (mode classique)"
    assert cli("score", "tunhell", ROOT / "card_data" / "tunhell" / "examples" / "final.yaml", "--json").json["mode"] == "full"


def test_setup_text_is_a_readable_list(cli):
    r = cli("setup", "tunhell", "--players", 2, "--seed", 4)
    assert r.code == 0
    deal = r.out.split("Deal (seed 4):\n")[1]
    assert "[" not in deal and '"' not in deal  # no raw JSON
    assert "\n  piles:\n    pile 1: (18) " in deal
    assert "\n  hands:\n    hand 1: " in deal and "\n    hand 2: " in deal
    assert all(len(line) <= 100 for line in deal.splitlines())


def test_setup_check_json(cli, write_yaml):
    printed = cli("setup", "tunhell", "--players", 2, "--seed", 3, "--json").out
    path = write_yaml("deal.json", printed)
    r = cli("setup", "tunhell", "--check", path, "--json")
    assert r.code == 0, r.err
    assert r.json == {"ok": True, "game": "tunhell", "file": str(path), "problems": []}
    import json

    bad = json.loads(printed)
    bad["player_count"] = 3
    path = write_yaml("bad.json", json.dumps(bad))
    r = cli("setup", "tunhell", "--check", path, "--json")
    assert r.code == 1 and r.err == ""
    out = r.json
    assert out["ok"] is False and out["error"] == f"{path}: this tunhell deal breaks the rules"
    assert [p["field"] for p in out["problems"]] == ["player_count"]


def test_score_json_says_ok(cli):
    assert cli("score", "maphr", MAPHR, "--json").json["ok"] is True


def test_a_number_of_5000_digits_is_a_clean_error(cli, write_yaml):
    big = "9" * 5000
    path = write_yaml("final.yaml", f"players:\n  - {{name: A, vp: {big}, coins: 1, carts: 2}}\n"
                                    "  - {name: B, vp: 3, coins: 4, carts: 1}\n")
    r = cli("score", "imperial_miners", path)
    assert r.code == 1 and "internal error" not in r.err
    assert f"{path}:2: a whole number with 5,000 digits: at most 4,000 (set CARDFORGE_LIMIT_INT_DIGITS" in r.err


def test_setup_text_names_each_seat_by_its_player(cli):
    r = cli("setup", "maphr", "--players", 2, "--seed", 1)
    deal = r.out.split("Deal (seed 1):\n")[1]
    assert deal.startswith("  players:\n    Joueur 1:\n      clan: ")
    assert "\n    Joueur 2:\n" in deal and "      player: Joueur" not in deal
