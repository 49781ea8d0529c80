"""Simulator speed (issue 24, item 3): the hold & win and cascade simulators of this code and of
a baseline commit, side by side in one run.

Each row is measured in its own subprocess per tree (``PYTHONPATH`` = that tree's ``src``),
after a warm-up that compiles or loads numba's kernels, on one thread (``NUMBA_NUM_THREADS=1``:
the paid spins' kernel is otherwise parallel):

* **hold & win rounds**: :func:`slotmath.simulate.hold_and_win.play_hold_and_win` on the bundled
  games' specs, every round started from the trigger count (Gus's Gold Christmas: 5 nuggets,
  four boosters, up to 6 rows; Golden Link: 6 orbs, no booster), played in calls of 2**17
  rounds (the size of a batch's triggered rounds is far smaller; one call per round count
  would charge the baseline's per-call buffer more);
* **hold & win paid rounds**: the front door ``slotmath.simulate`` on the same two games (the
  paid spin, its modifiers, free spins and respin rounds; Gus's Gold Christmas's modifiers are
  played in Python by ``simulate.modifiers``, which this work did not touch);
* **cascade spins**: :func:`slotmath.simulate.cascades.simulate_cascades` on Frozen Gems, on
  the two 5x3 ways games of ``bench_cascades_simulate.py`` (strip and random refill) and on the
  20-line game of ``bench_lines_cascades.py`` (``benchmarks/data/lines_cascades.toml``); spins
  count paid and free spins, as ``spins_per_second`` does.

Rates are given per second of wall time and per second of the process's CPU time (on a shared
machine the CPU figure is the one per core); the load average is read when each row starts.
The RTP (or mean round win) of each row is printed for both trees: the cascade simulator draws
as before, so its figures are equal; the hold & win simulator draws one uniform per respin for
the landings instead of one per position, so its figures differ within their errors.

Run: ``python benchmarks/bench_sim_speed.py [--baseline 6731a74 | --baseline-src PATH]
[--scale 1]`` (``--scale`` multiplies every row's count of rounds).
"""

from __future__ import annotations

import argparse
import io
import json
import os
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

#: one measurement in a subprocess: argv = kind, game, count, output file
RUN = r"""
import json, os, sys, time
import numpy as np
import slotmath
assert slotmath.__file__.startswith(os.environ["PYTHONPATH"]), slotmath.__file__
kind, source, count, out = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
if source.endswith(".toml"):
    game = slotmath.load_game(source)
else:
    from slotmath.io.toml_loader import game_from_dict
    with open(source) as f:
        game = game_from_dict(json.load(f), "<bench>")
if kind == "respin":
    from slotmath.simulate.hold_and_win import play_hold_and_win
    spec = game.hold_and_win
    starts = np.full(1 << 17, spec.trigger, np.int64)
    play_hold_and_win(spec, starts[:1000], np.random.default_rng(0))
    rng = np.random.default_rng(1)
    calls = max(1, count // len(starts))
    load = os.getloadavg()[0]
    wall, cpu = time.perf_counter(), time.process_time()
    total = 0.0
    for _ in range(calls):
        total += float(play_hold_and_win(spec, starts, rng).win.sum())
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    done, figure = calls * len(starts), total / (calls * len(starts))
    error = float("nan")
elif kind == "paid":
    slotmath.simulate(game, 300_000, seed=0)  # large enough for every kernel a run uses
    load = os.getloadavg()[0]
    wall, cpu = time.perf_counter(), time.process_time()
    r = slotmath.simulate(game, count, seed=1)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    done, figure, error = count, r.rtp, r.std_error
else:
    from slotmath.simulate.cascades import simulate_cascades
    simulate_cascades(game, 2000, seed=0)
    load = os.getloadavg()[0]
    wall, cpu = time.perf_counter(), time.process_time()
    r = simulate_cascades(game, count, seed=1)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    # paid and free spins (the simulator's own count: spins_per_second x its kernel time)
    done = count * (1 + r.trigger_rate * r.spins_per_feature)
    figure, error = r.rtp, r.std_error
with open(out, "w") as f:
    json.dump(dict(wall=done / wall, cpu=done / cpu, figure=figure, error=error, load=load), f)
"""


def baseline_tree(commit: str) -> str:
    """The ``src`` folder of ``commit``'s package, extracted into a temporary folder."""
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", commit, "src/slotmath"],
                             check=True, capture_output=True).stdout
    folder = tempfile.mkdtemp(prefix="sim_speed_baseline_")
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(folder, filter="data")
    return str(Path(folder) / "src")


def run(pythonpath: str, kind: str, source: str, count: int, out: Path) -> dict:
    # from the output's folder: the working folder must not shadow the tree asked for
    env = {**os.environ, "PYTHONPATH": pythonpath, "NUMBA_NUM_THREADS": "1"}
    subprocess.run([sys.executable, "-c", RUN, kind, source, str(count), str(out)],
                   check=True, cwd=out.parent, env=env)
    return json.loads(out.read_text())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", default="6731a74", help="commit to compare")
    parser.add_argument("--baseline-src", default=None,
                        help="a checkout's src folder to compare instead (its numba cache kept)")
    parser.add_argument("--scale", type=float, default=1.0)
    parser.add_argument("--only", default="", help="run only the rows whose label has this")
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from bench_cascades_simulate import benchmark_game

    work = Path(tempfile.mkdtemp(prefix="bench_sim_speed_"))
    base = args.baseline_src or baseline_tree(args.baseline)
    trees = [("this code", str(ROOT / "src")),
             (f"baseline {args.baseline_src or args.baseline}", base)]
    games = ROOT / "data" / "games"
    sources = {}
    for refill in ("strip", "random"):
        path = work / f"{refill}.json"
        path.write_text(json.dumps(benchmark_game(refill)))
        sources[refill] = str(path)
    rows = [
        ("hold & win rounds, Gus's Gold Christmas", "respin",
         str(games / "gus_gold_christmas.toml"), 4_000_000),
        ("hold & win rounds, Golden Link", "respin", str(games / "golden_link.toml"), 6_000_000),
        ("paid rounds, Gus's Gold Christmas", "paid", str(games / "gus_gold_christmas.toml"),
         2_000_000),
        ("paid rounds, Golden Link", "paid", str(games / "golden_link.toml"), 4_000_000),
        ("cascade spins, Frozen Gems", "cascade", str(games / "frozen_gems.toml"), 2_000_000),
        ("cascade spins, 5x3 ways strip refill", "cascade", sources["strip"], 1_000_000),
        ("cascade spins, 5x3 ways random refill", "cascade", sources["random"], 1_000_000),
        ("cascade spins, 20-line 5x3 strip refill", "cascade",
         str(ROOT / "benchmarks" / "data" / "lines_cascades.toml"), 1_000_000),
    ]
    print(f"simulator speed, one thread, {os.cpu_count()} cores on the machine, "
          f"load {os.getloadavg()[0]:.2f} at the start")
    print(f"{'row':<42}{'run':<22}{'count':>10}{'/s wall':>13}{'/s CPU':>13}{'load':>6}"
          f"   figure")
    for label, kind, source, count in rows:
        if args.only and args.only not in label:
            continue
        count = max(1, int(count * args.scale))
        got = []
        for name, tree in trees:
            r = run(tree, kind, source, count, work / "out.json")
            got.append(r)
            error = "" if r["error"] != r["error"] else f" +- {r['error']:.5f}"
            print(f"{label:<42}{name:<22}{count:>10,}{r['wall']:>13,.0f}{r['cpu']:>13,.0f}"
                  f"{r['load']:>6.2f}   {r['figure']:.5f}{error}", flush=True)
        print(f"{'':<42}{'ratio':<22}{'':>10}{got[0]['wall'] / got[1]['wall']:>12.2f}x"
              f"{got[0]['cpu'] / got[1]['cpu']:>12.2f}x", flush=True)


if __name__ == "__main__":
    main()
