"""The regression corpus of issue 31 (tests/fuzz/corpus/surfaces.yaml): spreadsheets, SVGs,
fonts, layouts, printables and print-on-demand profiles that crashed cardforge, hung it or asked
for gigabytes, and legitimate files it could not use — each built by a maker of bench/bombs.py
into a `cardforge new` game, and what cardforge says now."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
import yaml

from conftest import ROOT, run_cli
from fuzz import load_bench

CORPUS = Path(__file__).parent / "corpus" / "surfaces.yaml"


bombs = load_bench("bombs")
CASES = yaml.safe_load(CORPUS.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def new_game(tmp_path_factory):
    """A `cardforge new` game whose kind also has a list field (`tags`)."""
    folder = tmp_path_factory.mktemp("base") / "jeu"
    assert run_cli("new", folder, "--lang", "fr").code == 0
    game = folder / "game.yaml"
    text = game.read_text(encoding="utf-8")
    old = "        effect: {type: text, required: true}\n"
    assert old in text
    game.write_text(text.replace(old, old + "        tags: {type: list}\n"), encoding="utf-8")
    return folder


def _arg(value):
    if isinstance(value, dict) and "call" in value:
        fn, *args = value["call"]
        return getattr(bombs, fn)(*[_arg(a) for a in args])
    return value


def _write(folder: Path, name: str, spec) -> None:
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(spec, list):
        fn, *args = spec
        content = getattr(bombs, fn)(*[_arg(a) for a in args])
        path.write_bytes(content if isinstance(content, bytes) else content.encode("utf-8"))
    elif "text" in spec:
        path.write_text(spec["text"], encoding="utf-8")
    elif "cp1252" in spec:
        path.write_bytes(spec["cp1252"].encode("cp1252"))
    elif "fifo" in spec:
        if not hasattr(os, "mkfifo"):
            pytest.skip("no FIFOs here")
        os.mkfifo(path)
    elif "sparse" in spec:
        with open(path, "wb") as f:
            f.truncate(spec["sparse"])
    else:
        blob = (ROOT / spec["copy"]).read_bytes()
        path.write_bytes(blob[:spec["truncate"]] if "truncate" in spec else blob)


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, (path, old)
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def _args(command: list[str], folder: Path, out: Path) -> list[str]:
    out.mkdir(parents=True, exist_ok=True)  # -o names a file in it: cardforge creates folders only below the cwd
    return [str(folder) if a == "GAME" else a.replace("OUT", str(out)) for a in command]


def case_game(case: dict, new_game: Path, tmp_path: Path) -> Path:
    """The game folder of a corpus case: ``new_game`` copied, then the case's files and edits."""
    folder = tmp_path / "jeu"
    shutil.copytree(new_game, folder)
    for name, spec in (case.get("files") or {}).items():
        _write(folder, name, spec)
    if "card_files" in case:
        _edit(folder / "game.yaml", "card_files: [cards.yaml]", f"card_files: [{', '.join(case['card_files'])}]")
    if "art" in case:
        _edit(folder / "cards.yaml", "    copies: 4\n", f"    copies: 4\n    art: {case['art']}\n")
    if "family" in case:
        _edit(folder / "templates" / "layout.yaml", "style: {size: 11, min_size: 6",
              f"style: {{family: {case['family']}, size: 11, min_size: 6")
    for edit in case.get("edits", []):
        _edit(folder / edit["file"], *(_arg(part) for part in edit["replace"]))
    return folder


@pytest.mark.parametrize("case", [pytest.param(c, marks=pytest.mark.slow) if c.get("slow") else c for c in CASES],
                         ids=lambda c: c["name"])
def test_surface_corpus(case, new_game, tmp_path):
    folder = case_game(case, new_game, tmp_path)
    out = tmp_path / "out"
    r = run_cli(*_args(case.get("command", ["check", "GAME"]), folder, out))
    assert "internal error" not in r.err and "Traceback" not in r.err, r.err[-3000:]
    assert r.code == case.get("code", 1), r.err[-3000:]
    for key in ("expect", "expect2"):
        if key in case:
            assert case[key] in r.err, r.err[-3000:]
    if case.get("code", 1):
        assert r.err.strip()
    if "then" in case:
        r = run_cli(*_args(case["then"], folder, out))
        assert r.code == 0, r.err[-3000:]
