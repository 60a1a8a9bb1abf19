"""The stats (``/stats``: every game at once, or one game) and their charts — ReportLab
drawings (``render/reports/charts.py``) shown as inline SVG, the same drawings a PDF would hold. The
numbers come from ``playlog/stats.py``; what each is, exactly, is written there.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from cardforge.playlog import stats
from cardforge.web.site import chart_svgs, site_of

if TYPE_CHECKING:
    from cardforge.render.reports.charts import Drawing

CHART_ROWS = 12  # players a bar chart shows (those with most plays): readable on a phone


async def stats_page(request: Request) -> Response:
    site = site_of(request)
    store = site.store
    game = request.query_params.get("game") or None
    roster = site.roster()
    games = site.games_filter()
    if game:
        if game not in dict(games) and not site.served(game):
            raise HTTPException(404, f"no game '{game[:100]}' in the log")
        title = site.title_of(game, dict(games).get(game, ""))
        g = stats.game_stats(game, title, store.records(game), roster, site.labels_of(game))
        return site.page(request, "stats.html", game=game, title=title, g=g, games=games, stats=stats,
                         charts=chart_svgs(lambda w: game_drawings(g, w)), served=site.served(game))
    o = stats.overview(store.records(), roster)
    return site.page(request, "stats.html", game=None, o=o, games=games, stats=stats,
                     charts=chart_svgs(lambda w: overview_drawings(o, w)),
                     titles={g: site.title_of(g, t) for g, t, _ in o.games})


# --- charts of the stats (ReportLab drawings: the same for a PDF) --------------------------------

def game_drawings(g: stats.GameStats, width: float) -> list[tuple[str, str, str, Drawing]]:
    from cardforge.render.reports.charts import Bar, Series, bar_chart, histogram, line_chart, stacked_bars

    out: list[tuple[str, str, str, Drawing]] = []
    rated = [p for p in g.players if p.plays]
    if rated:
        bars = [Bar(p.name, 100 * (p.rate.value or 0), p.rate.text(), p.colour,
                    tuple(100 * v for v in p.rate.interval() or (0, 0)))  # type: ignore[arg-type]
                for p in rated[:CHART_ROWS]]
        more = f" ({CHART_ROWS} players with most plays)" if len(rated) > CHART_ROWS else ""
        out.append(("win-rate", "Win rate", "Each player's wins out of their plays (2 players or more); the "
                    "whisker: where the rate plausibly lies (Wilson 95 %).",
                    bar_chart("Win rate", bars, max_value=100, unit=" %", width=width,
                              note="wins ÷ plays; the whisker: 95 % interval" + more)))
    if g.totals:
        out.append(("totals", "Scores", "How many final scores fell in each range.",
                    histogram("Scores", g.bins, x_label="final score (every player of every play)",
                              width=width)))
    if g.categories and len(g.categories) > 1:
        rows = [(p.name, [p.category_average(c) or 0 for c, _, _ in g.categories])
                for p in g.players if p.totals][:CHART_ROWS]
        out.append(("categories", "Average score by category", "Each player's average final score, cut into "
                    "the score pad's categories.",
                    stacked_bars("Average score by category", rows, [label for _, label, _ in g.categories],
                                 width=width)))
    if g.positions:
        bars = [Bar(_ordinal(p.position) + " player", 100 * (p.rate.value or 0), p.rate.text(),
                    interval=tuple(100 * v for v in p.rate.interval() or (0, 0)))  # type: ignore[arg-type]
                for p in g.positions]
        out.append(("positions", "Wins by turn order", "The win rate of the first player, the second… over "
                    "the plays whose first player was recorded.",
                    bar_chart("Wins by turn order", bars, max_value=100, unit=" %", width=width,
                              note=f"{g.plays_with_first} play{'s' if g.plays_with_first != 1 else ''} "
                                   "with their first player recorded")))
    if len(g.dates) > 1 and g.trend:
        series = [Series(name, [(float(i), t) for i, t in points]) for name, points in g.trend]
        labels = [(0.0, g.dates[0]), (float(len(g.dates) - 1), g.dates[-1])]
        note = f"the last {len(g.dates)} plays" if g.plays > len(g.dates) else ""
        out.append(("trend", "Scores over time", "Each player's final score, play after play (the players "
                    "with most plays; the latest plays).", line_chart("Scores over time", series, x_labels=labels,
                                                                       note=note, width=width)))
    return out


def overview_drawings(o: stats.Overview, width: float) -> list[tuple[str, str, str, Drawing]]:
    from cardforge.render.reports.charts import Bar, bar_chart

    out: list[tuple[str, str, str, Drawing]] = []
    rated = [p for p in o.players if p.plays][:CHART_ROWS]
    if rated:
        bars = [Bar(p.name, 100 * (p.beaten_average or 0), f"{stats.percent(p.beaten_average)} · {p.plays} plays",
                    p.colour) for p in rated]
        out.append(("beaten", "Opponents beaten", "In every game at once: the share of the other players each "
                    "player finished ahead of (a tie counts half), on average over their plays.",
                    bar_chart("Opponents beaten", bars, max_value=100, unit=" %", width=width,
                              note="all games: share of the others ranked behind")))
    if o.months:
        bars = [Bar(month, count, str(count)) for month, count in o.months[-12:]]
        out.append(("months", "Plays per month", "How many plays were saved each month (the last 12 with plays).",
                    bar_chart("Plays per month", bars, width=width)))
    return out


def player_drawings(p: stats.PlayerGames, width: float) -> list[tuple[str, str, str, Drawing]]:
    from cardforge.render.reports.charts import Bar, Series, bar_chart, line_chart

    out: list[tuple[str, str, str, Drawing]] = []
    rated = [(title, line) for _, title, line in p.by_game if line.plays]
    if rated:
        bars = [Bar(title, 100 * (line.rate.value or 0), line.rate.text(), p.line.colour,
                    tuple(100 * v for v in line.rate.interval() or (0, 0)))  # type: ignore[arg-type]
                for title, line in rated]
        out.append(("by-game", "Win rate by game", "Wins out of plays in each game (2 players or more).",
                    bar_chart("Win rate by game", bars, max_value=100, unit=" %", width=width)))
    if len(p.beaten_over_time) > 1:
        points = [(float(i), 100 * share) for i, share, _ in p.beaten_over_time]
        labels = [(points[0][0], p.beaten_over_time[0][2]), (points[-1][0], p.beaten_over_time[-1][2])]
        out.append(("beaten", "Opponents beaten, play after play", "The share of the other players finished "
                    "behind, in each play, every game (a scale shared by all games).",
                    line_chart("Opponents beaten, play after play", [Series(p.line.name, points, p.line.colour)],
                               x_labels=labels, y_unit=" %", y_range=(0, 100), width=width)))
    return out


def _ordinal(n: int) -> str:
    suffix = {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th") if n % 100 not in (11, 12, 13) else "th"
    return f"{n}{suffix}"


ROUTES = [Route("/stats", stats_page)]
