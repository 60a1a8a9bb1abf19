"""No function over 60 lines in the package (``cardforge/**``) or the shipped games' rules
(``card_data/*/rules/**``) without a reason in its docstring (bench/long_functions.py; issue 41)."""

from __future__ import annotations

import ast
import textwrap

from fuzz import load_bench

lf = load_bench("long_functions")


def test_no_long_function():
    found = lf.long_functions(lf.files())
    assert [f"{f.path}::{f.name} ({f.length} lines)" for f in lf.not_allowed(found)] == []


def test_the_known_ones_still_exist_at_that_length_or_shorter():
    """A known function split (or renamed) leaves KNOWN: the list only shrinks."""
    found = {f"{f.path}::{f.name}": f.length for f in lf.long_functions(lf.files())}
    stale = [k for k in lf.KNOWN if k not in found]
    assert stale == [], "split: remove from bench/long_functions.py KNOWN"


def test_the_whole_package_and_every_shipped_games_rules_are_checked():
    checked = {p.relative_to(lf.ROOT).as_posix() for p in lf.files()}
    for path in ("cardforge/markup.py", "cardforge/studio/app.py", "cardforge/lab/effects.py",
                 "cardforge/web/invites.py", "cardforge/playlog/store.py",
                 "card_data/cristaux/rules/setup_rules.py"):
        assert path in checked
    games = {p.split("/")[1] for p in checked if p.startswith("card_data/")}
    assert games == {"cristaux", "imperial_miners", "maphr", "mine_all_mine", "tunhell"}
    assert not any(p.startswith(("tests/", "bench/")) or "/tests/" in p for p in checked)


def test_a_long_function_is_reported_and_one_grown_past_known_too(monkeypatch):
    long_one = lf.Long("card_data/g/rules/x.py", "f", 1, 61, False)
    explained = lf.Long("cardforge/y.py", "g", 1, 90, True)
    assert lf.not_allowed([long_one, explained]) == [long_one]
    monkeypatch.setattr(lf, "KNOWN", {"card_data/g/rules/x.py::f": 61})
    assert lf.not_allowed([long_one]) == []
    grown = lf.Long("card_data/g/rules/x.py", "f", 1, 62, False)
    assert lf.not_allowed([grown]) == [grown]


def _lengths(source: str, limit: int = 3) -> list[tuple[str, int, bool]]:
    tree = ast.parse(textwrap.dedent(source))
    found: list = []
    lf._walk(tree, "", "m.py", limit, found)
    return sorted((f.name, f.length, f.reason) for f in found)


def test_lengths_names_and_reasons_as_counted_by_hand():
    source = '''
        def short():
            return 1

        def four():
            a = 1
            b = 2
            return a + b

        class K:
            def method(self):
                """Not split: one table read top to bottom."""
                x = 1
                return x

        def outer():
            def inner():
                a = 1
                b = 2
                return a
            return inner
    '''
    # four: def + 3 lines = 4; K.method: def + docstring + 2 = 4 (with a reason); outer: 6 lines,
    # inner: 4 lines; short: 2 (at most the limit of 3: not listed)
    assert _lengths(source) == [("K.method", 4, True), ("four", 4, False), ("outer", 6, False),
                                ("outer.<locals>.inner", 4, False)]
