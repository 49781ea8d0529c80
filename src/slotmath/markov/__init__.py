"""Chain tools and the feature chains built on them.

* :mod:`slotmath.markov.chains`: exact absorbing-chain solves, GTH stationary distribution,
  acyclic absorption and moment DPs.
* :mod:`slotmath.markov.free_spins`: :class:`FreeSpinsFeature` (spins, win moments, zero-win
  probability, win distribution of one feature).
* :mod:`slotmath.markov.jackpot`: progressive jackpot pools (renewal model with a reserve,
  hit-probability laws, stationary pool, value at hit, RTP contribution) and their simulator.
"""

from slotmath.markov.chains import (
    absorption_probabilities,
    acyclic_absorption,
    acyclic_moments,
    acyclic_order,
    expected_reward_to_absorption,
    fundamental_matrix,
    gth_solve,
    solve_exact,
)
from slotmath.markov.free_spins import FreeSpinsFeature, SpinCountDistribution
from slotmath.markov.jackpot import (
    ConstantLaw,
    DiscreteDistribution,
    HitProbabilityLaw,
    JackpotModel,
    JackpotPool,
    LinearLaw,
    PoolAnalysis,
    PoolSimulation,
    SaturatingLaw,
    analyze_pool,
    hit_law,
    simulate_pool,
)

__all__ = [
    "ConstantLaw",
    "DiscreteDistribution",
    "FreeSpinsFeature",
    "HitProbabilityLaw",
    "JackpotModel",
    "JackpotPool",
    "LinearLaw",
    "PoolAnalysis",
    "PoolSimulation",
    "SaturatingLaw",
    "SpinCountDistribution",
    "absorption_probabilities",
    "acyclic_absorption",
    "acyclic_moments",
    "acyclic_order",
    "analyze_pool",
    "expected_reward_to_absorption",
    "fundamental_matrix",
    "gth_solve",
    "hit_law",
    "simulate_pool",
    "solve_exact",
]
