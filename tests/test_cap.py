"""The max-win cap on a numerical round distribution stays inside its stated error bound.

For finite rounds (free spins without retrigger, or with a spin cap), the exact round law comes
from plain enumeration (:func:`test_free_spins.brute_round`, which shares no code with the
FFT composition); the cap's exact effect ``E[(R - L)+]`` is read off it and compared with
:func:`slotmath.features.cap.cap_effect` on :class:`~slotmath.features.compose.RoundLaw`'s
numerical distribution. The bound must hold and never be negative: FFT noise dropped below
the floor is signed, and a bound built from its plain sum could come out below zero (seen on
generated games before the bound used the noise's absolute mass).
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from test_free_spins import ROUNDS, base_tables, brute_round, free_tables, round_law, specs

from slotmath.exact.distribution import NumericWinDistribution
from slotmath.features.cap import cap_effect


def exact_cap(law: dict, cap_bets: Fraction) -> Fraction:
    return sum((x - cap_bets) * p for x, p in law.items() if x > cap_bets)


def check(base, free, spec, cap_bets: Fraction) -> None:
    law = brute_round(base, free, spec)
    d = round_law(base, free, spec).distribution()
    got = cap_effect(d, cap_bets * base.credits_per_bet, cap_bets)
    want = exact_cap(law, cap_bets)
    assert not got.exact and got.error >= 0
    assert abs(got.effect - float(want)) <= got.error, (got.effect, float(want), got.error)


@pytest.mark.parametrize("name", [k for k, v in ROUNDS.items() if v[2] is not None and (
    not v[2].retrigger or v[2].max_spins is not None)])
@pytest.mark.parametrize("cap_bets", [Fraction(1, 2), Fraction(1), Fraction(3), Fraction(7, 3)])
def test_cap_of_hand_rounds_within_its_bound(name, cap_bets):
    check(*ROUNDS[name], cap_bets)


@settings(max_examples=60, deadline=None)
@given(base_tables, free_tables, specs, st.sampled_from([Fraction(1, 2), Fraction(1), Fraction(2),
                                                         Fraction(5), Fraction(7, 2)]))
def test_cap_of_generated_rounds_within_its_bound(base, free, spec, cap_bets):
    assume(spec.max_spins is not None or not spec.retrigger)
    assume(spec.max_spins is not None or max(spec.awards.values()) <= 3)
    check(base, free, spec, cap_bets)


def test_signed_noise_cannot_make_the_bound_negative():
    # noise entries of both signs that cancel in their sum: the bound uses their absolute mass
    noisy = np.array([0.5, 3e-17, -3e-17, 0.5])
    credits, probs, dropped, floor, dropped_bound = NumericWinDistribution.denoised(noisy, 1)
    assert floor > 3e-17 and dropped == 0.0 and dropped_bound == pytest.approx(6e-17)
    d = NumericWinDistribution(credits, probs, 1, 0.0, dropped, floor, dropped_bound)
    got = cap_effect(d, Fraction(1), Fraction(1))
    assert got.error >= dropped_bound * 2 and got.effect == pytest.approx(1.0)
