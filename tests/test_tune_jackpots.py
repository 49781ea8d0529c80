"""Tuning a game with progressive jackpots and a max-win cap (Gold Money Frog's kinds): its RTP
is not linear in the strips (the pools' renewal, the cap), so the window tables compose the
round exactly and give the RTP as a first-order guide; each step is checked by the game's own
analysis, whose RTP carries its stated error.

Checked against a fresh ``slotmath.analyze`` of each edited game (the full enumeration, the
jackpots' pools and the cap, none of the window tables): the round's hit frequency and E[X^2]
and its mean exactly, the checked RTP and its stated error; a tuned game's RTP is what the
analysis of the written game says, within the tolerance counting the error. A seeded defect
(one window's table weighted one unit too much) must fail the check.
"""

from __future__ import annotations

from fractions import Fraction

import pytest
from strategies import jackpot_game

import slotmath
from slotmath.model.game import Game, Reel
from slotmath.tune import ReelTables, sensitivities, tune
from slotmath.tune.solver import Targets, summary_text
from tests.bundled import ROOT

GAMES = ROOT / "data" / "games"


def edited(game: Game, index: int, strip: Reel) -> Game:
    reels = list(game.base.reels)
    reels[index] = strip
    return game.replace_reels("base", tuple(reels))


def mismatches(game: Game) -> list[str]:
    """Every sensitivity entry whose figures differ from a fresh analysis of the edited game:
    the round's figures exactly, the guide's RTP as the round's mean plus the start game's
    jackpot and cap terms, the checked RTP and its error as the analysis states them."""
    s = sensitivities(game)
    start = slotmath.analyze(game)
    offset = Fraction(float(start.rtp)) - start.round.mean
    out = []
    for e in s.entries:
        a = slotmath.analyze(edited(game, e.reel, e.strip))
        f = e.figures
        if (f.hit_frequency, f.second_moment) != (a.hit_frequency, a.round.second_moment):
            out.append(f"reel {e.reel + 1} {e.symbol} {e.change:+d}: the round")
        if f.rtp_kind != "guide" or f.rtp != a.round.mean + offset:
            out.append(f"reel {e.reel + 1} {e.symbol} {e.change:+d}: the guide")
    for j, reel in enumerate(game.base.reels):
        strip = Reel(reel.symbols + reel.symbols[:1])  # one more stop: a new game's pools
        c = ReelTables(game, "base", j).checked(strip)
        a = slotmath.analyze(edited(game, j, strip))
        if (c.rtp, c.rtp_error, c.rtp_kind) != (Fraction(float(a.rtp)), a.rtp_error,
                                                "analysis"):
            out.append(f"reel {j + 1}: the checked RTP")
    return out


def test_every_entry_equals_a_reanalysis():
    assert mismatches(jackpot_game()) == []


def test_a_wrongly_weighted_window_fails_the_check(monkeypatch):
    plain = ReelTables.window_weights

    def one_too_many(self, reel):
        out = dict(plain(self, reel))
        out[next(iter(out))] += 1
        return out

    monkeypatch.setattr(ReelTables, "window_weights", one_too_many)
    assert mismatches(jackpot_game()) != []


def test_a_tuned_jackpot_game_is_what_its_analysis_says():
    game = jackpot_game()
    start = slotmath.analyze(game)
    # the toy pays 3.28 bets a round on 3-4 stop reels, its pools hit often (stated error
    # 0.006): a coarse target
    target = Fraction(float(start.rtp)) - Fraction(3, 10)
    tolerance = Fraction(1, 10)
    r = tune(game, target, tolerance=tolerance, time_limit=60, gli11=None)
    assert r.met, r.misses
    a = slotmath.analyze(r.game)
    assert r.game.base != game.base
    assert r.figures.rtp == Fraction(float(a.rtp)) and r.figures.rtp_error == a.rtp_error
    assert abs(r.figures.rtp - target) + Fraction(a.rtp_error) <= tolerance
    assert (r.figures.hit_frequency, r.figures.second_moment) == (
        a.hit_frequency, a.round.second_moment)
    text = summary_text(r, Targets(target, tolerance))
    assert "by the analysis, within" in text and "exactness" in text


def test_the_stated_error_counts_against_the_tolerance():
    from slotmath.tune.solver import _misses

    game = jackpot_game()
    f = ReelTables(game, "base", 0).checked(game.base.reels[0])
    assert f.rtp_kind == "analysis" and f.rtp_error > 0
    just = Targets(f.rtp, Fraction(f.rtp_error) / 2, gli11=None)
    assert _misses(f, just)["rtp"] > 0  # within the tolerance, but not counting the error
    assert _misses(f, Targets(f.rtp, Fraction(f.rtp_error) * 2, gli11=None))["rtp"] == 0


@pytest.mark.benchmark
def test_gold_money_frog_tunes_to_a_new_target():
    game = slotmath.load_game(GAMES / "gold_money_frog.toml")
    r = tune(game, "0.93", time_limit=120, gli11=None)  # GLI-11 held: minutes a step
    a = slotmath.analyze(r.game)
    assert r.figures.rtp == Fraction(float(a.rtp))
    assert r.met, r.misses


@pytest.mark.parametrize(("name", "why"), [
    ("frozen_gems", "refills read the strip beyond the window"),
    ("jingle_spin", "order beyond the window"),
    ("sugar_tumble", "order beyond the window"),
    ("gus_gold_christmas", "not tuned yet"),
])
def test_the_games_left_out_say_why_in_one_line(name, why):
    from slotmath.tune.reel_tables import check_tunable

    with pytest.raises(ValueError) as info:
        check_tunable(slotmath.load_game(GAMES / f"{name}.toml"))
    message = str(info.value)
    assert why in message and "not tuned by window tables" in message
    assert "\n" not in message


@pytest.mark.parametrize("name", ["big_catch", "book_of_gold", "sticky_paws", "golden_link",
                                  "gold_money_frog"])
def test_the_games_covered_now_are_accepted(name):
    from slotmath.tune.reel_tables import check_tunable, guided

    comp = check_tunable(slotmath.load_game(GAMES / f"{name}.toml"))
    assert guided(comp) == (name == "gold_money_frog")
