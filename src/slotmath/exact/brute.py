"""Brute force: the plain reference enumerator of one spin.

Every stop combination of a reel set is visited, its window built and paid by the shared
rules in :mod:`slotmath.evaluate.window`. Nothing here is clever on purpose: this is the
number the fast exact engine must reproduce exactly, so it has to be obviously right.
It is only usable for small games (the work is the full cycle of stop combinations).
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

from slotmath.evaluate.window import PayModel, window_at
from slotmath.exact.spin_table import LineTriggerTable, SpinTable
from slotmath.model.game import Game


def _combinations(reels, first_stops=None):
    """Every stop combination that can happen, with its weight (the product of its stops').

    ``first_stops``: only the combinations whose reel-1 stop is one of these.
    """
    live_stops = [
        [(stop, weight) for stop, weight in enumerate(reel.stop_weights) if weight]
        for reel in reels.reels
    ]
    if first_stops is not None:
        wanted = set(first_stops)
        live_stops[0] = [(stop, weight) for stop, weight in live_stops[0] if stop in wanted]
    for combination in itertools.product(*live_stops):
        weight = 1
        for _, w in combination:
            weight *= w
        yield [stop for stop, _ in combination], weight


def _covered(reels, first_stops) -> int:
    """The weight of the combinations visited: reel-1 weights of the stops times the rest."""
    if first_stops is None:
        return reels.cycle
    total = sum(reels.reels[0].stop_weights[stop] for stop in set(first_stops))
    for reel in reels.reels[1:]:
        total *= reel.cycle
    return total


def brute_force(game: Game, reel_set: str = "base", level: int = 1, *,
                first_stops: Sequence[int] | None = None) -> SpinTable:
    """Exact weights of one spin by visiting every stop combination.

    Parameters
    ----------
    game : Game
    reel_set : str
        Name of the reel set to spin (``"base"``, or e.g. the free-spins set).
    level : int
        Bet level; pays follow :class:`~slotmath.evaluate.window.PayModel`.
    first_stops : sequence of int, optional
        Visit only the combinations whose reel-1 stop is one of these; the table's
        ``cycle`` is then the weight they cover. Default: every stop.

    Returns
    -------
    SpinTable
        Weight of each (trigger count, credits) pair. A combination's weight is the
        product of its stops' weights; stops of weight zero are skipped. The trigger count
        is the number of ``game.free_spins.trigger`` symbols in the window, capped at
        ``trigger_cap = max(game.free_spins.awards)`` (0 and cap 0 without free spins).

    Examples
    --------
    >>> from slotmath import loads_game
    >>> game = loads_game('''
    ... rows = 1
    ... bet = 1
    ... paylines = [[0, 0, 0]]
    ... [symbols]
    ... A = { pays = { 3 = 10 } }
    ... B = {}
    ... [reels]
    ... base = [["A", "B"], ["A", "B"], ["A", "B"]]
    ... ''')
    >>> table = brute_force(game)
    >>> dict(table.weights), table.mean_bets
    ({(0, 10): 1, (0, 0): 7}, Fraction(5, 4))
    """
    model = PayModel(game, level)
    reels = game.reel_sets[reel_set]
    free_spins = game.free_spins
    trigger_cap = max(free_spins.awards) if free_spins is not None else 0

    weights: dict[tuple[int, int], int] = {}
    for stops, weight in _combinations(reels, first_stops):
        window = window_at(game, reels, stops)
        credits = model.spin_win(window)
        if free_spins is not None:
            trigger = min(model.scatter_count(window, free_spins.trigger), trigger_cap)
        else:
            trigger = 0
        key = (trigger, credits)
        weights[key] = weights.get(key, 0) + weight
    return SpinTable(weights, _covered(reels, first_stops), model.credits_per_bet, trigger_cap)


def brute_force_line_trigger(game: Game, symbol: str, count: int, reel_set: str = "base",
                             level: int = 1, cap: int | None = None, *,
                             first_stops: Sequence[int] | None = None) -> LineTriggerTable:
    """Exact (trigger count, trigger lines, credits) weights by visiting every combination.

    Trigger lines are counted by :meth:`PayModel.trigger_lines` and capped at ``cap``
    (default: the number of paylines). ``first_stops`` as in :func:`brute_force`.

    Examples
    --------
    >>> from slotmath import loads_game
    >>> game = loads_game('''
    ... rows = 1
    ... bet = 1
    ... paylines = [[0, 0, 0]]
    ... [symbols]
    ... A = { pays = { 3 = 10 } }
    ... B = {}
    ... [reels]
    ... base = [["A", "B"], ["A", "B"], ["A", "B"]]
    ... ''')
    >>> brute_force_line_trigger(game, "B", 2).line_weights()
    {0: 6, 1: 2}
    """
    model = PayModel(game, level)
    reels = game.reel_sets[reel_set]
    free_spins = game.free_spins
    trigger_cap = max(free_spins.awards) if free_spins is not None else 0
    cap = game.n_lines if cap is None else cap
    weights: dict[tuple[int, int, int], int] = {}
    for stops, weight in _combinations(reels, first_stops):
        window = window_at(game, reels, stops)
        trigger = 0
        if free_spins is not None:
            trigger = min(model.scatter_count(window, free_spins.trigger), trigger_cap)
        lines = min(model.trigger_lines(window, symbol, count), cap)
        key = (trigger, lines, model.spin_win(window))
        weights[key] = weights.get(key, 0) + weight
    return LineTriggerTable(weights, _covered(reels, first_stops), model.credits_per_bet,
                            trigger_cap, cap)
