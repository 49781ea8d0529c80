"""The array paths that made Frozen Gems' ``analyze --json`` faster (issue 24, item 3), each
against a plain Python reference that shares no code with it, on random small inputs:

* ``report.cascades.mixture_quantiles`` (the free-spin win's quantiles, a mixture of sampled
  laws) against sorting every (sample, exact weight) pair and adding the weights up in
  fractions;
* ``WinDistribution``'s int64 path (plain Python ints) against a dict that adds the weights
  of equal credits, and against its own element-wise path (numpy integers take that one);
* ``features.cascades._column_weights`` (a table's weights summed by one key column) against
  a dict loop over the rows.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from slotmath.exact.cascades import WeightTable
from slotmath.exact.distribution import WinDistribution
from slotmath.features.cascades import _column_weights
from slotmath.report.cascades import mixture_quantiles


def _reference_quantile(parts, level: Fraction) -> float:
    """Every sample with its exact weight, sorted by value; the first whose running sum
    reaches ``level``."""
    pairs = sorted((float(v), share / len(x)) for x, share in parts if len(x)
                   for v in x.tolist())
    run = Fraction(0)
    for i, (v, w) in enumerate(pairs):
        run += w
        # a value's weight is all its copies': the level is reached at the last copy
        if run >= level and (i + 1 == len(pairs) or pairs[i + 1][0] != v):
            return v
    return pairs[-1][0]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.lists(st.integers(0, 12), min_size=1, max_size=15),
                          st.integers(1, 9)), min_size=1, max_size=5),
       st.lists(st.sampled_from([Fraction(1, 2), Fraction(9, 10), Fraction(99, 100),
                                 Fraction(999, 1000), Fraction(1, 3), Fraction(1, 1)]),
                min_size=1, max_size=4))
def test_mixture_quantile_is_the_sorted_pairs_exact_quantile(raw, levels):
    total = sum(share for _, share in raw)
    parts = [(np.array(x, np.float64) / 7, Fraction(share, total)) for x, share in raw]
    assert mixture_quantiles(parts, levels) == [_reference_quantile(parts, level)
                                                for level in levels]


def test_mixture_quantile_on_a_level_met_exactly():
    # half the mass at 1, half at 2: the median is 1 (the CDF reaches 1/2 there exactly)
    parts = [(np.array([1.0, 1.0, 2.0, 2.0]), Fraction(1, 3)),
             (np.array([1.0, 2.0]), Fraction(2, 3))]
    assert mixture_quantiles(parts, [Fraction(1, 2), Fraction(1, 2) + Fraction(1, 10**30)]) \
        == [1.0, 2.0]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.integers(-50, 50), st.integers(0, 7)), min_size=1, max_size=40),
       st.sampled_from([1, 5]))
def test_win_distribution_from_plain_ints_is_the_summed_dict(rows, cpb):
    want: dict = {}
    for c, w in rows:
        want[c] = want.get(c, 0) + w
    want = {c: w for c, w in sorted(want.items()) if w}
    credits, weights = [c for c, _ in rows], [w for _, w in rows]
    if not want:
        with pytest.raises(ValueError, match="positive weight"):
            WinDistribution(credits, weights, cpb)
        return
    fast = WinDistribution(credits, weights, cpb)
    slow = WinDistribution([np.int64(c) for c in credits], [np.int64(w) for w in weights], cpb)
    assert fast.as_dict() == slow.as_dict() == want
    assert fast.credits.dtype == np.int64 and fast.weights.dtype == object
    assert all(type(w) is int for w in fast.weights)
    assert fast.total == sum(want.values()) and fast.mean == slow.mean


def test_win_distribution_fast_path_refuses_what_the_slow_one_refuses():
    with pytest.raises(ValueError, match="non-negative"):
        WinDistribution([0, 5], [3, -1], 1)
    with pytest.raises(TypeError, match="weights must be an integer"):
        WinDistribution([0, 5], [3, True], 1)
    with pytest.raises(OverflowError):
        WinDistribution([1 << 62, 0], [1, 1], 1)
    big = WinDistribution([0, 0, 1], [1 << 62, 1 << 62, 1], 1)  # a sum past int64
    assert big.as_dict() == {0: 1 << 63, 1: 1}


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 4), st.integers(-2, 2), st.integers(0, 9)),
                min_size=1, max_size=30, unique_by=lambda r: (r[0], r[1])),
       st.integers(0, 1))
def test_column_weights_is_the_dict_loop(rows, column):
    keys = np.array([r[:2] for r in rows], np.int64)
    weights = np.array([r[2] for r in rows], np.int64)
    want: dict = {}
    for (a, b), w in zip(keys.tolist(), weights.tolist()):
        k = (a, b)[column]
        want[k] = want.get(k, 0) + w
    got = _column_weights(WeightTable(keys, weights), column, int(weights.sum()) + 1)
    assert got == want and list(got) == list(want)  # the same order: first occurrence


def _reference_samples(chain, spins: int, samples: int, seed: int):
    """:meth:`CarriedFreeSpins.samples` as numpy array operations over the alive features,
    one spin of each per round (the form before its compiled kernel)."""
    rng = np.random.default_rng(seed)
    arr, p = chain._table
    cum = np.cumsum(p)
    cap = chain.spec.max_spins
    left = np.full(samples, spins, np.int64)
    awarded = np.full(samples, spins, np.int64)
    x, y, gained = np.zeros(samples), np.zeros(samples), np.zeros(samples)
    awards = np.array([chain.spec.retrigger_for(n) if chain.spec.retrigger else 0
                       for n in range(int(arr[:, 2].max()) + 1)], np.int64)
    alive = left > 0
    while alive.any():
        idx = np.flatnonzero(alive)
        pick = np.minimum(np.searchsorted(cum, rng.random(idx.size)), len(cum) - 1)
        yy, aa, nn, cc = arr[pick].T
        x[idx] += aa
        y[idx] += yy + chain.beta * gained[idx] * aa
        gained[idx] += cc
        add = awards[nn]
        if cap is not None:
            add = np.minimum(add, cap - awarded[idx])
        awarded[idx] += add
        left[idx] += add - 1
        alive = left > 0
    return x, y


@settings(max_examples=60, deadline=None)
@given(st.dictionaries(st.tuples(st.integers(0, 400), st.integers(0, 50), st.integers(0, 3),
                                 st.integers(0, 4)), st.integers(1, 30), min_size=1, max_size=12),
       st.integers(0, 3), st.sampled_from([None, 6, 12]), st.booleans(), st.integers(1, 5),
       st.integers(0, 2**32 - 1))
def test_free_spin_samples_are_the_array_form_bit_for_bit(spin, beta, cap, retrigger, spins,
                                                          seed):
    from slotmath.markov.cascade_free_spins import CarriedFreeSpins
    from slotmath.model.game import FreeSpins

    if retrigger and cap is None:
        cap = 20
    spec = FreeSpins("S", {3: spins}, "free", 1, retrigger, cap, {1: 1, 2: 2, 3: 3})
    chain = CarriedFreeSpins(spec, spin, sum(spin.values()), 10, beta)
    for start in {spins, min(spins, cap or spins)}:
        x, y = chain.samples(start, samples=300, seed=seed)
        rx, ry = _reference_samples(chain, start, 300, seed)
        assert x.tobytes() == rx.tobytes() and y.tobytes() == ry.tobytes()


def _reference_carried_index(chain, spins: int) -> list:
    """The forward pass of ``carried_index_by_spin`` in fractions, straight from the chain's
    per-spin table: P(trigger count n) and E[cascades | n] summed over its rows."""
    from collections import defaultdict

    weight: dict = defaultdict(int)
    cascades: dict = defaultdict(int)
    for (_y, _a, n, c), w in chain.spin.items():
        weight[n] += w
        cascades[n] += w * c
    by = {n: (Fraction(w, chain.cycle), Fraction(cascades[n], w)) for n, w in weight.items()}
    layer = {(spins, spins): (Fraction(1), Fraction(0))} if spins > 0 else {}
    out = []
    while layer:
        out.append((len(out) + 1, sum(q for q, _ in layer.values()),
                    sum(r for _, r in layer.values())))
        nxt: dict = defaultdict(lambda: [Fraction(0), Fraction(0)])
        for (left, awarded), (q, r) in layer.items():
            for n, (p, mc) in by.items():
                add = chain.spec.retrigger_for(n) if chain.spec.retrigger else 0
                if chain.spec.max_spins is not None:
                    add = min(add, chain.spec.max_spins - awarded)
                if left - 1 + add == 0:
                    continue
                e = nxt[left - 1 + add, awarded + add]
                e[0] += p * q
                e[1] += p * (r + q * mc)
        layer = {k: tuple(v) for k, v in nxt.items()}
    return out


@settings(max_examples=80, deadline=None)
@given(st.dictionaries(st.tuples(st.integers(0, 40), st.integers(0, 9), st.integers(0, 3),
                                 st.integers(0, 4)), st.integers(1, 30), min_size=1, max_size=10),
       st.sampled_from([None, 5, 9]), st.booleans(), st.integers(0, 5))
def test_carried_index_is_the_fraction_pass(spin, cap, retrigger, spins):
    from slotmath.markov.cascade_free_spins import CarriedFreeSpins, carried_index_by_spin
    from slotmath.model.game import FreeSpins

    if retrigger and cap is None:
        cap = 7
    spec = FreeSpins("S", {3: max(spins, 1)}, "free", 1, retrigger, cap, {1: 1, 2: 2, 3: 3})
    # a cycle larger than the table's weights: the counts' probabilities need not sum to 1
    chain = CarriedFreeSpins(spec, spin, sum(spin.values()) + 3, 10, 1)
    got = [(r.spin, r.played, r.index_mass) for r in carried_index_by_spin(chain, spins)]
    assert got == _reference_carried_index(chain, spins)


def _law_fields(law) -> tuple:
    return (law.joint.keys_array.tobytes(), law.joint.weights_array.tobytes(), law.cycle,
            law.sums, law.cascade_weights, law.freed_weights, law.ways_weights,
            law.entry_weights, law.lean)


def test_laws_in_one_pool_are_the_laws_one_at_a_time():
    # Frozen Gems on 12-stop strips: 248,832 combinations, past the fork threshold
    import slotmath
    from slotmath.exact.cascades import LawRequest, cascade_law, cascade_laws
    from slotmath.features.cascades import fast_variant

    game = fast_variant(slotmath.load_game("data/games/frozen_gems.toml"), 12)
    free = LawRequest("free", True, True, True, False)
    seen: list = []
    both = cascade_laws(game, [LawRequest(lean=True), free], workers=2,
                        progress=[None, lambda done, n: seen.append((done, n))])
    alone = [cascade_law(game, lean=True, workers=1),
             cascade_law(game, "free", free=True, keep_a=True, lean=True, entries=False,
                         workers=1)]
    assert [_law_fields(x) for x in both] == [_law_fields(x) for x in alone]
    assert seen[0] == (0, 12) and seen[-1] == (12, 12)  # the free reels: a chunk per stop


@pytest.mark.parametrize("game", ["data/games/tiny_lines.toml",
                                  "tests/data/cascades/tiny_free_spins.toml"])
def test_analyze_json_imports_no_pandas(game):
    # pandas took ~0.25 s of every `analyze --json` (issue 24, item 3); the tables import it
    import json
    import subprocess
    import sys
    from pathlib import Path

    probe = ("import sys; from slotmath.cli import main; code = main(sys.argv[1:]); "
             "print('pandas' in sys.modules); sys.exit(code)")
    proc = subprocess.run([sys.executable, "-c", probe, "analyze", game, "--json"],
                          cwd=Path(__file__).resolve().parents[1], capture_output=True,
                          text=True, check=False)
    assert proc.returncode == 0, proc.stderr
    *document, imported = proc.stdout.rstrip().splitlines()
    assert json.loads("\n".join(document))["pays"] and imported == "False"
