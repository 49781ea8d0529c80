"""``slotmath player FILE`` (issue 26 item 2 on the command line): the player's view as text
and JSON, checked on a hand-worked game against figures worked out by hand and against the
plain brute-force ruin of tests/player_reference.py (every sequence of outcomes); bad input is
one line with exit 2."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest
from player_reference import brute_ruin

from slotmath.cli import main

# 3 reels of A, B, B; one line; A A A pays 10 bets, with probability 1/27; nothing else pays.
HAND = """
name = "Hand"
rows = 1
bet = 1
paylines = [[0, 0, 0]]
[symbols]
A = { pays = { 3 = 10 } }
B = {}
[reels]
base = [["A", "B", "B"], ["A", "B", "B"], ["A", "B", "B"]]
"""
P_WIN = Fraction(1, 27)


@pytest.fixture
def hand(tmp_path):
    path = tmp_path / "hand.toml"
    path.write_text(HAND)
    return str(path)


def run(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_json_against_hand_worked_figures_and_brute_force(hand, capsys):
    code, out, err = run(capsys, "player", hand, "--rounds", "5", "--rounds", "1e2",
                         "--ruin", "3,6", "--ruin", "1,4", "--cycle", "2.5", "--json")
    assert code == 0, err
    doc = json.loads(out)
    assert Fraction(doc["rtp"]["exact"]) == 10 * P_WIN
    # 1440 rounds an hour, each losing 1 - 10/27 bets on average
    assert Fraction(doc["expected_loss_per_hour"]["exact"]) == 1440 * (1 - 10 * P_WIN)
    # no round pays more than nothing and at most the stake
    assert Fraction(doc["losses_disguised_as_wins"]["value"]["exact"]) == 0
    sessions = {s["rounds"]: s for s in doc["sessions"]}
    assert sorted(sessions) == [5, 100]
    # ahead after n rounds: at least one win (10 k > n for every k >= 1 when n < 10)
    ahead, exact = sessions[5]["ahead"], float(1 - (1 - P_WIN) ** 5)
    assert ahead["lower"] <= exact <= ahead["upper"]  # an FFT power, with its bounds
    assert ahead["upper"] - ahead["lower"] < 1e-9 and "FFT" in ahead["method"]
    assert abs(ahead["normal"] - exact) > 0.05  # the normal approximation is off by 5 points
    # even after 100 rounds: exactly 10 wins of 10 bets
    from math import comb
    even = Fraction(comb(100, 10)) * P_WIN**10 * (1 - P_WIN) ** 90
    assert abs(sessions[100]["even"]["value"]["float"] - float(even)) <= 1e-12
    ruin = {(r["bankroll"], r["rounds"]): r["probability"] for r in doc["ruin"]}
    for (b, n), f in ruin.items():
        expected = brute_ruin({10: 1, 0: 26}, 1, b, n)
        assert Fraction(f["value"]["exact"]) == expected, (b, n)
    assert Fraction(ruin[1, 4]["value"]["exact"]) == 1 - P_WIN  # a bankroll of one bet


def test_text(hand, capsys):
    code, out, err = run(capsys, "player", hand, "--rounds", "5", "--ruin", "3,6")
    assert code == 0 and not err
    assert out.startswith("Player's view: Hand (bet level 1), RTP 37.037037%")
    assert "expected loss per hour at 2.5 s a round (1,440 rounds): 906.6667 bets" in out
    assert f"P(ahead) {float(1 - (1 - P_WIN) ** 5):.6%}; normal" in out
    assert "risk of ruin, bankroll 3 bets within 6 rounds:" in out


@pytest.mark.parametrize("argv, says", [
    (["--rounds", "0"], "--rounds"),
    (["--rounds", "2.5"], "whole number"),
    (["--ruin", "5"], "BANKROLL,ROUNDS"),
    (["--ruin", "0,5"], "--ruin"),
    (["--cycle", "0", "--rounds", "5", "--ruin", "1,1"], "--cycle"),
    (["--bet-level", "3"], "bet level 3"),
])
def test_bad_input_is_one_line_exit_2(hand, capsys, argv, says):
    code, out, err = run(capsys, "player", hand, *argv)
    assert code == 2 and not out
    assert err.count("\n") == 1 and says in err and "Traceback" not in err


def test_a_missing_file(tmp_path, capsys):
    code, _, err = run(capsys, "player", tmp_path / "none.toml")
    assert code == 2 and err.count("\n") == 1 and "none.toml" in err
