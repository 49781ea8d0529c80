"""The registry: every mechanic of the game format, declared once, in the order a round
composes them.

Adding a mechanic is its module (exporting ``FEATURE``, a
:class:`~slotmath.features.base.Feature`) and one line here; every consumer (analysis,
report, workbench, simulator, compliance check) reads it from :data:`REGISTRY`.

Examples
--------
>>> import slotmath
>>> [f.name for f in declared(slotmath.load_game("data/games/gold_money_frog.toml"))]
['pays', 'bonus_wheel', 'free_spins', 'jackpots', 'max_win_cap']
>>> from slotmath.features.base import Kind
>>> sorted({f.kind.value for f in REGISTRY}) == sorted(k.value for k in Kind)
True
"""

from __future__ import annotations

from slotmath.features import (
    anywhere,
    bonus_wheel,
    cap,
    cascades,
    cluster,
    collector,
    conveyor,
    expanding_symbol,
    free_spins,
    hold_and_win,
    jackpots,
    megaways,
    modifiers,
    multiplier_symbols,
    pays,
    sticky_wilds,
    tumbles,
)
from slotmath.features.base import Feature, Kind
from slotmath.model.game import Game

__all__ = ["REGISTRY", "declared", "feature"]

REGISTRY: tuple[Feature, ...] = (
    pays.FEATURE,
    cascades.FEATURE,
    modifiers.FEATURE,
    bonus_wheel.FEATURE,
    free_spins.FEATURE,
    expanding_symbol.FEATURE,
    sticky_wilds.FEATURE,
    collector.FEATURE,
    hold_and_win.FEATURE,
    jackpots.FEATURE,
    conveyor.FEATURE,
    megaways.FEATURE,
    anywhere.FEATURE,
    cluster.FEATURE,
    tumbles.FEATURE,
    multiplier_symbols.FEATURE,
    cap.FEATURE,
)


def declared(game: Game, registry: tuple[Feature, ...] | None = None) -> tuple[Feature, ...]:
    """The features ``game`` has, in registry order; a feature that a present owner plays
    inside its own round (its ``replaces``) is the owner's, not declared on its own."""
    present = [f for f in (REGISTRY if registry is None else registry) if f.present(game)]
    played = {name for f in present if f.kind is Kind.OWNER for name in f.replaces}
    return tuple(f for f in present if f.name not in played)


def feature(name: str) -> Feature:
    """The declaration called ``name``."""
    for f in REGISTRY:
        if f.name == name:
            return f
    raise KeyError(f"no feature {name!r}; the registry has {[f.name for f in REGISTRY]}")
