"""Exact analysis of cascading games whose scatters count on every fall
(``cascades.scatters = "every_fall"``), next to the same files read with the default
``"final"`` rule, side by side in one run.

Games: ``tests/data/cascades/gonzo_tiny.toml`` (3x3, 5 lines, 294 stop combinations) and
``docs/examples/avalanche_style.toml`` (5x3, 20 lines, 8,625,000 stop combinations per reel
set), or ``--game FILE ...``. Each row runs ``slotmath.analyze(game).rtp`` (the paid reels'
chain, the free reels' chain, the free-spin chain, the exact RTP) in a subprocess with the
table store off (``SLOTMATH_CACHE=off``) after a warm-up on the tiny game (numba's compilation
is paid before timing). The "final" row is the same file without its ``scatters`` and
``scatter_multiplied`` keys: the baseline is the engine as it plays a game whose scatters stay
(it can settle blocks of stop combinations without a first win at once; every_fall must
visit them). Per row: wall seconds, CPU seconds (the process and its workers), the load
average when it started, the exact RTP; then the ratio every_fall / final.

Run: ``python benchmarks/bench_cascade_scatters.py [--game FILE ...]``. The figures depend on
the machine and what else runs on it: read them side by side, from one run.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TINY = ROOT / "tests" / "data" / "cascades" / "gonzo_tiny.toml"
GAMES = (TINY, ROOT / "docs" / "examples" / "avalanche_style.toml")

RUN = r"""
import os, resource, sys, time
import slotmath
slotmath.analyze(slotmath.load_game(sys.argv[2])).rtp  # warm-up: compile
game = slotmath.load_game(sys.argv[1])
load = os.getloadavg()[0]
cpu0 = resource.getrusage(resource.RUSAGE_SELF).ru_utime + resource.getrusage(
    resource.RUSAGE_CHILDREN).ru_utime
t0 = time.perf_counter()
rtp = slotmath.analyze(game).rtp
wall = time.perf_counter() - t0
cpu = resource.getrusage(resource.RUSAGE_SELF).ru_utime + resource.getrusage(
    resource.RUSAGE_CHILDREN).ru_utime - cpu0
print(wall, cpu, load, float(rtp))
"""


def _row(path: Path) -> tuple[float, float, float, float]:
    env = dict(os.environ, SLOTMATH_CACHE="off",
               PYTHONPATH=str(ROOT / "src") + os.pathsep + os.environ.get("PYTHONPATH", ""))
    out = subprocess.run([sys.executable, "-c", RUN, str(path), str(TINY)], env=env,
                         capture_output=True, text=True, check=True)
    wall, cpu, load, rtp = map(float, out.stdout.split())
    return wall, cpu, load, rtp


def _as_final(text: str) -> str:
    return re.sub(r"(?m)^(scatters|scatter_multiplied) = .*\n", "", text)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", nargs="+", type=Path, default=list(GAMES))
    args = parser.parse_args(argv)
    print(f"{'game':<22} {'rule':<11} {'wall s':>8} {'cpu s':>8} {'load':>6} {'RTP':>20}")
    with tempfile.TemporaryDirectory() as tmp:
        for path in args.game:
            final = Path(tmp) / path.name
            final.write_text(_as_final(path.read_text()))
            rows = {}
            for rule, file in (("every_fall", path), ("final", final)):
                rows[rule] = _row(file)
                wall, cpu, load, rtp = rows[rule]
                print(f"{path.stem:<22} {rule:<11} {wall:8.2f} {cpu:8.2f} {load:6.2f} {rtp:20.15f}",
                      flush=True)
            ratio = rows["every_fall"][0] / rows["final"][0]
            print(f"{path.stem:<22} every_fall / final wall: {ratio:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
