"""cardforge: print-and-play generator and scoring companion for tabletop games."""

__version__ = "0.1.0"
