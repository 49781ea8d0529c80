"""Game files load into the model as documented in docs/game-format.md.

* every bundled game (data/games/) and every peer game (tests/data/peer-games/, copied from
  ../shared/peer-games; a missing one fails) loads, with the expected shape where we know it;
* each extension of the format (weighted stops, groups, substitutes, multipliers, bet levels
  and level_pays, rows per reel, ways) lands in the model field the documentation names;
* pays keep their exact value: 0.5 is 1/2, "5/2" is 5/2 (no binary floats anywhere);
* coin value, max win and progressive jackpots land in ``Game.coin_value``, ``Game.max_win``
  and :class:`~slotmath.model.game.JackpotSpec` with their exact values, and ``cap_coins``
  takes the smaller of the two caps at each bet level.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest
from strategies import JACKPOT_GAME

from slotmath.io.toml_loader import game_from_dict, load_game, loads_game
from slotmath.model.game import Game, JackpotSpec, MaxWin

ROOT = Path(__file__).resolve().parents[1]
BUNDLED = sorted((ROOT / "data" / "games").glob("*.toml"))
PEER_DIR = ROOT / "tests" / "data" / "peer-games"  # copied from ../shared/peer-games
PEERS = [PEER_DIR / name for name in ("plenty_of_jewels_20_hot_95_151657.toml",
                                      "sizzling_hot_95_655629.toml", "wild_clover_83_826378.toml",
                                      "wild_clover_95_063586.toml")]

# What we know of each game: reels, paylines (0 = a ways game), declared symbols, reel sets.
# A game file without a row here is still loaded and checked for consistency below.
KNOWN = {
    "classic_fruits.toml": (5, 25, 9, {"base", "free"}),
    "tiny_lines.toml": (3, 5, 6, {"base", "free"}),
    "sizzling_hot_95_655629.toml": (5, 5, 8, {"base"}),
    "plenty_of_jewels_20_hot_95_151657.toml": (5, 20, 8, {"base"}),
    "wild_clover_95_063586.toml": (5, 20, 10, {"base"}),
    "wild_clover_83_826378.toml": (5, 20, 10, {"base"}),
}

# Full cycles (stop combinations of the base set) stated in peer-games/README.md.
# Wild Clover 83 is left out: its README row says 62,236,321 (= 23 * 49^3 * 23) but the
# transcribed strips have 46, 49, 49, 49, 46 stops (4x that).
PEER_CYCLES = {
    "sizzling_hot_95_655629.toml": 25**5,
    "plenty_of_jewels_20_hot_95_151657.toml": 55_566_000,
    "wild_clover_95_063586.toml": 264_500_000,
}


def _check_consistent(game: Game) -> None:
    """What must hold for any loaded game, whatever file it came from."""
    assert game.n_reels == len(game.rows) >= 1
    # (a grid game paying anywhere or by clusters has neither lines nor ways)
    assert (game.paylines is None) == (game.ways or (
        game.grid is not None and game.grid.pays in ("anywhere", "cluster")))
    for line in game.paylines or ():
        assert len(line) == game.n_reels
        assert all(0 <= r < rows for r, rows in zip(line, game.rows))
    for reel_set in game.reel_sets.values():
        assert len(reel_set.reels) == game.n_reels
        for reel in reel_set.reels:
            assert reel.symbols and set(reel.symbols) <= set(game.symbols)
            assert len(reel.stop_weights) == len(reel) and reel.cycle > 0
    for symbol in game.symbols.values():
        assert all(isinstance(p, Fraction) and p >= 0 for p in symbol.pays.values())
    if game.free_spins is not None:
        assert game.free_spins.reels in game.reel_sets
        assert game.symbols[game.free_spins.trigger].scatter


@pytest.mark.parametrize("path", BUNDLED, ids=lambda p: p.name)
def test_bundled_game_loads(path):
    game = load_game(path)
    _check_consistent(game)
    assert game.source == str(path)
    assert game.name and game.description, "bundled games explain themselves"
    if path.name in KNOWN:
        n_reels, n_lines, n_symbols, sets = KNOWN[path.name]
        assert (game.n_reels, game.n_lines, len(game.symbols), set(game.reel_sets)) == (
            n_reels, n_lines, n_symbols, sets)


def test_bundled_games_are_there():
    assert {"classic_fruits.toml", "tiny_lines.toml"} <= {p.name for p in BUNDLED}


@pytest.mark.parametrize("path", PEERS, ids=lambda p: p.name)
def test_peer_game_loads(path):
    game = load_game(path)
    _check_consistent(game)
    assert game.rows == (3,) * 5 and game.free_spins is None and len(game.scatters) == 1
    if path.name in KNOWN:
        n_reels, n_lines, n_symbols, sets = KNOWN[path.name]
        assert (game.n_reels, game.n_lines, len(game.symbols), set(game.reel_sets)) == (
            n_reels, n_lines, n_symbols, sets)
        assert game.bet == game.n_lines  # a coin per line: line bet 1
    if path.name in PEER_CYCLES:
        assert game.base.cycle == PEER_CYCLES[path.name]


def test_classic_fruits_in_detail():
    game = load_game(ROOT / "data" / "games" / "classic_fruits.toml")
    assert (game.rows, game.bet, game.ways, game.bet_levels) == ((3,) * 5, 25, False, (1,))
    assert game.paylines[0] == (1, 1, 1, 1, 1) and game.paylines[3] == (0, 1, 2, 1, 0)
    assert game.scatters == ("SC",)
    w = game.symbols["W"]
    assert w.wild and w.substitutes is None and w.pays == {3: 50, 4: 250, 5: 2500}
    assert game.symbols["SC"].pays == {3: 2, 4: 10, 5: 100}
    assert game.symbols["CHERRY"].pays[2] == 1
    fs = game.free_spins
    assert (fs.trigger, dict(fs.awards), fs.reels, fs.multiplier, fs.retrigger, fs.max_spins) == (
        "SC", {3: 10, 4: 15, 5: 20}, "free", 3, True, None)
    assert "W" not in game.base.reels[0].symbols  # wild on reels 2-5 only


def test_tiny_lines_in_detail():
    game = load_game(ROOT / "data" / "games" / "tiny_lines.toml")
    assert game.symbols["W"].multiplier == 2
    fruit = game.groups["FRUIT"]
    assert fruit.members == {"CHERRY", "PLUM"} and fruit.pays == {3: 1}
    assert game.base.cycle == 8**3 and game.reel_sets["free"].cycle == 15 * 9 * 9


# -- every extension, parsed into the model ---------------------------------------------------
EXTENDED = """
name = "Extended"
description = "every extension at once"
rows = [1, 3, 1]
bet = 10
bet_levels = [1, 2, 5]
paylines = [[0, 1, 0], [0, 0, 0], [0, 2, 0]]

[symbols]
W   = { wild = true, multiplier = 2, substitutes = ["R7", "B7"], pays = { 3 = 100 } }
W3  = { wild = true, multiplier = 3 }
SC  = { scatter = true, pays = { 2 = "1/2", 3 = 2.5 }, level_pays = { 5 = { 3 = 20 } } }
R7  = { pays = { 3 = 80 }, level_pays = { 5 = { 3 = 1000 } } }
B7  = { pays = { 3 = 40 } }
BAR = { pays = { 3 = 10 } }
BN  = { bonus = true }
X   = {}

[groups]
ANY7 = { members = ["R7", "B7"], pays = { 3 = 20 } }
"any bar" = { members = ["BAR", "X"], pays = { 3 = "5/2" }, level_pays = { 2 = { 3 = 6 } } }

[reels]
base = [
  { strip = ["R7", "B7", "BAR", "X"], weights = [1, 2, 0, 7] },
  ["W", "R7", "BN", "X", "SC"],
  { strip = ["R7", "W3", "SC", "BAR", "B7"], weights = [3, 1, 1, 2, 3] },
]
free = [["R7", "X"], ["W", "X", "SC"], ["B7", "SC"]]

[free_spins]
trigger = "SC"
awards = { 2 = 3 }
"""


@pytest.fixture(scope="module")
def extended() -> Game:
    return loads_game(EXTENDED, "extended.toml")


def test_weighted_reels(extended):
    reel0, reel1, reel2 = extended.base.reels
    assert reel0.symbols == ("R7", "B7", "BAR", "X") and reel0.weights == (1, 2, 0, 7)
    assert reel0.cycle == 10  # a zero weight is a stop that never shows
    assert reel1.weights is None and reel1.stop_weights == (1,) * 5 and reel1.cycle == 5
    assert reel2.cycle == 10
    assert extended.base.cycle == 10 * 5 * 10


def test_rows_per_reel(extended):
    assert extended.rows == (1, 3, 1)
    assert extended.base.reels[1].window(3, 3) == ("X", "SC", "W")  # cyclic, top to bottom


def test_groups(extended):
    any7, any_bar = extended.groups["ANY7"], extended.groups["any bar"]
    assert any7.members == frozenset({"R7", "B7"}) and any7.pays == {3: Fraction(20)}
    assert any_bar.pays == {3: Fraction(5, 2)}
    assert any_bar.pay_at(3, 2) == 6 and any_bar.pay_at(3, 5) == Fraction(25, 2)


def test_restricted_substitutes_and_multipliers(extended):
    w, w3, syms = extended.symbols["W"], extended.symbols["W3"], extended.symbols
    assert w.substitutes == frozenset({"R7", "B7"}) and w3.substitutes is None
    assert (w.multiplier, w3.multiplier, syms["R7"].multiplier) == (2, 3, 1)
    assert w.substitutes_for(syms["R7"]) and not w.substitutes_for(syms["BAR"])
    assert w3.substitutes_for(syms["BAR"])
    # never for scatters, bonus symbols or other wilds
    assert not any(w3.substitutes_for(syms[n]) for n in ("SC", "BN", "W"))


def test_bonus_symbol(extended):
    bn = extended.symbols["BN"]
    assert bn.bonus and not bn.wild and not bn.scatter and not bn.pays


def test_bet_levels_and_level_pays(extended):
    r7, b7 = extended.symbols["R7"], extended.symbols["B7"]
    assert extended.bet_levels == (1, 2, 5)
    assert extended.total_bet(5) == 50
    assert r7.level_pays == {5: {3: Fraction(1000)}}
    # level_pays replaces one entry at its level; every other entry scales with the level
    assert [r7.pay_at(3, level) for level in (1, 2, 5)] == [80, 160, 1000]
    assert [b7.pay_at(3, level) for level in (1, 2, 5)] == [40, 80, 200]
    # scatter pays in total bets at the level played
    assert extended.scatter_pay("SC", 3, 1) == Fraction(5, 2)
    assert extended.scatter_pay("SC", 3, 5) == 4  # 20 level-1 total bets / 5
    assert extended.scatter_pay("SC", 2, 5) == Fraction(1, 2)
    assert extended.scatter_pay("SC", 5, 1) == Fraction(5, 2)  # above the top pays as the top


def test_free_spins_defaults(extended):
    fs = extended.free_spins
    assert (fs.trigger, dict(fs.awards), fs.reels) == ("SC", {2: 3}, "base")
    assert (fs.multiplier, fs.retrigger, fs.max_spins) == (1, False, None)
    assert fs.award_for(1) == 0 and fs.award_for(2) == 3 and fs.award_for(5) == 3


def test_defaults_of_a_minimal_game():
    game = loads_game('rows = 1\nbet = 3\nways = true\n[symbols]\nA = {}\n[reels]\n'
                      'base = [["A"], ["A"]]\n', "dir/minimal.toml")
    assert (game.name, game.description, game.bet_levels) == ("minimal", "", (1,))
    assert (game.paylines, game.ways, game.n_lines, game.free_spins) == (None, True, 0, None)
    assert dict(game.groups) == {} and game.source == "dir/minimal.toml"
    a = game.symbols["A"]
    assert (dict(a.pays), a.wild, a.scatter, a.bonus, a.multiplier, a.substitutes) == (
        {}, False, False, False, 1, None)
    assert (game.coin_value, game.currency, game.max_win, game.jackpots) == (None, "", None, ())
    assert game.cap_coins() is None


def test_ways_game():
    game = loads_game('rows = [2, 3, 2]\nbet = 25\nways = true\n[symbols]\n'
                      'W = { wild = true, multiplier = 2 }\nA = { pays = { 3 = 5 } }\n'
                      '[reels]\nbase = [["A", "W"], ["A", "A", "W"], ["W", "A"]]\n')
    assert game.ways and game.paylines is None and game.rows == (2, 3, 2)
    assert game.symbols["A"].pays == {3: 5}


def test_the_model_is_read_only(extended):
    with pytest.raises(TypeError):
        extended.symbols["Q"] = extended.symbols["X"]
    with pytest.raises(TypeError):
        extended.symbols["R7"].pays[3] = Fraction(1)


# -- exact values -------------------------------------------------------------------------
@pytest.mark.parametrize("written, exact", [
    ("10", Fraction(10)),
    ("0.5", Fraction(1, 2)),
    ("0.1", Fraction(1, 10)),  # the decimal written, not the binary float 0.1000000000000000055...
    ("2.25", Fraction(9, 4)),
    ("1e2", Fraction(100)),
    ('"5/2"', Fraction(5, 2)),
    ('"10/4"', Fraction(5, 2)),
    ('"0.3"', Fraction(3, 10)),
    ('"7"', Fraction(7)),
    ("0", Fraction(0)),
])
def test_pays_are_exact(written, exact):
    game = loads_game(f'rows = 1\nbet = 1\npaylines = [[0, 0, 0]]\n[symbols]\n'
                      f'A = {{ pays = {{ 3 = {written} }} }}\n'
                      '[reels]\nbase = [["A"], ["A"], ["A"]]\n')
    pay = game.symbols["A"].pays[3]
    assert type(pay) is Fraction and pay == exact


def test_loads_and_load_agree(tmp_path):
    path = tmp_path / "extended.toml"
    path.write_text(EXTENDED, encoding="utf-8")
    from_file, from_text = load_game(path), loads_game(EXTENDED, str(path))
    assert from_file == from_text


def test_game_from_dict_matches_toml(extended):
    import tomllib

    from_dict = game_from_dict(tomllib.loads(EXTENDED), "extended.toml")
    assert from_dict == extended


def test_retriggers_that_end_load():
    """The never-ending check rejects only expected award >= 1 with no cap."""
    body = ('rows = 1\nbet = 1\npaylines = [[0, 0]]\n[symbols]\nS = { scatter = true }\n'
            'A = { pays = { 2 = 1 } }\n[reels]\nbase = [["S", "A"], ["S", "A"]]\n'
            '[free_spins]\ntrigger = "S"\nretrigger = true\n')
    # P(one S or more) = 3/4; award 1 for 1 S -> expected 3/4 spins per spin: ends
    game = loads_game(body + "awards = { 1 = 1 }\n")
    assert game.free_spins.retrigger and game.free_spins.max_spins is None
    # expected 3/4 * 2 = 3/2 but capped: ends
    capped = loads_game(body + "awards = { 1 = 2 }\nmax_spins = 40\n")
    assert capped.free_spins.max_spins == 40


# -- coin value, max win and progressive jackpots -------------------------------------------
def _jackpot_variant(*pairs: tuple[str, str]) -> Game:
    """``JACKPOT_GAME`` with each ``old`` (occurring once) replaced by ``new``, loaded."""
    text = JACKPOT_GAME
    for old, new in pairs:
        assert text.count(old) == 1, f"{old!r} occurs {text.count(old)} times"
        text = text.replace(old, new)
    return loads_game(text, "jackpot.toml")


@pytest.fixture(scope="module")
def jackpot() -> Game:
    return loads_game(JACKPOT_GAME, "jackpot.toml")


def test_coin_value_currency_and_max_win(jackpot):
    assert type(jackpot.coin_value) is Fraction and jackpot.coin_value == Fraction(1, 5)
    assert jackpot.currency == "EUR"
    assert jackpot.max_win == MaxWin(bet_multiple=Fraction(40), currency=None)
    assert [jackpot.total_bet(level) for level in (1, 2)] == [5, 10]  # coins
    assert [jackpot.bet_value(level) for level in (1, 2)] == [1, 2]  # EUR: 5 and 10 x 0.2
    assert [jackpot.cap_coins(level) for level in (1, 2)] == [200, 400]  # 40 x total bet


def test_jackpot_specs(jackpot):
    wheel = jackpot.bonus_wheel
    assert wheel.jackpots == ("MINI", "GRAND")
    # prizes and weights are the coin divisions only; the jackpot divisions have no weight
    assert (wheel.prizes, wheel.weights, wheel.multiplied) == ((1, 1, 2), (3, 3, 2), False)
    assert jackpot.jackpots == (
        JackpotSpec("MINI", Fraction(5), Fraction(3, 100), Fraction(1, 10), "linear",
                    {"rate": 0.01}, {1: 1.0, 2: 1.5}),
        JackpotSpec("GRAND", Fraction(40), Fraction(1, 50), Fraction(1, 5), "saturating",
                    {"p_max": 0.05, "half": 100.0}, {1: 1.0, 2: 3.0}),
    )
    for spec in jackpot.jackpots:
        assert all(type(x) is Fraction for x in (spec.seed, spec.contribution,
                                                  spec.reserve_fraction))
        assert all(type(v) is float for v in (*spec.parameters.values(),
                                               *spec.level_factors.values()))
    grand = jackpot.jackpots[1]
    assert [grand.factor(level) for level in jackpot.bet_levels] == [1.0, 3.0]


def test_jackpot_game_from_dict_matches_toml(jackpot):
    import tomllib

    assert game_from_dict(tomllib.loads(JACKPOT_GAME), "jackpot.toml") == jackpot


@pytest.mark.parametrize("old, new, read, exact", [
    ("contribution = 0.03", "contribution = 0.024", lambda g: g.jackpots[0].contribution,
     Fraction(3, 125)),  # the decimal written, not the binary float 0.0240000000000000005
    ("contribution = 0.03", 'contribution = "3/125"', lambda g: g.jackpots[0].contribution,
     Fraction(3, 125)),
    ("contribution = 0.03", "contribution = 0", lambda g: g.jackpots[0].contribution, 0),
    ("reserve = 0.1", "reserve = 0.15", lambda g: g.jackpots[0].reserve_fraction,
     Fraction(3, 20)),
    ("seed = 40", "seed = 12.5", lambda g: g.jackpots[1].seed, Fraction(25, 2)),
    ("seed = 40", "seed = 0", lambda g: g.jackpots[1].seed, 0),
    ("coin_value = 0.2", "coin_value = 0.01", lambda g: g.coin_value, Fraction(1, 100)),
    ("coin_value = 0.2", 'coin_value = "1/3"', lambda g: g.coin_value, Fraction(1, 3)),
    ("coin_value = 0.2", "coin_value = 2", lambda g: g.coin_value, 2),
    ("bet_multiple = 40", "bet_multiple = 12.5", lambda g: g.max_win.bet_multiple,
     Fraction(25, 2)),
])
def test_jackpot_numbers_are_exact(old, new, read, exact):
    value = read(_jackpot_variant((old, new)))
    assert type(value) is Fraction and value == exact


def test_jackpot_defaults():
    """reserve defaults to 0 and level_factors to 1 at every level."""
    game = _jackpot_variant(("reserve = 0.1\n", ""), ("level_factors = [1, 1.5]\n", ""))
    mini = game.jackpots[0]
    assert mini.reserve_fraction == 0 and dict(mini.level_factors) == {1: 1.0, 2: 1.0}


@pytest.mark.parametrize("law, parameters", [
    ('law = "constant"\nprobability = 0.01', {"probability": 0.01}),
    ('law = "constant"\nprobability = 1', {"probability": 1.0}),
    ('law = "linear"\nrate = 1e-12', {"rate": 1e-12}),  # 0 is refused: never won
    ('law = "saturating"\np_max = 0.2\nhalf = 0', {"p_max": 0.2, "half": 0.0}),
])
def test_each_hit_law_loads_with_its_parameters(law, parameters):
    game = _jackpot_variant(('law = "linear"\nrate = 0.01', law))
    mini = game.jackpots[0]
    assert (mini.law, dict(mini.parameters)) == (law.split('"')[1], parameters)


@pytest.mark.parametrize("max_win, caps", [
    # 40 x bet is 200 and 400 coins; 60 EUR is 300 coins of 0.2: the smaller cap applies
    ("bet_multiple = 40\ncurrency = 60", [200, 300]),
    ("currency = 60", [300, 300]),  # a currency cap is the same number of coins at every level
    ("bet_multiple = 40\ncurrency = 1000", [200, 400]),
    ('bet_multiple = "1/5"', [1, 2]),  # exact fractions of a coin are kept
])
def test_cap_coins_is_the_smaller_cap_at_each_level(max_win, caps):
    game = _jackpot_variant(("bet_multiple = 40", max_win))
    assert [game.cap_coins(level) for level in game.bet_levels] == caps
    assert all(type(c) is Fraction for c in map(game.cap_coins, game.bet_levels))


# -- the documentation's examples ------------------------------------------------------------
DOC = ROOT / "docs" / "game-format.md"


def test_contract_example_in_the_docs_loads():
    text = DOC.read_text(encoding="utf-8")
    section = text[text.index("## The contract example"):]
    example = section[section.index("```toml\n") + 8: section.index("```\n", 10)]
    game = loads_game(example, "docs/game-format.md")
    assert (game.name, game.n_reels, game.n_lines, game.bet) == ("Example Lines", 5, 2, 20)
    assert [len(r) for r in game.base.reels] == [5, 4, 4, 3, 3]
    fs = game.free_spins
    assert (dict(fs.awards), fs.reels, fs.multiplier, fs.retrigger, fs.max_spins) == (
        {3: 10, 4: 15, 5: 20}, "free", 3, True, 50)


def test_jackpot_example_in_the_docs_loads():
    """The jackpot example is a fragment: it is put into a small lines game with BN on the
    reels, its top-level keys before the game's tables."""
    text = DOC.read_text(encoding="utf-8")
    section = text[text.index("### Coin value, max win and progressive jackpots"):]
    example = section[section.index("```toml\n") + 8: section.index("```\n", 10)]
    game = loads_game('rows = 3\nbet = 25\npaylines = [[1, 1, 1], [0, 0, 0]]\n' + example
                      + '[symbols]\nBN = { bonus = true }\nA = { pays = { 3 = 5 } }\nX = {}\n'
                        '[reels]\nbase = [["BN", "A", "X"], ["A", "BN", "X"], ["X", "A", "BN"]]\n',
                      "docs/game-format.md")
    assert (game.coin_value, game.currency, game.bet_levels) == (Fraction(1, 100), "EUR",
                                                                 (1, 2, 5))
    assert [game.bet_value(level) for level in (1, 2, 5)] == [Fraction(1, 4), Fraction(1, 2),
                                                              Fraction(5, 4)]
    # the numbers the text works out
    assert [game.cap_coins(level) for level in (1, 2, 5)] == [125_000, 250_000, 250_000]
    minor, major, grand = game.jackpots
    assert game.bonus_wheel.jackpots == ("MINOR", "MAJOR", "GRAND")
    assert [minor.parameters["probability"] * minor.factor(level) for level in (1, 2, 5)] == [
        0.002, 0.004, 0.01]
    assert (minor.seed, minor.contribution, minor.reserve_fraction) == (
        20, Fraction(1, 100), Fraction(1, 10))
    assert (major.law, dict(major.parameters), major.reserve_fraction) == (
        "saturating", {"p_max": 0.001, "half": 2000.0}, 0)
    assert grand.law == "linear" and grand.parameters["rate"] * 10_000 == pytest.approx(2e-4)
    assert sum(j.contribution for j in game.jackpots) == Fraction(16, 1000)


def test_documented_line_and_level_examples():
    from slotmath.evaluate.window import PayModel

    game = loads_game('rows = 1\nbet = 1\npaylines = [[0, 0, 0, 0, 0]]\nbet_levels = [1, 2, 5]\n'
                      '[symbols]\nW = { wild = true, pays = { 3 = 100 } }\n'
                      'A = { pays = { 3 = 20, 4 = 50 } }\nX = {}\n'
                      'R7 = { pays = { 3 = 80, 5 = 1000 }, level_pays = { 5 = { 5 = 10000 } } }\n'
                      '[reels]\nbase = [["W", "A", "X", "R7"], ["X"], ["X"], ["X"], ["X"]]\n')
    model = PayModel(game)
    assert [model.line_win(line.split()).credits
            for line in ("W W W A X", "W W A A X", "A W W X W", "X W W W W")] == [100, 50, 20, 0]
    r7 = game.symbols["R7"]
    assert [r7.pay_at(5, level) for level in (1, 2, 5)] == [1000, 2000, 10000]
    assert [r7.pay_at(3, level) for level in (1, 2, 5)] == [80, 160, 400]


def test_benchmark_only_games_are_covered():
    """A game the generic suites leave out (tests/bundled.py) loads, has its benchmark and its
    own tests, and is the only kind left out."""
    from bundled import ALL, ANALYSED, BENCHMARK_ONLY

    assert set(BENCHMARK_ONLY) <= {p.stem for p in ALL}
    for name, (bench, tests) in BENCHMARK_ONLY.items():
        assert (ROOT / bench).exists() and (ROOT / tests).exists(), name
        load_game(ROOT / "data" / "games" / f"{name}.toml")
    assert len(ANALYSED) == len(ALL) - len(BENCHMARK_ONLY)
