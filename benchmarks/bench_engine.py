"""Exact engine speed, measured side by side in one run.

Prints, for the 25-line 5x3 benchmark game with 100-stop strips (1e10 stop combinations; the
same seeded game as benchmarks/bench_simulate.py):
* exact mean RTP by the direct method (median of repeated runs),
* the exact full distribution by the reel-by-reel DP (first run, with JIT loading, and the
  steady-state median), with the process's peak memory,
* the plain brute force (slotmath.exact.brute) on the same game: its rate measured on a
  slice of the cycle (reel 1 fixed to a few stops), extrapolated to the whole cycle, and
  the ratio;
* the whole analysis (base and free-spin tables, free-spins chain, round distribution),
* the simulator's rounds per second on the same game, its RTP against the exact one;
and, for a smaller 25-line game with 12-stop strips (248,832 combinations), the DP against
the brute force run in full, with both answers compared for equality.

Run: python benchmarks/bench_engine.py
"""

from __future__ import annotations

import itertools
import random
import resource
import statistics
import time

from bench_simulate import benchmark_game  # same game as the simulation benchmark

import slotmath
from slotmath import report
from slotmath.evaluate.window import PayModel, window_at
from slotmath.exact.brute import brute_force
from slotmath.exact.cycle import spin_table
from slotmath.exact.direct import direct_method
from slotmath.io.toml_loader import game_from_dict
from slotmath.simulate import simulate

LINES = [
    [1, 1, 1, 1, 1], [0, 0, 0, 0, 0], [2, 2, 2, 2, 2], [0, 1, 2, 1, 0], [2, 1, 0, 1, 2],
    [0, 0, 1, 2, 2], [2, 2, 1, 0, 0], [1, 0, 0, 0, 1], [1, 2, 2, 2, 1], [0, 1, 1, 1, 0],
    [2, 1, 1, 1, 2], [1, 0, 1, 2, 1], [1, 2, 1, 0, 1], [0, 1, 0, 1, 0], [2, 1, 2, 1, 2],
    [1, 1, 0, 1, 1], [1, 1, 2, 1, 1], [0, 0, 2, 0, 0], [2, 2, 0, 2, 2], [0, 2, 0, 2, 0],
    [2, 0, 2, 0, 2], [0, 2, 2, 2, 0], [2, 0, 0, 0, 2], [1, 0, 2, 0, 1], [1, 2, 0, 2, 1],
]
SYMBOLS = {
    "W": {"wild": True, "pays": {"3": 50, "4": 250, "5": 2500}},
    "SC": {"scatter": True, "pays": {"3": 2, "4": 10, "5": 100}},
    "7": {"pays": {"3": 40, "4": 200, "5": 1000}},
    "BAR": {"pays": {"3": 25, "4": 100, "5": 500}},
    "BELL": {"pays": {"3": 15, "4": 60, "5": 250}},
    "PLUM": {"pays": {"3": 10, "4": 40, "5": 150}},
    "ORANGE": {"pays": {"3": 8, "4": 25, "5": 100}},
    "LEMON": {"pays": {"3": 5, "4": 20, "5": 80}},
    "CHERRY": {"pays": {"2": 1, "3": 5, "4": 15, "5": 60}},
}
COUNTS_12 = {"W": 1, "SC": 1, "7": 1, "BAR": 1, "BELL": 1, "PLUM": 1, "ORANGE": 2,
             "LEMON": 2, "CHERRY": 2}


def make_game(counts: dict[str, int], seed: int = 3):
    rng = random.Random(seed)
    reels = []
    for _ in range(5):
        strip = [s for s, c in counts.items() for _ in range(c)]
        rng.shuffle(strip)
        reels.append(strip)
    data = {"name": f"bench {len(reels[0])}-stop", "rows": 3, "bet": 25, "paylines": LINES,
            "symbols": SYMBOLS, "reels": {"base": reels}}
    return game_from_dict(data, "<benchmark>")


def timed(fn, repeat: int) -> tuple[float, list[float], object]:
    times, result = [], None
    for _ in range(repeat):
        t0 = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times), times, result


def brute_rate(game, first_stops: int) -> float:
    """Stop combinations per second of the plain brute force on a slice of the cycle."""
    model = PayModel(game)
    rs = game.base
    ranges = [range(first_stops)] + [range(len(r)) for r in rs.reels[1:]]
    t0 = time.perf_counter()
    n = 0
    for stops in itertools.product(*ranges):
        model.spin_win(window_at(game, rs, stops))
        n += 1
        if n >= 200_000:
            break
    return n / (time.perf_counter() - t0)


def peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def main() -> None:
    big = benchmark_game()
    print(f"game: {big.name}, 25 lines, cycle {big.base.cycle:,} stop combinations")
    t_mean, _, d = timed(lambda: direct_method(big), 7)
    print(f"exact mean RTP (direct method)      {t_mean * 1e3:8.1f} ms   RTP {float(d.rtp):.6f}")
    t0 = time.perf_counter()
    table = spin_table(big)
    first = time.perf_counter() - t0
    t_dist, runs, table = timed(lambda: spin_table(big), 5)
    assert table.mean_bets == d.rtp
    print(f"exact full distribution (DP), first {first:8.3f} s    (JIT load/compile included)")
    print(f"exact full distribution (DP), steady{t_dist:8.3f} s    runs "
          + " ".join(f"{t:.3f}" for t in runs))
    print(f"  distinct wins {len(table.credits_weights()):,}; peak RSS so far "
          f"{peak_rss_mb():,.0f} MB")
    rate = brute_rate(big, 1)
    brute_seconds = big.base.cycle / rate
    print(f"plain brute force: {rate:,.0f} combinations/s measured on 200,000 -> "
          f"{brute_seconds / 86400:,.1f} days for the cycle (extrapolated)")
    print(f"ratio brute force / DP              {brute_seconds / t_dist:12,.0f} x")
    a = slotmath.analyze(big)
    t0 = time.perf_counter()
    _ = a.rtp, a.std, a.hit_frequency, a.distribution, report.symbol_table(a)
    t_an = time.perf_counter() - t0
    print(f"whole analysis (base + free tables, chain, round distribution) {t_an:.3f} s; "
          f"exact RTP {a.rtp_float:.6f}")
    simulate(big, 100_000, seed=0)  # JIT warm-up
    spins = 20_000_000
    t0 = time.perf_counter()
    sim = simulate(big, spins, seed=1)
    t_sim = time.perf_counter() - t0
    print(f"simulation: {spins / t_sim:,.0f} rounds/s ({spins:,} rounds in {t_sim:.2f} s); "
          f"RTP {sim.rtp:.6f} +- {sim.std_error:.6f}, "
          f"{(sim.rtp - a.rtp_float) / sim.std_error:+.2f} SE from exact")

    small = make_game(COUNTS_12)
    t0 = time.perf_counter()
    slow = brute_force(small)
    t_brute = time.perf_counter() - t0
    t_fast, _, fast = timed(lambda: spin_table(small), 5)
    print(f"\nsmall game: 12-stop strips, cycle {small.base.cycle:,}")
    print(f"brute force (full) {t_brute:8.3f} s   DP {t_fast:8.4f} s   ratio "
          f"{t_brute / t_fast:,.0f} x   equal: {fast == slow}")


if __name__ == "__main__":
    main()
