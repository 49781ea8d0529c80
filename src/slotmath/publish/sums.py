"""Which totals two independent parts of a round can pay together (a sumset), and one way to
split a total between them: the books' arithmetic for a round that plays two things at once
(a paid spin starting hold & win and free spins, a free spin with hold & win inside).

Sets of totals are boolean arrays over ``0..most`` credits; the sumset is a convolution of
the two indicator arrays (FFT, rounded: the counts are integers far below ``2**52 / n``, so
rounding cannot turn a 0 into a 1), cut at ``most``.
"""

from __future__ import annotations

import numpy as np

__all__ = ["indicator", "split", "sumset"]


def indicator(values, most: int) -> np.ndarray:
    """Boolean array over ``0..most``: True at each of ``values`` (those above ``most`` left
    out).

    >>> indicator([0, 2, 9], 4).tolist()
    [True, False, True, False, False]
    """
    out = np.zeros(int(most) + 1, bool)
    v = np.asarray(values, np.int64)
    out[v[(v >= 0) & (v <= most)]] = True
    return out


def sumset(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``{x + y : a[x], b[y]}`` over ``0..len(a) - 1`` (``a`` and ``b`` boolean, same length).

    >>> sumset(indicator([0, 2], 6), indicator([1, 3], 6)).nonzero()[0].tolist()
    [1, 3, 5]
    """
    n = len(a)
    if not a.any() or not b.any():
        return np.zeros(n, bool)
    ia, ib = np.flatnonzero(a), np.flatnonzero(b)
    if len(ia) * len(ib) <= 4096:  # small: every pair
        s = (ia[:, None] + ib[None, :]).ravel()
        return indicator(s, n - 1)
    size = 1 << int(2 * n - 1).bit_length()
    fa = np.fft.rfft(a.astype(np.float64), size)
    fb = np.fft.rfft(b.astype(np.float64), size)
    counts = np.fft.irfft(fa * fb, size)[:n]
    return counts > 0.5


def split(a: np.ndarray, b: np.ndarray, total: int, prefer=None) -> tuple[int, int] | None:
    """``(x, y)`` with ``a[x]``, ``b[y]`` and ``x + y == total`` (None: there is none); ``x``
    the first of ``prefer`` (an order of candidates) that works, else the smallest.

    >>> split(indicator([0, 2], 6), indicator([1, 3], 6), 5)
    (2, 3)
    """
    xs = np.flatnonzero(a[: total + 1]) if prefer is None else np.asarray(prefer, np.int64)
    xs = xs[(xs >= 0) & (xs <= total)]
    xs = xs[a[xs]]
    ok = b[total - xs] if len(xs) else np.zeros(0, bool)
    hit = np.flatnonzero(ok)
    if not len(hit):
        return None
    x = int(xs[hit[0]])
    return x, total - x
