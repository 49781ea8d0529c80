"""A place modifier's table after a strip move, without running its whole DP again.

The strip editor moves one slider: one reel's stops change, and the game is analysed again.
A place modifier's table (:mod:`slotmath.exact.modifiers`; Gus's Gold Christmas's Dynamite,
about 30 s of CPU) would be computed from scratch. Here it is updated instead.

**Linearity.** The DP's table ``T(V_0, ..., V_{n-1})`` is linear in each virtual reel's
window weights ``V_j``: a window's weight multiplies every entry that passes through it, and
what the DP prunes (chosen positions past the law's most, states no entry reaches) depends
on which windows there are, never on their weights. So a move of reel ``r`` from ``V_r`` to
``V'_r`` changes the table by ``T(.., D, ..)``, ``D = V'_r - V_r`` the windows whose weight
changed, with a *signed* weight (the kernels only add and multiply weights, so a negative
one is exact in int64): a handful of the reel's windows, in one run of the DP.

**What is kept** (:class:`MoveCache`, one per modifier DP, the last :data:`KEPT` of them):
the DP's input for the current strips, each reel's virtual windows, the current table, and
per part of the DP (one first-reel window, as :func:`slotmath.exact.modifiers._dense` cuts
it) its states and entries after each reel ``0 .. n-3`` (a *prefix cache*, made when a move
first needs it).

**A move on reel** ``r``:

* ``r = 0``: ``D``'s windows as one part of their own, the DP from scratch over them; the
  parts of the new first reel that were parts before keep their prefix cache;
* ``r >= 1``: per part, from its states before reel ``min(r, n-2)`` (the prefix cache), the
  DP through ``D`` on reel ``r`` and the full reels after; then the prefix cache from reel
  ``r`` on is stale, and dropped (a later move makes it again from reel ``r - 1``).

Several reels changed at once are moved one after the other, the last first. Every step is
the DP's own integer arithmetic, so the table is the one from scratch, bit for bit
(``tests/test_modifier_moves.py``: against the DP from scratch and the brute force of
``tests/modifiers_reference.py``).

What it costs on Gus's Gold Christmas's Dynamite (one process, CPU, load 4): from scratch
about 30 s; a move on reel 1 3.6 s, reel 3 4.0 s, reel 4 6.8 s, reel 5 25 s. The first reels
are cheap (the whole prefix cache, after reels 1-3, costs about 1 s to make and holds about
200 MB, nearly all of it after reel 3); the last two reels are nearly all of the time: the
line states' outcomes on reel 4 (``_outcomes``; on a reel-5 move 15 of its 25 s, the same
every time: keeping them would hold about 3 GB) and the fold through reel 5, whose cost is
merging every new state's entries, however few windows changed (9 s).
"""

from __future__ import annotations

import dataclasses
import threading
from collections import OrderedDict

import numpy as np

__all__ = ["KEPT", "LOCK", "MoveCache", "cache_for", "drop", "forget", "remember"]

#: modifier DPs kept (one per place modifier of the game whose table a move recomputes:
#: Gus's Gold Christmas has two, Dynamite and Pickaxe)
KEPT = 2

_CACHES: OrderedDict[str, MoveCache] = OrderedDict()

#: held while a kept DP moves (two threads analysing edits of one game take turns)
LOCK = threading.RLock()


def forget() -> None:
    """Drop every kept DP (tests; the memory)."""
    with LOCK:
        _CACHES.clear()


def cache_for(base: str) -> MoveCache | None:
    """The DP kept for the modifier DP whose strip-independent input has key ``base``."""
    with LOCK:
        cache = _CACHES.get(base)
        if cache is not None:
            _CACHES.move_to_end(base)
        return cache


def drop(base: str) -> None:
    """Forget the DP kept for ``base`` (a move that failed: the next one starts afresh)."""
    with LOCK:
        _CACHES.pop(base, None)


def remember(cache: MoveCache) -> None:
    """Keep ``cache`` (the oldest dropped past :data:`KEPT`)."""
    with LOCK:
        _CACHES[cache.base] = cache
        _CACHES.move_to_end(cache.base)
        while len(_CACHES) > KEPT:
            _CACHES.popitem(last=False)


def _grown(table: np.ndarray, width: int) -> np.ndarray:
    if width <= table.shape[1]:
        return table
    out = np.zeros((table.shape[0], width), np.int64)
    out[:, : table.shape[1]] = table
    return out


class MoveCache:
    """One place modifier's DP kept for the next strip move (see the module's docstring).

    ``prep``: the DP's prepared input (:class:`slotmath.exact.modifiers._Prepared`) for the
    current strips (this object's own from now on); ``virtual``: each reel's virtual windows
    ``{(shown, chosen): weight}``; ``table``: their table (dense, as the DP's parts sum);
    ``make_reel(j, virtual)``: a reel's (windows, scatter pack) from such a dict.
    """

    def __init__(self, base: str, prep, virtual: list[dict], table: np.ndarray, make_reel):
        self.base = base
        self.prep = dataclasses.replace(prep, reels=list(prep.reels))
        self.virtual = [dict(v) for v in virtual]
        self.table = table
        self.make_reel = make_reel
        self.n = len(prep.reels)
        self.parts, self.part_keys = self._parts(self.prep.reels[0])
        self.levels: list[list] = [[] for _ in self.parts]
        self.moves = 0  # reels moved so far (tests: the path was taken)
        self.workers: int | None = None  # processes sharing a move's parts (None: default)

    @staticmethod
    def _parts(first):
        """The parts of the DP (one per distinct first-reel window, as ``_dense`` cuts it)
        and a key per part: its windows' content, packs and weights."""
        rw, pack = first
        groups: dict[bytes, list[int]] = {}
        for w in range(len(rw.weights)):
            groups.setdefault(rw.columns[w].tobytes() + rw.inputs[w].tobytes(), []).append(w)
        parts, keys = [], []
        for head, g in groups.items():
            parts.append(np.asarray(g, dtype=np.int64))
            keys.append(head + b"".join(sorted(
                rw.scatter[w].tobytes() + pack[w:w + 1].tobytes() + rw.weights[w:w + 1].tobytes()
                for w in g)))
        return parts, keys

    def nbytes(self) -> int:
        """Bytes held: the prefix cache and the table."""
        total = self.table.nbytes
        for levels in self.levels:
            for level in levels:
                if level is not None:
                    states, room, entries = level
                    total += states.nbytes + room.nbytes + sum(a.nbytes for a in entries)
        return total

    def _level(self, p: int, j: int):
        """Part ``p``'s (states, room, entries) after reel ``j`` (``j <= n - 3``), made from
        the deepest one kept when missing (``None``: no entry is left)."""
        from slotmath.exact.modifiers import _part_start, _step

        levels = self.levels[p]
        while len(levels) <= j:
            i = len(levels)
            if i == 0:
                level = _part_start(self.prep, self.parts[p])
            else:
                level = levels[-1]
            if level is not None:
                level = _step(self.prep, *level, i)
                if not len(level[2][0]):
                    level = None
            levels.append(level)
        return levels[j]

    def move(self, virtual: list[dict], progress=None) -> np.ndarray:
        """The table of the strips whose virtual reels are ``virtual`` (every changed reel
        moved in turn, the last first: the prefix cache before it stays); ``progress(done,
        total)`` hears each moved reel's chunks done (the parts of all the moved reels)."""
        moved = [j for j in reversed(range(self.n)) if virtual[j] != self.virtual[j]]
        for i, j in enumerate(moved):
            def heard(done, total, i=i):
                progress(i * total + done, len(moved) * total)
            self._move(j, virtual[j], None if progress is None else heard)
        return self.table

    def _move(self, r: int, new: dict, progress=None) -> None:
        """Move reel ``r`` to the virtual windows ``new``: every new value is made first and
        then set, so a move that fails leaves the kept DP as it was (its prefix cache may have
        grown: it is the current strips')."""
        from slotmath.exact.modifiers import _part

        old = self.virtual[r]
        change = {k: new.get(k, 0) - old.get(k, 0) for k in {**old, **new}}
        change = {k: w for k, w in change.items() if w}
        n = self.n
        reel = self.make_reel(r, new)
        prep = dataclasses.replace(self.prep, reels=list(self.prep.reels))
        prep.reels[r] = self.make_reel(r, change)
        if r == 0:  # the changed windows as one part of their own, from scratch
            if progress is not None:
                progress(0, 1)
            deltas = [_part(prep, np.arange(len(change), dtype=np.int64))]
            if progress is not None:
                progress(1, 1)
        else:
            start = min(r, n - 2)  # the DP's last two reels go together
            levels = None if start == 0 else [self._level(p, start - 1)
                                              for p in range(len(self.parts))]
            deltas = _run_moved(prep, self.parts, levels, start, self.workers, progress)
        table = self.table
        for delta in deltas:
            rows, width = delta.shape
            table = _grown(table, width)
            if table is self.table:
                table = table.copy()
            table[:rows, :width] += delta
        if r == 0:
            kept = dict(zip(self.part_keys, self.levels))
            parts, part_keys = self._parts(reel)
            levels = [kept.get(k, []) for k in part_keys]
        else:
            parts, part_keys = self.parts, self.part_keys
            levels = [kept[:r] for kept in self.levels]
        # the new strips become the current ones
        self.prep.reels[r] = reel
        self.virtual[r] = dict(new)
        self.table = table
        self.parts, self.part_keys, self.levels = parts, part_keys, levels
        self.moves += 1


#: chunks a move's parts run in when they run in this process (each reported done)
HERE_CHUNKS = 8


def _run_moved(prep, parts, levels, start: int, workers: int | None,
               progress=None) -> list[np.ndarray]:
    """Every part's DP from its states before reel ``start`` (``levels``, one per part;
    ``None``: from the part's first reel) through the moved reels of ``prep``: their
    tables (dense), the first part's here (the kernels compiled before any fork), the others
    in strided chunks over ``workers`` forked processes (default: up to 2 when there are
    :data:`slotmath.exact.modifiers.PARALLEL_PARTS` parts or more), each chunk's sum sent
    back as its nonzero cells; all here under an executor (:mod:`slotmath.parallel`).
    ``progress(done, total)`` hears the start and each chunk done (here: up to
    :data:`HERE_CHUNKS` chunks, summed as they come)."""
    from slotmath import parallel
    from slotmath.exact.modifiers import CHUNKS_PER_WORKER, PARALLEL_PARTS, _dense_of, _sum_dense
    from slotmath.exact.workers import default_workers, map_parts

    def heard(done, total):
        if progress is not None:
            progress(done, total)

    order = [p for p in range(len(parts)) if levels is None or levels[p] is not None]
    if not order:
        heard(1, 1)
        return []
    if workers is None:
        workers = default_workers() if len(order) >= PARALLEL_PARTS else 1
    shared = (prep, parts, levels, start)
    if workers <= 1 or parallel.current() is not None:  # here (an executor's workers would
        # be sent the prefix cache: hundreds of MB)
        chunks = [order[i::HERE_CHUNKS] for i in range(min(HERE_CHUNKS, len(order)))]
        heard(0, len(chunks))
        total = None
        for done, chunk in enumerate(chunks, 1):
            table = _moved_parts(shared, chunk)
            total = table if total is None else _sum_dense([total, table])
            heard(done, len(chunks))
        return [total]
    rest = order[1:]
    n_chunks = min(len(rest), CHUNKS_PER_WORKER * workers) if rest else 0
    chunks = [rest[i::n_chunks] for i in range(n_chunks)]
    heard(0, n_chunks + 1)
    first = _moved_parts(shared, order[:1])
    heard(1, n_chunks + 1)
    if not rest:
        return [first]
    outs = []
    for out in map_parts(_moved_chunk, chunks, workers, shared=shared):
        outs.append(out)
        heard(len(outs) + 1, n_chunks + 1)
    return [first, _dense_of(outs)]


def _moved_parts(shared, chunk) -> np.ndarray:
    """The summed dense table of the parts ``chunk`` (:func:`_run_moved`)."""
    from slotmath.exact.modifiers import _part_from, _part_start, _sum_dense

    prep, parts, levels, start = shared
    outs = []
    for p in chunk:
        level = _part_start(prep, parts[p]) if levels is None else levels[p]
        outs.append(_part_from(prep, level, start))
    return _sum_dense(outs)


def _moved_chunk(shared, chunk) -> np.ndarray:
    """A worker's answer: :func:`_moved_parts` as rows (row, column, weight)."""
    from slotmath.exact.modifiers import _sparse

    return _sparse(_moved_parts(shared, chunk))
