"""Free spins with the expanding symbol (Book of Ra / Dead): one symbol drawn when the feature starts, expanding on
every reel it shows on and paying on every line.

An extension of the free-spins feature, declared by ``[free_spins.expanding_symbol]``
(:mod:`slotmath.features.free_spin_state`): the free-spins feature plays the round on the
chain of :mod:`slotmath.markov.free_spin_state` over the moves of
:class:`slotmath.exact.free_spin_moves.ExpandingMoves`. Report:
:mod:`slotmath.report.free_spin_state`; panel: :mod:`slotmath.widgets.free_spin_state_panel`;
simulator: :mod:`slotmath.simulate.free_spin_state`.
"""

from __future__ import annotations

from dataclasses import replace

from slotmath.exact.free_spin_moves import ExpandingMoves
from slotmath.features.free_spin_state import declare, level_and_model

__all__ = ["FEATURE", "mechanic"]


def mechanic(game, spin) -> ExpandingMoves:
    """The moves of ``game``'s free spins at the level of the composition of ``spin``."""
    level, model, _ = level_and_model(spin)
    return ExpandingMoves(game, level, model)


FEATURE = replace(declare("expanding_symbol", "Free spins: expanding symbol", mechanic),
                  book="slotmath.publish.free_spin_state:book")
