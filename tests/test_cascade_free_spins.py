"""The carried-multiplier free-spin chain's exact moments (from the affine decomposition
W = beta*i0*X + Y over (spins left, spins awarded) only) against a plain recursion that keeps
the carried index in its state and pays each spin at that index: E[W], E[W^2], P(W = 0) and
the spin-count law, for every start."""

from __future__ import annotations

from fractions import Fraction
from functools import cache

import pytest

import slotmath
from slotmath.markov.cascade_free_spins import CarriedFreeSpins
from slotmath.model.game import FreeSpins

GAMES = ["tests/data/cascades/tiny_free_spins.toml"]


def plain(chain: CarriedFreeSpins):
    """E[W], E[W^2], P(W=0) from state (left, awarded, index): index in the state."""
    spec = chain.spec
    outcomes = [(y, a, n, c, Fraction(w, chain.cycle)) for (y, a, n, c), w in chain.spin.items()]

    @cache
    def go(left, awarded, index):
        if left == 0:
            return Fraction(0), Fraction(0), Fraction(1), Fraction(0)
        m1 = m2 = z = s = Fraction(0)
        for y, a, n, c, p in outcomes:
            win = y + chain.beta * index * a
            add = spec.retrigger_for(n) if spec.retrigger else 0
            if spec.max_spins is not None:
                add = min(add, spec.max_spins - awarded)
            e1, e2, ez, es = go(left - 1 + add, awarded + add, index + c)
            m1 += p * (win + e1)
            m2 += p * (win * win + 2 * win * e1 + e2)
            z += p * (ez if win == 0 else 0)
            s += p * (1 + es)
        return m1, m2, z, s

    return go


@pytest.mark.parametrize("path", GAMES)
def test_affine_chain_equals_plain_recursion(path):
    game = slotmath.load_game(path)
    a = slotmath.analyze(game)
    feature = next(f for f in a.round.features if f.name == "free_spins")
    chain = feature.chain
    go = plain(chain)
    cpb = chain.credits_per_bet
    for spins in sorted({min(v, game.free_spins.max_spins) for v in game.free_spins.awards.values()}):
        for index in (0, 1, 3, 7):
            m1, m2, z, s = go(spins, spins, index)
            assert chain.mean(spins, index) == m1 / cpb
            assert chain.second_moment(spins, index) == m2 / cpb**2
            assert chain.zero_probability(spins) == z
            assert chain.expected_spins(spins) == s
    # the round's exact variance uses these laws: the feature really varies
    assert a.variance > 0


def test_a_wrong_beta_is_seen():
    """The comparison can fail: a chain built with the wrong carry (beta off by one) differs."""
    game = slotmath.load_game(GAMES[0])
    a = slotmath.analyze(game)
    chain = next(f for f in a.round.features if f.name == "free_spins").chain
    wrong = CarriedFreeSpins(chain.spec, chain.spin, chain.cycle, chain.credits_per_bet,
                             chain.beta + 1)
    go = plain(chain)
    assert wrong.mean(3, 2) != go(3, 3, 2)[0] / chain.credits_per_bet


def test_spec_without_retrigger():
    game = slotmath.load_game(GAMES[0])
    a = slotmath.analyze(game)
    chain = next(f for f in a.round.features if f.name == "free_spins").chain
    spec = FreeSpins(chain.spec.trigger, chain.spec.awards, chain.spec.reels, 1, False, None)
    flat = CarriedFreeSpins(spec, chain.spin, chain.cycle, chain.credits_per_bet, chain.beta)
    go = plain(flat)
    assert flat.mean(3, 1) == go(3, 3, 1)[0] / chain.credits_per_bet
    assert flat.spins_distribution(3).probabilities == {3: Fraction(1)}
