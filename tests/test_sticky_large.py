"""Sticky wilds whose landing patterns are too many for one joint table (issue 21, item 1):
the engine splits wild reels off (:func:`slotmath.model.rules.sticky_plan`) and runs once per
landing pattern of theirs; the result stays exact.

Each figure is compared with the brute-force reference of ``tests/free_spin_state_reference.py``
(it shares no code with the engine) on ``doghouse_small.toml`` (5x3, 10 lines, x2/x3 wilds on
reels 2-4: 19,683 sticky states, split) and on random small games forced to split by a lower
table limit; the seeded round simulator agrees within its bound; wilds that do not stick fail
both checks.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from free_spin_state_reference import Reference, moments
from free_spin_state_strategies import state_games
from hypothesis import HealthCheck, given, settings

import slotmath
from slotmath.errors import GameFileError
from slotmath.exact import free_spin_moves
from slotmath.features.free_spins import StateRound
from slotmath.io.toml_loader import loads_game
from slotmath.model import rules

DATA = Path(__file__).resolve().parent / "data" / "free_spin_state"
SMALL = DATA / "doghouse_small.toml"


def _feature(a) -> StateRound:
    return next(f for f in a.round.features if isinstance(f, StateRound))


def _cells(mechanic, state):
    """The reference's sticky state (a set of (reel, row, wild)) as the engine writes it."""
    return tuple(next((1 + mechanic.wilds.index(w) for j, r, w in state if (j, r) == cell), 0)
                 for cell in mechanic.cells)


def exact_differences(game, ref: Reference) -> list[str]:
    """Every way the engine's exact figures of ``game`` differ from the reference's: the
    round's mean, second moment and hit frequency, each feature's moments, spins and final
    sticky states (the round's distribution is on a stated float grid: not compared here)."""
    a = slotmath.analyze(game)
    out = []
    mean, second, zero = moments(ref.round())
    if a.rtp != mean:
        out.append(f"rtp {a.rtp} != {mean}")
    if a.round.second_moment != second:
        out.append(f"E[R^2] {a.round.second_moment} != {second}")
    if a.hit_frequency != 1 - zero:
        out.append(f"hit frequency {a.hit_frequency} != {1 - zero}")
    feature = _feature(a)
    for t in sorted({k[0] for k in a.round.base.weights}):
        key = feature.start(t)
        if key is None:
            continue
        got = feature.law(key)
        if (got.mean, got.second_moment, got.zero_probability) != moments(ref.feature(t)):
            out.append(f"feature of count {t}: {got} != {moments(ref.feature(t))}")
        ends = {}
        for (n, x), p in ref.feature_ends(t).items():
            key2 = (n, _cells(feature.mechanic, x))
            ends[key2] = ends.get(key2, 0) + p
        if feature.chain.final_states(dict(key)) != ends:
            out.append(f"feature of count {t}: final states differ")
    return out


@pytest.fixture(scope="module")
def small():
    """The fixture and its reference (memoised: built once for the tests of this module)."""
    game = slotmath.load_game(SMALL)
    return game, Reference(game)


def test_the_fixture_is_dog_house_size_and_split(small):
    game, _ = small
    states, runs = rules.sticky_size(game)
    split, digits, per_state = rules.sticky_plan(game)
    assert states == 3 ** 9 and len(split) == 1 and digits <= rules.MAX_SCATTER_STATES
    assert runs == states * per_state and per_state == 4  # 4 landing patterns on its strip


def test_the_split_engine_equals_brute_force(small):
    game, ref = small
    assert exact_differences(game, ref) == []


def test_wilds_that_do_not_stick_fail_the_comparison(small, monkeypatch):
    game, ref = small
    monkeypatch.setattr(free_spin_moves.StickyMoves, "landed",
                        lambda self, state, digits: state)
    assert exact_differences(game, ref)


@pytest.mark.parametrize("limit", [8, 64])
def test_random_games_split_equal_brute_force(monkeypatch, limit):
    """With the joint table limited to ``limit`` states, random sticky games split some (8:
    every) wild reel off; the figures stay equal to the reference's."""
    monkeypatch.setattr(rules, "MAX_SCATTER_STATES", limit)
    toy = slotmath.load_game(DATA / "tiny_sticky.toml")  # 8 x 4 joint states: split at 8
    assert bool(rules.sticky_plan(toy)[0]) == (limit == 8)
    assert exact_differences(toy, Reference(toy)) == []

    @settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(state_games("sticky_wilds"))
    def check(game):
        assert exact_differences(game, Reference(game)) == []

    check()


#: paid rounds of the seeded simulation, and the standard errors it may stray
ROUNDS, Z = 200_000, 4.0


def test_the_seeded_simulation_agrees_and_not_sticking_does_not(monkeypatch):
    game = slotmath.load_game(SMALL)
    r = slotmath.simulate(game, ROUNDS, seed=20261203)
    assert abs(r.rtp - float(slotmath.analyze(game).rtp)) <= Z * r.std_error
    monkeypatch.setattr(free_spin_moves.StickyMoves, "landed",
                        lambda self, state, digits: state)
    assert abs(r.rtp - float(slotmath.analyze(game).rtp)) > Z * r.std_error


def test_a_chain_still_too_large_is_refused_with_its_size():
    """x2/x3 wilds on three 5-row reels: 3 ** 15 sticky states, each spin run per landing
    pattern of a reel split off: refused in one line with the size, before any run."""
    text = (DATA / "tiny_sticky.toml").read_text().replace("rows = 3", "rows = 5")
    text = text.replace('W2 = { wild = true, multiplier = 2 }',
                        'W2 = { wild = true, multiplier = 2 }\nW3 = { wild = true, multiplier = 3 }')
    text = text.replace('["A", "X", "K", "S", "X", "K"]', '["A", "W3", "K", "S", "W2", "K"]')
    text = text.replace('["X", "A", "K", "X", "S"]', '["X", "W3", "K", "W2", "S"]')
    text = text.replace('["K", "W2", "X", "A", "X", "X", "W2"]',
                        '["K", "W2", "X", "A", "X", "W3", "W2"]')
    text = text.replace('symbols = ["W2"]', 'symbols = ["W2", "W3"]')
    with pytest.raises(GameFileError) as err:
        loads_game(text, "big_sticky.toml")
    message = str(err.value)
    assert "big_sticky.toml" in message and "free_spins.sticky_wilds" in message
    assert "14,348,907 sticky states" in message and "engine runs" in message
    assert "\n" not in message


def test_the_float64_chain_states_an_error_that_holds(small, monkeypatch):
    """Past EXACT_MOVES chain steps the chain runs in float64: the RTP is a float, its stated
    ``rtp_error`` (also the JSON's) is positive and bounds its distance to the reference's
    exact RTP."""
    from slotmath.markov import free_spin_state

    game, ref = small
    monkeypatch.setattr(free_spin_state, "EXACT_MOVES", 0)
    a = slotmath.analyze(game)
    exact = moments(ref.round())[0]
    assert isinstance(a.rtp, float) and 0 < a.rtp_error < 1e-9
    assert abs(a.rtp - float(exact)) <= a.rtp_error
    assert a.rtp != float(exact) or a.rtp_error > 0
