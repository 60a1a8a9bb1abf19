"""A game's build: the one library call that makes every file, and the printing instructions."""
