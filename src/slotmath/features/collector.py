"""Free spins with a collector (Big Bass): cash symbols carry values, a collector wild collects
them all, and every few collectors collected move a multiplier ladder up and award more spins.

An extension of the free-spins feature, declared by ``[free_spins.collector]``
(:mod:`slotmath.features.free_spin_state`): the free-spins feature plays the round on the
chain of :mod:`slotmath.markov.free_spin_state` over the moves of
:class:`slotmath.exact.free_spin_moves.CollectorMoves`. Report:
:mod:`slotmath.report.free_spin_state`; panel: :mod:`slotmath.widgets.free_spin_state_panel`;
simulator: :mod:`slotmath.simulate.free_spin_state`.
"""

from __future__ import annotations

from dataclasses import replace

from slotmath.exact.free_spin_moves import CollectorMoves
from slotmath.features.free_spin_state import declare, level_and_model

__all__ = ["FEATURE", "mechanic"]


def mechanic(game, spin) -> CollectorMoves:
    """The moves of ``game``'s free spins at the level of the composition of ``spin``."""
    level, model, _ = level_and_model(spin)
    return CollectorMoves(game, level, model)


FEATURE = replace(declare("collector", "Free spins: collector", mechanic),
                  book="slotmath.publish.free_spin_state:book")
