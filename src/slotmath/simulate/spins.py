"""Spins of one reel set, drawn and paid: the paid spin of a round, and each free spin.

The stops are drawn with the caller's ``numpy.random.Generator`` and paid by the numba
kernel :func:`~slotmath.simulate._kernels.spin_batch` on the integer tables of
:mod:`slotmath.simulate.tables`: 16 random bits per reel (32 when a reel's total weight is
above 1024, and always for free spins), turned into a stop by Lemire's multiply-shift with
rejection; the rare rejected spin is drawn again with ``Generator.integers``, which also
draws every stop of a reel set whose total weight reaches 2**32.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from slotmath.evaluate.window import PayModel
from slotmath.model.game import Game
from slotmath.simulate import _kernels
from slotmath.simulate._kernels import SpinBatch, SpinTables
from slotmath.simulate.tables import PayTables, ReelTables, compile_reels, spin_tables

PARALLEL_MIN = 1 << 15  # smaller batches (free-spin rounds) are paid on one thread


class Spins(NamedTuple):
    """What ``n`` spins paid, one entry a spin."""

    win: np.ndarray  # int64: credits of lines or ways and scatters (no feature, no wheel)
    award: np.ndarray  # int64: free spins awarded
    lines: np.ndarray  # int64: bonus-wheel trigger lines (an empty array without a wheel)


@dataclass(frozen=True, eq=False)
class ReelSet:
    """One reel set ready to spin: its stop tables and the kernel's input built from them."""

    reels: ReelTables
    tables: SpinTables

    @classmethod
    def compile(cls, game: Game, model: PayModel, pays: PayTables, name: str) -> ReelSet:
        """The reel set ``name`` of ``game``, paid by ``pays``."""
        reels = compile_reels(game, model, pays, name)
        return cls(reels, spin_tables(pays, reels))

    @classmethod
    def of(cls, pays: PayTables, reels: ReelTables) -> ReelSet:
        """Compiled tables, ready to spin."""
        return cls(reels, spin_tables(pays, reels))


def pay(reel_set: ReelSet, n: int, bits: np.ndarray | None = None, bit_width: int = 0,
        stops: np.ndarray | None = None, parallel: bool | None = None
        ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Credits, free spins awarded, bonus-wheel trigger lines and rejection flag of ``n``
    spins: from ``bit_width`` random bits a stop, or from given stops.

    Without a bonus wheel the trigger lines are an empty array.

    ``parallel=None`` uses the threaded kernel for batches of at least ``PARALLEL_MIN``.
    """
    tables = reel_set.tables
    if bits is None:
        bits = np.zeros(0, np.uint16)
    if stops is None:
        stops = np.zeros((0, tables.lengths.shape[0]), np.int64)
    batch = SpinBatch(
        bits=bits, bit_width=bit_width, stops=stops,
        win=np.empty(n, np.int64), award=np.empty(n, np.int64),
        lines=np.zeros(n if tables.wheel_mask is not None else 0, np.int64),
        rejected=np.empty(n, np.bool_),
    )
    if parallel is None:
        parallel = n >= PARALLEL_MIN
    (_kernels.spin_batch if parallel else _kernels.spin_batch_serial)(tables, batch)
    return batch.win, batch.award, batch.lines, batch.rejected


def draw_stops(rng: np.random.Generator, reels: ReelTables, n: int) -> np.ndarray:
    """``n`` stop combinations drawn with ``Generator.integers`` (uniform or by weight)."""
    n_reels = reels.lengths.shape[0]
    stops = np.empty((n, n_reels), np.int64)
    for j in range(n_reels):
        length = int(reels.lengths[j])
        if reels.weighted[j]:
            cumulative = reels.cumulative[j, :length]
            u = rng.integers(0, int(cumulative[-1]), size=n)
            stops[:, j] = np.searchsorted(cumulative, u, side="right")
        else:
            stops[:, j] = rng.integers(0, length, size=n)
    return stops


def spin_reels(rng: np.random.Generator, reel_set: ReelSet, n: int, narrow: bool = True
               ) -> Spins:
    """``n`` random spins of ``reel_set``, paid.

    ``narrow``: 16 random bits a stop where the reels allow it (half the drawing work, but
    more spins rejected and drawn again: for large batches), else 32.
    """
    reels = reel_set.reels
    widths = [w for w in reels.bit_widths if narrow or w == 32]
    if not widths:
        win, award, lines, _ = pay(reel_set, n, stops=draw_stops(rng, reels, n))
        return Spins(win, award, lines)
    # The random bits, as 16-bit words cut from 64-bit draws (the Generator's cheapest).
    words = n * reels.lengths.shape[0] * (widths[0] // 16)
    bits = rng.integers(0, np.iinfo(np.uint64).max, size=(words + 3) // 4, dtype=np.uint64,
                        endpoint=True).view(np.uint16)
    win, award, lines, rejected = pay(reel_set, n, bits=bits, bit_width=widths[0])
    again = np.flatnonzero(rejected)
    if again.size:
        stops = draw_stops(rng, reels, again.size)
        win[again], award[again], lines_again, _ = pay(reel_set, again.size, stops=stops)
        if reel_set.tables.wheel_mask is not None:
            lines[again] = lines_again
    return Spins(win, award, lines)


def play_paid_spins(rng: np.random.Generator, base: ReelSet, n: int) -> Spins:
    """Simulator counterpart of the paid spin (the base game's exact spin distribution): ``n``
    paid spins on the ``"base"`` reel set, before any feature they trigger.

    Examples
    --------
    >>> import slotmath
    >>> from slotmath.evaluate.window import PayModel
    >>> from slotmath.simulate.tables import compile_pays
    >>> game = slotmath.load_game("data/games/tiny_lines.toml")
    >>> model = PayModel(game)
    >>> base = ReelSet.compile(game, model, compile_pays(game, model), "base")
    >>> spins = play_paid_spins(np.random.default_rng(1), base, 1000)
    >>> spins.win.shape, spins.lines.shape  # no bonus wheel: no trigger lines
    ((1000,), (0,))
    """
    return spin_reels(rng, base, n, narrow=True)
