"""Shared test helpers: run the CLI in-process and capture its output. At the repository's root, so
pytest loads it for tests/ and for each shipped game's own tests (card_data/<game>/tests/) alike;
cardforge's test kit for game authors (cardforge/testing.py) is loaded with it."""

from __future__ import annotations

import contextlib
import io
import json
from dataclasses import dataclass
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

ROOT = Path(__file__).resolve().parent
FIXTURES = ROOT / "tests" / "fixtures"

# the test kit as a game author loads it (it is also a pytest11 entry point: pytest skips the second)
pytest_plugins = ["cardforge.testing", "pg_support"]  # pg_support: a throwaway PostgreSQL (tests/)


@dataclass
class Result:
    code: int
    out: str
    err: str

    @property
    def json(self):
        return json.loads(self.out)


def run_cli(*args: str, monkeypatch=None) -> Result:
    """Run ``cardforge ARGS`` in-process; returns exit code, stdout and stderr."""
    from cardforge.cli import main

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main([str(a) for a in args])
    return Result(code, out.getvalue(), err.getvalue())


@pytest.fixture
def cli(monkeypatch):
    """``cli("check", "tunhell")`` → Result. CARDFORGE_DATA is cleared so tests see shipped data
    unless they pass ``--data``."""
    monkeypatch.delenv("CARDFORGE_DATA", raising=False)

    def _run(*args):
        return run_cli(*args)

    yield _run


@pytest.fixture
def write_yaml(tmp_path):
    """write_yaml("final.yaml", text) → Path, for score and setup inputs written inline."""

    def _write(name: str, text: str) -> Path:
        path = tmp_path / name
        path.write_text(text, encoding="utf-8")
        return path

    return _write


# hypothesis on a loaded machine: an example may take seconds (a slow example is not a wrong one),
# and so may generating one — no deadline per example, no health check of generation's speed. A
# test's own @settings keeps these unless it sets them.
settings.register_profile("cardforge", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("cardforge")


def pytest_configure(config):
    """Tests never read or write the user's cache (~/.cache/cardforge) nor its key (in
    ~/.config/cardforge): every run gets its own, subprocesses included (they inherit the
    variables)."""
    import os
    import tempfile

    os.environ["CARDFORGE_CACHE"] = tempfile.mkdtemp(prefix="cardforge-test-cache-")
    os.environ["CARDFORGE_CONFIG"] = tempfile.mkdtemp(prefix="cardforge-test-config-")
    os.environ.pop("CARDFORGE_NO_CACHE", None)
    # builds do not warn that the paper differs from this machine's (settings.locale_paper):
    # libpaper's variable naming neither A4 nor Letter; the tests of that warning set their own
    os.environ["PAPERSIZE"] = "a3"


def pytest_unconfigure(config):
    import os
    import shutil

    for variable, mark in (("CARDFORGE_CACHE", "cardforge-test-cache-"), ("CARDFORGE_CONFIG", "cardforge-test-config-")):
        folder = os.environ.get(variable, "")
        if mark in folder:
            shutil.rmtree(folder, ignore_errors=True)


def pytest_addoption(parser):
    parser.addoption("--update-goldens", action="store_true", default=False,
                     help="Rewrite the golden files in tests/golden/ from the current output.")


@pytest.fixture
def update_goldens(request) -> bool:
    """True when pytest runs with --update-goldens: golden tests rewrite their file."""
    return bool(request.config.getoption("--update-goldens"))
