"""The playtest lab as a document: headings, lines of text, tables and charts — one list of
parts (:func:`parts`) that the web page renders as HTML (``web/lab.py``, the charts as SVG) and
:func:`write_pdf` lays out on A4 (``cardforge report``). Both show the same strings and the same
``reportlab.graphics`` drawings (``render/reports/charts.py``): what the page says, the PDF says.

The same view always gives the same parts, and the same PDF bytes (``invariant``: no dates,
fixed ids; the text in the bundled DejaVu Sans).
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any
from xml.sax.saxutils import escape

from reportlab.graphics.shapes import Drawing as RLDrawing
from reportlab.graphics.shapes import Group
from reportlab.lib import colors
from reportlab.lib.enums import TA_RIGHT
from reportlab.lib.pagesizes import A4
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import CondPageBreak, KeepTogether, Paragraph, SimpleDocTemplate, Spacer, TableStyle
from reportlab.platypus import Table as RLTable

from cardforge import __version__
from cardforge.lab import stats
from cardforge.lab.balance import Fit, equation, fmt, fmt_signed, score_text
from cardforge.lab.changes import _show
from cardforge.lab.effects import FDR, TARGET
from cardforge.lab.versions import label
from cardforge.render.fonts import font_name
from cardforge.render.reports import charts

if TYPE_CHECKING:
    from reportlab.graphics.shapes import Drawing

    from cardforge.lab.effects import Effect
    from cardforge.lab.view import LabView

GREY = "#9A9AA2"  # a bar resting on too few seats
PDF_CHART_WIDTH = 600.0  # charts laid out this wide for the PDF, then drawn at the text's width (A4: 510 pt)
CHART_ROWS = 20  # bars a card chart shows (the most held)


@dataclass
class Heading:
    text: str
    level: int = 2
    id: str = ""


@dataclass
class Text:
    text: str
    style: str = "body"  # body, lead, note, flag


@dataclass
class Table:
    id: str
    columns: list[str]
    rows: list[list[str]]
    numeric: frozenset[int] = frozenset()  # right-aligned columns
    flagged: list[bool] = field(default_factory=list)  # rows to stress (an outlier)


@dataclass
class Chart:
    id: str
    title: str
    desc: str
    drawing: Drawing


Part = Heading | Text | Table | Chart


def _slug(text: str) -> str:
    out = "".join(c if c.isalnum() else "-" for c in text.casefold())
    return "-".join(p for p in out.split("-") if p)[:60]


# --- the parts -----------------------------------------------------------------------------------

def parts(view: LabView, width: float = charts.WIDTH) -> list[Part]:
    """The report's parts; its charts ``width`` points wide (the page's 320, wider for a PDF:
    the same charts laid out on more room)."""
    out: list[Part] = [Heading(f"{view.title} — playtest lab", 1, "top")]
    n = view.plays_in_log
    selected = view.selected_plays
    out.append(Text(
        f"{selected} of the {n} play{'s' if n != 1 else ''} in the log ({view.selection.describe})"
        + (", pooled" if view.pooled else "") + f" · the working data: {view.current.label}", "lead"))
    out.append(Text(
        "Every raw rate (for reading, never ranked): wins out of seats (a win shared by k players counts 1/k to "
        "each), with its Wilson 95 % interval "
        "(the whisker) and its fair share — what it would be if nothing mattered: 1 ÷ players, the dashed tick. "
        f"Below {view.min_count} seats a rate says “too few plays” (grey bars). "
        "Solo plays count in the plays, never in a rate.", "note"))
    out += summary(view)
    out += _versions(view)
    if view.comparison is not None:
        out += _comparison(view, view.comparison, width)
    if view.trends:
        out += _trends(view, width)
    for g in view.groups:
        out += _group(view, g, width)
    if view.fits:
        out += _balance(view.fits, width)
    return out


# --- effects ----------------------------------------------------------------------------------------

def _family_label(view: LabView, family: str) -> str:
    if family.startswith("change:"):
        family = family[7:]
    if family == "card":
        return "Cards"
    if family == "seat":
        return "Turn order"
    cid = family.split(":", 1)[1]
    return dict(view.info.choices).get(cid, cid)


def _average(view: LabView, family: str) -> str:
    if family == "card":
        return "an average card"
    if family == "seat":
        return "an average seat"
    return f"an average {_family_label(view, family).casefold()}"


def _pts(value: float | None) -> str:
    if value is None:
        return "–"
    text = f"{value:+.1f}".replace("-", "−")
    return ("±0.0" if text in ("+0.0", "−0.0") else text) + " pts"


def _interval(e: Effect) -> str:
    iv = e.pts_interval
    if iv is None:
        return "–"
    return f"{_pts(iv[0])[:-4]} to {_pts(iv[1])[:-4]}"


def _q(e: Effect) -> str:
    if e.q is None:
        return "–"
    return "< 0.001" if e.q < 0.001 else f"{e.q:.3f}"


def _status(e: Effect) -> str:
    if e.needed is not None:
        return f"too few plays: about {e.needed:,} needed" if e.needed else "never varies within a play"
    return e.status


def _ordered(found: Sequence[Effect]) -> list[Effect]:
    """Measured effects, the largest first; then the too few, by name."""
    tested = sorted((e for e in found if e.estimate is not None),
                    key=lambda e: (-(e.estimate or 0), stats.sort_name(e.label), e.key))
    rest = sorted((e for e in found if e.estimate is None), key=lambda e: (stats.sort_name(e.label), e.key))
    return tested + rest


def _raw(e: Effect) -> str:
    if not e.seats:
        return "–"
    return f"{stats.percent(e.rate)} · {stats.number(round(e.wins, 2))} of {e.seats}"


def _effects(view: LabView, g: stats.Group, gid: str) -> list[Part]:
    f = g.fitted
    if not f.effects:
        return []
    n = 1 / f.base if f.base else 0
    out: list[Part] = [Heading("Effects on winning", 3, f"{gid}-effects"), Text(
        f"Each effect: the change of a seat's chance of winning, in points at a table of {stats.number(round(n, 1))} "
        "players, against the average of its kind — the player count, the seat and what else each seat held "
        "accounted for (a conditional logit per play); its 95 % interval; the raw win rate beside it for reading; "
        "q: corrected for every effect this report tests (Benjamini–Hochberg)." + (f" {f.note}." if f.note else ""),
        "note")]
    families: dict[str, list[Effect]] = {}
    for e in f.effects:
        families.setdefault(e.family, []).append(e)
    for family, found in families.items():
        rows, marks = [], []
        for e in _ordered(found):
            rows.append([e.label, _pts(e.pts), _interval(e), _raw(e), str(e.plays), _q(e), _status(e)])
            marks.append(e.flagged)
        out.append(Table(f"{gid}-effects-{_slug(family)}", [_family_label(view, family), "Effect", "95 % interval",
                                                             "Raw win rate", "Plays", "q", "Status"], rows,
                         frozenset({1, 2, 3, 4, 5}), marks))
    return out


def summary(view: LabView) -> list[Part]:
    """The first page: what is solid, what is not yet known and how many plays would tell, what
    changed since the last version, what to try next."""
    found = view.effects()
    flagged = [e for e in found if e.flagged]
    out: list[Part] = [Heading("Summary", 2, "summary"), Text(
        f"{view.tested} effect{'s' if view.tested != 1 else ''} tested (cards, declared choices, turn order"
        + (", changes between versions" if view.differences else "") + ") with the false discovery rate held at "
        f"{100 * FDR:.0f} % (Benjamini–Hochberg): a flagged effect is one this many plays show; an unflagged one is "
        "not shown to be zero.", "note")]
    out.append(Heading("What is solid", 3, "summary-solid"))
    change = ""
    if view.comparison is not None:
        change = f"{label(view.comparison.old_version)} → {label(view.comparison.new_version)}"
    out += _summary_solid(view, flagged, change)
    balance = [(f, p) for f in view.fits for p in f.flagged]
    if balance:
        out.append(Text("From the card data: " + "; ".join(f"{p.name} ({p.direction})" for _, p in balance) + ".",
                        "flag"))
    out.append(Heading("Not yet known", 3, "summary-unknown"))
    out.append(_summary_unknown(view))
    out.append(Heading("What changed since the last version", 3, "summary-changed"))
    out.append(_summary_changed(view, change))
    out.append(Heading("What to try next", 3, "summary-next"))
    unknown = any(e.needed is not None and e.needed > 0 for g in view.groups for e in g.fitted.effects)
    out.append(_summary_next(view, flagged, balance, unknown))
    return out


def _summary_solid(view: LabView, flagged: list[Effect], change: str) -> list[Part]:
    """The flagged effects, surest first; or a line saying none is."""
    out: list[Part] = []
    groups = {id(e): g.label for g in view.groups for e in g.fitted.effects}
    if flagged:
        rows = []
        for e in sorted(flagged, key=lambda e: (e.q or 0, -(abs(e.estimate or 0)))):
            where = groups.get(id(e), change)
            what = f"{e.label} ({_family_label(view, e.family).casefold()}"
            what += ", change)" if e.family.startswith("change:") else f", against {_average(view, e.family)})"
            rows.append([where, what, _pts(e.pts), _interval(e), _q(e)])
        out.append(Table("summary-solid", ["Plays", "Effect on winning", "Size", "95 % interval", "q"], rows,
                         frozenset({2, 3, 4})))
    else:
        out.append(Text(f"Nothing survives the correction: no card, choice or seat is shown to win more or less than "
                        f"its peers ({view.tested} tested).", "body"))
    return out


def _summary_unknown(view: LabView) -> Text:
    """How many plays each group would need to show an effect of TARGET points."""
    lines = []
    for g in view.groups:
        families: dict[str, list[Effect]] = {}
        for e in g.fitted.effects:
            if e.needed is not None and e.needed > 0:
                families.setdefault(e.family, []).append(e)
        if families:
            needs = sorted(e.needed or 0 for few in families.values() for e in few)
            span = f"{needs[0]:,}" if needs[0] == needs[-1] else f"{needs[0]:,}–{needs[-1]:,}"
            which = ", ".join(f"{_family_label(view, f).casefold()} ({len(few)})" for f, few in families.items())
            lines.append(f"{g.label} ({g.fitted.plays:,} play{'s' if g.fitted.plays != 1 else ''}): {which} — about "
                         f"{span} plays would show an effect of {100 * TARGET:.0f} points")
    if lines:
        return Text("; ".join(lines) + " (80 % power, at the corrected level).", "body")
    return Text(f"Every effect rests on enough plays to show one of {100 * TARGET:.0f} points.", "body")


def _summary_changed(view: LabView, change: str) -> Text:
    """The cards changed since the last version and the effects that moved."""
    c = view.comparison
    if c is None:
        return Text("One version in the selection: nothing to compare.", "body")
    names = ", ".join(ch.name for ch in c.changes[:8]) + (" …" if len(c.changes) > 8 else "")
    text = (f"{change}: {len(c.changes)} card{'s' if len(c.changes) != 1 else ''} changed"
            + (f" ({names})" if c.changes else "") + ". ")
    moved = [e for e in view.differences if e.flagged]
    compared = [e for e in view.differences if e.tested]
    if moved:
        text += "Moved beyond chance: " + "; ".join(f"{e.label} {_pts(e.pts)} ({_interval(e)})" for e in moved)
    elif compared:
        text += f"No effect moved beyond chance ({len(compared)} compared)"
    else:
        text += "Too few plays on one side or both to compare any effect"
    return Text(text + ".", "body")


def _summary_next(view: LabView, flagged: list[Effect], balance: list[tuple[Any, Any]], unknown: bool) -> Text:
    """What to try: each flagged effect's remedy, the card data's flags, more plays when some
    effects are not yet known (``unknown``)."""
    tips = []
    for e in flagged:
        if e.family == "card":
            tips.append(f"{'weaken or re-cost' if (e.estimate or 0) > 0 else 'strengthen'} {e.label}")
        elif e.family.startswith("choice:"):
            tips.append(f"{'tone down' if (e.estimate or 0) > 0 else 'strengthen'} {e.label}")
        elif e.family == "seat":
            tips.append(f"look at turn order: the {e.label} {'wins more' if (e.estimate or 0) > 0 else 'wins less'}")
    tips += [f"re-cost {p.name} ({p.direction})" for _, p in balance]
    tips += [f"check {p.name}'s cost: priced outside its group's costs, the card data cannot judge it"
             for f in view.fits for p in f.points if p.outside and not p.flagged]
    if unknown:
        most = max((e.needed or 0 for g in view.groups for e in g.fitted.effects if e.needed), default=0)
        least = min((e.needed or 0 for g in view.groups for e in g.fitted.effects if e.needed), default=0)
        tips.append(f"play more: about {least:,} plays of one version begin to tell (the least-played effects need "
                    f"{most:,})")
    return Text(("Try: " + "; ".join(tips) + ".") if tips else "Nothing stands out: keep playing the current "
                "version, or change what the designers doubt and compare.", "body")


def _versions(view: LabView) -> list[Part]:
    if not view.versions:
        return [Heading("Versions", 2, "versions"), Text(f"No play of {view.title} in the log yet.", "body")]
    rows = []
    for v in view.versions:
        decks = "; ".join(f"{fp} ({_source(src)}, {n})" for fp, src, n in v.decks) or "not recorded"
        days = v.first_day if v.first_day == v.last_day else f"{v.first_day} – {v.last_day}"
        rows.append([v.label + ("" if v.selected else " (not selected)"), str(v.plays), decks, days])
    return [Heading("Versions", 2, "versions"),
            Table("versions", ["Version", "Plays", "Decks (fingerprint, source, plays)", "Played"], rows,
                  frozenset({1}))]


def _source(source: str) -> str:
    if source.startswith("printed "):
        return f"printed: {source[8:]}"
    return "working data" if source == "data" else source or "?"


def _pct(value: float | None) -> str:
    return stats.percent(value)


def _rate_cells(rate: stats.Rate) -> list[str]:
    return [rate.text(), rate.interval_text(), _pct(rate.expected), rate.flag()]


RATE_COLUMNS = ["Win rate · wins of seats", "95 % interval", "Fair share", "Note"]
RATE_NUMERIC = frozenset({1, 2, 3})


def _rate_bars(rows: Sequence[tuple[str, stats.Rate]]) -> list[charts.Bar]:
    bars = []
    for name, r in rows:
        iv = r.interval or (0.0, 0.0)
        bars.append(charts.Bar(name, 100 * (r.value or 0), r.text(), GREY if r.too_few else None,
                               (100 * iv[0], 100 * iv[1]), 100 * r.expected if r.expected is not None else None))
    return bars


def _group(view: LabView, g: stats.Group, w: float) -> list[Part]:
    gid = _slug(g.label)
    out: list[Part] = [Heading(f"{g.label} — {g.plays} play{'s' if g.plays != 1 else ''}", 2, gid)]
    counts = ", ".join(f"{k} players: {v}" if k != 1 else f"solo: {v}" for k, v in g.player_counts.items())
    days = g.first_day if g.first_day == g.last_day else f"{g.first_day} – {g.last_day}"
    out.append(Text(f"{days} · {counts} · {g.plays_with_first} of {g.multi} with the first player recorded", "body"))
    out += _effects(view, g, gid)
    out += _group_choices(view, g, gid, w)
    out += _group_positions(g, gid, w)
    out += _group_margin(g, gid, w)
    out += _group_shares(g, gid, w)
    out += _group_length(g, gid)
    if view.info.card_fields:
        out += _cards(view, g, gid, w)
    return out


def _group_choices(view: LabView, g: stats.Group, gid: str, w: float) -> list[Part]:
    """The win rate by each declared choice."""
    out: list[Part] = []
    for cid, clabel in view.info.choices:
        rows = g.choices.get(cid, [])
        if not rows and not g.choice_missing.get(cid):
            continue
        out.append(Heading(f"Win rate by {clabel.casefold()}", 3, f"{gid}-choice-{cid}"))
        enough, few = g.ranked(rows)
        ordered = enough + few
        if ordered:
            out.append(Chart(f"{gid}-choice-{cid}", f"Win rate by {clabel.casefold()}, {g.label}",
                             f"Each {clabel.casefold()}'s wins out of the seats that chose it, with its 95 % "
                             "interval and fair share.",
                             charts.bar_chart(f"{g.label}: win rate by {clabel.casefold()}", _rate_bars(
                                 [(r.label, r.rate) for r in ordered]), max_value=100, unit=" %",
                                 note=f"{g.label}; tick: fair share; grey: too few plays", width=w)))
        out.append(Table(f"{gid}-choice-{cid}", [clabel, *RATE_COLUMNS],
                         [[r.label, *_rate_cells(r.rate)] for r in ordered], RATE_NUMERIC))
        if g.choice_missing.get(cid):
            m = g.choice_missing[cid]
            out.append(Text(f"{m} seat{'s' if m != 1 else ''} did not say their {clabel.casefold()} (not counted).",
                            "note"))
    return out


def _group_positions(g: stats.Group, gid: str, w: float) -> list[Part]:
    """The win rate by turn order."""
    out: list[Part] = []
    out.append(Heading("Win rate by turn order", 3, f"{gid}-positions"))
    if g.positions:
        out.append(Chart(f"{gid}-positions", f"Win rate by turn order, {g.label}",
                         "The first player's wins, the second's… over the plays whose first player was recorded.",
                         charts.bar_chart(f"{g.label}: win rate by turn order", _rate_bars(
                             [(r.label, r.rate) for r in g.positions]), max_value=100, unit=" %",
                             note=f"{g.plays_with_first} play{'s' if g.plays_with_first != 1 else ''} with the "
                                  "first player recorded", width=w)))
        out.append(Table(f"{gid}-positions", ["Turn", *RATE_COLUMNS],
                         [[r.label, *_rate_cells(r.rate)] for r in g.positions], RATE_NUMERIC))
    else:
        out.append(Text("No play of this version recorded its first player.", "note"))
    return out


def _group_margin(g: stats.Group, gid: str, w: float) -> list[Part]:
    """The winner's margin."""
    out: list[Part] = []
    out.append(Heading("Winner's margin", 3, f"{gid}-margin"))
    margin = g.margin_summary
    if margin is None:
        out.append(Text("No play with a winner and another player.", "note"))
    else:
        out.append(Text(f"Over {int(margin['plays'])} play{'s' if margin['plays'] != 1 else ''}: mean "
                        f"{_n1(margin['mean'])}, median {_n1(margin['median'])}, from {_n1(margin['min'])} to "
                        f"{_n1(margin['max'])} (the lowest winner's "
                        "total minus the best other total; 0: a tie-breaker decided).", "body"))
        out.append(Chart(f"{gid}-margin", f"Winner's margin, {g.label}",
                         "How many plays were won by each margin.",
                         charts.histogram(f"{g.label}: winner's margin", stats.bins_of(g.margins),
                                          x_label="points between the winner and the next", width=w)))
    return out


def _group_shares(g: stats.Group, gid: str, w: float) -> list[Part]:
    """Where the points come from: each category's share."""
    out: list[Part] = []
    out.append(Heading("Where the points come from", 3, f"{gid}-shares"))
    shares = [s for s in g.shares if s.winners is not None or s.everyone is not None]
    if shares and g.plays_with_breakdown:
        out.append(Text(f"Over the {g.plays_with_breakdown} of {g.multi} play{'s' if g.multi != 1 else ''} of 2 "
                        "players or more whose every seat recorded its categories.", "note"))
        out.append(Table(f"{gid}-shares", ["Category", "Winners' share", "Everyone's share"],
                         [[s.label, _pct(s.winners), _pct(s.everyone)] for s in shares], frozenset({1, 2})))
        out.append(Chart(f"{gid}-shares", f"Where the points come from, {g.label}",
                         "Each category's share of the winners' points and of everyone's.",
                         charts.stacked_bars(f"{g.label}: share of the points", [
                             ("Winners", [100 * (s.winners or 0) for s in shares]),
                             ("Everyone", [100 * (s.everyone or 0) for s in shares])], [s.label for s in shares],
                             note="percent of the total points, summed over the seats", width=w)))
    else:
        out.append(Text("No play of 2 players or more recorded its categories.", "note"))
    return out


def _group_length(g: stats.Group, gid: str) -> list[Part]:
    """How long the plays took."""
    out: list[Part] = []
    d = g.duration_summary
    out.append(Heading("Game length", 3, f"{gid}-length"))
    if d is None:
        out.append(Text("No play recorded how long it took.", "note"))
    else:
        out.append(Text(f"{int(d['plays'])} play{'s' if d['plays'] != 1 else ''} with a length: mean "
                        f"{_n1(d['mean'])} min, median {_n1(d['median'])} min, from {int(d['min'])} to "
                        f"{int(d['max'])} min.", "body"))
    return out


def _n1(value: float) -> str:
    return stats.number(round(value, 1))


def _cards(view: LabView, g: stats.Group, gid: str, w: float) -> list[Part]:
    out: list[Part] = [Heading("Cards", 3, f"{gid}-cards")]
    if not g.seats_with_facts:
        out.append(Text("No play of this version recorded the cards held (a play imported from a spreadsheet "
                        "gives its scores only).", "note"))
        return out
    fields = ", ".join(view.info.card_fields)
    out.append(Text(f"The cards the final states name ({fields}), over {g.seats_with_facts} seats of "
                    f"{g.plays_with_facts} play{'s' if g.plays_with_facts != 1 else ''}: how often each was held, "
                    "how its holders fared, how often it was among the winners' cards and among the others', and "
                    "the points it brought (each copy's value in the categories that add a card field up).", "note"))
    enough, few = g.ranked_cards()
    shown = (enough + few)[:CHART_ROWS]
    if shown:
        more = f"; the {CHART_ROWS} first of {len(enough) + len(few)}" if len(enough) + len(few) > CHART_ROWS else ""
        out.append(Chart(f"{gid}-cards", f"Holders' win rate by card, {g.label}",
                         "Each card's holders' wins out of the seats that held it, with the 95 % interval and the "
                         "fair share.", charts.bar_chart(f"{g.label}: holders' win rate", _rate_bars(
                             [(c.name, c.holders) for c in shown]), max_value=100, unit=" %",
                             note=f"tick: fair share; grey: too few plays{more}", width=w)))
    rows, points_rows = [], []
    for c in enough + few:
        rows.append([c.name, c.held.text(), *_rate_cells(c.holders)[:3], c.holders.flag()])
        points_rows.append([c.name, c.among_winners.text(), c.among_others.text(), _points(c)])
    # two tables of a few columns each: full names, no wrapped numbers, on A4 and on a phone
    out.append(Table(f"{gid}-cards", ["Card", "Held · of seats", "Holders won (raw)", "95 % interval", "Fair share",
                                      "Note"], rows, frozenset({1, 2, 3, 4})))
    out.append(Table(f"{gid}-cards-points", ["Card", "Among winners' cards", "Among others'", "Points per holder"],
                     points_rows, frozenset({1, 2, 3})))
    if g.never:
        names = ", ".join(name for _, name in g.never)
        out.append(Text(f"Never held ({len(g.never)}): {names}.", "body"))
    return out


def _points(c: stats.CardRow) -> str:
    per = c.points_per_holder
    return "–" if per is None else stats.number(round(per, 2))


def _change_text(ch: stats.CardChange) -> str:
    if ch.status != "changed":
        return ch.status
    parts = [f"{f}: {_show(o)} → {_show(n)}" for f, o, n in ch.fields]
    if ch.copies is not None:
        parts.append(f"copies {ch.copies[0]} → {ch.copies[1]}")
    return "; ".join(parts)


def _moved(old: stats.Rate | None, new: stats.Rate | None) -> str:
    """The change in points of percentage, of the rates as shown (``38 %`` → ``50 %``: +12 pts)."""
    if old is None or new is None or old.value is None or new.value is None:
        return "–"
    delta = stats.whole_percent(new.value) - stats.whole_percent(old.value)
    return f"{'+' if delta > 0 else '−' if delta < 0 else '±'}{abs(delta)} pts"


def _comparison(view: LabView, c: stats.Comparison, w: float) -> list[Part]:
    a, b = label(c.old_version), label(c.new_version)
    out: list[Part] = [Heading(f"Compare {a} → {b}", 2, "compare"), Text(c.deck_note, "note")]
    if view.differences:
        rows, marks = [], []
        for e in sorted(view.differences, key=lambda e: (e.family, -(e.estimate or 0), stats.sort_name(e.label))):
            rows.append([f"{e.label} ({_family_label(view, e.family).casefold()})",
                         _pts(e.old.pts if e.old else None), _pts(e.new.pts if e.new else None), _pts(e.pts),
                         _interval(e), _q(e), _status(e)])
            marks.append(e.flagged)
        out.append(Heading("Effects that moved", 3, "compare-effects"))
        out.append(Text("Each effect measured in both versions: its size in each, the change with its 95 % interval "
                        "(the two versions' plays are independent), q corrected with every other effect tested.",
                        "note"))
        out.append(Table("compare-effects", ["Effect", a, b, "Change", "95 % interval", "q", "Status"], rows,
                         frozenset({1, 2, 3, 4, 5}), marks))
    elif any(g.fitted.effects for g in (c.old, c.new)):
        out.append(Text("No effect was measured in both versions (too few plays): no change between them can be "
                        "told apart from chance yet; the raw rates below are for reading.", "note"))
    if c.changes:
        rows = []
        for ch in c.changes:
            old, new = c.card(c.old, ch.id), c.card(c.new, ch.id)
            rows.append([ch.name, _change_text(ch),
                         f"{old.held.text() if old else '–'} → {new.held.text() if new else '–'}",
                         f"{old.holders.text() if old else '–'} → {new.holders.text() if new else '–'}",
                         _moved(old.holders if old else None, new.holders if new else None)])
        out.append(Heading("The cards that changed, and their numbers", 3, "compare-cards"))
        out.append(Table("compare-cards", ["Card", "Change", "Held", "Holders won", "Moved"], rows))
    else:
        out.append(Text("No card changed between the two decks.", "body"))
    out += _compare_choices(view, c, w)
    pairs = c.position_pairs()
    if pairs:
        out.append(Heading("Win rate by turn order", 3, "compare-positions"))
        out.append(Table("compare-positions", ["Turn", a, b, "Moved"],
                         [[name, o.text() if o else "–", n.text() if n else "–", _moved(o, n)]
                          for name, o, n in pairs]))
    mo, mn = c.old.margin_summary, c.new.margin_summary
    if mo or mn:
        def text(m: dict[str, float] | None) -> str:
            if m is None:
                return "–"
            return f"mean {_n1(m['mean'])} ({int(m['plays'])} play{'s' if m['plays'] != 1 else ''})"
        out.append(Text(f"Winner's margin: {text(mo)} → {text(mn)}.", "body"))
    return out


def _compare_choices(view: LabView, c: stats.Comparison, w: float) -> list[Part]:
    """Each declared choice's win rate in both versions: a chart and a table."""
    a, b = label(c.old_version), label(c.new_version)
    out: list[Part] = []
    for cid, clabel in view.info.choices:
        pairs = c.choice_pairs(cid)
        if pairs:
            out.append(Heading(f"Win rate by {clabel.casefold()}", 3, f"compare-choice-{cid}"))
            bars = []
            for name, o, n in pairs:
                for version, rate, colour in ((a, o, charts.PALETTE[0]), (b, n, charts.PALETTE[1])):
                    if rate is not None:
                        bar = _rate_bars([(f"{name} · {version}", rate)])[0]
                        bars.append(charts.Bar(bar.label, bar.value, bar.text, colour, bar.interval, bar.mark))
            out.append(Chart(f"compare-choice-{cid}", f"Win rate by {clabel.casefold()}: {a} and {b}",
                             f"Each {clabel.casefold()}'s win rate in both versions, with the 95 % intervals.",
                             charts.bar_chart(f"{a} → {b}: win rate by {clabel.casefold()}", bars, max_value=100,
                                              unit=" %", note="a colour per version; tick: fair share", width=w)))
            out.append(Table(f"compare-choice-{cid}", [clabel, a, b, "Moved"],
                             [[name, o.text() if o else "–", n.text() if n else "–", _moved(o, n)]
                              for name, o, n in pairs]))
    return out


def _trends(view: LabView, w: float) -> list[Part]:
    out: list[Part] = [Heading("Over the versions", 2, "trends"), Text(
        "Raw win rates per version, for reading: nothing here is ranked or flagged (the effects that moved between "
        "the two versions compared are tested above).", "note")]
    for t in view.trends:
        series = [charts.Series(name, [(float(i), 100 * (r.value or 0)) for i, r in points])
                  for name, points in t.series]
        labels = [(float(i), v) for i, v in enumerate(t.versions)]
        out.append(Chart(f"trend-{t.choice}", f"Win rate by {t.label.casefold()} over the versions",
                         f"Each {t.label.casefold()}'s win rate in each version.",
                         charts.line_chart(f"Win rate by {t.label.casefold()}", series, x_labels=labels,
                                           y_unit=" %", y_range=(0, 100), note="per deck version", width=w)))
    return out


def _balance(fits: Sequence[Fit], w: float) -> list[Part]:
    out: list[Part] = [Heading("Balance from the card data", 2, "balance"), Text(
        "Each card against the line through the other cards of its group (least squares, value against cost); "
        "its score: the externally studentised residual (how far off, in the standard errors of that line at its "
        "cost; in a group where every card is worth the same, its cost against the others' costs); q: corrected "
        "for every card judged (Benjamini–Hochberg). Flagged when q ≤ 5 % and the score is beyond the flag: "
        "positive, more value than its cost buys; negative, too dear.", "note")]
    for f in fits:
        out += fit_parts(f, w)
    return out


def fit_parts(f: Fit, w: float = charts.WIDTH) -> list[Part]:
    fid = f"balance-{f.id}"
    by = f", one line per {f.group.split('.')[-1]}" if f.group else ""
    out: list[Part] = [Heading(f"{f.label}: {f.value} against {f.cost}{by}", 3, fid)]
    for line in f.lines:
        text = f"{line.group}: {equation(line, f.value, f.cost)} ({line.n} card{'s' if line.n != 1 else ''}"
        if line.spread is not None:
            text += f", typical distance {fmt(line.spread)}"
        text += ")" + (f" — {line.note}" if line.note else "")
        out.append(Text(text, "body"))
    groups = []
    for line in f.lines:
        pts = [(p.cost, p.value) for p in f.points if p.group == line.group]
        ends = (line.low, line.at(line.low), line.high, line.at(line.high))
        groups.append(charts.ScatterGroup(line.group, pts, ends))
    labels = [(p.cost, p.value, p.name) for p in f.flagged]
    out.append(Chart(fid, f"{f.label}: {f.value} against {f.cost}",
                     "Each card by its cost and value, a line per group through its cards not flagged; the flagged "
                     "cards ringed and named.",
                     charts.scatter_chart(f"{f.label}: {f.value} against {f.cost}", groups, labels=labels,
                                          x_label=f.cost, y_label=f.value,
                                          note=f"{len(f.flagged)} flagged (q ≤ 5 %, |score| > {fmt(f.flag)})",
                                          width=w)))
    rows, marks = [], []
    for p in f.by_score():
        if p.cost_gap is not None:
            expected = f"cost {fmt(p.expected_cost)}"
            residual = f"cost {fmt_signed(p.cost_gap)}"
        else:
            expected, residual = fmt(p.expected), fmt_signed(p.residual)
        rows.append([p.name, p.group, fmt(p.cost), fmt(p.value), expected, residual, score_text(p),
                     fmt(p.q, 3), p.direction])
        marks.append(p.flagged)
    out.append(Table(fid, ["Card", "Group", "Cost", "Value", "Expected", "Residual", "Score", "q", "Flag"], rows,
                     frozenset({2, 3, 4, 5, 6, 7}), marks))
    if f.flagged:
        out.append(Text("Flagged: " + "; ".join(f"{p.name} ({score_text(p)}, q {fmt(p.q, 3)}: {p.direction})"
                                                for p in f.flagged) + ".", "flag"))
    else:
        judged = sum(1 for p in f.points if p.p is not None)
        out.append(Text(f"No card flagged ({judged} judged; none with q ≤ 5 % and |score| > {fmt(f.flag)}).",
                        "body"))
    if f.left_out:
        out.append(Text("Left out: " + ", ".join(f"{name} ({why})" for _, name, why in f.left_out) + ".", "note"))
    return out


# --- the PDF ---------------------------------------------------------------------------------------

def write_report(view: LabView, target: Any) -> int:
    """The lab as a PDF (``cardforge report``, the page's PDF link); its page count."""
    return write_pdf(parts(view, PDF_CHART_WIDTH), view.title, target)


def write_pdf(doc_parts: Sequence[Part], title: str, target: Any) -> int:
    """Lay ``doc_parts`` out on A4 into ``target`` (a path or a binary file); the page count."""
    regular = font_name()
    story = _story(doc_parts, _pdf_styles(), A4[0] - 30 * mm)

    def footer(canvas: Canvas, doc: Any) -> None:
        canvas.saveState()
        canvas.setFont(regular, 7)
        canvas.setFillColor(colors.HexColor("#5f5f66"))
        canvas.drawString(15 * mm, 9 * mm, f"{title} — playtest lab · cardforge report")
        canvas.drawRightString(A4[0] - 15 * mm, 9 * mm, f"page {doc.page}")
        canvas.restoreState()

    buf = io.BytesIO()
    doc = SimpleDocTemplate(buf, pagesize=A4, leftMargin=15 * mm, rightMargin=15 * mm, topMargin=14 * mm,
                            bottomMargin=15 * mm, title=f"{title} — playtest lab", author="cardforge",
                            creator=f"cardforge {__version__}", producer="cardforge (ReportLab)", invariant=1,
                            pageCompression=1, initialFontName=regular)
    doc.build(story, onFirstPage=footer, onLaterPages=footer)
    data = buf.getvalue()
    if hasattr(target, "write"):
        target.write(data)
    else:
        Path(target).write_bytes(data)
    return int(doc.page)


def _pdf_styles() -> dict[Any, ParagraphStyle]:
    """The report's paragraph styles: headings by level, then text and table cells by name."""
    regular, bold, italic = font_name(), font_name(bold=True), font_name(italic=True)
    return {
        1: ParagraphStyle("h1", fontName=bold, fontSize=17, leading=21, spaceAfter=6),
        2: ParagraphStyle("h2", fontName=bold, fontSize=13, leading=16, spaceBefore=10, spaceAfter=4),
        3: ParagraphStyle("h3", fontName=bold, fontSize=10.5, leading=13, spaceBefore=7, spaceAfter=3),
        "body": ParagraphStyle("body", fontName=regular, fontSize=8.5, leading=11, spaceAfter=3),
        "lead": ParagraphStyle("lead", fontName=regular, fontSize=9.5, leading=12.5, spaceAfter=4),
        "note": ParagraphStyle("note", fontName=italic, fontSize=7.5, leading=9.5, spaceAfter=3,
                               textColor=colors.HexColor("#4a4a52")),
        "flag": ParagraphStyle("flag", fontName=bold, fontSize=8.5, leading=11, spaceAfter=3),
        "cell": ParagraphStyle("cell", fontName=regular, fontSize=7, leading=8.4),
        "cellr": ParagraphStyle("cellr", fontName=regular, fontSize=7, leading=8.4, alignment=TA_RIGHT),
        "head": ParagraphStyle("head", fontName=bold, fontSize=7, leading=8.4),
        "headr": ParagraphStyle("headr", fontName=bold, fontSize=7, leading=8.4, alignment=TA_RIGHT),
    }


def _story(doc_parts: Sequence[Part], styles: dict[Any, ParagraphStyle], width: float) -> list[Any]:
    """The flowables of ``doc_parts``: a heading kept with what follows it, a chart scaled to the
    text's ``width``, a table with its flagged rows shaded."""
    story: list[Any] = []
    pending: list[Any] = []  # a heading is kept with what follows it
    for part in doc_parts:
        if isinstance(part, Heading):
            if part.level <= 2 and story:
                story.append(CondPageBreak(60 * mm))
            pending.append(Paragraph(escape(part.text), styles[part.level]))
            continue
        if isinstance(part, Text):
            flow: Any = Paragraph(escape(part.text), styles[part.style])
        elif isinstance(part, Chart):
            drawing = charts.for_pdf(part.drawing)
            flow = _scaled(drawing, min(1.0, width / drawing.width))
        else:
            flow = _table_flow(part, styles, width)
        if pending:
            story.append(KeepTogether([*pending, flow]))
            pending = []
        else:
            story.append(flow)
        story.append(Spacer(1, 2))
    story += pending
    return story


def _table_flow(part: Table, styles: dict[Any, ParagraphStyle], width: float) -> RLTable:
    cells = [[Paragraph(escape(c), styles["headr" if i in part.numeric else "head"])
              for i, c in enumerate(part.columns)]]
    for row in part.rows:
        cells.append([Paragraph(escape(v), styles["cellr" if i in part.numeric else "cell"])
                      for i, v in enumerate(row)])
    table = RLTable(cells, repeatRows=1, colWidths=_widths(part, width))
    style = [("LINEBELOW", (0, 0), (-1, 0), 0.6, colors.HexColor("#1d1d1f")),
             ("LINEBELOW", (0, 1), (-1, -1), 0.25, colors.HexColor("#d0d0d6")),
             ("VALIGN", (0, 0), (-1, -1), "TOP"), ("TOPPADDING", (0, 0), (-1, -1), 1.5),
             ("BOTTOMPADDING", (0, 0), (-1, -1), 1.5), ("LEFTPADDING", (0, 0), (-1, -1), 2),
             ("RIGHTPADDING", (0, 0), (-1, -1), 2)]
    for i, marked in enumerate(part.flagged):
        if marked:
            style.append(("BACKGROUND", (0, i + 1), (-1, i + 1), colors.HexColor("#fde8c8")))
    table.setStyle(TableStyle(style))
    return table


def _scaled(drawing: Drawing, scale: float) -> Drawing:
    out = RLDrawing(drawing.width * scale, drawing.height * scale)
    group = Group(*drawing.contents)
    group.scale(scale, scale)
    out.add(group)
    return out


def _widths(table: Table, width: float) -> list[float]:
    """Column widths: each column's share of the longest texts, the first (names) at least a
    fifth of the page."""
    face = font_name()
    need = []
    for i, head in enumerate(table.columns):
        longest = max([stringWidth(head, face, 7)] + [stringWidth(r[i], face, 7) for r in table.rows if i < len(r)])
        need.append(min(longest + 6, width * 0.45))
    total = sum(need)
    if total <= width:
        return [n + (width - total) / len(need) for n in need]
    return [n * width / total for n in need]
