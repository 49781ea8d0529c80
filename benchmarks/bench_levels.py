"""Every bet level of a game: ``slotmath check FILE --json`` (the compliance tables of every
level, each level's whole analysis), this tree next to a baseline commit's, side by side.

Jingle Spin has ten bet levels whose pays (and coin wins) all scale with the level, so its
figures in total bets are the same at each: since ``Game.pay_level`` its conveyor is computed
once for the ten (``slotmath.features.conveyor.shared_feature``), where the baseline computed
it ten times. Each side runs in its own subprocess (``PYTHONPATH`` = that tree's ``src``; the
baseline's ``src/slotmath`` from ``git archive COMMIT``), numba's kernels loaded first by an
untimed small game; then ``--repeat`` timed runs of each, alternated, wall and CPU (the
process and its workers), and the load average when each started. The two JSON documents
must be equal (the benchmark fails otherwise).

Run: ``python benchmarks/bench_levels.py [--game data/games/jingle_spin.toml]
[--baseline 6088816] [--repeat 1]``.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import resource
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

#: one timed run in a subprocess: argv = src folder, game file, output file
RUN = r"""
import contextlib, io, os, sys, time
import slotmath
assert slotmath.__file__.startswith(sys.argv[1]), slotmath.__file__
from slotmath.cli import main
with contextlib.redirect_stdout(io.StringIO()):  # numba's kernels, not timed
    main(["check", sys.argv[4], "--json"])
out = io.StringIO()
t0 = time.perf_counter()
with contextlib.redirect_stdout(out):
    main(["check", sys.argv[2], "--json"])
wall = time.perf_counter() - t0
open(sys.argv[3], "w").write(out.getvalue())
print(wall)
"""


def baseline_tree(commit: str) -> Path:
    """``src/slotmath`` of ``commit`` in a temporary folder (its ``src``)."""
    folder = Path(tempfile.mkdtemp(prefix=f"bench_levels_{commit}_"))
    data = subprocess.run(["git", "-C", str(ROOT), "archive", commit, "src/slotmath"],
                          check=True, capture_output=True).stdout
    with tarfile.open(fileobj=io.BytesIO(data)) as tar:
        tar.extractall(folder, filter="data")
    return folder / "src"


def run(src: Path, game: Path, out: Path) -> tuple[float, float, float]:
    """(wall of the timed check, CPU of the whole subprocess, load when it started)."""
    load = os.getloadavg()[0]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(
        [sys.executable, "-c", RUN, str(src), str(game), str(out),
         str(ROOT / "data/games/tiny_lines.toml")],
        check=True, cwd=ROOT, env={**os.environ, "PYTHONPATH": str(src)},
        capture_output=True, text=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return float(done.stdout.split()[-1]), cpu, load


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--game", default=str(ROOT / "data/games/jingle_spin.toml"))
    p.add_argument("--baseline", default="6088816", help="a commit, or none")
    p.add_argument("--repeat", type=int, default=1)
    args = p.parse_args(argv)
    game = Path(args.game).resolve()
    trees = {"this tree": ROOT / "src"}
    if args.baseline != "none":
        trees[f"baseline {args.baseline}"] = baseline_tree(args.baseline)
    work = Path(tempfile.mkdtemp(prefix="bench_levels_out_"))
    print(f"{game.name}: slotmath check --json (every bet level); {os.cpu_count()} cores")
    print(f"{'tree':<22}{'run':>4}{'wall s':>10}{'CPU s':>10}{'load':>7}")
    best: dict[str, float] = {}
    docs: dict[str, dict] = {}
    for i in range(args.repeat):
        for name, src in trees.items():
            out = work / f"{name.split()[0]}.json"
            wall, cpu, load = run(src, game, out)
            best[name] = min(best.get(name, wall), wall)
            docs[name] = json.loads(out.read_text())
            print(f"{name:<22}{i + 1:>4}{wall:>10.2f}{cpu:>10.2f}{load:>7.2f}", flush=True)
    if len(docs) == 2:
        (a, da), (b, db) = docs.items()
        if da != db:
            print(f"FAIL: the two trees' check documents differ ({a} / {b})")
            return 1
        print(f"the documents are equal; {b} / {a}: {best[b] / best[a]:.2f}x (best of "
              f"{args.repeat})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
