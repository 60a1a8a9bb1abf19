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


@given(st.decimals(min_value=0, max_value=78, places=3), st.sampled_from(["mm", "cm", "in", "pt"]))
def test_round_trip_through_millimetres(value, unit):
    points = parse_length(f"{value}{unit}")
    assert parse_length(f"{to_mm(points)!r}mm") == pytest.approx(points)


def test_a_length_is_bounded_either_way(monkeypatch):
    """Past 2,000 mm (a 5000 mm card passed check, then an export asked for gigabytes; a stroke
    of 1e25 pt crashed the build): refused, with the limit and how to raise it."""
    from cardforge.units import check_points

    assert parse_length("2000mm") == pytest.approx(2000 * MM)
    assert parse_length("-2000mm", allow_negative=True) == pytest.approx(-2000 * MM)
    for bad in ("2001mm", "78.75in", 2000.5, float("inf"), 1e308):
        with pytest.raises(ValueError, match=r"a length must be at most 2,000 mm \(5,669 pt\) either way, got .*"
                                             r"\(set CARDFORGE_LIMIT_LENGTH_MM to allow more\)"):
            parse_length(bad)
    for nan in (float("nan"), -float("nan")):  # YAML's .nan: not 'too long', not a number at all
        with pytest.raises(ValueError) as err:
            parse_length(nan)
        assert str(err.value) == "a length must be a number, got nan"
    with pytest.raises(ValueError) as err:
        check_points(float("nan"))
    assert str(err.value) == "a length must be a number, got nan"
    with pytest.raises(ValueError, match="either way"):
        parse_length("-2001mm", allow_negative=True)
    with pytest.raises(ValueError, match="got 1e\\+25 pt"):
        check_points(1e25)
    monkeypatch.setenv("CARDFORGE_LIMIT_LENGTH_MM", "6000")
    assert parse_length("5000mm") == pytest.approx(5000 * MM)
