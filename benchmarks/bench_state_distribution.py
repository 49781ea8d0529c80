"""The round distribution of free spins with a state: seconds and how far its mean is from the
exact RTP, for this checkout and a baseline commit side by side in one run.

The state chain lays the feature's win on an FFT grid (``StateChain.dense``); a win past the
grid folds back a whole grid length, so the distribution's mean shows what the grid misses.
Each figure is a fresh process; the seconds are the distribution's alone (the exact analysis
before it is outside the timing, numba's compile of the grid's kernels inside it unless cached)::

    python benchmarks/bench_state_distribution.py --baseline 6731a74
    python benchmarks/bench_state_distribution.py --baseline-path /tmp/base --files data/games/book_of_gold.toml

``--baseline REF`` checks the commit out in a temporary worktree (``git worktree add``).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
GAMES = ["data/games/book_of_gold.toml", "data/games/big_catch.toml",
         "data/games/sticky_paws.toml"]

PROBE = r"""
import json, sys, time
import slotmath
path = sys.argv[1]
game = slotmath.load_game(path)
a = slotmath.analyze(game)
rtp = float(a.round.mean)
t = time.perf_counter()
d = a.distribution
seconds = time.perf_counter() - t
print(json.dumps({"seconds": seconds, "mean_error": float(d.mean) - rtp,
                  "mass_bound": float(d.aliased_mass_bound),
                  "rounding": float(getattr(d, "rounding_bets", 0.0))}))
"""


def measure(src: Path, path: str) -> dict:
    env = dict(os.environ, PYTHONPATH=str(src))
    out = subprocess.run([sys.executable, "-c", PROBE, str(ROOT / path)], env=env,
                         capture_output=True, text=True, check=True, cwd=ROOT)
    return json.loads(out.stdout.strip().splitlines()[-1])


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", help="a commit to compare with (checked out for the run)")
    parser.add_argument("--baseline-path", help="a checkout to compare with")
    parser.add_argument("--files", nargs="*", default=GAMES)
    args = parser.parse_args(argv)
    tmp = None
    base = Path(args.baseline_path) if args.baseline_path else None
    if args.baseline and base is None:
        tmp = tempfile.mkdtemp()
        base = Path(tmp) / "base"
        subprocess.run(["git", "worktree", "add", "-q", "--detach", str(base), args.baseline],
                       cwd=ROOT, check=True)
    print(f"load average {os.getloadavg()[0]:.2f}")
    print(f"{'game':32} {'side':8} {'seconds':>8} {'mean - RTP (bets)':>18} "
          f"{'folded mass':>12} {'rounding':>9}")
    try:
        for path in args.files:
            sides = [("now", ROOT / "src")] + ([("baseline", base / "src")] if base else [])
            rows = {}
            for side, src in sides:
                r = rows[side] = measure(src, path)
                print(f"{Path(path).stem:32} {side:8} {r['seconds']:8.2f} "
                      f"{r['mean_error']:18.3e} {r['mass_bound']:12.1e} {r['rounding']:9.2f}",
                      flush=True)
            if base:
                print(f"{'':32} {'ratio':8} {rows['now']['seconds'] / rows['baseline']['seconds']:8.2f}")
    finally:
        if tmp:
            subprocess.run(["git", "worktree", "remove", "--force", str(base)], cwd=ROOT, check=False)
    print(f"load average {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
