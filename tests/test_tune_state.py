"""Tuning games whose free spins carry a state (expanding symbol, sticky wilds, collector;
random awards, a growing multiplier): the window tables' sensitivities and the solver's tuned
games against two paths that share none of their code.

* The brute-force reference of tests/free_spin_state_reference.py (no engine code: every
  window of every stop combination paid by plain rules, the feature's law by recursion):
  every sensitivity entry's exact RTP, E[X^2] and hit frequency on three toys, on the Book
  toy with its free spins played on the tuned (paid) reels, and on random small games
  (hypothesis); a tuned toy's figures.
* A plain re-analysis of each edited game (``slotmath.analyze``: the full enumeration and the
  edited game's own chain, not the window tables) on the bundled Big Catch and Book of Gold.

A seeded defect (one window's table weighted one unit too much) must fail the reference check.
"""

from __future__ import annotations

import dataclasses
from fractions import Fraction
from pathlib import Path

import pytest
from free_spin_state_reference import Reference, moments
from free_spin_state_strategies import state_games
from hypothesis import HealthCheck, given, settings

import slotmath
from slotmath.model.game import Game, Reel
from slotmath.tune import ReelTables, sensitivities, tune
from tests.bundled import ROOT

DATA = Path(__file__).resolve().parent / "data" / "free_spin_state"
GAMES = ROOT / "data" / "games"


def toy(name: str) -> Game:
    if name == "book_on_base":  # the Book toy with its free spins on the paid spin's reels
        game = slotmath.load_game(DATA / "tiny_book.toml")
        return dataclasses.replace(game, free_spins=dataclasses.replace(game.free_spins,
                                                                        reels="base"))
    return slotmath.load_game(DATA / f"{name}.toml")


def edited(game: Game, index: int, strip: Reel) -> Game:
    reels = list(game.base.reels)
    reels[index] = strip
    return game.replace_reels("base", tuple(reels))


def reference(game: Game, features: dict | None = None) -> tuple[Fraction, Fraction, Fraction]:
    """(RTP, E[X^2], hit frequency) of the paid round by the brute-force reference: its paid
    windows, and the feature's law by trigger count (``features``, kept between games whose
    free reels are the same; Reference.round's own composition, written here to share it)."""
    ref = Reference(game)
    features = {} if features is None else features
    by_count: dict = {}
    for p, window in ref.windows("base"):
        key = (ref.trigger_count(window), ref.pays(window))
        by_count[key] = by_count.get(key, 0) + p
    law: dict = {}
    for (t, base), p in by_count.items():
        if t not in features:
            features[t] = ref.feature(t) if ref.spins_law(t) else {Fraction(0): 1}
        for w, q in features[t].items():
            law[base + w] = law.get(base + w, 0) + p * q
    mean, second, zero = moments(law)
    return mean, second, 1 - zero


def mismatches(game: Game, every: int = 1) -> list[str]:
    """Every sensitivity entry (each ``every``-th) whose figures differ from the reference's
    brute force of the edited game (empty: none)."""
    s = sensitivities(game)
    out = []
    # the free reels are not edited unless the feature plays the paid spin's reels
    shared = None if game.free_spins.reels == "base" else {}
    if (s.base.rtp, s.base.second_moment, s.base.hit_frequency) != reference(game, shared):
        out.append("the game's own figures")
    for e in s.entries[::every]:
        got = (e.figures.rtp, e.figures.second_moment, e.figures.hit_frequency)
        if got != reference(edited(game, e.reel, e.strip), shared):
            out.append(f"reel {e.reel + 1} {e.symbol} {e.change:+d}")
    return out


TOYS = ["tiny_book", "tiny_sticky", "tiny_collector", "book_on_base"]


@pytest.mark.parametrize("name", TOYS)
def test_every_entry_equals_the_brute_force(name):
    assert mismatches(toy(name), every=5 if name == "book_on_base" else 2) == []


@pytest.mark.parametrize("name", TOYS)
def test_a_tuned_toy_equals_the_brute_force(name):
    game = toy(name)
    start = reference(game)[0]
    target = start - Fraction(1, 20) if start > Fraction(1, 2) else start + Fraction(1, 20)
    r = tune(game, target, tolerance=Fraction(1, 50), time_limit=30, gli11=None)
    assert r.game.base != game.base  # the solver changed the strips
    assert r.met, r.misses
    assert (r.figures.rtp, r.figures.second_moment, r.figures.hit_frequency) == reference(r.game)
    assert abs(r.figures.rtp - target) <= Fraction(1, 50)


@pytest.mark.parametrize("name", ["tiny_book", "book_on_base"])
def test_a_wrongly_weighted_window_fails_the_check(name, monkeypatch):
    """One window's table counted one unit too much: the reference check must see it."""
    plain = ReelTables.window_weights

    def one_too_many(self, reel):
        out = dict(plain(self, reel))
        first = next(iter(out))
        out[first] += 1
        return out

    game = toy(name)
    monkeypatch.setattr(ReelTables, "window_weights", one_too_many)
    assert mismatches(game, every=9) != []


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(state_games("any"))
def test_random_state_games_against_the_brute_force(game):
    assert mismatches(game, every=3) == []


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(state_games("expanding_symbol"))
def test_random_games_with_the_feature_on_the_paid_reels(game):
    game = dataclasses.replace(game, free_spins=dataclasses.replace(game.free_spins,
                                                                    reels="base"))
    assert mismatches(game, every=3) == []


@pytest.mark.parametrize(("name", "reels", "every"),
                         [("big_catch", [4], 5), ("book_of_gold", [2], 4)])
def test_bundled_entries_equal_a_reanalysis(name, reels, every):
    game = slotmath.load_game(GAMES / f"{name}.toml")
    s = sensitivities(game, reels=reels)
    plain = slotmath.analyze(game)
    assert (s.base.rtp, s.base.hit_frequency, s.base.second_moment) == (
        plain.rtp, plain.hit_frequency, plain.round.second_moment)
    for e in s.entries[::every]:
        a = slotmath.analyze(edited(game, e.reel, e.strip))
        assert (e.figures.rtp, e.figures.hit_frequency, e.figures.second_moment) == (
            a.rtp, a.hit_frequency, a.round.second_moment), (name, e.reel, e.symbol, e.change)
        assert e.figures.feature_probability == sum(
            a.round.start_probabilities("free_spins").values(), Fraction(0))


@pytest.mark.benchmark
@pytest.mark.parametrize(("name", "target"), [("big_catch", "0.955"), ("book_of_gold", "0.955"),
                                              ("sticky_paws", "0.955")])
def test_bundled_state_games_tune_to_a_new_target(name, target):
    game = slotmath.load_game(GAMES / f"{name}.toml")
    r = tune(game, target, time_limit=120, gli11=None)  # GLI-11 held: minutes a step
    assert r.met, r.misses
    a = slotmath.analyze(r.game)
    assert (r.figures.rtp, r.figures.hit_frequency, r.figures.second_moment) == (
        a.rtp, a.hit_frequency, a.round.second_moment)
