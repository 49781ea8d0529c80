"""The exact cascade engine (slotmath.exact.cascades, slotmath.analyze) against the plain
brute-force reference (tests/cascade_reference.py, which shares no code with it): every figure
of the spec's list equal EXACTLY, for fixed tiny games and for hypothesis-generated ones
(tests/cascade_strategies.py), in both refill modes, lines and ways, with and without bonus
symbols and free spins with a carried multiplier.

The reference refuses games whose cascade chains can repeat a state (no finite law); the
generated games it refuses are dropped with ``assume`` (a few percent of them)."""

from __future__ import annotations

import tomllib
from fractions import Fraction

import pytest
import test_cascade_reference_selfcheck as hand
from cascade_reference import EndlessCascade, FeatureReference, RefGame, figures
from cascade_strategies import cascade_game_dicts, to_toml
from hypothesis import HealthCheck, assume, given, settings

import slotmath


def _nonzero(table) -> dict:
    return {k: v for k, v in dict(table).items() if v != 0}


def assert_engine_matches_reference(data: dict) -> None:
    """Every figure of the spec, engine == reference, exactly."""
    from slotmath.exact.cascades import cascade_law

    expected = figures(data)
    game = slotmath.loads_game(to_toml(data), "<cascade test>")
    law = cascade_law(game, "base", level=1)
    context = f"\n{to_toml(data)}"
    assert _nonzero(law.probabilities()) == _nonzero(expected.probabilities), context
    assert law.mean_first == expected.mean_first, context
    assert law.mean_later == expected.mean_later, context
    assert law.mean_scatter == expected.mean_scatter, context
    assert _nonzero(law.cascade_counts) == _nonzero(expected.cascade_counts), context
    assert _nonzero(law.final_multiplier) == _nonzero(expected.final_multiplier), context
    assert _nonzero(law.freed) == _nonzero(expected.freed), context
    assert _nonzero(law.ways_in_play) == _nonzero(expected.ways_in_play), context

    analysis = slotmath.analyze(game)
    components = analysis.components
    first_key = "ways" if data.get("ways") else "lines"
    assert components[first_key] == expected.mean_first, context
    assert components.get("cascades", 0) == expected.mean_later, context
    assert components.get("scatter", 0) == expected.mean_scatter, context
    assert components.get("free_spins", 0) == expected.mean_feature, context
    assert isinstance(analysis.rtp, Fraction), context
    assert analysis.rtp == expected.rtp, context


# -- fixed tiny games: the hand-checked games of the reference's self-check, and variants --

FIXED = {
    "strip_chain": hand.CHAIN,
    "strip_chain_lines": hand.CHAIN.replace("ways = true", "paylines = [[0, 0, 0], [0, 0, 0]]"),
    "ladder": hand.CHAIN.replace("{ start = 1, step = 1 }", "{ ladder = [2, 5] }"),
    "random_refill": hand.RANDOM,
    "bonus": hand.BONUS,
    "bonus_shuffled": hand.BONUS.replace("shuffle = false", "shuffle = true"),
    "carried_feature": hand.FEATURE,
    "feature_not_carried": hand.FEATURE.replace("carry_multiplier = true",
                                                "carry_multiplier = false"),
    # 5 x 3 ways, two arrangements (30 and 30 orderings), every effect, scatter-heavy strips
    # (found by a small search) so that every reel can be freed: 8748 ways are reached; a
    # wild with a x2 multiplier; threshold 2.
    "frozen_gems_like": """
rows = 3
bet = 10
ways = true
[symbols]
A = { pays = { 3 = 5, 4 = 10, 5 = 20 } }
B = { pays = { 3 = 2, 4 = 4, 5 = 8 } }
W = { wild = true, multiplier = 2 }
S = { scatter = true, pays = { 3 = 5, 4 = 10 } }
X = {}
[reels]
base = [["S", "X", "B"], ["X", "S", "S"], ["W", "S"], ["W", "W"], ["S", "S"]]
free = [["B", "A"], ["S", "X"], ["B", "S"], ["W", "B"], ["A", "S"]]
[cascades]
refill = "strip"
multiplier = { start = 1, step = 1 }
carry_multiplier = true
[bonus_symbols]
threshold = 2
accumulate = true
effects = { SPLIT2 = { split = 2 }, SPLIT3 = { split = 3 }, BONUS_WILD = { wild = "W" } }
arrangements = [
  { weight = 2, symbols = ["SPLIT2", "SPLIT2", "BONUS_WILD", "BONUS_WILD", "SPLIT3"] },
  { weight = 1, symbols = ["SPLIT2", "SPLIT2", "BONUS_WILD", "SPLIT3", "SPLIT3"] },
]
shuffle = true
[free_spins]
trigger = "S"
awards = { 3 = 1 }
reels = "free"
retrigger = true
retrigger_awards = { 3 = 1 }
scatter_pays = false
max_spins = 2
""",
    # Random refill, lines, a wild, scatters dropping in, free spins on their own reels.
    "random_lines_feature": """
rows = 2
bet = 2
paylines = [[0, 0, 0], [1, 1, 1]]
[symbols]
A = { pays = { 2 = 1, 3 = 4 } }
W = { wild = true, pays = { 3 = 10 } }
S = { scatter = true, pays = { 2 = 1 } }
X = {}
[reels]
base = [["A", "A", "S", "X"], ["A", "W"], ["X", "A", "S"]]
free = [["A", "X"], ["W", "A"], ["A", "S"]]
[cascades]
refill = "random"
multiplier = { start = 1, step = 2, max = 4 }
refill_weights = { base = [{ X = 1, S = 1 }, { A = 2, W = 1 }, { A = 1, X = 1 }], free = [{ X = 1 }, { A = 1 }, { A = 1, S = 1 }] }
[free_spins]
trigger = "S"
awards = { 2 = 2 }
reels = "free"
multiplier = 2
""",
}


@pytest.mark.parametrize("name", sorted(FIXED))
def test_fixed_games_engine_equals_reference(name):
    assert_engine_matches_reference(tomllib.loads(FIXED[name]))


def test_fixed_games_are_not_trivial():
    # A fixture that never cascades twice or never frees a reel would check little.
    fig = figures(tomllib.loads(FIXED["frozen_gems_like"]))
    assert max(fig.cascade_counts) >= 2
    assert max(fig.ways_in_play) == 8748
    assert min(fig.cascade_counts) == 0
    assert fig.mean_feature > 0
    fig = figures(tomllib.loads(FIXED["random_lines_feature"]))
    assert max(fig.cascade_counts) >= 1 and fig.mean_feature > 0 and fig.mean_scatter > 0


def test_renderer_round_trips_fixed_games():
    for text in FIXED.values():
        data = tomllib.loads(text)
        assert tomllib.loads(to_toml(data)) == data


# -- generated games ------------------------------------------------------------------------

_SETTINGS = settings(max_examples=25, deadline=None,
                     suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])


def _check_generated(data: dict) -> None:
    assert tomllib.loads(to_toml(data)) == data
    try:
        figures(data)
    except EndlessCascade:
        assume(False)
    try:
        assert_engine_matches_reference(data)
    except ValueError as err:
        # The engine builds the free-spin table even where the paid spin can never trigger
        # it, and refuses a free reel set whose chain never ends: the reference must agree
        # that it never ends (played as the base reels, without the feature).
        if "never ends" not in str(err) or "free" not in data.get("reels", {}):
            raise
        variant = {k: v for k, v in data.items() if k not in ("free_spins",)}
        variant["reels"] = {"base": data["reels"]["free"]}
        variant["cascades"] = {k: v for k, v in data["cascades"].items()
                               if k != "carry_multiplier"}
        if "refill_weights" in variant["cascades"]:
            weights = variant["cascades"]["refill_weights"]
            variant["cascades"]["refill_weights"] = {"base": weights.get("free",
                                                                         weights.get("base"))}
        try:
            figures(variant)
        except EndlessCascade:
            assume(False)
        raise


@_SETTINGS
@given(cascade_game_dicts(refill="strip", ways=True))
def test_generated_strip_ways(data):
    _check_generated(data)


@_SETTINGS
@given(cascade_game_dicts(refill="strip", ways=False))
def test_generated_strip_lines(data):
    _check_generated(data)


@_SETTINGS
@given(cascade_game_dicts(refill="random"))
def test_generated_random(data):
    _check_generated(data)


@_SETTINGS
@given(cascade_game_dicts(ways=True, bonus=True, free_spins=True))
def test_generated_bonus_and_feature(data):
    _check_generated(data)


@pytest.mark.parametrize("text", [
    hand.CHAIN.replace('["A", "A", "X"]', '["A"]'),  # strip: A A A for ever
    hand.RANDOM.replace("{ X = 2, S = 1 }", "{ A = 1, X = 1 }"),  # random: A A A may recur
])
def test_endless_chains_are_refused_by_both(text):
    """A game whose chain can repeat a state has no finite law: the reference refuses it, and
    so must the engine (one clear error, not a truncated law)."""
    from slotmath.exact.cascades import cascade_law

    with pytest.raises(EndlessCascade):
        figures(tomllib.loads(text))
    with pytest.raises(ValueError, match="never ends"):
        cascade_law(slotmath.loads_game(text, "<endless>"), "base").probabilities()


def _engine_feature(game):
    features = [f for f in slotmath.analyze(game).round.features if f.name == "free_spins"]
    assert len(features) == 1
    return features[0]


def assert_feature_values_match(data: dict, starts=(0, 1, 3)) -> None:
    """E[feature win | n spins, start index i] from the engine's chain == the reference's
    recursion, for every n up to max_spins (or the largest award) and a few i: start indices
    the paid spin rarely or never reaches are checked too."""
    game = slotmath.loads_game(to_toml(data), "<feature test>")
    engine = _engine_feature(game)
    reference = FeatureReference(RefGame(data))
    spec = data["free_spins"]
    top = spec.get("max_spins", max(spec["awards"].values()))
    for n in range(1, top + 1):
        for i in starts:
            got = engine.law((n, i if reference.game.carry else 0)).mean
            assert got == reference.value(n, n, i if reference.game.carry else 0), (
                n, i, to_toml(data))


@pytest.mark.parametrize("name", ["carried_feature", "feature_not_carried", "frozen_gems_like",
                                  "random_lines_feature"])
def test_fixed_feature_values_equal_reference(name):
    assert_feature_values_match(tomllib.loads(FIXED[name]))


@settings(max_examples=15, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(cascade_game_dicts(free_spins=True))
def test_generated_feature_values_equal_reference(data):
    try:
        figures(data)
        FeatureReference(RefGame(data)).spin_law(0)  # the free spins' chains must end too
    except EndlessCascade:
        assume(False)
    assert_feature_values_match(data)


TWO_SCATTERS = """
rows = 2
bet = 1
ways = true
[symbols]
A = { pays = { 3 = 1 } }
S = { scatter = true, pays = { 1 = 1, 2 = 3 } }
T = { scatter = true, pays = { 1 = 2 } }
X = {}
[reels]
base = [["A", "T", "X"], ["A", "S", "X"], ["A", "X", "S"]]
[cascades]
multiplier = { start = 1, step = 1 }
[bonus_symbols]
threshold = 1
effects = { SP = { split = 2 } }
arrangements = [{ weight = 1, symbols = ["SP", "SP", "SP"] }]
"""


def test_two_scatter_symbols():
    """Two scatter symbols: each pays by its own count and both free reels. The joint law's
    ``scatters`` differs by reading (the reference counts every scatter position, the engine
    the first scatter symbol, see the helper's note), so it is compared with that key summed
    out; everything else exactly."""
    from slotmath.exact.cascades import cascade_law

    data = tomllib.loads(TWO_SCATTERS)
    expected = figures(data)
    game = slotmath.loads_game(TWO_SCATTERS, "<two scatters>")
    law = cascade_law(game, "base")

    def summed(table):
        out: dict = {}
        for (win, _scatters, cascades), p in table.items():
            out[win, cascades] = out.get((win, cascades), 0) + p
        return _nonzero(out)

    assert summed(law.probabilities()) == summed(expected.probabilities)
    assert (law.mean_first, law.mean_later, law.mean_scatter) == (
        expected.mean_first, expected.mean_later, expected.mean_scatter)
    assert _nonzero(law.freed) == _nonzero(expected.freed)
    assert _nonzero(law.ways_in_play) == _nonzero(expected.ways_in_play)
    assert expected.mean_scatter > 0 and len(expected.freed) == 3
    assert slotmath.analyze(game).rtp == expected.rtp
