"""The cascade analysis after the enumeration (issue 24: the serial part grows no faster than
the enumeration), each fast path against a plain Python computation that shares no code
with it:

* the chunks' merge held as one int64 code per row (``_Rows``: codes re-coded when a chunk
  widens the radix, rows merged as they are when no radix fits) against one plain dict sum of
  every chunk, over random chunk sequences (hypothesis);
* the re-keying of a joint table proved one-to-one by a round trip (``_columns`` with
  ``old_key``) against the plain loop that sums into a dict, including a key that is not
  one-to-one with a round trip that fails;
* the free-spin chain's per-trigger sums (rows grouped by one sort, products summed in int64
  where no product can overflow) against a row-by-row sum in Python integers;
* ``MarkedTable``'s check of its weights (``_total``, numpy halves) against ``sum``.
"""

from __future__ import annotations

from collections import defaultdict

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from slotmath.exact import cascades
from slotmath.exact.cascades import WeightTable
from slotmath.exact.spin_table import _total
from slotmath.features.cascades import MARKS, STRIDE, CascadeFreeSpins, _columns
from slotmath.markov.cascade_free_spins import CarriedFreeSpins, _exact_dot
from slotmath.model.game import FreeSpins

#: column scales and offsets: small keys; a first column past 2**20 (codes fit, but not with
#: room to grow); one far from 0 (codes fit from its least value, not from 0); keys whose
#: codes cannot fit (merged as rows)
SCALES = {"small": ((1, 1, 1, 1), 0), "wide": ((1 << 20, 1, 1, 1), 0),
          "far": ((1, 1, 1, 1), 1 << 55), "too wide": ((1 << 40, 1 << 30, 1, 1), 0)}


def _plain_sum(parts) -> dict:
    out: dict = defaultdict(int)
    for keys, values in parts:
        for k, v in zip(np.asarray(keys).tolist(), np.asarray(values).tolist()):
            out[tuple(k)] += v
    return dict(sorted(out.items()))


chunk = st.lists(st.tuples(st.tuples(*[st.integers(-3, 40)] * 4), st.integers(1, 1 << 40)),
                 max_size=40)


@settings(max_examples=150, deadline=None)
@given(st.lists(chunk, max_size=8), st.sampled_from(sorted(SCALES)), st.booleans(),
       st.integers(0, 3))
def test_rows_merged_as_codes_equal_one_plain_sum(chunks, scale, python_ints, grow):
    """Chunks whose ranges grow from one to the next (re-coding the table), negative keys,
    keys too wide for a code (the rows path, switched to mid-way), weights past int64."""
    parts = []
    for i, rows in enumerate(chunks):
        keys = np.array([r for r, _ in rows], np.int64).reshape(-1, 4)
        times, offset = SCALES[scale]
        keys = keys * np.array(times, np.int64) * (1 + i * grow)
        keys[:, 0] += offset
        values = np.array([w for _, w in rows], np.int64)
        if python_ints:
            values = values.astype(object) * (1 << 30)
        parts.append((keys, values))
    total = 1 << 62 if python_ints else 1 << 50
    merged = cascades._Rows(total)
    small = cascades._Rows(total)
    for keys, values in parts:
        merged.add(keys, values)
        small.add(keys, values)
        small._merge()  # every chunk merged at once: the table grows chunk by chunk
    want = _plain_sum(parts)
    for rows in (merged, small):
        table = rows.table()
        assert list(table.items()) == list(want.items())
        assert table.keys_array.dtype == np.int64 and table.keys_array.shape[1] == 4
        assert table.weights_array.dtype == (object if python_ints and want else np.int64)


def test_rows_switch_to_the_rows_path_after_codes_and_keep_the_table():
    """A first chunk that fits a code, a second that does not: the coded table is decoded
    once and merged as rows from then on."""
    first = (np.array([[0, 1, 2, 3], [0, 1, 2, 3], [5, 0, 0, 1]]), np.array([1, 2, 3]))
    second = (np.array([[1 << 50, 1 << 20, 0, 0], [5, 0, 0, 1]]), np.array([4, 5]))
    rows = cascades._Rows(100)
    rows.add(*first)
    rows._merge()
    assert rows.codes is not None and rows.keys is None
    rows.add(*second)
    table = rows.table()
    assert rows.codes is None
    assert dict(table) == {(0, 1, 2, 3): 3, (5, 0, 0, 1): 8, (1 << 50, 1 << 20, 0, 0): 4}
    assert list(table) == sorted(table)


def test_encode_sorts_as_the_rows_do():
    rng = np.random.default_rng(3)
    keys = rng.integers(-5, 50, size=(2000, 4))
    low, span = (-5, -5, -5, -5), (64, 55, 60, 57)
    code = cascades._encode(keys, low, span)
    assert (cascades._decode(code, low, span) == keys).all()
    assert (np.argsort(code, kind="stable") == np.lexsort(keys.T[::-1])).all()


# -- re-keying ---------------------------------------------------------------------------------
def _plain_columns(weights: dict, new_key) -> dict:
    out: dict = {}
    for key, w in weights.items():
        k = tuple(int(x) for x in new_key(*key))
        out[k] = out.get(k, 0) + w
    return out


def _table(rows: dict) -> WeightTable:
    keys = sorted(rows)
    return WeightTable(np.array(keys, np.int64).reshape(-1, 4),
                       np.array([rows[k] for k in keys], np.int64))


keys4 = st.dictionaries(st.tuples(st.integers(0, 9), st.integers(0, 9), st.integers(0, 1100),
                                  st.integers(0, 70)), st.integers(1, 99), min_size=1,
                        max_size=40)


@settings(max_examples=150, deadline=None)
@given(keys4)
def test_rekeying_proved_one_to_one_equals_the_plain_loop(rows):
    """The paid table's key (and its inverse, as features.cascades.table passes it), a key
    that is not one-to-one (sums needed) with a wrong inverse, and the chain's key."""
    t = _table(rows)

    def paid(c, a, t, k):
        return t, t + STRIDE * k, a, c

    def back(t, i, a, c):
        return c, a, t, (i - t) // STRIDE

    def lossy(c, a, t, k):
        return t % 2, k % 2, a % 3, c // 5

    for new, old in ((paid, back), (lossy, back), (lossy, None)):
        got = _columns(t, new, old)
        want = _plain_columns(dict(rows_ordered(t)), new)
        assert list(dict(got).items()) == list(want.items())  # same keys, weights, order
    marked = _columns(t, paid, back)
    assert isinstance(marked, WeightTable)  # proved one-to-one: kept as arrays


def rows_ordered(t: WeightTable):
    return [(tuple(k), w) for k, w in zip(t.keys_array.tolist(), t.weights_array.tolist())]


@settings(max_examples=100, deadline=None)
@given(keys4)
def test_the_chains_key_is_the_laws_key_back(rows):
    """The free-spin chain's table read off the marked table equals the plain loop's, also
    with the marks in another order (the round trip follows the marks' names)."""
    from slotmath.exact.spin_table import MarkedTable

    rows = {(c, a, t % STRIDE, k): w for (c, a, t, k), w in rows.items()}
    law = _table(rows)
    spec = FreeSpins("S", {3: 5}, "free", 1, False, None)
    for marks, new in ((MARKS, lambda c, a, t, k: (t, t + STRIDE * k, a, c)),
                       (("drop_sum", "trigger_index", "trigger"),
                        lambda c, a, t, k: (a, t + STRIDE * k, t, c))):
        weights = _columns(law, new)
        table = MarkedTable(marks, weights, sum(rows.values()), 1)
        chain = CascadeFreeSpins(spec, table, 2, True).chain
        want = _plain_columns(dict(rows_ordered(law)), lambda *key: key)
        assert list(dict(chain.spin).items()) == list(want.items())


# -- the chain's sums --------------------------------------------------------------------------
def _plain_sums(spin: dict) -> dict:
    out: dict = {}
    for (y, a, n, c), w in spin.items():
        e = out.setdefault(n, [0] * 11)
        for i, term in enumerate((1, y, a, c, y * y, y * a, a * a, y * c, a * c, c * c)):
            e[i] += w * term
        e[10] += w if y == 0 else 0
    return dict(sorted(out.items()))


@settings(max_examples=100, deadline=None)
@given(st.dictionaries(st.tuples(st.integers(0, 1 << 24), st.integers(0, 1 << 22),
                                 st.integers(0, 12), st.integers(0, 70)),
                       st.integers(1, 1 << 40), min_size=1, max_size=60),
       st.sampled_from([1, 1 << 12, 1 << 20]))
def test_chain_sums_equal_python_integers(spin, scale):
    """Products past int64 (y*y*w up to 2**128) next to ones that fit; as a dict and as
    arrays."""
    spin = {(y * scale, a, n, c): w for (y, a, n, c), w in spin.items()}
    spec = FreeSpins("S", {3: 5}, "free", 1, True, 20)
    cycle = sum(spin.values())
    want = _plain_sums(spin)
    as_dict = CarriedFreeSpins(spec, spin, cycle, 1, 2)
    as_table = CarriedFreeSpins(spec, _table(spin), cycle, 1, 2)
    assert as_dict._sums == want
    assert as_table._sums == want


@pytest.mark.parametrize("top", [10, 1 << 20, 1 << 40, (1 << 62) - 1])
def test_exact_dot_with_fewer_factors(top):
    rng = np.random.default_rng(7)
    w = rng.integers(-top, top, 3000)
    u = rng.integers(-top, top, 3000)
    plain1 = sum(int(a) for a in w)
    plain2 = sum(int(a) * int(b) for a, b in zip(w, u))
    plain3 = sum(int(a) * int(b) * int(b) for a, b in zip(w, u))
    assert _exact_dot(w) == plain1
    assert _exact_dot(w, u) == plain2
    assert _exact_dot(w, None, u) == plain2
    assert _exact_dot(w, u, u) == plain3


def test_total_is_the_sum_of_the_weights():
    rng = np.random.default_rng(8)
    w = rng.integers(-(1 << 62), 1 << 62, 5000)
    t = WeightTable(np.zeros((5000, 4), np.int64), w)
    assert _total(t) == sum(w.tolist())
    assert _total({(1,): 2, (3,): 5}) == 7


@settings(max_examples=100, deadline=None)
@given(keys4)
def test_the_chain_reads_the_laws_table_as_the_plain_loop_does(rows):
    """``table`` marks its re-keyed table with the law it came from; the chain then takes the
    law's rows as they are (triggers below STRIDE) or re-keys (a trigger at or past it): the
    same rows as the plain loop over the marked table, in the same order."""
    from slotmath.exact.spin_table import MarkedTable

    law = _table(rows)
    weights = _columns(law, lambda c, a, t, k: (t, t + STRIDE * k, a, c))
    weights.law = law
    table = MarkedTable(MARKS, weights, sum(rows.values()), 1)
    spec = FreeSpins("S", {3: 5}, "free", 1, False, None)
    chain = CascadeFreeSpins(spec, table, 2, True).chain
    plain = _plain_columns(dict(rows_ordered(weights)),
                           lambda t, i, a, c: (c, a, i % STRIDE, i // STRIDE))
    assert list(dict(chain.spin).items()) == list(plain.items())
    assert (chain.spin is law) == (max(t for _, _, t, _ in rows) < STRIDE)
