"""Lengths: "63mm", "2.5 cm", "1in", "12pt", "825px" → PDF points. Nonsense is rejected, never guessed.

A bare number is millimetres (the unit of every layout and data file). Pixels need a
resolution (a layout's ``dpi``, 300 by default as in Squib): ``parse_length("75px", dpi=300)``.
"""

from __future__ import annotations

import math
import re

from cardforge.problems import short_repr

MM = 72.0 / 25.4  # points per millimetre
UNITS = {"mm": MM, "cm": 10 * MM, "in": 72.0, "pt": 1.0}
_LENGTH = re.compile(r"^\s*([+-]?(?:\d+(?:\.\d*)?|\.\d+))\s*(mm|cm|in|pt|px)?\s*$")
#: the bounds of a resolution in dots per inch (a layout's ``dpi``)
DPI_RANGE = (1, 10_000)


def parse_length(value: str | int | float, *, allow_negative: bool = False, dpi: float | None = None) -> float:
    """Return the length in points. Raises ValueError with what was allowed. ``dpi``: the
    resolution pixels (``px``) are measured at; without it ``px`` is refused."""
    if isinstance(value, bool):
        raise ValueError(f"expected a length such as '63mm', got {short_repr(value)}")
    if isinstance(value, (int, float)):
        number, unit = float(value), "mm"
    else:
        m = _LENGTH.match(str(value))
        if not m:
            raise ValueError(
                "expected a length such as '63mm', '2.5cm', '1in'"
                + (", '12pt' or '75px'" if dpi is not None else " or '12pt'") + f", got {short_repr(value)}"
            )
        number, unit = float(m.group(1)), m.group(2) or "mm"
    if math.isnan(number):  # YAML's .nan, TOML's nan
        raise ValueError(f"a length must be a number, got {short_repr(value)}")
    if number < 0 and not allow_negative:
        raise ValueError(f"a length must not be negative, got {short_repr(value)}")
    if unit == "px":
        if dpi is None:
            raise ValueError(f"pixels ('px') are only known in a layout (its dpi), got {short_repr(value)}; "
                             "use mm, cm, in or pt here")
        points = number * 72.0 / dpi
    else:
        points = number * UNITS[unit]
    check_points(points, value)
    return points


def check_points(points: float, value: object = None) -> float:
    """``points`` if it is a length a sheet of paper can have: finite, at most the
    ``length_mm`` limit either way (a 5000 mm card passed check, then an export asked for
    gigabytes; ``stroke_width: 1e25`` crashed the build). ValueError otherwise."""
    from cardforge.limits import env_name, limit

    most = limit("length_mm")
    if math.isnan(points):
        raise ValueError(f"a length must be a number, got {short_repr(value if value is not None else points)}")
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
