"""Frozen Gems (data/games/frozen_gems.toml): the full exact analysis, timed, this code next to
a baseline commit's, against the figures recorded in the file's header.

Each run is a subprocess (numba's compilation paid before timing, on a tiny cascade game):
``slotmath.analyze`` (every base and free stop combination x every bonus arrangement, each
cascade chain to its end; free spins as the carried-multiplier chain) and its components, by
this code and by the baseline's ``slotmath`` package (``git archive COMMIT src/slotmath`` into
a temporary folder; ``--baseline none`` skips it). Per run: the wall and CPU time (the process
and its workers), the load average at its start, the stage timeline, P(8748 ways in play);
then whether the exact RTP equals the header's ``total RTP`` fraction and whether the two runs'
RTPs, components and paid-spin laws are equal (bit for bit: the benchmark fails otherwise).

With ``--simulate N`` it instead plays N seeded paid rounds through the cascade simulator (its own
kernel) and prints the estimate, its standard error and its z-score against the header's exact
total: the total has a heavy tail (rare chains that free two bonus wilds), so it needs tens of
millions of rounds, which is why the test suite checks only the light-tailed parts.

Each run also prints its peak resident memory (``ru_maxrss`` of the process; its forked
workers apart). The whole ``analyze --json`` a user asks for, its peak beside the baseline's:
``benchmarks/bench_memory.py --games frozen_gems --baseline 6731a74``.

Run: ``python benchmarks/bench_frozen_gems.py [--baseline 6731a74] [--simulate 20000000]
[--seed 1]``.
"""

from __future__ import annotations

import argparse
import io
import os
import pickle
import re
import subprocess
import sys
import tarfile
import tempfile
from fractions import Fraction
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PATH = ROOT / "data" / "games" / "frozen_gems.toml"

#: one timed analysis in a subprocess: argv = game, tiny game (to compile on), output file
RUN = r"""
import os, pickle, resource, sys, time
import slotmath
assert slotmath.__file__.startswith(os.environ["PYTHONPATH"]), slotmath.__file__

def cpu():
    me, kids = (resource.getrusage(w) for w in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN))
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime

slotmath.analyze(slotmath.load_game(sys.argv[2])).rtp  # compile (or load the cache)
game = slotmath.load_game(sys.argv[1])
marks = {}

def progress(stage, done, total):
    now = time.perf_counter()
    marks[stage] = (marks.get(stage, (now,))[0], now)

load = os.getloadavg()[0]
began, c0 = time.perf_counter(), cpu()
analysis = slotmath.analyze(game, progress=progress)
rtp = analysis.rtp
end = time.perf_counter()
components = dict(analysis.components)
after = time.perf_counter() - end
base = analysis.context.laws["base"]  # the paid spin's CascadeLaw
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # MB, this process
workers_peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024  # its largest worker
with open(sys.argv[3], "wb") as f:
    pickle.dump(dict(peak=peak, workers_peak=workers_peak, wall=end - began, cpu=cpu() - c0,
                     load=load, began=began, end=end, marks=marks, rtp=rtp,
                     components=components, components_wall=after, joint=dict(base.joint),
                     sums=base.sums, p8748=base.ways_in_play.get(8748, 0)), f)
"""


def recorded_rtp() -> Fraction | None:
    m = re.search(r"^#\s+total RTP\s+(\d+)/(\d+)", PATH.read_text(), re.MULTILINE)
    return Fraction(int(m.group(1)), int(m.group(2))) if m else None


def simulate(spins: int, seed: int) -> int:
    import tomllib

    sys.path.insert(0, str(PATH.parents[2] / "tests"))
    from test_simulate_cascades import game_with_rules  # rules read from the TOML dict

    from slotmath.simulate.cascades import simulate_cascades

    sim_game = game_with_rules(tomllib.loads(PATH.read_text()))
    r = simulate_cascades(sim_game, spins, seed)
    exact = float(recorded_rtp())
    print(f"{spins:,} rounds, seed {seed}: rtp {r.rtp:.5f} +- {r.std_error:.5f}"
          f" (exact {exact:.5f}, z = {r.z_score(exact):+.2f}); {r.spins_per_second:,.0f} spins/s")
    print(f"  first drop {r.first_drop:.5f}, later drops {r.later_drops:.5f}, scatter"
          f" {r.scatter:.5f}, free spins {r.free_spins:.5f}")
    return 0


def baseline_tree(commit: str) -> str:
    """The ``src`` folder of ``commit``'s package, extracted into a temporary folder."""
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", commit, "src/slotmath"],
                             check=True, capture_output=True).stdout
    folder = tempfile.mkdtemp(prefix="frozen_gems_baseline_")
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(folder, filter="data")
    return str(Path(folder) / "src")


def run(pythonpath: str, out: Path) -> dict:
    tiny = ROOT / "tests" / "data" / "cascades" / "tiny_free_spins.toml"
    # from the output's folder: the working folder must not shadow the tree asked for
    subprocess.run([sys.executable, "-c", RUN, str(PATH), str(tiny), str(out)], check=True,
                   cwd=out.parent, env={**os.environ, "PYTHONPATH": pythonpath})
    with open(out, "rb") as f:
        return pickle.load(f)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", default="6731a74", help="commit to compare, or 'none'")
    parser.add_argument("--simulate", type=int, default=0, metavar="N")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    if args.simulate:
        return simulate(args.simulate, args.seed)
    work = Path(tempfile.mkdtemp(prefix="bench_frozen_gems_"))
    trees = [("this code", str(ROOT / "src"))]
    if args.baseline != "none":
        trees.append((f"baseline {args.baseline}", baseline_tree(args.baseline)))
    recorded = recorded_rtp()
    print(f"{PATH.name}: slotmath.analyze, {os.cpu_count()} cores")
    results = []
    for name, tree in trees:
        r = run(tree, work / "out.pkl")
        results.append(r)
        print(f"{name}: {r['wall']:.1f} s wall, {r['cpu']:.1f} s CPU (the process and its "
              f"workers), load average {r['load']:.2f} at the start; components "
              f"{r['components_wall']:.1f} s more; peak resident {r['peak']:,.0f} MB (its "
              f"largest worker {r['workers_peak']:,.0f} MB)", flush=True)
        last = r["began"]
        for stage, (first, done) in r["marks"].items():
            print(f"  {first - last:5.1f} s before {stage}, whose chunks took "
                  f"{done - first:5.1f} s")
            last = done
        print(f"  {r['end'] - last:5.1f} s after the last enumeration (tables, free-spin "
              f"chain, RTP)")
    this = results[0]
    print(f"rtp = {float(this['rtp']):.12f} (an exact fraction of {len(str(this['rtp']))} "
          f"characters)")
    for key, value in this["components"].items():
        print(f"  {key:10s} {value} = {float(value):.6f}" if len(str(value)) < 60
              else f"  {key:10s} {float(value):.6f}")
    print(f"P(8748 ways in play) = {float(this['p8748']):.3e}")
    print(f"header figure {'matches' if recorded == this['rtp'] else 'DIFFERS: ' + str(recorded)}")
    ok = recorded == this["rtp"]
    if len(results) > 1:
        other = results[1]
        same = all(this[k] == other[k] for k in ("rtp", "components", "joint", "sums", "p8748"))
        print(f"this code and the baseline: {'equal' if same else 'DIFFERENT'} (RTP, components, "
              f"the paid spin's joint law and sums); wall ratio baseline / this code "
              f"{other['wall'] / this['wall']:.2f}x, CPU ratio {other['cpu'] / this['cpu']:.2f}x, "
              f"peak resident ratio {other['peak'] / this['peak']:.2f}x")
        ok = ok and same
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
