"""The line-triggered bonus wheel as the simulator plays it (without jackpots; with them the
wheel is played through the pools, :mod:`slotmath.simulate.jackpots`)."""

from __future__ import annotations

import numpy as np

from slotmath.simulate.tables import PayTables


def wheel_spins(pays: PayTables, lines: np.ndarray) -> np.ndarray:
    """Bonus-wheel spins of each spin, given its trigger lines: one per line
    (``per_spin = "per_line"``) or one if any (``"once"``)."""
    return lines if pays.wheel_per_line else np.minimum(lines, 1)


def play_bonus_wheel(rng: np.random.Generator, pays: PayTables, lines: np.ndarray
                     ) -> np.ndarray | None:
    """Simulator counterpart of ``features.bonus_wheel``: the credits of the bonus-wheel
    spins of each spin, given its trigger lines (``None`` without a wheel), not multiplied.

    Spin after spin, each wheel spin draws u uniform on [0, total weight) with
    ``Generator.integers`` and stops on the first division whose cumulative weight exceeds u.

    Examples
    --------
    Gold Money Frog's wheel spins once however many lines trigger it; its coin prizes are all
    one total bet:

    >>> import slotmath
    >>> from slotmath.evaluate.window import PayModel
    >>> from slotmath.simulate.tables import compile_pays
    >>> game = slotmath.load_game("data/games/gold_money_frog.toml")
    >>> pays = compile_pays(game, PayModel(game))
    >>> wins = play_bonus_wheel(np.random.default_rng(1), pays, np.array([0, 2, 1]))
    >>> (wins / pays.credits_per_bet).tolist()
    [0.0, 1.0, 1.0]
    """
    if not pays.wheel_count:
        return None
    spins = wheel_spins(pays, lines)
    wins = np.zeros(lines.size, np.int64)
    spinning = np.flatnonzero(spins)
    if spinning.size:
        counts = spins[spinning]
        u = rng.integers(0, int(pays.wheel_cumulative[-1]), size=int(counts.sum()))
        prizes = pays.wheel_credits[np.searchsorted(pays.wheel_cumulative, u, side="right")]
        np.add.at(wins, np.repeat(spinning, counts), prizes)
    return wins
