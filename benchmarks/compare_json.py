"""``slotmath analyze GAME --json`` of this checkout against another checkout's, for
every bundled game: byte for byte, and the count of differing fields (leaves of the
document; the simulation's wall-clock fields, ``seconds`` and ``rounds_per_second``, are
listed apart: they differ between any two runs of the same code). One game at a time, each
side in a fresh process::

    python benchmarks/compare_json.py --other ../main                 # every bundled game
    python benchmarks/compare_json.py --other ../main frozen_gems tiny_lines
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))
from bench_gus_gold_christmas import _flat as leaves  # (the documents' leaves)

TIMING = (".seconds", ".rounds_per_second")


def run(tree: Path, game: Path) -> tuple[int, str, str, float]:
    env = {**os.environ, "PYTHONPATH": str(tree / "src"), "SLOTMATH_COMPILE_NOTICE": "0"}
    start = time.perf_counter()
    proc = subprocess.run([sys.executable, "-m", "slotmath", "analyze", str(game), "--json"],
                          check=False, cwd=tree, env=env, capture_output=True, text=True)
    return proc.returncode, proc.stdout, proc.stderr, time.perf_counter() - start


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", help="game names (default: every bundled game)")
    parser.add_argument("--other", required=True, help="the checkout to compare with")
    args = parser.parse_args(argv)
    other = Path(args.other).resolve()
    games = sorted((ROOT / "data" / "games").glob("*.toml"))
    if args.games:
        games = [g for g in games if g.stem in args.games]
    total = 0
    for game in games:
        rc1, out1, err1, t1 = run(other, game)
        rc2, out2, err2, t2 = run(ROOT, game)
        if rc1 or rc2:
            print(f"{game.stem:22s} failed ({rc1}/{rc2}):\n{err1[-300:]}\n{err2[-300:]}")
            total += 1
            continue
        a, b = dict(leaves(json.loads(out1))), dict(leaves(json.loads(out2)))
        differ = sorted(k for k in a.keys() | b.keys() if a.get(k, a) != b.get(k, b))
        timing = [k for k in differ if k.endswith(TIMING)]
        differ = [k for k in differ if k not in timing] + (["(key order)"] if list(a) != list(b)
                                                            else [])
        total += len(differ)
        print(f"{game.stem:22s} bytes {'same' if out1 == out2 else 'differ'}, differing "
              f"fields {len(differ)}" + (f", wall-clock fields {timing}" if timing else "")
              + f"  ({len(out1):,} bytes; {t1:.1f} s / {t2:.1f} s)", flush=True)
        for k in differ[:10]:
            print(f"    {k}: {a.get(k)!r} / {b.get(k)!r}")
    print(f"differing fields in all: {total}")
    return 1 if total else 0


if __name__ == "__main__":
    raise SystemExit(main())
