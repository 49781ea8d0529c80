"""CLI start-up: ``slotmath --help``, ``slotmath analyze --help`` and a fresh
``slotmath analyze data/games/tiny_lines.toml`` (a full cycle of 512 stop combinations), baseline
and now, side by side.

Each command runs in a fresh process, alternating a baseline commit and this checkout, and the
best and median wall times of ``--repeat`` runs are printed with their ratio. The baseline is
exported with ``git archive`` into a temporary folder (no worktree, nothing left behind) and
put first on ``PYTHONPATH``; the probe checks that each run imported the tree it meant to.
Each tree's numba kernels are loaded from its own cache (``__pycache__`` beside its sources),
filled by one unmeasured run first, so the figures are a user's second and later runs::

    python benchmarks/bench_startup.py                    # baseline: be08dac
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
NOW = ROOT / "src"

#: what the console script does (its wrapper imports slotmath.cli and calls main)
PROBE = ("import sys, slotmath; assert slotmath.__file__.startswith(sys.argv[1]), "
         "slotmath.__file__; from slotmath.cli import main; sys.exit(main(sys.argv[2:]))")


def export(commit: str, into: Path) -> Path:
    data = subprocess.run(["git", "-C", str(ROOT), "archive", commit, "src/slotmath"],
                          capture_output=True, check=True).stdout
    with tarfile.open(fileobj=io.BytesIO(data)) as tar:
        tar.extractall(into, filter="data")
    return into / "src"


def once(tree: Path, argv: list[str]) -> float:
    env = {**os.environ, "PYTHONPATH": str(tree), "SLOTMATH_COMPILE_NOTICE": "0"}
    start = time.perf_counter()
    proc = subprocess.run([sys.executable, "-c", PROBE, str(tree), *argv], cwd=tree, env=env,
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, check=False)
    if proc.returncode:
        raise SystemExit(f"{' '.join(argv)} failed in {tree}:\n{proc.stderr}")
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", default="be08dac",
                        help="commit to compare with (default: be08dac, before numpy's FFT "
                             "and lazy sympy)")
    parser.add_argument("--repeat", type=int, default=10)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="slotmath-startup-") as tmp:
        base = export(args.baseline, Path(tmp))
        print(f"baseline {args.baseline} vs this checkout, {args.repeat} runs each, seconds")
        print(f"{'command':<26} {'base best':>9} {'base med':>9} {'now best':>9} "
              f"{'now med':>9} {'now/base':>9}")
        print(f"load average at the start: {os.getloadavg()[0]:.1f}, {os.cpu_count()} cores")
        tiny = str(ROOT / "data" / "games" / "tiny_lines.toml")
        for argv in (["--help"], ["analyze", "--help"], ["analyze", tiny]):
            once(base, argv), once(NOW, argv)  # warm the file cache and numba's
            label = "slotmath " + " ".join(a if a != tiny else "tiny_lines.toml" for a in argv)
            b, n = [], []
            for _ in range(args.repeat):
                b.append(once(base, argv))
                n.append(once(NOW, argv))
            print(f"{label:<26} {min(b):>9.3f} {statistics.median(b):>9.3f} {min(n):>9.3f} "
                  f"{statistics.median(n):>9.3f} {statistics.median(n) / statistics.median(b):>9.3f}")


if __name__ == "__main__":
    main()
