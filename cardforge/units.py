"""Lengths: "63mm", "2.5 cm", "1in", "12pt" → PDF points. Nonsense is rejected, never guessed.

A bare number is millimetres (the unit of every layout and data file).
"""

from __future__ import annotations

import math
import re

from cardforge.problems import short_repr

MM = 72.0 / 25.4  # points per millimetre
UNITS = {"mm": MM, "cm": 10 * MM, "in": 72.0, "pt": 1.0}
_LENGTH = re.compile(r"^\s*([+-]?(?:\d+(?:\.\d*)?|\.\d+))\s*(mm|cm|in|pt)?\s*$")


def parse_length(value: str | int | float, *, allow_negative: bool = False) -> float:
    """Return the length in points. Raises ValueError with what was allowed."""
    if isinstance(value, bool):
        raise ValueError(f"expected a length such as '63mm', got {short_repr(value)}")
    if isinstance(value, (int, float)):
        number, unit = float(value), "mm"
    else:
        m = _LENGTH.match(str(value))
        if not m:
            raise ValueError(
                f"expected a length such as '63mm', '2.5cm', '1in' or '12pt', got {short_repr(value)}"
            )
        number, unit = float(m.group(1)), m.group(2) or "mm"
    if number < 0 and not allow_negative:
        raise ValueError(f"a length must not be negative, got {short_repr(value)}")
    points = number * UNITS[unit]
    check_points(points, value)
    return points


def check_points(points: float, value: object = None) -> float:
    """``points`` if it is a length a sheet of paper can have: finite, at most the
    ``length_mm`` limit either way (a 5000 mm card passed check, then an export asked for
    gigabytes; ``stroke_width: 1e25`` crashed the build). ValueError otherwise."""
    from cardforge.limits import env_name, limit

    most = limit("length_mm")
    if not math.isfinite(points) or abs(points) > most * MM:
        got = short_repr(value) if value is not None else f"{points:g} pt"
        raise ValueError(f"a length must be at most {most:,} mm ({most * MM:,.0f} pt) either way, got {got} "
                         f"(set {env_name('length_mm')} to allow more)")
    return points


def to_mm(points: float) -> float:
    return points / MM


def mm(value: float) -> float:
    """Millimetres → points."""
    return value * MM


def format_mm(points: float) -> str:
    return f"{to_mm(points):.1f} mm"
