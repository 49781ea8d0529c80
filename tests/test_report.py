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


def test_pay_table_hits_by_hand():
    """Tiny Lines, BAR x3: the only way is BAR on reel 1 (1 stop of 8 per row), BAR or the x2
    wild on reels 2 and 3 (2 of 8 per row each). BAR BAR BAR pays 10 line bets = 2 x the bet, one wild
    doubles it, two wilds quadruple it: 1 + 2 + 1 combinations per line out of 8^3, 5 lines."""
    a = slotmath.analyze(slotmath.load_game(ROOT / "data/games/tiny_lines.toml"))
    bar = report.symbol_table(a)[report.symbol_table(a)["symbol"] == "BAR"]
    assert bar["hits"].tolist() == [5, 10, 5]
    assert bar["pay_x_bet"].tolist() == [2.0, 4.0, 8.0]
