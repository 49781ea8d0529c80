"""Conveyor simulator speed (slotmath.simulate.conveyor): paid spins per second on Jingle Spin,
this code next to a baseline commit's, side by side in one run.

Each side runs in its own subprocess with its own ``PYTHONPATH`` (the baseline: ``git archive
COMMIT src/slotmath`` into a temporary folder, or ``--baseline-src`` a checkout's ``src``, e.g.
``git worktree add /tmp/conv-base 6731a74``) and times ``simulate_conveyor(game, N, seed=1)``
after a warm-up run (numba compilation excluded; its time is printed apart). Both play one
core (the kernels are serial). A paid spin includes the free spins it awards.

Then both sides play the same ``--check`` paid spins from seed 2 and the script prints
whether every figure is the same bit for bit (the kernels draw what the Python player drew).

Run: ``python benchmarks/bench_conveyor_simulate.py [--spins 20000000]
[--baseline-spins 100000] [--baseline 6731a74 | --baseline-src /tmp/conv-base/src]``.
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
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
JINGLE = ROOT / "data" / "games" / "jingle_spin.toml"

#: one timed simulation in a subprocess: argv = game, paid spins, check spins, output file
RUN = r"""
import json, os, sys, time
began = time.perf_counter()
import slotmath
assert slotmath.__file__.startswith(os.environ["PYTHONPATH"]), slotmath.__file__
from slotmath.simulate.conveyor import simulate_conveyor
game = slotmath.load_game(sys.argv[1])
spins, check = int(sys.argv[2]), int(sys.argv[3])
simulate_conveyor(game, 1000, seed=0)  # warm-up / compile
warm = time.perf_counter() - began
load = os.getloadavg()[0]
began = time.perf_counter()
r = simulate_conveyor(game, spins, seed=1)
wall = time.perf_counter() - began
c = simulate_conveyor(game, check, seed=2)
with open(sys.argv[4], "w") as f:
    json.dump(dict(rate=spins / wall, wall=wall, warm=warm, rtp=r.rtp, se=r.std_error,
                   load=load, after=os.getloadavg()[0],
                   check=[c.rtp.hex(), c.std_error.hex(),
                          [v.hex() for v in c.components.values()],
                          [float(x).hex() for x in c.wins[:: max(1, check // 1000)]]]), f)
"""


def _uptime() -> str:
    return subprocess.run(["uptime"], check=False, capture_output=True, text=True).stdout.strip()


def _baseline_src(commit: str, folder: Path) -> Path:
    data = subprocess.run(["git", "archive", commit, "src/slotmath"], cwd=ROOT, check=True,
                          capture_output=True).stdout
    with tarfile.open(fileobj=io.BytesIO(data)) as tar:
        tar.extractall(folder, filter="data")
    return folder / "src"


def _run(src: Path, spins: int, check: int) -> dict:
    with tempfile.NamedTemporaryFile(suffix=".json") as out:
        env = dict(os.environ, PYTHONPATH=str(src))
        subprocess.run([sys.executable, "-c", RUN, str(JINGLE), str(spins), str(check),
                        out.name], env=env, check=True, cwd=ROOT)
        return json.loads(Path(out.name).read_text())


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--spins", type=int, default=20_000_000, help="this code's paid spins")
    p.add_argument("--baseline-spins", type=int, default=100_000,
                   help="the baseline's paid spins (about 3,000 a second)")
    p.add_argument("--check", type=int, default=20_000,
                   help="paid spins both sides play from seed 2 for the bit-for-bit check")
    p.add_argument("--baseline", default="6731a74", help="baseline commit (git archive)")
    p.add_argument("--baseline-src", type=Path, default=None,
                   help="a baseline checkout's src folder instead of --baseline")
    args = p.parse_args()
    print(f"uptime: {_uptime()}")
    with tempfile.TemporaryDirectory() as tmp:
        if args.baseline_src is not None:
            base_src, label = args.baseline_src.resolve(), str(args.baseline_src)
        else:
            base_src, label = _baseline_src(args.baseline, Path(tmp)), args.baseline
        base = _run(base_src, args.baseline_spins, args.check)
        new = _run(ROOT / "src", args.spins, args.check)
    print("Jingle Spin, simulate_conveyor, one core, paid spins per second (wall, after a "
          f"warm-up); baseline: {label}")
    print(f"{'':12}{'paid spins':>12}{'wall s':>9}{'spins/s':>14}{'RTP':>10}{'SE':>9}"
          f"{'start s':>9}{'load':>12}")
    for name, r, n in (("baseline", base, args.baseline_spins),
                       ("this code", new, args.spins)):
        print(f"{name:12}{n:>12,}{r['wall']:>9.2f}{r['rate']:>14,.0f}{r['rtp']:>10.5f}"
              f"{r['se']:>9.5f}{r['warm']:>9.1f}{r['load']:>6.2f}-{r['after']:.2f}")
    print(f"ratio (this code / baseline): {new['rate'] / base['rate']:,.0f}x")
    print(f"the same {args.check:,} paid spins from seed 2 bit for bit (RTP, SE, components, "
          f"every {max(1, args.check // 1000)}th round): {base['check'] == new['check']}")
    print(f"uptime: {_uptime()}")


if __name__ == "__main__":
    main()
