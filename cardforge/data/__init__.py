"""The data layer: YAML files under card_data/<game>/ → validated pydantic models.

Every problem is reported with file, line, card (id and index), field, what was wrong
and what was allowed; all problems of a game's data at once.
"""
