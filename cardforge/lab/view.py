"""Everything a lab page or report shows for one game, computed once: the versions in the log,
the numbers per version (or the selection pooled), the comparison of two versions with the card
diff between their decks, the trends, and the balance fits of the card data."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from cardforge.lab import stats
from cardforge.lab.balance import Fit, fits
from cardforge.lab.changes import Snapshot, compare
from cardforge.lab.effects import Effect, correct, differences
from cardforge.lab.facts import Deck
from cardforge.lab.versions import ALL, Selection, label, version_key

if TYPE_CHECKING:
    from cardforge.data.loading import GameData
    from cardforge.data.models import CardBase
    from cardforge.games.base import Game


@dataclass
class VersionRow:
    version: str | None
    decks: list[tuple[str, str, int]]  # (fingerprint, source, plays)
    plays: int
    first_day: str
    last_day: str
    selected: bool

    @property
    def label(self) -> str:
        return label(self.version)


@dataclass
class LabView:
    game: str
    title: str
    info: stats.GameInfo
    selection: Selection
    pooled: bool
    min_count: int
    current: Deck
    versions: list[VersionRow]  # every version of the game in the log, oldest first
    groups: list[stats.Group]  # what the selection shows: a group per version (newest first), or one
    comparison: stats.Comparison | None
    trends: list[stats.Trend]
    fits: list[Fit] = field(default_factory=list)
    plays_in_log: int = 0
    differences: list[Effect] = field(default_factory=list)  # the compared versions' effects, new − old
    tested: int = 0  # effects tested (and corrected together, Benjamini–Hochberg)

    def effects(self) -> list[Effect]:
        """Every effect the view shows: each group's, then the differences between versions."""
        return [e for g in self.groups for e in g.fitted.effects] + self.differences

    @property
    def selected_plays(self) -> int:
        return sum(v.plays for v in self.versions if v.selected)


def _deck_of(version: str | None, plays: Sequence[stats.Play], decks: dict[str, Deck], current: Deck
             ) -> tuple[Deck | None, str]:
    """The deck a version was played with (its most played fingerprint) and a note when it had
    several or none stored."""
    counts: dict[str, int] = {}
    for p in plays:
        if p.deck_fp and p.deck_fp in decks:
            counts[p.deck_fp] = counts.get(p.deck_fp, 0) + 1
    if counts:
        best = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[0][0]
        note = f"{label(version)} was played with {len(counts)} decks: its most played, {best}, is compared" \
            if len(counts) > 1 else ""
        return decks[best], note
    if version is not None and version == current.version:
        return current, f"{label(version)}'s plays recorded no cards: the working data ({current.fingerprint}) " \
                        "stands for them"
    return None, f"{label(version)}'s plays recorded no cards (imported with their version only)"


def build_view(game: Game, data: GameData[CardBase], plays: Sequence[stats.Play], decks: dict[str, Deck],
               selection: Selection = ALL, pool: bool = False, versus: tuple[str, str] | None = None,
               min_count: int = stats.MIN_COUNT) -> LabView:
    """The lab of ``game`` from its plays and stored decks (``PlayLog.lab_plays``, ``.decks``).
    ``versus``: the two versions to compare (default: the last two of the selection)."""
    info = stats.game_info(game, data)
    current = info.current
    plays = [_with_facts(game, data, p) for p in plays]
    per_version = stats.by_version(plays)
    versions = _version_rows(per_version, selection)
    chosen = [(v, ps) for v, ps in per_version.items() if v in selection]
    groups_old_first = [(v, stats.group_stats(label(v), ps, info, decks, min_count)) for v, ps in chosen]
    if pool and len(chosen) > 1:
        names = [label(v) for v, _ in chosen]
        shown = [stats.group_stats(f"{names[0]} – {names[-1]} pooled", [p for _, ps in chosen for p in ps], info,
                                   decks, min_count)]
    else:
        shown = [g for _, g in reversed(groups_old_first)]
    comparison = None
    recorded = [(v, g) for v, g in groups_old_first if v is not None]
    pair: tuple[str, str] | None = None
    if versus is not None:
        pair = versus
    elif len(recorded) >= 2:
        pair = (str(recorded[-2][0]), str(recorded[-1][0]))
    if pair is not None:
        by = {v: g for v, g in groups_old_first}
        old_v, new_v = pair
        old_g = by.get(old_v) or stats.group_stats(label(old_v), per_version.get(old_v, []), info, decks, min_count)
        new_g = by.get(new_v) or stats.group_stats(label(new_v), per_version.get(new_v, []), info, decks, min_count)
        changes, note = _changes(game, per_version, decks, current, old_v, new_v)
        comparison = stats.compare(old_g, new_g, changes, note, old_v, new_v)
    trends = stats.trends(recorded, info) if len(recorded) >= 2 else []
    view = LabView(game.id, game.title, info, selection, pool and len(chosen) > 1, min_count, current,
                   sorted(versions, key=lambda r: version_key(r.version)), shown, comparison, trends,
                   fits(game, data), len(plays))
    if comparison is not None:
        view.differences = differences(comparison.old.fitted, comparison.new.fitted)
    view.tested = correct(view.effects())
    return view


def _version_rows(per_version: dict[str | None, list[stats.Play]], selection: Selection) -> list[VersionRow]:
    versions = []
    for v, ps in per_version.items():
        fps: dict[tuple[str, str], int] = {}
        for p in ps:
            if p.deck_fp:
                fps[(p.deck_fp, p.deck_source or "")] = fps.get((p.deck_fp, p.deck_source or ""), 0) + 1
        days = sorted(p.played_on for p in ps)
        versions.append(VersionRow(v, [(fp, src, n) for (fp, src), n in sorted(fps.items())], len(ps), days[0],
                                   days[-1], v in selection))
    return versions


def _changes(game: Game, per_version: dict[str | None, list[stats.Play]], decks: dict[str, Deck], current: Deck,
             old_v: str, new_v: str) -> tuple[list[stats.CardChange], str]:
    """The cards changed between the decks two versions were played with, and the comparison's note."""
    old_deck, old_note = _deck_of(old_v, per_version.get(old_v, []), decks, current)
    new_deck, new_note = _deck_of(new_v, per_version.get(new_v, []), decks, current)
    changes: list[stats.CardChange] = []
    notes = [n for n in (old_note, new_note) if n]
    if old_deck is not None and new_deck is not None:
        d = compare(game.id, Snapshot(old_deck.label, old_deck.version, old_deck.cards, None),
                    Snapshot(new_deck.label, new_deck.version, new_deck.cards, None))
        for c in d.changed:
            copies = (c["copies"]["old"], c["copies"]["new"]) if "copies" in c else None
            changes.append(stats.CardChange(c["id"], c["name"], "changed",
                                            [(f["field"], f["old"], f["new"]) for f in c["fields"]], copies))
        changes += [stats.CardChange(c["id"], c["name"], "added", []) for c in d.added]
        changes += [stats.CardChange(c["id"], c["name"], "removed", []) for c in d.removed]
        order = {"changed": 0, "added": 1, "removed": 2}
        changes.sort(key=lambda ch: (order[ch.status], stats.sort_name(ch.name), ch.id))
        head = f"the decks compared: {old_deck.label} → {new_deck.label}"
        if old_deck.fingerprint == new_deck.fingerprint:
            head += " (the same cards)"
        notes.insert(0, head)
    return changes, "; ".join(notes)


def _with_facts(game: Game, data: GameData[CardBase], play: stats.Play) -> stats.Play:
    """A play saved before the log recorded facts: its choices and cards read from its final
    state with today's data (never stored; a state that no longer reads leaves them unknown)."""
    from dataclasses import replace

    from cardforge.lab.facts import facts_of_yaml, seats_of

    if not play.state_yaml or any(s.facts is not None for s in play.seats):
        return play
    facts = seats_of(facts_of_yaml(game, data, play.state_yaml, None), len(play.seats))  # in seat order
    if facts is None:
        return play
    return replace(play, seats=[replace(s, facts=f) for s, f in zip(play.seats, facts)])
