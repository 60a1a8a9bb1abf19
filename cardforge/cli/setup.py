"""cardforge setup GAME --players N | --check FILE"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from cardforge.cli.common import GAME, echo_json, every_game, load_data, output_target, read_stdin
from cardforge.errors import SetupError

if TYPE_CHECKING:
    from cardforge.data.gamespec import OptionSpec
    from cardforge.games.base import Game

EPILOG = """\b
Examples:
  cardforge setup my-game --players 3 --seed 42
  cardforge setup my-game --players 4 --mode expert --json   # a mode of its game.yaml
  cardforge setup my-game --players 2 --short 6              # an option of its game.yaml
  cardforge setup my-game --check my_deal.yaml
  cardforge setup my-game --players 3 --json > deal.json; cardforge setup my-game --check deal.json
  cardforge setup my-game --players 3 --json | cardforge setup my-game --check -
"""


class SetupCommand(click.Command):
    """``--help`` lists each game's own setup options (from its game.yaml)."""

    def format_epilog(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        super().format_epilog(ctx, formatter)

        rows = []
        for game in every_game():
            for oid, option in game.options.items():
                rows.append((f"{game.option_flag(oid)}{_metavar(option)}", f"{game.id}: {option.help or oid}"))
        if rows:
            with formatter.section("Game options (declared in each game's game.yaml)"):
                formatter.write_dl(rows)


def _metavar(option: OptionSpec) -> str:
    if option.type == "choice":
        return " [" + "|".join(str(c) for c in option.choices or ()) + "]"
    if option.type == "int":
        return " N"
    return ""


@click.command(cls=SetupCommand, epilog=EPILOG,
               context_settings={"ignore_unknown_options": True, "allow_extra_args": True})
@click.argument("game", type=GAME)
@click.option("-p", "--players", type=int, help="Number of players.")
@click.option("--mode", help="Rule set: one of the game's modes (its game.yaml); `cardforge games` lists them.")
@click.option("--seed", type=int, help="Seed for the random deal (same seed, same deal).")
@click.option("--check", "check_file", type=click.Path(dir_okay=False, allow_dash=True),
              help="Check a described deal (YAML or JSON: what --json prints, whole or its deal part; "
                   "- reads it from stdin) against the rules instead of dealing.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object (the setup contract).")
@click.option("--pdf", "pdf_path", type=click.Path(dir_okay=False),
              help="Also print the setup sheet to this PDF.")
@click.pass_context
def setup(ctx: click.Context, game: Game, players: int | None, mode: str | None, seed: int | None,
          check_file: str | None, as_json: bool, pdf_path: str | None) -> None:
    """Counts, checklist and a random legal deal for GAME with N players.

    GAME is a game id or a game folder. Its own options (game.yaml `options:`) follow it;
    see the list below. With --check FILE, check a described deal instead (what --json
    prints, whole or its "deal" part, or one written by hand): exits 1 listing every rule it
    breaks, derived fields included.
    """
    from cardforge.engine.setup import check_setup_file, check_setup_text, run_setup

    if mode is not None and mode not in game.modes:  # a usage error (2), like an unknown option
        raise click.BadParameter(f"'{mode}' is not a mode of {game.id} (modes: {', '.join(game.modes)})",
                                 param_hint="--mode")
    options, given = parse_game_options(ctx, game, list(ctx.args))
    data = load_data(game)
    if check_file:
        if players is not None:
            raise click.UsageError("give either --players or --check, not both")
        # the file says its mode and options; these would be silently ignored
        for name, used in (("--mode", mode is not None), ("--seed", seed is not None),
                           *((game.option_flag(o), True) for o in given),
                           ("--pdf", pdf_path is not None)):
            if used:
                raise click.UsageError(f"{name} is not used with --check (the deal file gives its own mode and "
                                       "options; --seed and --pdf are for making a deal)")

        if check_file == "-":  # stdin: the text itself is checked (no file written)
            text, problem = read_stdin("<stdin>")
            if problem is not None or text is None:
                raise SetupError("<stdin>: the deal cannot be read", [problem] if problem else [])
            problems = check_setup_text(game, data, text, "<stdin>")
            check_file = "<stdin>"
        elif not Path(check_file).exists():
            raise click.BadParameter(f"file not found: {check_file}", param_hint="--check")
        else:
            problems = check_setup_file(game, data, Path(check_file))
        if problems:
            raise SetupError(f"{check_file}: this {game.id} deal breaks the rules", problems)
        if as_json:  # as check --json: {ok, problems}; a failure prints {ok: false, error, problems}
            echo_json({"ok": True, "game": game.id, "file": check_file, "problems": []})
            return
        click.echo(f"{check_file}: the deal follows the rules of {game.id}")
        return
    if players is None:
        raise click.UsageError("--players N is required (or --check FILE)")
    if pdf_path:
        _check_pdf_path(pdf_path)
    result = run_setup(game, data, players, mode, options, seed)
    if pdf_path:
        from cardforge.render.sheets.setup_sheet import render_setup_sheet  # issue: printables

        render_setup_sheet(game, data, result, pdf_path)
    if as_json:
        echo_json(result)
        return
    click.echo(render_setup(game, result))
    if pdf_path:
        click.echo(f"\nsetup sheet: {pdf_path}")


def parse_game_options(ctx: click.Context, game: Game, args: list[str]) -> tuple[dict[str, Any], list[str]]:
    """The game's declared options from the words after GAME: (values with defaults, ids given).

    Each option becomes a click option of a small command made for this game, so types,
    choices and ranges are checked (and refused) as click does for built-in options."""
    params: list[click.Parameter] = []
    by_flag = {}
    for oid, option in game.options.items():
        flag = game.option_flag(oid)
        by_flag[flag] = oid
        if option.type == "flag":
            params.append(click.Option([flag, oid], is_flag=True, default=None, help=option.help))
        elif option.type == "choice":
            params.append(click.Option([flag, oid], type=click.Choice([str(c) for c in option.choices or ()]),
                                       help=option.help))
        else:
            params.append(click.Option([flag, oid], type=click.IntRange(option.min, option.max), help=option.help))
    for word in args:
        name = word.split("=", 1)[0]
        if name.startswith("-") and name not in by_flag:
            allowed = ", ".join(sorted(by_flag)) or "none"
            raise click.UsageError(f"{name} is not an option of {game.id} (its setup options: {allowed})", ctx=ctx)
        if not name.startswith("-") and not any(a.startswith("-") for a in args):
            raise click.UsageError(f"unexpected argument {word!r}", ctx=ctx)
    command = click.Command(f"setup {game.id}", params=params, add_help_option=False)
    try:
        sub = command.make_context(f"cardforge setup {game.id}", list(args), parent=ctx)
    except click.UsageError as exc:
        exc.ctx = ctx
        raise
    values = game.default_options()
    given = []
    for oid, option in game.options.items():
        raw = sub.params.get(oid)
        if raw is None:
            continue
        given.append(oid)
        if option.type == "choice":
            raw = next(c for c in option.choices or () if str(c) == raw)
        values[oid] = raw
    return values, given


def _check_pdf_path(pdf_path: str) -> None:
    """--pdf: a regular file or nothing there (never a device, FIFO or folder); a missing
    folder is created only below the current one. Usage error (exit 2) otherwise."""
    from cardforge.paths import make_folder

    target = output_target(pdf_path, Path(pdf_path), "--pdf", "setup sheet", folder=False)
    make_folder(target.parent)


def render_setup(game: Game, result: dict[str, Any]) -> str:
    """The setup as a player reads it: counts, the checklist (in the game's language), and the deal as an indented
    list (piles and hands one per line, long lists wrapped) — ``--json`` gives the raw object."""
    n = result["player_count"]
    lines = [f"{game.title} — setup for {n} player{'s' if n != 1 else ''}"
             + (f", mode {result['mode']}" if len(game.modes) > 1 else "")]
    lines.append("")
    lines.append("Counts:")
    lines += _readable(result["counts"], 1)
    lines.append("")
    lines.append("Checklist:")
    for i, step in enumerate(result["steps"], start=1):
        lines.append(f"  {i}. {step}")
    lines.append("")
    lines.append(f"Deal (seed {result['deal'].get('seed')}):")
    lines += _readable({k: v for k, v in result["deal"].items() if k != "seed"}, 1)
    return "\n".join(lines)


WIDTH = 100


def _scalar(value: Any) -> str:
    if value is None:
        return "—"
    if value is True or value is False:
        return "yes" if value else "no"
    return str(value)


def _is_flat(value: Any) -> bool:
    return not isinstance(value, (dict, list))


def _wrapped(head: str, items: list[str], indent: str) -> list[str]:
    """``head item, item, …`` wrapped to WIDTH, continuation lines under the first item."""
    lines, line = [], head
    pad = indent + "    "
    for i, item in enumerate(items):
        piece = item + ("," if i < len(items) - 1 else "")
        if len(line) + 1 + len(piece) > WIDTH and line.strip() and line != head:
            lines.append(line)
            line = pad + piece
        else:
            line = f"{line} {piece}" if line else piece
    lines.append(line)
    return lines


def _inline(value: Any) -> str | None:
    """A short one-line form of a small mapping or flat list (None when it does not fit)."""
    if _is_flat(value):
        return _scalar(value)
    if isinstance(value, list) and all(_is_flat(v) for v in value):
        text = ", ".join(_scalar(v) for v in value) if value else "none"
    elif isinstance(value, dict) and all(_is_flat(v) for v in value.values()):
        text = ", ".join(f"{k} {_scalar(v)}" for k, v in value.items()) if value else "none"
    else:
        return None
    return text if len(text) <= WIDTH - 30 else None


def _readable(value: Any, depth: int, label: str | None = None) -> list[str]:
    indent = "  " * depth
    head = f"{indent}{label.replace('_', ' ')}:" if label is not None else ""
    if isinstance(value, dict):
        short = _inline(value) if label is not None and len(value) <= 4 else None
        if short is not None:
            return [f"{head} {short}"]
        lines = [head] if label is not None else []
        inner = depth + 1 if label is not None else depth
        for k, v in value.items():
            lines += _readable(v, inner, str(k))
        return lines
    if isinstance(value, list):
        if all(_is_flat(v) for v in value):
            items = [_scalar(v) for v in value]
            counted = f"{head} ({len(items)})" if label is not None and len(items) > 6 else head
            return _wrapped(counted, items or ["none"], indent)
        lines = [head] if label is not None else []
        noun = (label or "item").replace("_", " ").rstrip("s")
        for i, item in enumerate(value, start=1):
            title = f"{noun} {i}"
            if isinstance(item, dict) and "player" in item:  # a seat: named by its player
                who = item["player"]
                title = who if isinstance(who, str) else f"{noun} {who}"
                item = {k: v for k, v in item.items() if k != "player"}
            short = _inline(item)
            if short is not None:
                lines.append(f"{indent}  {title}: {short}")
            elif isinstance(item, list):
                lines += _readable(item, depth + 1, title)
            else:
                lines.append(f"{indent}  {title}:")
                lines += _readable(item, depth + 2)
        return lines
    return [f"{head} {_scalar(value)}"]
