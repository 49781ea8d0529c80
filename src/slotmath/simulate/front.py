"""The simulator's one front door: every game the format accepts, through its features'
simulators, one result type.

Each declared feature names a ``round_simulator`` (a function playing whole paid rounds of
games made of the features in its ``plays``) and its ``simulator`` counterpart (the part of
a round it plays, for the cross-checks). :func:`simulate` picks, among the declared features'
round simulators, the one whose ``plays`` covers every feature the game has (the smallest such
set), and returns its :class:`~slotmath.simulate.monte_carlo.SimulationResult`: the RTP and
its standard error, the components by feature name, the hit frequency and each round
feature's trigger rate. A game no round simulator covers is refused in one line naming its
features; the loader refuses such a combination before this (model rules), so this is the
second guard, never a silently dropped feature. A game mode (``[modes.NAME]``) is played by a
round simulator that takes a ``mode`` argument; its figures are per amount the mode costs.
"""

from __future__ import annotations

import inspect

from slotmath.features.base import Feature, hook
from slotmath.model.game import Game
from slotmath.simulate.monte_carlo import SimulationResult, _spin_count

__all__ = ["round_simulator", "simulate"]


def round_simulator(game: Game, mode: str | None = None) -> Feature:
    """The declared feature whose round simulator plays every feature ``game`` has (and,
    given a ``mode``, plays game modes: its function takes a ``mode`` argument).

    >>> import slotmath
    >>> round_simulator(slotmath.load_game("data/games/gus_gold_christmas.toml")).name
    'modifiers'
    """
    from slotmath.features.registry import declared

    have = {f.name for f in declared(game)}
    able = [f for f in declared(game)
            if f.round_simulator is not None and have <= set(f.plays)]
    if mode is not None:
        able = [f for f in able
                if "mode" in inspect.signature(hook(f, "round_simulator")).parameters]
    if not able:
        what = "" if mode is None else f" in mode {mode!r}"
        raise ValueError(f"{game.name}: no simulator plays its features together{what}: "
                         f"{sorted(have)}")
    return min(able, key=lambda f: len(f.plays))


def simulate(game: Game, spins: int, seed: int, level: int = 1,
             progress: bool | float = False, mode: str | None = None) -> SimulationResult:
    """Play ``spins`` seeded paid rounds of ``game`` at bet ``level``.

    Parameters
    ----------
    game : Game
    spins : int
        Paid rounds.
    seed : int
        Seed of the ``PCG64`` bit generator; the same seed gives the same result.
    level : int
        Bet level.
    progress : bool or float
        Show a progress bar where the simulator has one (a number: only once the run has
        taken that many seconds).
    mode : str, optional
        Play the game mode of that name (``[modes.NAME]``): money per amount it costs.

    Inside ``slotmath.executor(...)`` the rounds play in independent seed streams through it
    (:func:`slotmath.parallel.simulate_streams`): the same figures on any number of workers.

    Returns
    -------
    SimulationResult
        The same type for every game: ``rtp``, ``std_error``, ``components`` (by feature
        name, adding up to ``rtp``), ``hit_frequency``, ``trigger_rates``.

    Examples
    --------
    >>> import slotmath
    >>> r = simulate(slotmath.load_game("data/games/tiny_lines.toml"), 100_000, seed=3)
    >>> sorted(r.components), r == simulate(slotmath.load_game("data/games/tiny_lines.toml"),
    ...                                     100_000, seed=3)
    (['free_spins', 'pays'], True)
    """
    spins = _spin_count(spins)
    game.check_level(level)
    if mode is not None:
        game.mode(mode)
    from slotmath import parallel

    if parallel.current() is not None and not parallel.in_chunk():  # slotmath.executor(...)
        return parallel.simulate_streams(game, spins, seed, level, mode)
    play = hook(round_simulator(game, mode), "round_simulator")
    if mode is None:
        return play(game, spins, seed, level, progress)
    return play(game, spins, seed, level, progress, mode=mode)
