"""Monte Carlo, seeded: the independent cross-check of the exact engines.

:func:`simulate` is the one front door (:mod:`~slotmath.simulate.front`): it plays whole
rounds of any game through its features' simulators and returns a
:class:`SimulationResult`. Each part of a round has its own module: ``spins`` (a reel set's
spins, drawn and paid by the numba kernel of ``_kernels`` on the tables of ``tables``),
``monte_carlo`` (the rounds of the plain pays and the features they play), and one module per
feature.

>>> from slotmath.simulate import simulate, SimulationResult, JackpotResult
"""

from slotmath.simulate.front import simulate
from slotmath.simulate.jackpots import JackpotResult
from slotmath.simulate.monte_carlo import SimulationResult

__all__ = ["JackpotResult", "SimulationResult", "simulate"]
