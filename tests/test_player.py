"""The player's view (slotmath.player) against paths that share no code with it.

- the law of the total win: exact integer convolution (WinDistribution.power) on small random
  laws (hypothesis), the binomial law in closed form at N up to 1e6 (the FFT roundoff and the
  Chernoff window), and a seeded simulation of whole sessions on bundled games (DKW band);
- the risk of ruin: every sequence of outcomes walked (exact fractions, hypothesis), the
  float64 recursion within its bound of the exact one, the bounds around both, and a seeded
  simulation on a bundled game;
- losses disguised as wins: brute force of the paid spin; loss per hour: simulated hours;
- the normal approximation's gap on a high-volatility game, shown against the simulation.
"""

from __future__ import annotations

import math
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from bundled import analysed
from hypothesis import given, settings
from hypothesis import strategies as st
from player_reference import (
    brute_ruin,
    dkw_epsilon,
    exact_quantile,
    exact_total_law,
    simulate_ruin,
    simulate_totals,
)
from scipy.stats import binom

from slotmath import player
from slotmath.exact.brute import brute_force
from slotmath.exact.distribution import FloatDistribution, WinDistribution
from slotmath.player import session as session_module
from slotmath.player._bounds import fft_beta, fft_rho

GAMES = Path(__file__).resolve().parents[1] / "data" / "games"


@st.composite
def small_laws(draw, max_amounts: int = 5, max_credits: int = 30):
    """A small exact win law: 1-5 amounts of 0-30 credits, weights 1-40, 1-8 credits a bet."""
    amounts = draw(st.lists(st.integers(0, max_credits), min_size=1, max_size=max_amounts,
                            unique=True))
    weights = [draw(st.integers(1, 40)) for _ in amounts]
    cpb = draw(st.integers(1, 8))
    return WinDistribution(amounts, weights, cpb)


def _fractions_cdf(probs):
    out, running = [], Fraction(0)
    for p in probs:
        running += p
        out.append(running)
    return out


# ---------------------------------------------------------------------------------------------
# The law of the total win
# ---------------------------------------------------------------------------------------------
@settings(max_examples=60, deadline=None)
@given(law=small_laws(), n=st.integers(1, 12))
def test_session_law_matches_the_exact_convolution(law, n):
    s = player.session_law(law, n)
    credits, probs = exact_total_law(law, n)
    exact = dict(zip(credits.tolist(), probs))
    assert s.tail_bound == 0.0 and s.blur == 0.0  # small: the whole support is on the grid
    computed = dict(zip(s.totals.tolist(), s.pmf.tolist()))
    assert set(exact) <= set(computed)
    worst = max(abs(computed[c] - float(exact.get(c, 0))) for c in computed)
    assert worst <= s.error_bound
    assert s.error_bound < 1e-11  # not vacuous
    # P(ahead) and the quantiles of the session RTP, against the exact law
    stake = n * law.credits_per_bet
    ahead = sum((p for c, p in exact.items() if c > stake), Fraction(0))
    f = player.probability_ahead(law, n, session=s)
    assert f.lower <= ahead <= f.upper and abs(f.value - float(ahead)) <= s.error_bound
    even = exact.get(stake, Fraction(0))
    g = player.probability_even(law, n, session=s)
    assert g.lower <= even <= g.upper
    levels = (0.05, 0.5, 0.95)
    for q, fig in zip(levels, player.rtp_quantiles(law, n, levels, session=s)):
        x = Fraction(exact_quantile(credits, probs, Fraction(q)), stake)
        assert fig.lower <= x <= fig.upper
        if fig.exact:
            assert fig.value == x


def test_the_bound_is_the_exact_error_on_a_law_with_an_atom_at_a_level():
    """A quantile whose level the CDF meets exactly cannot be told by float64: the bounds
    hold both candidates (it would be a wrong 'exact' answer otherwise)."""
    coin = WinDistribution.from_mapping({0: 1, 2: 1}, 1)
    f = player.rtp_quantiles(coin, 3, (0.5,))[0]
    assert not f.exact and f.lower <= Fraction(2, 3) <= f.upper and f.upper >= Fraction(4, 3)


@pytest.mark.parametrize("n", [10_000, 1_000_000])
def test_binomial_in_closed_form_at_large_n(n):
    """X = 3 credits with p = 0.3, else 0 (stake 1): S / 3 is Binomial(n, 0.3). The FFT law's
    whole error (TV) is within the stated bound, and the bound is not vacuous."""
    law = FloatDistribution.from_mapping({0: 0.7, 3: 0.3}, 1)
    s = player.session_law(law, n)
    k = s.totals // 3
    exact = binom.pmf(k, n, 0.3)
    outside = 1 - exact.sum()
    error = np.abs(s.pmf - exact).sum() + outside
    assert error <= s.error_bound
    assert s.error_bound < 1e-6
    assert s.roundoff_bound > 10 * (np.abs(s.pmf - exact).max())  # the bound has a margin


def test_the_chernoff_window_bounds_the_mass_it_leaves_out(monkeypatch):
    """A loose tolerance (1e-4) cuts real mass: what the window misses, and the whole error,
    stay within the stated tail bound and error bound."""
    monkeypatch.setattr(session_module, "_SMALL_GRID", 16)
    law = FloatDistribution.from_mapping({0: 0.7, 3: 0.3}, 1)
    n = 5000
    s = player.session_law(law, n, tolerance=1e-4)
    k = s.totals // 3
    exact = binom.pmf(k, n, 0.3)
    outside = 1 - exact.sum()
    assert 0 < outside <= s.tail_bound <= 1e-4
    assert np.abs(s.pmf - exact).sum() + outside <= s.error_bound


def test_a_coarsened_lattice_brackets_the_true_figures():
    """Forced onto a coarse lattice (at most 64 grid points), the stated blur and error still
    bracket the exact P(ahead) and quantiles."""
    law = WinDistribution.from_mapping({0: 9, 7: 5, 31: 2, 90: 1}, 10)
    n = 12
    s = player.session_law(law, n, max_grid=64)
    assert s.blur > 0 and s.step > law.reduced().credits[1] // 7  # it did coarsen
    credits, probs = exact_total_law(law, n)
    stake = n * 10
    ahead = sum((p for c, p in zip(credits, probs) if c > stake), Fraction(0))
    f = player.probability_ahead(law, n, session=s)
    assert f.lower <= ahead <= f.upper
    for q, fig in zip((0.1, 0.5, 0.9), player.rtp_quantiles(law, n, (0.1, 0.5, 0.9),
                                                             session=s)):
        x = Fraction(exact_quantile(credits, probs, Fraction(q)), stake)
        assert fig.lower <= x <= fig.upper
    cdf = _fractions_cdf(probs)
    for c, F in zip(credits, cdf):
        low, high = s.cdf_bounds(int(c))
        assert low <= F <= high


@settings(max_examples=40, deadline=None)
@given(law=small_laws(max_credits=60), n=st.integers(2, 10), grid=st.sampled_from([16, 32, 64]))
def test_any_coarsened_lattice_brackets_the_exact_cdf(law, n, grid):
    s = player.session_law(law, n, max_grid=grid)
    credits, probs = exact_total_law(law, n)
    for c, F in zip(credits, _fractions_cdf(probs)):
        low, high = s.cdf_bounds(int(c))
        assert low <= F <= high
        low, high = s.below_bounds(int(c) + 1)
        assert low <= F <= high


def test_fft_constants_grow_with_the_length():
    assert fft_beta(2**10) < fft_beta(2**20) < 1e-13
    assert fft_rho(2**10) < fft_rho(2**20) < 1e-13


@pytest.mark.parametrize("game, n", [("classic_fruits", 1000), ("ways_243", 3000)])
def test_a_seeded_simulation_of_sessions_agrees(game, n):
    """The FFT CDF of the total win against the empirical CDF of 20 000 simulated sessions:
    within the DKW band everywhere (alpha 1e-6)."""
    law = analysed(GAMES / f"{game}.toml").distribution
    s = player.session_law(law, n)
    rng = np.random.default_rng(20260)
    totals = np.sort(simulate_totals(law.credits, law.probs, n, 20_000, rng))
    empirical = np.searchsorted(totals, s.totals, side="right") / len(totals)
    gap = np.abs(np.cumsum(s.pmf) - empirical).max()
    assert gap <= dkw_epsilon(len(totals), 1e-6) + s.error_bound
    ahead = player.probability_ahead(law, n, session=s)
    simulated = np.mean(totals > n * law.credits_per_bet)
    assert abs(simulated - ahead.value) <= 4.5 * math.sqrt(ahead.value * (1 - ahead.value)
                                                           / len(totals))


def test_the_normal_approximation_fails_where_the_exact_law_holds():
    """Classic 3-Reel (SD 10.3 bets, top award 2700 bets) over 1000 rounds: the normal CDF
    of the total win leaves the simulation's DKW band, the exact one stays in it, and the
    normal P(ahead) is off by more than 2 points."""
    a = analysed(GAMES / "classic_3reel.toml")
    law = a.distribution
    n = 1000
    s = player.session_law(law, n)
    rng = np.random.default_rng(7)
    totals = np.sort(simulate_totals(law.credits, law.probs, n, 20_000, rng))
    empirical = np.searchsorted(totals, s.totals, side="right") / len(totals)
    band = dkw_epsilon(len(totals), 1e-6)
    exact_gap = np.abs(np.cumsum(s.pmf) - empirical).max()
    mean, sd = n * float(law.mean), math.sqrt(n) * law.std
    from scipy.special import ndtr
    normal_gap = np.abs(ndtr((s.totals - mean) / sd) - empirical).max()
    assert exact_gap <= band + s.error_bound
    assert normal_gap > 2 * band
    f = player.probability_ahead(law, n, session=s)
    assert f.normal - f.value > 0.02


# ---------------------------------------------------------------------------------------------
# The risk of ruin
# ---------------------------------------------------------------------------------------------
@settings(max_examples=60, deadline=None)
@given(law=small_laws(max_amounts=3, max_credits=12), bankroll=st.integers(1, 4),
       n=st.integers(1, 6))
def test_exact_ruin_equals_walking_every_path(law, bankroll, n):
    curve = player.ruin_curve(law, bankroll, n, method="exact")
    weights = {int(c): int(w) for c, w in zip(law.credits, law.weights)}
    for k in range(1, n + 1):
        assert curve.exact[k - 1] == brute_ruin(weights, law.credits_per_bet, bankroll, k)
    floats = player.ruin_curve(law, bankroll, n, method="float64")
    assert np.all(floats.lower <= np.array([float(x) for x in curve.exact]) + 1e-300)
    assert np.all(np.array([float(x) for x in curve.exact]) <= floats.upper)
    assert np.all(floats.upper - floats.lower < 1e-12)


def test_float_recursion_by_fft_is_within_its_bound():
    """A law of 300 amounts takes the FFT branch of the float64 recursion: within its bound of
    the exact fractions at every round."""
    rng = np.random.default_rng(3)
    amounts = rng.choice(np.arange(1, 2000), size=299, replace=False).tolist() + [0]
    weights = rng.integers(1, 30, size=300).tolist()
    weights[-1] = 4000
    law = WinDistribution(amounts, weights, 40)
    exact = player.ruin_curve(law, 3, 25, method="exact")
    floats = player.ruin_curve(law, 3, 25, method="float64")
    values = np.array([float(x) for x in exact.exact])
    assert np.all(floats.lower <= values) and np.all(values <= floats.upper)
    assert np.max(floats.upper - floats.lower) < 1e-9
    assert np.max(np.abs(floats.value - values)) > 0  # it is the float path, not a copy


def test_truncation_of_safe_balances_widens_only_the_upper_bound():
    """A strongly losing game (mean 0.7 bets): high balances leave the float64 recursion as
    safe with ruin bound 1e-13, so its upper bound moves up a little; the exact value stays
    inside."""
    law = WinDistribution.from_mapping({0: 5, 1: 3, 2: 2}, 1)
    exact = player.ruin_curve(law, 30, 400, method="exact")
    floats = player.ruin_curve(law, 30, 400, method="float64")
    values = np.array([float(x) for x in exact.exact])
    assert np.all(floats.lower <= values) and np.all(values <= floats.upper)
    from slotmath.player.law import as_player_law
    from slotmath.player.ruin import _float_recursion, _walk
    _, _, cut = _float_recursion(_walk(as_player_law(law)), 30, 400)
    assert cut[-1] > 0  # the cut happened (and its bound is in floats.upper)


@pytest.mark.parametrize("bankroll, n", [(10, 50), (40, 300)])
def test_bounds_hold_the_exact_ruin(bankroll, n):
    law = analysed(GAMES / "classic_3reel.toml").distribution
    exact = player.ruin_curve(law, bankroll, n, method="exact")
    bounds = player.ruin_curve(law, bankroll, n, method="bounds")
    values = np.array([float(exact.exact[r - 1]) for r in bounds.rounds])
    assert np.all(bounds.lower <= values) and np.all(values <= bounds.upper)
    assert bounds.figure().value is None


def test_bounds_from_a_coarsened_law_still_hold_the_exact_ruin():
    law = WinDistribution.from_mapping({0: 60, 3: 25, 10: 12, 57: 3}, 10)
    rounds = [20, 60, 120]
    sessions = {n: player.session_law(law, n, max_grid=256) for n in rounds}
    assert all(s.blur > 0 for s in sessions.values())
    exact = player.ruin_curve(law, 4, 120, method="exact")
    bounds = player.ruin_curve(law, 4, 120, method="bounds", rounds=rounds, sessions=sessions)
    values = np.array([float(exact.exact[r - 1]) for r in bounds.rounds])
    assert np.all(bounds.lower <= values) and np.all(values <= bounds.upper)


def test_simulated_ruin_agrees_on_a_bundled_game():
    law = analysed(GAMES / "ways_243.toml").distribution
    f = player.ruin_probability(law, 30, 400)
    assert f.method == "float64" and f.upper - f.lower < 1e-9
    rng = np.random.default_rng(11)
    ruined = simulate_ruin(law.credits, law.probs, law.credits_per_bet, 30, 400, 20_000, rng)
    se = math.sqrt(f.value * (1 - f.value) / len(ruined))
    assert abs(ruined.mean() - f.value) <= 4.5 * se


def test_ruin_edge_cases():
    law = WinDistribution.from_mapping({0: 1, 2: 1}, 1)
    assert player.ruin_probability(law, 6, 5).value == 0  # a bankroll above N bets
    assert player.ruin_probability(law, 1, 1).value == Fraction(1, 2)
    never = WinDistribution.from_mapping({0: 1}, 1)  # never pays: ruined at round B exactly
    curve = player.ruin_curve(never, 3, 5, method="exact")
    assert curve.exact == (0, 0, 1, 1, 1)
    with pytest.raises(ValueError, match="bankroll"):
        player.ruin_probability(law, 0, 5)
    with pytest.raises(ValueError, match="method"):
        player.ruin_curve(law, 1, 5, method="magic")
    with pytest.raises(ValueError, match="exact law"):
        player.ruin_curve(law.to_float(), 1, 5, method="exact")


def test_auto_moves_to_bounds_beyond_the_budget():
    law = analysed(GAMES / "classic_fruits.toml").distribution
    plan = player.ruin_plan(law, 1000, 1_000_000)
    assert plan["exact"] is None and plan["float64"] > 1000 and plan["method"] == "bounds"
    f = player.ruin_probability(law, 40_000, 1_000_000)
    assert f.value is None and 0 < f.lower < f.upper < 1
    assert f.lower <= f.normal <= f.upper or abs(f.normal_gap) > 0


# ---------------------------------------------------------------------------------------------
# Per round and per hour
# ---------------------------------------------------------------------------------------------
def test_losses_disguised_as_wins_match_brute_force():
    game_path = GAMES / "classic_3reel.toml"
    a = analysed(game_path)
    f = player.losses_disguised_as_wins(a.distribution)
    table = brute_force(a.game)
    weights = table.credits_weights()
    cpb = table.credits_per_bet
    inside = sum(w for c, w in weights.items() if 0 < c <= cpb)
    assert f.value == Fraction(inside, sum(weights.values()))


def test_losses_disguised_as_wins_of_a_numerical_law_against_simulation():
    law = analysed(GAMES / "classic_fruits.toml").distribution
    f = player.losses_disguised_as_wins(law)
    assert not f.exact and f.upper - f.lower < 1e-12
    rng = np.random.default_rng(5)
    from player_reference import draw_rounds
    wins = draw_rounds(law.credits, law.probs, 400_000, rng)
    share = np.mean((wins > 0) & (wins <= law.credits_per_bet))
    assert abs(share - f.value) <= 4.5 * math.sqrt(f.value * (1 - f.value) / len(wins))


def test_loss_per_hour_against_simulated_hours():
    law = analysed(GAMES / "ways_243.toml").distribution
    h = player.hourly_loss(law, 2.5)
    assert h.rounds_per_hour == 1440 and h.cycle_seconds == Fraction(5, 2)
    rng = np.random.default_rng(9)
    totals = simulate_totals(law.credits, law.probs, 1440, 4000, rng)
    losses = 1440 - totals / law.credits_per_bet
    se = losses.std() / math.sqrt(len(losses))
    assert abs(losses.mean() - float(h.expected_loss)) <= 4.5 * se
    median = h.net_quantiles[1]
    assert median.lower <= np.quantile(-losses, 0.5) + 3 * se * 10 and median.upper >= -1440


def test_loss_per_hour_is_exact_for_an_exact_rtp():
    assert player.expected_loss_per_hour(Fraction(19, 20)) == 72
    assert player.expected_loss_per_hour(Fraction(19, 20), 2.5) == 72
    assert player.expected_loss_per_hour(Fraction(19, 20), 5) == 36
    with pytest.raises(ValueError, match="cycle"):
        player.expected_loss_per_hour(Fraction(19, 20), 0)


def test_bad_laws_are_refused_in_one_line():
    with pytest.raises(ValueError, match=">= 0"):
        player.session_law(WinDistribution.from_mapping({-5: 1, 5: 1}, 5), 3)
    with pytest.raises(ValueError, match="n_rounds"):
        player.session_law(WinDistribution.from_mapping({0: 1, 5: 1}, 5), 0)
    with pytest.raises(ValueError, match="max_grid"):
        player.session_law(WinDistribution.from_mapping({0: 1, 5: 1}, 5), 20, max_grid=8)
    with pytest.raises(TypeError, match="win distribution"):
        player.session_law("classic", 3)
