"""The modifiers' simulator (slotmath.simulate.modifiers, its own code for the window
changes) against the exact tables, within 4 standard errors; seeded mutations fail."""

from __future__ import annotations

import sys
from dataclasses import replace
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

import slotmath
from slotmath.exact.modifiers import modifier_table
from slotmath.simulate.modifiers import play_paid_spins

sys.path.insert(0, str(Path(__file__).parent))
from test_modifiers import DYNAMITE, SPEC, _text

from slotmath.io.toml_loader import loads_game

Z = 4.0


def _exact(table, trigger):
    cpb = table.credits_per_bet
    mean = Fraction(sum(c * w for (_, c), w in table.weights.items()), table.cycle * cpb)
    second = Fraction(sum(c * c * w for (_, c), w in table.weights.items()),
                      table.cycle * cpb * cpb)
    p = Fraction(sum(w for (k, _), w in table.weights.items() if k >= trigger), table.cycle)
    return float(mean), float(second - mean * mean), float(p)


def _z(game, name, exact, spins, seed, trigger, mutation=None, symbol=None):
    mean, var, p = exact
    s = play_paid_spins(game, spins, np.random.default_rng(seed), only=name, mutation=mutation,
                        count_symbol=symbol)
    z_win = (s.win.mean() - mean) / np.sqrt(var / spins)
    z_trig = ((s.cash >= trigger).mean() - p) / np.sqrt(max(p * (1 - p), 1e-300) / spins)
    return float(z_win), float(z_trig) if 0 < p < 1 else 0.0


@pytest.fixture(scope="module")
def gus():
    game = slotmath.load_game("data/games/gus_gold_christmas.toml")
    exact = {m.name: _exact(modifier_table(game, m, count_symbol="NUGGET"), 5)
             for m in game.modifiers}
    return game, exact


@pytest.mark.parametrize("name", ["dynamite", "pickaxe", "tnt"])
def test_gus_modified_spins_agree_with_the_exact_tables(gus, name):
    game, exact = gus
    z_win, z_trig = _z(game, name, exact[name], 20000, 11, 5)
    assert abs(z_win) < Z and abs(z_trig) < Z, (z_win, z_trig)


@pytest.mark.parametrize("name, mutation", [("tnt", "upgrade_one"),
                                            ("pickaxe", "place_one_more"),
                                            ("dynamite", "place_one_more")])
def test_gus_mutations_fail(gus, name, mutation):
    game, exact = gus
    z_win, z_trig = _z(game, name, exact[name], 20000, 11, 5, mutation)
    assert max(abs(z_win), abs(z_trig)) > Z, (z_win, z_trig)


def test_dynamite_on_a_small_game_agrees_and_its_mutation_fails():
    game = loads_game(_text(SPEC, """
[modifiers.dynamite]
kind = "place"
symbol = "W"
frequency = "1/5"
counts = { 1 = 2, 2 = 1, 4 = 3 }
keep = ["S"]
"""))
    exact = _exact(modifier_table(game, DYNAMITE, count_symbol="S"), 2)
    z = _z(game, "dynamite", exact, 20000, 3, 2, symbol="S")
    assert max(map(abs, z)) < Z, z
    z = _z(game, "dynamite", exact, 20000, 3, 2, "place_one_more", symbol="S")
    assert abs(z[0]) > Z, z


def test_dynamite_on_the_middle_reel_only_agrees_and_is_another_law():
    """``reels = [2]``: the simulator places the wilds on reel 2 only, as the exact table
    says; the unrestricted table is another law, far outside the bound (the check can
    fail)."""
    game = loads_game(_text(SPEC, """
[modifiers.dynamite]
kind = "place"
symbol = "W"
frequency = "1/5"
counts = { 1 = 1, 2 = 1 }
keep = ["S"]
reels = [2]
"""))
    middle = game.modifiers.modifiers[0]
    assert middle.reels == (2,)
    exact = _exact(modifier_table(game, middle, count_symbol="S"), 2)
    z = _z(game, "dynamite", exact, 20000, 4, 2, symbol="S")
    assert max(map(abs, z)) < Z, z
    anywhere = _exact(modifier_table(game, replace(middle, reels=()), count_symbol="S"), 2)
    z = _z(game, "dynamite", anywhere, 20000, 4, 2, symbol="S")
    assert abs(z[0]) > Z, z


def test_the_mixture_draws_modifiers_at_their_frequencies(gus):
    game, _ = gus
    s = play_paid_spins(game, 200000, np.random.default_rng(5))
    for i, m in enumerate(game.modifiers):
        f = float(m.frequency)
        assert abs((s.modifier == i).mean() - f) < Z * np.sqrt(f * (1 - f) / 200000)
