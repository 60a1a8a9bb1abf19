"""The generated references stay what the code says: docs/reference/cli.md is the click command
tree, docs/schema/*.json the pydantic models (both rewritten by ``python -m cardforge.cli.docs``),
and the schemas accept every file cardforge ships and scaffolds, and refuse what it refuses."""

from __future__ import annotations

import json
import re
from pathlib import Path

import jsonschema
import pytest
import yaml

from cardforge.cli.docs import CLI_MD, REGENERATE, SCHEMA_DIR, cli_reference, generated, schemas

from conftest import ROOT, run_cli

FIX = f"the generated docs are out of date: run `{REGENERATE}` and commit the result"


def test_cli_reference_is_current():
    committed = (ROOT / CLI_MD).read_text(encoding="utf-8")
    assert committed == cli_reference(), FIX


def test_schemas_are_current():
    want = schemas()
    have = {p.name: p.read_text(encoding="utf-8") for p in (ROOT / SCHEMA_DIR).glob("*.json")}
    assert sorted(have) == sorted(want), FIX
    for name, text in want.items():
        assert have[name] == text, f"{SCHEMA_DIR / name}: {FIX}"


def test_generation_is_deterministic():
    assert generated() == generated()


def test_every_option_of_every_help_is_in_the_reference():
    """What `--help` prints, option by option, is in cli.md (the generator misses nothing)."""
    from cardforge.cli import COMMANDS

    text = cli_reference()
    for name in COMMANDS:
        section = text.split(f"## `cardforge {name}`", 1)[1].split("\n## ", 1)[0]
        r = run_cli(name, "--help")
        assert r.code == 0, r.err
        options = re.split(r"^\S", r.out.split("Options:\n", 1)[1], maxsplit=1, flags=re.M)[0]
        heads = re.findall(r"^  (-\S.*?)(?:  |$)", options, re.M)  # "  -o, --out DIRECTORY  Folder…"
        flags = {f for head in heads for f in re.findall(r"(?<![\w-])(--[a-z][a-z-]*|-[a-zA-Z])\b", head)}
        flags -= {"--help", "-h"}
        assert flags, name
        for flag in flags:
            assert f"`{flag}`" in section, (name, flag)


# --- the schemas say what cardforge accepts --------------------------------------------------

def _validator(name: str) -> jsonschema.Draft202012Validator:
    schema = json.loads(schemas()[name])
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


def _errors(name: str, data: object) -> list[str]:
    return [f"{list(e.absolute_path)}: {e.message}" for e in _validator(name).iter_errors(data)]


def _game_files(folder: Path) -> list[tuple[str, Path]]:
    """(schema, file) for every YAML file of a game folder that a schema describes."""
    files = [("game.schema.json", folder / "game.yaml")]
    game = yaml.safe_load((folder / "game.yaml").read_text(encoding="utf-8"))
    if (folder / "deck.yaml").is_file():
        files.append(("deck.schema.json", folder / "deck.yaml"))
        deck = yaml.safe_load((folder / "deck.yaml").read_text(encoding="utf-8"))
    else:
        deck = game["deck"]
    files += [("cards.schema.json", folder / f) for f in deck["card_files"] if f.endswith(".yaml")]
    files += [(f"{n}.schema.json", folder / f"{n}.yaml") for n in ("aids", "boards") if (folder / f"{n}.yaml").is_file()]
    files += [("layout.schema.json", p) for p in sorted((folder / "templates").glob("*.yaml"))]
    files += [("pod-profile.schema.json", p) for p in sorted((folder / "pod_profiles").glob("*.yaml"))]
    if (folder / "cardforge.toml").is_file():
        files.append(("cardforge-toml.schema.json", folder / "cardforge.toml"))
    return files


def _read(path: Path) -> object:
    if path.suffix == ".toml":
        import tomllib

        return tomllib.loads(path.read_text(encoding="utf-8"))
    return yaml.safe_load(path.read_text(encoding="utf-8"))


SHIPPED = sorted(p for p in (ROOT / "card_data").iterdir() if (p / "game.yaml").is_file())


@pytest.mark.slow
@pytest.mark.parametrize("folder", SHIPPED, ids=lambda p: p.name)
def test_every_shipped_file_matches_its_schema(folder):
    files = _game_files(folder)
    assert len(files) >= 4
    for name, path in files:
        assert _errors(name, _read(path)) == [], path


@pytest.mark.slow
def test_shared_layouts_and_shipped_profiles_match_their_schemas():
    paths = sorted((ROOT / "templates" / "_shared").glob("*.yaml"))
    profiles = sorted((ROOT / "cardforge" / "pod_profiles").glob("*.yaml"))
    assert paths and len(profiles) >= 10
    for path in paths:
        assert _errors("layout.schema.json", yaml.safe_load(path.read_text(encoding="utf-8"))) == [], path
    for path in profiles:
        assert _errors("pod-profile.schema.json", yaml.safe_load(path.read_text(encoding="utf-8"))) == [], path


@pytest.mark.slow
def test_a_new_game_matches_the_schemas(tmp_path):
    assert run_cli("new", tmp_path / "g").code == 0
    files = _game_files(tmp_path / "g")
    assert {n for n, _ in files} >= {"game.schema.json", "cards.schema.json", "layout.schema.json",
                                     "aids.schema.json", "cardforge-toml.schema.json"}
    for name, path in files:
        assert _errors(name, _read(path)) == [], path


@pytest.mark.slow
def test_the_schemas_refuse_what_cardforge_refuses():
    deck = {"title": "T", "version": "1", "card_size": "poker", "card_files": ["cards.yaml"]}
    assert _errors("deck.schema.json", deck) == []
    assert _errors("deck.schema.json", {**deck, "card_size": {"width": "63mm", "height": 88}}) == []
    assert _errors("deck.schema.json", {**deck, "card_size": "huge"})  # not a preset
    assert _errors("deck.schema.json", {**deck, "colour": "red"})  # unknown field
    layout = {"layouts": {"card": {"boxes": {"name": {"type": "text", "x": "3mm", "y": 4, "text": "x"}}}}}
    assert _errors("layout.schema.json", layout) == []
    layout["layouts"]["card"]["boxes"]["name"]["type"] = "circle"
    assert _errors("layout.schema.json", layout)
    card = {"id": "a", "kind": "k", "name": "A", "copies": -1}
    assert _errors("cards.schema.json", [card])  # copies ≥ 0
    assert _errors("cards.schema.json", [{**card, "copies": 2, "cost": 3}]) == []  # a kind's own field
    assert _errors("cards.schema.json", {"defaults": {"kind": "k"}, "cards": [{"id": "a", "name": "A"}]}) == []
    assert _errors("cards.schema.json", {"cards": [], "extra": 1})
    build = {"build": {"paper": "letter", "bleed": "3mm", "back_offset": "0.8,-0.5", "duplex": "short-edge"}}
    assert _errors("cardforge-toml.schema.json", build) == []
    assert _errors("cardforge-toml.schema.json", {"build": {"duplex": "both"}})
    assert _errors("cardforge-toml.schema.json", {"biuld": {}})


# --- the docs by audience stay short, linked and true to the commands ------------------------

DOCS = sorted([ROOT / "README.md", ROOT / "DEVELOPING.md", *(ROOT / "docs").rglob("*.md")])


def test_the_readme_stays_short():
    assert len((ROOT / "README.md").read_text(encoding="utf-8").splitlines()) <= 200


def test_the_maintainers_guide_stays_short():
    """DEVELOPING.md is the maintainers' map (≤ 600 lines); a part's depth goes to docs/internals/."""
    assert len((ROOT / "DEVELOPING.md").read_text(encoding="utf-8").splitlines()) <= 600


@pytest.mark.parametrize("page", DOCS, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_link_leads_somewhere(page):
    """Relative links (and their #anchors, GitHub's way) point at files and headings that exist."""
    text = page.read_text(encoding="utf-8")
    text = re.sub(r"```.*?```", "", text, flags=re.S)  # links only in prose
    for target in re.findall(r"\]\(([^)\s]+)\)", text):
        if re.match(r"[a-z]+:", target):
            continue
        path, _, anchor = target.partition("#")
        dest = (page.parent / path).resolve() if path else page
        assert dest.exists(), f"{page.relative_to(ROOT)}: {target}"
        if anchor and dest.suffix == ".md":
            assert anchor in _anchors(dest), f"{page.relative_to(ROOT)}: {target}"


def _anchors(page: Path) -> set[str]:
    text = re.sub(r"```.*?```", "", page.read_text(encoding="utf-8"), flags=re.S)
    heads = re.findall(r"^#{1,6} (.+)$", text, re.M)
    return {re.sub(r"[^\w\- ]", "", h.lower()).replace(" ", "-") for h in heads}


def test_the_readme_tour_uses_real_commands_and_options():
    """Every `cardforge …` line of README's tour names a command and options it has."""
    import click

    from cardforge.cli import root

    text = (ROOT / "README.md").read_text(encoding="utf-8")
    tour = text.split("## A tour", 1)[1].split("\n## ", 1)[0]
    lines = [line.split("#", 1)[0].split() for line in re.findall(r"^cardforge .+$", tour, re.M)]
    assert len(lines) >= 12
    ctx = click.Context(root, info_name="cardforge")
    root_opts = {o for p in root.params for o in p.opts}
    for words in lines:
        name = next(w for w in words[1:] if not w.startswith("-"))
        command = root.get_command(ctx, name)
        assert command is not None, words
        opts = root_opts | {o for p in command.params for o in [*p.opts, *getattr(p, "secondary_opts", [])]}
        for word in words[1:]:
            if word.startswith("--"):
                assert word in opts, (words, word)


def test_every_option_the_docs_name_exists():
    """An option named anywhere in README.md or docs/ is one a command has (or `--help`, or a
    game's own setup option from its game.yaml): renaming an option breaks this test, not the
    docs silently."""
    import click

    from cardforge.cli import root
    from cardforge.cli.common import every_game

    ctx = click.Context(root, info_name="cardforge")
    known = {"--help"} | {o for p in root.params for o in p.opts}
    stack: list[click.Command] = [root]
    while stack:  # every command, a group's subcommands too (`plays add`)
        group = stack.pop()
        if isinstance(group, click.Group):
            for name in group.list_commands(ctx):
                command = group.get_command(ctx, name)
                assert command is not None
                known |= {o for p in command.params for o in [*p.opts, *getattr(p, "secondary_opts", [])]}
                stack.append(command)
    for game in every_game():
        known |= {game.option_flag(oid) for oid in game.options}
    example = (ROOT / "docs" / "game-yaml.md").read_text(encoding="utf-8")
    known |= set(re.findall(r"flag: (--[a-z-]+)", example)) | {"--short"}  # the example's options
    for page in [ROOT / "README.md", *(ROOT / "docs").rglob("*.md")]:
        if page.name == "cli.md" or "internals" in page.parts:  # the maintainers' notes name bench/'s options
            continue
        named = set(re.findall(r"(?<![\w-])--[a-z][a-z0-9-]+", page.read_text(encoding="utf-8")))
        assert named <= known, (page.relative_to(ROOT), sorted(named - known))


def test_the_docs_index_links_every_page():
    index = (ROOT / "docs" / "README.md").read_text(encoding="utf-8")
    for page in (ROOT / "docs").rglob("*.md"):
        if page.name != "README.md":
            assert f"({page.relative_to(ROOT / 'docs').as_posix()})" in index, page
