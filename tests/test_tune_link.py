"""Tuning a game whose paid spin counts the free-spin trigger and a hold & win's coins jointly
(Golden Link): the window tables carry both marks. Checked against paths that share none of
the tuning code:

* the plain reference of tests/combined_reference.py (no engine code: every stop combination
  of the game file's own data, the hold & win and the free spins by their rules, laws as
  dicts): every sensitivity entry's exact RTP, E[X^2] and hit frequency, on a Link-style toy
  (hold & win also inside the free spins) and on random small games (hypothesis), and a tuned
  toy's figures;
* a plain re-analysis (``slotmath.analyze``) of the edited bundled Golden Link.

A seeded defect (one window's table weighted one unit too much) must fail the reference check.
"""

from __future__ import annotations

import copy
import tomllib
from fractions import Fraction

import pytest
from combined_reference import Reference, moments
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import slotmath
from slotmath.io.toml_loader import loads_game
from slotmath.tune import ReelTables, sensitivities, tune
from tests.bundled import ROOT

GAMES = ROOT / "data" / "games"

HEAD = """
name = "link toy"
rows = 2
bet = 2
paylines = [[0, 0, 0], [1, 1, 1]]

[symbols]
W  = { wild = true }
A  = { pays = { 3 = 5 } }
B  = { pays = { 2 = 1, 3 = 2 } }
SC = { scatter = true, pays = { 3 = 2 } }
O  = { bonus = true }

[free_spins]
trigger = "SC"
awards = { 2 = 2, 3 = 3 }
reels = "free"
multiplier = 2
retrigger = true
max_spins = 5

[hold_and_win]
symbol = "O"
trigger = 3
respins = 2
cash_probability = "1/4"
values = [1, 2, 20]
value_weights = [6, 3, 1]
full_grid_prize = 30
in_free_spins = {inside}
"""

TOY = {"base": [["W", "O", "SC", "B", "A"], ["O", "A", "SC", "B"], ["B", "O", "A", "SC"]],
       "free": [["O", "A", "SC", "B"], ["O", "SC", "B", "W"], ["O", "B", "SC", "A"]]}


def text_of(reels: dict, inside: bool = True) -> str:
    lines = [HEAD.replace("{inside}", str(inside).lower()), "[reels]"]
    for name, strips in reels.items():
        lines.append(f"{name} = {strips!r}".replace("'", '"'))
    return "\n".join(lines)


def reference(data: dict) -> tuple[Fraction, Fraction, Fraction]:
    """(RTP, E[X^2], hit frequency) of the paid round by the plain reference."""
    return moments(Reference(data).round_law())


def mismatches(text: str, every: int = 1) -> list[str]:
    """Every sensitivity entry (each ``every``-th) whose figures differ from the reference's
    figures of the edited game (empty: none)."""
    game, data = loads_game(text, "link.toml"), tomllib.loads(text)
    s = sensitivities(game)
    out = []
    if (s.base.rtp, s.base.second_moment, s.base.hit_frequency) != reference(data):
        out.append("the game's own figures")
    for e in s.entries[::every]:
        edited = copy.deepcopy(data)
        edited["reels"]["base"][e.reel] = list(e.strip.symbols)
        got = (e.figures.rtp, e.figures.second_moment, e.figures.hit_frequency)
        if got != reference(edited):
            out.append(f"reel {e.reel + 1} {e.symbol} {e.change:+d}")
    return out


def test_the_marks_are_counted_jointly():
    game = loads_game(text_of(TOY), "link.toml")
    table = ReelTables(game, "base", 0).table(game.base.reels[0])
    assert table.marks == ("trigger", "count:O")


@pytest.mark.parametrize("inside", [True, False])
def test_every_entry_equals_the_reference(inside):
    assert mismatches(text_of(TOY, inside)) == []


def test_a_tuned_toy_equals_the_reference():
    text = text_of(TOY)
    game = loads_game(text, "link.toml")
    start = reference(tomllib.loads(text))[0]
    target = start + Fraction(1, 5)
    r = tune(game, target, tolerance=Fraction(1, 20), time_limit=30, gli11=None)
    assert r.met, r.misses
    data = tomllib.loads(text)
    data["reels"]["base"] = [list(reel.symbols) for reel in r.game.base.reels]
    assert data["reels"]["base"] != TOY["base"]
    assert (r.figures.rtp, r.figures.second_moment, r.figures.hit_frequency) == reference(data)


def test_a_wrongly_weighted_window_fails_the_check(monkeypatch):
    plain = ReelTables.window_weights

    def one_too_many(self, reel):
        out = dict(plain(self, reel))
        out[next(iter(out))] += 1
        return out

    monkeypatch.setattr(ReelTables, "window_weights", one_too_many)
    assert mismatches(text_of(TOY), every=4) != []


strip = st.lists(st.sampled_from(["W", "A", "B", "SC", "O", "O", "A", "B"]), min_size=3,
                 max_size=4)


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(strip, min_size=3, max_size=3), st.lists(strip, min_size=3, max_size=3),
       st.booleans())
def test_random_link_games_against_the_reference(base, free, inside):
    assert mismatches(text_of({"base": base, "free": free}, inside)) == []


def test_golden_link_entries_equal_a_reanalysis():
    game = slotmath.load_game(GAMES / "golden_link.toml")
    s = sensitivities(game, reels=[4], symbols=["ORB", "SC", "DRAGON", "Q"])
    plain = slotmath.analyze(game)
    assert (s.base.rtp, s.base.hit_frequency, s.base.second_moment) == (
        plain.rtp, plain.hit_frequency, plain.round.second_moment)
    for e in s.entries[::2]:
        reels = list(game.base.reels)
        reels[e.reel] = e.strip
        a = slotmath.analyze(game.replace_reels("base", tuple(reels)))
        assert (e.figures.rtp, e.figures.hit_frequency, e.figures.second_moment) == (
            a.rtp, a.hit_frequency, a.round.second_moment), (e.reel, e.symbol, e.change)


@pytest.mark.benchmark
def test_golden_link_tunes_to_a_new_target():
    game = slotmath.load_game(GAMES / "golden_link.toml")
    r = tune(game, "0.955", time_limit=120, gli11=None)  # GLI-11 held: minutes a step
    assert r.met, r.misses
    a = slotmath.analyze(r.game)
    assert (r.figures.rtp, r.figures.hit_frequency, r.figures.second_moment) == (
        a.rtp, a.hit_frequency, a.round.second_moment)


def test_the_coins_get_no_default_spacing():
    """Spacing the coins a window apart would cap them at one a reel: Golden Link's round (6
    coins on 5 reels) could never start."""
    from slotmath.tune.layout import Layout

    game = slotmath.load_game(GAMES / "golden_link.toml")
    spacing, _ = Layout().for_reel(game, 0)
    assert "ORB" not in spacing and spacing["SC"] == 3
