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
from modifiers_reference import modified_law

import slotmath
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
                 time_limit=120)
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
    r = tune(game, target, tolerance=tolerance, gli11=None, method="proxy", time_limit=120)
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
    pays = {s.name: {k: v for k, v in s.pays.items()} for s in game.symbols.values()
            if s.pays and not s.scatter}
    spec = {"rows": 2, "bet": game.bet, "ways": False, "wild": "W",
            "lines": [list(line) for line in game.paylines], "pays": pays,
            "strips": [list(r.symbols) for r in game.base.reels],
            "scatter_pays": dict(game.symbols["S"].pays)}

    def spin_mean(modifier):
        return sum((p * b for (_, b), p in modified_law(spec, modifier, "S").items()),
                   Fraction(0))

    plain = spin_mean(None)
    out = plain
    for m in game.modifiers:
        d = ({"kind": "place", "symbol": m.symbol, "counts": dict(m.counts),
              "keep": set(m.keep), "reels": list(m.reels)} if m.kind == "place"
             else {"kind": "upgrade", "from": set(m.from_symbols), "to": dict(m.to)})
        out += m.frequency * (spin_mean(d) - plain)
    return out


def test_modifiers_tune_by_the_proxy_and_the_brute_force_agrees():
    game = loads_game(MODIFIED, "modified.toml")
    start = slotmath.analyze(game).rtp
    assert _modifier_rtp(game) == start  # the reference reads the game as the engine does
    target, tolerance = start - Fraction(1, 10), Fraction(1, 100)
    r = tune(game, target, tolerance=tolerance, gli11=None, method="proxy", time_limit=120)
    assert r.rank == "proxy" and r.figures.rtp_kind == "exact"
    _check(r, target, tolerance)
    assert _modifier_rtp(r.game) == r.figures.rtp == slotmath.analyze(r.game).rtp


def test_grid_games_tune_by_common_random_numbers_and_the_reference_agrees():
    game = slotmath.load_game(CLUSTER)
    target, tolerance = Fraction(3), Fraction(1, 10)
    r = tune_by_crn(game, Targets(target, tolerance, gli11=None), rounds=20_000,
                    confirm_rounds=50_000)
    assert r.rank == "crn"
    _check(r, target, tolerance)
    # the result's figures are the final game's analysis, not the estimates; the reference
    assert mean(round_law(r.game)) == r.figures.rtp == slotmath.analyze(r.game).rtp
    assert [len(x.symbols) for x in r.game.base.reels] == [len(x.symbols)
                                                          for x in game.base.reels]


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
              "megaways_bonanza": ("crn", None)}
    for name, (method, dropped) in expect.items():
        game = slotmath.load_game(ROOT / "data" / "games" / f"{name}.toml")
        assert default_method(game) == method, name
        found = proxy_game(game)
        assert (found[1] if found else None) == dropped, name


def test_ranges_and_bad_methods_are_refused_in_one_line():
    game = slotmath.load_game(CLUSTER)
    with pytest.raises(ValueError, match="hit_frequency range is not offered"):
        tune_by_crn(game, Targets(Fraction(3), Fraction(1, 10), hit_frequency=(0, 1)))
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
                        rounds=20_000, confirm_rounds=50_000) for _ in range(2)]
    assert runs[0].game == runs[1].game and runs[0].figures == runs[1].figures
    assert Path(CLUSTER).exists()
