"""cardforge export GAME png|tts|pod"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click

from cardforge.cli.common import GAME, NumberRange, echo_warnings, interrupted, load_data, output_target
from cardforge.errors import DataError
from cardforge.problems import Problem, plural

if TYPE_CHECKING:
    from cardforge.data.loading import GameData
    from cardforge.games.base import Game

FORMATS = ("png", "tts", "pod")

EPILOG = """\b
Examples:
  cardforge export my-game png                  # output/my_game/png/<card id>.png, 300 dpi, with bleed
  cardforge export my-game png --trim --dpi 600 -o ~/my-game-png   # the cards as cut
  cardforge export my-game tts                  # a deck per kind + my_game.json for Tabletop Simulator
  cardforge export my-game tts --url-base https://example.org/my-game
  cardforge export my-game pod --profile thegamecrafter-poker
  cardforge export my-game pod --profile ./my-printer.yaml
  cardforge export my-game pod --list-profiles
  cardforge export my-game pod --profile thegamecrafter-bridge
  cardforge export my-game pod --profile thegamecrafter-square --scale   # 70 mm cards printed ×1.27

\b
png: one image per card face (fronts by card id, backs by back design), drawn from the same
     vector drawing as the PDFs, with the bleed (as print shops take them; --trim: as cut);
     sRGB, dpi recorded; faces.json lists each card's copies.
tts: a deck per card kind (kinds with the same `group:` in deck.yaml share one): sheets (at
     most 10×7 cards, 4096 px a side, the last slot the hidden-card image), one image per
     back design, and <game>.json (every deck) to put in TTS's Saves/Saved Objects folder.
pod: the print service's files (profile: size, bleed, safe zone; PDF with TrimBox/BleedBox,
     or PNGs at its pixel size); text inside the unsafe margin is a warning. Cards more than
     3 % off the profile's size are refused unless --scale.
"""


@click.command(epilog=EPILOG)
@click.argument("game", type=GAME)
@click.argument("format", metavar="FORMAT", type=click.Choice(FORMATS), required=False)
@click.option("-o", "--out", "out_dir", type=click.Path(file_okay=False),
              help="Folder to write into [default: output/<game>/<format>, pod: output/<game>/pod-<profile>].")
@click.option("--dpi", type=click.IntRange(36, 1200), default=300, show_default=True,
              help="png, tts: resolution of the images.")
@click.option("--bleed/--trim", default=True,
              help="png: each card with its bleed (the default: the size print shops ask for) or as cut "
                   "(--trim).")
@click.option("--no-bleed", "no_bleed", is_flag=True, hidden=True)  # the earlier name of --trim
@click.option("--bleed-size", type=NumberRange(0, 10), default=None, metavar="MM",
              help="png: the bleed, in mm (1/8 in: 3.175) [default: the game's cardforge.toml `bleed`, "
                   "else 3, as the PDFs].")
@click.option("--profile", help="pod: a profile name (see --list-profiles) or a path to a profile .yaml.")
@click.option("--list-profiles", is_flag=True, help="pod: list the print-on-demand profiles and exit.")
@click.option("--scale", is_flag=True,
              help="pod: print cards whose size differs from the profile's by more than 3 % scaled to it "
                   "(70 mm cards on a 3.5 in template: ×1.27); without it they are refused.")
@click.option("--url-base", help="tts: the web address the images will be uploaded to "
                                 "[default: file:// URLs of the written files].")
@click.option("--templates", "templates_dir", type=click.Path(file_okay=False, exists=True),
              help="Use layouts and templates from DIR/<game>/ and DIR/_shared/.")
@click.option("--strict", is_flag=True, help="Warnings (missing art, unsafe text…) fail the export.")
@click.option("-q", "--quiet", is_flag=True, help="No summary.")
@click.pass_context
def export(ctx: click.Context, game: Game, format: str | None, out_dir: str | None, dpi: int, bleed: bool,
           no_bleed: bool, bleed_size: float | None, profile: str | None, list_profiles: bool, scale: bool,
           url_base: str | None, templates_dir: str | None, strict: bool, quiet: bool) -> None:
    """Export GAME's cards as images: PNG per card, Tabletop Simulator deck, print-on-demand files.

    Nothing is written when a card cannot be drawn (every problem is listed, exit 1).
    """
    if format is None:
        raise click.UsageError(f"missing FORMAT: one of {', '.join(FORMATS)}")
    data = load_data(game)
    if format == "pod" and list_profiles:
        _list_profiles(data.root)
        return
    if format != "pod" and (profile or list_profiles or scale):
        raise click.UsageError("--profile, --list-profiles and --scale are for `export GAME pod`")
    if format == "pod" and not profile:
        raise click.UsageError("`export GAME pod` needs --profile NAME (see --list-profiles)")
    from cardforge.render.cards.faces import deck_faces

    if format == "pod":
        assert profile is not None  # refused above when missing
        _export_pod(ctx, game, data, profile, out_dir, templates_dir, strict, scale, quiet)
        return
    bleed_mm = _bleed(game, bleed_size) if (format == "png" and bleed and not no_bleed) else 0.0
    target = output_target(out_dir, Path("output") / game.id / format, "-o", "output folder", folder=True)
    faces = deck_faces(game, data, bleed_mm, templates_dir=_path(templates_dir))
    faces.strict = strict  # warnings fail before anything is written
    if format == "png":
        from cardforge.render.exports.export_png import export_pngs

        try:
            written = export_pngs(faces, target, dpi, own_folder=not out_dir)
        except KeyboardInterrupt as exc:
            interrupted(ctx, exc, target)
        _echo_warnings(faces.issues.warnings)
        if not quiet:
            sizes = sorted({w.size for w in written})
            click.echo(f"{game.id}: {plural(len(faces.fronts), 'front')} and {plural(len(faces.backs), 'back')} "
                       f"→ {target}/ ({', '.join(f'{w}×{h}' for w, h in sizes)} px at {dpi} dpi"
                       f"{', with bleed' if bleed_mm else ''})")
    else:
        from cardforge.render.exports.tts import export_tts

        try:
            decks = export_tts(faces, target, dpi=dpi, url_base=url_base, own_folder=not out_dir)
        except KeyboardInterrupt as exc:
            interrupted(ctx, exc, target)
        _echo_warnings(faces.issues.warnings)
        if not quiet:
            for deck in decks:
                click.echo(f"{game.id}: {deck.label}: {plural(deck.cards, 'card')} on "
                           f"{plural(len(deck.sheets), 'sheet')} "
                           f"({', '.join(f'{s.cols}×{s.rows}' for s in deck.sheets)}) → {target / deck.json_file}")
            click.echo("Put the .json in Tabletop Simulator's Saves/Saved Objects folder"
                       + ("" if url_base else "; upload the images and re-export with --url-base "
                          "to share the deck"))


def _export_pod(ctx: click.Context, game: Game, data: GameData, profile: str, out_dir: str | None,
                templates_dir: str | None, strict: bool, scale: bool, quiet: bool) -> None:
    """`export GAME pod --profile NAME`: the print-on-demand files of one profile."""
    from cardforge.render.cards.faces import deck_faces
    from cardforge.render.exports.pod import export_pod, load_profile

    loaded = load_profile(profile, data.root)
    target = output_target(out_dir, Path("output") / game.id / f"pod-{loaded.id}", "-o", "output folder",
                           folder=True)
    faces = deck_faces(game, data, loaded.profile.bleed, templates_dir=_path(templates_dir))
    faces.strict = strict
    try:
        result = export_pod(faces, loaded, target, own_folder=not out_dir, scale=scale,
                            game_root=data.root)
    except KeyboardInterrupt as exc:
        interrupted(ctx, exc, target)
    _echo_warnings(faces.issues.warnings + result.warnings)
    if not quiet:
        what = (f"{result.files[0]} ({plural(result.pages, 'page')})" if loaded.profile.format == "pdf"
                else f"{plural(len(result.files), 'image')} in {target}")
        scaled = f", cards scaled ×{', ×'.join(f'{k:.2f}' for k in result.scales)}" if result.scales else ""
        click.echo(f"{game.id}: {loaded.profile.name}: {what}{scaled}" +
                   (f"; {plural(len(result.warnings), 'warning')}" if result.warnings else ""))


def _bleed(game: Game, given: float | None) -> float:
    """The PNGs' bleed: --bleed-size, else the game folder's cardforge.toml ``bleed`` (as the
    PDFs take it), else the build's default (3 mm)."""
    if given is not None:
        return given
    from cardforge.data.project import read_project
    from cardforge.settings import BuildSettings

    table = read_project(game.folder)  # DataError (exit 1) on an invalid file, as build
    return table.bleed if table is not None and table.bleed is not None else BuildSettings().bleed_mm


def _path(value: str | None) -> Path | None:
    return Path(value) if value else None


def _echo_warnings(warnings: list[Problem]) -> None:
    echo_warnings(warnings)


def _list_profiles(game_root: Path) -> None:
    from cardforge.render.exports.pod import load_profile, profile_files

    for name, path in profile_files(game_root).items():
        try:
            p = load_profile(name, game_root).profile
        except DataError as exc:
            click.echo(f"  {name:<28} (invalid: {exc.title})")
            continue
        w, h = p.pixel_size
        click.echo(f"  {name:<28} {p.name}: {p.trim.width:.1f}×{p.trim.height:.1f} mm, bleed {p.bleed:.2f} mm, "
                   f"safe {p.safe:.2f} mm, {p.format} {w}×{h} px")
