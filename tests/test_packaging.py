"""The wheel carries the games' data, the templates and the fonts (no system fonts, any cwd)."""

from __future__ import annotations

import subprocess
import sys
import zipfile

import pytest

from cardforge.games import game_ids

from conftest import ROOT

pytestmark = pytest.mark.slow  # in `pytest`, left out of the quick lane (`pytest -m "not slow"`)


@pytest.fixture(scope="module")
def wheel(tmp_path_factory):
    out = tmp_path_factory.mktemp("wheel")
    proc = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(out), str(ROOT)],
                          capture_output=True, text=True)
    if proc.returncode != 0:
        pytest.skip(f"cannot build a wheel here (no network for the build backend?): {proc.stderr[-300:]}")
    (path,) = out.glob("cardforge-*.whl")
    return zipfile.ZipFile(path)


def test_wheel_carries_data_templates_and_fonts(wheel):
    names = set(wheel.namelist())
    for gid in game_ids():
        assert f"cardforge/_bundled/card_data/{gid}/deck.yaml" in names
        assert f"cardforge/_bundled/card_data/{gid}/game.yaml" in names  # how the installed game is found
        assert f"cardforge/_bundled/card_data/{gid}/RULES.md" in names
        # the game's own looks, icons and examples travel in its folder (issue 27)
        assert f"cardforge/_bundled/card_data/{gid}/templates/layout.yaml" in names
        assert f"cardforge/_bundled/card_data/{gid}/examples/final.yaml" in names
        assert f"cardforge/_bundled/card_data/{gid}/rules/__init__.py" in names  # its rules, in its folder (issue 41)
        assert any(n.startswith(f"cardforge/_bundled/card_data/{gid}/icons/") and n.endswith(".svg") for n in names)
    for skeleton in ("en/game.yaml", "en/cards.yaml", "templates/layout.yaml", "en/examples/final.yaml", "README.md",
                     "en/icons/objective.svg", "en/RULES.md", "fr/game.yaml", "fr/icons/objectif.svg"):
        assert f"cardforge/games/newgame/{skeleton}" in names  # `cardforge new` from an installed wheel
    # the words cardforge prints, compiled (read with gettext at run time)
    assert "cardforge/locale/fr/LC_MESSAGES/cardforge.mo" in names
    assert any(n.startswith("cardforge/_bundled/templates/_shared/") for n in names)
    for face in ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf", "DejaVuSans-Oblique.ttf", "DejaVuSans-BoldOblique.ttf"):
        assert f"cardforge/fonts/{face}" in names
    assert "cardforge/fonts/LICENSE-DejaVu.txt" in names
    entry_points = wheel.read(next(n for n in names if n.endswith("entry_points.txt"))).decode()
    assert "cardforge = cardforge.cli:run" in entry_points
