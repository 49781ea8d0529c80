"""The RTP intervals' first lattice (:func:`slotmath.stats.interval._first_lattice`, its
halvings compiled: :func:`slotmath.stats.interval._halved`) on laws of thousands of atoms,
against the lattice on every credit, trimmed and halved by the plain :class:`_Lattice` methods
(kept here as the reference), bit for bit; and the intervals of such a law against a seeded
simulation of the mean of N rounds."""

from __future__ import annotations

import numpy as np
import pytest

from slotmath.exact.distribution import NumericWinDistribution
from slotmath.stats import interval


def _dense_first_lattice(credits: np.ndarray, probs: np.ndarray) -> interval._Lattice:
    """The law on every credit 0..top win, trimmed, then halved until it fits."""
    dense = np.zeros(int(credits[-1]) + 1)
    np.add.at(dense, credits.astype(np.int64), probs)
    one = interval._Lattice(0, 1, dense).trimmed()
    while len(one.probs) > interval.MAX_BINS:
        one = one.coarser(2)
    return one


@pytest.mark.parametrize("seed", range(12))
def test_first_lattice_of_many_atoms_is_the_dense_one_bit_for_bit(seed, monkeypatch):
    rng = np.random.default_rng(1000 + seed)
    monkeypatch.setattr(interval, "MAX_BINS", int(rng.choice([16, 256, 4096])))
    monkeypatch.setattr(interval, "TAIL_MASS", float(rng.choice([1e-14, 1e-4])))
    n = int(rng.integers(500, 5000))
    top = int(rng.choice([5000, 60_000, 300_000]))
    credits = np.sort(rng.integers(0, top + 1, n))  # duplicates too, and runs of neighbours
    credits[: n // 4] = np.sort(rng.integers(0, 64, n // 4))  # a dense head, as a slot's
    credits = np.sort(credits)
    probs = rng.pareto(1.5, n) * (rng.random(n) > 0.1)
    probs[0] += 1.0
    probs = probs / probs.sum()
    want = _dense_first_lattice(credits, probs)
    got = interval._first_lattice(credits, probs)
    assert (got.offset, got.width, got.rounding, got.dropped) == (
        want.offset, want.width, want.rounding, want.dropped)
    assert np.array_equal(got.probs, want.probs)


def test_intervals_of_a_halved_law_hold_a_simulated_mean():
    """A law over 1e6 credits (held on 4,096 points: 8 halvings): the simulated mean of 2,000
    rounds falls inside its 99.9% interval in all but a few of 400 seeded runs, and below or
    above the 50% interval about as often."""
    rng = np.random.default_rng(11)
    credits = np.unique(np.concatenate([np.arange(50), rng.integers(0, 1_000_000, 300)]))
    probs = rng.random(len(credits)) ** 4
    probs[0] += probs.sum()
    probs /= probs.sum()
    d = NumericWinDistribution(credits, probs, 100)
    spins = 2000
    out = interval.mean_intervals(d, [spins], [0.999, 0.5])
    wide, half = out[spins, 0.999], out[spins, 0.5]
    assert wide.resolution > 0  # the lattice was halved
    draws = rng.choice(credits, size=(400, spins), p=probs).mean(axis=1) / 100
    outside = np.sum((draws < wide.lower) | (draws > wide.upper))
    assert outside <= 3
    below, above = np.sum(draws < half.lower), np.sum(draws > half.upper)
    assert 40 <= below <= 140 and 40 <= above <= 140
