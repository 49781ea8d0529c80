"""A place modifier's exact table (Gus's Gold Christmas's Dynamite: 3 to 5 of the 15
positions turn Wild, every stop combination with every chosen set), this code against a
baseline commit's, side by side in one run.

* this code, the table store off (``SLOTMATH_CACHE=off``): with 2 worker processes and with
  one, wall and CPU time (the workers' included);
* this code reading the table from the store (a fresh temporary store, filled first);
* the baseline: its ``slotmath`` package taken from git (``git archive COMMIT src/slotmath``,
  or ``slotmath`` before the src layout) and
  run in a subprocess on the same game file and the same modifier; its table must equal this
  code's weight for weight (the benchmark fails otherwise). ``--baseline none`` skips it (the
  baseline b02fb05 takes about 7 minutes).

Numba's compilation is paid before timing (a small game first) in every process.

Run: python benchmarks/bench_modifiers.py [--baseline b02fb05] [--workers 2 1]
"""

from __future__ import annotations

import argparse
import io
import os
import pickle
import resource
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GAME = ROOT / "data" / "games" / "gus_gold_christmas.toml"

#: what each process runs: the table of the game's Dynamite, timed, pickled to argv[2]
RUN = r"""
import os, pickle, resource, sys, time
import slotmath
assert slotmath.__file__.startswith(os.environ["PYTHONPATH"]), slotmath.__file__
from slotmath.exact.modifiers import modifier_table
game = slotmath.load_game(sys.argv[1])
dynamite = next(m for m in game.modifiers if m.name == "dynamite")
small = slotmath.load_game(sys.argv[3])
from fractions import Fraction
from slotmath.model.modifiers import Modifier
wild = next(s for s, v in small.symbols.items() if v.wild)
modifier_table(small, Modifier("warm", "place", Fraction(1, 2), symbol=wild, counts=((1, 1),)))
kwargs = eval(sys.argv[4])
t0 = time.perf_counter()
c0 = time.process_time()
ch0 = resource.getrusage(resource.RUSAGE_CHILDREN)
table = modifier_table(game, dynamite, count_symbol=game.hold_and_win.symbol, **kwargs)
wall = time.perf_counter() - t0
ch1 = resource.getrusage(resource.RUSAGE_CHILDREN)
cpu = (time.process_time() - c0 + ch1.ru_utime - ch0.ru_utime + ch1.ru_stime - ch0.ru_stime)
with open(sys.argv[2], "wb") as f:
    pickle.dump((dict(table.weights), table.cycle, wall, cpu), f)
"""


def run(pythonpath: str, out: Path, kwargs: str, env: dict) -> tuple:
    small = ROOT / "data" / "games" / "tiny_lines.toml"
    # run from the output's folder: with -c the working folder comes first on sys.path, and
    # the repository's own slotmath/ must not shadow the tree asked for
    subprocess.run([sys.executable, "-c", RUN, str(GAME), str(out), str(small), kwargs],
                   check=True, cwd=out.parent,
                   env={**os.environ, **env, "PYTHONPATH": pythonpath})
    with open(out, "rb") as f:
        return pickle.load(f)


def baseline_tree(commit: str) -> str:
    """The folder to put on PYTHONPATH for ``commit``'s package: ``src/slotmath`` (the src
    layout) or, in commits before it, ``slotmath`` at the root."""
    folder = tempfile.mkdtemp(prefix="modifiers_baseline_")
    for path, on_path in (("src/slotmath", "src"), ("slotmath", "")):
        got = subprocess.run(["git", "-C", str(ROOT), "archive", commit, path],
                             check=False, capture_output=True)
        if got.returncode == 0:
            with tarfile.open(fileobj=io.BytesIO(got.stdout)) as tar:
                tar.extractall(folder, filter="data")
            return str(Path(folder) / on_path)
    raise SystemExit(f"{commit}: no slotmath package in src/ or at the root")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", default="b02fb05",
                        help="commit to compare with, or 'none'")
    parser.add_argument("--workers", type=int, nargs="+", default=[2, 1])
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="bench_modifiers_"))
    print(f"Dynamite table of {GAME.name}; {os.cpu_count()} cores, "
          f"load {os.getloadavg()[0]:.1f}")
    rows = []
    here = str(ROOT / "src")  # the src layout: this tree's package
    for w in args.workers:
        got = run(here, work / f"w{w}.pkl", f"dict(workers={w})", {"SLOTMATH_CACHE": "off"})
        rows.append((f"this code, {w} worker(s)", got))
    store = {"SLOTMATH_CACHE_DIR": str(work / "store")}
    run(here, work / "fill.pkl", "{}", store)
    rows.append(("this code, from the store", run(here, work / "read.pkl", "{}", store)))
    if args.baseline != "none":
        tree = baseline_tree(args.baseline)
        kwargs = "{}"
        rows.append((f"baseline {args.baseline}",
                     run(tree, work / "base.pkl", kwargs, {"SLOTMATH_CACHE": "off"})))
    first = rows[0][1]
    print(f"{'run':<30}{'wall s':>10}{'cpu s':>10}   table")
    for name, (weights, cycle, wall, cpu) in rows:
        same = weights == first[0] and cycle == first[1]
        print(f"{name:<30}{wall:>10.2f}{cpu:>10.2f}   "
              f"{'equal' if same else 'DIFFERS'} ({len(weights):,} cells)")
        if not same:
            raise SystemExit(f"{name}: the table differs from this code's")
    if args.baseline != "none":
        base = rows[-1][1][2]
        print(f"ratio (baseline / this code with {args.workers[0]} workers, wall): "
              f"{base / first[2]:.1f}x")
    print(f"(resource use of the children is counted in cpu; this process: "
          f"{resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB)")


if __name__ == "__main__":
    main()
