"""Hand-computed tiny boards for the reference pay rules (:class:`PayModel`).

Every expected value is worked out by hand in the comment next to it, in the units of the
game file and then in credits (``PayModel.credits_per_bet`` credits = one total bet).
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from slotmath import loads_game
from slotmath.evaluate.window import PayModel, window_at


def _game(body: str, symbols: str, strip: str):
    """A game whose every reel is ``strip`` (the boards below are given directly)."""
    return loads_game(f"{body}\n[symbols]\n{symbols}\n[reels]\nbase = {strip}\n")


def _board(*columns: str):
    """``_board("A W", "B")``: a window given reel by reel, rows top to bottom."""
    return tuple(tuple(column.split()) for column in columns)


# -- lines: the highest combination per line -------------------------------------------------

FIVE_REEL_LINE = _game(
    "rows = 1\nbet = 1\npaylines = [[0, 0, 0, 0, 0]]",
    """W = { wild = true, pays = { 3 = 50, 4 = 200, 5 = 1000 } }
A = { pays = { 3 = 10, 4 = 40, 5 = 100 } }
X = {}""",
    '[["W", "A", "X"], ["W", "A", "X"], ["W", "A", "X"], ["W", "A", "X"], ["W", "A", "X"]]',
)


@pytest.mark.parametrize(
    "line, credits, key, count",
    [
        # wild run 3 pays 50; A-or-wild run 4 pays 40: the wild run wins.
        ("W W W A X", 50, "W", 3),
        # wild run 2 pays nothing; A-or-wild run 5 pays 100.
        ("W W A A A", 100, "A", 5),
        # wild run 4 pays 200 > A-or-wild run 5 paying 100.
        ("W W W W A", 200, "W", 4),
        # A run of 3 (A, W, W); the wilds after X do not count.
        ("A W W X W", 10, "A", 3),
        # lines pay from reel 1 only.
        ("X W W W W", 0, None, 0),
        # a run of 2 is not in the pay table.
        ("A A X A A", 0, None, 0),
    ],
)
def test_line_pays_the_highest_combination(line, credits, key, count):
    model = PayModel(FIVE_REEL_LINE)
    assert model.credits_per_bet == 1  # one line, bet 1: a line bet is a total bet
    win = model.line_win(line.split())
    assert (win.credits, win.key, win.count) == (credits, key, count)


# -- wild substitution exclusions ------------------------------------------------------------

RESTRICTED = _game(
    "rows = 1\nbet = 1\npaylines = [[0, 0, 0]]",
    """W = { wild = true, substitutes = ["A"] }
S = { scatter = true, pays = { 3 = 5 } }
BN = { bonus = true }
A = { pays = { 3 = 10 } }
B = { pays = { 3 = 20 } }""",
    '[["W", "S", "BN", "A", "B"], ["W", "S", "BN", "A", "B"], ["W", "S", "BN", "A", "B"]]',
)


@pytest.mark.parametrize(
    "board, credits",
    [
        (_board("A", "W", "A"), 10),  # W stands in for A: A A A pays 10
        (_board("B", "W", "B"), 0),  # W may not stand in for B: B's run is 1
        (_board("B", "B", "B"), 20),  # B B B pays 20
        (_board("S", "W", "S"), 0),  # no line through scatters; 2 scatters pay nothing
        (_board("S", "S", "S"), 5),  # 3 scatters: 5 total bets = 5 credits; no line win
        (_board("BN", "W", "BN"), 0),  # wilds never stand in for bonus symbols
    ],
)
def test_wild_substitution_exclusions(board, credits):
    model = PayModel(RESTRICTED)
    assert model.key_members["A"] == {"A", "W"}
    assert model.key_members["B"] == {"B"}
    assert model.spin_win(board) == credits


# -- multiplier wilds compound on a line -----------------------------------------------------

MULTIPLIERS = _game(
    "rows = 1\nbet = 1\npaylines = [[0, 0, 0, 0, 0]]",
    """W = { wild = true, multiplier = 2 }
W3 = { wild = true, multiplier = 3 }
A = { pays = { 3 = 10, 4 = 40, 5 = 100 } }
X = {}""",
    '[["W", "W3", "A", "X"], ["W", "W3", "A", "X"], ["W", "W3", "A", "X"], '
    '["W", "W3", "A", "X"], ["W", "W3", "A", "X"]]',
)


@pytest.mark.parametrize(
    "line, credits",
    [
        ("A W W A X", 40 * 2 * 2),  # A run 4 with two x2 wilds: 40 x 4 = 160
        ("A W A X X", 10 * 2),  # A run 3 with one x2 wild: 20
        ("A W W3 A A", 100 * 2 * 3),  # A run 5 with x2 and x3: 600
        ("W W W W W", 100 * 2**5),  # wilds have no pays of their own: paid as A x 2^5 = 3200
        ("A A A X W", 10),  # the wild after the run does not multiply: 10
    ],
)
def test_multiplier_wilds_compound(line, credits):
    assert PayModel(MULTIPLIERS).line_win(line.split()).credits == credits


# -- symbol groups ("any bar") ---------------------------------------------------------------

BARS = _game(
    "rows = 1\nbet = 1\npaylines = [[0, 0, 0]]",
    """W = { wild = true }
B1 = { pays = { 3 = 10 } }
B2 = { pays = { 3 = 20 } }
B3 = { pays = { 3 = 40 } }
X = {}
[groups]
ANYBAR = { members = ["B1", "B2", "B3"], pays = { 3 = 5 } }""",
    '[["W", "B1", "B2", "B3", "X"], ["W", "B1", "B2", "B3", "X"], ["W", "B1", "B2", "B3", "X"]]',
)


@pytest.mark.parametrize(
    "line, credits, key",
    [
        ("B1 B2 B3", 5, "ANYBAR"),  # mixed bars: only "any bar" pays, 5
        ("B2 W B2", 20, "B2"),  # B2 B2 B2 pays 20 > any bar 5
        ("B1 W B3", 5, "ANYBAR"),  # mixed with a wild: any bar 5
        ("B1 B2 X", 0, None),  # any bar of 2 pays nothing
        ("W W W", 40, "B3"),  # three wilds: the best they can stand for is B3, 40
    ],
)
def test_symbol_group_any_bar(line, credits, key):
    win = PayModel(BARS).line_win(line.split())
    assert (win.credits, win.key) == (credits, key)


# -- ways with multipliers -------------------------------------------------------------------

WAYS = _game(
    "rows = 3\nbet = 10\nways = true",
    """W = { wild = true, multiplier = 2 }
A = { pays = { 3 = 5 } }
B = { pays = { 2 = 1, 3 = 4 } }
X = {}""",
    '[["W", "A", "B", "X"], ["W", "A", "B", "X"], ["W", "A", "B", "X"]]',
)


def test_ways_count_with_multipliers():
    model = PayModel(WAYS)
    # Pays in coins at bet 10: 1/10, 4/10, 5/10 of a bet -> 10 credits per bet (a coin each).
    assert model.credits_per_bet == 10
    board = _board("A B A", "W X B", "A A X")
    # A: reel 1 has 2 A; reel 2 a x2 wild counts 2 ways; reel 3 has 2 A:
    #    run 3, 2 x 2 x 2 = 8 ways, 8 x 5 coins = 40.
    # B: reel 1 has 1; reel 2 has the wild (2) + B (1) = 3; reel 3 has none:
    #    run 2, 1 x 3 = 3 ways, 3 x 1 coin = 3.
    wins = model.ways_wins(board)
    assert wins["A"] == (40, 3, 8)
    assert wins["B"] == (3, 2, 3)
    assert model.ways_win(board) == 43
    assert model.to_bets(model.spin_win(board)) == Fraction(43, 10)


def test_ways_breaks_on_an_empty_reel():
    model = PayModel(WAYS)
    # A on reels 1 and 3 only: run 1, no pay. B nowhere on reel 1: nothing.
    assert model.ways_win(_board("A X X", "X X X", "A A A")) == 0


# -- scatters: a count above the top pays as the top -----------------------------------------

SCATTERS = _game(
    "rows = 2\nbet = 2\npaylines = [[0, 0, 0], [1, 1, 1]]",
    """S = { scatter = true, pays = { 2 = 1, 3 = 5 } }
A = { pays = { 3 = 3 } }
X = {}""",
    '[["S", "A", "X"], ["S", "A", "X"], ["S", "A", "X"]]',
)


@pytest.mark.parametrize(
    "board, bets",
    [
        (_board("S X", "X X", "X X"), 0),  # 1 scatter: nothing
        (_board("S X", "S X", "X X"), 1),  # 2 scatters: 1 total bet
        (_board("S X", "S X", "X S"), 5),  # 3 scatters: 5 total bets
        (_board("S S", "S X", "S X"), 5),  # 4 scatters, above the top: paid as 3, 5 bets
        (_board("S S", "S S", "S S"), 5),  # 6 scatters: 5 bets
    ],
)
def test_scatter_pays_top_capped(board, bets):
    model = PayModel(SCATTERS)
    # A's 3 line bets = 3/2 total bets: 2 credits per bet.
    assert model.credits_per_bet == 2
    assert model.scatter_win(board) == bets * 2


def test_scatter_and_lines_add():
    model = PayModel(SCATTERS)
    # Line 1 (top row) A A A: 3 line bets = 3/2 bets = 3 credits; 3 scatters: 5 bets = 10.
    assert model.spin_win(_board("A S", "A S", "A S")) == 3 + 10


# -- bet levels ------------------------------------------------------------------------------

LEVELS = _game(
    "rows = 1\nbet = 1\nbet_levels = [1, 2, 3]\npaylines = [[0, 0, 0]]",
    """A = { pays = { 3 = 10 }, level_pays = { 2 = { 3 = 25 } } }
S = { scatter = true, pays = { 3 = 4 } }
X = {}""",
    '[["A", "S", "X"], ["A", "S", "X"], ["A", "S", "X"]]',
)


@pytest.mark.parametrize(
    "level, line_bets, scatter_bets",
    [
        (1, Fraction(10), 4),  # 10 line bets at bet 1 = 10 total bets
        (2, Fraction(25, 2), 4),  # level_pays: 25 coins at a total bet of 2 = 12.5 bets
        (3, Fraction(10), 4),  # not listed: scales with the level, 30 coins / 3 = 10 bets
    ],
)
def test_level_pays(level, line_bets, scatter_bets):
    model = PayModel(LEVELS, level)
    assert model.to_bets(model.lines_win(_board("A", "A", "A"))) == line_bets
    # Scatter pays are in total bets at every level.
    assert model.to_bets(model.scatter_win(_board("S", "S", "S"))) == scatter_bets


def test_unknown_level_is_refused():
    with pytest.raises(ValueError, match="bet level 4"):
        PayModel(LEVELS, 4)


# -- rows that differ by reel ----------------------------------------------------------------

ROWS = loads_game("""
rows = [1, 3, 2]
bet = 3
paylines = [[0, 1, 0], [0, 2, 1], [0, 0, 1]]
[symbols]
W = { wild = true }
A = { pays = { 3 = 10 } }
B = { pays = { 2 = 1, 3 = 5 } }
X = {}
[reels]
base = [["A", "B"], ["A", "B", "W", "X"], ["X", "A", "B"]]
""")


def test_rows_differ_by_reel():
    # Stops (1, 1, 2): reel 1 shows B; reel 2 shows B, W, X; reel 3 wraps round: B, X.
    window = window_at(ROWS, ROWS.base, [1, 1, 2])
    assert window == _board("B", "B W X", "B X")
    model = PayModel(ROWS)
    assert model.credits_per_bet == 3  # 3 lines, bet 3: one credit per line bet
    # Line [0, 1, 0]: B W B -> B x3 pays 5.
    # Line [0, 2, 1]: B X X -> B x1: nothing.
    # Line [0, 0, 1]: B B X -> B x2 pays 1.
    assert [model.line_win([window[j][r] for j, r in enumerate(line)]).credits
            for line in ROWS.paylines] == [5, 0, 1]
    assert model.spin_win(window) == 6
    assert model.to_bets(6) == 2
