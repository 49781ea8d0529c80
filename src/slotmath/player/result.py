"""The shape of every figure of the player's view: the computed value, rigorous bounds on the
true value, and the normal approximation beside it."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

__all__ = ["PlayerFigure"]


@dataclass(frozen=True)
class PlayerFigure:
    """One figure of the player's view.

    Attributes
    ----------
    value : Fraction, float or None
        The computed figure: a ``Fraction`` when it is exact, a float computed within
        ``[lower, upper]``, or None where only bounds are known.
    lower, upper : float
        The true figure lies in ``[lower, upper]`` (both equal ``value`` when it is exact).
    normal : float
        The normal (or, for ruin, diffusion) approximation of the same figure.
    method : str
        How ``value`` and the bounds were computed.

    Examples
    --------
    >>> f = PlayerFigure(Fraction(1, 4), 0.25, 0.25, 0.31, "exact")
    >>> f.exact, f.float, round(f.normal_gap, 2)
    (True, 0.25, 0.06)
    """

    value: Fraction | float | None
    lower: float
    upper: float
    normal: float
    method: str

    @property
    def exact(self) -> bool:
        """Whether ``value`` is an exact fraction."""
        return isinstance(self.value, (Fraction, int))

    @property
    def float(self) -> float:
        """``value`` as a float (the middle of the bounds when there is no value)."""
        if self.value is None:
            return 0.5 * (self.lower + self.upper)
        return float(self.value)

    @property
    def normal_gap(self) -> float:
        """How far the normal approximation is from the figure: ``normal - value`` (the
        distance to the nearer bound when only bounds are known, 0 inside them)."""
        if self.value is not None:
            return self.normal - float(self.value)
        if self.normal > self.upper:
            return self.normal - self.upper
        if self.normal < self.lower:
            return self.normal - self.lower
        return 0.0
