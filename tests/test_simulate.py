"""The Monte Carlo simulator: its numba evaluator against PayModel on every window, its
draws, its determinism, and its estimates against exact values computed independently
(brute force, and for free spins Wald's identity over an exact count of feature spins).

Statistical checks use fixed seeds and derandomized hypothesis, so they are deterministic;
each allows 4.5 standard errors.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import replace
from fractions import Fraction
from functools import cache

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from strategies import WHEEL_GAME, small_games, tiny_game, wheel_game

import slotmath
from slotmath import loads_game
from slotmath.evaluate.window import PayModel, window_at
from slotmath.exact.brute import brute_force, brute_force_line_trigger
from slotmath.model.game import BonusWheel, Game
from slotmath.simulate import SimulationResult, bonus_wheel, monte_carlo, simulate, spins
from slotmath.simulate.spins import ReelSet
from slotmath.simulate.tables import (
    MODE_LINE_GENERIC,
    MODE_LINE_TABLE,
    MODE_WAYS,
    compile_pays,
    compile_reels,
)

Z = 4.5  # standard errors allowed between an estimate and the exact value


# -- the evaluator: numba == PayModel on every window -------------------------------------

def _reference(game: Game, reel_set: str, level: int, stops: np.ndarray):
    """PayModel's credits, the free spins awarded and the bonus-wheel trigger lines (empty
    without a wheel) for each row of stops."""
    model = PayModel(game, level)
    reels = game.reel_sets[reel_set]
    fs = game.free_spins
    wheel = game.bonus_wheel
    wins, triggers, lines = [], [], []
    for row in stops:
        window = window_at(game, reels, row)
        wins.append(model.spin_win(window))
        triggers.append(fs.award_for(model.scatter_count(window, fs.trigger)) if fs else 0)
        if wheel is not None:
            lines.append(model.trigger_lines(window, wheel.symbol, wheel.count))
    return (np.array(wins, np.int64), np.array(triggers, np.int64),
            np.array(lines, np.int64))


def _all_stops(game: Game, reel_set: str) -> np.ndarray:
    lengths = [len(reel) for reel in game.reel_sets[reel_set].reels]
    return np.array(list(itertools.product(*map(range, lengths))), np.int64)


def _bits_for(game: Game, reel_set: str, stops: np.ndarray, width: int) -> np.ndarray:
    """Random words that the kernel's multiply-shift turns into exactly these stops.

    For a stop starting at cumulative weight u of a reel of total weight T, the largest
    w-bit x with floor(x * T / 2**w) = u is never rejected (its low bits are >= 2**w - T).
    32-bit words are passed as two 16-bit words, low half first.
    """
    reels = game.reel_sets[reel_set].reels
    words = []
    for row in stops:
        for j, stop in enumerate(row):
            weights = reels[j].stop_weights
            x = ((sum(weights[:stop]) + 1) * 2**width - 1) // sum(weights)
            words += [x] if width == 16 else [x & 0xFFFF, x >> 16]
    return np.array(words, np.uint16)


def _kernel_matches_reference(game: Game):
    level = game.bet_levels[-1]
    model = PayModel(game, level)
    table_sizes = [compile_pays.__defaults__[0]]
    if game.paylines is not None:
        table_sizes.append(0)  # force the entry-by-entry line evaluator too
    for reel_set in game.reel_sets:
        stops = _all_stops(game, reel_set)
        want_win, want_trigger, want_lines = _reference(game, reel_set, level, stops)
        for max_table in table_sizes:
            pays = compile_pays(game, model, max_table)
            reels = compile_reels(game, model, pays, reel_set)
            for parallel in (False, True):
                win, trigger, lines, rejected = spins.pay(
                    ReelSet.of(pays, reels), len(stops), stops=stops, parallel=parallel)
                np.testing.assert_array_equal(win, want_win)
                np.testing.assert_array_equal(trigger, want_trigger)
                np.testing.assert_array_equal(lines, want_lines)
                assert not rejected.any()
            # From random bits: every stop that can happen (weight > 0).
            weights = [reel.stop_weights for reel in game.reel_sets[reel_set].reels]
            live = np.array([all(weights[j][s] for j, s in enumerate(row)) for row in stops])
            for width in reels.bit_widths if live.any() else ():
                bits = _bits_for(game, reel_set, stops[live], width)
                win, trigger, lines, rejected = spins.pay(
                    ReelSet.of(pays, reels), int(live.sum()), bits=bits, bit_width=width)
                np.testing.assert_array_equal(win, want_win[live])
                np.testing.assert_array_equal(trigger, want_trigger[live])
                np.testing.assert_array_equal(lines, want_lines[live] if game.bonus_wheel
                                              else want_lines)
                assert not rejected.any()


@settings(max_examples=100, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(small_games(max_combinations=1500), st.data())
def test_kernel_pays_every_window_like_paymodel(game, data):
    if game.paylines is not None and data.draw(st.integers(0, 3), label="wheel") > 0:
        game = _with_wheel(game, data)
    _kernel_matches_reference(game)


def _with_wheel(game: Game, data) -> Game:
    """The game with a bonus wheel on a symbol of reel 1 (the bonus symbol first; a wild
    only counts as itself), so that trigger lines are compared too."""
    names = sorted(set(game.base.reels[0].symbols), key=lambda name: (name != "BN", name))
    symbol = data.draw(st.sampled_from(names), label="wheel symbol")
    count = data.draw(st.integers(1, game.n_reels), label="wheel count")
    return replace(game, bonus_wheel=BonusWheel(symbol, count, "per_line",
                                                (Fraction(1, 3),), (1,)))


@settings(max_examples=40, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(small_games(ways=False, max_combinations=1500), st.data())
def test_kernel_counts_wheel_trigger_lines_like_paymodel(game, data):
    _kernel_matches_reference(_with_wheel(game, data))


@pytest.mark.parametrize("name", ["three_reel_line", "free_spins_plain", "free_spins_retrigger"])
def test_kernel_pays_every_window_of_the_tiny_games(name):
    game = tiny_game(name)
    model = PayModel(game)
    assert compile_reels(game, model, compile_pays(game, model), "base").bit_widths == (16, 32)
    _kernel_matches_reference(game)


def _many_lines_game(n_lines: int, seed: int = 4) -> Game:
    rng = np.random.default_rng(seed)
    lines = [[int(r) for r in rng.integers(0, 3, 4)] for _ in range(n_lines)]
    strips = [[str(s) for s in rng.choice(["A", "B", "C", "W", "S", "X"], 6)] for _ in range(4)]
    return loads_game(f"""
rows = 3
bet = {n_lines}
paylines = {lines}
[symbols]
W = {{ wild = true, multiplier = 2 }}
S = {{ scatter = true, pays = {{ 3 = 5 }} }}
A = {{ pays = {{ 2 = 1, 3 = 5, 4 = 20 }} }}
B = {{ pays = {{ 3 = 10, 4 = 40 }} }}
C = {{ pays = {{ 1 = 1, 4 = 8 }} }}
X = {{}}
[reels]
base = {strips}
""".replace("'", '"'))


def test_more_lines_than_one_mask_word():
    # 150 lines: three 64-bit words of "may pay" bits per stop pair of reels 1 and 2.
    game = _many_lines_game(150)
    reels = compile_reels(game, PayModel(game), compile_pays(game, PayModel(game)), "base")
    assert reels.mask_12.size == reels.mask_23.size == 6 * 6 * 3
    _kernel_matches_reference(game)
    # Bonus-wheel trigger lines spread over three words too.
    first_two = [set(reel.symbols) for reel in game.base.reels[:2]]
    symbol = min(first_two[0] & first_two[1])
    for count, most in ((1, 40), (2, 10)):  # lines of all three words trigger, or a few
        wheel_game = replace(game, bonus_wheel=BonusWheel(symbol, count, "per_line",
                                                          (Fraction(1),), (1,)))
        _kernel_matches_reference(wheel_game)
        stops = _all_stops(wheel_game, "base")
        assert _reference(wheel_game, "base", 1, stops)[2].max() > most


def test_all_lines_mask_when_reels_are_long(monkeypatch):
    from slotmath.simulate import tables

    monkeypatch.setattr(tables, "MAX_MASK_ENTRIES", 10)  # 6 x 6 stop pairs: too many
    game = _many_lines_game(70)
    reels = compile_reels(game, PayModel(game), compile_pays(game, PayModel(game)), "base")
    assert reels.mask_12.size == reels.mask_23.size == 2
    assert not reels.mask_strides.any()
    _kernel_matches_reference(game)


@pytest.mark.parametrize("strips", [[["A", "W", "X"]], [["A", "W", "X"], ["X", "A", "A", "W"]]])
def test_one_and_two_reel_games(strips):
    game = loads_game(f"""
rows = 2
bet = 2
paylines = [{[0] * len(strips)}, {[1] * len(strips)}]
[symbols]
W = {{ wild = true, multiplier = 3 }}
A = {{ pays = {{ {", ".join(f"{k} = {3 * k - 2}" for k in range(1, len(strips) + 1))} }} }}
X = {{}}
[reels]
base = {strips}
""".replace("'", '"'))
    _kernel_matches_reference(game)


TWO_SCATTERS = """
rows = 2
bet = 3
paylines = [[0, 0, 0], [1, 1, 1], [0, 1, 0]]
[symbols]
W = { wild = true }
S = { scatter = true, pays = { 2 = 1, 3 = 4 } }
T = { scatter = true, pays = { 1 = 1, 4 = 9 } }
A = { pays = { 3 = 7 } }
X = {}
[reels]
base = [["A", "S", "T", "X"], ["W", "T", "S", "A", "X"], ["T", "S", "A", "X"]]
[free_spins]
trigger = "T"
awards = { 2 = 3, 3 = 6 }
"""


@pytest.mark.parametrize("table", [True, False])
def test_two_scatters(table, monkeypatch):
    from slotmath.simulate import tables

    if not table:  # count digits read one by one instead of a table by count code
        monkeypatch.setattr(tables, "MAX_COUNT_CODES", 1)
    game = loads_game(TWO_SCATTERS)
    pays = compile_pays(game, PayModel(game))
    assert pays.counted == ("S", "T")
    assert (pays.scatter_table.size > 0) == table
    _kernel_matches_reference(game)


def test_evaluator_modes():
    lines = tiny_game("three_reel_line")
    model = PayModel(lines)
    assert compile_pays(lines, model).mode == MODE_LINE_TABLE
    assert compile_pays(lines, model, max_table_entries=0).mode == MODE_LINE_GENERIC
    ways = tiny_game("free_spins_retrigger")
    assert compile_pays(ways, PayModel(ways)).mode == MODE_WAYS


def test_classic_fruits_sampled_windows():
    game = slotmath.load_game("data/games/classic_fruits.toml")
    model = PayModel(game)
    pays = compile_pays(game, model)
    rng = np.random.default_rng(5)
    for reel_set in ("base", "free"):
        reels = compile_reels(game, model, pays, reel_set)
        lengths = [len(reel) for reel in game.reel_sets[reel_set].reels]
        stops = np.stack([rng.integers(0, n, 3000) for n in lengths], axis=1)
        win, trigger, _, _ = spins.pay(ReelSet.of(pays, reels), len(stops), stops=stops)
        want_win, want_trigger, _ = _reference(game, reel_set, 1, stops)
        np.testing.assert_array_equal(win, want_win)
        np.testing.assert_array_equal(trigger, want_trigger)


def test_rejected_bits_are_flagged():
    # All-zero bits: x * T has low bits 0, below (2**w - T) % T unless T is a power of 2.
    for total, flagged in ((3, True), (5, True), (4, False), (3 * 2**20, True), (2**20, False)):
        game = loads_game(f"""
rows = 1
bet = 1
paylines = [[0, 0, 0]]
[symbols]
A = {{ pays = {{ 3 = 1 }} }}
[reels]
base = [{{ strip = ["A"], weights = [{total}] }}, ["A"], ["A"]]
""")
        model = PayModel(game)
        pays = compile_pays(game, model)
        reels = compile_reels(game, model, pays, "base")
        assert reels.bit_widths == ((16, 32) if total <= 2**10 else (32,))
        for width in reels.bit_widths:
            _, _, _, rejected = spins.pay(ReelSet.of(pays, reels), 4,
                                          bits=np.zeros(24, np.uint16), bit_width=width)
            assert rejected.all() == flagged


# -- determinism ----------------------------------------------------------------------------

def test_same_seed_same_result():
    game = tiny_game("free_spins_retrigger")
    first = simulate(game, 60_000, seed=11)
    assert simulate(game, 60_000, seed=11) == first
    assert simulate(game, 60_000, seed=12) != first
    assert first.spins == 60_000 and first.seed == 11 and first.level == 1


def test_batches_are_deterministic(monkeypatch):
    game = tiny_game("free_spins_plain")
    monkeypatch.setattr(monte_carlo, "BATCH", 7_000)  # several batches and a short last one
    first = simulate(game, 50_000, seed=3)
    assert simulate(game, 50_000, seed=3) == first


def test_bad_arguments():
    game = tiny_game("three_reel_line")
    with pytest.raises(ValueError, match="spins"):
        simulate(game, 0, seed=1)
    with pytest.raises(ValueError, match="bet level"):
        simulate(game, 10, seed=1, level=2)


def test_progress_bar(capsys):
    simulate(tiny_game("three_reel_line"), 1000, seed=1, progress=True)
    assert "spin" in capsys.readouterr().err


def test_result_helpers():
    result = simulate(tiny_game("three_reel_line"), 20_000, seed=2)
    low, high = result.confidence_interval(2.0)
    assert low == pytest.approx(result.rtp - 2 * result.std_error)
    assert high == pytest.approx(result.rtp + 2 * result.std_error)
    assert result.as_dict()["spins"] == 20_000
    assert isinstance(result, SimulationResult)


# -- estimates against exact values --------------------------------------------------------

def _exact_spin(table) -> tuple[Fraction, float, Fraction]:
    """Mean (bets), SD (bets) and hit probability of one spin, from its exact table."""
    weights = table.credits_weights()
    mean = Fraction(sum(c * w for c, w in weights.items()), table.cycle)
    square = Fraction(sum(c * c * w for c, w in weights.items()), table.cycle)
    sd = math.sqrt(square - mean * mean) / table.credits_per_bet
    return mean / table.credits_per_bet, sd, Fraction(table.hit_weight, table.cycle)


def _assert_spin_estimates(result: SimulationResult, table):
    mean, sd, hit = _exact_spin(table)
    n = result.spins
    assert abs(result.rtp - float(mean)) <= Z * sd / math.sqrt(n) + 1e-12
    hit_sd = math.sqrt(float(hit * (1 - hit)))
    assert abs(result.hit_frequency - float(hit)) <= Z * hit_sd / math.sqrt(n) + 1e-12
    assert result.rtp == result.base
    assert result.free_spins == result.trigger_rate == 0


@settings(max_examples=30, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(small_games(free_spins=False, max_combinations=2000))
def test_simulated_rtp_of_spins_matches_brute_force(game):
    level = game.bet_levels[-1]
    result = simulate(game, 100_000, seed=2024, level=level)
    _assert_spin_estimates(result, brute_force(game, level=level))


def test_big_weights_use_rejection_and_the_exact_draw(monkeypatch):
    # Reel 1 has total weight 3 * 2**30: a quarter of all 32-bit words are rejected and
    # drawn again. Reel 3's total weight is above 2**32: the Generator draws every stop.
    base = """
rows = 1
bet = 1
paylines = [[0, 0, 0]]
[symbols]
A = {{ pays = {{ 2 = 1, 3 = 5 }} }}
B = {{ pays = {{ 3 = 20 }} }}
[reels]
base = [{{ strip = ["A", "B"], weights = [{0}, {1}] }}, ["A", "B", "A"], {{ strip = ["B", "A"], weights = [{2}, {3}] }}]
"""
    calls = []
    draw = spins.draw_stops
    monkeypatch.setattr(spins, "draw_stops",
                        lambda rng, reels, n: calls.append(n) or draw(rng, reels, n))
    rejecting = loads_game(base.format(2**30, 2**31, 1, 3))
    result = simulate(rejecting, 200_000, seed=8)
    assert 0 < sum(calls) < 200_000 * 0.3  # about a quarter of the spins drawn again
    _assert_spin_estimates(result, brute_force(rejecting))

    calls.clear()
    huge = loads_game(base.format(1, 2, 2**33, 2**32 + 7))
    result = simulate(huge, 100_000, seed=8)
    assert sum(calls) == 100_000  # every spin drawn by the Generator
    _assert_spin_estimates(result, brute_force(huge))


# -- whole rounds with free spins ----------------------------------------------------------

def exact_round(game: Game, level: int = 1) -> dict[str, Fraction]:
    """Exact round figures by a method independent of the simulator and of markov/.

    The feature's free spins are independent and identically distributed, and whether a
    next spin is played depends only on the spins before it, so by Wald's identity
    E[feature win] = multiplier x E[free spin win] x E[number of free spins]. E[number of
    spins] comes from a plain recursion over (spins left, spins awarded so far).
    """
    fs = game.free_spins
    base = brute_force(game, "base", level)
    free = brute_force(game, fs.reels, level)
    cap = fs.max_spins

    base_counts = base.trigger_weights()
    free_counts = free.trigger_weights()
    p_free = {c: Fraction(w, free.cycle) for c, w in free_counts.items()}

    @cache
    def spins_left(remaining: int, awarded: int) -> Fraction:
        if remaining == 0:
            return Fraction(0)
        total = Fraction(1)
        for count, p in p_free.items():
            extra = fs.award_for(count) if fs.retrigger else 0
            if cap is not None:
                extra = min(extra, cap - awarded)
            total += p * spins_left(remaining - 1 + extra, awarded + extra)
        return total

    def expected_spins(award: int) -> Fraction:
        if cap is not None:
            award = min(award, cap)
            return spins_left(award, award)
        if not fs.retrigger:
            return Fraction(award)
        per_spin = sum(p * fs.award_for(c) for c, p in p_free.items())
        return award / (1 - per_spin)  # each spin's expected offspring: a branching process

    trigger_probability = Fraction(0)
    spins = Fraction(0)
    for count, weight in base_counts.items():
        award = fs.award_for(count)
        if award:
            p = Fraction(weight, base.cycle)
            trigger_probability += p
            spins += p * expected_spins(award)
    feature = fs.multiplier * free.mean_bets * spins
    return {
        "rtp": base.mean_bets + feature,
        "base": base.mean_bets,
        "free_spins": feature,
        "trigger_probability": trigger_probability,
        "spins_per_feature": spins / trigger_probability if trigger_probability else Fraction(0),
    }


def _assert_round_estimates(result: SimulationResult, exact: dict[str, Fraction]):
    n = result.spins
    assert abs(result.rtp - float(exact["rtp"])) <= Z * result.std_error
    p = float(exact["trigger_probability"])
    assert abs(result.trigger_rate - p) <= Z * math.sqrt(p * (1 - p) / n) + 1e-12


@pytest.mark.parametrize("name", ["free_spins_plain", "free_spins_retrigger"])
def test_simulated_round_matches_exact(name):
    game = tiny_game(name)
    exact = exact_round(game)
    result = simulate(game, 300_000, seed=99)
    _assert_round_estimates(result, exact)
    # The paid spin alone, against its exact SD.
    _, sd, _ = _exact_spin(brute_force(game))
    assert abs(result.base - float(exact["base"])) <= Z * sd / math.sqrt(result.spins)
    assert result.spins_per_feature == pytest.approx(float(exact["spins_per_feature"]), rel=0.05)


def test_exact_round_by_hand():
    # free_spins_plain: no retrigger, so a feature of n spins is exactly n spins.
    game = tiny_game("free_spins_plain")
    exact = exact_round(game)
    base, free = brute_force(game), brute_force(game, "free")
    p2 = Fraction(base.trigger_weights().get(2, 0), base.cycle)
    p3 = Fraction(base.trigger_weights().get(3, 0), base.cycle)
    assert exact["spins_per_feature"] == (2 * p2 + 4 * p3) / (p2 + p3)
    assert exact["rtp"] == base.mean_bets + (p2 * 2 + p3 * 4) * 2 * free.mean_bets


@settings(max_examples=15, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(small_games(free_spins=True, max_combinations=1500))
def test_simulated_round_matches_exact_on_generated_games(game):
    exact = exact_round(game)
    result = simulate(game, 100_000, seed=7)
    _assert_round_estimates(result, exact)


# -- the bonus wheel -----------------------------------------------------------------------

def _wheel_game(per_spin: str = "per_line", multiplied: bool = False,
                retrigger: bool = True) -> Game:
    return wheel_game(per_spin, multiplied, retrigger)


def exact_wheel_round(game: Game) -> dict[str, Fraction]:
    """Exact round figures of a wheel game without retrigger, from brute-force tables.

    A spin with b trigger lines plays k(b) wheel spins (b, or min(b, 1) for "once"), each
    worth E[W] = sum prize x weight / sum weight. Without retrigger a feature of n spins is
    n independent free spins, so E[round] = E[base credits + k(b) E[W]] + sum_n P(n) n
    E[free spin win], E[free spin win] = m E[free credits] + m_W E[k(b)] E[W] (m_W = m if
    the wheel is multiplied, else 1). Also the exact SD of the paid spin with its wheel
    spins: given b, the k wheel prizes are independent, E[S^2] = k E[W^2] + k (k - 1) E[W]^2.
    """
    fs, wheel = game.free_spins, game.bonus_wheel
    assert not fs.retrigger
    total_weight = sum(wheel.weights)
    prize = sum(Fraction(p) * w for p, w in zip(wheel.prizes, wheel.weights)) / total_weight
    prize_square = sum(Fraction(p) ** 2 * w
                       for p, w in zip(wheel.prizes, wheel.weights)) / total_weight

    def spins_for(lines: int) -> int:
        return lines if wheel.per_spin == "per_line" else min(lines, 1)

    def table(reel_set: str):
        t = brute_force_line_trigger(game, wheel.symbol, wheel.count, reel_set)
        return t, {key: Fraction(w, t.cycle) for key, w in t.weights.items()}

    base, p_base = table("base")
    _, p_free = table(fs.reels)
    per_bet = base.credits_per_bet
    base_mean = base_square = base_wheel = Fraction(0)
    spins = Fraction(0)
    for (trigger, lines, credits), p in p_base.items():
        c, k = Fraction(credits, per_bet), spins_for(lines)
        base_mean += p * (c + k * prize)
        base_wheel += p * k * prize
        base_square += p * (c * c + 2 * c * k * prize + k * prize_square
                            + k * (k - 1) * prize * prize)
        spins += p * fs.award_for(trigger)
    free_credits = sum(p * Fraction(c, per_bet) for (_, _, c), p in p_free.items())
    free_wheel = sum(p * spins_for(b) for (_, b, _), p in p_free.items()) * prize
    wheel_multiplier = fs.multiplier if wheel.multiplied else 1
    free_spin = fs.multiplier * free_credits + wheel_multiplier * free_wheel
    return {
        "rtp": base_mean + spins * free_spin,
        "base": base_mean,
        "base_sd": math.sqrt(base_square - base_mean * base_mean),
        "free_spins": spins * free_spin,
        "bonus_wheel": base_wheel + spins * wheel_multiplier * free_wheel,
    }


def test_exact_wheel_round_by_hand():
    # One reel set of a single window: BN on both lines' first two reels, so 2 trigger
    # lines every spin; a scatter-free game: no feature.
    game = loads_game("""
rows = 1
bet = 2
paylines = [[0, 0], [0, 0]]
[symbols]
BN = { bonus = true }
S = { scatter = true }
[reels]
base = [["BN"], ["BN"]]
free = [["BN"], ["BN"]]
[free_spins]
trigger = "S"
awards = { 2 = 1 }
reels = "free"
retrigger = false
[bonus_wheel]
symbol = "BN"
count = 2
per_spin = "per_line"
prizes = [1, 4]
weights = [1, 1]
""")
    exact = exact_wheel_round(game)
    assert exact["rtp"] == exact["base"] == exact["bonus_wheel"] == 5  # 2 spins of mean 5/2
    assert exact["base_sd"] == pytest.approx(math.sqrt(2 * 9 / 4))  # 2 prizes of SD 3/2
    once = exact_wheel_round(replace(game, bonus_wheel=replace(game.bonus_wheel,
                                                               per_spin="once")))
    assert once["rtp"] == Fraction(5, 2) and once["base_sd"] == pytest.approx(1.5)


@pytest.mark.parametrize("per_spin, multiplied", [("per_line", False), ("once", True)])
def test_simulated_wheel_round_matches_exact(per_spin, multiplied):
    game = _wheel_game(per_spin, multiplied, retrigger=False)
    exact = exact_wheel_round(game)
    result = simulate(game, 300_000, seed=21)
    n = result.spins
    assert abs(result.rtp - float(exact["rtp"])) <= Z * result.std_error
    assert abs(result.base - float(exact["base"])) <= Z * exact["base_sd"] / math.sqrt(n)
    assert 0 < result.bonus_wheel < result.rtp
    # The wheel's share, loosely: its SD is below the round's here (prizes of 1 to 5/2 bets).
    assert abs(result.bonus_wheel - float(exact["bonus_wheel"])) <= Z * result.std_error


def test_wheel_kernel_counts_trigger_lines_on_every_window():
    for per_spin in ("per_line", "once"):
        _kernel_matches_reference(_wheel_game(per_spin))


def test_wheel_same_seed_same_result(monkeypatch):
    game = _wheel_game()
    first = simulate(game, 40_000, seed=5)
    assert simulate(game, 40_000, seed=5) == first
    assert simulate(game, 40_000, seed=6) != first
    assert first.bonus_wheel > 0
    monkeypatch.setattr(monte_carlo, "BATCH", 7_000)  # several batches and a short last one
    batched = simulate(game, 40_000, seed=5)
    assert simulate(game, 40_000, seed=5) == batched


def test_wheel_draws_by_weight():
    # Division 1 has weight 0: never drawn. Per line: spin i plays lines[i] wheel spins.
    game = loads_game(WHEEL_GAME.replace("weights = [3, 3, 2, 1]", "weights = [3, 0, 2, 1]")
                      .replace("prizes = [1, 1, 2, \"5/2\"]", "prizes = [1, 100, 2, \"5/2\"]"))
    model = PayModel(game)
    pays = compile_pays(game, model)
    per_bet = model.credits_per_bet
    assert pays.wheel_credits.tolist() == [per_bet, 100 * per_bet, 2 * per_bet, 5 * per_bet // 2]
    rng = np.random.Generator(np.random.PCG64(3))
    lines = np.array([0, 1, 3, 0, 2] * 20_000)
    wins = bonus_wheel.play_bonus_wheel(rng, pays, lines)
    assert not wins[lines == 0].any()
    one = wins[lines == 1] / per_bet
    assert set(np.unique(one)) == {1, 2, 2.5}
    for prize, weight in ((1, 3), (2, 2), (2.5, 1)):
        p = weight / 6
        assert abs((one == prize).mean() - p) <= Z * math.sqrt(p * (1 - p) / one.size)
    assert wins[lines == 3].max() <= 3 * 5 * per_bet // 2
    once = replace(pays, wheel_per_line=False)
    assert (bonus_wheel.play_bonus_wheel(rng, once, lines)[lines > 0] / per_bet <= 2.5).all()


def test_wheel_needs_paylines():
    """The model refuses a wheel on a ways game when the game is built (a game made in
    Python is checked as a game file is), so no simulator ever sees one."""
    ways = tiny_game("free_spins_retrigger")
    with pytest.raises(ValueError, match="bonus wheel needs paylines"):
        replace(ways, bonus_wheel=BonusWheel(ways.free_spins.trigger, 2, "once",
                                             (Fraction(1),), (1,)))
