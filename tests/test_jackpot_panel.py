"""The jackpot what-if panel: set from code, it shows the analysis of the documented edit.

Every check compares the panel with ``slotmath.analyze(with_jackpot(...), level)`` built
independently here, on the small jackpot game of tests/strategies.py.
"""

from fractions import Fraction
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import pytest
from strategies import jackpot_game

import slotmath
from slotmath.model.edit import with_jackpot
from slotmath.model.hit_laws import LAWS
from slotmath.widgets import (
    JackpotPanel,
    jackpot_summary_html,
    starting_parameters,
    with_jackpot_controls,
)
from slotmath.widgets.jackpot_panel import LAW_PARAMETERS, LAW_SCALE

GAMES = Path(__file__).resolve().parents[1] / "data" / "games"


@pytest.fixture(scope="module")
def game():
    return jackpot_game()


@pytest.fixture(scope="module")
def reference(game):
    return slotmath.analyze(game, 1)


@pytest.fixture
def panel(game, reference):
    """A fresh panel at level 1, figures only."""
    return JackpotPanel(game, reference=reference, level=1, analysis=reference, draw=False)


def assert_shows(panel, expected_game, level):
    """The panel holds ``expected_game`` and its analysis at ``level``, and displays it."""
    want = slotmath.analyze(expected_game, level)
    assert panel.game == expected_game
    assert panel.analysis.level == level == panel.level.value
    assert panel.analysis.components == want.components
    assert panel.analysis.rtp == want.rtp
    assert "not applied" not in panel.figures.value
    assert f"<b>{want.rtp:.4%}</b>" in panel.figures.value


def test_law_tables_come_from_the_registry():
    # every law of the registry offered, in the panel's order, with the registry's names
    assert list(LAW_PARAMETERS) == list(LAW_SCALE) == ["linear", "saturating", "constant"]
    assert set(LAW_PARAMETERS) == set(LAWS)
    assert LAW_PARAMETERS == {"linear": ("rate",), "saturating": ("p_max", "half"),
                              "constant": ("probability",)}
    assert LAW_SCALE == {law: LAWS[law].scaled_parameter for law in LAWS}


def test_starting_parameters(game, reference):
    mini, grand = game.jackpots
    pool = reference.features["jackpots"].pools["GRAND"]
    p, mean_pool = pool.expected_hit_probability_per_spin, pool.mean_pool
    assert starting_parameters(grand, pool) == {
        "linear": {"rate": p / mean_pool},
        "saturating": {"p_max": 0.05, "half": 100.0},  # the file's own law
        "constant": {"probability": p},
    }
    assert starting_parameters(mini, reference.features["jackpots"].pools["MINI"])["linear"] == {"rate": 0.01}


def test_controls_unchanged_give_the_file_game(game):
    assert with_jackpot_controls(game, "MINI") == game
    assert with_jackpot_controls(game, "GRAND", weight=1.0, contribution_percent=2.0, seed=40.0,
                                 law="saturating", parameters={"p_max": 0.05, "half": 100}) == game


def test_weight_scales_the_law_parameter_each_law_is_proportional_to(game):
    assert with_jackpot_controls(game, "MINI", weight=2.0) == with_jackpot(
        game, "MINI", parameters={"rate": 0.02})
    assert with_jackpot_controls(game, "GRAND", weight=0.5) == with_jackpot(
        game, "GRAND", parameters={"p_max": 0.025, "half": 100.0})
    assert with_jackpot_controls(game, "GRAND", weight=4.0, law="constant",
                                 parameters={"probability": 0.01}) == with_jackpot(
        game, "GRAND", law="constant", parameters={"probability": 0.04})


def test_controls_refuse_what_with_jackpot_refuses(game):
    with pytest.raises(ValueError, match="give the constant law's parameters"):
        with_jackpot_controls(game, "MINI", law="constant")
    with pytest.raises(ValueError, match="takes probability"):
        with_jackpot_controls(game, "MINI", law="constant", parameters={"rate": 0.01})
    with pytest.raises(ValueError, match="no jackpot 'MINOR'"):
        with_jackpot_controls(game, "MINOR")
    with pytest.raises(ValueError, match="law: must be one of"):
        with_jackpot_controls(game, "MINI", law="step", parameters={})


def test_panel_starts_on_the_file_game(panel, game, reference):
    assert panel.analysis is reference  # the given analysis is used, not recomputed
    assert_shows(panel, game, 1)
    mini = panel.controls["MINI"]
    assert mini["weight"].value == 1.0 and mini["seed"].value == 5.0
    assert mini["contribution"].value == pytest.approx(3.0)
    assert mini["law"].value == "linear" and mini["parameters"]["linear"]["rate"].value == 0.01
    # only the chosen law's parameter boxes are shown
    assert mini["parameters"]["linear"]["rate"].layout.display is None
    assert mini["parameters"]["saturating"]["p_max"].layout.display == "none"
    assert panel.levels is None and panel.figure is None


def test_weight_x2_doubles_the_rate(panel, game):
    panel.controls["MINI"]["weight"].value = 2.0
    assert_shows(panel, with_jackpot(game, "MINI", parameters={"rate": 0.02}), 1)
    one = slotmath.analyze(game, 1).features["jackpots"].pools["MINI"]
    two = panel.analysis.features["jackpots"].pools["MINI"]
    assert two.mean_rounds_between_hits < one.mean_rounds_between_hits


def test_law_switch_starts_from_the_reference_pool(panel, game, reference):
    pool = reference.features["jackpots"].pools["MINI"]
    panel.controls["MINI"]["law"].value = "saturating"
    p_max, half = 2 * pool.expected_hit_probability_per_spin, pool.mean_pool
    expected = with_jackpot(game, "MINI", law="saturating",
                            parameters={"p_max": p_max, "half": half})
    assert_shows(panel, expected, 1)
    assert panel.controls["MINI"]["parameters"]["saturating"]["half"].layout.display is None
    assert panel.controls["MINI"]["parameters"]["linear"]["rate"].layout.display == "none"

    panel.controls["MINI"]["parameters"]["saturating"]["half"].value = 2 * half
    assert_shows(panel, with_jackpot(game, "MINI", law="saturating",
                                     parameters={"p_max": p_max, "half": 2 * half}), 1)


def test_contribution_reseed_and_level(panel, game):
    panel.controls["MINI"]["contribution"].value = 5.0
    expected = with_jackpot(game, "MINI", contribution=Fraction(1, 20))
    assert_shows(panel, expected, 1)
    assert panel.game.jackpots[0].contribution == Fraction(1, 20)  # exact, not a binary float

    panel.controls["GRAND"]["seed"].value = 60.0
    expected = with_jackpot(expected, "GRAND", seed=60)
    assert_shows(panel, expected, 1)

    panel.level.value = 2
    assert_shows(panel, expected, 2)


def test_reset_restores_the_file_game(panel, game, reference):
    panel.level.value = 2
    panel.controls["MINI"]["weight"].value = 2.0
    panel.controls["GRAND"]["law"].value = "constant"
    panel.controls["GRAND"]["parameters"]["constant"]["probability"].value = 0.02
    panel.controls["GRAND"]["seed"].value = 60.0
    assert panel.game != game
    panel.reset()
    assert_shows(panel, game, 2)  # at the level chosen, which reset leaves alone
    grand = panel.controls["GRAND"]
    assert grand["law"].value == "saturating" and grand["weight"].value == 1.0
    assert grand["parameters"]["constant"]["probability"].value == pytest.approx(
        reference.features["jackpots"].pools["GRAND"].expected_hit_probability_per_spin)
    assert grand["parameters"]["constant"]["probability"].layout.display == "none"


def control(panel, path):
    """The widget at ``path`` in ``panel.controls``, e.g. ("GRAND", "parameters", "constant",
    "probability")."""
    widget = panel.controls
    for key in path:
        widget = widget[key]
    return widget


@pytest.mark.parametrize("steps, message", [
    # p_max 0.05 x 8 x level factor 3 > 1
    ([(("GRAND", "weight"), 8.0)], "p_max x level factor"),
    # a constant law, then hit chances adding up to more than 1
    ([(("GRAND", "law"), "constant"),
      (("GRAND", "parameters", "constant", "probability"), 0.3)], "probabilities add up to"),
    # refused by with_jackpot, before any analysis
    ([(("MINI", "parameters", "linear", "rate"), -0.01)], "must be &gt;= 0"),
])
def test_a_refused_edit_is_shown_and_the_last_good_state_kept(game, reference, steps, message):
    panel = JackpotPanel(game, reference=reference, level=2, draw=False)
    control(panel, ("MINI", "seed")).value = 6.0  # a good edit first
    expected = with_jackpot(game, "MINI", seed=6)
    assert_shows(panel, expected, 2)
    *good_steps, (path, value) = steps
    for good_path, good_value in good_steps:
        control(panel, good_path).value = good_value
        assert "not applied" not in panel.figures.value
    good_game, good_analysis = panel.game, panel.analysis

    control(panel, path).value = value  # raises nothing
    assert "not applied" in panel.figures.value
    assert message in panel.figures.value  # the error as raised, folded under the one line
    assert panel.game is good_game and panel.analysis is good_analysis
    assert control(panel, path).value != value  # the control shows what the figures show

    panel.reset()  # and the panel still works
    assert_shows(panel, game, 2)


def test_rtp_by_level_and_a_level_that_refuses(panel, game):
    panel.by_level.value = True
    assert list(panel.levels["level"]) == [1, 2]
    assert panel.levels["rtp"].tolist() == [slotmath.analyze(game, lv).rtp for lv in (1, 2)]

    # 0.3 per wheel spin is fine at level 1; x 3 at level 2 the chances add up past 1
    panel.controls["GRAND"]["law"].value = "constant"
    panel.controls["GRAND"]["parameters"]["constant"]["probability"].value = 0.3
    expected = with_jackpot(game, "GRAND", law="constant", parameters={"probability": 0.3})
    assert panel.game == expected and panel.analysis.level == 1
    assert panel.analysis.rtp == slotmath.analyze(expected, 1).rtp
    assert panel.levels is None
    assert "RTP by bet level:" in panel.figures.value and "level 2" in panel.figures.value


def test_charts_are_drawn_headless(game, reference):
    panel = JackpotPanel(game, reference=reference, level=1, analysis=reference,
                         published={1: 3.2, 2: 3.4})
    # RTP breakdown, then value at hit and rounds between hits of each pool
    assert len(panel.figure.axes) == 1 + 2 * 2
    assert panel.figure.get_suptitle() == "bet level 1"
    panel.by_level.value = True
    assert len(panel.figure.axes) == 2 + 2 * 2
    panel.level.value = 2
    assert panel.figure.get_suptitle() == "bet level 2"


def test_panel_arguments_are_checked(game, reference):
    with pytest.raises(ValueError, match="at bet level 1, not 2"):
        JackpotPanel(game, reference=reference, level=2, analysis=reference, draw=False)
    plain = slotmath.load_game(GAMES / "tiny_lines.toml")
    with pytest.raises(ValueError, match="no progressive jackpots"):
        JackpotPanel(plain, draw=False)


def test_reference_defaults_to_the_lowest_level(game, reference):
    panel = JackpotPanel(game, level=2, draw=False)
    starts = starting_parameters(game.jackpots[1], reference.features["jackpots"].pools["GRAND"])
    assert panel.controls["GRAND"]["parameters"]["constant"]["probability"].value == starts[
        "constant"]["probability"]


def test_summary_lists_each_pool(reference):
    text = jackpot_summary_html(reference)
    assert f"<b>{reference.rtp:.4%}</b>" in text
    for name, pool in reference.features["jackpots"].pools.items():
        assert f">{name}</td>" in text
        assert f"1 in {pool.mean_rounds_between_hits:,.0f} rounds" in text


# -- what a move recomputes (issue 23 item 8) ---------------------------------------------------
def test_a_move_solves_again_only_the_pools_it_changes(panel, game):
    """The MINI's weight doubled: the GRAND's pool is the very analysis of the move before
    (not solved again), and both equal a pool solved afresh, sharing nothing with the panel."""
    from slotmath.markov.jackpot import JackpotPool, analyze_pool

    before = panel.analysis.features["jackpots"].pools
    panel.controls["MINI"]["weight"].value = 2.0
    j = panel.analysis.features["jackpots"]
    assert j.pools["GRAND"] is before["GRAND"] and j.pools["MINI"] is not before["MINI"]
    for spec in panel.game.jackpots:
        fresh = analyze_pool(JackpotPool.from_spec(spec, 1), panel.game.bet_value(1), j.chances)
        assert j.pools[spec.name].rtp_contribution == fresh.rtp_contribution
        assert j.pools[spec.name].hit_value_mean == fresh.hit_value_mean


def test_a_wheel_move_solves_no_pool_again(game):
    """The wheel's coin weights feed no pool: a wheel panel's move keeps every pool's
    analysis, and its RTP is a fresh analysis's of the edited game."""
    from slotmath.model.edit import with_wheel_weights
    from slotmath.widgets.wheel_panel import WheelPanel

    wheel = WheelPanel(game, draw=False)
    before = wheel.analysis.features["jackpots"].pools
    wheel.sliders[0].value = 5
    after = wheel.analysis.features["jackpots"].pools
    assert all(after[name] is before[name] for name in before)
    edited = with_wheel_weights(game, [5, *game.bonus_wheel.weights[1:]])
    assert wheel.analysis.components == slotmath.analyze(edited).components


def test_a_new_level_shows_its_chart_before_the_baseline(game, reference, monkeypatch):
    """At a level shown for the first time the chart is drawn from the edited game's analysis
    alone; the game file's analysis at that level (the figures' changes) comes after it."""
    panel = JackpotPanel(game, reference=reference, level=1, analysis=reference)
    order = []
    show, baseline = panel.charts.show, JackpotPanel.baseline.fget
    monkeypatch.setattr(panel.charts, "show",
                        lambda fig, **kw: (order.append("chart"), show(fig, **kw)))
    monkeypatch.setattr(JackpotPanel, "baseline", property(
        lambda self: (order.append("baseline"), baseline(self))[1]))
    panel.level.value = 2
    assert order.index("chart") < order.index("baseline")
    assert panel.baseline is not None and panel.baseline.level == 2
    assert "the change against the game file at bet level 2" in panel.figures.value
