"""cardforge diff (cardforge/diff.py): a fixture git repository with two commits made here —
a card added, one removed, a text changed, copies up and down, an aid changed — compared by
revision, by data folder and by build record."""

from __future__ import annotations

import json
import shutil
import subprocess

import pytest

from render_helpers import FIXTURE_DATA, register_fixture_game

AIDS = """\
aids:
  - id: resume
    title: Résumé
    provenance: provisional
    front:
      - {kind: text, text: "Piochez deux cartes."}
"""


def _git(repo, *args):
    subprocess.run(["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@example.org", *args],
                   check=True, capture_output=True)


@pytest.fixture
def repo(monkeypatch, tmp_path):
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    register_fixture_game(monkeypatch)
    repo = tmp_path / "repo"
    game = repo / "data" / "fixture_deck"
    shutil.copytree(FIXTURE_DATA / "fixture_deck", game)
    (game / "aids.yaml").write_text(AIDS, encoding="utf-8")
    _git(repo, "init", "-q")
    _git(repo, "add", "-A")
    _git(repo, "commit", "-q", "-m", "first")
    cards = game / "cards.yaml"
    text = cards.read_text(encoding="utf-8")
    for old, new in (
            ("Infligez **3** dégâts", "Infligez **4** dégâts"),  # a text changed
            ("  - id: bouclier\n    kind: spell\n    name: Bouclier\n    cost: 1\n"
             "    text: \"*Réaction* : annulez une attaque.\\n\\nDéfaussez cette carte.\"\n", ""),  # removed
            ("    name: Jeton d'or\n    copies: 4\n", "    name: Jeton d'or\n    copies: 6\n"),  # copies up
            ("    name: Éclair\n    copies: 2\n", "    name: Éclair\n    copies: 1\n")):  # copies down
        assert old in text, old
        text = text.replace(old, new)
    text += "  - id: foudre\n    kind: spell\n    name: Foudre\n    cost: 2\n    text: Tonnerre.\n"  # added
    cards.write_text(text, encoding="utf-8")
    (game / "aids.yaml").write_text(AIDS.replace("Piochez deux cartes.", "Piochez trois cartes."), encoding="utf-8")
    _git(repo, "commit", "-q", "-a", "-m", "second")
    return repo


EXPECTED_CARDS = {
    "added": [{"id": "foudre", "name": "Foudre", "kind": "spell", "copies": 1}],
    "removed": [{"id": "bouclier", "name": "Bouclier", "kind": "spell", "copies": 1}],
    "changed": [
        {"id": "boule-de-feu", "name": "Boule de feu", "kind": "spell", "fields": [
            {"field": "text", "old": "Infligez **3** dégâts ; gagnez 1 :coin: par ennemi touché.",
             "new": "Infligez **4** dégâts ; gagnez 1 :coin: par ennemi touché."}]},
        {"id": "eclair", "name": "Éclair", "kind": "spell", "fields": [], "copies": {"old": 2, "new": 1}},
        {"id": "jeton-or", "name": "Jeton d'or", "kind": "token", "fields": [], "copies": {"old": 4, "new": 6}},
    ],
}
EXPECTED_AID = {"id": "resume", "title": "Résumé", "fields": [
    {"field": "front[0].text", "old": "Piochez deux cartes.", "new": "Piochez trois cartes."}]}


def test_diff_between_two_git_revisions(cli, repo):
    r = cli("--data", repo / "data", "diff", "fixture_deck", "--from", "HEAD~1", "--to", "HEAD", "--json")
    assert r.code == 0, r.err
    out = r.json
    assert out["from"]["source"].startswith("HEAD~1 (") and out["to"]["source"].startswith("HEAD (")
    assert out["cards"] == EXPECTED_CARDS
    assert out["printables"]["aids"] == {"added": [], "removed": [], "changed": [EXPECTED_AID]}
    assert out["printables"]["boards"] == {"added": [], "removed": [], "changed": []}
    # the same as text; B defaults to the working data (here: HEAD)
    r = cli("--data", repo / "data", "diff", "fixture_deck", "--from", "HEAD~1")
    assert r.code == 0, r.err
    lines = r.out.splitlines()
    assert lines[0].startswith("fixture_deck: HEAD~1 (") and lines[0].endswith(") (v1.3) → working data (v1.3)")
    assert lines[1:] == [
        "cards: 1 added, 1 removed, 1 changed, 2 with other copies",
        '+ foudre (spell) "Foudre"',
        '- bouclier (spell) "Bouclier"',
        '~ boule-de-feu "Boule de feu"',
        '    text: "Infligez **3** dégâts ; gagnez 1 :coin: par ennemi touché." → '
        '"Infligez **4** dégâts ; gagnez 1 :coin: par ennemi touché."',
        '~ eclair "Éclair": copies 2 → 1',
        '~ jeton-or "Jeton d\'or": copies 4 → 6',
        "aids:",
        '~ resume "Résumé"',
        '    front[0].text: "Piochez deux cartes." → "Piochez trois cartes."',
    ]


def test_diff_against_a_build_record_and_a_data_folder(cli, repo, tmp_path):
    old = tmp_path / "old"
    subprocess.run(["git", "-C", str(repo), "worktree", "add", "-q", str(old), "HEAD~1"], check=True,
                   capture_output=True)
    # a record of the build printed from the first commit
    r = cli("--data", old / "data", "build", "fixture_deck", "-q", "-o", tmp_path / "printed")
    assert r.code == 0, r.err
    record = tmp_path / "printed" / "fixture_deck" / "cards.json"
    r = cli("--data", repo / "data", "diff", "fixture_deck", "--from", record, "--json")
    assert r.code == 0, r.err
    assert r.json["cards"] == EXPECTED_CARDS  # the record keeps each card's data: it says what changed
    assert r.json["printables"]["aids"]["changed"] == [EXPECTED_AID]
    # a data folder (the game's own, or the folder holding it)
    for source in (old / "data", old / "data" / "fixture_deck"):
        r = cli("--data", repo / "data", "diff", "fixture_deck", "--from", source, "--json")
        assert r.code == 0, r.err
        assert r.json["cards"] == EXPECTED_CARDS and r.json["from"]["source"] == str(source)


def test_a_version_bump_and_unreadable_sources(cli, repo):
    deck = repo / "data" / "fixture_deck" / "deck.yaml"
    deck.write_text(deck.read_text(encoding="utf-8").replace('version: "1.3"', 'version: "1.4"'), encoding="utf-8")
    r = cli("--data", repo / "data", "diff", "fixture_deck", "--from", "HEAD")
    assert r.code == 0, r.err
    assert r.out.splitlines()[1:] == ["deck version: 1.3 → 1.4 (every stamp's version changes)",
                                      "cards: 0 added, 0 removed, 0 changed, 0 with other copies"]
    r = cli("--data", repo / "data", "diff", "fixture_deck", "--from", "no-such-rev")
    assert r.code == 1
    assert "'no-such-rev' is neither a data folder, a cards.json record nor a revision of the git repository" in r.err
    assert "Traceback" not in r.err


@pytest.mark.parametrize("damage, expect", [
    (lambda r: r["cards"].update(marchand=7), "card 'marchand' is not a mapping"),
    (lambda r: r["cards"]["marchand"].update(copies="4"), "card 'marchand': copies is not a whole number ≥ 0"),
    (lambda r: r["cards"]["marchand"].update(stamp=None), "card 'marchand': stamp is not a text"),
    (lambda r: r["cards"]["marchand"].update(data=[1]), "card 'marchand': data is not a mapping"),
    (lambda r: r.update(printables={"aids": {"x": 1}}), "printables.aids.x: not an entry with fp and title"),
    (lambda r: r["cards"]["marchand"]["data"].update(deep=json.loads("[" * 70 + "]" * 70)),
     "nested deeper than 64 levels"),
    ("fifo", "FIFO (named pipe)"),
    ("big", "file too large: 9,000,000 bytes, at most 8,000,000 bytes (set CARDFORGE_LIMIT_FILE_BYTES"),
    ("deep", "cannot read it as a build record (nested too deep)"),
], ids=["card-int", "copies-text", "stamp-null", "data-list", "printable", "nested", "fifo", "big", "deep"])
def test_a_damaged_build_record_is_refused_cleanly(tmp_path, damage, expect):
    """A build record given to diff --from or build --changed-since that is not as a build writes
    it: a located problem (each was an AttributeError or KeyError; found by bench/fuzz.py)."""
    import os

    from conftest import run_cli

    folder = tmp_path / "jeu"
    assert run_cli("new", folder).code == 0
    assert run_cli("build", folder, "--only", "decks", "-q", "-o", tmp_path / "out").code == 0
    record = tmp_path / "out" / "jeu" / "cards.json"
    if damage == "fifo":
        record.unlink()
        os.mkfifo(record)
    elif damage == "big":
        with open(record, "wb") as f:
            f.truncate(9_000_000)
    elif damage == "deep":
        record.write_text("[" * 100000 + "]" * 100000, encoding="utf-8")
    else:
        value = json.loads(record.read_text(encoding="utf-8"))
        damage(value)
        record.write_text(json.dumps(value), encoding="utf-8")
    for args in (["diff", folder, "--from", record], ["build", folder, "--only", "decks", "--changed-since", record,
                                                      "-o", tmp_path / "again"]):
        r = run_cli(*args)
        assert r.code == 1 and "internal error" not in r.err, r.err
        # (diff takes a FIFO for a git revision's name: refused as that)
        assert expect in r.err or (damage == "fifo" and args[0] == "diff"), r.err
