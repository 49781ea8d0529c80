"""Bounded memory for the cascade analysis (issue 24, item 2): the pieces that held a table per
credit or per outcome as Python objects give the same numbers from compact ones.

* the RTP intervals' first lattice (:func:`slotmath.stats.interval._first_lattice`) against
  the lattice on every credit it replaced (kept here as the reference, bit for bit);
"""

from __future__ import annotations

import numpy as np
import pytest

from slotmath.stats import interval


def _dense_first_lattice(credits: np.ndarray, probs: np.ndarray) -> interval._Lattice:
    """The reference: the law on every credit 0..top win, trimmed, halved until it fits (what
    ``_sum_laws`` did before it went by atoms)."""
    dense = np.zeros(int(credits[-1]) + 1)
    np.add.at(dense, credits.astype(np.int64), probs)
    one = interval._Lattice(0, 1, dense).trimmed()
    while len(one.probs) > interval.MAX_BINS:
        one = one.coarser(2)
    return one


@pytest.mark.parametrize("seed", range(60))
def test_first_lattice_is_the_dense_one_bit_for_bit(seed, monkeypatch):
    rng = np.random.default_rng(seed)
    monkeypatch.setattr(interval, "MAX_BINS", int(rng.choice([4, 16, 64, 1 << 16])))
    monkeypatch.setattr(interval, "TAIL_MASS", float(rng.choice([1e-14, 1e-3, 0.05])))
    n = int(rng.integers(1, 40))
    top = int(rng.choice([1, 50, 3000, 200_000]))
    credits = np.sort(rng.integers(0, top + 1, n))  # duplicates too
    probs = rng.random(n) * (rng.random(n) > 0.2)  # some atoms of mass 0
    if probs.sum() == 0:
        probs[-1] = 1.0
    probs = probs / probs.sum()
    want = _dense_first_lattice(credits, probs)
    got = interval._first_lattice(credits, probs)
    assert (got.offset, got.width, got.rounding, got.dropped) == (
        want.offset, want.width, want.rounding, want.dropped)
    assert got.probs.dtype == want.probs.dtype and np.array_equal(got.probs, want.probs)


def test_first_lattice_never_holds_a_point_per_credit():
    """A law whose top win is 1e12 credits (8 TB as a lattice per credit) on two atoms."""
    credits = np.array([0, 10**12], np.int64)
    one = interval._first_lattice(credits, np.array([0.5, 0.5]))
    assert len(one.probs) <= interval.MAX_BINS
    assert one.probs.sum() == pytest.approx(1.0)
