"""cardforge balance GAME: the cards' value against their cost, from the card data alone."""

from __future__ import annotations

import math
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from cardforge.cli.common import GAME, echo_json, load_data, output_target
from cardforge.errors import DataError
from cardforge.problems import Problem

if TYPE_CHECKING:
    from cardforge.games.base import Game
    from cardforge.lab.balance import Fit

EPILOG = """\b
Examples:
  cardforge balance my-game
  cardforge balance my-game --json
  cardforge balance ./my-game -o balance.pdf      # with the scatter of value against cost

What is compared is declared in game.yaml:
  balance:
    improvements: {kinds: [improvement], cost: cost, value: vp, group: level}
(cost and value: a card field, a list of fields added up, or {field: weight}; group: a card field,
one line per value; flag: the smallest |score| that matters, default 3). Each card is judged
against the line through the other cards of its group: its score is the externally studentised
residual (Student's t), its q the Benjamini–Hochberg correction over every card judged; flagged:
q ≤ 5 % and |score| > flag. Exit 0 whether or not a card is flagged.
"""


@click.command(epilog=EPILOG)
@click.argument("game", type=GAME)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.option("-o", "--output", "output", default=None, metavar="FILE.pdf",
              help="Also write the fits as a PDF (scatter plots and tables).")
def balance(game: Game, as_json: bool, output: str | None) -> None:
    """List each declared kind's cards by how far their value is off their cost, flagged first."""
    from cardforge.lab.balance import fits

    data = load_data(game)
    if not game.spec.balance:
        raise DataError(f"{game.id} declares no balance", [Problem(
            "add to game.yaml which cards to compare, e.g. balance: {cards: {kinds: [action], cost: cost, "
            "value: points, group: level}}", file=str(Path(game.folder) / "game.yaml"), field="balance")])
    found = fits(game, data)
    if output is not None:
        from cardforge.paths import write_atomic
        from cardforge.render.reports import lab_report

        target = output_target(output, Path(output), "-o", "balance", folder=False)
        doc: list[lab_report.Part] = [lab_report.Heading(f"{game.title} — balance from the card data", 1, "top")]
        for f in found:
            doc += lab_report.fit_parts(f, lab_report.PDF_CHART_WIDTH)
        target.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(target, lambda fh: lab_report.write_pdf(doc, game.title, fh))
    if as_json:
        echo_json({"ok": True, "game": game.id, "version": data.meta.version,
                   "fits": [_fit_json(f) for f in found]})
        return
    lines = [f"{game.id}: balance from the card data (v{data.meta.version})"]
    for f in found:
        lines += _fit_text(f)
    click.echo("\n".join(lines))


def _fit_json(f: Fit) -> dict[str, Any]:
    """One fit as ``--json`` prints it: its lines and every card's numbers."""
    return {
        "id": f.id, "label": f.label, "cost": f.cost, "value": f.value, "group": f.group, "flag": f.flag,
        "lines": [{"group": ln.group, "cards": ln.n, "intercept": round(ln.intercept, 6),
                   "slope": round(ln.slope, 6), "model": ln.model, "basis": ln.basis,
                   "spread": None if ln.spread is None else round(ln.spread, 6), "note": ln.note}
                  for ln in f.lines],
        "cards": [{"id": p.id, "name": p.name, "group": p.group, "cost": p.cost, "value": p.value,
                   "expected": _json(p.expected), "residual": _json(p.residual), "score": _json(p.score),
                   "p": _json(p.p), "q": _json(p.q), "outside": p.outside,
                   "expected_cost": _json(p.expected_cost), "cost_gap": _json(p.cost_gap),
                   "flagged": p.flagged, "direction": p.direction} for p in f.by_score()],
        "judged": sum(1 for p in f.points if p.p is not None),
        "left_out": [{"id": i, "name": n, "why": w} for i, n, w in f.left_out]}


def _fit_text(f: Fit) -> list[str]:
    """One fit as text: its lines' equations, a table of its cards, what is flagged and left out."""
    from cardforge.lab.balance import equation, fmt, fmt_signed, score_text
    from cardforge.problems import plural

    by = f", one line per {f.group.split('.')[-1]}" if f.group else ""
    lines = ["", f"{f.label}: {f.value} against {f.cost}{by}"]
    for ln in f.lines:
        spread = f", typical distance {fmt(ln.spread)}" if ln.spread is not None else ""
        lines.append(f"  {ln.group}: {equation(ln, f.value, f.cost)} ({plural(ln.n, 'card')}{spread})"
                     + (f" — {ln.note}" if ln.note else ""))
    rows = [("card", "group", "cost", f.value, "expected", "residual", "score", "q", "")]
    for p in f.by_score():
        if p.cost_gap is not None:
            expected, residual = f"cost {fmt(p.expected_cost)}", f"cost {fmt_signed(p.cost_gap)}"
        else:
            expected, residual = fmt(p.expected), fmt_signed(p.residual)
        rows.append((p.id, p.group, fmt(p.cost), fmt(p.value), expected, residual,
                     score_text(p), fmt(p.q, 3), ("⚑ " + p.direction) if p.flagged else p.direction))
    widths = [max(len(r[i]) for r in rows) for i in range(8)]
    for r in rows:
        cells = [r[0].ljust(widths[0]), r[1].ljust(widths[1])] + [r[i].rjust(widths[i]) for i in range(2, 8)]
        lines.append("  " + "  ".join(cells) + (f"  {r[8]}" if r[8] else ""))
    flagged = f.flagged
    judged = sum(1 for p in f.points if p.p is not None)
    lines.append(f"  {len(flagged)} flagged of {judged} judged (q ≤ 5 % and |score| > {fmt(f.flag)})" + (
        ": " + ", ".join(p.id for p in flagged) if flagged else ""))
    if f.left_out:
        lines.append("  left out: " + ", ".join(f"{i} ({w})" for i, _, w in f.left_out))
    return lines


def _json(value: float | None) -> float | str | None:
    if value is None:
        return None
    if math.isinf(value):
        return "inf" if value > 0 else "-inf"
    return round(value, 6)
