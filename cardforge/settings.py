"""Build settings shared by every renderer (decks, boards, pads, aids): one object, set by the CLI
(or any caller of :func:`cardforge.render.build.build_game`), never written into the environment."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

PAPERS_MM: dict[str, tuple[float, float]] = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}
DUPLEX_MODES = ("long-edge", "short-edge", "none")
ORIENTATIONS = ("portrait", "landscape", "auto")
PRINTABLE_KINDS = ("decks", "boards", "pads", "aids")


@dataclass(frozen=True)
class BuildSettings:
    paper: str = "a4"  # a4 | letter
    orientation: str = "auto"  # portrait | landscape | auto (whichever fits more cards)
    bleed_mm: float = 3.0
    gutter_mm: float = 0.0  # space between neighbouring cards' bleed edges
    margin_mm: float = 8.0  # unprintable border kept clear on every side (crop marks live here)
    crop_marks: bool = True
    cut_lines: bool = False
    duplex: str = "long-edge"  # long-edge | short-edge | none (backs in a separate file)
    back_offset_mm: tuple[float, float] = (0.0, 0.0)  # printer registration correction
    fold: bool = False  # gutter-fold layout: fronts and backs side by side
    strict: bool = False  # warnings (missing art…) fail the build
    only: frozenset[str] = field(default_factory=lambda: frozenset(PRINTABLE_KINDS))
    out_dir: Path = Path("output")
    changed_since: Path | None = None  # an earlier build's cards.json: also print only what changed
    restamp: bool = False  # with changed_since: reprint cards whose stamp changed only its version
    templates_dir: Path | None = None  # a designer's templates: DIR/<game>/ and DIR/_shared/ first
    data_root: Path | None = None  # card data from DIR/<game>/; None: the data folder in use
    lock_wait: float = 10.0  # seconds a build waits for another build of the same folder to end

    def __post_init__(self) -> None:
        if self.paper not in PAPERS_MM:
            raise ValueError(f"unknown paper {self.paper!r} (allowed: {', '.join(PAPERS_MM)})")
        if self.duplex not in DUPLEX_MODES:
            raise ValueError(f"unknown duplex mode {self.duplex!r} (allowed: {', '.join(DUPLEX_MODES)})")
        if self.orientation not in ORIENTATIONS:
            raise ValueError(f"unknown orientation {self.orientation!r} (allowed: {', '.join(ORIENTATIONS)})")
        unknown = set(self.only) - set(PRINTABLE_KINDS)
        if unknown:
            raise ValueError(f"unknown printables {sorted(unknown)} (allowed: {', '.join(PRINTABLE_KINDS)})")
        if self.bleed_mm < 0 or self.gutter_mm < 0 or self.margin_mm < 0:
            raise ValueError("bleed, gutter and margin must not be negative")
        if self.lock_wait < 0:
            raise ValueError("lock_wait must not be negative")

    @property
    def paper_mm(self) -> tuple[float, float]:
        return PAPERS_MM[self.paper]
