"""analyze(): exact figures against independent paths (brute force, simulation), per game.

One list of cases; adding a game = adding a row.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest
from bundled import ANALYSED, analysed, load, round_mean_tolerance, simulation_spins
from strategies import TINY_GAMES, tiny_game

import slotmath
from slotmath.exact.brute import brute_force
from slotmath.simulate import simulate

ROOT = Path(__file__).resolve().parents[1]
BUNDLED = ANALYSED  # (tests/bundled.py: a benchmark-only game is left out)


class _Case:
    """A game of the suite and its analysis at a level: a bundled game's is the session's
    shared one (tests/bundled.py ``analysed``), a tiny game's its own."""

    def __init__(self, make, path=None):
        self.make, self.path = make, path

    def __call__(self):
        return self.make()

    def analyze(self, game, level: int = 1):
        return (slotmath.analyze(game, level) if self.path is None
                else analysed(self.path, level))


def _cases():
    for name in sorted(TINY_GAMES):
        yield pytest.param(_Case(lambda name=name: tiny_game(name)), id=f"tiny:{name}")
    for path in BUNDLED:  # (bundled.SUITE_ROUNDS)
        yield pytest.param(_Case(lambda path=path: load(path), path), id=path.stem)


CASES = list(_cases())


@pytest.mark.parametrize("make", CASES)
def test_figures_hold_together(make):
    """For every case, every level: the RTP is the sum of the components (exactly where it is
    exact), the paid spin's window is the pays' components, the distribution (where the
    analysis computes one; else it says so) has mass 1 and the round's exact mean, the hit
    frequency is a probability and the win sizes add up to the mean."""
    game = make()
    for level in game.bet_levels:
        a = make.analyze(game, level)
        # the RTP comes from the round's law, the components from the window's direct method
        # and each feature's own mean (an owner's RTP is the sum of its components by
        # definition: nothing to compare there)
        if a.composition.owner is None and a.exact:
            assert a.rtp == sum(a.components.values())
        elif a.composition.owner is None:  # float parts: the same sum, up to float order
            assert a.rtp == pytest.approx(float(sum(a.components.values())), abs=1e-14)
        rounds = getattr(game.analysis, "rounds", None)  # a simulated game (bundled.py)
        if not a.exact and rounds is None:
            assert 0 < a.rtp_error < 1e-5
        elif not a.exact:  # simulated: the error is the 95 % half-width of the rounds played
            assert a.rtp_error == pytest.approx(1.959964 * a.std / rounds**0.5, rel=0.02)
        window = a.features["pays"]
        assert all(window.components[k] == a.components[k] for k in window.components
                   if k in a.components and not a.composition.paid_spin_features
                   and a.composition.owner is None)
        assert 0 < a.hit_frequency <= 1
        try:
            d = a.distribution
        except NotImplementedError as why:  # not computed: said, with where the figures are
            assert "not computed" in str(why)
            continue
        assert abs(float(d.probs.sum()) - 1) < 1e-9
        # the distribution is the coin round's (every prize paid, no operation)
        coin_rtp = float(a.round.mean)
        # (a declared grid limit: tests/bundled.py ROUND_MEAN_TOLERANCE)
        tolerance = round_mean_tolerance(game)
        assert abs(float(d.mean) - coin_rtp) < 1e-9 * max(1, coin_rtp) + tolerance
        if not a.round.features:
            assert d.mean == a.round.mean  # exact distribution, exact mean
            assert a.hit_frequency == a.base_hit_frequency
            assert a.variance == d.variance
        shares = sum(float(r.rtp_share) for r in a.win_sizes)
        assert shares == pytest.approx(coin_rtp, rel=1e-9, abs=tolerance)


@pytest.mark.parametrize("make", CASES)
def test_seeded_simulation_agrees(make):
    """The Monte Carlo simulator's front door (an independent path) lands within 4.5 of its
    standard errors (batch means where a state carries over) plus the RTP's error bound."""
    game = make()
    a = make.analyze(game)
    sim = simulate(game, simulation_spins(game), seed=20261129)
    assert abs(sim.rtp - a.rtp_float) < 4.5 * sim.std_error + a.rtp_error
    assert sum(sim.components.values()) == pytest.approx(sim.rtp, rel=1e-9, abs=1e-12)
    try:
        hit = float(a.hit_frequency)
    except NotImplementedError:  # not computed for this game (said so): nothing to compare
        return
    assert abs(sim.hit_frequency - hit) < 4.5 * (hit * (1 - hit) / sim.spins) ** 0.5


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
