"""Jingle Spin: the round's PAR figures (hit frequency, SD, win sizes, top award, covariances
of consecutive rounds), stage by stage, beside the RTP analysis they add to.

Prints, side by side in one run:

* the time of the RTP analysis as before (``ConveyorFeature.analyze``) and of each stage the
  round's figures add (the exact line law of every wild option pattern, in this process
  and over the worker processes; the free spins' moments; the spin law mixed over the
  stationary conveyor law; win sizes and top award; covariances), each as a ratio to the
  analysis, with the table store off (every stage computed) and then read from the store;
* the figures: hit frequency, SD, asymptotic SD, top award "1 in N", with their errors;
* the seeded simulator's speed and the spins it would need to measure the hit frequency
  to +-0.0001 (95%), against the exact figure's time.

Run: ``python benchmarks/bench_conveyor_round.py [--spins 5000]``. Report ``uptime`` beside it.
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from pathlib import Path

import slotmath
from slotmath.exact.random_wilds import WildSpinLaw
from slotmath.features.conveyor import ConveyorFeature
from slotmath.simulate.conveyor import simulate_conveyor

GAME = Path(__file__).resolve().parents[1] / "data/games/jingle_spin.toml"


def _timed(run) -> float:
    start = time.perf_counter()
    run()
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--spins", type=int, default=5000)
    args = parser.parse_args()
    os.environ["SLOTMATH_CACHE_DIR"] = tempfile.mkdtemp(prefix="bench-conveyor-store-")
    game = slotmath.load_game(GAME)
    WildSpinLaw(game, "base")._rows((None,) * game.n_reels)  # compile the kernels first
    feature = ConveyorFeature(game)
    figures = {}
    times = {"RTP analysis (before)": _timed(lambda: figures.setdefault("f", feature.analyze()))}
    f = figures["f"]
    os.environ["SLOTMATH_CACHE"] = "off"
    times["pattern line laws, 1 process"] = _timed(lambda: _serial(game))
    del os.environ["SLOTMATH_CACHE"]
    times["pattern line laws, workers"] = _timed(lambda: feature.base_spin_table.laws)
    times["free spins' moments"] = _timed(lambda: feature.free_spin_moments)
    times["spin law + round + covariances"] = _timed(lambda: f.round)
    times["win sizes + top award"] = _timed(lambda: (f.round.win_sizes(), f.round.top_award))
    times["pattern laws from the store"] = _timed(lambda: WildSpinLaw(game, "base").laws)
    base = times["RTP analysis (before)"]
    print(f"{'stage':<34}{'seconds':>10}{'x analysis':>12}")
    for name, t in times.items():
        print(f"{name:<34}{t:>10.2f}{t / base:>12.2f}")
    added = sum(t for k, t in times.items()
                if k not in ("RTP analysis (before)", "pattern line laws, 1 process",
                             "pattern laws from the store"))
    print(f"{'round figures added (workers)':<34}{added:>10.2f}{added / base:>12.2f}")
    r = f.round
    e = r.errors
    top = r.top_award
    print(f"hit frequency {float(r.hit_frequency):.12f} (error <= {e['hit_frequency']:.1e}), "
          f"1 in {1 / float(r.hit_frequency):.4f}")
    print(f"SD {r.std:.10f} (variance error <= {e['variance']:.1e}); asymptotic SD of "
          f"consecutive rounds {r.asymptotic_variance ** 0.5:.6f}")
    print(f"top award of the paid spin {float(top.multiple):g} x bet, probability "
          f"{top.probability} = 1 in {top.one_in:.4g}")
    start = time.perf_counter()
    sim = simulate_conveyor(game, args.spins, seed=1, progress=True)
    elapsed = time.perf_counter() - start
    hit, se = sim.hit_frequency()
    rate = args.spins / elapsed
    needed = (1.96 * se * args.spins**0.5 / 1e-4) ** 2
    print(f"simulation: {args.spins} spins in {elapsed:.1f} s ({rate:,.0f} spins/s): hit "
          f"frequency {hit:.4f} +- {1.96 * se:.4f} (95%)")
    print(f"for +-0.0001 on the hit frequency: {needed:,.3g} spins, {needed / rate / 3600:,.1f}"
          f" h; ratio to the exact figures: {needed / rate / added:,.0f}x")


def _serial(game) -> None:
    """The 1024 spread patterns' DP runs in this process, one after the other."""
    import itertools

    law = WildSpinLaw(game, "base")
    for spreads in itertools.product(*([None, *range(r)] for r in game.rows)):
        law._rows(spreads)


if __name__ == "__main__":
    main()
