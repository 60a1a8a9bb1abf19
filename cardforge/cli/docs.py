"""The generated references: ``docs/reference/cli.md`` from the click command tree, and
``docs/schema/*.json`` (JSON Schema for the game folder's YAML files) from the pydantic models.

``python -m cardforge.cli.docs`` rewrites them; ``tests/test_docs.py`` regenerates them in
memory and fails when a committed file differs (so ``--help`` and the docs cannot drift).
Nothing here depends on the terminal, the machine or the environment: same code, same bytes.
"""

from __future__ import annotations

import inspect
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

from cardforge.cli import COMMANDS, root

#: the one command that rewrites every generated file (said by the drift tests)
REGENERATE = "python -m cardforge.cli.docs"
ROOT = Path(__file__).resolve().parents[2]
CLI_MD = Path("docs/reference/cli.md")
SCHEMA_DIR = Path("docs/schema")


# --- the CLI reference -------------------------------------------------------------------------

def _paragraphs(text: str) -> list[str]:
    """A click help text as Markdown paragraphs: a ``\\b`` paragraph (kept as written by click)
    becomes a code block, any other is joined into one line (Markdown wraps it)."""
    out: list[str] = []
    for block in inspect.cleandoc(text).split("\n\n"):
        lines = block.splitlines()
        if not lines:
            continue
        if lines[0].strip() == "\b":
            out.append("```text\n" + "\n".join(lines[1:]).rstrip() + "\n```")
        else:
            out.append(" ".join(line.strip() for line in lines))
    return out


def _cell(text: str) -> str:
    return " ".join(text.split()).replace("|", "\\|")


def _default(param: click.Parameter, ctx: click.Context) -> str:
    if isinstance(param, click.Option) and (param.is_flag and not param.secondary_opts):
        return ""
    value = param.default
    if value is None or value is False or value in ((), "") or callable(value) or type(value).__name__ == "Sentinel":
        return ""
    if isinstance(value, (list, tuple)):
        value = ",".join(str(v) for v in value)
    return f"`{value}`"


def _type(param: click.Parameter, ctx: click.Context) -> str:
    if isinstance(param.type, click.Choice):
        return " \\| ".join(f"`{c}`" for c in param.type.choices)
    if isinstance(param, click.Option) and param.is_flag:
        return "flag"
    metavar = param.make_metavar(ctx)
    describe = getattr(param.type, "_describe_range", None)
    return f"{metavar} ({describe()})" if isinstance(param.type, click.types._NumberRangeBase) and describe else metavar


def _command_md(name: str, command: click.Command, parent: click.Context) -> list[str]:
    ctx = click.Context(command, info_name=name, parent=parent)
    usage = " ".join(["cardforge", name, *command.collect_usage_pieces(ctx)])
    lines = [f"## `cardforge {name}`", "", "```text", usage, "```", ""]
    for para in _paragraphs(command.help or ""):
        lines += [para, ""]
    arguments = [p for p in command.params if isinstance(p, click.Argument)]
    options = [p for p in command.params if isinstance(p, click.Option) and not p.hidden]
    if arguments:
        lines += ["| argument | value | given |", "|---|---|---|"]
        for a in arguments:
            value = _type(a, ctx) if isinstance(a.type, click.Choice) else ""
            given = ("required" if a.required else "optional") + (", several" if a.nargs == -1 else "")
            lines.append(f"| `{(a.name or '').upper()}` | {value} | {given} |")
        lines.append("")
    if options:
        lines += ["| option | value | default | what |", "|---|---|---|---|"]
        for o in options:
            opts = ", ".join(f"`{x}`" for x in [*o.opts, *o.secondary_opts])
            what = _cell(o.help or "")
            if o.required:
                what = "**Required.** " + what
            if o.envvar:
                what += f" (env: `{o.envvar}`)"
            if o.multiple:
                what += " (may be repeated)"
            lines.append(f"| {opts} | {_type(o, ctx)} | {_default(o, ctx)} | {what} |")
        lines.append("")
    if command.epilog:
        for para in _paragraphs(command.epilog):
            lines += [para, ""]
    if type(command).format_epilog is not click.Command.format_epilog:  # e.g. setup: per-game options
        lines += [f"`cardforge {name} --help` also lists what the installed games add (each game's "
                  "`game.yaml` `options:`).", ""]
    return lines


def cli_reference() -> str:
    """``docs/reference/cli.md``: every command with its arguments, options, defaults and help."""
    ctx = click.Context(root, info_name="cardforge")
    lines = [
        "# Command-line reference",
        "",
        f"<!-- generated from the click commands by `{REGENERATE}`: do not edit by hand -->",
        "",
        "Every command also prints this with `--help` (`cardforge build --help`). Exit codes: 0 ok,",
        "1 bad input (every problem listed, located), 2 usage; Ctrl-C 130.",
        "",
        "```text",
        " ".join(["cardforge", *root.collect_usage_pieces(ctx)]),
        "```",
        "",
    ]
    for para in _paragraphs(root.help or ""):
        lines += [para, ""]
    lines += ["| option | value | default | what |", "|---|---|---|---|"]
    for o in root.params:
        if isinstance(o, click.Option) and not o.hidden:
            what = _cell(o.help or "") + (f" (env: `{o.envvar}`)" if o.envvar else "")
            lines.append(f"| {', '.join(f'`{x}`' for x in o.opts)} | {_type(o, ctx)} | {_default(o, ctx)} | {what} |")
    lines += ["", "| command | what |", "|---|---|"]
    names = root.list_commands(ctx)
    for name in names:
        lines.append(f"| [`{name}`](#cardforge-{name}) | {_cell(COMMANDS[name][2])} |")
    lines.append("")
    for name in names:
        command = root.get_command(ctx, name)
        assert command is not None, name
        lines += _command_md(name, command, ctx)
    return "\n".join(lines).rstrip("\n") + "\n"


# --- JSON Schema ------------------------------------------------------------------------------

def _schema_generator() -> type[Any]:
    """A pydantic schema generator for what a *file* may say: a value a before-validator reads
    from a shorter form is offered in that form too (a length as ``"63mm"``, ``players: 2-4``,
    ``card_size: poker``, a sheet ``size: a5``), so editors do not flag what cardforge accepts."""
    from pydantic.json_schema import GenerateJsonSchema

    from cardforge.data.gamespec import Players
    from cardforge.data.models import CARD_SIZE_PRESETS, CardSize
    from cardforge.data.printables import RELATIVE_SIZES, SHEET_PRESETS, SheetSize

    sizes = sorted({*RELATIVE_SIZES, *SHEET_PRESETS, *CARD_SIZE_PRESETS})
    shorter: dict[type[Any], dict[str, Any]] = {
        Players: {"anyOf": [{"type": "integer", "minimum": 1},
                            {"type": "string", "pattern": r"^\s*\d+\s*([-–]\s*\d+\s*)?$"}]},
        CardSize: {"enum": sorted(CARD_SIZE_PRESETS)},
        SheetSize: {"enum": sizes},
    }

    class FileSchema(GenerateJsonSchema):
        def model_schema(self, schema: Any) -> Any:
            full = super().model_schema(schema)
            extra = shorter.get(schema["cls"])
            return {"anyOf": [full, extra]} if extra else full

        def function_before_schema(self, schema: Any) -> Any:
            """A before-validator on a number (a length, an offset) also reads it from a text:
            3 (mm) or "3mm", "0.2in", "9pt"; "0.8,-0.5" for an offset."""
            inner = super().function_before_schema(schema)
            text = json.dumps(inner)
            if '"number"' in text and '"$ref"' not in text and '"properties"' not in text:
                return {"anyOf": [inner, {"type": "string", "description": LENGTH}]}
            return inner

    return FileSchema


LENGTH = "a length with its unit: 3mm, 0.5cm, 0.2in, 9pt (a bare number is mm); an offset: 0.8,-0.5"


def _card_file_schema(generator: type[Any]) -> dict[str, Any]:
    """A card file: a list of cards, or ``{defaults: {...}, cards: [...]}``. The fields every
    card has are checked; a kind's own fields (declared in deck.yaml or by the rules) are let
    through, since they differ per game."""
    from cardforge.data.models import CardBase

    card = CardBase.model_json_schema(schema_generator=generator)
    card["additionalProperties"] = True
    card["title"] = "Card"
    card["description"] = ("One card: the fields every card has; the fields of its kind are declared "
                           "in deck.yaml's kinds (or by the game's rules) and checked by `cardforge check`.")
    defs = card.pop("$defs", {})
    defaults = {"type": "object", "description": "Fields every card of this file has unless it says otherwise.",
                "properties": card["properties"], "additionalProperties": True}
    partial = {k: v for k, v in card.items() if k != "required"}
    partial["title"] = "Card (its file's defaults fill what it does not say)"
    return {
        "title": "Card file",
        "description": "A card file (`card_files` in deck.yaml): a list of cards, or {defaults, cards}.",
        "anyOf": [{"type": "array", "items": {"$ref": "#/$defs/Card"}},
                  {"type": "object", "additionalProperties": False, "required": ["cards"],
                   "properties": {"defaults": defaults,
                                  "cards": {"type": "array", "items": {"$ref": "#/$defs/CardWithDefaults"}}}}],
        "$defs": {**defs, "Card": card, "CardWithDefaults": partial},
    }


def _game_schema(model: type[Any], generator: type[Any]) -> dict[str, Any]:
    """game.yaml: an inline ``deck:`` is titled like the game unless it says otherwise."""
    schema: dict[str, Any] = model.model_json_schema(schema_generator=generator)
    deck = dict(schema["$defs"]["DeckMeta"])
    deck["required"] = [f for f in deck.get("required", []) if f != "title"]
    deck["title"] = "Deck (inline: titled like the game unless it says otherwise)"
    schema["$defs"]["InlineDeck"] = deck
    text = json.dumps(schema["properties"]["deck"]).replace('"#/$defs/DeckMeta"', '"#/$defs/InlineDeck"')
    schema["properties"]["deck"] = json.loads(text)
    return schema


def _section_schema(key: str, model: type[Any], generator: type[Any], title: str) -> dict[str, Any]:
    """``aids.yaml`` / ``boards.yaml``: ``{<key>: [entries]}``."""
    entry = model.model_json_schema(schema_generator=generator)
    defs = entry.pop("$defs", {})
    name = entry.get("title", model.__name__)
    return {"title": title, "type": "object", "additionalProperties": False,
            "properties": {key: {"type": "array", "items": {"$ref": f"#/$defs/{name}"}}},
            "$defs": {**defs, name: entry}}


#: file name → (what it describes, how it is made)
def _schema_makers() -> dict[str, tuple[str, Callable[[type[Any]], dict[str, Any]]]]:
    from cardforge.data.gamespec import GameSpec
    from cardforge.data.models import DeckMeta
    from cardforge.data.printables import Aid, Board
    from cardforge.data.project import ProjectFile
    from cardforge.layout.boxes import LayoutFile
    from cardforge.render.exports.pod import Profile

    def model(m: type[Any]) -> Callable[[type[Any]], dict[str, Any]]:
        return lambda gen: m.model_json_schema(schema_generator=gen)

    return {
        "game.schema.json": ("game.yaml", lambda gen: _game_schema(GameSpec, gen)),
        "deck.schema.json": ("deck.yaml", model(DeckMeta)),
        "cards.schema.json": ("a card file", _card_file_schema),
        "layout.schema.json": ("templates/layout.yaml", model(LayoutFile)),
        "aids.schema.json": ("aids.yaml", lambda gen: _section_schema("aids", Aid, gen, "aids.yaml")),
        "boards.schema.json": ("boards.yaml", lambda gen: _section_schema("boards", Board, gen, "boards.yaml")),
        "pod-profile.schema.json": ("pod_profiles/*.yaml", model(Profile)),
        "cardforge-toml.schema.json": ("cardforge.toml", model(ProjectFile)),
    }


def schemas() -> dict[str, str]:
    """``docs/schema/<name>.schema.json`` → its text (JSON Schema 2020-12, as pydantic writes it)."""
    generator = _schema_generator()
    out: dict[str, str] = {}
    for name, (what, make) in _schema_makers().items():
        schema = make(generator)
        head = {"$schema": "https://json-schema.org/draft/2020-12/schema",
                "$comment": f"cardforge's {what}; generated from the models by `{REGENERATE}`"}
        out[name] = json.dumps({**head, **schema}, indent=2, ensure_ascii=False, sort_keys=False) + "\n"
    return out


# --- writing ----------------------------------------------------------------------------------

def generated() -> dict[Path, str]:
    """Every generated file (relative to the repository) → its text."""
    files = {CLI_MD: cli_reference()}
    files.update({SCHEMA_DIR / name: text for name, text in schemas().items()})
    return files


def main(argv: list[str] | None = None) -> int:
    """Rewrite the generated files under the repository's ``docs/``; say which changed."""
    root = Path(argv[0]) if argv else ROOT
    changed = 0
    for rel, text in generated().items():
        path = root / rel
        if path.is_file() and path.read_text(encoding="utf-8") == text:
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        print(f"wrote {rel}")
        changed += 1
    stale = sorted(p.name for p in (root / SCHEMA_DIR).glob("*.json")
                   if SCHEMA_DIR / p.name not in generated())
    for name in stale:
        (root / SCHEMA_DIR / name).unlink()
        print(f"removed {SCHEMA_DIR / name}")
    print(f"{changed + len(stale)} file(s) changed" if changed or stale else "the generated docs are up to date")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
