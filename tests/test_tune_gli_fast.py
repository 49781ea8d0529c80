"""GLI-11's award rates from the window tables (slotmath.tune.fast_awards) against the
compliance check (slotmath.report.compliance, a fresh analysis of the edited game).

The two share only the game definition: the fast path sums per-window hit counts and
composes the round from the window tables; the check analyses the whole edited game. Every
award the fast path claims to cover must have exactly the check's rate, on random small
games and edited strips; a planted off-by-one in one window's weight must be caught, in the
comparison and by the solver's final full check.
"""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import slotmath
from slotmath.model.game import Reel
from slotmath.tune import solver, tune
from slotmath.tune.awards import awards
from slotmath.tune.fast_awards import FastAwards, FastAwardsMismatch, confirm
from slotmath.tune.reel_tables import ReelTables, check_tunable, reel_with
from tests.bundled import ROOT
from tests.strategies import small_games
from tests.test_tune_targets import toy

GAMES = ROOT / "data" / "games"


def edited(reel: Reel, symbol: str, at: int, drop: int | None) -> Reel:
    """``reel`` with ``symbol`` inserted at stop ``at`` (weight 1 on a weighted reel) and
    the stop ``drop`` (of the result) removed, when given and the strip keeps a stop."""
    symbols, weights = list(reel.symbols), list(reel.stop_weights)
    at %= len(symbols) + 1
    symbols.insert(at, symbol)
    weights.insert(at, 1)
    if drop is not None and len(symbols) > 1:
        drop %= len(symbols)
        del symbols[drop], weights[drop]
    if not any(weights):
        weights[0] = 1
    return Reel(tuple(symbols), None if reel.weights is None else tuple(weights))


def covered_agree(game, j: int, strip: Reel) -> dict:
    """The fast path's rates of ``strip`` as reel ``j``, checked against a compliance check
    of the edited game: the same covered subjects, each rate exactly equal."""
    fast = FastAwards(ReelTables(game, "base", j))
    rates = fast.rates(strip)
    full = awards(reel_with(game, "base", j, strip)).rates
    assert {s for s in full if fast.covers(s)} == set(rates)
    for subject, rate in rates.items():
        assert full[subject] == rate, subject
    return rates


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_games(max_combinations=3000), st.data())
def test_random_games_fast_rates_equal_the_check(game, data):
    try:
        check_tunable(game)
    except ValueError:
        return  # a game the window tables do not cover: the solver refuses it
    j = data.draw(st.integers(0, len(game.base.reels) - 1))
    reel = game.base.reels[j]
    symbol = data.draw(st.sampled_from(sorted(game.symbols)))
    strip = edited(reel, symbol, data.draw(st.integers(0, 50)),
                   data.draw(st.none() | st.integers(0, 50)))
    rates = covered_agree(game, j, strip)
    fast = FastAwards(ReelTables(game, "base", j))
    assert bool(rates) == (not fast.why_not)


@pytest.mark.parametrize(("name", "j"), [("tiny_lines", 1), ("ways_243", 2)])
def test_bundled_edited_strips(name, j):
    game = slotmath.load_game(GAMES / f"{name}.toml")
    reel = game.base.reels[j]
    rates = covered_agree(game, j, edited(reel, reel.symbols[0], 3, 7))
    assert any(s.startswith("pay ") for s in rates)
    assert any(s.startswith("top award ") for s in rates)


def test_off_by_one_window_weight_is_caught(monkeypatch):
    game = slotmath.load_game(GAMES / "tiny_lines.toml")
    fast = FastAwards(ReelTables(game, "base", 1))
    good = fast.rates(game.base.reels[1])
    full = awards(game).rates
    confirm(good, full)

    def off_by_one(self, reel):
        weights = dict(self.tables.window_weights(reel))
        first = next(iter(weights))
        weights[first] += 1
        return weights

    monkeypatch.setattr(FastAwards, "_weights", off_by_one)
    bad = FastAwards(ReelTables(game, "base", 1)).rates(game.base.reels[1])
    assert bad != good
    with pytest.raises(FastAwardsMismatch):
        confirm(bad, full)


def counting(monkeypatch) -> list:
    calls: list = []
    real = solver.awards

    def counted(game, *args, **kwargs):
        calls.append(game)
        return real(game, *args, **kwargs)

    monkeypatch.setattr(solver, "awards", counted)
    return calls


def test_solver_uses_the_fast_path_and_confirms_the_final_game(monkeypatch):
    calls = counting(monkeypatch)
    game = toy((1, 1, 2))  # no feature: every award is covered (A x3 near the limit)
    r = tune(game, Fraction(15, 100), tolerance=Fraction(2, 1000), max_change=16)
    assert r.met and any(s.kept for s in r.steps)
    # the start's check and the final game's: no check per candidate edit or step
    assert len(calls) == 2 and calls[-1] == r.game
    assert not r.awards.fast and r.awards.rates == awards(r.game).rates


def test_solver_catches_a_wrong_fast_path(monkeypatch):
    real = FastAwards.rates

    def wrong(self, reel):
        out = real(self, reel)
        subject = next(s for s in sorted(out) if s.startswith("pay B"))
        out[subject] += Fraction(1, 10**12)
        return out

    monkeypatch.setattr(FastAwards, "rates", wrong)
    with pytest.raises(FastAwardsMismatch, match="pay B x3"):
        tune(toy((1, 1, 2)), Fraction(15, 100), tolerance=Fraction(2, 1000), max_change=16)


def test_game_with_a_feature_checks_each_step_in_full(monkeypatch):
    calls = counting(monkeypatch)
    game = slotmath.load_game(GAMES / "tiny_lines.toml")
    r = tune(game, "0.95")
    kept = sum(s.kept for s in r.steps)
    # 'free spins trigger' is not covered: one full check per step tried, none per edit
    assert len(calls) == 1 + sum(1 for s in r.steps if s.edits) and kept
    assert r.awards.rates == awards(r.game).rates
