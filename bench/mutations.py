"""The mutators of the fuzz campaign (``bench/fuzz.py``) and of its surfaces
(``bench/fuzz_surfaces.py``): parsed YAML values and text broken at random places, hostile
values, YAML bombs. Their own module so that both campaigns use them without importing each other.
"""

from __future__ import annotations

import json
import random
from typing import Any

import yaml


def hostile_values(rng: random.Random) -> list[Any]:
    return [10 ** 50, -1, 0, -(10 ** 9), 2 ** 63, 10 ** 4400, 10 ** rng.randint(5, 20), 1e308, -1e308,
            float("nan"), float("inf"), "", "x" * rng.choice([300, 30000]), "😀" * 5, None, True, False, [], {},
            [1] * rng.choice([20, 20000]),
            {"a": 1}, "A" * 100, "\u202e\u0000", 3.5, "1000000000", 10 ** 9, ":coin:" * 50, "é" * 3,
            [[[[[[[[[[[[]]]]]]]]]]]], {"<<": 1}, "../../etc/passwd", "/dev/zero", "{{ 7*7 }}",
            "#zzzzzz", "2024-13-45", "0x1F", "1_000", "~", "null", "yes"]


def _paths(value: Any, path: tuple = ()) -> list[tuple]:
    out = [path]
    if isinstance(value, dict):
        for k, v in value.items():
            out += _paths(v, path + (k,))
    elif isinstance(value, list):
        for i, v in enumerate(value[:50]):
            out += _paths(v, path + (i,))
    return out


def _get(value: Any, path: tuple) -> Any:
    for p in path:
        value = value[p]
    return value


def mutate_value(rng: random.Random, value: Any, count: int = 1) -> Any:
    """``value`` (parsed YAML) with ``count`` structural mutations at random places."""
    import copy

    value = copy.deepcopy(value)
    for _ in range(count):
        paths = _paths(value)
        path = rng.choice(paths)
        op = rng.randrange(8)
        if not path:
            if op < 2:
                value = rng.choice(hostile_values(rng))
            continue
        parent, key = _get(value, path[:-1]), path[-1]
        old = parent[key]
        if op <= 2:  # a hostile value
            parent[key] = rng.choice(hostile_values(rng))
        elif op == 3:  # removed
            del parent[key]
        elif op == 4:  # an unknown key / an extra element
            if isinstance(old, dict):
                old[rng.choice(["extra", "nmae", "copies", "id", 7, "<<"])] = rng.choice(hostile_values(rng))
            elif isinstance(old, list):
                old.append(rng.choice(old) if old else None)
            else:
                parent[key] = [old, old]
        elif op == 5:  # a list ×N (every list ×20,000 sweep)
            if isinstance(old, list) and old:
                parent[key] = old * (20000 if rng.random() < 0.1 else rng.choice([2, 50]))
            elif isinstance(parent, list):
                parent.extend([old] * rng.choice([2, 100]))
        elif op == 6:  # nested deep
            nested = old
            for _ in range(rng.choice([3, 40, 70])):  # deeper: mutate_text (the dumpers recurse)
                nested = [nested]
            parent[key] = nested
        else:  # the type changed
            parent[key] = {"value": old} if not isinstance(old, dict) else list(old.values())
    return value


BAD_TAGS = ["!!bool maybe", "!!float x", "!!int ''", "!!timestamp junk", "!!python/object:os.system x",
            "!foo x", "!!binary ZZZ", "!!set {a}", "!!omap [a]", "!!str", "!!int 0b2", "!!null 5"]


def bomb_text(width: int = 9, levels: int = 9) -> str:
    lines = ['lol0: &lol0 ["lol"' + ', "lol"' * (width - 1) + "]"]
    for i in range(1, levels):
        lines.append(f"lol{i}: &lol{i} [" + ", ".join([f"*lol{i - 1}"] * width) + "]")
    return "\n".join(lines) + "\n"


def merge_bomb_text() -> str:
    lines = ["m0: &m0 {" + ", ".join(f"k{i}: {i}" for i in range(10)) + "}"]
    for n in range(1, 8):
        lines.append(f"m{n}: &m{n} {{<<: [" + ", ".join([f"*m{n - 1}"] * 10) + "], "
                     + ", ".join(f"x{i}: *m{n - 1}" for i in range(10)) + "}")
    return "\n".join(lines) + "\n"


def mutate_text(rng: random.Random, text: str) -> str | bytes:
    """Text-level damage: tags, alias and merge bombs, bytes, truncation, deep nesting."""
    lines = text.split("\n")
    op = rng.randrange(11)
    i = rng.randrange(len(lines)) if lines else 0
    if op == 0 and lines:  # a bad explicit tag on a value
        line = lines[i]
        if ": " in line:
            head = line.split(": ", 1)[0]
            lines[i] = f"{head}: {rng.choice(BAD_TAGS)}"
        return "\n".join(lines)
    if op == 1:  # an alias bomb before the document (mapping documents)
        return bomb_text() + text if not text.lstrip().startswith(("-", "[")) else text + "\n" + bomb_text()
    if op == 2:
        return merge_bomb_text() + text
    if op == 3:  # invalid UTF-8 / NUL / control bytes somewhere
        raw = text.encode("utf-8")
        pos = rng.randrange(len(raw) + 1)
        return raw[:pos] + rng.choice([b"\xff", b"\xfe\xff", b"\x00", b"\xc3", b"\xed\xa0\x80", b"\x1b"]) + raw[pos:]
    if op == 4:  # truncated
        return text[: rng.randrange(len(text) + 1)]
    if op == 5:  # deep flow nesting (the C loader's segfault)
        depth = rng.choice([100, 300, 30000])
        return text + "\ndeep: " + "[" * depth + "]" * depth + "\n"
    if op == 6 and lines:  # a duplicated line (duplicate keys)
        lines.insert(i, lines[i])
        return "\n".join(lines)
    if op == 7:  # a huge number
        return text.replace(": 1\n", ": " + "9" * rng.choice([30, 4301, 5000]) + "\n", 1) if ": 1\n" in text \
            else text + "\nbig: " + "9" * 5000 + "\n"
    if op == 8:  # a JSON emoji escape, a BOM, a second document
        return rng.choice(['\ufeff' + text, text + "\n---\nother: 1\n", text.replace("'", '"', 2)
                           + '\nemoji: "\\ud83d\\ude00"\n'])
    if op == 9 and lines:  # merge key override
        return "base: &base {name: Zed}\n" + text
    return text + "\n" + "x" * rng.choice([1, 30000])


def dump(rng: random.Random, value: Any) -> str:
    if rng.random() < 0.25:
        try:
            return json.dumps(value, ensure_ascii=rng.random() < 0.5, allow_nan=True)
        except (TypeError, ValueError):
            pass
    return yaml.dump(value, Dumper=getattr(yaml, "CSafeDumper", yaml.SafeDumper), allow_unicode=rng.random() < 0.5,
                     sort_keys=False, width=10 ** 6)


def expanded_size(value: Any, budget: int = 3_000_000) -> int:
    """Values in ``value`` counting shared lists as often as they appear (stops past ``budget``)."""
    count, stack = 0, [value]
    while stack and count <= budget:
        item = stack.pop()
        count += 1
        if isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return count


def make_file(rng: random.Random, seed: Any) -> str | bytes:
    """A mutated file from ``seed``. Its size stays within what the fuzzer itself can write
    (at most ~3 million values, ~12 MB: past cardforge's limits, well within the machine's)."""
    value = mutate_value(rng, seed, rng.choice([1, 1, 2, 3]))
    if expanded_size(value) > 3_000_000:
        value = seed
    try:
        text = dump(rng, value)
    except (RecursionError, ValueError, TypeError):
        text = dump(rng, seed)
    if rng.random() < 0.3:
        text = mutate_text(rng, text)
    return text[:12_000_000]
