"""Grid games: the worked examples' up-front estimates and simulated figures, the simulator's
speed on 1 and 2 threads, and the exact Megaways programme against the full enumeration.

Prints, for each bundled grid game of ``data/games/`` (Megaways Bonanza, Sugar Tumble, Cluster Crush):
the estimate of every exact engine (steps, states), the method ``auto`` chooses and why, the
seeded simulated RTP with its 95 % interval over ``--rounds`` rounds, and rounds per second
on 1 and on 2 threads (whole rounds, free spins included, after a warm-up), with the load
average beside them. Then the Megaways Bonanza base game without tumbles, free spins or cap
(6 reels of 100 stops, heights 2-7, the top reel): the exact ways programme's time, and the
full enumeration of the same paid spin on its first 3 reels (the baseline, whose cost is the
product of per-reel outcomes) against the programme on those 3 reels, side by side.

Run: ``python -u benchmarks/bench_grid.py [--rounds 500000]``.
"""

from __future__ import annotations

import argparse
import os
import time
from dataclasses import replace
from pathlib import Path

import slotmath
from slotmath.exact.grid_enumerate import enumerate_spin
from slotmath.exact.grid_ways import ways_law
from slotmath.features.grid import plan
from slotmath.simulate.grid import simulate_grid

EXAMPLES = Path(__file__).resolve().parents[1] / "data" / "games"
GAMES = ("megaways_bonanza", "sugar_tumble", "cluster_crush")


def load() -> str:
    one, five, fifteen = os.getloadavg()
    return f"load average {one:.2f} {five:.2f} {fifteen:.2f}"


def examples(rounds: int) -> None:
    for name in GAMES:
        game = slotmath.load_game(EXAMPLES / f"{name}.toml")
        p = plan(game)
        print(f"== {game.name} ({name}.toml)")
        for o in p.options:
            print(f"   exact engine {o.engine}: ~{o.steps:.3g} steps, {o.states:.3g} states, "
                  f"~{o.seconds:.3g} s estimated")
        if not p.options:
            print(f"   no exact engine applies: {p.blocked}")
        print(f"   method: {p.text()}")
        simulate_grid(game, rounds=1 << 16, seed=99)  # warm-up (compilation)
        speeds = {}
        for threads in (1, 2):
            t = time.perf_counter()
            sim = simulate_grid(game, rounds=rounds, seed=game.analysis.seed, threads=threads)
            speeds[threads] = rounds / (time.perf_counter() - t)
        lo, hi = sim.rtp.interval()
        print(f"   simulated RTP {float(sim.rtp):.4%} (95%: {lo:.4%} to {hi:.4%}), "
              f"{rounds:,} rounds, seed {game.analysis.seed}; SD {float(sim.std):.3f}")
        print(f"   rounds/s: 1 thread {speeds[1]:,.0f}, 2 threads {speeds[2]:,.0f} "
              f"(ratio {speeds[2] / speeds[1]:.2f}); {load()}")
        need = (1.96 * float(sim.std) / float(game.analysis.accuracy)) ** 2
        print(f"   rounds for its accuracy {float(game.analysis.accuracy)}: ~{need:,.0f} "
              f"(~{need / speeds[2]:,.0f} s on 2 threads)")


#: stops kept on each of the baseline's 3 reels (the enumeration costs (stops x 6)^3)
STOPS = 30


def _cut(reel, stops: int):
    return replace(reel, symbols=reel.symbols[:stops], weights=None)


def megaways_exact() -> None:
    game = slotmath.load_game(EXAMPLES / "megaways_bonanza.toml")
    base = replace(game, tumbles=None, free_spins=None, max_win=None, analysis=None)
    t = time.perf_counter()
    law = ways_law(base)
    full = time.perf_counter() - t
    print(f"== Megaways Bonanza paid spin, no tumbles (6 x 100 stops, heights 2-7, top reel):"
          f" ways programme {full:.3f} s; RTP {float(law.mean_bets):.6%}, "
          f"P(max {law.max_ways:,} ways) = {float(law.max_ways_probability):.3e}; {load()}")
    grid = base.grid
    three = replace(base, rows=base.rows[:3],
                    grid=replace(grid, heights=grid.heights[:3], top_reel=None),
                    reel_sets={k: replace(v, reels=tuple(_cut(r, STOPS) for r in v.reels[:3]))
                               for k, v in base.reel_sets.items()})
    t = time.perf_counter()
    prog = ways_law(three)
    t_prog = time.perf_counter() - t
    t = time.perf_counter()
    enum = enumerate_spin(three)
    t_enum = time.perf_counter() - t
    assert enum.mean_bets == prog.mean_bets, "the two exact engines disagree"
    print(f"   first 3 reels cut to {STOPS} stops, no top reel: programme {t_prog:.4f} s, full enumeration "
          f"{t_enum:.3f} s (baseline), ratio {t_enum / t_prog:.0f}x, equal RTP "
          f"{float(prog.mean_bets):.6%}; {load()}")


def tumble_exact(stops: int) -> None:
    """The whole-round enumeration of a 5x3 pay-anywhere tumble game (strip refill) with
    ``stops`` seeded stops per reel: its estimate and its measured time."""
    import numpy as np

    from slotmath.io.toml_loader import game_from_dict

    rng = np.random.default_rng(5)
    names = ["A", "B", "C", "D", "X"]
    game = game_from_dict({
        "name": f"tumble 5x3 {stops}", "pays": "anywhere", "rows": 3, "bet": 1,
        "symbols": {"A": {"pays": {"5": 2, "7": 10}}, "B": {"pays": {"5": 1, "7": 5}},
                    "C": {"pays": {"6": 1}}, "D": {"pays": {"6": 1}}, "X": {}},
        "tumbles": {"refill": "strip"},
        "reels": {"base": [[names[i] for i in rng.integers(0, 5, stops)] for _ in range(5)]}},
        "bench")
    p = plan(game)
    t = time.perf_counter()
    a = slotmath.analyze(game)
    rtp = a.rtp
    took = time.perf_counter() - t
    print(f"== 5x3 pay-anywhere tumble game, {stops} stops per reel ({stops ** 5:,} stop "
          f"combinations): {p.text()}; exact {a.exact}, RTP {float(rtp):.6f}, {took:.1f} s "
          f"wall; {load()}")


def main() -> None:
    a = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    a.add_argument("--rounds", type=int, default=500_000)
    a.add_argument("--tumble-stops", type=int, default=None, metavar="N",
                   help="also time the exact enumeration of a 5x3 tumble game of N stops "
                        "(31 took 57 s at load 4.5)")
    args = a.parse_args()
    if args.tumble_stops:
        tumble_exact(args.tumble_stops)
    megaways_exact()
    examples(args.rounds)


if __name__ == "__main__":
    main()
