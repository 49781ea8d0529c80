"""The Stake Engine export (``slotmath export-stake``) of each bundled game: time, size and
RTP error, beside the baseline run in the same process, the game's exact analysis alone
(``slotmath.analyze`` + its RTP), which the export starts from.

For each game and rounding: the analysis' time, the export's (analysis, table, books, write)
and their ratio; the files' sizes; per mode (the standard game and each ``[modes.NAME]``),
the table's RTP minus the exact RTP, both per amount wagered (exact where it is), and the
stated bound of |table RTP - true RTP|. A game Stake does not take (a state carried
between rounds) or with no player of books yet is listed with the one-line reason.

Each row also gives the process's peak resident memory after the analysis alone and after
the export (``getrusage``: the peak so far in this process, so run one game for its own
figure), and the rows without a book (payouts no round was found for, their probability
moved to a neighbouring row; the RTP change of that move is part of the table's).

Run: ``python benchmarks/bench_stake_export.py [--games classic_3reel tiny_lines ...]
[--roundings nearest keep-rtp] [--files tests/data/stake_modes.toml ...]``. Golden Link (a
Link-style game: free spins, hold & win also inside them, a bonus buy) alone:
``--games golden_link --roundings nearest``. A simulated grid game with fewer rounds than its
file's: ``--games cluster_crush --rounds 1000000 --seed 1``. Sticky Paws (sticky wilds: 729 states x
44,022,825 stop combinations, its books from seeded draws) alone: ``--games sticky_paws``.
Frozen Gems (a cascade cycle of 6.1e9: its books from a seeded search over whole rounds,
:mod:`slotmath.publish.cascade_rounds`) alone: ``--games frozen_gems``; ``--search-rounds N``
sets the search's budget (default 2**27).
"""

from __future__ import annotations

import argparse
import os
import resource
import tempfile
import time
from pathlib import Path

import slotmath
from slotmath.publish import export_stake, refusal

GAMES = Path(__file__).resolve().parents[1] / "data" / "games"


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", nargs="*", default=sorted(g.stem for g in GAMES.glob("*.toml")))
    p.add_argument("--roundings", nargs="*", default=["nearest", "keep-rtp"])
    p.add_argument("--files", nargs="*", default=[], help="other game files (e.g. fixtures)")
    p.add_argument("--rounds", type=int, default=None,
                   help="a simulated game's rounds (default: its [analysis] rounds)")
    p.add_argument("--seed", type=int, default=None, help="a simulated game's seed")
    p.add_argument("--search-rounds", type=int, default=None,
                   help="a searched cascade game's budget of rounds (default 2**27)")
    args = p.parse_args()
    from slotmath.publish import RoundSearch

    search = RoundSearch() if args.search_rounds is None else RoundSearch(args.search_rounds)
    print(f"load average {os.getloadavg()}")
    paths = [GAMES / f"{name}.toml" for name in args.games] + [Path(f) for f in args.files]
    for path in paths:
        name = path.stem if path.parent == GAMES else str(path)
        game = slotmath.load_game(path)
        why = refusal(game)
        if why is not None:
            print(f"{name}: not exported: {why}")
            continue
        if args.rounds is not None or args.seed is not None:
            from slotmath.publish.stake import _resimulated

            try:
                game = _resimulated(game, args.rounds, args.seed)
            except ValueError:
                pass  # not a simulated game: its own analysis
        for rounding in args.roundings:
            t = time.perf_counter()
            a = slotmath.analyze(game)  # the baseline: the exact analysis alone, every mode
            _ = [a.rtp, *(m.rtp for m in a.modes.values())]
            base = time.perf_counter() - t
            peak_analysis = _peak_mb()
            with tempfile.TemporaryDirectory() as tmp:
                t = time.perf_counter()
                e = export_stake(game, Path(tmp) / "out", rounding=rounding, search=search)
                took = time.perf_counter() - t
            steps = ", ".join(f"{k} {v:.2f}" for k, v in e.seconds.items() if k != "total")
            print(f"{name} [{rounding}]: export {took:.2f} s ({steps}); analysis alone "
                  f"{base:.2f} s; ratio {took / base:.1f}x; load average "
                  f"{' '.join(f'{x:.2f}' for x in os.getloadavg())}")
            print("    sizes: " + ", ".join(f"{k} {v:,} B" for k, v in e.sizes.items()))
            print(f"    peak RSS of the process: {peak_analysis:.0f} MB after the analysis "
                  f"alone, {_peak_mb():.0f} MB after the export")
            for r in e.report["modes"]:
                if "simulated" in r:  # a law from a seeded simulation (publish.grid)
                    sim = r["simulated"]
                    print(f"    [{r['mode']}] rows {r['table']['rows']} (all with a book: "
                          f"{r['books']['count']}), weights the counts of {sim['rounds']:,} "
                          f"rounds (seed {sim['seed']}); table RTP - simulated RTP "
                          f"{r['rtp_change']['total']['float']:+.3e}; simulated RTP "
                          f"{sim['rtp_estimate']['float']:.6f}, standard error "
                          f"{sim['std_error']:.2e}; replaying the rounds "
                          f"{sim['replay_seconds']:.1f} s; books {r['books']['by_kind']}")
                    continue
                change = r["rtp_change"]["total"]
                exact = change["exact"]
                print(f"    [{r['mode']}, cost {r['cost_exact']}] rows {r['table']['rows']}, "
                      f"total weight {r['table']['total_weight_bits']} bits, exact weights "
                      f"{r['table']['exact_weights']}; table RTP - exact RTP "
                      f"{change['float']:+.3e}"
                      + (f" (exactly {exact})" if exact and len(exact) < 40 else "")
                      + f"; bound {r['rtp_error_bound']:.3e}; exact RTP "
                      f"{r['exact_rtp']['float']:.10f}; books {r['books']['by_kind']}, rows "
                      f"without a book {r['rows_without_a_book']['rows']} (probability "
                      f"{r['rows_without_a_book']['probability']['float']:.2e}, RTP change "
                      f"{r['rtp_change']['rows_without_a_book']['float']:+.3e})")
                s = r["books"].get("search")
                if s is not None:
                    print(f"    [{r['mode']}] books from a seeded search: {s['rounds']:,} rounds "
                          f"(seed {s['seed']}), {s['distinct_wins']:,} distinct wins, search "
                          f"{s['search_seconds']:.1f} s, played again {s['replay_seconds']:.1f} "
                          f"s; law rows {r['law']['amounts']:,}; table RTP - exact RTP made of: "
                          + ", ".join(f"{k} {v['float']:+.3e}"
                                      for k, v in r["rtp_change"].items()))
    print(f"load average {os.getloadavg()}")


def _peak_mb() -> float:
    """The peak resident memory of this process so far (MB)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


if __name__ == "__main__":
    main()
