"""Hand-computed checks of the brute-force cascade reference itself (tests/cascade_reference.py)
on games small enough to work out on paper. Each game's working is in its comment."""

import tomllib
from fractions import Fraction as F

import pytest
from cascade_reference import EndlessCascade, figures

# 3 reels x 1 row, ways, bet 1; A A A pays 1; multiplier 1, 2, 3, ... Reels 2 and 3 always
# show A (and refill A). Reel 1 = [A, A, X]:
#   stop 0 (A): A A A pays 1; reel 1 refills strip[-1] = X: X A A ends. 1 cascade, win 1.
#   stop 1 (A): pays 1; refills strip[0] = A: A A A pays 1 x 2; refills strip[-1] = X.
#               2 cascades, win 3, final multiplier 3.
#   stop 2 (X): nothing. 0 cascades, final multiplier 1.
CHAIN = """
rows = 1
bet = 1
ways = true
[symbols]
A = { pays = { 3 = 1 } }
X = {}
[reels]
base = [["A", "A", "X"], ["A"], ["A"]]
[cascades]
refill = "strip"
multiplier = { start = 1, step = 1 }
"""


def test_strip_chain_by_hand():
    fig = figures(tomllib.loads(CHAIN))
    third = F(1, 3)
    assert fig.probabilities == {(F(1), 0, 1): third, (F(3), 0, 2): third, (F(0), 0, 0): third}
    assert fig.mean_first == F(2, 3)
    assert fig.mean_later == F(2, 3)  # 2 x 1/3
    assert fig.mean_scatter == 0
    assert fig.cascade_counts == {0: third, 1: third, 2: third}
    assert fig.final_multiplier == {1: third, 2: third, 3: third}
    assert fig.ways_in_play == {1: F(1)}
    assert fig.rtp == F(4, 3)


def test_lines_chain_by_hand():
    # The same game on two identical lines: each pays 1 line bet = 1/2 total bet, so the
    # figures are CHAIN's.
    text = CHAIN.replace("ways = true", "paylines = [[0, 0, 0], [0, 0, 0]]")
    fig = figures(tomllib.loads(text))
    assert fig.probabilities == {(F(1), 0, 1): F(1, 3), (F(3), 0, 2): F(1, 3),
                                 (F(0), 0, 0): F(1, 3)}


def test_ladder_multiplier_by_hand():
    # ladder [2, 5]: stop 1 wins 1 x 2 then 1 x 5.
    text = CHAIN.replace("{ start = 1, step = 1 }", "{ ladder = [2, 5] }")
    fig = figures(tomllib.loads(text))
    assert fig.probabilities == {(F(2), 0, 1): F(1, 3), (F(7), 0, 2): F(1, 3),
                                 (F(0), 0, 0): F(1, 3)}
    assert fig.final_multiplier == {2: F(1, 3), 5: F(2, 3)}


# Random refill: reel 1 = [A, X]; reels 2-3 always A. Reel 1 refills from {X: 2, S: 1}, the
# others from {A: 1}. S is a scatter paying 2 total bets for 1.
#   stop A (1/2): A A A pays 1, then X A A (2/3) or S A A (1/3): no win. 1 cascade.
#   stop X (1/2): nothing.
RANDOM = """
rows = 1
bet = 1
ways = true
[symbols]
A = { pays = { 3 = 1 } }
S = { scatter = true, pays = { 1 = 2 } }
X = {}
[reels]
base = [["A", "X"], ["A"], ["A"]]
[cascades]
refill = "random"
multiplier = { start = 1, step = 1 }
refill_weights = { base = [{ X = 2, S = 1 }, { A = 1 }, { A = 1 }] }
"""


def test_random_refill_by_hand():
    fig = figures(tomllib.loads(RANDOM))
    assert fig.probabilities == {(F(1), 0, 1): F(1, 3), (F(3), 1, 1): F(1, 6),
                                 (F(0), 0, 0): F(1, 2)}
    assert fig.mean_first == F(1, 2)
    assert fig.mean_later == 0
    assert fig.mean_scatter == F(1, 3)


# Bonus symbols, threshold 1, no shuffle: SP (split 2) above reels 1 and 3, BW (wild W)
# above reel 2. Reel 2 always A; reels 1 and 3 = [A, X].
#   (A, A) 1/4: A A A pays 1 (nothing freed yet: no scatter, counters 0); every reel loses 1:
#     counters 1, refills X A X; now all three are freed: reel 1 X x2, reel 2 W, reel 3 X x2:
#     no A on reel 1, no win. Ways in play 2 x 1 x 2 = 4.
#   the three others: no win, nothing freed, ways in play 1.
BONUS = """
rows = 1
bet = 1
ways = true
[symbols]
A = { pays = { 3 = 1 } }
W = { wild = true }
X = {}
[reels]
base = [["A", "X"], ["A"], ["A", "X"]]
[cascades]
multiplier = { start = 1, step = 1 }
[bonus_symbols]
threshold = 1
accumulate = true
effects = { SP = { split = 2 }, BW = { wild = "W" } }
arrangements = [{ weight = 1, symbols = ["SP", "BW", "SP"] }]
shuffle = false
"""


def test_bonus_freeing_by_hand():
    fig = figures(tomllib.loads(BONUS))
    assert fig.probabilities == {(F(1), 0, 1): F(1, 4), (F(0), 0, 0): F(3, 4)}
    assert fig.ways_in_play == {4: F(1, 4), 1: F(3, 4)}
    assert fig.freed == {(0, "SP"): F(1, 4), (1, "BW"): F(1, 4), (2, "SP"): F(1, 4)}


def test_bonus_shuffle_by_hand():
    # Shuffled, the arrangement has 3 distinct orderings (BW above reel 1, 2 or 3), 1/3 each.
    fig = figures(tomllib.loads(BONUS.replace("shuffle = false", "shuffle = true")))
    for r in range(3):
        assert fig.freed[(r, "BW")] == F(1, 4) * F(1, 3)
        assert fig.freed[(r, "SP")] == F(1, 4) * F(2, 3)
    # BW above reel 1 (1/3 of the (A, A) stops): after the refill reel 1 shows W, reel 2 A
    # x2, reel 3 X x2: no A on reel 3, no win either.
    assert fig.probabilities == {(F(1), 0, 1): F(1, 4), (F(0), 0, 0): F(3, 4)}


def test_split_counts_ways_by_hand():
    # Threshold 1; reel 1 = [A, S, S] (rows 2), reels 2-3 = [A] (rows 2: A, A); SP (split 2)
    # above every reel. A scatter on reel 1 frees it before the first evaluation.
    #   stop 0 (A over S): reel 1 freed: 2 x 2 x 2 = 8 ways x 1 = 8. All A's go; reel 1
    #     refills strip[-1] = S (S S), reels 2-3 A A and are freed now (counters 2): reel 1
    #     has no A: ends. Win 8, 1 cascade, ways in play 4 x 4 x 4 = 64.
    #   stop 1 (S S): reel 1 freed, no A: nothing. Ways 4 x 2 x 2 = 16.
    #   stop 2 (S over A): the same as stop 0 (refill strip[1] = S). Win 8, ways 64.
    text = """
rows = 2
bet = 1
ways = true
[symbols]
A = { pays = { 3 = 1 } }
S = { scatter = true }
[reels]
base = [["A", "S", "S"], ["A"], ["A"]]
[cascades]
multiplier = { start = 1, step = 0 }
[bonus_symbols]
threshold = 1
effects = { SP = { split = 2 } }
arrangements = [{ weight = 1, symbols = ["SP", "SP", "SP"] }]
"""
    fig = figures(tomllib.loads(text))
    assert fig.probabilities == {(F(8), 2, 1): F(2, 3), (F(0), 2, 0): F(1, 3)}
    assert fig.ways_in_play == {64: F(2, 3), 16: F(1, 3)}
    assert fig.freed == {(0, "SP"): F(1), (1, "SP"): F(2, 3), (2, "SP"): F(2, 3)}
    # Reel 1 = [A, S]: stop 1 (S over A) refills strip[0] = A: A S again, and now every reel
    # is freed: 2 x 4 x 4 = 32 more, then strip[-1] = S ends it. Win 8 + 32.
    fig = figures(tomllib.loads(text.replace('["A", "S", "S"]', '["A", "S"]')))
    assert fig.probabilities == {(F(8), 2, 1): F(1, 2), (F(40), 2, 2): F(1, 2)}


def test_endless_chain_is_refused():
    # Every reel always shows A: A A A wins for ever.
    text = CHAIN.replace('["A", "A", "X"]', '["A"]')
    with pytest.raises(EndlessCascade):
        figures(tomllib.loads(text))


# Free spins with a carried multiplier. Paid reels: reel 1 = [S, X], reels 2-3 X: the paid
# spin never wins; S (1/2) awards 2 free spins. Free reels = CHAIN with reel 1 = [A, X]: a
# free spin at index k wins (1 + k) with probability 1/2 (then ends at index k + 1) and
# nothing otherwise.
#   carried: spin 1 at index 0: 1/2 x 1; spin 2 at index 1 (1/2) or 0 (1/2):
#     1/2 x (1/2 x 2 + 1/2 x 1) = 3/4. Feature 5/4, RTP 1/2 x 5/4 = 5/8.
#   not carried: 1/2 + 1/2 = 1 per feature, RTP 1/2.
FEATURE = """
rows = 1
bet = 1
ways = true
[symbols]
A = { pays = { 3 = 1 } }
S = { scatter = true }
X = {}
[reels]
base = [["S", "X"], ["X"], ["X"]]
free = [["A", "X"], ["A"], ["A"]]
[cascades]
multiplier = { start = 1, step = 1 }
carry_multiplier = true
[free_spins]
trigger = "S"
awards = { 1 = 2 }
reels = "free"
"""


def test_feature_carried_multiplier_by_hand():
    fig = figures(tomllib.loads(FEATURE))
    assert fig.probabilities == {(F(0), 1, 0): F(1, 2), (F(0), 0, 0): F(1, 2)}
    assert fig.mean_feature == F(5, 8)
    assert fig.rtp == F(5, 8)


def test_feature_without_carry_by_hand():
    fig = figures(tomllib.loads(FEATURE.replace("carry_multiplier = true",
                                                "carry_multiplier = false")))
    assert fig.mean_feature == F(1, 2)


def test_feature_cap_and_free_multiplier_by_hand():
    # awards 5 cut to max_spins 2; free_spins.multiplier 3 multiplies every drop: 3 x 5/8.
    text = FEATURE.replace("awards = { 1 = 2 }", "awards = { 1 = 5 }\nmax_spins = 2\nmultiplier = 3")
    assert figures(tomllib.loads(text)).mean_feature == F(15, 8)


def test_feature_retrigger_by_hand():
    # Free reel 2 = [A, S] instead, not carried, retrigger_awards { 1 = 1 }, max_spins = 3.
    # A free spin: (A, A) 1/4 wins 1, then refills X S A: S shows, so it retriggers;
    # (A, S) and (X, S) 1/2: no win, retrigger; (X, A) 1/4: nothing.
    # V(1, 3) = 1/4, V(2, 3) = 1/2, V(1, 2) = 1/4 + 3/4 x 1/4 = 7/16,
    # V(2, 2) = 1/4 + 3/4 x 1/2 + 1/4 x 7/16 = 47/64 (= 1/4 x E[spins] = 1/4 x (2 + 15/16)).
    text = (FEATURE.replace('free = [["A", "X"], ["A"], ["A"]]',
                            'free = [["A", "X"], ["A", "S"], ["A"]]')
            .replace("carry_multiplier = true", "carry_multiplier = false")
            + "retrigger = true\nretrigger_awards = { 1 = 1 }\nmax_spins = 3\n")
    fig = figures(tomllib.loads(text))
    assert fig.mean_feature == F(1, 2) * F(47, 64)
