"""Cascade simulator speed (slotmath.simulate.cascades): spins per second, this code next to a
baseline commit's, side by side in one run.

Builds (in code, seeded) a Frozen-Gems-shaped game: 5x3 ways, 40-stop strips, a wild, a
scatter, cascades with a multiplier 1, 2, 3, ..., frozen bonus symbols (two x2, two wild and
one x3, or two x2, one wild and two x3, shuffled) and free spins carrying the multiplier
(9 spins for 3 scatters, +1 per scatter, at most 50), in strip and in random refill, and
loads ``data/games/frozen_gems.toml``. Each is simulated, after a warm-up (numba compilation
excluded), by this code and by the baseline's ``slotmath`` package (``git archive COMMIT
src/slotmath`` into a temporary folder, run in a subprocess on the same game; ``--baseline
none`` skips it). Per row: paid rounds per second (wall), spins per second (paid + free,
the kernel's time), the RTP estimate and its standard error (the same seed; this code pays
in integer credits where the baseline added floats, so the last digits may differ).

``--cross-check`` adds a heavy run (about 30-60 s): the same mechanics on 12-stop strips,
written as a game file (the loader's model, not hand-made rules), analysed exactly by
``slotmath.analyze`` and simulated; it prints both RTPs, every component side by side and the
z-score (the tests do this on tiny games only; this is the engine against the simulator on a
game the brute-force reference cannot enumerate).

Run: ``python benchmarks/bench_cascades_simulate.py [--spins 1000000] [--baseline b7a2cb2]
[--cross-check]``.
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
import time
from pathlib import Path

import numpy as np

from slotmath.io.toml_loader import game_from_dict
from slotmath.simulate.cascades import simulate_cascades

ROOT = Path(__file__).resolve().parent.parent
FROZEN_GEMS = ROOT / "data" / "games" / "frozen_gems.toml"

#: one timed simulation in a subprocess: argv = game (JSON dict, or a .toml path), spins,
#: output file
RUN = r"""
import json, os, sys, time
import slotmath
assert slotmath.__file__.startswith(os.environ["PYTHONPATH"]), slotmath.__file__
from slotmath.io.toml_loader import game_from_dict
from slotmath.simulate.cascades import simulate_cascades
source, spins = sys.argv[1], int(sys.argv[2])
if source.endswith(".toml"):
    game = slotmath.load_game(source)
else:
    with open(source) as f:
        game = game_from_dict(json.load(f), "<bench>")
simulate_cascades(game, 1000, seed=0)  # warm-up / compile
load = os.getloadavg()[0]
began = time.perf_counter()
r = simulate_cascades(game, spins, seed=1)
wall = time.perf_counter() - began
with open(sys.argv[3], "w") as f:
    json.dump(dict(rounds=spins / wall, spins=r.spins_per_second, rtp=r.rtp, se=r.std_error,
                   load=load), f)
"""

NAMES = ["W", "S", "H1", "H2", "H3", "L1", "L2", "L3", "L4"]
COUNTS = {"W": 1, "S": 1, "H1": 3, "H2": 4, "H3": 5, "L1": 6, "L2": 6, "L3": 7, "L4": 7}


def benchmark_game(refill: str, seed: int = 2026) -> dict:
    """The benchmark game as a game-file dict, with ``refill`` ("strip" or "random")."""
    rng = np.random.default_rng(seed)
    symbols = {
        "W": {"wild": True},
        "S": {"scatter": True, "pays": {"3": 5, "4": 10, "5": 15, "6": 20}},
        "H1": {"pays": {"3": 5, "4": 10, "5": 25}},
        "H2": {"pays": {"3": 4, "4": 8, "5": 20}},
        "H3": {"pays": {"3": 3, "4": 6, "5": 15}},
        "L1": {"pays": {"3": 1, "4": 2, "5": 5}},
        "L2": {"pays": {"3": 1, "4": 2, "5": 4}},
        "L3": {"pays": {"3": 1, "4": 2, "5": 3}},
        "L4": {"pays": {"3": 1, "4": 1, "5": 2}},
    }

    def strip() -> list[str]:
        stops = [n for n in NAMES for _ in range(COUNTS[n])]
        return [str(s) for s in rng.permutation(stops)]

    table = {n: COUNTS[n] for n in NAMES}
    arrangements = [["SPLIT2", "SPLIT2", "BONUS_WILD", "BONUS_WILD", "SPLIT3"],
                    ["SPLIT2", "SPLIT2", "BONUS_WILD", "SPLIT3", "SPLIT3"]]
    return {
        "name": f"bench cascades ({refill} refill)", "rows": 3, "bet": 10000, "ways": True,
        "symbols": symbols,
        "reels": {"base": [strip() for _ in range(5)], "free": [strip() for _ in range(5)]},
        "cascades": {"refill": refill, "multiplier": {"start": 1, "step": 1},
                     "carry_multiplier": True,
                     "refill_weights": {"base": [table] * 5, "free": [table] * 5}},
        "bonus_symbols": {
            "threshold": 3, "accumulate": True, "shuffle": True,
            "effects": {"SPLIT2": {"split": 2}, "SPLIT3": {"split": 3},
                        "BONUS_WILD": {"wild": "W"}},
            "arrangements": [{"weight": 1, "symbols": a} for a in arrangements]},
        "free_spins": {"trigger": "S", "awards": {"3": 9}, "reels": "free", "retrigger": True,
                       "retrigger_awards": {str(n): n for n in range(1, 6)}, "max_spins": 50,
                       "scatter_pays": False},
    }


def cross_check_game(stops: int = 12, seed: int = 7):
    """A 5x3 ways game with [cascades], [bonus_symbols] and carried free spins, as a dict."""
    rng = np.random.default_rng(seed)
    pool = ["W", "S", "H1", "H2", "L1", "L1", "L2", "L2", "X", "X", "X", "H1"][:stops]

    def strip() -> list[str]:
        return [str(s) for s in rng.permutation(pool)]

    arrangements = [["SPLIT2", "SPLIT2", "BONUS_WILD", "BONUS_WILD", "SPLIT3"],
                    ["SPLIT2", "SPLIT2", "BONUS_WILD", "SPLIT3", "SPLIT3"]]
    return {
        "name": "cross-check", "rows": 3, "bet": 1000, "ways": True,
        "symbols": {"W": {"wild": True}, "S": {"scatter": True, "pays": {"3": 2, "4": 5}},
                    "H1": {"pays": {"3": 5, "4": 10, "5": 20}},
                    "H2": {"pays": {"3": 4, "4": 8, "5": 15}},
                    "L1": {"pays": {"3": 1, "4": 2, "5": 4}},
                    "L2": {"pays": {"3": 1, "4": 2, "5": 3}}, "X": {}},
        "reels": {"base": [strip() for _ in range(5)], "free": [strip() for _ in range(5)]},
        "cascades": {"refill": "strip", "multiplier": {"start": 1, "step": 1},
                     "carry_multiplier": True},
        "bonus_symbols": {
            "threshold": 3, "accumulate": True, "shuffle": True,
            "effects": {"SPLIT2": {"split": 2}, "SPLIT3": {"split": 3},
                        "BONUS_WILD": {"wild": "W"}},
            "arrangements": [{"weight": 1, "symbols": a} for a in arrangements]},
        "free_spins": {"trigger": "S", "awards": {"3": 3}, "reels": "free", "retrigger": True,
                       "retrigger_awards": {"1": 1}, "max_spins": 8, "scatter_pays": False},
    }


def cross_check(spins: int) -> None:
    import slotmath

    game = game_from_dict(cross_check_game(), "<cross-check>")
    began = time.perf_counter()
    analysis = slotmath.analyze(game)
    exact = analysis.rtp
    seconds = time.perf_counter() - began
    result = simulate_cascades(game, spins, seed=3)
    print(f"cross-check (5x3, 12-stop strips, bonus symbols, carried free spins to 8), "
          f"{spins:,} rounds:")
    print(f"  exact RTP {float(exact):.6f} ({seconds:.1f} s, compilation included)   "
          f"simulated {result.rtp:.6f} +- {result.std_error:.6f}   "
          f"z = {result.z_score(exact):+.2f}")
    parts = (("ways", "first_drop"), ("cascades", "later_drops"), ("scatter", "scatter"),
             ("free_spins", "free_spins"))
    for exact_name, simulated in parts:
        value = float(analysis.components.get(exact_name, 0))
        estimate = getattr(result, simulated)
        error = result.component_std_errors[simulated]
        z = (estimate - value) / error if error else 0.0
        print(f"  {exact_name:10s} exact {value:.6f}  simulated {estimate:.6f} +- "
              f"{error:.6f}  z = {z:+.2f}")


def baseline_tree(commit: str) -> str:
    """The ``src`` folder of ``commit``'s package, extracted into a temporary folder."""
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", commit, "src/slotmath"],
                             check=True, capture_output=True).stdout
    folder = tempfile.mkdtemp(prefix="cascades_simulate_baseline_")
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(folder, filter="data")
    return str(Path(folder) / "src")


def run(pythonpath: str, source: str, spins: int, out: Path) -> dict:
    # from the output's folder: the working folder must not shadow the tree asked for
    subprocess.run([sys.executable, "-c", RUN, source, str(spins), str(out)], check=True,
                   cwd=out.parent, env={**os.environ, "PYTHONPATH": pythonpath})
    return json.loads(out.read_text())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--spins", type=int, default=1_000_000)
    parser.add_argument("--baseline", default="b7a2cb2", help="commit to compare, or 'none'")
    parser.add_argument("--cross-check", action="store_true",
                        help="also: exact engine vs simulator on a 12-stop game (heavy)")
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="bench_cascades_simulate_"))
    trees = [("this code", str(ROOT / "src"))]
    if args.baseline != "none":
        trees.append((f"baseline {args.baseline}", baseline_tree(args.baseline)))
    print(f"cascade simulator, {args.spins:,} paid rounds a row, {os.cpu_count()} cores on the "
          f"machine (the kernel is single-threaded), load {os.getloadavg()[0]:.2f}")
    games = []
    for refill in ("strip", "random"):
        path = work / f"{refill}.json"
        path.write_text(json.dumps(benchmark_game(refill)))
        games.append((f"5x3 ways 40 stops, {refill} refill", str(path)))
    games.append((FROZEN_GEMS.name, str(FROZEN_GEMS)))
    print(f"{'game':<34}{'run':<18}{'rounds/s':>12}{'spins/s':>12}{'load':>6}   RTP")
    for label, source in games:
        rows = []
        for name, tree in trees:
            r = run(tree, source, args.spins, work / "out.json")
            rows.append(r)
            print(f"{label:<34}{name:<18}{r['rounds']:>12,.0f}{r['spins']:>12,.0f}"
                  f"{r['load']:>6.2f}   {r['rtp']:.5f} +- {r['se']:.5f}", flush=True)
        if len(rows) > 1:
            print(f"{'':<34}{'ratio':<18}{rows[0]['rounds'] / rows[1]['rounds']:>11.2f}x"
                  f"{rows[0]['spins'] / rows[1]['spins']:>11.2f}x")
    if args.cross_check:
        cross_check(args.spins)


if __name__ == "__main__":
    main()
