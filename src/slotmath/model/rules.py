"""The rules a game's values must keep: each written once, here (hit laws: in
:mod:`slotmath.model.hit_laws`).

Every rule raises :class:`~slotmath.errors.RuleError` (a ``ValueError``) naming the value
(``field``), what is wrong and the value. The model's dataclasses call them when they are built
(:class:`~slotmath.model.game.Symbol`, :class:`~slotmath.model.game.SymbolGroup`,
:class:`~slotmath.model.game.Reel`, :class:`~slotmath.model.game.FreeSpins`,
:class:`~slotmath.model.game.JackpotSpec`, :class:`~slotmath.model.game.BonusWheel`,
:class:`~slotmath.model.game.MaxWin`, and :class:`~slotmath.model.game.Game` for the rules
across its parts), so no invalid object exists; the loader calls the single-value rules as it
reads each key and adds the file and key path (:class:`~slotmath.errors.GameFileError`); the
what-if edits (:mod:`slotmath.model.edit`) and the jackpot panel get their checks by building
the new objects.

Each check a dataclass runs is linear in its values and runs once per object built (a reel's
stop weights, a game's strips against its symbols), never per spin.

What a rule does not cover is the file format (types, spelling, which keys exist): that is
the loader's.

Examples
--------
>>> from fractions import Fraction
>>> check_share(Fraction(1), "contribution")
Traceback (most recent call last):
...
slotmath.errors.RuleError: contribution: must be in [0, 1), got 1
>>> check_level((1, 2, 5), 3)
Traceback (most recent call last):
...
slotmath.errors.RuleError: bet level 3 is not one of the game's levels [1, 2, 5]
"""

from __future__ import annotations

import itertools
import numbers
from collections.abc import Iterable, Mapping, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING

from slotmath.errors import RuleError
from slotmath.model import hit_laws

if TYPE_CHECKING:  # pragma: no cover
    from slotmath.model.game import (
        BonusWheel,
        FreeSpins,
        Game,
        JackpotSpec,
        MaxWin,
        Reel,
        ReelSet,
        Symbol,
        SymbolGroup,
    )

__all__ = [
    "WHEEL_PER_SPIN",
    "RuleError",
    "check_award",
    "check_award_law",
    "check_award_laws",
    "check_can_be_won",
    "check_coin_value",
    "check_collector",
    "check_contributions",
    "check_declared",
    "check_expanding_symbol",
    "check_free_spin_state_in_game",
    "check_free_spins",
    "check_free_spins_in_game",
    "check_game",
    "check_jackpot",
    "check_level",
    "check_level_factor",
    "check_max_spins",
    "check_max_win",
    "check_pay",
    "check_pays",
    "check_positive",
    "check_reel",
    "check_reel_set_name",
    "check_reel_sets",
    "check_reserve",
    "check_seed",
    "check_share",
    "check_spin_multiplier",
    "check_sticky_size",
    "check_sticky_wilds",
    "check_stop_weight",
    "check_stop_weights",
    "check_strip",
    "check_strip_symbols",
    "check_symbol",
    "check_trigger",
    "check_wheel",
    "check_wheel_count",
    "check_wheel_jackpots",
    "check_wheel_weights",
    "check_whole",
    "sticky_plan",
    "sticky_size",
]

#: How a bonus wheel is played when several lines trigger it.
WHEEL_PER_SPIN = ("once", "per_line")


# -- single values --------------------------------------------------------------------------------


def check_whole(value, field: str | None = None, minimum: int | None = None) -> None:
    """A whole number (an integer, not a bool), ``>= minimum`` when one is given.

    Examples
    --------
    >>> check_whole(2.5, "multiplier", 1)
    Traceback (most recent call last):
    ...
    slotmath.errors.RuleError: multiplier: must be a whole number >= 1, got 2.5
    >>> check_whole(0, "multiplier", 1)
    Traceback (most recent call last):
    ...
    slotmath.errors.RuleError: multiplier: must be >= 1, got 0
    """
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        need = "a whole number" if minimum is None else f"a whole number >= {minimum}"
        raise RuleError(field, f"must be {need}", value)
    if minimum is not None and value < minimum:
        raise RuleError(field, f"must be >= {minimum}", value)


def check_pay(value, field: str | None = None) -> None:
    """A pay (a pay-table entry, a wheel prize): >= 0."""
    if not value >= 0:
        raise RuleError(field, "pay must be >= 0", value)


def check_declared(name: str, symbols: Mapping, field: str | None = None) -> None:
    """``name`` is one of the game's ``symbols``."""
    if name not in symbols:
        raise RuleError(field, f"symbol {name!r} is not declared in [symbols]")


def check_positive(value, field: str) -> None:
    """``value > 0`` (coin value, a max-win amount, a level factor)."""
    if not value > 0:
        raise RuleError(field, "must be > 0", value)


def check_coin_value(value) -> None:
    """Currency per coin: > 0."""
    check_positive(value, "coin_value")


def check_level_factor(value, field: str = "level_factor") -> None:
    """A jackpot's factor on its hit law at one bet level: > 0."""
    check_positive(value, field)


def check_seed(value, field: str = "seed") -> None:
    """A jackpot's restart value in currency: >= 0."""
    if not value >= 0:
        raise RuleError(field, "must be >= 0", value)


def check_share(value, field: str) -> None:
    """A jackpot's contribution (of each bet) or reserve (of each contribution): in [0, 1)."""
    if not 0 <= value < 1:
        raise RuleError(field, "must be in [0, 1)", value)


#: A reserve of half of each contribution or more is refused: the next jackpot's start value
#: would then move by as much as the pool grows (``r / (1 - r) >= 1``), beyond what the
#: analysis holds (:mod:`slotmath.markov.jackpot`, "Limits").
MAX_RESERVE = Fraction(1, 2)


def check_reserve(value, field: str = "reserve") -> None:
    """A jackpot's reserve (of each contribution): in [0, 1/2).

    Examples
    --------
    >>> check_reserve(Fraction(3, 5))
    Traceback (most recent call last):
    ...
    slotmath.errors.RuleError: reserve: must be below 0.5 (a reserve of half of each contribution or more lets the next jackpot start beyond the pools the analysis holds), got 3/5
    """
    check_share(value, field)
    if not value < MAX_RESERVE:
        raise RuleError(field, f"must be below {float(MAX_RESERVE):g} (a reserve of half of "
                               "each contribution or more lets the next jackpot start beyond "
                               "the pools the analysis holds)", value)


def check_can_be_won(law: str, parameters: Mapping[str, float], seed, contribution) -> None:
    """The hit law is above 0 at some pool the jackpot reaches (its seed or, with a
    contribution, any larger pool): a jackpot that is never won would keep every contribution.

    Examples
    --------
    >>> check_can_be_won("linear", {"rate": 0.0}, Fraction(50), Fraction(1, 100))
    Traceback (most recent call last):
    ...
    slotmath.errors.RuleError: rate: must be above 0: at 0 the jackpot is never won
    >>> check_can_be_won("linear", {"rate": 1e-6}, Fraction(0), Fraction(0))
    Traceback (most recent call last):
    ...
    slotmath.errors.RuleError: contribution: is 0 and the linear law gives 0 at the seed 0: the pool never grows and the jackpot is never won; give a contribution, or a seed where the law is above 0
    """
    h = hit_laws.law(law)
    if not h.never_hits(parameters, float(seed), contribution > 0):
        return
    if not float(parameters[h.scaled_parameter]):
        raise RuleError(h.scaled_parameter, "must be above 0: at 0 the jackpot is never won")
    raise RuleError("contribution", f"is 0 and the {law} law gives 0 at the seed {seed}: the "
                                    "pool never grows and the jackpot is never won; give a "
                                    "contribution, or a seed where the law is above 0")


def check_level(levels: Sequence[int], level: int) -> None:
    """``level`` is one of the game's bet ``levels`` (:meth:`Game.check_level
    <slotmath.model.game.Game.check_level>`)."""
    if level not in levels:
        raise RuleError(None, f"bet level {level} is not one of the game's levels "
                              f"{list(levels)}")


def check_contributions(contributions: Iterable[Fraction]) -> None:
    """The jackpots together take less than the whole bet.

    Examples
    --------
    >>> check_contributions([Fraction(1, 2), Fraction(3, 5)])
    Traceback (most recent call last):
    ...
    slotmath.errors.RuleError: jackpots: contributions add up to 1.1 of each bet: together they must take less than the whole bet (< 1)
    """
    total = sum(contributions, Fraction(0))
    if total >= 1:
        raise RuleError("jackpots", f"contributions add up to {float(total):g} of each bet: "
                                    "together they must take less than the whole bet (< 1)")


def check_wheel_weights(weights: Sequence, divisions: int) -> None:
    """One whole-number weight >= 0 per coin division, not all zero.

    Examples
    --------
    >>> check_wheel_weights((2, -1), 2)
    Traceback (most recent call last):
    ...
    slotmath.errors.RuleError: weights[1]: must be >= 0, got -1
    """
    if len(weights) != divisions:
        raise RuleError("weights", f"must list one whole-number weight per division "
                                   f"({divisions})", len(weights))
    for i, w in enumerate(weights):
        check_whole(w, f"weights[{i}]", 0)
    if not any(weights):
        raise RuleError("weights", "all weights are zero: the wheel could never stop")


def check_wheel_count(count: int, n_reels: int, field: str = "count") -> None:
    """The wheel's trigger count is reachable: at most the number of reels."""
    if count > n_reels:
        raise RuleError(field, f"count {count} is more than the {n_reels} reels")


# -- reels ----------------------------------------------------------------------------------------


def check_strip(symbols: Sequence[str]) -> None:
    """A reel strip has at least one stop."""
    if not symbols:
        raise RuleError(None, "strip is empty: list at least one symbol")


def check_stop_weight(value, field: str = "weight") -> None:
    """One stop's weight: a whole number >= 0 (0: the reel never stops there)."""
    check_whole(value, field, 0)


def check_stop_weights(weights: Sequence[int], stops: int) -> None:
    """One stop weight per stop, each a whole number >= 0, not all zero.

    Examples
    --------
    >>> check_stop_weights((1, -2, 3), 3)
    Traceback (most recent call last):
    ...
    slotmath.errors.RuleError: weights[1]: must be >= 0, got -2
    >>> check_stop_weights((0, 0), 2)
    Traceback (most recent call last):
    ...
    slotmath.errors.RuleError: weights: all weights are zero: at least one stop needs a weight > 0
    """
    if not isinstance(weights, (list, tuple)) or len(weights) != stops:
        raise RuleError("weights", f"must list one whole-number weight per stop: the strip has "
                                   f"{stops} stops",
                        len(weights) if isinstance(weights, (list, tuple)) else weights)
    # Plain ints >= 0 pass at C speed; anything else is looked at stop by stop, which names
    # the first bad one (a reel is built by every edit, so this stays cheap).
    if not (all(type(w) is int for w in weights) and min(weights, default=0) >= 0):
        for i, w in enumerate(weights):
            check_stop_weight(w, f"weights[{i}]")
    if not any(weights):
        raise RuleError("weights", "all weights are zero: at least one stop needs a weight > 0")


def check_reel(reel: Reel) -> None:
    """A reel's own rules: a strip that is not empty and, on a weighted reel, its stop
    weights."""
    check_strip(reel.symbols)
    if reel.weights is not None:
        check_stop_weights(reel.weights, len(reel.symbols))


def check_strip_symbols(strip: Sequence[str], symbols: Mapping) -> None:
    """Every stop of ``strip`` shows one of the game's ``symbols``; the error names the first
    stop that does not (``field`` ``[i]``).

    Examples
    --------
    >>> check_strip_symbols(("A", "Q", "A"), {"A": None})
    Traceback (most recent call last):
    ...
    slotmath.errors.RuleError: [1]: symbol 'Q' is not declared in [symbols]
    """
    if set(strip).issubset(symbols):  # the common case, without a Python loop over the stops
        return
    for i, name in enumerate(strip):
        check_declared(name, symbols, f"[{i}]")


def check_reel_sets(reel_sets: Mapping[str, ReelSet], symbols: Mapping) -> None:
    """Every strip of every reel set shows only declared symbols (``field``
    ``reels.<set>[<reel>][<stop>]``, as in a game file)."""
    for name, reel_set in reel_sets.items():
        for j, reel in enumerate(reel_set.reels):
            try:
                check_strip_symbols(reel.symbols, symbols)
            except RuleError as err:
                raise err.within(f"reels.{name}[{j}]") from None


def check_reel_set_name(name: str, reel_sets: Mapping, field: str | None = "reels") -> None:
    """``name`` is one of the game's reel sets."""
    if name not in reel_sets:
        raise RuleError(field, f"reel set {name!r} is not defined under [reels] "
                               f"(defined: {list(reel_sets)})")


# -- pays -----------------------------------------------------------------------------------------


def check_pays(pays: Mapping[int, Fraction],
               level_pays: Mapping[int, Mapping[int, Fraction]]) -> None:
    """Every pay of a symbol's or a group's pay table, level-1 and per-level columns, >= 0
    (``field`` ``pays.<count>`` or ``level_pays.<level>.<count>``, as in a game file)."""
    for count, pay in pays.items():
        check_pay(pay, f"pays.{count}")
    for level, column in level_pays.items():
        for count, pay in column.items():
            check_pay(pay, f"level_pays.{level}.{count}")


def check_symbol(symbol: Symbol | SymbolGroup) -> None:
    """A symbol's or a group's rules: its pays; the error says which one."""
    try:
        check_pays(symbol.pays, symbol.level_pays)
    except RuleError as err:
        raise err.about(f"symbol {symbol.name!r}") from None


# -- free spins -----------------------------------------------------------------------------------


def check_award(spins, field: str | None = None) -> None:
    """Free spins awarded for one trigger count: a whole number >= 1."""
    check_whole(spins, field, 1)


def check_awards(awards: Mapping[int, int]) -> None:
    """At least one trigger count awards spins, each award a whole number >= 1."""
    if not awards:
        raise RuleError("awards", "must award spins for at least one count, e.g. { 3 = 10 }")
    for count, spins in awards.items():
        check_award(spins, f"awards.{count}")


def check_spin_multiplier(value, field: str = "multiplier") -> None:
    """The free-spin win multiplier: a whole number >= 1."""
    check_whole(value, field, 1)


def check_max_spins(value, field: str = "max_spins") -> None:
    """The most free spins one feature may play: a whole number >= 1 (None: no limit)."""
    if value is not None:
        check_whole(value, field, 1)


def check_free_spins(free_spins: FreeSpins) -> None:
    """The free spins' own rules: awards, multiplier, max_spins."""
    check_awards(free_spins.awards)
    if free_spins.retrigger_awards is not None:
        try:
            check_awards(free_spins.retrigger_awards)
        except RuleError as err:
            raise err.within("retrigger_awards") from None
    check_spin_multiplier(free_spins.multiplier)
    check_max_spins(free_spins.max_spins)
    if free_spins.award_laws is not None:
        check_award_laws(free_spins.award_laws, free_spins.awards)
        if free_spins.retrigger and free_spins.retrigger_awards is None:
            raise RuleError("retrigger_awards", "missing: with random_awards a retrigger needs "
                                                "its own fixed awards, e.g. { 3 = 5 }")


def check_award_law(law: Mapping[int, int], field: str | None = None) -> None:
    """One random award: ``{ spins = weight }``, spins >= 1, weights whole >= 0, not all 0.

    Examples
    --------
    >>> check_award_law({9: 0, 12: 0}, "random_awards.3")
    Traceback (most recent call last):
    ...
    slotmath.errors.RuleError: random_awards.3: all weights are zero: one award needs a weight > 0
    """
    if not law:
        raise RuleError(field, "must list at least one award, like { 9 = 3, 12 = 1 }")
    for spins, weight in law.items():
        check_award(spins, f"{field}.{spins}" if field else str(spins))
        check_whole(weight, f"{field}.{spins}" if field else str(spins), 0)
    if not any(law.values()):
        raise RuleError(field, "all weights are zero: one award needs a weight > 0")


def check_award_laws(laws: Mapping[int, Mapping[int, int]], awards: Mapping[int, int]) -> None:
    """Random awards by trigger count; ``awards`` holds the most each count awards."""
    for count, law in laws.items():
        check_award_law(law, f"random_awards.{count}")
    most = {c: max(n for n, w in law.items() if w) for c, law in laws.items()}
    if dict(awards) != most:
        raise RuleError("awards", "with random_awards, awards must be the largest award of "
                                  f"each count, {most}", dict(awards))


def check_trigger(name: str, symbols: Mapping, field: str | None = "trigger") -> None:
    """The free-spins trigger is a declared scatter."""
    check_declared(name, symbols, field)
    if not symbols[name].scatter:
        scatters = [n for n, s in symbols.items() if s.scatter]
        raise RuleError(field, f"symbol {name!r} is not a scatter: free spins are triggered by "
                               f"a scatter (declared: {scatters})")


def check_free_spins_in_game(free_spins: FreeSpins, symbols: Mapping,
                             reel_sets: Mapping) -> None:
    """What the free spins name in their game: a scatter trigger and a reel set."""
    check_trigger(free_spins.trigger, symbols)
    check_reel_set_name(free_spins.reels, reel_sets)


# -- free spins with a state (slotmath.model.free_spin_state) ------------------------------------


def check_expanding_symbol(spec) -> None:
    """At least one symbol to draw, each listed once with a whole weight >= 0, not all 0."""
    if not spec.symbols:
        raise RuleError("symbols", 'must list at least one symbol and its weight, like '
                                   '{ A = 3, K = 2 }')
    names = [s for s, _ in spec.symbols]
    if len(set(names)) != len(names):
        raise RuleError("symbols", "lists a symbol twice: give each once", names)
    for name, w in spec.symbols:
        check_whole(w, f"symbols.{name}", 0)
    if not any(w for _, w in spec.symbols):
        raise RuleError("symbols", "all weights are zero: one symbol needs a weight > 0")


def check_sticky_wilds(spec) -> None:
    """At least one sticky wild, each listed once."""
    if not spec.symbols:
        raise RuleError("symbols", 'must list at least one wild, like ["W"]')
    if len(set(spec.symbols)) != len(spec.symbols):
        raise RuleError("symbols", "lists a symbol twice: give each once", list(spec.symbols))


def check_collector(spec) -> None:
    """Cash symbols and their value table, the ladder, ``every`` and ``retrigger``.

    Examples
    --------
    >>> from slotmath.model.free_spin_state import Collector
    >>> Collector(("F",), ((Fraction(2), 1),), "W", every=0)
    Traceback (most recent call last):
    ...
    slotmath.errors.RuleError: every: must be >= 1, got 0
    """
    from slotmath.model.free_spin_state import COLLECTOR_APPLIES

    if not spec.cash:
        raise RuleError("cash", 'must name at least one cash symbol, like ["FISH"]')
    if spec.collector in spec.cash:
        raise RuleError("collector", f"{spec.collector!r} is also a cash symbol: a symbol "
                                     "either carries a value or collects")
    if not spec.values:
        raise RuleError("values", 'must list at least one value and its weight, like '
                                  '{ "2" = 30, "5" = 10 }')
    for value, w in spec.values:
        if not value > 0:
            raise RuleError(f"values.{value}", "a cash value (total bets) must be > 0", value)
        check_whole(w, f"values.{value}", 0)
    if not any(w for _, w in spec.values):
        raise RuleError("values", "all weights are zero: one value needs a weight > 0")
    check_whole(spec.every, "every", 1)
    check_whole(spec.retrigger, "retrigger", 0)
    for i, m in enumerate(spec.ladder):
        check_whole(m, f"ladder[{i}]", 1)
    if spec.applies not in COLLECTOR_APPLIES:
        raise RuleError("applies", 'must be "collected" (the ladder multiplies collected '
                                   'values) or "all" (every win of the spin)', spec.applies)


def check_free_spin_state_in_game(game) -> None:
    """What a free-spin state (and random awards, a growing multiplier) names in its game,
    and what it combines with: it is analysed and simulated with the paid spin's pays only,
    so any other section is refused; retriggers need ``max_spins`` (the chain runs over
    spins left and spins awarded)."""
    if game.line_multipliers == "add":
        # engines that read the key: the full-cycle automaton (lines, free spins, a wheel) and
        # the free-spin state chains; the others multiply a run's multipliers (a cascade game
        # with "add" was analysed and simulated as "multiply", both alike)
        for section in ADD_UNREAD:
            if getattr(game, section, None):
                raise RuleError("line_multipliers", f'"add" with [{section}] is not supported: '
                                f"its engine and simulator multiply a line's multipliers")
    fs = game.free_spins
    if fs is None or fs.plain:
        if game.line_multipliers not in LINE_MULTIPLIERS:
            raise RuleError("line_multipliers", 'must be "multiply" or "add"',
                            game.line_multipliers)
        if game.line_multipliers == "add" and game.paylines is None:
            raise RuleError("line_multipliers", '"add" combines the multipliers of a line: it '
                                                "needs paylines, and this is a ways game")
        return
    if game.line_multipliers not in LINE_MULTIPLIERS:
        raise RuleError("line_multipliers", 'must be "multiply" or "add"', game.line_multipliers)
    key = ("free_spins." + fs.state.kind if fs.state is not None else
           "free_spins.random_awards" if fs.award_laws is not None
           else "free_spins.multiplier_growth")
    # (what these keys combine with is COMBINE's: check_combination refused the rest)
    if fs.retrigger and fs.max_spins is None:
        raise RuleError("free_spins.max_spins", f"missing: free spins that retrigger with "
                        f"[{key}] need max_spins (the exact chain runs over spins left and "
                        "spins awarded)")
    state = fs.state
    symbols = game.symbols
    if state is None:
        return
    where = f"free_spins.{state.kind}"
    if state.kind == "expanding_symbol":
        if game.paylines is None:
            raise RuleError(where, "an expanding symbol pays on every payline: it needs "
                                   "paylines, and this is a ways game")
        for name, _ in state.symbols:
            check_declared(name, symbols, f"{where}.symbols.{name}")
            s = symbols[name]
            if s.wild or s.scatter or s.bonus or not s.pays:
                raise RuleError(f"{where}.symbols.{name}", f"{name!r} must be a plain symbol "
                                "with line pays (it pays on every line for the reels it covers)")
    elif state.kind == "sticky_wilds":
        for name in state.symbols:
            check_declared(name, symbols, f"{where}.symbols")
            if not symbols[name].wild:
                raise RuleError(f"{where}.symbols", f"{name!r} is not a wild symbol")
        check_sticky_size(game)
    else:
        check_declared(state.collector, symbols, f"{where}.collector")
        if not symbols[state.collector].wild:
            raise RuleError(f"{where}.collector", f"{state.collector!r} must be a wild symbol "
                                                  "(the collector)")
        for name in state.cash:
            check_declared(name, symbols, f"{where}.cash")
            s = symbols[name]
            if s.wild or s.scatter or s.bonus:
                raise RuleError(f"{where}.cash", f"{name!r} must be a plain symbol (cash "
                                                 "symbols are collected, never substituted)")


#: Engine runs (sticky states x the landing patterns of the reels split off, see
#: :func:`sticky_plan`) above which a sticky-wild chain is refused.
MAX_STICKY_RUNS = 1 << 20


def sticky_plan(game) -> tuple[tuple[int, ...], int, int]:
    """How the exact engine enumerates one sticky-wild state's spin: (the wild reels split
    off, the joint digits it counts, the engine runs a state takes at most).

    Each reel whose free strip shows a sticky wild has a landing digit of
    ``(its sticky wilds + 1) ** rows`` values. The engine counts the digits of some wild
    reels jointly with the credits and the capped scatter counts (their product at most
    :data:`MAX_SCATTER_STATES`, as the scatters' alone); each other wild reel is *split
    off*: its stops are grouped by the landing pattern they show and the engine runs once
    per combination of those groups (a reel's landing depends on its own stop only, so the
    runs add up to the whole cycle exactly). The split chosen takes the fewest runs: the
    product of the split reels' distinct landing patterns on their strips.

    Examples
    --------
    >>> import slotmath
    >>> sticky_plan(slotmath.load_game("tests/data/free_spin_state/tiny_sticky.toml"))
    ((), 32, 1)
    """
    fs = game.free_spins
    wilds = set(fs.state.symbols)
    reels = []  # (reel, digit values, distinct landing patterns)
    for j, reel in enumerate(game.reel_sets[fs.reels].reels):
        here = sorted({s for s in reel.symbols if s in wilds})
        if here:
            rows = game.rows[j]
            patterns = {tuple(s if s in wilds else None for s in reel.window(stop, rows))
                        for stop, w in enumerate(reel.stop_weights) if w}
            reels.append((j, (len(here) + 1) ** rows, len(patterns)))
    scatters = 1
    for cap in game.scatter_caps().values():
        scatters *= cap + 1
    best = None
    for n in range(len(reels) + 1):
        for split in itertools.combinations(reels, n):
            digits = scatters
            runs = 1
            for item in reels:
                if item in split:
                    runs *= item[2]
                else:
                    digits *= item[1]
            if digits <= MAX_SCATTER_STATES and (best is None or runs < best[2]):
                best = (tuple(j for j, _, _ in split), digits, runs)
    if best is None:  # the scatters alone are too many (refused by their own rule)
        return tuple(j for j, _, _ in reels), scatters, 0
    return best


def sticky_size(game) -> tuple[int, int]:
    """The size of a sticky-wild game's exact chain: (states of the sticky cells, engine
    runs to enumerate every state's spin at most: states times :func:`sticky_plan`'s runs
    a state).

    A state gives each cell of a reel whose free strip shows a sticky wild one of (its
    reel's sticky wilds + 1) values.

    Examples
    --------
    >>> import slotmath
    >>> sticky_size(slotmath.load_game("tests/data/free_spin_state/tiny_sticky.toml"))
    (8, 8)
    """
    fs = game.free_spins
    states = 1
    for j, reel in enumerate(game.reel_sets[fs.reels].reels):
        here = {s for s in reel.symbols if s in fs.state.symbols}
        if here:
            states *= (len(here) + 1) ** game.rows[j]
    return states, states * sticky_plan(game)[2]


def check_sticky_size(game) -> None:
    """A sticky-wild chain whose every state's spin would take more than
    :data:`MAX_STICKY_RUNS` engine runs is refused, with its size, before anything is
    enumerated."""
    states, runs = sticky_size(game)
    if runs > MAX_STICKY_RUNS:
        raise RuleError("free_spins.sticky_wilds",
                        f"the chain has {states:,} sticky states and enumerating their spins "
                        f"takes up to {runs:,} engine runs (at most {MAX_STICKY_RUNS:,}): "
                        "put the sticky wilds on fewer reels or rows, or fewer kinds of "
                        "sticky wild")


#: sections whose engines do not read ``line_multipliers = "add"`` (refused with it)
ADD_UNREAD = ("cascades", "modifiers", "hold_and_win", "conveyor", "random_wilds")
#: how the multipliers of a line's run combine (``Game.line_multipliers``)
LINE_MULTIPLIERS = ("multiply", "add")


# -- cascades and bonus symbols ---------------------------------------------------------------------
CASCADE_REFILLS = ("strip", "random")
#: where the scatters of a cascading spin are checked: the final window, or every fall
CASCADE_SCATTERS = ("final", "every_fall")


def check_multiplier_rule(rule) -> None:
    """A cascade multiplier rule: whole ``start >= 1``, ``step >= 0``, ``max >= start``; or a
    non-empty ``ladder`` of whole numbers >= 1.

    Examples
    --------
    >>> from slotmath.model.cascades import MultiplierRule
    >>> MultiplierRule(ladder=())
    Traceback (most recent call last):
    ...
    slotmath.errors.RuleError: ladder: must list at least one multiplier, like [1, 2, 3, 5]
    """
    if rule.ladder is not None:
        if not rule.ladder:
            raise RuleError("ladder", "must list at least one multiplier, like [1, 2, 3, 5]")
        for i, v in enumerate(rule.ladder):
            check_whole(v, f"ladder[{i}]", 1)
        return
    check_whole(rule.start, "start", 1)
    check_whole(rule.step, "step", 0)
    if rule.max is not None:
        check_whole(rule.max, "max", rule.start)


def check_refill_table(table: Mapping, field: str | None = None) -> None:
    """A random-refill weight table: symbol -> whole weight >= 0, not all zero."""
    if not table:
        raise RuleError(field, "must give at least one symbol with a weight, like { A = 3 }")
    for name, w in table.items():
        check_whole(w, f"{field}.{name}" if field else name, 0)
    if not any(table.values()):
        raise RuleError(field, "all weights are zero: at least one symbol needs a weight > 0")


def check_cascades(cascades) -> None:
    """The refill mode, its weight tables, and that a carried multiplier is linear."""
    if cascades.refill not in CASCADE_REFILLS:
        raise RuleError("refill", 'must be "strip" (the strip above the window) or "random" '
                                  "(drawn from refill_weights)", cascades.refill)
    if cascades.refill == "random" and not cascades.refill_weights:
        raise RuleError("refill_weights", 'missing: refill = "random" draws each new symbol '
                                          "from a weight table per reel: give "
                                          "[cascades.refill_weights] base = [{...}, ...]")
    for set_name, tables in cascades.refill_weights.items():
        for i, table in enumerate(tables):
            check_refill_table(table, f"refill_weights.{set_name}[{i}]")
    if cascades.carry_multiplier and not cascades.rule(free=True).linear:
        raise RuleError("carry_multiplier", "a carried multiplier needs a free-spin rule "
                                            "start + step*k without max (no ladder)")
    if cascades.scatters not in CASCADE_SCATTERS:
        raise RuleError("scatters", 'must be "final" (scatters stay and pay on the final '
                                    'window) or "every_fall" (they pay, trigger and are removed '
                                    "on every fall)", cascades.scatters)
    if cascades.scatter_multiplied and cascades.scatters != "every_fall":
        raise RuleError("scatter_multiplied", 'multiplies the scatter pay of each fall: it '
                                              'needs scatters = "every_fall"')


def check_bonus_effect(effect) -> None:
    """A freed bonus symbol either turns its reel wild or splits it (split >= 2)."""
    check_whole(effect.split, "split", 1)
    if (effect.wild is None) == (effect.split == 1):
        raise RuleError(None, 'must give exactly one of wild = "<wild symbol>" or '
                              "split = 2 (or more)")


def check_bonus_symbols(bonus) -> None:
    """Threshold, arrangement weights, and that arrangements name known effects."""
    check_whole(bonus.threshold, "threshold", 1)
    if not bonus.arrangements:
        raise RuleError("arrangements", "must list at least one arrangement")
    lengths = {len(symbols) for _, symbols in bonus.arrangements}
    if len(lengths) != 1:
        raise RuleError("arrangements", "every arrangement must list one bonus symbol per reel",
                        sorted(lengths))
    for i, (weight, symbols) in enumerate(bonus.arrangements):
        check_whole(weight, f"arrangements[{i}].weight", 0)
        for name in symbols:
            if name not in bonus.effects:
                raise RuleError(f"arrangements[{i}].symbols", f"{name!r} is not one of the "
                                f"effects {sorted(bonus.effects)}")
    if not any(w for w, _ in bonus.arrangements):
        raise RuleError("arrangements", "all weights are zero: one needs a weight > 0")


def check_cascades_in_game(game) -> None:
    """What cascades and bonus symbols name in their game: reel counts, declared symbols,
    wilds, ways for splits, and free-spin keys only the cascade engine honours."""
    c = game.cascades
    if c is not None:
        for set_name, tables in c.refill_weights.items():
            where = f"cascades.refill_weights.{set_name}"
            if set_name not in game.reel_sets:
                raise RuleError(where, f"no reel set {set_name!r}: the game has "
                                       f"{sorted(game.reel_sets)}")
            if len(tables) != game.n_reels:
                raise RuleError(where, f"must give one table per reel ({game.n_reels})",
                                len(tables))
            for i, table in enumerate(tables):
                for name in table:
                    check_declared(name, game.symbols, f"{where}[{i}].{name}")
        if c.refill == "random":
            used = {"base"} | ({game.free_spins.reels} if game.free_spins else set())
            for set_name in sorted(used - set(c.refill_weights)):
                raise RuleError(f"cascades.refill_weights.{set_name}",
                                f"missing: reel set {set_name!r} is spun and refills at random")
        if c.carry_multiplier and game.free_spins is None:
            raise RuleError("cascades.carry_multiplier", "carries the multiplier into free "
                                                         "spins, and the game has none")
    b = game.bonus_symbols
    if b is not None:
        if c is None:
            raise RuleError("bonus_symbols", "frozen bonus symbols are freed by cascade wins: "
                                             "add a [cascades] table")
        n = len(b.arrangements[0][1])
        if n != game.n_reels:
            raise RuleError("bonus_symbols.arrangements", f"must list one bonus symbol per reel "
                                                          f"({game.n_reels})", n)
        for name, effect in b.effects.items():
            where = f"bonus_symbols.effects.{name}"
            if effect.wild is not None:
                check_declared(effect.wild, game.symbols, f"{where}.wild")
                if not game.symbols[effect.wild].wild:
                    raise RuleError(f"{where}.wild", f"{effect.wild!r} is not a wild symbol")
            if effect.split > 1 and not game.ways:
                raise RuleError(f"{where}.split", "splitting multiplies ways: it needs a ways "
                                                  "game (ways = true)")
    fs = game.free_spins
    if fs is not None and c is None and getattr(game, "grid", None) is None:
        if fs.retrigger_awards is not None and fs.plain:  # (the stateful chain honours it)
            raise RuleError("free_spins.retrigger_awards", "is honoured by the cascade engine "
                            "only: give awards for retriggers, or add [cascades]")
        if not fs.scatter_pays:
            raise RuleError("free_spins.scatter_pays", "is honoured by the cascade engine only: "
                            "remove it, or add [cascades]")


# -- grid games: Megaways, pay anywhere, clusters, tumbles, multiplier symbols ---------------------
#: the tallest reel a height law may give (rows)
MAX_HEIGHT = 12


def check_height_law(law) -> None:
    """A reel's law of heights: heights 1..MAX_HEIGHT with whole weights >= 0, not all zero."""
    if not law.weights:
        raise RuleError(None, "must give at least one height with a weight, like { 2 = 1, 7 = 1 }")
    for h, w in law.weights.items():
        if isinstance(h, bool) or not isinstance(h, numbers.Integral) or not 1 <= h <= MAX_HEIGHT:
            raise RuleError(f"{h}", f"a height is a whole number of rows from 1 to {MAX_HEIGHT}",
                            h)
        check_whole(w, f"{h}", 0)
    if not any(law.weights.values()):
        raise RuleError(None, "all weights are zero: at least one height needs a weight > 0")


def check_top_reel(top) -> None:
    """The reels a top reel covers: 1 <= first <= last (the game checks last against its
    reels and its strips against its symbols and reel sets)."""
    check_whole(top.first, "reels[0]", 1)
    check_whole(top.last, "reels[1]", top.first)
    if not top.strips:
        raise RuleError("strips", "must give the top reel's strip for each reel set, like "
                                  'strips = { base = ["A", "B", ...] }')


def check_grid(grid) -> None:
    """How a grid pays: a known kind, a height law per reel, a top reel only over the middle
    reels of a ways game, a cluster size >= 2 and a known adjacency."""
    from slotmath.model.grid import ADJACENCY, GRID_PAYS

    if grid.pays not in GRID_PAYS:
        raise RuleError("pays", f"must be one of {', '.join(map(repr, GRID_PAYS))}", grid.pays)
    if not grid.heights:
        raise RuleError("rows", "a grid needs at least one reel")
    if grid.top_reel is not None:
        if grid.pays != "ways":
            raise RuleError("top_reel", "a top reel adds cells to the ways of the reels below "
                                        "it: it needs ways = true")
        if grid.top_reel.last > grid.n_reels:
            raise RuleError("top_reel.reels", f"covers reels {grid.top_reel.first} to "
                            f"{grid.top_reel.last} but the game has {grid.n_reels}")
    if grid.pays in ("anywhere", "cluster") and grid.varies:
        raise RuleError("rows", f"a {grid.pays} game has fixed rows per reel (random heights "
                                "are for ways games)")
    if grid.pays == "cluster":
        check_whole(grid.cluster_size, "cluster.min_size", 2)
        if len(set(grid.max_rows)) != 1:
            raise RuleError("rows", "a cluster game is a rectangle: every reel has the same rows",
                            list(grid.max_rows))
    if grid.adjacency not in ADJACENCY:
        raise RuleError("cluster.adjacency", "must be \"orthogonal\" (cells sharing a side) or "
                                             "\"diagonal\" (corners too)", grid.adjacency)


def check_tumbles(t) -> None:
    """A tumble's refill mode and weight tables, its multiplier rules and its drop limit."""
    from slotmath.model.grid import REFILLS

    if t.refill not in REFILLS:
        raise RuleError("refill", 'must be "strip" (the strip above the window) or "random" '
                                  "(drawn from refill_weights)", t.refill)
    if t.refill == "random" and not t.refill_weights:
        raise RuleError("refill_weights", 'missing: refill = "random" draws each new symbol '
                                          "from a weight table per reel: give "
                                          "[tumbles.refill_weights] base = [{...}, ...]")
    for set_name, tables in t.refill_weights.items():
        for i, table in enumerate(tables):
            check_refill_table(table, f"refill_weights.{set_name}[{i}]")
    check_whole(t.max_drops, "max_drops", 1)


def check_multiplier_symbols(m) -> None:
    """A multiplier symbol's value law(s) and how its values combine."""
    for name, table in (("values", m.values), ("free_values", m.free_values)):
        if table is None:
            continue
        if not table:
            raise RuleError(name, "must give at least one value with a weight, like "
                                  "{ 2 = 10, 5 = 3, 100 = 1 }")
        for v, w in table.items():
            check_whole(v, f"{name}.{v}", 1)
            check_whole(w, f"{name}.{v}", 0)
        if not any(table.values()):
            raise RuleError(name, "all weights are zero: at least one value needs a weight > 0")
    if m.combine not in ("add", "multiply"):
        raise RuleError("combine", 'must be "add" (values add up) or "multiply" (they '
                                   "multiply)", m.combine)


def check_analysis_settings(s) -> None:
    """How a grid game is analysed: a known method, a positive limit, accuracy and rounds."""
    from slotmath.model.grid import METHODS

    if s.method not in METHODS:
        raise RuleError("method", f"must be one of {', '.join(map(repr, METHODS))}", s.method)
    check_whole(s.exact_limit, "exact_limit", 1)
    if not s.accuracy > 0:
        raise RuleError("accuracy", "must be > 0 (the RTP's 95% half-width in total bets, like "
                                    "0.001)", s.accuracy)
    if s.rounds is not None:
        check_whole(s.rounds, "rounds", 1)
    check_whole(s.seed, "seed", 0)


def _grid_symbols(game) -> dict[str, str]:
    """What each symbol is to a grid game: "pays", "wild", "scatter", "multiplier", "blank"."""
    out = {}
    m = game.multipliers
    for name, s in game.symbols.items():
        if m is not None and name == m.symbol:
            out[name] = "multiplier"
        elif s.wild:
            out[name] = "wild"
        elif s.scatter:
            out[name] = "scatter"
        elif s.pays or s.level_pays:
            out[name] = "pays"
        else:
            out[name] = "blank"
    return out


#: the finest common unit of a grid game's pays (credits per total bet): the engines and the
#: simulator count credits in 64-bit integers, summed over drops and multiplied
GRID_MAX_UNIT = 10**9


def _check_grid_credits(game) -> None:
    """A grid game's pays (in total bets: per way over the bet for ways) share a unit of at
    most :data:`GRID_MAX_UNIT` per bet: decimals like 3.8181818181818183 would overflow the
    engines' 64-bit credits."""
    import math

    unit = 1
    for name, sym in game.symbols.items():
        per = game.bet if (game.grid.pays == "ways" and not sym.scatter) else 1
        for c, p in sym.pays.items():
            unit = math.lcm(unit, (Fraction(p) / per).denominator)
            if unit > GRID_MAX_UNIT:
                raise RuleError(f"symbols.{name}.pays.{c}", f"{float(p)} makes the pays' common unit "
                                f"1/{unit:,} of a bet, finer than 1/{GRID_MAX_UNIT:,}: credits "
                                "would overflow 64 bits; give pays with fewer decimals")


def check_grid_in_game(game) -> None:
    """What a grid game's parts name and need of each other: its reels, pays and symbols, the
    top reel's strips, tumbles' refill tables, multiplier symbols, and free spins that end."""
    g = game.grid
    if g is None:
        for key in ("tumbles", "multipliers", "analysis"):
            if getattr(game, key, None) is not None:
                raise RuleError(key, "is for grid games: give pays = \"anywhere\" or "
                                     "\"cluster\", or rows as a law of heights (Megaways)")
        return
    if g.n_reels != game.n_reels:
        raise RuleError("rows", f"gives {g.n_reels} reels but the base reel set has "
                                f"{game.n_reels}")
    if game.groups:
        raise RuleError("groups", "a grid game pays symbols, not groups: remove [groups]")
    kinds = _grid_symbols(game)
    if not any(k == "pays" for k in kinds.values()):
        raise RuleError("symbols", "no symbol pays: give at least one symbol pays")
    _check_grid_credits(game)
    for name, s in game.symbols.items():
        where = f"symbols.{name}"
        if s.bonus:
            raise RuleError(where, "bonus symbols are for [cascades] and hold & win: a grid game "
                                   "has wilds, scatters and multiplier symbols")
        if s.multiplier != 1 and g.pays != "ways":
            raise RuleError(f"{where}.multiplier", "a symbol counting several ways needs a ways "
                                                   "game: use [multipliers] symbols instead")
        if s.wild and g.pays == "anywhere":
            raise RuleError(where, "a pay-anywhere game has no wilds (a wild would count for "
                                   "every symbol at once): remove wild = true")
        if s.wild and s.substitutes is not None:
            raise RuleError(f"{where}.substitutes", "a grid game's wild stands in for every "
                                                    "paying symbol: remove substitutes")
        if g.pays == "cluster" and kinds[name] in ("pays", "wild"):
            small = [c for c in s.pays if c < g.cluster_size]
            if small:
                raise RuleError(f"{where}.pays", f"lists cluster sizes {small} below "
                                f"cluster.min_size = {g.cluster_size}: they never pay")
    if g.top_reel is not None:
        for set_name in game.reel_sets:
            if set_name not in g.top_reel.strips:
                raise RuleError(f"top_reel.strips.{set_name}", f"missing: reel set {set_name!r} "
                                "is spun with the top reel, give its strip")
        for set_name, strip in g.top_reel.strips.items():
            if set_name not in game.reel_sets:
                raise RuleError(f"top_reel.strips.{set_name}", f"no reel set {set_name!r}: the "
                                f"game has {sorted(game.reel_sets)}")
            check_strip_symbols(strip.symbols, game.symbols)
    m = game.multipliers
    if m is not None:
        check_declared(m.symbol, game.symbols, "multipliers.symbol")
        s = game.symbols[m.symbol]
        if s.wild or s.scatter or s.pays or s.level_pays:
            raise RuleError("multipliers.symbol", f"{m.symbol!r} must be a plain symbol with no "
                                                  "pays (declare it as { })")
        if m.carry and game.free_spins is None:
            raise RuleError("multipliers.carry", "accumulates the multiplier over free spins, "
                                                 "and the game has none")
    t = game.tumbles
    if t is not None:
        tables_per_set = game.n_reels + (1 if g.top_reel is not None else 0)
        for set_name, tables in t.refill_weights.items():
            where = f"tumbles.refill_weights.{set_name}"
            if set_name not in game.reel_sets:
                raise RuleError(where, f"no reel set {set_name!r}: the game has "
                                       f"{sorted(game.reel_sets)}")
            if len(tables) != tables_per_set:
                extra = " and one for the top reel" if g.top_reel is not None else ""
                raise RuleError(where, f"must give one table per reel ({game.n_reels}){extra}",
                                len(tables))
            for i, table in enumerate(tables):
                for name in table:
                    check_declared(name, game.symbols, f"{where}[{i}].{name}")
        if t.refill == "random":
            used = {"base"} | ({game.free_spins.reels} if game.free_spins else set())
            for set_name in sorted(used - set(t.refill_weights)):
                raise RuleError(f"tumbles.refill_weights.{set_name}",
                                f"missing: reel set {set_name!r} is spun and refills at random")
        if t.carry_multiplier and game.free_spins is None:
            raise RuleError("tumbles.carry_multiplier", "carries the multiplier over free "
                                                        "spins, and the game has none")
    fs = game.free_spins
    if fs is not None:
        if not game.symbols[fs.trigger].scatter:
            raise RuleError("free_spins.trigger", f"{fs.trigger!r} must be a scatter")
        if fs.retrigger and fs.max_spins is None:
            raise RuleError("free_spins.max_spins", "missing: a grid game's free spins that "
                            "retrigger need max_spins (the feature must end; a carried "
                            "multiplier makes every spin count)")


# -- whole objects --------------------------------------------------------------------------------


def check_jackpot(spec: JackpotSpec) -> None:
    """Every rule of one jackpot: seed, contribution, reserve, its hit law and parameters,
    its level factors; the error says which jackpot."""
    try:
        check_seed(spec.seed)
        check_share(spec.contribution, "contribution")
        check_reserve(spec.reserve_fraction, "reserve_fraction")
        hit_laws.law(spec.law).check(spec.parameters)
        check_can_be_won(spec.law, spec.parameters, spec.seed, spec.contribution)
        for level, factor in spec.level_factors.items():
            check_level_factor(factor, f"level_factors[{level}]")
    except RuleError as err:
        raise err.about(f"jackpot {spec.name!r}") from None


def check_wheel(wheel: BonusWheel) -> None:
    """How the wheel is played and its coin divisions' weights."""
    if wheel.per_spin not in WHEEL_PER_SPIN:
        raise RuleError("per_spin", "must be \"once\" (one wheel spin however many lines "
                                    "trigger) or \"per_line\"", wheel.per_spin)
    check_whole(wheel.count, "count", 1)
    for i, prize in enumerate(wheel.prizes):
        check_pay(prize, f"prizes[{i}]")
    check_wheel_weights(wheel.weights, len(wheel.prizes))


def check_wheel_jackpots(wheel: BonusWheel) -> None:
    """What the engines can do with a wheel's jackpot divisions: each listed once, and coin
    prizes not multiplied in free spins (not modelled). A limit of the methods rather than of
    the game, so it is checked where a game is read and where it is computed, not when a
    wheel is built."""
    if wheel.jackpots and wheel.multiplied:
        raise RuleError("multiplied", "a wheel with jackpot divisions must not multiply its "
                                      "coin prizes in free spins (not modelled)")
    if len(set(wheel.jackpots)) != len(wheel.jackpots):
        raise RuleError("jackpots", f"a jackpot is listed twice in {list(wheel.jackpots)!r}: "
                                    "one division per jackpot")


def check_max_win(max_win: MaxWin, coin_value=None, *, need_coin_value: bool = False) -> None:
    """Each cap amount > 0; with ``need_coin_value``, a cap in currency needs a coin value."""
    for field in ("bet_multiple", "currency"):
        value = getattr(max_win, field)
        if value is not None:
            check_positive(value, field)
    if need_coin_value and max_win.currency is not None and coin_value is None:
        raise RuleError("currency", "a cap in currency needs coin_value (currency per coin) at "
                                    "the top of the file")


def check_bet_levels(levels) -> None:
    """Bet levels: at least one, each a whole number >= 1 listed once, level 1 among them
    (the file's bet and pays are given at level 1). Fields are ``[i]`` within the list.

    Examples
    --------
    >>> check_bet_levels((1, 2, 2))
    Traceback (most recent call last):
    ...
    slotmath.errors.RuleError: [2]: level 2 is listed twice: give each level once
    """
    if not levels:
        raise RuleError(None, "must list at least one bet level, like [1, 2, 5]")
    for i, level in enumerate(levels):
        try:
            check_whole(level, None, 1)
        except RuleError as err:
            raise RuleError(f"[{i}]", err.problem, err.value) from None
        if level in levels[:i]:
            raise RuleError(f"[{i}]", f"level {level} is listed twice: give each level once")
    if 1 not in levels:
        raise RuleError(None, "must include level 1 (bet and pays are given at level 1)",
                        list(levels))


def check_game(game: Game) -> None:
    """The rules across a game's parts (each part checks itself when built): the strips show
    declared symbols, the free spins name a scatter and a reel set, the wheel's count fits the
    reels, the coin value, the cap's currency, the jackpots' contributions together. Fields
    are key paths of a game file (``reels.base[2][4]``, ``free_spins.trigger``)."""
    try:
        check_bet_levels(tuple(game.bet_levels))
    except RuleError as err:
        raise err.within("bet_levels") from None
    check_reel_sets(game.reel_sets, game.symbols)
    check_pays_kind(game)
    check_combination(game)
    check_grid_in_game(game)
    check_scatter_states(game)
    if game.free_spins is not None:
        try:
            check_free_spins_in_game(game.free_spins, game.symbols, game.reel_sets)
        except RuleError as err:
            raise err.within("free_spins") from None
    if game.bonus_wheel is not None:
        if game.paylines is None:
            raise RuleError("bonus_wheel", "a line-triggered bonus wheel needs paylines, and "
                                           "this is a ways game")
        check_wheel_count(game.bonus_wheel.count, game.n_reels, "bonus_wheel.count")
    if game.coin_value is not None:
        check_coin_value(game.coin_value)
    if game.max_win is not None:
        try:
            check_max_win(game.max_win, game.coin_value, need_coin_value=True)
        except RuleError as err:
            raise err.within("max_win") from None
    check_contributions(j.contribution for j in game.jackpots)
    check_cascades_in_game(game)
    if game.conveyor is not None or game.random_wilds is not None:
        check_conveyor_in_game(game)
    if game.target_rtp is not None and not 0 < game.target_rtp <= 1000:
        raise RuleError("target_rtp", "must be a percentage in (0, 1000], e.g. 96.0",
                        game.target_rtp)
    hw = getattr(game, "hold_and_win", None)
    if hw is not None:
        try:
            check_hold_and_win_in_game(hw, game.symbols, game.rows, game.n_reels,
                                       game.free_spins is not None)
        except RuleError as err:
            raise err.within("hold_and_win") from None
    if getattr(game, "modifiers", None) is not None:
        try:
            check_modifiers_in_game(game)
        except RuleError as err:
            raise err.within("modifiers") from None
    check_free_spin_state_in_game(game)
    if game.free_spins is not None:
        check_free_spins_end(game)
    if game.modes:
        check_modes_in_game(game)


def check_pays_kind(game) -> None:
    """A game pays on paylines or on ways, not both and not neither (a grid game: as its
    ``pays`` says, never on paylines)."""
    if game.paylines is not None and game.ways:
        raise RuleError("paylines", "a game has either paylines or ways = true, not both: "
                                    "remove one")
    grid = getattr(game, "grid", None)
    if grid is not None:
        if game.paylines is not None:
            raise RuleError("paylines", f"a grid game ({grid.pays}) pays its whole window: "
                                        "remove paylines")
        if game.ways != (grid.pays == "ways"):
            raise RuleError("ways", f"ways = true and pays = {grid.pays!r} do not go together: "
                                    "keep one")
        return
    if game.paylines is None and not game.ways:
        raise RuleError("paylines", "missing: give paylines = [[...], ...] (a lines game) or "
                                    "ways = true (a ways game)")


#: The mechanics (game-file sections) that combine: every section a game has must be in one
#: of these groups, each analysed and simulated together (tests/test_architecture.py holds
#: them to the simulators' ``plays``). Others are refused when the file is read.
COMBINE = (
    ("free_spins", "bonus_wheel", "jackpots", "max_win"),
    ("free_spins", "bonus_wheel", "hold_and_win", "max_win"),
    ("free_spins", "hold_and_win", "modifiers", "max_win"),
    ("cascades", "bonus_symbols", "free_spins"),
    ("conveyor", "random_wilds"),
    # free spins that carry a state, draw their awards or grow their multiplier are analysed
    # with the paid spin's pays only (a feature carries one state: the loader refuses two)
    ("free_spins", "free_spins.random_awards", "free_spins.multiplier_growth",
     "free_spins.expanding_symbol"),
    ("free_spins", "free_spins.random_awards", "free_spins.multiplier_growth",
     "free_spins.sticky_wilds"),
    ("free_spins", "free_spins.random_awards", "free_spins.multiplier_growth",
     "free_spins.collector"),
    ("grid", "tumbles", "multipliers", "free_spins", "max_win"),
)
#: the keys of ``[free_spins]`` that change how its chain runs: each a section of its own here
FREE_SPIN_KEYS = ("free_spins.random_awards", "free_spins.multiplier_growth",
                  "free_spins.expanding_symbol", "free_spins.sticky_wilds",
                  "free_spins.collector")
SECTIONS = ("free_spins", "bonus_wheel", "jackpots", "max_win", "cascades", "bonus_symbols",
            "hold_and_win", "modifiers", "conveyor", "random_wilds", "grid", "tumbles",
            "multipliers") + FREE_SPIN_KEYS


def _has(game, section: str) -> bool:
    if section in FREE_SPIN_KEYS:
        fs = getattr(game, "free_spins", None)
        key = section.split(".")[1]
        if fs is None:
            return False
        if key == "random_awards":
            return fs.award_laws is not None
        if key == "multiplier_growth":
            return fs.growth is not None
        return fs.state is not None and fs.state.kind == key
    return bool(getattr(game, section, None))


def sections_of(game) -> tuple[str, ...]:
    """The game-file sections (mechanics) ``game`` has, in :data:`SECTIONS` order (the keys
    of ``[free_spins]`` that change its chain count as sections of their own)."""
    return tuple(s for s in SECTIONS if _has(game, s))


def check_combination(game) -> None:
    """Every mechanic the game has combines with every other (:data:`COMBINE`): a pair that
    is in no group is refused, naming both sections, before anything is computed."""
    have = sections_of(game)
    if any(set(have) <= set(group) for group in COMBINE):
        return
    for i, a in enumerate(have):
        for b in have[i + 1:]:
            if not any(a in group and b in group for group in COMBINE):
                groups = "; ".join(" + ".join(group) for group in COMBINE)
                raise RuleError(b, f"[{a}] with [{b}] is not supported: these are analysed "
                                   f"and simulated together: {groups}")
    raise RuleError(have[-1], f"the sections {list(have)} do not combine: these are analysed "
                              "and simulated together: "
                              + "; ".join(" + ".join(group) for group in COMBINE))


#: Most joint scatter-count states the engine allocates (its addition table is this squared,
#: 8 bytes each: 2 GiB)
MAX_SCATTER_STATES = 1 << 14


def check_scatter_states(game) -> None:
    """The joint counts of the scatters that pay or trigger fit the engine's table: it holds
    every combination of capped counts and adds them pairwise, so it is refused, with its
    size, before it is allocated."""
    caps = game.scatter_caps()
    states = 1
    for cap in caps.values():
        states *= cap + 1
    if states > MAX_SCATTER_STATES:
        gib = states * states * 8 / 2**30
        raise RuleError("symbols", f"the counts of the {len(caps)} scatters that pay or "
                        f"trigger ({', '.join(caps)}) have {states:,} joint states, a "
                        f"{gib:,.3g} GiB table (at most {MAX_SCATTER_STATES:,} states): pay "
                        "fewer symbols as scatters, or lower their top counts")


def check_free_spins_end(game) -> None:
    """Free spins that retrigger without ``max_spins`` must end: the expected spins a free
    spin awards is below 1 (exactly, over the free reels' full cycle). A cascading game's
    free spins that retrigger need ``max_spins`` (their chain runs over spins left and spins
    awarded)."""
    fs = game.free_spins
    if not fs.retrigger or fs.max_spins is not None or not fs.plain:
        return
    if getattr(game, "cascades", None) is not None:
        raise RuleError("free_spins.max_spins", "missing: a cascading game's free spins that "
                        "retrigger need max_spins (the exact chain runs over spins left and "
                        "spins awarded)")
    counts = game.reel_sets[fs.reels].count_law(fs.trigger, game.rows)
    expected = Fraction(sum(w * fs.retrigger_for(c) for c, w in counts.items()),
                        sum(counts.values()))
    if expected >= 1:
        raise RuleError("free_spins.retrigger",
                        f"expected retrigger award per free spin is {expected} "
                        f"(~{float(expected):.4g}) >= 1 with no max_spins: the feature would "
                        "never end; add max_spins, or lower the awards or the trigger symbols "
                        "on the free-spin reels")


# -- persistent state: the bauble conveyor (slotmath.model.persistent) ---------------------------

def check_bauble(bauble) -> None:
    """A bauble holds one of the known features; free spins and coin wins a value >= 1."""
    from slotmath.model.persistent import BAUBLE_FEATURES
    if bauble.feature not in BAUBLE_FEATURES:
        raise RuleError("feature", f"must be one of {', '.join(BAUBLE_FEATURES)}",
                        bauble.feature)
    if bauble.feature in ("free_spins", "coin_win"):
        check_whole(bauble.value, "value", 1)
    elif bauble.value != 0:
        raise RuleError("value", f"a {bauble.feature} bauble has no value: remove it",
                        bauble.value)


def check_bauble_wheel(wheel, empty_weight, field: str = "wheel") -> None:
    """Whole weights >= 0, at least one delivery possible, each kind listed once."""
    check_whole(empty_weight, "empty_weight", 0)
    seen = set()
    for i, (bauble, weight) in enumerate(wheel):
        check_whole(weight, f"{field}[{i}].weight", 0)
        if bauble in seen:
            raise RuleError(f"{field}[{i}]", "this bauble is listed twice: give each once",
                            bauble.label)
        seen.add(bauble)
    if not any(w for _, w in wheel):
        raise RuleError(field, "no bauble has a weight > 0: the wheel never delivers one", 0)


def check_random_wilds(wilds) -> None:
    """One weight list per reel ``[none, row 1, ...]`` of whole numbers >= 0, not all 0."""
    for j, weights in enumerate(wilds.weights):
        if len(weights) < 2:
            raise RuleError(f"weights[{j}]", "give [no wild, row 1, row 2, ...]", list(weights))
        for r, w in enumerate(weights):
            check_whole(w, f"weights[{j}][{r}]", 0)
        if not sum(weights):
            raise RuleError(f"weights[{j}]", "all weights are 0", list(weights))


def check_conveyor_free_spins(spec) -> None:
    check_whole(spec.start_baubles, "start_baubles", 0)
    check_whole(spec.max_spins_left, "max_spins_left", 1)
    if spec.wheel:
        check_bauble_wheel(spec.wheel, spec.empty_weight)
    else:
        check_whole(spec.empty_weight, "empty_weight", 0)


def check_conveyor(conveyor) -> None:
    """The wheel, the surprise law (features a surprise can become, each on the wheel) and
    the reset event."""
    from slotmath.model.persistent import RESET_EVENTS
    check_bauble_wheel(conveyor.wheel, conveyor.empty_weight)
    if conveyor.reset not in RESET_EVENTS:
        raise RuleError("reset", f"must be one of {', '.join(RESET_EVENTS)}", conveyor.reset)
    on_wheel = {b.feature for b, w in conveyor.wheel if w}
    has_surprise = "surprise" in on_wheel or any(
        b.feature == "surprise" and w for b, w in conveyor.free_spins.wheel)
    for feature, w in conveyor.surprise.items():
        check_whole(w, f"surprise.{feature}", 0)
        if feature not in ("spreading_wild", "free_spins", "coin_win"):
            raise RuleError(f"surprise.{feature}", "a surprise turns into spreading_wild, "
                            "free_spins or coin_win", feature)
        if w and feature != "spreading_wild" and feature not in on_wheel:
            raise RuleError(f"surprise.{feature}", "no bauble of this feature is on the wheel "
                            "to draw its value from", w)
    if has_surprise and not sum(conveyor.surprise.values()):
        raise RuleError("surprise", "the wheel holds surprise baubles: give what they turn "
                        "into, e.g. surprise = { coin_win = 1, free_spins = 1 }")


def check_conveyor_in_game(game) -> None:
    """The random wild is a declared wild with no pays of its own that no strip shows, with
    one weight list per reel sized to its rows; the free spins' reel set exists."""
    wilds, conveyor = game.random_wilds, game.conveyor
    if wilds is None:
        raise RuleError("random_wilds", "missing: a conveyor's baubles are activated by "
                        "random wilds; add [random_wilds]")
    if conveyor is None:
        raise RuleError("conveyor", "missing: random wilds are modelled with a [conveyor]")
    if game.paylines is None:
        raise RuleError("conveyor", "a bauble conveyor is modelled on lines games only", "ways")
    check_declared(wilds.symbol, game.symbols, "random_wilds.symbol")
    sym = game.symbols[wilds.symbol]
    if not sym.wild or sym.substitutes is not None:
        raise RuleError("random_wilds.symbol", "must be a wild substituting for every "
                        "symbol (wild = true, no substitutes)", wilds.symbol)
    if sym.pays or sym.level_pays:
        raise RuleError(f"symbols.{wilds.symbol}.pays", "the random wild may not pay on its "
                        "own (then a spread wild, which does not stand in for it, would pay "
                        "differently, which is not modelled)", dict(sym.pays))
    if any(s.scatter or s.bonus or s.multiplier != 1 or (s.wild and s.name != wilds.symbol)
           for s in game.symbols.values()):
        raise RuleError("symbols", "a conveyor game is modelled with plain paying symbols and "
                        "its random wild only (no scatters, bonus, multipliers, other wilds)")
    if game.groups:
        raise RuleError("groups", "a conveyor game is modelled without symbol groups")
    if len(wilds.weights) != game.n_reels:
        raise RuleError("random_wilds.weights", f"give one weight list per reel "
                        f"({game.n_reels})", len(wilds.weights))
    for j, weights in enumerate(wilds.weights):
        if len(weights) != 1 + game.rows[j]:
            raise RuleError(f"random_wilds.weights[{j}]", f"give {1 + game.rows[j]} weights: "
                            f"no wild, then one per row", list(weights))
    for name, reel_set in game.reel_sets.items():
        for j, reel in enumerate(reel_set.reels):
            if wilds.symbol in reel.symbols:
                raise RuleError(f"reels.{name}[{j}]", f"the random wild {wilds.symbol!r} "
                                "lands on its own: keep it off the strips", wilds.symbol)
    check_reel_set_name(conveyor.free_spins.reels, game.reel_sets,
                        "conveyor.free_spins.reels")
    if conveyor.free_spins.start_baubles > game.n_reels:
        raise RuleError("conveyor.free_spins.start_baubles", f"at most one per reel "
                        f"({game.n_reels})", conveyor.free_spins.start_baubles)
    if game.free_spins is not None or game.bonus_wheel is not None or game.jackpots:
        raise RuleError("conveyor", "a conveyor game's free spins come from its baubles: "
                        "remove [free_spins], [bonus_wheel] and [jackpots]")



# -- hold & win -----------------------------------------------------------------------------------

def _check_probability(value, field: str, *, allow_zero: bool = True) -> None:
    if isinstance(value, bool) or not isinstance(value, (int, Fraction)):
        raise RuleError(field, "must be an exact probability (a Fraction, or a string like "
                               "'1/12')", value)
    low_ok = value >= 0 if allow_zero else value > 0
    if not (low_ok and value < 1):
        raise RuleError(field, f"must be in {'[0' if allow_zero else '(0'}, 1)", value)


def check_booster(booster) -> None:
    """A booster's own values: a known kind, a probability in [0, 1), whole counts >= 1, a
    multiplier ladder of whole factors >= 2 that rises, one per firing."""
    from slotmath.model.hold_and_win import BOOSTER_KINDS
    if booster.kind not in BOOSTER_KINDS:
        raise RuleError("kind", f"must be one of {', '.join(BOOSTER_KINDS)}", booster.kind)
    _check_probability(booster.probability, "probability")
    check_whole(booster.collect, "collect", 1)
    check_whole(booster.times, "times", 1)
    check_whole(booster.extra, "extra", 1)
    if booster.kind == "multiplier":
        ladder = tuple(booster.ladder)
        if not ladder:
            raise RuleError("ladder", "must list the multiplier after each firing, e.g. "
                                      "[2, 3, 5]", list(ladder))
        for i, m in enumerate(ladder):
            check_whole(m, f"ladder[{i}]", 2)
        if any(b <= a for a, b in itertools.pairwise(ladder)):
            raise RuleError("ladder", "must rise (each firing raises the multiplier)",
                            list(ladder))
        if booster.times != len(ladder):
            raise RuleError("times", f"a multiplier booster fires once per ladder step "
                                     f"({len(ladder)})", booster.times)


def check_hold_and_win(hw) -> None:
    """A hold & win feature's own values (fields are keys of ``[hold_and_win]``)."""
    check_whole(hw.trigger, "trigger", 1)
    check_whole(hw.respins, "respins", 1)
    check_whole(hw.rows, "rows", 1)
    check_whole(hw.reels, "reels", 1)
    check_whole(hw.max_rows, "max_rows", hw.rows)
    _check_probability(hw.cash_probability, "cash_probability", allow_zero=False)
    if hw.trigger > hw.reels * hw.rows:
        raise RuleError("trigger", f"can never happen: the window has {hw.reels * hw.rows} "
                                   "positions", hw.trigger)
    values = tuple(hw.values)
    if not values:
        raise RuleError("values", "must list at least one value (in total bets)", [])
    for i, v in enumerate(values):
        if isinstance(v, bool) or not isinstance(v, (int, Fraction)) or v <= 0:
            raise RuleError(f"values[{i}]", "must be a number of total bets > 0", v)
    if any(b <= a for a, b in itertools.pairwise(values)):
        raise RuleError("values", "must rise (a value step moves one rung up)",
                        [str(v) for v in values])
    weights = tuple(hw.value_weights)
    if len(weights) != len(values):
        raise RuleError("value_weights", f"must give one weight per value ({len(values)}), "
                                         f"got {len(weights)}", list(weights))
    for i, w in enumerate(weights):
        check_whole(w, f"value_weights[{i}]", 0)
    if not sum(weights):
        raise RuleError("value_weights", "must not all be 0", list(weights))
    if hw.ceiling is not None and hw.ceiling < values[0]:
        raise RuleError("ceiling", f"is below the lowest value {values[0]}", hw.ceiling)
    if hw.top_award is not None and hw.top_award <= 0:
        raise RuleError("top_award", "must be > 0 (total bets)", hw.top_award)
    if hw.full_grid_prize < 0:
        raise RuleError("full_grid_prize", "must be >= 0 (total bets)", hw.full_grid_prize)
    kinds = [b.kind for b in hw.boosters]
    for k in kinds:
        if kinds.count(k) > 1:
            raise RuleError(f"boosters.{k}", "is given twice: one booster per kind", k)
    named = dict(hw.named_values)
    for name, value in hw.named_values:
        if value not in values:
            raise RuleError(f"named_values.{name}", f"must be one of values "
                                                    f"({', '.join(str(v) for v in values)})",
                            value)
        if "values" in kinds:
            raise RuleError(f"named_values.{name}", "cannot name a value that a values booster "
                                                    "steps up (the value held would no longer "
                                                    "be the one named)", value)
    if len(set(named.values())) != len(named):
        raise RuleError("named_values", "names one value twice", {k: str(v) for k, v in
                                                                  named.items()})
    if hw.full_grid_name is not None and not hw.full_grid_prize:
        raise RuleError("full_grid_name", "names a full-grid prize the feature does not have "
                                          "(full_grid_prize)", hw.full_grid_name)
    if hw.full_grid_name is not None and hw.full_grid_name in named:
        raise RuleError("full_grid_name", "is also a named value", hw.full_grid_name)
    rows = next((b for b in hw.boosters if b.kind == "rows"), None)
    if rows is not None and rows.times != hw.max_rows - hw.rows:
        raise RuleError("boosters.rows.times", f"must be max_rows - rows = "
                                               f"{hw.max_rows - hw.rows}", rows.times)
    if rows is None and hw.max_rows != hw.rows:
        raise RuleError("max_rows", "needs a rows booster to open the extra rows "
                                    "([hold_and_win.boosters.rows])", hw.max_rows)


def check_hold_and_win_in_game(hw, symbols: Mapping, rows: Sequence[int],
                               n_reels: int, has_free_spins: bool = False) -> None:
    """The hold & win's cash symbol is declared, its grid is the game's reels, and the
    window's rows are the grid's starting rows on every reel."""
    check_declared(hw.symbol, symbols, "symbol")
    if hw.in_free_spins and not has_free_spins:
        raise RuleError("in_free_spins", "starts inside free spins, and the game has no "
                                         "[free_spins]: remove the key or add free spins", True)
    if hw.reels != n_reels:
        raise RuleError("reels", f"must be the game's {n_reels} reels", hw.reels)
    if any(r != hw.rows for r in rows):
        raise RuleError("rows", f"the respin grid starts from the window: the game's rows "
                                f"{list(rows)} must all be {hw.rows}", list(rows))


# -- base-game modifiers (slotmath.model.modifiers) ---------------------------------------------

def check_modifier(m) -> None:
    """A modifier's own values (fields are keys of ``[modifiers.<name>]``): a known kind, an
    exact frequency in (0, 1], a count law of whole counts >= 1 with whole weights not all 0
    (``place``), or from/to symbols with whole weights (``upgrade``)."""
    from slotmath.model.modifiers import MODIFIER_KINDS
    if m.kind not in MODIFIER_KINDS:
        raise RuleError("kind", f"must be one of {', '.join(MODIFIER_KINDS)}", m.kind)
    f = m.frequency
    if isinstance(f, bool) or not isinstance(f, (int, Fraction)) or not 0 < f <= 1:
        raise RuleError("frequency", "must be an exact probability per paid spin in (0, 1] "
                                     "(a Fraction, or a string like '1/40')", f)
    if m.kind == "place":
        if not m.symbol:
            raise RuleError("symbol", "must name the symbol it places (e.g. \"WILD\")", m.symbol)
        if not m.counts:
            raise RuleError("counts", "must give the law of how many positions it changes, "
                                      "e.g. { 3 = 5, 4 = 3, 5 = 2 }", {})
        for k, w in m.counts:
            check_whole(k, "counts", 1)
            check_whole(w, f"counts.{k}", 0)
        ks = [k for k, _ in m.counts]
        if len(set(ks)) != len(ks):
            raise RuleError("counts", "lists a count twice", ks)
        if not sum(w for _, w in m.counts):
            raise RuleError("counts", "weights must not all be 0", dict(m.counts))
        if m.symbol in m.keep:
            raise RuleError("keep", f"lists the placed symbol {m.symbol!r} itself", list(m.keep))
        for r in m.reels:
            check_whole(r, "reels", 1)
        if len(set(m.reels)) != len(m.reels):
            raise RuleError("reels", "lists a reel twice", list(m.reels))
        if m.from_symbols or m.to:
            raise RuleError("from", "belongs to an upgrade modifier, not a place one",
                            list(m.from_symbols))
    else:
        if not m.from_symbols:
            raise RuleError("from", "must list the symbols it upgrades, e.g. "
                                    "[\"A\", \"K\", \"Q\", \"J\"]", [])
        if not m.to:
            raise RuleError("to", "must give the symbols it upgrades to with weights, e.g. "
                                  "{ GUS = 1, MULE = 2 }", {})
        for s, w in m.to:
            check_whole(w, f"to.{s}", 0)
        if not sum(w for _, w in m.to):
            raise RuleError("to", "weights must not all be 0", dict(m.to))
        both = sorted(set(m.from_symbols) & {s for s, _ in m.to})
        if both:
            raise RuleError("to", f"{both} are both upgraded and upgraded to", both)
        if m.symbol or m.counts or m.keep or m.reels:
            raise RuleError("symbol", "belongs to a place modifier, not an upgrade one",
                            m.symbol)


def check_modifiers(mods) -> None:
    """At most one modifier per paid spin: their frequencies sum to at most 1; names unique."""
    names = [m.name for m in mods.modifiers]
    for n in names:
        if names.count(n) > 1:
            raise RuleError(n, "is given twice", n)
    total = sum((m.frequency for m in mods.modifiers), Fraction(0))
    if total > 1:
        raise RuleError("frequency", "the modifiers' frequencies must sum to at most 1 (at "
                                     "most one modifier acts on a paid spin)", str(total))


#: What a modified paid spin cannot be combined with (its table is mixed into the paid round,
#: and the spins of free spins where a modifier says ``in_free_spins``).
_MODIFIER_INCOMPATIBLE = ("bonus_wheel", "cascades", "conveyor", "random_wilds")


def check_modifiers_in_game(game) -> None:
    """The modifiers' symbols are declared; a placed count fits the window; the game has no
    mechanic the modified table is not mixed into (bonus wheel, cascades, persistent state,
    jackpots: not supported yet, refused rather than computed wrongly); a modifier acting in
    free spins needs free spins."""
    mods = game.modifiers
    for name in _MODIFIER_INCOMPATIBLE:
        if getattr(game, name, None) is not None:
            raise RuleError(None, f"modifiers with [{name}] are not supported (the modified "
                                  "spin is mixed into lines/ways, free-spin and hold & win "
                                  "games only)", name)
    if game.jackpots:
        raise RuleError(None, "modifiers with [jackpots] are not supported", "jackpots")
    for m in mods.modifiers:
        where = m.name
        if m.in_free_spins and game.free_spins is None:
            raise RuleError(f"{where}.in_free_spins", "acts in free spins, and the game has no "
                            "[free_spins]: remove the key or add free spins", True)
        try:
            if m.kind == "place":
                check_declared(m.symbol, game.symbols, "symbol")
                for s in m.keep:
                    check_declared(s, game.symbols, "keep")
                for r in m.reels:
                    if r > game.n_reels:
                        raise RuleError("reels", f"reel {r} does not exist: the game has "
                                                 f"{game.n_reels} reels (numbered from 1)", r)
                eligible = sum(rows for j, rows in enumerate(game.rows) if m.on_reel(j))
                for k, _ in m.counts:
                    if k > eligible:
                        where_cells = ("the window has" if not m.reels else
                                       f"reels {list(m.reels)} have")
                        raise RuleError(f"counts.{k}", f"can never happen: {where_cells} "
                                                       f"{eligible} positions", k)
            else:
                for s in m.from_symbols:
                    check_declared(s, game.symbols, "from")
                for s, _ in m.to:
                    check_declared(s, game.symbols, "to")
        except RuleError as err:
            raise err.within(where) from None


# -- game modes (slotmath.model.modes) ------------------------------------------------------------

def check_mode(mode) -> None:
    """A mode's own values (fields are keys of ``[modes.<name>]``): a cost in total bets
    > 0; it changes the reels or buys a feature with a law of its trigger count (whole
    counts >= 1, whole weights not all 0), not both and not neither."""
    from slotmath.model.modes import BUYABLE
    cost = mode.cost
    if isinstance(cost, bool) or not isinstance(cost, (int, Fraction)) or cost <= 0:
        raise RuleError("cost", "must be a number of total bets > 0 (e.g. 100 for a bonus buy, "
                                "1.25 for an ante bet)", cost)
    if mode.buys is None and mode.reels is None:
        raise RuleError(None, "changes nothing: give reels = \"NAME\" (the paid spin's reels) "
                              "or buys = \"free_spins\" with trigger = { 3 = 8, 4 = 2 }")
    if mode.buys is not None and mode.reels is not None:
        raise RuleError("reels", "a bonus buy has no paid spin, so no reels: give reels or "
                                 "buys, not both", mode.reels)
    if mode.buys is not None:
        if mode.buys not in BUYABLE:
            raise RuleError("buys", f"must name the feature it starts: one of "
                                    f"{', '.join(BUYABLE)}", mode.buys)
        if not mode.trigger:
            raise RuleError("trigger", "missing: the law of the trigger count that starts the "
                                       "feature, e.g. trigger = { 3 = 8, 4 = 2 }", {})
        for k, w in mode.trigger:
            check_whole(k, "trigger", 1)
            check_whole(w, f"trigger.{k}", 0)
        counts = [k for k, _ in mode.trigger]
        if len(set(counts)) != len(counts):
            raise RuleError("trigger", "lists a count twice", counts)
        if not sum(w for _, w in mode.trigger):
            raise RuleError("trigger", "weights must not all be 0", dict(mode.trigger))
    elif mode.trigger:
        raise RuleError("trigger", "belongs to a bonus buy (buys = ...)", dict(mode.trigger))


#: The sections a game with modes may have (each analysed and simulated per mode).
MODE_SECTIONS = ("free_spins", "bonus_wheel", "hold_and_win", "modifiers", "max_win")


def check_modes_in_game(game) -> None:
    """The modes fit the game: names unique; the reels are a reel set; a bought feature is
    the game's and every count of its law starts it; the game has a feature a mode can
    start or trigger (free spins or hold & win) and only sections a mode is analysed and
    simulated with (:data:`MODE_SECTIONS`)."""
    names = [m.name for m in game.modes]
    for n in names:
        if names.count(n) > 1:
            raise RuleError(f"modes.{n}", "is given twice", n)
    if game.free_spins is None and game.hold_and_win is None:
        raise RuleError("modes", "a mode buys or triggers a feature more often, and the game "
                                 "has neither [free_spins] nor [hold_and_win]")
    for section in sections_of(game):
        if section not in MODE_SECTIONS:
            raise RuleError("modes", f"modes with [{section}] are not supported (modes are "
                                     f"analysed and simulated with "
                                     f"{', '.join(MODE_SECTIONS)})", section)
    for m in game.modes:
        where = f"modes.{m.name}"
        if m.reels is not None:
            try:
                check_reel_set_name(m.reels, game.reel_sets, "reels")
            except RuleError as err:
                raise err.within(where) from None
        if m.buys is None:
            continue
        spec = getattr(game, m.buys, None)
        if spec is None:
            raise RuleError(f"{where}.buys", f"the game has no [{m.buys}] to buy", m.buys)
        window = sum(game.rows)
        for k, w in m.trigger:
            if k > window:
                raise RuleError(f"{where}.trigger.{k}", f"can never happen: the window has "
                                                        f"{window} positions", k)
            starts = (spec.award_for(k) > 0 if m.buys == "free_spins"
                      else k >= spec.trigger)
            if w and not starts:
                raise RuleError(f"{where}.trigger.{k}", f"{k} trigger symbols do not start "
                                                        f"[{m.buys}]", k)
