"""The hit-law registry (src/slotmath/model/hit_laws.py): each law's formula written once as a
scalar function, held equal bit for bit to its numpy twin, to the Markov law classes built on
it and to the simulator's numba kernel compiled from it, on random parameters and pools; and
the rules on parameters and level factors.

The kernel comparison also guards numba's cache, which does not notice an edit to
hit_laws.py: a stale compiled kernel disagrees with the registry here.
"""

from __future__ import annotations

import math
from dataclasses import replace
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import jackpot_game

from slotmath.errors import RuleError
from slotmath.markov.jackpot import LAW_CLASSES, hit_law
from slotmath.model import hit_laws
from slotmath.model.game import JackpotSpec
from slotmath.simulate import _kernels, jackpots

PROBABILITY = st.floats(0.0, 1.0)
NON_NEGATIVE = st.one_of(st.floats(0.0, 1e6), st.floats(0.0, 1e-3), st.just(0.0))
POOLS = st.lists(st.one_of(st.floats(0.0, 1e7), st.floats(0.0, 1.0), st.just(0.0)),
                 min_size=1, max_size=20)


@st.composite
def law_and_parameters(draw):
    law = draw(st.sampled_from(list(hit_laws.LAWS.values())))
    parameters = {p: draw(PROBABILITY if p in law.probability_parameters else NON_NEGATIVE)
                  for p in law.parameters}
    return law, parameters


def test_registry_is_consistent():
    ids = [law.id for law in hit_laws.LAWS.values()]
    assert len(set(ids)) == len(ids)
    assert list(hit_laws.LAWS) == ["constant", "linear", "saturating"]  # as messages list them
    for name, law in hit_laws.LAWS.items():
        assert law.name == name and hit_laws.law(name) is law
        assert law.scaled_parameter in law.parameters
        assert law.probability_parameters <= set(law.parameters)
        assert 1 <= len(law.parameters) <= 2  # the kernel's two parameter slots
        assert set(LAW_CLASSES) == set(hit_laws.LAWS)
        assert LAW_CLASSES[name].definition is law
    assert hit_laws.PARAMETERS == {"probability", "rate", "p_max", "half"}


@settings(max_examples=300, deadline=None)
@given(law_and_parameters(), POOLS)
def test_scalar_formula_equals_array_formula_class_and_kernel(drawn, pools):
    law, parameters = drawn
    values = [parameters[p] for p in law.parameters]
    x = np.array(pools)
    scalar = np.array([law.formula(*values, pool) for pool in pools])
    assert np.all((scalar >= 0) & (scalar <= 1))
    np.testing.assert_array_equal(law.array_formula(*values, x), scalar)
    np.testing.assert_array_equal(LAW_CLASSES[law.name](**parameters)(x), scalar)
    a, b = (values + [0.0])[:2]
    kernel = [_kernels.hit_probability(law.id, a, b, pool) for pool in pools]
    np.testing.assert_array_equal(kernel, scalar)
    # a scalar pool gives a scalar, as before
    assert LAW_CLASSES[law.name](**parameters)(pools[0]) == scalar[0]


@settings(max_examples=200, deadline=None)
@given(law_and_parameters(), st.floats(0.01, 10.0))
def test_scaling_by_a_level_factor(drawn, factor):
    law, parameters = drawn
    p = law.scaled_parameter
    over = float(parameters[p]) * factor > 1 and p in law.probability_parameters
    if over and law.refuses_past_one:
        with pytest.raises(RuleError, match="x level factor"):
            hit_law(law.name, parameters, factor)
        return
    scaled = hit_laws.scaled_parameters(law.name, parameters, factor)
    expected = min(1.0, parameters[p] * factor) if p in law.probability_parameters \
        else parameters[p] * factor
    assert scaled[p] == expected
    assert {k: v for k, v in scaled.items() if k != p} == {
        k: v for k, v in parameters.items() if k != p}
    assert hit_law(law.name, parameters, factor) == LAW_CLASSES[law.name](**scaled)
    assert LAW_CLASSES[law.name](**parameters).scaled(factor) == LAW_CLASSES[law.name](**scaled)


def test_saturating_past_one_is_refused_constant_capped_linear_unbounded():
    with pytest.raises(RuleError, match=r"^saturating law: p_max x level factor = 1.2 > 1; "
                                        r"lower p_max or the level factor$"):
        hit_laws.scaled_parameters("saturating", {"p_max": 0.4, "half": 5.0}, 3.0)
    assert hit_laws.scaled_parameters("saturating", {"p_max": 0.25, "half": 5.0}, 4.0) == {
        "p_max": 1.0, "half": 5.0}  # exactly 1 is allowed
    assert hit_laws.scaled_parameters("constant", {"probability": 0.4}, 3.0) == {
        "probability": 1.0}
    assert hit_laws.scaled_parameters("linear", {"rate": 0.4}, 3.0) == {
        "rate": 0.4 * 3.0}


@pytest.mark.parametrize("name, parameters, message", [
    ("linear", {"rate": -1e-9}, "rate: must be >= 0, got -1e-09"),
    ("linear", {"rate": math.nan}, "rate: must be >= 0, got nan"),
    ("constant", {"probability": 1.0000001}, "probability: must be in [0, 1], got 1.0000001"),
    ("saturating", {"p_max": -0.1, "half": 1.0}, "p_max: must be in [0, 1], got -0.1"),
    ("saturating", {"p_max": 0.1, "half": -1.0}, "half: must be >= 0, got -1.0"),
    ("saturating", {"p_max": 0.1}, "half: missing: the saturating law needs p_max and half"),
    ("constant", {"probability": 0.1, "rate": 1.0},
     "rate: is not a parameter of the constant law (it takes probability)"),
    ("step", {}, "law: must be one of 'constant', 'linear', 'saturating', got 'step'"),
    (["linear"], {}, "law: must be one of 'constant', 'linear', 'saturating', got ['linear']"),
])
def test_parameter_rules(name, parameters, message):
    with pytest.raises(RuleError) as info:
        hit_laws.scaled_parameters(name, parameters)
    assert str(info.value) == message


def test_the_law_classes_refuse_what_the_registry_refuses():
    for bad in (lambda: LAW_CLASSES["linear"](-1.0),
                lambda: LAW_CLASSES["saturating"](1.5, 1.0),
                lambda: LAW_CLASSES["constant"](2.0)):
        with pytest.raises(RuleError):
            bad()


@settings(max_examples=100, deadline=None)
@given(st.sampled_from(list(hit_laws.LAWS.values())), st.floats(0.0, 0.5),
       st.floats(1e-3, 1e6))
def test_through_gives_the_probability_at_the_pool(law, probability, pool):
    parameters = law.through(probability, pool)
    assert list(parameters) == list(law.parameters)
    law.check(parameters)
    got = law.formula(*parameters.values(), pool)
    assert got == pytest.approx(probability, rel=1e-12, abs=1e-300)


def test_law_arrays_are_the_registry_ids_and_scaled_parameters():
    game = jackpot_game()
    specs = [
        JackpotSpec("C", Fraction(5), Fraction(1, 50), Fraction(0), "constant",
                    {"probability": 0.3}, {1: 1.0, 2: 4.0}),
        JackpotSpec("L", Fraction(5), Fraction(1, 50), Fraction(0), "linear",
                    {"rate": 0.01}, {1: 1.0, 2: 2.5}),
        JackpotSpec("S", Fraction(5), Fraction(1, 50), Fraction(0), "saturating",
                    {"p_max": 0.3, "half": 50.0}, {1: 1.0, 2: 3.0}),
    ]
    game = replace(game, jackpots=tuple(specs),
                   bonus_wheel=replace(game.bonus_wheel, jackpots=("C", "L", "S")))
    for level in (1, 2):
        kinds, a, b = jackpots.law_arrays(game, level)
        assert kinds.tolist() == [hit_laws.LAWS[s.law].id for s in specs]
        for j, s in enumerate(specs):
            scaled = hit_laws.scaled_parameters(s.law, s.parameters, s.factor(level))
            values = [scaled[p] for p in hit_laws.LAWS[s.law].parameters]
            assert [a[j], b[j]][:len(values)] == values
