"""The line-triggered bonus wheel: loader, exact composition against an independent formula."""

from __future__ import annotations

from fractions import Fraction

import pytest
from strategies import WHEEL_GAME, wheel_game

import slotmath
from slotmath.errors import GameFileError
from slotmath.exact.brute import brute_force_line_trigger


def game(per_spin="per_line", multiplied="false", retrigger="false"):
    return wheel_game(per_spin, multiplied == "true", retrigger == "true")


def expected_rtp_by_hand(g) -> Fraction:
    """No retrigger: E[base spin + its wheels] + sum_n P(n) n E[free spin + its wheels]."""
    wheel, fs = g.bonus_wheel, g.free_spins
    mean_wheel = wheel.mean

    def spin_mean(reel_set, window_mult, wheel_mult):
        t = brute_force_line_trigger(g, wheel.symbol, wheel.count, reel_set)
        total = Fraction(0)
        for (_, lines, credits), w in t.weights.items():
            k = min(lines, 1) if wheel.per_spin == "once" else lines
            total += w * (Fraction(credits * window_mult, t.credits_per_bet)
                          + k * mean_wheel * wheel_mult)
        return total / t.cycle, t

    base_mean, base = spin_mean("base", 1, 1)
    free_mean, _ = spin_mean(fs.reels, fs.multiplier, fs.multiplier if wheel.multiplied else 1)
    rtp = base_mean
    for (trigger, _, _), w in base.weights.items():
        rtp += Fraction(w, base.cycle) * fs.award_for(trigger) * free_mean
    return rtp


@pytest.mark.parametrize("per_spin", ["once", "per_line"])
@pytest.mark.parametrize("multiplied", ["false", "true"])
def test_rtp_equals_the_independent_formula(per_spin, multiplied):
    g = game(per_spin, multiplied)
    a = slotmath.analyze(g)
    assert a.rtp == expected_rtp_by_hand(g)
    assert sum(a.components.values()) == a.rtp
    assert a.components["lines"] + a.components["scatter"] == a.base_table.mean_bets


def test_wheel_in_free_spins_is_not_multiplied_unless_asked():
    plain, multiplied = slotmath.analyze(game()), slotmath.analyze(game(multiplied="true"))
    fs_spins = plain.features["free_spins"].trigger_probability * plain.features["free_spins"].expected_spins
    extra = fs_spins * plain.features["bonus_wheel"].spins_per_spin["free_spins"] * plain.game.bonus_wheel.mean * 2
    assert multiplied.rtp - plain.rtp == extra
    assert multiplied.components["bonus_wheel"] - plain.components["bonus_wheel"] == extra
    assert multiplied.components["free_spins"] == plain.components["free_spins"]


def test_once_versus_per_line():
    once, per_line = slotmath.analyze(game("once")), slotmath.analyze(game("per_line"))
    assert once.features["bonus_wheel"].spins_per_spin["base"] < per_line.features["bonus_wheel"].spins_per_spin["base"]
    t = brute_force_line_trigger(once.game, "BN", 2, "base")
    lines = t.line_weights()
    assert per_line.features["bonus_wheel"].spins_per_spin["base"] == Fraction(sum(b * w for b, w in lines.items()), t.cycle)
    assert once.features["bonus_wheel"].spins_per_spin["base"] == Fraction(t.cycle - lines.get(0, 0), t.cycle)


def test_retrigger_variant_holds_together():
    a = slotmath.analyze(game(retrigger="true"))
    assert sum(a.components.values()) == a.rtp
    assert abs(float(a.distribution.mean) - a.rtp_float) < 1e-9 * a.rtp_float
    assert abs(float(a.distribution.probs.sum()) - 1) < 1e-9


@pytest.mark.parametrize("edit, key, fragment", [
    ('symbol = "BN"', "bonus_wheel.symbol", "not declared"),
    ('symbol = "A"', "bonus_wheel.symbol", "not a bonus symbol"),
    ("count = 2", "bonus_wheel.count", "more than the 3 reels"),
    ('per_spin = "per_line"', "bonus_wheel.per_spin", '"once"'),
    ("weights = [3, 3, 2, 1]", "bonus_wheel.weights", "one whole-number weight per division"),
    ('prizes = [1, 1, 2, "5/2"]', "bonus_wheel.prizes", "must be >= 0"),
])
def test_bad_wheel_is_one_clear_error(edit, key, fragment):
    replacement = {
        'symbol = "BN"': 'symbol = "Q"',
        'symbol = "A"': 'symbol = "A"',
        "count = 2": "count = 4",
        'per_spin = "per_line"': 'per_spin = "twice"',
        "weights = [3, 3, 2, 1]": "weights = [3, 3]",
        'prizes = [1, 1, 2, "5/2"]': "prizes = [1, -1, 2, 3]",
    }[edit]
    text = WHEEL_GAME
    if edit == 'symbol = "A"':
        text = text.replace('symbol = "BN"', 'symbol = "A"')
    else:
        text = text.replace(edit, replacement)
    with pytest.raises(GameFileError) as info:
        slotmath.loads_game(text, "wheel.toml")
    message = str(info.value)
    assert message.startswith("wheel.toml: ") and key in message and fragment in message
    assert "\n" not in message
