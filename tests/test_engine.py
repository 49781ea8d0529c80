"""The fast exact engine and the direct method against brute force and external fixtures.

One generic suite over a list of cases (bundled games, tiny hand games, generated games):
the full-cycle DP equals brute force exactly, the direct method's mean and pay-table hits
equal plain per-line / per-way counts, and weights add up to the cycle.
"""

from __future__ import annotations

import itertools
import re
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from strategies import TINY_GAMES, small_games, tiny_game

import slotmath
from slotmath.evaluate.window import PayModel, window_at
from slotmath.exact.brute import brute_force, brute_force_line_trigger
from slotmath.exact.cycle import line_trigger_table, spin_table
from slotmath.exact.direct import direct_method

ROOT = Path(__file__).resolve().parents[1]
# Real reel sets with RTPs stated by another tool, copied from ../shared/peer-games (facts).
# Listed by name, not globbed: a missing fixture fails its test instead of vanishing from it.
PEER = ROOT / "tests" / "data" / "peer-games"
PEER_NAMES = ("plenty_of_jewels_20_hot_95_151657.toml", "sizzling_hot_95_655629.toml",
              "wild_clover_83_826378.toml", "wild_clover_95_063586.toml")
PEER_FILES = [PEER / name for name in PEER_NAMES]


def _levels_and_sets(game):
    for level in game.bet_levels:
        for name in game.reel_sets:
            yield level, name


def _plain_pay_hits(game, reel_set, level):
    """Pay-table hits by visiting every stop combination: the independent reference."""
    model = PayModel(game, level)
    rs = game.reel_sets[reel_set]
    hits: dict[tuple[str, int, int], list[int]] = {}
    for stops in itertools.product(*[range(len(r)) for r in rs.reels]):
        w = 1
        for r, s in zip(rs.reels, stops):
            w *= r.stop_weights[s]
        if not w:
            continue
        window = window_at(game, rs, stops)
        if game.paylines is not None:
            for line in game.paylines:
                win = model.line_win([window[j][row] for j, row in enumerate(line)])
                if win.credits:
                    e = hits.setdefault((win.key, win.count, win.credits), [0, 0])
                    e[0] += w
        else:
            for key, (credits, run, ways) in model.ways_wins(window).items():
                if credits:
                    e = hits.setdefault((key, run, credits // ways), [0, 0])
                    e[0] += w
                    e[1] += w * ways
    return hits


def _direct_hits(result):
    out: dict[tuple[str, int, int], list[int]] = {}
    for p in result.pays:
        e = out.setdefault((p.key, p.count, p.credits), [0, 0])
        e[0] += p.hits
        e[1] += p.ways
    return out


def check_game(game):
    for level, name in _levels_and_sets(game):
        fast = spin_table(game, name, level)
        slow = brute_force(game, name, level)
        assert fast == slow, (level, name)
        assert sum(fast.weights.values()) == game.reel_sets[name].cycle
        direct = direct_method(game, name, level)
        assert direct.rtp == fast.mean_bets
        assert _direct_hits(direct) == _plain_pay_hits(game, name, level)


@pytest.mark.parametrize("name", sorted(TINY_GAMES))
def test_tiny_games(name):
    check_game(tiny_game(name))


@pytest.mark.parametrize("path", ["data/games/tiny_lines.toml"])
def test_small_bundled_games(path):
    check_game(slotmath.load_game(ROOT / path))


@settings(max_examples=60, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(small_games(max_combinations=3000))
def test_generated_games_engine_equals_brute_force(game):
    check_game(game)


@pytest.mark.parametrize("path", PEER_FILES, ids=[p.stem for p in PEER_FILES])
def test_peer_games_reproduce_stated_rtp(path):
    """Real reel sets whose RTP another tool (slotopol) states to six decimals of a percent."""
    stated = re.search(r"_(\d+)_(\d{6})\.toml$", path.name)
    percent = Fraction(f"{stated.group(1)}.{stated.group(2)}")
    game = slotmath.load_game(path)
    table = spin_table(game)
    rtp = table.mean_bets
    # Every printed digit: the exact RTP rounds (half away from zero) to the stated value.
    assert abs(rtp * 100 - percent) < Fraction(1, 2 * 10**6)
    assert direct_method(game).rtp == rtp
    assert sum(table.weights.values()) == game.base.cycle


def test_ways_game_with_more_entries_than_the_mask_table():
    """More than 16 pay-table entries: the engine groups identical windows only."""
    names = [f"S{i}" for i in range(18)]
    symbols = {n: {"pays": {"2": 1 + i % 3, "3": 5 + i}} for i, n in enumerate(names)}
    symbols["W"] = {"wild": True}
    reels = [[*names[:9], "W"], [*names[9:], "W"], [*names[4:13], "W", "W"]]
    data = {"rows": 2, "bet": 10, "ways": True, "symbols": symbols, "reels": {"base": reels}}
    from slotmath.io.toml_loader import game_from_dict

    check_game(game_from_dict(data, "<18 entries>"))


def test_a_game_with_no_pay_table_entry():
    """Scatters only: the DP has no units (no line, no ways entry), every window one class."""
    from slotmath.io.toml_loader import loads_game

    for shape in ("ways = true", "paylines = [[0, 0, 0]]"):
        check_game(loads_game(f"""
name = "scatters only"
rows = 1
bet = 1
{shape}
[symbols]
S = {{ scatter = true, pays = {{ 2 = 1, 3 = 4 }} }}
A = {{}}
[reels]
base = [["S", "A"], ["A", "S", "A"], ["S", "A"]]
"""))


@settings(max_examples=40, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(small_games(ways=False, max_combinations=3000), st.data())
def test_line_trigger_table_equals_brute_force(game, data):
    """Line-triggered feature counts (e.g. a bonus game on 3 in succession from reel 1)."""
    symbol = data.draw(st.sampled_from(sorted(game.symbols)))
    count = data.draw(st.integers(1, game.n_reels))
    cap = data.draw(st.sampled_from([None, 1, 2]))
    for name in game.reel_sets:
        fast = line_trigger_table(game, symbol, count, name, cap=cap)
        slow = brute_force_line_trigger(game, symbol, count, name, cap=cap)
        assert fast == slow
        assert fast.spin_table() == spin_table(game, name)
