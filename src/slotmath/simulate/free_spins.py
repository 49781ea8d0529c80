"""The free-spins feature as the simulator plays it: every triggered feature of a batch of
rounds played to its end, one free spin of every running feature at a time."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from slotmath.model.game import BonusWheel, FreeSpins
from slotmath.simulate.bonus_wheel import play_bonus_wheel, wheel_spins
from slotmath.simulate.spins import ReelSet, spin_reels
from slotmath.simulate.tables import PayTables


class Features(NamedTuple):
    """What the features of a batch paid, one entry a feature (a triggered round)."""

    win: np.ndarray  # int64: credits, multiplier applied, bonus-wheel coins included
    played: np.ndarray  # int64: free spins played
    wheel_credits: int  # credits of all their bonus-wheel spins (multiplied if ``multiplied``)
    wheel_spins: np.ndarray | None  # int64: wheel spins of each feature, if not drawn here


def play_free_spins(rng: np.random.Generator, reel_set: ReelSet, pays: PayTables,
                    free_spins: FreeSpins, wheel: BonusWheel | None, awarded: np.ndarray,
                    draw_wheel: bool = True) -> Features:
    """Simulator counterpart of ``features.free_spins``: play the features that awarded
    ``awarded`` free spins, on ``reel_set``, to their end.

    Each free spin's win (lines or ways and scatters) is multiplied by the feature
    multiplier, its bonus-wheel prizes only if the wheel is ``multiplied``. With
    ``retrigger`` the awards apply during free spins too, truncated so that a feature never
    exceeds ``max_spins`` spins. Free spins draw 32 random bits a stop.

    ``draw_wheel=False`` (jackpot wheels, played later through the pools): the wheel spins
    are not drawn but counted, in ``wheel_spins`` (else None).

    Examples
    --------
    >>> import slotmath
    >>> from slotmath.evaluate.window import PayModel
    >>> from slotmath.simulate.tables import compile_pays
    >>> game = slotmath.load_game("data/games/classic_fruits.toml")
    >>> model = PayModel(game)
    >>> pays = compile_pays(game, model)
    >>> free = ReelSet.compile(game, model, pays, game.free_spins.reels)
    >>> features = play_free_spins(np.random.default_rng(1), free, pays, game.free_spins,
    ...                            None, np.array([10, 15]))
    >>> bool((features.played >= [10, 15]).all()), features.wheel_credits, features.wheel_spins
    (True, 0, None)
    """
    multiplier = free_spins.multiplier
    wheel_multiplier = multiplier if wheel is not None and wheel.multiplied else 1
    wheel_total = 0
    cap = free_spins.max_spins
    awarded = np.minimum(awarded, cap) if cap is not None else awarded.copy()
    total = np.zeros(awarded.size, np.int64)
    played = np.zeros(awarded.size, np.int64)
    spins_of_wheel = None if draw_wheel else np.zeros(awarded.size, np.int64)
    running = np.arange(awarded.size)
    while running.size:  # one free spin of every running feature, in feature order
        win, extra, lines = spin_reels(rng, reel_set, running.size, narrow=False)
        win *= multiplier
        if not draw_wheel:
            spins_of_wheel[running] += wheel_spins(pays, lines)
        else:
            wheel_win = play_bonus_wheel(rng, pays, lines)
            if wheel_win is not None:
                wheel_win *= wheel_multiplier
                win += wheel_win
                wheel_total += int(wheel_win.sum())
        total[running] += win
        played[running] += 1
        if free_spins.retrigger:
            if cap is not None:
                extra = np.minimum(extra, cap - awarded[running])
            awarded[running] += extra
        running = running[played[running] < awarded[running]]
    return Features(total, played, wheel_total, spins_of_wheel)
