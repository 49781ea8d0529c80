"""docs/architecture.md: its toy feature, written only against the interface, composes.

The doc's code blocks are run as they stand (a changed interface breaks the doc here), and the
round they build is checked against a brute-force enumeration of spin x prize that shares no
code with :class:`~slotmath.features.compose.RoundLaw`; so is a round with two features at
once (free spins and the toy prize on the same mark).
"""

from __future__ import annotations

import itertools
import re
import sys
import types
from fractions import Fraction
from pathlib import Path

import numpy as np
from bundled import ANALYSED, analysed
from hypothesis import given, settings
from hypothesis import strategies as st

from slotmath.exact.spin_table import MarkedTable, SpinTable
from slotmath.features.compose import RoundLaw
from slotmath.features.free_spins import FreeSpinsRound
from slotmath.model.game import FreeSpins

DOC = Path(__file__).resolve().parents[1] / "docs" / "architecture.md"


def doc_namespace() -> dict:
    blocks = re.findall(r"```python\n(.*?)```", DOC.read_text(), flags=re.DOTALL)
    assert len(blocks) == 2, "docs/architecture.md lost its toy-feature example"
    module = types.ModuleType("architecture_doc")  # dataclasses look their module up
    sys.modules[module.__name__] = module
    for block in blocks:
        exec(compile(block, str(DOC), "exec"), module.__dict__)  # noqa: S102 - our own doc
    return module.__dict__


def test_the_doc_example_runs():
    ns = doc_namespace()
    assert ns["round_law"].mean == Fraction(1, 2)


def brute_round(spin: dict, cycle: int, prize) -> dict[Fraction, Fraction]:
    """Round win law by enumeration: each (trigger, credits) outcome, then each prize."""
    out: dict[Fraction, Fraction] = {}
    for (t, c), w in spin.items():
        for extra, q in (prize if t >= 1 else {0: Fraction(1)}).items():
            x = Fraction(c) + extra
            out[x] = out.get(x, 0) + Fraction(w, cycle) * q
    return out


spins = st.dictionaries(st.tuples(st.integers(0, 2), st.integers(0, 6)), st.integers(1, 9),
                        min_size=1, max_size=8)


@settings(max_examples=40, deadline=None)
@given(spins)
def test_toy_round_equals_brute_force(weights):
    prize_feature = doc_namespace()["MysteryPrize"]()
    cycle = sum(weights.values())
    r = RoundLaw(MarkedTable(("trigger",), weights, cycle, 1), (prize_feature,))
    law = brute_round(weights, cycle, {1: Fraction(1, 3), 2: Fraction(1, 3), 3: Fraction(1, 3)})
    assert r.mean == sum(x * p for x, p in law.items())
    assert r.second_moment == sum(x * x * p for x, p in law.items())
    assert r.hit_frequency == sum(p for x, p in law.items() if x > 0)
    d = r.distribution()
    got = {Fraction(int(c), d.credits_per_bet): p for c, p in zip(d.credits, d.probs)}
    for x, p in law.items():
        assert abs(got.get(x, 0.0) - float(p)) < 1e-12


@settings(max_examples=30, deadline=None)
@given(spins, st.dictionaries(st.tuples(st.just(0), st.integers(0, 4)), st.integers(1, 5),
                              min_size=1, max_size=4))
def test_two_features_on_one_mark_equal_brute_force(weights, free_weights):
    """Free spins (2 spins per trigger count >= 1, no retrigger) and the toy prize, both
    started by the same mark, run independently: the round is spin + spins + prize."""
    prize_feature = doc_namespace()["MysteryPrize"]()
    cycle, free_cycle = sum(weights.values()), sum(free_weights.values())
    free = SpinTable(free_weights, free_cycle, 1, 0)
    spec = FreeSpins("S", {1: 2, 2: 2})
    r = RoundLaw(MarkedTable(("trigger",), weights, cycle, 1),
                 (FreeSpinsRound(spec, free), prize_feature))
    # brute force: spin, then two free spins, then the prize
    two = {}
    for (_, a), wa in free_weights.items():
        for (_, b), wb in free_weights.items():
            two[a + b] = two.get(a + b, 0) + Fraction(wa * wb, free_cycle**2)
    law: dict[Fraction, Fraction] = {}
    for (t, c), w in weights.items():
        extra = ([(0, Fraction(1))] if t == 0 else
                 [(f + k, q * Fraction(1, 3)) for (f, q), k in itertools.product(two.items(),
                                                                               (1, 2, 3))])
        for x, q in extra:
            law[Fraction(c + x)] = law.get(Fraction(c + x), 0) + Fraction(w, cycle) * q
    assert r.mean == sum(x * p for x, p in law.items())
    assert r.second_moment == sum(x * x * p for x, p in law.items())
    assert r.hit_frequency == sum(p for x, p in law.items() if x > 0)
    d = r.distribution()
    got = dict(zip(d.credits.tolist(), d.probs.tolist()))
    assert all(abs(got.get(int(x * d.credits_per_bet), 0.0) - float(p)) < 1e-12
               for x, p in law.items())
    assert np.isclose(sum(got.values()), 1.0)


def _features_of_every_bundled_game():

    out = []
    for path in ANALYSED:  # (tests/bundled.py)
        a = analysed(path)
        rounds = a.round.features if a.game.conveyor is None else ()  # (a conveyor: no round)
        out += [*a.spin_features(), *rounds, *a.stationary_features]
    return out


def test_every_feature_names_a_simulator_counterpart_that_exists():
    import importlib

    features = _features_of_every_bundled_game()
    assert {f.name for f in features} >= {"free_spins", "bonus_wheel", "jackpots"}
    for f in features:
        module, _, name = f.simulator.rpartition(".")
        assert callable(getattr(importlib.import_module(module), name)), f.simulator


def play_mystery(rng, trigger_counts):
    """Simulator counterpart of the doc's toy feature: each round whose paid spin shows the
    trigger at least once draws a prize of 1, 2 or 3 bets."""
    prize = rng.integers(1, 4, size=len(trigger_counts)).astype(float)
    return np.where(np.asarray(trigger_counts) >= 1, prize, 0.0)


def test_toy_feature_composes_into_an_analysis(monkeypatch):
    """One more registry entry makes the toy a feature of Tiny Lines' analysis: its component
    is P(trigger >= 1 on the paid spin) x 2, with the trigger probability from brute force,
    and the RTP moves by exactly that; the rest of the analysis is unchanged."""
    import slotmath
    from slotmath import analysis
    from slotmath.exact.brute import brute_force

    game = slotmath.load_game(DOC.parents[1] / "data" / "games" / "tiny_lines.toml")
    plain = slotmath.analyze(game)
    plain_rtp, plain_components, plain_hits = plain.rtp, plain.components, plain.hit_frequency
    prize = doc_namespace()["MysteryPrize"]()
    monkeypatch.setattr(analysis, "ROUND_FEATURES",
                        (*analysis.ROUND_FEATURES, lambda game, spin: prize))
    a = slotmath.analyze(game)
    base = brute_force(game, "base")
    p = Fraction(sum(w for (t, _), w in base.weights.items() if t >= 1), base.cycle)
    assert a.components["mystery"] == 2 * p
    assert a.rtp == plain_rtp + 2 * p
    assert a.rtp == sum(a.components.values())
    assert {k: v for k, v in a.components.items() if k != "mystery"} == plain_components
    assert a.hit_frequency > plain_hits
    # the simulator counterpart: base-spin trigger counts drawn from brute force, prizes drawn
    rng = np.random.default_rng(20261201)
    keys = list(base.weights)
    draws = rng.choice(len(keys), size=400_000,
                       p=np.array([base.weights[k] for k in keys], dtype=float) / base.cycle)
    prizes = play_mystery(rng, np.array([t for t, _ in keys])[draws])
    se = prizes.std() / np.sqrt(len(prizes))
    assert abs(prizes.mean() - float(a.components["mystery"])) < 4.5 * se


def test_context_refuses_a_trigger_mark_it_cannot_count():
    """The engine counts the free-spin trigger only; a feature asking it to count another
    symbol's appearances must be told so, not handed the scatter count."""
    import pytest

    import slotmath
    from slotmath.features.base import Context, Mark

    game = slotmath.load_game(DOC.parents[1] / "data" / "games" / "gold_money_frog.toml")
    ctx = Context(game, 1)
    assert ctx.table("base", (Mark("trigger", game.free_spins.trigger),)).marks == ("trigger",)
    with pytest.raises(ValueError, match="counts the free-spin trigger symbol"):
        ctx.table("base", (Mark("trigger", "WILD"),))


def test_features_are_freed_with_their_analysis():
    """Features keep their laws per instance: a global cache (functools.cache on a method)
    held every feature, with its chain and tables, for the life of the process, so a notebook
    moving a slider grew without bound."""
    import gc
    import weakref

    import slotmath

    game = slotmath.load_game(DOC.parents[1] / "data" / "games" / "gold_money_frog.toml")
    a = slotmath.analyze(game, 4)
    _ = a.round.mean, a.components
    refs = [weakref.ref(f) for f in (*a.round.features, *a.spin_features())]
    assert refs and all(r() is not None for r in refs)
    del a, _
    gc.collect()
    assert [r() for r in refs if r() is not None] == []
