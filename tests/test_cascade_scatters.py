"""Scatters on every fall of a cascade (``cascades.scatters = "every_fall"``, issue 21): the
exact engine (slotmath.exact.cascades through slotmath.analyze) against the plain brute-force
reference (tests/cascade_reference.py, which reads the raw TOML and shares no code with the
engine), exactly, on fixed tiny games and hypothesis-generated ones; the cascade simulator
(slotmath.simulate.cascades) within its confidence bound; seeded mutations of the rule
(scatters not removed after paying; scatters read on the final window only) caught by the
same comparisons; and the loader's refusals."""

from __future__ import annotations

import tomllib
from fractions import Fraction
from pathlib import Path

import pytest
from cascade_reference import (
    EndlessCascade,
    FeatureReference,
    RefGame,
    above_highest,
    arrangement_orderings,
    play_spin,
    spin_outcomes,
)
from cascade_strategies import cascade_game_dicts, to_toml
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import slotmath
from slotmath.errors import GameFileError
from slotmath.exact.cascades import cascade_law
from slotmath.simulate.cascades import simulate_cascades

DATA = Path(__file__).parent / "data" / "cascades"
GONZO = DATA / "gonzo_tiny.toml"
GONZO_TEXT = GONZO.read_text()


# -- the reference's figures -------------------------------------------------------------------
def reference(data: dict, mutation: str | None = None) -> dict:
    """Every compared figure of a paid round, from the reference alone."""
    game = RefGame(data)
    game.mutation = mutation
    law = spin_outcomes(game, "base")
    feature = None
    if game.free_spins is not None:
        feature = FeatureReference(game)
        feature.game.mutation = mutation
    awards = ({int(c): n for c, n in game.free_spins["awards"].items()}
              if game.free_spins is not None else {})
    out = {"probabilities": {}, "cascade_counts": {}, "final_multiplier": {},
           "first": Fraction(0), "later": Fraction(0), "scatter": Fraction(0),
           "feature": Fraction(0), "trigger": Fraction(0), "scatter_rows": {}}
    for result, p in law.items():
        for name, count, pay in result.scatter_falls:  # per winning fall: (falls, RTP)
            falls, rtp = out["scatter_rows"].get((name, count), (0, 0))
            out["scatter_rows"][(name, count)] = (falls + p, rtp + p * pay)
        key = (result.win, result.trigger, result.cascades)
        out["probabilities"][key] = out["probabilities"].get(key, 0) + p
        out["cascade_counts"][result.cascades] = out["cascade_counts"].get(result.cascades,
                                                                           0) + p
        out["final_multiplier"][result.final_multiplier] = out["final_multiplier"].get(
            result.final_multiplier, 0) + p
        out["first"] += p * result.first
        out["later"] += p * result.later
        out["scatter"] += p * result.scatter
        if feature is not None:
            out["feature"] += p * feature.expected_win(result.trigger, result.final_index)
            if above_highest(awards, result.trigger):
                out["trigger"] += p
    out["rtp"] = out["first"] + out["later"] + out["scatter"] + out["feature"]
    return out


def _nonzero(table) -> dict:
    return {k: v for k, v in dict(table).items() if v != 0}


def engine(data: dict) -> dict:
    """The same figures from the exact engine."""
    game = slotmath.loads_game(to_toml(data), "<every-fall test>")
    law = cascade_law(game, "base", level=1)
    analysis = slotmath.analyze(game)
    c = analysis.components
    out = {"probabilities": _nonzero(law.probabilities()),
           "cascade_counts": _nonzero(law.cascade_counts),
           "final_multiplier": _nonzero(law.final_multiplier),
           "first": law.mean_first, "later": law.mean_later, "scatter": law.mean_scatter,
           "feature": c.get("free_spins", Fraction(0)), "rtp": analysis.rtp,
           "components": (c["ways" if data.get("ways") else "lines"], c.get("cascades", 0),
                          c.get("scatter", 0)),
           "trigger": Fraction(0),
           "scatter_rows": {(r.symbol, r.count): (Fraction(r.weight, law.cycle), r.rtp)
                            for r in analysis.features["pays"].scatters}}
    if game.free_spins is not None:
        out["trigger"] = analysis.features["free_spins"].trigger_probability
    return out


def assert_equal(data: dict) -> dict:
    expected = reference(data)
    got = engine(data)
    context = "\n" + to_toml(data)
    assert got["probabilities"] == _nonzero(expected["probabilities"]), context
    assert got["cascade_counts"] == _nonzero(expected["cascade_counts"]), context
    assert got["final_multiplier"] == _nonzero(expected["final_multiplier"]), context
    for name in ("first", "later", "scatter", "feature", "trigger", "rtp", "scatter_rows"):
        assert got[name] == expected[name], (name, context)
    assert got["components"] == (expected["first"], expected["later"], expected["scatter"])
    assert isinstance(got["rtp"], Fraction)
    return got


def _every_fall(text: str, extra: str = "") -> str:
    return text.replace("[cascades]\n", f'[cascades]\nscatters = "every_fall"\n{extra}', 1)


# -- fixed tiny games ----------------------------------------------------------------------------
FIXED = {
    "gonzo_tiny": GONZO_TEXT,
    "gonzo_tiny_multiplied": GONZO_TEXT.replace('\nscatters = "every_fall"\n',
                                                '\nscatters = "every_fall"\n'
                                                "scatter_multiplied = true\n"),
    # ways, a blank X, strips drawn at random among those whose chains all end
    "gonzo_tiny_ways": GONZO_TEXT.replace(
        "paylines = [[0, 0, 0], [1, 1, 1], [2, 2, 2], [0, 1, 2], [2, 1, 0]]", "ways = true"
    ).replace('F = { scatter', 'X = {}\nF = { scatter').split("[reels]")[0] + """[reels]
base = [["A", "C", "A", "C", "F", "X"], ["F", "W", "F", "F", "W", "X"], ["B", "C", "A", "A", "B"]]
free = [["B", "C", "W", "F", "W"], ["F", "X", "F", "X", "C"], ["X", "F", "X", "B", "C", "W"]]
[cascades]""" + GONZO_TEXT.split("[cascades]")[1],
    "gonzo_tiny_no_free_spins": GONZO_TEXT.split("[free_spins]")[0],
    # random refill: reel 1 refills A or X, reel 2 only X (one line win at most after a fall)
    "random_refill": _every_fall("""
rows = 1
bet = 1
ways = true
[symbols]
A = { pays = { 3 = 1 } }
S = { scatter = true, pays = { 1 = 2 } }
X = {}
[reels]
base = [["A", "S", "X"], ["A", "S"], ["A"]]
[cascades]
refill = "random"
multiplier = { start = 1, step = 1 }
refill_weights = { base = [{ X = 2, A = 1 }, { X = 1 }, { A = 1 }] }
"""),
    # the trigger spin ends at index 1 (its scatter wins and goes), the carried multiplier
    # starts the free spins there; their scatter pays, multiplied, go into the carried sum
    "carried_multiplied": _every_fall("""
rows = 1
bet = 1
ways = true
[symbols]
A = { pays = { 3 = 1 } }
S = { scatter = true, pays = { 1 = 1 } }
X = {}
[reels]
base = [["S", "X"], ["X"], ["X"]]
free = [["A", "X", "S"], ["A"], ["A"]]
[cascades]
multiplier = { start = 1, step = 1 }
carry_multiplier = true
[free_spins]
trigger = "S"
awards = { 1 = 2 }
reels = "free"
""", "scatter_multiplied = true\n"),
    # two scatter symbols, each counted, paid and removed on its own; S triggers (strips
    # drawn at random among those whose chains all end)
    "two_scatters": """
rows = 2
bet = 1
ways = true
[symbols]
A = { pays = { 3 = 1 } }
B = { pays = { 3 = 2 } }
S = { scatter = true, pays = { 2 = 1 } }
T = { scatter = true, pays = { 2 = 3, 3 = 5 } }
X = {}
[reels]
base = [["S", "S", "B", "A", "B"], ["S", "T", "B", "A", "A"], ["X", "T", "A", "B", "X"]]
free = [["S", "T", "T", "B"], ["A", "T", "S"], ["B", "X", "B"]]
[cascades]
scatters = "every_fall"
multiplier = { start = 1, step = 1 }
free_multiplier = { ladder = [2, 4] }
[free_spins]
trigger = "S"
awards = { 2 = 2 }
reels = "free"
retrigger = true
max_spins = 4
""",
    # frozen bonus symbols: the removed scatters count towards freeing
    "bonus": _every_fall("""
rows = 2
bet = 1
ways = true
[symbols]
A = { pays = { 3 = 1 } }
W = { wild = true }
S = { scatter = true, pays = { 2 = 1 } }
X = {}
[reels]
base = [["A", "S", "X", "S"], ["A", "S", "X"], ["X", "A", "W"]]
[cascades]
multiplier = { start = 1, step = 1 }
[bonus_symbols]
threshold = 2
effects = { SP = { split = 2 }, BW = { wild = "W" } }
arrangements = [{ weight = 1, symbols = ["SP", "BW", "SP"] }]
"""),
}


@pytest.mark.parametrize("name", sorted(FIXED))
def test_fixed_games_engine_equals_reference(name):
    assert_equal(tomllib.loads(FIXED[name]))


def test_fixed_games_are_not_trivial():
    """Each fixture has a fall won by scatters alone, and the rule changes its RTP."""
    for name, text in FIXED.items():
        data = tomllib.loads(text)
        every = reference(data)
        final = reference(data, mutation="final_only")
        assert every["rtp"] != final["rtp"], name
        assert every["scatter"] > 0, name


def test_gonzo_tiny_figures():
    """The fixture's exact figures, as the reference gives them: a regression anchor."""
    got = engine(tomllib.loads(GONZO_TEXT))
    assert got["first"] == Fraction(24, 49)
    assert got["scatter"] == Fraction(373, 294)
    assert got["trigger"] == Fraction(8, 49)


# -- the reference itself, by hand -----------------------------------------------------------
# 3 reels x 1 row, ways, A A A pays 1, S pays 1 for 2; multiplier 1, 2, 3, ...
# Stops (0, 0, 0): A A A pays 1 (index 0); every reel loses one: reels 1, 2 refill
# strip[-1] = S, reel 3 strip[-1] = X: S S X, index 1, the two S win 1 (not multiplied) and
# go: reels 1, 2 refill strip[0] = A: A A X wins nothing: 2 cascades, final multiplier 3.
# With "final": S S X ends the spin at index 1 and its scatters pay 1 there: 1 cascade.
HAND = """
rows = 1
bet = 1
ways = true
[symbols]
A = { pays = { 3 = 1 } }
S = { scatter = true, pays = { 2 = 1 } }
X = {}
[reels]
base = [["A", "S"], ["A", "S"], ["A", "X"]]
[cascades]
scatters = "every_fall"
multiplier = { start = 1, step = 1 }
"""


def _one(data, stops, mutation=None):
    game = RefGame(data)
    game.mutation = mutation
    (_, arrangement), = arrangement_orderings(game)
    (_p, result), = play_spin(game, "base", stops, arrangement, 0, False)
    return result


def test_reference_by_hand():
    data = tomllib.loads(HAND)
    r = _one(data, (0, 0, 0))
    assert (r.first, r.later, r.scatter, r.cascades, r.final_multiplier, r.trigger) == (
        1, 0, 1, 2, 3, 2)
    final = _one(data, (0, 0, 0), "final_only")
    assert (final.scatter, final.cascades, final.final_multiplier) == (1, 1, 2)
    multiplied = tomllib.loads(HAND.replace('"every_fall"', '"every_fall"\n'
                                            "scatter_multiplied = true"))
    assert _one(multiplied, (0, 0, 0)).scatter == 2  # paid at index 1: x2
    # S S A (stops 1, 1, 0): the scatters win alone at index 0 and go: A A A at index 1
    # pays 2, then S S X: the scatters again (1), then A A X: 3 cascades
    r = _one(data, (1, 1, 0))
    assert (r.first, r.later, r.scatter, r.cascades) == (0, 2, 2, 3)


# -- generated games ------------------------------------------------------------------------
@st.composite
def every_fall_games(draw, **kwargs):
    """A generated cascade game played with every-fall scatters, made to show them: the
    scatter S pays (on 2 or 3 of them: on 1 most chains of such short strips repeat) and sits
    on a stop of half the reels."""
    data = draw(cascade_game_dicts(**kwargs))
    data["cascades"]["scatters"] = "every_fall"
    rows = data["rows"] if isinstance(data["rows"], list) else [data["rows"]] * len(
        data["reels"]["base"])
    counts = list(range(min(2, sum(rows)), min(sum(rows), 3) + 1))
    pays = draw(st.lists(st.sampled_from(counts), min_size=1, max_size=len(counts),
                         unique=True))
    data["symbols"]["S"] = {"scatter": True,
                            "pays": {str(c): draw(st.integers(1, 5)) for c in sorted(pays)}}
    for reels in data["reels"].values():
        for reel in reels:
            strip = reel["strip"] if isinstance(reel, dict) else reel
            if draw(st.booleans()):
                strip[draw(st.integers(0, len(strip) - 1))] = "S"
    if draw(st.booleans()):
        data["cascades"]["scatter_multiplied"] = True
    return data


def _check_generated(data: dict) -> None:
    assert tomllib.loads(to_toml(data)) == data
    game = RefGame(data)
    try:
        spin_outcomes(game, "base")
        if game.free_spins is not None:  # the engine builds the free table in any case
            spin_outcomes(game, game.free_spins.get("reels", "base"), free=True)
    except EndlessCascade:
        assume(False)
    assert_equal(data)


_SETTINGS = settings(max_examples=30, deadline=None,
                     suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])


@_SETTINGS
@given(every_fall_games(refill="strip", ways=True))
def test_generated_strip_ways(data):
    _check_generated(data)


@_SETTINGS
@given(every_fall_games(refill="strip", ways=False))
def test_generated_strip_lines(data):
    _check_generated(data)


@_SETTINGS
@given(every_fall_games(refill="random"))
def test_generated_random(data):
    _check_generated(data)


@_SETTINGS
@given(every_fall_games(bonus=True, free_spins=True))
def test_generated_bonus_and_feature(data):
    _check_generated(data)


# -- mutations ----------------------------------------------------------------------------------
@pytest.mark.parametrize("mutation", ["not_removed", "final_only"])
def test_mutated_rule_is_caught(mutation):
    """The comparison above fails against a reference whose rule is wrong in one way."""
    data = tomllib.loads(GONZO_TEXT)
    got = engine(data)
    wrong = reference(data, mutation)
    assert wrong["rtp"] != got["rtp"]
    assert wrong["probabilities"] != got["probabilities"]


def test_final_default_unchanged():
    """Without the key the file plays as before ("final"): equal to the reference's final
    rule, and different from every_fall."""
    data = tomllib.loads(GONZO_TEXT.replace('\nscatters = "every_fall"\n', "\n"))
    got = engine(data)
    assert got["rtp"] == reference(tomllib.loads(GONZO_TEXT), "final_only")["rtp"]
    assert got["rtp"] != engine(tomllib.loads(GONZO_TEXT))["rtp"]


# -- the simulator --------------------------------------------------------------------------
def test_simulator_agrees_and_catches_final_only():
    """A seeded simulation of every_fall agrees with the exact RTP within 4 standard errors;
    the same simulation of the file read as "final" (the mutation) does not."""
    game = slotmath.load_game(GONZO)
    exact = slotmath.analyze(game)
    sim = simulate_cascades(game, 200_000, seed=21)
    assert abs(sim.z_score(exact.rtp)) < 4, (sim.rtp, float(exact.rtp), sim.std_error)
    for name, value in (("scatter", exact.components["scatter"]),
                        ("free_spins", exact.components["free_spins"])):
        se = sim.component_std_errors[name]
        assert abs(getattr(sim, name) - float(value)) < 4 * se, name
    final = slotmath.loads_game(GONZO_TEXT.replace('\nscatters = "every_fall"\n', "\n"),
                                "<final>")
    wrong = simulate_cascades(final, 200_000, seed=21)
    assert abs(wrong.z_score(exact.rtp)) > 4


# -- the loader -------------------------------------------------------------------------------
def test_unknown_value_is_one_line(tmp_path):
    path = tmp_path / "bad.toml"
    path.write_text(GONZO_TEXT.replace('"every_fall"', '"each_fall"'))
    with pytest.raises(GameFileError) as err:
        slotmath.load_game(path)
    message = str(err.value)
    assert "\n" not in message
    assert "bad.toml" in message and "cascades.scatters" in message


def test_multiplied_needs_every_fall(tmp_path):
    path = tmp_path / "bad.toml"
    path.write_text(GONZO_TEXT.replace('\nscatters = "every_fall"', "\nscatter_multiplied = true"))
    with pytest.raises(GameFileError) as err:
        slotmath.load_game(path)
    assert "cascades.scatter_multiplied" in str(err.value)


# -- the worked example -----------------------------------------------------------------------
def test_avalanche_example_header_and_simulation():
    """docs/examples/avalanche_style.toml: the exact figures its header states (a regression
    anchor for the engine), and a seeded simulation through the cascade simulator, which
    shares no evaluation code with the engine, within 4 standard errors of the exact RTP."""
    path = Path(__file__).parent.parent / "docs" / "examples" / "avalanche_style.toml"
    game = slotmath.load_game(path)
    analysis = slotmath.analyze(game)
    assert analysis.components["lines"] == Fraction(14012807, 35937500)
    assert analysis.components["cascades"] == Fraction(7053970697, 17250000000)
    assert analysis.components["scatter"] == Fraction(168, 14375)
    assert analysis.features["free_spins"].trigger_probability == Fraction(84, 14375)
    assert abs(analysis.rtp * 100 - Fraction("95.99922708186387")) < Fraction(1, 10**13)
    assert "95.99922708186387 %" in path.read_text()
    sim = simulate_cascades(game, 300_000, seed=7)
    assert abs(sim.z_score(analysis.rtp)) < 4, (sim.rtp, float(analysis.rtp), sim.std_error)
    assert abs(sim.trigger_rate - 84 / 14375) < 4 * (84 / 14375 / 300_000) ** 0.5


def test_docs_snippet_is_the_example():
    """The Gonzo-style snippet in docs/game-format.md says what the worked example holds."""
    root = Path(__file__).parent.parent
    doc = (root / "docs" / "game-format.md").read_text(encoding="utf-8")
    section = doc[doc.index("A Gonzo-style game (the whole worked example"):]
    snippet = tomllib.loads(section[section.index("```toml\n") + 8: section.index("```\n", 10)])
    example = tomllib.loads((root / "docs" / "examples" / "avalanche_style.toml").read_text())
    for table, values in snippet.items():
        for key, value in values.items():
            assert example[table][key] == value, (table, key)
