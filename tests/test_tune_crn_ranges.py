"""Ranges by common random numbers (``slotmath.tune.crn``): the paired estimates of a
candidate's hit frequency and E[X^2] against the brute-force round law of that candidate
(``tests/grid_reference.py``, no engine code) and against an unpaired seeded run of it (another
seed; the simulator's own figures, none of the paired estimator's code), each within the
stated standard error of the paired difference; and the CLI's range met or reported missed,
checked by the round law of the file it wrote."""

from __future__ import annotations

import math
import re
from fractions import Fraction

from grid_reference import round_law

import slotmath
from slotmath.features.grid import owner_of
from slotmath.simulate.grid import grid_blocks, simulate_grid
from slotmath.tune.crn import PAIRED_BLOCK, block_figures, paired_change, swap, tune_by_crn
from slotmath.tune.solver import Targets, summary_text
from tests.bundled import ROOT
from tests.test_tune_all import _megaways_with_free_spins

MEGAWAYS = ROOT / "tests" / "data" / "grid" / "megaways_tumbles_tiny.toml"
CLUSTER = ROOT / "tests" / "data" / "grid" / "cluster_tiny.toml"
LIMIT = 900


def _exact(law: dict) -> dict:
    """RTP, hit frequency and E[X^2] of a round law {win: probability}, in fractions."""
    return {"rtp": sum(w * p for w, p in law.items()),
            "hit_frequency": sum(p for w, p in law.items() if w > 0),
            "second_moment": sum(w * w * p for w, p in law.items())}


def _swapped(game, reel: int, a: str, b: str):
    reels = list(game.base.reels)
    reels[reel] = swap(reels[reel], a, b)
    return game.replace_reels("base", tuple(reels))


def test_paired_estimates_against_the_round_law_and_an_unpaired_run():
    """One stop A->B on reel 1 of the tumbling Megaways fixture: the anchor's exact figures
    plus the paired change (200,000 rounds, one seed for both strips) against the candidate's
    exact figures and against an unpaired run of the candidate on another seed, within 4
    stated standard errors; the pairing's error is well under two independent runs'."""
    game = slotmath.load_game(MEGAWAYS)
    candidate = _swapped(game, 0, "A", "B")
    rounds = 200_000
    old = block_figures(grid_blocks(game, rounds=rounds, seed=5, block=PAIRED_BLOCK))
    new = block_figures(grid_blocks(candidate, rounds=rounds, seed=5, block=PAIRED_BLOCK))
    d = paired_change(new, old)
    before, after = _exact(round_law(game)), _exact(round_law(candidate))
    unpaired = simulate_grid(candidate, rounds=rounds, seed=977)
    simulated = {"rtp": unpaired.rtp, "hit_frequency": unpaired.hit_frequency,
                 "second_moment": float(unpaired.variance) + float(unpaired.rtp) ** 2}
    # E[X^2]'s simulated error: the sample SD of X^2 over sqrt(n), from the run's moments
    m2, m4 = (float(unpaired.sums.floats[0, i]) / rounds for i in (0, 2))
    errors = {"rtp": unpaired.rtp.std_error, "hit_frequency": unpaired.hit_frequency.std_error,
              "second_moment": math.sqrt(max(m4 - m2 * m2, 0.0) / rounds)}
    for name in ("rtp", "hit_frequency", "second_moment"):
        change, se = d[name]
        assert 0 < se < math.inf, name
        estimate = float(before[name]) + change
        assert abs(estimate - float(after[name])) < 4 * se, (name, estimate, after[name], se)
        assert abs(estimate - float(simulated[name])) < 4 * math.hypot(se, errors[name]), name
        # the true change is not 0: the estimate sees it (else the test could not fail)
        assert abs(float(after[name] - before[name])) > 4 * se, name
        # pairing: the difference's error is a fraction of two independent runs'
        assert se < math.sqrt(2) * errors[name], (name, se, errors[name])


def test_the_estimates_on_the_paid_game_carry_the_free_spins():
    """Megaways with a free spin on its own reels (the runs pair on the game without it):
    the first confirmed swap's estimates of the hit frequency, E[X^2] and the trigger
    probability against the swapped game's exact figures (the round law; the trigger by
    the exact analysis), within 4 of their stated errors plus the first-order model's slack
    (the free spins' share per trigger held at the anchor's: 3 standard errors of one
    unpaired run of the whole game, as for the RTP in test_tune_all)."""
    game = _megaways_with_free_spins()
    rounds = 50_000
    r = tune_by_crn(game, Targets(Fraction(3, 2), Fraction(1, 10), hit_frequency=(0, 1),
                                  gli11=None),
                    anchors=1, rounds=20_000, confirm_rounds=rounds, time_limit=LIMIT)
    assert "on the game without its free spins" in r.method
    step = r.steps[0]
    sw, reels = step.swap, list(game.reel_sets["base"].reels)
    for j in range(len(reels)) if sw.reel < 0 else (sw.reel,):
        reels[j] = swap(reels[j], sw.a, sw.b, sw.k)
    swapped = game.replace_reels("base", tuple(reels))
    exact = _exact(round_law(swapped))
    exact["trigger"] = owner_of(slotmath.analyze(swapped).composition).free_spins[
        "trigger_probability"]
    whole = simulate_grid(swapped, rounds=rounds, seed=11)
    m2, m4 = (float(whole.sums.floats[0, i]) / rounds for i in (0, 2))
    slack = {"rtp": whole.rtp.std_error, "hit_frequency": whole.hit_frequency.std_error,
             "second_moment": math.sqrt(max(m4 - m2 * m2, 0.0) / rounds),
             "trigger": whole.trigger_rate.std_error}
    start = _exact(round_law(game))
    for name in ("rtp", "hit_frequency", "second_moment", "trigger"):
        value, se = step.estimates[name]
        assert se < math.inf, name
        assert abs(value - float(exact[name])) < 4 * se + 3 * slack[name], (
            name, value, float(exact[name]), se, slack[name])
    # the swap moved E[X^2] by more than the bar: the estimate is not the start's figure
    assert abs(float(exact["second_moment"] - start["second_moment"])) > (
        4 * step.estimates["second_moment"][1] + 3 * slack["second_moment"])


def _cli(tmp_path, capsys, path, *options):
    from slotmath.cli import main

    out = tmp_path / "tuned.toml"
    code = main(["tune", str(path), "--no-gli11", "--method", "crn", "--time-limit",
                 str(LIMIT), "--out", str(out), *options])
    printed = capsys.readouterr()
    assert "Traceback" not in printed.err
    return code, printed, out


def test_cli_range_met(tmp_path, capsys):
    """``slotmath tune --method crn --hit-frequency``: on the tumbling Megaways fixture a range
    below the start (78.1 %) is met, exit 0, and the written file's hit frequency by the round
    law is in it; the steps show each estimate with its standard error."""
    code, printed, out = _cli(tmp_path, capsys, MEGAWAYS, "--target-rtp", "151.5",
                              "--tolerance", "30", "--hit-frequency", "0.63:0.73")
    assert code == 0, printed.out + printed.err
    assert re.search(r"hit_frequency +met", printed.out), printed.out
    law = _exact(round_law(slotmath.load_game(out)))
    assert Fraction(63, 100) <= law["hit_frequency"] <= Fraction(73, 100)
    assert abs(law["rtp"] - Fraction(1515, 1000)) <= Fraction(30, 100)
    assert re.search(r"hit frequency \d+\.\d{4}% \+-\d\.\d{4}", printed.err), printed.err


def test_a_range_no_swap_reaches_is_reported_missed():
    """On the cluster fixture (a one-stop swap moves its hit frequency 9 points) a range no
    swap reaches: not met, and the summary's miss is the round law's distance of the game
    returned from the range."""
    game = slotmath.load_game(CLUSTER)
    targets = Targets(Fraction(199, 80), Fraction(1, 10),
                      hit_frequency=(Fraction(54, 100), Fraction(64, 100)), gli11=None)
    r = tune_by_crn(game, targets, rounds=20_000, confirm_rounds=50_000, time_limit=LIMIT)
    assert not r.met
    law = _exact(round_law(r.game))
    missed = float(law["hit_frequency"] - Fraction(64, 100)) * 100
    assert missed > 0 and law["hit_frequency"] == r.figures.hit_frequency
    found = re.search(r"hit_frequency +NOT met: misses by ([0-9.]+) points",
                      summary_text(r, targets))
    assert found and abs(float(found.group(1)) - missed) < 1e-6, (found, missed)


def test_volatility_index_range_by_crn():
    """An SD range (the CLI's --volatility-index / 1.645) by crn on the Megaways fixture:
    met, and the tuned game's SD by the round law in it; the steps show the SD's estimate
    with its standard error."""
    game = slotmath.load_game(MEGAWAYS)
    start = _exact(round_law(game))
    sd = math.sqrt(start["second_moment"] - start["rtp"] ** 2)  # 2.2515
    lo, hi = sd - 0.3, sd - 0.05
    r = tune_by_crn(game, Targets(Fraction(1515, 1000), Fraction(3, 10), sd=(lo, hi),
                                  gli11=None), rounds=20_000, confirm_rounds=100_000,
                    time_limit=LIMIT)
    law = _exact(round_law(r.game))
    tuned = math.sqrt(law["second_moment"] - law["rtp"] ** 2)
    assert r.met and lo <= tuned <= hi, (r.misses, tuned)
    assert abs(law["rtp"] - Fraction(1515, 1000)) <= Fraction(3, 10)
    assert law["rtp"] == r.figures.rtp
    assert all(re.search(r"SD \d+\.\d{4} \+-\d+\.\d{4}", s.line()) for s in r.steps)


def test_feature_one_in_range_by_crn():
    """A free spins' "1 in N" range on the Megaways fixture with a free spin (2 scatters in
    the paid spin's final window start it; the runs pair on the game without it, counting
    the scatters): met, and the tuned game's trigger probability by the reference's spin law
    (every stop and refill) in the range; the start's is not."""
    from grid_reference import spin_law

    def one_in(game) -> float:
        p = sum(q for (trigger, _), q in spin_law(game).items() if trigger >= 2)
        return float(1 / p)

    game = _megaways_with_free_spins()
    start = one_in(game)  # 2.49
    lo, hi = 1.1 * start, 1.5 * start
    r = tune_by_crn(game, Targets(Fraction(3, 2), Fraction(1, 5), feature_one_in=(lo, hi),
                                  gli11=None),
                    rounds=20_000, confirm_rounds=100_000, time_limit=LIMIT)
    assert r.met, r.misses
    assert lo <= one_in(r.game) <= hi
    assert abs(one_in(r.game) - float(1 / r.figures.feature_probability)) < 1e-9
    assert abs(_exact(round_law(r.game))["rtp"] - Fraction(3, 2)) <= Fraction(1, 5)


def test_a_swap_undone_for_gli11_leaves_the_figures_of_the_search(monkeypatch):
    """GLI-11 held: a kept swap that breaks an award is undone, and the game returned is an
    earlier kept one, whose figures are its analysis' as the search reads them: the free
    spins' trigger probability included (a plain re-read left it 0, so a feature range was
    judged on '1 in infinity'). The compliance check is replaced by one that fails only the
    last kept game, so the undo stops at the one before it."""
    from slotmath.tune import crn
    from slotmath.tune.awards import Awards

    game = _megaways_with_free_spins()
    bad = []

    def awards(g, limit):
        reels = g.reel_sets["base"].reels
        if reels != game.reel_sets["base"].reels and not bad:
            bad.append(reels)  # the first check of a tuned game: the search's last kept
        return Awards({"top": Fraction(1, 10**9 if reels in bad else 10)}, limit)

    monkeypatch.setattr(crn, "awards", awards)
    r = tune_by_crn(game, Targets(Fraction(1), Fraction(1, 100), gli11=10**8), anchors=1,
                    rounds=20_000, confirm_rounds=20_000, time_limit=LIMIT)
    kept = [s for s in r.steps if s.kept]
    assert len(kept) >= 2 and r.undone == 1, (len(kept), r.undone)
    returned = r.game.reel_sets["base"].reels
    assert bad and returned != bad[0] and returned != game.reel_sets["base"].reels
    trigger = owner_of(slotmath.analyze(r.game).composition).free_spins["trigger_probability"]
    assert float(r.figures.feature_probability) == float(trigger) > 0
