"""Issue 42: every command prints one line per kind of warning with a count; ``--verbose``
prints each one. Three card files without an 'id' column give three warnings of one kind."""

from __future__ import annotations

from pathlib import Path

from cardforge.cli.common import summarise_warnings, warning_kind
from cardforge.problems import Problem

GAME = ("title: Many files\nlanguage: en\nplayers: 1-4\ncategories:\n  - {id: points, label: Points}\n"
        "deck:\n  version: '1'\n  card_size: poker\n  card_files: [hero.csv, villain.csv, place.csv]\n"
        "  kinds:\n    hero: {label: Hero}\n    villain: {label: Villain}\n    place: {label: Place}\n")


def _game(tmp_path: Path) -> Path:
    folder = tmp_path / "many"
    folder.mkdir()
    (folder / "game.yaml").write_text(GAME, encoding="utf-8")
    for kind, names in (("hero", "Ann\nBob\n"), ("villain", "Cruel\n"), ("place", "Keep\nMoor\n")):
        (folder / f"{kind}.csv").write_text("Name\n" + names, encoding="utf-8")
    return folder


def _warnings(err: str) -> list[str]:
    return [ln for ln in err.splitlines() if ln.startswith("warning:")]


def test_check_says_a_kind_of_warning_once_with_the_count(cli, tmp_path):
    r = cli("check", str(_game(tmp_path)))
    assert r.code == 0, r.err
    [line] = _warnings(r.err)
    assert "hero.csv: no 'id' column: ids are derived from the names" in line
    assert line.endswith("(and 2 more like this: --verbose lists them all)")
    assert "many: OK (3 warnings)" in r.out


def test_verbose_lists_every_warning(cli, tmp_path):
    r = cli("check", str(_game(tmp_path)), "--verbose")
    lines = _warnings(r.err)
    assert [ln.split(": no 'id'")[0].rsplit("/", 1)[-1] for ln in lines] == ["hero.csv", "villain.csv", "place.csv"]
    assert not any("more like this" in ln for ln in lines)


def test_build_summarises_too(cli, tmp_path):
    r = cli("build", str(_game(tmp_path)), "-o", tmp_path / "out", "--only", "decks")
    assert r.code == 0, r.err
    [line] = [ln for ln in _warnings(r.err) if "no 'id' column" in ln]
    assert line.endswith("(and 2 more like this: --verbose lists them all)")


def test_a_kind_is_one_message_about_one_field_whatever_the_card():
    a = Problem("no 'fr' text: the fr edition prints its 'en' one", file="x.yaml", item="card 'a' (#1)",
                field="name", severity="warning")
    b = Problem("no 'fr' text: the fr edition prints its 'en' one", file="y.csv", item="card 'b' (#7)",
                field="name", severity="warning")
    c = Problem("no 'fr' text: the fr edition prints its 'en' one", item="card 'a' (#1)", field="effect",
                severity="warning")
    error = Problem("no 'fr' text: the fr edition prints its 'en' one", item="card 'c' (#2)", field="name")
    assert warning_kind(a) == warning_kind(b) != warning_kind(c)
    assert summarise_warnings([a, error, b, c], verbose=False) == [
        f"warning: {a} (and 1 more like this: --verbose lists them all)", f"warning: {c}"]
    assert summarise_warnings([a, b], verbose=True) == [f"warning: {a}", f"warning: {b}"]
    # messages saying different things stay apart (the renderers' summaries, per box and kind)
    title = Problem("text 4.05 mm from the top edge", item="3 faces of kind 'spell' (a, b, c): box 'title'",
                    severity="warning")
    body = Problem("text 4.00 mm from the left edge", item="3 faces of kind 'spell' (a, b, c): box 'body'",
                   severity="warning")
    assert len(summarise_warnings([title, body], verbose=False)) == 2
