"""Jingle Spin: the full conveyor analysis, stage by stage, against the simulation it replaces.

Prints, side by side:

* the time of each stage of the analysis on a fresh feature (the exact wild-line tables and
  the 243 spread classes, the free-spins chain over (spins left, conveyor) and its sweeps,
  the exact stationary law of the 32,768 conveyor states, the per-state RTPs, the RTP from
  reset) and their total, with a progress bar over the stages;
* the stationary RTP with its error bound, against ``target_rtp``;
* the seeded simulator's speed (consecutive paid spins carrying the conveyor), the spins and
  time it would need for a 95% half-width of 0.01% on the RTP (with the SD it measured), and
  the ratio of that time to the analysis'.

Run: ``python benchmarks/bench_jingle_spin.py [--spins 20000] [--seed 1]``.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np
from tqdm.auto import tqdm

import slotmath
from slotmath.features.conveyor import ConveyorFeature
from slotmath.simulate.conveyor import simulate_conveyor

GAME = Path(__file__).resolve().parents[1] / "data/games/jingle_spin.toml"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--spins", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    game = slotmath.load_game(GAME)
    feature = ConveyorFeature(game)
    figures = {}
    stages = [
        ("wild-line tables", lambda: feature.base_lines._table),
        ("free-spins chain: build", lambda: feature._free),
        ("free-spins chain: sweeps", lambda: feature._free_values),
        ("stationary law + per-state RTP", lambda: figures.setdefault("f", feature.analyze())),
        ("RTP from reset (N <= 1000)", lambda: figures["f"].rtp_from_reset()),
    ]
    times = {}
    for name, run in tqdm(stages, desc="Jingle Spin analysis", unit="stage"):
        start = time.perf_counter()
        run()
        times[name] = time.perf_counter() - start
    total = sum(times.values())
    f = figures["f"]
    print(f"{'stage':<34}{'seconds':>10}")
    for name, t in times.items():
        print(f"{name:<34}{t:>10.2f}")
    print(f"{'whole analysis':<34}{total:>10.2f}")
    print(f"stationary RTP {100 * float(f.rtp):.5f}% (error <= {f.error:.1e}), target "
          f"{float(game.target_rtp):.2f}%: off by {100 * float(f.rtp) - float(game.target_rtp):+.5f}"
          " points")
    start = time.perf_counter()
    sim = simulate_conveyor(game, args.spins, args.seed, progress=True)
    elapsed = time.perf_counter() - start
    sd = sim.std_error * np.sqrt(args.spins)  # batch-means SD per spin
    needed = (1.96 * sd / 1e-4) ** 2
    rate = args.spins / elapsed
    print(f"simulation: {args.spins} spins in {elapsed:.1f} s ({rate:,.0f} spins/s), RTP "
          f"{100 * sim.rtp:.3f}% +- {100 * 1.96 * sim.std_error:.3f} (95%)")
    print(f"for +-0.01% (95%): {needed:,.3g} spins, {needed / rate / 3600:,.1f} h; "
          f"ratio to the analysis: {needed / rate / total:,.0f}x")


if __name__ == "__main__":
    main()
