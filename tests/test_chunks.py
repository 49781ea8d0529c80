"""Full-cycle enumeration in parts of reel-1 stops, and its progress callback.

For every case (each bundled game at every bet level and reel set, the tiny fixed games, and
generated games with weighted and zero-weight stops): the parts of 1, 2, 3 and 7 contiguous
ranges, and of an interleaved split, merge to exactly the whole enumeration; each part
equals brute force restricted to its reel-1 stops (on the games small enough for it); the
progress callback is monotone and ends at (total, total).
"""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest
from bundled import games_for
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from strategies import TINY_GAMES, small_games, tiny_game

import slotmath
from slotmath.exact.brute import brute_force, brute_force_line_trigger
from slotmath.exact.cycle import (
    PROGRESS_PARTS,
    first_reel_parts,
    line_trigger_table,
    merge_tables,
    spin_table,
)
from slotmath.exact.spin_table import SpinTable

ROOT = Path(__file__).resolve().parents[1]
BUNDLED = games_for("chunks")  # (tests/bundled.py)
SPLITS = (1, 2, 3, 7)
BRUTE_LIMIT = 40_000  # stop combinations a brute-force check of one part may visit


def test_bundled_games_are_present():
    """The suite below must not pass by finding no games."""
    assert len(BUNDLED) >= 5


def _cases(game):
    for level in game.bet_levels:
        for name in game.reel_sets:
            yield level, name


def _n_stops(game, reel_set):
    return len(game.reel_sets[reel_set].reels[0].stop_weights)


def _check_parts(game, level, reel_set, brute_limit=BRUTE_LIMIT):
    whole = spin_table(game, reel_set, level)
    rs = game.reel_sets[reel_set]
    assert whole.cycle == rs.cycle
    n = _n_stops(game, reel_set)
    interleaved = [range(0, n, 2), range(1, n, 2)]
    for parts in [first_reel_parts(game, k, reel_set) for k in SPLITS] + [interleaved]:
        tables = [spin_table(game, reel_set, level, first_stops=p) for p in parts]
        merged = merge_tables(tables)
        assert merged == whole  # exact: integer weights, cycle, caps
        assert sum(t.cycle for t in tables) == rs.cycle
        for p, t in zip(parts, tables):
            weight = sum(rs.reels[0].stop_weights[s] for s in p)
            assert t.cycle == weight * (rs.cycle // rs.reels[0].cycle)
    # Parts against brute force over the same reel-1 stops, as many stops as affordable:
    # brute force visits every combination of live stops of reels 2..n per reel-1 stop.
    per_stop = 1
    for reel in rs.reels[1:]:
        per_stop *= sum(1 for w in reel.stop_weights if w)
    affordable = brute_limit // per_stop
    checked = 0
    if affordable:
        for p in first_reel_parts(game, min(n, 3), reel_set):
            p = p[: max(1, affordable // 3)]
            assert spin_table(game, reel_set, level, first_stops=p) == brute_force(
                game, reel_set, level, first_stops=p)
            checked += 1
    return checked


@pytest.mark.parametrize("path", BUNDLED, ids=lambda p: p.stem)
def test_bundled_parts_merge_to_whole(path):
    game = slotmath.load_game(path)
    checked = sum(_check_parts(game, level, reel_set) for level, reel_set in _cases(game))
    if path.stem in ("tiny_lines", "classic_3reel"):
        assert checked  # small enough: brute force must have been compared


@pytest.mark.parametrize("name", sorted(TINY_GAMES))
def test_tiny_parts_equal_brute_force(name):
    game = tiny_game(name)
    for level, reel_set in _cases(game):
        _check_parts(game, level, reel_set)
        for stops in first_reel_parts(game, 3, reel_set):
            assert spin_table(game, reel_set, level, first_stops=stops) == brute_force(
                game, reel_set, level, first_stops=stops)


@settings(max_examples=60, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(small_games(max_combinations=3000), st.data())
def test_generated_parts_equal_brute_force(game, data):
    """Weighted stops (zero weights too) and free-spin reel sets included."""
    for level, reel_set in _cases(game):
        n = _n_stops(game, reel_set)
        k = data.draw(st.sampled_from(SPLITS))
        parts = first_reel_parts(game, k, reel_set)
        tables = [spin_table(game, reel_set, level, first_stops=p) for p in parts]
        for p, t in zip(parts, tables):
            assert t == brute_force(game, reel_set, level, first_stops=p)
        assert merge_tables(tables) == brute_force(game, reel_set, level)
        stops = data.draw(st.lists(st.integers(0, n - 1), unique=True))
        assert spin_table(game, reel_set, level, first_stops=stops) == brute_force(
            game, reel_set, level, first_stops=stops)


@settings(max_examples=30, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(small_games(ways=False, max_combinations=3000), st.data())
def test_line_trigger_parts_equal_brute_force(game, data):
    symbol = data.draw(st.sampled_from(sorted(game.symbols)))
    count = data.draw(st.integers(1, game.n_reels))
    cap = data.draw(st.sampled_from([None, 1]))
    k = data.draw(st.sampled_from(SPLITS))
    parts = first_reel_parts(game, k)
    tables = [line_trigger_table(game, symbol, count, cap=cap, first_stops=p) for p in parts]
    for p, t in zip(parts, tables):
        assert t == brute_force_line_trigger(game, symbol, count, cap=cap, first_stops=p)
    assert merge_tables(tables) == line_trigger_table(game, symbol, count, cap=cap)


def test_line_trigger_parts_of_bundled_game():
    game = slotmath.load_game(ROOT / "data" / "games" / "gold_money_frog.toml")
    whole = line_trigger_table(game, "BONUS", 3)
    assert whole.line_weights().get(1, 0) > 0  # the split has something to get wrong
    for k in SPLITS:
        tables = [line_trigger_table(game, "BONUS", 3, first_stops=p)
                  for p in first_reel_parts(game, k)]
        assert merge_tables(tables) == whole


# -- progress ------------------------------------------------------------------------------------


def _recorded(fn):
    calls = []
    table = fn(lambda done, total: calls.append((done, total)))
    return table, calls


@pytest.mark.parametrize("path", BUNDLED, ids=lambda p: p.stem)
def test_progress_is_monotone_and_complete(path):
    game = slotmath.load_game(path)
    n = _n_stops(game, "base")
    table, calls = _recorded(lambda cb: spin_table(game, progress=cb))
    assert table == spin_table(game)
    assert calls[0] == (0, n) and calls[-1] == (n, n)
    assert all(total == n for _, total in calls)
    assert all(a <= b for (a, _), (b, _) in itertools.pairwise(calls))
    assert len(calls) == min(PROGRESS_PARTS, n) + 1  # a bar that moves, not one jump


def test_progress_over_some_stops_and_line_triggers():
    game = slotmath.load_game(ROOT / "data" / "games" / "tiny_lines.toml")
    stops = range(2, 7)
    table, calls = _recorded(lambda cb: spin_table(game, first_stops=stops, progress=cb))
    assert table == spin_table(game, first_stops=stops) == brute_force(game, first_stops=stops)
    assert calls == [(i, 5) for i in range(6)]
    table, calls = _recorded(lambda cb: line_trigger_table(game, "BAR", 3, progress=cb))
    assert table == line_trigger_table(game, "BAR", 3) and calls[-1] == (8, 8)


# -- edges and refusals --------------------------------------------------------------------------


ZERO_WEIGHTS = """
name = "zero weights"
rows = 2
bet = 1
paylines = [[0, 0, 0], [1, 1, 1]]
[symbols]
A = { pays = { 3 = 10 } }
B = { pays = { 2 = 1 } }
[reels]
base = [{ strip = ["A", "B", "A", "B"], weights = [0, 2, 3, 0] },
        { strip = ["A", "B", "B"], weights = [1, 0, 4] }, ["A", "B"]]
"""


def test_zero_weight_stops_give_an_empty_valid_part():
    game = slotmath.loads_game(ZERO_WEIGHTS)
    part = spin_table(game, first_stops=[0, 3])
    assert part.cycle == 0 and dict(part.weights) == {}
    assert part == brute_force(game, first_stops=[0, 3])
    rest = spin_table(game, first_stops=[1, 2])
    assert rest.cycle == 5 * 5 * 2
    assert merge_tables([part, rest]) == spin_table(game) == brute_force(game)


def test_bad_first_stops_are_refused():
    game = slotmath.load_game(ROOT / "data" / "games" / "tiny_lines.toml")
    with pytest.raises(ValueError, match="twice"):
        spin_table(game, first_stops=[1, 1])
    with pytest.raises(ValueError, match="not stops of reel 1"):
        spin_table(game, first_stops=[8])
    with pytest.raises(ValueError, match="parts must be"):
        first_reel_parts(game, 0)


def test_merge_refuses_tables_of_different_games():
    a = SpinTable({(0, 0): 1}, 1, 10, 0)
    with pytest.raises(ValueError, match="caps"):
        merge_tables([a, SpinTable({(0, 0): 1}, 1, 5, 0)])
    game = slotmath.load_game(ROOT / "data" / "games" / "tiny_lines.toml")
    with pytest.raises(ValueError, match="cannot merge"):
        merge_tables([spin_table(game), line_trigger_table(game, "BAR", 3)])
    with pytest.raises(ValueError, match="no tables"):
        merge_tables([])
