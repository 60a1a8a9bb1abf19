"""Game-agnostic engine: scoring, ranking and setup plumbing shared by every game."""
