"""The hold & win round law (records + FFT mixture) of Gus's Gold Christmas, this code against
a baseline commit's, side by side in one process.

The baseline's ``slotmath/markov/hold_and_win.py`` is read from git (``git show
COMMIT:path``) and imported as a separate module; both build the same chain and compute
``float_distributions`` for the same start counts; the laws must agree to rounding (the
benchmark fails otherwise). Numba compilation is paid before timing (a small chain first).

Run: python benchmarks/bench_hold_and_win_law.py [--baseline 7804f8c~1] [--starts 5 6 7]
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import subprocess
import sys
import tempfile
import time
from fractions import Fraction
from pathlib import Path

import numpy as np

import slotmath
from slotmath.markov import hold_and_win as current
from slotmath.model.hold_and_win import Booster, HoldAndWin

ROOT = Path(__file__).resolve().parent.parent
PATH = ROOT / "data" / "games" / "gus_gold_christmas.toml"


def baseline_module(commit: str):
    source = subprocess.run(["git", "-C", str(ROOT), "show",
                             f"{commit}:slotmath/markov/hold_and_win.py"],
                            check=True, capture_output=True, text=True).stdout
    folder = tempfile.mkdtemp(prefix="hw_baseline_")
    path = os.path.join(folder, "hw_baseline.py")
    Path(path).write_text(source)
    spec = importlib.util.spec_from_file_location("hw_baseline", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules["hw_baseline"] = module
    spec.loader.exec_module(module)
    return module


def timed(module, spec, starts):
    chain = module.HoldAndWinChain(spec)
    chain.figures(starts[0])  # the chain and its backward passes (not timed)
    t0, c0 = time.perf_counter(), time.process_time()
    law = chain.float_distributions(starts)
    return law, time.perf_counter() - t0, time.process_time() - c0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", default="7804f8c~1")
    parser.add_argument("--starts", type=int, nargs="+", default=[5])
    args = parser.parse_args()
    old = baseline_module(args.baseline)
    small = HoldAndWin("C", 1, 2, Fraction(1, 3), (Fraction(1), Fraction(5)), (2, 1),
                       rows=1, max_rows=2, reels=2,
                       boosters=(Booster("rows", Fraction(1, 4), 1, 1),
                                 Booster("values", Fraction(1, 3), 1, 1)))
    for module in (old, current):
        timed(module, small, [1])
    spec = slotmath.load_game(PATH).hold_and_win
    print(f"Gus's Gold Christmas round law, starts {args.starts}; load {os.getloadavg()[0]:.1f}")
    results = {}
    for name, module in (("baseline " + args.baseline, old), ("this code", current)):
        law, wall, cpu = timed(module, spec, args.starts)
        results[name] = (law, wall, cpu)
        print(f"{name:<24} wall {wall:7.2f} s   cpu {cpu:7.2f} s")
    (a, wa, _), (b, wb, _) = results.values()
    diff = max(float(np.abs(a[h][0] - b[h][0]).max()) for h in args.starts)
    bound = max(a[h][1] for h in args.starts)
    print(f"ratio (baseline / this code, wall): {wa / wb:.2f}x; laws differ by {diff:.1e}"
          f" (bound {bound:.1e})")
    if diff > bound:
        raise SystemExit("the two laws disagree beyond their bound")


if __name__ == "__main__":
    main()
