"""The proxy path with a hit-frequency or SD range (slotmath.tune.proxy: each range's figure
steered by the proxy's own, scaled by its slope, every round confirmed by the game's whole
analysis), each result checked against a reference that shares no code with the engine:

* paid-spin modifiers: tests/modifiers_reference.py's law of the plain and each modified spin
  (every stop combination by every modifier outcome), mixed by the modifiers' frequencies;
* cascades with free falls: tests/cascade_reference.py's brute force of the paid spin.
"""

from __future__ import annotations

import math
import tomllib
from fractions import Fraction

import pytest
from cascade_reference import figures as cascade_figures
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from modifiers_reference import modified_law, parts_of, spec_of

import slotmath
from slotmath.io.toml_loader import loads_game
from slotmath.tune import tune
from slotmath.tune.game_file import tuned_text
from slotmath.tune.proxy import ProxyStep, tune_by_proxy
from slotmath.tune.solver import Targets, summary_text
from tests.bundled import ROOT
from tests.test_tune_all import MODIFIED as SHORT

GONZO = ROOT / "tests" / "data" / "cascades" / "gonzo_tiny.toml"
MEGAWAYS = ROOT / "tests" / "data" / "grid" / "megaways_tumbles_tiny.toml"

#: the lines game with two paid-spin modifiers of tests/test_tune_all.py, its strips long
#: enough (12 stops) for one-stop swaps to move the hit frequency a few points at a time
MODIFIED = SHORT.replace(
    SHORT[SHORT.index("base = "):SHORT.index("[modifiers.dynamite]")],
    """base = [["A", "W", "C", "X", "B", "X", "A", "C", "S", "X", "B", "C"],
        ["B", "C", "A", "X", "C", "X", "A", "B", "X", "C", "A", "X"],
        ["S", "A", "C", "B", "W", "X", "C", "X", "A", "B", "X", "C"]]
""").replace('"modifier tune test"', '"modifier range test"')

#: the same with hold & win on O (3 in the window start it; dynamite keeps them), which the
#: proxy drops: its feature's "1 in N" is steered by the proxy strips' chance of 3 O
FEATURED = (MODIFIED.replace('X = {}', 'O = { bonus = true }\nX = {}')
            .replace('keep = ["S"]', 'keep = ["S", "O"]')
            .replace('"X", "B", "X", "A", "C", "S"', '"X", "B", "O", "A", "C", "S"')
            .replace('"C", "A", "X", "C", "X", "A", "B", "X", "C"',
                     '"C", "O", "X", "C", "X", "A", "B", "X", "O"')
            .replace('"W", "X", "C", "X", "A"', '"W", "X", "O", "X", "A"')
            + """
[hold_and_win]
symbol = "O"
trigger = 3
respins = 2
cash_probability = "1/4"
values = [1, 2, 5]
value_weights = [6, 3, 1]
""")


def _round_law(game) -> dict:
    """{win in total bets: probability} of the paid round by the reference: the plain spin's
    law and each modified spin's, mixed by the modifiers' frequencies."""
    spec, parts = spec_of(game), parts_of(game)
    law: dict = {}
    for f, modifier in parts:
        for (_, win), p in modified_law(spec, modifier, "S").items():
            law[win] = law.get(win, 0) + f * p
    return law


def _figures(law: dict) -> tuple:
    mean = sum(p * w for w, p in law.items())
    return (mean, sum(p for w, p in law.items() if w > 0),
            sum(p * w * w for w, p in law.items()) - mean * mean)


@pytest.mark.parametrize("moves", ["swaps", "counts"])
def test_modifiers_meet_a_hit_frequency_range_by_the_proxy(moves):
    """From RTP 0.49 and hit frequency 45.6 % to 0.60 within 0.005 and 50-55 %: one-stop swaps
    (the default here: the strips hold a scatter) or the window-table programs."""
    game = loads_game(MODIFIED, "modified.toml")
    rtp, hf, _ = _figures(_round_law(game))
    assert (rtp, hf) == (slotmath.analyze(game).rtp, slotmath.analyze(game).hit_frequency)
    assert hf < Fraction(1, 2)  # the start misses the range
    targets = Targets(Fraction(6, 10), Fraction(5, 1000), hit_frequency=(Fraction(1, 2),
                                                                         Fraction(55, 100)),
                      gli11=None)
    r = tune_by_proxy(game, targets, moves=moves, time_limit=600)
    assert r.met, summary_text(r, r.targets)
    assert all(isinstance(s, ProxyStep) and s.swaps == (moves == "swaps") for s in r.steps)
    # every round was confirmed by the whole analysis (the range needs the hit frequency):
    # each step shows the figure before and after
    assert r.rtps == 0 and r.analyses == r.tried + 1
    assert all(s.ranges and s.ranges[0][0] == "hit_frequency" for s in r.steps)
    rtp, hf, variance = _figures(_round_law(r.game))
    assert (r.figures.rtp, r.figures.hit_frequency, r.figures.variance) == (rtp, hf, variance)
    assert abs(rtp - Fraction(6, 10)) <= Fraction(5, 1000)
    assert Fraction(1, 2) <= hf <= Fraction(55, 100)


def test_modifiers_meet_an_sd_range_and_the_ranges_are_said():
    game = loads_game(MODIFIED, "modified.toml")
    _, _, variance = _figures(_round_law(game))
    assert variance < Fraction(64, 100)  # SD 0.70: the start misses 0.8-0.9
    r = tune(game, Fraction(55, 100), tolerance=Fraction(1, 100), sd=(Fraction(8, 10),
                                                                        Fraction(9, 10)),
             gli11=None, method="proxy", time_limit=600)
    assert r.met, summary_text(r, r.targets)
    rtp, _, variance = _figures(_round_law(r.game))
    assert r.figures.rtp == rtp and r.figures.variance == variance
    assert Fraction(64, 100) <= variance <= Fraction(81, 100)
    assert "SD" in r.steps[-1].line() and "->" in r.steps[-1].line()


def test_cascades_meet_a_hit_frequency_range_by_the_proxy():
    """The avalanche fixture with free falls (hit frequency 72.1 %) to 75-80 %, RTP 18 +- 2
    bets; the cascade reference's paid spin gives the written game's RTP and hit frequency
    (a trigger needs three F, which pay: the round wins exactly when its paid spin does)."""
    game = slotmath.load_game(GONZO)
    targets = Targets(Fraction(18), Fraction(2), hit_frequency=(Fraction(3, 4),
                                                                Fraction(4, 5)), gli11=None)

    def reference(text):
        ref = cascade_figures(tomllib.loads(text))
        return ref.rtp, sum(p for (win, _, _), p in ref.probabilities.items() if win > 0)

    start = reference(GONZO.read_text())
    assert start == (slotmath.analyze(game).rtp, slotmath.analyze(game).hit_frequency)
    assert start[1] < Fraction(3, 4)
    r = tune_by_proxy(game, targets, time_limit=600)
    assert r.met, summary_text(r, r.targets)
    assert reference(tuned_text(GONZO, r.game, "base")) == (r.figures.rtp,
                                                            r.figures.hit_frequency)


def test_the_ranges_the_proxy_refuses():
    game = loads_game(MODIFIED, "modified.toml")
    # a feature range needs one count-started feature (this game has none); the max win is
    # not the proxy's: refused, the search named
    with pytest.raises(ValueError, match="feature_one_in range is not offered when tuning by "
                                         r"the proxy unless .*\(this game: none\)"):
        tune_by_proxy(game, Targets(Fraction(1, 2), Fraction(1, 100),
                                    feature_one_in=(1, 10)))
    with pytest.raises(ValueError, match="max_win_one_in range is not offered .*--method "
                                         "search offers it"):
        tune_by_proxy(game, Targets(Fraction(1, 2), Fraction(1, 100),
                                    max_win_one_in=(1, 10)))
    # a grid proxy steers its paid spin's mean only: the ranges are crn's
    with pytest.raises(ValueError, match="sd range is not offered when tuning by the proxy "
                                         r"\(RTP only on a grid game.*--method crn offers it"):
        tune_by_proxy(slotmath.load_game(MEGAWAYS),
                      Targets(Fraction(3), Fraction(1, 10), sd=(0, 1)))
    with pytest.raises(ValueError, match="max_rounds must be a whole number >= 1"):
        tune(game, "0.5", method="proxy", max_rounds=0)
    with pytest.raises(ValueError, match=r"max_rounds \(--max-rounds\) is not offered on "
                                         r"the crn path"):
        tune(slotmath.load_game(MEGAWAYS), "1.5", method="crn", max_rounds=3)


def test_the_tuning_panel_takes_a_hit_frequency_range_on_a_game_tuned_by_its_path():
    """The workbench's panel on the modifier game (its path: the exact search, a small cycle):
    its controls show the hit-frequency row,
    and a run with it reaches the solver (the tuned game's figures by the reference)."""
    from slotmath.widgets.tuning_panel import TuningPanel

    panel = TuningPanel(loads_game(MODIFIED, "modified.toml"), draw=False)
    assert panel.searched and panel.proxied
    assert panel.hit_on in panel.children[1].children[3].children
    panel.target.value, panel.tolerance.value = 60.0, 0.5
    panel.hit_on.value, panel.hit_lo.value, panel.hit_hi.value = True, 50.0, 55.0
    panel.gli11.value = False
    panel.run()
    assert panel.result is not None and panel.result.met, panel.progress.value
    assert panel.result.targets.hit_frequency == (Fraction(1, 2), Fraction(11, 20))
    rtp, hf, _ = _figures(_round_law(panel.result.game))
    assert (panel.tuned.rtp, panel.tuned.hit_frequency) == (rtp, hf)
    assert Fraction(1, 2) <= hf <= Fraction(11, 20)


def test_the_command_line_takes_the_range_and_the_rounds(tmp_path, capsys):
    """``slotmath tune`` with ``--hit-frequency`` and ``--max-rounds`` on the modifier game (by
    the proxy: its small cycle's default is the exact search): the proxy stops after the one round asked for (exit 1: the range not met yet), the written
    file says the command and analyses to the figures reported; ``--max-rounds 0`` is one
    line."""
    from slotmath.cli import main

    path = tmp_path / "modified.toml"
    path.write_text(MODIFIED)
    out = tmp_path / "tuned.toml"
    code = main(["tune", str(path), "--target-rtp", "60", "--tolerance", "0.5",
                 "--hit-frequency", "0.5:0.55", "--no-gli11", "--max-rounds", "1",
                 "--method", "proxy", "--out", str(out)])
    text = capsys.readouterr()
    assert code == 1, text.out
    assert "proxy round 1:" in text.err and "proxy round 2:" not in text.err
    assert "hit frequency 45.5872% ->" in text.err
    assert "stopped: 1 rounds" in text.out
    assert "--hit-frequency 0.5:0.55 --max-rounds 1 --no-gli11 --method proxy" in (
        out.read_text())
    tuned = slotmath.load_game(out)
    rtp, hf, _ = _figures(_round_law(tuned))
    assert f"{float(hf) * 100:.6f}%" in text.out.split("hit frequency")[1].split("\n")[0]
    assert slotmath.analyze(tuned).rtp == rtp
    assert main(["tune", str(path), "--target-rtp", "60", "--max-rounds", "0",
                 "--out", str(out)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "--max-rounds" in err[0] and "must be a whole number >= 1" in err[0]


def test_hold_and_win_meets_a_feature_range_by_the_proxy():
    """The modifier game with hold & win (started 1 in 108) to 1 in 15-20 and RTP 1 +- 0.02:
    the real feature's chance (the engine's round law) equals the reference's, the chance the
    modified windows show 3 O, mixed by the modifiers' frequencies."""
    game = loads_game(FEATURED, "featured.toml")

    def reference(g) -> Fraction:
        return sum((f * p for f, modifier in parts_of(g)
                    for (count, _), p in modified_law(spec_of(g), modifier, "O").items()
                    if count >= 3), Fraction(0))

    assert [r.symbols.count("O") for r in game.base.reels] == [1, 2, 1]
    assert reference(game) == Fraction(1, 108)
    targets = Targets(Fraction(1), Fraction(2, 100), feature_one_in=(15, 20), gli11=None)
    r = tune_by_proxy(game, targets, time_limit=600)
    assert r.met, summary_text(r, r.targets)
    assert r.start.feature_probability == Fraction(1, 108)
    p = reference(r.game)
    assert r.figures.feature_probability == p and 15 <= 1 / p <= 20
    # the RTP but hold & win's share (which the reference does not play) by the reference
    respins = slotmath.analyze(r.game).components["hold_and_win"]
    assert r.figures.rtp - respins == _figures(_round_law(r.game))[0]
    assert all(s.swaps and s.ranges[0][0] == "feature_one_in" for s in r.steps)
    assert "feature 1 in 108.0 ->" in r.steps[0].line()
    # the window-table programs do not see the dropped feature: counts are refused
    with pytest.raises(ValueError, match="feature_one_in range moves by swaps"):
        tune_by_proxy(game, targets, moves="counts")


def test_the_tuning_panel_takes_a_feature_range_where_the_proxy_steers_one(monkeypatch):
    """(The small fixture's default path is the exact search: its cycle is lowered under the
    search's exact ranking so that the panel takes the proxy, as on Gus's Gold Christmas.)"""
    from slotmath.tune import search
    from slotmath.widgets.tuning_panel import TuningPanel

    monkeypatch.setattr(search, "EXACT_RANK_CYCLE", 100)

    def shown(panel, box) -> bool:
        return any(box in getattr(row, "children", ()) for row in panel.children[1].children)

    plain = TuningPanel(loads_game(MODIFIED, "modified.toml"), draw=False)
    assert not plain.feature_offered and not shown(plain, plain.feature_on)  # no feature
    assert shown(plain, plain.hit_on)
    panel = TuningPanel(loads_game(FEATURED, "featured.toml"), draw=False)
    assert panel.method == "proxy" and panel.feature_offered and shown(panel, panel.feature_on)
    panel.target.value, panel.tolerance.value = 100.0, 2.0
    panel.feature_on.value, panel.feature_lo.value, panel.feature_hi.value = True, 15.0, 20.0
    panel.gli11.value = False
    panel.run()
    assert panel.result is not None and panel.result.met, panel.progress.value
    assert panel.result.targets.feature_one_in == (15, 20)
    assert 15 <= 1 / panel.result.figures.feature_probability <= 20


def test_the_tuning_panel_takes_a_volatility_range(monkeypatch):
    """The panel's volatility-index row (at 90 %: 1.645 SD, as the CLI's) reaches the proxy as
    an SD range; the tuned game's SD by the reference."""
    from slotmath.stats.par import normal_quantile
    from slotmath.tune import search
    from slotmath.widgets.tuning_panel import TuningPanel

    monkeypatch.setattr(search, "EXACT_RANK_CYCLE", 100)
    panel = TuningPanel(loads_game(MODIFIED, "modified.toml"), draw=False)
    assert panel.method == "proxy"
    assert any(panel.vi_on in getattr(row, "children", ()) for row in panel.children[1].children)
    z = normal_quantile(0.90)
    panel.target.value, panel.tolerance.value = 55.0, 1.0
    panel.vi_on.value, panel.vi_lo.value, panel.vi_hi.value = True, 0.8 * z, 0.9 * z
    panel.gli11.value = False
    panel.run()
    assert panel.result is not None and panel.result.met, panel.progress.value
    lo, hi = panel.result.targets.sd
    assert abs(float(lo) - 0.8) < 1e-9 and abs(float(hi) - 0.9) < 1e-9
    _, _, variance = _figures(_round_law(panel.result.game))
    assert panel.tuned.variance == variance and lo**2 <= variance <= hi**2


@settings(max_examples=60, deadline=None)
@given(st.lists(st.lists(st.tuples(st.sampled_from("AOX"), st.integers(0, 3)), min_size=1,
                         max_size=7), min_size=1, max_size=4),
       st.lists(st.integers(1, 3), min_size=4, max_size=4), st.integers(0, 6))
def test_the_proxys_trigger_chance_is_the_count_law_of_the_strips(stops, rows, least):
    """The proxy's feature figure (the chance the window shows ``least`` O or more, read off
    the reel set's count law) against a brute force over every stop combination, weighted
    stops included."""
    import itertools

    from slotmath.model.game import Reel, ReelSet
    from slotmath.tune.proxy import _started_by_count

    assume(all(sum(w for _, w in reel) for reel in stops))  # (each reel stops somewhere)
    reels = tuple(Reel(tuple(x for x, _ in reel), tuple(w for _, w in reel)) for reel in stops)
    rows = tuple(rows[:len(reels)])
    law = ReelSet("base", reels).count_law("O", rows)
    cycle = math.prod(r.cycle for r in reels)
    want = Fraction(sum(w for k, w in law.items() if k >= least), cycle)
    assert _started_by_count(reels, rows, "O", least) == want
    brute = sum(math.prod(r.stop_weights[i] for r, i in zip(reels, at))
                for at in itertools.product(*(range(len(r.symbols)) for r in reels))
                if sum(r.window(i, n).count("O") for r, i, n in zip(reels, at, rows))
                >= least)
    assert Fraction(brute, cycle) == want


def test_a_laid_out_start_and_rounds_not_kept_return_the_closest_game():
    """Two S side by side on reel 3 (the default rules keep scatters a window height apart:
    the start is laid out first) and a target the swaps cannot quite reach: rounds not kept
    come between kept ones, the search stops by "no move helps" with the miss said, and the
    game returned is the closest confirmed, its figures the game's (the feature's chance by
    the reference), every strip keeping the rule."""
    game = loads_game(FEATURED.replace('["S", "A", "C", "B", "W", "X", "O"',
                                       '["S", "S", "C", "B", "W", "X", "O"'), "laid.toml")
    targets = Targets(Fraction(4, 5), Fraction(5, 1000), feature_one_in=(30, 40), gli11=None)
    r = tune_by_proxy(game, targets, time_limit=600)
    assert r.laid_out is not None and r.laid_out.rtp != r.start.rtp
    kept = [s.kept for s in r.steps]
    assert False in kept and kept.count(True) == r.kept >= 2, kept
    assert not r.met and r.stopped == "no move helps" and r.misses["rtp"] > 0
    assert r.misses["rtp"] == abs(r.figures.rtp - targets.rtp) - targets.tolerance
    # the closest: no kept step's RTP came nearer (the last kept round's RTP is the result's)
    assert r.figures.rtp == [s.rtp_after for s in r.steps if s.kept][-1]
    assert r.figures.feature_probability == sum(
        (f * p for f, modifier in parts_of(r.game)
         for (count, _), p in modified_law(spec_of(r.game), modifier, "O").items()
         if count >= 3), Fraction(0))
    a = slotmath.analyze(r.game)
    assert (r.figures.rtp, r.figures.hit_frequency) == (a.rtp, a.hit_frequency)
    for reel in r.game.base.reels:
        at = [i for i, x in enumerate(reel.symbols) if x == "S"]
        n = len(reel.symbols)
        assert all(min((b - a) % n, (a - b) % n) >= 2 for a in at for b in at if a != b)
