"""The repeated work cut from Gus's Gold Christmas' analysis, each against a plain path.

* The law of the sum of N rounds (:func:`slotmath.stats.interval._sum_laws`, the confidence
  intervals' binary powering) makes each power's real FFT once per length and reuses it (the
  squaring and every partial sum that uses that power): against a plain powering in this file
  by ``np.fft`` itself, each FFT made afresh, the same floats bit for bit; and against the
  direct convolution of the round's law N times (``np.convolve``), within float rounding.
"""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from slotmath.stats import interval


def plain_fft_power(probs: np.ndarray, n: int) -> np.ndarray:
    """The n-fold convolution of ``probs`` by binary powering, every FFT made afresh."""

    def conv(a, b):
        m = len(a) + len(b) - 1
        size = 1 << (m - 1).bit_length()
        return np.clip(np.fft.irfft(np.fft.rfft(a, size) * np.fft.rfft(b, size), size)[:m],
                       0.0, None)

    powers, result, k = [probs], None, 0
    while n >> k:
        while len(powers) <= k:
            powers.append(conv(powers[-1], powers[-1]))
        if (n >> k) & 1:
            result = powers[k] if result is None else conv(result, powers[k])
        k += 1
    return result


def direct_power(probs: np.ndarray, n: int) -> np.ndarray:
    out = np.ones(1)
    for _ in range(n):
        out = np.convolve(out, probs)
    return out


LAWS = st.lists(st.integers(1, 9), min_size=2, max_size=6)


@settings(max_examples=40, deadline=None)
@given(weights=LAWS, spins=st.lists(st.integers(1, 8), min_size=1, max_size=4, unique=True))
def test_sum_laws_reuse_spectra(weights, spins):
    probs = np.asarray(weights, np.float64) / sum(weights)  # (no point below 1e-14: none cut)
    credits = np.arange(len(probs), dtype=np.int64)
    laws = interval._sum_laws(credits, probs, sorted(spins))  # the powers shared by all counts
    for n in spins:
        law = laws[n]
        assert law.offset == 0 and law.width == 1 and law.dropped == 0.0
        # the same floats as FFTs made afresh
        np.testing.assert_array_equal(law.probs, plain_fft_power(probs, n))
        # and the n-fold law itself
        np.testing.assert_allclose(law.probs, direct_power(probs, n), rtol=0, atol=1e-13)


def test_spectrum_made_once_per_length(monkeypatch):
    """Powering to 2**5 - 1 = 31 rounds: 5 squarings and 4 partial sums; the spectra made
    afresh would be 2 x 9 = 18 forward FFTs, reused they are 5 + 4 + 1 (each power's at the
    length its square needs, each partial sum's, the top power's at its sum's length)."""
    calls = []
    rfft = np.fft.rfft

    def counted(a, n=None, *args, **kwargs):
        calls.append(n)
        return rfft(a, n, *args, **kwargs)

    monkeypatch.setattr(np.fft, "rfft", counted)
    probs = np.array([0.5, 0.5])  # (no tail trimmed: every point's mass > 1e-14)
    law = interval._sum_laws(np.arange(2, dtype=np.int64), probs, [31])[31]
    assert law.offset == 0 and law.dropped == 0.0
    np.testing.assert_allclose(law.probs, direct_power(probs, 31), rtol=0, atol=1e-13)
    assert len(calls) < 18
