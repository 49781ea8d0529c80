"""Exact analysis of a cascading game: the whole analysis, and how its cost grows with
the strips' length.

1. The whole exact analysis (`slotmath.analyze`: paid-spin chain over every stop combination
   and bonus arrangement, the free-spin reels' chain, the carried-multiplier free spins, the
   RTP) of ``data/games/frozen_gems.toml`` (or ``--game FILE``), with a progress bar.
2. The paid spin's chain alone (`cascade_law`) for the same game with every strip resampled to
   30, 40, 50 and 60 stops (``strip[i * L // N]``: the same symbols in the same order, so the
   chains are alike), to put the cost's growth on record; per row the stop combinations, the
   time and the combinations per second.

Run: ``python benchmarks/bench_cascade_scaling.py [--game FILE] [--lengths 30 40 50 60]
[--workers 2]``. The figures depend on the machine and on what else runs on it: read them side
by side, from one run.
"""

from __future__ import annotations

import argparse
import os
import time
from dataclasses import replace

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

    print(f"{'stops':>6} {'combinations':>14} {'seconds':>9} {'combinations/s':>15}")
    for n in args.lengths:
        g = resampled(game, n)
        t = time.perf_counter()
        law = cascade_law(g, "base", lean=True, workers=args.workers)
        elapsed = time.perf_counter() - t
        combos = n ** game.n_reels
        print(f"{n:>6} {combos:>14,} {elapsed:>9.1f} {combos / elapsed:>15,.0f}"
              f"   (paid-spin RTP {float(law.mean):.4%})")


if __name__ == "__main__":
    main()
