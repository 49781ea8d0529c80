"""Exact analysis of a cascading game: the whole analysis, and how its cost grows with
the strips' length.

1. The whole exact analysis (`slotmath.analyze`: paid-spin chain over every stop combination
   and bonus arrangement, the free-spin reels' chain, the carried-multiplier free spins, the
   RTP) of ``data/games/frozen_gems.toml`` (or ``--game FILE``), with a progress bar.
2. The same whole analysis for the game with every strip (base and free) resampled to 30, 40,
   50 and 60 stops by the rule ``new[i] = strip[i * L // N]`` (L the strip's length, N the
   new one: the same symbols in the same order, shortened by skipping, lengthened by
   repeating neighbours, so the chains are alike). Per row: the stop combinations of one
   reel set, the wall seconds of the paid reels' chain, of the free reels' chain and of the
   rest (tables, free-spin chain, RTP), the total, the CPU seconds (this process and its
   workers: on a shared machine the wall time also counts others' work), the load average
   when the row started, and the row's exact RTP. ``--paid-only`` times the paid spin's chain
   alone (its row then shows the paid spin's own return, free spins excluded).

Run: ``python benchmarks/bench_cascade_scaling.py [--game FILE] [--lengths 30 40 50 60]
[--workers 2] [--skip-full] [--paid-only]``. The figures depend on the machine and on what
else runs on it: read them side by side, from one run.
"""

from __future__ import annotations

import argparse
import os
import resource
import time
from dataclasses import replace
from fractions import Fraction

from tqdm import tqdm

import slotmath
from slotmath.exact.cascades import cascade_law
from slotmath.model.game import Reel, ReelSet, _frozen_map


def resampled(game, n: int):
    """The game with every strip of every reel set resampled to ``n`` stops."""
    sets = {}
    for name, rs in game.reel_sets.items():
        reels = []
        for reel in rs.reels:
            L = len(reel.symbols)
            reels.append(Reel(tuple(reel.symbols[i * L // n] for i in range(n))))
        sets[name] = ReelSet(name, tuple(reels))
    return replace(game, reel_sets=_frozen_map(sets))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", default="data/games/frozen_gems.toml")
    ap.add_argument("--lengths", type=int, nargs="*", default=[30, 40, 50, 60])
    ap.add_argument("--workers", type=int, default=min(2, os.cpu_count() or 1))
    ap.add_argument("--skip-full", action="store_true", help="only the strip-length rows")
    ap.add_argument("--paid-only", dest="whole", action="store_false",
                    help="rows time the paid spin's chain alone, not the whole analysis")
    args = ap.parse_args()
    game = slotmath.load_game(args.game)
    print(f"{game.name}: strips {[len(r.symbols) for r in game.base.reels]}, "
          f"{args.workers} workers, {os.cpu_count()} cores")

    # warm the kernel (numba compilation, cached on disk after the first run)
    cascade_law(resampled(game, 3), "base", lean=True, workers=1)

    if not args.skip_full:
        bars: dict = {}

        def progress(stage, done, total):
            bar = bars.get(stage)
            if bar is None:
                bar = bars[stage] = tqdm(total=total, desc=stage, unit="chunk", leave=False)
            bar.n = done
            bar.refresh()

        t = time.perf_counter()
        a = slotmath.analyze(game, progress=progress)
        rtp = a.rtp
        components = {k: float(v) for k, v in a.components.items()}
        elapsed = time.perf_counter() - t
        for bar in bars.values():
            bar.close()
        print(f"whole exact analysis: {elapsed:.1f} s   RTP {float(rtp):.6%}  exact "
              f"{isinstance(rtp, type(a.round.mean))}")
        print("  components " + ", ".join(f"{k} {v:.4%}" for k, v in components.items()))

    print(f"{'stops':>6} {'combinations':>14} {'paid s':>7} {'free s':>7} {'rest s':>7} "
          f"{'total s':>8} {'CPU s':>7} {'load':>5}  "
          f"{'RTP' if args.whole else 'paid spin alone (no free spins)'}")
    for n in args.lengths:
        g = resampled(game, n)
        stamps: dict = {}

        def stage(name, done, total, stamps=stamps):
            now = time.perf_counter()
            stamps[name] = (stamps.get(name, (now,))[0], now)

        load = os.getloadavg()[0]
        t, cpu = time.perf_counter(), _cpu()
        a = slotmath.analyze(g, progress=stage) if args.whole else None
        rtp = a.rtp if a is not None else cascade_law(
            g, "base", lean=True, workers=args.workers,
            progress=lambda d, n_, s=stage: s("base", d, n_)).mean
        end, cpu = time.perf_counter(), _cpu() - cpu
        spans = list(stamps.values())
        paid = spans[0][1] - t if spans else 0.0
        free = spans[1][1] - spans[0][1] if len(spans) > 1 else 0.0
        print(f"{n:>6} {n ** game.n_reels:>14,} {paid:>7.1f} {free:>7.1f} "
              f"{end - t - paid - free:>7.1f} {end - t:>8.1f} {cpu:>7.1f} {load:>5.2f}  "
              f"{float(rtp):.6%} ({'exact' if isinstance(rtp, Fraction) else 'numerical'})",
              flush=True)


def _cpu() -> float:
    """CPU seconds of this process and its finished children (the enumeration's workers)."""
    me, kids = (resource.getrusage(w) for w in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN))
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


if __name__ == "__main__":
    main()
