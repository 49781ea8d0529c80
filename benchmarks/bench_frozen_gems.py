"""Frozen Gems (data/games/frozen_gems.toml): the full exact analysis, timed, against the
figures recorded in the file's header.

Prints the wall and CPU time (this process and its workers) of ``slotmath.analyze`` (every base and free stop combination x every
bonus arrangement, each cascade chain to its end; free spins as the carried-multiplier chain),
the exact RTP as a fraction and a float, its components, P(8748 ways in play), and whether the
RTP equals the header's ``total RTP`` fraction. A tqdm bar shows the enumeration's progress.

With ``--simulate N`` it instead plays N seeded paid rounds through the cascade simulator (its own
kernel) and prints the estimate, its standard error and its z-score against the header's exact
total: the total has a heavy tail (rare chains that free two bonus wilds), so it needs tens of
millions of rounds, which is why the test suite checks only the light-tailed parts.

Run: ``python benchmarks/bench_frozen_gems.py [--simulate 20000000] [--seed 1]``.
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import sys
import time
from fractions import Fraction
from pathlib import Path

from tqdm import tqdm

import slotmath

PATH = Path(__file__).resolve().parents[1] / "data" / "games" / "frozen_gems.toml"


def _cpu() -> float:
    """CPU seconds of this process plus its finished children (the enumeration's workers):
    on a shared machine the wall time also counts other people's work."""
    me, kids = (resource.getrusage(w) for w in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN))
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def recorded_rtp() -> Fraction | None:
    m = re.search(r"^#\s+total RTP\s+(\d+)/(\d+)", PATH.read_text(), re.MULTILINE)
    return Fraction(int(m.group(1)), int(m.group(2))) if m else None


def simulate(spins: int, seed: int) -> int:
    import tomllib

    sys.path.insert(0, str(PATH.parents[2] / "tests"))
    from test_simulate_cascades import game_with_rules  # rules read from the TOML dict

    from slotmath.simulate.cascades import simulate_cascades

    sim_game = game_with_rules(tomllib.loads(PATH.read_text()))
    r = simulate_cascades(sim_game, spins, seed)
    exact = float(recorded_rtp())
    print(f"{spins:,} rounds, seed {seed}: rtp {r.rtp:.5f} +- {r.std_error:.5f}"
          f" (exact {exact:.5f}, z = {r.z_score(exact):+.2f}); {r.spins_per_second:,.0f} spins/s")
    print(f"  first drop {r.first_drop:.5f}, later drops {r.later_drops:.5f}, scatter"
          f" {r.scatter:.5f}, free spins {r.free_spins:.5f}")
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--simulate", type=int, default=0, metavar="N")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    if args.simulate:
        return simulate(args.simulate, args.seed)
    game = slotmath.load_game(PATH)
    bar = tqdm(total=0, unit="chunk", desc="enumerating", file=sys.stderr)
    shown = [None]

    marks: dict = {}  # stage -> (first report, last report): the timeline printed below

    def progress(stage: str, done: int, total: int) -> None:
        now = time.perf_counter()
        marks[stage] = (marks.get(stage, (now,))[0], now)
        if shown[0] != (stage, total):  # a new stage: a new bar
            shown[0] = (stage, total)
            bar.reset(total=total)
            bar.set_description(f"enumerating {stage}")
        bar.n = done
        bar.refresh()

    load = os.getloadavg()[0]
    began, cpu = time.perf_counter(), _cpu()
    analysis = slotmath.analyze(game, progress=progress)
    rtp = analysis.rtp
    end = time.perf_counter()
    elapsed, cpu = end - began, _cpu() - cpu
    bar.close()
    last = began
    for stage, (first, done) in marks.items():
        print(f"  {first - last:5.1f} s before {stage}, whose chunks took {done - first:5.1f} s")
        last = done
    print(f"  {end - last:5.1f} s after the last enumeration (tables, free-spin chain, RTP)")
    base = analysis.context.cascade_laws["base"]
    recorded = recorded_rtp()
    print(f"exact analysis (rtp): {elapsed:.1f} s wall, {cpu:.1f} s CPU (this process and its"
          f" workers), {os.cpu_count()} cores, load average {load:.2f} before /"
          f" {os.getloadavg()[0]:.2f} after")
    print(f"rtp = {float(rtp):.12f} (an exact fraction of {len(str(rtp))} characters)")
    began = time.perf_counter()
    components = analysis.components
    print(f"components: {time.perf_counter() - began:.1f} s more")
    for name, value in components.items():
        print(f"  {name:10s} {value} = {float(value):.6f}" if len(str(value)) < 60
              else f"  {name:10s} {float(value):.6f}")
    print(f"P(8748 ways in play) = {float(base.ways_in_play.get(8748, 0)):.3e}")
    print(f"header figure {'matches' if recorded == rtp else 'DIFFERS: ' + str(recorded)}")
    return 0 if recorded == rtp else 1


if __name__ == "__main__":
    raise SystemExit(main())
