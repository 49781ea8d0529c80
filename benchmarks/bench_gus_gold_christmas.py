"""Gus's Gold Christmas: the time of each step of the full analysis, with a progress bar.

Steps, timed one after the other in one run (numba's compiled kernels loaded first by a small
hold & win game, so no step is charged for compilation):
* the paid spin's full cycle (lines, cash count: the engine), and each modifier's table
  (slotmath.exact.modifiers: virtual reels of changed windows; Dynamite, Pickaxe, TNT),
  computed into a fresh, empty table store (slotmath.exact.store), CPU time of the worker
  processes included;
* the respin chain's states and moves (numpy), and the backward passes (expected win by
  linearity, respins, fill, each booster level: slotmath.markov.sparse.backward_induction);
* the records (held counts at each value step) by the compiled forward passes, and the win law
  by an FFT of the value laws;
* the round's distribution: the whole analysis again (the paid spin convolved with the
  feature's law), the modifiers' tables read from the store as a user's second run would;
and, side by side, a seeded simulation of the same number of respin rounds per second.

Run: python benchmarks/bench_gus_gold_christmas.py
"""

from __future__ import annotations

import os
import resource
import tempfile
import time
from fractions import Fraction

import numpy as np
from tqdm.auto import tqdm

import slotmath
from slotmath.exact.modifiers import modifier_table
from slotmath.features.base import Context, Mark
from slotmath.markov.hold_and_win import HoldAndWinChain
from slotmath.model.hold_and_win import Booster, HoldAndWin
from slotmath.simulate.hold_and_win import play_hold_and_win

PATH = "data/games/gus_gold_christmas.toml"


def warm_up() -> None:
    spec = HoldAndWin("C", 1, 2, Fraction(1, 3), (Fraction(1), Fraction(5)), (2, 1), rows=1,
                      max_rows=2, reels=2,
                      boosters=(Booster("rows", Fraction(1, 4), 1, 1),
                                Booster("values", Fraction(1, 3), 1, 1)))
    chain = HoldAndWinChain(spec)
    chain.figures(1)
    chain.float_distributions([1])
    play_hold_and_win(spec, np.ones(10, np.int64), np.random.default_rng(0))


def main() -> None:
    os.environ["SLOTMATH_CACHE_DIR"] = tempfile.mkdtemp(prefix="bench_gus_store_")
    warm_up()
    times: dict[str, float] = {}
    cpu: dict[str, float] = {}
    game = slotmath.load_game(PATH)
    spec = game.hold_and_win
    mods = list(game.modifiers) if game.modifiers is not None else []
    steps = ["paid spin (engine)"] + [f"modifier table: {m.name}" for m in mods] + [
             "chain states and moves", "backward passes",
             "records and FFT law", "round distribution (analysis)"]
    bar = tqdm(total=len(steps), desc="Gus's Gold Christmas")

    def used():
        own, kids = (resource.getrusage(w) for w in (resource.RUSAGE_SELF,
                                                       resource.RUSAGE_CHILDREN))
        return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime

    def step(name, fn):
        t0, c0 = time.perf_counter(), used()
        out = fn()
        times[name] = time.perf_counter() - t0
        cpu[name] = used() - c0
        bar.update(1)
        bar.set_postfix_str(name)
        return out

    step(steps[0], lambda: Context(game).table("base", (Mark("cash", spec.symbol),)))
    for m in mods:
        step(f"modifier table: {m.name}",
             lambda m=m: modifier_table(game, m, count_symbol=spec.symbol))
    chain = HoldAndWinChain(spec)
    step("chain states and moves", lambda: chain.transitions)
    fig = step("backward passes", lambda: chain.figures(5))
    law = step("records and FFT law", lambda: chain.float_distributions([5]))
    a = slotmath.analyze(game)
    step("round distribution (analysis)", lambda: (a.rtp, a.distribution))
    bar.close()
    rounds = 200_000
    t0 = time.perf_counter()
    sample = play_hold_and_win(spec, np.full(rounds, 5), np.random.default_rng(1))
    sim_time = time.perf_counter() - t0

    print(f"\n{'step':<34}{'wall s':>10}{'cpu s':>10}")
    for name, t in times.items():
        print(f"{name:<34}{t:>10.2f}{cpu[name]:>10.2f}")
    print("(the analysis step recomputes all but the stored modifier tables; cpu counts the "
          "worker processes)")
    t = chain.transitions
    print(f"\nchain: {chain.n_states:,} states, {len(t['rows']):,} moves;"
          f" round from 5 held: E[win] {fig.mean:.4f} x bet, fill {fig.fill_probability:.3e}")
    probs, bound, _ = law[5]
    print(f"win law: {len(probs):,} grid points, misplaced-mass bound {bound:.1e}")
    print(f"RTP {a.rtp_float:.6%} (error <= {a.rtp_error:.1e})")
    print(f"\nsimulator: {rounds:,} respin rounds in {sim_time:.2f} s "
          f"({rounds / sim_time:,.0f} rounds/s); mean {sample.win.mean():.3f} "
          f"+- {sample.win.std() / np.sqrt(rounds):.3f} (exact {fig.mean:.3f})")
    chain_steps = ("chain states and moves", "backward passes", "records and FFT law")
    exact_rounds = sum(times[k] for k in chain_steps)
    print(f"exact round law (chain + passes + law): {exact_rounds:.1f} s, the time of "
          f"{exact_rounds * rounds / sim_time:,.0f} simulated rounds")


if __name__ == "__main__":
    main()
