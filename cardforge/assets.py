"""A game's own assets, found in its data folder (``GameData.root``): fonts, icons and art.

``fonts/``  TrueType/OpenType files usable as a layout ``family`` (``family: Garamond``):
            ``Garamond-Regular.ttf``, ``Garamond-Bold.ttf``, ``Garamond-Italic.ttf``,
            ``Garamond-BoldItalic.ttf`` (a family with one file uses it for every style); a
            file is also found by the family its ``name`` table gives (``family: Pixel Mono``
            for ``fonts/pxm.ttf``), its style from the subfamily there;
``icons/``  ``name.svg`` or ``name.png``: the ``:name:`` icon token in card text, beside the
            built-in icons (a file named like a built-in icon replaces it for this game); an
            SVG's ``<title>`` is the icon's label in legends;
art         any image path a card or layout names (PNG, JPEG or SVG), relative to the folder.

Pure Python (no ReportLab): the data layer checks icon tokens against these names, the
renderer draws them. Every lookup goes through :func:`game_assets`, so where a game's assets
live is decided in one place.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from cardforge.limits import env_name, limit
from cardforge.paths import folder_entries, read_regular
from cardforge.problems import Problem

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

FONT_SUFFIXES = (".ttf", ".otf")
ICON_SUFFIXES = (".svg", ".png")
#: the style a font file's name ends with → (bold, italic)
STYLE_SUFFIXES: dict[str, tuple[bool, bool]] = {
    "regular": (False, False), "book": (False, False), "roman": (False, False),
    "bold": (True, False), "italic": (False, True), "oblique": (False, True),
    "bolditalic": (True, True), "boldoblique": (True, True),
}
ICON_NAME = re.compile(r"^[a-z][a-z0-9-]*$")


class _Meta(Protocol):
    @property
    def backs(self) -> Mapping[str, object]: ...


class GameFiles(Protocol):
    """What this module reads of a game's loaded data (a :class:`~cardforge.data.loading.GameData`
    is one): a protocol, so that this shared module imports no layer above it."""

    @property
    def root(self) -> Path: ...

    @property
    def cards(self) -> Sequence[object]: ...

    @property
    def meta(self) -> _Meta: ...


@dataclass(frozen=True)
class FontFamily:
    """A family of font files; ``faces[(bold, italic)]`` → file (missing styles fall back)."""

    name: str
    faces: dict[tuple[bool, bool], Path] = field(default_factory=dict)

    def face(self, bold: bool, italic: bool) -> Path:
        for key in ((bold, italic), (bold, False), (False, italic), (False, False)):
            if key in self.faces:
                return self.faces[key]
        return next(iter(self.faces.values()))


@dataclass(frozen=True)
class GameAssets:
    root: Path
    fonts: dict[str, FontFamily]  # family name → files
    icons: dict[str, Path]  # icon name → file
    problems: tuple[str, ...] = ()  # file names that cannot be used, and why
    #: files of fonts/ and icons/ breaking the game folder's rule (a link leading out, a FIFO):
    #: never opened, never used
    refused: tuple[Problem, ...] = ()
    #: families by the name inside their files (the ``name`` table: ``family: Pixel Mono`` for
    #: ``fonts/pxm.ttf``), for the names no file name gives
    aliases: dict[str, FontFamily] = field(default_factory=dict)

    @property
    def usable_fonts(self) -> dict[str, FontFamily]:
        """Every name a layout's ``family`` may use: the files' names first, then their family names."""
        return {**self.fonts, **{k: v for k, v in self.aliases.items() if self.family(k) is None}}

    @property
    def fonts_dir(self) -> Path:
        return self.root / "fonts"

    @property
    def icons_dir(self) -> Path:
        return self.root / "icons"

    def family(self, name: str) -> FontFamily | None:
        """A family by name, case-insensitively (``family: garamond`` finds ``Garamond``)."""
        if name in self.fonts:
            return self.fonts[name]
        low = name.lower()
        for key, fam in self.fonts.items():
            if key.lower() == low:
                return fam
        return None

    def signature(self) -> tuple[tuple[str, int, int], ...]:
        """Names, sizes and dates of every asset file: changes when any asset changes."""
        files = [p for fam in self.fonts.values() for p in fam.faces.values()] + list(self.icons.values())
        out = []
        for p in sorted(files):
            try:
                st = p.stat()
                out.append((str(p), st.st_size, st.st_mtime_ns))
            except OSError:
                out.append((str(p), -1, -1))
        return tuple(out)


def game_assets(data_or_root: GameFiles | Path | str, game_folder: Path | None = None) -> GameAssets:
    """The fonts and icons in a game's data folder (a ``GameData`` or the folder's path). Only
    files obeying the game folder's rule are used (:func:`cardforge.paths.folder_entries`:
    inside the folder once links are resolved, regular files); the others are in ``refused``.
    ``game_folder``: the game's own folder when its data is read from elsewhere (``--data DIR``
    without a ``game.yaml`` there): its fonts and icons come first, the data folder's replace
    them name by name."""
    root = Path(data_or_root) if isinstance(data_or_root, (str, Path)) else Path(data_or_root.root)
    if game_folder is not None and Path(game_folder).resolve() != root.resolve():
        base, own = _folder_assets(Path(game_folder)), _folder_assets(root)
        fonts = {**base.fonts, **own.fonts}
        return GameAssets(root, fonts, {**base.icons, **own.icons}, base.problems + own.problems,
                          base.refused + own.refused, {**base.aliases, **own.aliases})
    return _folder_assets(root)


def _folder_assets(root: Path) -> GameAssets:
    problems: list[str] = []
    fonts: dict[str, FontFamily] = {}
    font_files, refused = folder_entries(root, "fonts", FONT_SUFFIXES, "font")
    for path in font_files:
        family, style = _family_and_style(path.stem)
        fam = fonts.setdefault(family, FontFamily(family))
        if style in fam.faces:
            problems.append(f"fonts/{path.name}: a second {_style_name(style)} face of family "
                            f"'{family}' (first: fonts/{fam.faces[style].name}); ignored")
            continue
        fam.faces[style] = path
    aliases: dict[str, FontFamily] = {}
    for path in font_files:
        named = font_family_name(path)
        if named is None:
            continue
        family, style = named
        fam = aliases.setdefault(family, FontFamily(family))
        fam.faces.setdefault(style, path)
    icons: dict[str, Path] = {}
    icon_files, refused_icons = folder_entries(root, "icons", ICON_SUFFIXES, "icon")
    for path in icon_files:
        name = path.stem
        if not ICON_NAME.match(name):
            problems.append(f"icons/{path.name}: an icon name is lowercase letters, digits and "
                            f"hyphens, starting with a letter (the token would be ':{name}:')")
            continue
        if name in icons:
            problems.append(f"icons/{path.name}: icon '{name}' is also icons/{icons[name].name}; "
                            f"the {icons[name].suffix[1:].upper()} file is used")
            continue
        icons[name] = path
    return GameAssets(root, fonts, icons, tuple(problems), tuple(refused + refused_icons), aliases)


def icon_files(folder: Path, game_folder: Path | None = None) -> dict[str, Path]:
    """The icons the game in ``folder`` brings in its ``icons/`` (and its own folder's, see
    :func:`game_assets`): ``:name:`` token → file (one listing a folder)."""
    if not any((Path(f) / "icons").is_dir() for f in (folder, game_folder) if f is not None):
        return {}
    return game_assets(folder, game_folder).icons


def icon_names(folder: Path, game_folder: Path | None = None) -> frozenset[str]:
    """The ``:name:`` tokens the game in ``folder`` brings (:func:`icon_files`)."""
    return frozenset(icon_files(folder, game_folder))


def font_family_name(path: Path) -> tuple[str, tuple[bool, bool]] | None:
    """The family and style a TrueType/OpenType file names itself by (its ``name`` table: the
    family and subfamily, IDs 1/2 — the regular/bold/italic model layouts use — else the
    typographic ones, 16/17; Windows Unicode English first, then
    any Windows, then Macintosh Roman). None when the file cannot tell (a collection, a broken
    table): the file's name still works. Pure and bounded (the ``font_bytes`` limit, as every
    font read)."""
    import struct

    blob, _ = read_regular(path, str(path), limit("font_bytes"))
    if not blob or len(blob) < 12 or blob[:4] not in (b"\x00\x01\x00\x00", b"OTTO", b"true"):
        return None
    try:
        (count,) = struct.unpack_from(">H", blob, 4)
        table = next(((off, length) for tag, _, off, length in
                      (struct.unpack_from(">4sIII", blob, 12 + 16 * i) for i in range(min(count, 256)))
                      if tag == b"name"), None)
        if table is None:
            return None
        base, length = table
        _, n, strings = struct.unpack_from(">HHH", blob, base)
        found: dict[tuple[int, int], str] = {}  # (name id, preference) → text
        for i in range(min(n, 2048)):
            platform, encoding, language, name_id, size, offset = struct.unpack_from(">HHHHHH", blob, base + 6 + 12 * i)
            if name_id not in (1, 2, 16, 17):
                continue
            start = base + strings + offset
            raw = blob[start:start + size]
            if len(raw) != size or start + size > base + length:
                continue
            if platform == 3 and encoding in (0, 1, 10):
                rank, text = (0 if language == 0x409 else 1), raw.decode("utf-16-be", "replace")
            elif platform == 1 and encoding == 0:
                rank, text = 2, raw.decode("mac_roman", "replace")
            else:
                continue
            key = (name_id, rank)
            if key not in found and text.strip():
                found[key] = text.strip()
    except (struct.error, ValueError):
        return None

    def best(*ids: int) -> str | None:
        for name_id in ids:
            for rank in (0, 1, 2):
                if (name_id, rank) in found:
                    return found[(name_id, rank)]
        return None

    family, sub = best(1, 16), best(2, 17)  # the four-style family (regular, bold, italic) first
    if not family or len(family) > 200:
        return None
    style = STYLE_SUFFIXES.get((sub or "regular").lower().replace(" ", "").replace("-", ""), (False, False))
    return family, style


@dataclass(frozen=True)
class SystemFont:
    """What the system's fontconfig (``fc-match``) gives for a family and style: the file when
    it is that family (a TrueType or OpenType file), and what it found, for messages."""

    file: Path | None
    found: str  # "DejaVu Sans (/usr/share/fonts/…/DejaVuSans.ttf)", or why nothing was asked


#: seconds fc-match may take (a first run builds fontconfig's cache)
FC_MATCH_SECONDS = 30.0


@lru_cache(maxsize=256)
def system_font(family: str, bold: bool = False, italic: bool = False) -> SystemFont:
    """The system's font of ``family`` in this style, through fontconfig's ``fc-match`` when
    the machine has it (Linux, BSD; macOS with fontconfig installed). fc-match always answers
    with its nearest font: it is used only when that font's family names ``family`` (case and
    spaces ignored). A missing bold or italic
    face falls back on the nearest face of the family, as a game's own fonts do."""
    import shutil
    import subprocess

    def fold(name: str) -> str:
        return "".join(name.casefold().split())

    exe = shutil.which("fc-match")
    if exe is None:
        return SystemFont(None, "no fc-match on this system (fontconfig), so no system font")
    escaped = re.sub(r"([\\:,\-])", r"\\\1", family)
    pattern = f"{escaped}:weight={'bold' if bold else 'regular'}:slant={'italic' if italic else 'roman'}"
    try:
        run = subprocess.run([exe, "--format=%{family}\t%{file}", pattern], capture_output=True,
                             timeout=FC_MATCH_SECONDS, check=False)
    except (OSError, subprocess.SubprocessError) as exc:
        return SystemFont(None, f"fc-match failed ({exc})")
    names, _, file = run.stdout.decode("utf-8", "replace").strip().partition("\t")
    if run.returncode != 0 or not file:
        return SystemFont(None, "fc-match found nothing")
    found = f"{names.split(',')[0]} ({file})"
    if fold(family) not in {fold(n) for n in names.split(",")}:
        return SystemFont(None, f"fc-match's nearest is {found}, another family")
    path = Path(file)
    if path.suffix.lower() not in FONT_SUFFIXES:
        return SystemFont(None, f"fc-match gives {found}, not a TrueType or OpenType file")
    return SystemFont(path, found)


def _family_and_style(stem: str) -> tuple[str, tuple[bool, bool]]:
    """``Garamond-BoldItalic`` → (``Garamond``, (True, True)); ``Garamond`` → regular."""
    for sep in ("-", "_", " "):
        if sep in stem:
            base, _, last = stem.rpartition(sep)
            style = STYLE_SUFFIXES.get(last.lower().replace(" ", ""))
            if style is not None and base:
                return base, style
    return stem, (False, False)


def _style_name(style: tuple[bool, bool]) -> str:
    return {(False, False): "regular", (True, False): "bold", (False, True): "italic",
            (True, True): "bold italic"}[style]


def art_file(root: Path, src: str) -> Path:
    """The file an art path names, relative to the game folder (the one place that turns an
    art path into a file). Where it is opened, :func:`cardforge.paths.regular_inside` checks it
    first (``check`` and the build say why a path is refused)."""
    return Path(root) / src


def svg_title(path: Path) -> str | None:
    """The ``<title>`` of an SVG icon (its legend label, as SVG editors show it), or None."""
    try:
        st = Path(path).stat()
    except OSError:
        return None
    return _svg_title(str(path), st.st_mtime_ns, st.st_size)


@lru_cache(maxsize=256)
def _svg_title(path: str, mtime_ns: int, size: int) -> str | None:
    from lxml import etree

    blob, problem = read_regular(path, path, limit("svg_bytes"), env_name("svg_bytes"))
    if blob is None or problem is not None:
        return None  # the drawing reports the file
    try:
        root = etree.fromstring(blob, etree.XMLParser(resolve_entities=False, no_network=True, huge_tree=False))
    except etree.XMLSyntaxError:
        return None  # the drawing reports the broken file
    for child in root:
        if isinstance(child.tag, str) and etree.QName(child).localname == "title":
            text = " ".join("".join(child.itertext()).split())
            return text or None
    return None


def has_assets(data: GameFiles) -> bool:
    """Whether the game has anything for :func:`render.game_assets.asset_problems` to open
    (fonts, icons, or art named by a card or a back): ``check`` loads the image and font code
    only then."""
    root = Path(data.root)
    if any((root / d).is_dir() and any((root / d).iterdir()) for d in ("fonts", "icons")):
        return True
    if any(getattr(c, "art", None) for c in data.cards):
        return True
    return any(getattr(b, "art", None) for b in data.meta.backs.values())
