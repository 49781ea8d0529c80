"""The solver's max-win target and GLI-11's odds rule (slotmath.tune.solver, .awards).

The tuned games are checked by a brute force written here that shares no code with the
engine: every stop combination of the weighted one-row strips, each paid by the pay table's
rule (a run of one symbol from reel 1 on the one line), weighted by the product of the stops'
weights. From it: the RTP, each pay's rate, the max win and its odds.
"""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import slotmath
from slotmath.cli import main
from slotmath.model.game import Game, Reel, ReelSet, Symbol
from slotmath.tune import tune
from slotmath.tune.awards import awards
from slotmath.tune.solver import summary_text
from tests.bundled import ROOT

GAMES = ROOT / "data" / "games"
PAYS = {"A": {3: 10_000_000}, "B": {3: 1000}}


def toy(weights_a, weights_b=(20, 20, 20), length=500) -> Game:
    """Three weighted one-row reels (A, B, blank X), one line: A x3 is a 1 in tens of
    millions top award."""
    symbols = {"A": Symbol("A", {3: Fraction(PAYS["A"][3])}),
               "B": Symbol("B", {3: Fraction(PAYS["B"][3])}), "X": Symbol("X")}
    reels = tuple(Reel(("A", "B", "X"), (a, b, length - a - b))
                  for a, b in zip(weights_a, weights_b))
    return Game("toy", (1, 1, 1), 1, symbols, {"base": ReelSet("base", reels)},
                paylines=((0, 0, 0),))


def brute(game: Game) -> dict:
    """RTP, each pay's rate per spin, the max win (credits) and its probability: every stop
    combination, paid by the rules."""
    strips = [(r.symbols, r.weights or (1,) * len(r.symbols)) for r in game.base.reels]
    cycle, total, hits, wins = 0, 0, {}, {}
    for stops in itertools.product(*(range(len(s)) for s, _ in strips)):
        w = 1
        for (_, weights), stop in zip(strips, stops):
            w *= weights[stop]
        line = [symbols[stop] for (symbols, _), stop in zip(strips, stops)]
        run = next((k for k, s in enumerate(line) if s != line[0]), len(line))
        pay = PAYS.get(line[0], {}).get(run, 0)
        cycle += w
        total += w * pay
        if pay:
            hits[f"pay {line[0]} x{run}"] = hits.get(f"pay {line[0]} x{run}", 0) + w
        wins[pay] = wins.get(pay, 0) + w
    top = max(wins)
    return {"rtp": Fraction(total, cycle),
            "rates": {k: Fraction(v, cycle) for k, v in hits.items()},
            "top": top, "top_probability": Fraction(wins[top], cycle)}


def test_gli11_holds_where_the_plain_rtp_target_breaks_it():
    game = toy((1, 1, 2))  # A x3: 2 in 125,000,000 spins, 1 in 62.5 million
    start = brute(game)
    assert start["rates"]["pay A x3"] * 100_000_000 >= 1
    target, tolerance = Fraction(15, 100), Fraction(2, 1000)
    # without the rule the fewest edits to 15 % push an award past 1 in 1e8 (B x3 is gone:
    # up to 16 edits a step; with 4, A x3 goes)
    plain = tune(game, target, gli11=None, tolerance=tolerance, time_limit=30, max_change=16)
    b = brute(plain.game)
    assert plain.met and abs(b["rtp"] - target) <= tolerance
    assert any(b["rates"].get(pay, 0) * 100_000_000 < 1 for pay in start["rates"])
    # with it (the default) the target is met and every award is at least 1 in 1e8
    held = tune(game, target, tolerance=tolerance, time_limit=30, max_change=16)
    b = brute(held.game)
    assert held.met, held.misses
    assert abs(b["rtp"] - target) <= tolerance and held.figures.rtp == b["rtp"]
    assert set(b["rates"]) == {"pay A x3", "pay B x3"}
    assert all(rate * 100_000_000 >= 1 for rate in b["rates"].values())
    assert b["top_probability"] * 100_000_000 >= 1
    # the solver's awards are the brute force's rates (and the top award's)
    assert held.awards.rates == {**b["rates"], "top award 1e+07 x bet":
                                 b["top_probability"]}
    assert held.misses["gli11"] == 0
    # the rule is a row of the integer program (A x3's hits are linear in the counts here)
    assert held.steps[0].constraints > plain.steps[0].constraints


def test_a_max_win_target_reachable_only_by_one_more_a_on_reel_1_or_2():
    game = toy((1, 1, 2))
    # N in 20..40 million: A's weights must multiply to 4 (1 in 31.25 million); 3 or 6 miss
    wanted = toy((2, 1, 2))
    target = brute(wanted)["rtp"]
    r = tune(game, target, max_win_one_in=(20_000_000, 40_000_000),
             tolerance=Fraction(5, 1000), time_limit=30)
    b = brute(r.game)
    assert r.met, r.misses
    assert b["top"] == 10_000_000 and 20_000_000 <= 1 / b["top_probability"] <= 40_000_000
    assert (r.figures.top_award, r.figures.top_probability) == (b["top"], b["top_probability"])
    a_weights = [dict(zip(x.symbols, x.weights))["A"] for x in r.game.base.reels]
    assert a_weights[0] * a_weights[1] * a_weights[2] == 4
    assert not 20_000_000 <= 1 / brute(game)["top_probability"] <= 40_000_000  # it had to move


def test_max_win_and_rarest_award_equal_the_analysis_and_the_compliance_check():
    from slotmath.report.compliance import check

    game = slotmath.load_game(GAMES / "classic_3reel.toml")  # bet levels 1-3
    r = tune(game, "0.96", max_win_one_in=(700_000, 800_000), time_limit=60)
    assert r.met, r.misses
    a = slotmath.analyze(r.game)
    assert (r.figures.top_award, r.figures.top_probability) == (
        a.top_award.multiple, a.top_award.probability)
    assert 700_000 <= a.top_award.one_in <= 800_000
    assert not 700_000 <= slotmath.analyze(game).top_award.one_in <= 800_000
    rows = check(r.game, ["gli11"]).findings
    assert all(f.passed for f in rows)
    rarest = min((f for f in rows if f.value is not None), key=lambda f: f.value)
    assert r.awards.rarest == (rarest.subject, Fraction(rarest.probability))


def test_an_award_that_misses_the_rule_is_a_target_reported_like_the_others(tmp_path, capsys):
    game = slotmath.load_game(GAMES / "ways_243.toml")  # its top award: 1 in 425,782,656
    assert sorted(awards(game).failing) == ["top award 243 x bet"]
    # only K may change: the top award cannot come 4.3 times as often
    r = tune(game, "0.9636", max_rounds=1, time_limit=1, symbols=["K"],
             tolerance=Fraction(1, 1000))
    assert not r.met and r.misses["gli11"] > 0 and r.misses["rtp"] == 0
    assert ("GLI-11        NOT met: 1 award(s) rarer than 1 in 100,000,000 games: top award "
            "243 x bet 1 in 425,782,656") in summary_text(r, r.targets)
    out = tmp_path / "closest.toml"
    code = main(["tune", str(GAMES / "ways_243.toml"), "--target-rtp", "96.36",
                 "--max-win-one-in", "1:2", "--time-limit", "0.1", "--out", str(out)])
    printed = capsys.readouterr().out
    assert code == 1
    assert "max_win_one_in NOT met: misses by" in printed
    assert "rarest award  top award 243 x bet 1 in 425,782,656 -> " in printed
    slotmath.load_game(out)  # the closest game is written


@pytest.mark.parametrize(("extra", "fragment"), [
    (["--max-win-one-in", "9"], "--max-win-one-in: must be LO:HI"),
    (["--max-win-one-in", "9:x"], "--max-win-one-in: must be a number"),
    (["--max-win-one-in", "9:8"], "--max-win-one-in: must be LO:HI"),
])
def test_cli_bad_max_win_is_one_line_exit_2(tmp_path, capsys, extra, fragment):
    code = main(["tune", str(GAMES / "tiny_lines.toml"), "--target-rtp", "96", *extra,
                 "--out", str(tmp_path / "x.toml")])
    err = capsys.readouterr().err
    assert code == 2 and fragment in err and len(err.strip().splitlines()) == 1


@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.integers(1, 3), st.integers(1, 40), st.integers(150, 700)),
                min_size=3, max_size=3),
       st.sampled_from(["0.05", "0.2", "0.6"]))
def test_no_award_that_met_the_rule_is_pushed_past_it_on_random_games(reels, target):
    symbols = {"A": Symbol("A", {3: Fraction(PAYS["A"][3])}),
               "B": Symbol("B", {3: Fraction(PAYS["B"][3])}), "X": Symbol("X")}
    strips = tuple(Reel(("A", "B", "X"), w) for w in reels)
    game = Game("random", (1, 1, 1), 1, symbols, {"base": ReelSet("base", strips)},
                paylines=((0, 0, 0),))
    # (the plain RTP target pushes A x3 past the rule on most of these: A weighs 1 to 3 in
    # hundreds on each reel)
    r = tune(game, target, tolerance=Fraction(1, 100), max_rounds=1, time_limit=20)
    before, after = brute(game), brute(r.game)
    assert r.figures.rtp == after["rtp"]
    for pay in ("pay A x3", "pay B x3"):
        if before["rates"].get(pay, 0) * 100_000_000 >= 1:
            assert after["rates"].get(pay, 0) * 100_000_000 >= 1, (pay, r.steps)
    met = all(after["rates"].get(p, 0) * 100_000_000 >= 1 for p in ("pay A x3", "pay B x3"))
    assert (r.misses["gli11"] == 0) == met


def test_cli_no_gli11_leaves_the_rule_out(tmp_path, capsys):
    out = tmp_path / "t.toml"
    code = main(["tune", str(GAMES / "classic_3reel.toml"), "--target-rtp", "96", "--no-gli11",
                 "--out", str(out)])
    printed = capsys.readouterr().out
    assert code == 0 and "GLI-11" not in printed and "rarest award" not in printed
    assert "--no-gli11" in out.read_text().splitlines()[0]  # the header gives the options
