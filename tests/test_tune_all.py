"""Every kind of game the window tables do not cover tunes to a new target (issue 25), on small
fixtures, each tuned game checked by a path that shares no code with the tuner:

* cascades (the proxy path, slotmath.tune.proxy): tests/cascade_reference.py, a brute force
  written from the cascade spec, reads the tuned game's file text;
* the bauble conveyor with random wilds (proxy): tests/conveyor_brute.py's brute force
  (every stop, wild placement and surprise draw; the stationary conveyor law exactly);
* paid-spin modifiers (proxy): tests/modifiers_reference.py's law of the plain and each
  modified paid spin, mixed by the modifiers' frequencies;
* grid games (common random numbers, slotmath.tune.crn): tests/grid_reference.py's round law
  (every stop, every refill);
* Megaways with tumbles (the grid proxy: the paid spin without tumbles by
  slotmath.exact.grid_ways): the same round law, and the proxy's figure against the
  reference's paid spin;

and, for each, a fresh ``slotmath.analyze`` of the tuned game equals the tuner's figure. The
bundled games' runs (minutes each) are in ``benchmarks/bench_tune.py --search``.
"""

from __future__ import annotations

import tomllib
from fractions import Fraction
from pathlib import Path

import pytest
from cascade_reference import figures as cascade_figures
from conveyor_brute import Brute
from grid_reference import mean, round_law
from modifiers_reference import modified_law, parts_of, spec_of

import slotmath
from slotmath.features.grid import owner_of
from slotmath.io.toml_loader import loads_game
from slotmath.model.game import Reel
from slotmath.tune import tune
from slotmath.tune.crn import swap, tune_by_crn
from slotmath.tune.game_file import tuned_text
from slotmath.tune.proxy import ProxyStep, proxy_game, tune_by_proxy
from slotmath.tune.search import SearchResult
from slotmath.tune.solver import Targets, default_method, summary_text
from tests.bundled import ROOT

CASCADE = ROOT / "tests" / "data" / "cascades" / "tiny_bonus.toml"
CONVEYOR = ROOT / "tests" / "data" / "conveyor_tiny.toml"
CLUSTER = ROOT / "tests" / "data" / "grid" / "cluster_tiny.toml"
MEGAWAYS = ROOT / "tests" / "data" / "grid" / "megaways_tumbles_tiny.toml"

MODIFIED = """
name = "modifier tune test"
rows = 2
bet = 2
paylines = [[0, 0, 0], [1, 1, 1], [0, 1, 0]]
[symbols]
W = { wild = true }
S = { scatter = true, pays = { 2 = 1, 4 = 5 } }
A = { pays = { 2 = 1, 3 = 5 } }
B = { pays = { 2 = 2, 3 = 4 } }
C = { pays = { 3 = 3 } }
X = {}
[reels]
base = [["A", "W", "C", "S", "X", "B"], ["B", "C", "A", "X", "C"], ["S", "A", "C", "B", "W", "X"]]
[modifiers.dynamite]
kind = "place"
symbol = "W"
frequency = "1/5"
counts = { 1 = 2, 2 = 1 }
keep = ["S"]
[modifiers.tnt]
kind = "upgrade"
frequency = "1/10"
from = ["C"]
to = { A = 1, B = 2 }
"""

#: seconds a search in these tests may take: far above their usual second or two, because a
#: cold numba cache compiles the simulation kernels inside the first search (about 70 s at load
#: 5), and the time limit counts that (a 60 s default stopped a crn search short once)
LIMIT = 900


def _check(r: SearchResult, target: Fraction, tolerance: Fraction) -> None:
    assert r.met, summary_text(r, r.targets)
    assert abs(r.figures.rtp - target) + Fraction(r.figures.rtp_error) <= tolerance
    assert r.kept == sum(s.kept for s in r.steps) >= 1


def test_cascades_tune_by_the_proxy_and_the_reference_agrees():
    game = slotmath.load_game(CASCADE)
    start = cascade_figures(tomllib.loads(CASCADE.read_text())).rtp
    assert slotmath.analyze(game).rtp == start
    for target in (Fraction(round(start * 90), 100), Fraction(round(start * 110), 100)):
        tolerance = start / 100
        r = tune(game, target, tolerance=tolerance, gli11=None, method="proxy",
                 time_limit=LIMIT)
        assert r.rank == "proxy" and all(isinstance(s, ProxyStep) for s in r.steps)
        _check(r, target, tolerance)
        # each round ranked every one-stop swap by the proxy's window tables
        assert all(s.programs and s.variables >= 2 for s in r.steps)
        written = tomllib.loads(tuned_text(CASCADE, r.game, "base"))
        assert cascade_figures(written).rtp == r.figures.rtp == slotmath.analyze(r.game).rtp
        assert [len(x.symbols) for x in r.game.base.reels] == [len(x.symbols)
                                                              for x in game.base.reels]
    # the window-table programs (moves="counts") on the same game: their sizes are reported
    r = tune_by_proxy(game, Targets(Fraction(round(start * 90), 100), start / 100, gli11=None),
                      moves="counts", max_rounds=2)
    assert r.steps and all(s.programs and s.variables >= 3 for s in r.steps)
    assert cascade_figures(tomllib.loads(tuned_text(CASCADE, r.game, "base"))).rtp == (
        r.figures.rtp)
    # the proxy is the game without its cascades and bonus symbols: a plain game whose RTP
    # is the reference's first drop
    proxy, dropped = proxy_game(game)
    assert dropped == ("bonus_symbols", "cascades")
    reference = cascade_figures(tomllib.loads(CASCADE.read_text()))
    assert proxy.cascades is None
    assert slotmath.analyze(proxy).rtp == reference.mean_first


def test_the_conveyor_tunes_by_the_proxy_and_the_brute_force_agrees():
    game = slotmath.load_game(CONVEYOR)
    start = Fraction(slotmath.analyze(game).rtp)
    target, tolerance = Fraction(round(start * 90), 100), Fraction(2, 100) * start
    r = tune(game, target, tolerance=tolerance, gli11=None, method="proxy", time_limit=LIMIT)
    assert r.rank == "proxy"
    _check(r, target, tolerance)
    assert r.game.base.reels != game.base.reels
    brute = Brute(r.game)
    values = brute.free_spin_values()
    law = brute.stationary()
    rtp = sum(float(p) * brute.state_rtp(s, values) for s, p in law.items())
    assert rtp == pytest.approx(float(r.figures.rtp), rel=1e-9)
    assert float(slotmath.analyze(r.game).rtp) == float(r.figures.rtp)


def _modifier_rtp(game) -> Fraction:
    """The RTP by tests/modifiers_reference.py: the plain paid spin's mean and each modified
    spin's, mixed by the modifiers' frequencies."""
    spec = spec_of(game)
    return sum((f * p * b for f, modifier in parts_of(game)
                for (_, b), p in modified_law(spec, modifier, "S").items()), Fraction(0))


def test_modifiers_tune_by_the_proxy_and_the_brute_force_agrees():
    game = loads_game(MODIFIED, "modified.toml")
    start = slotmath.analyze(game).rtp
    assert _modifier_rtp(game) == start  # the reference reads the game as the engine does
    target, tolerance = start - Fraction(1, 10), Fraction(1, 100)
    r = tune(game, target, tolerance=tolerance, gli11=None, method="proxy", time_limit=LIMIT)
    assert r.rank == "proxy" and r.figures.rtp_kind == "exact"
    _check(r, target, tolerance)
    assert _modifier_rtp(r.game) == r.figures.rtp == slotmath.analyze(r.game).rtp
    # the rounds were confirmed by the RTP alone (the modifiers' means); the game reached by
    # its whole analysis: its figures are the analysis', hit frequency and SD included
    assert "exact RTP (the modifiers' means)" in r.method
    assert r.rtps == r.tried >= 1 and r.analyses == 2  # the start's and the game reached
    a = slotmath.analyze(r.game)
    assert (r.figures.hit_frequency, r.figures.second_moment) == (a.hit_frequency,
                                                                  a.variance + a.rtp**2)


def test_grid_games_tune_by_common_random_numbers_and_the_reference_agrees():
    game = slotmath.load_game(CLUSTER)
    target, tolerance = Fraction(3), Fraction(1, 10)
    r = tune_by_crn(game, Targets(target, tolerance, gli11=None), rounds=20_000, time_limit=LIMIT,
                    confirm_rounds=50_000)
    assert r.rank == "crn"
    _check(r, target, tolerance)
    # the result's figures are the final game's analysis, not the estimates; the reference
    assert mean(round_law(r.game)) == r.figures.rtp == slotmath.analyze(r.game).rtp
    assert [len(x.symbols) for x in r.game.base.reels] == [len(x.symbols)
                                                          for x in game.base.reels]


def test_crn_returns_the_closest_game_analysed(monkeypatch):
    """Every analysis after the start's reads 5 bets off (a reached game's analysis can land
    farther from the target than the start: Megaways Bonanza's did, 2-2.4 points): the result
    is the start, with its own analysis, not the last game analysed."""
    import dataclasses

    from slotmath.tune import crn

    real, calls = crn.figures_from, []

    def far_after_the_start(analysis):
        f = real(analysis)
        calls.append(f)
        return f if len(calls) == 1 else dataclasses.replace(f, rtp=f.rtp + 5)

    monkeypatch.setattr(crn, "figures_from", far_after_the_start)
    game = slotmath.load_game(CLUSTER)
    target, tolerance = Fraction(3), Fraction(1, 10)
    r = tune_by_crn(game, Targets(target, tolerance, gli11=None), rounds=20_000, time_limit=LIMIT,
                    confirm_rounds=50_000, anchors=2)
    assert len(calls) >= 2, "no reached game was analysed: nothing to choose from"
    assert [x.symbols for x in r.game.base.reels] == [x.symbols for x in game.base.reels]
    assert r.figures == calls[0] and r.figures.rtp == slotmath.analyze(game).rtp
    assert "the closest of the" in r.stopped


@pytest.mark.parametrize("target", [Fraction(13, 10), Fraction(17, 10)])
def test_megaways_tunes_by_its_grid_proxy_down_and_up(target):
    """The tumbling Megaways fixture (RTP 1.515) tuned down and up by the grid proxy: the
    tuned game's RTP by the brute-force round law (every stop, height, top stop and refill),
    the proxy's figure of every round by the brute force of the proxy's paid spin."""
    from slotmath.exact.grid_ways import ways_law

    game = slotmath.load_game(MEGAWAYS)  # RTP 1099451/725760 by the reference
    tolerance = Fraction(1, 20)  # a one-stop swap of this fixture moves it 1-60 points
    r = tune(game, target, tolerance=tolerance, gli11=None, method="proxy")
    assert r.rank == "proxy" and all(isinstance(s, ProxyStep) and s.swaps for s in r.steps)
    _check(r, target, tolerance)
    assert r.figures.rtp_kind == "exact"
    assert mean(round_law(r.game)) == r.figures.rtp == slotmath.analyze(r.game).rtp
    assert [x.symbols.count("S") for x in r.game.base.reels] == [
        x.symbols.count("S") for x in game.base.reels]  # scatters held
    assert [len(x) for x in r.game.base.reels] == [len(x) for x in game.base.reels]
    proxy, dropped = proxy_game(r.game)
    assert dropped == ("tumbles",) and proxy.tumbles is None
    kept = [s for s in r.steps if s.kept][-1]
    assert kept.proxy_rtp == ways_law(proxy).mean_bets == mean(round_law(proxy))
    # the rounds moved the proxy the way of the target
    assert (kept.proxy_rtp < ways_law(proxy_game(game)[0]).mean_bets) == (target < r.start.rtp)
    assert r.start.rtp == Fraction(1099451, 725760)


def test_megaways_grid_proxy_by_a_simulated_analysis():
    """The same fixture analysed by a seeded simulation (the bundled Megaways' way): each
    confirmation is that simulation (``rounds``, the file's seed), whose stated error counts
    against the tolerance; the tuned game's exact RTP (the brute force) is within it."""
    game = slotmath.load_game(MEGAWAYS).with_analysis(method="simulate", rounds=100_000,
                                                      seed=3)
    target, tolerance = Fraction(13, 10), Fraction(1, 20)
    r = tune_by_proxy(game, Targets(target, tolerance, gli11=None), rounds=200_000)
    assert r.figures.rtp_kind == "analysis" and r.figures.rtp_error > 0
    _check(r, target, tolerance)
    truth = mean(round_law(r.game))
    assert abs(truth - r.figures.rtp) <= Fraction(r.figures.rtp_error)
    assert abs(truth - target) <= tolerance
    # the result is the game with its own [analysis] rounds: a fresh analysis with rounds
    # = 200,000 (same seed) gives the figure the tuner confirmed
    assert r.game.analysis.rounds == 100_000
    again = slotmath.analyze(r.game.with_analysis(rounds=200_000))
    assert Fraction(float(again.rtp)) == Fraction(float(r.figures.rtp))


def _megaways_with_free_spins():
    """The tumbling Megaways fixture with one free spin (its own reels, a drop multiplier
    that grows by 1 per winning drop) for 2 scatters."""
    text = MEGAWAYS.read_text().replace(
        '[tumbles]\nrefill = "strip"\n',
        '[tumbles]\nrefill = "strip"\nfree_multiplier = { start = 1, step = 1 }\n\n'
        '[free_spins]\ntrigger = "S"\nawards = { 2 = 1 }\nreels = "free"\n')
    text = text.replace('strips = { base = ["A", "B", "W", "X", "S", "C"] }',
                        'strips = { base = ["A", "B", "W", "X", "S", "C"], '
                        'free = ["A", "X", "B"] }')
    text += 'free = [["A", "B", "X", "C"], ["W", "A", "X", "B"], ["B", "C", "X", "A"]]\n'
    return loads_game(text)


def test_megaways_with_free_spins_tunes_by_swaps_paired_on_its_paid_game():
    """Common random numbers on the game without its free spins (they play their own reels):
    the default for a ways grid; the tuned game's RTP by the brute-force round law (the paid
    spin's tumbles and the free spin's), equal to a fresh analysis."""
    from slotmath.tune.crn import paid_game

    game = _megaways_with_free_spins()
    assert paid_game(game).free_spins is None and game.free_spins.reels == "free"
    target, tolerance = Fraction(3, 2), Fraction(1, 10)
    r = tune_by_crn(game, Targets(target, tolerance, gli11=None), rounds=20_000, time_limit=LIMIT,
                    confirm_rounds=50_000)
    assert "on the game without its free spins" in r.method
    _check(r, target, tolerance)
    assert mean(round_law(r.game)) == r.figures.rtp == slotmath.analyze(r.game).rtp
    assert r.game.reel_sets["free"] == game.reel_sets["free"]
    with pytest.raises(ValueError, match="no paid game to pair on"):
        tune_by_crn(slotmath.load_game(CLUSTER), Targets(target, tolerance), paid=True)


def test_the_paid_games_trigger_counts_are_the_full_games_trigger_rate():
    """The triggers the paired runs count (the paid game's spins, which play no free spins)
    against the full game's simulated trigger rate on the same seed and its exact one (the
    round law's chance that the paid spin, tumbles included, ends with 2 scatters)."""
    from slotmath.simulate.grid import simulate_grid
    from slotmath.tune.crn import paid_game, paid_triggers

    game = _megaways_with_free_spins()
    rounds = 50_000
    paid = simulate_grid(paid_game(game), rounds=rounds, seed=7)
    full = simulate_grid(game, rounds=rounds, seed=7)
    triggers, weighted = paid_triggers(game.free_spins, paid.trigger_counts, rounds)
    assert triggers == weighted  # one spin for every trigger
    p = float(full.trigger_rate)
    se = (p * (1 - p) / rounds) ** 0.5
    assert abs(triggers - p) < 3 * se
    exact = owner_of(slotmath.analyze(game).composition).free_spins["trigger_probability"]
    assert isinstance(exact, Fraction) and abs(triggers - float(exact)) < 4 * se
    # 3 scatters award what 2 do (the highest count listed)
    assert paid_triggers(game.free_spins, {1: 5, 2: 3, 3: 2}, 10) == (0.5, 0.5)


def test_the_paired_estimate_carries_the_free_spins_trigger_change():
    """The first confirmed swap's estimate (the start's exact RTP + the paid game's paired
    change + the free spins' value per trigger times the paired trigger change) against the
    brute-force round law's RTP of the swapped game: within 3 standard errors of one 50,000
    round run of the whole game, and closer than the estimate without the trigger term."""
    from slotmath.simulate.grid import simulate_grid
    from slotmath.tune.crn import paid_game

    game = _megaways_with_free_spins()
    start = mean(round_law(game))
    rounds = 50_000
    r = tune_by_crn(game, Targets(Fraction(3, 2), Fraction(1, 10), gli11=None), anchors=1,
                    rounds=20_000, confirm_rounds=rounds, time_limit=LIMIT)
    step = r.steps[0]
    sw, reels = step.swap, list(game.reel_sets["base"].reels)
    for j in range(len(reels)) if sw.reel < 0 else (sw.reel,):
        reels[j] = swap(reels[j], sw.a, sw.b, sw.k)
    swapped = game.replace_reels("base", tuple(reels))
    exact = float(mean(round_law(swapped)))
    seed = game.analysis.seed if game.analysis is not None else 0
    paid_before = simulate_grid(paid_game(game), rounds=rounds, seed=seed).rtp
    paid_after = simulate_grid(paid_game(swapped), rounds=rounds, seed=seed).rtp
    uncorrected = float(start) + float(paid_after) - float(paid_before)
    se = simulate_grid(game, rounds=rounds, seed=seed).rtp.std_error
    assert abs(float(step.rtp_after) - exact) < 3 * se
    assert abs(float(step.rtp_after) - exact) < abs(uncorrected - exact) / 3


def test_a_swap_keeps_the_strip_and_turns_only_its_stops():
    reel = Reel(("A", "B", "A", "C", "A", "D", "A"))
    new = swap(reel, "A", "B", 2)
    assert len(new.symbols) == len(reel.symbols)
    changed = [i for i, (x, y) in enumerate(zip(reel.symbols, new.symbols)) if x != y]
    assert len(changed) == 2 and all(reel.symbols[i] == "A" and new.symbols[i] == "B"
                                     for i in changed)
    assert swap(reel, "C", "B", 2) is None


def test_the_bundled_games_paths_and_proxies():
    """Which path each bundled game the window tables do not cover takes, and what its
    proxy drops (no analysis: the proxies are built and checked by the window tables' rules)."""
    expect = {"frozen_gems": ("proxy", ("bonus_symbols", "cascades", "free_spins")),
              "jingle_spin": ("proxy", ("conveyor", "random_wilds")),
              "gus_gold_christmas": ("proxy", ("hold_and_win", "modifiers")),
              "cluster_crush": ("crn", None), "sugar_tumble": ("crn", None),
              "megaways_bonanza": ("crn", ("free_spins", "max_win", "tumbles"))}
    for name, (method, dropped) in expect.items():
        game = slotmath.load_game(ROOT / "data" / "games" / f"{name}.toml")
        assert default_method(game) == method, name
        found = proxy_game(game)
        assert (found[1] if found else None) == dropped, name


def test_ranges_and_bad_methods_are_refused_in_one_line():
    game = slotmath.load_game(CLUSTER)
    # a simulated game's max win is the largest its run saw: no range of it by crn
    with pytest.raises(ValueError, match="max_win_one_in range is not offered .*largest win"):
        tune_by_crn(game, Targets(Fraction(3), Fraction(1, 10), max_win_one_in=(1, 10)))
    with pytest.raises(ValueError, match="feature_one_in range needs free spins"):
        tune_by_crn(game, Targets(Fraction(3), Fraction(1, 10), feature_one_in=(1, 10)))
    # the proxy's refusal names the path that offers the range on a grid game
    with pytest.raises(ValueError, match="hit_frequency range is not offered when tuning by "
                                         "the proxy.*--method crn offers it"):
        tune_by_proxy(slotmath.load_game(MEGAWAYS),
                      Targets(Fraction(3), Fraction(1, 10), hit_frequency=(0, 1)))
    with pytest.raises(ValueError, match="method must be one of"):
        tune(game, 3, method="annealing")
    with pytest.raises(ValueError, match="does not exceed the analysis' stated error"):
        tune_by_crn(slotmath.load_game(ROOT / "data" / "games" / "cluster_crush.toml")
                    .with_analysis(rounds=20_000), Targets(Fraction(95, 100), Fraction(1, 10**6)))
    with pytest.raises(ValueError, match="no exact proxy"):
        tune_by_proxy(game, Targets(Fraction(3), Fraction(1, 10)))
    lines = slotmath.load_game(ROOT / "data" / "games" / "tiny_lines.toml")
    with pytest.raises(ValueError, match="the window tables cover it"):
        tune(lines, "0.9", method="proxy")


def test_paths_are_deterministic():
    game = slotmath.load_game(CLUSTER)
    runs = [tune_by_crn(game, Targets(Fraction(3), Fraction(1, 10), gli11=None),
                        rounds=20_000, time_limit=LIMIT, confirm_rounds=50_000) for _ in range(2)]
    assert runs[0].game == runs[1].game and runs[0].figures == runs[1].figures
    assert Path(CLUSTER).exists()


def test_cli_method_option(tmp_path, capsys):
    """``slotmath tune --method``: the grid proxy on the tumbling Megaways fixture (its
    default is the search), the written file re-analysed; a method the game cannot use is
    one line and exit 2, nothing written; the choices are the solver's."""
    from slotmath.cli import _parser, main
    from slotmath.tune.solver import METHODS

    out = tmp_path / "tuned.toml"
    code = main(["tune", str(MEGAWAYS), "--target-rtp", "130", "--tolerance", "5",
                 "--no-gli11", "--method", "proxy", "--out", str(out)])
    printed = capsys.readouterr()
    assert code == 0, printed.err
    assert "method        proxy (the paid spin's ways programme" in printed.out
    assert "proxy round 1:" in printed.err
    assert "--method proxy" in out.read_text()
    assert abs(mean(round_law(slotmath.load_game(out))) - Fraction(13, 10)) <= Fraction(1, 20)
    bad = tmp_path / "bad.toml"
    for path, method, why in ((CLUSTER, "proxy", "no exact proxy"),
                              (ROOT / "data" / "games" / "tiny_lines.toml", "crn",
                               "the window tables cover it")):
        code = main(["tune", str(path), "--target-rtp", "90", "--method", method,
                     "--out", str(bad)])
        err = capsys.readouterr().err
        assert code == 2 and why in err and len(err.strip().splitlines()) == 1, err
        assert "Traceback" not in err and not bad.exists()
    tune_parser = _parser()._subparsers._group_actions[0].choices["tune"]
    choices = next(a.choices for a in tune_parser._actions if a.dest == "method")
    assert tuple(choices) == METHODS
