"""The paid spin for the books of a lines or ways game: one enumerated stop combination of the
paid reels (``base``, or a game mode's ``reels``: an ante bet) per outcome of the paid spin's
exact table (its marks and credits), and its events.
"""

from __future__ import annotations

from dataclasses import dataclass

from slotmath.publish.spins import SpinIndex, amount_fields, board, window_events

__all__ = ["PaidSpins", "book"]


@dataclass
class PaidSpins:
    """The paid spins of ``analysis`` (its ``round.base`` table): keys ``(mark..., credits)``
    with at most one mark, the count of one symbol (the free-spins trigger, capped as the
    table caps it, or a hold & win cash symbol)."""

    analysis: object
    progress: object = None

    def __post_init__(self):
        a = self.analysis
        self.table = a.round.base
        marks = self.table.marks
        if len(marks) > 1:
            raise ValueError(f"the books play a paid spin counting one mark, not {marks}")
        counted, cap = None, None
        if marks:
            mark = next(m for f in a.round.features for m in (f.mark,) if m.column == marks[0])
            counted = mark.symbol or a.game.trigger_symbol
            cap = self.table.trigger_cap if marks[0] == "trigger" else None
        self.marked = bool(marks)
        self.credits_per_bet = self.table.credits_per_bet
        self.reel_set = a.composition.paid_reels
        self.index = SpinIndex(a.game, a.level, self.reel_set, counted, cap, self.progress)

    def _index_key(self, key: tuple[int, ...]) -> tuple[int, int]:
        return (key[0], key[-1]) if self.marked else (0, key[-1])

    def _table_key(self, key: tuple[int, int]) -> tuple[int, ...]:
        return key if self.marked else (key[1],)

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
