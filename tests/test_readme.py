"""The README's two set-up commands are what CI runs, and they stay true."""

from __future__ import annotations

import re

from cardforge.games import game_ids

from conftest import ROOT


def readme_commands() -> list[str]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    setup = text.split("## Set up", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"```sh\n(.+?)\n```", setup)


def test_readme_gives_the_build_and_the_test_commands():
    build, test = readme_commands()
    assert "pip install -c constraints.txt -e . " in build and build.endswith("cardforge build")
    assert "pip install -c constraints.txt -e '.[test]'" in test and test.endswith("pytest")


def test_the_lock_pins_every_dependency_within_pyproject_s_ranges():
    """constraints.txt (the lock) names every runtime and test dependency with one exact version
    that pyproject.toml's range allows: refreshed with the command in its header (DEVELOPING.md)."""
    import tomllib

    from packaging.requirements import Requirement
    from packaging.utils import canonicalize_name

    pins: dict[str, str] = {}
    for line in (ROOT / "constraints.txt").read_text(encoding="utf-8").splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            req = Requirement(line)
            [spec] = req.specifier
            assert spec.operator == "==" and not req.extras, line
            pins.setdefault(canonicalize_name(req.name), spec.version)
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    declared = [Requirement(d) for d in project["dependencies"] + project["optional-dependencies"]["test"]]
    for req in declared:
        name = canonicalize_name(req.name)
        assert name in pins, f"{req.name} is not in constraints.txt: refresh the lock"
        assert req.specifier.contains(pins[name], prereleases=True), (req, pins[name])


def test_ci_runs_the_readme_test_command():
    _, test = readme_commands()
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert test in ci.splitlines()
    assert "set -euo pipefail" in ci  # pytest's exit code 5 (no tests) fails the run


def test_pyproject_declares_the_test_extra_and_the_console_script():
    import tomllib

    meta = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    project = meta["project"]
    assert project["requires-python"] == ">=3.11"
    assert project["scripts"]["cardforge"] == "cardforge.cli:run"
    deps = " ".join(project["dependencies"])
    for dep in ("reportlab", "pillow", "click", "jinja2", "pydantic", "pyyaml"):
        assert dep in deps
    assert {"pytest", "hypothesis", "pypdf", "pypdfium2"} <= {
        re.split(r"[<>=\[]", d)[0] for d in project["optional-dependencies"]["test"]}


def test_documented_score_files_are_accepted(cli, tmp_path):
    """Each game's final-state example in docs/at-the-table.md scores (a user copies them)."""
    text = (ROOT / "docs" / "at-the-table.md").read_text(encoding="utf-8")
    section = text.split("## Score files\n", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"\*\*[^*]+\*\* \(`(\w+)`\).*?```yaml\n(.*?)```", section, re.S)
    assert sorted(g for g, _ in blocks) == sorted(game_ids())  # every shipped game has its example
    for game, body in blocks:
        path = tmp_path / f"{game}.yaml"
        path.write_text(body, encoding="utf-8")
        r = cli("score", game, str(path))
        assert r.code == 0, (game, r.err)
        assert "Vainqueur" in r.out  # the shipped games print in French
