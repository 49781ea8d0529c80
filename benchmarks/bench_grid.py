"""Grid games: the worked examples' up-front estimates and simulated figures, the simulator's
speed on 1 and 2 threads, and the exact Megaways programme against the full enumeration.

Prints, for each bundled grid game of ``data/games/`` (Megaways Bonanza, Sugar Tumble, Cluster Crush):
the estimate of every exact engine (steps, states), the method ``auto`` chooses and why, the
seeded simulated RTP with its 95 % interval over ``--rounds`` rounds, and rounds per second
on 1 and on 2 threads (whole rounds, free spins included, after a warm-up), with the load
average beside them. Then the Megaways Bonanza base game without tumbles, free spins or cap
(6 reels of 100 stops, heights 2-7, the top reel): the exact ways programme's time, and the
full enumeration of the same paid spin on its first 3 reels (the baseline, whose cost is the
product of per-reel outcomes) against the programme on those 3 reels, side by side.

With ``--baseline REF`` (a git revision, e.g. ``main``) it also loads that revision's grid
kernels (``evaluate/grid.py`` and ``simulate/_grid_kernels.py``, from ``git show``) beside the
working tree's, and plays the same seeded rounds with both on one thread, alternately, in this
one process: rounds per second per core of each, their ratio, and whether every statistic
came out identical. ``--games`` limits the run to some games (e.g. ``sugar_tumble``) and
skips the exact-engine timings.

Run: ``python -u benchmarks/bench_grid.py [--rounds 500000]``, or
``python -u benchmarks/bench_grid.py --games sugar_tumble cluster_crush megaways_bonanza
--rounds 1000000 --baseline main``.
"""

from __future__ import annotations

import argparse
import importlib
import os
import subprocess
import sys
import tempfile
import time
from dataclasses import replace
from fractions import Fraction
from pathlib import Path

import slotmath
from slotmath.exact.grid_enumerate import enumerate_spin
from slotmath.exact.grid_ways import ways_law
from slotmath.features.grid import plan
from slotmath.simulate.grid import simulate_grid

EXAMPLES = Path(__file__).resolve().parents[1] / "data" / "games"
GAMES = ("megaways_bonanza", "sugar_tumble", "cluster_crush")


def load() -> str:
    one, five, fifteen = os.getloadavg()
    return f"load average {one:.2f} {five:.2f} {fifteen:.2f}"


def examples(rounds: int, games=GAMES) -> None:
    for name in games:
        game = slotmath.load_game(EXAMPLES / f"{name}.toml")
        p = plan(game)
        print(f"== {game.name} ({name}.toml)")
        for o in p.options:
            print(f"   exact engine {o.engine}: ~{o.steps:.3g} steps, {o.states:.3g} states, "
                  f"~{o.seconds:.3g} s estimated")
        if not p.options:
            print(f"   no exact engine applies: {p.blocked}")
        print(f"   method: {p.text()}")
        simulate_grid(game, rounds=1 << 16, seed=99)  # warm-up (compilation)
        speeds = {}
        for threads in (1, 2):
            t = time.perf_counter()
            sim = simulate_grid(game, rounds=rounds, seed=game.analysis.seed, threads=threads)
            speeds[threads] = rounds / (time.perf_counter() - t)
        lo, hi = sim.rtp.interval()
        print(f"   simulated RTP {float(sim.rtp):.4%} (95%: {lo:.4%} to {hi:.4%}), "
              f"{rounds:,} rounds, seed {game.analysis.seed}; SD {float(sim.std):.3f}")
        print(f"   rounds/s: 1 thread {speeds[1]:,.0f}, 2 threads {speeds[2]:,.0f} "
              f"(ratio {speeds[2] / speeds[1]:.2f}); {load()}")
        need = (1.96 * float(sim.std) / float(game.analysis.accuracy)) ** 2
        print(f"   rounds for its accuracy {float(game.analysis.accuracy)}: ~{need:,.0f} "
              f"(~{need / speeds[2]:,.0f} s on 2 threads)")


#: stops kept on each of the baseline's 3 reels (the enumeration costs (stops x 6)^3)
STOPS = 30


def _cut(reel, stops: int):
    return replace(reel, symbols=reel.symbols[:stops], weights=None)


def megaways_exact() -> None:
    game = slotmath.load_game(EXAMPLES / "megaways_bonanza.toml")
    base = replace(game, tumbles=None, free_spins=None, max_win=None, analysis=None)
    t = time.perf_counter()
    law = ways_law(base)
    full = time.perf_counter() - t
    print(f"== Megaways Bonanza paid spin, no tumbles (6 x 100 stops, heights 2-7, top reel):"
          f" ways programme {full:.3f} s; RTP {float(law.mean_bets):.6%}, "
          f"P(max {law.max_ways:,} ways) = {float(law.max_ways_probability):.3e}; {load()}")
    grid = base.grid
    three = replace(base, rows=base.rows[:3],
                    grid=replace(grid, heights=grid.heights[:3], top_reel=None),
                    reel_sets={k: replace(v, reels=tuple(_cut(r, STOPS) for r in v.reels[:3]))
                               for k, v in base.reel_sets.items()})
    t = time.perf_counter()
    prog = ways_law(three)
    t_prog = time.perf_counter() - t
    t = time.perf_counter()
    enum = enumerate_spin(three)
    t_enum = time.perf_counter() - t
    assert enum.mean_bets == prog.mean_bets, "the two exact engines disagree"
    print(f"   first 3 reels cut to {STOPS} stops, no top reel: programme {t_prog:.4f} s, full enumeration "
          f"{t_enum:.3f} s (baseline), ratio {t_enum / t_prog:.0f}x, equal RTP "
          f"{float(prog.mean_bets):.6%}; {load()}")


def tumble_exact(stops: int) -> None:
    """The whole-round enumeration of a 5x3 pay-anywhere tumble game (strip refill) with
    ``stops`` seeded stops per reel: its estimate and its measured time."""
    import numpy as np

    from slotmath.io.toml_loader import game_from_dict

    rng = np.random.default_rng(5)
    names = ["A", "B", "C", "D", "X"]
    game = game_from_dict({
        "name": f"tumble 5x3 {stops}", "pays": "anywhere", "rows": 3, "bet": 1,
        "symbols": {"A": {"pays": {"5": 2, "7": 10}}, "B": {"pays": {"5": 1, "7": 5}},
                    "C": {"pays": {"6": 1}}, "D": {"pays": {"6": 1}}, "X": {}},
        "tumbles": {"refill": "strip"},
        "reels": {"base": [[names[i] for i in rng.integers(0, 5, stops)] for _ in range(5)]}},
        "bench")
    p = plan(game)
    t = time.perf_counter()
    a = slotmath.analyze(game)
    rtp = a.rtp
    took = time.perf_counter() - t
    print(f"== 5x3 pay-anywhere tumble game, {stops} stops per reel ({stops ** 5:,} stop "
          f"combinations): {p.text()}; exact {a.exact}, RTP {float(rtp):.6f}, {took:.1f} s "
          f"wall; {load()}")


def _baseline_modules(ref: str):
    """The grid kernels of git revision ``ref``, imported from a temporary directory under
    their own module names (the table builder and the kernels that read its tables)."""
    root = Path(__file__).resolve().parents[1]
    where = Path(tempfile.mkdtemp(prefix="bench_grid_"))
    tag = "".join(c if c.isalnum() else "_" for c in ref)
    ev, kern = f"_base_{tag}_eval_grid", f"_base_{tag}_grid_kernels"

    def show(path: str) -> str:
        return subprocess.run(["git", "-C", str(root), "show", f"{ref}:{path}"], check=True,
                              capture_output=True, text=True).stdout

    (where / f"{ev}.py").write_text(show("src/slotmath/evaluate/grid.py"))
    (where / f"{kern}.py").write_text(show("src/slotmath/simulate/_grid_kernels.py").replace(
        "from slotmath.evaluate.grid import", f"from {ev} import"))
    sys.path.insert(0, str(where))
    return importlib.import_module(ev), importlib.import_module(kern)


def side_by_side(rounds: int, games, ref: str, repeats: int = 3) -> None:
    """Rounds per second per core (one thread) of revision ``ref``'s kernels and of this
    tree's on the same seeded rounds, alternately; the best of ``repeats`` runs each."""
    import numba
    import numpy as np

    from slotmath.evaluate import grid as ev
    from slotmath.simulate import _grid_kernels as kern
    from slotmath.simulate import grid as sg

    base_ev, base_kern = _baseline_modules(ref)
    old = numba.get_num_threads()
    numba.set_num_threads(1)
    try:
        for name in games:
            game = slotmath.load_game(EXAMPLES / f"{name}.toml")
            fs = game.free_spins
            sets = ("base", fs.reels if fs is not None else "base")
            runs = {}
            for label, e, k in ((ref, base_ev, base_kern), ("this tree", ev, kern)):
                model = e.GridModel(game)
                tab = e.tables(model, sets, [int(Fraction(x) * model.credits_per_bet)
                                             for x in sg.GRID_EDGES])
                runs[label] = (tab, k)

            def play(label, count, seed, runs=runs):
                tab, k = runs[label]
                sizes = [sg.BLOCK] * (count // sg.BLOCK) + ([count % sg.BLOCK]
                                                            if count % sg.BLOCK else [])
                sums = sg._Sums.zeros(tab, len(sizes))
                states = sg._states(np.random.SeedSequence(seed), len(sizes))
                t = time.perf_counter()
                k.play_blocks(tab, states, np.array(sizes, np.int64), *sums.arrays())
                return count / (time.perf_counter() - t), sums.total()

            speed = {label: 0.0 for label in runs}
            sums = {}
            for label in runs:
                play(label, 1 << 12, 99)  # warm-up (compilation)
            for _ in range(repeats):
                for label in runs:
                    s, sums[label] = play(label, rounds, 1)
                    speed[label] = max(speed[label], s)
            same = all(np.array_equal(a, b) for a, b in zip(sums[ref].arrays(),
                                                            sums["this tree"].arrays()))
            print(f"== {game.name}: rounds/s per core (1 thread, best of {repeats}, "
                  f"{rounds:,} rounds, seed 1): {ref} {speed[ref]:,.0f}, this tree "
                  f"{speed['this tree']:,.0f}, ratio {speed['this tree'] / speed[ref]:.2f}; "
                  f"identical statistics: {same}; {load()}")
    finally:
        numba.set_num_threads(old)


def main() -> None:
    a = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    a.add_argument("--rounds", type=int, default=500_000)
    a.add_argument("--tumble-stops", type=int, default=None, metavar="N",
                   help="also time the exact enumeration of a 5x3 tumble game of N stops "
                        "(31 took 57 s at load 4.5)")
    a.add_argument("--games", nargs="+", choices=GAMES, default=None,
                   help="only these games (and no exact-engine timings)")
    a.add_argument("--baseline", metavar="REF", default=None,
                   help="time git revision REF's grid kernels beside this tree's, one core")
    args = a.parse_args()
    games = tuple(args.games) if args.games else GAMES
    if args.baseline:
        side_by_side(args.rounds, games, args.baseline)
        return
    if args.tumble_stops:
        tumble_exact(args.tumble_stops)
    if not args.games:
        megaways_exact()
    examples(args.rounds, games)


if __name__ == "__main__":
    main()
