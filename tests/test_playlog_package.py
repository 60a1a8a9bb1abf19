"""The play log is its own package (``cardforge.playlog``, issue 41): the CLI's play-log commands
and ``cardforge report`` (the PDF) run without loading a web framework — checked in a fresh
interpreter, on what ``sys.modules`` holds after the commands ran — and the web uses the same
package."""

from __future__ import annotations

import json
import subprocess
import sys

from lab_support import example_final
from pypdf import PdfReader

#: run in a fresh interpreter: the commands, then what they loaded; then the web app imported, to
#: show the same check sees Starlette when it is there
SCRIPT = """
import json, sys
from cardforge.cli import main

FRAMEWORKS = ("starlette", "uvicorn", "cardforge.web")

def loaded():
    return sorted(m for m in sys.modules if any(m == f or m.startswith(f + ".") for f in FRAMEWORKS))

codes = [main(args) for args in json.loads(sys.argv[1])]
after_commands = loaded()
import cardforge.web.app  # noqa: E402,F401
print(json.dumps({"codes": codes, "after_commands": after_commands, "after_web": loaded()}))
"""


def test_report_and_plays_commands_do_not_load_starlette(tmp_path):
    db, other = str(tmp_path / "plays.db"), str(tmp_path / "other.db")
    pdf, csv = tmp_path / "report.pdf", tmp_path / "plays.csv"
    commands = [
        ["plays", "add", "maphr", str(example_final("maphr")), "--db", db, "--date", "2026-11-20"],
        ["plays", "list", "--db", db],
        ["plays", "export", "--db", db, "-o", str(csv)],
        ["plays", "import", str(csv), "--db", other],
        ["report", "maphr", "--db", db, "-o", str(pdf)],
    ]
    run = subprocess.run([sys.executable, "-c", SCRIPT, json.dumps(commands)], capture_output=True, text=True,
                         cwd=tmp_path, env=_env(), timeout=600)
    assert run.returncode == 0, run.stderr
    out = json.loads(run.stdout.strip().splitlines()[-1])
    assert out["codes"] == [0, 0, 0, 0, 0], run.stderr
    assert out["after_commands"] == []  # no starlette, no uvicorn, nothing of cardforge.web
    assert "starlette" in out["after_web"] and "cardforge.web.app" in out["after_web"]  # the check sees them
    # the commands did their work: a one-play log exported as 3 rows (3 players) + header, a PDF
    assert len(csv.read_text(encoding="utf-8").strip().splitlines()) == 4
    assert len(PdfReader(pdf).pages) >= 1


def _env() -> dict[str, str]:
    import os

    return {k: v for k, v in os.environ.items() if k != "CARDFORGE_DATA"}


def test_the_web_and_the_cli_share_the_play_log_package():
    """One store class, one importer, one stats module: the web's pages and the CLI import them
    from ``cardforge.playlog`` (nothing of the play log is left under ``cardforge.web``)."""
    from cardforge.playlog import importer, lab, stats, store
    from cardforge.web import backup, players, site, stats_page
    from cardforge.web import lab as lab_page

    assert site.PlayLog is store.PlayLog and stats_page.stats is players.stats is stats
    assert backup.MAX_IMPORT is importer.MAX_IMPORT and backup.read_plays_csv is importer.read_plays_csv
    assert backup.UPLOAD_LIMITS == {"/log/restore": 64 * 1024 * 1024, "/plays/import": 4 * 1024 * 1024}
    assert lab_page.options_problems is lab.options_problems
    for gone in ("store", "importer", "stats"):
        assert subprocess.run([sys.executable, "-c", f"import cardforge.web.{gone}"],
                              capture_output=True).returncode == 1, gone
