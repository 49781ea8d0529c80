"""The HTML report in Chromium (issue 23 item 7): an exact fraction hundreds of digits long
pushed the error and method columns off the screen. Folded, every column of the table stays
within the window; opened, the whole fraction wraps inside its cell.

The report is written from a figure table whose RTP is a fraction of 1,300 digits (a cascade
game's can be longer: Frozen Gems has 2,132), beside a bundled game's own tables.
"""

from __future__ import annotations

from fractions import Fraction

import slotmath
from browser import servers
from slotmath.report.figures import figure_row, figure_table
from slotmath.report.html import html_text
from slotmath.report.sheets import Sheet, par_sheets

#: the window the suite's pages have (tests/browser/conftest.py)
WIDTH = 1500


def report(tmp_path) -> str:
    long = Fraction(7 ** 700 + 1, 3 ** 1300)
    headline = figure_table([
        figure_row("RTP", long, 0.0, "exact: a cascade chain of every refill, followed to "
                                     "its end, written as one fraction of the full cycle"),
        figure_row("hit frequency", Fraction(3, 8)),
        figure_row("SD (x bet)", 2.5, 1e-15, "float64 square root of the exact variance")])
    a = slotmath.analyze(slotmath.load_game(servers.REPO / "data" / "games" / "tiny_lines.toml"))
    sheets = (Sheet("Summary", (("Headline figures", headline),)), *par_sheets(a)[1:])
    path = tmp_path / "report.html"
    path.write_text(html_text(a, charts=[], sheets=sheets), encoding="utf-8")
    return path.as_uri()


def right_edges(page, title: str) -> dict[str, float]:
    """The right edge (px) of each column's header in the table called ``title``, and of the
    page's visible width."""
    return page.evaluate("""title => {
      const table = document.querySelector(`table[data-title="${title}"]`);
      const out = {window: document.documentElement.clientWidth,
                   table: table.getBoundingClientRect().right};
      for (const th of table.querySelectorAll('th')) out[th.textContent] =
        th.getBoundingClientRect().right;
      return out;
    }""", title)


def test_long_fractions_keep_every_column_on_the_screen(page, tmp_path):
    page.goto(report(tmp_path))
    edges = right_edges(page, "Headline figures")
    assert edges["window"] == WIDTH
    for column in ("figure", "value", "exact", "error", "method"):
        assert edges[column] <= edges["window"], (column, edges)
    # opened, the whole fraction wraps within its cell: the columns stay on the screen
    fold = page.locator('table[data-title="Headline figures"] td.exact details').first
    fold.locator("summary").click()
    assert fold.evaluate("d => d.open")
    whole = fold.locator("div")
    assert len(whole.inner_text().replace("\n", "")) > 1000
    edges = right_edges(page, "Headline figures")
    assert all(edges[c] <= edges["window"] for c in ("error", "method")), edges
    assert page.evaluate("() => document.documentElement.scrollWidth") <= WIDTH
