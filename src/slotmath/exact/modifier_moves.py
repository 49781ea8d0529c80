"""A place modifier's table after a strip move, without running its whole DP again.

The strip editor moves one slider: one reel's stops change, and the game is analysed again.
A place modifier's table (:mod:`slotmath.exact.modifiers`; Gus's Gold Christmas's Dynamite,
about 30 s of CPU) would be computed from scratch. Here it is updated instead.

**Linearity.** The DP's table ``T(V_0, ..., V_{n-1})`` is linear in each virtual reel's
window weights ``V_j`` (a window's weight multiplies every entry that passes through it; the
pruning by chosen positions and the states dropped depend on which windows there are, never
on their weights). So a move of reel ``r`` from ``V_r`` to ``V'_r`` changes the table by
``T(.., D+, ..) - T(.., D-, ..)``, ``D+`` and ``D-`` the windows whose weight went up and
down (by how much): a handful of the reel's windows.

**What is kept** (:class:`MoveCache`, one per modifier DP, the last :data:`KEPT` of them):

* per part of the DP (its first reel's windows, :func:`slotmath.exact.modifiers._dense`), the
  states and entries after each reel ``0 .. n-3`` (a *prefix cache*; made when a move first
  needs them: reels ``0 .. n-3`` cost little, the last two reels nearly all of the DP);
* the *summary* before the last reel: every entry (scatter pack, credits, weight) of every
  part after reel ``n-2``, keyed not by its state but by what the state does on the last
  reel: the credits its open lines settle for each (row, symbol) there (``f_add``, as
  :func:`slotmath.exact.modifiers._fold_through` computes it), entries of one key merged over
  all parts;
* the current table.

**A move on reel** ``r``:

* ``r = n-1``: ``delta = fold(summary, D+) - fold(summary, D-)``: every key's entries through
  the few changed windows;
* ``1 <= r <= n-2``: per part, from its states after reel ``r-1``, the DP through ``D+``
  (then ``D-``) on reel ``r`` and the full reels after, to a summary ``dS``; the summary gains
  ``dS`` and the table ``fold(dS, last reel)``; the prefix cache from reel ``r`` on is stale
  (dropped: a later move recomputes it from reel ``r-1``);
* ``r = 0``: the parts change: ``D+`` and ``D-`` are run as parts of their own (their DP
  from scratch) into ``dS``; the parts of the new first reel that were parts before keep
  their prefix cache.

Several reels changed at once are moved one after the other. Every step is integer
arithmetic on the same entries as the DP from scratch, so the table is the same, bit for bit
(``tests/test_modifier_moves.py`` checks it against the DP from scratch and the brute force
of ``tests/modifiers_reference.py``).
"""

from __future__ import annotations

import dataclasses
from collections import OrderedDict

import numpy as np
from numba import njit

from slotmath.exact.cycle import _open_units, _pack, _ReelWindows, windows_input

__all__ = ["KEPT", "MoveCache", "cache_for", "forget"]

#: modifier DPs kept (one per modifier of the game whose table a move recomputes; Gus's
#: Gold Christmas has two place modifiers)
KEPT = 2

_CACHES: OrderedDict[str, MoveCache] = OrderedDict()


def forget() -> None:
    """Drop every kept DP (tests; the memory)."""
    _CACHES.clear()


def cache_for(base: str) -> MoveCache | None:
    """The DP kept for the modifier DP whose strip-independent input has key ``base``."""
    cache = _CACHES.get(base)
    if cache is not None:
        _CACHES.move_to_end(base)
    return cache


def remember(cache: MoveCache) -> None:
    """Keep ``cache`` (the oldest dropped past :data:`KEPT`)."""
    _CACHES[cache.base] = cache
    _CACHES.move_to_end(cache.base)
    while len(_CACHES) > KEPT:
        _CACHES.popitem(last=False)


# -- kernels ----------------------------------------------------------------------------------

@njit(cache=True)
def _state_adds(states, ucol, nt, em, final, n_cols, n_vals):
    """Each state's ``f_add``: the credits its open units settle on the last reel for each
    (column, value), flattened (as :func:`slotmath.exact.modifiers._fold_through`)."""
    n_s, n_units = states.shape
    out = np.zeros((n_s, n_cols * n_vals), np.int64)
    alive = np.empty(n_units, np.int64)
    for t in range(n_s):
        na, _seen = _open_units(states, t, ucol, alive)
        for i in range(na):
            u = alive[i]
            st = states[t, u]
            c = ucol[u]
            for x in range(n_vals):
                out[t, c * n_vals + x] += em[st, x] + final[nt[st, x]]
    return out


@njit(cache=True)
def _fold_summary(fadd, k_ptr, s_pack, s_credits, s_weight, colval, win_pack, win_weight,
                  n_vals, add_table, pack_credits, out_row, digit, lo, hi, out):
    """The summary's entries (sorted by key, key ``k`` in ``k_ptr[k]:k_ptr[k+1]``) through
    the windows of the last reel into ``out``: an entry (pack, credits, weight) of a key and
    a window whose chosen digits end in ``lo..hi`` add ``weight x window weight`` at the row
    of their packs and the credits plus what the key settles on the window."""
    n_w, n_cols = colval.shape
    add = np.empty(n_w, np.int64)
    for k in range(k_ptr.shape[0] - 1):
        if k_ptr[k] == k_ptr[k + 1]:
            continue
        for w in range(n_w):
            a = 0
            for c in range(n_cols):
                a += fadd[k, c * n_vals + colval[w, c]]
            add[w] = a
        for e in range(k_ptr[k], k_ptr[k + 1]):
            pk = s_pack[e]
            d = digit[pk]
            for w in range(n_w):
                m = d + digit[win_pack[w]]
                if m < lo or m > hi:
                    continue
                p2 = add_table[pk, win_pack[w]]
                out[out_row[p2], s_credits[e] + add[w] + pack_credits[p2]] += (
                    s_weight[e] * win_weight[w])


# -- the summary ------------------------------------------------------------------------------

def _merged(key, pack, credits, weight):
    """Entries with equal (key, pack, credits) summed, zero weights dropped, sorted by key."""
    if not len(key):
        return key, pack, credits, weight
    order = np.lexsort((credits, pack, key))
    key, pack, credits, weight = key[order], pack[order], credits[order], weight[order]
    new = np.ones(len(key), bool)
    new[1:] = (key[1:] != key[:-1]) | (pack[1:] != pack[:-1]) | (credits[1:] != credits[:-1])
    starts = np.flatnonzero(new)
    weight = np.add.reduceat(weight, starts)
    keep = weight != 0
    return (key[starts][keep], pack[starts][keep], credits[starts][keep], weight[keep])


@dataclasses.dataclass
class _Summary:
    """Entries before the last reel keyed by their state's ``f_add`` row."""

    width: int
    rows: list = dataclasses.field(default_factory=list)  # f_add rows, by key
    ids: dict = dataclasses.field(default_factory=dict)  # row bytes -> key
    entries: tuple = (np.zeros(0, np.int64),) * 4  # (key, pack, credits, weight), merged

    def key_ids(self, fadd: np.ndarray) -> np.ndarray:
        """The keys of the rows of ``fadd`` (new rows get new keys)."""
        out = np.empty(len(fadd), np.int64)
        for i, row in enumerate(fadd):
            b = row.tobytes()
            k = self.ids.get(b)
            if k is None:
                k = self.ids[b] = len(self.rows)
                self.rows.append(row.copy())
            out[i] = k
        return out

    def matrix(self) -> np.ndarray:
        if not self.rows:
            return np.zeros((1, self.width), np.int64)
        return np.ascontiguousarray(np.stack(self.rows))

    def nbytes(self) -> int:
        return sum(a.nbytes for a in self.entries) + len(self.rows) * self.width * 8


def _concat(chunks):
    if not chunks:
        return (np.zeros(0, np.int64),) * 4
    return tuple(np.concatenate([c[i] for c in chunks]) for i in range(4))


# -- the DP by steps --------------------------------------------------------------------------

def _start(prep, rw, pack, idx):
    """``prep`` with its first reel the windows ``idx`` of (``rw``, ``pack``), and the DP's
    start (states, room, entries)."""
    prep.first = (_ReelWindows(rw.inputs[idx], rw.ucol, np.ascontiguousarray(rw.columns[idx]),
                               rw.weights[idx], rw.scatter[idx], rw.by_effect), pack[idx])
    states = np.asarray([prep.automaton.start], dtype=np.int32)
    room = np.asarray([prep.chosen_cap - 1], dtype=np.int64)
    entries = (np.zeros(1, np.int64), np.zeros(1, np.int64), np.zeros(1, np.int64),
               np.ones(1, np.int64))
    return states, room, entries


def _advance(prep, level, j):
    """The DP's (states, room, entries) after reel ``j`` from ``level`` (those before it);
    ``None`` when no entry is left."""
    from slotmath.exact.modifiers import _step

    if level is None:
        return None
    states, room, entries = level
    out = _step(prep, states, room, entries, j)
    return out if len(out[2][0]) else None


class MoveCache:
    """One place modifier's DP kept for the next strip move (see the module's docstring).

    ``prep``: the DP's prepared input (:class:`slotmath.exact.modifiers._Prepared`) for the
    current strips; ``virtual``: each reel's virtual windows ``{(shown, chosen): weight}``;
    ``scatter_caps``: the caps of the scatter pack; ``make_reel(j, virtual)``: a reel's
    (windows, pack) from such a dict.
    """

    def __init__(self, base: str, prep, virtual: list[dict], make_reel):
        self.base = base
        self.prep = prep
        self.virtual = [dict(v) for v in virtual]
        self.make_reel = make_reel
        n = len(prep.reels)
        self.n = n
        nt, em = prep.automaton.next_status[n - 1], prep.automaton.emit[n - 1]
        self.n_vals = int(em.shape[1])
        self.n_cols = int(prep.reels[n - 1][0].columns.shape[1])
        self.last = (nt, em, prep.automaton.final)
        self.parts, self.part_keys = self._parts(prep.reels[0])
        self.levels: list[list] = [[] for _ in self.parts]
        self.summary: _Summary | None = None
        self.table: np.ndarray | None = None
        self.moves = 0  # moves applied (tests: the path was taken)

    # -- bookkeeping
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
        """Bytes held: the prefix cache, the summary and the table."""
        total = self.summary.nbytes() if self.summary is not None else 0
        total += self.table.nbytes if self.table is not None else 0
        for levels in self.levels:
            for level in levels:
                if level is not None:
                    states, room, entries = level
                    total += states.nbytes + room.nbytes + sum(a.nbytes for a in entries)
        return total

    def _level(self, p: int, j: int):
        """Part ``p``'s (states, room, entries) after reel ``j`` (``j <= n-3``), made from the
        deepest kept level when missing (``None``: no entry left)."""
        levels = self.levels[p]
        if len(levels) <= j:
            if not levels:
                rw, pack = self.prep.reels[0]
                start = _start(self.prep, rw, pack, self.parts[p])
                levels.append(_advance(self.prep, start, 0))
            while len(levels) <= j:
                levels.append(_advance(self.prep, levels[-1], len(levels)))
        return levels[j]

    def _summary_of(self, prep, level, j: int) -> tuple:
        """The summary entries (f_add rows, keys local to them, pack, credits, weight) of
        the DP from ``level`` (the states before reel ``j``, ``j <= n-2``) through reels
        ``j .. n-2`` of ``prep``."""
        n = self.n
        for i in range(j, n - 1):
            level = _advance(prep, level, i)
            if level is None:
                return None
        states, _room, (e_state, e_pack, e_credits, e_weight) = level
        nt, em, final = self.last
        fadd = _state_adds(states, prep.reels[n - 1][0].ucol, nt, em, final, self.n_cols,
                           self.n_vals)
        rows, inverse = np.unique(fadd, axis=0, return_inverse=True)
        return rows, inverse.reshape(-1)[e_state], e_pack, e_credits, e_weight

    def _collect(self, pieces) -> tuple:
        """Signed summary entries (sign, piece) as global keys, merged."""
        chunks = []
        for sign, piece in pieces:
            if piece is None:
                continue
            rows, key, pack, credits, weight = piece
            ids = self.summary.key_ids(rows)
            chunks.append((ids[key], pack, credits, sign * weight))
        return _merged(*_concat(chunks))

    def _fold(self, entries, reel) -> np.ndarray:
        """``entries`` of the summary through ``reel`` (windows, pack): a dense table."""
        prep = self.prep
        key, pack, credits, weight = entries
        rw, win_pack = reel
        rows = prep.n_rows * (prep.chosen_cap + 1)
        fadd = self.summary.matrix()
        if not len(key) or not len(rw.weights):
            return np.zeros((rows, 1), np.int64)
        k_ptr = np.searchsorted(key, np.arange(len(fadd) + 1)).astype(np.int64)
        # widest: the credits, the most a key settles on one window, the packs' credits
        most = 0
        for c in range(self.n_cols):
            most += int(fadd.reshape(len(fadd), self.n_cols, self.n_vals)[:, c, :].max())
        width = int(credits.max()) + most + int(prep.pack_credits.max()) + 1
        out = np.zeros((rows, width), np.int64)
        _fold_summary(fadd, k_ptr, pack, credits, weight, rw.columns, win_pack, rw.weights,
                      self.n_vals, prep.add_table, prep.pack_credits, prep.out_row,
                      prep.chosen, prep.chosen_lo, prep.chosen_cap - 1, out)
        return out

    def _add_table(self, delta: np.ndarray) -> None:
        rows, width = delta.shape
        if width > self.table.shape[1]:
            grown = np.zeros((rows, width), np.int64)
            grown[:, : self.table.shape[1]] = self.table
            self.table = grown
        self.table[:, :width] += delta

    # -- the two entry points
    def build(self, progress=None) -> np.ndarray:
        """The summary and the table of the current strips, from scratch (a first move):
        every part's DP to the summary, folded through the last reel; ``progress(done,
        total)`` in parts."""
        self.summary = _Summary(self.n_cols * self.n_vals)
        n = self.n
        pieces = []
        for p in range(len(self.parts)):
            level = self._level(p, n - 3) if n >= 3 else None
            if n < 3:
                rw, pack = self.prep.reels[0]
                level = _start(self.prep, rw, pack, self.parts[p])
                pieces.append((1, self._summary_of(self.prep, level, 0)))
            else:
                pieces.append((1, self._summary_of(self.prep, level, n - 2)))
            if progress is not None:
                progress(p + 1, len(self.parts))
        self.summary.entries = self._collect(pieces)
        self.table = self._fold(self.summary.entries, self.prep.reels[n - 1])
        return self.table

    def move(self, virtual: list[dict]) -> np.ndarray:
        """The table of the strips whose virtual reels are ``virtual`` (every changed reel
        moved in turn, the last first: a move on the last reel keeps every prefix)."""
        if self.table is None:
            raise RuntimeError("build() the kept DP before moving it")
        for j in reversed(range(self.n)):
            if virtual[j] != self.virtual[j]:
                self._move(j, virtual[j])
        return self.table

    def _move(self, r: int, new: dict) -> None:
        old = self.virtual[r]
        up = {k: w - old.get(k, 0) for k, w in new.items() if w > old.get(k, 0)}
        down = {k: w - new.get(k, 0) for k, w in old.items() if w > new.get(k, 0)}
        n = self.n
        reels = {sign: self.make_reel(r, d) for sign, d in ((1, up), (-1, down)) if d}
        if r == n - 1:
            for sign, reel in reels.items():
                self._add_table(sign * self._fold(self.summary.entries, reel))
        else:
            pieces = []
            for sign, reel in reels.items():
                prep = dataclasses.replace(self.prep, reels=list(self.prep.reels))
                prep.reels[r] = reel
                if r == 0:  # the changed windows as one part of their own, from scratch
                    rw, pack = reel
                    level = _start(prep, rw, pack, np.arange(len(rw.weights)))
                    pieces.append((sign, self._summary_of(prep, level, 0)))
                    continue
                for p in range(len(self.parts)):
                    level = self._level(p, r - 1)
                    if level is None:
                        continue
                    pieces.append((sign, self._summary_of(prep, level, r)))
            delta = self._collect(pieces)
            self.summary.entries = _merged(*_concat([self.summary.entries, delta]))
            self._add_table(self._fold(delta, self.prep.reels[n - 1]))
        # the new strips become the current ones
        self.prep.reels[r] = self.make_reel(r, new)
        self.virtual[r] = dict(new)
        if r == 0:
            keep = dict(zip(self.part_keys, self.levels))
            self.parts, self.part_keys = self._parts(self.prep.reels[0])
            self.levels = [keep.get(k, []) for k in self.part_keys]
        else:
            for levels in self.levels:
                del levels[r:]
        self.moves += 1


def reel_maker(game, model, symbol_ids, tracked, scatter_caps, place):
    """``make_reel(j, virtual)`` for :class:`MoveCache`: reel ``j``'s windows and scatter
    pack from ``{(shown, chosen): weight}`` (as ``modifiers._virtual_reel`` makes them)."""

    def make_reel(j: int, virtual: dict):
        keys = list(virtual)
        rw = windows_input(game, model, j, [k[0] for k in keys], [virtual[k] for k in keys],
                           symbol_ids, tracked, extra=[k[1] for k in keys])
        return rw, _pack(rw, scatter_caps, place)

    return make_reel
