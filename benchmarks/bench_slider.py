"""Slider redraw (issue 25 item 3): what the strip editor does for one move, to its RTP, on
Gold Money Frog and the tour game (Classic Fruits), this checkout beside a baseline commit.

A move is one symbol added to one reel of the base set: the panel's slider for that symbol and
reel goes up by one, the panel re-analyses the edited game and sends its summary (the RTP, with
its error bound when numerical) before any chart. Each game runs in its own warm process
(``StripEditor(game, draw=False, sweep=False)``: the load and first analysis, and one warm-up
move, are not timed); then ``--moves`` different moves (reel ``j`` gets one more of a symbol,
the sliders put back between moves without recomputing), and their median is printed:

* ``rtp s``: the move's analysis to its RTP (``panel.seconds``),
* ``shown s``: to the summary sent, what the panel records as ``timings["figures"]``,
* ``cpu s``: the process's CPU time for the move (less sensitive to the machine's load).

A move whose jackpot pools were already solved for its wheel-spins law (the panel keeps them)
is skipped and counted as such: each counted move solves its pools.

With ``--baseline COMMIT`` the same moves run on that commit's sources (``git worktree add
/tmp/base-gmf COMMIT`` once, kept; or ``--baseline-tree DIR``), one process per game and tree,
and the ratio now/baseline is printed. Both sides must give the same RTP for every move: the
exact components (fractions) equal, and a numerical RTP (a jackpot game's) within the error
bound the baseline states for it (it cannot be bit for bit once the float sums are ordered
differently); the largest difference is printed, and a mismatch exits 1.

Gus's Gold Christmas recomputes its modifier tables on a strip move (about 30 s of CPU for
Dynamite's at 01e482e; since then the table kept for the strips before is moved,
:mod:`slotmath.exact.modifier_moves`): it is run only when named (``--games
gus_gold_christmas``). A game with modifiers now shows a move's exact RTP at once
(:func:`slotmath.rtp_only`, the panel's ``timings["rtp"]``) and analyses it in the background:
``rtp s`` and ``shown s`` are then to that RTP, ``cpu s`` the CPU until it is shown, and
``full s`` the background's whole analysis (each move waits for it before the next; the RTP
shown must be the analysis' RTP, exactly or within its stated error, or the run stops). ``--cumulative`` leaves each move's sliders where they are (the next
move edits the game the last one made, as a user does) instead of putting them back, and
``--each`` prints every move (its reel) beside the baseline's, not only their median. The
``cpu s`` figure counts the worker processes' CPU too (the modifier DP's parts run in two).

    python benchmarks/bench_slider.py --games gus_gold_christmas --baseline 01e482e \
        --moves 5 --cumulative --each

    python benchmarks/bench_slider.py
    python benchmarks/bench_slider.py --baseline 72216e3 --moves 5
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from fractions import Fraction
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
GAMES = ["gold_money_frog", "classic_fruits"]
LEVEL = 1


def candidates(game):
    """Moves in a fixed order: reel ``i mod reels`` gets one more of the reel's
    ``i // reels``-th most common symbol."""
    reels = game.reel_sets["base"].reels
    for i in range(10 * len(reels)):
        j = i % len(reels)
        symbols = reels[j].symbols
        ranked = sorted(set(symbols), key=lambda s: (-symbols.count(s), s))
        yield j, ranked[(i // len(reels)) % len(ranked)]


def reused(jackpots) -> int:
    """Pool analyses taken from the jackpot feature's cache so far (0 without one)."""
    info = getattr(getattr(jackpots, "pool_analysis", None), "cache_info", None)
    return info().hits if info else 0


def cpu_now() -> float:
    """This process's CPU time and its finished children's (the worker processes)."""
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


def worker(name: str, count: int, cumulative: bool = False) -> None:
    """Run in the tree under test (``PYTHONPATH``): print one JSON line of the moves.

    A move whose wheel-spins law an earlier move had already (on Gold Money Frog, one more
    of a symbol on reel 1 or on reel 3, which hold as many BONUS) finds its pools solved: it
    is recorded with ``reused`` and not counted, and the next candidate is tried, until
    ``count + 1`` moves (the first a warm-up) have been counted.
    """
    import slotmath
    from slotmath.features import jackpots
    from slotmath.widgets.strip_editor import StripEditor

    game = slotmath.load_game(ROOT / "data" / "games" / f"{name}.toml")
    start = time.perf_counter()
    panel = StripEditor(game, level=LEVEL, draw=False, sweep=False, slow_after=float("inf"))
    loaded = time.perf_counter() - start
    rows = []
    for j, symbol in candidates(game):
        slider = panel.sliders[(j, symbol)]
        slider.max = max(slider.max, slider.value + 1)
        hits, cpu = reused(jackpots), cpu_now()
        slider.value += 1  # the move: the panel re-analyses and sends its summary
        cpu = cpu_now() - cpu
        at_once = getattr(panel, "at_once", False)  # the RTP shown, the analysis behind
        quick = panel.quick if at_once else None
        if at_once:
            panel.wait()
        a = panel.analysis
        if quick is not None and (quick.rtp != a.rtp if a.exact
                                  else abs(quick.rtp - a.rtp) > a.rtp_error):
            raise SystemExit(f"move {j} {symbol}: the RTP shown at once {quick.rtp} is not "
                             f"the analysis' {a.rtp}")
        exact = {k: str(v) for k, v in a.components.items() if isinstance(v, Fraction)}
        rows.append({"move": [j, symbol],
                     "rtp_s": panel.timings["rtp"] if at_once else panel.seconds,
                     "shown_s": panel.timings["figures"], "cpu_s": cpu,
                     "full_s": panel.seconds,
                     "reused": reused(jackpots) > hits, "exact": a.exact,
                     "rtp": str(a.rtp) if a.exact else repr(a.rtp_float),
                     "error": a.rtp_error, "exact_components": exact})
        if not cumulative:
            panel._set_sliders(panel.original)  # back, without recomputing
        if sum(not r["reused"] for r in rows) > count:
            break
    print(json.dumps({"file": slotmath.__file__, "loaded_s": loaded, "moves": rows}))


def run(tree: Path, name: str, count: int, cumulative: bool = False) -> dict:
    env = {**os.environ, "PYTHONPATH": str(tree / "src"), "SLOTMATH_COMPILE_NOTICE": "0"}
    proc = subprocess.run([sys.executable, __file__, "--worker", name, "--moves", str(count)]
                          + ["--cumulative"] * cumulative,
                          env=env, capture_output=True, text=True, check=False)
    if proc.returncode:
        raise SystemExit(f"{name} failed in {tree}:\n{proc.stderr}")
    out = json.loads(proc.stdout.strip().splitlines()[-1])
    if not out["file"].startswith(str(tree / "src")):
        raise SystemExit(f"{tree}: imported {out['file']}")
    counted = [m for m in out["moves"] if not m["reused"]]
    out["reused"] = len(out["moves"]) - len(counted)
    out["moves"] = counted[1:]  # the first is the warm-up
    return out


def baseline_tree(commit: str) -> Path:
    tree = Path("/tmp/base-gmf")
    if not tree.exists():
        subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", str(tree), commit],
                       check=True, capture_output=True)
    have = subprocess.run(["git", "-C", str(tree), "rev-parse", "HEAD"], check=True,
                          capture_output=True, text=True).stdout.strip()
    want = subprocess.run(["git", "-C", str(ROOT), "rev-parse", commit], check=True,
                          capture_output=True, text=True).stdout.strip()
    if have != want:
        raise SystemExit(f"{tree} is at {have[:9]}, not {commit}: remove it or pass "
                         "--baseline-tree")
    return tree


def compare(name: str, now: dict, base: dict) -> float:
    """The largest |RTP now - RTP base| over the moves; exits on a mismatch."""
    worst = 0.0
    for a, b in zip(now["moves"], base["moves"]):
        move = f"{name} move {a['move']}"
        if a["move"] != b["move"] or a["exact"] != b["exact"]:
            raise SystemExit(f"MISMATCH {move}: {a} vs {b}")
        if a["exact_components"] != b["exact_components"]:
            raise SystemExit(f"MISMATCH {move}: exact components {a['exact_components']} vs "
                             f"{b['exact_components']}")
        if a["exact"]:
            if a["rtp"] != b["rtp"]:
                raise SystemExit(f"MISMATCH {move}: RTP {a['rtp']} vs {b['rtp']}")
            continue
        diff = abs(float(a["rtp"]) - float(b["rtp"]))
        worst = max(worst, diff)
        if diff > b["error"]:
            raise SystemExit(f"MISMATCH {move}: RTP {a['rtp']} vs {b['rtp']} differ by {diff:.3g},"
                             f" more than the baseline's stated error {b['error']:.3g}")
    return worst


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", nargs="*", default=GAMES)
    p.add_argument("--moves", type=int, default=5)
    p.add_argument("--baseline", help="commit to run the same moves on, side by side")
    p.add_argument("--baseline-tree", type=Path, help="a checkout of the baseline")
    p.add_argument("--cumulative", action="store_true",
                   help="each move edits the game the last one made (sliders not put back)")
    p.add_argument("--each", action="store_true", help="print every move, not only the median")
    p.add_argument("--worker", help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.worker:
        worker(args.worker, args.moves, args.cumulative)
        return
    base = args.baseline_tree or (baseline_tree(args.baseline) if args.baseline else None)
    load = os.getloadavg()
    print(f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} (1, 5, 15 min), "
          f"{os.cpu_count()} cores; bet level {LEVEL}; median of {args.moves} moves, seconds")
    head = f"{'game':<18}{'rtp s':>7}{'shown s':>8}{'cpu s':>7}"
    if base:
        head += f"{'base rtp':>9}{'shown':>7}{'cpu':>7}{'ratio':>7}"
    print(head + "  (ratio: shown now / base)  RTP of the last move")
    for name in args.games:
        now = run(ROOT, name, args.moves, args.cumulative)
        med = {k: statistics.median(m[k] for m in now["moves"]) for k in ("rtp_s", "shown_s",
                                                                           "cpu_s")}
        line = f"{name:<18}{med['rtp_s']:>7.3f}{med['shown_s']:>8.3f}{med['cpu_s']:>7.3f}"
        last = now["moves"][-1]
        rtp = last["rtp"] if last["exact"] else f"{last['rtp']} +/- {last['error']:.1e}"
        if base:
            then = run(base, name, args.moves, args.cumulative)
            worst = compare(name, now, then)
            was = {k: statistics.median(m[k] for m in then["moves"]) for k in ("rtp_s",
                                                                                "shown_s", "cpu_s")}
            line += (f"{was['rtp_s']:>9.3f}{was['shown_s']:>7.3f}{was['cpu_s']:>7.3f}"
                     f"{med['shown_s'] / was['shown_s']:>7.3f}  {rtp}"
                     f"{'' if last['exact'] else f'; |now - base| <= {worst:.1e}'}")
        else:
            line += f"  {rtp}"
        print(line, flush=True)
        if args.each:
            for i, m in enumerate(now["moves"]):
                row = (f"{'':<4}reel {m['move'][0] + 1} +1 {m['move'][1]:<9}{m['rtp_s']:>7.3f}"
                       f"{m['shown_s']:>8.3f}{m['cpu_s']:>7.3f}")
                if base:
                    b = then["moves"][i]
                    row += (f"{b['rtp_s']:>9.3f}{b['shown_s']:>7.3f}{b['cpu_s']:>7.3f}"
                            f"{m['shown_s'] / b['shown_s']:>7.3f}")
                if m.get("full_s", m["rtp_s"]) != m["rtp_s"]:
                    row += f"  (its full analysis {m['full_s']:.2f} s, in the background)"
                print(row, flush=True)
        skipped = f", {now['reused']} skipped (pools reused)" if now["reused"] else ""
        print(f"{'':<18}moves {[tuple(m['move']) for m in now['moves']]}{skipped}")
    load = os.getloadavg()
    print(f"load average at the end {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")


if __name__ == "__main__":
    main()
