"""cardforge calibrate"""

from __future__ import annotations

from pathlib import Path

import click

from cardforge.cli.build import Offset
from cardforge.settings import PAPERS_MM

EPILOG = """\b
Examples:
  cardforge calibrate                              # output/calibration-a4-long-edge.pdf
  cardforge calibrate --paper letter --duplex short-edge
  cardforge calibrate --back-offset 0.5,-0.25      # check a correction: both zeros should line up
"""


@click.command(epilog=EPILOG)
@click.option("-o", "--out", "out", type=click.Path(dir_okay=False),
              help="PDF to write [default: output/calibration-<paper>-<duplex>.pdf].")
@click.option("--paper", type=click.Choice(list(PAPERS_MM)), default="a4", show_default=True)
@click.option("--orientation", type=click.Choice(["portrait", "landscape"]), default="portrait",
              show_default=True, help="Use the orientation your deck prints in.")
@click.option("--duplex", type=click.Choice(["long-edge", "short-edge"]), default="long-edge",
              show_default=True, help="How the sheet turns over when printed two-sided.")
@click.option("--back-offset", type=Offset(), default="0,0", show_default=True,
              help="Print the back page shifted by X,Y mm, to check a correction.")
def calibrate(out, paper, orientation, duplex, back_offset) -> None:
    """Write a two-page duplex calibration sheet.

    Print it two-sided at 100 %, hold it against a light: the red lines of the back cross the
    front's scales at the X and Y to pass to `cardforge build --back-offset X,Y`.
    """
    from cardforge.render.calibration import render_calibration

    from cardforge.paths import check_output_file, make_folder

    path = Path(out) if out else Path("output") / f"calibration-{paper}-{duplex}.pdf"
    problem = check_output_file(path, what="calibration sheet")
    if problem is not None:
        raise click.BadParameter(problem.message, param_hint=f"'-o' {path}")
    make_folder(path.parent)
    render_calibration(path, PAPERS_MM[paper], orientation, duplex, back_offset)
    click.echo(f"wrote {path.as_posix()} (2 pages): print it two-sided ({duplex}), then read the scales")
