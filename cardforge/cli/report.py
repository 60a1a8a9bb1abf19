"""cardforge report GAME: the playtest lab as a PDF (the same as the lab page of `cardforge serve`)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click

from cardforge.cli.common import GAME, echo_json, load_data, output_target

if TYPE_CHECKING:
    from cardforge.games.base import Game

EPILOG = """\b
Examples:
  cardforge report my-game                          # output/my-game/report.pdf, every version
  cardforge report my-game --version "since 0.3" -o report.pdf
  cardforge report my-game --compare 0.2,0.3 --min-plays 5
  cardforge report ./my-game --db plays.db

Per deck version (or --pool: the selection as one): the effect of each card, declared choice and
seat on winning (a conditional logit per play: the player count and what else was held accounted
for), with its interval and the plays it rests on, flagged only when it survives a
false-discovery-rate correction over everything tested (Benjamini–Hochberg, 5 %), or "too few
plays" with the plays that would tell; win rates per seat and per declared choice
(with counts, Wilson 95 % intervals and fair shares), the winner's margin, where the points come
from, game length, per card; the card diff between two versions beside what moved; and the
balance of the card data (balance: in game.yaml). The same log gives the same bytes.
"""


@click.command(epilog=EPILOG)
@click.argument("game", type=GAME)
@click.option("--db", "db_path", type=click.Path(dir_okay=False), default=None,
              help="The play log: an SQLite file or a PostgreSQL URL, as `cardforge serve --db`. "
                   "Default: cardforge.db in your user data folder.")
@click.option("--version", "versions", default=None, metavar="SEL",
              help="The deck versions: 0.3, 0.2..0.3, 'since 0.3', ..0.3 (default: every one).")
@click.option("--pool", is_flag=True, help="The selected versions as one group (default: one per version).")
@click.option("--compare", default=None, metavar="OLD,NEW",
              help="The two versions compared (default: the last two selected).")
@click.option("--min-plays", "min_count", default=None, type=int, metavar="N",
              help="The seats a rate needs to be ranked (default 10; fewer say 'too few plays').")
@click.option("-o", "--output", "output", default=None, metavar="FILE",
              help="The PDF (default output/<game>/report.pdf).")
@click.option("--json", "as_json", is_flag=True, help="Print what was written as one JSON object.")
def report(game: Game, db_path: str | None, versions: str | None, pool: bool, compare: str | None,
           min_count: int | None, output: str | None, as_json: bool) -> None:
    """The playtest lab of GAME as a PDF: numbers per deck version, their comparison, balance."""
    from cardforge.paths import write_atomic
    from cardforge.playlog.lab import lab_view, options_problems
    from cardforge.playlog.store import open_log
    from cardforge.render.reports import lab_report

    data = load_data(game)
    log = open_log(db_path)
    opts, problems = options_problems(versions, compare, min_count, log.deck_versions(game.id))
    if problems:
        p = problems[0]
        raise click.BadParameter(p.message, param_hint=f"'{p.field}'")
    opts.pool = pool
    target = output_target(output, Path("output") / game.id / "report.pdf", "-o", "report", folder=False)
    view = lab_view(log, game, data, opts)
    target.parent.mkdir(parents=True, exist_ok=True)
    pages: list[int] = []
    write_atomic(target, lambda f: pages.append(lab_report.write_report(view, f)))
    flagged = sum(len(f.flagged) for f in view.fits)
    effects_flagged = sum(1 for e in view.effects() if e.flagged)
    versions_text = ", ".join(f"{v.label}: {v.plays}" for v in view.versions if v.selected) or "no play"
    if as_json:
        from cardforge.lab.effects import FDR, TARGET
        from cardforge.lab.effects import as_json as effect_json

        effects = []
        for g in view.groups:
            effects += [{"group": g.label, **effect_json(e)} for e in g.fitted.effects]
        if view.comparison is not None:
            change = f"v{view.comparison.old_version} → v{view.comparison.new_version}"
            effects += [{"group": change, **effect_json(e)} for e in view.differences]
        echo_json({"ok": True, "file": str(target), "pages": pages[0], "plays": view.selected_plays,
                   "versions": [{"version": v.version, "plays": v.plays} for v in view.versions if v.selected],
                   "compared": [view.comparison.old_version, view.comparison.new_version] if view.comparison else None,
                   "flagged": flagged + effects_flagged, "balance_flagged": flagged,
                   "effects_tested": view.tested, "effects_flagged": effects_flagged,
                   "fdr": FDR, "target_points": 100 * TARGET, "effects": effects})
        return
    compared = (f"; compared v{view.comparison.old_version} → v{view.comparison.new_version}"
                if view.comparison else "")
    balance = f"; balance: {flagged} card{'s' if flagged != 1 else ''} flagged" if view.fits else ""
    balance += f"; effects: {effects_flagged} of {view.tested} tested flagged"
    click.echo(f"{game.id}: {target}, {pages[0]} page{'s' if pages[0] != 1 else ''} — {view.selected_plays} "
               f"play{'s' if view.selected_plays != 1 else ''} ({versions_text}){compared}{balance}")
