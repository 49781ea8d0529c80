"""Simulation speed: the numba simulator against a plain-Python loop over PayModel.

Builds (in code, seeded) a 25-line 5x3 game with 100-stop strips, a wild, a scatter and
8 paying symbols, with scatter-triggered free spins, then prints side by side:

* paid spins per second of ``simulate`` (whole rounds, features included) after a warm-up,
* the same for a copy of the game without free spins (base spins only),
* paid spins per second of a plain-Python loop (draw stops, build the window,
  ``PayModel.spin_win``) over a few thousand spins, the baseline,
* the ratio.

Run: ``python benchmarks/bench_simulate.py [--spins 20000000]``.
"""

from __future__ import annotations

import argparse
import os
import time
from dataclasses import replace

import numpy as np

from slotmath.evaluate.window import PayModel, window_at
from slotmath.io.toml_loader import game_from_dict
from slotmath.simulate import simulate

PAYLINES = [
    [1, 1, 1, 1, 1], [0, 0, 0, 0, 0], [2, 2, 2, 2, 2], [0, 1, 2, 1, 0], [2, 1, 0, 1, 2],
    [0, 0, 1, 2, 2], [2, 2, 1, 0, 0], [1, 0, 0, 0, 1], [1, 2, 2, 2, 1], [0, 1, 1, 1, 0],
    [2, 1, 1, 1, 2], [1, 0, 1, 2, 1], [1, 2, 1, 0, 1], [0, 1, 0, 1, 0], [2, 1, 2, 1, 2],
    [1, 1, 0, 1, 1], [1, 1, 2, 1, 1], [0, 0, 2, 0, 0], [2, 2, 0, 2, 2], [0, 2, 0, 2, 0],
    [2, 0, 2, 0, 2], [0, 2, 2, 2, 0], [2, 0, 0, 0, 2], [1, 0, 2, 0, 1], [1, 2, 0, 2, 1],
]


def benchmark_game(seed: int = 2024):
    """A 25-line 5x3 game with 100-stop strips, built from a seeded generator."""
    rng = np.random.default_rng(seed)
    symbols = {
        "W": {"wild": True, "pays": {"3": 150, "4": 750, "5": 3000}},
        "SC": {"scatter": True, "pays": {"3": 5, "4": 25, "5": 100}},
        "H1": {"pays": {"3": 75, "4": 300, "5": 1500}},
        "H2": {"pays": {"3": 60, "4": 225, "5": 900}},
        "H3": {"pays": {"3": 45, "4": 150, "5": 600}},
        "H4": {"pays": {"3": 30, "4": 120, "5": 450}},
        "L1": {"pays": {"2": 2, "3": 15, "4": 60, "5": 300}},
        "L2": {"pays": {"3": 15, "4": 45, "5": 225}},
        "L3": {"pays": {"3": 12, "4": 30, "5": 150}},
        "L4": {"pays": {"3": 10, "4": 30, "5": 120}},
    }
    names = list(symbols)
    counts = {"W": 3, "SC": 3, "H1": 6, "H2": 7, "H3": 8, "H4": 9, "L1": 14, "L2": 16,
              "L3": 17, "L4": 17}  # 100 stops per reel

    def strip(wild: bool) -> list[str]:
        stops = [n for n in names for _ in range(counts[n]) if wild or n != "W"]
        stops += ["L4"] * (100 - len(stops))
        return [str(s) for s in rng.permutation(stops)]

    data = {
        "name": "bench 25-line 5x3",
        "rows": 3,
        "bet": 25,
        "paylines": PAYLINES,
        "symbols": symbols,
        "reels": {
            "base": [strip(wild=j > 0) for j in range(5)],
            "free": [strip(wild=True) for _ in range(5)],
        },
        "free_spins": {"trigger": "SC", "awards": {"3": 10, "4": 15, "5": 20}, "reels": "free",
                       "multiplier": 1, "retrigger": True, "max_spins": 100},
    }
    return game_from_dict(data, "<benchmark>")


def plain_python_spins_per_second(game, spins: int, seed: int = 1) -> float:
    """The baseline: draw stops, build the window and pay it with PayModel, one by one."""
    rng = np.random.default_rng(seed)
    model = PayModel(game)
    reels = game.base
    lengths = [len(reel) for reel in reels.reels]
    start = time.perf_counter()
    total = 0
    for _ in range(spins):
        stops = [int(rng.integers(n)) for n in lengths]
        total += model.spin_win(window_at(game, reels, stops))
    return spins / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--spins", type=int, default=20_000_000)
    parser.add_argument("--baseline-spins", type=int, default=3_000)
    args = parser.parse_args()

    game = benchmark_game()
    base_only = replace(game, free_spins=None)
    print(f"game: {game.name}, {game.n_lines} lines, strips of "
          f"{len(game.base.reels[0])} stops; {os.cpu_count()} CPUs")

    start = time.perf_counter()
    simulate(game, 100_000, seed=0)
    simulate(base_only, 100_000, seed=0)
    print(f"warm-up (numba compile or cache load): {time.perf_counter() - start:.2f} s")

    rows = []
    for label, g in (("simulate, rounds with free spins", game),
                     ("simulate, base spins only", base_only)):
        start = time.perf_counter()
        result = simulate(g, args.spins, seed=1)
        seconds = time.perf_counter() - start
        rows.append((label, args.spins / seconds, seconds, result))
    baseline = plain_python_spins_per_second(base_only, args.baseline_spins)

    print(f"\n{'':36s} {'spins/s':>14s} {'seconds':>9s}  result")
    for label, rate, seconds, result in rows:
        print(f"{label:36s} {rate:14,.0f} {seconds:9.2f}  rtp {result.rtp:.4f} "
              f"+- {result.std_error:.4f}, hit {result.hit_frequency:.4f}, "
              f"trigger 1 in {1 / result.trigger_rate if result.trigger_rate else float('inf'):,.0f}")
    print(f"{'plain Python PayModel loop':36s} {baseline:14,.0f}")
    for label, rate, _, _ in rows:
        print(f"ratio {label} / plain Python: {rate / baseline:,.0f}x")


if __name__ == "__main__":
    main()
