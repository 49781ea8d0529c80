"""The books' cascade player (``slotmath.publish.cascades``): how fast it plays a cascading
spin in plain Python, beside the compiled simulator playing the same game's spins in the same
run (``slotmath.simulate.cascades``), and what a visit of the full cycle would take.

For each game: the plain player's spins per second (over the full cycle of a tiny game, over
seeded random stop combinations and bonus orderings of a large one), the simulator's spins per
second (a spin each, the game without free spins so that both play paid spins only), their
ratio, the cycle (stop combinations x bonus orderings) and the projected time of one visit.
The export visits the full cycle up to ``CYCLE_MAX`` combinations (Frozen Gems: far above).

Run: ``python benchmarks/bench_stake_cascades.py [--spins 20000]``.
"""

from __future__ import annotations

import argparse
import dataclasses
import itertools
import os
import time
from pathlib import Path

import numpy as np

import slotmath
from slotmath.publish.cascades import CYCLE_MAX, CascadePlayer, _cycle
from slotmath.simulate.cascades import simulate_cascades

ROOT = Path(__file__).resolve().parents[1]
GAMES = [ROOT / "tests/data/cascades/tiny_bonus.toml", ROOT / "tests/data/cascades/tiny_lines.toml",
         ROOT / "data/games/frozen_gems.toml"]


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--spins", type=int, default=20_000)
    args = p.parse_args()
    print(f"load average {os.getloadavg()}")
    for path in GAMES:
        game = slotmath.load_game(path)
        # paid spins only, in both: no free spins, so no multiplier carried into them
        paid = dataclasses.replace(game, free_spins=None, cascades=dataclasses.replace(
            game.cascades, carry_multiplier=False))
        player = CascadePlayer(paid)
        live = [[s for s, w in enumerate(r.stop_weights) if w > 0] for r in player.reels]
        cycle = _cycle(paid, "base")
        if cycle <= args.spins:
            combos = [(s, a) for s in itertools.product(*live) for a in player.orderings]
        else:
            rng = np.random.default_rng(1)
            combos = [(tuple(int(rng.choice(x)) for x in live),
                       player.orderings[int(rng.integers(len(player.orderings)))])
                      for _ in range(args.spins)]
        t = time.perf_counter()
        for stops, arrangement in combos:
            player.spin(stops, arrangement)
        plain = (time.perf_counter() - t) / len(combos)
        simulate_cascades(paid, 1000, seed=1)  # compiled before it is timed
        t = time.perf_counter()
        simulate_cascades(paid, len(combos), seed=2)
        compiled = (time.perf_counter() - t) / len(combos)
        print(f"{game.name}: plain player {1 / plain:,.0f} spins/s ({len(combos):,} spins), "
              f"compiled simulator {1 / compiled:,.0f} spins/s; plain / compiled time "
              f"{plain / compiled:.0f}x; cycle {cycle:,} (limit {CYCLE_MAX:,}): one visit "
              f"{cycle * plain:,.1f} s plain ({cycle * plain / 86400:,.2f} days)")
    print(f"load average {os.getloadavg()}")


if __name__ == "__main__":
    main()
