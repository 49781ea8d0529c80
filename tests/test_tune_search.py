"""The search path of the inverse solver (slotmath.tune.search): games the window tables do not
cover (cascades, grid games, the conveyor, modifiers) tuned by single and paired moves, each
confirmed by the game's own analysis.

Every tuned game here is checked by a brute-force reference that shares no engine code:
tests/cascade_reference.py (written from the cascade spec; it reads the tuned game's TOML
text) for the cascading lines fixture, tests/grid_reference.py (written from the format's
grid section) for the cluster fixture. The layout rules are measured on the tuned strips
here, and an unreachable target's miss is checked against the reference's RTP.
"""

from __future__ import annotations

import tomllib
from fractions import Fraction

import pytest
from cascade_reference import figures as cascade_figures
from grid_reference import mean, round_law

import slotmath
from slotmath.cli import main
from slotmath.tune import tune
from slotmath.tune.game_file import tuned_text
from slotmath.tune.search import SearchResult, SearchStep, default_rank, search
from slotmath.tune.solver import Targets, summary_text
from tests.bundled import ROOT

CASCADE = ROOT / "tests" / "data" / "cascades" / "tiny_lines.toml"
CLUSTER = ROOT / "tests" / "data" / "grid" / "cluster_tiny.toml"


def cascade_reference_rtp(result) -> Fraction:
    """The tuned game's RTP by the plain cascade reference, from the file text the solver
    writes (tomllib, no slotmath model)."""
    return cascade_figures(tomllib.loads(tuned_text(CASCADE, result.game, "base"))).rtp


def test_cascade_fixture_tunes_to_a_target_by_exact_ranking():
    game = slotmath.load_game(CASCADE)
    start = cascade_figures(tomllib.loads(CASCADE.read_text())).rtp
    target, tolerance = Fraction(15), Fraction(1, 4)
    r = tune(game, target, tolerance=tolerance, time_limit=120)
    assert isinstance(r, SearchResult) and r.rank == "exact"
    assert r.start.rtp == start  # the start is the reference's too
    assert r.met, summary_text(r, r.targets)
    rtp = cascade_reference_rtp(r)
    assert rtp == r.figures.rtp and abs(rtp - target) <= tolerance
    assert r.game.base.reels != game.base.reels
    assert r.kept == sum(s.kept for s in r.steps) >= 1
    assert r.awards is not None and not r.awards.failing  # GLI-11 by the compliance check
    assert all(isinstance(s, SearchStep) for s in r.steps)
    # every kept step lowered the miss: the RTPs of kept steps get closer to the target
    kept = [s for s in r.steps if s.kept]
    gaps = [abs(r.start.rtp - target)] + [abs(s.rtp_after - target) for s in kept]
    assert gaps == sorted(gaps, reverse=True)


def test_cascade_fixture_tunes_by_paired_simulation():
    game = slotmath.load_game(CASCADE)
    assert default_rank(game, "base") == "exact"
    r = search(game, Targets(Fraction(15), Fraction(1, 4)), rank="paired", rounds=20_000,
               time_limit=300)
    assert r.rank == "paired" and r.met
    assert r.estimates >= 2 * len(game.base.reels)
    assert cascade_reference_rtp(r) == r.figures.rtp


def test_layout_rules_hold_on_the_tuned_strips():
    game = slotmath.load_game(CASCADE)
    r = tune(game, Fraction(15), tolerance=Fraction(1, 4), layout={"spacing": {"A": 3}},
             gli11=None, time_limit=120)
    assert r.met
    for reel in r.game.base.reels:
        stops = [i for i, s in enumerate(reel.symbols) if s == "A"]
        n = len(reel.symbols)
        for i in stops:
            for j in stops:
                if i < j:
                    assert min(j - i, n - (j - i)) >= 3, reel.symbols
    assert cascade_reference_rtp(r) == r.figures.rtp


def test_grid_fixture_tunes_and_the_reference_agrees():
    game = slotmath.load_game(CLUSTER)
    assert mean(round_law(game)) == slotmath.analyze(game).rtp  # the reference reads it
    target, tolerance = Fraction(2), Fraction(1, 10)
    for how in ("exact", "crn"):
        r = search(game, Targets(target, tolerance, gli11=None), rank=how, rounds=20_000,
                   time_limit=300)
        assert r.met and r.rank == how
        rtp = mean(round_law(r.game))
        assert rtp == r.figures.rtp and abs(rtp - target) <= tolerance


def test_an_unreachable_target_says_by_how_much_and_returns_the_closest_game():
    game = slotmath.load_game(CASCADE)
    target, tolerance = Fraction(19), Fraction(1, 100_000)
    r = tune(game, target, tolerance=tolerance, gli11=None, time_limit=60)
    assert not r.met and r.stopped in ("no move helps", "time limit")
    rtp = cascade_reference_rtp(r)
    assert rtp == r.figures.rtp and rtp > r.start.rtp  # closer than the start
    assert r.misses["rtp"] == abs(rtp - target) - tolerance
    text = summary_text(r, r.targets)
    assert f"rtp           NOT met: misses by {float(r.misses['rtp']) * 100:.6g} points" in text
    assert "method        search (exact)" in text


def test_time_limit_zero_returns_the_start():
    game = slotmath.load_game(CASCADE)
    r = tune(game, Fraction(15), tolerance=Fraction(1, 4), gli11=None, time_limit=0)
    assert r.stopped == "time limit" and r.steps == [] and r.game == game
    assert not r.met


def test_a_feature_range_is_refused_in_one_line():
    game = slotmath.load_game(CASCADE)
    with pytest.raises(ValueError, match="not offered for games tuned by search"):
        tune(game, Fraction(15), feature_one_in=(10, 20))
    with pytest.raises(ValueError, match="changes counts only"):
        tune(game, Fraction(15), moves="weights")


def test_cli_tunes_a_cascade_game_and_writes_the_closest_game(tmp_path, capsys):
    out = tmp_path / "tuned.toml"
    code = main(["tune", str(CASCADE), "--target-rtp", "900", "--no-gli11",
                 "--time-limit", "60", "--out", str(out)])
    printed = capsys.readouterr()
    assert code == 1
    assert "rtp           NOT met: misses by" in printed.out
    assert "method        search (exact)" in printed.out
    assert "search step 1:" in printed.err
    written = tomllib.loads(out.read_text())
    rtp = cascade_figures(written).rtp
    assert f"wrote {out}: exact RTP {rtp} =" in printed.out
    assert rtp < cascade_figures(tomllib.loads(CASCADE.read_text())).rtp  # closer to 9
