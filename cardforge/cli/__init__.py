"""The cardforge command line. Only this package imports click.

Commands are imported lazily so ``cardforge --help`` stays fast: a command's module (and
ReportLab, jinja2, Pillow) load only when that command runs.
"""

from __future__ import annotations

import importlib
import os
import signal
import sys
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

import click

from cardforge import __version__

if TYPE_CHECKING:
    from cardforge.errors import CardforgeError
    from cardforge.problems import Problem

#: name → (module, function, one-line help). The help is here so --help imports nothing.
COMMANDS: dict[str, tuple[str, str, str]] = {
    "games": ("cardforge.cli.games", "games", "List the games cardforge knows."),
    "new": ("cardforge.cli.new", "new", "Create a new game folder that builds at once."),
    "check": ("cardforge.cli.check", "check", "Validate a game's card data."),
    "build": ("cardforge.cli.build", "build", "Build printable PDFs (decks, boards, pads, aids)."),
    "watch": ("cardforge.cli.watch", "watch", "Build a game, then rebuild it on every save."),
    "calibrate": ("cardforge.cli.calibrate", "calibrate", "Print a duplex calibration sheet."),
    "export": ("cardforge.cli.export", "export",
               "Export card images: PNG per card, Tabletop Simulator, print-on-demand."),
    "preview": ("cardforge.cli.preview", "preview", "A contact sheet PNG of cards, front and back."),
    "setup": ("cardforge.cli.setup", "setup", "Set up a game: counts, checklist and a random deal."),
    "score": ("cardforge.cli.score", "score", "Score a finished game from its final state."),
    "export-data": ("cardforge.cli.export_data", "export_data", "Write a game's cards as CSV or XLSX."),
    "diff": ("cardforge.cli.diff", "diff", "What changed in a game's cards between two versions."),
    "serve": ("cardforge.cli.serve", "serve", "Score sheets, setups and a play log in a browser."),
    "studio": ("cardforge.cli.studio", "studio", "A live view of a game's cards, redrawn on every save."),
    "plays": ("cardforge.cli.plays", "plays", "The play log: add a finished game, list, export, import."),
    "invite": ("cardforge.cli.invite", "invite", "Per-playtester links to a game's score sheet on serve."),
    "report": ("cardforge.cli.report", "report", "The playtest lab as a PDF: numbers per deck version."),
    "balance": ("cardforge.cli.balance", "balance", "Cards' value against their cost, from the data alone."),
    "import": ("cardforge.cli.importer", "import_group", "Make a game from another tool's project (Squib)."),
}


class LazyGroup(click.Group):
    def list_commands(self, ctx: click.Context) -> list[str]:
        return [name for name, (mod, _, _) in COMMANDS.items() if _module_exists(mod)]

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        if name not in COMMANDS:
            return None
        module, attr, _ = COMMANDS[name]
        if not _module_exists(module):
            return None
        command: click.Command = getattr(importlib.import_module(module), attr)
        _add_common_options(command)
        return command

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
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
    quiet = False
    as_json = False  # the running command was given --json: failures print a JSON object on stdout


STATE = _State()


_Callback = Callable[[click.Context, click.Parameter, Any], Any]


def _set_state(attr: str, chain: _Callback | None = None) -> _Callback:
    def callback(ctx: click.Context, param: click.Parameter, value: Any) -> Any:
        if value:
            setattr(STATE, attr, True)
        return chain(ctx, param, value) if chain else value

    return callback


def _add_common_options(command: click.Command) -> None:
    """Every command accepts ``-v``/``-q`` after its name too (``cardforge score -v …``), and a
    command's ``--json`` makes a failure print a JSON object on stdout (see :func:`main`)."""
    if getattr(command, "_cardforge_common", False):
        return
    command._cardforge_common = True  # type: ignore[attr-defined]
    names = {p.name for p in command.params}
    for param in command.params:
        if param.name == "as_json":
            param.callback = _set_state("as_json", param.callback)
        elif param.name == "quiet":
            param.callback = _set_state("quiet", param.callback)
    if "verbose" not in names:
        command.params.append(click.Option(["-v", "--verbose"], is_flag=True, expose_value=False,
                                           callback=_set_state("verbose"), help="Show tracebacks on errors."))
    if "quiet" not in names:
        command.params.append(click.Option(["-q", "--quiet"], is_flag=True, expose_value=False,
                                           callback=_set_state("quiet"),
                                           help="Print no warnings, only results and errors."))

EPILOG = """\b
Examples:
  cardforge games
  cardforge new my-game                # a game folder that checks, builds and scores
  cardforge check my-game
  cardforge build                      # every game's printables into output/
  cardforge build my-game --paper letter --duplex short-edge
  cardforge setup my-game --players 3 --seed 7
  cardforge score my-game my-game/examples/final.yaml --json

Exit codes: 0 ok, 1 bad data, setup or score input (problems listed), 2 usage.
"""


@click.group(cls=LazyGroup, epilog=EPILOG, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, "--version", prog_name="cardforge")
@click.option("-v", "--verbose", is_flag=True, help="Show tracebacks on errors.")
@click.option("-q", "--quiet", is_flag=True, help="Print no warnings, only results and errors.")
@click.option("--data", "data_dir", type=click.Path(file_okay=False, exists=True),
              envvar="CARDFORGE_DATA", help="Use card data from DIR/<game>/ instead of the shipped data.")
def root(verbose: bool, quiet: bool, data_dir: str | None) -> None:
    """cardforge: print-and-play PDFs and a scoring companion for tabletop games."""
    STATE.verbose = STATE.verbose or verbose
    STATE.quiet = STATE.quiet or quiet
    STATE.data_root = os.path.abspath(data_dir) if data_dir else None
    ctx = click.get_current_context()
    if ctx.invoked_subcommand in NO_INTERRUPTS:  # a server: garbage collected as Python does
        from cardforge.startup import usual_collections

        usual_collections()
    else:
        from cardforge.transaction import interrupts

        # SIGINT/SIGTERM end any command within a second, its staging folders removed
        ctx.with_resource(interrupts())


#: commands whose server handles SIGINT/SIGTERM itself
NO_INTERRUPTS = frozenset({"serve", "studio"})


def main(argv: list[str] | None = None) -> int:
    """Run the CLI; returns the exit code (0 ok, 1 bad input, 2 usage)."""
    from cardforge.errors import CardforgeError

    STATE.verbose = STATE.quiet = STATE.as_json = False
    STATE.data_root = None
    try:
        code = root.main(args=argv, prog_name="cardforge", standalone_mode=False)
    except click.exceptions.Abort as exc:
        if isinstance(exc.__cause__, KeyboardInterrupt):  # Ctrl-C: the shell's convention, no message
            return _interrupted(exc.__cause__)
        click.echo("Aborted.", err=True)
        return 1
    except click.ClickException as exc:
        exc.show()
        return exc.exit_code
    except CardforgeError as exc:
        if STATE.verbose:
            raise
        if STATE.as_json and exc.exit_code == 1:
            _echo_json_failure(exc)
        else:
            click.echo(f"error: {exc.render()}", err=True)
        return exc.exit_code
    except KeyboardInterrupt as exc:
        return _interrupted(exc)
    except Exception as exc:  # a bug in cardforge: say so, without a traceback unless -v
        if STATE.verbose:
            raise
        click.echo(f"internal error: {type(exc).__name__}: {exc} (run with -v for the traceback)", err=True)
        return 1
    return code if isinstance(code, int) else 0


def _interrupted(exc: KeyboardInterrupt) -> int:
    """SIGINT (Ctrl-C): 130, silently; SIGTERM: 143, saying so (nothing was changed: every
    write is a transaction)."""
    from cardforge.transaction import Interrupted

    if isinstance(exc, Interrupted) and exc.signum != signal.SIGINT:
        click.echo(f"interrupted ({signal.Signals(exc.signum).name}): stopped"
                   + ("" if exc.committed else "; nothing was changed"), err=True)
        return 128 + int(exc.signum)
    return 130


def problems_json(problems: Iterable[Problem]) -> list[dict[str, Any]]:
    """Problems as ``check --json`` and every other ``--json`` failure print them."""
    return [{"severity": p.severity, "file": p.file, "line": p.line, "item": p.item,
             "field": p.field, "message": p.message} for p in problems]


def _echo_json_failure(exc: CardforgeError) -> None:
    """``--json`` and bad input: one JSON object on stdout (exit 1), as ``check --json`` prints."""
    import json

    problems = exc.problems or []
    out = {"ok": False, "error": exc.title, "problems": problems_json(problems)}
    click.echo(json.dumps(out, ensure_ascii=False, indent=2))


def run() -> None:  # pragma: no cover - console script entry
    from cardforge.startup import fewer_collections, no_collection_at_exit

    fewer_collections()  # a command that ends soon: ~5-8 % of its time was the cyclic collector's
    code = main()
    no_collection_at_exit()  # and ~70 ms of a deck build was the interpreter's last collection
    sys.exit(code)
