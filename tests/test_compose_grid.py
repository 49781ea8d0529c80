"""The round distribution's FFT grid (slotmath.features.compose): a 5-smooth length, the
spectrum of a law on every k-th point from a k times shorter FFT, the exact group sums of
a table held as a dict, and the groups summed pair by pair instead of by FFT (on the exact
grid and on a coarse one), each against a plain independent computation."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from slotmath.exact.spin_table import MarkedTable
from slotmath.features import compose
from slotmath.features.base import DenseLaw, FeatureLaw
from slotmath.features.cascades import SampledLaw
from slotmath.features.compose import (
    RoundLaw,
    _add_products,
    _grid_size,
    _in_threads,
    _onto_grid,
    _onto_points,
    _smooth_len,
    _spectrum,
)

#: DIRECT_COST that sends every one-law group through the pair-by-pair sum, or through FFT
PATHS = {"pairs": 1e-12, "fft": 1e30}


def _smooth_brute(n: int) -> int:
    m = max(n, 1)
    while True:
        x = m
        for p in (2, 3, 5):
            while x % p == 0:
                x //= p
        if x == 1:
            return m
        m += 1


def test_smooth_length_is_the_least_5_smooth_length():
    for n in [*range(1, 2000), 30001, 150001, 3000001, 4194304, 4194305]:
        assert _smooth_len(n) == _smooth_brute(n), n


def test_grid_size_holds_the_round_and_every_spacing():
    for length, steps in [(3005001, [20, 20]), (1000, [3]), (1000, [7]), (50, [4]),
                          (12345, [2, 3, 5]), (999, [])]:
        size = _grid_size(length, steps)
        assert size >= length
        assert _smooth_brute(size) == size or size % 7 == 0  # (7 is no grid spacing here)
    assert _grid_size(3005001, [20]) % 20 == 0
    assert _grid_size(1000, [7]) == _smooth_len(1000)  # 7 is not 5-smooth: no shortcut


@pytest.mark.parametrize("k", [1, 2, 3, 5, 6, 20])
@pytest.mark.parametrize("size", [60, 61, 240, 241, 1000])
def test_spectrum_of_a_spaced_law_is_the_fft_of_the_spread_array(k, size):
    rng = np.random.default_rng(size * 31 + k)
    points = (size - 1) // k + 1
    probs = rng.random(points)
    spread = np.zeros(k * (points - 1) + 1)
    spread[::k] = probs  # the law written out on the fine grid
    want = np.fft.rfft(spread, size)
    got = _spectrum(probs, k, size)
    assert got.shape == want.shape
    np.testing.assert_allclose(got, want, rtol=0, atol=1e-11 * points)


class _Spaced:
    """A round feature started by mark values 1 and 2, paying ``step`` credits times a
    point of a fixed law (its probabilities as exact fractions and as a dense law)."""

    name = "bonus"
    mark = type("M", (), {"kind": "bonus"})()

    def __init__(self, points: int, step: int, seed: int):
        rng = np.random.default_rng(seed)
        self.step = step
        self.exact = {}
        for key in (1, 2):
            w = rng.integers(0, 50, points).tolist()
            w[0] += 1
            total = sum(w)
            self.exact[key] = [Fraction(x, total) for x in w]

    def start(self, mark: int):
        return mark or None

    def law(self, key) -> FeatureLaw:
        ps = self.exact[key]
        mean = sum((i * self.step * p for i, p in enumerate(ps)), Fraction(0))
        second = sum(((i * self.step) ** 2 * p for i, p in enumerate(ps)), Fraction(0))
        return FeatureLaw(mean, second, ps[0], Fraction(0))

    def dense(self, keys):
        return {k: DenseLaw(np.asarray([float(p) for p in self.exact[k]]), self.step, 1, 0.0)
                for k in keys}


@pytest.mark.parametrize("path", sorted(PATHS))
@pytest.mark.parametrize("points,step", [(5, 6), (300, 6), (300, 7), (400, 10)])
def test_round_distribution_matches_the_exact_mixture(points, step, path, monkeypatch):
    """RoundLaw.distribution (FFT or pair by pair, spaced laws) against the mixture summed in
    fractions."""
    monkeypatch.setattr(compose, "DIRECT_COST", PATHS[path])
    base = MarkedTable(("bonus",), {(0, 0): 30, (0, 4): 7, (0, 10): 2, (1, 0): 5, (1, 2): 3,
                                    (2, 0): 2, (2, 8): 1}, 50, 1)
    feature = _Spaced(points, step, seed=points + step)
    want: dict[int, Fraction] = {}
    for (m, b), w in base.weights.items():
        p = Fraction(w, base.cycle)
        if m == 0:
            want[b] = want.get(b, 0) + p
            continue
        for i, q in enumerate(feature.exact[m]):
            want[b + i * step] = want.get(b + i * step, 0) + p * q
    d = RoundLaw(base, (feature,)).distribution()
    got = dict(zip(d.credits.tolist(), d.probs.tolist()))  # (credits: every unit is 1)
    for c, p in want.items():
        assert got.get(c, 0.0) == pytest.approx(float(p), abs=1e-13), c
    assert set(got) <= set(want)


def test_group_sums_of_a_dict_table_match_a_plain_loop():
    """RoundLaw's per-group exact sums (weights, b w, b^2 w, weight at b = 0) of a table held
    as a dict, against a loop over its rows; big weights stay exact Python ints."""
    rng = np.random.default_rng(7)
    weights = {}
    for _ in range(400):
        key = (int(rng.integers(0, 4)), int(rng.integers(0, 3)), int(rng.integers(0, 30)))
        weights[key] = weights.get(key, 0) + int(rng.integers(1, 1000)) * 10**20
    cycle = sum(weights.values())
    base = MarkedTable(("bonus", "other"), weights, cycle, 1)
    law = RoundLaw(base, (_Spaced(5, 2, 0),))
    want = _plain_group_sums(weights.items())
    assert law._groups == want
    assert list(law._groups) == list(want)  # first-row order, as the row loop meets them


def _plain_group_sums(rows) -> dict:
    """(weight, b w, b^2 w, weight at b = 0) per started mark (``(mark or None,)``) of rows
    ``((mark, other, b), w)``, by a loop over the rows, groups in first-row order."""
    want: dict = {}
    for (m, _o, b), w in rows:
        e = want.setdefault((m or None,), [0, 0, 0, 0])
        e[0] += w
        e[1] += b * w
        e[2] += b * b * w
        e[3] += w if b == 0 else 0
    return {g: tuple(v) for g, v in want.items()}


@pytest.mark.parametrize("scale", [1, 10**14, -1])
def test_group_sums_of_an_array_table_match_a_plain_loop(scale):
    """The same sums of a table held as arrays (an engine's lean table, int64 weights): the
    weights summed per win first where no sum can pass int64 (scale 1; negative weights
    too), the row loop where they might (up to 10**17 a weight, ~2e19 in all)."""
    from slotmath.exact.cascades import WeightTable

    rng = np.random.default_rng(11)
    keys = np.stack([rng.integers(0, 4, 3000), rng.integers(0, 3, 3000),
                     rng.integers(0, 40, 3000)], axis=1).astype(np.int64)
    keys = np.unique(keys, axis=0)
    keys = keys[rng.permutation(len(keys))]
    w = rng.integers(1, 1000, len(keys)).astype(np.int64) * abs(scale)
    if scale < 0:
        w[::3] *= -1
    table = WeightTable(keys, w)
    base = MarkedTable(("bonus", "other"), table, max(sum(w.tolist()), 1), 1)
    law = RoundLaw(base, (_Spaced(5, 2, 0),))
    want = _plain_group_sums(zip(map(tuple, keys.tolist()), w.tolist()))
    assert law._groups == want
    assert list(law._groups) == list(want)


@pytest.mark.parametrize("n, s, g", [(0, 3, 7), (1, 3, 7), (50, 3, 7), (1000, 10, 97),
                                     (997, 31, 300), (400, 7, 7), (123, 5, 2)])
def test_onto_grid_is_numpys_bincount_bit_for_bit(n, s, g):
    """The coarse grid's kernel against numpy's bincount over the index array it replaces:
    the same floats, added in the same order."""
    probs = np.random.default_rng(n + s + g).random(n) * 1e-3
    want = np.bincount((np.arange(n) * s + g // 2) // g, weights=probs)
    got = _onto_grid(probs, s, g // 2, g)
    assert got.shape == want.shape and np.array_equal(got, want)


class _Sampled(_Spaced):
    """:class:`_Spaced` whose dense laws are sampled (:class:`SampledLaw`): ``draws`` wins
    drawn from the exact law, few distinct points on a long grid (as Frozen Gems' are)."""

    def __init__(self, points: int, step: int, seed: int, draws: int = 500):
        super().__init__(points, step, seed)
        rng = np.random.default_rng(seed + 1)
        self.wins = {}
        for key, ps in self.exact.items():
            p = np.array([float(x) for x in ps])
            w = rng.choice(points, size=draws, p=p / p.sum())
            w[0] = points - 1  # reach the top of the grid
            self.wins[key] = w.astype(np.int64)

    def dense(self, keys):
        return {k: SampledLaw(self.wins[k], self.step, 1, 0.0) for k in keys}


@pytest.mark.parametrize("path", sorted(PATHS))
@pytest.mark.parametrize("points,step,most", [(3000, 7, 256), (5000, 3, 1024), (200, 5, 64)])
def test_coarse_round_distribution_matches_the_rounded_mixture(points, step, most, path,
                                                               monkeypatch):
    """A round whose wins need more than MAX_GRID points: each win (the paid spin's, the
    feature's) goes to the nearest point of a coarser grid of ``g`` credits. Against the
    mixture of the samples summed in fractions on that grid (``g`` read off the result: its
    credits and its stated rounding), by either path."""
    monkeypatch.setattr(compose, "MAX_GRID", most)
    monkeypatch.setattr(compose, "DIRECT_COST", PATHS[path])
    base = MarkedTable(("bonus",), {(0, 0): 30, (0, 41): 7, (0, 1003): 2, (1, 0): 5,
                                    (1, 29): 3, (2, 0): 2, (2, 512): 1, (2, 999): 1}, 51, 1)
    feature = _Sampled(points, step, seed=points + step)
    d = RoundLaw(base, (feature,)).distribution()
    g = math.gcd(*d.credits.tolist())
    assert g > 1 and d.rounding_bets == 2 * (g // 2)  # (a unit of 1 credit per bet)

    def near(x: int) -> int:
        return (x + g // 2) // g * g

    want: dict[int, Fraction] = {}
    for (m, b), w in base.weights.items():
        p = Fraction(w, base.cycle)
        if m == 0:
            want[near(b)] = want.get(near(b), 0) + p
            continue
        wins, counts = np.unique(feature.wins[m], return_counts=True)
        for i, c in zip(wins.tolist(), counts.tolist()):
            x = near(b) + near(i * step)
            want[x] = want.get(x, 0) + p * Fraction(c, len(feature.wins[m]))
    got = dict(zip(d.credits.tolist(), d.probs.tolist()))
    for c, p in want.items():
        assert got.get(c, 0.0) == pytest.approx(float(p), abs=1e-13), c
    assert set(got) <= set(want)


def test_sampled_law_atoms_are_its_probs_bit_for_bit():
    rng = np.random.default_rng(5)
    for n in (1, 7, 1000):
        wins = rng.integers(0, 50_000, n) * rng.integers(0, 2, n)
        law = SampledLaw(wins, 3, 1, 0.0)
        points, probs = law.atoms()
        dense = law.probs
        assert np.array_equal(points, np.flatnonzero(dense))
        assert np.array_equal(probs, dense[points])


@pytest.mark.parametrize("n, s, g", [(1, 3, 7), (50, 3, 7), (1000, 10, 97), (997, 31, 300),
                                     (400, 7, 7), (123, 5, 2)])
def test_onto_points_is_onto_grid_at_its_atoms_bit_for_bit(n, s, g):
    """The coarse grid from a law's atoms against :func:`_onto_grid` of its dense probs."""
    rng = np.random.default_rng(n * s + g)
    probs = rng.random(n) * 1e-3 * (rng.random(n) < 0.3)
    idx = np.flatnonzero(probs)
    want = _onto_grid(probs, s, g // 2, g)
    points, mass = _onto_points(idx.astype(np.int64), probs[idx], s, g // 2, g)
    assert np.array_equal(points, np.flatnonzero(want) if len(idx) else points)
    assert np.array_equal(mass, want[points])
    rest = np.ones(len(want), bool)
    rest[points] = False
    assert not want[rest].any()


_sparse = st.lists(st.tuples(st.integers(0, 200), st.floats(0, 1)), max_size=30)


@given(_sparse, _sparse)
def test_pair_sums_are_numpys_convolution(a, b):
    """:func:`_add_products` over two sparse laws against numpy's direct convolution of their
    dense arrays."""
    def dense(atoms):
        out = np.zeros(201)
        for i, p in atoms:
            out[i] += p
        return out

    da, db = dense(a), dense(b)
    pa, pb = np.flatnonzero(da), np.flatnonzero(db)
    out = np.zeros(401)
    _add_products(out, pa, da[pa], pb, db[pb])
    np.testing.assert_allclose(out, np.convolve(da, db), rtol=1e-12, atol=1e-300)


def test_in_threads_gives_every_result_in_order():
    """The FFT groups' spectra come back in the groups' order (their sum is then the same
    floats as one thread's), however long each takes."""
    import time

    def slow(x):
        time.sleep(0.002 * (x % 3))
        return x * x

    for items in ([], [4], list(range(9))):
        assert list(_in_threads(slow, items)) == [x * x for x in items]
        assert list(_in_threads(slow, items, ahead=2)) == [x * x for x in items]


def test_groups_summed_both_ways_in_one_round(monkeypatch):
    """Some groups pair by pair, the others by FFT, in one round (DIRECT_COST swept until
    the groups split): against the mixture summed in fractions."""
    base = MarkedTable(("bonus",), {(0, 0): 30, (0, 4): 7, (1, 0): 5, (2, 0): 2, (2, 3): 1,
                                    (2, 8): 1, (2, 13): 2, (2, 21): 1}, 49, 1)
    feature = _Spaced(300, 6, seed=3)
    want: dict[int, Fraction] = {}
    for (m, b), w in base.weights.items():
        p = Fraction(w, base.cycle)
        for i, q in (enumerate(feature.exact[m]) if m else [(0, Fraction(1))]):
            want[b + i * 6] = want.get(b + i * 6, 0) + p * q
    calls = []
    plain = compose._add_products

    def counted(*args):
        calls.append(1)
        plain(*args)

    monkeypatch.setattr(compose, "_add_products", counted)
    split = False
    for cost in np.geomspace(1e-2, 1e4, 25):
        monkeypatch.setattr(compose, "DIRECT_COST", float(cost))
        calls.clear()
        d = RoundLaw(base, (feature,)).distribution()
        got = dict(zip(d.credits.tolist(), d.probs.tolist()))
        for c, p in want.items():
            assert got.get(c, 0.0) == pytest.approx(float(p), abs=1e-13), (cost, c)
        split |= len(calls) == 1  # one of the two groups
    assert split


class _Other(_Spaced):
    """A second round feature, on a mark column of its own."""

    name = "other"
    mark = type("M", (), {"kind": "other"})()


@pytest.mark.parametrize("threads", [1, 2])
def test_fft_groups_are_one_group_at_a_time_bit_for_bit(threads, monkeypatch):
    """Every group by FFT, each FFT a task of its own on the threads (a group of two laws
    among them): the same floats as the groups transformed one at a time and added up in
    their order, written out here in plain numpy."""
    from slotmath.exact import workers
    from slotmath.exact.distribution import NumericWinDistribution

    monkeypatch.setattr(compose, "DIRECT_COST", PATHS["fft"])
    monkeypatch.setattr(workers, "default_workers", lambda: threads)
    rows = {(0, 0, 0): 30, (0, 0, 4): 7, (1, 0, 0): 5, (1, 0, 9): 1, (2, 0, 3): 2,
            (0, 1, 0): 4, (0, 2, 5): 3, (1, 2, 0): 2, (1, 2, 11): 1, (2, 1, 7): 1}
    cycle = sum(rows.values())
    base = MarkedTable(("bonus", "other"), rows, cycle, 1)
    one, two = _Spaced(40, 1, seed=5), _Other(25, 1, seed=6)
    d = RoundLaw(base, (one, two)).distribution()
    # the reference: the groups in order (not started first), one at a time
    groups = sorted({(m, n) for m, n, _ in rows},
                    key=lambda g: tuple((0, 0) if k == 0 else (1, k) for k in g))
    laws = {(0, m): np.asarray([float(p) for p in one.exact[m]]) for m in (1, 2)}
    laws |= {(1, n): np.asarray([float(p) for p in two.exact[n]]) for n in (1, 2)}
    top = max(b for *_, b in rows)
    started = [g for g in groups if g != (0, 0)]
    length = max(top + 1 + sum(len(laws[j, k]) - 1 for j, k in enumerate(g) if k)
                 for g in started)
    size = _smooth_brute(length)
    spectrum = np.zeros(size // 2 + 1, dtype=complex)
    for g in started:
        part = np.zeros(top + 1)
        for (m, n, b), w in rows.items():
            if (m, n) == g:
                part[b] += w / cycle
        spec = np.fft.rfft(part, size)
        for j, k in enumerate(g):
            if k:
                spec *= np.fft.rfft(laws[j, k], size)
        spectrum += spec
    exact = np.zeros(length)
    for (m, n, b), w in rows.items():
        if (m, n) == (0, 0):
            exact[b] += w / cycle
    credits, probs, *_ = NumericWinDistribution.denoised(
        np.fft.irfft(spectrum, size)[:length], 1, exact)
    assert d.credits.tolist() == credits.tolist()
    assert d.probs.tobytes() == probs.tobytes()
