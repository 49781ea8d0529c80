"""The solver moving stop weights (``tune(..., moves="weights")``) on weighted reels.

A reel's figures are exactly linear in its stop weights on any reel (each stop's weight
multiplies its window's table), so each step's program is exact: checked on random two-row
weighted games against the brute force of tests/test_tune_sensitivity.py (every stop
combination, paid by the rules), which shares no code with the engine.
"""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from slotmath.cli import main
from slotmath.tune import tune
from tests.bundled import ROOT
from tests.test_tune_sensitivity import as_game, brute

GAMES = ROOT / "data" / "games"
LINES = [(0, 0, 0), (1, 1, 1), (0, 1, 0), (1, 0, 1)]


@st.composite
def two_row_weighted_games(draw):
    a2, a3, b3 = draw(st.integers(1, 5)), draw(st.integers(1, 9)), draw(st.integers(1, 20))
    pays = {"A": {2: a2, 3: a3}, "B": {3: b3}}
    reels = []
    for _ in range(3):
        strip = draw(st.lists(st.sampled_from(["A", "B", "W", "X"]), min_size=3, max_size=5))
        weights = draw(st.lists(st.integers(1, 6), min_size=len(strip), max_size=len(strip)))
        reels.append((strip, weights))
    return 2, False, pays, reels, LINES


def reference(game, pays):
    strips = game.base.reels
    return brute([list(r.symbols) for r in strips], [list(r.weights) for r in strips], 2,
                 LINES, pays, len(LINES))


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(two_row_weighted_games(), st.sampled_from(["0.4", "0.9", "1.5"]))
def test_stop_weights_tuned_are_what_the_brute_force_says(case, target):
    _, _, pays, _, _ = case
    game = as_game(*case)
    r = tune(game, target, moves="weights", gli11=None, tolerance=Fraction(1, 100),
             max_rounds=3, time_limit=10)
    expected = reference(r.game, pays)
    assert (r.figures.rtp, r.figures.hit_frequency, r.figures.second_moment) == expected
    assert r.met == (abs(expected[0] - Fraction(target)) <= Fraction(1, 100))
    for before, after in zip(game.base.reels, r.game.base.reels):
        assert after.symbols == before.symbols  # only weights move
    for step in r.steps:
        assert all("@" in key for key in step.edits)  # each edit names one stop


def test_one_exact_step_lands_on_the_target_of_a_two_row_weighted_game():
    pays = {"A": {2: 2, 3: 6}, "B": {3: 12}}
    reels = [(["A", "X", "B", "W", "X"], [3, 5, 2, 1, 4]),
             (["B", "A", "X", "X", "W"], [2, 3, 4, 4, 1]),
             (["X", "A", "B", "X", "A"], [5, 2, 2, 3, 1])]
    game = as_game(2, False, pays, reels, LINES)
    start = reference(game, pays)[0]
    target = Fraction(1, 1)
    assert abs(start - target) > Fraction(1, 20)
    r = tune(game, target, moves="weights", tolerance=Fraction(1, 200), time_limit=20)
    assert r.met, r.misses
    # the linear model is exact: the first step lands where the program put it
    assert len(r.steps) == 1 and r.steps[0].kept
    assert r.steps[0].edits == {"A@1": -3, "X@2": -4, "B@3": 4}
    assert abs(reference(r.game, pays)[0] - target) <= Fraction(1, 200)
    assert r.awards.failing == frozenset()


def test_cli_moves_stop_weights(tmp_path, capsys):
    out = tmp_path / "w.toml"
    code = main(["tune", str(GAMES / "classic_3reel.toml"), "--target-rtp", "96",
                 "--moves", "weights", "--out", str(out)])
    printed = capsys.readouterr()
    assert code == 0, printed.err
    assert "@" in printed.err  # the progress names stops
    code = main(["tune", str(GAMES / "classic_3reel.toml"), "--target-rtp", "96",
                 "--moves", "stops", "--out", str(out)])
    assert code == 2
    with pytest.raises(ValueError, match="moves must be"):
        tune(as_game(2, False, {"A": {2: 1, 3: 2}, "B": {3: 3}},
                     [(["A", "B", "X"], [1, 2, 3])] * 3, LINES), "1", moves="x")
