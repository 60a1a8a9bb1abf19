"""Cards: faces drawn from layouts, decks imposed on sheets with their marks and edges, the record
of what a deck build printed (reprints), and the checks that draw cards (preflight, text extents)."""
