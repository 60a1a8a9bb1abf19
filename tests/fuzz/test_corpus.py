"""The regression corpus (tests/fuzz/corpus/): every input class that once crashed cardforge,
hung, took gigabytes or read outside the game, and what cardforge says now."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
import yaml

from conftest import ROOT, run_cli

CORPUS = Path(__file__).parent / "corpus"


def deep_score(depth: int) -> str:
    return "players: " + "[" * depth + "]" * depth + "\n"


def big_int(digits: int) -> str:
    return "players:\n  - name: Ana\n    coins: " + "9" * digits + "\n"


def alias_bomb() -> str:
    lines = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    for p, c in zip("abcdefgh", "bcdefghi"):
        lines.append(f"{c}: &{c} [" + ",".join([f"*{p}"] * 9) + "]")
    return "\n".join(lines) + "\nplayers: *i\n"


def merge_bomb() -> str:  # 503 bytes
    lines = ["m0: &m0 {" + ", ".join(f"k{i}: {i}" for i in range(10)) + "}"]
    for n in range(1, 6):
        lines.append(f"m{n}: &m{n} {{<<: [" + ",".join([f"*m{n - 1}"] * 10) + "], "
                     + ", ".join(f"x{i}: *m{n - 1}" for i in range(5)) + "}")
    return "\n".join(lines) + "\nplayers: [*m5]\n"


def alias_field(head: str) -> str:
    """``head`` ends with a field; its value is 59,049 strings through 5 levels of aliases."""
    defs = ['a0: &a0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    for n in range(1, 5):
        defs.append(f"a{n}: &a{n} [" + ",".join([f"*a{n - 1}"] * 9) + "]")
    return "\n".join(defs) + "\n" + head + "*a4\n"


def big_value(width: int) -> str:
    """One 19,000-character name used by three players (under the text limit, over any message)."""
    name = "N" * width
    return "players:\n" + "".join(f"  - {{name: {name}{i}, coins: x, galleries: -1, improvements: [nope], "
                                  f"veins: {{}}, miners: 99}}\n" for i in range(3))


def many_players(n: int) -> str:
    return "players:\n" + "".join(f"  - {{name: p{i}, coins: 0, galleries: 0, improvements: [], veins: {{}}, "
                                  f"miners: 0}}\n" for i in range(n))


def short_players(n: int) -> str:
    return "players:\n" + "".join(f"- {{name: p{i}}}\n" for i in range(n))


GENERATORS = {f.__name__: f for f in (deep_score, big_int, alias_bomb, merge_bomb, alias_field, big_value,
                                      many_players, short_players)}


def cases(name: str) -> list[dict]:
    return yaml.safe_load((CORPUS / name).read_text(encoding="utf-8"))


@pytest.mark.parametrize("case", cases("score.yaml"), ids=lambda c: c["name"])
@pytest.mark.slow
def test_score_and_setup_corpus(case, tmp_path, monkeypatch):
    monkeypatch.delenv("CARDFORGE_DATA", raising=False)
    path = tmp_path / "input.yaml"
    if "hex" in case:
        path.write_bytes(bytes.fromhex(case["hex"]))
    elif "generate" in case:
        fn, *args = case["generate"]
        path.write_text(GENERATORS[fn](*args), encoding="utf-8")
    else:
        path.write_text(case.get("text", ""), encoding="utf-8")
    args = [str(path) if a == "FILE" else a for a in case["command"]]
    r = run_cli(*args)
    assert r.code == case["code"], r.err[-2000:]
    assert "internal error" not in r.err and "Traceback" not in r.err
    if case["code"]:
        assert r.err.strip()
    if "expect" in case:
        assert case["expect"].replace("FILE", str(path)) in r.err, r.err[-2000:]
    if "absent" in case:
        assert case["absent"] not in r.err
    if "stdout" in case:
        assert case["stdout"] in r.out
    if "max_err" in case:
        assert len(r.err) <= case["max_err"], r.err[:3000]


@pytest.mark.parametrize("case", cases("data.yaml"), ids=lambda c: c["name"])
def test_data_corpus(case, tmp_path):
    data = tmp_path / "data"
    folder = data / case["game"]
    shutil.copytree(ROOT / "card_data" / case["game"], folder)
    (tmp_path / "outside.yaml").write_text("- {id: outside, kind: mine, name: OUTSIDE, provenance: rulebook}\n",
                                           encoding="utf-8")
    for edit in case.get("edits", []):
        if "symlink" in edit:
            (folder / edit["symlink"]).symlink_to(edit["to"])
        elif "fifo" in edit:
            if not hasattr(os, "mkfifo"):
                pytest.skip("no FIFOs here")
            os.mkfifo(folder / edit["fifo"])
        elif "write" in edit:
            (folder / edit["file"]).write_text(edit["write"], encoding="utf-8")
        else:
            path = folder / edit["file"]
            old, new = edit["replace"]
            new = new.replace("GENERATED_DEEP", "[" * 30000 + "]" * 30000)
            text = path.read_text(encoding="utf-8")
            assert old in text
            path.write_text(text.replace(old, new, 1), encoding="utf-8")
    if "card_files_add" in case:
        deck = folder / "deck.yaml"
        meta = yaml.safe_load(deck.read_text(encoding="utf-8"))
        meta["card_files"].append(case["card_files_add"])
        deck.write_text(yaml.safe_dump(meta, allow_unicode=True, sort_keys=False), encoding="utf-8")
    r = run_cli("--data", data, "check", case["game"])
    assert r.code == 1, r.out
    assert case["expect"] in r.err, r.err[-2000:]
    assert "internal error" not in r.err and "OUTSIDE" not in r.out + r.err and "root:" not in r.err


@pytest.mark.parametrize("case", cases("templates.yaml"), ids=lambda c: c["source"][:40])
def test_template_corpus(case, tmp_path):
    from cardforge.text.templating import TemplateError, Templates, render

    (tmp_path / "secret.txt").write_text("SECRET", encoding="utf-8")
    folder = tmp_path / "tpl"
    folder.mkdir()
    (folder / "self.j2").write_text("{% include 'self.j2' %}", encoding="utf-8")
    (folder / "link.j2").symlink_to(tmp_path / "secret.txt")
    templates = Templates([folder])
    with pytest.raises(TemplateError) as err:
        render(templates.inline(case["source"]), {"card": {"name": "x"}})
    assert case["expect"] in str(err.value)
    assert "SECRET" not in str(err.value)
