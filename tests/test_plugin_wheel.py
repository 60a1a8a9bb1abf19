"""A third-party game installed from a wheel (issue 41): a package holding its game.yaml, cards,
layouts and rules package, registered through the ``cardforge.games`` entry point group, is
listed, checked, built and scored exactly like a shipped game — by its id, with nothing of
cardforge's naming it.

The wheel is written here by hand (a zip with its ``*.dist-info``: PEP 427) because the test
environment holds no build backend and may have no network; pip installs it into a temporary
folder, which the commands (subprocesses) find on ``PYTHONPATH``."""

from __future__ import annotations

import base64
import hashlib
import io
import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pypdf
import pytest

from conftest import FIXTURES

pytestmark = pytest.mark.slow  # a pip install and five cardforge runs: left out of the quick lane

GAME = FIXTURES / "games" / "chasse_aux_reliques"
PACKAGE = "cardforge_reliques"
DIST = "cardforge_reliques-1.0"

# Ana: couronne 5 + sceptre 4 + anneau 2 (three gold relics: a set, 5) + masque 3 = 14 + 5 = 19;
# Ben: crâne 3 + flûte 2 + dent 1 (three bones: a set, 5) + perle 1 = 7 + 5 = 12.
FINAL = ("# a finished game of Chasse aux reliques: Ana 19, Ben 12\n"
         "players:\n"
         "  - {name: Ana, relics: [couronne, sceptre, anneau, masque]}\n"
         "  - {name: Ben, relics: [crane, flute, dent, perle]}\n")


def _record_line(name: str, data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{name},sha256={digest},{len(data)}"


def _write_wheel(folder: Path) -> Path:
    files: dict[str, bytes] = {}
    for path in sorted(GAME.rglob("*")):
        if path.is_file() and "__pycache__" not in path.parts:
            files[f"{PACKAGE}/{path.relative_to(GAME).as_posix()}"] = path.read_bytes()
    files[f"{PACKAGE}/__init__.py"] = b'"""Chasse aux reliques, a cardforge game (game.yaml beside this file)."""\n'
    files[f"{PACKAGE}/examples/final.yaml"] = FINAL.encode()
    files[f"{DIST}.dist-info/METADATA"] = b"Metadata-Version: 2.1\nName: cardforge-reliques\nVersion: 1.0\n"
    files[f"{DIST}.dist-info/WHEEL"] = (b"Wheel-Version: 1.0\nGenerator: cardforge-tests\nRoot-Is-Purelib: true\n"
                                        b"Tag: py3-none-any\n")
    files[f"{DIST}.dist-info/entry_points.txt"] = f"[cardforge.games]\nchasse_aux_reliques = {PACKAGE}\n".encode()
    files[f"{DIST}.dist-info/top_level.txt"] = f"{PACKAGE}\n".encode()
    record = [_record_line(name, data) for name, data in files.items()] + [f"{DIST}.dist-info/RECORD,,"]
    files[f"{DIST}.dist-info/RECORD"] = ("\n".join(record) + "\n").encode()
    wheel = folder / f"{DIST}-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in files.items():
            z.writestr(name, data)
    return wheel


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """The wheel installed by pip into a folder of its own: (site folder, environment)."""
    root = tmp_path_factory.mktemp("plugin")
    wheel = _write_wheel(root)
    site = root / "site"
    pip = subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--no-index",
                          "--disable-pip-version-check", "--target", str(site), str(wheel)],
                         capture_output=True, text=True)
    assert pip.returncode == 0, pip.stderr
    assert (site / PACKAGE / "game.yaml").is_file() and (site / f"{DIST}.dist-info" / "entry_points.txt").is_file()
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(site), *filter(None, [os.environ.get("PYTHONPATH")])])}
    env.pop("CARDFORGE_DATA", None)
    return site, env


def _cardforge(env, cwd, *args):
    return subprocess.run([sys.executable, "-m", "cardforge", *map(str, args)], env=env, cwd=cwd,
                          capture_output=True, text=True)


def test_the_installed_game_is_listed_and_checked(installed, tmp_path):
    site, env = installed
    r = _cardforge(env, tmp_path, "games", "--json")
    assert r.returncode == 0, r.stderr
    listed = {g["id"]: g for g in json.loads(r.stdout)}
    assert {"maphr", "tunhell", "mine_all_mine", "cristaux", "imperial_miners", "chasse_aux_reliques"} <= set(listed)
    assert listed["chasse_aux_reliques"]["title"] == "Chasse aux reliques"
    assert (listed["chasse_aux_reliques"]["min_players"], listed["chasse_aux_reliques"]["max_players"]) == (2, 3)
    # without the plug-in on the path, cardforge does not know it
    bare = _cardforge({k: v for k, v in env.items() if k != "PYTHONPATH"}, tmp_path, "games", "--json")
    assert "chasse_aux_reliques" not in {g["id"] for g in json.loads(bare.stdout)}
    r = _cardforge(env, tmp_path, "check", "chasse_aux_reliques")
    assert r.returncode == 0, r.stderr
    assert "chasse_aux_reliques: OK" in r.stdout


def test_the_installed_game_builds_as_its_folder_does(installed, tmp_path):
    site, env = installed
    r = _cardforge(env, tmp_path, "build", "chasse_aux_reliques", "-o", tmp_path / "plugin", "-q")
    assert r.returncode == 0, r.stderr
    built = tmp_path / "plugin" / "chasse_aux_reliques"
    assert {p.name for p in built.glob("*.pdf")} >= {"deck.pdf", "score-pad.pdf", "aids.pdf"}
    text = "".join(page.extract_text() for page in pypdf.PdfReader(built / "deck.pdf").pages)
    assert "Couronne" in text and "Crâne" in text and "Perle" in text
    pad = "".join(page.extract_text() for page in pypdf.PdfReader(built / "score-pad.pdf").pages)
    assert "Reliques" in pad and "Collections" in pad
    # the game built from the folder it was packaged from (a path) prints the same cards, byte for byte
    r = _cardforge(env, tmp_path, "build", GAME, "-o", tmp_path / "folder", "-q", "--only", "decks")
    assert r.returncode == 0, r.stderr
    assert (tmp_path / "folder" / "chasse_aux_reliques" / "deck.pdf").read_bytes() == (built / "deck.pdf").read_bytes()


def test_the_installed_game_scores_its_example(installed, tmp_path):
    site, env = installed
    r = _cardforge(env, tmp_path, "score", "chasse_aux_reliques", site / PACKAGE / "examples" / "final.yaml", "--json")
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["categories"] == ["relics", "sets"]
    assert {p["name"]: p["total"] for p in out["players"]} == {"Ana": 19, "Ben": 12}
    assert out["winners"] == ["Ana"]
    # a bad score file: exit 1, located, as for a shipped game
    bad = tmp_path / "bad.yaml"
    bad.write_text("players:\n  - {name: Ana, relics: [couronnne]}\n  - {name: Ben, relics: []}\n", encoding="utf-8")
    r = _cardforge(env, tmp_path, "score", "chasse_aux_reliques", bad)
    assert r.returncode == 1
    assert "unknown relic 'couronnne'; did you mean 'couronne'?" in r.stderr
    assert "Traceback" not in r.stderr


def test_the_wheel_is_a_wheel(tmp_path):
    """What pip installed is the wheel's content: the game's files under the package, and the
    entry point naming the package."""
    wheel = zipfile.ZipFile(io.BytesIO(_write_wheel(tmp_path).read_bytes()))
    names = set(wheel.namelist())
    assert {f"{PACKAGE}/game.yaml", f"{PACKAGE}/relics.yaml", f"{PACKAGE}/rules/__init__.py",
            f"{PACKAGE}/templates/layout.yaml", f"{PACKAGE}/examples/final.yaml"} <= names
    assert wheel.read(f"{DIST}.dist-info/entry_points.txt").decode() == \
        "[cardforge.games]\nchasse_aux_reliques = cardforge_reliques\n"
