"""The cardforge command line. Only this package imports click.

Commands are imported lazily so ``cardforge --help`` stays fast: a command's module (and
ReportLab, jinja2, Pillow) load only when that command runs.
"""

from __future__ import annotations

import importlib
import os
import sys

import click

from cardforge import __version__

#: name → (module, function, one-line help). The help is here so --help imports nothing.
COMMANDS: dict[str, tuple[str, str, str]] = {
    "games": ("cardforge.cli.games", "games", "List the games cardforge knows."),
    "new": ("cardforge.cli.new", "new", "Create a new game folder that builds at once."),
    "check": ("cardforge.cli.check", "check", "Validate a game's card data."),
    "build": ("cardforge.cli.build", "build", "Build printable PDFs (decks, boards, pads, aids)."),
    "calibrate": ("cardforge.cli.calibrate", "calibrate", "Print a duplex calibration sheet."),
    "setup": ("cardforge.cli.setup", "setup", "Set up a game: counts, checklist and a random deal."),
    "score": ("cardforge.cli.score", "score", "Score a finished game from its final state."),
    "serve": ("cardforge.cli.serve", "serve", "Score sheets, setups and a play log in a browser."),
}


class LazyGroup(click.Group):
    def list_commands(self, ctx):
        return [name for name, (mod, _, _) in COMMANDS.items() if _module_exists(mod)]

    def get_command(self, ctx, name):
        if name not in COMMANDS:
            return None
        module, attr, _ = COMMANDS[name]
        if not _module_exists(module):
            return None
        return getattr(importlib.import_module(module), attr)

    def format_commands(self, ctx, formatter):
        rows = [(name, COMMANDS[name][2]) for name in self.list_commands(ctx)]
        if rows:
            with formatter.section("Commands"):
                formatter.write_dl(rows)


def _module_exists(module: str) -> bool:
    from importlib.util import find_spec

    return find_spec(module) is not None


class _State:
    verbose = False
    data_root: str | None = None  # --data DIR: games' data from DIR/<game>/


STATE = _State()

EPILOG = """\b
Examples:
  cardforge games
  cardforge check maphr
  cardforge build                      # every game's printables into output/
  cardforge build tunhell --paper letter --duplex short-edge
  cardforge setup tunhell --players 3 --mode initiation --seed 7
  cardforge score maphr final.yaml --json

Exit codes: 0 ok, 1 bad data, setup or score input (problems listed), 2 usage.
"""


@click.group(cls=LazyGroup, epilog=EPILOG, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, "--version", prog_name="cardforge")
@click.option("-v", "--verbose", is_flag=True, help="Show tracebacks on errors.")
@click.option("--data", "data_dir", type=click.Path(file_okay=False, exists=True),
              envvar="CARDFORGE_DATA", help="Use card data from DIR/<game>/ instead of the shipped data.")
def root(verbose: bool, data_dir: str | None) -> None:
    """cardforge: print-and-play PDFs and a scoring companion for tabletop games."""
    STATE.verbose = verbose
    STATE.data_root = os.path.abspath(data_dir) if data_dir else None


def main(argv: list[str] | None = None) -> int:
    """Run the CLI; returns the exit code (0 ok, 1 bad input, 2 usage)."""
    from cardforge.errors import CardforgeError

    STATE.verbose = False
    STATE.data_root = None
    try:
        code = root.main(args=argv, prog_name="cardforge", standalone_mode=False)
    except click.exceptions.Abort:
        click.echo("Aborted.", err=True)
        return 1
    except click.ClickException as exc:
        exc.show()
        return exc.exit_code
    except CardforgeError as exc:
        if STATE.verbose:
            raise
        click.echo(f"error: {exc.render()}", err=True)
        return exc.exit_code
    except KeyboardInterrupt:
        click.echo("Interrupted.", err=True)
        return 130
    except Exception as exc:  # a bug in cardforge: say so, without a traceback unless -v
        if STATE.verbose:
            raise
        click.echo(f"internal error: {type(exc).__name__}: {exc} (run with -v for the traceback)", err=True)
        return 1
    return code if isinstance(code, int) else 0


def run() -> None:  # pragma: no cover - console script entry
    sys.exit(main())
