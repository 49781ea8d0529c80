"""The first run after install against the second: ``slotmath analyze GAME``, cold and warm.

Cold: a fresh, empty ``NUMBA_CACHE_DIR``, so every kernel the game needs is compiled (what a
user's first run pays). Warm: the same command again with that folder, every kernel loaded from
the cache. Each is a fresh process; the wall time, the kernels the CLI says it compiled and the
time it says compiling took are printed, with the load average at the start::

    python benchmarks/bench_cold_start.py                       # tiny_lines
    python benchmarks/bench_cold_start.py data/games/classic_fruits.toml --warm-repeat 3
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PROBE = "import sys; from slotmath.cli import main; sys.exit(main(sys.argv[1:]))"


def run(game: Path, cache: str) -> dict:
    env = dict(os.environ, NUMBA_CACHE_DIR=cache, SLOTMATH_COMPILE_NOTICE="1")
    env.pop("SLOTMATH_CACHE_DIR", None)
    load = os.getloadavg()[0]
    start = time.perf_counter()
    proc = subprocess.run([sys.executable, "-c", PROBE, "analyze", str(game)],
                          check=False, env=env,
                          capture_output=True, text=True, cwd=ROOT)
    wall = time.perf_counter() - start
    if proc.returncode:
        raise SystemExit(f"analyze failed: {proc.stderr}")
    said = re.search(r"compiled (\d+) functions \((\d+) kernels.*?\) in ([\d.]+) s", proc.stderr)
    return {"wall": wall, "load": load, "functions": int(said[1]) if said else 0,
            "compiling": float(said[3]) if said else 0.0,
            "rtp": next(line for line in proc.stdout.splitlines() if "RTP" in line).strip()}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", nargs="?", type=Path, default=ROOT / "data/games/tiny_lines.toml")
    parser.add_argument("--warm-repeat", type=int, default=2)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="slotmath-numba-") as cache:
        rows = [("cold (empty numba cache)", run(args.game, cache))]
        rows += [(f"warm #{i + 1}", run(args.game, cache)) for i in range(args.warm_repeat)]
    print(f"slotmath analyze {args.game.name}: {os.cpu_count()} cores")
    print(f"{'run':<26}{'wall s':>9}{'load':>7}{'functions':>11}{'compiling s':>13}")
    for name, r in rows:
        print(f"{name:<26}{r['wall']:>9.2f}{r['load']:>7.1f}{r['functions']:>11}"
              f"{r['compiling']:>13.1f}")
    warm = min(r["wall"] for _, r in rows[1:])
    print(f"cold / warm: {rows[0][1]['wall'] / warm:.1f}x")
    if len({r["rtp"] for _, r in rows}) != 1:
        raise SystemExit("the runs printed different RTP lines")
    print(rows[0][1]["rtp"])
    return 0


if __name__ == "__main__":
    sys.exit(main())
