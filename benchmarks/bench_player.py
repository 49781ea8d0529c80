"""The player's view (slotmath.player): times at N = 1e6, the largest exact ruin cases, and
the largest gap between the exact figures and the normal approximation on each fast game.

Prints, with the load average:

1. the law of the total win at N = 1e6 rounds on each game: time and error bound, beside the
   baseline run in the same process, ``slotmath.stats.interval.mean_intervals`` (binary powering
   with coarsening; its 95% interval is printed beside the FFT one);
2. the risk of ruin at N = 1e6 (bounds from the law of the total win: time, bracket, diffusion)
   at a bankroll near the expected loss; the largest exact-fraction recursion (Classic 3-Reel,
   the bundled game with an exact round law) and the largest float64 recursion with its bound,
   each beside a seeded simulation of the same sessions (time and standard error);
3. per game, over N = 10 .. 1e6: the largest |normal - exact| of P(ahead), of the session-RTP
   quantiles (0.1% .. 99.9%), of the total-win CDF (Kolmogorov distance), of the risk of ruin
   where a recursion computes it, and of the losses disguised as wins, each with where.

Run: ``python benchmarks/bench_player.py [--games classic_fruits ways_243 ...] [--slow]
[--largest] [--sections 123]`` (``--slow`` adds Gus Gold Christmas, ~40 s to analyse; ``--largest`` runs the
largest recursions, minutes).
"""

from __future__ import annotations

import argparse
import math
import os
import time
from pathlib import Path

import numpy as np
from scipy.special import ndtr

import slotmath
from slotmath import player
from slotmath.stats.interval import mean_intervals

GAMES = Path(__file__).resolve().parents[1] / "data" / "games"
FAST = ["classic_3reel", "classic_fruits", "ways_243", "tiny_lines", "gold_money_frog"]
ROUNDS = [10, 30, 100, 300, 1_000, 3_000, 10_000, 30_000, 100_000, 300_000, 1_000_000]
LEVELS = (0.001, 0.01, 0.05, 0.5, 0.95, 0.99, 0.999)


def load() -> str:
    return "load average " + ", ".join(f"{x:.2f}" for x in os.getloadavg())


def timed(fn, *args, **kwargs):
    start = time.perf_counter()
    out = fn(*args, **kwargs)
    return out, time.perf_counter() - start


def simulate_ruin(law, bankroll, n, sessions, seed=1):
    """Seeded sessions (inverse CDF), the same model as the recursion."""
    rng = np.random.default_rng(seed)
    cumulative = np.cumsum(law.probs)
    cpb = law.credits_per_bet
    ruined = 0
    per = max(1, 4_000_000 // n)
    for start in range(0, sessions, per):
        k = min(per, sessions - start)
        index = np.searchsorted(cumulative, rng.random((k, n)) * cumulative[-1], side="right")
        wins = law.credits[np.minimum(index, len(cumulative) - 1)]
        balance = bankroll * cpb + np.cumsum(wins - cpb, axis=1)
        ruined += int(np.sum(balance.min(axis=1) < cpb))
    return ruined / sessions


def section_session(laws):
    print(f"\n== 1. Law of the total win at N = 1e6 ({load()})")
    print(f"{'game':<20}{'FFT power':>11}{'error bound':>13}{'baseline':>11}{'ratio':>8}"
          f"   95% RTP interval: FFT / baseline (baseline's lattice resolution)")
    for name, law in laws.items():
        s, t_fft = timed(player.session_law, law, 1_000_000)
        base, t_base = timed(mean_intervals, law, [1_000_000], [0.95])
        q = player.rtp_quantiles(law, 1_000_000, (0.025, 0.975), session=s)
        b = base[1_000_000, 0.95]
        print(f"{name:<20}{t_fft:>10.2f}s{s.error_bound:>13.1e}{t_base:>10.2f}s"
              f"{t_base / t_fft:>8.1f}   [{q[0].float:.5f}, {q[1].float:.5f}] / "
              f"[{b.lower:.5f}, {b.upper:.5f}] ({b.resolution:.1e})")


def section_ruin(laws, largest: bool):
    print(f"\n== 2. Risk of ruin ({load()})")
    for name, law in laws.items():
        n = 1_000_000
        bankroll = max(1, round(n * (1 - float(law.mean))))
        plan = player.ruin_plan(law, bankroll, n)
        f, t = timed(player.ruin_probability, law, bankroll, n)
        print(f"{name:<20} N = 1e6, B = {bankroll:,} bets: {f.method}, {t:.2f} s, "
              f"P(ruin) in [{f.lower:.4f}, {f.upper:.4f}], diffusion {f.normal:.4f} "
              f"(recursion estimated {plan['float64']:.0f} s)")
    three = laws.get("classic_3reel")
    cases = [("classic_3reel", "exact", 100, 1_000)]
    if largest:
        cases += [("classic_3reel", "exact", 200, 2_000),
                  ("classic_3reel", "float64", 1_000, 100_000),
                  ("classic_fruits", "float64", 1_000, 10_000),
                  ("ways_243", "float64", 1_000, 30_000)]
    else:
        cases += [("classic_3reel", "float64", 300, 10_000),
                  ("ways_243", "float64", 100, 3_000)]
    print(f"{'game':<16}{'method':>9}{'B':>7}{'N':>9}{'time':>9}{'P(ruin)':>12}"
          f"{'bound':>10}{'diffusion':>11}   simulation: sessions, value +- SE, time")
    for name, method, bankroll, n in cases:
        law = laws.get(name) if name != "classic_3reel" else three
        if law is None:
            continue
        c, t = timed(player.ruin_curve, law, bankroll, n, method=method, rounds=[n])
        f = c.figure()
        sessions = min(100_000, 200_000_000 // n)
        sim, t_sim = timed(simulate_ruin, law, bankroll, n, sessions)
        se = math.sqrt(max(sim * (1 - sim), 1e-12) / sessions)
        width = f.upper - f.lower
        print(f"{name:<16}{method:>9}{bankroll:>7,}{n:>9,}{t:>8.2f}s{f.float:>12.6f}"
              f"{width:>10.1e}{f.normal:>11.4f}   {sessions:,}, {sim:.4f} +- {se:.4f}, "
              f"{t_sim:.1f} s")


def section_gaps(laws):
    print(f"\n== 3. Largest gap, normal approximation - exact ({load()})")
    for name, law in laws.items():
        pl = player.as_player_law(law)
        worst = {}

        def note(key, gap, where, worst=worst):
            if key not in worst or abs(gap) > abs(worst[key][0]):
                worst[key] = (gap, where)
        start = time.perf_counter()
        header = (f"   {'N':>9}  {'P(ahead) exact/normal':>22}  {'RTP 1% exact/normal':>20}"
                  f"  {'RTP 99% exact/normal':>21}  {'Kolmogorov':>10}")
        table = [header]
        for n in ROUNDS:
            s = player.session_law(pl, n)
            f = player.probability_ahead(pl, n, session=s)
            note("P(ahead)", f.normal - f.float, f"N = {n:,}: exact {f.float:.4f}, normal "
                 f"{f.normal:.4f}")
            quantiles = player.rtp_quantiles(pl, n, LEVELS, session=s)
            for q, g in zip(LEVELS, quantiles):
                note("session RTP quantile", g.normal - g.float,
                     f"N = {n:,}, {q:.1%}: exact {g.float:.4f}, normal {g.normal:.4f}")
            mean, sd = n * float(pl.mean) * pl.credits_per_bet, (
                math.sqrt(n) * pl.std * pl.credits_per_bet)
            cdf = np.cumsum(s.pmf)
            diff = ndtr((s.totals - mean) / sd) - cdf
            i = int(np.argmax(np.abs(diff)))
            note("total-win CDF (Kolmogorov)", float(diff[i]),
                 f"N = {n:,}, net {s.net_bets[i]:,.1f} bets: exact {cdf[i]:.4f}, "
                 f"normal {cdf[i] + diff[i]:.4f}")
            if n >= 1_000:
                note("any figure at N >= 1000", f.normal - f.float, f"P(ahead), N = {n:,}")
                for q, g in zip(LEVELS, quantiles):
                    note("RTP quantile at N >= 1000", g.normal - g.float,
                         f"N = {n:,}, {q:.1%}: exact {g.float:.4f}, normal {g.normal:.4f}")
                note("any figure at N >= 1000", float(diff[i]),
                     f"CDF at net {s.net_bets[i]:,.1f} bets, N = {n:,}")
            one, ninety_nine = quantiles[1], quantiles[-2]
            table.append(f"   {n:>9,}  {f.float:>10.4f} / {f.normal:<9.4f}  "
                         f"{one.float:>8.4f} / {one.normal:<9.4f}  "
                         f"{ninety_nine.float:>8.4f} / {ninety_nine.normal:<10.4f}  "
                         f"{float(np.abs(diff).max()):>10.4f}")
        for bankroll in (10, 100, 1_000):
            for n in (100, 1_000, 10_000):
                plan = player.ruin_plan(pl, bankroll, n, max_seconds=20)
                if plan["method"] == "bounds" or bankroll > n:
                    continue
                r = player.ruin_curve(pl, bankroll, n, method=plan["method"],
                                      rounds=[n]).figure()
                where = (f"B = {bankroll:,}, N = {n:,}: exact {r.float:.4f}, diffusion "
                         f"{r.normal:.4f} ({r.method})")
                note("risk of ruin", r.normal - r.float, where)
                if 10 * bankroll <= n:  # away from B ~ N, where no round can lose enough
                    note("risk of ruin, B <= N/10", r.normal - r.float, where)
        ldw = player.losses_disguised_as_wins(pl)
        note("losses disguised as wins", ldw.normal - ldw.float,
             f"exact {ldw.float:.4f}, normal {ldw.normal:.4f}")
        print(f"{name} (RTP of the law {float(pl.mean):.4%}, SD {pl.std:.2f} bets; "
              f"{time.perf_counter() - start:.1f} s)")
        for key, (gap, where) in worst.items():
            print(f"   {key:<28}{gap:>+9.4f}   {where}")
        print("\n".join(table))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", nargs="*", default=FAST)
    parser.add_argument("--slow", action="store_true", help="add Gus Gold Christmas")
    parser.add_argument("--largest", action="store_true", help="the largest recursions")
    parser.add_argument("--sections", default="123", help="which sections to run (1, 2, 3)")
    args = parser.parse_args()
    games = list(args.games) + (["gus_gold_christmas"] if args.slow else [])
    print(f"{os.cpu_count()} CPUs, {load()}")
    laws = {}
    for name in games:
        a, t = timed(slotmath.analyze, slotmath.load_game(GAMES / f"{name}.toml"))
        law, t_law = timed(getattr, a, "distribution")
        laws[name] = law
        gap = abs(float(a.rtp) - float(law.mean))
        extra = f"; the game's RTP {float(a.rtp):.4%} (jackpots outside the law)" if gap > 1e-9 \
            else ""
        print(f"{name}: round law {type(law).__name__}, {len(law):,} amounts, "
              f"{t + t_law:.1f} s{extra}")
    if "1" in args.sections:
        section_session(laws)
    if "2" in args.sections:
        section_ruin(laws, args.largest)
    if "3" in args.sections:
        section_gaps(laws)


if __name__ == "__main__":
    main()
