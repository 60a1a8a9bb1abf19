"""cardforge check GAME"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from cardforge.cli import STATE, problems_json
from cardforge.cli.common import GAME, echo_json, every_game, summarise_warnings
from cardforge.errors import DataError
from cardforge.i18n import languages
from cardforge.problems import plural

if TYPE_CHECKING:
    from pathlib import Path

    from cardforge.data.loading import GameData
    from cardforge.games.base import Game
    from cardforge.problems import Problem

EPILOG = """\b
Examples:
  cardforge check                      # every game
  cardforge check my-game other-game
  cardforge --data ./my_card_data check my_game
  cardforge check my-game --strict     # warnings fail too
  cardforge check my-game --templates ./my_templates
"""


@click.command(epilog=EPILOG)
@click.argument("games", metavar="[GAME]...", nargs=-1, type=GAME)
@click.option("--strict", is_flag=True, help="Treat warnings as errors.")
@click.option("--templates", "templates_dir", type=click.Path(file_okay=False, exists=True),
              help="Check with the layouts and templates of DIR/<game>/ and DIR/_shared/ (as build --templates).")
@click.option("--lang", type=click.Choice(list(languages())), default=None,
              help="Check this edition: each multilingual card text in this language (default: the "
                   "game's `language`). Every check lists the texts each language lacks.")
@click.option("--json", "as_json", is_flag=True,
              help="Print the counts and problems as JSON (one object for one GAME; else {ok, games: [...]}).")
@click.pass_context
def check(ctx: click.Context, games: tuple[Game, ...], strict: bool, templates_dir: str | None,
          as_json: bool, lang: str | None) -> None:
    """Load and validate each GAME's card data (every game when none is given), then draw every
    card's front and back as build would, without writing a PDF (layouts, templates, markup,
    fonts, icons, art, text that does not fit); print problems and counts per card kind.

    Exits 0 when the data is valid, 1 when any problem is found in any game.
    """
    chosen = list(dict.fromkeys(games)) if games else every_game()
    templates = Path(templates_dir) if templates_dir else None
    results = [_check_one(game, strict, as_json, templates, lang) for game in chosen]
    failed = any(not r["ok"] for r in results)
    if as_json:
        echo_json(results[0] if len(games) == 1 else {"ok": not failed, "games": results})
    ctx.exit(1 if failed else 0)


def _check_one(game: Game, strict: bool, as_json: bool, templates_dir: Path | None = None,
               lang: str | None = None) -> dict[str, Any]:
    """Check one game; prints its text report unless ``as_json``; returns its JSON object."""
    data, problems = _game_problems(game, templates_dir, lang)
    errors = [p for p in problems if not p.is_warning]
    warnings = [p for p in problems if p.is_warning]
    failed = bool(errors) or (strict and bool(warnings))
    result = {
        "game": game.id,
        "ok": not failed,
        "problems": problems_json(problems),
        **(_summary(data) if data is not None else {}),
    }
    if data is not None:
        from cardforge.data.editions import missing_by_language

        editions = missing_by_language(data.translations, game.language)
        if editions:  # how many texts each language lacks, and the first few, when any card text has several
            result["editions"] = {code: {"missing": m.count, "examples": list(m.examples)}
                                  for code, m in editions.items()}
    if as_json:
        return result
    for p in errors:
        click.echo(f"error: {p}", err=True)
    if not STATE.quiet or strict:  # one line per kind of warning (every one with --verbose or --strict)
        for line in summarise_warnings(warnings, STATE.verbose or strict):
            click.echo(line, err=True)
    if data is not None and not errors and not STATE.quiet:
        _echo_summary(game, data, result)
    if failed:
        n = len(errors) + (len(warnings) if strict else 0)
        click.echo(f"{game.id}: {plural(n, 'problem')} found", err=True)
        return result
    click.echo(f"{game.id}: OK" + (f" ({plural(len(warnings), 'warning')})" if warnings else ""))
    return result


def _game_problems(game: Game, templates_dir: Path | None, lang: str | None
                   ) -> tuple[GameData | None, list[Problem]]:
    """The game's data and every problem: its data's, its project's, its assets', and its
    cards' as drawn (when the data has no error)."""
    from cardforge.data.loading import check_game_data

    contract = game.hooks.load_all()  # the rules' lazy hooks and pluggy's check: in full, here
    if contract:
        return None, contract
    data, problems = check_game_data(game, lang=lang)
    from cardforge.assets import has_assets
    from cardforge.transaction import checkpoint

    checkpoint("check")  # the tests' hook: an interrupt while checking
    problems = problems + _project_problems(game)

    if data is not None and has_assets(data):  # fonts, icons and art opened (render/drawing/game_assets.py)
        from cardforge.render.drawing.game_assets import asset_problems

        problems = problems + asset_problems(data)
    if data is not None and not any(not p.is_warning for p in problems):
        # every card drawn as build draws it, on a canvas never saved (render/cards/preflight.py)
        from cardforge.render.cards.preflight import card_problems

        seen = {(p.message, p.file, p.item, p.field) for p in problems}
        from cardforge.settings import BuildSettings

        drawn = card_problems(game, data, BuildSettings(lang=lang), templates_dir=templates_dir)
        problems = problems + [p for p in drawn
                               if (p.message, p.file, p.item, p.field) not in seen]
    return data, problems


def _echo_summary(game: Game, data: GameData, result: dict[str, Any]) -> None:
    """The text report of a game without errors: its cards by kind, sections, editions."""
    from cardforge.data.loading import game_dir
    from cardforge.resources import display_path

    folder = display_path(game_dir(game))
    s = _summary(data)
    kinds = data.meta.kinds
    click.echo(f"{game.id}: {data.meta.title} — deck version {data.meta.version}, "
               f"cards {data.meta.card_size.label} ({folder})")
    click.echo(f"  {plural(s['cards'], 'card')}")
    for kind, n in s["by_kind"].items():
        label = kinds[kind].plural or kinds[kind].label if kind in kinds else kind
        click.echo(f"    {n:>4}  {kind} ({label})")
    for name, count in s["sections"].items():
        click.echo(f"  {plural(count, name[:-1] if name.endswith('s') else name)}")
    click.echo(f"  provisional: {s['provisional']} of {s['entries']} entries "
               f"(the rest from the rulebook)")
    if s["not_printed"]:
        click.echo(f"  not printed (copies: 0): {', '.join(s['not_printed'])}")
    for code, entry in result.get("editions", {}).items():
        count, examples = entry["missing"], entry["examples"]
        shown = ", ".join(examples) + (f", … ({count - len(examples):,} more)" if count > len(examples) else "")
        click.echo(f"  {code} edition: " + (f"{plural(count, 'text')} missing: {shown}" if count
                                             else "every multilingual text given"))


def _project_problems(game: Game) -> list[Problem]:
    """The problems of the game folder's ``cardforge.toml`` (what build would stop on)."""
    from cardforge.data.project import read_project

    try:
        read_project(game.folder)
    except DataError as exc:
        return list(exc.problems)
    return []


def _summary(data: GameData) -> dict[str, Any]:
    by_kind = data.count_by_kind()
    sections = {name: (len(v) if isinstance(v, list) else 1) for name, v in data.sections.items()}
    return {
        "cards": sum(by_kind.values()),
        "by_kind": by_kind,
        "sections": sections,
        "entries": len(data.entries()),
        "provisional": data.provisional_count(),
        "not_printed": [c.id for c in data.cards if c.copies == 0],
    }
