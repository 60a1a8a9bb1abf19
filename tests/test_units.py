"""Lengths with units: parsed exactly, nonsense rejected."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cardforge.units import MM, parse_length, to_mm


@pytest.mark.parametrize("text, points", [
    ("63mm", 63 * MM), ("63 mm", 63 * MM), ("6.3cm", 63 * MM), ("1in", 72.0), ("12pt", 12.0),
    (".5in", 36.0), (70, 70 * MM), (2.5, 2.5 * MM),
])
def test_parse(text, points):
    assert parse_length(text) == pytest.approx(points)


@pytest.mark.parametrize("bad", ["", "mm", "63 furlongs", "6,3cm", "1e3mm", "-3mm", True, "3 mm mm"])
def test_rejects_nonsense(bad):
    with pytest.raises(ValueError):
        parse_length(bad)


def test_negative_only_when_allowed():
    assert parse_length("-1.5mm", allow_negative=True) == pytest.approx(-1.5 * MM)


@given(st.decimals(min_value=0, max_value=10000, places=3), st.sampled_from(["mm", "cm", "in", "pt"]))
def test_round_trip_through_millimetres(value, unit):
    points = parse_length(f"{value}{unit}")
    assert parse_length(f"{to_mm(points)!r}mm") == pytest.approx(points)
