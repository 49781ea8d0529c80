"""The conveyor features kept for sharing between the bet levels of one game
(slotmath.features.conveyor.shared_feature) must not keep every game ever analysed alive: a
feature holds its game, and the tuner's rounds and the strip editor analyse a new game per
move (Jingle Spin's grew about 200 MB a round, its random-wild laws kept)."""

from __future__ import annotations

import gc
import weakref

import slotmath
from slotmath.features import conveyor
from tests.bundled import ROOT

TINY = ROOT / "tests" / "data" / "conveyor_tiny.toml"


def test_games_analysed_one_after_another_are_let_go():
    refs = []
    for _ in range(conveyor.SHARED_KEPT + 3):
        game = slotmath.load_game(TINY)
        assert slotmath.analyze(game).rtp > 0  # (the figures build the shared feature)
        refs.append(weakref.ref(game))
        del game
    gc.collect()
    alive = [r() is not None for r in refs]
    # the most recent SHARED_KEPT at most stay (kept for their bet levels); the older go
    assert not any(alive[:3]), alive
    assert len(conveyor._SHARED) <= conveyor.SHARED_KEPT


def test_the_levels_of_one_game_still_share_one_feature():
    game = slotmath.load_game(TINY)
    first = conveyor.shared_feature(game, game.bet_levels[0])
    for level in game.bet_levels:
        if game.pay_level(level) == game.pay_level(game.bet_levels[0]):
            assert conveyor.shared_feature(game, level) is first
