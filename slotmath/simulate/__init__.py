"""Monte Carlo, seeded: the independent cross-check of the exact engines.

>>> from slotmath.simulate import simulate, SimulationResult, JackpotResult
"""

from slotmath.simulate.jackpots import JackpotResult
from slotmath.simulate.monte_carlo import SimulationResult, simulate

__all__ = ["JackpotResult", "SimulationResult", "simulate"]
