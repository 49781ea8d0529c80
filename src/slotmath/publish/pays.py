"""The paid spin for the books of a lines or ways game: one enumerated stop combination of the
paid reels (``base``, or a game mode's ``reels``: an ante bet) per outcome of the paid spin's
exact table (its marks and credits), and its events.
"""

from __future__ import annotations

from dataclasses import dataclass

from slotmath.publish.spins import (
    JointSpinIndex,
    SpinIndex,
    amount_fields,
    board,
    window_events,
)

__all__ = ["PaidSpins", "book"]


@dataclass
class PaidSpins:
    """The paid spins of ``analysis`` (its ``round.base`` table): keys ``(mark..., credits)``
    with at most two marks, the count of one symbol (the free-spins trigger, capped as the
    table caps it, or a hold & win cash symbol) or of both (a Link-style game: the trigger
    first)."""

    analysis: object
    progress: object = None

    def __post_init__(self):
        a = self.analysis
        self.table = a.round.base
        marks = self.table.marks
        if len(marks) > 2 or (len(marks) == 2 and marks[0] != "trigger"):
            raise ValueError(f"the books play a paid spin counting a trigger and one other "
                             f"mark at most, not {marks}")
        by_column = {m.column: m for f in a.round.features for m in (f.mark,)}
        counted = [by_column[c].symbol or a.game.trigger_symbol for c in marks]
        cap = self.table.trigger_cap if marks and marks[0] == "trigger" else None
        self.marks = len(marks)
        self.credits_per_bet = self.table.credits_per_bet
        self.reel_set = a.composition.paid_reels
        if self.marks == 2:  # the free-spins trigger and the cash symbol (Link-style)
            self.index = JointSpinIndex(a.game, a.level, self.reel_set, counted[0], cap,
                                        counted[1], self.progress)
        else:
            self.index = SpinIndex(a.game, a.level, self.reel_set,
                                   counted[0] if counted else None, cap, self.progress)

    def _index_key(self, key: tuple[int, ...]) -> tuple[int, int]:
        if self.marks == 2:
            return (self.index.code(key[0], key[1]), key[-1])
        return (key[0], key[-1]) if self.marks else (0, key[-1])

    def _table_key(self, key: tuple[int, int]) -> tuple[int, ...]:
        if self.marks == 2:
            return (*self.index.counts(key[0]), key[1])
        return key if self.marks else (key[1],)

    def found(self) -> set[tuple[int, ...]]:
        """The table keys with a stop combination found."""
        return {self._table_key(k) for k in self.index.found}

    def sample(self) -> None:
        self.index.sample()
        self.index.check(self._index_key(k) for k in self.table.weights)

    def find(self, wanted) -> None:
        """Visit the full cycle until every key of ``wanted`` (table keys) has one."""
        self.index.find(self._index_key(k) for k in wanted)
        self.index.check(self._index_key(k) for k in self.table.weights)

    def play(self, key: tuple[int, ...], first_index: int = 0) -> tuple[list[dict], tuple]:
        """The paid spin's events (reveal, its wins, the win so far) and its window."""
        spin = self.index.spin(self._index_key(key))
        model = self.index.model
        events = [{"index": first_index, "type": "reveal", "gameType": "basegame",
                   "reelSet": self.reel_set, "stops": list(spin.stops),
                   "board": board(spin.window)}]
        wins, won = window_events(model, spin.window)
        if won != key[-1]:
            raise AssertionError("the paid spin pays other than its table key says")
        if wins:
            events.append({"index": first_index + 1, "type": "winInfo", "wins": wins}
                          | amount_fields(won, model.credits_per_bet, "totalWin"))
            events.append({"index": first_index + 2, "type": "setWin"}
                          | amount_fields(won, model.credits_per_bet))
        return events, spin.window


def book(analysis, part=None, progress=None) -> PaidSpins:
    """The book player of the paid spin of a lines or ways game (the ``pays`` declaration's
    ``book`` hook; ``part`` is None for the paid spin)."""
    return PaidSpins(analysis, progress)
