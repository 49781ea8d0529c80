"""Brute force against hand counts, and the invariants every spin table must satisfy."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

from hypothesis import HealthCheck, given, settings
from strategies import small_games, tiny_game

from slotmath.evaluate.window import PayModel, scatter_count_distribution
from slotmath.exact.brute import brute_force
from slotmath.model.game import Reel


def test_three_reel_game_by_hand():
    # Reels [A A W X], [A X W X], [A X W X]; one line; W pays 50 for 3, A 1 for 2, 10 for 3.
    # Reel 1 shows A in 2 stops, W in 1, X in 1; reels 2 and 3 show A 1, W 1, X 2.
    # Reel 1 X (1 x 4 x 4 = 16 stops): nothing.
    # Reel 1 A (2): reel 2 A or W (2) -> reel 3 A or W (2): A x3 = 10, 8 stops;
    #                                    reel 3 X (2): A x2 = 1, 8 stops;
    #               reel 2 X (2): nothing, 16 stops.
    # Reel 1 W (1): reel 2 W: reel 3 W: W x3 = 50 beats A x3 = 10, 1 stop;
    #                         reel 3 A: W x2 pays nothing, A x3 = 10, 1 stop;
    #                         reel 3 X (2): A x2 = 1, 2 stops;
    #               reel 2 A: reel 3 A or W (2): A x3 = 10, 2 stops; reel 3 X (2): 1, 2 stops;
    #               reel 2 X (2): nothing, 8 stops.
    table = brute_force(tiny_game("three_reel_line"))
    assert dict(table.weights) == {(0, 50): 1, (0, 10): 8 + 1 + 2, (0, 1): 8 + 2 + 2,
                                   (0, 0): 16 + 16 + 8}
    assert table.cycle == 64
    assert table.credits_per_bet == 1
    assert table.trigger_cap == 0
    assert table.mean_bets == Fraction(50 + 11 * 10 + 12, 64)  # 43/16
    assert table.hit_weight == 24


def _reweighted(game, weights):
    reel = game.base.reels[0]
    return game.replace_reels("base", (Reel(reel.symbols, weights), *game.base.reels[1:]))


def test_weighted_stops_by_hand():
    # Reel 1 [A A W X] with weights 1 2 3 4: A weighs 3, W 3, X 4 (cycle 10 x 4 x 4 = 160).
    # A (3): A x3 3*2*2 = 12 -> 10; A x2 3*2*2 = 12 -> 1; 3*2*4 = 24 -> 0.
    # W (3): W x3 3*1*1 = 3 -> 50; A x3 3*1*1 + 3*1*2 = 9 -> 10;
    #        A x2 3*1*2 + 3*1*2 = 12 -> 1; reel 2 X 3*2*4 = 24 -> 0.
    # X (4): 4*16 = 64 -> 0.
    table = brute_force(_reweighted(tiny_game("three_reel_line"), (1, 2, 3, 4)))
    assert table.cycle == 160
    assert dict(table.weights) == {(0, 50): 3, (0, 10): 21, (0, 1): 24, (0, 0): 112}


def test_zero_weight_stops_never_happen():
    # Weights 0 0 1 1: reel 1 only ever shows W or X (cycle 2 x 4 x 4 = 32).
    # W: 50 once; 10: 1 + 2 = 3; 1: 2 + 2 = 4; 0: 8. X: 0 in 16.
    table = brute_force(_reweighted(tiny_game("three_reel_line"), (0, 0, 1, 1)))
    assert table.cycle == 32
    assert dict(table.weights) == {(0, 50): 1, (0, 10): 3, (0, 1): 4, (0, 0): 24}


def test_trigger_count_is_capped_at_the_top_award():
    game = tiny_game("free_spins_plain")  # awards for 2 and 3 scatters: cap 3
    table = brute_force(game)
    assert table.trigger_cap == 3
    counts = scatter_count_distribution(game, game.base, "S")
    capped: dict[int, int] = {}
    for count, weight in counts.items():
        capped[min(count, 3)] = capped.get(min(count, 3), 0) + weight
    assert table.trigger_weights() == capped


@settings(max_examples=40, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(small_games(max_combinations=2000))
def test_spin_table_invariants(game):
    for name in game.reel_sets:
        level = game.bet_levels[-1]
        table = brute_force(game, name, level)
        model = PayModel(game, level)
        # Weights add up to the full cycle (the product of the reels' total weights).
        cycle = 1
        for reel in game.reel_sets[name].reels:
            cycle *= sum(reel.stop_weights)
        assert sum(table.weights.values()) == table.cycle == cycle
        assert all(w > 0 for w in table.weights.values())
        # Probabilities add up to exactly 1, and RTP = sum of pay x probability.
        probabilities = {k: Fraction(w, cycle) for k, w in table.weights.items()}
        assert sum(probabilities.values()) == 1
        assert table.mean_bets == sum(model.to_bets(c) * p for (_, c), p in probabilities.items())
        # Trigger counts stay within the cap.
        assert all(0 <= t <= table.trigger_cap for t, _ in table.weights)
        if game.free_spins is None:
            assert table.trigger_cap == 0


def test_other_reel_set_and_level():
    game = tiny_game("free_spins_plain")
    free = brute_force(game, "free")
    assert free.cycle == 4 * 5 * 4
    assert free.cycle != brute_force(game).cycle
    doubled = replace(game, bet_levels=(1, 2))
    assert brute_force(doubled, level=2).mean_bets == brute_force(doubled).mean_bets
