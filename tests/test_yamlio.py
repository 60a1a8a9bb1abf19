"""The YAML reader refuses hostile input with located messages, quickly and without recursion."""

from __future__ import annotations

import json
import os

import pytest
import yaml

from cardforge.data.yamlio import parse_text, read_yaml


def only_problem(text: str) -> str:
    doc = parse_text(text, "f.yaml")
    assert doc.data is None and len(doc.problems) == 1, doc.problems
    return str(doc.problems[0])


DEEP = {
    "flow 300": "[" * 300 + "]" * 300,
    # past libyaml 0.2.6's own limit of 1,000 levels, which it applies while reading ahead,
    # before the first event: cardforge's message all the same (PyYAML 6.0.4; 6.0.1 has no limit)
    "flow 40,000": "[" * 40000 + "]" * 40000,
    "flow 5,000 unclosed, after a key": "a:\n  b: " + "{c: " * 5000,
    "block 300": "".join(" " * i + "a:\n" for i in range(300)),
    "block 1,500": "".join(" " * i + "- \n" for i in range(1500)) + " " * 1500 + "x\n",
}


@pytest.mark.parametrize("text", DEEP.values(), ids=DEEP.keys())
def test_deep_nesting_refused(text):
    assert "nested too deep: at most 64 levels" in only_problem(text)


def test_deep_nesting_is_refused_at_the_line_it_passes_the_limit():
    text = "ok: [1, 2]\nlist:\n" + "".join(" " * (2 * i) + "- \n" for i in range(70))
    assert only_problem(text).startswith("f.yaml:66: nested too deep")
    text = "ok: 1\n\ndeep: " + "[" * 5000
    assert only_problem(text).startswith("f.yaml:3: nested too deep")


def test_the_hard_depth_ceiling_is_under_every_parser_limit(monkeypatch):
    """Raised to the ceiling (200), the limit still holds past libyaml's own 1,000 levels, and a
    document within it reads whatever the YAML library's version."""
    from cardforge.limits import HARD_MAX_DEPTH

    assert HARD_MAX_DEPTH < 1000  # libyaml 0.2.6 refuses deeper itself: cardforge must speak first
    monkeypatch.setenv("CARDFORGE_LIMIT_YAML_DEPTH", "5000")
    assert "nested too deep: at most 200 levels" in only_problem("[" * 40000 + "]" * 40000)
    assert parse_text("[" * 200 + "]" * 200, "f").problems == []
    assert parse_text("[" * 201 + "]" * 201, "f").problems[0].message.startswith("nested too deep")


def test_depth_through_aliases():
    text = "a: &a " + "[" * 60 + "]" * 60 + "\nb: " + "[" * 10 + "*a" + "]" * 10
    assert only_problem(text).startswith("f.yaml:2: nested too deep")


def test_depth_limit_overridable(monkeypatch):
    monkeypatch.setenv("CARDFORGE_LIMIT_YAML_DEPTH", "100")
    assert parse_text("[" * 90 + "]" * 90, "f").problems == []


def bomb(levels: int = 9) -> str:
    lines = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    names = "abcdefghijklmnop"
    for p, c in zip(names[:levels - 1], names[1:levels]):
        lines.append(f"{c}: &{c} [" + ",".join(f"*{p}" for _ in range(9)) + "]")
    return "\n".join(lines)


def test_alias_bomb_refused_quickly():
    msg = only_problem(bomb())
    assert "too many values once aliases (*name) and merge keys (<<) are expanded: at most 200,000" in msg
    assert "CARDFORGE_LIMIT_YAML_NODES" in msg


def test_merge_key_bomb_refused():
    lines = ["a0: &a0 {" + ", ".join(f"k{i}: 1" for i in range(10)) + "}"]
    for n in range(1, 9):
        lines.append(f"a{n}: &a{n} {{<<: [" + ", ".join(f"*a{n - 1}" for _ in range(10)) + "], "
                     + ", ".join(f"x{i}: *a{n - 1}" for i in range(10)) + "}")
    assert "merge keys (<<) are expanded" in only_problem("\n".join(lines))


def test_merge_override_is_not_a_duplicate():
    doc = parse_text("base: &alice {name: Alice, coins: 3}\nplayers:\n  - <<: *alice\n    name: Ben\n", "f")
    assert doc.problems == []
    assert doc.data["players"] == [{"name": "Ben", "coins": 3}]


def test_merge_list_earlier_wins_and_matches_pyyaml():
    text = "a: &a {x: 1, y: 1}\nb: &b {x: 2, z: 2}\nc: {<<: [*a, *b], w: 0}\n"
    assert parse_text(text, "f").data == yaml.safe_load(text)
    assert parse_text(text, "f").data["c"] == {"x": 1, "y": 1, "z": 2, "w": 0}


def test_duplicate_key_still_reported():
    doc = parse_text("a: 1\nb: 2\na: 3\n", "f.yaml")
    assert [str(p) for p in doc.problems] == ["f.yaml:3: duplicate key 'a' (YAML keeps only the last one)"]


@pytest.mark.parametrize("text, message", [
    ("a: !!bool maybe", "f.yaml:1: 'maybe' is not true or false (tag !!bool)"),
    ("a: !!float x", "f.yaml:1: 'x' is not a number (tag !!float)"),
    ("a: !!int ''", "f.yaml:1: '' is not a whole number (tag !!int)"),
    ("a:\n  b: !!timestamp junk", "f.yaml:2: 'junk' is not a date (YYYY-MM-DD) (tag !!timestamp)"),
    ("a: !foo x", "f.yaml:1: unsupported tag !foo (allowed: !!str, !!int, !!float, !!bool, !!null, "
                  "!!timestamp, !!map, !!seq)"),
    ("a: !!python/object:os.system x", "f.yaml:1: unsupported tag !!python/object:os.system"),
    ("a: !!set {x}", "f.yaml:1: unsupported tag !!set"),
    ("a: !!seq {b: 1}", "f.yaml:1: the tag !!seq cannot be put on a mapping"),
    ("a: !!map x", "f.yaml:1: the tag !!map cannot be put on a single value"),
    ("? [1, 2]\n: 3", "f.yaml:1: a key must be a single value (text or a number), not a list or mapping"),
    ("a: 1\n---\nb: 2", "f.yaml:2: a second document (after ---): a file holds one document"),
    ("a: *nope", "f.yaml:1: unknown alias *nope"),
    ("a: " + "9" * 5000, "f.yaml:1: a whole number with 5,000 digits: at most 4,000"),
])
def test_refused_values(text, message):
    assert only_problem(text).startswith(message)


def test_good_tags_still_work():
    assert parse_text("a: !!str 12\nb: !!int '7'\nc: !!float 1\nd: !!bool yes\ne: 2024-05-01", "f").data == \
        yaml.safe_load("a: !!str 12\nb: !!int '7'\nc: !!float 1\nd: !!bool yes\ne: 2024-05-01")


def test_json_surrogate_pairs():
    text = json.dumps({"name": "Zoé 😀", "list": ["🂡"]})
    assert "\\ud83d\\ude00" in text
    assert parse_text(text, "f").data == {"name": "Zoé 😀", "list": ["🂡"]}
    # only inside double-quoted scalars: plain text keeps its backslashes
    assert parse_text("a: x\\ud83d\\ude00", "f").data == {"a": "x\\ud83d\\ude00"}


@pytest.mark.slow
def test_same_data_as_pyyaml_on_shipped_files():
    from pathlib import Path

    for path in sorted(Path(__file__).resolve().parents[1].glob("card_data/*/*.yaml")):
        text = path.read_text(encoding="utf-8")
        assert parse_text(text, path.name).data == yaml.safe_load(text), path


@pytest.mark.slow
def test_line_of_linear_and_right():
    n = 40000
    text = "players:\n" + "".join(f"  - name: p{i}\n    coins: {i}\n" for i in range(n))
    doc = parse_text(text, "f")
    assert doc.line_of(("players", 0, "coins")) == 3
    assert doc.line_of(("players", n - 1, "name")) == 2 * n
    assert doc.line_of(("players", n - 1, "nope")) == 2 * n  # deepest existing
    assert doc.line_of(("players", n + 5)) == 1
    assert doc.line_of(()) == 1
    for i in range(0, n, 1):  # 40,000 lookups: linear overall (the old lookup scanned per key)
        assert doc.line_of(("players", i, "coins")) == 2 * i + 3


def test_line_of_mapping_keys_by_text():
    doc = parse_text("notes:\n  1: a\n  2: b\nx: [1, {y: 2}]\n", "f")
    assert doc.line_of(("notes", 2)) == 3
    assert doc.line_of(("x", 1, "y")) == 4


def test_non_utf8_named_by_offset(tmp_path):
    path = tmp_path / "f.yaml"
    path.write_bytes(b"a: 1\nb: caf\xe9\n")
    doc = read_yaml(path, "f.yaml")
    assert [str(p) for p in doc.problems] == [
        "f.yaml:2: not UTF-8 text: byte 0xe9 at offset 11 (invalid continuation byte); save the file as UTF-8"]


def test_bom_is_fine(tmp_path):
    path = tmp_path / "f.yaml"
    path.write_bytes("\ufeffa: é\n".encode("utf-8"))
    assert read_yaml(path, "f").data == {"a": "é"}


def test_file_too_large(tmp_path, monkeypatch):
    monkeypatch.setenv("CARDFORGE_LIMIT_FILE_BYTES", "100")
    path = tmp_path / "f.yaml"
    path.write_text("a: " + "x" * 200, encoding="utf-8")
    assert [str(p) for p in read_yaml(path, "f.yaml").problems] == [
        "f.yaml: file too large: 203 bytes, at most 100 bytes (set CARDFORGE_LIMIT_FILE_BYTES to allow more)"]


def test_device_refused():
    doc = read_yaml("/dev/zero", "/dev/zero")
    assert [str(p) for p in doc.problems] == ["/dev/zero: cannot read a character device: give a regular file"]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_fifo_refused_without_blocking(tmp_path):
    fifo = tmp_path / "f.yaml"
    os.mkfifo(fifo)
    doc = read_yaml(fifo, "f.yaml")  # would block forever if it were opened for reading normally
    assert [str(p) for p in doc.problems] == ["f.yaml: cannot read a FIFO (named pipe): give a regular file"]


def test_folder_and_missing(tmp_path):
    assert [p.message for p in read_yaml(tmp_path, "d").problems] in (
        [["is a folder, not a file"]], ["is a folder, not a file"], ["cannot read a folder: give a regular file"])
    assert [p.message for p in read_yaml(tmp_path / "nope.yaml", "n").problems] == ["file not found"]


@pytest.mark.slow
def test_big_flat_file_within_node_limit():
    text = "players:\n" + "".join(f"  - {{name: p{i}, coins: {i}}}\n" for i in range(30_000))
    doc = parse_text(text, "f")
    assert len(doc.data["players"]) == 30_000
    assert doc.line_of(("players", 29_999)) == 30_001
    doc = parse_text(text * 2, "f")  # 300,000 values: past the limit, refused while reading
    assert "at most 200,000" in str(doc.problems[0])
