"""Exact sensitivities (slotmath.tune.sensitivity) against two paths that share none of its code.

* Bundled games: every entry (a sample on the two large games) equals a plain re-analysis of
  the edited game with the exact engine (``slotmath.analyze``: the direct method, the full
  enumeration and the free-spin chain of the edited game, not the window tables).
* Random small lines and ways games (hypothesis): every entry equals a brute force written
  here, from the rules in docs/game-format.md: every stop combination, every line or way.
"""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import slotmath
from slotmath.model.game import Game, Reel, ReelSet, Symbol
from slotmath.tune import sensitivities
from tests.bundled import ROOT

GAMES = ROOT / "data" / "games"


def edited(game: Game, reel_set: str, index: int, strip: Reel) -> Game:
    reels = list(game.reel_sets[reel_set].reels)
    reels[index] = strip
    return game.replace_reels(reel_set, tuple(reels))


def weight_of(reel: Reel, symbol: str) -> int:
    weights = reel.weights or (1,) * len(reel.symbols)
    return sum(w for s, w in zip(reel.symbols, weights) if s == symbol)


def check_edit(before: Reel, entry) -> None:
    """The edited strip has exactly one more (or fewer) of the symbol, the rest unchanged."""
    after = entry.strip
    for symbol in set(before.symbols) | set(after.symbols):
        change = entry.change if symbol == entry.symbol else 0
        if before.weights is None:
            assert after.symbols.count(symbol) == before.symbols.count(symbol) + change
        else:
            assert weight_of(after, symbol) == weight_of(before, symbol) + change


CASES = [  # (game, reel set, reels edited (None: all), keep every k-th entry)
    ("tiny_lines", "base", None, 1),
    ("tiny_lines", "free", None, 1),
    ("classic_3reel", "base", None, 1),
    ("ways_243", "base", [2], 7),
    ("classic_fruits", "free", [0], 9),
]


@pytest.mark.parametrize(("name", "reel_set", "reels", "every"), CASES)
def test_every_entry_equals_a_reanalysis(name, reel_set, reels, every):
    game = slotmath.load_game(GAMES / f"{name}.toml")
    s = sensitivities(game, reel_set, reels=reels)
    plain = slotmath.analyze(game)
    assert (s.base.rtp, s.base.hit_frequency, s.base.second_moment) == (
        plain.rtp, plain.hit_frequency, plain.round.second_moment)
    table = s.table
    assert len(table) == len(s.entries) > 0
    for k, entry in enumerate(s.entries[::every]):
        before = game.reel_sets[reel_set].reels[entry.reel]
        check_edit(before, entry)
        a = slotmath.analyze(edited(game, reel_set, entry.reel, entry.strip))
        assert entry.figures.rtp == a.rtp, (name, entry.reel, entry.symbol, entry.change)
        assert entry.figures.hit_frequency == a.hit_frequency
        assert entry.figures.second_moment == a.round.second_moment
        assert len(a.round.features) <= 1  # then P(a feature starts) is its start probability
        assert entry.figures.feature_probability == sum(
            (sum(a.round.start_probabilities(f.name).values()) for f in a.round.features),
            Fraction(0))
        row = table.iloc[k * every]
        assert row["d_rtp"] == a.rtp - plain.rtp
        assert row["d_second_moment"] == a.round.second_moment - plain.round.second_moment
        assert row["d_sd"] == pytest.approx(a.std - plain.std, abs=1e-12)


def test_the_grid_is_the_table_by_symbol_and_reel():
    game = slotmath.load_game(GAMES / "tiny_lines.toml")
    s = sensitivities(game)
    grid = s.grid("rtp", -1)
    assert list(grid.columns) == [1, 2, 3] and list(grid.index) == list(game.symbols)
    assert grid.loc["W", 1] is None  # reel 1 shows no wild: it cannot lose one
    bar = next(e for e in s.entries if (e.reel, e.symbol, e.change) == (2, "BAR", -1))
    assert grid.loc["BAR", 3] == bar.figures.rtp - s.base.rtp


def test_games_that_are_not_linear_in_the_window_are_refused():
    """A cascading game is refused; Gus's Gold Christmas (refused for its modifiers alone)
    gets the RTP's entries instead (tests/test_tuning_panel.py checks them)."""
    game = slotmath.load_game(GAMES / "frozen_gems.toml")
    with pytest.raises(ValueError, match="not tuned by window tables"):
        sensitivities(game)
    gus = slotmath.load_game(GAMES / "gus_gold_christmas.toml")
    s = sensitivities(gus, reels=[0], symbols=["GUS"])
    assert s.figures == ("rtp",) and [(e.reel, e.change) for e in s.entries] == [(0, 1), (0, -1)]
    with pytest.raises(ValueError, match="only the RTP"):
        s.grid("second_moment")
    with pytest.raises(ValueError, match="no reel set 'bonus'"):
        sensitivities(slotmath.load_game(GAMES / "tiny_lines.toml"), "bonus")


# -- random small games against a brute force written here ------------------------------------


def line_pay(symbols: list[str], pays: dict[str, dict[int, int]]) -> int:
    """Highest pay of one line: for each paying symbol, the run from reel 1 of it or W."""
    best = 0
    for name, table in pays.items():
        run = 0
        for s in symbols:
            if s not in (name, "W"):
                break
            run += 1
        best = max(best, table.get(run, 0))
    return best


def ways_pay(window, pays: dict[str, dict[int, int]]) -> int:
    """Sum over paying symbols: pays[run] x product of the counts (it or W) on the run."""
    total = 0
    for name, table in pays.items():
        ways, run = 1, 0
        for column in window:
            n = sum(1 for s in column if s in (name, "W"))
            if n == 0:
                break
            ways, run = ways * n, run + 1
        total += table.get(run, 0) * ways if run in table else 0
    return total


def brute(reels: list[list[str]], weights: list[list[int]], rows: int,
          lines: list[tuple[int, ...]] | None, pays, bet: int):
    """Exact (E[X], P(X > 0), E[X^2]) of one spin in total bets, every stop combination."""
    total = hits = square = cycle = 0
    for stops in itertools.product(*(range(len(r)) for r in reels)):
        w = 1
        for r, s in zip(weights, stops):
            w *= r[s]
        window = [[reel[(s + k) % len(reel)] for k in range(rows)]
                  for reel, s in zip(reels, stops)]
        if lines is None:
            x = ways_pay(window, pays)
        else:
            x = sum(line_pay([window[j][row] for j, row in enumerate(line)], pays)
                    for line in lines)
        cycle += w
        total += w * x
        square += w * x * x
        hits += w if x else 0
    return (Fraction(total, cycle * bet), Fraction(hits, cycle),
            Fraction(square, cycle * bet * bet))


NAMES = ["A", "B", "W", "X"]


@st.composite
def small_games(draw):
    rows = draw(st.integers(1, 2))
    ways = draw(st.booleans())
    weighted = draw(st.booleans())
    a2, a3, b3 = draw(st.integers(1, 5)), draw(st.integers(1, 9)), draw(st.integers(1, 20))
    pays = {"A": {2: a2, 3: a3}, "B": {3: b3}}
    reels = []
    for _ in range(3):
        strip = draw(st.lists(st.sampled_from(NAMES), min_size=rows, max_size=4))
        weights = (draw(st.lists(st.integers(0, 3), min_size=len(strip), max_size=len(strip))
                        .filter(any)) if weighted else None)
        reels.append((strip, weights))
    all_lines = [(0, 0, 0), (1, 1, 1), (0, 1, 0), (1, 0, 1)] if rows == 2 else [(0, 0, 0)]
    lines = None if ways else draw(st.lists(st.sampled_from(all_lines), min_size=1,
                                            max_size=len(all_lines), unique=True))
    return rows, ways, pays, reels, lines


def as_game(rows, ways, pays, reels, lines) -> Game:
    symbols = {"A": Symbol("A", {k: Fraction(v) for k, v in pays["A"].items()}),
               "B": Symbol("B", {k: Fraction(v) for k, v in pays["B"].items()}),
               "W": Symbol("W", wild=True), "X": Symbol("X")}
    strips = tuple(Reel(tuple(s), None if w is None else tuple(w)) for s, w in reels)
    bet = 1 if ways else len(lines)
    return Game("random", (rows,) * 3, bet, symbols, {"base": ReelSet("base", strips)},
                paylines=None if ways else tuple(lines), ways=ways)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_games())
def test_random_games_against_brute_force(case):
    rows, ways, pays, _, lines = case
    game = as_game(*case)
    s = sensitivities(game)
    bet = 1 if ways else len(lines)

    def reference(strips):
        return brute([list(r.symbols) for r in strips],
                     [list(r.weights or (1,) * len(r.symbols)) for r in strips],
                     rows, None if ways else lines, pays, bet)

    assert (s.base.rtp, s.base.hit_frequency, s.base.second_moment) == reference(
        game.base.reels)
    expected = 0
    for reel in game.base.reels:
        for symbol in NAMES:  # one more always; one fewer when it shows and the reel keeps
            expected += 1 + (weight_of(reel, symbol) > 0 and reel.cycle > 1)  # a stop
    assert len(s.entries) == expected
    for entry in s.entries:
        check_edit(game.base.reels[entry.reel], entry)
        strips = list(game.base.reels)
        strips[entry.reel] = entry.strip
        figures = entry.figures
        assert (figures.rtp, figures.hit_frequency, figures.second_moment) == reference(strips)


@pytest.mark.parametrize(("name", "reel"), [("tiny_lines", 1), ("classic_3reel", 0)])
def test_each_window_contribution_is_the_game_showing_only_that_window(name, reel):
    from slotmath.tune import ReelTables

    game = slotmath.load_game(GAMES / f"{name}.toml")
    parts = ReelTables(game, "base", reel).contributions()
    plain = slotmath.analyze(game)
    total = parts["weight"].sum()
    assert total == game.base.reels[reel].cycle
    for figure, value in (("rtp", plain.rtp), ("hit_frequency", plain.hit_frequency),
                          ("second_moment", plain.round.second_moment)):
        assert sum(parts["weight"] * parts[figure]) / total == value
    for _, row in parts.iloc[::3].iterrows():  # a reel that shows only this window
        window = tuple(row["window"])
        only = Reel(window, (1,) + (0,) * (len(window) - 1))
        a = slotmath.analyze(edited(game, "base", reel, only))
        assert (row["rtp"], row["hit_frequency"], row["second_moment"]) == (
            a.rtp, a.hit_frequency, a.round.second_moment)
    with pytest.raises(ValueError, match="played by a round feature"):
        ReelTables(slotmath.load_game(GAMES / "tiny_lines.toml"), "free", 0).contributions()
