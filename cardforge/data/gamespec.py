"""``game.yaml``: what a game *is*, as data.

A game is a folder. Its ``game.yaml`` declares the title, players, language, modes and setup
options (with their labels and command-line flags), score categories and tie-breakers, the
setup counts as a table and the setup checklist as a template, and — under ``deck:`` or in a
``deck.yaml`` beside it — the deck: card size, card files, card kinds with their fields
declared as data, and back designs. Only what a game *does* beyond data is Python (``rules:``).

Every model forbids unknown fields, so a typo is an error located by file, line and field.
"""

from __future__ import annotations

import re
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, Field, ValidationInfo, field_validator, model_validator

from cardforge.data.models import DeckMeta, Model
from cardforge.i18n import language_problem
from cardforge.limits import env_name, limit
from cardforge.paths import name_problem
from cardforge.sheet import Holding

_IDENT = re.compile(r"^[a-z][a-z0-9_]*$")
_FLAG = re.compile(r"^--[a-z][a-z0-9-]*$")
RESERVED_STATE_KEYS = ("name", "mode")
#: option flags the setup command has for every game
RESERVED_FLAGS = ("--players", "--mode", "--seed", "--check", "--json", "--pdf", "--help")


def _check_ident(value: str) -> str:
    if not _IDENT.match(value):
        raise ValueError(f"must be a snake_case id (lowercase letters, digits and '_', starting with a "
                         f"letter, e.g. 'gold_coins'), got {value!r}")
    return value


Ident = Annotated[str, AfterValidator(_check_ident)]


def _check_game_id(value: str) -> str:

    # as games.normalise_game_id makes it: the name of OUT/<game>/ and of every file made of it
    why = name_problem(value.strip().lower().replace("-", "_").replace(" ", "_"), "game id")
    if why is not None:
        raise ValueError(why)
    return value


GameId = Annotated[str, AfterValidator(_check_game_id)]


class Players(Model):
    """``players: {min: 2, max: 4}`` (or ``players: 2-4``, ``players: 1``)."""

    min: int = Field(ge=1, le=99)
    max: int = Field(ge=1, le=99)

    @model_validator(mode="before")
    @classmethod
    def _short(cls, value: Any) -> Any:
        if isinstance(value, int) and not isinstance(value, bool):
            return {"min": value, "max": value}
        if isinstance(value, str):
            m = re.fullmatch(r"\s*(\d+)\s*(?:[-–]\s*(\d+)\s*)?", value)
            if not m:
                raise ValueError(f"expected a number of players ('3'), a range ('2-4') or "
                                 f"{{min: 2, max: 4}}, got {value!r}")
            lo = int(m.group(1))
            return {"min": lo, "max": int(m.group(2) or lo)}
        return value

    @model_validator(mode="after")
    def _order(self) -> Players:
        if self.min > self.max:
            raise ValueError(f"min ({self.min}) is more than max ({self.max})")
        return self


class ModeSpec(Model):
    label: str | None = None  # as players call it, in the game's language
    help: str | None = None  # one line, English, for --help and `cardforge games`


class OptionSpec(Model):
    """A setup option: a ``cardforge setup`` flag whose value reaches the game's setup hooks.

    ``type: flag`` (on/off), ``choice`` (one of ``choices``) or ``int`` (``min``–``max``)."""

    type: Literal["flag", "choice", "int"] = "flag"
    flag: str | None = None  # default: --<id with dashes>
    label: str | None = None  # in the game's language, for printed sheets
    help: str = ""  # English, for --help
    choices: list[int | str] | None = None
    min: int | None = None
    max: int | None = None
    default: int | str | bool | None = None  # the value when the flag is not given
    modes: list[str] | None = None  # only in these modes (default: every mode)

    @model_validator(mode="after")
    def _consistent(self) -> OptionSpec:
        if self.flag is not None and not _FLAG.match(self.flag):
            raise ValueError(f"flag must look like '--first-game', got {self.flag!r}")
        if self.type == "choice" and not self.choices:
            raise ValueError("a choice option needs choices: [...]")
        if self.type != "choice" and self.choices is not None:
            raise ValueError(f"choices: only for type: choice (this option is type: {self.type})")
        return self

    def default_value(self) -> Any:
        if self.default is not None:
            return self.default
        if self.type == "flag":
            return False
        if self.type == "choice":
            return 0 if all(isinstance(c, int) for c in self.choices or ()) else None
        return self.min if self.min is not None else 0


_FIELD = re.compile(r"^[a-z_][a-z0-9_]*$")
_PATH = re.compile(r"^[a-z_][a-z0-9_]*(\.[a-z_][a-z0-9_]*)*$")


def _check_field(value: str) -> str:
    """A field name, folded by the one rule for names (``Points`` → ``points``,
    ``Coût total`` → ``cout_total``: :mod:`cardforge.data.names`)."""
    from cardforge.data.names import fold

    folded = fold(value)
    if not _FIELD.match(folded):
        raise ValueError(f"must be a field name (letters, digits and '_'; case, accents and spaces are "
                         f"folded: 'Coût total' is cout_total), got {value!r}")
    return folded


def _check_path(value: str) -> str:
    from cardforge.data.names import fold

    folded = ".".join(fold(part) for part in value.split("."))
    if not _PATH.match(folded):
        raise ValueError(f"must be a field name, or a dotted path such as 'veins.coal', got {value!r}")
    return folded


FieldName = Annotated[str, AfterValidator(_check_field)]
FieldPath = Annotated[str, AfterValidator(_check_path)]
#: a card field's value in a filter: a value, or a list of values (any of them)
FilterValue = str | int | bool | list[str | int | bool]
Filter = dict[FieldName, FilterValue]
Points = Annotated[int, Field(ge=-1_000_000, le=1_000_000)]

#: what a score rule measures: exactly one of these per rule
MEASURES = ("sum", "count", "value", "sets", "groups", "most", "least", "min", "max")
TIES = ("share", "split", "none", "all")


class ScoreRule(Model):
    """A category computed from what each player holds (declared scoring, docs/scoring.md "Scoring
    rules as data"). One measure per rule, then how it scores:

    - ``sum: FIELD`` — the card field's values added up over the cards held;
    - ``count: {FIELD: VALUE, …}`` — how many cards held match (``count: {}``: every card);
    - ``value: FIELD`` — a whole-number field of the player (``gold``, ``veins.coal``);
    - ``sets: FIELD`` — cards of different values make a set (as many sets as possible, each as
      large as possible); each set scores ``table[its size]``;
    - ``groups: FIELD`` — the cards of each value make a group; each scores ``table[its size]``;
    - ``most: RULE`` / ``least: RULE`` — the players with the most (fewest) of the inner rule's
      amount score ``points`` (a list: 1st, 2nd… place); ``ties``: how tied players score;
    - ``min: [RULE, …]`` / ``max: [RULE, …]`` — the smallest (largest) of the rules' amounts.

    ``of``: which of the player's card fields are read (default: every one); ``where``: only the
    cards matching. ``per: M`` and ``points: N`` — N points per M (rounded down); ``at_least`` /
    ``at_most`` bound the category's value. A table's sizes above its largest score as it."""

    sum: FieldName | None = None
    count: Filter | None = None
    value: FieldPath | None = None
    sets: FieldName | None = None
    groups: FieldName | None = None
    most: ScoreRule | None = None
    least: ScoreRule | None = None
    min: Annotated[list[ScoreRule], Field(min_length=1, max_length=20)] | None = None
    max: Annotated[list[ScoreRule], Field(min_length=1, max_length=20)] | None = None
    of: FieldName | Annotated[list[FieldName], Field(min_length=1, max_length=20)] | None = None
    where: Filter | None = None
    per: int | None = Field(None, ge=1, le=1_000_000)
    points: Points | Annotated[list[Points], Field(min_length=1, max_length=20)] | None = None
    table: dict[Annotated[int, Field(ge=1, le=1000)], Points] | None = None
    ties: Literal["share", "split", "none", "all"] | None = None
    at_least: Points | None = None
    at_most: Points | None = None

    @property
    def measure(self) -> str:
        """The one measure the rule gives (checked)."""
        return next(m for m in MEASURES if getattr(self, m) is not None)

    @property
    def sources(self) -> list[str] | None:
        """The player's fields named by ``of`` (None: every card field)."""
        if self.of is None:
            return None
        return [self.of] if isinstance(self.of, str) else list(self.of)

    @property
    def awards(self) -> list[int]:
        """A majority's points by place (1st, 2nd…)."""
        if self.points is None:
            return []
        return [self.points] if isinstance(self.points, int) else list(self.points)

    @model_validator(mode="after")
    def _consistent(self) -> ScoreRule:
        given = [m for m in MEASURES if getattr(self, m) is not None]
        if not given:
            raise ValueError(f"a score rule measures one thing: give one of {', '.join(MEASURES)}")
        if len(given) > 1:
            raise ValueError(f"one measure per rule, got {' and '.join(given)} (min: or max: combine rules)")
        measure = given[0]
        on_cards = measure in ("sum", "count", "sets", "groups")
        majority = measure in ("most", "least")
        if not on_cards and self.of is not None:
            raise ValueError(f"of: is for sum, count, sets and groups (the cards read), not {measure}")
        if self.where is not None and measure not in ("sum", "sets", "groups"):
            why = "count: is the filter itself" if measure == "count" else "it reads no cards"
            raise ValueError(f"where: is for sum, sets and groups; not {measure} ({why})")
        if measure in ("sets", "groups"):
            if not self.table:
                raise ValueError(f"{measure}: needs table: {{size: points, …}} (e.g. {{1: 1, 2: 3, 3: 6}})")
        elif self.table is not None:
            raise ValueError(f"table: is for sets and groups, not {measure}")
        if majority:
            if self.points is None:
                raise ValueError(f"{measure}: needs points: (one number, or a list by place: [6, 3])")
            if self.per is not None:
                raise ValueError(f"per: is not for {measure} (points: are by place)")
        else:
            if isinstance(self.points, list):
                raise ValueError(f"points: a list (by place) is for most and least, not {measure}")
            if self.ties is not None:
                raise ValueError(f"ties: is for most and least, not {measure}")
            if measure in ("sets", "groups") and (self.per is not None or self.points is not None):
                raise ValueError(f"{measure}: scores by its table; per: and points: are not for it")
        if self.at_least is not None and self.at_most is not None and self.at_least > self.at_most:
            raise ValueError(f"at_least ({self.at_least}) is more than at_most ({self.at_most})")
        return self


def expanded_size(value: Any) -> int:
    """The values of ``value`` counted as often as YAML aliases repeat them: each mapping, list
    and single value once per place it appears (a mapping's keys not counted). An alias is the
    same Python object as its anchor (``data/yamlio.py``), so each distinct list or mapping is
    measured once and its size reused: the time is the file's size, not the expansion's."""
    sizes: dict[int, int] = {}
    stack: list[tuple[Any, bool]] = [(value, False)]
    while stack:
        node, children_done = stack.pop()
        if id(node) in sizes:
            continue
        items = list(node.values()) if isinstance(node, dict) else node
        if children_done:
            sizes[id(node)] = 1 + sum(sizes[id(c)] if isinstance(c, dict | list) else 1 for c in items)
            continue
        stack.append((node, True))
        stack.extend((c, False) for c in items if isinstance(c, dict | list) and id(c) not in sizes)
    return sizes[id(value)] if isinstance(value, dict | list) else 1


class CategorySpec(Model):
    """A score-pad row: declared once, printed on the pad and emitted by the scoring."""

    id: Ident
    label: str  # in the game's language, as printed on the pad
    label_en: str | None = None  # for the CLI (default: label)
    icon: str | None = None  # an icon token drawn before the label on the pad
    optional: bool = False  # data-only scoring: a missing value counts 0 (else it is required)
    #: computed from what each player holds (declared scoring) instead of given per player
    score: ScoreRule | None = None

    @field_validator("score", mode="before")
    @classmethod
    def _bounded(cls, value: Any, info: ValidationInfo) -> Any:
        """A rule within ``rule_nodes`` (aliases expanded), measured before any of it is built:
        scoring and explaining it take time in proportion (issue 38)."""
        if value is None:
            return value
        size, most = expanded_size(value), limit("rule_nodes")
        if size > most:
            name = info.data.get("id")
            who = f"category '{name}'" if isinstance(name, str) else "this category"
            raise ValueError(f"{who}: rule has {size:,} nodes after expanding aliases, at most {most:,} allowed "
                             f"(set {env_name('rule_nodes')} to allow more)")
        return value

    @model_validator(mode="after")
    def _computed(self) -> CategorySpec:
        if self.score is not None and self.optional:
            raise ValueError("optional: is for a value given on the pad; this category is computed (score:)")
        return self


class TieBreakerSpec(Model):
    """Players tied on total compare this value (``order: high`` — more is better — or ``low``)."""

    id: Ident
    label: str  # as printed under the pad's total, in the game's language
    label_en: str | None = None
    order: Literal["high", "low"] = "high"
    row: str | None = None  # the score table's row for its values, in the game's language ("Pièces")
    row_en: str | None = None  # the same in English ("Coins")


class SetupSpec(Model):
    """Data-only setup: counts as a table by player count, the checklist as templates.

    ``counts``: ``{all: {...}, 2: {...}, 3: {...}}`` — the ``all`` row applies to every player
    count, a row for a number of players adds to it or overrides it. Checklist lines may use
    ``{{ players }}``, ``{{ mode }}``, ``{{ counts.NAME }}`` and ``{{ options.NAME }}``.
    ``hand``: deal that many cards to each player from the deck's printed cards (of ``kinds``)."""

    counts: dict[str | int, dict[str, Any]] = Field(default_factory=dict)
    checklist: list[str] = Field(default_factory=list)
    hand: int | str | None = None  # a number, or the name of a count
    hand_kinds: list[str] | None = None
    first_player: bool = True  # pick a random first player


def _printable_language(value: str) -> str:
    problem = language_problem(value)
    if problem is not None:
        raise ValueError(f"{problem}; a language is added as a message catalog (DEVELOPING.md, 'Languages')")
    return value


#: a choice's value: a word, a number or yes/no (a clan's id, a faction, whether a player was king)
ChoiceValue = Annotated[str, Field(min_length=1, max_length=80)] | int | bool


class ChoiceSpec(Model):
    """A choice each player makes that plays are compared by (``cardforge report``, the lab
    page: the win rate of each value) — a clan, a faction, a school, a role. ``field``: the
    final state's player field that holds it (default: the choice's id; a dotted path into a
    nested model). A data-only game lists the ``values`` a player may choose: its final state
    then has that field (optional), and its web sheet a choice for it. A game with rules names
    a field of its own final-state model (and its values come from there: a section's entries,
    a ``Literal``, yes/no)."""

    label: str | None = Field(None, min_length=1, max_length=80)  # as shown (default: the id)
    field: FieldPath | None = None
    values: Annotated[list[ChoiceValue], Field(min_length=1, max_length=200)] | None = None

    @model_validator(mode="after")
    def _distinct(self) -> ChoiceSpec:
        if self.values is not None:
            seen = [str(v) for v in self.values]
            dupes = sorted({v for v in seen if seen.count(v) > 1})
            if dupes:
                raise ValueError(f"values: each once, repeated: {', '.join(dupes)}")
        return self


#: a cost or a value: one card field, several added up, or fields with weights
#: (``{cost.red: 1, cost.gold: 2}``)
Measure = FieldPath | Annotated[list[FieldPath], Field(min_length=1, max_length=20)] | \
    Annotated[dict[FieldPath, Annotated[float, Field(ge=-1000, le=1000)]], Field(min_length=1, max_length=20)]


class BalanceSpec(Model):
    """``cardforge balance``: the cards of ``kinds`` compared by what they cost and what they
    are worth, one least-squares line of ``value`` against ``cost`` per ``group`` (a card
    field: level, colour…; none: one line for them all); the cards far off their group's line
    are flagged. ``flag``: how many of the group's typical residuals away a card must be
    (its studentised residual; docs/internals/lab.md)."""

    label: str | None = Field(None, min_length=1, max_length=80)
    kinds: Annotated[list[str], Field(min_length=1, max_length=50)] | None = None  # default: every card
    cost: Measure
    value: Measure
    group: FieldPath | None = None
    flag: float = Field(3.0, gt=0, le=100)

    def fields(self, which: str) -> dict[str, float]:
        """``cost`` or ``value`` as {field path: weight}."""
        measure = self.cost if which == "cost" else self.value
        if isinstance(measure, str):
            return {measure: 1.0}
        if isinstance(measure, list):
            return dict.fromkeys(measure, 1.0)
        return dict(measure)


class GameSpec(Model):
    """The whole ``game.yaml``."""

    id: GameId | None = None  # default: the folder's name
    title: str = Field(min_length=1)
    #: what cards, pads and aids print in: cardforge's words come from this language's catalog
    language: Annotated[str, AfterValidator(_printable_language)] = "fr"
    players: Players
    status: Literal["prototype", "published"] = "prototype"
    prints: str = ""  # what cardforge prints for it, one English line
    #: Python rule hooks: a module path (``mypackage.rules``) or a file or package in
    #: the folder (``rules.py``, ``rules/``). None: the game is data only.
    rules: str | None = None
    modes: dict[str, ModeSpec] = Field(default_factory=lambda: {"standard": ModeSpec()})
    default_mode: str | None = None
    options: dict[Ident, OptionSpec] = Field(default_factory=dict)
    #: what each player holds at the end (data-only games): fields of the final-state file, the
    #: web sheet's inputs (card pickers, counters, numbers) and what declared scoring reads
    holdings: dict[Ident, Holding] = Field(default_factory=dict)
    categories: list[CategorySpec] = Field(min_length=1)
    tie_breakers: list[TieBreakerSpec] = Field(default_factory=list)
    setup: SetupSpec | None = None
    #: the deck (deck.yaml's fields); or a deck.yaml file beside game.yaml
    deck: DeckMeta | None = None
    #: choices players make that plays are compared by (the playtest lab: clan, faction…)
    choices: dict[Ident, ChoiceSpec] = Field(default_factory=dict)
    #: cost against value of the cards (``cardforge balance``), by a name of the designer's
    balance: dict[Ident, BalanceSpec] = Field(default_factory=dict)

    @model_validator(mode="before")
    @classmethod
    def _deck_title(cls, value: Any) -> Any:
        """An inline deck is titled like the game unless it says otherwise."""
        if isinstance(value, dict) and isinstance(value.get("deck"), dict) and "title" not in value["deck"]:
            value = {**value, "deck": {"title": value.get("title"), **value["deck"]}}
        return value

    @model_validator(mode="after")
    def _consistent(self) -> GameSpec:
        if self.default_mode is not None and self.default_mode not in self.modes:
            raise ValueError(f"default_mode '{self.default_mode}' is not one of the modes "
                             f"({', '.join(self.modes)})")
        ids = [c.id for c in self.categories]
        dupes = sorted({i for i in ids if ids.count(i) > 1})
        if dupes:
            raise ValueError(f"category ids must be unique, repeated: {', '.join(dupes)}")
        # a tie-breaker may share a category's id: it then compares that category's value
        for key in (*ids, *(t.id for t in self.tie_breakers)):
            if key in RESERVED_STATE_KEYS:
                raise ValueError(f"'{key}' cannot be a category or tie-breaker id (reserved)")
        for key in self.holdings:  # a tie-breaker may share a holding's id too: it compares it
            if key in RESERVED_STATE_KEYS:
                raise ValueError(f"'{key}' cannot be a holding id (reserved)")
            if key in ids:
                raise ValueError(f"'{key}' is both a holding and a category: a category is given or "
                                 "computed, a holding is what the rules read; give them different ids")
        for key, choice in self.choices.items():
            if key in ids:
                raise ValueError(f"'{key}' is both a choice and a category: give them different ids")
            name = choice.field or key
            if name in RESERVED_STATE_KEYS:
                raise ValueError(f"choice '{key}': '{name}' cannot be a choice's field (reserved)")
            if choice.values is not None and (name in ids or name in self.holdings):
                raise ValueError(f"choice '{key}': '{name}' is already a {'category' if name in ids else 'holding'}; "
                                 "a choice with values: is a field of its own")
            if choice.values is not None and "." in name:
                raise ValueError(f"choice '{key}': a choice with values: is a field of the player, "
                                 f"not a path ({name!r})")
        flags = [o.flag or "--" + oid.replace("_", "-") for oid, o in self.options.items()]
        for flag in flags:
            if flag in RESERVED_FLAGS:
                raise ValueError(f"option flag {flag} is taken by `cardforge setup` itself")
        for oid, o in self.options.items():
            unknown = [m for m in o.modes or () if m not in self.modes]
            if unknown:
                raise ValueError(f"option '{oid}': unknown mode(s) {', '.join(unknown)} "
                                 f"(modes: {', '.join(self.modes)})")
        return self
