"""The same chunked work on three engines, side by side in one run: the default in this
process (the exact engines' forked pool of 2, the simulator's numba threads), and
``slotmath.executor(workers=N)``: a Dask ``LocalCluster`` of 1 and of 2 processes (one thread
each, ``NUMBA_NUM_THREADS=1`` in them).

Work (each timed once per engine, after a warm-up that compiles or loads numba's cache in every
worker):

- **cascade**: the paid spin's exact chain (``cascade_law(..., lean=True)``) of Frozen Gems with
  every strip resampled to ``--stops`` stops (as ``bench_cascade_scaling.py`` does; 50 by
  default): the first-reel stops in chunks;
- **dynamite**: the exact table of Gus's Gold Christmas's Dynamite modifier
  (``modifier_table``, the table store off so it is computed): the first-reel windows in parts;
- **simulation**: ``--rounds`` paid rounds of Classic Fruits (the base-game simulator): in
  process one stream on numba's threads, on Dask ``ceil(rounds / 2**22)`` seed streams.

Per engine also: the cluster's start-up and the overhead of one chunk (``--noop`` empty chunks
through ``map_chunks``; the forked pool's by ``map_parts`` with 2 processes). The exact results
must be equal on every engine (the benchmark fails otherwise); the simulation's streams equal on
1 and 2 workers. The load average is printed beside every row: on a shared machine the wall time
also counts others' work.

``--streams`` instead times 8 simulation streams of 2**22 rounds, each on its worker (its wall
and CPU seconds there), on 1 and on 2 workers: whether the workers compute or wait for cores.

Run: ``python benchmarks/bench_scaling.py [--stops 50] [--rounds 1e8] [--skip dynamite]
[--streams]``.
"""

from __future__ import annotations

import argparse
import os
import time
from dataclasses import replace
from fractions import Fraction
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
os.environ["SLOTMATH_CACHE"] = "off"  # the Dynamite table computed, never read back

import slotmath
from slotmath import parallel
from slotmath.exact.cascades import cascade_law
from slotmath.exact.modifiers import modifier_table
from slotmath.exact.workers import map_parts
from slotmath.model.game import Reel, ReelSet, _frozen_map


def resampled(game, n):
    sets = {}
    for name, rs in game.reel_sets.items():
        reels = [Reel(tuple(r.symbols[i * len(r.symbols) // n] for i in range(n)))
                 for r in rs.reels]
        sets[name] = ReelSet(name, tuple(reels))
    return replace(game, reel_sets=_frozen_map(sets))


def _noop(shared, chunk):
    return chunk


def _one_stream(game, rounds):
    """A simulation stream timed on its worker: (wall, CPU) seconds there."""
    from slotmath.simulate.front import simulate

    t, c = time.perf_counter(), time.process_time()
    simulate(game, rounds, 5)
    return time.perf_counter() - t, time.process_time() - c


def streams() -> None:
    fruits = slotmath.load_game(ROOT / "data" / "games" / "classic_fruits.toml")
    for n in (1, 2):
        with slotmath.executor(workers=n):
            parallel.map_chunks(_one_stream, [1 << 20] * n, shared=fruits)  # warm-up
            load = _load()
            t = time.perf_counter()
            r = parallel.map_chunks(_one_stream, [1 << 22] * 8, shared=fruits)
            wall = time.perf_counter() - t
        print(f"{n} worker(s): {8 * (1 << 22) / wall / 1e6:.1f} M rounds/s, {wall:.1f} s; "
              "each stream's wall/CPU s on its worker: "
              + " ".join(f"{w:.1f}/{c:.1f}" for w, c in r) + f" (load {load:.2f})", flush=True)


def _load() -> float:
    return os.getloadavg()[0]


def timed(fn, label=""):
    load = _load()
    t = time.perf_counter()
    out = fn()
    seconds = time.perf_counter() - t
    if label:
        print(f"  {label}: {seconds:.1f} s (load {load:.2f} at its start)", flush=True)
    return out, seconds, load


def run_all(args, engine):
    """Every piece of work on the current engine: {name: (result, seconds, load)}."""
    gems = slotmath.load_game(ROOT / "data" / "games" / "frozen_gems.toml")
    gus = slotmath.load_game(ROOT / "data" / "games" / "gus_gold_christmas.toml")
    fruits = slotmath.load_game(ROOT / "data" / "games" / "classic_fruits.toml")
    dynamite = next(m for m in gus.modifiers if m.name == "dynamite")
    out = {}
    # warm-up: every kernel compiled or loaded from numba's cache, here and in each worker
    for _ in range(2):
        cascade_law(resampled(gems, 6), "base", lean=True)
        slotmath.simulate(fruits, 2 * parallel.STREAM_ROUNDS if engine else 100_000, seed=1)
    small = resampled(gus, 8)
    modifier_table(small, dynamite, count_symbol=small.hold_and_win.symbol)
    if engine:
        out["noop"] = timed(lambda: parallel.map_chunks(_noop, range(args.noop), shared=None))
    else:
        out["noop"] = timed(lambda: list(map_parts(_noop, range(args.noop), 2)))
    if "cascade" not in args.skip:
        g = resampled(gems, args.stops)
        out["cascade"] = timed(lambda: cascade_law(g, "base", lean=True).mean, "cascade")
    if "dynamite" not in args.skip:
        out["dynamite"] = timed(lambda: dict(modifier_table(
            gus, dynamite, count_symbol=gus.hold_and_win.symbol).weights), "dynamite")
    if "simulation" not in args.skip:
        out["simulation"] = timed(lambda: slotmath.simulate(fruits, args.rounds, seed=2024),
                                  "simulation")
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--stops", type=int, default=50)
    ap.add_argument("--rounds", type=float, default=1e8)
    ap.add_argument("--noop", type=int, default=200, help="empty chunks for the overhead")
    ap.add_argument("--skip", nargs="*", default=[],
                    choices=["cascade", "dynamite", "simulation"])
    ap.add_argument("--streams", action="store_true",
                    help="only time simulation streams on their workers (1 and 2)")
    args = ap.parse_args()
    if args.streams:
        streams()
        return 0
    args.rounds = int(args.rounds)
    engines = [("in process (forked pool)", None), ("Dask, 1 worker", 1),
               ("Dask, 2 workers", 2)]
    results, starts = {}, {}
    for name, n in engines:
        print(name, flush=True)
        if n is None:
            results[name] = run_all(args, False)
            continue
        t, load = time.perf_counter(), _load()
        with slotmath.executor(workers=n):
            starts[name] = (time.perf_counter() - t, load)
            results[name] = run_all(args, True)
        print(f"{name}: done at load {_load():.2f}", flush=True)
    names = [e for e, _ in engines]
    print(f"\n{os.cpu_count()} cores; cascade: Frozen Gems at {args.stops} stops "
          f"({args.stops ** 5:,} combinations), paid spin; simulation: Classic Fruits, "
          f"{args.rounds:,} rounds")
    print(f"{'work':<22}" + "".join(f"{n:>30}" for n in names)
          + f"{'2 vs 1 worker':>15}{'Dask 2 / pool':>15}")
    first, one, two = names
    for work in ["start", "noop", "cascade", "dynamite", "simulation"]:
        if work == "start":
            cells = ["-"] + [f"{starts[n][0]:.1f} s (load {starts[n][1]:.1f})" for n in names[1:]]
            print(f"{'cluster start':<22}" + "".join(f"{c:>30}" for c in cells))
            continue
        if work not in results[first]:
            continue
        row = [results[n][work] for n in names]
        if work == "noop":
            cells = [f"{s / args.noop * 1e3:.2f} ms/chunk (load {ld:.1f})" for _, s, ld in row]
        elif work == "simulation":
            cells = [f"{s:.1f} s {args.rounds / s / 1e6:.1f} M/s (load {ld:.1f})"
                     for _, s, ld in row]
        else:
            cells = [f"{s:.1f} s (load {ld:.1f})" for _, s, ld in row]
        print(f"{work:<22}" + "".join(f"{c:>30}" for c in cells)
              + f"{row[1][1] / row[2][1]:>14.2f}x{row[2][1] / row[0][1]:>14.2f}x")
    ok = True
    for work in ("cascade", "dynamite"):
        if work in results[first]:
            same = all(results[n][work][0] == results[first][work][0] for n in names)
            ok &= same
            value = results[first][work][0]
            shown = f"mean {float(value):.6f}" if isinstance(value, Fraction) else \
                f"{len(value):,} entries"
            print(f"{work}: {'equal on every engine' if same else 'DIFFERS'} ({shown})")
    if "simulation" in results[first]:
        a, b = results[one]["simulation"][0], results[two]["simulation"][0]
        ok &= a == b
        here = results[first]["simulation"][0]
        print(f"simulation: streams {'equal' if a == b else 'DIFFER'} on 1 and 2 workers "
              f"(RTP {a.rtp:.6f} +- {a.std_error:.6f}; in process, one stream: "
              f"{here.rtp:.6f} +- {here.std_error:.6f})")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
