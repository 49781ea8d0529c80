"""The base-game modifiers played spin by spin (``[modifiers]``, docs/game-format.md): the
Monte Carlo twin of :mod:`slotmath.exact.modifiers` and :mod:`slotmath.features.modifiers`.

Per paid spin: the stops are drawn, then at most one modifier by its frequency; the window is
built and changed by this module's own code (a ``place`` modifier draws its count, then that
many distinct positions on its reels with ``Generator.choice(..., replace=False)``; an
``upgrade`` draws its symbol and shows it for every source symbol in view), and the changed
window is paid by the game's evaluator (:class:`slotmath.evaluate.window.PayModel`).
Unmodified spins are paid by the compiled spin kernel, as in
:mod:`slotmath.simulate.hold_and_win`.

Seeded mutations (they must fail the agreement tests): ``"upgrade_one"`` (an upgrade changes
the first source position in view only), ``"place_one_more"`` (a place modifier changes one
position more than its count).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from slotmath.evaluate.window import PayModel
from slotmath.model.game import Game
from slotmath.model.modifiers import Modifier

__all__ = ["MUTATIONS", "ModifiedSpins", "apply", "play_paid_spins", "simulate_rounds"]

MUTATIONS = (None, "upgrade_one", "place_one_more")


@dataclass(frozen=True)
class ModifiedSpins:
    """Per paid spin: the window's win in total bets, the cash symbols shown (0 without a
    counted symbol) and the modifier that acted (index into ``game.modifiers``, -1: none)."""

    win: np.ndarray
    cash: np.ndarray
    modifier: np.ndarray


def apply(window: list[list[str]], m: Modifier, rng: np.random.Generator,
          mutation: str | None = None) -> list[list[str]]:
    """``window`` (reel columns, top row first) as modifier ``m`` shows it, one draw.

    >>> m = Modifier("tnt", "upgrade", 1, from_symbols=("A",), to=(("G", 1),))
    >>> apply([["A", "B"], ["A", "A"]], m, np.random.default_rng(0))
    [['G', 'B'], ['G', 'G']]
    """
    out = [list(col) for col in window]
    if m.kind == "upgrade":
        names = [s for s, _ in m.to]
        w = np.asarray([w for _, w in m.to], dtype=np.float64)
        target = names[int(rng.choice(len(names), p=w / w.sum()))]
        done = False
        for col in out:
            for r, s in enumerate(col):
                if s in m.from_symbols and not (mutation == "upgrade_one" and done):
                    col[r] = target
                    done = True
        return out
    ks = [k for k, _ in m.counts]
    w = np.asarray([w for _, w in m.counts], dtype=np.float64)
    k = ks[int(rng.choice(len(ks), p=w / w.sum()))]
    cells = [(j, r) for j, col in enumerate(out) if m.on_reel(j) for r in range(len(col))]
    if mutation == "place_one_more":
        k = min(k + 1, len(cells))
    for i in rng.choice(len(cells), size=k, replace=False):
        j, r = cells[int(i)]
        if out[j][r] not in m.keep:
            out[j][r] = m.symbol
    return out


def play_paid_spins(game: Game, spins: int, rng: np.random.Generator, level: int = 1,
                    only: str | None = None, mutation: str | None = None,
                    count_symbol: str | None = None) -> ModifiedSpins:
    """``spins`` paid spins with the game's modifiers (``only``: every spin carries the
    modifier of that name), their wins, cash counts and modifiers."""
    from slotmath.simulate.spins import ReelSet, draw_stops, pay
    from slotmath.simulate.tables import compile_pays

    mods = list(game.modifiers) if game.modifiers is not None else []
    model = PayModel(game, level)
    pays = compile_pays(game, model)
    base = ReelSet.compile(game, model, pays, "base")
    stops = draw_stops(rng, base.reels, spins)
    credits, _, _, _ = pay(base, spins, stops=stops)
    win = credits / pays.credits_per_bet
    symbol = count_symbol or (game.hold_and_win.symbol if game.hold_and_win else None)
    cash = np.zeros(spins, np.int64)
    if symbol is not None:
        for j, reel in enumerate(game.base.reels):
            per_stop = np.asarray([reel.window(s, game.rows[j]).count(symbol)
                                   for s in range(len(reel.symbols))], np.int64)
            cash += per_stop[stops[:, j]]
    if only is not None:
        which = np.full(spins, [m.name for m in mods].index(only), np.int64)
    else:
        edges = np.cumsum([float(m.frequency) for m in mods])
        which = np.searchsorted(edges, rng.random(spins), side="right")
        which[which >= len(mods)] = -1
    for i in np.nonzero(which >= 0)[0]:
        window = [list(game.base.reels[j].window(int(stops[i, j]), game.rows[j]))
                  for j in range(game.n_reels)]
        shown = tuple(tuple(col) for col in apply(window, mods[which[i]], rng, mutation))
        win[i] = float(model.to_bets(model.spin_win(shown)))
        if symbol is not None:
            cash[i] = sum(col.count(symbol) for col in shown)
    return ModifiedSpins(win, cash, which)


def simulate_rounds(game: Game, spins: int, seed: int, level: int = 1,
                    progress: bool | float = False):
    """The front door's round simulator of a game whose only feature is its modifiers: each
    round is its paid spin (:func:`play_paid_spins`), as a
    :class:`~slotmath.simulate.monte_carlo.SimulationResult`."""
    import math

    from slotmath.simulate.monte_carlo import SimulationResult

    rng = np.random.Generator(np.random.PCG64(seed))
    win = play_paid_spins(game, spins, rng, level).win
    std = float(win.std(ddof=1)) if spins > 1 else 0.0
    return SimulationResult(
        spins=spins, rtp=float(win.mean()), std_error=std / math.sqrt(spins),
        hit_frequency=float((win > 0).mean()), std=std, base=float(win.mean()),
        free_spins=0.0, trigger_rate=0.0, spins_per_feature=0.0, seed=seed, level=level,
        components={"pays": float(win.mean())})
