"""PAR reports: the xlsx workbook and the HTML file, reopened and compared with the analysis.

Both files are read back with tools that share no code with the writers (openpyxl's reader,
the standard library's HTML parser) into the same shape, title -> rows, and one set of checks
compares every figure with the :class:`~slotmath.analysis.Analysis` itself (its exact
fractions, the direct method's hit counts, the model's reel strips), not with the frames the
reports were made from. Exact figures must be equal as text, decimals within 1e-12.
"""

from __future__ import annotations

import io
import math
import os
from collections import Counter
from fractions import Fraction
from functools import cache
from html.parser import HTMLParser
from pathlib import Path

import openpyxl
import pytest
from bundled import ANALYSED, analysed

import slotmath
from slotmath.cli import main
from slotmath.model.edit import replace_reel, with_symbol_count
from slotmath.report.charts import chart_images
from slotmath.report.html import html_text
from slotmath.report.sheets import par_sheets
from slotmath.report.workbook import workbook_bytes
from slotmath.stats.interval import rtp_intervals

GAMES = Path(__file__).resolve().parents[1] / "data" / "games"
BUNDLED = ANALYSED  # (tests/bundled.py)
TOL = 1e-12


def analysis(name: str, level: int = 1):
    return analysed(GAMES / name, level)  # (one per session: tests/bundled.py)


@cache
def reports(name: str, level: int = 1):
    """(workbook bytes, html text, number of charts) of a bundled game, rendered once."""
    a = analysis(name, level)
    sheets, charts = par_sheets(a), chart_images(a)
    return workbook_bytes(a, charts, sheets), html_text(a, charts, sheets), len(charts)


# -- reading the files back ---------------------------------------------------------------------
def workbook_tables(data: bytes) -> dict[str, dict[str, list[dict]]]:
    """sheet -> table title -> rows (dicts by header); a sheet's notes under "Notes"."""
    book = openpyxl.load_workbook(io.BytesIO(data))
    out = {}
    for ws in book:
        if ws.title == "Charts":
            continue
        rows = list(ws.iter_rows(min_row=3, values_only=True))
        tables: dict[str, list] = {}
        blocks, block = [], []
        for row in [*rows, ()]:
            values = list(row)
            while values and values[-1] is None:
                values.pop()
            if not values:
                if block:
                    blocks.append(block)
                block = []
            else:
                block.append(values)
        for block in blocks:
            title = block[0][0]
            assert len(block[0]) == 1, f"{ws.title}: a table starts with its title alone"
            if title == "Notes":
                tables["Notes"] = [b[0] for b in block[1:]]
                continue
            header = block[1]
            tables[title] = [dict(zip(header, r + [None] * (len(header) - len(r))))
                             for r in block[2:]]
        out[ws.title] = tables
    return out


class _Reader(HTMLParser):
    """Tables (by caption), images and every URL-bearing attribute of an HTML document."""

    def __init__(self):
        super().__init__()
        self.tables: dict[str, list[list[str]]] = {}
        self.images: list[str] = []
        self.urls: list[str] = []
        self.tags: Counter = Counter()
        self._table = self._row = self._cell = None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        self.tags[tag] += 1
        for key in ("src", "href"):
            if key in attrs:
                self.urls.append(attrs[key])
        if tag == "img":
            self.images.append(attrs["src"])
        if tag == "table":
            self._table = []
            self.tables[attrs["data-title"]] = self._table
        elif tag == "tr":
            self._row = []
            self._table.append(self._row)
        elif tag in ("td", "th"):
            self._cell = []
            self._whole = attrs.get("data-value")  # the whole value of a cell shown rounded

    def handle_endtag(self, tag):
        if tag in ("td", "th"):
            self._row.append("".join(self._cell) if self._whole is None else self._whole)
            self._cell = None

    def handle_data(self, data):
        if self._cell is not None:
            self._cell.append(data)


def html_tables(text: str) -> tuple[dict[str, list[dict]], _Reader]:
    reader = _Reader()
    reader.feed(text)
    tables = {title: [dict(zip(rows[0], r)) for r in rows[1:]]
              for title, rows in reader.tables.items()}
    return tables, reader


def number(value) -> float:
    """A decimal as read back: a number, or the text of one ("inf" included)."""
    assert value is not None and value != "", "a decimal is missing"
    return float(value)


def close(value, expected) -> bool:
    return math.isclose(number(value), float(expected), rel_tol=TOL, abs_tol=1e-300)


def blank(value) -> bool:
    return value is None or value == ""


# -- the checks, one per sheet, against the analysis ----------------------------------------------
def by_figure(rows):
    return {r["figure"]: r for r in rows}


def check_exact(row, value):
    assert row["exact"] == str(Fraction(value)), row
    assert close(row["value"], value), row
    assert number(row["error"]) == 0.0, row


def check_numerical(row, value, error):
    assert blank(row["exact"]), row
    assert close(row["value"], value), row
    assert close(row["error"], error), row


def check_simulated_summary(a, figures):
    """A simulated game's headline rows: each is its simulated figure with the 95 %
    half-width it states, read off the simulation's own interval."""
    for name, value in [("hit frequency", a.hit_frequency),
                        ("base-spin hit frequency", a.base_hit_frequency)]:
        row = figures[name]
        lo, hi = value.interval()
        assert blank(row["exact"]) and close(row["value"], value), row
        assert close(row["error"], (hi - lo) / 2) and row["method"].startswith("simulated: ")
    assert close(figures["SD (x bet)"]["value"], math.sqrt(a.variance))
    for level in (0.90, 0.95):
        assert close(figures[f"volatility index {level:.0%}"]["value"], a.volatility_index(level))


def check_summary(a, tables):
    figures = by_figure(tables["Headline figures"])
    if a.exact:
        check_exact(figures["RTP"], a.rtp)
    else:
        check_numerical(figures["RTP"], a.rtp, a.rtp_error)
        # numerical: a bound (float64 methods) or a simulated interval (tests/bundled.py)
        assert "numerical" in figures["RTP"]["method"] or (
            figures["RTP"]["method"].startswith("simulated: ")
            and f"{a.game.analysis.rounds:,} rounds" in figures["RTP"]["method"])
    for name, value in a.components.items():
        row = figures[f"RTP: {name}"]
        if isinstance(value, (int, Fraction)):
            check_exact(row, value)
        elif value == 0 and row["method"].startswith("simulated: "):  # no round played it
            assert blank(row["exact"]) and number(row["error"]) == 0, row
        else:
            assert blank(row["exact"]) and close(row["value"], value) and number(row["error"]) > 0
    if a.game.analysis is not None and a.game.analysis.rounds is not None:
        return check_simulated_summary(a, figures)  # a simulated game (tests/bundled.py)
    check_exact(figures["hit frequency"], a.hit_frequency)
    check_exact(figures["hit frequency: 1 in"], 1 / a.hit_frequency)
    check_exact(figures["base-spin hit frequency"], a.base_hit_frequency)
    if isinstance(a.variance, Fraction):
        check_exact(figures["variance (x bet squared)"], a.variance)
    else:  # a numerical round feature (hold & win on a large grid): a float, no exact text
        row = figures["variance (x bet squared)"]
        assert blank(row["exact"]) and close(row["value"], a.variance), row
    sd = figures["SD (x bet)"]
    assert blank(sd["exact"]) and close(sd["value"], math.sqrt(a.variance))
    assert 0 < number(sd["error"]) < 1e-12
    check_exact(figures["max win of the paid spin (x bet)"], a.top_award.multiple)
    check_exact(figures["max win: probability"], a.top_award.probability)
    check_exact(figures["full cycle (paid spin)"], a.base_table.cycle)
    for level in (0.90, 0.95):
        assert close(figures[f"volatility index {level:.0%}"]["value"], a.volatility_index(level))
    if "jackpots" in a.features:
        row = figures["SD of the whole return (x bet)"]
        assert close(row["value"], a.std_total) and blank(row["error"])
        assert "approximation" in row["method"]
        check_exact(figures["coin round RTP (every prize paid, no cap)"], a.round.mean)
    game = {r["item"]: r["value"] for r in tables["Game"]}
    assert game["game"] == a.game.name and int(game["bet level"]) == a.level
    assert int(game["total bet (coins)"]) == a.game.total_bet(a.level)
    notes = " ".join(tables["Notes"])
    assert "Exact:" in notes and "Numerical:" in notes
    if not a.exact:
        assert f"the RTP (error <= {a.rtp_error:.1e})" in notes


def check_pays(a, tables):
    d = a.features["pays"].direct
    rows = tables["Pay table (hits over the full cycle)"]
    assert len(rows) == len(d.pays)
    total = Fraction(0)
    for row, p in zip(rows, d.pays):
        assert row["symbol"] == p.key and int(row["count"]) == p.count
        assert int(row["hits"]) == p.hits
        assert row["pay_exact"] == str(Fraction(p.credits, d.credits_per_bet))
        assert close(row["pay_x_bet"], Fraction(p.credits, d.credits_per_bet))
        assert row["hits_per_spin_exact"] == str(Fraction(p.hits, d.cycle))
        assert close(row["hits_per_spin"], Fraction(p.hits, d.cycle))
        rtp = Fraction(p.total_credits, d.cycle * d.credits_per_bet)
        assert row["rtp_exact"] == str(rtp) and close(row["rtp"], rtp)
        total += Fraction(row["rtp_exact"])
    window = "ways" if d.kind == "ways" else "lines"
    assert total == a.components[window]  # the contributions add up to the component exactly
    scatters = tables.get("Scatters (count anywhere in the window)", [])
    expected = [(name, c, w) for name, counts in d.scatter_counts.items()
                for c, w in sorted(counts.items())]
    assert [(r["symbol"], int(r["count"]), int(r["weight"])) for r in scatters] == expected
    if expected:
        assert sum(Fraction(r["rtp_exact"]) for r in scatters) == a.components["scatter"]
        for r, (_, _, w) in zip(scatters, expected):
            assert r["probability_exact"] == str(Fraction(w, d.cycle))


def check_reels(a, tables):
    for name, reel_set in a.game.reel_sets.items():
        counts = {r["symbol"]: r for r in tables[f"{name}: symbol counts per reel"]}
        strips = tables[f"{name}: strips (top to bottom)"]
        weighted = any(r.weights is not None for r in reel_set.reels)
        for i, reel in enumerate(reel_set.reels, 1):
            expected = Counter(reel.symbols)
            shown = {s: int(r[f"reel {i}"]) for s, r in counts.items() if s != "total"}
            assert {s: n for s, n in shown.items() if n} == dict(expected)
            assert int(counts["total"][f"reel {i}"]) == len(reel)
            assert [r[f"reel {i}"] for r in strips[:len(reel)]] == list(reel.symbols)
            assert all(blank(r[f"reel {i}"]) for r in strips[len(reel):])
            if weighted:
                weights = Counter()
                for s, w in zip(reel.symbols, reel.stop_weights):
                    weights[s] += w
                assert {s: int(r[f"reel {i} weight"]) for s, r in counts.items()
                        if s != "total" and int(r[f"reel {i} weight"])} == dict(weights)
                assert [int(r[f"reel {i} weight"]) for r in strips[:len(reel)]] == list(
                    reel.stop_weights)
            else:
                assert f"reel {i} weight" not in counts["total"]


def check_win_sizes(a, tables):
    (rows,) = tables.values() if "Notes" not in tables else [
        v for k, v in tables.items() if k != "Notes"]
    assert [r["band"] for r in rows] == [w.label for w in a.win_sizes]
    for row, w in zip(rows, a.win_sizes):
        assert close(row["probability"], w.probability) and close(row["rtp_share"], w.rtp_share)
        if a.distribution_exact:
            assert row["probability_exact"] == str(w.probability)
            assert row["rtp_share_exact"] == str(w.rtp_share)
            assert number(row["probability_error"]) == 0.0
        else:
            assert blank(row["probability_exact"]) and blank(row["rtp_share_exact"])
            assert number(row["probability_error"]) >= 1e-12
    if a.distribution_exact:
        assert sum(Fraction(r["probability_exact"]) for r in rows) == 1
        assert sum(Fraction(r["rtp_share_exact"]) for r in rows) == a.round.mean


def check_confidence(a, tables):
    rows = tables["RTP confidence intervals"]
    assert [int(r["spins"]) for r in rows] == [10**k for k in range(3, 9)]
    found = rtp_intervals(a, [10**k for k in range(3, 9)], (0.90, 0.95))  # >= 0 (issue 12)
    for row in rows:
        n = int(row["spins"])
        (lo90, hi90), (lo95, hi95) = [(found[n, c].lower, found[n, c].upper)
                                      for c in (0.90, 0.95)]
        assert close(row["lower_90"], lo90) and close(row["upper_90"], hi90)
        assert close(row["lower_95"], lo95) and close(row["upper_95"], hi95)
        assert number(row["error"]) >= a.rtp_error


def check_features(a, tables):
    fs = a.features.get("free_spins")
    if a.game.free_spins is None:
        assert not any(t.startswith("Free spins") for t in tables)
    elif not fs.trigger_probability:
        row = by_figure(tables["Free spins: figures"])["trigger probability"]
        assert number(row["value"]) == 0 and "never" in row["method"]
    else:
        figures = by_figure(tables["Free spins: figures"])
        check_exact(figures["trigger probability"], fs.trigger_probability)
        check_exact(figures["spins per feature"], fs.expected_spins)
        check_exact(figures["win per feature (x bet)"], fs.expected_win)
        check_exact(figures["RTP contribution"], a.components["free_spins"])
    wheel = a.game.bonus_wheel
    titles = [t for t in tables if t.startswith("Bonus wheel: divisions")]
    if wheel is None:
        assert not titles
    else:
        (title,) = titles
        rows = tables[title]
        outcomes = a.features["bonus_wheel"].outcomes()
        assert [r["division"] for r in rows] == [o["division"] for o in outcomes]
        for row, o in zip(rows, outcomes):
            assert close(row["probability"], o["probability"])
            if isinstance(o["probability"], Fraction):
                assert row["probability_exact"] == str(o["probability"])
            if o["prize"] is not None:
                assert row["prize_exact"] == str(o["prize"])
        figures = by_figure(tables["Bonus wheel: figures"])
        check_exact(figures["mean coin prize per wheel spin (x bet, all divisions coins)"],
                    wheel.mean)
        for label, mean in a.features["bonus_wheel"].spins_per_spin.items():
            check_exact(figures[f"wheel spins per {label} spin"], mean)
    j = a.features.get("jackpots")
    if j is None:
        assert not any(t.startswith("Jackpot") for t in tables)
    else:
        for name, p in j.pools.items():
            figures = by_figure(tables[f"Jackpot {name}"])
            spec = a.game.jackpot(name)
            check_exact(figures["seed (currency)"], spec.seed)
            check_exact(figures["contribution (share of the bet)"], spec.contribution)
            check_exact(figures["contribution part of the RTP"], p.contribution_rtp)
            check_numerical(figures["RTP contribution"], p.rtp_contribution,
                            p.error_bounds["rtp_contribution"])
            check_numerical(figures["rounds between hits (1 in)"], p.mean_rounds_between_hits,
                            p.error_bounds["mean_rounds_between_hits"])
            check_numerical(figures["mean value at hit (currency)"], p.hit_value_mean,
                            p.error_bounds["hit_value_mean"])
            check_numerical(figures["hit probability per wheel spin"],
                            p.expected_hit_probability_per_spin,
                            p.error_bounds["expected_hit_probability_per_spin"])
            check_numerical(figures["mean pool (currency)"], p.mean_pool,
                            p.error_bounds["mean_pool"])
            assert close(figures["hits per round"]["value"], p.hits_per_round)
            assert close(figures["mean value at hit (x bet)"]["value"],
                         p.hit_value_mean / float(j.bet_value))
        assert len([t for t in tables if t.startswith("Jackpot ")]) == len(j.pools)
    cap = a.features.get("max_win_cap")
    titles = [t for t in tables if t.startswith("Max-win cap")]
    if cap is None:
        assert not titles
    else:
        figures = by_figure(tables[titles[0]])
        check_exact(figures["cap (x bet)"], cap.cap_bets)
        check_exact(figures["cap (coins)"], cap.cap_coins)
        if cap.exact:
            check_exact(figures["RTP removed"], cap.effect)
        else:
            check_numerical(figures["RTP removed"], cap.effect, cap.error)


def check_modes(a, tables):
    """Each game mode's row: its cost and its RTP per amount wagered, exact where it is, as
    ``analysis.modes[NAME]`` gives them (the standard game's as the analysis' own)."""
    rows = {r["mode"]: r for r in tables["Game modes"]}
    assert set(rows) == {"(standard)", *a.modes}
    for name, row in rows.items():
        m = a if name == "(standard)" else a.modes[name]
        assert close(row["rtp"], m.rtp), row
        if m.exact:
            assert row["rtp_exact"] == str(Fraction(m.rtp)), row
    for mode in a.game.modes:
        assert close(rows[mode.name]["cost_x_bet"], mode.cost)


CHECKS = {"Summary": check_summary, "Pay table": check_pays, "Reel strips": check_reels,
          "Win sizes": check_win_sizes, "Confidence": check_confidence,
          "Features": check_features, "Modes": check_modes}


def has_features(a) -> bool:
    return any(f.tables is not None and f.name != "pays" for f in a.declared)


def check_simulated_pays(a, tables):
    (title,) = [t for t in tables if t.startswith("Pay table")]
    rows, window = tables[title], a.features["pays"]
    assert [(r["symbol"], int(r["count"])) for r in rows] == [
        (p.symbol, p.count) for p in window.pays]
    for r, p in zip(rows, window.pays):
        assert blank(r["rtp_exact"]) and close(r["rtp"], p.rtp)
    # the kernel's per-entry counters against its first drop's total
    assert sum(number(r["rtp"]) for r in rows) == pytest.approx(
        float(a.components[window.kind]), rel=1e-9)


def check_simulated_win_sizes(a, tables):
    (rows,) = [v for k, v in tables.items() if k != "Notes"]
    assert [r["band"] for r in rows] == [w.label for w in a.win_sizes]
    for row, w in zip(rows, a.win_sizes):
        assert close(row["probability"], w.probability) and close(row["rtp_share"], w.rtp_share)
        assert blank(row["probability_exact"]) and blank(row["rtp_share_exact"])
        lo, hi = w.probability.interval()
        assert close(row["probability_lower_95"], lo) and close(row["probability_upper_95"], hi)
    assert sum(number(r["probability"]) for r in rows) == pytest.approx(1, abs=1e-12)
    # the bands' shares (counted per band) add up to the RTP (the round totals)
    assert sum(number(r["rtp_share"]) for r in rows) == pytest.approx(float(a.rtp), rel=1e-9)


def check_simulated_features(a, tables):
    (title,) = [t for t in tables if t.endswith("simulated figures (95% intervals)")]
    rows = by_figure(tables[title])
    for name, value in [("rtp", a.rtp), ("hit_frequency", a.hit_frequency)]:
        assert close(rows[name]["value"], value)
        lo, hi = value.interval()
        assert close(rows[name]["lower_95"], lo) and close(rows[name]["upper_95"], hi)
    for row in rows.values():
        assert int(row["rounds"]) == a.game.analysis.rounds
        if not any(blank(row[k]) for k in ("lower_95", "value", "upper_95")):  # (a largest)
            assert number(row["lower_95"]) <= number(row["value"]) <= number(row["upper_95"])


#: a simulated game's sheets (tests/bundled.py): no full cycle, every figure an estimate
SIMULATED_CHECKS = {**CHECKS, "Pay table": check_simulated_pays,
                    "Win sizes": check_simulated_win_sizes, "Features": check_simulated_features}


def check_all(a, sheets: dict[str, dict[str, list]]):
    expected = [s for s in CHECKS if (s != "Features" or has_features(a))
                and (s != "Modes" or a.game.modes)]
    assert list(sheets) == expected
    simulated = a.game.analysis is not None and a.game.analysis.rounds is not None
    for name, tables in sheets.items():
        data = {t: rows for t, rows in tables.items() if t != "Notes"}
        assert data and all(data.values()), f"{name}: an empty table"
        (SIMULATED_CHECKS if simulated else CHECKS)[name](a, tables)


def html_sheets(text: str, sheets_like: dict[str, dict[str, list]]):
    """The HTML's tables grouped like the workbook's sheets (titles are unique per report)."""
    tables, reader = html_tables(text)
    out = {}
    for sheet, titles in sheets_like.items():
        out[sheet] = {t: tables.pop(t) for t in titles if t != "Notes"}
        if "Notes" in titles:
            out[sheet]["Notes"] = titles["Notes"]
            assert all(n in _unescaped(text) for n in titles["Notes"])
    assert not tables, f"tables in the HTML but not the workbook: {list(tables)}"
    return out, reader


def _unescaped(text: str) -> str:
    import html

    return html.unescape(text)


# -- the tests ------------------------------------------------------------------------------------
CASES = [("tiny_lines.toml", 1), ("classic_3reel.toml", 1), ("classic_3reel.toml", 3),
         ("gold_money_frog.toml", 4)]


@pytest.mark.parametrize(("name", "level"), CASES)
def test_workbook_figures_are_the_analysis(name, level):
    a = analysis(name, level)
    data, _, n_charts = reports(name, level)
    check_all(a, workbook_tables(data))
    book = openpyxl.load_workbook(io.BytesIO(data))
    assert book.sheetnames[-1] == "Charts" and len(book["Charts"]._images) == n_charts
    # the three of every game, then each feature's: three per jackpot pool, one of a wheel
    expected = 3 + 3 * len(a.game.jackpots) + (a.game.bonus_wheel is not None)
    expected += 2 * (a.game.hold_and_win is not None)
    assert n_charts == expected


@pytest.mark.parametrize(("name", "level"), CASES)
def test_html_figures_are_the_analysis(name, level):
    a = analysis(name, level)
    data, text, n_charts = reports(name, level)
    sheets, reader = html_sheets(text, workbook_tables(data))
    check_all(a, sheets)
    assert len(reader.images) == n_charts
    # self-contained: every URL is an embedded PNG; no scripts, links or frames
    assert reader.urls and all(u.startswith("data:image/png;base64,") for u in reader.urls)
    assert not {"script", "link", "iframe", "object"} & set(reader.tags)


def test_exact_game_has_no_numerical_figure_and_frog_says_what_is_numerical():
    exact = by_figure(workbook_tables(reports("tiny_lines.toml")[0])["Summary"]
                      ["Headline figures"])
    assert exact["RTP"]["exact"] == "411/448" and exact["RTP"]["method"] == "exact"
    frog = workbook_tables(reports("gold_money_frog.toml", 4)[0])
    notes = " ".join(frog["Summary"]["Notes"])
    assert "jackpot" in notes and "FFT" in notes
    assert by_figure(frog["Summary"]["Headline figures"])["RTP"]["exact"] is None


def test_no_empty_feature_sheets():
    """No features, no Features sheet; free spins only, no wheel / jackpot / cap tables."""
    plain = workbook_tables(reports("classic_3reel.toml")[0])
    assert "Features" not in plain
    free_only = workbook_tables(reports("tiny_lines.toml")[0])["Features"]
    assert sorted(free_only) == ["Free spins: figures", "Free spins: rules"]


def test_unreachable_free_spins_read_never():
    game = slotmath.load_game(GAMES / "tiny_lines.toml")
    reel = game.reel_sets["base"].reels[0]
    game = replace_reel(game, "base", 0, with_symbol_count(reel, "SC", 0))
    a = slotmath.analyze(game)
    tables = workbook_tables(workbook_bytes(a, charts=[]))
    check_all(a, tables)
    row = by_figure(tables["Features"]["Free spins: figures"])["trigger probability"]
    assert row["exact"] == "0" and "never" in row["method"]


def test_unreachable_wheel_reads_never():
    """No BONUS on reel 1: the wheel is never spun, its jackpots never hit; the report says so
    instead of stopping."""
    game = slotmath.load_game(GAMES / "gold_money_frog.toml")
    for reel_set in ("base", "free"):
        reel = game.reel_sets[reel_set].reels[0]
        game = replace_reel(game, reel_set, 0, with_symbol_count(reel, "BONUS", 0))
    a = slotmath.analyze(game, 4)
    assert not a.features["jackpots"].reachable
    tables = workbook_tables(workbook_bytes(a, charts=chart_images(a)))
    check_all(a, tables)
    rows = by_figure(tables["Features"]["Jackpots"])
    assert sorted(rows) == [f"{s.name}: RTP contribution" for s in sorted(
        game.jackpots, key=lambda s: f"{s.name}: RTP contribution")]
    assert all(r["exact"] == "0" and "never" in r["method"] for r in rows.values())


@pytest.mark.parametrize("path", BUNDLED, ids=lambda p: p.stem)
def test_every_bundled_game_makes_both(path):
    game = slotmath.load_game(path)
    if game.conveyor is not None:  # persistent state: no round distribution to report yet
        with pytest.raises(NotImplementedError, match="persistent-state"):
            reports(path.name, game.bet_levels[-1])
        return
    level = game.bet_levels[-1]  # Gold Money Frog at 4 and classic 3-reel at 3 are cached above
    data, text, _ = reports(path.name, level)
    assert data[:2] == b"PK" and text.startswith("<!DOCTYPE html>")
    check_all(analysis(path.name, level), workbook_tables(data))


def test_bundled_games_are_there():
    assert len(BUNDLED) >= 5  # a missing data folder fails here instead of testing nothing


# -- the command ----------------------------------------------------------------------------------
def test_cli_writes_both(tmp_path, capsys):
    xlsx, html_path = tmp_path / "r.xlsx", tmp_path / "r.html"
    game = str(GAMES / "classic_3reel.toml")
    assert main(["report", game, "--bet-level", "3", "--xlsx", str(xlsx),
                 "--html", str(html_path)]) == 0
    a = analysis("classic_3reel.toml", 3)
    check_all(a, workbook_tables(xlsx.read_bytes()))
    sheets, _ = html_sheets(html_path.read_text(encoding="utf-8"),
                            workbook_tables(xlsx.read_bytes()))
    check_all(a, sheets)
    assert sorted(os.listdir(tmp_path)) == ["r.html", "r.xlsx"]  # no temporary file left
    mask = os.umask(0)
    os.umask(mask)
    assert xlsx.stat().st_mode & 0o777 == 0o666 & ~mask  # as open() makes it, not mkstemp's 0600


def test_cli_needs_an_output(capsys):
    assert main(["report", str(GAMES / "tiny_lines.toml")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--xlsx" in err and "--html" in err


@pytest.mark.parametrize("where", ["missing folder", "a folder"])
def test_cli_unwritable_path(tmp_path, capsys, where):
    target = tmp_path / "no" / "r.xlsx" if where == "missing folder" else tmp_path
    html_path = tmp_path / "r.html"
    code = main(["report", str(GAMES / "tiny_lines.toml"), "--xlsx", str(target),
                 "--html", str(html_path)])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and err.startswith("slotmath: error: --xlsx:")
    assert "cannot write" in err and "Traceback" not in err
    assert not html_path.exists()  # checked before anything is written


def test_failed_write_leaves_nothing_half_written(tmp_path, capsys, monkeypatch):
    """The second output fails while being written (disk full): the first, already written
    to its temporary file, is not renamed; the old report stays; no temporary file is left."""
    xlsx, html_path = tmp_path / "r.xlsx", tmp_path / "r.html"
    xlsx.write_bytes(b"the previous report")
    real, opened = os.fdopen, []

    class Full:
        def __init__(self, f):
            self.f = f

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            self.f.close()

        def write(self, data):
            self.f.write(data[: len(data) // 2])
            raise OSError(28, "No space left on device")

    def fdopen(fd, *args, **kwargs):
        opened.append(fd)
        f = real(fd, *args, **kwargs)
        return f if len(opened) == 1 else Full(f)

    monkeypatch.setattr(os, "fdopen", fdopen)
    code = main(["report", str(GAMES / "tiny_lines.toml"), "--xlsx", str(xlsx),
                 "--html", str(html_path)])
    err = capsys.readouterr().err
    assert len(opened) == 2
    assert code == 2 and err.count("\n") == 1 and "No space left on device" in err
    assert err.startswith("slotmath: error: --html: cannot write")
    assert sorted(os.listdir(tmp_path)) == ["r.xlsx"]  # no temporary file, no html
    assert xlsx.read_bytes() == b"the previous report"  # renamed only once all are written
