"""Tuning (issue 25): the sensitivity table by window tables against one re-analysis per entry,
side by side in one run, and the inverse solver on every tunable bundled game.

For each game: the exact sensitivity table (``slotmath.tune.sensitivities``) and the same
entries' figures by a plain ``slotmath.analyze`` of each edited game (warm: the engine's
kernels are compiled first), their times and ratio, and that both agree exactly; then the
solver's time to a target, the size of each step's program and how close the RTP came.
Then the solver with the targets added later (a max-win "1 in N" range, GLI-11's rule, which
is on in both runs, and layout rules on the multi-row games): per game its time, each step's
program size, and every target's start, end and miss, and the rarest award::

    python benchmarks/bench_tune.py
    python benchmarks/bench_tune.py --games tiny_lines classic_3reel
    python benchmarks/bench_tune.py --targets-only
    python benchmarks/bench_tune.py --coverage
    python benchmarks/bench_tune.py --gli11 [GAME ...] [--time-limit 200]
    python benchmarks/bench_tune.py --search [GAME ...] [--time-limit 600]

``--coverage``: the games the window tables cover since the fourth session (free spins with a
state, hold & win counted with the trigger, progressive jackpots with a cap), each tuned to a
new RTP target without GLI-11's rule (its per-edit compliance check is a full analysis of
each edited game: minutes per step on these games): time, steps, each step's program size,
the RTP start -> tuned, how it is known (exact, or the analysis' figure and its stated
error) and that a fresh ``analyze`` of the tuned game agrees.

``--gli11``: the same games tuned WITH GLI-11's rule held: time, steps, the number of full
compliance checks, whether the targets and GLI-11 were met, the rarest award, the load.

``--values``: the bundled games with a bonus wheel or hold & win values the solver moves
(``moves="wheel"`` / ``"values"``, GLI-11 held): time, steps, each step's program size
(variables x rows), the RTP start -> tuned, whether the target and GLI-11 were met, that a
fresh ``analyze`` agrees, the load::

    python benchmarks/bench_tune.py --values [GAME ...] [--time-limit 200]

``--search``: the six games the window tables do not cover (cascades, grid games, the
conveyor, paid-spin modifiers), tuned by the path ``tune`` picks for each
(``slotmath.tune.solver.default_method``: ``proxy`` for Frozen Gems, Jingle Spin and Gus's
Gold Christmas, ``crn`` for the grid games) to their RTP minus about one point, the time
limit given: time, the path, rounds tried and kept, analyses, estimates and GLI-11 checks
run, each step's size (the proxy's programs as variables x rows, or the swaps it ranked; the
swaps scored by common random numbers), the RTP start -> tuned and how it is known (exact,
or the analysis' figure and its stated error: the grid games' analyses are seeded
simulations), why it stopped, and the load after each game::

    python benchmarks/bench_tune.py --search frozen_gems --time-limit 600 [--no-gli11] [--verify]
"""

from __future__ import annotations

import argparse
import os
import time
from fractions import Fraction
from pathlib import Path

import slotmath
from slotmath.tune import sensitivities, tune

ROOT = Path(__file__).resolve().parents[1]
TARGETS = {"tiny_lines": "0.95", "classic_3reel": "0.96", "classic_fruits": "0.97",
           "ways_243": "0.94"}
#: the later targets per game: the RTP, a max-win "1 in N" range, layout rules
MORE = {"tiny_lines": ("0.95", (600, 800), None),
        "classic_3reel": ("0.96", (700_000, 800_000), None),
        "classic_fruits": ("0.965", (10_000_000, 20_000_000), None),
        "ways_243": ("0.95", (10_000_000, 50_000_000),
                     {"stack": {"W": 2}, "spacing": {"LION": 4}})}
#: games also tuned by their stop weights (moves="weights"; weighted reels)
WEIGHTED = ("classic_3reel",)


def targets_table(names) -> None:
    print("\nthe later targets (GLI-11 held; 'program' lists each step's variables x rows)")
    runs = [(n, "counts") for n in names if n in MORE]
    runs += [(n, "weights") for n in names if n in MORE and n in WEIGHTED]
    for name, moves in runs:
        game = slotmath.load_game(ROOT / "data" / "games" / f"{name}.toml")
        rtp, max_win, layout = MORE[name]
        r = tune(game, rtp, max_win_one_in=max_win, layout=layout, moves=moves,
                 tolerance=Fraction(1, 10_000), time_limit=120)
        shown = ", ".join(f"{st.variables}x{st.constraints}" for st in r.steps)
        label = name if moves == "counts" else f"{name} (moves=weights)"
        print(f"{label}: {r.seconds:.2f} s, {len(r.steps)} steps "
              f"({sum(st.kept for st in r.steps)} kept), program {shown}"
              f"{', layout ' + str(layout) if layout else ''}")
        one_in = r.start.top_probability, r.figures.top_probability
        print(f"  rtp          {float(r.start.rtp):.6f} -> {float(r.figures.rtp):.6f} "
              f"(target {float(Fraction(rtp))}, miss {float(r.misses['rtp']):.3g})")
        print(f"  max win      {float(r.start.top_award):g} x bet 1 in "
              f"{float(1 / one_in[0]):,.0f} -> {float(r.figures.top_award):g} x bet 1 in "
              f"{float(1 / one_in[1]):,.0f} (target {max_win[0]:,}..{max_win[1]:,}, miss "
              f"{float(r.misses['max_win_one_in']):.3g})")
        first, last = r.start_awards.rarest, r.awards.rarest
        print(f"  rarest award {first[0]} 1 in {float(1 / first[1]):,.0f} -> {last[0]} 1 in "
              f"{float(1 / last[1]):,.0f} (GLI-11 miss {float(r.misses['gli11']):.3g})")
        assert r.figures.rtp == slotmath.analyze(r.game).rtp


#: the games covered since the fourth session and a new RTP target each
COVERAGE = {"big_catch": "0.955", "book_of_gold": "0.955", "sticky_paws": "0.955",
            "golden_link": "0.955", "gold_money_frog": "0.93"}


def coverage_table(names, time_limit: float = 120) -> None:
    print(f"\nnewly covered games (GLI-11 not held; time limit {time_limit:g} s; tolerance "
          f"0.01 points)")
    for name in names:
        game = slotmath.load_game(ROOT / "data" / "games" / f"{name}.toml")
        target = Fraction(COVERAGE[name])
        t0 = time.perf_counter()
        r = tune(game, target, tolerance=Fraction(1, 10_000), time_limit=time_limit, gli11=None)
        wall = time.perf_counter() - t0
        shown = ", ".join(f"{st.variables}x{st.constraints}" for st in r.steps)
        f = r.figures
        how = "exact" if f.rtp_kind == "exact" else f"analysis +-{f.rtp_error:.2g}"
        t0 = time.perf_counter()
        a = slotmath.analyze(r.game)
        agrees = f.rtp == (a.rtp if f.rtp_kind == "exact" else Fraction(float(a.rtp)))
        print(f"{name}: {wall:.1f} s, {len(r.steps)} steps ({sum(st.kept for st in r.steps)} "
              f"kept), program {shown}")
        print(f"  rtp {float(r.start.rtp):.6f} -> {float(f.rtp):.6f} (target {float(target)}, "
              f"{how}; miss {float(r.misses['rtp']):.3g} bets; "
              f"{'met' if r.met else 'NOT met'}); analyze agrees: {agrees} "
              f"({time.perf_counter() - t0:.1f} s)")


def gli11_table(names, time_limit: float = 200) -> None:
    """The newly covered games tuned WITH GLI-11's rule held (the default): each candidate
    edit's awards from the window tables where they cover them (slotmath.tune.fast_awards),
    the full compliance check for the rest and for the final game."""
    from slotmath.tune import solver

    print(f"\nnewly covered games, GLI-11 held (time limit {time_limit:g} s; tolerance 0.01 "
          f"points)")
    real = solver.awards
    for name in names:
        game = slotmath.load_game(ROOT / "data" / "games" / f"{name}.toml")
        target = Fraction(COVERAGE[name])
        calls = []

        def counted(g, *args, calls=calls, **kwargs):
            calls.append(1)
            return real(g, *args, **kwargs)

        solver.awards = counted
        try:
            t0 = time.perf_counter()
            r = tune(game, target, tolerance=Fraction(1, 10_000), time_limit=time_limit)
            wall = time.perf_counter() - t0
        finally:
            solver.awards = real
        load = os.getloadavg()
        rarest = r.awards.rarest
        others = {k: v for k, v in r.misses.items() if k != "gli11"}
        print(f"{name}: {wall:.1f} s, {len(r.steps)} steps ({sum(st.kept for st in r.steps)} "
              f"kept), {len(calls)} full compliance checks; rtp {float(r.start.rtp):.6f} -> "
              f"{float(r.figures.rtp):.6f} (target {float(target)}); targets "
              f"{'met' if all(m == 0 for m in others.values()) else 'NOT met'}; GLI-11 "
              f"{'met' if r.misses.get('gli11') == 0 else 'NOT met'} (rarest "
              f"{rarest[0]} 1 in {float(1 / rarest[1]) if rarest[1] else float('inf'):,.0f}); "
              f"load {load[0]:.2f}")


#: the bundled games whose wheel or values the solver moves: (moves, target, weight scale)
VALUES = {"golden_link": ("values", "0.955", 10), "gold_money_frog": ("wheel", "0.93", 1)}


def values_table(names, time_limit: float = 200) -> None:
    """Each game's wheel or value weights tuned to a new RTP (GLI-11 held)."""
    print(f"\nwheel and value weights (GLI-11 held; time limit {time_limit:g} s; tolerance "
          f"0.001 points)")
    for name in names:
        moves, target, scale = VALUES[name]
        game = slotmath.load_game(ROOT / "data" / "games" / f"{name}.toml")
        t0 = time.perf_counter()
        r = tune(game, target, moves=moves, weight_scale=scale, time_limit=time_limit)
        wall = time.perf_counter() - t0
        shown = ", ".join(f"{st.variables}x{st.constraints}" for st in r.steps) or "none"
        f = r.figures
        how = "exact" if f.rtp_kind == "exact" else f"analysis +-{f.rtp_error:.2g}"
        t0 = time.perf_counter()
        a = slotmath.analyze(r.game)
        agrees = f.rtp == (a.rtp if f.rtp_kind == "exact" else Fraction(float(a.rtp)))
        weights = (r.game.bonus_wheel.weights if moves == "wheel"
                   else r.game.hold_and_win.value_weights)
        print(f"{name} (moves={moves}, weight scale {scale}): {wall:.1f} s, {len(r.steps)} "
              f"steps ({sum(st.kept for st in r.steps)} kept), program {shown}")
        print(f"  rtp {float(r.start.rtp):.6f} -> {float(f.rtp):.6f} (target "
              f"{float(Fraction(target))}, {how}; miss {float(r.misses['rtp']):.3g} bets; "
              f"{'met' if r.misses['rtp'] == 0 else 'NOT met'}); GLI-11 "
              f"{'met' if r.misses.get('gli11') == 0 else 'NOT met'}; analyze agrees: "
              f"{agrees} ({time.perf_counter() - t0:.1f} s); weights {list(weights)}; "
              f"load {os.getloadavg()[0]:.2f}")


GLI11 = 100_000_000
#: the games tuned by search, each to a new RTP target and a tolerance (in total bets; the
#: grid games' analyses are simulations whose stated error counts against it)
SEARCH = {"frozen_gems": ("0.9536", "0.0005"), "jingle_spin": ("0.95", "0.0005"),
          "gus_gold_christmas": ("0.93", "0.0005"), "cluster_crush": ("0.95", "0.002"),
          "sugar_tumble": ("0.95", "0.002"), "megaways_bonanza": ("0.95", "0.005")}


def _sizes(r) -> str:
    """Each step's size: the proxy's programs (variables x rows) or the swaps ranked, the
    search's moves ranked, the common-random-number swaps scored."""
    out = []
    for st in r.steps:
        if getattr(st, "swaps", False):
            out.append(f"{st.variables} swaps")
        elif getattr(st, "programs", None):
            out.append("+".join(f"{v}x{c}" for v, c in st.programs))
        elif hasattr(st, "swap"):
            out.append(f"{st.variables} scored")
        else:
            out.append(f"{st.variables} moves")
    return ", ".join(out) or "none"


def search_table(names, time_limit: float = 600, gli11: bool = True,
                 verify: bool = False) -> None:
    from slotmath.tune.solver import default_method, step_line

    print(f"\ngames the window tables do not cover (GLI-11 {'held' if gli11 else 'not held'}; "
          f"time limit {time_limit:g} s)")
    for name in names:
        game = slotmath.load_game(ROOT / "data" / "games" / f"{name}.toml")
        target, tolerance = (Fraction(v) for v in SEARCH[name])
        print(f"{name}: method {default_method(game)}, target {float(target)} "
              f"+-{float(tolerance)}, load {os.getloadavg()[0]:.2f}", flush=True)
        t0 = time.perf_counter()
        r = tune(game, target, tolerance=tolerance, time_limit=time_limit,
                 gli11=GLI11 if gli11 else None,
                 progress=lambda st: print("  " + step_line(st), flush=True))
        wall = time.perf_counter() - t0
        f = r.figures
        how = "exact" if f.rtp_kind == "exact" else f"analysis +-{f.rtp_error:.2g}"
        load = os.getloadavg()
        print(f"{name}: {wall:.1f} s, {r.rank}, {r.tried} tried ({r.kept} kept), "
              f"{r.analyses} analyses, {r.estimates} estimates, {r.checks} GLI-11 checks; "
              f"steps {_sizes(r)}; rtp {float(r.start.rtp):.6f} -> {float(f.rtp):.6f} "
              f"(target {float(target)} +-{float(tolerance)}, off by "
              f"{float(abs(f.rtp - target)):.2g}, {how}); "
              f"{'met' if r.met else 'NOT met: ' + str({k: float(v) for k, v in r.misses.items() if v})}"
              f"; stopped: {r.stopped}; load {load[0]:.2f}", flush=True)
        if verify:  # a fresh analysis of the tuned game (seeded: the same figure)
            t0 = time.perf_counter()
            a = slotmath.analyze(r.game)
            agrees = (a.rtp == f.rtp if f.rtp_kind == "exact"
                      else Fraction(float(a.rtp)) == Fraction(float(f.rtp)))
            print(f"  a fresh analyze agrees: {agrees} ({time.perf_counter() - t0:.1f} s)",
                  flush=True)


def edited(game, j, strip):
    reels = list(game.base.reels)
    reels[j] = strip
    return game.replace_reels("base", tuple(reels))


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", nargs="*", default=list(TARGETS))
    p.add_argument("--targets-only", action="store_true",
                   help="only the table of the later targets")
    p.add_argument("--coverage", nargs="*", default=None,
                   help="only the newly covered games (default all of them)")
    p.add_argument("--gli11", nargs="*", default=None,
                   help="only the newly covered games tuned with GLI-11 held (default all "
                        "of them)")
    p.add_argument("--values", nargs="*", default=None,
                   help="only the games whose wheel or value weights are tuned (default all "
                        "of them)")
    p.add_argument("--time-limit", type=float, default=200.0,
                   help="the solver's time limit for --gli11, --values and --search (s)")
    p.add_argument("--search", nargs="*", default=None,
                   help="only the games the window tables do not cover (default all six)")
    p.add_argument("--no-gli11", action="store_true",
                   help="--search: GLI-11's rule not held (its checks are full analyses)")
    p.add_argument("--verify", action="store_true",
                   help="--search: a fresh analysis of each tuned game")
    args = p.parse_args()
    print(f"load average {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f} (1, 5 min)")
    if args.search is not None:
        search_table(args.search or list(SEARCH), args.time_limit, not args.no_gli11,
                     args.verify)
        print(f"load average {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f} (1, 5 min)")
        return
    if args.values is not None:
        values_table(args.values or list(VALUES), args.time_limit)
        print(f"load average {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f} (1, 5 min)")
        return
    if args.gli11 is not None:
        gli11_table(args.gli11 or list(COVERAGE), args.time_limit)
        print(f"load average {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f} (1, 5 min)")
        return
    if args.coverage is not None:
        coverage_table(args.coverage or list(COVERAGE))
        print(f"load average {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f} (1, 5 min)")
        return
    if args.targets_only:
        targets_table(args.games)
        print(f"load average {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f} (1, 5 min)")
        return
    print(f"{'game':<15}{'entries':>8}{'tables s':>10}{'re-analysis s':>15}{'ratio':>8}"
          f"{'tune s':>8}{'steps':>7}{'program (vars x rows)':>23}  RTP start -> tuned "
          f"(target)")
    for name in args.games:
        game = slotmath.load_game(ROOT / "data" / "games" / f"{name}.toml")
        _ = slotmath.analyze(game).rtp  # compile the kernels, warm the caches
        t0 = time.perf_counter()
        s = sensitivities(game)
        t_tables = time.perf_counter() - t0
        t0 = time.perf_counter()
        for e in s.entries:
            a = slotmath.analyze(edited(game, e.reel, e.strip))
            assert (a.rtp, a.hit_frequency, a.round.second_moment) == (
                e.figures.rtp, e.figures.hit_frequency, e.figures.second_moment)
        t_plain = time.perf_counter() - t0
        target = Fraction(TARGETS[name])
        r = tune(game, target, tolerance=Fraction(1, 10_000), time_limit=120)
        sizes = sorted({(st.variables, st.constraints) for st in r.steps})
        shown = ", ".join(f"{v}x{c}" for v, c in sizes)
        print(f"{name:<15}{len(s.entries):>8}{t_tables:>10.2f}{t_plain:>15.2f}"
              f"{t_plain / t_tables:>8.1f}{r.seconds:>8.2f}{len(r.steps):>7}{shown:>23}  "
              f"{float(r.start.rtp):.6f} -> {float(r.figures.rtp):.6f} ({float(target)}; "
              f"{'met' if r.met else 'missed ' + str({k: float(v) for k, v in r.misses.items()})})")
    targets_table(args.games)
    print(f"load average {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f} (1, 5 min)")


if __name__ == "__main__":
    main()
