"""How small a probability of a numerical win distribution can still be told from noise.

An exact distribution (:class:`~slotmath.exact.distribution.WinDistribution`, integer weights
over the full cycle) has no floor: every probability is exact. A numerical one
(:class:`~slotmath.exact.distribution.NumericWinDistribution`, by FFT over the free-spins chain)
states its accuracy as mass that may sit at the wrong amounts: its total is 1 within
:data:`MASS_TOLERANCE` (the check every float distribution passes), mass folded back from beyond
the Fourier grid is at most ``aliased_mass_bound``, and the roundoff dropped below
``noise_floor`` is at most ``dropped_bound``. A probability below the sum of these could be
entirely misplaced mass, so it is not data: charts draw the floor instead of bars under it.
"""

from __future__ import annotations

#: the total mass of a float distribution is 1 within this (slotmath.exact.distribution)
MASS_TOLERANCE = 1e-12


def accuracy_floor(distribution) -> float:
    """The smallest probability of ``distribution`` that is data, not noise (0.0 if exact).

    Examples
    --------
    >>> import slotmath
    >>> accuracy_floor(slotmath.analyze(slotmath.load_game("data/games/classic_3reel.toml")
    ...                                 ).distribution)
    0.0
    >>> fruits = slotmath.analyze(slotmath.load_game("data/games/classic_fruits.toml"))
    >>> accuracy_floor(fruits.distribution)
    1e-12
    """
    if not hasattr(distribution, "noise_floor"):  # exact, or floats with no stated method
        return 0.0
    misplaced = (float(distribution.aliased_mass_bound) + float(distribution.dropped_bound)
                 + abs(1.0 - float(distribution.probs.sum())))
    return max(MASS_TOLERANCE, misplaced, float(distribution.noise_floor))


__all__ = ["MASS_TOLERANCE", "accuracy_floor"]
