"""Bounded memory for the cascade analysis (issue 24, item 2): the pieces that held a table per
credit or per outcome as Python objects give the same numbers from compact ones.

* the RTP intervals' first lattice (:func:`slotmath.stats.interval._first_lattice`) against
  the lattice on every credit it replaced (kept here as the reference, bit for bit);
* the joint tables as arrays (:class:`slotmath.exact.cascades.WeightTable`) against the plain
  dict of the same rows: same keys, weights and iteration order;
* the chunks' merge as they come (``_Rows``) against one plain dict sum of every chunk;
* a table that would not fit is refused after its first chunk, with the estimate, and the
  CLI says so in one line (exit 2).

The figures of whole games (exact fractions, golden files) are checked by the cascade and
golden suites, which run the same engine.
"""

from __future__ import annotations

import pickle
from collections import defaultdict
from fractions import Fraction

import numpy as np
import pytest

import slotmath
from slotmath.cli import main
from slotmath.exact import cascades
from slotmath.exact.cascades import TableTooLarge, WeightTable, cascade_law
from slotmath.exact.spin_table import unique_rows
from slotmath.stats import interval

TINY = "tests/data/cascades/tiny_bonus.toml"


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


# -- the joint tables as arrays ---------------------------------------------------------------
def test_weight_table_reads_as_the_dict_of_its_rows():
    rng = np.random.default_rng(3)
    keys = np.unique(rng.integers(0, 50, size=(40_000, 4)), axis=0)
    keys = keys[rng.permutation(len(keys))]  # any row order: the table keeps it
    weights = rng.integers(1, 1 << 40, size=len(keys))
    plain = {tuple(k): w for k, w in zip(keys.tolist(), weights.tolist())}
    table = WeightTable(keys, weights)
    assert len(table) == len(plain)
    assert list(table) == list(plain)  # the order, across the blocks it is read in
    assert list(table.items()) == list(plain.items())
    assert list(table.values()) == list(plain.values())
    assert all(type(w) is int for w in table.values())
    assert table == plain and dict(table) == plain
    for key in list(plain)[:: len(plain) // 50]:
        assert table[key] == plain[key] and key in table
    missing = (50, 0, 0, 0)
    assert missing not in table and (1, 2) not in table and "x" not in table
    with pytest.raises(KeyError):
        table[missing]
    again = pickle.loads(pickle.dumps(table))
    assert list(again.items()) == list(plain.items())


def _plain_sum(parts) -> dict:
    out: dict = defaultdict(int)
    for keys, values in parts:
        for k, v in zip(keys.tolist(), values.tolist()):
            out[tuple(k)] += v
    return dict(sorted(out.items()))


@pytest.mark.parametrize("total", [1 << 50, 1 << 62])  # int64 weights; Python integers
def test_rows_merged_as_they_come_equal_one_plain_sum(total):
    rng = np.random.default_rng(4)
    parts = []
    for size in (70_000, 5, 0, 80_000, 3_000, 150_000, 1):  # merges on the way, and not
        keys = rng.integers(0, 12, size=(size, 4))
        values = rng.integers(1, 1 << 30, size=size)
        if total >= 1 << 62:
            values = values.astype(object) * (1 << 40)  # sums past int64
        parts.append((keys, values))
    rows = cascades._Rows(total)
    for keys, values in parts:
        rows.add(keys, values)
    table = rows.table()
    want = _plain_sum(parts)
    assert list(table.items()) == list(want.items())


def test_cascade_law_keeps_its_joint_table_as_arrays():
    game = slotmath.load_game(TINY)
    law = cascade_law(game, keep_a=True)
    assert isinstance(law.joint, WeightTable)
    assert law.joint.keys_array.dtype == np.int64
    assert sum(law.joint.values()) == law.cycle
    keys = law.joint.keys_array
    assert (np.lexsort(keys.T[::-1]) == np.arange(len(keys))).all()  # sorted, distinct


# -- refused when it would not fit --------------------------------------------------------------
def test_a_table_that_would_not_fit_is_refused_with_its_estimate(monkeypatch):
    game = slotmath.load_game(TINY)
    seen = []
    monkeypatch.setenv("SLOTMATH_MEMORY_LIMIT", "1K")
    with pytest.raises(TableTooLarge) as err:
        cascade_law(game, keep_a=True, workers=1, progress=lambda d, n: seen.append(d))
    text = str(err.value)
    assert text.startswith(f"{game.name}: the joint table of reels 'base'")
    assert "after 1 of" in text and "KiB" in text and "1.0 KiB are available" in text
    assert seen == [0]  # refused after its first chunk, before the second was reported
    monkeypatch.setenv("SLOTMATH_MEMORY_LIMIT", "1G")
    assert len(cascade_law(game, keep_a=True, workers=1).joint) > 0


def test_memory_limit_reads_the_setting_or_the_system(monkeypatch):
    monkeypatch.setenv("SLOTMATH_MEMORY_LIMIT", "1.5M")
    assert cascades.memory_limit() == 3 << 19
    monkeypatch.delenv("SLOTMATH_MEMORY_LIMIT")
    assert 0 < cascades.memory_limit()


def test_cli_refuses_in_one_line(monkeypatch, capsys):
    path = "tests/data/cascades/tiny_free_spins.toml"  # its paid spin's table has rows
    monkeypatch.setenv("SLOTMATH_MEMORY_LIMIT", "1K")
    monkeypatch.setenv("SLOTMATH_COMPILE_NOTICE", "0")
    assert main(["analyze", path]) == 2
    out = capsys.readouterr()
    lines = out.err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in out.err and out.out == ""
    assert lines[0].startswith(f"slotmath: error: {path}: tiny cascade fs: ")
    assert "the joint table of reels" in lines[0] and "are available" in lines[0]


@pytest.mark.parametrize("seed", range(6))
def test_a_projection_of_a_weight_table_is_the_plain_dict_sum_in_its_order(seed):
    """MarkedTable.project on a WeightTable (numpy's unique rows and integer sums) gives the
    rows, weights and order of a plain dict summed in a loop, written here."""
    from slotmath.exact.spin_table import MarkedTable

    rng = np.random.default_rng(seed)
    n = int(rng.integers(1, 400))
    keys = rng.integers(0, [3, 4, 2, 6], size=(n, 4))
    weights = rng.integers(1, 10**9, n)
    marks = ("a", "b", "c")
    table = MarkedTable(marks, WeightTable(keys, weights), int(weights.sum()), 1)
    for keep in [("a",), ("c", "a"), ("b",), ()]:
        idx = [marks.index(m) for m in keep]
        plain: dict = {}
        for row, w in zip(keys.tolist(), weights.tolist()):
            k = (*(row[i] for i in idx), row[-1])
            plain[k] = plain.get(k, 0) + w
        got = table.project(keep)
        assert list(got.weights.items()) == list(plain.items())
        assert got.marks == keep
    wins: dict = {}
    for row, w in zip(keys.tolist(), weights.tolist()):
        wins[row[-1]] = wins.get(row[-1], 0) + w
    assert list(table.credits_weights().items()) == list(wins.items())
    assert table.mean_bets == Fraction(sum(c * w for c, w in wins.items()), table.cycle)
    assert table.hit_weight == sum(w for c, w in wins.items() if c > 0)


@pytest.mark.parametrize("seed", range(8))
def test_unique_rows_is_numpys_unique_over_rows(seed):
    """The int64-code path and the fallback (codes too wide) both equal numpy's unique rows."""
    rng = np.random.default_rng(seed)
    high = [3, 5, 2, 7] if seed % 2 else [2**40, 2**30, 3, 5]  # the second: codes do not fit
    keys = rng.integers(-2, high, size=(int(rng.integers(1, 300)), 4))
    keys[::3] = keys[0]
    want = np.unique(keys, axis=0, return_index=True, return_inverse=True)
    got = unique_rows(keys)
    assert np.array_equal(got[0], want[0]) and np.array_equal(got[1], want[1])
    assert np.array_equal(got[2], want[2].reshape(-1))
