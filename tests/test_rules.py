"""The model's rules (slotmath/model/rules.py): each rule once, where it lives, then that every
entry point (loader, what-if edits, jackpot panel, building the dataclasses) goes through it.

The routing tests change a rule with ``monkeypatch`` and watch the change show up at every
entry point; a copy of the rule left behind anywhere would not follow and fail the test.
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

import matplotlib

matplotlib.use("Agg")

import pytest
from strategies import JACKPOT_GAME, jackpot_game

from slotmath.errors import GameFileError, RuleError
from slotmath.io.toml_loader import loads_game
from slotmath.model import hit_laws, rules
from slotmath.model.edit import with_jackpot, with_wheel_weights
from slotmath.model.game import BonusWheel, Game, JackpotSpec, MaxWin
from slotmath.widgets.jackpot_panel import with_jackpot_controls

F = Fraction


def spec(**changes) -> JackpotSpec:
    fields = {"name": "MINI", "seed": F(5), "contribution": F(3, 100),
              "reserve_fraction": F(1, 10), "law": "linear", "parameters": {"rate": 0.01},
              "level_factors": {1: 1.0, 2: 1.5}}
    fields.update(changes)
    return JackpotSpec(**fields)


def refused(check, *args) -> RuleError:
    with pytest.raises(RuleError) as info:
        check(*args)
    return info.value


# -- each rule, once ------------------------------------------------------------------------------


@pytest.mark.parametrize("check, good, bad, field, problem", [
    (rules.check_seed, [0, F(1, 3), 1e9], [F(-1, 100), -1, float("nan")], "seed",
     "must be >= 0"),
    (lambda v: rules.check_share(v, "contribution"), [0, F(99, 100)],
     [1, F(-1, 100), 1.5, float("nan")], "contribution", "must be in [0, 1)"),
    (rules.check_coin_value, [F(1, 100), 5], [0, -1, float("nan")], "coin_value", "must be > 0"),
    (rules.check_level_factor, [1e-9, 3.0], [0, -2.0, float("nan")], "level_factor",
     "must be > 0"),
])
def test_single_value_rules(check, good, bad, field, problem):
    for value in good:
        check(value)
    for value in bad:
        err = refused(check, value)
        assert (err.field, err.problem) == (field, problem)
        assert err.value is value or err.value != err.value  # the value itself (nan != nan)


def test_rule_error_parts_and_text():
    err = refused(rules.check_seed, F(-5, 2))
    assert isinstance(err, ValueError)
    assert str(err) == "seed: must be >= 0, got -5/2"
    assert err.problem_with("-2.5") == "must be >= 0, got '-2.5'"
    assert str(err.about("jackpot 'MINI'")) == "jackpot 'MINI': seed: must be >= 0, got -5/2"


def test_contributions_together_take_less_than_the_bet():
    rules.check_contributions([F(1, 2), F(499, 1000)])
    rules.check_contributions([])
    err = refused(rules.check_contributions, [F(1, 2), F(1, 2)])
    assert err.field == "jackpots"
    assert err.problem.startswith("contributions add up to 1 of each bet")


def test_bet_level_rule():
    rules.check_level((1, 2, 5), 5)
    err = refused(rules.check_level, (1, 2, 5), 3)
    assert str(err) == "bet level 3 is not one of the game's levels [1, 2, 5]"
    game = Game("g", (3,), 1, {}, {}, bet_levels=(1, 4))
    game.check_level(4)
    assert str(refused(game.check_level, 2)) == "bet level 2 is not one of the game's levels [1, 4]"


@pytest.mark.parametrize("weights, field, problem", [
    ((1,), "weights", "must list one whole-number weight per division (2)"),
    ((1, 2, 3), "weights", "must list one whole-number weight per division (2)"),
    ((1, -1), "weights[1]", "must be >= 0"),
    ((1, 2.0), "weights[1]", "must be a whole number >= 0"),
    ((True, 1), "weights[0]", "must be a whole number >= 0"),
    (("1", 1), "weights[0]", "must be a whole number >= 0"),
    ((0, 0), "weights", "all weights are zero: the wheel could never stop"),
])
def test_wheel_weights_rule(weights, field, problem):
    rules.check_wheel_weights((0, 3), 2)
    err = refused(rules.check_wheel_weights, weights, 2)
    assert (err.field, err.problem) == (field, problem)


def test_wheel_jackpot_rules():
    wheel = BonusWheel("BN", 3, "once", (F(1),), (1,), jackpots=("MINI", "GRAND"))
    rules.check_wheel_jackpots(wheel)
    assert refused(rules.check_wheel_jackpots, replace(wheel, multiplied=True)).field == \
        "multiplied"
    assert refused(rules.check_wheel_jackpots,
                   replace(wheel, jackpots=("MINI", "MINI"))).field == "jackpots"


def test_max_win_rules():
    rules.check_max_win(MaxWin(F(40), None))
    with pytest.raises(RuleError, match="^bet_multiple: must be > 0, got 0$"):
        MaxWin(F(0), None)


def test_cap_in_currency_needs_a_coin_value():
    rules.check_max_win(MaxWin(None, F(100)))  # without the game, nothing to check against
    err = refused(lambda: rules.check_max_win(MaxWin(None, F(100)), None, need_coin_value=True))
    assert err.field == "currency" and "needs coin_value" in err.problem
    with pytest.raises(RuleError, match="^max_win.currency: a cap in currency needs coin_value"):
        Game("g", (3,), 1, {}, {}, max_win=MaxWin(None, F(100)))


# -- the dataclasses run the rules when built ----------------------------------------------------


@pytest.mark.parametrize("changes, message", [
    ({"seed": F(-1)}, "jackpot 'MINI': seed: must be >= 0, got -1"),
    ({"contribution": F(1)}, "jackpot 'MINI': contribution: must be in [0, 1), got 1"),
    ({"reserve_fraction": F(-1, 10)},
     "jackpot 'MINI': reserve_fraction: must be in [0, 1), got -1/10"),
    ({"law": "step"},
     "jackpot 'MINI': law: must be one of 'constant', 'linear', 'saturating', got 'step'"),
    ({"parameters": {"rate": -0.5}}, "jackpot 'MINI': rate: must be >= 0, got -0.5"),
    ({"parameters": {}}, "jackpot 'MINI': rate: missing: the linear law needs rate"),
    ({"law": "constant", "parameters": {"probability": 1.5}},
     "jackpot 'MINI': probability: must be in [0, 1], got 1.5"),
    ({"level_factors": {1: 1.0, 2: 0.0}}, "jackpot 'MINI': level_factors[2]: must be > 0, got 0.0"),
])
def test_jackpot_spec_checks_its_rules(changes, message):
    spec()  # the unchanged one is valid
    with pytest.raises(RuleError) as info:
        spec(**changes)
    assert str(info.value) == message


def test_wheel_and_game_check_their_rules():
    with pytest.raises(RuleError, match="^weights: all weights are zero"):
        BonusWheel("BN", 3, "once", (F(1), F(2)), (0, 0))
    with pytest.raises(RuleError, match="^per_spin: must be \"once\""):
        BonusWheel("BN", 3, "twice", (F(1),), (1,))
    with pytest.raises(RuleError, match="^coin_value: must be > 0, got 0$"):
        Game("g", (3,), 1, {}, {}, coin_value=F(0))
    with pytest.raises(RuleError, match="^jackpots: contributions add up to 1.2 of each bet"):
        Game("g", (3,), 1, {}, {}, jackpots=(spec(contribution=F(3, 5)),
                                            spec(name="GRAND", contribution=F(3, 5))))


# -- every entry point goes through the same rule -------------------------------------------------


def loader_error(text: str) -> GameFileError:
    with pytest.raises(GameFileError) as info:
        loads_game(text, "jp.toml")
    return info.value


def test_the_same_bad_value_gives_the_same_problem_everywhere():
    game = jackpot_game()
    cases = [  # (file mutation, with_jackpot changes, panel changes, key in file, problem)
        (("seed = 5\n", "seed = -5\n"), {"seed": -5}, {"seed": -5.0}, "jackpots[0].seed",
         "must be >= 0"),
        (("contribution = 0.03", "contribution = 1"), {"contribution": 1},
         {"contribution_percent": 100.0}, "jackpots[0].contribution", "must be in [0, 1)"),
        (("rate = 0.01", "rate = -0.01"), {"parameters": {"rate": -0.01}},
         {"parameters": {"rate": -0.01}}, "jackpots[0].rate", "must be >= 0"),
    ]
    for (old, new), edit, panel, key, problem in cases:
        from_file = loader_error(JACKPOT_GAME.replace(old, new))
        assert from_file.key == key and from_file.message.startswith(problem + ", got ")
        for entry, changes in ((with_jackpot, edit), (with_jackpot_controls, panel)):
            with pytest.raises(RuleError) as info:
                entry(game, "MINI", **changes)
            assert info.value.problem == problem and info.value.subject == "jackpot 'MINI'"
    # the jackpots together: file, edit and panel
    from_file = loader_error(JACKPOT_GAME.replace("contribution = 0.03", "contribution = 0.99"))
    assert from_file.key == "jackpots" and "contributions add up to 1.01" in from_file.message
    for attempt in (lambda: with_jackpot(game, "MINI", contribution=0.99),
                    lambda: with_jackpot_controls(game, "MINI", contribution_percent=99.0)):
        with pytest.raises(RuleError, match="contributions add up to 1.01 of each bet"):
            attempt()


def test_a_changed_jackpot_rule_shows_up_in_loader_edit_and_panel(monkeypatch):
    """Seeds above 30 refused, in the one home of the rule: all entry points follow."""
    original = rules.check_seed

    def at_most_30(value, field="seed"):
        original(value, field)
        if value > 30:
            raise RuleError(field, "must be at most 30 (patched)", value)

    game = jackpot_game()  # GRAND's seed is 40: loaded before the patch
    monkeypatch.setattr(rules, "check_seed", at_most_30)
    err = loader_error(JACKPOT_GAME)
    assert (err.key, err.message) == ("jackpots[1].seed", "must be at most 30 (patched), got 40")
    for attempt in (lambda: with_jackpot(game, "MINI", seed=35),
                    lambda: with_jackpot_controls(game, "MINI", seed=35.0),
                    lambda: replace(game.jackpots[0], seed=F(35))):
        with pytest.raises(RuleError, match="must be at most 30 \\(patched\\)"):
            attempt()
    with_jackpot(game, "MINI", seed=25)  # what the rule allows still passes


def test_a_changed_hit_law_rule_shows_up_everywhere(monkeypatch):
    """The range of a law parameter, patched in the registry: rates above 0.05 refused."""
    from slotmath.markov.jackpot import LinearLaw, hit_law

    original = hit_laws.HitLaw.check_value

    def patched(self, parameter, value):
        original(self, parameter, value)
        if parameter == "rate" and value > 0.05:
            raise RuleError(parameter, "must be at most 0.05 (patched)", value)

    game = jackpot_game()
    monkeypatch.setattr(hit_laws.HitLaw, "check_value", patched)
    err = loader_error(JACKPOT_GAME.replace("rate = 0.01", "rate = 0.06"))
    assert (err.key, err.message) == ("jackpots[0].rate",
                                      "must be at most 0.05 (patched), got 0.06")
    for attempt in (lambda: with_jackpot(game, "MINI", parameters={"rate": 0.06}),
                    lambda: with_jackpot_controls(game, "MINI", weight=8.0),  # 0.01 x 8
                    lambda: LinearLaw(0.06),
                    lambda: hit_law("linear", {"rate": 0.06})):
        with pytest.raises(RuleError, match="must be at most 0.05"):
            attempt()


def test_a_changed_wheel_rule_shows_up_in_loader_and_edit(monkeypatch):
    original = rules.check_wheel_weights

    def at_most_99(weights, divisions):
        original(weights, divisions)
        if max(weights) > 99:
            raise RuleError("weights", "must be at most 99 (patched)")

    game = jackpot_game()
    weights = game.bonus_wheel.weights
    monkeypatch.setattr(rules, "check_wheel_weights", at_most_99)
    text = JACKPOT_GAME.replace(f"weights = {list(weights)}",
                                f"weights = {[100] + list(weights[1:])}")
    assert text != JACKPOT_GAME
    err = loader_error(text)
    assert (err.key, err.message) == ("bonus_wheel.weights", "must be at most 99 (patched)")
    with pytest.raises(RuleError, match="^bonus wheel: weights: must be at most 99"):
        with_wheel_weights(game, [100, *weights[1:]])
    with_wheel_weights(game, [99, *weights[1:]])


def test_bet_level_rule_is_the_one_the_pay_model_uses(monkeypatch):
    from slotmath.evaluate.window import PayModel

    game = jackpot_game()
    with pytest.raises(ValueError,
                       match="^bet level 3 is not one of the game's levels \\[1, 2\\]$"):
        PayModel(game, 3)

    def patched(levels, level):
        raise RuleError(None, f"bet level {level} refused (patched)")

    monkeypatch.setattr(rules, "check_level", patched)
    with pytest.raises(RuleError, match="^bet level 1 refused \\(patched\\)$"):
        PayModel(game, 1)
