"""Exact analysis of a cascading game: how its cost grows with the strips' length, this code
next to a baseline commit's, side by side in one run.

The game (``data/games/frozen_gems.toml``, or ``--game FILE``) with every strip (base and free)
resampled to 30, 40, 50 and 60 stops by the rule ``new[i] = strip[i * L // N]`` (L the strip's
length, N the new one: the same symbols in the same order, shortened by skipping, lengthened by
repeating neighbours, so the chains are alike), analysed whole (``slotmath.analyze``: the paid
reels' chain over every stop combination and bonus arrangement, the free reels' chain, the
carried-multiplier free spins, the RTP). Each row runs in a subprocess (numba's compilation paid
before timing) by this code and by the baseline's ``slotmath`` package (``git archive COMMIT
src/slotmath`` into a temporary folder; ``--baseline none`` skips it). Per row: the stop
combinations of one reel set, the wall seconds of the paid reels' chain, of the free reels'
chain and of the rest (tables, free-spin chain, RTP), the total, the CPU seconds (the process
and its workers: on a shared machine the wall time also counts others' work), the load average
when the row started, and the row's exact RTP; the two runs' RTPs must be equal (the benchmark
fails otherwise). ``--paid-only`` times the paid spin's chain alone (``cascade_law``; its row
then shows the paid spin's own return, free spins excluded).

Run: ``python benchmarks/bench_cascade_scaling.py [--game FILE] [--lengths 30 40 50 60]
[--workers 2] [--paid-only] [--baseline b7a2cb2]``. The figures depend on the machine and on
what else runs on it: read them side by side, from one run.
"""

from __future__ import annotations

import argparse
import io
import os
import pickle
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

#: one row in a subprocess: argv = game, stops, workers, whole (1/0), tiny game, output file
RUN = r"""
import os, pickle, resource, sys, time
from dataclasses import replace
import slotmath
assert slotmath.__file__.startswith(os.environ["PYTHONPATH"]), slotmath.__file__
from slotmath.exact.cascades import cascade_law
from slotmath.model.game import Reel, ReelSet, _frozen_map

def resampled(game, n):
    sets = {}
    for name, rs in game.reel_sets.items():
        reels = [Reel(tuple(r.symbols[i * len(r.symbols) // n] for i in range(n)))
                 for r in rs.reels]
        sets[name] = ReelSet(name, tuple(reels))
    return replace(game, reel_sets=_frozen_map(sets))

def cpu():
    me, kids = (resource.getrusage(w) for w in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN))
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime

path, n, workers, whole = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4] == "1"
slotmath.analyze(slotmath.load_game(sys.argv[5])).rtp  # compile (or load the cache)
g = resampled(slotmath.load_game(path), n)
cascade_law(resampled(g, 3), "base", lean=True, workers=1)
stamps = {}

def stage(name, done, total):
    now = time.perf_counter()
    stamps[name] = (stamps.get(name, (now,))[0], now)

load = os.getloadavg()[0]
t, c = time.perf_counter(), cpu()
if whole:
    rtp = slotmath.analyze(g, progress=stage).rtp
else:
    rtp = cascade_law(g, "base", lean=True, workers=workers,
                      progress=lambda d, n_: stage("base", d, n_)).mean
end, c = time.perf_counter(), cpu() - c
# each stage's span: from the end of the one before (the analysis' first stage, from the start)
# to its own end; the stages come in the analysis' order (the free reels' first), named by it
spans, before = {}, t
for name, (_, stop) in stamps.items():
    spans[name], before = stop - before, stop
paid = sum(v for k, v in spans.items() if k.startswith("base"))
free = sum(v for k, v in spans.items() if not k.startswith("base"))
with open(sys.argv[6], "wb") as f:
    pickle.dump(dict(paid=paid, free=free, rest=end - t - paid - free, total=end - t, cpu=c,
                     load=load, rtp=rtp, combinations=n ** g.n_reels), f)
"""


def baseline_tree(commit: str) -> str:
    """The ``src`` folder of ``commit``'s package, extracted into a temporary folder."""
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", commit, "src/slotmath"],
                             check=True, capture_output=True).stdout
    folder = tempfile.mkdtemp(prefix="cascade_scaling_baseline_")
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(folder, filter="data")
    return str(Path(folder) / "src")


def run(pythonpath: str, game: str, n: int, workers: int, whole: bool, out: Path) -> dict:
    tiny = ROOT / "tests" / "data" / "cascades" / "tiny_free_spins.toml"
    # from the output's folder: the working folder must not shadow the tree asked for
    subprocess.run([sys.executable, "-c", RUN, str(Path(game).resolve()), str(n), str(workers),
                    "1" if whole else "0", str(tiny), str(out)], check=True, cwd=out.parent,
                   env={**os.environ, "PYTHONPATH": pythonpath})
    with open(out, "rb") as f:
        return pickle.load(f)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", default=str(ROOT / "data" / "games" / "frozen_gems.toml"))
    ap.add_argument("--lengths", type=int, nargs="*", default=[30, 40, 50, 60])
    ap.add_argument("--workers", type=int, default=min(2, os.cpu_count() or 1))
    ap.add_argument("--paid-only", dest="whole", action="store_false",
                    help="rows time the paid spin's chain alone, not the whole analysis")
    ap.add_argument("--baseline", default="b7a2cb2", help="commit to compare, or 'none'")
    args = ap.parse_args()
    work = Path(tempfile.mkdtemp(prefix="bench_cascade_scaling_"))
    trees = [("this code", str(ROOT / "src"))]
    if args.baseline != "none":
        trees.append((f"baseline {args.baseline}", baseline_tree(args.baseline)))
    print(f"{Path(args.game).name}: {'whole analysis' if args.whole else 'paid spin alone'}, "
          f"{args.workers} workers, {os.cpu_count()} cores")
    print(f"{'stops':>6} {'combinations':>14} {'run':<18} {'paid s':>7} {'free s':>7} "
          f"{'rest s':>7} {'total s':>8} {'CPU s':>7} {'load':>5}  "
          f"{'RTP' if args.whole else 'paid spin alone (no free spins)'}")
    ok = True
    for n in args.lengths:
        rows = []
        for name, tree in trees:
            r = run(tree, args.game, n, args.workers, args.whole, work / "row.pkl")
            rows.append(r)
            print(f"{n:>6} {r['combinations']:>14,} {name:<18} {r['paid']:>7.1f} "
                  f"{r['free']:>7.1f} {r['rest']:>7.1f} {r['total']:>8.1f} {r['cpu']:>7.1f} "
                  f"{r['load']:>5.2f}  {float(r['rtp']):.6%}", flush=True)
        if len(rows) > 1:
            same = rows[0]["rtp"] == rows[1]["rtp"]
            ok = ok and same
            print(f"{'':>6} {'':>14} {'ratio':<18} "
                  f"{rows[1]['paid'] / max(rows[0]['paid'], 1e-9):>6.2f}x "
                  f"{rows[1]['free'] / max(rows[0]['free'], 1e-9):>6.2f}x "
                  f"{rows[1]['rest'] / max(rows[0]['rest'], 1e-9):>6.2f}x "
                  f"{rows[1]['total'] / rows[0]['total']:>7.2f}x "
                  f"{rows[1]['cpu'] / rows[0]['cpu']:>6.2f}x        "
                  f"RTP {'equal' if same else 'DIFFERS'}", flush=True)
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
