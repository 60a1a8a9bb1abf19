"""The setup sheet: the checklist of a game's setup for one player count and mode, with the
numbers for that count, printed from the setup contract (``cardforge setup GAME --players N
--pdf PATH``) — and, in a build, one page per mode and player count."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any

from reportlab.pdfgen.canvas import Canvas

from cardforge.errors import RenderError
from cardforge.i18n import N_, Messages, messages
from cardforge.problems import Problem
from cardforge.render.drawing.game_assets import drawing_assets
from cardforge.render.output import atomic_path, new_canvas
from cardforge.render.sheets.blocks import Laid, Overflow, Theme, _TooWide, lay_block
from cardforge.render.sheets.playtest import BAND_MM as PLAYTEST_BAND_MM
from cardforge.render.sheets.playtest import draw_link
from cardforge.render.sheets.printing import PrintContext, band_title, draw_band, draw_stamp, stamp_right
from cardforge.settings import BuildSettings
from cardforge.units import mm

if TYPE_CHECKING:
    from cardforge.data.loading import GameData
    from cardforge.games.base import Game

#: labels of the setup numbers most games share (message ids, printed in the sheet's language);
#: a game adds its own, in its own language, with the ``SETUP_LABELS`` hook
#: (``cardforge/games/contract.py``).
COUNT_LABELS = {"hand_limit": N_("Hand limit"), "rounds": N_("Rounds"), "cards_each": N_("Cards per player"),
                "coins_each": N_("Coins per player")}


def count_labels(game: Game, t: Messages | None = None) -> dict[str, str]:
    """How the sheet names each setup number: the shared labels (in ``t``'s language, default
    the game's), then the game's own."""
    _ = (t or messages(game.language)).gettext
    return {**{k: _(v) for k, v in COUNT_LABELS.items()}, **(game.printables().SETUP_LABELS or {})}


def mode_label(game: Game, mode: str) -> str:
    """How the sheet names a mode: its ``label`` in game.yaml (the game's words), else its id,
    first letter capitalised (``modes: {expert: {label: partie experte}}`` → "Partie experte")."""
    spec = game.spec.modes.get(mode)
    label = (spec.label if spec is not None else None) or mode.replace("_", " ")
    return label[:1].upper() + label[1:]


def _b(kind: str, **fields: Any) -> SimpleNamespace:
    return SimpleNamespace(kind=kind, size=None, align=None, **fields)


def _value(value: Any, t: Messages) -> str:
    if isinstance(value, bool):
        return t.gettext("yes") if value else t.gettext("no")
    if isinstance(value, (int, float, str)):
        return str(value)
    if isinstance(value, list):
        return ", ".join(_value(v, t) for v in value) or "—"
    if isinstance(value, dict):
        return t.gettext("; ").join(t.gettext("{key}: {value}", key=k, value=_value(v, t))
                                    for k, v in value.items()) or "—"
    return json.dumps(value, ensure_ascii=False)


def _escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace("*", "\\*").replace("<", "\\<")


def players_label(players: int, t: Messages) -> str:
    """"2 players" in ``t``'s language."""
    return t.ngettext("{n} player", "{n} players", players)


def sheet_blocks(game: Game, result: dict[str, Any], with_deal: bool = True,
                 t: Messages | None = None) -> list[SimpleNamespace]:
    """The sheet's content as blocks: the checklist, the numbers, the deal (if any), in ``t``'s
    language (default: the game's)."""
    t = t or messages(game.language)
    _ = t.gettext
    players = result["player_count"]
    mode = result.get("mode")
    head = players_label(players, t)
    if len(game.modes) > 1 and mode:
        head += f" · {_escape(mode_label(game, mode))}"
    blocks = [_b("text", text=f"**{head}**")]
    blocks.append(_b("heading", text=_("Setup"), level=1))
    for i, step in enumerate(result.get("steps", []), start=1):
        blocks.append(_b("checklist", items=[step], start=i))
    counts = result.get("counts") or {}
    if counts:
        blocks.append(_b("heading", text=_("Numbers for this game"), level=2))
        labels = count_labels(game, t)
        rows = [[_escape(labels.get(str(k), str(k).replace("_", " "))), _escape(_value(v, t))]
                for k, v in counts.items()]
        blocks.append(_b("table", rows=rows, columns=None, widths=None, header_column=True))
    deal = {k: v for k, v in (result.get("deal") or {}).items() if k != "seed"}
    if with_deal and deal:
        seed = (result.get("deal") or {}).get("seed")
        blocks.append(_b("heading", text=_("Deal drawn (seed {seed})", seed=seed), level=2))
        items = []
        for key, value in deal.items():
            if isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
                for i, entry in enumerate(value, start=1):
                    items.append(_("{key}: {value}", key=f"**{_escape(str(key))} {i}**",
                                   value=_escape(_value(entry, t))))
            elif isinstance(value, dict):
                for sub, v in value.items():
                    items.append(_("{key}: {value}", key=f"**{_escape(str(key))} › {_escape(str(sub))}**",
                                   value=_escape(_value(v, t))))
            else:
                items.append(_("{key}: {value}", key=f"**{_escape(str(key))}**", value=_escape(_value(value, t))))
        blocks += [_b("bullets", items=[item]) for item in items]  # one per item: they may flow on
    return blocks


def _pages(blocks: list[Any], width: float, height: float, theme: Theme) -> list[list[Laid]]:
    """Blocks laid at full size, broken into pages at block boundaries."""
    return _flow([lay_block(block, width, 1.0, theme) for block in blocks], blocks, height, theme)


def _flow(laid: list[Laid], blocks: list[Any], height: float, theme: Theme,
          pages: list[list[Laid]] | None = None, used: float = 0.0) -> list[list[Laid]]:
    """``laid`` added to ``pages`` (the last one filled ``used`` high), a new page where the
    next block does not fit; a heading stays with what follows it."""
    pages = pages if pages is not None else [[]]
    for i, (block, item) in enumerate(zip(blocks, laid)):
        need = item.height
        if block.kind == "heading" and i + 1 < len(laid):  # keep a heading with what follows
            need += item.gap_after + laid[i + 1].height
        if pages[-1] and used + need > height:
            pages.append([])
            used = 0.0
        if item.height > height:
            raise Overflow(item.height, height, theme.body, where=f"{block.kind} block")
        pages[-1].append(item)
        used += item.height + item.gap_after
    return pages


RESULT_GAP_MM = 7.0  # between two setups sharing a page


def _head(game: Game, result: dict[str, Any], t: Messages) -> str:
    players = result["player_count"]
    head = players_label(players, t)
    mode = result.get("mode")
    if len(game.modes) > 1 and mode:
        head += f" ({mode_label(game, mode)})"
    return head


COLUMN_GAP_MM = 8.0


def draw_setup_pages(c: Canvas, ctx: PrintContext, results: dict[str, Any] | list[dict[str, Any]],
                     with_deal: bool = True) -> int:
    """Draw the sheets of one setup result or several; returns the number of pages drawn.
    Several results are packed: in two columns, as many to a column as fit whole, when each
    fits a column; else one after the other across the page, a result starting a new page only
    when the rest of the page cannot hold it whole. The footer names the setups on the page."""
    results = [results] if isinstance(results, dict) else results
    pw, ph = (mm(v) for v in ctx.settings.paper_mm)
    margin = mm(12)
    band_h = mm(13)
    theme = Theme(body=10.0, floor=6.0, accent=ctx.accent, assets=ctx.assets)
    width = pw - 2 * margin
    top = ph - margin - band_h - mm(5)
    bottom = margin + mm(6)
    if ctx.playtest is not None:  # the playtest link's band above the footer
        bottom += mm(PLAYTEST_BAND_MM + 2)
    height = top - bottom
    try:
        placed = _columns(ctx, results, with_deal, width, height, theme) if len(results) > 1 else None
        if placed is None:
            placed = _across(ctx, results, with_deal, width, height, theme)
    except _TooWide as exc:
        raise RenderError(f"setup sheet for {ctx.game.id} cannot be printed",
                          [Problem(f"{exc.word!r} is too wide for the page", item="setup sheet")]) from None
    except Overflow as exc:
        raise RenderError(f"setup sheet for {ctx.game.id} cannot be printed",
                          [Problem(exc.describe(), item="setup sheet")]) from None
    _ = ctx.t.gettext
    title = band_title(_("{title} — setup", title=ctx.game.title), width - mm(8), band_h * 0.8, 16.0, assets=ctx.assets)
    for number, (page, heads) in enumerate(placed, start=1):
        c.setPageSize((pw, ph))
        draw_band(c, margin, ph - margin - band_h, width, band_h, ctx.accent, mm(1.5),
                  [(title, mm(4), width - mm(8))])
        for dx, dy, laid in page:
            laid.paint(c, margin + dx, top - dy)
        if ctx.playtest is not None:
            draw_link(c, ctx.playtest, margin, margin + mm(6), width, mm(PLAYTEST_BAND_MM))
        more = _(" · page {number}/{count}", number=number, count=len(placed)) if len(placed) > 1 else ""
        draw_stamp(c, _("{title} · setup · {setups}", title=ctx.game.title, setups=", ".join(dict.fromkeys(heads)))
                   + more, stamp_right(ctx.version, None, ctx.t), margin, margin, width, size=6.5, lang=ctx.t.lang)
        c.showPage()
    return len(placed)


#: a page: each block laid with its offset (x from the left margin, y down from the top), and
#: the setups it shows
Placed = tuple[list[tuple[float, float, Laid]], list[str]]


def _stack(laid: list[Laid]) -> float:
    return sum(item.height + item.gap_after for item in laid)


def _columns(ctx: PrintContext, results: list[dict[str, Any]], with_deal: bool, width: float, height: float,
             theme: Theme) -> list[Placed] | None:
    """Two columns, each result whole in one; None when a result is taller than a column."""
    col = (width - mm(COLUMN_GAP_MM)) / 2
    laid = []
    for result in results:
        items = [lay_block(block, col, 1.0, theme) for block in sheet_blocks(ctx.game, result, with_deal, ctx.t)]
        if _stack(items) > height:
            return None
        laid.append((_head(ctx.game, result, ctx.t), items))
    pages: list[Placed] = []
    column, used = 2, 0.0  # start on a fresh page
    gap = mm(RESULT_GAP_MM)
    for head, items in laid:
        need = _stack(items)
        if column < 2 and used and used + gap + need > height:
            column, used = column + 1, 0.0
        if column >= 2:
            pages.append(([], []))
            column, used = 0, 0.0
        y = used + (gap if used else 0.0)
        for item in items:
            pages[-1][0].append((column * (col + mm(COLUMN_GAP_MM)), y, item))
            y += item.height + item.gap_after
        pages[-1][1].append(head)
        used = y
    return pages


def _across(ctx: PrintContext, results: list[dict[str, Any]], with_deal: bool, width: float, height: float,
            theme: Theme) -> list[Placed]:
    """Full width, one result after another."""
    pages: list[list[Laid]] = [[]]
    heads: list[list[str]] = [[]]
    used = 0.0
    gap = mm(RESULT_GAP_MM)
    for result in results:
        blocks = sheet_blocks(ctx.game, result, with_deal, ctx.t)
        laid = [lay_block(block, width, 1.0, theme) for block in blocks]
        if pages[-1] and used + gap + _stack(laid) > height:  # not whole on this page: a page of its own
            pages.append([])
            heads.append([])
            used = 0.0
        elif pages[-1]:
            pages[-1].append(Laid(gap, lambda c, x, y: None))
            used += gap
        before = len(pages)
        pages = _flow(laid, blocks, height, theme, pages, used)
        heads += [[] for _ in range(len(pages) - before)]
        for k in range(before - 1, len(pages)):
            heads[k].append(_head(ctx.game, result, ctx.t))
        used = _stack(pages[-1])
    out: list[Placed] = []
    for page, names in zip(pages, heads):
        y = 0.0
        placed = []
        for item in page:
            placed.append((0.0, y, item))
            y += item.height + item.gap_after
        out.append((placed, names))
    return out


def render_setup_sheet(game: Game, data: GameData, result: dict[str, Any], path: str | Path,
                       settings: BuildSettings | None = None) -> int:
    """Print the setup sheet of ``result`` (the setup contract) to ``path``; returns its pages."""
    settings = settings or BuildSettings()
    ctx = PrintContext(game, data, settings, drawing_assets(data, game_folder=game.folder,
                                                            lang=settings.lang or game.language))
    path = Path(path)
    with atomic_path(path) as tmp:
        c = new_canvas(tmp, (mm(ctx.settings.paper_mm[0]), mm(ctx.settings.paper_mm[1])),
                       ctx.t.gettext("{title} — setup ({players} players)", title=game.title,
                                     players=result["player_count"]), "setup sheet",
                       cmyk=ctx.settings.cmyk)
        pages = draw_setup_pages(c, ctx, result)
        c.save()
    return pages
