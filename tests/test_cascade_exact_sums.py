"""The exact integer helpers the fast cascade paths rely on, against plain Python sums:
the workers' table merge (numpy sort, and the Python fallback for weights past int64) and the
free-spin chain's int64 dot products (32-bit halves, and the Python fallback for products
that could overflow)."""

from __future__ import annotations

import random
from collections import defaultdict

import numpy as np

from slotmath.exact.cascades import _sum_rows
from slotmath.markov.cascade_free_spins import _exact_dot


def _plain_rows(keys, values):
    out: dict = defaultdict(int)
    for k, v in zip(keys.tolist(), values.tolist()):
        out[tuple(k)] += v
    return dict(out)


def test_sum_rows_equals_a_plain_dict_sum():
    rng = np.random.default_rng(1)
    keys = rng.integers(0, 4, size=(5000, 4))
    values = rng.integers(1, 1 << 40, size=5000)
    plain = _plain_rows(keys, values)
    total = sum(values.tolist())
    assert _sum_rows(keys, values, total) == plain
    assert list(_sum_rows(keys, values, total)) == sorted(plain)
    assert _sum_rows(keys, values, 1 << 62) == plain  # the Python fallback
    assert _sum_rows(keys[:0], values[:0], 0) == {}


def test_exact_dot_equals_python_integers():
    rnd = random.Random(2)
    for top in (10, 1 << 20, 1 << 30, 1 << 40):  # the last: products past int64
        w = np.array([rnd.randrange(top) for _ in range(3000)], np.int64)
        u = np.array([rnd.randrange(top) for _ in range(3000)], np.int64)
        v = np.array([rnd.randrange(top) for _ in range(3000)], np.int64)
        plain = sum(int(a) * int(b) * int(c) for a, b, c in zip(w, u, v))
        assert _exact_dot(w, u, v) == plain
    assert _exact_dot(w[:0], u[:0], v[:0]) == 0
    # a sum past int64 from products that each fit
    w = np.full(1000, (1 << 61) - 1, np.int64)
    one = np.ones(1000, np.int64)
    assert _exact_dot(w, one, one) == 1000 * ((1 << 61) - 1)
