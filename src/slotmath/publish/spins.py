"""Real spins for the books: one enumerated stop combination for each outcome of a reel set,
and the events of a window (the board, each line, way and scatter win).

:class:`SpinIndex` finds, for each key *(count of a counted symbol, credits)* of a reel set,
a stop combination that shows it: first among seeded random draws, then, for the keys still
missing, by visiting the full cycle in order (first-reel stop by first-reel stop) until every
key the exact table lists has one or the cycle is done. The credits come from the
simulator's compiled spin kernel (:func:`slotmath.simulate.spins.pay`); every combination that
ends in a book is paid again by the plain evaluator (:class:`slotmath.evaluate.window.
PayModel`), line by line, and the two must agree (:func:`window_events` raises otherwise), and
every key found must be one the exact engine's table lists (:meth:`SpinIndex.check`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from slotmath.evaluate.window import PayModel, window_at
from slotmath.model.game import Game

__all__ = ["JointSpinIndex", "SpinIndex", "amount_fields", "board", "close_round",
           "window_events"]

#: stop combinations paid per kernel call while visiting the full cycle
CHUNK = 1 << 21
#: seeded random draws tried first
SAMPLE = 1 << 21


def amount_fields(credits: int | Fraction, credits_per_bet: int, name: str = "amount") -> dict:
    """An amount of ``credits`` as the books write it: ``name`` in whole hundredths of the
    bet (Stake's unit), and ``name + "Exact"`` (the amount in bets, "p/q") when it is not a
    whole number of hundredths.

    >>> amount_fields(3, 25), amount_fields(1160, 581, "win")
    ({'amount': 12}, {'win': 200, 'winExact': '1160/581'})
    """
    if isinstance(credits, int):
        whole, rest = divmod(credits * 100, credits_per_bet)
        if not rest:
            return {name: whole}
    bets = Fraction(credits) / credits_per_bet
    hundredths = bets * 100
    out = {name: round(hundredths)}
    if hundredths.denominator != 1:
        out[name + "Exact"] = f"{bets.numerator}/{bets.denominator}"
    return out


def close_round(events: list, k: int, credits: int | Fraction, credits_per_bet: int,
                rounding: str) -> None:
    """A book's last events, appended: the round's total win (``credits``), how it was
    rounded to its row's payout of ``k`` tenths of the bet when it was (``rounding``, the
    table's rule), and the final win in hundredths (the row's ``payoutMultiplier``).

    >>> events = []
    >>> close_round(events, 12, 1160, 581, "nearest")
    >>> [e["type"] for e in events], events[-1]["amount"]
    (['setTotalWin', 'payoutRounding', 'finalWin'], 120)
    """
    n = len(events)
    events.append({"index": n, "type": "setTotalWin"} | amount_fields(credits,
                                                                      credits_per_bet))
    if Fraction(credits) / credits_per_bet * 10 != k:
        events.append({"index": n + 1, "type": "payoutRounding", "rounding": rounding,
                       "payout": 10 * k} | amount_fields(credits, credits_per_bet, "roundWin"))
    events.append({"index": len(events), "type": "finalWin", "amount": 10 * k})


_BOARDS: dict = {}


def board(window) -> list[list[dict]]:
    """The window as the books show it: ``board[reel][row]``, top row first, ``{"name"}``.
    Kept per window (books repeat spins: a game of many long rounds, Golden Link's, held
    gigabytes of copies): do not change it."""
    key = tuple(map(tuple, window))
    out = _BOARDS.get(key)
    if out is None:
        if len(_BOARDS) > 100_000:
            _BOARDS.clear()
        out = _BOARDS[key] = [[{"name": s} for s in column] for column in window]
    return out


_EVENTS: dict = {}


def window_events(model: PayModel, window, multiplier: int = 1) -> tuple[list[dict], int]:
    """The wins of one window, one entry per line, way entry and scatter, and their total in
    credits (each win times ``multiplier``, as free spins pay it), by the plain evaluator.

    Each entry: ``kind`` ("line", "ways", "scatter"), ``symbol`` (the pay-table entry),
    ``count``, ``positions`` (``{"reel", "row"}`` from 0, top row 0), the win (``win`` in
    hundredths of the bet) and, for a line, its index; for ways, the number of ways.
    The result is kept per model, window and multiplier (books repeat spins): do not change
    it.
    """
    key = (id(model), window, multiplier)
    if key in _EVENTS and _EVENTS[key][0] is model:
        return _EVENTS[key][1]
    if len(_EVENTS) > 100_000:
        _EVENTS.clear()
    out = _window_events(model, window, multiplier)
    _EVENTS[key] = (model, out)
    return out


def _window_events(model: PayModel, window, multiplier: int) -> tuple[list[dict], int]:
    game = model.game
    cpb = model.credits_per_bet
    wins: list[dict] = []
    total = 0
    if game.paylines is not None:
        for i, line in enumerate(game.paylines):
            lw = model.line_win([window[j][r] for j, r in enumerate(line)])
            if lw.credits:
                credits = lw.credits * multiplier
                total += credits
                wins.append({"kind": "line", "line": i, "symbol": lw.key, "count": lw.count,
                             "positions": [{"reel": j, "row": line[j]}
                                           for j in range(lw.count)]}
                            | amount_fields(credits, cpb, "win"))
    else:
        for key, (credits, run, ways) in model.ways_wins(window).items():
            if credits:
                members = model.key_members[key]
                credits *= multiplier
                total += credits
                wins.append({"kind": "ways", "symbol": key, "count": run, "ways": ways,
                             "positions": [{"reel": j, "row": r} for j in range(run)
                                           for r, s in enumerate(window[j]) if s in members]}
                            | amount_fields(credits, cpb, "win"))
    for name, pays in model.scatter_credits.items():
        count = model.scatter_count(window, name)
        if pays[count]:
            credits = pays[count] * multiplier
            total += credits
            wins.append({"kind": "scatter", "symbol": name, "count": count,
                         "positions": [{"reel": j, "row": r} for j, col in enumerate(window)
                                       for r, s in enumerate(col) if s == name]}
                        | amount_fields(credits, cpb, "win"))
    if total != model.spin_win(window) * multiplier:
        raise AssertionError("the wins listed do not add up to the window's pay")
    return wins, total


@dataclass(frozen=True)
class Spin:
    """One stop combination of a reel set and what it shows."""

    reel_set: str
    stops: tuple[int, ...]
    window: tuple[tuple[str, ...], ...]
    credits: int  # what the window pays (lines or ways, scatters), before any multiplier
    count: int  # the counted symbol in the window (capped)


class SpinIndex:
    """Stop combinations of reel set ``reel_set`` by key ``(count, credits)``.

    ``count`` is the number of ``counted`` symbols in the window, capped at ``cap`` (0 when
    nothing is counted); ``credits`` what the window pays in ``PayModel(game, level)``
    credits.

    Examples
    --------
    >>> import slotmath
    >>> g = slotmath.load_game("data/games/tiny_lines.toml")
    >>> index = SpinIndex(g, 1, "base", "SC", 3)
    >>> found = index.find()                  # 512 combinations: all visited
    >>> len(found), index.complete
    (57, True)
    >>> spin = index.spin(max(found))         # three scatters and the top credits with them
    >>> spin.count, spin.credits == max(found)[1]
    (3, True)
    """

    def __init__(self, game: Game, level: int, reel_set: str, counted: str | None = None,
                 cap: int | None = None, progress: Callable[[int, int], None] | None = None):
        from slotmath.simulate.spins import ReelSet
        from slotmath.simulate.tables import compile_pays

        self.game, self.level, self.reel_set = game, level, reel_set
        self.model = PayModel(game, level)
        self.kernel = ReelSet.compile(game, self.model, compile_pays(game, self.model), reel_set)
        self.reels = game.reel_sets[reel_set].reels
        self.counted, self.cap = counted, cap
        self.progress = progress
        self.live = [np.flatnonzero(np.asarray(r.stop_weights) > 0) for r in self.reels]
        self.sizes = np.array([len(s) for s in self.live], np.int64)
        self.size = int(np.prod(self.sizes.astype(object)))
        self._counts = [np.asarray([r.window(s, rows).count(counted) if counted else 0
                                    for s in range(len(r.symbols))], np.int64)
                        for r, rows in zip(self.reels, game.rows)]
        self.found: dict[tuple[int, int], tuple[int, ...]] = {}
        self._visited = 0  # combinations visited in order so far
        self._sampled = False

    @property
    def complete(self) -> bool:
        """Whether the whole cycle has been visited (every key that exists is found)."""
        return self._visited >= self.size

    def _keys(self, stops: np.ndarray) -> np.ndarray:
        from slotmath.simulate.spins import pay

        credits, _, _, _ = pay(self.kernel, len(stops), stops=stops)
        count = np.zeros(len(stops), np.int64)
        for j, per_stop in enumerate(self._counts):
            count += per_stop[stops[:, j]]
        if self.cap is not None:
            count = np.minimum(count, self.cap)
        return count, credits

    def _record(self, stops: np.ndarray) -> None:
        count, credits = self._keys(stops)
        codes = count * (1 << 40) + credits
        _, first = np.unique(codes, return_index=True)
        for i in first.tolist():
            key = (int(count[i]), int(credits[i]))
            if key not in self.found:
                self.found[key] = tuple(int(s) for s in stops[i])

    def _in_order(self, start: int, stop: int) -> np.ndarray:
        """Stop combinations ``start`` to ``stop`` of the cycle (mixed radix, reel 1 first)."""
        index = np.arange(start, stop, dtype=np.int64)
        out = np.empty((len(index), len(self.reels)), np.int64)
        for j in range(len(self.reels) - 1, -1, -1):
            out[:, j] = self.live[j][index % self.sizes[j]]
            index //= self.sizes[j]
        return out

    def sample(self, n: int = SAMPLE, seed: int = 0) -> dict[tuple[int, int], tuple[int, ...]]:
        """Keys found among ``n`` seeded random draws (a small cycle is visited whole
        instead). Returns every key found so far."""
        from slotmath.simulate.spins import draw_stops

        if self.size <= n:
            return self.find()
        if not self._sampled:
            rng = np.random.Generator(np.random.PCG64(seed))
            self._record(draw_stops(rng, self.kernel.reels, n))
            self._sampled = True
        return self.found

    def find(self, wanted: Iterable[tuple[int, int]] | None = None
             ) -> dict[tuple[int, int], tuple[int, ...]]:
        """Find a stop combination for each key of ``wanted`` (default: every key that
        exists) by visiting the full cycle in order until every wanted key is found. Returns
        every key found so far."""
        wanted = None if wanted is None else set(wanted)

        def done():
            return self.complete or (wanted is not None and wanted <= self.found.keys())
        while not done():
            end = min(self.size, self._visited + CHUNK)
            self._record(self._in_order(self._visited, end))
            self._visited = end
            if self.progress is not None:
                self.progress(self._visited, self.size)
        return self.found

    def check(self, table_keys: Iterable[tuple[int, int]]) -> None:
        """Every key found must be one the exact table lists; the whole cycle visited, the
        keys must be the table's (the kernel and the exact engine agree)."""
        listed = set(table_keys)
        extra = set(self.found) - listed
        if extra:
            raise AssertionError(f"{self.reel_set} reels: outcomes the exact table does not list:"
                                 f" {sorted(extra)[:5]}")
        if self.complete and listed - set(self.found):
            raise AssertionError(f"{self.reel_set} reels: outcomes of the exact table no stop "
                                 f"combination shows: {sorted(listed - set(self.found))[:5]}")

    def spin(self, key: tuple[int, int]) -> Spin:
        """The spin found for ``key``."""
        stops = self.found[key]
        window = window_at(self.game, self.game.reel_sets[self.reel_set], stops)
        return Spin(self.reel_set, stops, window, key[1], key[0])


class JointSpinIndex(SpinIndex):
    """Stop combinations of ``reel_set`` by key ``(code, credits)`` where ``code`` joins the
    counts of two symbols: ``counted`` capped at ``cap`` (the free-spins trigger) and
    ``also`` (a hold & win cash symbol, every count), ``code = count + stride x also``
    (:meth:`counts` splits it). For a spin that can start two features (Link-style games).

    Examples
    --------
    >>> import slotmath
    >>> g = slotmath.load_game("tests/data/link_modes.toml")
    >>> index = JointSpinIndex(g, 1, "base", "SC", 3, "O")
    >>> found = index.find()
    >>> sorted({index.counts(code) for code, _ in found})[:4]
    [(0, 2), (0, 3), (1, 1), (1, 2)]
    """

    def __init__(self, game: Game, level: int, reel_set: str, counted: str | None,
                 cap: int | None, also: str | None,
                 progress: Callable[[int, int], None] | None = None):
        super().__init__(game, level, reel_set, counted, cap, progress)
        self.also = also  # None: nothing else counted (the code is the count)
        self._also = [np.asarray([r.window(s, rows).count(also) if also else 0
                                  for s in range(len(r.symbols))], np.int64)
                      for r, rows in zip(self.reels, game.rows)]
        self.stride = sum(rows for rows in game.rows) + 1

    def counts(self, code: int) -> tuple[int, int]:
        """``(count of counted, count of also)`` of a key's ``code``."""
        return code % self.stride, code // self.stride

    def code(self, count: int, also: int) -> int:
        return count + self.stride * also

    def _keys(self, stops: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        count, credits = super()._keys(stops)
        also = np.zeros(len(stops), np.int64)
        for j, per_stop in enumerate(self._also):
            also += per_stop[stops[:, j]]
        return count + self.stride * also, credits
