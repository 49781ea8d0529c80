"""CLI start-up: ``slotmath --help`` and ``slotmath analyze --help``, baseline and now, side by side.

Each command runs in a fresh process, alternating a baseline commit and this checkout, and the
best and median wall times of ``--repeat`` runs are printed with their ratio. The baseline is
exported with ``git archive`` into a temporary folder (no worktree, nothing left behind) and
put first on ``PYTHONPATH``; the probe checks that each run imported the tree it meant to::

    python benchmarks/bench_startup.py                    # baseline: main's 0728843
    python benchmarks/bench_startup.py --baseline HEAD~3 --repeat 20
"""

from __future__ import annotations

import argparse
import io
import os
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

#: what the console script does (its wrapper imports slotmath.cli and calls main)
PROBE = ("import sys, slotmath; assert slotmath.__file__.startswith(sys.argv[1]), "
         "slotmath.__file__; from slotmath.cli import main; sys.exit(main(sys.argv[2:]))")


def export(commit: str, into: Path) -> Path:
    data = subprocess.run(["git", "-C", str(ROOT), "archive", commit, "slotmath"],
                          capture_output=True, check=True).stdout
    with tarfile.open(fileobj=io.BytesIO(data)) as tar:
        tar.extractall(into, filter="data")
    return into


def once(tree: Path, argv: list[str]) -> float:
    env = {**os.environ, "PYTHONPATH": str(tree)}
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", PROBE, str(tree), *argv], cwd=tree, env=env,
                   stdout=subprocess.DEVNULL, check=True)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", default="0728843",
                        help="commit to compare with (default: 0728843, before lazy imports)")
    parser.add_argument("--repeat", type=int, default=10)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="slotmath-startup-") as tmp:
        base = export(args.baseline, Path(tmp))
        print(f"baseline {args.baseline} vs this checkout, {args.repeat} runs each, seconds")
        print(f"{'command':<26} {'base best':>9} {'base med':>9} {'now best':>9} "
              f"{'now med':>9} {'now/base':>9}")
        for argv in (["--help"], ["analyze", "--help"]):
            once(base, argv), once(ROOT, argv)  # warm the file cache
            b, n = [], []
            for _ in range(args.repeat):
                b.append(once(base, argv))
                n.append(once(ROOT, argv))
            label = "slotmath " + " ".join(argv)
            print(f"{label:<26} {min(b):>9.3f} {statistics.median(b):>9.3f} {min(n):>9.3f} "
                  f"{statistics.median(n):>9.3f} {statistics.median(n) / statistics.median(b):>9.3f}")


if __name__ == "__main__":
    main()
