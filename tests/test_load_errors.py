"""Every kind of bad game file gives one :class:`GameFileError` naming file, key and problem.

One list of cases, one suite (SciPy style): each case is a mutation of the small valid game
:data:`BASE` (or, for coin value, max win and jackpots, of ``JACKPOT_GAME`` from
``tests/strategies.py``), the key path the error must name and a fragment of the message.
Adding a check to the loader = adding a row here.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from strategies import JACKPOT_GAME

from slotmath.errors import GameFileError
from slotmath.io.toml_loader import game_from_dict, load_game, loads_game

# A valid lines game touching every part of the format: wild, scatter, plain symbols, a
# group, two reel sets, bet levels and retriggering free spins.
BASE = """\
name = "base"
rows = 3
bet = 10
bet_levels = [1, 2]
paylines = [[1, 1, 1], [0, 0, 0]]

[symbols]
W = { wild = true, pays = { 3 = 50 } }
SC = { scatter = true, pays = { 3 = 5 } }
A = { pays = { 2 = 1, 3 = 10 } }
B = { pays = { 3 = 5 } }
X = {}

[groups]
AB = { members = ["A", "B"], pays = { 3 = 2 } }

[reels]
base = [["A", "B", "W", "SC", "X"], ["B", "A", "X", "W", "SC"], ["X", "A", "B", "SC", "A"]]
free = [["A", "B", "W", "X"], ["A", "W", "X", "B"], ["A", "B", "X", "SC"]]

[free_spins]
trigger = "SC"
awards = { 3 = 5 }
reels = "free"
multiplier = 2
retrigger = true
"""

REEL_0 = '["A", "B", "W", "SC", "X"], ["B"'  # reel 1 of the base set (unique text)
WEIGHTED_0 = '{ strip = ["A", "B", "W", "SC", "X"], weights = [1, 2, 3, 4, 5] }, ["B"'
REELS_TABLE = BASE[BASE.index("[reels]"):BASE.index("[free_spins]")]

Mutation = Callable[[str], "str | None"]


def sub(old: str, new: str) -> Mutation:
    """Replace the one occurrence of ``old`` (a mutation that silently misses is a bug)."""

    def mutate(text: str) -> str:
        assert text.count(old) == 1, f"mutation target {old!r} occurs {text.count(old)} times"
        return text.replace(old, new)

    return mutate


def subs(*pairs: tuple[str, str]) -> Mutation:
    """Several replacements in order."""

    def mutate(text: str) -> str:
        for old, new in pairs:
            text = sub(old, new)(text)
        return text

    return mutate


def whole(text: str) -> Mutation:
    """The file is replaced by ``text``."""
    return lambda _: text


def missing_file(_: str) -> None:
    """No file is written at all."""
    return


def weighted(weights: str) -> Mutation:
    """Reel 1 of the base set becomes weighted with the given weights list."""
    return sub(REEL_0, WEIGHTED_0.replace("[1, 2, 3, 4, 5]", weights))


# JACKPOT_GAME: bet 5 coins, bet_levels [1, 2], coin_value 0.2, a wheel with jackpot divisions
# ["MINI", "GRAND"], [max_win] bet_multiple = 40, then [[jackpots]] MINI (linear law) and
# GRAND (saturating law), in that order and at the end of the file.
WHEEL_TABLE = JACKPOT_GAME[JACKPOT_GAME.index("[bonus_wheel]"):JACKPOT_GAME.index("[max_win]")]
JACKPOT_TABLES = JACKPOT_GAME[JACKPOT_GAME.index("[[jackpots]]"):]


def jackpot(*pairs: tuple[str, str]) -> Mutation:
    """Replacements in ``JACKPOT_GAME`` (instead of :data:`BASE`), each of one occurrence."""
    return lambda _: subs(*pairs)(JACKPOT_GAME)


def jackpot_top(line: str, *pairs: tuple[str, str]) -> Mutation:
    """``JACKPOT_GAME`` with ``line`` added to its top-level keys (after the others)."""
    return jackpot(('currency = "EUR"\n', f'currency = "EUR"\n{line}\n'), *pairs)


# (id, mutation, key path or None, message fragment)
CASES: list[tuple[str, Mutation, str | None, str]] = [
    # -- issue section 3 ------------------------------------------------------------------
    ("undeclared symbol on a strip", sub('"X", "A", "B", "SC", "A"', '"X", "A", "Q", "SC", "A"'),
     "reels.base[2][2]", "symbol 'Q' is not declared in [symbols]"),
    ("undeclared symbol on a free strip", sub('["A", "W", "X", "B"]', '["A", "W", "X", "Q"]'),
     "reels.free[1][3]", "symbol 'Q' is not declared"),
    ("payline too short", sub("[1, 1, 1], [0", "[1, 1], [0"),
     "paylines[0]", "has 2 entries but the game has 3 reels: give one row index per reel"),
    ("payline too long", sub("[0, 0, 0]]", "[0, 0, 0, 0]]"),
     "paylines[1]", "has 4 entries but the game has 3 reels"),
    ("payline row below the reel", sub("[0, 0, 0]]", "[0, 3, 0]]"),
     "paylines[1][1]", "row 3 is outside reel 2's rows: use 0 (top) to 2 (bottom)"),
    ("payline row negative", sub("[0, 0, 0]]", "[0, 0, -1]]"),
     "paylines[1][2]", "row -1 is outside reel 3's rows"),
    ("empty strip", sub(REEL_0, '[], ["B"'), "reels.base[0]", "strip is empty"),
    ("empty weighted strip", sub(REEL_0, '{ strip = [] }, ["B"'),
     "reels.base[0].strip", "strip is empty: list at least one symbol"),
    ("negative pay", sub("3 = 10 }", "3 = -10 }"), "symbols.A.pays.3", "pay must be >= 0"),
    ("negative fraction pay", sub("3 = 10 }", '3 = "-5/2" }'), "symbols.A.pays.3",
     "pay must be >= 0, got '-5/2'"),
    ("non-numeric pay", sub("3 = 10 }", '3 = "ten" }'), "symbols.A.pays.3",
     "pay must be a number or a fraction like '5/2', got 'ten'"),
    ("pay of zero denominator", sub("3 = 10 }", '3 = "1/0" }'), "symbols.A.pays.3",
     "pay must be a number or a fraction"),
    ("pay is a list", sub("3 = 10 }", "3 = [10] }"), "symbols.A.pays.3",
     "pay must be a number like 10, 2.5 or '5/2', got [10]"),
    ("pay is a boolean", sub("3 = 10 }", "3 = true }"), "symbols.A.pays.3",
     "pay must be a number"),
    ("pay is infinite", sub("3 = 10 }", "3 = inf }"), "symbols.A.pays.3",
     "pay must be a finite number"),
    ("pay is nan", sub("3 = 10 }", "3 = nan }"), "symbols.A.pays.3", "finite"),
    ("pays not a table", sub("{ pays = { 3 = 5 } }\nX", "{ pays = 5 }\nX"), "symbols.B.pays",
     "must be a table of count = value"),
    ("line pay count above the reels", sub("3 = 10 }", "3 = 10, 4 = 40 }"), "symbols.A.pays.4",
     "count 4 can never happen: at most 3 (reels)"),
    ("wild pay count above the reels", sub("{ 3 = 50 }", "{ 3 = 50, 6 = 500 }"),
     "symbols.W.pays.6", "at most 3 (reels)"),
    ("group pay count above the reels", sub("pays = { 3 = 2 }", "pays = { 4 = 2 }"),
     "groups.AB.pays.4", "at most 3 (reels)"),
    ("scatter count above the window", sub("{ 3 = 5 } }\nA", "{ 3 = 5, 10 = 50 } }\nA"),
     "symbols.SC.pays.10", "count 10 can never happen: at most 9 (positions in the window)"),
    ("pay count zero", sub("{ 2 = 1,", "{ 0 = 1,"), "symbols.A.pays.0", "count must be >= 1"),
    ("pay count not a number", sub("{ 2 = 1,", "{ two = 1,"), "symbols.A.pays.two",
     "must be a whole number written with digits only, got 'two'"),
    ("pay count written twice", sub("{ 2 = 1,", "{ 2 = 1, 02 = 3,"), "symbols.A.pays.02",
     "count 2 is listed twice"),
    ("not TOML", whole("this is not a game file\n"), None, "not valid TOML"),
    ("TOML syntax error names the line", sub("bet = 10", "bet = "), None,
     "not valid TOML: Invalid value at line 3"),
    ("binary garbage", whole("\x00\x01\x02"), None, "not valid TOML"),
    ("a top-level key repeated", sub("bet = 10\n", "bet = 10\nbet = 20\n"), "bet",
     "key is given twice (second at line 4)"),
    ("a symbol repeated", sub("X = {}\n", "X = {}\nA = {}\n"), "symbols.A",
     "key is given twice"),
    ("a key repeated in an inline table", sub("{ 2 = 1, 3 = 10 }", "{ 2 = 1, 3 = 10, 3 = 20 }"),
     "symbols.A", "key '3' is given twice inside this inline table"),
    ("a table repeated", sub("[groups]", "[reels]\nbonus = []\n[groups]"), "reels",
     "table declared twice"),
    ("a repeated key that is the last statement", lambda t: t + "retrigger = false\n",
     "free_spins.retrigger", "key is given twice"),
    ("missing reels", sub(REELS_TABLE, ""), "reels",
     "missing: add a [reels] table with at least a 'base' reel set"),
    ("missing base reel set", sub("base = [[", "main = [["), "reels.base",
     "missing: the base game's reel set"),
    ("base reel set empty", sub('base = [["A", "B", "W", "SC", "X"], ["B", "A", "X", "W", "SC"], '
                                '["X", "A", "B", "SC", "A"]]', "base = []"),
     "reels.base", "must be a non-empty list of reels"),
    ("both paylines and ways", sub("bet = 10\n", "bet = 10\nways = true\n"), "paylines",
     "either paylines or ways = true, not both"),
    ("neither paylines nor ways", sub("paylines = [[1, 1, 1], [0, 0, 0]]\n", ""), "paylines",
     "missing: give paylines = [[...], ...] (a lines game) or ways = true"),
    ("ways = false is neither", sub("paylines = [[1, 1, 1], [0, 0, 0]]\n", "ways = false\n"),
     "paylines", "missing"),
    ("empty paylines", sub("paylines = [[1, 1, 1], [0, 0, 0]]", "paylines = []"), "paylines",
     "must be a non-empty list of lines"),
    ("rows zero", sub("rows = 3", "rows = 0"), "rows", "must be >= 1, got 0"),
    ("rows negative", sub("rows = 3", "rows = -2"), "rows", "must be >= 1, got -2"),
    ("rows per reel with a zero", sub("rows = 3", "rows = [3, 0, 3]"), "rows[1]",
     "must be >= 1, got 0"),
    ("bet zero", sub("bet = 10", "bet = 0"), "bet", "must be >= 1, got 0"),
    ("bet negative", sub("bet = 10", "bet = -10"), "bet", "must be >= 1, got -10"),
    ("bet not whole", sub("bet = 10", "bet = 2.5"), "bet", "must be a whole number >= 1, got 2.5"),
    # (wild and scatter at once is allowed since issue 21: a Book game's book)
    ("wild and bonus", sub("W = { wild = true,", "W = { wild = true, bonus = true,"),
     "symbols.W", "a bonus symbol cannot also be wild or scatter"),
    ("free spins trigger undeclared", sub('trigger = "SC"', 'trigger = "S"'),
     "free_spins.trigger", "symbol 'S' is not declared in [symbols]"),
    ("free spins reel set unknown", sub('reels = "free"', 'reels = "bonus"'),
     "free_spins.reels",
     "reel set 'bonus' is not defined under [reels] (defined: ['base', 'free'])"),
    ("retrigger that never ends", sub("awards = { 3 = 5 }", "awards = { 1 = 5 }"),
     "free_spins.retrigger",
     ("expected retrigger award per free spin is 15/4 (~3.75) >= 1 with no max_spins: "
     "the feature would never end")),
    ("retrigger of exactly one spin per spin", subs(
        ("awards = { 3 = 5 }", "awards = { 1 = 1 }"),
        ('["A", "B", "X", "SC"]]', '["SC"]]')),
     "free_spins.retrigger", "is 1 (~1) >= 1"),
    # -- typos and unknown keys -----------------------------------------------------------
    ("top-level typo", sub("paylines =", "paylnes ="), "paylnes",
     "unknown key: did you mean 'paylines'?"),
    ("symbol key typo", sub("A = { pays", "A = { pay"), "symbols.A.pay",
     "unknown key: did you mean 'pays'?"),
    ("quoted symbol name in the key path", sub("X = {}", '"my sym" = { pay = { 3 = 1 } }'),
     'symbols."my sym".pay', "did you mean 'pays'?"),
    ("group key typo", sub("members =", "member ="), "groups.AB.member",
     "did you mean 'members'?"),
    ("free spins key typo", sub("multiplier = 2", "multiplyer = 2"), "free_spins.multiplyer",
     "did you mean 'multiplier'?"),
    ("weighted reel key typo", sub(REEL_0, '{ strip = ["A"], weight = [1] }, ["B"'),
     "reels.base[0].weight", "did you mean 'weights'?"),
    ("unknown key without a close match", sub("bet = 10\n", "bet = 10\nprogressive = 5\n"),
     "progressive", "unknown key: (expected one of:"),
    # -- weighted stops -------------------------------------------------------------------
    ("weights too short", weighted("[1, 2, 3]"), "reels.base[0].weights",
     "one whole-number weight per stop: the strip has 5 stops, got 3"),
    ("weights too long", weighted("[1, 2, 3, 4, 5, 6]"), "reels.base[0].weights", "got 6"),
    ("weights not a list", weighted("7"), "reels.base[0].weights", "got 7"),
    ("negative weight", weighted("[1, -2, 3, 4, 5]"), "reels.base[0].weights[1]",
     "must be >= 0, got -2"),
    ("fractional weight", weighted("[1, 2, 3.5, 4, 5]"), "reels.base[0].weights[2]",
     "must be a whole number >= 0, got 3.5"),
    ("boolean weight", weighted("[1, 2, 3, true, 5]"), "reels.base[0].weights[3]",
     "must be a whole number >= 0, got True"),
    ("all weights zero", weighted("[0, 0, 0, 0, 0]"), "reels.base[0].weights",
     "all weights are zero: at least one stop needs a weight > 0"),
    ("weighted reel without strip", sub(REEL_0, '{ weights = [1] }, ["B"'),
     "reels.base[0].strip", "missing"),
    # -- groups ---------------------------------------------------------------------------
    ("group member undeclared", sub('["A", "B"]', '["A", "Q"]'), "groups.AB.members",
     "symbol 'Q' is not declared in [symbols]"),
    ("group of one", sub('["A", "B"]', '["A"]'), "groups.AB.members",
     "must list at least two symbol names"),
    ("group member not a name", sub('["A", "B"]', '["A", ["B"]]'), "groups.AB.members",
     "must list at least two symbol names"),
    ("group member twice", sub('["A", "B"]', '["A", "B", "A"]'), "groups.AB.members",
     "lists a symbol twice"),
    ("group member is a scatter", sub('["A", "B"]', '["A", "SC"]'), "groups.AB.members",
     "'SC' is a scatter"),
    ("group member is a wild", sub('["A", "B"]', '["A", "W"]'), "groups.AB.members",
     "'W' is a wild: a group lists plain symbols"),
    ("group without pays", sub(', pays = { 3 = 2 }', ""), "groups.AB.pays", "missing"),
    ("group named like a symbol", sub("AB = {", "A = {"), "groups.A",
     "cannot share its name with the symbol 'A'"),
    # -- bet levels and level_pays --------------------------------------------------------
    ("level_pays for a level not in bet_levels",
     sub("3 = 10 }", "3 = 10 }, level_pays = { 3 = { 3 = 40 } }"),
     "symbols.A.level_pays.3", "bet level 3 is not in bet_levels [1, 2]"),
    ("level_pays for level 1", sub("3 = 10 }", "3 = 10 }, level_pays = { 1 = { 3 = 40 } }"),
     "symbols.A.level_pays.1", "level 1 pays are the pays table itself"),
    ("level_pays count above the reels",
     sub("3 = 10 }", "3 = 10 }, level_pays = { 2 = { 4 = 40 } }"),
     "symbols.A.level_pays.2.4", "at most 3 (reels)"),
    ("level_pays negative", sub("3 = 10 }", "3 = 10 }, level_pays = { 2 = { 3 = -1 } }"),
     "symbols.A.level_pays.2.3", "pay must be >= 0"),
    ("group level_pays for an unknown level",
     sub("pays = { 3 = 2 }", "pays = { 3 = 2 }, level_pays = { 5 = { 3 = 9 } }"),
     "groups.AB.level_pays.5", "bet level 5 is not in bet_levels"),
    ("scatter level_pays adds a count", sub(
        "{ 3 = 5 } }\nA", "{ 3 = 5 }, level_pays = { 2 = { 4 = 20 } } }\nA"),
     "symbols.SC.level_pays.2.4", "count 4 is not in this scatter's pays [3]"),
    ("bet_levels repeat a level", sub("[1, 2]", "[1, 2, 2]"), "bet_levels[2]",
     "level 2 is listed twice: give each level once"),
    ("bet_levels without level 1", sub("[1, 2]", "[2, 5]"), "bet_levels",
     "must include level 1"),
    ("bet_levels with zero", sub("[1, 2]", "[1, 0]"), "bet_levels[1]", "must be >= 1, got 0"),
    ("bet_levels empty", sub("[1, 2]", "[]"), "bet_levels", "must be a non-empty list"),
    ("bet_levels not a list", sub("[1, 2]", "2"), "bet_levels", "must be a non-empty list"),
    # -- rows per reel ---------------------------------------------------------------------
    ("rows list too short", sub("rows = 3", "rows = [3, 3]"), "rows",
     "lists 2 reels but the base reel set has 3: give one row count per reel"),
    ("rows list too long", sub("rows = 3", "rows = [3, 3, 3, 3]"), "rows", "lists 4 reels"),
    ("rows missing", sub("rows = 3\n", ""), "rows", "missing"),
    ("bet missing", sub("bet = 10\n", ""), "bet", "missing"),
    ("symbols missing", sub("[symbols]", "[more]"), "more", "unknown key"),
    ("reel set with a different number of reels",
     sub('free = [["A", "B", "W", "X"], ', "free = ["), "reels.free",
     "has 2 reels but the base reel set has 3"),
    # -- free spins -----------------------------------------------------------------------
    ("trigger is not a scatter", sub('trigger = "SC"', 'trigger = "A"'), "free_spins.trigger",
     "symbol 'A' is not a scatter"),
    ("trigger is a list", sub('trigger = "SC"', 'trigger = ["SC"]'), "free_spins.trigger",
     "must be a symbol name (a string), got ['SC']"),
    ("trigger missing", sub('trigger = "SC"\n', ""), "free_spins.trigger", "missing"),
    ("free spins reels is a list", sub('reels = "free"', 'reels = ["free"]'),
     "free_spins.reels", "must be the name of a reel set"),
    ("awards missing", sub("awards = { 3 = 5 }\n", ""), "free_spins.awards", "missing"),
    ("awards empty", sub("awards = { 3 = 5 }", "awards = {}"), "free_spins.awards",
     "must award spins for at least one count"),
    ("award of zero spins", sub("awards = { 3 = 5 }", "awards = { 3 = 0 }"),
     "free_spins.awards.3", "must be >= 1, got 0"),
    ("award count above the window", sub("awards = { 3 = 5 }", "awards = { 10 = 5 }"),
     "free_spins.awards.10", "at most 9 (positions in the window)"),
    ("free spin multiplier zero", sub("multiplier = 2", "multiplier = 0"),
     "free_spins.multiplier", "must be >= 1"),
    ("max_spins zero", sub("retrigger = true", "retrigger = true\nmax_spins = 0"),
     "free_spins.max_spins", "must be >= 1, got 0"),
    ("free_spins not a table",
     lambda t: t[: t.index("[free_spins]")].replace("bet = 10\n", "bet = 10\nfree_spins = 3\n"),
     "free_spins", "must be a table"),
    # -- symbols ---------------------------------------------------------------------------
    ("substitutes on a plain symbol", sub("B = { pays", 'B = { substitutes = ["A"], pays'),
     "symbols.B.substitutes", "only a wild substitutes"),
    ("substitutes an undeclared symbol", sub("wild = true,", 'wild = true, substitutes = ["Q"],'),
     "symbols.W.substitutes", "symbol 'Q' is not declared"),
    ("substitutes a scatter", sub("wild = true,", 'wild = true, substitutes = ["A", "SC"],'),
     "symbols.W.substitutes", "'SC' is a scatter: wilds never stand in for it"),
    ("substitutes not a list of names", sub("wild = true,", "wild = true, substitutes = [1],"),
     "symbols.W.substitutes", "must be a list of symbol names"),
    ("bonus with pays", sub("X = {}", "X = { bonus = true, pays = { 3 = 1 } }"), "symbols.X.pays",
     "a bonus symbol pays nothing on its own"),
    ("bonus and wild", sub("X = {}", "X = { bonus = true, wild = true }"), "symbols.X",
     "cannot also be wild or scatter"),
    ("bonus with a multiplier", sub("X = {}", "X = { bonus = true, multiplier = 2 }"),
     "symbols.X.multiplier", "a bonus symbol takes part in no line or way"),
    ("scatter with a multiplier", sub("scatter = true,", "scatter = true, multiplier = 2,"),
     "symbols.SC.multiplier", "a scatter takes part in no line or way"),
    ("multiplier that never applies", sub("X = {}", "X = { multiplier = 3 }"),
     "symbols.X.multiplier", "has no effect"),
    ("multiplier zero", sub("wild = true,", "wild = true, multiplier = 0,"),
     "symbols.W.multiplier", "must be >= 1, got 0"),
    ("symbol spec not a table", sub("X = {}", "X = 3"), "symbols.X", "must be a table"),
    # -- types: booleans are not numbers, strings are not numbers ----------------------------
    ("payline entry a string", sub("[1, 1, 1]", '[1, "1", 1]'), "paylines[0][1]",
     "must be a whole number, got '1'"),
    ("payline entry a float", sub("[1, 1, 1]", "[1, 1.0, 1]"), "paylines[0][1]",
     "must be a whole number, got 1.0"),
    ("payline entry a boolean", sub("[1, 1, 1]", "[true, 1, 1]"), "paylines[0][0]",
     "must be a whole number, got True"),
    ("payline not a list", sub("[1, 1, 1], [0", "1, [0"), "paylines[0]",
     "must be a list of row indices"),
    ("rows a boolean", sub("rows = 3", "rows = true"), "rows", "got True"),
    ("bet a boolean", sub("bet = 10", "bet = true"), "bet", "got True"),
    ("bet a string", sub("bet = 10", 'bet = "10"'), "bet", "got '10'"),
    ("multiplier a boolean", sub("multiplier = 2", "multiplier = true"),
     "free_spins.multiplier", "got True"),
    ("award a boolean", sub("awards = { 3 = 5 }", "awards = { 3 = true }"),
     "free_spins.awards.3", "got True"),
    ("ways a number", subs(("paylines = [[1, 1, 1], [0, 0, 0]]", "ways = 1")), "ways",
     "must be true or false, got 1"),
    ("wild a string", sub("wild = true", 'wild = "yes"'), "symbols.W.wild",
     "must be true or false, got 'yes'"),
    ("retrigger a number", sub("retrigger = true", "retrigger = 1"), "free_spins.retrigger",
     "must be true or false"),
    ("strip entry a number", sub(REEL_0, '["A", 7, "W"], ["B"'), "reels.base[0][1]",
     "must be a symbol name (a string), got 7"),
    ("name a number", sub('name = "base"', "name = 5"), "name", "must be a string"),
    # -- coin value and currency ------------------------------------------------------------
    ("coin_value zero", jackpot(("coin_value = 0.2", "coin_value = 0")), "coin_value",
     "must be > 0, got 0"),
    ("coin_value negative", jackpot(("coin_value = 0.2", "coin_value = -0.2")), "coin_value",
     "must be > 0, got -0.2"),
    ("coin_value a word", jackpot(("coin_value = 0.2", 'coin_value = "ten cents"')),
     "coin_value", "must be a number > 0, got 'ten cents'"),
    ("coin_value a zero-denominator fraction", jackpot(("coin_value = 0.2", 'coin_value = "1/0"')),
     "coin_value", "must be a number > 0, got '1/0'"),
    ("coin_value a boolean", jackpot(("coin_value = 0.2", "coin_value = true")), "coin_value",
     "must be a number > 0, got True"),
    ("coin_value a list", jackpot(("coin_value = 0.2", "coin_value = [0.2]")), "coin_value",
     "must be a number > 0, got [0.2]"),
    ("coin_value infinite", jackpot(("coin_value = 0.2", "coin_value = inf")), "coin_value",
     "must be a finite number, got inf"),
    ("coin_value nan", jackpot(("coin_value = 0.2", "coin_value = nan")), "coin_value",
     "must be a finite number, got nan"),
    ("coin_value too large for a float", jackpot(("coin_value = 0.2", 'coin_value = "1e400"')),
     "coin_value", "is too large to compute with (above ~1.8e308), got '1e400'"),
    ("coin_value typo", jackpot(("coin_value = 0.2", "coinvalue = 0.2")), "coinvalue",
     "unknown key: did you mean 'coin_value'?"),
    ("currency a number", jackpot(('currency = "EUR"', "currency = 978")), "currency",
     'must be a currency name like "EUR", got 978'),
    # -- max_win --------------------------------------------------------------------------
    ("max_win not a table", jackpot_top("max_win = 40", ("[max_win]\nbet_multiple = 40\n", "")),
     "max_win", "must be a table with bet_multiple and/or currency"),
    ("max_win empty", jackpot(("bet_multiple = 40\n", "")), "max_win",
     "must be a table with bet_multiple and/or currency"),
    ("max_win key typo", jackpot(("bet_multiple = 40", "bet_multiples = 40")),
     "max_win.bet_multiples", "unknown key: did you mean 'bet_multiple'?"),
    ("max_win bet_multiple zero", jackpot(("bet_multiple = 40", "bet_multiple = 0")),
     "max_win.bet_multiple", "must be > 0, got 0"),
    ("max_win bet_multiple a word", jackpot(("bet_multiple = 40", 'bet_multiple = "40x"')),
     "max_win.bet_multiple", "must be a number > 0, got '40x'"),
    ("max_win bet_multiple infinite", jackpot(("bet_multiple = 40", "bet_multiple = inf")),
     "max_win.bet_multiple", "must be a finite number, got inf"),
    ("max_win currency negative", jackpot(("bet_multiple = 40", "currency = -100")),
     "max_win.currency", "must be > 0, got -100"),
    ("max_win currency a boolean", jackpot(("bet_multiple = 40", "currency = true")),
     "max_win.currency", "must be a number > 0, got True"),
    ("max_win currency without coin_value",
     jackpot(("coin_value = 0.2\n", ""), ("bet_multiple = 40", "currency = 100")),
     "max_win.currency", "a cap in currency needs coin_value (currency per coin)"),
    # -- the wheel's jackpot divisions ----------------------------------------------------
    ("wheel jackpots not a list", jackpot(('jackpots = ["MINI", "GRAND"]', 'jackpots = "MINI"')),
     "bonus_wheel.jackpots", "must be a list of jackpot names, one per jackpot division"),
    ("wheel jackpot named by an empty string",
     jackpot(('jackpots = ["MINI", "GRAND"]', 'jackpots = ["MINI", ""]')),
     "bonus_wheel.jackpots", "must be a list of jackpot names"),
    ("wheel jackpot named by a number",
     jackpot(('jackpots = ["MINI", "GRAND"]', 'jackpots = ["MINI", 3]')),
     "bonus_wheel.jackpots", "got ['MINI', 3]"),
    ("wheel jackpot listed twice",
     jackpot(('jackpots = ["MINI", "GRAND"]', 'jackpots = ["MINI", "GRAND", "MINI"]')),
     "bonus_wheel.jackpots", "a jackpot is listed twice in ['MINI', 'GRAND', 'MINI']"),
    ("wheel jackpot without a [[jackpots]] entry",
     jackpot(('jackpots = ["MINI", "GRAND"]', 'jackpots = ["MINI", "GRAND", "MAJOR"]')),
     "bonus_wheel.jackpots", "no [[jackpots]] entry defines ['MAJOR']"),
    ("wheel jackpots and no [[jackpots]] at all", jackpot((JACKPOT_TABLES, "")),
     "bonus_wheel.jackpots",
     "names jackpots ['MINI', 'GRAND'] but the file has no [[jackpots]] to define them"),
    ("multiplied wheel with jackpots",
     jackpot(('per_spin = "once"', 'per_spin = "once"\nmultiplied = true')),
     "bonus_wheel.multiplied", "a wheel with jackpot divisions must not multiply"),
    ("wheel jackpots key typo", jackpot(('jackpots = ["MINI"', 'jackpot = ["MINI"')),
     "bonus_wheel.jackpot", "unknown key: did you mean 'jackpots'?"),
    # -- [[jackpots]]: the array and its links --------------------------------------------
    ("jackpot not on the wheel",
     jackpot(('jackpots = ["MINI", "GRAND"]', 'jackpots = ["MINI"]')),
     "jackpots[1].name",
     "jackpot 'GRAND' has no division on the wheel: add it to bonus_wheel.jackpots ['MINI']"),
    ("jackpots without a wheel", jackpot((WHEEL_TABLE, "")), "jackpots",
     "jackpots are won on the bonus wheel: add a [bonus_wheel]"),
    ("jackpots without coin_value", jackpot(("coin_value = 0.2\n", "")), "jackpots",
     "jackpot seeds are in currency: give coin_value"),
    ("jackpots a number", jackpot_top("jackpots = 5", (JACKPOT_TABLES, "")), "jackpots",
     "must be an array of tables: [[jackpots]]"),
    ("jackpots a list of numbers", jackpot_top("jackpots = [1, 2]", (JACKPOT_TABLES, "")),
     "jackpots", "must be an array of tables"),
    ("jackpots a single table", jackpot((JACKPOT_TABLES, '[jackpots]\nname = "MINI"\n')),
     "jackpots", "must be an array of tables: [[jackpots]]"),
    ("jackpots an empty array", jackpot_top("jackpots = []", (JACKPOT_TABLES, "")), "jackpots",
     "is empty: give one [[jackpots]] table per jackpot, or leave the key out"),
    ("jackpot key typo", jackpot(("seed = 5\n", "seeds = 5\n")), "jackpots[0].seeds",
     "unknown key: did you mean 'seed'?"),
    ("jackpot key unknown", jackpot(("seed = 40", "seed = 40\nmust_hit_by = 1000")),
     "jackpots[1].must_hit_by", "unknown key: (expected one of: contribution, half, law,"),
    ("jackpot name missing", jackpot(('name = "MINI"\n', "")), "jackpots[0].name",
     "missing: the name of its wheel division"),
    ("jackpot name a number", jackpot(('name = "MINI"', "name = 1")), "jackpots[0].name",
     "must be the jackpot's name (a non-empty string), got 1"),
    ("jackpot defined twice", jackpot(('name = "GRAND"', 'name = "MINI"')), "jackpots[1].name",
     "jackpot 'MINI' is defined twice"),
    # -- [[jackpots]]: money ----------------------------------------------------------------
    ("jackpot seed missing", jackpot(("seed = 5\n", "")), "jackpots[0].seed",
     "missing: the jackpot's restart value in currency"),
    ("jackpot seed negative", jackpot(("seed = 40", "seed = -40")), "jackpots[1].seed",
     "must be >= 0, got -40"),
    ("jackpot seed a word", jackpot(("seed = 5\n", 'seed = "five"\n')), "jackpots[0].seed",
     "must be a currency amount >= 0, got 'five'"),
    ("jackpot seed a boolean", jackpot(("seed = 5\n", "seed = true\n")), "jackpots[0].seed",
     "got True"),
    ("jackpot contribution missing", jackpot(("contribution = 0.03\n", "")),
     "jackpots[0].contribution", "missing: the fraction of each paid bet it takes"),
    ("jackpot contribution the whole bet", jackpot(("contribution = 0.03", "contribution = 1")),
     "jackpots[0].contribution", "must be in [0, 1), got 1"),
    ("jackpot contribution negative", jackpot(("contribution = 0.02", "contribution = -0.02")),
     "jackpots[1].contribution", "must be in [0, 1), got -0.02"),
    ("jackpot contribution a percentage",
     jackpot(("contribution = 0.03", 'contribution = "3%"')),
     "jackpots[0].contribution", "must be a fraction of the bet like 0.024, got '3%'"),
    ("jackpot reserve the whole contribution", jackpot(("reserve = 0.1", "reserve = 1")),
     "jackpots[0].reserve", "must be in [0, 1), got 1"),
    ("jackpot reserve negative", jackpot(("reserve = 0.2", "reserve = -0.2")),
     "jackpots[1].reserve", "must be in [0, 1), got -0.2"),
    ("jackpot reserve a list", jackpot(("reserve = 0.1", "reserve = [0.1]")),
     "jackpots[0].reserve", "must be a fraction of the contribution like 0.1, got [0.1]"),
    ("contributions add up to the whole bet",
     jackpot(("contribution = 0.03", "contribution = 0.5"),
             ("contribution = 0.02", "contribution = 0.5")),
     "jackpots",
     "contributions add up to 1 of each bet: together they must take less than the whole bet"),
    ("contributions add up to more than the bet",
     jackpot(("contribution = 0.03", "contribution = 0.6"),
             ("contribution = 0.02", "contribution = 0.5")),
     "jackpots", "contributions add up to 1.1 of each bet"),
    # -- [[jackpots]]: the hit law ----------------------------------------------------------
    ("jackpot law missing", jackpot(('law = "linear"\n', "")), "jackpots[0].law",
     "missing: the law of its hit probability per wheel spin, one of 'constant', 'linear',"),
    ("jackpot law unknown", jackpot(('law = "linear"', 'law = "linar"')), "jackpots[0].law",
     "must be one of 'constant', 'linear', 'saturating', got 'linar'"),
    ("jackpot law a list", jackpot(('law = "linear"', 'law = ["linear"]')), "jackpots[0].law",
     "got ['linear']"),
    ("jackpot law a table", jackpot(('law = "linear"', 'law = { kind = "linear" }')),
     "jackpots[0].law", "got {'kind': 'linear'}"),
    ("linear law without rate", jackpot(("rate = 0.01\n", "")), "jackpots[0].rate",
     "missing: the linear law needs rate"),
    ("linear rate negative", jackpot(("rate = 0.01", "rate = -0.01")), "jackpots[0].rate",
     "must be >= 0, got -0.01"),
    ("linear rate a word", jackpot(("rate = 0.01", 'rate = "often"')), "jackpots[0].rate",
     "must be a number >= 0, got 'often'"),
    ("linear rate infinite", jackpot(("rate = 0.01", "rate = inf")), "jackpots[0].rate",
     "must be a finite number, got inf"),
    ("linear rate too large for a float", jackpot(("rate = 0.01", 'rate = "1e400"')),
     "jackpots[0].rate", "is too large to compute with"),
    ("a saturating parameter on the linear law", jackpot(("rate = 0.01", "rate = 0.01\nhalf = 5")),
     "jackpots[0].half", "is not a parameter of the linear law (it takes rate)"),
    ("a constant parameter on the saturating law",
     jackpot(("half = 100", "half = 100\nprobability = 0.01")),
     "jackpots[1].probability",
     "is not a parameter of the saturating law (it takes p_max and half)"),
    ("law changed, old parameter left", jackpot(('law = "linear"', 'law = "constant"')),
     "jackpots[0].rate", "is not a parameter of the constant law (it takes probability)"),
    ("constant law without probability",
     jackpot(('law = "linear"\nrate = 0.01', 'law = "constant"')),
     "jackpots[0].probability", "missing: the constant law needs probability"),
    ("constant probability above 1",
     jackpot(('law = "linear"\nrate = 0.01', 'law = "constant"\nprobability = 1.5')),
     "jackpots[0].probability", "must be in [0, 1], got 1.5"),
    ("constant probability a percentage",
     jackpot(('law = "linear"\nrate = 0.01', 'law = "constant"\nprobability = "1%"')),
     "jackpots[0].probability", "must be a probability in [0, 1], got '1%'"),
    ("saturating law without p_max", jackpot(("p_max = 0.05\n", "")), "jackpots[1].p_max",
     "missing: the saturating law needs p_max and half"),
    ("saturating law without half", jackpot(("half = 100\n", "")), "jackpots[1].half",
     "missing: the saturating law needs p_max and half"),
    ("saturating p_max above 1", jackpot(("p_max = 0.05", "p_max = 2")), "jackpots[1].p_max",
     "must be in [0, 1], got 2"),
    ("saturating p_max negative", jackpot(("p_max = 0.05", "p_max = -0.05")),
     "jackpots[1].p_max", "must be in [0, 1], got -0.05"),
    ("saturating half negative", jackpot(("half = 100", "half = -100")), "jackpots[1].half",
     "must be >= 0, got -100"),
    ("saturating half nan", jackpot(("half = 100", "half = nan")), "jackpots[1].half",
     "must be a finite number, got nan"),
    # -- [[jackpots]]: level factors ----------------------------------------------------------
    ("level_factors too short", jackpot(("level_factors = [1, 1.5]", "level_factors = [1]")),
     "jackpots[0].level_factors", "must list one factor per bet level [1, 2], got [1]"),
    ("level_factors too long", jackpot(("level_factors = [1, 3]", "level_factors = [1, 3, 9]")),
     "jackpots[1].level_factors", "must list one factor per bet level [1, 2], got [1, 3, 9]"),
    ("level_factors not a list", jackpot(("level_factors = [1, 1.5]", "level_factors = 1.5")),
     "jackpots[0].level_factors", "must list one factor per bet level [1, 2], got 1.5"),
    ("level_factors a table by level",
     jackpot(("level_factors = [1, 1.5]", "level_factors = { 1 = 1, 2 = 1.5 }")),
     "jackpots[0].level_factors", "must list one factor per bet level [1, 2]"),
    ("level_factors longer after a bet level is dropped",
     jackpot(("bet_levels = [1, 2]", "bet_levels = [1]")),
     "jackpots[0].level_factors", "must list one factor per bet level [1], got [1, 1.5]"),
    ("level factor zero", jackpot(("level_factors = [1, 1.5]", "level_factors = [1, 0]")),
     "jackpots[0].level_factors[1]", "must be > 0, got 0"),
    ("level factor negative", jackpot(("level_factors = [1, 3]", "level_factors = [-1, 3]")),
     "jackpots[1].level_factors[0]", "must be > 0, got -1"),
    ("level factor a word", jackpot(("level_factors = [1, 1.5]", 'level_factors = [1, "x"]')),
     "jackpots[0].level_factors[1]", "must be a number > 0, got 'x'"),
    ("level factor a boolean", jackpot(("level_factors = [1, 1.5]", "level_factors = [true, 1]")),
     "jackpots[0].level_factors[0]", "must be a number > 0, got True"),
    ("level factor infinite", jackpot(("level_factors = [1, 1.5]", "level_factors = [1, inf]")),
     "jackpots[0].level_factors[1]", "must be a finite number, got inf"),
    # -- the file itself ------------------------------------------------------------------
    ("missing file", missing_file, None, "no such file"),
]


def _run(tmp_path: Path, mutate: Mutation) -> tuple[str, GameFileError]:
    path = tmp_path / "game.toml"
    text = mutate(BASE)
    if text is not None:
        assert text != BASE, "the mutation changed nothing"
        path.write_text(text, encoding="utf-8")
    with pytest.raises(GameFileError) as info:
        load_game(path)
    return str(path), info.value


def test_base_game_is_valid():
    game = loads_game(BASE, "base.toml")
    assert (game.n_reels, game.n_lines, set(game.reel_sets)) == (3, 2, {"base", "free"})


def test_jackpot_base_game_is_valid():
    game = loads_game(JACKPOT_GAME, "jackpot.toml")
    assert [j.name for j in game.jackpots] == list(game.bonus_wheel.jackpots) == ["MINI", "GRAND"]
    assert game.bet_levels == (1, 2) and game.coin_value is not None


@pytest.mark.parametrize("mutate, key, fragment",
                         [pytest.param(m, k, f, id=i) for i, m, k, f in CASES])
def test_bad_file_gives_one_line_error(tmp_path, mutate, key, fragment):
    label, err = _run(tmp_path, mutate)
    text = str(err)
    assert type(err) is GameFileError
    assert "\n" not in text and "\r" not in text
    assert text.startswith(f"{label}: ")
    assert err.file == label and err.key == key
    assert fragment in err.message
    expected = f"{label}: {key}: {err.message}" if key else f"{label}: {err.message}"
    assert text == expected


def test_case_ids_are_unique():
    ids = [case[0] for case in CASES]
    assert len(ids) == len(set(ids))


def test_error_is_a_value_error_and_keeps_its_parts():
    err = GameFileError("g.toml", "symbols.A.pays.3", "pay must be >= 0")
    assert isinstance(err, ValueError)
    assert (err.file, err.key, err.message) == ("g.toml", "symbols.A.pays.3", "pay must be >= 0")


def test_line_breaks_in_any_part_are_folded():
    err = GameFileError("a\nb.toml", "symbols.\"x\ny\"", "first\n  second\r\nthird")
    assert str(err) == 'a b.toml: symbols."x y": first second third'


def test_loads_game_uses_its_label():
    with pytest.raises(GameFileError, match=r"^my game: reels: missing"):
        loads_game('rows = 1\nbet = 1\npaylines = [[0]]\n[symbols]\nA = {}\n', "my game")


def test_byte_order_mark_is_accepted(tmp_path):
    path = tmp_path / "bom.toml"
    path.write_bytes(b"\xef\xbb\xbf" + BASE.encode())
    assert load_game(path).name == "base"


def test_file_that_is_not_utf8(tmp_path):
    path = tmp_path / "latin1.toml"
    path.write_bytes(BASE.replace('"base"', '"caf\xe9"').encode("latin-1"))
    with pytest.raises(GameFileError, match=r"latin1\.toml: is not UTF-8 text .*save the game "
                                            r"file as UTF-8$"):
        load_game(path)


def test_directory_instead_of_file(tmp_path):
    with pytest.raises(GameFileError, match=r"cannot be read"):
        load_game(tmp_path)


# game_from_dict takes Python data, where keys need not be strings (TOML keys always are).
@pytest.mark.parametrize("patch, key, fragment", [
    (lambda d: d["symbols"].update({7: {}}), "symbols.7", "must be a symbol name"),
    (lambda d: d["symbols"].update({"": {}}), 'symbols.""', "must be a symbol name"),
    (lambda d: d["symbols"]["A"].update(pays={3.5: 1}), 'symbols.A.pays."3.5"',
     "must be a whole number written with digits only"),
    (lambda d: d["symbols"]["A"].update(pays={True: 1}), "symbols.A.pays.True",
     "must be a whole number"),
])
def test_dict_input_with_non_string_names(patch, key, fragment):
    import tomllib

    data = tomllib.loads(BASE)
    patch(data)
    with pytest.raises(GameFileError) as info:
        game_from_dict(data, "<dict>")
    assert info.value.key == key and fragment in info.value.message


def test_dict_input_that_is_not_a_table():
    with pytest.raises(GameFileError, match="must be a table of game keys"):
        game_from_dict([1, 2], "<dict>")
