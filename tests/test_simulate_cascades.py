"""The cascade simulator (slotmath.simulate.cascades, its own numba kernel) against the exact
brute-force reference (tests/cascade_reference.py) on tiny games: the estimate within z <= 4
of the exact RTP with a fixed seed, its components and cascade-count frequencies likewise;
and a seeded MUTATION (a multiplier that does not reset between paid spins) that the same
check must reject."""

from __future__ import annotations

import json
import math
import tomllib

import pytest
import test_cascade_reference_selfcheck as hand
import test_cascades
from cascade_reference import EndlessCascade, figures
from cascade_strategies import cascade_game_dicts, to_toml
from hypothesis import HealthCheck, assume, given, settings

import slotmath
from slotmath.cli import main
from slotmath.io.toml_loader import game_from_dict
from slotmath.simulate.cascades import (
    CascadeRules,
    MultiplierRule,
    rules_from_game,
    simulate_cascades,
)

Z = 4.0
SPINS = 200_000


def _rule(table: dict) -> MultiplierRule:
    if "ladder" in table:
        return MultiplierRule(ladder=tuple(table["ladder"]))
    return MultiplierRule(table["start"], table["step"], table.get("max"))


def game_and_rules(data: dict):
    """The game (the cascade keys taken out, so that this works with or without the model's
    support for them) and its CascadeRules read from the dict."""
    plain = {k: v for k, v in data.items() if k not in ("cascades", "bonus_symbols")}
    extra: dict = {}
    if "free_spins" in data:
        fs = dict(data["free_spins"])
        retrigger = fs.pop("retrigger_awards", None)
        extra["retrigger_awards"] = (None if retrigger is None
                                     else {int(c): n for c, n in retrigger.items()})
        extra["scatter_pays"] = fs.pop("scatter_pays", True)
        plain["free_spins"] = fs
    game = game_from_dict(plain, "<cascade sim test>")
    c = data.get("cascades", {})
    b = data.get("bonus_symbols")
    if b is not None:
        extra.update(
            threshold=b["threshold"], accumulate=b.get("accumulate", True),
            effects={n: (("wild", e["wild"]) if "wild" in e else ("split", e["split"]))
                     for n, e in b["effects"].items()},
            arrangements=tuple((a["weight"], tuple(a["symbols"])) for a in b["arrangements"]),
            shuffle=b.get("shuffle", True))
    rules = CascadeRules(
        refill=c.get("refill", "strip"),
        multiplier=_rule(c.get("multiplier", {"start": 1, "step": 0})),
        free_multiplier=_rule(c["free_multiplier"]) if "free_multiplier" in c else None,
        carry_multiplier=c.get("carry_multiplier", False),
        refill_weights={k: tuple(v) for k, v in c.get("refill_weights", {}).items()},
        **extra)
    return game, rules


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
    game, rules = game_and_rules(data)
    result = simulate_cascades(game, SPINS, seed=2026, rules=rules)
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
    game, rules = game_and_rules(tomllib.loads(GAMES["random_lines_feature"]))
    one = simulate_cascades(game, 5_000, seed=3, rules=rules)
    two = simulate_cascades(game, 5_000, seed=3, rules=rules)
    other = simulate_cascades(game, 5_000, seed=4, rules=rules)
    assert (one.rtp, one.cascade_counts, one.std_error) == (two.rtp, two.cascade_counts,
                                                            two.std_error)
    assert one.rtp != other.rtp


def test_mutation_multiplier_not_reset_is_caught():
    """A kernel whose multiplier does not reset between paid spins: the same check rejects
    it (its estimate is far outside the bound), while the real kernel passes."""
    data = tomllib.loads(hand.CHAIN)
    exact = figures(data).rtp
    game, rules = game_and_rules(data)
    good = simulate_cascades(game, 20_000, seed=7, rules=rules)
    bad = simulate_cascades(game, 20_000, seed=7, rules=rules, _reset_multiplier=False)
    assert _within(good.rtp, exact, good.std_error)
    assert not _within(bad.rtp, exact, bad.std_error), (bad.rtp, bad.std_error, exact)


def test_mutation_caught_with_a_capped_multiplier_too():
    """Subtler: multiplier 1, 2, capped at 2. Not resetting makes every later spin start at
    x2; the bound still rejects it."""
    data = tomllib.loads(hand.CHAIN.replace("{ start = 1, step = 1 }",
                                            "{ start = 1, step = 1, max = 2 }"))
    exact = figures(data).rtp
    game, rules = game_and_rules(data)
    good = simulate_cascades(game, 50_000, seed=11, rules=rules)
    bad = simulate_cascades(game, 50_000, seed=11, rules=rules, _reset_multiplier=False)
    assert _within(good.rtp, exact, good.std_error)
    assert not _within(bad.rtp, exact, bad.std_error), (bad.rtp, bad.std_error, exact)


def test_endless_chain_is_an_error():
    data = tomllib.loads(hand.CHAIN.replace('["A", "A", "X"]', '["A"]'))
    game, rules = game_and_rules(data)
    with pytest.raises(ValueError, match="chain"):
        simulate_cascades(game, 10, seed=1, rules=rules)


def test_rules_from_game_needs_cascades():
    game, _rules = game_and_rules(tomllib.loads(hand.CHAIN))
    with pytest.raises(ValueError, match="cascades"):
        rules_from_game(game)


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cascade_game_dicts())
def test_generated_games_simulation_agrees(data):
    try:
        exact = figures(data)
    except EndlessCascade:
        assume(False)
    game, rules = game_and_rules(data)
    result = simulate_cascades(game, 20_000, seed=5, rules=rules)
    assert _within(result.rtp, exact.rtp, result.std_error), (result.rtp, float(exact.rtp),
                                                              to_toml(data))


def test_model_path_equals_plain_rules_path():
    """rules_from_game (the loaded model) plays exactly what the plain rules play."""
    for name in ("frozen_gems_like", "random_lines_feature", "carried_feature"):
        data = tomllib.loads(GAMES[name])
        game, rules = game_and_rules(data)
        loaded = slotmath.loads_game(GAMES[name], name)
        assert rules_from_game(loaded) == rules, name
        from_model = simulate_cascades(loaded, 3_000, seed=9)
        from_rules = simulate_cascades(game, 3_000, seed=9, rules=rules)
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
