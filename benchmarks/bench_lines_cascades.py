"""Lines cascades (issue 24, item 3): the paid spin's exact law of a plain 20-line 5x3
strip-refill cascade game (``benchmarks/data/lines_cascades.toml``: 35-stop reels, 52.5 M stop
combinations, a x1..x5 ladder, 3 scatters anywhere start 10 free spins), three ways side by
side in one run:

* **this code**: ``cascade_law(game, "base", lean=True)`` (what the analysis computes for the
  paid spin) with ``--workers`` worker processes;
* **the baseline**: the same call on the ``slotmath`` package of commit ``--baseline``
  (``git archive COMMIT src/slotmath`` into a temporary folder), default ``b7a2cb2``, the code
  before the cascade kernel was split; ``--baseline none`` skips it;
* **a plain numba brute force written in this file**: it reads the TOML with ``tomllib`` and
  shares no code with slotmath; every stop combination, each chain drop by drop, first-reel
  stops shared over the threads (``prange``). Its wall time is given cold (numba compiles it
  first, no cache) and warm (a second call).

Every run is a subprocess with numba's compilation paid before timing (a tiny game first);
the engine runs' wall and CPU time (their workers included) are printed with the load average
at the start of each. The laws must agree exactly, or the benchmark fails: the weight of every
(trigger count, credits) pair, the cascade-count law and the sums of the first drops, the later
drops and the scatter pays (the brute force's figures against each engine's).

Run: ``python benchmarks/bench_lines_cascades.py [--baseline b7a2cb2] [--workers 2]
[--game FILE]``.
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
import time
import tomllib
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
GAME = ROOT / "benchmarks" / "data" / "lines_cascades.toml"
MAX_DROPS = 250

#: an engine run: the paid spin's law, timed, pickled to argv[2]
RUN = r"""
import os, pickle, resource, sys, time
import slotmath
assert slotmath.__file__.startswith(os.environ["PYTHONPATH"]), slotmath.__file__
from slotmath.exact.cascades import cascade_law
cascade_law(slotmath.load_game(sys.argv[3]), workers=1)  # compile (or load the cache)
game = slotmath.load_game(sys.argv[1])
workers = int(sys.argv[4])
load = os.getloadavg()[0]
t0, c0 = time.perf_counter(), time.process_time()
k0 = resource.getrusage(resource.RUSAGE_CHILDREN)
law = cascade_law(game, "base", lean=True, workers=workers)
wall = time.perf_counter() - t0
k1 = resource.getrusage(resource.RUSAGE_CHILDREN)
cpu = time.process_time() - c0 + k1.ru_utime - k0.ru_utime + k1.ru_stime - k0.ru_stime
by_trigger = {}
for (c, _a, t, _k), w in law.joint.items():
    by_trigger[(t, c)] = by_trigger.get((t, c), 0) + w
with open(sys.argv[2], "wb") as f:
    pickle.dump(dict(wall=wall, cpu=cpu, load=load, law=by_trigger, cycle=law.cycle,
                     cascades=dict(law.cascade_weights), sums=tuple(law.sums)), f)
"""


# -- the brute force: plain numba, from the TOML dict ----------------------------------------
def read_game(path: Path) -> dict:
    """The game as plain arrays: symbol ids in file order, pay-table entries (a symbol with
    line pays, a wild on its own), strips, lines, scatter pays and the ladder."""
    data = tomllib.loads(path.read_text())
    names = list(data["symbols"])
    sid = {n: i for i, n in enumerate(names)}
    sym = data["symbols"]
    wilds = [n for n in names if sym[n].get("wild")]
    scatters = [n for n in names if sym[n].get("scatter")]
    assert len(scatters) == 1 and data["free_spins"]["trigger"] == scatters[0]
    assert all(sym[n].get("multiplier", 1) == 1 for n in names), "no multiplier symbols"
    assert "groups" not in data and data["cascades"]["refill"] == "strip"
    n_reels = len(data["paylines"][0])
    entries = [n for n in names if not sym[n].get("scatter") and sym[n].get("pays")]
    member = np.zeros((len(entries), len(names)), np.int64)
    pays = np.zeros((len(entries), n_reels + 1), np.int64)
    for e, n in enumerate(entries):
        member[e, sid[n]] = 1
        if not sym[n].get("wild"):
            for w in wilds:  # every wild stands in for every paying symbol here
                member[e, sid[w]] = 1
        for count, pay in sym[n]["pays"].items():
            pays[e, int(count)] = int(pay)  # in line bets = credits
    per_bet = data["bet"]  # credits of one total bet (a line bet is one credit)
    assert per_bet == len(data["paylines"])
    window = data["rows"] * n_reels
    scatter_table = {int(c): int(p) for c, p in sym[scatters[0]]["pays"].items()}
    top = max(scatter_table)
    scatter_pay = np.array([per_bet * (scatter_table[top] if c > top else scatter_table.get(c, 0))
                            for c in range(window + 1)], np.int64)
    strips = [[sid[s] for s in reel] for reel in data["reels"]["base"]]
    length = max(len(s) for s in strips)
    strip = np.zeros((n_reels, length), np.int64)
    lengths = np.array([len(s) for s in strips], np.int64)
    for r, s in enumerate(strips):
        strip[r, : len(s)] = s
    ladder = data["cascades"]["multiplier"]["ladder"]
    ladder = np.array([ladder[min(k, len(ladder) - 1)] for k in range(MAX_DROPS + 1)], np.int64)
    # per symbol the entries it belongs to (in entry order: the first listed wins a tie)
    n_entries = member.sum(axis=0).astype(np.int64)
    entries_of = np.full((len(names), max(1, int(n_entries.max()))), -1, np.int64)
    for s in range(len(names)):
        found = np.flatnonzero(member[:, s])
        entries_of[s, : len(found)] = found
    return {"entries_of": entries_of, "n_entries": n_entries,
            "member": member, "pays": pays, "strip": strip, "lengths": lengths,
            "rows": data["rows"], "lines": np.array(data["paylines"], np.int64),
            "scatter": sid[scatters[0]], "scatter_pay": scatter_pay, "ladder": ladder,
            "per_bet": per_bet}


def brute_force_source() -> str:
    """The kernel's source, compiled in the subprocess (cache off, so cold includes it)."""
    return r'''
import numpy as np
from numba import njit, prange

@njit(cache=False, inline="always")
def chain(stops, strip, lengths, rows, member, pays, lines, scatter, scatter_pay, ladder,
          entries_of, n_entries, window, top, removed, out):
    """One stop combination to the end of its chain: out = (first, later, scatter, drops,
    triggers); drops -1: longer than the ladder table."""
    n_reels = strip.shape[0]
    for r in range(n_reels):
        top[r] = stops[r]
        i = stops[r]
        for y in range(rows):
            window[r, y] = strip[r, i]
            i += 1
            if i == lengths[r]:
                i = 0
    first = 0
    later = 0
    k = 0
    while True:
        for r in range(n_reels):
            for y in range(rows):
                removed[r, y] = 0
        win = 0
        for ln in range(lines.shape[0]):
            best = 0
            best_run = 0
            s0 = window[0, lines[ln, 0]]
            for i in range(n_entries[s0]):  # only the entries the first symbol is in
                e = entries_of[s0, i]
                run = 0
                while run < n_reels and member[e, window[run, lines[ln, run]]] == 1:
                    run += 1
                if pays[e, run] > best:
                    best = pays[e, run]
                    best_run = run
            if best > 0:
                win += best
                for r in range(best_run):
                    removed[r, lines[ln, r]] = 1
        if win == 0:
            break
        if k >= ladder.shape[0]:
            k = -1
            break
        if k == 0:
            first += win * ladder[k]
        else:
            later += win * ladder[k]
        for r in range(n_reels):
            n = 0
            for y in range(rows):
                n += removed[r, y]
            if n == 0:
                continue
            write = rows - 1
            for y in range(rows - 1, -1, -1):
                if removed[r, y] == 0:
                    window[r, write] = window[r, y]
                    write -= 1
            t = top[r] - n
            if t < 0:
                t += lengths[r]
            top[r] = t
            for y in range(n):
                window[r, y] = strip[r, t]
                t += 1
                if t == lengths[r]:
                    t = 0
        k += 1
    count = 0
    for r in range(n_reels):
        for y in range(rows):
            if window[r, y] == scatter:
                count += 1
    out[0] = first
    out[1] = later
    out[2] = scatter_pay[count]
    out[3] = k
    out[4] = count


@njit(parallel=True, cache=False)
def brute_force(strip, lengths, rows, member, pays, lines, scatter, scatter_pay, ladder,
                entries_of, n_entries, credits_cap, n_chunks):
    """Per chunk of first-reel stops: weights [trigger count, credits] (credits >= cap:
    counted in overflow), the cascade-count law and the three sums; overflow -1: an endless
    chain."""
    n_reels = strip.shape[0]
    window_size = rows * n_reels
    hist = np.zeros((n_chunks, window_size + 1, credits_cap), np.int64)
    drops = np.zeros((n_chunks, ladder.shape[0] + 1), np.int64)
    sums = np.zeros((n_chunks, 3), np.int64)
    overflow = np.zeros(n_chunks, np.int64)
    for chunk in prange(n_chunks):
        stops = np.zeros(n_reels, np.int64)
        top = np.zeros(n_reels, np.int64)
        window = np.zeros((n_reels, rows), np.int64)
        removed = np.zeros((n_reels, rows), np.int64)
        out = np.zeros(5, np.int64)
        rest = 1
        for r in range(1, n_reels):
            rest *= lengths[r]
        for s0 in range(chunk, lengths[0], n_chunks):
            stops[0] = s0
            for r in range(1, n_reels):
                stops[r] = 0
            for c in range(rest):
                if c > 0:  # the odometer over reels 2..n
                    r = n_reels - 1
                    stops[r] += 1
                    while stops[r] == lengths[r]:
                        stops[r] = 0
                        r -= 1
                        stops[r] += 1
                chain(stops, strip, lengths, rows, member, pays, lines, scatter, scatter_pay,
                      ladder, entries_of, n_entries, window, top, removed, out)
                if out[3] < 0:
                    overflow[chunk] = -1
                    continue
                credits = out[0] + out[1] + out[2]
                if credits < credits_cap:
                    hist[chunk, out[4], credits] += 1
                else:
                    overflow[chunk] += 1
                drops[chunk, out[3]] += 1
                sums[chunk, 0] += out[0]
                sums[chunk, 1] += out[1]
                sums[chunk, 2] += out[2]
    return hist, drops, sums, overflow
'''


#: a brute-force run: cold (compiled here) and warm, pickled to argv[2]
BRUTE = r"""
import os, pickle, sys, time
sys.path.insert(0, os.path.dirname(sys.argv[1]))
from bench_lines_cascades import read_game, brute_force_source
from pathlib import Path
import numpy as np
g = read_game(Path(sys.argv[3]))
cap = int(sys.argv[4])
chunks = 5 * int(os.environ.get("NUMBA_NUM_THREADS", os.cpu_count()))
load = os.getloadavg()[0]
t0 = time.perf_counter()
namespace = {}
exec(brute_force_source(), namespace)
args = (g["strip"], g["lengths"], g["rows"], g["member"], g["pays"], g["lines"], g["scatter"],
        g["scatter_pay"], g["ladder"], g["entries_of"], g["n_entries"], cap, chunks)
hist, drops, sums, overflow = namespace["brute_force"](*args)
cold = time.perf_counter() - t0
t0, c0 = time.perf_counter(), time.process_time()
hist, drops, sums, overflow = namespace["brute_force"](*args)
warm, warm_cpu = time.perf_counter() - t0, time.process_time() - c0
hist = hist.sum(axis=0)
law = {(int(t), int(c)): int(hist[t, c]) for t, c in zip(*np.nonzero(hist))}
drops = drops.sum(axis=0)
with open(sys.argv[2], "wb") as f:
    pickle.dump(dict(cold=cold, warm=warm, warm_cpu=warm_cpu, load=load, law=law,
                     cascades={k: int(w) for k, w in enumerate(drops) if w},
                     sums=tuple(int(x) for x in sums.sum(axis=0)),
                     overflow=overflow.tolist()), f)
"""


def baseline_tree(commit: str) -> str:
    """The ``src`` folder of ``commit``'s package, extracted into a temporary folder."""
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", commit, "src/slotmath"],
                             check=True, capture_output=True).stdout
    folder = tempfile.mkdtemp(prefix="lines_cascades_baseline_")
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(folder, filter="data")
    return str(Path(folder) / "src")


def run_engine(pythonpath: str, out: Path, game: Path, workers: int) -> dict:
    small = ROOT / "tests" / "data" / "cascades" / "tiny_bonus.toml"
    # from the output's folder: the working folder must not shadow the tree asked for
    subprocess.run([sys.executable, "-c", RUN, str(game), str(out), str(small), str(workers)],
                   check=True, cwd=out.parent, env={**os.environ, "PYTHONPATH": pythonpath})
    with open(out, "rb") as f:
        return pickle.load(f)


def run_brute(out: Path, game: Path, cap: int) -> dict:
    subprocess.run([sys.executable, "-c", BRUTE, __file__, str(out), str(game), str(cap)],
                   check=True, cwd=out.parent, env={**os.environ, "PYTHONPATH": ""})
    with open(out, "rb") as f:
        return pickle.load(f)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", default="b7a2cb2", help="commit to compare, or 'none'")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--game", type=Path, default=GAME)
    parser.add_argument("--credits-cap", type=int, default=1 << 16,
                        help="the brute force's dense credits axis")
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="bench_lines_cascades_"))
    print(f"{args.game.name}: paid spin's exact law; {os.cpu_count()} cores, "
          f"load {os.getloadavg()[0]:.2f} at the start")
    began = time.perf_counter()
    rows = [("this code", run_engine(str(ROOT / "src"), work / "this.pkl", args.game,
                                     args.workers))]
    if args.baseline != "none":
        tree = baseline_tree(args.baseline)
        rows.append((f"baseline {args.baseline}",
                     run_engine(tree, work / "base.pkl", args.game, args.workers)))
    brute = run_brute(work / "brute.pkl", args.game, args.credits_cap)
    if brute["overflow"] and any(brute["overflow"]):
        raise SystemExit(f"the brute force's credits cap {args.credits_cap} is too small, or "
                         f"a chain is endless: {brute['overflow']}")
    print(f"{'run':<28}{'wall s':>9}{'cpu s':>9}{'load':>7}   law")
    for name, r in rows:
        same = (r["law"] == brute["law"] and r["cascades"] == brute["cascades"]
                and r["sums"] == brute["sums"] and r["cycle"] == sum(brute["law"].values()))
        print(f"{name + f', {args.workers} workers':<28}{r['wall']:>9.2f}{r['cpu']:>9.2f}"
              f"{r['load']:>7.2f}   {'equal to the brute force' if same else 'DIFFERS'}")
        if not same:
            raise SystemExit(f"{name}: its law differs from the brute force's")
    threads = os.environ.get("NUMBA_NUM_THREADS", str(os.cpu_count()))
    print(f"{f'brute force, {threads} threads':<28}{brute['warm']:>9.2f}{brute['warm_cpu']:>9.2f}"
          f"{brute['load']:>7.2f}   warm (cold, compiling: {brute['cold']:.2f} s wall)")
    this = rows[0][1]["wall"]
    this_cpu = rows[0][1]["cpu"]
    print(f"ratios, wall (CPU): brute force warm / this code {brute['warm'] / this:.2f}x "
          f"({brute['warm_cpu'] / this_cpu:.2f}x)"
          + (f", baseline / this code {rows[1][1]['wall'] / this:.2f}x "
             f"({rows[1][1]['cpu'] / this_cpu:.2f}x)" if len(rows) > 1 else ""))
    total = sum(brute["law"].values())
    rtp = sum(brute["sums"]) / total / read_game(args.game)["per_bet"]
    print(f"paid spin's return (brute force, no free spins): {rtp:.6f}; "
          f"{len(brute['law']):,} (trigger, credits) cells; "
          f"whole benchmark {time.perf_counter() - began:.0f} s, "
          f"load {os.getloadavg()[0]:.2f} at the end")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
