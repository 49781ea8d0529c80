"""The player's-view panel: it reads an analysis through distribution, rtp and game only,
and its figures follow the sliders (checked against slotmath.player called directly)."""

from fractions import Fraction
from types import SimpleNamespace

import matplotlib

matplotlib.use("Agg")

import pytest

from slotmath import player
from slotmath.exact.distribution import WinDistribution
from slotmath.widgets.player_panel import PlayerPanel, format_figure

LAW = WinDistribution.from_mapping({0: 9, 7: 5, 31: 2, 90: 1}, 10)


def analysis_like(rtp=None):
    """Only the three public attributes the panel may read."""
    return SimpleNamespace(distribution=LAW, rtp=LAW.mean if rtp is None else rtp,
                           game=SimpleNamespace(name="Hand Law"))


def row(panel, label):
    return next(r for r in panel.table_rows() if r[0].startswith(label))


def test_figures_follow_the_sliders():
    panel = PlayerPanel(analysis_like(), rounds=100, bankroll=10, draw=False, max_seconds=0.5)
    want = player.probability_ahead(LAW, 100)
    assert row(panel, "P(ahead after 100 rounds)")[1:] == format_figure(want)
    panel.rounds.value = 1_000
    want = player.probability_ahead(LAW, 1_000)
    assert row(panel, "P(ahead after 1,000 rounds)")[1:] == format_figure(want)
    assert "1,000 rounds" in panel.figures.value
    panel.bankroll.value = 20
    ruin = player.ruin_probability(LAW, 20, 1_000, max_seconds=0.5)
    assert row(panel, "risk of ruin, 20 bets")[1:] == format_figure(ruin)
    panel.cycle.value = 5.0
    loss = player.expected_loss_per_hour(LAW.mean, 5)
    assert row(panel, "expected loss per hour at 5 s")[1] == f"{float(loss):,.2f} bets (exact)"


def test_a_law_whose_mean_is_not_the_rtp_is_said():
    panel = PlayerPanel(analysis_like(rtp=Fraction(95, 100)), rounds=100, draw=False)
    assert "act outside the law" in panel.figures.value
    assert row(panel, "expected loss per hour")[1] == "72.00 bets (exact)"


def test_charts_are_drawn_and_redrawn():
    panel = PlayerPanel(analysis_like(), rounds=100, bankroll=10)
    first = panel.charts.value
    assert first[:4] == b"\x89PNG" and len(panel.figure.axes) == 6
    panel.rounds.value = 300
    assert panel.charts.value != first
    assert panel.figure.axes[0].get_title() == "Net result after 300 rounds"


def test_a_missing_attribute_fails_loudly():
    with pytest.raises(AttributeError):
        PlayerPanel(SimpleNamespace(distribution=LAW, game=None), draw=False)
