"""The one source of test games: hypothesis strategies for small random games, plus a few
fixed tiny games with hand-checkable numbers.

SciPy style: one generator of cases, many suites. A suite that checks a property "for every
game" draws from :func:`small_games` (random) and/or iterates :data:`TINY_GAMES` (fixed), so
adding a kind of game here adds it to every suite.

Generated games are small on purpose: 3-5 reels of 1-6 stops, 1-4 rows, so that the full
cycle of every reel set has at most ``max_combinations`` stop combinations (20 000 by
default) and brute force stays fast. They cover lines (1-6 random paylines) and ways games,
rows differing by reel, plain symbols with whole and fractional pays, a wild (with pays or
without, multiplier 2-3, restricted ``substitutes``), a bonus symbol, a scatter with pays, a
symbol group ("any bar"), weighted stops (with zero weights), bet levels with ``level_pays``,
and scatter-triggered free spins (own reel set, multiplier, retrigger with or without a
``max_spins`` cap).
"""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from slotmath.errors import GameFileError
from slotmath.evaluate.window import scatter_count_distribution
from slotmath.io.toml_loader import game_from_dict, loads_game
from slotmath.model.game import Game

PLAIN_NAMES = ("A", "B", "C", "D", "E", "F")
WILD, SCATTER, BONUS = "W", "S", "BN"
GROUP = "ANY"

# Whole pays mostly; now and then a fraction (TOML string) or a decimal (TOML float) so the
# credit scaling of PayModel is exercised.
_pays = st.one_of(
    st.integers(1, 50),
    st.integers(1, 50),
    st.integers(1, 50),
    st.sampled_from(["1/2", "5/2", "2/3", "7/4"]),
    st.sampled_from([0.5, 1.5, 0.2]),
)


def _count_table(draw, counts: list[int], values=_pays, min_size: int = 1) -> dict[str, Any]:
    chosen = draw(st.lists(st.sampled_from(counts), min_size=min_size, max_size=len(counts),
                           unique=True))
    return {str(c): draw(values) for c in sorted(chosen)}


def _strip_lengths(draw, n_reels: int, max_combinations: int) -> list[int]:
    """Lengths 1-6, trimmed (longest first) until the full cycle fits."""
    lengths = [draw(st.integers(1, 6)) for _ in range(n_reels)]
    while _product(lengths) > max_combinations:
        longest = max(range(n_reels), key=lambda j: lengths[j])
        lengths[longest] -= 1
    return lengths


def _product(values) -> int:
    out = 1
    for v in values:
        out *= v
    return out


def _reel_set(draw, names: list[str], n_reels: int, max_combinations: int, weighted: bool):
    reels = []
    for length in _strip_lengths(draw, n_reels, max_combinations):
        strip = draw(st.lists(st.sampled_from(names), min_size=length, max_size=length))
        if weighted and draw(st.booleans()):
            weights = draw(st.lists(st.integers(0, 9), min_size=length, max_size=length))
            if sum(weights) == 0:
                weights[0] = 1
            reels.append({"strip": strip, "weights": weights})
        else:
            reels.append(strip)
    return reels


@st.composite
def game_dicts(draw, ways: bool | None = None, free_spins: bool | None = None,
               max_combinations: int = 20_000) -> dict[str, Any]:
    """A small random game as the dict a TOML file would parse to.

    Parameters
    ----------
    ways : bool or None
        True: a ways game; False: a lines game; None: either.
    free_spins : bool or None
        True: always has scatter-triggered free spins; False: never; None: either.
    max_combinations : int
        Upper bound on the number of stop combinations of each reel set.
    """
    is_ways = draw(st.booleans()) if ways is None else ways
    n_reels = draw(st.integers(3, 5))
    if draw(st.booleans()):
        rows: int | list[int] = draw(st.integers(1, 4))
        rows_per_reel = [rows] * n_reels
    else:
        rows_per_reel = [draw(st.integers(1, 4)) for _ in range(n_reels)]
        rows = rows_per_reel
    window = sum(rows_per_reel)

    plain = list(PLAIN_NAMES[: draw(st.integers(2, 6))])
    symbols: dict[str, dict[str, Any]] = {}
    line_counts = list(range(1, n_reels + 1))
    for name in plain:
        # Most symbols pay from 2 or 3 of a kind; some pay nothing.
        if draw(st.integers(0, 4)) == 0:
            symbols[name] = {}
        else:
            symbols[name] = {"pays": _count_table(draw, line_counts)}

    has_wild = draw(st.booleans())
    if has_wild:
        wild: dict[str, Any] = {"wild": True}
        if draw(st.booleans()):
            wild["pays"] = _count_table(draw, line_counts)
        if draw(st.integers(0, 2)) == 0:
            wild["multiplier"] = draw(st.integers(2, 3))
        if draw(st.integers(0, 3)) == 0:
            wild["substitutes"] = draw(
                st.lists(st.sampled_from(plain), min_size=1, max_size=len(plain), unique=True)
            )
        symbols[WILD] = wild

    want_free_spins = draw(st.booleans()) if free_spins is None else free_spins
    has_scatter = want_free_spins or draw(st.booleans())
    if has_scatter:
        scatter: dict[str, Any] = {"scatter": True}
        if draw(st.integers(0, 3)) > 0:
            scatter["pays"] = _count_table(
                draw, list(range(1, min(window, 6) + 1)), values=st.integers(1, 20)
            )
        symbols[SCATTER] = scatter
    if draw(st.integers(0, 4)) == 0:
        symbols[BONUS] = {"bonus": True}

    data: dict[str, Any] = {
        "name": "generated",
        "rows": rows,
        "symbols": symbols,
    }

    if draw(st.integers(0, 2)) == 0:
        members = draw(st.lists(st.sampled_from(plain), min_size=2, max_size=len(plain),
                                unique=True))
        data["groups"] = {GROUP: {"members": members, "pays": _count_table(draw, line_counts)}}

    if draw(st.integers(0, 2)) == 0:
        levels = draw(st.sampled_from([[1, 2], [1, 3, 5], [1, 10]]))
        data["bet_levels"] = levels
        paying = [n for n, s in symbols.items() if s.get("pays") and not s.get("scatter")]
        if paying:
            name = draw(st.sampled_from(paying))
            level = draw(st.sampled_from(levels[1:]))
            symbols[name]["level_pays"] = {str(level): _count_table(draw, line_counts)}

    if is_ways:
        data["ways"] = True
        data["bet"] = draw(st.sampled_from([1, 5, 10, 20, 25, 40, 50]))
    else:
        n_lines = draw(st.integers(1, 6))
        data["paylines"] = [[draw(st.integers(0, r - 1)) for r in rows_per_reel]
                            for _ in range(n_lines)]
        data["bet"] = draw(st.sampled_from([1, n_lines, 2 * n_lines, 10, 25]))

    names = list(symbols)
    weighted = draw(st.booleans())
    reel_sets = {"base": _reel_set(draw, names, n_reels, max_combinations, weighted)}

    if want_free_spins:
        spec: dict[str, Any] = {
            "trigger": SCATTER,
            "awards": _count_table(draw, list(range(1, min(window, 5) + 1)),
                                   values=st.integers(1, 15)),
            "multiplier": draw(st.integers(1, 3)),
        }
        if draw(st.booleans()):
            reel_sets["free"] = _reel_set(draw, names, n_reels, max_combinations, weighted)
            spec["reels"] = "free"
        if draw(st.booleans()):
            spec["retrigger"] = True
        if draw(st.booleans()):
            spec["max_spins"] = draw(st.integers(1, 30))
        data["free_spins"] = spec
    data["reels"] = reel_sets

    if want_free_spins and spec.get("retrigger") and "max_spins" not in spec:
        # Keep uncapped retriggering features short: a cap unless the expected award per
        # free spin is at most 1/2 (the loader itself only rejects >= 1).
        game = game_from_dict({**data, "free_spins": {**spec, "retrigger": False}})
        fs = game.free_spins
        counts = scatter_count_distribution(game, game.reel_sets[fs.reels], fs.trigger)
        expected = sum(w * fs.award_for(c) for c, w in counts.items()) / sum(counts.values())
        if expected > 0.5:
            spec["max_spins"] = draw(st.integers(1, 30))
    return data


def small_games(ways: bool | None = None, free_spins: bool | None = None,
                max_combinations: int = 20_000) -> st.SearchStrategy[Game]:
    """Small random valid games (see :func:`game_dicts` for the parameters)."""
    return game_dicts(ways, free_spins, max_combinations).map(_build)


def _build(data: dict[str, Any]) -> Game:
    try:
        return game_from_dict(data, "<hypothesis>")
    except GameFileError as exc:  # a generator bug, not a property failure: say so plainly
        raise AssertionError(f"tests/strategies.py generated an invalid game: {exc}\n{data}")


# -- fixed tiny games ---------------------------------------------------------------------
# Small enough for brute force in milliseconds; their exact numbers are worked out by hand
# in the tests that use them.

WHEEL_GAME = """
name = "Wheel test"
rows = 3
bet = 5
paylines = [[1, 1, 1], [0, 0, 0], [2, 2, 2], [0, 1, 2], [2, 1, 0]]

[symbols]
W  = { wild = true, pays = { 3 = 20 } }
SC = { scatter = true, pays = { 3 = 2 } }
BN = { bonus = true }
A  = { pays = { 2 = 1, 3 = 5 } }
X  = {}

[reels]
base = [["A", "BN", "X", "SC", "A", "BN"], ["BN", "W", "A", "X", "SC", "BN"], ["A", "BN", "SC", "X", "BN", "W"]]
free = [["A", "BN", "X", "SC", "W"], ["BN", "W", "A", "SC", "BN"], ["A", "BN", "SC", "X", "BN"]]

[free_spins]
trigger = "SC"
awards = { 3 = 3 }
reels = "free"
multiplier = 3
retrigger = true
max_spins = 9

[bonus_wheel]
symbol = "BN"
count = 2
per_spin = "per_line"
prizes = [1, 1, 2, "5/2"]
weights = [3, 3, 2, 1]
"""


def wheel_game_text(per_spin: str = "per_line", multiplied: bool = False,
                    retrigger: bool = True) -> str:
    """:data:`WHEEL_GAME` (a line-triggered bonus wheel with free spins) in a variant."""
    text = WHEEL_GAME.replace('per_spin = "per_line"', f'per_spin = "{per_spin}"')
    text = text.replace("retrigger = true", f"retrigger = {str(retrigger).lower()}")
    return text + f"multiplied = {str(multiplied).lower()}\n"


def wheel_game(per_spin: str = "per_line", multiplied: bool = False,
               retrigger: bool = True) -> Game:
    """:func:`wheel_game_text`, loaded."""
    return loads_game(wheel_game_text(per_spin, multiplied, retrigger), "<wheel>")


JACKPOT_GAME = (
    WHEEL_GAME.replace('name = "Wheel test"', 'name = "Jackpot test"')
    .replace("bet = 5\n", 'bet = 5\nbet_levels = [1, 2]\ncoin_value = 0.2\ncurrency = "EUR"\n')
    .replace('per_spin = "per_line"', 'per_spin = "once"')
    .replace('prizes = [1, 1, 2, "5/2"]\nweights = [3, 3, 2, 1]',
             'prizes = [1, 1, 2]\nweights = [3, 3, 2]\njackpots = ["MINI", "GRAND"]')
    + """
[max_win]
bet_multiple = 40

[[jackpots]]
name = "MINI"
seed = 5
contribution = 0.03
reserve = 0.1
law = "linear"
rate = 0.01
level_factors = [1, 1.5]

[[jackpots]]
name = "GRAND"
seed = 40
contribution = 0.02
reserve = 0.2
law = "saturating"
p_max = 0.05
half = 100
level_factors = [1, 3]
"""
)
"""A wheel with two progressive jackpots hit often (a jackpot about every 10-60 rounds), a
low max-win cap (40 x bet, reached by some free-spin rounds) and two bet levels: small enough
for the simulator to pin every figure in a test."""


def jackpot_game() -> Game:
    """:data:`JACKPOT_GAME`, loaded."""
    return loads_game(JACKPOT_GAME, "<jackpot>")


TINY_GAMES: dict[str, str] = {
    # 3 reels x 1 row, one line (worked out by hand in tests/test_brute.py).
    "three_reel_line": """
name = "three reel line"
rows = 1
bet = 1
paylines = [[0, 0, 0]]
[symbols]
W = { wild = true, pays = { 3 = 50 } }
A = { pays = { 2 = 1, 3 = 10 } }
X = {}
[reels]
base = [["A", "A", "W", "X"], ["A", "X", "W", "X"], ["A", "X", "W", "X"]]
""",
    # Free spins without retrigger: scatter S triggers 2 spins for 2, 4 spins for 3, on the
    # "free" reels with multiplier 2.
    "free_spins_plain": """
name = "free spins plain"
rows = 2
bet = 2
paylines = [[0, 0, 0], [1, 1, 1]]
[symbols]
W = { wild = true }
S = { scatter = true, pays = { 2 = 1, 3 = 5 } }
A = { pays = { 3 = 10 } }
B = { pays = { 2 = 1, 3 = 3 } }
X = {}
[reels]
base = [["A", "S", "B", "X", "B"], ["B", "W", "S", "X", "A", "X"], ["S", "A", "B", "X", "X"]]
free = [["A", "B", "S", "W"], ["W", "A", "B", "X", "S"], ["A", "S", "B", "X"]]
[free_spins]
trigger = "S"
awards = { 2 = 2, 3 = 4 }
reels = "free"
multiplier = 2
""",
    # Retriggering free spins with a cap, weighted stops, a ways game.
    "free_spins_retrigger": """
name = "free spins retrigger"
rows = [2, 3, 2]
bet = 10
ways = true
[symbols]
W = { wild = true, multiplier = 2 }
S = { scatter = true, pays = { 3 = 2 } }
A = { pays = { 3 = 20 } }
B = { pays = { 2 = 2, 3 = 5 } }
X = {}
[reels]
base = [{ strip = ["A", "S", "B", "X"], weights = [3, 1, 4, 2] }, ["B", "W", "S", "X", "A"], ["S", "A", "B", "X", "X"]]
free = [["A", "B", "S", "X"], ["W", "A", "B", "X", "S"], ["A", "S", "B", "X"]]
[free_spins]
trigger = "S"
awards = { 2 = 3, 3 = 5 }
reels = "free"
multiplier = 3
retrigger = true
max_spins = 12
""",
}


TINY_GAMES["bonus_wheel"] = WHEEL_GAME


def tiny_game(name: str) -> Game:
    """One of :data:`TINY_GAMES`, loaded."""
    return loads_game(TINY_GAMES[name], f"<tiny:{name}>")
