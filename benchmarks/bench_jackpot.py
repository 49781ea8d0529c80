"""Jackpot pool: the stationary analysis against a seeded simulation, side by side.

A Super-like pool (seed 5000 EUR, 4% contribution, 10% of it reserved for the next jackpot,
bet 1 EUR, the hit probability linear in the pool, a bonus wheel in about one round in fifty,
about one hit per 130,000 rounds). Prints:

* the time of ``analyze_pool`` (lattice, grid chain, GTH, the coarse solve for the error bound;
  after a warm-up that loads the numba cache) and of the distributions it adds on demand,
* the time of ``simulate_pool`` over ``--rounds`` rounds (default 10^7),
* every figure from both, the analysis with its error bound, the simulation with its standard
  error (batch means over cycles), and the simulated rounds it would take for the standard
  error of the mean rounds between hits to come down to the analysis's error bound.

Run: ``python benchmarks/bench_jackpot.py [--rounds 10000000] [--seed 1]``.
"""

from __future__ import annotations

import argparse
import os
import time
from fractions import Fraction

import numpy as np

from slotmath.markov.jackpot import JackpotModel, JackpotPool, LinearLaw, analyze_pool

SUPER = JackpotPool("Super", 5000, "0.04", "0.1", LinearLaw(4e-8))
WHEEL = {0: Fraction(49, 50), 1: Fraction(19, 1000), 2: Fraction(1, 1000)}
FIGURES = [
    "mean_rounds_between_hits",
    "hit_value_mean",
    "rtp_contribution",
    "mean_pool",
    "mean_restart_value",
]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=10_000_000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    model = JackpotModel(SUPER, 1, WHEEL)
    print(
        f"pool: {SUPER.name}, seed {SUPER.seed}, c {float(SUPER.contribution):.1%}, "
        f"r {float(SUPER.reserve_fraction):.0%}, law {SUPER.law}, bet {model.bet} EUR, "
        f"E[K] = {float(model.mean_chances)} chances per round; {os.cpu_count()} CPUs"
    )

    start = time.perf_counter()
    _ = analyze_pool(SUPER, 1, {0: 0.5, 1: 0.5}).cycle_length_distribution  # warm-up
    print(f"warm-up (numba cache load or compile): {time.perf_counter() - start:.2f} s")

    start = time.perf_counter()
    analysis = analyze_pool(SUPER, 1, WHEEL)
    bounds = analysis.error_bounds
    t_analysis = time.perf_counter() - start
    start = time.perf_counter()
    _ = analysis.stationary_pool, analysis.hit_value_distribution
    _ = analysis.cycle_length_distribution
    t_laws = time.perf_counter() - start

    start = time.perf_counter()
    sim = model.simulate(args.rounds, np.random.default_rng(args.seed))
    t_sim = time.perf_counter() - start

    print(
        f"\nanalyze_pool + error bounds: {t_analysis:8.3f} s   "
        f"(grid {analysis.grid_size} start values {analysis.grid_spacing:.2f} EUR apart, "
        f"lattice of {len(analysis.stationary_pool.values):,} pool values)"
    )
    print(f"the three laws on demand:    {t_laws:8.3f} s")
    print(
        f"simulate_pool, {args.rounds:,} rounds: {t_sim:6.3f} s   ({sim.hits} hits, "
        f"{args.rounds / t_sim:,.0f} rounds/s)"
    )

    print(
        f"\n{'figure':34s} {'analysis':>16s} {'+- bound':>10s} {'simulation':>16s} {'+- SE':>10s}"
    )
    for figure in FIGURES:
        value, bound = getattr(analysis, figure), bounds[figure]
        estimate, se = sim.estimate(figure)
        print(f"{figure:34s} {value:16.8g} {bound:10.2g} {estimate:16.8g} {se:10.2g}")
    print(
        f"{'rtp_from_identity':34s} {analysis.rtp_from_identity:16.8g} "
        f"{bounds['rtp_from_identity']:10.2g} {sim.paid_per_unit_bet:16.8g} "
        f"{'(whole run)':>10s}"
    )
    print(f"{'hits per wheel spin':34s} {analysis.expected_hit_probability_per_spin:16.8g}")
    print(f"{'truncated mass':34s} {analysis.truncated_mass:16.2g}")

    _, se = sim.estimate("mean_rounds_between_hits")
    needed = args.rounds * (se / bounds["mean_rounds_between_hits"]) ** 2
    print(
        f"\nrounds a simulation needs for its SE of the mean rounds between hits to reach the "
        f"analysis's bound: {needed:.2g} (about {needed / args.rounds * t_sim / 3600:,.0f} h "
        f"at this speed)"
    )


if __name__ == "__main__":
    main()
