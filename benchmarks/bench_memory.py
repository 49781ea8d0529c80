"""Peak resident memory of ``slotmath analyze GAME --json`` for each bundled game, baseline and
now, side by side (issue 24 item 2: every bundled game's peak in a table).

Each run is a fresh process; its peak resident set is the kernel's ``ru_maxrss`` of that one
child (``os.wait4``: the process itself, its forked workers are counted apart), with its wall
time and the load average when it started. The baseline is a commit exported with ``git
archive`` into a temporary folder. Both sides' numba kernels are compiled by one unmeasured
run first, so both load theirs from a cache: of the game itself, or, for the heavy games, of a
tiny game that needs the same kernels (:data:`WARM`). ``--baseline none`` measures this
checkout only; the last columns are the baseline's peak and wall time over this checkout's.
``--repeat N`` measures each side N times, the sides taking turns (a shared machine's load
moves between runs): each side's highest peak and least wall time, with the load when that
run started::

    python benchmarks/bench_memory.py                           # every bundled game but Frozen Gems
    python benchmarks/bench_memory.py --baseline 6731a74        # beside a commit
    python benchmarks/bench_memory.py --games frozen_gems --baseline 6731a74   # minutes, GBs
    python benchmarks/bench_memory.py --games frozen_gems --baseline f95f50a --repeat 3
"""

from __future__ import annotations

import argparse
import io
import os
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
GAMES = ROOT / "data" / "games"
PROBE = ("import sys, slotmath; assert slotmath.__file__.startswith(sys.argv[1]), "
         "slotmath.__file__; from slotmath.cli import main; sys.exit(main(sys.argv[2:]))")
#: minutes and several GB each: measured only when named
HEAVY = {"frozen_gems"}
#: a game whose analysis compiles the kernels a heavy game needs, in seconds
WARM = {"frozen_gems": ROOT / "tests" / "data" / "cascades" / "tiny_free_spins.toml"}


def export(commit: str, into: Path) -> Path:
    data = subprocess.run(["git", "-C", str(ROOT), "archive", commit, "src/slotmath"],
                          capture_output=True, check=True).stdout
    with tarfile.open(fileobj=io.BytesIO(data)) as tar:
        tar.extractall(into, filter="data")
    return into / "src"


def measure(tree: Path, game: Path) -> tuple[float, float, float, float]:
    """(peak resident MB, wall s, load average at the start, CPU s) of one fresh analysis; the
    CPU time (user + system) is the process's and its waited-for workers' (``os.wait4``), which
    a loaded machine stretches far less than the wall time."""
    env = {**os.environ, "PYTHONPATH": str(tree), "SLOTMATH_COMPILE_NOTICE": "0"}
    load = os.getloadavg()[0]
    start = time.perf_counter()
    with tempfile.TemporaryFile() as err:
        proc = subprocess.Popen([sys.executable, "-c", PROBE, str(tree), "analyze", str(game),
                                 "--json"], cwd=tree, env=env, stdout=subprocess.DEVNULL,
                                stderr=err)
        _, status, usage = os.wait4(proc.pid, 0)
        proc.returncode = os.waitstatus_to_exitcode(status)
        if proc.returncode:
            err.seek(0)
            raise SystemExit(f"{game.name} failed in {tree}:\n{err.read().decode()[-2000:]}")
    return (usage.ru_maxrss / 1024, time.perf_counter() - start, load,
            usage.ru_utime + usage.ru_stime)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", nargs="*", help="game names (default: every bundled game "
                        f"but {', '.join(sorted(HEAVY))})")
    parser.add_argument("--baseline", default="none", help="a commit to measure beside this checkout")
    parser.add_argument("--repeat", type=int, default=1,
                        help="runs of each side, taking turns (its highest peak, least wall)")
    args = parser.parse_args(argv)
    names = args.games or sorted(p.stem for p in GAMES.glob("*.toml") if p.stem not in HEAVY)
    with tempfile.TemporaryDirectory(prefix="slotmath-memory-") as tmp:
        trees = {"now": ROOT / "src"}
        if args.baseline != "none":
            trees = {"base": export(args.baseline, Path(tmp)), **trees}
        print(f"peak resident memory of 'slotmath analyze GAME --json', {os.cpu_count()} cores;"
              f" baseline {args.baseline}")
        head = "".join(f"{side + ' MB':>10}{side + ' s':>9}{'load':>6}{'cpu s':>7}"
                       for side in trees)
        ratio = f"{'peak b/n':>9}{'wall b/n':>9}" if len(trees) > 1 else ""
        print(f"{'game':<22}{head}{ratio}")
        for name in names:
            game = GAMES / f"{name}.toml"
            if not game.exists():
                raise SystemExit(f"no bundled game {name!r} (data/games/{name}.toml)")
            for tree in trees.values():
                measure(tree, WARM.get(name, game))  # compile (or load) its kernels, unmeasured
            runs: dict[str, list] = {side: [] for side in trees}
            for _ in range(max(1, args.repeat)):
                for side, tree in trees.items():
                    runs[side].append(measure(tree, game))
            row, peaks, walls = "", [], []
            for side in trees:
                mb = max(r[0] for r in runs[side])
                wall, load, cpu = min((r[1], r[2], r[3]) for r in runs[side])
                peaks.append(mb)
                walls.append(wall)
                row += f"{mb:>10,.0f}{wall:>9.1f}{load:>6.1f}{cpu:>7.1f}"
            if len(peaks) > 1:
                row += f"{peaks[0] / peaks[-1]:>8.1f}x{walls[0] / walls[-1]:>8.2f}x"
            print(f"{name:<22}{row}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
