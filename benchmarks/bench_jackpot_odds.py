"""Progressive pools at real odds, 1 in 1e3 to 1 in 1e9 rounds: this code against a baseline
commit's, side by side in one run (issue 23).

Pools: seed 1000 EUR, contribution 2 %, 10 % of it reserved for the next jackpot, bet 1 EUR,
a bonus wheel in about one round in fifty (up to two spins a round); a linear law
(``p = rate x pool``) and a constant law (``p`` fixed), each tuned to a hit once in about
1e3, 1e5, 1e6, 1e7, 1e8 and 1e9 rounds. For each, in each code:

* ``figures s``: ``analyze_pool`` with its error bounds (lattice, grid chain, GTH, the coarse
  solve), after a warm-up that loads numba's cache;
* ``laws s``: the three distributions added on demand (pool, value at a hit, cycle length);
* ``1 in N``, its stated error bound (relative) and that of the pool's RTP share (absolute);
* ``b``: rounds per lattice point (this code), and the lattice's points;
* the baseline's time to the same figures, or ``refused`` (with the time it took to refuse);
  and, where both give figures, their difference over this code's bound (``|diff| / bound``).

The baseline's ``slotmath`` is taken from git (``git archive COMMIT src/slotmath``) and run
in a subprocess; this code also runs in a subprocess, on the same script.

Run: ``python benchmarks/bench_jackpot_odds.py [--baseline b7a2cb2] [--only linear]``.
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

#: linear-law rates hitting once in about 10^decade rounds (with the pool and wheel above)
LINEAR_RATES = {3: 4.67e-05, 5: 1.88e-07, 6: 3.16e-09, 7: 3.4e-11, 8: 3.43e-13, 9: 3.43e-15}
DECADES = (3, 5, 6, 7, 8, 9)

#: what each process runs: every case, timed, one JSON line per case on stdout
RUN = r"""
import json, sys, time
from fractions import Fraction
import slotmath.markov.jackpot as jp
assert jp.__file__.startswith(sys.argv[1]), jp.__file__
WHEEL = {0: Fraction(49, 50), 1: Fraction(19, 1000), 2: Fraction(1, 1000)}
mean_k = sum(k * q for k, q in WHEEL.items())
jp.analyze_pool(jp.JackpotPool("w", 50, "0.024", "0.1", jp.LinearLaw(2e-3)), 1,
                {0: 0.5, 1: 0.5}).cycle_length_distribution  # warm-up: numba's cache
for kind, decade, rate in json.loads(sys.argv[2]):
    law = (jp.LinearLaw(rate) if kind == "linear"
           else jp.ConstantLaw(float(1 / (mean_k * Fraction(10) ** decade))))
    pool = jp.JackpotPool("P", 1000, "0.02", "0.1", law)
    row = {"kind": kind, "decade": decade}
    t0 = time.perf_counter()
    try:
        a = jp.analyze_pool(pool, 1, WHEEL)
        bounds = a.error_bounds
    except (ValueError, MemoryError) as err:
        row.update(refused=str(err), seconds=time.perf_counter() - t0)
        print(json.dumps(row), flush=True)
        continue
    row["seconds"] = time.perf_counter() - t0
    t0 = time.perf_counter()
    _ = a.stationary_pool, a.hit_value_distribution, a.cycle_length_distribution
    row["laws_seconds"] = time.perf_counter() - t0
    row.update(
        one_in=a.mean_rounds_between_hits,
        one_in_bound=bounds["mean_rounds_between_hits"],
        rtp=a.rtp_contribution,
        rtp_bound=bounds["rtp_contribution"],
        identity=abs(a.rtp_contribution - a.rtp_from_identity),
        step=getattr(a, "lattice_step", 1),
        points=len(a._lattice.H),
    )
    print(json.dumps(row), flush=True)
    del a
"""


def run(pythonpath: str, cases: list) -> dict:
    """Every case in a fresh process on ``pythonpath``'s slotmath: {(kind, decade): row}."""
    out = subprocess.run(
        [sys.executable, "-c", RUN, pythonpath, json.dumps(cases)], check=True,
        capture_output=True, text=True, cwd=tempfile.gettempdir(),
        env={**os.environ, "PYTHONPATH": pythonpath})
    rows = [json.loads(line) for line in out.stdout.splitlines() if line.startswith("{")]
    return {(r["kind"], r["decade"]): r for r in rows}


def baseline_tree(commit: str) -> str:
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", commit, "src/slotmath"],
                             check=True, capture_output=True).stdout
    folder = tempfile.mkdtemp(prefix="jackpot_odds_baseline_")
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(folder, filter="data")
    return str(Path(folder) / "src")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", default="b7a2cb2", help="commit to compare with, or 'none'")
    parser.add_argument("--only", choices=("linear", "constant"), default=None)
    args = parser.parse_args()
    kinds = [args.only] if args.only else ["linear", "constant"]
    cases = [(kind, d, LINEAR_RATES[d]) for kind in kinds for d in DECADES]
    load = os.getloadavg()
    print(f"{os.cpu_count()} cores, load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
    here = run(str(ROOT / "src"), cases)
    base = run(baseline_tree(args.baseline), cases) if args.baseline != "none" else {}
    head = (f"{'law':9}{'1 in N':>15}{'figures s':>10}{'laws s':>8}{'rel bound':>10}"
            f"{'rtp bound':>10}{'b':>9}{'points':>11}  | baseline {args.baseline}")
    print(head)
    print("-" * len(head) + "-" * 30)
    for kind, decade, _ in cases:
        r = here[(kind, decade)]
        if "refused" in r:
            mine = f"{kind:9}{'refused':>15}{r['seconds']:>10.2f}   {r['refused'][:60]}"
        else:
            mine = (f"{kind:9}{r['one_in']:>15,.0f}{r['seconds']:>10.2f}{r['laws_seconds']:>8.2f}"
                    f"{r['one_in_bound'] / r['one_in']:>10.1e}{r['rtp_bound']:>10.1e}"
                    f"{r['step']:>9,}{r['points']:>11,}")
        b = base.get((kind, decade))
        if b is None:
            theirs = "not run"
        elif "refused" in b:
            theirs = f"refused after {b['seconds']:.1f} s"
        else:
            theirs = (f"{b['seconds']:.2f} s + laws {b['laws_seconds']:.2f} s, rel bound "
                      f"{b['one_in_bound'] / b['one_in']:.1e}")
            if "refused" not in r:
                ratio = abs(b["one_in"] - r["one_in"]) / r["one_in_bound"]
                theirs += (f", |diff|/bound {ratio:.3f}, time ratio "
                           f"{b['seconds'] / r['seconds']:.1f}x")
        print(f"{mine}  | {theirs}")
    worst = max((r["identity"] / max(r["rtp"], 1e-300) for r in here.values()
                 if "identity" in r), default=0.0)
    print(f"\nrenewal identity c + seed / (bet x rounds between hits), largest relative gap: "
          f"{worst:.1e}")
    load = os.getloadavg()
    print(f"load average after: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")


if __name__ == "__main__":
    main()
