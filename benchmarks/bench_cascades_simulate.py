"""Cascade simulator speed (slotmath.simulate.cascades): spins per second.

Builds (in code, seeded) a Frozen-Gems-shaped game: 5x3 ways, 40-stop strips, a wild, a
scatter, cascades with a multiplier 1, 2, 3, ..., frozen bonus symbols (two x2, two wild and
one x3, or two x2, one wild and two x3, shuffled) and free spins carrying the multiplier
(9 spins for 3 scatters, +1 per scatter, at most 50). It prints, after a warm-up (numba
compilation excluded), for strip and random refill:

* paid rounds per second and spins per second (paid + free) of ``simulate_cascades``,
* the RTP estimate and its standard error, the mean cascades per paid spin.

With ``data/games/frozen_gems.toml`` present and loadable (the lead's game file), it is
simulated too.

``--cross-check`` adds a heavy run (about 30-60 s): the same mechanics on 12-stop strips,
written as a game file (the loader's model, not hand-made rules), analysed exactly by
``slotmath.analyze`` and simulated; it prints both RTPs, every component side by side and the
z-score (the tests do this on tiny games only; this is the engine against the simulator on a
game the brute-force reference cannot enumerate).

Run: ``python benchmarks/bench_cascades_simulate.py [--spins 1000000] [--cross-check]``.
"""

from __future__ import annotations

import argparse
import os
import time

import numpy as np

from slotmath.io.toml_loader import game_from_dict
from slotmath.simulate.cascades import CascadeRules, MultiplierRule, simulate_cascades

NAMES = ["W", "S", "H1", "H2", "H3", "L1", "L2", "L3", "L4"]
COUNTS = {"W": 1, "S": 1, "H1": 3, "H2": 4, "H3": 5, "L1": 6, "L2": 6, "L3": 7, "L4": 7}


def benchmark_game(seed: int = 2026):
    rng = np.random.default_rng(seed)
    symbols = {
        "W": {"wild": True},
        "S": {"scatter": True, "pays": {"3": 5, "4": 10, "5": 15, "6": 20}},
        "H1": {"pays": {"3": 5, "4": 10, "5": 25}},
        "H2": {"pays": {"3": 4, "4": 8, "5": 20}},
        "H3": {"pays": {"3": 3, "4": 6, "5": 15}},
        "L1": {"pays": {"3": 1, "4": 2, "5": 5}},
        "L2": {"pays": {"3": 1, "4": 2, "5": 4}},
        "L3": {"pays": {"3": 1, "4": 2, "5": 3}},
        "L4": {"pays": {"3": 1, "4": 1, "5": 2}},
    }

    def strip() -> list[str]:
        stops = [n for n in NAMES for _ in range(COUNTS[n])]
        return [str(s) for s in rng.permutation(stops)]

    data = {
        "name": "bench cascades", "rows": 3, "bet": 10000, "ways": True, "symbols": symbols,
        "reels": {"base": [strip() for _ in range(5)], "free": [strip() for _ in range(5)]},
        "free_spins": {"trigger": "S", "awards": {"3": 9}, "reels": "free", "retrigger": True,
                       "max_spins": 50},
    }
    game = game_from_dict(data, "<bench>")
    table = {n: COUNTS[n] for n in NAMES}
    rules = CascadeRules(
        multiplier=MultiplierRule(1, 1), carry_multiplier=True,
        refill_weights={"base": (table,) * 5, "free": (table,) * 5},
        threshold=3, accumulate=True,
        effects={"SPLIT2": ("split", 2), "SPLIT3": ("split", 3), "BONUS_WILD": ("wild", "W")},
        arrangements=((1, ("SPLIT2", "SPLIT2", "BONUS_WILD", "BONUS_WILD", "SPLIT3")),
                      (1, ("SPLIT2", "SPLIT2", "BONUS_WILD", "SPLIT3", "SPLIT3"))),
        retrigger_awards={1: 1, 2: 2, 3: 3, 4: 4, 5: 5}, scatter_pays=False,
    )
    return game, rules


def cross_check_game(stops: int = 12, seed: int = 7):
    """A 5x3 ways game with [cascades], [bonus_symbols] and carried free spins, as a dict."""
    rng = np.random.default_rng(seed)
    pool = ["W", "S", "H1", "H2", "L1", "L1", "L2", "L2", "X", "X", "X", "H1"][:stops]

    def strip() -> list[str]:
        return [str(s) for s in rng.permutation(pool)]

    arrangements = [["SPLIT2", "SPLIT2", "BONUS_WILD", "BONUS_WILD", "SPLIT3"],
                    ["SPLIT2", "SPLIT2", "BONUS_WILD", "SPLIT3", "SPLIT3"]]
    return {
        "name": "cross-check", "rows": 3, "bet": 1000, "ways": True,
        "symbols": {"W": {"wild": True}, "S": {"scatter": True, "pays": {"3": 2, "4": 5}},
                    "H1": {"pays": {"3": 5, "4": 10, "5": 20}},
                    "H2": {"pays": {"3": 4, "4": 8, "5": 15}},
                    "L1": {"pays": {"3": 1, "4": 2, "5": 4}},
                    "L2": {"pays": {"3": 1, "4": 2, "5": 3}}, "X": {}},
        "reels": {"base": [strip() for _ in range(5)], "free": [strip() for _ in range(5)]},
        "cascades": {"refill": "strip", "multiplier": {"start": 1, "step": 1},
                     "carry_multiplier": True},
        "bonus_symbols": {
            "threshold": 3, "accumulate": True, "shuffle": True,
            "effects": {"SPLIT2": {"split": 2}, "SPLIT3": {"split": 3},
                        "BONUS_WILD": {"wild": "W"}},
            "arrangements": [{"weight": 1, "symbols": a} for a in arrangements]},
        "free_spins": {"trigger": "S", "awards": {"3": 3}, "reels": "free", "retrigger": True,
                       "retrigger_awards": {"1": 1}, "max_spins": 8, "scatter_pays": False},
    }


def cross_check(spins: int) -> None:
    import slotmath

    game = game_from_dict(cross_check_game(), "<cross-check>")
    began = time.perf_counter()
    analysis = slotmath.analyze(game)
    exact = analysis.rtp
    seconds = time.perf_counter() - began
    result = simulate_cascades(game, spins, seed=3)
    print(f"cross-check (5x3, 12-stop strips, bonus symbols, carried free spins to 8), "
          f"{spins:,} rounds:")
    print(f"  exact RTP {float(exact):.6f} ({seconds:.1f} s, compilation included)   "
          f"simulated {result.rtp:.6f} +- {result.std_error:.6f}   "
          f"z = {result.z_score(exact):+.2f}")
    parts = (("ways", "first_drop"), ("cascades", "later_drops"), ("scatter", "scatter"),
             ("free_spins", "free_spins"))
    for exact_name, simulated in parts:
        value = float(analysis.components.get(exact_name, 0))
        estimate = getattr(result, simulated)
        error = result.component_std_errors[simulated]
        z = (estimate - value) / error if error else 0.0
        print(f"  {exact_name:10s} exact {value:.6f}  simulated {estimate:.6f} +- "
              f"{error:.6f}  z = {z:+.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--spins", type=int, default=1_000_000)
    parser.add_argument("--cross-check", action="store_true",
                        help="also: exact engine vs simulator on a 12-stop game (heavy)")
    args = parser.parse_args()
    game, rules = benchmark_game()
    print(f"cascade simulator, {args.spins:,} paid rounds, 5x3 ways, 40-stop strips, "
          f"{os.cpu_count()} cores on the machine (the kernel is single-threaded)")
    for refill in ("strip", "random"):
        r = CascadeRules(**{**rules.__dict__, "refill": refill})
        simulate_cascades(game, 1000, seed=0, rules=r)  # warm-up / compile
        began = time.perf_counter()
        result = simulate_cascades(game, args.spins, seed=1, rules=r)
        wall = time.perf_counter() - began
        mean_cascades = sum(c * f for c, f in result.cascade_counts.items())
        print(f"  refill={refill:6s}  {args.spins / wall:12,.0f} paid rounds/s  "
              f"{result.spins_per_second:12,.0f} spins/s (paid + free, kernel time)  "
              f"RTP {result.rtp:.4f} +- {result.std_error:.4f}  "
              f"cascades/spin {mean_cascades:.3f}  trigger 1 in "
              f"{1 / result.trigger_rate if result.trigger_rate else float('inf'):,.0f}")
    path = "data/games/frozen_gems.toml"
    if os.path.exists(path):
        import slotmath

        try:
            frozen = slotmath.load_game(path)
            simulate_cascades(frozen, 1000, seed=0)
        except (ValueError, AttributeError, slotmath.GameFileError) as exc:  # not there yet
            print(f"  {path}: not simulated ({type(exc).__name__}: {exc})")
        else:
            began = time.perf_counter()
            result = simulate_cascades(frozen, args.spins, seed=1)
            wall = time.perf_counter() - began
            print(f"  {path}: {args.spins / wall:12,.0f} paid rounds/s  "
                  f"{result.spins_per_second:12,.0f} spins/s  RTP {result.rtp:.5f} +- "
                  f"{result.std_error:.5f}")
    if args.cross_check:
        cross_check(args.spins)


if __name__ == "__main__":
    main()
