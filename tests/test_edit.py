"""Strip edits (slotmath.model.edit): exact counts, everything else left in place."""

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import slotmath
from slotmath.exact.brute import brute_force
from slotmath.exact.cycle import spin_table
from slotmath.model.edit import (
    replace_reel,
    symbol_count,
    symbol_weight,
    with_symbol_count,
    with_symbol_weight,
)
from slotmath.model.game import Reel

ROOT = Path(__file__).resolve().parents[1]
NAMES = ("A", "B", "C", "W")


def without(symbols, symbol):
    return [s for s in symbols if s != symbol]


@st.composite
def reels(draw, weighted=False):
    symbols = tuple(draw(st.lists(st.sampled_from(NAMES), min_size=1, max_size=12)))
    weights = None
    if weighted:
        weights = tuple(draw(st.lists(st.integers(1, 9), min_size=len(symbols),
                                      max_size=len(symbols))))
    return Reel(symbols, weights)


@settings(max_examples=150, deadline=None)
@given(reels(), st.sampled_from(NAMES), st.integers(0, 15))
def test_count_is_exact_and_other_symbols_keep_their_order(reel, symbol, count):
    if count == 0 and set(reel.symbols) == {symbol}:
        with pytest.raises(ValueError, match="empty"):
            with_symbol_count(reel, symbol, count)
        return
    edited = with_symbol_count(reel, symbol, count)
    assert symbol_count(edited, symbol) == count
    assert len(edited) == len(reel) - symbol_count(reel, symbol) + count
    assert without(edited.symbols, symbol) == without(reel.symbols, symbol)
    assert edited.weights is None


@settings(max_examples=100, deadline=None)
@given(reels(weighted=True), st.sampled_from(NAMES), st.integers(0, 15))
def test_weighted_reels_keep_each_stop_with_its_weight(reel, symbol, count):
    if count == 0 and set(reel.symbols) == {symbol}:
        return
    edited = with_symbol_count(reel, symbol, count, weight=7)
    assert symbol_count(edited, symbol) == count
    kept = [(s, w) for s, w in zip(edited.symbols, edited.weights) if s != symbol]
    assert kept == [(s, w) for s, w in zip(reel.symbols, reel.weights) if s != symbol]
    added = count - symbol_count(reel, symbol)
    if added > 0:  # the original copies are still there, the new ones weigh 7
        own = sorted(w for s, w in zip(edited.symbols, edited.weights) if s == symbol)
        old = [w for s, w in zip(reel.symbols, reel.weights) if s == symbol]
        assert own == sorted(old + [7] * added)


def test_copies_are_spread_along_the_strip():
    reel = Reel(("X",) * 12)
    edited = with_symbol_count(reel, "A", 3)
    positions = [p for p, s in enumerate(edited.symbols) if s == "A"]
    gaps = [(positions[(k + 1) % 3] - positions[k]) % 15 for k in range(3)]
    assert sorted(gaps) == [5, 5, 5]
    # and removing goes from where the copies are most crowded
    crowded = Reel(("A", "A", "X", "X", "X", "A", "X", "X", "X"))
    assert with_symbol_count(crowded, "A", 2).symbols == ("A", "X", "X", "X", "A", "X", "X", "X")


def test_unchanged_count_returns_the_same_reel_and_bad_counts_fail():
    reel = Reel(("A", "B"))
    assert with_symbol_count(reel, "A", 1) is reel
    for bad in (-1, 1.5, True):
        with pytest.raises(ValueError, match="count"):
            with_symbol_count(reel, "A", bad)


def test_symbol_weight_is_shared_evenly():
    reel = Reel(("A", "X", "A", "X", "A"), (1, 4, 1, 4, 1))
    edited = with_symbol_weight(reel, "A", 8)
    assert edited.weights == (3, 4, 3, 4, 2)
    assert symbol_weight(edited, "A") == 8 and symbol_weight(edited, "X") == 8
    assert with_symbol_weight(Reel(("A", "X")), "A", 3).weights == (3, 1)
    with pytest.raises(ValueError, match="not on the reel"):
        with_symbol_weight(reel, "B", 2)
    with pytest.raises(ValueError, match="^edited reel: weights: all weights are zero"):
        with_symbol_weight(Reel(("A",), (2,)), "A", 0)


def test_edited_game_is_still_exact():
    """An edited game goes through the engine like a loaded one: fast engine == brute force."""
    game = slotmath.load_game(ROOT / "data" / "games" / "classic_3reel.toml")
    reel = with_symbol_weight(game.base.reels[2], "W3", 4)
    edited = replace_reel(game, "base", 2, reel)
    assert edited.base.reels[2].cycle == game.base.reels[2].cycle + 3
    assert spin_table(edited) == brute_force(edited)
    assert spin_table(edited).mean_bets > spin_table(game).mean_bets
    with pytest.raises(ValueError, match="not declared"):
        replace_reel(game, "base", 0, Reel(("NOPE",)))
