"""Monte Carlo, seeded: the independent cross-check of the exact engines.

:func:`simulate` plays whole rounds (:mod:`~slotmath.simulate.monte_carlo`); each part of a
round has its own module: ``spins`` (a reel set's spins, drawn and paid by the numba kernel
of ``_kernels`` on the tables of ``tables``), ``free_spins``, ``bonus_wheel``, ``jackpots``
and ``cap``.

>>> from slotmath.simulate import simulate, SimulationResult, JackpotResult
"""

from slotmath.simulate.jackpots import JackpotResult
from slotmath.simulate.monte_carlo import SimulationResult, simulate

__all__ = ["JackpotResult", "SimulationResult", "simulate"]
