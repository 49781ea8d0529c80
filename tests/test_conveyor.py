"""The bauble conveyor: the exact engine against a brute force written from the rules
(tests/conveyor_brute.py), against a seeded simulation of consecutive spins, and the
seeded mutation "baubles that do not move" failing both simulation checks."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from conveyor_brute import Brute
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import slotmath
from slotmath.errors import GameFileError
from slotmath.features.conveyor import ConveyorFeature
from slotmath.io.toml_loader import loads_game
from slotmath.simulate.conveyor import simulate_conveyor, simulate_from_reset

TINY = Path(__file__).parent / "data" / "conveyor_tiny.toml"
TEXT = TINY.read_text()
CONSUMING = TEXT.replace("empty_weight = 2\n", "empty_weight = 2\nconsume_on_activation = true\n")


def _games():
    return [loads_game(TEXT, "tiny"), loads_game(CONSUMING, "tiny-consuming")]


def _as_brute(feature, state):
    return tuple(None if k == 0 else (feature.kinds[k - 1].feature, feature.kinds[k - 1].value)
                 for k in state)


def _check_against_brute(game, per_state: bool = True):
    feature = ConveyorFeature(game)
    figures = feature.analyze()
    brute = Brute(game)
    law = brute.stationary()
    engine_law = {_as_brute(feature, s): p for s, p in zip(figures.states, figures.probability)}
    assert engine_law == law  # exact Fractions, state by state
    parts = [Fraction(0)] * 3
    for s, p in law.items():
        lines, spread, coins, _ = brute.spin_parts(s)
        parts = [parts[0] + p * lines, parts[1] + p * spread, parts[2] + p * coins]
    c = figures.components
    assert (c["lines"], c["spreading_wild"], c["coin_win"]) == tuple(parts)  # exact
    F = brute.free_spin_values()
    M = game.conveyor.free_spins.max_spins_left
    for n in range(M + 2):
        assert feature.free_spin_value(n) == pytest.approx(F[min(n, M)], rel=1e-10, abs=1e-12)
    if per_state:  # every third state (all kinds in every slot occur among them)
        for s, rtp in list(zip(figures.states, figures.state_rtp))[::3]:
            assert rtp == pytest.approx(brute.state_rtp(_as_brute(feature, s), F), rel=1e-10)
    return feature, figures, brute, F


@pytest.mark.parametrize("game", _games(), ids=["kept", "consumed"])
def test_engine_matches_brute_force(game):
    feature, figures, brute, F = _check_against_brute(game)
    assert figures.error < 1e-9
    # the RTP from reset: the brute force's per-spin means, averaged
    curve = brute.from_reset(lambda s: brute.state_rtp(s, F), 12)
    expected = [float(np.mean(curve[:n])) for n in (1, 4, 12)]
    assert figures.rtp_from_reset((1, 4, 12)) == pytest.approx(expected, rel=1e-10)
    # the numerical stationary law of the generic chain agrees with the exact one
    pi, residual = feature.chain.stationary_numeric()
    exact = dict(zip(figures.states, figures.probability))
    assert residual < 1e-12
    for s, p in zip(feature.chain.states, pi):
        assert p == pytest.approx(float(exact.get(s, 0)), abs=1e-13)


def test_stationary_summaries_are_laws():
    figures = ConveyorFeature(loads_game(TEXT)).analyze()
    assert sum(figures.holding().values()) == 1
    for slot in figures.slot_law():
        assert sum(slot.values()) == 1
    # kept baubles: every slot's law is the wheel's (empty weight 2 of 10)
    assert all(slot["empty"] == Fraction(2, 10) for slot in figures.slot_law())
    ap = figures.advantage_play
    assert ap.best_rtp == max(figures.state_rtp) and ap.worst_rtp == min(figures.state_rtp)


_weights = st.lists(st.integers(0, 4), min_size=3, max_size=3).filter(lambda w: w[0] > 0)


@settings(max_examples=4, deadline=None, suppress_health_check=list(HealthCheck))
@given(wilds=st.lists(_weights, min_size=3, max_size=3),
       wheel=st.lists(st.integers(0, 3), min_size=6, max_size=6).filter(lambda w: sum(w) > 0),
       empty=st.integers(0, 3), consume=st.booleans(),
       surprise=st.lists(st.integers(1, 3), min_size=3, max_size=3))
def test_random_small_conveyors_match_brute_force(wilds, wheel, empty, consume, surprise):
    text = TEXT.replace("max_spins_left = 4", "max_spins_left = 2")
    text = text.replace("weights = [[6, 1, 1], [5, 2, 1], [4, 1, 2]]", f"weights = {wilds}")
    text = text.replace("empty_weight = 2\n", f"empty_weight = {empty}\n"
                        f"consume_on_activation = {str(consume).lower()}\n")
    text = text.replace("surprise = { spreading_wild = 1, free_spins = 1, coin_win = 2 }",
                        f"surprise = {{ spreading_wild = {surprise[0]}, free_spins = "
                        f"{surprise[1]}, coin_win = {surprise[2]} }}")
    lines = text.splitlines()
    at = [i for i, line in enumerate(lines) if "weight = " in line and "{ feature" in line]
    for i, w in zip(at, wheel):
        lines[i] = lines[i].rsplit("weight = ", 1)[0] + f"weight = {w} }},"
    text = "\n".join(lines)
    try:
        game = loads_game(text)
    except GameFileError:  # e.g. a surprise turning into a feature no longer on the wheel
        return
    _check_against_brute(game, per_state=False)


def _stationary_rtp(game):
    return ConveyorFeature(game).analyze().rtp


@pytest.mark.parametrize("consuming", [False, True])
def test_simulation_agrees_and_the_unmoving_mutation_fails(consuming):
    game = loads_game(CONSUMING if consuming else TEXT)
    rtp = _stationary_rtp(game)
    sim = simulate_conveyor(game, 20_000, seed=7)
    low, high = sim.interval(4.0)
    assert low <= rtp <= high
    mutant = simulate_conveyor(game, 20_000, seed=7, moving=False)
    low, high = mutant.interval(4.0)
    assert not low <= rtp <= high


def test_simulation_from_reset_follows_the_curve_and_the_mutation_does_not():
    game = loads_game(TEXT)
    figures = ConveyorFeature(game).analyze()
    horizon = 4
    averages = figures.rtp_from_reset(range(1, horizon + 1))
    per_spin = [averages[0]] + [(t + 1) * averages[t] - t * averages[t - 1]
                                for t in range(1, horizon)]
    means, errors = simulate_from_reset(game, 4000, horizon, seed=11)
    assert np.all(np.abs(means - per_spin) <= 4 * errors)
    means, errors = simulate_from_reset(game, 4000, horizon, seed=11, moving=False)
    assert np.any(np.abs(means - per_spin) > 4 * errors)


@pytest.mark.parametrize("old, new, key", [
    ('symbol = "W"', 'symbol = "X"', "random_wilds.symbol"),
    ("[[6, 1, 1], [5, 2, 1], [4, 1, 2]]", "[[6, 1, 1], [5, 2, 1]]", "random_wilds.weights"),
    ("[[6, 1, 1], [5, 2, 1], [4, 1, 2]]", "[[6, 1], [5, 2, 1], [4, 1, 2]]",
     "random_wilds.weights[0]"),
    ('feature = "surprise"', 'feature = "mystery"', "conveyor.wheel[5].feature"),
    ('value = 6, weight = 2', 'value = 0, weight = 2', "conveyor.wheel[3].value"),
    ("empty_weight = 2", "empty_weight = -1", "conveyor.empty_weight"),
    ("start_baubles = 2", "start_baubles = 4", "conveyor.free_spins.start_baubles"),
    ('reels = "free"', 'reels = "fre"', "conveyor.free_spins.reels"),
    ("surprise = {", "surprize = {", "conveyor.surprize"),
    ("W = { wild = true }", "W = { wild = true, pays = { 3 = 5 } }", "symbols.W.pays"),
    ('A = { pays = { 3 = 20 } }', 'A = { pays = { 3 = 20 } }\nX = { pays = { 3 = 1 } }',
     None),
])
def test_bad_conveyor_files_get_one_clear_error(old, new, key):
    assert old in TEXT
    text = TEXT.replace(old, new, 1)
    if key is None:  # the wild on a strip
        text = text.replace('base = [["A", "B", "C", "C"]', 'base = [["A", "W", "C", "C"]')
        key = "reels.base[0]"
    with pytest.raises(GameFileError) as err:
        loads_game(text, "bad.toml")
    assert err.value.key == key, str(err.value)


def test_target_rtp_is_read():
    game = loads_game("target_rtp = 96.5\n" + TEXT)
    assert game.target_rtp == Fraction(965, 10)
    with pytest.raises(GameFileError, match="target_rtp"):
        loads_game("target_rtp = -3\n" + TEXT)


def test_the_bundled_tiny_game_loads_from_the_public_api():
    assert slotmath.load_game(TINY).conveyor is not None


def test_charts_draw_what_their_data_says():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from slotmath.plot import (
        plot_rtp_by_visible_state,
        plot_rtp_from_reset,
        plot_stationary,
        rtp_by_visible_state_data,
        rtp_from_reset_data,
        stationary_data,
    )

    a = slotmath.analyze(loads_game(TEXT))
    f = a.features["conveyor"]
    assert rtp_by_visible_state_data(a).probability.sum() == pytest.approx(1, abs=1e-12)
    df = stationary_data(a)
    assert all(df[df.slot == j].exact.sum() == 1 for j in (1, 2, 3))
    reset = rtp_from_reset_data(a, spins=(1, 3))
    assert list(reset.rtp) == [100 * x for x in f.rtp_from_reset((1, 3))]
    fig, axs = plt.subplots(1, 3)
    plot_stationary(a, axs[0])
    plot_rtp_by_visible_state(a, axs[1])
    plot_rtp_from_reset(a, axs[2], spins=(1, 3))
    assert len(axs[2].lines[0].get_xdata()) == 2
    plt.close(fig)


def test_design_edits_are_checked_like_a_file():
    from slotmath.errors import RuleError
    from slotmath.model.persistent import with_conveyor_design

    game = loads_game(TEXT)
    with pytest.raises(RuleError, match="no bauble 'coin_win:7'"):
        with_conveyor_design(game, values={"coin_win:7": 1})
    with pytest.raises(RuleError, match="never delivers"):
        with_conveyor_design(game, wheel={b.label: 0 for b, _ in game.conveyor.wheel})
    kept = ConveyorFeature(game).analyze().rtp
    consumed = ConveyorFeature(with_conveyor_design(game, consume_on_activation=True)).analyze()
    assert consumed.rtp < kept  # removing baubles can only take features away


def test_a_surprise_feature_weighing_0_whose_baubles_all_weigh_0_is_never_drawn():
    """Found by the conveyor simulator's random games: a surprise feature of weight 0 whose
    baubles all weigh 0 on the wheel made the surprise law divide 0 by 0 (``analyze`` said
    "internal error"). It is never drawn: the game is the one without it."""
    from dataclasses import replace

    from slotmath.model.persistent import with_conveyor_design

    game = slotmath.load_game(TINY)
    surprise = dict(game.conveyor.surprise)
    game = replace(game, conveyor=replace(game.conveyor, surprise={**surprise, "free_spins": 0}))
    free = {b.label: 0 for b, _ in game.conveyor.wheel if b.feature == "free_spins"}
    never = with_conveyor_design(game, wheel=free)
    plain = replace(never, conveyor=replace(never.conveyor, surprise={
        k: w for k, w in surprise.items() if k != "free_spins"}))
    law = never.conveyor.surprise_law()
    assert law == plain.conveyor.surprise_law() and all(b.feature != "free_spins" for b in law)
    assert slotmath.analyze(never).rtp == slotmath.analyze(plain).rtp


# -- bet levels: one conveyor feature per pay level ------------------------------------------
LEVELS = TEXT.replace("bet = 3\n", "bet = 3\nbet_levels = [1, 2, 3]\n").replace(
    "A = { pays = { 3 = 20 } }", "A = { pays = { 3 = 20 }, level_pays = { 3 = { 3 = 90 } } }")


def _round_figures(figures) -> tuple:
    r = figures.round
    return (figures.rtp, dict(figures.components), r.mean, r.variance, r.hit_frequency,
            figures.states, figures.probability)


def test_levels_with_the_same_pay_rules_share_the_conveyor_and_their_figures():
    """Levels 1 and 2 pay alike per total bet: the analyses build one feature (computed once)
    for both, whose figures equal those of a feature computed with level 2's own pays. Level
    3's column of A differs: its own feature, its own figures (those of level 3's pays)."""
    game = loads_game(LEVELS, "levels")
    assert [game.pay_level(level) for level in game.bet_levels] == [1, 1, 3]
    built = {level: slotmath.analyze(game, level).composition.stationary_built["conveyor"]
             for level in game.bet_levels}
    assert built[1] is built[2] and built[3] is not built[1] and built[3].level == 3
    for level in game.bet_levels:
        own = ConveyorFeature(game, level).analyze()  # not shared: level's own pay table
        assert _round_figures(built[level].analyze()) == _round_figures(own)
    assert built[3].analyze().rtp != built[1].analyze().rtp
