"""What the three free-spin states (expanding symbol, sticky wilds, collector) share as
features: each is an extension of the free-spins feature declared by the game file
(``[free_spins.expanding_symbol]`` ...), with a registry entry of its own for its figures,
its reports, its panel and its simulator.

The free-spins feature builds the round (:class:`slotmath.features.free_spins.StateRound`)
and asks the state's declaration for the mechanic its chain runs over (its ``build_round``);
the state's own ``build`` gives nothing to the round, so the RTP keeps one ``free_spins``
component. Its ``result`` (:class:`StateSummary`) reads the chain the round solved: the
state space's size, how features end (spins played, final state) and the figures by start
state.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from slotmath.features.base import Feature, Kind

__all__ = ["StateSummary", "declare", "level_and_model", "state_round", "summary"]


def level_and_model(spin):
    """The bet level, pay model and progress reporter of the composition whose ``spin`` a
    round feature is built with (what ``Composition`` hands its round features, or
    ``Composition.spin``, a bound method)."""
    composition = getattr(spin, "composition", None) or getattr(spin, "__self__", None)
    context = getattr(composition, "context", None)
    if context is None:
        raise TypeError("free spins with a state are built from Composition.spin (their "
                        "engine enumerates the free reels itself)")
    return context.level, context.model, context.reporter


def state_round(composition):
    """The round's free-spins feature when it carries a state, else None."""
    from slotmath.features.free_spins import StateRound

    return next((f for f in composition.round.features if isinstance(f, StateRound)), None)


@dataclass(frozen=True)
class StateSummary:
    """A free-spin state's figures, per started feature (mixed over the trigger counts).

    ``final`` is the exact law of how a feature ends, ``(spins played, mechanic state) ->
    probability``; ``by_start`` the exact mean win (bets) of the features that start in each
    start state, with its probability; ``size`` the chain's states and moves.
    """

    kind: str
    trigger_probability: Fraction
    expected_win: Fraction
    final: dict
    by_start: dict  # start state -> (probability, mean win per feature)
    size: dict
    exact: bool
    mechanic: object


def summary(composition, kind: str) -> StateSummary | None:
    round_feature = state_round(composition)
    if round_feature is None:
        return None
    round_law = composition.round
    starts = round_law.start_probabilities(round_feature.name)
    p = sum(starts.values(), Fraction(0))
    chain = round_feature.chain
    mechanic = round_feature.mechanic
    final: dict = {}
    by_start: dict = {}
    mean = Fraction(0)
    if p:
        for key, q in starts.items():
            w = q / p
            for end, r in chain.final_states(dict(key)).items():
                final[end] = final.get(end, 0) + w * r
            law = round_feature.law(key)
            mean += w * law.mean
        total = sum(x for x, _ in mechanic.start())
        for weight, state in mechanic.start():
            e = sum((q / p * chain.state_law(dict(key), state).mean
                     for key, q in starts.items()), Fraction(0))
            by_start[state] = (Fraction(weight, total), e)
    return StateSummary(kind, p, mean, final, by_start, dict(chain.size), round_feature.exact,
                        mechanic)


def declare(name: str, title: str, build_round) -> Feature:
    """The registry entry of the free-spin state ``name``."""
    return Feature(
        name=name,
        kind=Kind.ROUND,
        title=title,
        present=lambda game: (game.free_spins is not None and game.free_spins.state is not None
                              and game.free_spins.state.kind == name),
        build=lambda game, spin: None,  # the free-spins feature builds the round
        build_round=build_round,
        result=lambda composition: summary(composition, name),
        json=f"slotmath.report.free_spin_state:json_{name}",
        tables=f"slotmath.report.free_spin_state:tables_{name}",
        summary=f"slotmath.report.free_spin_state:summary_{name}",
        panel=f"slotmath.widgets.free_spin_state_panel:{name}_panel",
        charts=f"slotmath.plot.free_spin_state:charts_{name}",
        simulator="slotmath.simulate.free_spin_state:play_features",
        round_simulator="slotmath.simulate.free_spin_state:simulate_rounds",
        plays=("pays", "free_spins", name),
    )
