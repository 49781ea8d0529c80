"""Game modes (``[modes.NAME]``) through the reports and the command line, on a tiny
Link-style fixture (tests/data/link_modes.toml: free spins, hold & win also inside them, a
bonus buy of each, an ante on other reels).

Every figure is compared with the plain reference (tests/combined_reference.py, which
shares no code with the engine): each mode's RTP in the JSON ``modes`` section, in
``analyze --mode NAME --json`` and in the workbook's Modes sheet is the reference's mean
round win over the mode's cost, exactly; ``simulate --mode NAME`` agrees within 5 standard
errors. A mode that charged the base cost (1 bet) fails the same comparison.
"""

from __future__ import annotations

import json
import tomllib
from fractions import Fraction
from pathlib import Path

import pytest
from combined_reference import Reference, moments

import slotmath
from slotmath.cli import main
from slotmath.report.json_report import analysis_dict
from slotmath.report.sheets import par_sheets

FIXTURE = Path(__file__).parent / "data" / "link_modes.toml"


@pytest.fixture(scope="module")
def game():
    return slotmath.load_game(FIXTURE)


@pytest.fixture(scope="module")
def reference():
    data = tomllib.loads(FIXTURE.read_text())
    ref = Reference(data)
    out = {None: moments(ref.round_law(None))}
    for name, spec in data["modes"].items():
        mean, second, hits = moments(ref.round_law(spec))
        out[name] = (mean / Fraction(spec["cost"]), second, hits)
    return out


@pytest.fixture(scope="module")
def document(game):
    return analysis_dict(slotmath.analyze(game))


def run(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_the_json_modes_section_is_the_reference(document, reference):
    assert document["rtp"]["exact"] == str(reference[None][0])
    modes = document["modes"]
    assert set(modes) == {"buy_free", "buy_cash", "ante"}
    for name, figures in modes.items():
        rtp, _, hits = reference[name]
        assert figures["rtp"]["exact"] == str(rtp), name
        assert figures["hit_frequency"]["exact"] == str(hits), name
    assert modes["buy_free"]["cost"] == 10 and modes["ante"]["cost"] == 1.5
    assert modes["buy_cash"]["buys"] == "hold_and_win"
    assert modes["buy_cash"]["trigger"] == {"3": 2, "4": 1}
    assert "max_win" not in modes["buy_cash"]  # no paid spin
    # hold & win bought with 3 or 4 orbs: the top is a full grid of 20s and the grand (30)
    assert modes["buy_cash"]["round_max_win"]["multiple"]["exact"] == "150"


def test_a_mode_that_charged_the_base_cost_fails_the_reference(game, reference):
    """The mutation: the same round over a cost of 1 is not the mode's RTP."""
    m = slotmath.analyze(game).modes["buy_free"]
    assert m.rtp == reference["buy_free"][0]
    assert m.round.mean != reference["buy_free"][0]
    assert m.round.mean == reference["buy_free"][0] * 10


def test_analyze_mode_json_is_the_reference(capsys, reference):
    code, out, _ = run(capsys, "analyze", FIXTURE, "--mode", "buy_cash", "--json")
    assert code == 0
    d = json.loads(out)
    assert d["mode"] == {"name": "buy_cash", "cost": 15}
    assert d["rtp"]["exact"] == str(reference["buy_cash"][0])
    assert "modes" not in d


def test_analyze_text_lists_the_modes(capsys):
    code, out, _ = run(capsys, "analyze", FIXTURE)
    assert code == 0
    block = out[out.index("Game modes"):].split("\n\n")[0]
    assert all(name in block for name in ("(standard)", "buy_free", "buy_cash", "ante"))


@pytest.mark.parametrize("command", ["analyze", "simulate"])
def test_an_unknown_mode_is_one_line_and_exit_2(capsys, command):
    extra = ("--spins", "10", "--seed", "1") if command == "simulate" else ()
    code, _, err = run(capsys, command, FIXTURE, "--mode", "turbo", *extra)
    assert code == 2
    assert err.strip().count("\n") == 0
    assert "link_modes.toml: --mode: no game mode 'turbo'" in err and "buy_free" in err


@pytest.mark.parametrize("mode", ["buy_free", "buy_cash", "ante"])
def test_simulate_mode_agrees_with_the_reference(capsys, reference, mode):
    code, out, _ = run(capsys, "simulate", FIXTURE, "--mode", mode, "--spins", "20000",
                       "--seed", "21", "--json")
    assert code == 0
    d = json.loads(out)
    assert d["mode"] == {"name": mode, "cost": {"buy_free": 10, "buy_cash": 15, "ante": 1.5}[mode]}
    assert abs(d["rtp"] - float(reference[mode][0])) <= 5 * d["std_error"], (mode, d["rtp"])


def test_the_workbook_has_a_modes_sheet(game, reference):
    sheets = {s.name: s for s in par_sheets(slotmath.analyze(game))}
    frame = sheets["Modes"].table("Game modes").set_index("mode")
    for name in ("buy_free", "buy_cash", "ante"):
        assert frame.loc[name, "rtp_exact"] == str(reference[name][0])
    assert frame.loc["buy_free", "cost_x_bet"] == 10


def test_a_game_without_modes_has_no_modes_section_or_sheet():
    a = slotmath.analyze(slotmath.load_game("data/games/tiny_lines.toml"))
    assert "modes" not in analysis_dict(a)
    assert "Modes" not in {s.name for s in par_sheets(a)}


def test_check_across_modes_is_the_reference(game, reference):
    """``slotmath check``'s rules across modes: each mode's RTP, their spread and each
    bought hold & win's top award (a full grid of 20s and the grand), read off the
    reference's exact laws."""
    from slotmath.report import compliance

    r = compliance.check(game, ["modes"], limits={"modes.max_win_plays": 1e7})
    rows = {(f.rule, f.subject): f for f in r.findings}
    rtps = {"(standard)": reference[None][0]} | {k: v[0] for k, v in reference.items() if k}
    for name, rtp in rtps.items():
        assert rows["Modes: minimum RTP", f"mode {name}"].probability == str(rtp)
    spread = rows["Modes: RTP spread", "RTP spread over the modes"]
    assert spread.probability == str(max(rtps.values()) - min(rtps.values()))
    assert not spread.passed  # 995 % apart
    law = Reference(tomllib.loads(FIXTURE.read_text())).round_law(
        tomllib.loads(FIXTURE.read_text())["modes"]["buy_cash"])
    top = rows["Modes: max win odds", "mode buy_cash: top award 150 x bet"]
    assert abs(top.value - float(law[max(law)])) < 1e-12 and top.passed
    loose = compliance.check(game, ["modes"], limits={"modes.spread": 10})
    assert loose.passed  # the max win is not asked by default


def test_check_of_a_game_without_modes_has_no_modes_rules():
    from slotmath.report import compliance

    r = compliance.check(slotmath.load_game("data/games/tiny_lines.toml"))
    assert "modes" not in r.rule_sets and all(f.rule_set != "modes" for f in r.findings)
