"""The HTML report as a lab reads it (issue 23 item 7): percentages where a PAR sheet has them,
"1 in N" with thousands separators, long exact fractions folded, hit laws in words.

Each figure shown is read back from the HTML's visible text (the standard library's parser,
not the writer's code) and compared with the analysis; the whole value each cell carries
(``data-value``) is compared too, so nothing is lost on the way. Whether the folded fractions
keep the error and method columns on the screen is measured in a browser
(tests/browser/test_html_report.py).
"""

from __future__ import annotations

import io
import re
from fractions import Fraction
from html.parser import HTMLParser
from pathlib import Path

import openpyxl
import pandas as pd
import pytest

import slotmath
from slotmath.report import par_sheet_text
from slotmath.report.figures import figure_row, figure_table
from slotmath.report.html import html_text
from slotmath.report.sheets import Sheet, par_sheets
from slotmath.report.workbook import workbook_bytes

GAMES = Path(__file__).resolve().parents[1] / "data" / "games"

#: A one-line game with a bonus wheel and one progressive jackpot (numerical RTP, with an
#: error bound), analysed in a second.
TINY_JACKPOT = """
name = "Tiny Jackpot"
rows = 1
bet = 1
bet_levels = [1, 2]
coin_value = 1
paylines = [[0, 0, 0]]
symbols = { A = { pays = { 3 = 5 } }, B = { bonus = true }, X = {} }
reels = { base = [["A", "B", "X"], ["A", "B", "X"], ["A", "B", "X"]] }
bonus_wheel = { symbol = "B", prizes = [1], weights = [1], jackpots = ["MINI"] }
jackpots = [{ name = "MINI", seed = 5, contribution = 0.05, law = "linear", rate = 0.01 }]
"""


class Shown(HTMLParser):
    """Every table of an HTML document by its title: rows of cells, each cell as
    ``(visible text, its data-value or None, the text inside a <details> fold)``."""

    def __init__(self):
        super().__init__()
        self.tables: dict[str, list[list[tuple[str, str | None, str]]]] = {}
        self._cell = None
        self._in_fold = 0
        self._in_summary = False

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "table":
            self._rows = self.tables.setdefault(attrs["data-title"], [])
        elif tag == "tr":
            self._rows.append([])
        elif tag in ("td", "th"):
            self._cell = {"text": [], "value": attrs.get("data-value"), "folded": []}
        elif tag == "details":
            self._in_fold += 1
        elif tag == "summary":
            self._in_summary = True

    def handle_endtag(self, tag):
        if tag in ("td", "th"):
            c = self._cell
            self._rows[-1].append(("".join(c["text"]), c["value"], "".join(c["folded"])))
            self._cell = None
        elif tag == "details":
            self._in_fold -= 1
        elif tag == "summary":
            self._in_summary = False

    def handle_data(self, data):
        if self._cell is None:
            return
        if self._in_fold and not self._in_summary:
            self._cell["folded"].append(data)  # shown only when the fold is opened
        else:
            self._cell["text"].append(data)


def shown_tables(text: str) -> dict[str, dict[str, dict[str, tuple]]]:
    """Figure tables (first column ``figure``) as title -> figure -> column -> cell."""
    reader = Shown()
    reader.feed(text)
    out = {}
    for title, rows in reader.tables.items():
        header = [c[0] for c in rows[0]]
        if header[0] == "figure":
            out[title] = {r[0][0]: dict(zip(header, r)) for r in rows[1:]}
    return out


def percent_digits(shown: str) -> tuple[float, int]:
    """A percentage as shown: its value as a fraction of 1 and its significant digits."""
    match = re.fullmatch(r"(-?\d+\.\d+)%", shown)
    assert match, f"not a percentage with decimals: {shown!r}"
    digits = len(match.group(1).lstrip("-0.").replace(".", ""))
    return float(match.group(1)) / 100, digits


@pytest.fixture(scope="module")
def tiny_jackpot():
    return slotmath.analyze(slotmath.loads_game(TINY_JACKPOT))


def test_the_rtp_and_its_parts_read_in_percent_beside_the_exact_fraction():
    """Tiny Lines: RTP 411/448 = 91.741071...%; every share of the bet and probability of
    the headline figures in percent, 8 significant digits, the exact fraction beside."""
    a = slotmath.analyze(slotmath.load_game(GAMES / "tiny_lines.toml"))
    figures = shown_tables(html_text(a, charts=[]))["Headline figures"]
    expected = {"RTP": a.rtp, "hit frequency": a.hit_frequency,
                "base-spin hit frequency": a.base_hit_frequency,
                "max win: probability": a.top_award.probability}
    expected |= {f"RTP: {name}": value for name, value in a.components.items()}
    for name, value in expected.items():
        row = figures[name]
        shown, digits = percent_digits(row["value"][0])
        assert digits >= 7, row  # 8 significant digits, the last one may be a 0 dropped
        assert abs(shown - float(value)) <= 0.5e-8 * max(1, 100 * float(value)), row
        assert row["exact"][0] == str(Fraction(value)), row
        assert row["error"][0] == "0", row
        assert float(row["value"][1]) == float(value), row  # the whole decimal, kept
    assert figures["RTP"]["value"][0] == "91.741071%"  # 411/448 by hand: 0.917410714...


def test_one_in_n_reads_with_thousands_separators():
    """Classic 3-reel: the top award is 1 in 665,028 paid spins (not "665028.0")."""
    a = slotmath.analyze(slotmath.load_game(GAMES / "classic_3reel.toml"))
    figures = shown_tables(html_text(a, charts=[]))["Headline figures"]
    n = 1 / a.top_award.probability
    assert n.denominator == 1
    assert figures["max win: 1 in"]["value"][0] == f"1 in {n.numerator:,}" == "1 in 665,028"
    assert figures["full cycle (paid spin)"]["value"][0] == f"{a.base_table.cycle:,}"
    hit = figures["hit frequency: 1 in"]["value"][0]
    assert re.fullmatch(r"1 in \d+\.\d+", hit) and abs(
        float(hit[5:]) - float(1 / a.hit_frequency)) < 1e-6


def test_a_numerical_rtp_reads_in_percent_with_its_bound_in_points(tiny_jackpot):
    """A jackpot game's RTP has no exact fraction: its percentage and its error bound in
    percentage points, rounded up (it stays a bound)."""
    a = tiny_jackpot
    row = shown_tables(html_text(a, charts=[]))["Headline figures"]["RTP"]
    shown, _ = percent_digits(row["value"][0])
    assert abs(shown - a.rtp_float) <= 0.5e-8 and row["exact"][0] == ""
    bound = re.fullmatch(r"(\d\.\de-?\d+)%", row["error"][0])
    assert bound, row
    assert a.rtp_error * 100 <= float(bound.group(1)) <= a.rtp_error * 100 * 1.1
    assert float(row["error"][1]) == a.rtp_error


def test_hit_laws_read_in_words_in_every_report(tiny_jackpot):
    """The hit law of a pool is said in words (no ``LinearLaw(rate=0.01)``), the same in the
    HTML, the workbook and the text sheet."""
    a = tiny_jackpot
    words = "pool x 0.01 per wheel spin, at most 1"
    law = "hit law (linear, at this bet level)"
    row = shown_tables(html_text(a, charts=[]))["Jackpot MINI"][law]
    assert row["method"][0] == words
    book = openpyxl.load_workbook(io.BytesIO(workbook_bytes(a, charts=[])))
    cells = [[c for c in r if c is not None] for r in book["Features"].iter_rows(values_only=True)]
    assert [law, words] in cells
    text = par_sheet_text(a)
    assert words in text and "Law(" not in text
    for sheet in par_sheets(a):
        for _, frame in sheet.tables:
            assert not frame.astype(str).apply(lambda c: c.str.contains(r"Law\(")).any().any()


def test_long_fractions_are_folded_with_the_whole_text_a_click_away():
    """A 600-digit fraction shows its first digits and how many there are; the whole text is
    in a <details> fold (and the cell's data-value), so it does not widen the table."""
    numerator, denominator = 7 ** 700 + 1, 3 ** 1300
    value = Fraction(numerator, denominator)
    long, short = str(value), Fraction(3, 8)
    sheet = Sheet("Summary", (("Headline figures", figure_table([
        figure_row("RTP", value), figure_row("hit frequency", short)])),))
    a = slotmath.analyze(slotmath.load_game(GAMES / "tiny_lines.toml"))
    text = html_text(a, charts=[], sheets=(sheet,))
    figures = shown_tables(text)["Headline figures"]
    cell = figures["RTP"]["exact"]
    assert len(long) > 1000
    assert len(cell[0]) <= 60, cell[0]  # what shows folded: short
    assert cell[0].startswith(long[:10]) and f"{sum(c.isdigit() for c in long):,} digits" in cell[0]
    assert cell[2] == long and cell[1] == long  # a click away, and kept whole
    assert figures["hit frequency"]["exact"] == ("3/8", None, "")  # a short one as it is
    assert "<script" not in text and "http" not in text  # still self-contained


def test_other_tables_read_shares_in_percent_and_one_in_grouped():
    """Win sizes and pay tables: probabilities and RTP shares in percent, "1 in N" grouped."""
    frame = pd.DataFrame({"band": ["0", "(0, 1]"], "probability": [0.75, 0.25],
                          "probability_exact": ["3/4", "1/4"], "probability_error": [0.0, 1e-13],
                          "one_in": [4 / 3, 4.0], "rtp_share": [0.0, 0.125],
                          "hits": [1234567, 89]})
    frame.loc[2] = [">1", 0.0, "0", 0.0, float("inf"), 0.0, 0]  # a band never reached
    sheet = Sheet("Win sizes", (("Win sizes", frame),))
    a = slotmath.analyze(slotmath.load_game(GAMES / "tiny_lines.toml"))
    reader = Shown()
    reader.feed(html_text(a, charts=[], sheets=(sheet,)))
    header, *rows = reader.tables["Win sizes"]
    shown = [dict(zip([h[0] for h in header], [c[0] for c in r])) for r in rows]
    assert shown[1] == {"band": "(0, 1]", "probability": "25.000000%", "probability_exact": "1/4",
                        "probability_error": "1.0e-11%", "one_in": "1 in 4",
                        "rtp_share": "12.500000%", "hits": "89"}
    assert shown[0]["hits"] == "1,234,567" and shown[0]["one_in"] == "1 in 1.3333333"
    assert shown[2]["one_in"] == "never" and shown[2]["probability"] == "0%"
