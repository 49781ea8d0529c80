"""The strip-refill cascade kernel's own paths (slotmath.exact.cascades), each shown to change
nothing, against the brute-force reference (tests/cascade_reference.py) or against the same
kernel with the path turned off:

* winless blocks settled at once from the tail reels' scatter law (lines and ways games),
* outcomes whose credits pass the dense table go to the sparse one,
* the buffer of sparse outcomes emptied into the table many times within a run,
* the compiled game (slotmath.evaluate.compiled) read back against the model it came from.
"""

from __future__ import annotations

import tomllib
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from test_cascades import assert_engine_matches_reference

import slotmath
from slotmath.evaluate.compiled import compile_game, multiplier_value
from slotmath.evaluate.window import PayModel
from slotmath.exact import cascades

DATA = Path(__file__).resolve().parent / "data" / "cascades"

# 4 reels x 2 rows, 3 lines, a wild, a scatter; A pays more credits than the dense table
# holds, so its wins take the sparse path.
LINES4 = """
rows = 2
bet = 3
paylines = [[0, 0, 0, 0], [1, 1, 1, 1], [0, 1, 0, 1]]
[symbols]
A = { pays = { 3 = 20000, 4 = 50000 } }
B = { pays = { 3 = 2, 4 = 5 } }
W = { wild = true }
S = { scatter = true, pays = { 2 = 1, 3 = 4 } }
X = {}
[reels]
base = [["A", "B", "X", "S"], ["B", "W", "A", "X"], ["A", "B", "B", "S"], ["X", "A", "B", "W"]]
[cascades]
refill = "strip"
multiplier = { ladder = [1, 2, 3] }
"""

# the same shape as ways: 4 x 2, the winless blocks of ways games
WAYS4 = LINES4.replace("paylines = [[0, 0, 0, 0], [1, 1, 1, 1], [0, 1, 0, 1]]",
                       "ways = true").replace("bet = 3", "bet = 1")


def _prepared(text: str, reel_set: str = "base", free: bool = False):
    game = slotmath.loads_game(text, "<kernel test>")
    return game, cascades._prepare(game, reel_set, 1, PayModel(game), free, False)


def _run_all(prep, keep_a=False, entries=True, pending_rows=cascades._PENDING,
             combine_slots=cascades._COMBINE):
    first = np.arange(int(prep.game.lengths[0]), dtype=np.int64)
    table, tally = cascades._call(prep, first, keep_a, entries, pending_rows, combine_slots)
    return dict(table), [np.asarray(a) for a in tally[:6]]


def _same(a, b) -> bool:
    return a[0] == b[0] and all(np.array_equal(x, y) for x, y in zip(a[1], b[1]))


@pytest.mark.parametrize("text", [LINES4, WAYS4], ids=["lines", "ways"])
def test_engine_equals_reference_where_blocks_are_settled(text):
    assert_engine_matches_reference(tomllib.loads(text))


@pytest.mark.parametrize("text", [LINES4, WAYS4], ids=["lines", "ways"])
def test_settled_blocks_equal_the_blocks_followed(text):
    """The same tallies with the winless blocks visited one combination at a time."""
    _game, prep = _prepared(text)
    assert prep.pruning[0] > 0  # the path is taken
    settled = _run_all(prep)
    followed = _run_all(replace(prep, pruning=(0,) + prep.pruning[1:]))
    assert _same(settled, followed)
    # and a wrong tail law is seen
    prefix, bits, count, tail, fast = prep.pruning
    wrong = _run_all(replace(prep, pruning=(prefix, bits, count, np.roll(tail, 1), fast)))
    assert not _same(settled, wrong)


def test_large_credits_go_to_the_sparse_table():
    _game, prep = _prepared(LINES4)
    table, _tally = _run_all(prep)
    assert max(credits for credits, _a, _t, _k in table) >= cascades._DENSE


@pytest.mark.parametrize("name, reel_set, keep_a", [
    ("tiny_free_spins.toml", "free", True),  # a carried multiplier: every cascade is sparse
    ("tiny_bonus.toml", "base", False),
])
def test_emptying_the_sparse_buffer_often_changes_nothing(name, reel_set, keep_a):
    game = slotmath.load_game(DATA / name)
    prep = cascades._prepare(game, reel_set, 1, PayModel(game), reel_set != "base", False)
    whole = _run_all(prep, keep_a=keep_a)
    assert len(whole[0]) > 3
    assert _same(whole, _run_all(prep, keep_a=keep_a, pending_rows=1))


@pytest.mark.parametrize("name, reel_set, keep_a", [
    ("tiny_free_spins.toml", "free", True),
    ("tiny_bonus.toml", "base", False),
])
@pytest.mark.parametrize("slots, pending_rows", [(1, cascades._PENDING), (2, 1), (4, 3)])
def test_the_combiner_in_front_of_the_sparse_table_changes_nothing(name, reel_set, keep_a,
                                                                  slots, pending_rows):
    """A combiner of one slot moves every key met after a different one into the table (an
    eviction per change of key), two or four slots mix holds and evictions: the same table
    and tallies as the default one, whose slots outnumber these games' keys (no eviction:
    each key's sum is drained at the end). The reference tests compare the default with
    brute force."""
    game = slotmath.load_game(DATA / name)
    prep = cascades._prepare(game, reel_set, 1, PayModel(game), reel_set != "base", False)
    whole = _run_all(prep, keep_a=keep_a)
    assert len(whole[0]) > 4 * slots
    assert _same(whole, _run_all(prep, keep_a=keep_a, pending_rows=pending_rows,
                                 combine_slots=slots))


def test_compiled_game_reads_back_the_model():
    """Spot checks of compile_game against the model it came from (ids are the orders of
    game.symbols, PayModel.keys and bonus_symbols.effects)."""
    game = slotmath.load_game(DATA / "tiny_free_spins.toml")
    model = PayModel(game)
    names = list(game.symbols)
    free = compile_game(game, "free", free=True)
    paid = compile_game(game)
    for r, reel in enumerate(game.reel_sets["free"].reels):
        assert [names[s] for s in free.strips[r, : free.lengths[r]]] == list(reel.symbols)
    for k, key in enumerate(model.keys):
        members = {names[s] for s in np.flatnonzero(paid.member[k])}
        assert members == set(model.key_members[key])
        for count, credits in model.key_credits[key].items():
            assert paid.entry_credits[k, count] == credits
            assert (paid.entry_pays[count, 0] >> k) & 1 == (credits > 0)
    assert paid.scatter_factor == 1 and free.scatter_factor == 0  # scatter_pays = false
    assert [multiplier_value(paid.multiplier, paid.multiplier_step, k) for k in (0, 3, 300)] \
        == [game.cascades.multiplier.value(k) for k in (0, 3, 300)]
    assert [int(a) for a in paid.awards[:4]] == [game.free_spins.award_for(c) for c in range(4)]
    assert int(paid.ordering_weight.sum()) == game.bonus_symbols.total_weight
