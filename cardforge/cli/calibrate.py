"""cardforge calibrate"""

from __future__ import annotations

from pathlib import Path

import click

from cardforge.cli.build import Offset, Paper
from cardforge.cli.common import output_target
from cardforge.settings import DEFAULT_PAPER, PAPER_OPTION_HELP, paper_size

EPILOG = """\b
Examples:
  cardforge calibrate                              # output/calibration-a4-letter-long-edge-portrait.pdf
  cardforge calibrate --paper letter --duplex short-edge
  cardforge calibrate --orientation landscape --back-offset 0.5,-0.25
                                                   # check a reading on a landscape sheet

\b
The offset is measured in the printer's frame (X towards the paper's right edge, Y towards
its leading edge, as the back side is seen upright on a portrait sheet): one reading, from
the portrait sheet, corrects portrait and landscape decks alike. The landscape sheet printed
with that offset shows whether the printer turns landscape pages the way cardforge assumes
(counter-clockwise; else use --landscape-turn cw here and with `cardforge build`).
"""


@click.command(epilog=EPILOG)
@click.option("-o", "--out", "out", type=click.Path(dir_okay=False),
              help="PDF to write [default: output/calibration-<paper>-<duplex>-<orientation>.pdf].")
@click.option("--paper", type=Paper(), default=DEFAULT_PAPER, show_default=True, help=PAPER_OPTION_HELP)
@click.option("--orientation", type=click.Choice(["portrait", "landscape"]), default="portrait",
              show_default=True, help="portrait measures the offset; landscape checks it on landscape pages.")
@click.option("--duplex", type=click.Choice(["long-edge", "short-edge"]), default="long-edge",
              show_default=True, help="How the sheet turns over when printed two-sided.")
@click.option("--back-offset", type=Offset(), default="0,0", show_default=True,
              help="Print the back page shifted by X,Y mm (printer's frame), to check a correction.")
@click.option("--landscape-turn", type=click.Choice(["ccw", "cw"]), default="ccw", show_default=True,
              help="How your printer turns a landscape page onto the paper.")
def calibrate(out: str | None, paper: str, orientation: str, duplex: str, back_offset: tuple[float, float],
              landscape_turn: str) -> None:
    """Write a two-page duplex calibration sheet that names its orientation.

    Print it two-sided at 100 %, hold it against a light: the red lines of the back cross the
    front's scales at the X and Y to pass to `cardforge build --back-offset X,Y`.
    """
    from cardforge.paths import make_folder
    from cardforge.render.sheets.calibration import render_calibration

    path = output_target(out, Path("output") / f"calibration-{paper}-{duplex}-{orientation}.pdf", "-o",
                         "calibration sheet", folder=False)
    make_folder(path.parent)
    render_calibration(path, paper_size(paper), orientation, duplex, back_offset, landscape_turn)
    click.echo(f"wrote {path.as_posix()} (2 pages, {orientation}): print it two-sided ({duplex}), "
               "then read the scales")
