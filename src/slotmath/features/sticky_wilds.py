"""Free spins with sticky wilds (The Dog House): a wild landing in free spins stays, with its
multiplier, to the end of the feature.

An extension of the free-spins feature, declared by ``[free_spins.sticky_wilds]``
(:mod:`slotmath.features.free_spin_state`): the free-spins feature plays the round on the
chain of :mod:`slotmath.markov.free_spin_state` over the moves of
:class:`slotmath.exact.free_spin_moves.StickyMoves`. Report:
:mod:`slotmath.report.free_spin_state`; panel: :mod:`slotmath.widgets.free_spin_state_panel`;
simulator: :mod:`slotmath.simulate.free_spin_state`.
"""

from __future__ import annotations

from dataclasses import replace

from slotmath.exact.free_spin_moves import StickyMoves
from slotmath.features.free_spin_state import declare, level_and_model

__all__ = ["FEATURE", "mechanic"]


def mechanic(game, spin) -> StickyMoves:
    """The moves of ``game``'s free spins at the level of the composition of ``spin``."""
    level, model, reporter = level_and_model(spin)
    return StickyMoves(game, level, model, reporter("free reels (sticky wild states)"))


FEATURE = replace(declare("sticky_wilds", "Free spins: sticky wilds", mechanic),
                  book="slotmath.publish.free_spin_state:book")
