"""Jingle Spin: the bundled conveyor game hits its target RTP, and its JSON says what the
issue asks (checked against figures derived independently from the game file)."""

from __future__ import annotations

import json
from fractions import Fraction
from math import comb
from pathlib import Path

import pytest

import slotmath
from slotmath.cli import main
from slotmath.exact.direct import direct_method
from slotmath.exact.random_wilds import WildLines
from slotmath.io.toml_loader import loads_game

ROOT = Path(__file__).resolve().parents[1]
JINGLE = ROOT / "data/games/jingle_spin.toml"
TINY = ROOT / "tests/data/conveyor_tiny.toml"


@pytest.fixture(scope="module")
def doc():
    import io
    from contextlib import redirect_stdout

    out = io.StringIO()
    with redirect_stdout(out):
        assert main(["analyze", str(JINGLE), "--json"]) == 0
    return json.loads(out.getvalue())


def test_stationary_rtp_hits_the_target(doc):
    game = slotmath.load_game(JINGLE)
    assert game.target_rtp == 96
    assert abs(100 * doc["rtp_float"] - float(game.target_rtp)) <= 0.01
    assert doc["rtp_error"] < 1e-9
    assert sum(doc["components_float"].values()) == pytest.approx(doc["rtp_float"], abs=1e-12)
    assert sorted(doc["components"]) == ["coin_win", "free_spins", "lines", "spreading_wild"]
    for name in ("lines", "spreading_wild", "coin_win"):  # exact, as "p/q"
        assert float(Fraction(doc["components"][name]["exact"])) == doc["components_float"][name]


def test_stationary_law_is_the_wheels_slot_by_slot(doc):
    """Baubles are kept, so each slot holds the delivery of a different earlier spin: the
    slots are independent, each with the wheel's law (derived here from the file alone)."""
    game = slotmath.load_game(JINGLE)
    c = game.conveyor
    total = c.empty_weight + sum(w for _, w in c.wheel)
    empty = Fraction(c.empty_weight, total)
    held = doc["stationary"]["holding"]
    for k in range(6):
        assert Fraction(held[str(k)]["exact"]) == comb(5, k) * (1 - empty)**k * empty**(5 - k)
    for slot in doc["stationary"]["by_position"]:
        assert Fraction(slot["empty"]["exact"]) == empty
        for b, w in c.wheel:
            assert Fraction(slot[b.label]["exact"]) == Fraction(w, total)


def test_visible_states_reset_curve_and_advantage_play(doc):
    by_state, reset, ap = doc["rtp_by_visible_state"], doc["rtp_from_reset"], doc["advantage_play"]
    assert by_state["mean"] == pytest.approx(doc["rtp_float"], rel=1e-12)
    assert ap["max_visible_state_rtp"] == by_state["best"]["rtp"]
    # the empty conveyor pays its line wins only: the first spin from reset is exactly that
    assert reset["N"]["1"] == pytest.approx(doc["components_float"]["lines"], rel=1e-14)
    curve = [reset["N"][str(n)] for n in (1, 10, 100, 1000)]
    assert curve == sorted(curve) and curve[-1] < doc["rtp_float"]
    assert curve[-1] == pytest.approx(doc["rtp_float"], abs=2e-3)
    assert ap["any_state_above_100"] == (ap["probability_above_100"] > 0)
    assert 0 < ap["probability_above_100"] < 1


def test_wild_lines_without_wilds_is_the_direct_method():
    """A second, independent engine for the line win: with no random wilds the wild-line
    engine must give exactly the existing direct method's line RTP."""
    text = JINGLE.read_text().replace("[94, 2, 2, 2]", "[1, 0, 0, 0]")
    game = loads_game(text)
    assert WildLines(game, "base").mean([0] * 5) == direct_method(game, "base", 1).components[
        "lines"]


def test_simulate_cli_plays_the_conveyor(capsys):
    assert main(["simulate", str(TINY), "--spins", "3000", "--seed", "5", "--json"]) == 0
    sim = json.loads(capsys.readouterr().out)
    rtp = slotmath.analyze(slotmath.load_game(TINY)).rtp_float
    assert abs(sim["rtp"] - rtp) <= 4 * sim["std_error"]
    assert sorted(sim["components"]) == ["coin_win", "free_spins", "lines", "spreading_wild"]


def test_analyze_text_of_a_conveyor_game(capsys):
    assert main(["analyze", str(TINY)]) == 0
    out = capsys.readouterr().out
    assert "Conveyor: RTP from the empty conveyor" in out and "hit frequency" in out


def test_the_figures_do_not_depend_on_the_bet_level():
    """Line pays and coin values both scale with the level: the wild-line engine (the only
    level-dependent part) gives the same means at levels 1 and 10, so one golden file (level
    1) stands for all ten."""
    game = slotmath.load_game(JINGLE)
    one, ten = WildLines(game, "base", 1), WildLines(game, "base", 10)
    for spread in ([0] * 5, [1, 0, Fraction(1, 3), 0, 1]):
        assert one.mean(spread) == ten.mean(spread)
    from slotmath.features.conveyor import ConveyorFeature
    assert ConveyorFeature(game, 10).effect(6).coin == ConveyorFeature(game, 1).effect(6).coin


def test_the_json_has_the_round_figures_of_a_par_sheet(doc):
    """Hit frequency, SD, volatility index, top award, win sizes and confidence intervals
    are in the document (no longer under not_computed), each saying what it means; the
    exact ones as exact text."""
    for key in ("hit_frequency", "std", "variance", "volatility_index", "max_win",
                "win_sizes", "confidence_intervals"):
        assert key in doc and key not in doc["not_computed"]
    assert doc["hit_frequency"]["exact"] is None  # the free spins' P(win = 0) is numerical
    assert 0 < doc["hit_frequency_error"] < 1e-12 and 0 < doc["variance_error"] < 1e-8
    assert Fraction(doc["base_hit_frequency"]["exact"]) > doc["hit_frequency_float"] - 0.05
    top = doc["max_win"]
    assert Fraction(top["multiple"]["exact"]) == Fraction(28612, 20)
    assert top["one_in"] == pytest.approx(1 / float(Fraction(top["probability"]["exact"])))
    assert "no upper bound" in top["scope"]
    bands = doc["win_sizes"]
    assert bands[-1]["band"] == "free spins"
    assert sum(Fraction(b["probability"]["exact"]) for b in bands) == 1
    assert sum(b["rtp_share"]["float"] for b in bands) == pytest.approx(doc["rtp_float"],
                                                                         rel=1e-12)
    c = doc["consecutive_rounds"]
    assert c["asymptotic_std"] > doc["std"]["float"]  # neighbouring rounds move together
    ci = doc["confidence_intervals"]
    half = [(x["95"][1] - x["95"][0]) / 2 for x in ci]
    assert half[0] == pytest.approx(1.959964 * c["asymptotic_std"] / 1000**0.5, rel=0.01)
    assert half[-1] == pytest.approx(1.959964 * c["asymptotic_std"] / 1e4, rel=1e-6)
