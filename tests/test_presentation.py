"""How the PAR sheet presents its statistics (issue 12, item 4): intervals that respect a
win >= 0, one unit per table, hits per spin where "1 in N" is no frequency."""

from __future__ import annotations

import json
import math
from fractions import Fraction
from pathlib import Path

import pytest

import slotmath
from slotmath import report
from slotmath.exact.distribution import WinDistribution
from slotmath.stats.interval import EXACT_METHOD, mean_interval, rtp_intervals

GAMES = Path(__file__).resolve().parents[1] / "data" / "games"


def brute_interval(dist, spins: int, confidence: float) -> tuple[float, float]:
    """The central interval of the mean of ``spins`` rounds, by exact enumeration of the
    sum's law (dict convolution with Fractions: no FFT, no lattice)."""
    one = {int(c): Fraction(int(w), dist.total) for c, w in zip(dist.credits,
                                                                        dist.weights)}
    law = {0: Fraction(1)}
    for _ in range(spins):
        step: dict[int, Fraction] = {}
        for s, p in law.items():
            for c, q in one.items():
                step[s + c] = step.get(s + c, 0) + p * q
        law = step
    alpha = Fraction(1 - Fraction(str(confidence)), 2)
    total, low, high = Fraction(0), None, None
    for s in sorted(law):
        total += law[s]
        if low is None and total >= alpha:
            low = s
        if high is None and total >= 1 - alpha:
            high = s
    scale = spins * dist.credits_per_bet
    return low / scale, high / scale


@pytest.mark.parametrize("spins", [1, 3, 6])
def test_the_interval_is_the_exact_law_of_the_mean(spins):
    a = slotmath.analyze(slotmath.load_game(GAMES / "classic_3reel.toml"))
    assert a.distribution_exact
    for confidence in (0.90, 0.95):
        got = mean_interval(a.distribution, spins, confidence)
        assert (got.lower, got.upper) == pytest.approx(
            brute_interval(a.distribution, spins, confidence), abs=1e-12)
        assert got.resolution == 0.0 and got.method == EXACT_METHOD


def test_a_lattice_coarsened_interval_stays_within_its_resolution(monkeypatch):
    from slotmath.stats import interval

    d = WinDistribution.from_mapping({0: 60, 1: 25, 3: 10, 40: 4, 400: 1}, 1)
    fine = mean_interval(d, 40, 0.95)
    monkeypatch.setattr(interval, "MAX_BINS", 256)  # forces a coarser lattice
    coarse = mean_interval(d, 40, 0.95)
    assert coarse.resolution > 0
    assert coarse.lower <= fine.lower + 1e-12 and coarse.upper >= fine.upper - 1e-12
    assert fine.lower - coarse.lower <= 2 * coarse.resolution + 1e-12
    assert coarse.upper - fine.upper <= 2 * coarse.resolution + 1e-12


def test_no_interval_goes_below_zero():
    # GMF level 1, 1000 spins: the normal approximation's lower 95 % bound was -104.48 %
    frog = slotmath.analyze(slotmath.load_game(GAMES / "gold_money_frog.toml"), 1)
    lo, _ = frog.confidence_interval(1000, 0.95)
    assert lo == pytest.approx(-1.0448, abs=1e-4)  # what the normal approximation says
    doc = report.analysis_dict(frog)
    for row in doc["confidence_intervals"]:
        assert 0 <= row["95"][0] <= row["90"][0] <= frog.rtp_float <= row["90"][1] <= row["95"][1]
    assert "normal approximation, lower end cut at 0" in doc["confidence_intervals_method"]
    assert "jackpots" in doc["confidence_intervals_method"]  # and why
    text = report.par_sheet_text(frog)
    assert "-104.48" not in text and "method: normal approximation" in text


def test_a_skewed_game_gets_a_skewed_interval():
    # classic_3reel at 1000 rounds: the law of the mean, not the symmetric normal interval
    a = slotmath.analyze(slotmath.load_game(GAMES / "classic_3reel.toml"))
    i = rtp_intervals(a, [1000], [0.95])[1000, 0.95]
    lo, hi = a.confidence_interval(1000, 0.95)
    assert i.method == EXACT_METHOD
    assert i.lower > lo + 0.1 and i.upper > hi + 0.1  # right-skewed: both ends higher
    assert float(a.rtp) - i.lower < i.upper - float(a.rtp)


def _table(text: str, title: str) -> list[str]:
    block = text.split(title, 1)[1].split("\n\n", 1)[0]
    return block.splitlines()[2:]


def test_one_unit_per_table_labelled():
    # the summary was in %, the pay-table and jackpot rtp columns fractions, unlabelled
    frog = slotmath.analyze(slotmath.load_game(GAMES / "gold_money_frog.toml"), 4)
    text = report.par_sheet_text(frog)
    assert "Pay table (rtp in % of the total bet)" in text
    head, *rows = _table(text, "Pay table (rtp in % of the total bet)")
    assert head.split()[-2:] == ["rtp", "%"]
    total = sum(float(row.split()[-1]) for row in rows)
    assert total == pytest.approx(100 * float(frog.components["lines"]), rel=1e-5)
    jackpots = _table(text, "Jackpots: overview (currency EUR")
    assert "contribution %" in jackpots[0] and "rtp %" in jackpots[0]
    super_row = next(r for r in jackpots[1:] if r.split()[0] == "SUPER")
    assert float(super_row.split()[2]) == pytest.approx(4.0)  # contribution 4 %
    assert float(super_row.split()[3]) == pytest.approx(
        100 * frog.features["jackpots"].pools["SUPER"].rtp_contribution, rel=1e-5)
    sizes = _table(text, "Win sizes (bands in x bet; probability and rtp share in %)")
    assert sum(float(r.split()[-1]) for r in sizes[1:]) == pytest.approx(
        100 * float(frog.round.mean), rel=1e-4)


def test_a_pay_that_hits_more_than_once_a_spin_reads_in_hits_per_spin():
    # CHERRY x2 on 25 lines of classic_fruits hits 1.19 times a spin: "1 in 0.84" was shown
    fruits = slotmath.analyze(slotmath.load_game(GAMES / "classic_fruits.toml"))
    text = report.par_sheet_text(fruits)
    cherry = next(r for r in _table(text, "Pay table (rtp in % of the total bet)")
                  if r.split()[:2] == ["CHERRY", "2"])
    assert "1.19 per spin" in cherry and "1 in" not in cherry
    assert "1 in 0.84" not in text
    others = [r for r in _table(text, "Pay table (rtp in % of the total bet)")[1:]
              if r.split()[:2] != ["CHERRY", "2"]]
    assert all("1 in " in r for r in others)


def test_the_json_intervals_are_the_text_ones():
    a = slotmath.analyze(slotmath.load_game(GAMES / "tiny_lines.toml"))
    doc = json.loads(json.dumps(report.analysis_dict(a)))
    frame = report.confidence_frame(a)
    assert [r["95"] for r in doc["confidence_intervals"]] == [
        [lo, hi] for lo, hi in zip(frame["lower_95"], frame["upper_95"])]
    assert doc["confidence_intervals_method"] == frame.attrs["method"] == EXACT_METHOD
    assert all(math.isfinite(x) for r in doc["confidence_intervals"] for x in r["90"])
