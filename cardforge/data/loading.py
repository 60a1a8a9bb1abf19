"""Load a game's data folder: deck.yaml, its card files and the game's other sections.

``check_game_data`` never raises on bad data: it returns the problems (all of them).
``load_game_data`` raises :class:`~cardforge.errors.DataError` carrying them.

What loading needs from the game is :class:`GameSource` (``data/gamedata.py``, with
:class:`GameData`, re-exported here): the data layer never
imports :mod:`cardforge.games` (not even for types — ``tests/test_layers.py``); a
:class:`~cardforge.games.base.Game` is a ``GameSource`` and is passed in.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from cardforge.assets import icon_names
from cardforge.data import cache, incremental
from cardforge.data.editions import gather, plain_texts, resolve, same_kind_gaps, text_fields, translations
from cardforge.data.gamedata import C as C
from cardforge.data.gamedata import CardSource as CardSource
from cardforge.data.gamedata import CardT as CardT
from cardforge.data.gamedata import GameData as GameData
from cardforge.data.gamedata import GameSource as GameSource
from cardforge.data.gamedata import Section as Section
from cardforge.data.kinds import field_problems
from cardforge.data.models import CardBase, DeckMeta
from cardforge.data.names import resolve as resolve_name
from cardforge.data.printables import Aid, Board
from cardforge.data.validate import LineOf, deck_problems, format_loc, validate
from cardforge.data.yamlio import REUSE, Loc, LocatedDoc, YamlDoc, read_yaml
from cardforge.errors import DataError
from cardforge.icons import unknown_icon_note, unknown_icons
from cardforge.limits import env_name, limit
from cardforge.paths import folder_entries, name_problem, path_problem
from cardforge.problems import Problem, short_name, short_repr
from cardforge.resources import display_path


def game_dir(game: GameSource, root: Path | None = None) -> Path:
    """Where a game's data files are read: ``root/<id>`` when a data root is given, else the
    game's data folder (its own folder, or ``DIR/<id>`` with ``--data DIR``)."""
    if root is not None:
        return Path(root) / game.id
    return game.data_folder


def check_game_data(game: GameSource, root: Path | None = None,
                    lang: str | None = None) -> tuple[GameData[CardBase] | None, list[Problem]]:
    """Load and validate the edition in ``lang`` (default: the game's language: each
    multilingual text in it, data/editions.py); returns (data or None, problems including
    warnings)."""
    folder = game_dir(game, root)
    edition = Edition(lang or game.language, game.language)
    problems: list[Problem] = []
    if not folder.is_dir():
        return None, [Problem(f"no data folder for {game.id}", file=display_path(folder))]
    # the game's own icons/ are known :name: tokens (cardforge/assets.py; with --data DIR and no
    # game.yaml there, the game's folder's too)
    icons = icon_names(folder, game.folder)
    problems += folder_name_problems(game, folder)
    meta, meta_doc, p = _load_meta(game, folder)
    problems += p
    if meta is not None and meta.back_files:  # back designs as rows of a table (data/backs.py)
        from cardforge.data.backs import load_back_files

        meta, p = load_back_files(folder, meta, meta_doc)
        problems += p
    cards: list[CardBase] = []
    sources: dict[str, CardSource] = {}
    if meta is not None:
        problems += _card_files(game, folder, meta, meta_doc, cards, sources, icons, edition)
    problems += edition.too_many() + edition.gaps()

    problems += deck_problems(meta_doc, meta, cards, folder, any(not p.is_warning for p in problems))
    sections: dict[str, Any] = {}
    for section in (*game.sections, *common_sections(game, folder)):
        value, p = _load_section(folder, section, icons)
        problems += p
        if value is not None:
            sections[section.name] = value
    data = None
    if meta is not None:
        data = GameData(game.id, folder, meta, cards, sources, sections, edition=edition.lang,
                        translations=edition.found)
        if not any(not p.is_warning for p in problems):
            problems += game.check_data(data)
        data.warnings = [p for p in problems if p.is_warning]
    return data, problems


def _card_files(game: GameSource, folder: Path, meta: DeckMeta, meta_doc: LocatedDoc, cards: list[CardBase],
                sources: dict[str, CardSource], icons: frozenset[str], edition: Edition) -> list[Problem]:
    """The cards of every card file deck.yaml names (YAML, CSV or XLSX: data/spreadsheet.py)
    appended to ``cards``, after the kinds' fields and markup are checked; the problems."""
    problems: list[Problem] = []
    models = game.card_models_for(meta)
    for kind, spec in meta.kinds.items():
        for name, message in field_problems(spec):
            problems.append(Problem(message, file=meta_doc.display, field=f"kinds.{kind}.fields.{name}",
                                    line=meta_doc.line_of(("kinds", kind, "fields", name))))
    problems += _markup_problems(meta, meta_doc, models)
    titles = {kind: t for kind in models if (t := meta.title_field_of(kind)) is not None}
    from cardforge.data.spreadsheet import SheetOptions, is_spreadsheet, load_card_file  # on a cache miss only

    for i, name in enumerate(meta.card_file_names):
        entry = meta.card_file(i)
        _, refused = path_problem(folder, name, "card file", file=meta_doc.display,
                                  field=f"card_files[{i}]", line=meta_doc.line_of(("card_files", i)))
        if refused is None and entry.kind is not None and entry.kind not in models:
            refused = Problem(f"unknown card kind {short_repr(entry.kind)} (allowed: {', '.join(models)})",
                              file=meta_doc.display, field=f"card_files[{i}].kind",
                              line=meta_doc.line_of(("card_files", i, "kind")))
        if refused is not None:
            problems.append(refused)
            continue
        if (entry.kind is not None or entry.columns) and not is_spreadsheet(name):
            problems.append(Problem("kind: and columns: are for spreadsheets (.csv, .xlsx); a YAML card "
                                    "file names its fields and kinds itself", file=meta_doc.display,
                                    field=f"card_files[{i}]", line=meta_doc.line_of(("card_files", i))))
            continue
        options = SheetOptions(kind=entry.kind, columns=entry.columns, titles=titles, taken=sources,
                               entry=f"{meta_doc.display} › card_files[{i}]")
        problems += load_card_file(folder / name,
                                   lambda doc: _load_cards(models, doc, meta, cards, sources, icons, titles,
                                                           edition),
                                   models=models, sources=sources, options=options,
                                   require_provenance=meta.require_provenance, inside=folder)
    return problems


def _markup_problems(meta: DeckMeta, doc: LocatedDoc, models: dict[str, type[CardBase]]) -> list[Problem]:
    """``markup:`` names fields the cards have (a typo would leave a field printing as written)."""
    problems = []
    every = sorted({f for m in models.values() for f in m.model_fields})
    for i, name in enumerate(meta.markup):
        if not any(name in m.model_fields for m in models.values()):
            problems.append(Problem(f"no card kind has the field {short_repr(name)} (fields: {', '.join(every)})",
                                    file=doc.display, field=f"markup[{i}]", line=doc.line_of(("markup", i))))
    for kind, spec in meta.kinds.items():
        model = models.get(kind)
        for i, name in enumerate(spec.markup):
            if model is not None and name not in model.model_fields:
                problems.append(Problem(f"the kind has no field {short_repr(name)} (fields: "
                                        f"{', '.join(model.model_fields)})", file=doc.display,
                                        field=f"kinds.{kind}.markup[{i}]",
                                        line=doc.line_of(("kinds", kind, "markup", i))))
    return problems


def folder_name_problems(game: GameSource, folder: Path) -> list[Problem]:
    """Names of the game folder that become file names, checked (issue 31: names are never
    paths): the game's id (``OUT/<game>/``) and its print-on-demand profiles' names
    (``pod-<profile>/``); and every profile file obeys the folder's rule."""
    problems: list[Problem] = []
    why = name_problem(game.id, "game id")
    if why is not None:
        spec_file = display_path(game.folder / "game.yaml")
        origin = "" if game.id_declared else " (its folder's name: set id: in game.yaml to choose another)"
        problems.append(Problem(f"the game's id{origin} {why}", file=spec_file, field="id"))
    profiles, refused = folder_entries(folder, POD_PROFILES, (".yaml",), "print-on-demand profile")
    problems += refused
    for path in profiles:
        why = name_problem(path.stem, "profile")
        if why is not None:
            problems.append(Problem(f"the profile's name (its file's name) {why}", file=display_path(path)))
    return problems


#: the game folder's print-on-demand profiles (read by ``cardforge/render/exports/pod.py``)
POD_PROFILES = "pod_profiles"


def _load_meta(game: GameSource, folder: Path) -> tuple[DeckMeta | None, LocatedDoc, list[Problem]]:
    """The deck: ``game.yaml``'s ``deck:`` or a ``deck.yaml`` beside it (not both)."""
    deck_file = folder / "deck.yaml"
    inline = game.inline_deck if (folder / "game.yaml").is_file() or folder == game.folder else None
    if inline is not None:
        doc = read_yaml(folder / "game.yaml", inside=folder)
        if deck_file.exists():
            return None, doc, [Problem("the deck is given twice: in game.yaml (deck:) and in deck.yaml; keep one",
                                       file=display_path(deck_file))]
        return inline, _Shifted(doc, ("deck",)), []
    if not deck_file.exists():
        doc = YamlDoc(deck_file, display_path(deck_file), "", None)
        return None, doc, [Problem("no deck: give the deck in game.yaml (deck:) or in a deck.yaml",
                                   file=display_path(folder / "game.yaml") if (folder / "game.yaml").exists()
                                   else display_path(deck_file))]
    doc = read_yaml(deck_file, inside=folder)
    problems = list(doc.problems)
    meta = None
    if doc.data is not None:
        meta, p = validate(DeckMeta, doc.data, file=doc.display, line_of=doc.line_of)
        problems += p
    return meta, doc, problems


class _Shifted:
    """A YamlDoc seen from one of its keys: ``line_of(("kinds", "x"))`` looks up ``deck.kinds.x``."""

    def __init__(self, doc: YamlDoc, prefix: Loc) -> None:
        self.doc, self.prefix, self.display = doc, prefix, doc.display
        self.problems = doc.problems
        data = doc.data
        for key in prefix:
            data = data.get(key) if isinstance(data, dict) else None
        self.data = data

    def line_of(self, loc: Loc) -> int | None:
        return self.doc.line_of(self.prefix + tuple(loc))


def load_game_data(game: GameSource, root: Path | None = None, lang: str | None = None) -> GameData[CardBase]:
    """Validated data of the edition in ``lang`` (default: the game's language), from the
    cache when the files and code are unchanged (data/cache.py); in a long-lived process's
    :func:`~cardforge.data.incremental.session`, re-reading only what changed since its last load."""
    memo = incremental.session_memo()
    if memo is not None and REUSE.get() is None:
        with memo.active():
            return _load_game_data(game, root, lang)
    return _load_game_data(game, root, lang)


def _load_game_data(game: GameSource, root: Path | None, lang: str | None) -> GameData[CardBase]:
    folder = game_dir(game, root)
    key, data = cache.load(game, folder, lambda: _prepare_models(game, folder), lang or game.language)
    memo = REUSE.get()
    # a long-lived process's first load reads the files even when the cache has them: its
    # memo then knows them, and the first edit re-reads one card, not the whole deck
    if isinstance(data, GameData) and (memo is None or memo.seen(f"{folder}\0{lang or game.language}")):
        return data  # (an entry of another type: a miss)
    data, problems = check_game_data(game, root, lang)
    errors = [p for p in problems if not p.is_warning]
    if errors or data is None:
        raise DataError(f"card data for {game.id} is invalid", problems)
    try:
        dump = memo.card_json if memo is not None else (lambda c: c.model_dump_json())
        data.card_json = {c.id: dump(c) for c in data.cards}
    except Exception:  # a model pydantic cannot serialise: the stamp falls back on its own
        data.card_json = {}
    if memo is not None and memo.defer_cache:  # the studio: written when idle (Memo.flush), not on each save
        memo.later(lambda: cache.store(game, key, data))
    else:
        cache.store(game, key, data)
    return data


def _prepare_models(game: GameSource, folder: Path) -> None:
    """Make the models of the kinds declared in data (a cached entry's cards are theirs)."""
    meta, _, _ = _load_meta(game, folder)
    if meta is not None:
        game.card_models_for(meta)


@dataclass
class Edition:
    """The language a load prints (``lang``), the game's own, and what the cards hold."""

    lang: str
    game_lang: str
    #: card id → its multilingual fields → the languages each is given in
    found: dict[str, dict[str, frozenset[str]]] = field(default_factory=dict)
    #: card id → (its kind, the fields it gives as one text, where it is: file, item, line of)
    cards: dict[str, tuple[str, frozenset[str], str, str, LineOf, Loc]] = field(default_factory=dict)
    #: every language the texts are given in (the game's own first), in the order met
    languages: dict[str, None] = field(default_factory=dict)
    #: the text whose language went past the ``languages`` limit first: (language, file, item,
    #: field, line)
    past_limit: tuple[str, str, str, str, int | None] | None = None

    def __post_init__(self) -> None:
        self.languages.setdefault(self.game_lang, None)

    def met(self, given: dict[str, frozenset[str]], file: str, item: str, line_of: LineOf, loc: Loc) -> None:
        """Note the languages of one card's multilingual texts (:func:`translations`)."""
        for name, have in given.items():
            for code in sorted(have - self.languages.keys()):
                self.languages[code] = None
                if self.past_limit is None and len(self.languages) > limit("languages"):
                    self.past_limit = (code, file, item, name, line_of(loc + (name,)))

    def too_many(self) -> list[Problem]:
        """The game's texts in more languages than the ``languages`` limit: one problem, at the
        first text past it."""
        if self.past_limit is None:
            return []
        code, file, item, name, line = self.past_limit
        most = limit("languages")
        return [Problem(f"the game's texts are in {len(self.languages):,} languages, at most {most:,} allowed "
                        f"(its own included); this text's '{code}' is the first past the limit "
                        f"(set {env_name('languages')} to allow more)", file=file, item=item, field=name, line=line)]

    def gaps(self) -> list[Problem]:
        """Texts of a translated field given as one text: in the game's language only (and a
        warning each when this edition is another language)."""
        kinds = {cid: c[0] for cid, c in self.cards.items()}
        plain = {cid: c[1] for cid, c in self.cards.items()}
        added = same_kind_gaps(self.found, plain, kinds, self.game_lang)
        if self.lang == self.game_lang:
            return []
        out = []
        for card_id, name in added:
            _, _, file, item, line_of, loc = self.cards[card_id]
            out.append(Problem(f"no {self.lang!r} text (other cards of its kind have one): the {self.lang} "
                               f"edition prints it as written", file=file, item=item, field=name,
                               line=line_of(loc + (name,)), severity="warning"))
        return out


@lru_cache(maxsize=256)
def _field_names(model: type[BaseModel]) -> frozenset[str]:
    return frozenset(info.alias or name for name, info in model.model_fields.items())


def _canonical_keys(raw: dict[Any, Any], model: type[BaseModel]) -> dict[Any, Any]:
    """``raw`` with each key that is not a field of ``model`` but names one by the one rule for
    names (``Cost`` for ``cost``: :mod:`cardforge.data.names`) renamed to it, unless the field
    is given too (then the unknown key is reported as such)."""
    fields = _field_names(model)
    if all(k in fields or not isinstance(k, str) for k in raw):
        return raw
    out: dict[Any, Any] = {}
    for key, value in raw.items():
        canonical = resolve_name(key, fields) if isinstance(key, str) and key not in fields else None
        out[canonical if canonical is not None and canonical not in raw else key] = value
    return out


def _load_cards(kinds: dict[str, type[CardBase]], doc: LocatedDoc, meta: DeckMeta, cards: list[CardBase],
                sources: dict[str, CardSource], icons: frozenset[str] = frozenset(),
                titles: dict[str, str] | None = None, edition: Edition | None = None) -> list[Problem]:
    """Validate the cards of one file (a list, or ``{defaults: {...}, cards: [...]}``), each
    multilingual text in ``edition``'s language."""
    data, defaults, prefix, problems = _card_list(doc)
    if data is None:
        return problems
    memo = REUSE.get()
    context = _memo_context(kinds, doc, meta, defaults, icons, titles, edition) if memo is not None else ""
    for index, raw in enumerate(data, start=1):
        loc = prefix + (index - 1,)
        line = doc.line_of(loc)
        if memo is not None and _reused(memo.card(raw, context), doc, index, loc, line, cards, sources, edition,
                                        problems):
            continue
        if not isinstance(raw, dict):
            problems.append(Problem("a card must be a mapping of field: value", file=doc.display,
                                    item=f"card #{index}", line=line))
            continue
        raw_entry, before = raw, len(problems)
        raw = {**defaults, **raw}
        card_id = raw.get("id")
        item = f"card '{short_name(card_id)}' (#{index})" if isinstance(card_id, str) else f"card #{index}"
        kind = raw.get("kind")
        if isinstance(kind, str) and kind not in kinds:  # `Action` for `action`: the one rule for names
            kind = raw["kind"] = resolve_name(kind, kinds) or kind
        model = kinds.get(kind) if isinstance(kind, str) else None
        if model is not None:
            raw = _canonical_keys(raw, model)
        if model is None:
            what = "required field is missing" if kind is None else f"unknown card kind {short_repr(kind)}"
            problems.append(Problem(f"{what} (allowed: {', '.join(kinds)})", file=doc.display,
                                    item=item, field="kind", line=doc.line_of(loc + ("kind",))))
            continue
        _title_as_name(raw, model, (titles or {}).get(kind) if isinstance(kind, str) else None)
        every_language = raw  # icons are checked in every language's text
        if edition is not None:
            raw, every_language = _in_edition(raw, model, edition, doc, item, loc, card_id, kind, problems)
        card, p = validate(model, raw, file=doc.display, item=item, line_of=doc.line_of, loc_prefix=loc)
        problems += sorted(p, key=lambda x: x.line or 0)
        problems += icon_problems(every_language, file=doc.display, item=item, line_of=doc.line_of, loc=loc,
                                  icons=icons)
        if isinstance(card_id, str):
            if card_id in sources:
                first = sources[card_id]
                problems.append(Problem(
                    f"duplicate id '{short_name(card_id)}' (first defined in {first.file}, card #{first.index})",
                    file=doc.display, item=item, field="id", line=doc.line_of(loc + ("id",))))
                continue
            sources[card_id] = CardSource(doc.display, index, line)
        if card is not None:
            mine = _deck_card_problems(card, meta, doc, item, loc)
            if memo is not None and not mine and len(problems) == before and isinstance(card_id, str):
                _keep(memo, raw_entry, context, card, card_id, edition)
            problems += mine
            cards.append(card)
    return problems


def _title_as_name(raw: dict[Any, Any], model: type[CardBase], title: str | None) -> None:
    """The kind's title field fills ``name`` (deck.yaml ``title_field``)."""
    if title is not None and raw.get(title) is not None:
        if title not in model.model_fields:
            raw["name"] = raw.pop(title)
        elif raw.get("name") is None and isinstance(raw[title], (str, int, float)):
            raw["name"] = str(raw[title])


def _keep(memo: Any, raw: Any, context: str, card: CardBase, card_id: str, edition: Edition | None) -> None:
    """A card valid with no problem, for the next load (:func:`_reused`)."""
    given = edition.found.get(card_id) if edition is not None else None
    kept = edition.cards.get(card_id) if edition is not None else None
    memo.keep(raw, context, (card, card_id, given, kept[:2] if kept else None))


def _memo_context(kinds: dict[str, type[CardBase]], doc: LocatedDoc, meta: DeckMeta, defaults: dict[Any, Any],
                  icons: frozenset[str], titles: dict[str, str] | None, edition: Edition | None) -> str:
    """What a card's validation depends on besides its own entry (data/incremental.py)."""
    models = ",".join(f"{k}:{id(m)}" for k, m in kinds.items())
    langs = f"{edition.lang}/{edition.game_lang}" if edition is not None else ""
    return "\x00".join([models, doc.display, meta.model_dump_json(), repr(defaults), repr(sorted(icons)),
                        repr(sorted((titles or {}).items())), langs])


def _reused(found: Any, doc: LocatedDoc, index: int, loc: Loc, line: int | None, cards: list[CardBase],
            sources: dict[str, CardSource], edition: Edition | None, problems: list[Problem]) -> bool:
    """The card the last load validated from this very entry (``found``), added as
    :func:`_load_cards` would add it; False when there is none (validate it)."""
    if found is None:
        return False
    card, card_id, given, kept = found
    if card_id in sources or (edition is not None and kept is None):
        return False  # a duplicate now: validated again, so the message is said
    item = f"card '{short_name(card_id)}' (#{index})"
    if edition is not None and kept is not None:
        if given:
            edition.met(given, doc.display, item, doc.line_of, loc)
            edition.found[card_id] = given
        edition.cards[card_id] = (*kept, doc.display, item, doc.line_of, loc)
    sources[card_id] = CardSource(doc.display, index, line)
    cards.append(card)
    return True


def _card_list(doc: LocatedDoc) -> tuple[list[Any] | None, dict[Any, Any], Loc, list[Problem]]:
    """A card file's list of cards (None: not a list, a problem says so), its defaults, where the
    list is, and the problems of the file's top level."""
    problems: list[Problem] = []
    data = doc.data
    defaults: dict[Any, Any] = {}
    prefix: Loc = ()
    if isinstance(data, dict):
        unknown = set(data) - {"cards", "defaults"}
        for key in sorted(unknown, key=str):
            problems.append(Problem("unknown field (allowed: defaults, cards)", file=doc.display,
                                    field=str(key), line=doc.line_of((key,))))
        defaults = data.get("defaults") or {}
        if not isinstance(defaults, dict):
            problems.append(Problem("must be a mapping of field: value", file=doc.display,
                                    field="defaults", line=doc.line_of(("defaults",))))
            defaults = {}
        data = data.get("cards")
        prefix = ("cards",)
    if not isinstance(data, list):
        problems.append(Problem("expected a list of cards (or a mapping with 'cards:')", file=doc.display))
        return None, defaults, prefix, problems
    return data, defaults, prefix, problems


def _in_edition(raw: dict[Any, Any], model: type[CardBase], edition: Edition, doc: LocatedDoc, item: str, loc: Loc,
                card_id: Any, kind: Any, problems: list[Problem]) -> tuple[dict[Any, Any], dict[Any, Any]]:
    """A card's multilingual texts in the edition's language (a warning per text that falls back),
    and the card with every language's texts (for the icon check); the edition records the card."""
    text = text_fields(model)
    raw = every_language = gather(raw, edition.game_lang, text)
    given = translations(raw, text)
    if given:
        edition.met(given, doc.display, item, doc.line_of, loc)
    if isinstance(card_id, str):
        if given:
            edition.found[card_id] = given
        edition.cards[card_id] = (str(kind), plain_texts(raw, text), doc.display, item, doc.line_of, loc)
    raw, fallbacks = resolve(raw, edition.lang, edition.game_lang, text)
    for name, instead in fallbacks:
        problems.append(Problem(f"no {edition.lang!r} text: the {edition.lang} edition prints its "
                                f"{instead!r} one", file=doc.display, item=item, field=name,
                                line=doc.line_of(loc + (name,)), severity="warning"))
    return raw, every_language


def _deck_card_problems(card: CardBase, meta: DeckMeta, doc: LocatedDoc, item: str, loc: Loc) -> list[Problem]:
    """A valid card's kind and back against the deck's declared ones."""
    problems: list[Problem] = []
    if meta.kinds and card.kind not in meta.kinds:
        problems.append(Problem(
            f"card kind '{card.kind}' is not declared in the deck's kinds "
            f"(declared: {', '.join(meta.kinds)})",
            file=doc.display, item=item, field="kind", line=doc.line_of(loc + ("kind",))))
    if card.back is not None and card.back not in meta.backs:
        problems.append(Problem(
            f"unknown back '{card.back}' (deck.yaml backs: {', '.join(meta.backs)})",
            file=doc.display, item=item, field="back", line=doc.line_of(loc + ("back",))))
    return problems


def common_sections(game: GameSource, folder: Path | None = None) -> tuple[Section, ...]:
    """Optional files any game may have: ``boards.yaml`` and ``aids.yaml`` (printables, see
    :mod:`cardforge.data.printables`). A game that declares its own section of that name or
    file keeps it: the game's section wins and the common one is not loaded. With ``folder``,
    only the files present there (an absent file is no section at all)."""
    taken = {s.name for s in game.sections} | {s.file for s in game.sections}
    common = (
        Section("boards", "boards.yaml", Board, key="boards", required=False, item="board"),
        Section("aids", "aids.yaml", Aid, key="aids", required=False, item="aid"),
    )
    return tuple(s for s in common if s.name not in taken and s.file not in taken
                 and (folder is None or os.path.lexists(folder / s.file)))


def _load_section(folder: Path, section: Section, icons: frozenset[str] = frozenset()) -> tuple[Any, list[Problem]]:
    path = folder / section.file
    if not os.path.lexists(path):
        if section.required:
            return None, [Problem("file not found (required)", file=display_path(path))]
        return ([] if section.many else None), []
    doc = read_yaml(path, inside=folder)
    if doc.data is None:
        return None, doc.problems
    return load_section_doc(doc, section, icons)


def load_section_doc(doc: YamlDoc, section: Section, icons: frozenset[str] = frozenset()) -> tuple[Any, list[Problem]]:
    """A section's file validated; ``icons``: the game's own icon names (an ``icon:`` field or a
    ``:token:`` may name them; models read them from the validation context)."""
    context = {"icons": icons}
    problems = list(doc.problems)
    data = doc.data
    prefix: Loc = ()
    if section.key is not None:
        if not isinstance(data, dict) or section.key not in data:
            return None, problems + [Problem(f"expected a top-level '{section.key}:'", file=doc.display)]
        extra = sorted(set(data) - {section.key}, key=str)
        for key in extra:
            problems.append(Problem(f"unknown field (allowed: {section.key})", file=doc.display,
                                    field=str(key), line=doc.line_of((key,))))
        data = data[section.key]
        prefix = (section.key,)
    if not section.many:
        value, p = validate(section.model, data, file=doc.display, line_of=doc.line_of, loc_prefix=prefix,
                            context=context)
        return value, problems + p
    if not isinstance(data, list):
        return None, problems + [Problem(f"expected a list of {section.item}s", file=doc.display,
                                         field=section.key)]
    out: list[Any] = []
    seen: dict[Any, int] = {}
    for index, raw in enumerate(data, start=1):
        loc = prefix + (index - 1,)
        ident = raw.get("id") if isinstance(raw, dict) else None
        item = (f"{section.item} '{short_name(ident)}' (#{index})" if isinstance(ident, str)
                else f"{section.item} #{index}")
        value, p = validate(section.model, raw, file=doc.display, item=item, line_of=doc.line_of, loc_prefix=loc,
                            context=context)
        problems += p
        if value is None:
            continue
        problems += icon_problems(raw, file=doc.display, item=item, line_of=doc.line_of, loc=loc, icons=icons)
        vid = getattr(value, "id", None)
        if vid is not None:
            if vid in seen:
                problems.append(Problem(f"duplicate id '{vid}' (first at #{seen[vid]})", file=doc.display,
                                        item=item, field="id", line=doc.line_of(loc + ("id",))))
                continue
            seen[vid] = index
        out.append(value)
    return out, problems


def icon_problems(raw: Any, *, file: str, item: str | None, line_of: LineOf, loc: Loc = (),
                  icons: frozenset[str] = frozenset()) -> list[Problem]:
    """Unknown ``:icon:`` tokens in any text of a raw entry, each with its field; ``icons``: the
    game's own icon names."""
    problems: list[Problem] = []

    def walk(value: Any, path: Loc) -> None:
        if isinstance(value, str):
            for name in unknown_icons(value, icons):
                problems.append(Problem(
                    f"unknown icon ':{name}:'{unknown_icon_note(name, icons)}",
                    file=file, item=item, field=_dotted(path), line=line_of(loc + path)))
        elif isinstance(value, dict):
            for k, v in value.items():
                walk(v, path + (k,))
        elif isinstance(value, list):
            for i, v in enumerate(value):
                walk(v, path + (i,))

    walk(raw, ())
    return problems


def _dotted(path: Loc) -> str | None:
    return format_loc(path) or None
