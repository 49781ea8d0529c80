"""``exact.spin_table.distinct_rows`` (whether a key table's rows are all different: the
cascade tables keep their array form when a re-keying leaves them distinct) against a plain
set of tuples, on small and on wide columns (the hash path: codes that would not fit in 62
bits), with and without repeated rows."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from slotmath.exact.spin_table import distinct_rows

WIDE = 1 << 40


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.integers(-3, 3), st.integers(0, 5), st.integers(0, 2)),
                min_size=0, max_size=30),
       st.booleans())
def test_distinct_rows_is_a_set_of_tuples(rows, wide):
    keys = np.array(rows, dtype=np.int64).reshape(-1, 3)
    if wide:  # too wide for one 62-bit code: the hash path
        keys = keys * np.array([WIDE, WIDE + 7, 1], dtype=np.int64)
    want = len({tuple(r) for r in keys.tolist()}) == len(keys)
    assert distinct_rows(keys) is want


def test_a_million_wide_rows_with_one_repeat():
    rng = np.random.default_rng(5)
    keys = rng.integers(0, 1 << 62, size=(1_000_000, 4), dtype=np.int64)
    assert distinct_rows(keys)
    keys[777_777] = keys[12]
    assert not distinct_rows(keys)
