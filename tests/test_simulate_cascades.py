"""The cascade simulator (slotmath.simulate.cascades, its own numba kernel) against the exact
brute-force reference (tests/cascade_reference.py) on tiny games: the estimate within z <= 4
of the exact RTP with a fixed seed, its components and cascade-count frequencies likewise;
and a seeded MUTATION (a multiplier that does not reset between paid spins) that the same
check must reject."""

from __future__ import annotations

import json
import math
import tomllib
from dataclasses import replace

import pytest
import test_cascade_reference_selfcheck as hand
import test_cascades
from cascade_reference import EndlessCascade, figures
from cascade_strategies import cascade_game_dicts, to_toml
from hypothesis import HealthCheck, assume, given, settings

import slotmath
from slotmath.cli import main
from slotmath.io.toml_loader import game_from_dict
from slotmath.model.cascades import BonusEffect, BonusSymbols, Cascades, MultiplierRule
from slotmath.simulate.cascades import simulate_cascades

Z = 4.0
SPINS = 200_000


def _rule(table: dict) -> MultiplierRule:
    if "ladder" in table:
        return MultiplierRule(ladder=tuple(table["ladder"]))
    return MultiplierRule(table["start"], table["step"], table.get("max"))


def game_with_rules(data: dict):
    """The game with its cascade, bonus-symbol and free-spin rules built here from the dict
    (the model's own classes, not the loader's reading of those sections): the loader is
    given the game without them."""
    plain = {k: v for k, v in data.items() if k not in ("cascades", "bonus_symbols")}
    fs = dict(data.get("free_spins", {}))
    retrigger = fs.pop("retrigger_awards", None)
    scatter_pays = fs.pop("scatter_pays", True)
    if fs:
        plain["free_spins"] = fs
    game = game_from_dict(plain, "<cascade sim test>")
    c = data.get("cascades", {})
    cascades = Cascades(
        refill=c.get("refill", "strip"),
        multiplier=_rule(c.get("multiplier", {"start": 1, "step": 0})),
        free_multiplier=_rule(c["free_multiplier"]) if "free_multiplier" in c else None,
        carry_multiplier=c.get("carry_multiplier", False),
        refill_weights={k: tuple(v) for k, v in c.get("refill_weights", {}).items()})
    b = data.get("bonus_symbols")
    bonus = None if b is None else BonusSymbols(
        effects={n: BonusEffect(n, wild=e.get("wild"), split=e.get("split", 1))
                 for n, e in b["effects"].items()},
        arrangements=tuple((a["weight"], tuple(a["symbols"])) for a in b["arrangements"]),
        threshold=b["threshold"], accumulate=b.get("accumulate", True),
        shuffle=b.get("shuffle", True))
    free = None if game.free_spins is None else replace(
        game.free_spins, scatter_pays=scatter_pays,
        retrigger_awards=None if retrigger is None else {int(n): v
                                                         for n, v in retrigger.items()})
    return replace(game, cascades=cascades, bonus_symbols=bonus, free_spins=free)


def _within(estimate: float, exact, std_error: float) -> bool:
    return abs(estimate - float(exact)) <= Z * std_error + 1e-12


GAMES = {
    "strip_chain": hand.CHAIN,
    "random_refill": hand.RANDOM,
    "bonus_shuffled": hand.BONUS.replace("shuffle = false", "shuffle = true"),
    "carried_feature": hand.FEATURE,
    "frozen_gems_like": test_cascades.FIXED["frozen_gems_like"],
    "random_lines_feature": test_cascades.FIXED["random_lines_feature"],
}


@pytest.mark.parametrize("name", sorted(GAMES))
def test_simulation_agrees_with_reference(name):
    data = tomllib.loads(GAMES[name])
    exact = figures(data)
    game = game_with_rules(data)
    result = simulate_cascades(game, SPINS, seed=2026)
    assert result.std_error > 0
    assert _within(result.rtp, exact.rtp, result.std_error), (result, exact.rtp)
    errors = result.component_std_errors
    for part, value in (("first_drop", exact.mean_first), ("later_drops", exact.mean_later),
                        ("scatter", exact.mean_scatter), ("free_spins", exact.mean_feature)):
        assert _within(getattr(result, part), value, errors[part]), (name, part, value)
    for count, p in exact.cascade_counts.items():
        bound = Z * math.sqrt(float(p * (1 - p)) / SPINS) + 1 / SPINS
        assert abs(result.cascade_counts.get(count, 0.0) - float(p)) <= bound, (count, p)
    assert set(result.cascade_counts) <= set(exact.cascade_counts)


def test_simulation_is_reproducible():
    game = game_with_rules(tomllib.loads(GAMES["random_lines_feature"]))
    one = simulate_cascades(game, 5_000, seed=3)
    two = simulate_cascades(game, 5_000, seed=3)
    other = simulate_cascades(game, 5_000, seed=4)
    assert (one.rtp, one.cascade_counts, one.std_error) == (two.rtp, two.cascade_counts,
                                                            two.std_error)
    assert one.rtp != other.rtp


def test_mutation_multiplier_not_reset_is_caught():
    """A kernel whose multiplier does not reset between paid spins: the same check rejects
    it (its estimate is far outside the bound), while the real kernel passes."""
    data = tomllib.loads(hand.CHAIN)
    exact = figures(data).rtp
    game = game_with_rules(data)
    good = simulate_cascades(game, 20_000, seed=7)
    bad = simulate_cascades(game, 20_000, seed=7, _reset_multiplier=False)
    assert _within(good.rtp, exact, good.std_error)
    assert not _within(bad.rtp, exact, bad.std_error), (bad.rtp, bad.std_error, exact)


def test_mutation_caught_with_a_capped_multiplier_too():
    """Subtler: multiplier 1, 2, capped at 2. Not resetting makes every later spin start at
    x2; the bound still rejects it."""
    data = tomllib.loads(hand.CHAIN.replace("{ start = 1, step = 1 }",
                                            "{ start = 1, step = 1, max = 2 }"))
    exact = figures(data).rtp
    game = game_with_rules(data)
    good = simulate_cascades(game, 50_000, seed=11)
    bad = simulate_cascades(game, 50_000, seed=11, _reset_multiplier=False)
    assert _within(good.rtp, exact, good.std_error)
    assert not _within(bad.rtp, exact, bad.std_error), (bad.rtp, bad.std_error, exact)


def test_endless_chain_is_an_error():
    data = tomllib.loads(hand.CHAIN.replace('["A", "A", "X"]', '["A"]'))
    game = game_with_rules(data)
    with pytest.raises(ValueError, match="chain"):
        simulate_cascades(game, 10, seed=1)


def test_simulating_needs_cascades():
    data = {k: v for k, v in tomllib.loads(hand.CHAIN).items() if k != "cascades"}
    with pytest.raises(ValueError, match="cascades"):
        simulate_cascades(game_from_dict(data, "<no cascades>"), 10, seed=1)


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cascade_game_dicts())
def test_generated_games_simulation_agrees(data):
    try:
        exact = figures(data)
    except EndlessCascade:
        assume(False)
    game = game_with_rules(data)
    result = simulate_cascades(game, 20_000, seed=5)
    assert _within(result.rtp, exact.rtp, result.std_error), (result.rtp, float(exact.rtp),
                                                              to_toml(data))


def test_loaded_game_equals_the_rules_built_here():
    """The loader reads the same rules as game_with_rules builds, and both play alike."""
    for name in ("frozen_gems_like", "random_lines_feature", "carried_feature"):
        data = tomllib.loads(GAMES[name])
        game = game_with_rules(data)
        loaded = slotmath.loads_game(GAMES[name], name)
        for part in ("cascades", "bonus_symbols", "free_spins"):
            assert getattr(loaded, part) == getattr(game, part), (name, part)
        from_model = simulate_cascades(loaded, 3_000, seed=9)
        from_rules = simulate_cascades(game, 3_000, seed=9)
        assert (from_model.rtp, from_model.cascade_counts) == (from_rules.rtp,
                                                               from_rules.cascade_counts)


def test_cli_simulate_plays_cascade_games(tmp_path, capsys):
    path = tmp_path / "cascades.toml"
    path.write_text(GAMES["random_lines_feature"])
    assert main(["simulate", str(path), "--spins", "20000", "--seed", "3", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    direct = simulate_cascades(slotmath.load_game(path), 20_000, seed=3)
    assert doc["rtp"] == pytest.approx(direct.rtp, rel=0, abs=1e-12)
    assert doc["std_error"] == pytest.approx(direct.std_error, rel=0, abs=1e-12)
    exact = figures(tomllib.loads(GAMES["random_lines_feature"])).rtp
    assert abs(doc["rtp"] - float(exact)) <= Z * doc["std_error"]


def test_bet_level_with_level_pays_agrees_with_engine():
    """At bet level 2 with a level_pays column the simulator pays what the exact engine says
    (the reference covers level 1 only; the engine is the independent side here). At level 1
    the figure is also the reference's."""
    text = (hand.CHAIN.replace("bet = 1", "bet = 1\nbet_levels = [1, 2]")
            .replace("A = { pays = { 3 = 1 } }",
                     "A = { pays = { 3 = 1 }, level_pays = { 2 = { 3 = 3 } } }"))
    game = slotmath.loads_game(text, "<levels>")
    exact = {level: slotmath.analyze(game, level).rtp for level in (1, 2)}
    assert exact[1] == figures(tomllib.loads(hand.CHAIN)).rtp
    assert exact[2] != exact[1]  # the level-2 column is not proportional: a real difference
    for level in (1, 2):
        result = simulate_cascades(game, 50_000, seed=12, level=level)
        assert _within(result.rtp, exact[level], result.std_error), (level, result.rtp)


CASES = ["frozen_gems_like", "random_lines_feature", "bonus_shuffled", "random_refill",
         "carried_feature"]


@pytest.mark.parametrize("name", CASES)
def test_fast_paths_play_as_the_plain_reading(name):
    """The ways entries read as bit sets (``masked``) and the uniform reels stopped at the
    drawn integer (``even``) play every round exactly as the plain reading (entry by entry,
    position by position; the cumulative-weight search) on the same draws; the uneven weights
    of a bonus-symbol game and a weighted reel are played as well."""
    import numpy as np

    from slotmath.evaluate.compiled import compile_game
    from slotmath.simulate.cascades import _pair, _run_batch
    data = tomllib.loads(GAMES[name])
    data["reels"]["base"][0] = data["reels"]["base"][0] * 2  # a longer first strip
    game = game_with_rules(data)
    base = compile_game(game, "base")
    free = compile_game(game, game.free_spins.reels, free=True) if game.free_spins else base
    fast = _pair(base, free)
    assert fast.even.any() and (fast.masked.all() or not game.ways)
    plain = fast._replace(masked=np.zeros(2, np.bool_), even=np.zeros((2, fast.even.shape[1]),
                                                                         np.bool_))
    runs = [_run_batch(np.random.default_rng(4), pair, 20_000, True, np.zeros(1, np.int64))
            for pair in (fast, plain)]
    for a, b in zip(*runs):
        assert (a == b).all()
    first, later, scatter, feature, _, _ = runs[0]
    assert (first + later + scatter + feature).sum() > 0  # rounds that pay: not vacuous
