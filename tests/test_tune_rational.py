"""The RTP as an exact rational function of one parameter (slotmath.tune.rational), against
plain re-analyses of the changed game (``slotmath.analyze``) at integer points the function
was not fitted on, and solved for a target that an integer point is known to reach."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import slotmath
from slotmath.model.game import Reel
from slotmath.tune.rational import (
    FreeSpinAward,
    StopWeight,
    SymbolCount,
    WheelWeight,
    rational_figure,
)
from tests.bundled import ROOT
from tests.test_tune_sensitivity import as_game, brute, small_games

GAMES = ROOT / "data" / "games"

WHEEL_GAME = """
name = "Wheel"
rows = 1
bet = 1
paylines = [[0, 0, 0]]
[symbols]
A  = { pays = { 3 = 5 } }
BN = { bonus = true }
X  = {}
[reels]
base = [["A", "BN", "X", "X"], ["BN", "A", "X"], ["A", "X", "BN", "X", "X"]]
[bonus_wheel]
symbol = "BN"
count = 3
prizes = [1, 4, 20]
weights = [6, 3, 1]
"""


def with_stop_weight(game, reel_set, j, stop, x):
    reels = list(game.reel_sets[reel_set].reels)
    w = list(reels[j].stop_weights)
    w[stop] = x
    reels[j] = Reel(reels[j].symbols, tuple(w))
    return game.replace_reels(reel_set, tuple(reels))


def with_7r(game, x):
    reels = list(game.base.reels)
    r = reels[2]
    w = [x if s == "7R" else v for s, v in zip(r.symbols, r.stop_weights)]
    reels[2] = Reel(r.symbols, tuple(w))
    return game.replace_reels("base", tuple(reels))


def with_award(game, count, x):
    spec = game.free_spins
    return replace(game, free_spins=replace(spec, awards=dict(spec.awards) | {count: x}))


def with_wheel(game, division, x):
    w = list(game.bonus_wheel.weights)
    w[division] = x
    return replace(game, bonus_wheel=replace(game.bonus_wheel, weights=tuple(w)))


def figures(game):
    a = slotmath.analyze(game)
    return {"rtp": a.rtp, "hit_frequency": a.hit_frequency,
            "second_moment": a.round.second_moment}


CASES = [  # (game file or text, parameter, the game at x, points not fitted on)
    ("classic_3reel", SymbolCount(2, "7R"), with_7r, [0, 11]),
    ("tiny_lines", StopWeight(1, 4), lambda g, x: with_stop_weight(g, "base", 1, 4, x),
     [0, 9]),
    ("tiny_lines", FreeSpinAward(3), lambda g, x: with_award(g, 3, x), [7, 12]),
    (WHEEL_GAME, WheelWeight(2), lambda g, x: with_wheel(g, 2, x), [0, 13]),
]


def load(source):
    if "\n" in source:
        return slotmath.loads_game(source)
    return slotmath.load_game(GAMES / f"{source}.toml")


@pytest.mark.parametrize(("source", "parameter", "at", "points"), CASES)
@pytest.mark.parametrize("figure", ["rtp", "hit_frequency", "second_moment"])
def test_the_function_equals_reanalysis_off_its_fitting_points(source, parameter, at, points,
                                                               figure):
    game = load(source)
    f = rational_figure(game, parameter, figure)
    assert f(f.current) == figures(game)[figure]
    for x in points:
        assert f(x) == figures(at(game, x))[figure], (parameter, x)


@pytest.mark.parametrize(("source", "parameter", "at", "points"), CASES)
def test_solving_for_a_reachable_target_gives_its_point(source, parameter, at, points):
    game = load(source)
    f = rational_figure(game, parameter)
    x = points[-1]
    target = figures(at(game, x))["rtp"]
    assert x in f.solve(target)
    assert Fraction(f.solve(target)[0]) == x or len(f.solve(target)) > 1


def test_what_is_not_of_the_form_is_refused():
    tiny = slotmath.load_game(GAMES / "tiny_lines.toml")
    with pytest.raises(ValueError, match="played by a round feature"):
        rational_figure(tiny, StopWeight(0, 0, "free"))
    with pytest.raises(ValueError, match="use StopWeight"):
        rational_figure(tiny, SymbolCount(0, "BAR"))
    with pytest.raises(ValueError, match="no bonus wheel"):
        rational_figure(tiny, WheelWeight(0))
    with pytest.raises(ValueError, match="awards no free spins for 4"):
        rational_figure(tiny, FreeSpinAward(4))


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_games(), st.integers(0, 2), st.integers(0, 3), st.integers(0, 12))
def test_random_games_stop_weight_function_against_brute_force(case, j, stop, x):
    """f(x) at a stop weight the fit never saw equals the test's own brute force."""
    rows, ways, pays, _, lines = case
    game = as_game(*case)
    strip = game.base.reels[j]
    stop = stop % len(strip)
    weights = list(strip.stop_weights)
    x = 0 if x == 0 else max(weights[stop], 1) + 7 + x  # 0, or beyond the fitted points
    weights[stop] = x
    if not any(weights):
        return  # every weight 0: no reel
    f = rational_figure(game, StopWeight(j, stop))
    strips = list(game.base.reels)
    strips[j] = Reel(strip.symbols, tuple(weights))
    expected = brute([list(r.symbols) for r in strips], [list(r.stop_weights) for r in strips],
                     rows, None if ways else lines, pays, 1 if ways else len(lines))
    assert f(x) == expected[0]


def test_several_parameters_at_once_equal_reanalysis_off_the_grid():
    from slotmath.tune.rational import rational_function

    tiny = load("tiny_lines")
    params = [StopWeight(0, 0), StopWeight(2, 3), FreeSpinAward(3)]
    f = rational_function(tiny, params)
    assert f.current == (1, 1, 3)
    for x, y, award in [(0, 7, 1), (4, 0, 6), (9, 2, 10)]:
        g = with_stop_weight(with_stop_weight(tiny, "base", 0, 0, x), "base", 2, 3, y)
        assert f(x, y, award) == figures(with_award(g, 3, award))["rtp"]
    target = figures(with_award(with_stop_weight(tiny, "base", 0, 0, 6), 3, 4))["rtp"]
    assert 6 in f.solve(target, unknown=0, values=(None, 1, 4))

    wheel = load(WHEEL_GAME)
    f = rational_function(wheel, [WheelWeight(0), WheelWeight(2), StopWeight(1, 0)],
                          "hit_frequency")
    for a, b, c in [(0, 9, 4), (11, 1, 0)]:
        g = with_stop_weight(with_wheel(with_wheel(wheel, 0, a), 2, b), "base", 1, 0, c)
        assert f(a, b, c) == figures(g)["hit_frequency"]
    f = rational_function(wheel, [WheelWeight(1), StopWeight(2, 2)], "second_moment")
    g = with_stop_weight(with_wheel(wheel, 1, 13), "base", 2, 2, 8)
    assert f(13, 8) == figures(g)["second_moment"]


def test_several_parameters_not_multilinear_are_refused():
    from slotmath.tune.rational import rational_function

    tiny = load("tiny_lines")
    with pytest.raises(ValueError, match="not a ratio of multilinear"):
        rational_function(tiny, [StopWeight(0, 0), FreeSpinAward(3)], "second_moment")
    with pytest.raises(ValueError, match="distinct"):
        rational_function(tiny, [StopWeight(0, 0), StopWeight(0, 0)])
