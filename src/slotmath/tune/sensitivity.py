"""Exact sensitivities: how each figure changes when one symbol is added to or removed from
one reel.

For every reel of a reel set and every symbol of the game, two edits are tried (:func:`step`):
one more of the symbol and one fewer. Each edited game's round figures (RTP, hit frequency,
E[X^2], in total bets) are computed exactly by :class:`~slotmath.tune.reel_tables.ReelTables`
(a table per window of the edited reel: the other reels are enumerated about once per reel
for the whole table, not once per entry), and the change from the game's own figures is
exact: a fraction, not a finite difference of floats. The SD and its change are floats (the
square root of an exact variance).

What "one symbol" is
--------------------
* On a reel without stop weights: one stop showing the symbol, placed or taken away by
  :func:`slotmath.model.edit.with_symbol_count` (the strip editor's edit: new copies go into
  the longest stretch between the symbol's copies; a copy is removed where they are most
  crowded). On a reel with several rows this changes the windows next to it too, and the
  entry is exact for that strip.
* On a weighted (virtual) reel: one unit of stop weight, on the first of the symbol's stops
  with the largest weight (a symbol the reel lacks gets a new stop of weight 1, placed as
  above). On a one-row reel every stop of a symbol is alike, so this is "one more virtual
  stop of the symbol".

An edit that is impossible (removing a symbol the reel does not show, emptying the reel) has
no entry.

A game with base-game modifiers
-------------------------------
The window tables do not cover a modifier (it re-draws the whole window), so a game whose only
such section is its modifiers (Gus's Gold Christmas) has the RTP's entries alone
(``Sensitivities.figures == ("rtp",)``): each edited game's RTP by
:func:`slotmath.rtp_only` (each modifier's mean and the law of what it starts, not its joint
table; about 0.1 s an entry), exact where the analysis' RTP is, else within its stated error
(Gus's hold & win chain: about 5e-14, ``rtp_error``). Its hit frequency and E[X^2] need the
modifiers' joint tables, a full analysis per entry: they are not given (asked for, they raise).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property

import pandas as pd

from slotmath.errors import RuleError
from slotmath.model.edit import symbol_count, symbol_weight, with_symbol_count
from slotmath.model.game import Game, Reel
from slotmath.tune.reel_tables import Figures, NotWindowTunable, ReelTables, check_tunable

__all__ = ["Entry", "RTPOnly", "Sensitivities", "sensitivities", "step"]

FIGURES = ("rtp", "hit_frequency", "second_moment", "feature_probability")


def step(reel: Reel, symbol: str, change: int) -> Reel | None:
    """``reel`` with one ``symbol`` more (``change=+1``) or fewer (``-1``), or None when the
    reel cannot lose it (see the module notes for what one symbol is).

    Examples
    --------
    >>> step(Reel(("A", "B", "B", "B")), "A", +1).symbols
    ('A', 'B', 'A', 'B', 'B')
    >>> step(Reel(("A", "B"), (2, 5)), "B", -1).weights
    (2, 4)
    >>> step(Reel(("A", "B"), (2, 5)), "C", +1).weights
    (2, 1, 5)
    >>> step(Reel(("A", "B")), "C", -1) is None
    True
    """
    if change not in (1, -1):
        raise ValueError(f"change must be +1 or -1, got {change!r}")
    try:
        if reel.weights is None or symbol not in reel.symbols:
            count = symbol_count(reel, symbol)
            if count + change < 0:
                return None
            return with_symbol_count(reel, symbol, count + change, weight=1)
        weights = list(reel.weights)
        stops = [p for p, s in enumerate(reel.symbols) if s == symbol]
        at = max(stops, key=lambda p: (weights[p], -p))
        if weights[at] + change < 0:
            return None
        weights[at] += change
        return Reel(reel.symbols, tuple(weights))
    except RuleError:
        return None


@dataclass(frozen=True)
class RTPOnly:
    """The figures of a game whose entries give the RTP alone (see the module notes):
    ``rtp`` (a Fraction: exact, or the analysis' float within ``rtp_error``)."""

    rtp: Fraction
    rtp_error: float = 0.0

    @classmethod
    def of(cls, game: Game, level: int) -> RTPOnly:
        from slotmath.rtp import rtp_only

        figures = rtp_only(game, level)
        return cls(Fraction(figures.rtp), 0.0 if figures.exact else float(figures.rtp_error))


def modifiers_only(game: Game, level: int = 1) -> bool:
    """Whether the window tables refuse ``game`` for its base-game modifiers alone (the game
    without them is covered): then its RTP entries come from :func:`slotmath.rtp_only`.

    >>> import slotmath
    >>> modifiers_only(slotmath.load_game("data/games/gus_gold_christmas.toml"))
    True
    >>> modifiers_only(slotmath.load_game("data/games/tiny_lines.toml"))
    False
    """
    if game.modifiers is None:
        return False
    try:
        check_tunable(dataclasses.replace(game, modifiers=None), level)
    except (ValueError, RuleError):
        return False
    return True


@dataclass(frozen=True)
class Entry:
    """One edit: reel ``reel`` (0 = reel 1), ``symbol``, ``change`` (+1 / -1), the symbol's
    count (stops, or weight on a weighted reel) before it, the edited ``strip`` and the
    edited game's exact ``figures`` (:class:`RTPOnly` on a game with base-game modifiers)."""

    reel: int
    symbol: str
    change: int
    count: int
    strip: Reel
    figures: Figures | RTPOnly


class Sensitivities:
    """The sensitivities of ``game``'s figures to the strips of ``reel_set`` (see the module
    notes); use :func:`sensitivities`."""

    def __init__(self, game: Game, reel_set: str, base: Figures | RTPOnly,
                 entries: tuple[Entry, ...]):
        self.game, self.reel_set, self.base, self.entries = game, reel_set, base, entries
        #: the figures the entries give: every one of FIGURES, or ("rtp",) alone
        self.figures = ("rtp",) if isinstance(base, RTPOnly) else FIGURES

    def __repr__(self) -> str:
        return (f"Sensitivities({self.game.name!r}, {self.reel_set!r}, "
                f"{len(self.entries)} entries)")

    @cached_property
    def table(self) -> pd.DataFrame:
        """One row per edit: ``reel`` (1-based), ``symbol``, ``change``, ``count`` (before),
        then for each figure (``rtp``, ``hit_frequency``, ``second_moment``,
        ``feature_probability``) its exact value after the edit and ``d_<figure>``, its exact
        change (Fractions); ``sd`` and ``d_sd`` are floats. With the RTP alone
        (:attr:`figures`), ``rtp`` and ``d_rtp`` only."""
        rows = []
        for e in self.entries:
            row = {"reel": e.reel + 1, "symbol": e.symbol, "change": e.change,
                   "count": e.count}
            for name in self.figures:
                value = getattr(e.figures, name)
                row[name] = value
                row[f"d_{name}"] = value - getattr(self.base, name)
            if self.figures == FIGURES:
                row["sd"] = e.figures.sd
                row["d_sd"] = e.figures.sd - self.base.sd
            rows.append(row)
        return pd.DataFrame(rows)

    def grid(self, figure: str = "rtp", change: int = 1) -> pd.DataFrame:
        """The exact changes of ``figure`` for one ``change``, symbols by reels (Fractions;
        None where the edit is impossible)."""
        if figure not in (*FIGURES, "sd"):
            raise ValueError(f"figure must be one of {(*FIGURES, 'sd')}, got {figure!r}")
        if figure not in self.figures + (("sd",) if self.figures == FIGURES else ()):
            raise ValueError(f"{self.game.name}: only the RTP's sensitivities are computed "
                             f"(its base-game modifiers' tables would take a full analysis "
                             f"per entry), not {figure!r}")
        t = self.table[self.table["change"] == change]
        wide = t.pivot(index="symbol", columns="reel", values=f"d_{figure}")
        order = [s for s in self.game.symbols if s in wide.index]
        wide = wide.reindex(order).astype(object)
        return wide.where(wide.notna(), None)


def sensitivities(game: Game, reel_set: str = "base", level: int = 1,
                  reels: Sequence[int] | None = None,
                  symbols: Sequence[str] | None = None) -> Sensitivities:
    """Exact sensitivities of the round's figures to one symbol more or fewer on each reel.

    Parameters
    ----------
    game : Game
        A lines or ways game the window tables cover
        (:func:`slotmath.tune.reel_tables.check_tunable`); with progressive jackpots or a
        cap, each entry's ``rtp`` is the first-order guide (``figures.rtp_kind == "guide"``)
        and its hit frequency and E[X^2] are exact.
    reel_set : str
        The reel set edited (the paid spin's ``"base"``, or a free-spin set).
    level : int
        Bet level.
    reels : sequence of int, optional
        Reels to edit (0 = reel 1); default all.
    symbols : sequence of str, optional
        Symbols to add and remove; default every symbol of the game.

    Returns
    -------
    Sensitivities
        ``.table`` (a DataFrame, one row per edit), ``.grid(figure, change)`` (symbols by
        reels) and ``.base`` (the game's own figures).

    Examples
    --------
    >>> import slotmath
    >>> s = sensitivities(slotmath.load_game("data/games/tiny_lines.toml"))
    >>> s.base.rtp
    Fraction(411, 448)
    >>> row = s.table.query("reel == 1 and symbol == 'BAR' and change == 1").iloc[0]
    >>> int(row["count"]), row["d_rtp"]
    (1, Fraction(73, 1344))
    """
    try:
        composition = check_tunable(game, level)
    except NotWindowTunable:
        if not modifiers_only(game, level):
            raise
        composition = None  # the RTP alone, by rtp_only (the module notes)
    if reel_set not in game.reel_sets:
        raise ValueError(f"{game.name} has no reel set {reel_set!r}; it has "
                         f"{sorted(game.reel_sets)}")
    strips = game.reel_sets[reel_set].reels
    reels = range(len(strips)) if reels is None else reels
    symbols = list(game.symbols) if symbols is None else list(symbols)
    unknown = [s for s in symbols if s not in game.symbols]
    if unknown:
        raise ValueError(f"{game.name} has no symbol {unknown[0]!r}")
    base = None
    entries = []
    for j in reels:
        reel = strips[j]
        if composition is None:
            def figures_of(e, j=j):
                return RTPOnly.of(game.replace_reels(reel_set, strips[:j] + (e,)
                                                     + strips[j + 1:]), level)
            base = base or RTPOnly.of(game, level)
        else:
            tables = ReelTables(game, reel_set, j, level, composition)
            if base is None:
                base = tables.figures(strips[j])
            figures_of = tables.figures
        weighted = reel.weights is not None
        edits = [(symbol, change, step(reel, symbol, change))
                 for symbol in symbols for change in (1, -1)]
        if composition is not None:
            tables.prefetch(w for _, _, e in edits if e is not None
                            for w in tables.window_weights(e))
        for symbol, change, edited in edits:
            if edited is not None:
                count = symbol_weight(reel, symbol) if weighted else symbol_count(reel, symbol)
                entries.append(Entry(j, symbol, change, count, edited, figures_of(edited)))
    if base is None:
        raise ValueError("no reel to edit")
    return Sensitivities(game, reel_set, base, tuple(entries))

