"""One JSON shape for every figure: ``{"exact": "p/q" or null, "float": number}``.

Every figure ``slotmath analyze --json`` prints (an RTP, a component, a probability, a rate, a
moment) has the same two fixed fields, whether the method behind it is exact or numerical:

- ``exact``: the exact value as text, ``str(Fraction)`` (``"3/8"``, ``"0"``, ``"12"``), or
  ``null`` when the figure is numerical (a float with an error bound stated elsewhere);
- ``float``: the value as a float, always present (``exact``'s value rounded to the nearest
  float when it is exact).

A reader takes ``float`` for arithmetic and ``Fraction(exact)`` when it needs the exact value,
without testing types. New JSON sections call :func:`figure` for each figure they print.

Examples
--------
>>> from fractions import Fraction
>>> figure(Fraction(3, 8))
{'exact': '3/8', 'float': 0.375}
>>> figure(0.1234)
{'exact': None, 'float': 0.1234}
>>> figure(2), figure(Fraction(0))
({'exact': '2', 'float': 2.0}, {'exact': '0', 'float': 0.0})
>>> read_figure(figure(Fraction(1, 3)))
Fraction(1, 3)
"""

from __future__ import annotations

import math
import numbers
from fractions import Fraction

#: the fields of every figure, in order
FIELDS = ("exact", "float")


def figure(value, exact: bool | None = None) -> dict:
    """The JSON figure of ``value``: its exact text (or ``None``) and its float.

    Parameters
    ----------
    value : Fraction, int, sympy Rational, float or numpy number
        ``Fraction``, ``int`` and rational sympy numbers are exact; floats are numerical.
    exact : bool, optional
        Force the kind: ``False`` prints an exact value as numerical (``exact`` null);
        ``True`` requires ``value`` to be exact.

    Raises
    ------
    TypeError
        ``value`` is not a number, or ``exact=True`` for a float.
    """
    if isinstance(value, bool) or not isinstance(value, numbers.Number) and not _is_sympy(value):
        raise TypeError(f"a figure is a number, got {value!r}")
    rational = _rational(value)
    if exact is True and rational is None:
        raise TypeError(f"an exact figure needs an exact number, got {value!r}")
    if rational is None or exact is False:
        x = float(value)
        return {"exact": None, "float": 0.0 if x == 0 else x}  # no "-0.0"
    return {"exact": str(rational), "float": float(rational)}


def read_figure(doc: dict) -> Fraction | float:
    """A figure read back: ``Fraction`` when exact, ``float`` otherwise."""
    if set(doc) != set(FIELDS):
        raise ValueError(f"a figure has the fields {FIELDS}, got {sorted(doc)}")
    if doc["exact"] is not None:
        return Fraction(doc["exact"])
    if not isinstance(doc["float"], float) or not math.isfinite(doc["float"]):
        raise ValueError(f"a numerical figure is a finite float, got {doc['float']!r}")
    return doc["float"]


def is_figure(doc) -> bool:
    """Whether ``doc`` has exactly a figure's fields."""
    return isinstance(doc, dict) and set(doc) == set(FIELDS)


def _is_sympy(value) -> bool:
    return type(value).__module__.startswith("sympy")


def _rational(value) -> Fraction | None:
    if isinstance(value, (int, Fraction)):
        return Fraction(value)
    if isinstance(value, numbers.Integral):  # numpy integers
        return Fraction(int(value))
    if _is_sympy(value) and getattr(value, "is_Rational", False):
        return Fraction(int(value.p), int(value.q))
    return None


__all__ = ["FIELDS", "figure", "is_figure", "read_figure"]
