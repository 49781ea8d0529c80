"""The composed analysis against a baseline checkout, side by side in one run.

For every bundled game at every bet level, times the whole analysis (RTP, every component,
the round distribution, hit frequency, SD, the cap and the jackpots) in this checkout and in a
baseline checkout of an earlier commit, alternating the two, each in a fresh process with a
warm numba cache (one untimed run first), and prints the best of ``--repeat`` runs of each with
their ratio. It also checks that both print the same RTP. Then the same for the seeded
simulator (``--rounds`` rounds of three games), whose RTP must be the same bit for bit.

Make the baseline once, e.g. the commit before the feature redesign (issue 8)::

    git worktree add /tmp/slotmath-base 1aa760c
    python benchmarks/bench_redesign.py --baseline /tmp/slotmath-base
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

PROBE = r"""
import json, sys, time
import slotmath
game = slotmath.load_game(sys.argv[1])
level = int(sys.argv[2])
start = time.perf_counter()
a = slotmath.analyze(game, level)
_ = (a.rtp, a.components, a.hit_frequency, a.std, a.distribution, a.win_sizes)
if hasattr(a, "features"):  # the registry: every feature's figures
    _ = [a.features[name] for name in a.features]
else:  # before it: each mechanic's member
    _ = [getattr(a, name) for name in ("cap", "jackpots", "free_spins", "hold_and_win")
         if hasattr(a, name)]
print(json.dumps({"seconds": time.perf_counter() - start, "rtp": str(a.rtp)}))
"""


SIMULATE = r"""
import json, sys, time
import slotmath
game = slotmath.load_game(sys.argv[1])
level, rounds = int(sys.argv[2]), int(sys.argv[3])
slotmath.simulate(game, 10_000, seed=1, level=level)  # load the kernels
start = time.perf_counter()
r = slotmath.simulate(game, rounds, seed=1, level=level)
print(json.dumps({"seconds": time.perf_counter() - start, "rtp": repr(r.rtp)}))
"""


def run(tree: Path, game: Path, level: int, rounds: int | None = None) -> dict:
    argv = [PROBE, str(game), str(level)] if rounds is None else [SIMULATE, str(game),
                                                                   str(level), str(rounds)]
    import os

    src = tree / "src" if (tree / "src" / "slotmath").is_dir() else tree  # either layout
    env = dict(os.environ, PYTHONPATH=str(src))
    out = subprocess.run([sys.executable, "-c", *argv], cwd=tree, capture_output=True,
                         text=True, check=True, env=env)
    return json.loads(out.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", type=Path, required=True,
                        help="a checkout of an earlier commit (git worktree add PATH COMMIT)")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--rounds", type=int, default=2_000_000)
    parser.add_argument("--games", nargs="*", default=None, help="game file stems (default all)")
    args = parser.parse_args()
    import slotmath

    print(f"{'game':<18} {'level':>5} {'baseline':>9} {'now':>9} {'now/base':>9}  same RTP")
    total_base = total_now = 0.0
    sys.path.insert(0, str(ROOT / "tests"))
    from bundled import BENCHMARK_ONLY  # a minute-long analysis: its own benchmark

    games = [p for p in sorted((ROOT / "data" / "games").glob("*.toml"))
             if p.stem not in BENCHMARK_ONLY and (args.games is None or p.stem in args.games)]
    for path in games:
        for level in slotmath.load_game(path).bet_levels:
            run(args.baseline, path, level), run(ROOT, path, level)  # warm the numba caches
            base, now = [], []
            for _ in range(args.repeat):
                base.append(run(args.baseline, path, level))
                now.append(run(ROOT, path, level))
            b = min(r["seconds"] for r in base)
            n = min(r["seconds"] for r in now)
            total_base, total_now = total_base + b, total_now + n
            same = base[0]["rtp"] == now[0]["rtp"]
            print(f"{path.stem:<18} {level:>5} {b:>8.3f}s {n:>8.3f}s {n / b:>9.2f}  {same}")
    print(f"{'all':<18} {'':>5} {total_base:>8.3f}s {total_now:>8.3f}s "
          f"{total_now / total_base:>9.2f}")
    print(f"\nsimulation, {args.rounds:,} rounds (M rounds/s)")
    print(f"{'game':<18} {'level':>5} {'baseline':>9} {'now':>9} {'now/base':>9}  same RTP")
    for name, level in (("gold_money_frog", 4), ("classic_fruits", 1), ("ways_243", 1)):
        path = ROOT / "data" / "games" / f"{name}.toml"
        base = [run(args.baseline, path, level, args.rounds) for _ in range(args.repeat)]
        now = [run(ROOT, path, level, args.rounds) for _ in range(args.repeat)]
        b = args.rounds / min(r["seconds"] for r in base) / 1e6
        n = args.rounds / min(r["seconds"] for r in now) / 1e6
        print(f"{name:<18} {level:>5} {b:>9.2f} {n:>9.2f} {n / b:>9.2f}  "
              f"{base[0]['rtp'] == now[0]['rtp']}")


if __name__ == "__main__":
    main()
