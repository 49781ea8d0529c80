"""The table store (slotmath.exact.store) and the bounded grouping cache of the engine.

The store must never hand back something other than what the computation gives: a missing,
empty, damaged or refused file is computed again and replaced; the store can be turned off
or moved; a folder that cannot be written only costs the time.
"""

from __future__ import annotations

import numpy as np
import pytest

from slotmath.exact import cycle, store


def _counter():
    calls = []

    def compute():
        calls.append(1)
        return np.arange(6, dtype=np.int64).reshape(2, 3) + 1

    return calls, compute


def test_stored_once_then_read(tmp_path, monkeypatch):
    monkeypatch.setenv("SLOTMATH_CACHE_DIR", str(tmp_path))
    calls, compute = _counter()
    key = store.key_of("test", 1)
    first = store.load_or_compute("test", key, compute)
    again = store.load_or_compute("test", key, compute)
    assert np.array_equal(first, again) and len(calls) == 1
    assert [p.name for p in (tmp_path / "test").glob("*.npy")] == [f"{key}.npy"]


def _slow_compute(marks: str):
    import os
    import time

    def compute():
        with open(os.path.join(marks, f"{os.getpid()}"), "w"):
            pass
        time.sleep(1.0)
        return np.arange(3)

    return compute


@pytest.mark.skipif(not hasattr(__import__("os"), "fork"), reason="needs fork (POSIX)")
def test_two_processes_asking_at_once_compute_once(tmp_path, monkeypatch):
    """The second process waits on the first one's lock and reads its file."""
    import multiprocessing

    monkeypatch.setenv("SLOTMATH_CACHE_DIR", str(tmp_path / "store"))
    marks = tmp_path / "marks"
    marks.mkdir()
    key = store.key_of("test", "concurrent")
    ctx = multiprocessing.get_context("fork")
    procs = [ctx.Process(target=store.load_or_compute,
                         args=("test", key, _slow_compute(str(marks)))) for _ in range(2)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(30)
    assert [p.exitcode for p in procs] == [0, 0]
    assert len(list(marks.iterdir())) == 1
    assert np.array_equal(np.load(tmp_path / "store" / "test" / f"{key}.npy"), np.arange(3))


@pytest.mark.parametrize("damage", [b"", b"not a table", b"\x93NUMPY\x01\x00"])
def test_a_damaged_file_is_computed_again_and_replaced(tmp_path, monkeypatch, damage):
    monkeypatch.setenv("SLOTMATH_CACHE_DIR", str(tmp_path))
    calls, compute = _counter()
    key = store.key_of("test", 2)
    (tmp_path / "test").mkdir()
    (tmp_path / "test" / f"{key}.npy").write_bytes(damage)
    out = store.load_or_compute("test", key, compute)
    assert len(calls) == 1 and np.array_equal(out, compute())
    assert np.array_equal(np.load(tmp_path / "test" / f"{key}.npy"), out)


def test_a_refused_array_is_computed_again(tmp_path, monkeypatch):
    monkeypatch.setenv("SLOTMATH_CACHE_DIR", str(tmp_path))
    calls, compute = _counter()
    key = store.key_of("test", 3)
    (tmp_path / "test").mkdir()
    np.save(tmp_path / "test" / f"{key}.npy", np.zeros((2, 2)))  # wrong shape and dtype
    out = store.load_or_compute("test", key, compute, valid=lambda a: a.shape[1:] == (3,))
    assert len(calls) == 1 and out.shape == (2, 3)


def test_off_and_unwritable(tmp_path, monkeypatch):
    calls, compute = _counter()
    monkeypatch.setenv("SLOTMATH_CACHE", "off")
    assert store.store_dir() is None
    store.load_or_compute("test", store.key_of("test", 4), compute)
    store.load_or_compute("test", store.key_of("test", 4), compute)
    assert len(calls) == 2
    monkeypatch.delenv("SLOTMATH_CACHE")
    blocker = tmp_path / "file"
    blocker.write_text("a file where the folder would be")
    monkeypatch.setenv("SLOTMATH_CACHE_DIR", str(blocker))
    out = store.load_or_compute("test", store.key_of("test", 5), compute)
    assert len(calls) == 3 and out.shape == (2, 3)


def test_keys_tell_apart_what_the_computation_reads():
    base = store.key_of("k", np.arange(4, dtype=np.int64), (1, "a"), [np.ones(2)])
    others = [
        store.key_of("k", np.arange(4, dtype=np.int32), (1, "a"), [np.ones(2)]),
        store.key_of("k", np.arange(4, dtype=np.int64).reshape(2, 2), (1, "a"), [np.ones(2)]),
        store.key_of("k", np.arange(4, dtype=np.int64), (1, "b"), [np.ones(2)]),
        store.key_of("k", np.arange(4, dtype=np.int64), (1, "a"), [np.ones(3)]),
        store.key_of("k", np.arange(4, dtype=np.int64), ((1, "a"),), [np.ones(2)]),
        store.key_of("k", np.arange(4, dtype=np.int64), (True, "a"), [np.ones(2)]),
    ]
    assert len({base, *others}) == len(others) + 1


def test_the_grouping_cache_starts_afresh_when_full():
    """A cache that may keep 8 pool rows, 6 windows per table: every lookup, before and after
    it forgets, gives the groups of its own table."""
    colval = np.asarray([[0, 1], [1, 1], [0, 0], [2, 1], [1, 0], [0, 1]], dtype=np.int32)
    packs = np.asarray([0, 0, 1, 0, 0, 0], dtype=np.int64)
    weights = np.asarray([1, 2, 3, 4, 5, 6], dtype=np.int64)
    cache = cycle._new_grouping(2, 3, 8)
    pool = np.empty((4, 4), np.int64)
    tables = [np.asarray([[0, 1, 2], [0, 0, 0]], np.int32),
              np.asarray([[0, 0, 1], [0, 1, 0]], np.int32),
              np.asarray([[0, 1, 1], [0, 0, 0]], np.int32)]

    def groups(lab, start, stop, pool):
        got = {}
        for q in range(start, stop):
            w = pool[q, 0]
            key = (tuple(lab[c, colval[w, c]] for c in range(2)), pool[q, 1])
            got[key] = got.get(key, 0) + pool[q, 2]
        return got

    def expected(lab):
        want = {}
        for w in range(len(colval)):
            key = (tuple(lab[c, colval[w, c]] for c in range(2)), packs[w])
            want[key] = want.get(key, 0) + weights[w]
        return want

    for lab in tables + tables:
        start, stop, pool, cache = cycle._grouping(lab, colval, packs, weights, cache, pool)
        assert groups(lab, start, stop, pool) == expected(lab)
        assert cache[3][0] <= 8  # never more rows than it may keep
    assert cache[3][1] < len(tables) * 2  # so it forgot some tables on the way


def test_the_store_keeps_to_its_limit_dropping_the_least_recently_used(tmp_path, monkeypatch):
    """Four tables of ~1.1 KB under a 3,500-byte limit: the fourth written removes the one
    least recently used (a read marks a table used), which is then computed again when asked;
    a limit below one table keeps only the table just written; a limit that is not a size is
    one line."""
    import os

    monkeypatch.setenv("SLOTMATH_CACHE_DIR", str(tmp_path))
    monkeypatch.setenv("SLOTMATH_CACHE_MAX", "3500")
    calls = []

    def table(i):
        def compute():
            calls.append(i)
            return np.arange(128, dtype=np.int64) + i
        return compute

    keys = [store.key_of("evict", i) for i in range(5)]
    paths = [tmp_path / "evict" / f"{k}.npy" for k in keys]
    for i in range(3):
        store.load_or_compute("evict", keys[i], table(i))
    for i in range(3):  # written in order, a second apart on the clock
        os.utime(paths[i], (100 + i, 100 + i))
    assert np.array_equal(store.load_or_compute("evict", keys[0], table(0)), np.arange(128))
    assert calls == [0, 1, 2]  # read, not computed: table 0 is now the most recently used
    store.load_or_compute("evict", keys[3], table(3))
    assert [p.exists() for p in paths[:4]] == [True, False, True, True]
    assert np.array_equal(store.load_or_compute("evict", keys[1], table(1)), np.arange(128) + 1)
    assert calls == [0, 1, 2, 3, 1]  # the removed table is computed again, the same
    monkeypatch.setenv("SLOTMATH_CACHE_MAX", "10")
    store.load_or_compute("evict", keys[4], table(4))
    assert sorted(p.name for p in (tmp_path / "evict").glob("*.npy")) == [f"{keys[4]}.npy"]
    monkeypatch.setenv("SLOTMATH_CACHE_MAX", "a lot")
    with pytest.raises(ValueError, match="SLOTMATH_CACHE_MAX must be a size like 2G"):
        store.load_or_compute("evict", store.key_of("evict", 9), table(9))
    monkeypatch.setenv("SLOTMATH_CACHE_MAX", "2g")
    assert store.max_bytes() == 2 * 1024**3
