"""The model's rules (src/slotmath/model/rules.py): each rule once, where it lives, then that every
entry point (loader, what-if edits, jackpot panel, building the dataclasses) goes through it.
Jackpots, wheel, coin value, cap and bet levels first, then reels, pays and free spins.

The routing tests change a rule with ``monkeypatch`` and watch the change show up at every
entry point; a copy of the rule left behind anywhere would not follow and fail the test.
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from pathlib import Path

import matplotlib
import numpy as np

matplotlib.use("Agg")

import pytest
from strategies import JACKPOT_GAME, jackpot_game

from slotmath.errors import GameFileError, RuleError
from slotmath.io.toml_loader import loads_game
from slotmath.model import hit_laws, rules
from slotmath.model.edit import (
    replace_reel,
    with_jackpot,
    with_symbol_count,
    with_symbol_weight,
    with_wheel_weights,
)
from slotmath.model.game import (
    BonusWheel,
    FreeSpins,
    Game,
    JackpotSpec,
    MaxWin,
    Reel,
    Symbol,
    SymbolGroup,
)
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
    (rules.check_pay, [0, F(5, 2), 7.5], [F(-1, 2), -1, float("nan")], None, "pay must be >= 0"),
    (rules.check_stop_weight, [0, 7, np.int64(3)], [-1], "weight", "must be >= 0"),
    (rules.check_stop_weight, [], [1.5, True, "1", None], "weight", "must be a whole number >= 0"),
    (rules.check_award, [1, 50], [0, -3], None, "must be >= 1"),
    (rules.check_award, [], [2.5, False], None, "must be a whole number >= 1"),
    (rules.check_spin_multiplier, [1, 3], [0, -2], "multiplier", "must be >= 1"),
    (rules.check_max_spins, [None, 1, 500], [0, -1], "max_spins", "must be >= 1"),
    (rules.check_max_spins, [], [2.5, "9"], "max_spins", "must be a whole number >= 1"),
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
    game = Game("g", (3,), 1, {}, {}, ways=True, bet_levels=(1, 4))
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
        Game("g", (3,), 1, {}, {}, ways=True, max_win=MaxWin(None, F(100)))


def test_strip_rule():
    rules.check_strip(("A",))
    err = refused(rules.check_strip, ())
    assert (err.field, err.problem) == (None, "strip is empty: list at least one symbol")


@pytest.mark.parametrize("weights, field, problem, value", [
    ((1,), "weights", "must list one whole-number weight per stop: the strip has 2 stops", 1),
    ((1, 2, 3), "weights", "must list one whole-number weight per stop: the strip has 2 stops",
     3),
    (7, "weights", "must list one whole-number weight per stop: the strip has 2 stops", 7),
    ((1, -1), "weights[1]", "must be >= 0", -1),
    ((-1, 2.0), "weights[0]", "must be >= 0", -1),  # the first bad stop, whatever is wrong
    ((1, 2.0), "weights[1]", "must be a whole number >= 0", 2.0),
    ((True, 1), "weights[0]", "must be a whole number >= 0", True),
    ((0, 0), "weights", "all weights are zero: at least one stop needs a weight > 0", None),
])
def test_stop_weights_rule(weights, field, problem, value):
    for good in ((0, 3), [2, 0], (np.int64(1), 4)):
        rules.check_stop_weights(good, 2)
    err = refused(rules.check_stop_weights, weights, 2)
    assert (err.field, err.problem) == (field, problem)
    assert value is None or err.value == value


def test_strip_symbols_rule():
    declared = {"A": Symbol("A"), "B": Symbol("B")}
    rules.check_strip_symbols(("A", "B", "A"), declared)
    rules.check_strip_symbols((), declared)
    err = refused(rules.check_strip_symbols, ("A", "Q", "R"), declared)
    assert (err.field, err.problem) == ("[1]", "symbol 'Q' is not declared in [symbols]")
    assert refused(rules.check_declared, "Q", declared).field is None


def test_free_spins_rules_in_their_game():
    symbols = {"SC": Symbol("SC", scatter=True), "A": Symbol("A"), "S2": Symbol("S2", scatter=True)}
    rules.check_trigger("SC", symbols)
    err = refused(rules.check_trigger, "Q", symbols)
    assert (err.field, err.problem) == ("trigger", "symbol 'Q' is not declared in [symbols]")
    err = refused(rules.check_trigger, "A", symbols)
    assert err.field == "trigger"
    assert err.problem == ("symbol 'A' is not a scatter: free spins are triggered by a scatter "
                           "(declared: ['SC', 'S2'])")
    rules.check_reel_set_name("free", {"base": None, "free": None})
    err = refused(rules.check_reel_set_name, "bonus", {"base": None, "free": None})
    assert err.field == "reels"
    assert err.problem == "reel set 'bonus' is not defined under [reels] (defined: ['base', 'free'])"


def test_awards_rule():
    rules.check_awards({3: 10, 4: 1})
    err = refused(rules.check_awards, {})
    assert err.field == "awards"
    assert err.problem == "must award spins for at least one count, e.g. { 3 = 10 }"
    err = refused(rules.check_awards, {3: 10, 4: 0})
    assert (err.field, err.problem, err.value) == ("awards.4", "must be >= 1", 0)


def test_wheel_count_rule():
    rules.check_wheel_count(3, 3)
    err = refused(rules.check_wheel_count, 4, 3)
    assert (err.field, err.problem) == ("count", "count 4 is more than the 3 reels")


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
        Game("g", (3,), 1, {}, {}, ways=True, coin_value=F(0))
    with pytest.raises(RuleError, match="^jackpots: contributions add up to 1.2 of each bet"):
        Game("g", (3,), 1, {}, {}, ways=True, jackpots=(spec(contribution=F(3, 5)),
                                            spec(name="GRAND", contribution=F(3, 5))))


@pytest.mark.parametrize("build, message", [
    (lambda: Reel(()), "strip is empty: list at least one symbol"),
    (lambda: Reel(("A", "B"), (1, -1)), "weights[1]: must be >= 0, got -1"),
    (lambda: Reel(("A", "B"), (1,)),
     "weights: must list one whole-number weight per stop: the strip has 2 stops, got 1"),
    (lambda: Reel(("A", "B"), (0, 0)),
     "weights: all weights are zero: at least one stop needs a weight > 0"),
    (lambda: Symbol("A", pays={3: F(-1)}), "symbol 'A': pays.3: pay must be >= 0, got -1"),
    (lambda: SymbolGroup("AB", frozenset("AB"), {3: F(1)}, {2: {3: F(-2)}}),
     "symbol 'AB': level_pays.2.3: pay must be >= 0, got -2"),
    (lambda: FreeSpins("SC", {}),
     "awards: must award spins for at least one count, e.g. { 3 = 10 }"),
    (lambda: FreeSpins("SC", {3: 0}), "awards.3: must be >= 1, got 0"),
    (lambda: FreeSpins("SC", {3: 10}, multiplier=0), "multiplier: must be >= 1, got 0"),
    (lambda: FreeSpins("SC", {3: 10}, max_spins=2.5),
     "max_spins: must be a whole number >= 1, got 2.5"),
    (lambda: BonusWheel("BN", 0, "once", (F(1),), (1,)), "count: must be >= 1, got 0"),
    (lambda: BonusWheel("BN", 3, "once", (F(-1),), (1,)), "prizes[0]: pay must be >= 0, got -1"),
])
def test_reels_symbols_and_free_spins_check_their_rules(build, message):
    with pytest.raises(RuleError) as info:
        build()
    assert str(info.value) == message


def test_game_checks_the_rules_across_its_parts():
    """What a part names in its game: the strips' symbols, the free spins' trigger and reel
    set, the wheel's count against the reels; said with the key path of a game file."""
    game = jackpot_game()  # 3 reels, free spins on SC with the "free" reels, wheel count 2
    base = game.base.reels
    with pytest.raises(RuleError, match=r"^reels\.base\[0\]\[1\]: symbol 'Q' is not declared "
                                        r"in \[symbols\]$"):
        game.replace_reels("base", (Reel(("A", "Q")), *base[1:]))
    fs = game.free_spins
    for changes, message in (
            ({"trigger": "A"}, "free_spins.trigger: symbol 'A' is not a scatter"),
            ({"trigger": "Q"}, "free_spins.trigger: symbol 'Q' is not declared in [symbols]"),
            ({"reels": "bonus"}, ("free_spins.reels: reel set 'bonus' is not defined under "
                                  "[reels] (defined: ['base', 'free'])"))):
        with pytest.raises(RuleError) as info:
            replace(game, free_spins=replace(fs, **changes))
        assert str(info.value).startswith(message)
    replace(game, bonus_wheel=replace(game.bonus_wheel, count=3))
    with pytest.raises(RuleError, match="^bonus_wheel.count: count 4 is more than the 3 reels$"):
        replace(game, bonus_wheel=replace(game.bonus_wheel, count=4))


def test_what_the_loader_accepts_the_dataclasses_accept():
    """Every bundled game, rebuilt part by part through the dataclasses, passes their rules."""
    from pathlib import Path

    from slotmath.io.toml_loader import load_game

    games = sorted((Path(__file__).resolve().parents[1] / "data" / "games").glob("*.toml"))
    assert games, "no bundled games found"
    for path in games:
        game = load_game(path)
        for reel_set in game.reel_sets.values():
            for reel in reel_set.reels:
                assert replace(reel) == reel
        for symbol in game.symbols.values():
            assert replace(symbol) == symbol
        if game.free_spins is not None:
            assert replace(game.free_spins) == game.free_spins
        assert replace(game) == game


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


# -- reels, pays and free spins: the same rule from file, edit and dataclass -----------------------

BASE_REEL_0 = '["A", "BN", "X", "SC", "A", "BN"]'  # reel 1 of JACKPOT_GAME's base set


def weighted_reel_0(weights: list) -> str:
    """JACKPOT_GAME with reel 1 of its base set weighted by ``weights``."""
    text = JACKPOT_GAME.replace(BASE_REEL_0, f"{{ strip = {BASE_REEL_0}, weights = {weights} }}")
    assert text.count("weights =") == 2  # the reel's and the wheel's
    return text


def test_the_same_bad_reel_gives_the_same_problem_everywhere():
    game = jackpot_game()
    plain, weighted = Reel(("A", "A")), Reel(("A", "X"), (1, 1))
    cases = [  # (file text, key in file, edits that make the same mistake)
        (JACKPOT_GAME.replace(BASE_REEL_0, "[]"), "reels.base[0]",
         [lambda: with_symbol_count(plain, "A", 0), lambda: Reel(())]),
        (weighted_reel_0([1, 1, -1, 1, 1, 1]), "reels.base[0].weights[2]",
         [lambda: with_symbol_count(weighted, "A", 2, weight=-1),
          lambda: with_symbol_weight(weighted, "A", -1), lambda: Reel(("A",), (-1,))]),
        (weighted_reel_0([0, 0, 0, 0, 0, 0]), "reels.base[0].weights",
         [lambda: with_symbol_weight(Reel(("A",), (2,)), "A", 0),
          lambda: with_symbol_count(Reel(("A", "X"), (1, 0)), "A", 0)]),
        (JACKPOT_GAME.replace(BASE_REEL_0, '["A", "Q"]'), "reels.base[0][1]",
         [lambda: replace_reel(game, "base", 0, Reel(("A", "Q")))]),
    ]
    for text, key, edits in cases:
        assert text != JACKPOT_GAME
        from_file = loader_error(text)
        assert from_file.key == key
        problem = from_file.message.split(", got ")[0]
        for edit in edits:
            with pytest.raises(RuleError) as info:
                edit()
            assert info.value.problem == problem, edit


def test_a_changed_stop_weights_rule_shows_up_in_loader_and_edits(monkeypatch):
    """Stop weights above 99 refused, in the one home of the rule: file, edits and Reel follow."""
    original = rules.check_stop_weights

    def at_most_99(weights, stops):
        original(weights, stops)
        if max(weights) > 99:
            raise RuleError("weights", "must be at most 99 (patched)")

    weighted = Reel(("A", "X"), (1, 1))
    monkeypatch.setattr(rules, "check_stop_weights", at_most_99)
    err = loader_error(weighted_reel_0([1, 1, 100, 1, 1, 1]))
    assert (err.key, err.message) == ("reels.base[0].weights", "must be at most 99 (patched)")
    for attempt in (lambda: with_symbol_weight(weighted, "A", 100),
                    lambda: with_symbol_count(weighted, "A", 2, weight=100),
                    lambda: Reel(("A",), (100,))):
        with pytest.raises(RuleError, match="weights: must be at most 99 \\(patched\\)"):
            attempt()
    assert with_symbol_weight(weighted, "A", 99).weights == (99, 1)


def test_a_changed_strip_symbols_rule_shows_up_in_loader_edit_and_game(monkeypatch):
    """Strips showing 'X' refused (patched): the file, replace_reel and the Game itself."""
    original = rules.check_strip_symbols

    def no_x(strip, symbols):
        original(strip, symbols)
        if "X" in strip:
            raise RuleError(f"[{list(strip).index('X')}]", "may not show 'X' (patched)")

    game = jackpot_game()  # its strips show X: loaded before the patch
    monkeypatch.setattr(rules, "check_strip_symbols", no_x)
    err = loader_error(JACKPOT_GAME)
    assert (err.key, err.message) == ("reels.base[0][2]", "may not show 'X' (patched)")
    with pytest.raises(RuleError, match=r"^reels\.base\[0\]\[2\]: may not show 'X'"):
        replace(game, name="copy")
    with pytest.raises(RuleError, match="may not show 'X'"):
        replace_reel(game, "base", 0, Reel(("A", "X")))


def test_a_looser_strip_symbols_rule_is_followed_too(monkeypatch):
    """'Q' allowed on strips undeclared (patched, a blank): a check left anywhere else would
    still refuse it."""
    original = rules.check_strip_symbols
    game = jackpot_game()
    monkeypatch.setattr(rules, "check_strip_symbols",
                        lambda strip, symbols: original([s for s in strip if s != "Q"], symbols))
    loaded = loads_game(JACKPOT_GAME.replace(BASE_REEL_0, '["A", "Q"]'), "jp.toml")
    assert loaded.base.reels[0].symbols == ("A", "Q")
    assert replace_reel(game, "base", 0, Reel(("A", "Q"))).base.reels[0].symbols == ("A", "Q")


def test_a_changed_pay_rule_shows_up_in_loader_and_dataclasses(monkeypatch):
    original = rules.check_pay

    def at_most_1000(value, field=None):
        original(value, field)
        if value > 1000:
            raise RuleError(field, "pay must be at most 1000 (patched)", value)

    monkeypatch.setattr(rules, "check_pay", at_most_1000)
    err = loader_error(JACKPOT_GAME.replace("3 = 5 }", "3 = 5000 }"))
    assert (err.key, err.message) == ("symbols.A.pays.3",
                                      "pay must be at most 1000 (patched), got 5000")
    err = loader_error(JACKPOT_GAME.replace("prizes = [1, 1, 2]", "prizes = [1, 1, 2000]"))
    assert (err.key, err.message) == ("bonus_wheel.prizes[2]",
                                      "pay must be at most 1000 (patched), got 2000")
    for attempt in (lambda: Symbol("A", pays={3: F(5000)}),
                    lambda: SymbolGroup("AB", frozenset("AB"), {3: F(5000)}),
                    lambda: BonusWheel("BN", 2, "once", (F(2000),), (1,))):
        with pytest.raises(RuleError, match="pay must be at most 1000 \\(patched\\)"):
            attempt()


def test_a_changed_free_spins_rule_shows_up_in_loader_and_dataclasses(monkeypatch):
    """The multiplier (the free spins' own rule) and the trigger (their game's), patched."""
    original_multiplier, original_trigger = rules.check_spin_multiplier, rules.check_trigger

    def at_most_2(value, field="multiplier"):
        original_multiplier(value, field)
        if value > 2:
            raise RuleError(field, "must be at most 2 (patched)", value)

    def not_sc(name, symbols, field="trigger"):
        original_trigger(name, symbols, field)
        if name == "SC":
            raise RuleError(field, "SC may not trigger (patched)")

    game = jackpot_game()  # multiplier 3, trigger SC: loaded before the patch
    monkeypatch.setattr(rules, "check_spin_multiplier", at_most_2)
    err = loader_error(JACKPOT_GAME)
    assert (err.key, err.message) == ("free_spins.multiplier", "must be at most 2 (patched), got 3")
    for attempt in (lambda: replace(game.free_spins, multiplier=3),
                    lambda: FreeSpins("SC", {3: 3}, multiplier=5)):
        with pytest.raises(RuleError, match="^multiplier: must be at most 2"):
            attempt()
    monkeypatch.setattr(rules, "check_spin_multiplier", original_multiplier)
    monkeypatch.setattr(rules, "check_trigger", not_sc)
    err = loader_error(JACKPOT_GAME)
    assert (err.key, err.message) == ("free_spins.trigger", "SC may not trigger (patched)")
    with pytest.raises(RuleError, match="^free_spins.trigger: SC may not trigger"):
        replace(game, name="copy")
    # looser: any declared symbol may trigger; no other check of "a scatter" is left to refuse
    monkeypatch.setattr(rules, "check_trigger",
                        lambda name, symbols, field="trigger": rules.check_declared(
                            name, symbols, field))
    text = JACKPOT_GAME.replace('trigger = "SC"', 'trigger = "A"')
    assert loads_game(text, "jp.toml").free_spins.trigger == "A"
    replace(game, free_spins=replace(game.free_spins, trigger="A"))


def test_a_changed_wheel_count_rule_shows_up_in_loader_and_game(monkeypatch):
    original = rules.check_wheel_count

    def needs_every_reel(count, n_reels, field="count"):
        original(count, n_reels, field)
        if count != n_reels:
            raise RuleError(field, f"count {count} must be every reel (patched)")

    game = jackpot_game()  # count 2 of 3 reels
    monkeypatch.setattr(rules, "check_wheel_count", needs_every_reel)
    err = loader_error(JACKPOT_GAME)
    assert (err.key, err.message) == ("bonus_wheel.count", "count 2 must be every reel (patched)")
    with pytest.raises(RuleError, match="^bonus_wheel.count: count 2 must be every reel"):
        replace(game, name="copy")
    replace(game, bonus_wheel=replace(game.bonus_wheel, count=3))
    # looser: no limit; no other copy of the limit is left to refuse count 4 on 3 reels
    monkeypatch.setattr(rules, "check_wheel_count", lambda count, n_reels, field="count": None)
    assert loads_game(JACKPOT_GAME.replace("count = 2", "count = 4"), "jp.toml"
                      ).bonus_wheel.count == 4
    replace(game, bonus_wheel=replace(game.bonus_wheel, count=4))


@pytest.mark.parametrize("levels, problem", [
    ((2, 3), "must include level 1"),
    ((1, 1, 2), "level 1 is listed twice"),
    ((), "at least one bet level"),
    ((1, 0), "must be >= 1"),
])
def test_bet_levels_rule_holds_for_a_game_built_in_code(levels, problem):
    """The loader and a game built in code (what-if edits) go through the same rule."""
    from dataclasses import replace

    import slotmath

    game = slotmath.load_game(Path(__file__).resolve().parents[1] / "data/games/classic_3reel.toml")
    with pytest.raises(RuleError, match=problem) as err:
        replace(game, bet_levels=levels)
    assert err.value.field.startswith("bet_levels")
