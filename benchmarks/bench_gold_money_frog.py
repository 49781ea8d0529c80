"""Gold Money Frog: the whole analysis per bet level against the simulation it replaces.

For each bet level prints, side by side:

* the time of ``slotmath.analyze(game, level)`` to its RTP and every component (coin round by
  the full-cycle engine, the free-spins chain, the wheel-spins law, the three pools' renewal
  models, the cap's bracket), on a fresh ``Analysis``; the first level's time includes loading
  the numba cache, so level 1 is run twice and both times are shown,
* the RTP with its error bound,
* the seeded simulator's speed on the same game (rounds per second, pools evolving), and the
  rounds and time it would need for a 95% confidence half-width of 0.01% on the RTP (with the
  SD of the whole return, jackpots included) — the precision the rule sheet's RTP is quoted to
  and the analysis gives outright; and the ratio of the two times.

Run: ``python benchmarks/bench_gold_money_frog.py [--rounds 2000000] [--seed 1]``.
"""

from __future__ import annotations

import argparse
import resource
import time
from pathlib import Path

import slotmath
from slotmath.simulate import simulate

GAME = Path(__file__).resolve().parents[1] / "data/games/gold_money_frog.toml"


def timed_analysis(game, level):
    start = time.perf_counter()
    a = slotmath.analyze(game, level)
    _ = a.components, a.rtp, a.features["max_win_cap"], a.std_total
    return a, time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=2_000_000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    game = slotmath.load_game(GAME)

    _, cold = timed_analysis(game, 1)
    print(f"first analysis (level 1, numba cache load included): {cold:.2f} s")
    simulate(game, 10_000, seed=args.seed, level=1)  # compile / load the simulator's kernels
    print(f"{'level':>5} {'analyze':>9} {'RTP':>11} {'error':>8} {'sim rounds/s':>13} "
          f"{'rounds for +/-0.01%':>20} {'sim time':>10} {'ratio':>9}")
    for level in game.bet_levels:
        a, seconds = timed_analysis(game, level)
        start = time.perf_counter()
        sim = simulate(game, args.rounds, seed=args.seed, level=level)
        rate = sim.spins / (time.perf_counter() - start)
        needed = (1.96 * a.std_total / 1e-4) ** 2
        sim_time = needed / rate
        print(f"{level:>5} {seconds:>8.2f}s {a.rtp_float:>10.5%} {a.rtp_error:>8.1e} "
              f"{rate:>13,.0f} {needed:>20,.0f} {sim_time / 3600:>9.1f}h {sim_time / seconds:>9,.0f}x")
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak RSS {peak:,.0f} MB")


if __name__ == "__main__":
    main()
