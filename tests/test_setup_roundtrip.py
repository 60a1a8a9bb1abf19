"""`cardforge setup GAME --json` → file → `cardforge setup GAME --check FILE`, for every game,
player count, mode and setup option: the printed deal (whole object or its ``deal`` part, as JSON
or YAML) is accepted, and its derived fields are checked — a corrupted deal is rejected with the
file, the field, what was given and what was expected."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardforge.data.loading import load_game_data
from cardforge.engine.setup import check_setup_file, run_setup
from cardforge.games import find_game, game_ids

GAMES = tuple(game_ids())


def option_values(option) -> tuple:
    """Every value a declared setup option can take (``--short 3|6|9`` or not given, a flag on/off)."""
    if option.type == "flag":
        return (False, True)
    if option.type == "choice":
        return (option.default_value(), *option.choices)
    return (option.min, option.max)


def _requests() -> list[tuple[str, int, str, dict]]:
    out = []
    for game_id in GAMES:
        game = find_game(game_id)
        variants: list[dict] = [{}]
        for flag, option in sorted(game.options.items()):
            variants = [{**v, flag: value} for v in variants for value in option_values(option)]
        for players in range(game.min_players, game.max_players + 1):
            for mode in game.modes:
                out += [(game_id, players, mode, v) for v in variants]
    return out


REQUESTS = _requests()
_DATA: dict[str, object] = {}


def _data(game_id: str):
    if game_id not in _DATA:
        _DATA[game_id] = load_game_data(find_game(game_id))
    return _DATA[game_id]


def test_every_request_is_covered():
    # 3 maphr + 2 modes × 4 --short × 3 tunhell + 3 mine_all_mine + 3 modes × 2 × 4 cristaux
    # + 2 × 5 imperial_miners
    assert len(REQUESTS) == 3 + 24 + 3 + 24 + 10
    assert {r[0] for r in REQUESTS} == set(GAMES)


@pytest.fixture(scope="module")
def folder(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("deals")


_DUMPER = getattr(yaml, "CSafeDumper", yaml.SafeDumper)


def _forms(result: dict) -> dict[str, str]:
    """The four ways a user saves a printed deal."""
    return {
        "whole.json": json.dumps(result, ensure_ascii=False, indent=2),  # exactly what --json prints
        "deal.json": json.dumps(result["deal"], ensure_ascii=False, indent=2),
        "whole.yaml": yaml.dump(result, Dumper=_DUMPER, allow_unicode=True, sort_keys=False),
        "deal.yaml": yaml.dump(result["deal"], Dumper=_DUMPER, allow_unicode=True, sort_keys=False),
    }


@pytest.mark.parametrize(("game_id", "players", "mode", "options"), REQUESTS,
                         ids=[f"{g}-{n}-{m}-{'-'.join(f'{k}={v}' for k, v in o.items()) or 'plain'}"
                              for g, n, m, o in REQUESTS])
@settings(max_examples=2, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**31 - 1))
@pytest.mark.slow
def test_printed_deal_checks_back(folder, game_id, players, mode, options, seed):
    game, data = find_game(game_id), _data(game_id)
    result = run_setup(game, data, players, mode, options, seed)
    for name, text in _forms(result).items():
        path = folder / f"{game_id}-{name}"
        path.write_text(text, encoding="utf-8")
        assert check_setup_file(game, data, path) == [], (name, seed)


# --- through the CLI: exit codes and messages -------------------------------------------------

def _printed(cli, game_id: str, *args) -> dict:
    r = cli("setup", game_id, *args, "--seed", 3, "--json")
    assert r.code == 0, r.err
    return r.json


def _check(cli, write_yaml, game_id: str, value: dict, name: str = "deal.json"):
    path = write_yaml(name, json.dumps(value, ensure_ascii=False, indent=2))
    return path, cli("setup", game_id, "--check", path)


def _problems(r, path: Path) -> list[str]:
    """The listed problems, without the «  - FILE[:LINE]: » prefix (asserting it names the file)."""
    out = []
    for line in r.err.splitlines():
        if line.startswith("  - "):
            rest = line[4:]
            assert rest.startswith(str(path)), line
            rest = rest[len(str(path)):]
            head, _, tail = rest.partition(": ")
            assert head == "" or head[1:].isdigit(), line  # «:LINE» or nothing
            out.append(tail)
    return out


@pytest.mark.parametrize("game_id", GAMES)
def test_cli_accepts_the_printed_deal_whole_and_part(cli, write_yaml, game_id):
    printed = _printed(cli, game_id, "--players", 2)
    for name, value in (("whole.json", printed), ("deal.json", printed["deal"])):
        path, r = _check(cli, write_yaml, game_id, value, name)
        assert r.code == 0, r.err
        assert r.out.strip() == f"{path}: the deal follows the rules of {game_id}"


def test_usage_errors_exit_2(cli, write_yaml, tmp_path):
    path, _ = _check(cli, write_yaml, "maphr", _printed(cli, "maphr", "--players", 2))
    # (--json is accepted with --check since issue 18: {ok, problems}, as check --json)
    for extra in (["--mode", "standard"], ["--seed", 3], ["--players", 2]):
        r = cli("setup", "maphr", "--check", path, *extra)
        assert r.code == 2, (extra, r.err)
    r = cli("setup", "tunhell", "--check", path, "--short", 3)
    assert r.code == 2 and "--short is not used with --check" in r.err
    r = cli("setup", "maphr", "--check", tmp_path / "missing.json")
    assert r.code == 2 and "file not found" in r.err


# --- Maphr ----------------------------------------------------------------------------------------

def test_maphr_derived_fields_are_checked(cli, write_yaml):
    printed = _printed(cli, "maphr", "--players", 4)
    bad = copy.deepcopy(printed)
    seats = bad["deal"]["players"]
    clan = seats[0]["clan_name"]
    seats[0]["clan_name"] = clan + "x"
    seats[1]["grey"] = not seats[1]["grey"]
    seats[2]["galleries_required"] = 12  # 11 at 4 players (9 for a grey clan)
    seats[3]["player"] = "Joueur 1"
    bad["deal"]["first_player"] = "Alice"
    bad["deal"]["draw_pile"] += 1
    bad["counts"]["galleries_required"] = 12
    bad["player_count"] = 3
    path, r = _check(cli, write_yaml, "maphr", bad)
    assert r.code == 1
    grey1 = seats[1]["grey"]
    grey2 = printed["deal"]["players"][2]["grey"]
    wanted2 = 9 if grey2 else 11
    hands = 16
    discard = len(printed["deal"]["discard"])
    assert _problems(r, path) == [
        f"player #1: clan_name: got '{clan}x', expected '{clan}' (the name of clan "
        f"'{seats[0]['clan']}' in card_data/maphr/clans.yaml)",
        f"player #2: grey: got {str(grey1).lower()}, expected {str(not grey1).lower()} (clan "
        f"'{seats[1]['clan']}' is {'not ' if grey1 else ''}a grey-dwarf clan)",
        *([] if wanted2 == 12 else [
            f"player #3: galleries_required: got 12, expected {wanted2} (11 at 4 players"
            + (f", 2 fewer for the grey-dwarf clan '{seats[2]['clan']}')" if grey2 else ")")]),
        "player #4: player: got 'Joueur 1', expected 'Joueur 4' (seats are numbered from 1, clockwise from "
        "the first player, in the order of the list)",
        "first_player: got 'Alice', expected 'Joueur 1, le joueur le plus barbu ; on joue ensuite dans le "
        "sens horaire'",
        f"draw_pile: got {250 - hands - discard + 1}, expected {250 - hands - discard} (250 cards − {hands} in "
        f"the hands − {discard} in the discard pile)",
        "player_count: got 3, expected 4 (the deal is for 4 players)",
        "counts.galleries_required: got 12, expected 11 for 4 players",
    ]


def test_maphr_corrupted_hands(cli, write_yaml):
    data = _data("maphr")
    deal = _printed(cli, "maphr", "--players", 3)["deal"]
    single = next(c.id for c in data.cards if c.copies == 1 and c.kind not in ("contract", "catastrophe"))
    catastrophe = next(c for c in data.cards if c.kind == "catastrophe")
    deal["players"][0]["hand"][0] = single  # the same single card in two hands
    deal["players"][1]["hand"][0] = single
    deal["players"][1]["hand"][1] = catastrophe.id
    deal["players"][2]["hand"].append("galerie-droite")  # 5 cards
    deal["discard"].append("galerie-droite")
    path, r = _check(cli, write_yaml, "maphr", deal)
    assert r.code == 1
    problems = _problems(r, path)
    assert (f"player #2: hand[0]: '{single}' is dealt 2 times across the hands and the discard pile, the "
            "deck has 1 copy of it") in problems
    assert (f"player #2: hand[1]: '{catastrophe.id}' is a catastrophe ({catastrophe.name}); a starting hand "
            "holds no contract or catastrophe (they are discarded and replaced)") in problems
    assert "player #3: hand: a starting hand holds 4 cards, got 5" in problems
    assert (f"discard[{len(deal['discard']) - 1}]: 'galerie-droite' is a gallery (Galerie droite); only "
            "contracts and catastrophes are discarded at setup (each is replaced by the next card of the "
            "pile)") in problems
    drawn = deal["draw_pile"]  # as printed: 250 − 12 in the hands − the discard pile as printed
    assert (f"draw_pile: got {drawn}, expected {drawn - 2} (250 cards − 13 in the hands − "
            f"{len(deal['discard'])} in the discard pile)") in problems


def test_unknown_fields_name_the_allowed_ones(cli, write_yaml):
    printed = _printed(cli, "maphr", "--players", 2)
    printed["note"] = "x"
    printed["deal"]["players"][0]["coins"] = 8
    path, r = _check(cli, write_yaml, "maphr", printed)
    assert r.code == 1
    assert _problems(r, path) == [
        "note: unknown field (allowed: game, player_count, mode, counts, steps, deal)",
        "player #1: coins: unknown field (allowed: player, name, clan, clan_name, grey, galleries_required, "
        "hand)",
    ]
    assert f"{path}:" in r.err  # located by line


def test_a_deal_of_another_game(cli, write_yaml):
    path, r = _check(cli, write_yaml, "maphr", _printed(cli, "tunhell", "--players", 2))
    assert r.code == 1
    assert _problems(r, path) == [f"game: this file holds a deal of tunhell, not maphr; check it with "
                                  f"`cardforge setup tunhell --check {path}`"]


# --- TunHell --------------------------------------------------------------------------------------

def test_tunhell_plus_card_in_initiation(cli, write_yaml):
    printed = _printed(cli, "tunhell", "--players", 3, "--mode", "initiation")
    first = printed["deal"]["piles"][0][0]
    printed["deal"]["piles"][0][0] = "coeur-d-or"
    path, r = _check(cli, write_yaml, "tunhell", printed)
    assert r.code == 1
    problems = _problems(r, path)
    assert problems[0] == "pile 1: 'coeur-d-or' is a full-game card (+): not used in initiation"
    # and the card it replaced is now missing from the deck: the piles are still 3 × 14
    assert len(problems) == 1, (first, problems)


def test_tunhell_wrong_counts_and_request(cli, write_yaml):
    printed = _printed(cli, "tunhell", "--players", 3, "--mode", "full", "--short", 3)
    bad = copy.deepcopy(printed)
    bad["mode"] = "initiation"
    bad["player_count"] = 4
    bad["counts"]["pile_size"] = 17
    bad["counts"]["dwarfs"] = 4
    del bad["counts"]["hand_limit"]
    bad["steps"][0] = "Mélangez."
    path, r = _check(cli, write_yaml, "tunhell", bad)
    assert r.code == 1
    problems = _problems(r, path)
    assert problems[:3] == [
        "player_count: got 4, expected 3 (the deal is for 3 players)",
        "mode: got 'initiation', expected 'full' (the deal is a 'full' deal)",
        "counts.pile_size: got 17, expected 16 for 3 players, mode full, --short 3",
    ]
    assert problems[3] == ("counts.dwarfs: not a count of tunhell (counts: mine_removed, pile_size, "
                           "end_of_mine_removed, dwarves_each, recruitment, hand_limit)")
    assert problems[4] == "counts.hand_limit: missing, expected 6 for 3 players, mode full, --short 3"
    assert problems[5] == (f"steps[0]: got 'Mélangez.', expected {printed['steps'][0]!r} for 3 players, "
                           "mode full, --short 3")


def test_tunhell_duplicate_and_short_pile(cli, write_yaml):
    deal = _printed(cli, "tunhell", "--players", 2, "--mode", "full")["deal"]
    deal["piles"][1].insert(0, "dragon")
    deal["removed"] = [c for c in deal["removed"] if c != "dragon"]
    path, r = _check(cli, write_yaml, "tunhell", deal)
    assert r.code == 1
    problems = _problems(r, path)
    assert "piles: the piles hold 17, 18, 17 mine cards: the 3 piles must be equal" in problems


# --- Cristaux -------------------------------------------------------------------------------------

def test_cristaux_derived_fields_are_checked(cli, write_yaml):
    printed = _printed(cli, "cristaux", "--players", 4, "--mode", "avance", "--opale")
    deal = printed["deal"]
    king, order, direction = deal["king"], deal["turn_order"], deal["direction"]
    deal["turn_order"] = sorted(order)
    gifts = deal["gifts"]
    deal["gifts"] = ["warhammer-grandes-familles"]
    deal["topaze_deck"] = deal["topaze_deck"][1:]
    printed["counts"]["offer"] = 10
    printed["mode"] = "classique"
    path, r = _check(cli, write_yaml, "cristaux", printed)
    assert r.code == 1
    problems = _problems(r, path)
    assert f"turn_order: got {sorted(order)}, expected {order} (seats from the ♚ holder, seat {king}, " \
           f"{direction})" in problems
    assert f"gifts: got ['warhammer-grandes-familles'], expected {gifts} (each player's starting gifts " \
           "in avancé)" in problems
    assert any(p.startswith("topaze_deck: 1 × ") and "missing; the Topaze deck in avancé is, in any order: "
               in p for p in problems)
    assert "mode: got 'classique', expected 'avance' (the deal is an 'avance' deal)" in problems
    assert "counts.offer: got 10, expected 12 for 4 players, mode avance, --opale" in problems


def test_cristaux_duplicate_offer_card_and_player_count(cli, write_yaml):
    deal = _printed(cli, "cristaux", "--players", 3)["deal"]
    data = _data("cristaux")
    single = next(c for c in deal["offer"] if data.card(c).copies == 1)
    deal["offer"] = [single] + [c for c in deal["offer"] if c != single][:-1] + [single]
    deal["players"] = 4
    path, r = _check(cli, write_yaml, "cristaux", deal)
    assert r.code == 1
    problems = _problems(r, path)
    assert f"offer[8]: '{single}' is in the offer 2 times, the deck has 1" in problems
    assert "ramekins: 3 ramekins for 4 players (one each)" in problems


# --- Imperial Miners and Mine, All Mine! ------------------------------------------------------------

def test_imperial_miners_whole_object_and_its_checks(cli, write_yaml):
    printed = _printed(cli, "imperial_miners", "--players", 2, "--first-game")
    assert printed["mode"] == "standard"  # the field that used to be rejected
    printed["deal"]["mine_cards"] = "nothing"
    printed["counts"]["keep"] = 4
    printed["counts"]["draw"] = {"I": 2, "II": 3, "III": 3}
    path, r = _check(cli, write_yaml, "imperial_miners", printed, "deal.yaml")
    assert r.code == 1
    problems = _problems(r, path)
    assert problems[0].startswith("mine_cards: got 'nothing', expected the deal's note 'the published mine "
                                  "cards are not in card_data")
    assert problems[1:] == [
        'counts.draw: got {"I": 2, "II": 3, "III": 3}, expected {"I": 2, "II": 2, "III": 2} for 2 players, '
        "--first-game",
        "counts.keep: got 4, expected 6 for 2 players, --first-game",
    ]
    printed["mode"] = "solo"
    path, r = _check(cli, write_yaml, "imperial_miners", printed)
    assert "mode: 'solo' is not a mode of imperial_miners (modes: standard)" in _problems(r, path)


def test_mine_all_mine_duplicate_ship_and_turns(cli, write_yaml):
    printed = _printed(cli, "mine_all_mine", "--players", 3)
    ships = printed["deal"]["ships"]
    ships["player 2"][0] = ships["player 1"][0]
    printed["counts"]["turns"] = 3
    path, r = _check(cli, write_yaml, "mine_all_mine", printed)
    assert r.code == 1
    problems = _problems(r, path)
    assert f"ships: ship card {ships['player 1'][0]} is dealt 2 times (player 1, player 2)" in problems
    assert "counts.turns: got 3, expected 6 for 3 players" in problems
