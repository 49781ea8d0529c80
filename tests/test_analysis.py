"""analyze(): exact figures against independent paths (brute force, simulation), per game.

One list of cases; adding a game = adding a row.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest
from strategies import TINY_GAMES, tiny_game

import slotmath
from slotmath.exact.brute import brute_force
from slotmath.simulate import simulate

ROOT = Path(__file__).resolve().parents[1]
BUNDLED = sorted((ROOT / "data/games").glob("*.toml"))
# frozen_gems: its exact analysis takes minutes (every cascade chain of 40-stop strips), so it
# is left out here; benchmarks/bench_frozen_gems.py runs it and checks its header's figures.
BUNDLED = [p for p in BUNDLED if p.stem != "frozen_gems"]


def _cases():
    for name in sorted(TINY_GAMES):
        yield pytest.param(lambda name=name: tiny_game(name), id=f"tiny:{name}")
    for path in BUNDLED:
        yield pytest.param(lambda path=path: slotmath.load_game(path), id=path.stem)


CASES = list(_cases())


@pytest.mark.parametrize("make", CASES)
def test_figures_hold_together(make):
    game = make()
    for level in game.bet_levels:
        a = slotmath.analyze(game, level)
        if a.exact:
            assert a.rtp == sum(a.components.values())
        else:  # float parts: the same sum, up to the order of float additions
            assert a.rtp == pytest.approx(float(sum(a.components.values())), abs=1e-14)
        assert a.exact == (not game.jackpots and game.max_win is None)
        assert a.base_table.mean_bets == a.components[a.direct.kind] + a.components["scatter"]
        probs = a.distribution.probs
        assert abs(float(probs.sum()) - 1) < 1e-9
        # the distribution is the coin round's (wheel all coins, no cap): exact mean a.round.mean
        coin_rtp = float(a.round.mean)
        assert abs(float(a.distribution.mean) - coin_rtp) < 1e-9 * max(1, coin_rtp)
        assert 0 < a.hit_frequency <= 1
        if game.free_spins is None:
            assert a.distribution.mean == a.rtp  # exact distribution, exact mean
            assert a.hit_frequency == a.base_hit_frequency
            assert a.variance == a.distribution.variance
        shares = sum(float(r.rtp_share) for r in a.win_sizes)
        assert shares == pytest.approx(coin_rtp, rel=1e-9)


@pytest.mark.parametrize("make", CASES)
def test_seeded_simulation_agrees(make):
    """The Monte Carlo simulator (an independent path) lands within 4.5 standard errors."""
    game = make()
    a = slotmath.analyze(game)
    sim = simulate(game, 200_000, seed=20261129)
    # std_total: the round's whole return, jackpots included (their own checks are in
    # tests/test_simulate_jackpots.py and tests/test_jackpot_analysis.py)
    assert abs(sim.rtp - a.rtp_float) < 4.5 * a.std_total / sim.spins**0.5 + a.rtp_error
    assert abs(sim.hit_frequency - float(a.hit_frequency)) < 4.5 * (
        float(a.hit_frequency) * (1 - float(a.hit_frequency)) / sim.spins) ** 0.5


def test_feature_without_retrigger_by_hand_formula():
    """Round RTP of a no-retrigger game = base + sum_n P(n) * n * multiplier * E[free spin]."""
    for name in sorted(TINY_GAMES):
        game = tiny_game(name)
        fs = game.free_spins
        if fs is None or fs.retrigger:
            continue
        base = brute_force(game, "base")
        free = brute_force(game, fs.reels)
        expected = base.mean_bets
        for (t, _), w in base.weights.items():
            n = fs.award_for(t)
            if fs.max_spins is not None:
                n = min(n, fs.max_spins)
            expected += Fraction(w, base.cycle) * n * fs.multiplier * free.mean_bets
        assert slotmath.analyze(game).rtp == expected
