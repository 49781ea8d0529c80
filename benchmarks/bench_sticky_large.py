"""Sticky wilds on three wild reels (The Dog House's size), split off reel by reel.

Prints, for tests/data/free_spin_state/doghouse_small.toml and benchmarks/data/doghouse_full.toml
(5x3, 20 lines, x2/x3 wilds on reels 2-4, 24-stop free strips): the sticky states, the plan
(reels split off, joint states the engine counts, runs a state), the exact analysis's wall and
main-process CPU time, whether the RTP is exact (else its stated rtp_error), the states
reached and the chain's size; and, side by side in the same run, one state's spin enumerated
with the chosen plan and with every wild reel split off (the baseline: one run per landing
combination), with their ratio.

Run: python benchmarks/bench_sticky_large.py [--small-only]
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

import slotmath
from slotmath.exact import free_spin_moves
from slotmath.model.rules import sticky_plan, sticky_size

ROOT = Path(__file__).resolve().parent.parent
GAMES = [ROOT / "tests/data/free_spin_state/doghouse_small.toml",
         ROOT / "benchmarks/data/doghouse_full.toml"]


def per_state(game, split=None, repeat: int = 5) -> float:
    """CPU seconds to enumerate the empty state's spin (median of ``repeat``, after one)."""
    original = free_spin_moves.sticky_plan
    if split is not None:
        free_spin_moves.sticky_plan = lambda g: (split, 0, 0)
    try:
        m = free_spin_moves.StickyMoves(game)
    finally:
        free_spin_moves.sticky_plan = original
    state = m.start()[0][1]
    m._enumerate(state)
    times = []
    for _ in range(repeat):
        t = time.process_time()
        m._enumerate(state)
        times.append(time.process_time() - t)
    return sorted(times)[len(times) // 2]


def main() -> None:
    print(f"load average {os.getloadavg()[0]:.2f}")
    for path in GAMES[:1] if "--small-only" in sys.argv else GAMES:
        game = slotmath.load_game(path)
        states, runs = sticky_size(game)
        split, digits, per = sticky_plan(game)
        print(f"{path.name}: {states:,} sticky states; split reels {[j + 1 for j in split]}, "
              f"{digits:,} joint states a run, {per} runs a state (at most {runs:,} runs)")
        t, c = time.time(), time.process_time()
        a = slotmath.analyze(game)
        rtp = a.rtp
        wall, cpu = time.time() - t, time.process_time() - c
        f = a.features["sticky_wilds"]
        kind = "exact" if a.composition.exact else f"float64, rtp_error {a.rtp_error:.2e}"
        print(f"  analysis (RTP) {wall:.1f} s wall, {cpu:.1f} s main-process CPU; RTP "
              f"{float(rtp):.10f} ({kind}); chain {f.size}, sticky states reached "
              f"{f.size['mechanic_states']:,}")
        chosen = per_state(game)
        baseline = per_state(game, tuple(m for m in free_spin_moves.StickyMoves(game).wild_reels))
        print(f"  one state's spin: {chosen * 1e3:.1f} ms CPU with the plan, "
              f"{baseline * 1e3:.1f} ms with every wild reel split off "
              f"(ratio {baseline / chosen:.1f})")
    print(f"load average {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
