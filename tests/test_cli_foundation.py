"""The foundation's CLI promises: games listed, data checked with located errors, exit codes."""

from __future__ import annotations

from cardforge.games import game_ids

from conftest import FIXTURES


def test_games_lists_every_game_found(cli):
    r = cli("games")
    assert r.code == 0
    for gid in game_ids():
        assert gid in r.out
    assert "Les Mines de Maphr" in r.out and "2–4" in r.out


def test_check_reports_every_problem_with_file_card_and_field(cli):
    r = cli("--data", FIXTURES / "bad_data", "check", "tunhell")
    assert r.code == 1
    lines = [line for line in r.err.splitlines() if line.startswith("error:")]
    assert len(lines) == 3, r.err
    negative, duplicate, unknown = (
        next(line for line in lines if "copies" in line),
        next(line for line in lines if "duplicate id" in line),
        next(line for line in lines if "unknown field" in line),
    )
    assert "tunhell/cards.yaml:13: card 'deratiseur' (#2): copies: must be ≥ 0, got -2" in negative
    assert ("cards.yaml:15: card 'employe-du-mois' (#3): id: duplicate id 'employe-du-mois' "
            "(first defined in") in duplicate
    assert "cards.yaml:20: card 'employe-du-mois' (#3): colour: unknown field (allowed: id, kind, name" in unknown
    assert "tunhell: 3 problems found" in r.err


def test_unknown_game_is_a_usage_error_naming_the_known_games(cli, tmp_path):
    r = cli("score", "nosuchgame", tmp_path / "x.yaml")
    assert r.code == 2
    assert "unknown game 'nosuchgame'" in r.err
    for gid in game_ids():
        assert gid in r.err


def test_unknown_game_suggests_the_closest(cli):
    r = cli("check", "maphrr")
    assert r.code == 2
    assert "did you mean 'maphr'?" in r.err


def test_hyphenated_ids_are_accepted(cli):
    assert cli("check", "mine-all-mine").code == 0
    assert cli("check", "Imperial-Miners").code == 0


def test_version_and_help(cli):
    from cardforge import __version__

    r = cli("--version")
    assert r.code == 0 and __version__ in r.out
    r = cli("--help")
    assert r.code == 0 and "Examples:" in r.out and "score" in r.out


def test_usage_errors_exit_2(cli):
    assert cli("nosuchcommand").code == 2
    assert cli("score", "maphr").code == 2  # missing FILE


def test_a_one_shot_command_collects_cyclic_garbage_rarely():
    """The console entry raises the collector's thresholds (issue 32: 55 ms of a 110-card build
    and 0.9 s of a 10,000-card one were the collector's, with the same peak memory without
    it); ``serve``, a long-lived server, keeps Python's own."""
    import json
    import subprocess
    import sys

    code = ("import atexit, gc, json, sys\n"
            "usual = gc.get_threshold()\n"
            "atexit.register(lambda: print(json.dumps([usual, gc.get_threshold()])))\n"
            "sys.argv = ['cardforge'] + sys.argv[1:]\n"
            "from cardforge.cli import run\n"
            "run()\n")
    out = subprocess.run([sys.executable, "-c", code, "--version"], capture_output=True, text=True, check=True)
    usual, now = json.loads(out.stdout.splitlines()[-1])
    assert now == [200_000, 30, 30] and usual != now

    import gc

    from cardforge import startup

    before = gc.get_threshold()
    try:
        startup.fewer_collections()
        assert gc.get_threshold() == (200_000, 30, 30)
        startup.usual_collections()
        assert gc.get_threshold() == before
    finally:
        gc.set_threshold(*before)
