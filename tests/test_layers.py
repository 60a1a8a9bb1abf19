"""Layers point one way (issue 27). `lint-imports` checks the run-time imports (pyproject.toml's
contracts: the layers, no cycles); these tests check what it leaves out — imports made only for
type checking — where the rule is stricter: the data layer does not even *name* a game."""

from __future__ import annotations

import grimp
import pytest


@pytest.fixture(scope="module")
def graph():
    return grimp.build_graph("cardforge", exclude_type_checking_imports=False, cache_dir=None)


def test_data_does_not_import_games_even_for_types(graph):
    """Loading receives a ``GameSource`` (data/loading.py) that games satisfy: the game machinery
    is above the data layer and passed in, never reached for."""
    found = graph.find_illegal_dependencies_for_layers(layers=("cardforge.games", "cardforge.data"))
    assert not found, [(d.importer, d.imported) for d in found]
    for module in sorted(m for m in graph.modules if m.startswith("cardforge.data")):
        imported = graph.find_modules_directly_imported_by(module)
        assert not [m for m in imported if m.startswith("cardforge.games")], module


def test_no_two_modules_import_each_other_at_run_time():
    """The cycles named in issue 27 (data.cache ↔ data.loading, render.printables ↔
    render.setup_sheet) are gone, and no other: every strongly connected part is one module."""
    run_time = grimp.build_graph("cardforge", exclude_type_checking_imports=True, cache_dir=None)
    modules = sorted(m for m in run_time.modules if m.startswith("cardforge"))
    cycles = []
    for module in modules:
        for other in run_time.find_modules_directly_imported_by(module):
            if other != module and other.startswith("cardforge") and \
                    run_time.chain_exists(importer=other, imported=module) and \
                    not module.startswith(other + ".") and not other.startswith(module + "."):
                cycles.append((module, other))
    assert not cycles
