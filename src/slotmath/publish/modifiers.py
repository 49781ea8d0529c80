"""Base-game modifiers played for the books (the ``modifiers`` declaration's ``book`` hook): a
paid spin that a modifier acts on, by the rules of ``[modifiers]`` (docs/game-format.md
"Modifiers", :mod:`slotmath.model.modifiers`).

The paid spin's table of a game with modifiers is the exact mixture of the unmodified spin's
table and each modifier's (:mod:`slotmath.features.modifiers`). Its keys ``(marks...,
credits)`` come from one of them: a key of the unmodified spin is played by the plain paid
spin's player (:class:`slotmath.publish.pays.PaidSpins`, an enumerated stop combination); a
key only a modifier makes is played as a stop combination *and* the modifier's drawn outcome:

* ``place`` (Dynamite, Pickaxe): the count ``k`` drawn from ``counts`` and the ``k``
  positions chosen among those of its reels; each shows ``symbol`` unless it shows a
  ``keep`` symbol;
* ``upgrade`` (TNT): the symbol drawn from ``to``; every position showing a symbol of
  ``from`` shows it.

Each book of such a spin writes ``reveal`` (the stops and the board the reels stopped on),
``modifier`` (which one, its frequency, what it drew, the positions it chose and those it
changed, and the board shown), then the wins of the board shown (``winInfo``, ``setWin``),
paid by the plain evaluator (:class:`slotmath.evaluate.window.PayModel`); the window the
round features read is the board shown (a Pickaxe's cash symbols start the hold & win held).

Finding them: :class:`ModifierSpins` keeps, per modifier, a ``(stops, outcome)`` for each
key it has seen, among seeded random draws (stops by their weights; the count or symbol
drawn uniformly among those of positive weight, so that the rarer, larger outcomes are tried
as often as the common ones; any outcome of positive probability is a real round), or, when
the stop combinations times the outcomes are at most :data:`ENUMERATE_MAX`, by visiting every
one. Every key found must be one the exact modifier table lists
(:mod:`slotmath.exact.modifiers`); when all were visited, the keys must be exactly the
table's, both ways. A key the draws did not find leaves its payout to the other sources of
the books (:func:`slotmath.publish.books.build_books`); a row no source serves is a row
without a book, reported (and refused above the export's ``unplayed_max``).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from slotmath.evaluate.window import PayModel, window_at
from slotmath.publish.spins import amount_fields, board, window_events

__all__ = ["ENUMERATE_MAX", "SAMPLE", "ModifiedPaidSpins", "ModifierSpins", "book", "refusal"]

#: a modifier's stop combinations x outcomes visited whole up to this many
ENUMERATE_MAX = 1 << 18
#: seeded draws a modifier is tried with first, and then again for keys still wanted
SAMPLE = 1 << 14
#: the most draws a modifier is given for the keys still wanted (in rounds of SAMPLE)
SEARCH_MAX = 1 << 16


def refusal(game) -> str | None:
    """Why the books cannot play ``game``'s modifiers (None: they can).

    >>> import slotmath
    >>> refusal(slotmath.load_game("data/games/gus_gold_christmas.toml")) is None
    True
    """
    spec = game.modifiers
    if spec is None:
        return None
    inside = [m.name for m in spec if m.in_free_spins]
    if inside:
        return (f"{game.name}: no player of real rounds for the books yet for base-game "
                f"modifiers acting on free spins ({', '.join(inside)})")
    from slotmath.features.base import Kind
    from slotmath.features.registry import declared

    outcome = [f.name for f in declared(game) if f.kind is Kind.OUTCOME]
    if outcome:
        return (f"{game.name}: no player of real rounds for the books yet for base-game "
                f"modifiers on a {outcome[0]} paid spin")
    return None


@dataclass(frozen=True)
class Outcome:
    """What a modifier drew: ``place``: the positions chosen ((reel, row), ...); ``upgrade``:
    the symbol drawn."""

    positions: tuple[tuple[int, int], ...] = ()
    symbol: str = ""


def modified(window, modifier, outcome: Outcome) -> tuple[tuple[str, ...], ...]:
    """The board ``modifier`` shows for ``window`` (reel columns, top row first) with the
    drawn ``outcome``.

    >>> from slotmath.model.modifiers import Modifier
    >>> dyn = Modifier("d", "place", 1, symbol="W", counts=((2, 1),), keep=("S",))
    >>> modified((("A", "S"), ("B", "C")), dyn, Outcome(((0, 1), (1, 0))))
    (('A', 'S'), ('W', 'C'))
    >>> tnt = Modifier("t", "upgrade", 1, from_symbols=("A", "C"), to=(("G", 1),))
    >>> modified((("A", "S"), ("B", "C")), tnt, Outcome(symbol="G"))
    (('G', 'S'), ('B', 'G'))
    """
    if modifier.kind == "upgrade":
        source = set(modifier.from_symbols)
        return tuple(tuple(outcome.symbol if s in source else s for s in col) for col in window)
    chosen = set(outcome.positions)
    keep = set(modifier.keep)
    return tuple(tuple(modifier.symbol if (j, r) in chosen and s not in keep else s
                       for r, s in enumerate(col)) for j, col in enumerate(window))


class ModifierSpins:
    """The spins ``modifier`` acts on, by table key ``(counts..., credits)``: a stop
    combination of ``reel_set`` and the modifier's outcome for each key seen (see the
    module notes). ``counts``: ((symbol, cap), ...), the marks the table counts."""

    def __init__(self, game, level: int, reel_set: str, modifier, counts, model: PayModel,
                 table_keys: Iterable[tuple[int, ...]]):
        self.game, self.level, self.reel_set = game, level, reel_set
        self.modifier, self.counts, self.model = modifier, tuple(counts), model
        self.table_keys = set(table_keys)
        self.reels = game.reel_sets[reel_set].reels
        self.live = [np.flatnonzero(np.asarray(r.stop_weights) > 0) for r in self.reels]
        self.cells = [(j, r) for j, rows in enumerate(game.rows) if modifier.on_reel(j)
                      for r in range(rows)]
        if modifier.kind == "place":
            self.draws = [k for k, w in modifier.counts if w and k <= len(self.cells)]
            per_stops = sum(len(list(itertools.combinations(self.cells, k)))
                            for k in self.draws)
        else:
            self.draws = [s for s, w in modifier.to if w]
            per_stops = len(self.draws)
        self.size = int(np.prod([len(s) for s in self.live], dtype=object)) * per_stops
        self.found: dict[tuple[int, ...], tuple[tuple[int, ...], Outcome]] = {}
        self.complete = False
        self._drawn = 0

    def key(self, shown) -> tuple[int, ...]:
        """The table key of a board shown: the marks' symbols counted (capped), its credits."""
        marks = tuple(min(sum(col.count(s) for col in shown), cap) for s, cap in self.counts)
        return (*marks, int(self.model.spin_win(shown)))

    def _visit(self, stops: tuple[int, ...], outcome: Outcome) -> None:
        window = window_at(self.game, self.game.reel_sets[self.reel_set], stops)
        k = self.key(modified(window, self.modifier, outcome))
        if k not in self.found:
            if k not in self.table_keys:
                raise AssertionError(f"{self.modifier.name}: a modified spin the exact table "
                                     f"does not list: {k} (stops {stops}, {outcome})")
            self.found[k] = (stops, outcome)

    def _outcomes(self) -> Iterable[Outcome]:
        if self.modifier.kind == "upgrade":
            return [Outcome(symbol=s) for s in self.draws]
        return [Outcome(c) for k in self.draws for c in itertools.combinations(self.cells, k)]

    def enumerate(self) -> None:
        """Visit every stop combination with every outcome; the keys must then be the
        table's, exactly."""
        outcomes = list(self._outcomes())
        for stops in itertools.product(*(s.tolist() for s in self.live)):
            for o in outcomes:
                self._visit(stops, o)
        self.complete = True
        if set(self.found) != self.table_keys:
            raise AssertionError(f"{self.modifier.name}: the exact table lists outcomes no "
                                 f"modified spin shows: {sorted(self.table_keys - set(self.found))[:5]}")

    def sample(self, n: int = SAMPLE, seed: int = 0, wanted=None) -> None:
        """``n`` seeded draws (a small whole is visited instead); stops early once every
        key of ``wanted`` is found."""
        if self.complete:
            return
        if self.size <= ENUMERATE_MAX:
            self.enumerate()
            return
        rng = np.random.Generator(np.random.PCG64([seed, self._drawn]))
        probs = [np.asarray(r.stop_weights, float)[s] / np.asarray(r.stop_weights, float)[s].sum()
                 for r, s in zip(self.reels, self.live)]
        stops = np.stack([rng.choice(s, size=n, p=p) for s, p in zip(self.live, probs)], 1)
        picks = rng.integers(len(self.draws), size=n)
        for i in range(n):
            if self.modifier.kind == "upgrade":
                o = Outcome(symbol=self.draws[picks[i]])
            else:
                k = self.draws[picks[i]]
                chosen = rng.choice(len(self.cells), size=k, replace=False)
                o = Outcome(tuple(sorted(self.cells[c] for c in chosen.tolist())))
            self._visit(tuple(int(s) for s in stops[i]), o)
            if wanted is not None and i % 1024 == 1023 and wanted <= self.found.keys():
                break
        self._drawn += n

    def find(self, wanted: set) -> None:
        """More seeded draws, up to :data:`SEARCH_MAX` in all, while a key of ``wanted`` that
        the table lists is missing."""
        wanted = wanted & self.table_keys
        while (not self.complete and not wanted <= self.found.keys()
               and self._drawn < SEARCH_MAX):
            self.sample(SAMPLE, wanted=wanted)

    def events(self, key: tuple[int, ...], first_index: int) -> tuple[list[dict], tuple]:
        """The spin's events (reveal, the modifier, its wins) and the board shown."""
        stops, outcome = self.found[key]
        m = self.modifier
        window = window_at(self.game, self.game.reel_sets[self.reel_set], stops)
        shown = modified(window, m, outcome)
        changed = [{"reel": j, "row": r} for j, col in enumerate(window)
                   for r, s in enumerate(col) if shown[j][r] != s]
        f = Fraction(m.frequency)
        drawn: dict = {"type": "modifier", "name": m.name, "kind": m.kind,
                       "frequency": f"{f.numerator}/{f.denominator}"}
        if m.kind == "place":
            drawn |= {"symbol": m.symbol, "count": len(outcome.positions),
                      "countWeights": {str(k): w for k, w in m.counts},
                      "positions": [{"reel": j, "row": r} for j, r in outcome.positions],
                      "kept": list(m.keep)}
        else:
            drawn |= {"from": list(m.from_symbols), "symbol": outcome.symbol,
                      "symbolWeights": {s: w for s, w in m.to}}
        events = [{"index": first_index, "type": "reveal", "gameType": "basegame",
                   "reelSet": self.reel_set, "stops": list(stops), "board": board(window)},
                  {"index": first_index + 1} | drawn
                  | {"changed": changed, "board": board(shown)}]
        wins, won = window_events(self.model, shown)
        if won != key[-1]:
            raise AssertionError("the modified spin pays other than its table key says")
        if wins:
            cpb = self.model.credits_per_bet
            events.append({"index": first_index + 2, "type": "winInfo", "wins": wins}
                          | amount_fields(won, cpb, "totalWin"))
            events.append({"index": first_index + 3, "type": "setWin"}
                          | amount_fields(won, cpb))
        return events, shown


class ModifiedPaidSpins:
    """The paid spins of a game with modifiers for the books (see the module notes):
    ``plain`` plays the keys of the unmodified spin, one :class:`ModifierSpins` per modifier
    the others. The same interface as :class:`slotmath.publish.pays.PaidSpins`."""

    def __init__(self, analysis, plain, progress=None):
        c = analysis.composition
        built = next(f for f in c.paid_spin_features if f.name == "modifiers")
        reel_set = c.paid_reels
        unmodified = c.spin(reel_set, 1)
        # the plain player's keys are checked against the unmodified spin's table
        plain.table = unmodified
        self.plain = plain
        self.table = analysis.round.base
        self.credits_per_bet = plain.credits_per_bet
        model = PayModel(analysis.game, analysis.level)
        if model.credits_per_bet != unmodified.credits_per_bet:
            raise ValueError("the modified spins' credits are not the paid spin's")
        counts = built._counts(unmodified.marks)
        self.spins = [ModifierSpins(analysis.game, analysis.level, reel_set, m, counts, model,
                                    built.table(m, unmodified.marks, reel_set).weights)
                      for m in built.spec]
        self.progress = progress

    def found(self) -> set[tuple[int, ...]]:
        out = set(self.plain.found())
        for s in self.spins:
            out |= s.found.keys()
        return out

    def sample(self) -> None:
        self.plain.sample()
        for i, s in enumerate(self.spins):
            s.sample(seed=i)
            if self.progress is not None:
                self.progress(i + 1, len(self.spins))

    def find(self, wanted) -> None:
        """The plain player's full cycle for the unmodified spin's keys of ``wanted``; more
        draws of each modifier for the rest."""
        wanted = set(wanted)
        self.plain.find(wanted & set(self.plain.table.weights))
        left = wanted - self.found()
        for s in self.spins:
            s.find(left)
            left -= s.found.keys()

    def play(self, key: tuple[int, ...], first_index: int = 0) -> tuple[list[dict], tuple]:
        """The paid spin's events and the board the round features read."""
        if self.plain._index_key(key) in self.plain.index.found:
            return self.plain.play(key, first_index)
        s = next(s for s in self.spins if key in s.found)
        return s.events(key, first_index)


def book(analysis, paid, progress=None) -> ModifiedPaidSpins:
    """The book player of a game's modifiers (their declaration's ``book`` hook): ``paid``
    is the plain paid spin's player, which this one wraps."""
    return ModifiedPaidSpins(analysis, paid, progress)
