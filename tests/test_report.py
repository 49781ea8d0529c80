"""PAR tables and the JSON report: rows add up exactly to the figures they break down."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest
from bundled import ANALYSED, analysed

import slotmath
from slotmath import report
from slotmath.report.figures import read_figure

ROOT = Path(__file__).resolve().parents[1]
GAMES = ANALYSED  # (tests/bundled.py)


@pytest.mark.parametrize("path", GAMES, ids=[p.stem for p in GAMES])
def test_tables_add_up(path):
    a = analysed(path)
    if a.game.analysis is not None and a.game.analysis.rounds is not None:
        return _simulated_tables_add_up(a)  # a simulated game (tests/bundled.py)
    pays = report.symbol_table(a)
    # The pay table (direct method) against the full-cycle engine's paid spin, which shares
    # no code with it: lines or ways plus scatters make the spin's whole mean.
    lines = sum(Fraction(x) for x in pays["rtp_exact"])
    window = a.base_table.mean_bets
    scat = report.scatter_table(a)
    scatters = float(scat["rtp"].sum()) if len(scat) else 0.0
    assert float(lines) + scatters == pytest.approx(float(window), rel=1e-12)
    if not len(scat):
        assert lines == window
    for _, rows in scat.groupby("symbol"):
        assert rows["weight"].sum() == a.base_table.cycle
    sizes = report.win_size_frame(a)
    assert sizes["probability"].sum() == pytest.approx(1, abs=1e-9)
    text = report.par_sheet_text(a)
    assert a.game.name in text and "Pay table" in text
    doc = report.analysis_dict(a)
    assert read_figure(doc["rtp"]) == a.rtp
    assert doc["cycle"] == a.base_table.cycle


def _simulated_tables_add_up(a):
    """A simulated game: the pay table's entries (the kernel's per-entry counters of the first
    drop) add up to the first drop's component (its round totals); an exact figure computed
    beside the simulation (the ways or anywhere programme on the paid spin) lies within its
    simulated figure's 99.9 % interval; the JSON marks every figure simulated."""
    doc = report.analysis_dict(a)
    assert doc["cycle"] is None and doc["rounds"] == a.game.analysis.rounds
    assert doc["rtp"]["exact"] is None and doc["method"]["method"] == "simulated"
    window = a.features["pays"]
    kind = window.kind
    pays = report.symbol_table(a)
    assert (pays["rtp_exact"] == "").all() and len(pays)
    assert float(pays["rtp"].sum()) == pytest.approx(float(window.components[kind]), rel=1e-9)
    assert float(window.components[kind]) == float(a.components[kind])
    for check in doc["checks"]:
        exact, sim = read_figure(check["exact"]), read_figure(check["simulated"])
        se = (check["simulated_95"][1] - check["simulated_95"][0]) / (2 * 1.959964)
        assert abs(float(exact) - float(sim)) <= 3.29 * se, check
    assert set(doc["simulated"]) >= {"rtp", "hit_frequency", "std"}
    sizes = report.win_size_frame(a)
    assert sizes["probability"].sum() == pytest.approx(1, abs=1e-9)
    text = report.par_sheet_text(a)
    assert a.game.name in text and "simulated" in text


def test_pay_table_hits_by_hand():
    """Tiny Lines, BAR x3: the only way is BAR on reel 1 (1 stop of 8 per row), BAR or the x2
    wild on reels 2 and 3 (2 of 8 per row each). BAR BAR BAR pays 10 line bets = 2 x the bet, one wild
    doubles it, two wilds quadruple it: 1 + 2 + 1 combinations per line out of 8^3, 5 lines."""
    a = slotmath.analyze(slotmath.load_game(ROOT / "data/games/tiny_lines.toml"))
    bar = report.symbol_table(a)[report.symbol_table(a)["symbol"] == "BAR"]
    assert bar["hits"].tolist() == [5, 10, 5]
    assert bar["pay_x_bet"].tolist() == [2.0, 4.0, 8.0]
