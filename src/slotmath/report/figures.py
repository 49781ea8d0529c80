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


# -- rows of the PAR tables (text, xlsx and HTML render the same DataFrames) -----------------

#: the columns of a figure table
FIGURE_COLUMNS = ["figure", "value", "exact", "error", "method"]
#: Float64 rounding of one exact value, or one operation on a few: the error bound written
#: beside a decimal that is computed from exact figures in a handful of float operations.
ROUNDOFF = 1e-15
#: Total mass of an FFT distribution is 1 within this (tested in the free-spins chain), so no
#: band of the distribution can be off by more, beyond its folded and dropped mass.
FFT_MASS = 1e-12
EXACT = "exact"


def is_exact(value) -> bool:
    """Whether ``value`` is an exact number (an int or a Fraction)."""
    return isinstance(value, (int, Fraction)) and not isinstance(value, bool)


def exact_text(value) -> str:
    """An exact value as "p/q" (an integer as itself)."""
    return str(Fraction(value))


def one_in(p):
    """1 / p, exactly when p is exact (inf when p is 0); of a simulated p, a simulated figure
    with the interval's reciprocal."""
    from slotmath.stats.estimate import is_estimate, reciprocal

    if is_estimate(p):
        return reciprocal(p)
    if not p:
        return math.inf
    return 1 / p if is_exact(p) else 1 / float(p)


def figure_row(name: str, value, error: float | None = 0.0, method: str = EXACT) -> dict:
    """One row of a figure table: exact values get their text, numerical ones their bound.

    Examples
    --------
    >>> figure_row("hit frequency", Fraction(1, 3))["exact"]
    '1/3'
    >>> figure_row("SD", 2.5, 1e-15, "sqrt of the exact variance")["exact"]
    ''

    A simulated figure (:class:`~slotmath.stats.estimate.Estimate`) says so itself: its
    ``error`` is its 95 % interval's half-width and its ``method`` "simulated" with the
    interval, whatever the caller passed.
    """
    from slotmath.stats.estimate import is_estimate

    if is_estimate(value):
        return {"figure": name, "value": float(value), "exact": "",
                "error": value.half_width(), "method": value.method}
    if is_exact(value):
        decimal = int(value) if isinstance(value, int) else float(value)
        return {"figure": name, "value": decimal, "exact": exact_text(value), "error": 0.0,
                "method": method}
    return {"figure": name, "value": float(value), "exact": "", "error": error,
            "method": method}


def figure_table(rows: list[dict]):
    """A figure table (a DataFrame with :data:`FIGURE_COLUMNS`) of :func:`figure_row` rows."""
    import pandas as pd

    return pd.DataFrame(rows, columns=FIGURE_COLUMNS)


def rules_table(rows: list[tuple[str, object]]):
    """A table of a feature's rules as the game file states them: (rule, value) rows."""
    import pandas as pd

    return pd.DataFrame([{"rule": r, "value": v} for r, v in rows], columns=["rule", "value"])


__all__ = ["EXACT", "FFT_MASS", "FIELDS", "FIGURE_COLUMNS", "ROUNDOFF", "exact_text", "figure",
           "figure_row", "figure_table", "is_exact", "is_figure", "one_in", "read_figure",
           "rules_table"]
