"""PAR reports of Gold Money Frog: file sizes and the time to produce them, levels 1 and 4.

For each level prints, side by side: the sizes of the xlsx workbook and the HTML file, and
the time of each step on a fresh analysis (the analysis itself, the report's tables, the
charts, the workbook, the HTML) and their total, which is what ``slotmath report FILE
--bet-level N --xlsx OUT.xlsx --html OUT.html`` spends (the tables and charts are shared by the
two files). The numba cache and matplotlib's fonts are loaded by a warm-up first, so level 1
is not charged for them.

Run: ``python benchmarks/bench_reports.py [--out FOLDER]`` (default: a temporary folder).
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

import slotmath
from slotmath.io.output import write_files
from slotmath.report.charts import chart_images
from slotmath.report.html import html_text
from slotmath.report.sheets import par_sheets
from slotmath.report.workbook import workbook_bytes

GAME = Path(__file__).resolve().parents[1] / "data/games/gold_money_frog.toml"


class Clock:
    """Seconds since the last call (a lap timer)."""

    def __init__(self):
        self.last = time.perf_counter()

    def lap(self) -> float:
        now = time.perf_counter()
        seconds, self.last = now - self.last, now
        return seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=None, help="folder to keep the files in")
    args = parser.parse_args()
    game = slotmath.load_game(GAME)
    _ = slotmath.analyze(game, 1).components  # warm-up: numba cache, imports
    chart_images(slotmath.analyze(slotmath.load_game(GAME.with_name("tiny_lines.toml"))))  # fonts
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(args.out or tmp)
        print(f"{'level':>5} {'xlsx KB':>8} {'html KB':>8} {'analysis s':>10} {'tables s':>8} "
              f"{'charts s':>8} {'xlsx s':>7} {'html s':>7} {'total s':>8}")
        for level in (1, 4):
            clock, t = Clock(), {}
            a = slotmath.analyze(game, level)
            _ = a.components, a.rtp, a.features["max_win_cap"], a.std_total, a.distribution, a.win_sizes
            t["analysis"] = clock.lap()
            sheets = par_sheets(a)
            t["tables"] = clock.lap()
            charts = chart_images(a)
            t["charts"] = clock.lap()
            xlsx = workbook_bytes(a, charts, sheets)
            t["xlsx"] = clock.lap()
            html = html_text(a, charts, sheets).encode("utf-8")
            t["html"] = clock.lap()
            paths = out / f"gold_money_frog_{level}.xlsx", out / f"gold_money_frog_{level}.html"
            write_files({"xlsx": (paths[0], xlsx), "html": (paths[1], html)})
            total = sum(t.values()) + clock.lap()
            print(f"{level:>5} {paths[0].stat().st_size / 1024:>8.0f} "
                  f"{paths[1].stat().st_size / 1024:>8.0f} {t['analysis']:>10.2f} "
                  f"{t['tables']:>8.2f} {t['charts']:>8.2f} {t['xlsx']:>7.2f} {t['html']:>7.2f} "
                  f"{total:>8.2f}")
        print(f"{len(charts)} charts per level; files in {out if args.out else '(temporary)'}")


if __name__ == "__main__":
    main()
