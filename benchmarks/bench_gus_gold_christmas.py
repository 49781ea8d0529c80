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
  feature's law), the modifiers' tables read from the store; the first time the respin
  chain's figures and win laws at the paid spin's start counts are computed and stored
  (slotmath.features.hold_and_win), the second time (a user's second run) they are read;
and, side by side, a seeded simulation of the same number of respin rounds per second.

Side by side (``--baseline COMMIT``): the whole ``slotmath analyze GAME --json`` of this tree
and of a checkout of COMMIT (``git worktree add /tmp/base-gus-COMMIT COMMIT``), each in its
own subprocess (``PYTHONPATH`` = that tree's ``src``), the table store warm (one untimed run
of each fills it; the store's keys hold the code, so the two trees never share a table made
by different code); then ``--repeat`` timed runs of each, alternated, wall and CPU. Every
figure of the two JSON documents must be the same float or fraction, except those read off
the numerical round distribution (win-size bands, volatility index, confidence intervals,
top-award odds, the hold & win tail), which must agree within the bounds the documents state
(the golden test's rules, tests/test_golden.py); the benchmark fails loudly otherwise.

Run: python benchmarks/bench_gus_gold_christmas.py [--baseline 72216e3 [--repeat 3]]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from fractions import Fraction
from pathlib import Path

import numpy as np
from tqdm.auto import tqdm

import slotmath
from slotmath.exact.modifiers import modifier_table
from slotmath.features.base import Context, Mark
from slotmath.markov.hold_and_win import HoldAndWinChain
from slotmath.model.hold_and_win import Booster, HoldAndWin
from slotmath.simulate.hold_and_win import play_hold_and_win

PATH = "data/games/gus_gold_christmas.toml"
ROOT = Path(__file__).resolve().parent.parent

#: the figures read off the numerical round distribution: held to the documents' bounds
LAW_KEYS = ("win_sizes", "volatility_index", "confidence_intervals", "round_distribution")
LAW_PATHS = (".max_win.probability", ".max_win.one_in", ".hold_and_win.tail",
             ".hold_and_win.law_error")


def _analyze(tree: Path, out: Path) -> tuple[float, float]:
    """One ``slotmath analyze --json`` of ``tree``'s package into ``out``: (wall, cpu) s."""
    env = {**os.environ, "PYTHONPATH": str(tree / "src")}
    code = ("import runpy, sys, slotmath; assert slotmath.__file__.startswith(sys.argv[1]), "
            "slotmath.__file__; sys.argv = ['slotmath', 'analyze', sys.argv[2], '--json']; "
            "runpy.run_module('slotmath', run_name='__main__')")
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    with open(out, "w") as f:
        subprocess.run([sys.executable, "-c", code, str(tree / "src"), str(ROOT / PATH)],
                       check=True, cwd=tree, env=env, stdout=f, stderr=subprocess.DEVNULL)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def _flat(doc, path=""):
    if isinstance(doc, dict):
        for k, v in doc.items():
            yield from _flat(v, f"{path}.{k}")
    elif isinstance(doc, list):
        for i, v in enumerate(doc):
            yield from _flat(v, f"{path}[{i}]")
    else:
        yield path, doc


def _is_law(path: str) -> bool:
    top = path[1:].split(".")[0].split("[")[0]
    return top in LAW_KEYS or path.startswith(LAW_PATHS)


def _drop_new(doc, base):
    """``doc`` without the keys of its objects that ``base``'s same objects lack."""
    if isinstance(doc, dict) and isinstance(base, dict):
        return {k: _drop_new(v, base[k]) for k, v in doc.items() if k in base}
    if isinstance(doc, list) and isinstance(base, list) and len(doc) == len(base):
        return [_drop_new(v, w) for v, w in zip(doc, base)]
    return doc


def new_keys(want: dict, got: dict) -> list[str]:
    """The paths of ``got`` under keys that the baseline's document ``want`` does not have
    (keys added since the baseline: not figures to compare)."""
    a, b = dict(_flat(want)), dict(_flat(_drop_new(got, want)))
    return sorted(p for p, _ in _flat(got) if p not in b and p not in a)


def compare(want: dict, got: dict) -> list[str]:
    """Differences: any figure but the distribution's not the same; the distribution's
    beyond the documents' stated bounds (tests/test_golden.py's rules). Keys the baseline's
    document does not have are left out (:func:`new_keys`; the caller names them); a key of
    the baseline's missing here is a difference."""
    problems = []
    got = _drop_new(got, want)
    a, b = dict(_flat(want)), dict(_flat(got))
    if a.keys() != b.keys():
        problems.append(f"keys differ: {sorted(a.keys() ^ b.keys())[:5]}")
    for path in a.keys() & b.keys():
        if not _is_law(path) and a[path] != b[path]:
            problems.append(f"{path}: {a[path]!r} != {b[path]!r} (must be the same)")
    sys.path.insert(0, str(ROOT / "tests"))
    from test_golden import _differences  # the golden files' tolerance rules
    problems += _differences(want, got)
    return problems


def side_by_side(commit: str, repeat: int) -> None:
    base = Path(f"/tmp/base-gus-{commit}")
    if not base.exists():
        subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", str(base), commit],
                       check=True, capture_output=True)
    work = Path(tempfile.mkdtemp(prefix="bench_gus_side_"))
    trees = {"this tree": ROOT, f"baseline {commit}": base}
    print(f"{PATH}: analyze --json, table store warm; {os.cpu_count()} cores, load "
          + " ".join(f"{x:.2f}" for x in os.getloadavg()))
    first = {}
    for name, tree in trees.items():  # fills the store (and numba's caches) if need be
        first[name] = _analyze(tree, work / "fill.json")
        print(f"  {name}: first run {first[name][0]:.1f} s wall (store and caches filled "
              "if they were cold)")
    runs: dict = {name: [] for name in trees}
    for i in range(repeat):
        for name, tree in trees.items():
            runs[name].append(_analyze(tree, work / f"{name.split()[0]}{i}.json"))
    print(f"\n{'run':<22}{'wall s (each)':>36}{'best':>8}{'cpu s best':>12}")
    for name, r in runs.items():
        walls = " ".join(f"{w:.2f}" for w, _ in r)
        print(f"{name:<22}{walls:>36}{min(w for w, _ in r):>8.2f}{min(c for _, c in r):>12.2f}")
    this, other = (min(w for w, _ in runs[n]) for n in trees)
    print(f"ratio (baseline / this tree, best wall): {other / this:.2f}x; load after: "
          + " ".join(f"{x:.2f}" for x in os.getloadavg()))
    docs = {n: json.loads((work / f"{n.split()[0]}0.json").read_text()) for n in trees}
    added = new_keys(docs[f"baseline {commit}"], docs["this tree"])
    if added:
        print(f"  not compared: {len(added)} key(s) absent from the baseline's document "
              f"(added since {commit}): {', '.join(added[:5])}")
    problems = compare(docs[f"baseline {commit}"], docs["this tree"])
    if problems:
        for p in problems[:20]:
            print("  DIFFERS", p)
        raise SystemExit(f"{len(problems)} figure(s) differ from the baseline's")
    n = sum(1 for _ in _flat(docs["this tree"]))
    print(f"figures: all {n} the same as the baseline's (the distribution's within the stated "
          "bounds)")


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
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", help="commit to run side by side (the whole analysis)")
    parser.add_argument("--repeat", type=int, default=3, help="timed runs of each tree")
    args = parser.parse_args()
    if args.baseline:
        side_by_side(args.baseline, args.repeat)
        return
    os.environ["SLOTMATH_CACHE_DIR"] = tempfile.mkdtemp(prefix="bench_gus_store_")
    warm_up()
    times: dict[str, float] = {}
    cpu: dict[str, float] = {}
    game = slotmath.load_game(PATH)
    spec = game.hold_and_win
    mods = list(game.modifiers) if game.modifiers is not None else []
    steps = ["paid spin (engine)"] + [f"modifier table: {m.name}" for m in mods] + [
             "chain states and moves", "backward passes",
             "records and FFT law", "analysis (chain results stored)",
             "analysis (all read from store)"]
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
    step("analysis (chain results stored)", lambda: (a.rtp, a.distribution))
    again = slotmath.analyze(game)
    step("analysis (all read from store)", lambda: (again.rtp, again.distribution))
    if again.rtp != a.rtp:
        raise SystemExit(f"the RTP read from the store {again.rtp} is not {a.rtp}")
    bar.close()
    rounds = 200_000
    t0 = time.perf_counter()
    sample = play_hold_and_win(spec, np.full(rounds, 5), np.random.default_rng(1))
    sim_time = time.perf_counter() - t0

    print(f"\n{'step':<34}{'wall s':>10}{'cpu s':>10}")
    for name, t in times.items():
        print(f"{name:<34}{t:>10.2f}{cpu[name]:>10.2f}")
    print("(the first analysis recomputes all but the stored modifier tables and stores the "
          "chain's results, the second reads them; cpu counts the worker processes)")
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
