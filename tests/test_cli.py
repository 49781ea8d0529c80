"""The command line: JSON contract, one-line errors with exit status 2, never a traceback."""

from __future__ import annotations

import json
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest
from strategies import JACKPOT_GAME

import slotmath
from slotmath.cli import main

ROOT = Path(__file__).resolve().parents[1]
TINY = str(ROOT / "data/games/tiny_lines.toml")


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_analyze_json_contract(capsys):
    code, out, err = run(capsys, "analyze", TINY, "--json")
    assert code == 0 and not err
    doc = json.loads(out)
    for key in ("name", "bet", "rtp", "rtp_float", "hit_frequency", "std", "components",
                "free_spins", "max_win"):
        assert key in doc
    rtp = Fraction(doc["rtp"]["exact"])  # every figure {"exact", "float"}: test_json_shape.py
    assert str(rtp) == doc["rtp"]["exact"]  # exact and reduced, like str(Fraction)
    assert doc["rtp_float"] == float(rtp) == doc["rtp"]["float"]
    assert sum(Fraction(v["exact"]) for v in doc["components"].values()) == rtp
    assert set(doc["components"]) == {"lines", "scatter", "free_spins"}
    fs = doc["free_spins"]
    for key in ("trigger_probability", "expected_spins", "expected_win"):
        Fraction(fs[key]["exact"])
    assert Fraction(fs["trigger_probability"]["exact"]) * Fraction(
        fs["expected_win"]["exact"]) == Fraction(doc["components"]["free_spins"]["exact"])
    assert set(doc["max_win"]) >= {"multiple", "probability"}
    analysis = slotmath.analyze(slotmath.load_game(TINY))
    assert rtp == analysis.rtp
    assert doc["std"]["float"] == pytest.approx(analysis.std, rel=1e-12)


def test_analyze_text(capsys):
    code, out, _ = run(capsys, "analyze", TINY)
    assert code == 0
    assert "PAR sheet: Tiny Lines" in out and "Pay table" in out


def test_simulate_json(capsys):
    code, out, _ = run(capsys, "simulate", TINY, "--spins", "20000", "--seed", "7", "--json")
    assert code == 0
    doc = json.loads(out)
    assert doc["spins"] == 20000
    assert set(doc) >= {"spins", "rtp", "std_error", "hit_frequency"}
    again = json.loads(run(capsys, "simulate", TINY, "--spins", "20000", "--seed", "7",
                           "--json")[1])
    assert again == doc  # seeded: the same run twice


@pytest.mark.parametrize("argv, fragment", [
    (["analyze", "missing.toml"], "missing.toml: no such file"),
    (["analyze", TINY, "--bet-level", "3"], "bet level 3"),
    (["simulate", TINY, "--spins", "0", "--seed", "1"], "--spins"),
    (["analyze"], "the following arguments are required"),
])
def test_bad_input_is_one_line_exit_2(capsys, argv, fragment):
    code, _, err = run(capsys, *argv)
    assert code == 2
    assert fragment in err
    assert err.count("\n") == 1 and "Traceback" not in err


def test_bad_jackpot_file_is_one_line_exit_2(tmp_path, capsys):
    # law = ["linear"] once escaped the loader as a TypeError: an internal error, exit 1
    assert JACKPOT_GAME.count('law = "linear"') == 1
    bad = tmp_path / "jackpot.toml"
    bad.write_text(JACKPOT_GAME.replace('law = "linear"', 'law = ["linear"]'), encoding="utf-8")
    code, out, err = run(capsys, "analyze", str(bad))
    assert code == 2 and out == ""
    assert err == (f"slotmath: error: {bad}: jackpots[0].law: must be one of 'constant', "
                   "'linear', 'saturating', got ['linear']\n")


def test_bad_game_file_through_the_console_script(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text('rows = 3\nbet = 1\nways = true\n[symbols]\nA = {}\n[reels]\nbase = [["A", "Q"]]\n')
    proc = subprocess.run([sys.executable, "-m", "slotmath.cli", "analyze", str(bad)],
                          capture_output=True, text=True, check=False)
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert proc.stderr.startswith("slotmath: error: ")
    assert str(bad) in proc.stderr and "reels.base[0][1]" in proc.stderr
    assert "'Q'" in proc.stderr and proc.stderr.count("\n") == 1


def test_json_of_a_game_whose_free_spins_can_never_trigger(capsys, tmp_path):
    # As a new user edits strips: the scatters leave reels 2-5 of the base set, so the three
    # scatters the trigger needs can never show. The JSON used to crash on the missing spins
    # distribution ('NoneType' object has no attribute 'exact'); the feature reads as zero.
    text = (ROOT / "data/games/classic_fruits.toml").read_text()
    head, rest = text.split("base = [\n", 1)
    block, tail = rest.split("\n]\n", 1)
    reels = block.split("\n")
    reels[1:] = [line.replace('"SC"', '"BELL"') for line in reels[1:]]
    path = tmp_path / "no_trigger.toml"
    path.write_text(head + "base = [\n" + "\n".join(reels) + "\n]\n" + tail)
    code, out, err = run(capsys, "analyze", str(path), "--json")
    assert code == 0 and all("can never land" in line for line in err.splitlines())  # dead pays
    doc = json.loads(out)
    fs = doc["free_spins"]
    assert fs["trigger_probability"]["exact"] == "0" and fs["rtp"]["exact"] == "0"
    assert "never" in fs["note"]
    assert doc["components"]["free_spins"]["exact"] == "0"
    assert Fraction(doc["rtp"]["exact"]) == Fraction(doc["components"]["lines"]["exact"]) + (
        Fraction(doc["components"]["scatter"]["exact"]))
    assert run(capsys, "analyze", str(path))[0] == 0


def test_analyze_progress_bar_shows_each_enumeration_and_changes_no_figure(capsys):
    code, plain, _ = run(capsys, "analyze", TINY, "--json")
    code_bar, with_bar, err = run(capsys, "analyze", TINY, "--json", "--progress")
    assert code == code_bar == 0
    assert json.loads(with_bar) == json.loads(plain)
    assert "enumerating base reels" in err and "enumerating free reels" in err


def test_progress_callback_hears_every_enumeration_to_its_end():
    heard: dict[str, list] = {}
    a = slotmath.analyze(slotmath.load_game(TINY), progress=lambda stage, done, total:
                         heard.setdefault(stage, []).append((done, total)))
    assert a.rtp == slotmath.analyze(slotmath.load_game(TINY)).rtp
    assert set(heard) == {"base reels", "free reels"}
    for calls in heard.values():
        assert calls[-1][0] == calls[-1][1] and [d for d, _ in calls] == sorted(d for d, _ in calls)


def test_a_bonus_wheel_no_round_can_reach_reports_its_jackpots_as_never_hit(capsys, tmp_path):
    # Gold Money Frog with the bonus symbol taken off reel 3 of both reel sets: three in a row
    # can never show, so no round spins the wheel. It used to stop with "chances: no round
    # ever has a chance to hit the pool" (exit 2); the jackpots read as zero with a note.
    lines = (ROOT / "data/games/gold_money_frog.toml").read_text().split("\n")
    strips = [i for i, line in enumerate(lines) if line.startswith('  ["')]
    third_reels = [strips[2], strips[7]]  # reel 3 of the base set and of the free-spin set
    for i in third_reels:
        lines[i] = lines[i].replace('"BONUS"', '"TEN"')
    path = tmp_path / "no_wheel.toml"
    path.write_text("\n".join(lines))
    code, out, err = run(capsys, "analyze", str(path), "--json")
    assert code == 0, err
    doc = json.loads(out)
    assert doc["jackpots"]["pools"] == {} and "no jackpot is ever hit" in doc["jackpots"]["note"]
    assert doc["components"]["jackpots"]["float"] == 0
    assert doc["components"]["bonus_wheel"]["float"] == 0
    assert {k: v["exact"] for k, v in doc["bonus_wheel"]["wheel_spins_per_spin"].items()} == {
        "base": "0", "free_spins": "0"}
    code, out, _ = run(capsys, "analyze", str(path))
    assert code == 0 and "never hit: no round can spin the bonus wheel" in out
