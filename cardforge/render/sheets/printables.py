"""Building a game's boards, score pads, player aids and setup sheets.

Boards and aids come from the game's ``boards.yaml`` / ``aids.yaml`` (validated by the data
layer into ``GameData.sections``) and from its optional module
``cardforge/games/<id>/printables.py``, which derives printables from the game's own data so a
rule change reaches cards, boards and aids in one build. That module may define:

- ``boards(data) -> list[Board]`` and ``aids(data) -> list[Aid]`` — whole printables;
- ``blocks(data) -> dict[str, list[Block]]`` — named content that YAML aids and boards insert
  with ``{kind: generated, source: NAME}`` (e.g. a table made from one of the game's data files).

Everything is laid out first; if any text does not fit (or anything else is wrong) the build
fails listing every problem, and no file is written. Then each file is drawn to a temporary
path and renamed into place.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import ValidationError

from cardforge.assets import icon_names
from cardforge.data.loading import icon_problems
from cardforge.data.printables import Aid, Block, Board
from cardforge.data.validate import validation_problems
from cardforge.errors import RenderError
from cardforge.icons import ICON_TOKEN, is_icon, unknown_icon_note
from cardforge.markup import plain_text
from cardforge.problems import Problem
from cardforge.render.drawing.game_assets import drawing_assets
from cardforge.render.output import ManifestEntry, atomic_path, entry_for, new_canvas, print_preferences
from cardforge.render.sheets.boards import BoardPlan, draw_board, plan_board
from cardforge.render.sheets.player_aids import AidPlan, draw_aid_side, plan_aid
from cardforge.render.sheets.playtest import PlaytestLink, playtest_link
from cardforge.render.sheets.printing import PrintContext, ink_inset
from cardforge.render.sheets.score_pads import draw_pad_sheet, plan_pads
from cardforge.render.sheets.setup_sheet import draw_setup_pages
from cardforge.render.sheets.sheets import DoesNotFit, SheetPlan, back_slot, draw_sheet_marks, plan_sheet
from cardforge.resources import display_path
from cardforge.settings import BuildSettings
from cardforge.units import mm

if TYPE_CHECKING:
    from cardforge.data.loading import GameData
    from cardforge.games.base import Game

FILES = {"boards": "boards.pdf", "pads": "score-pad.pdf", "aids": "aids.pdf",
         "aid_backs": "aids-backs.pdf", "setup": "setup.pdf"}


@dataclass
class Printable:
    model: Any  # Board | Aid
    origin: str  # where it is defined, for messages


@dataclass
class Collected:
    boards: list[Printable] = field(default_factory=list)
    aids: list[Printable] = field(default_factory=list)
    sources: dict[str, list[Block]] = field(default_factory=dict)
    problems: list[Problem] = field(default_factory=list)


def hooks_module(game: Game) -> Any:
    """The game's printables hooks (``boards``, ``aids``, ``blocks``: each None when left out),
    checked against the game contract (``cardforge/games/contract.py``)."""
    return game.printables()


def collect(game: Game, data: GameData) -> Collected:
    """Every board and aid of the game (data files first, then derived), and the named
    blocks the game provides; problems for duplicates and hooks that fail on the data."""
    out = Collected()
    yaml_boards = [b for b in data.sections.get("boards") or [] if isinstance(b, Board)]
    yaml_aids = [a for a in data.sections.get("aids") or [] if isinstance(a, Aid)]
    boards_file = display_path(data.root / "boards.yaml")
    aids_file = display_path(data.root / "aids.yaml")
    out.boards += [Printable(b, boards_file) for b in yaml_boards]
    out.aids += [Printable(a, aids_file) for a in yaml_aids]
    module = hooks_module(game)
    if module is not None:
        module_file = game.hooks.printables_file or getattr(game.rules, "__file__", None)
        origin = display_path(Path(module_file)) if module_file else f"the rules of {game.id}"
        for hook, model, target in (("boards", Board, out.boards), ("aids", Aid, out.aids)):
            fn = getattr(module, hook, None)
            if fn is None:
                continue
            try:
                target += [Printable(m, origin) for m in fn(data=data)]
            except ValidationError as exc:
                out.problems += validation_problems(exc, model, file=origin, item=f"{hook}() from the game's data")
        fn = getattr(module, "blocks", None)
        if fn is not None:
            try:
                out.sources = dict(fn(data=data))
            except ValidationError as exc:
                out.problems += validation_problems(exc, Block, file=origin, item="blocks() from the game's data")
        out.problems += _hook_icon_problems(out, origin, data, game.folder)
    for what, items in (("board", out.boards), ("aid", out.aids)):
        seen: dict[str, str] = {}
        for p in items:
            if p.model.id in seen:
                out.problems.append(Problem(f"duplicate {what} id '{p.model.id}' (also in {seen[p.model.id]})",
                                            file=p.origin, item=f"{what} '{p.model.id}'", field="id"))
            seen.setdefault(p.model.id, p.origin)
    return out


def _hook_icon_problems(found: Collected, origin: str, data: GameData, game_folder: Path) -> list[Problem]:
    """The icons named by what the hooks made, against the game's (the data files' are checked
    when they load; a hook's boards and aids are built in code, with no game to check them)."""
    icons = icon_names(data.root, game_folder)
    made: list[tuple[str, Any]] = [(f"board '{p.model.id}'", p.model) for p in found.boards if p.origin == origin]
    made += [(f"aid '{p.model.id}'", p.model) for p in found.aids if p.origin == origin]
    made += [(f"blocks() '{name}'", blocks) for name, blocks in found.sources.items()]
    # the names, from the JSON of it all (~0.5 ms); the walk that locates a problem only when one is
    blob = "".join(b.model_dump_json() for _, value in made for b in (value if isinstance(value, list) else [value]))
    named = set(ICON_TOKEN.findall(blob)) | set(re.findall(r'"icon":"([^"\\]*)"', blob))
    if all(is_icon(name, icons) for name in named):
        return []
    problems: list[Problem] = []

    def icon_fields(value: Any, item: str, path: str) -> None:
        if isinstance(value, dict):
            for key, sub in value.items():
                where = f"{path}.{key}" if path else str(key)
                if key == "icon" and isinstance(sub, str) and not is_icon(sub, icons):
                    problems.append(Problem(f"unknown icon '{sub}'{unknown_icon_note(sub, icons, token=False)}",
                                            file=origin, item=item, field=where))
                else:
                    icon_fields(sub, item, where)
        elif isinstance(value, list):
            for i, sub in enumerate(value):
                icon_fields(sub, item, f"{path}[{i}]")

    for item, value in made:
        raw = [b.model_dump() for b in value] if isinstance(value, list) else value.model_dump()
        problems += icon_problems(raw, file=origin, item=item, line_of=lambda loc: None, icons=icons)
        icon_fields(raw, item, "")
    return problems


def expand(blocks: list[Any], sources: dict[str, list[Block]], *, origin: str, item: str, field: str,
           problems: list[Problem]) -> list[Any]:
    """Replace ``generated`` blocks by the game's named blocks."""
    out: list[Any] = []
    for index, block in enumerate(blocks):
        if block.kind != "generated":
            out.append(block)
            continue
        found = sources.get(block.source)
        if found is None:
            known = ", ".join(sorted(sources)) or "none — the game has no printables.py blocks()"
            problems.append(Problem(f"unknown source '{block.source}' (this game provides: {known})",
                                    file=origin, item=item, field=f"{field}[{index}].source"))
            continue
        out.extend(found)
    return out


# --- planning --------------------------------------------------------------------------------

@dataclass
class Plans:
    boards: list[tuple[BoardPlan, SheetPlan]] = field(default_factory=list)
    aids: list[tuple[AidPlan, SheetPlan]] = field(default_factory=list)
    pads: Any = None
    problems: list[Problem] = field(default_factory=list)


def plan_printables(ctx: PrintContext, kinds: frozenset[str]) -> Plans:
    """Lay out everything of ``kinds`` (boards, pads, aids); collect every problem."""
    plans = Plans()
    found = collect(ctx.game, ctx.data)
    plans.problems += found.problems
    accent = ctx.accent_problem()  # every board, pad and aid draws in it
    if accent is not None:
        plans.problems.append(accent)
        return plans
    paper = ctx.settings.paper_mm
    titles = [plain_text(p.model.title) for p in found.boards]
    if "boards" in kinds:
        for p in found.boards:
            board: Board = p.model
            item = f"board '{board.id}'"
            size = board.size.resolve(paper, ctx.card_mm, board.landscape)
            try:
                sheet = plan_sheet(size, ctx.settings)
            except DoesNotFit as exc:
                plans.problems.append(Problem(f"size {board.size.label}: {exc}", file=p.origin, item=item,
                                              field="size"))
                continue
            content = {}
            for zone in board.zones:
                content[zone.id] = expand(zone.content if zone.kind != "generated" else [zone], found.sources,
                                          origin=p.origin, item=item, field=f"zone '{zone.id}'",
                                          problems=plans.problems)
            edge = 0.0 if sheet.crop_marks or sheet.grid is not None else ink_inset(ctx.settings)
            name = plain_text(board.title)
            if titles.count(name) > 1 and board.subtitle:  # "Progrès 1 · recto", not twice "Progrès 1"
                name += f" · {plain_text(board.subtitle)}"
            plan, problems = plan_board(board, size, ctx, content, p.origin, edge, name)
            plans.problems += problems
            if plan is not None:
                plans.boards.append((plan, sheet))
    if "aids" in kinds:
        for p in found.aids:
            aid: Aid = p.model
            item = f"aid '{aid.id}'"
            size = aid.size.resolve(paper, ctx.card_mm, aid.landscape)
            try:
                sheet = plan_sheet(size, ctx.settings)
            except DoesNotFit as exc:
                plans.problems.append(Problem(f"size {aid.size.label}: {exc}", file=p.origin, item=item,
                                              field="size"))
                continue
            front = expand(aid.front, found.sources, origin=p.origin, item=item, field="front",
                           problems=plans.problems)
            back = (expand(aid.back, found.sources, origin=p.origin, item=item, field="back",
                           problems=plans.problems) if aid.back is not None else None)
            edge = 0.0 if sheet.grid is not None else ink_inset(ctx.settings)
            aid_plan, problems = plan_aid(aid, size, ctx, front, back, p.origin, edge)
            plans.problems += problems
            if aid_plan is not None:
                plans.aids.append((aid_plan, sheet))
    if "pads" in kinds and ctx.game.categories:
        plans.pads, problems = plan_pads(ctx)
        plans.problems += problems
    return plans


# --- drawing ---------------------------------------------------------------------------------

def _groups(items: list[tuple[Any, SheetPlan]], copies: Callable[[Any], int]) -> list[tuple[SheetPlan, list[Any]]]:
    """Items expanded by copies and grouped by sheet layout, in first-appearance order."""
    order: list[SheetPlan] = []
    groups: dict[SheetPlan, list[Any]] = {}
    for plan, sheet in items:
        if sheet not in groups:
            groups[sheet] = []
            order.append(sheet)
        groups[sheet] += [plan] * copies(plan)
    return [(s, groups[s]) for s in order if groups[s]]


def _write_boards(ctx: PrintContext, plans: Plans, path: Path) -> tuple[int, int]:
    pages = count = 0
    with atomic_path(path) as tmp:
        c = new_canvas(tmp, plans.boards[0][1].page, ctx.t.gettext("{title} — boards", title=ctx.game.title), "boards",
                       cmyk=ctx.settings.cmyk)
        for sheet, items in _groups(plans.boards, lambda p: p.board.copies):
            for start in range(0, len(items), sheet.per_sheet):
                chunk = items[start:start + sheet.per_sheet]
                c.setPageSize(sheet.page)
                for slot, plan in zip(sheet.slots, chunk):
                    draw_board(c, plan, ctx, *slot)
                draw_sheet_marks(c, sheet, len(chunk), ctx.settings)
                c.showPage()
                pages += 1
                count += len(chunk)
        c.save()
    return pages, count


def _write_aids(ctx: PrintContext, plans: Plans, path: Path, backs_path: Path) -> list[tuple[Path, int, int]]:
    """aids.pdf (a back page after each front page when printing duplex, as soon as one aid is
    double-sided) and, with ``--duplex none``, the back pages in aids-backs.pdf.
    Returns (path, pages, aids) per file written; aids-backs.pdf counts 0 (it holds no fronts)."""
    players = ctx.game.max_players
    inline = ctx.settings.duplex != "none"
    any_back = any(p.back is not None for p, _ in plans.aids)
    separate = any_back and not inline
    pages = back_pages = count = 0
    first_page = plans.aids[0][1].page
    with ExitStack() as stack:
        c = new_canvas(stack.enter_context(atomic_path(path)), first_page,
                       ctx.t.gettext("{title} — player aids", title=ctx.game.title), "player aids",
                       cmyk=ctx.settings.cmyk)
        backs = (new_canvas(stack.enter_context(atomic_path(backs_path)), first_page,
                            ctx.t.gettext("{title} — player aids (backs)", title=ctx.game.title),
                            "player aid backs", cmyk=ctx.settings.cmyk)
                 if separate else c)
        if any_back and inline:  # the print dialog preselects two-sided, flipped as the backs are laid out
            print_preferences(c, ctx.settings.duplex)
        for sheet, items in _groups(plans.aids, lambda p: p.aid.printed_copies(players)):
            for start in range(0, len(items), sheet.per_sheet):
                chunk = items[start:start + sheet.per_sheet]
                c.setPageSize(sheet.page)
                for slot, plan in zip(sheet.slots, chunk):
                    draw_aid_side(c, plan, "front", ctx, *slot)
                draw_sheet_marks(c, sheet, len(chunk), ctx.settings)
                c.showPage()
                pages += 1
                count += len(chunk)
                if not any_back:
                    continue
                backs.setPageSize(sheet.page)
                placed = [back_slot(sheet, i, ctx.settings) for i in range(len(chunk))]
                for (x, y, rotated), plan in zip(placed, chunk):
                    draw_aid_side(backs, plan, "back", ctx, x, y, rotated=rotated)
                draw_sheet_marks(backs, sheet, len(chunk), ctx.settings, [(x, y) for x, y, _ in placed])
                backs.showPage()
                if separate:
                    back_pages += 1
                else:
                    pages += 1
        c.save()
        if separate:
            backs.save()
    written = [(path, pages, count)]
    if separate:  # like a deck's backs file: no fronts in it (the manifest's count is of fronts)
        written.append((backs_path, back_pages, 0))
    return written


def _write_pads(ctx: PrintContext, plans: Plans, path: Path) -> tuple[int, int]:
    with atomic_path(path) as tmp:
        c = new_canvas(tmp, plans.pads.page, ctx.t.gettext("{title} — score pad", title=ctx.game.title), "score pad",
                       cmyk=ctx.settings.cmyk)
        draw_pad_sheet(c, plans.pads, ctx)
        c.showPage()
        c.save()
    return 1, plans.pads.per_sheet


def setup_results(game: Game) -> list[dict[str, Any]]:
    """The checklist and numbers (no deal) for every mode and player count, or [] when the
    game has no setup yet."""
    out = []
    for mode in game.modes:
        for players in range(game.min_players, game.max_players + 1):
            try:
                counts = game.setup_counts(players, mode, {})
                steps = game.setup_steps(players, mode, {}, counts)
            except NotImplementedError:
                return []
            out.append({"game": game.id, "player_count": players, "mode": mode, "counts": counts, "steps": steps,
                        "deal": {}})
    return out


def _write_setup(ctx: PrintContext, results: list[dict[str, Any]], path: Path) -> int:
    pages = 0
    with atomic_path(path) as tmp:
        c = new_canvas(tmp, (mm(ctx.settings.paper_mm[0]), mm(ctx.settings.paper_mm[1])),
                       ctx.t.gettext("{title} — setup", title=ctx.game.title),
                       "setup sheets", cmyk=ctx.settings.cmyk)
        pages += draw_setup_pages(c, ctx, results, with_deal=False)
        c.save()
    return pages


def _playtest(game: Game, data: GameData, settings: BuildSettings) -> PlaytestLink | None:
    """``--playtest URL``: the link to this build's deck (its version and fingerprint)."""
    if settings.playtest_url is None:
        return None
    from cardforge.lab.facts import deck_of_data

    return playtest_link(settings.playtest_url, game.id, deck_of_data(game.id, data))


def build_printables(game: Game, data: GameData, settings: BuildSettings, game_dir: Path,
                     progress: Callable[[int], Any] | None = None) -> list[ManifestEntry]:
    """Build whichever of boards, pads and aids are in ``settings.only`` into ``game_dir``.

    Files: ``boards.pdf`` (kind board), ``score-pad.pdf`` (pad), ``aids.pdf`` (aid; plus
    ``aids-backs.pdf`` with ``--duplex none``) and, with the aids, ``setup.pdf`` (setup: one
    page per mode and player count). A manifest entry's ``cards`` counts the fronts printed,
    copies counted: boards, pads, aids or setup sheets (0 in aids-backs.pdf, as in a deck's
    backs file). Raises RenderError listing every problem, before writing.
    """

    # the game's own fonts/ and icons/ (render/drawing/game_assets.py), passed to all that draws for it
    ctx = PrintContext(game, data, settings, drawing_assets(data, game_folder=game.folder,
                                                        lang=settings.lang or game.language),
                       playtest=_playtest(game, data, settings))
    kinds = frozenset(settings.only) & {"boards", "pads", "aids"}
    plans = plan_printables(ctx, kinds)
    results = setup_results(game) if "aids" in kinds else []
    if plans.problems:
        raise RenderError(f"cannot build the printables of {game.id}", plans.problems)
    game_dir = Path(game_dir)
    entries: list[ManifestEntry] = []
    paper = settings.paper

    def done(path: Path, kind: str, pages: int, count: int) -> None:
        entries.append(entry_for(path, game_dir, kind, pages, count, paper))
        if progress is not None:
            progress(count)  # the build's progress bar counts items finished

    if plans.boards:
        path = game_dir / FILES["boards"]
        pages, count = _write_boards(ctx, plans, path)
        done(path, "board", pages, count)
    if plans.pads is not None:
        path = game_dir / FILES["pads"]
        pages, count = _write_pads(ctx, plans, path)
        done(path, "pad", pages, count)
    if plans.aids:
        for path, pages, count in _write_aids(ctx, plans, game_dir / FILES["aids"], game_dir / FILES["aid_backs"]):
            done(path, "aid", pages, count)
    if results:
        path = game_dir / FILES["setup"]
        done(path, "setup", _write_setup(ctx, results, path), len(results))
    return entries

