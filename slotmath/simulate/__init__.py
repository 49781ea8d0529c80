"""Monte Carlo, seeded: the independent cross-check of the exact engines.

>>> from slotmath.simulate import simulate, SimulationResult
"""

from slotmath.simulate.monte_carlo import SimulationResult, simulate

__all__ = ["SimulationResult", "simulate"]
