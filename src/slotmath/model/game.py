"""What a game IS: frozen dataclasses, no I/O, no numerics beyond validation.

Units
-----
* Line pays are multiples of the line bet (``bet / number of paylines``).
* Ways pays are coins at the file's ``bet``.
* Scatter pays are multiples of the total bet.
* ``level_pays`` give a pay-table column at one bet level, in the same units as the
  level-1 pay table (so an entry that simply scales with the level would be ``level * pay``);
  entries not listed scale with the level.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from types import MappingProxyType

from slotmath.model import rules
from slotmath.model.cascades import BonusSymbols, Cascades, MultiplierRule
from slotmath.model.free_spin_state import Collector, ExpandingSymbol, StickyWilds
from slotmath.model.grid import AnalysisSettings, Grid, MultiplierSymbols, Tumbles
from slotmath.model.hold_and_win import HoldAndWin
from slotmath.model.modes import Mode
from slotmath.model.modifiers import Modifiers
from slotmath.model.persistent import Conveyor, RandomWilds


def _frozen_map(d: Mapping) -> Mapping:
    return MappingProxyType(dict(d))


@dataclass(frozen=True)
class Symbol:
    """One reel symbol.

    Parameters
    ----------
    name : str
    pays : mapping of count -> pay (Fraction). Line pays for lines games, coins for ways
        games, total-bet multiples for scatters.
    wild : bool
        Substitutes for every symbol except scatters and bonus symbols (or only for
        ``substitutes`` when that is given).
    scatter : bool
        Pays by count anywhere in the window.
    bonus : bool
        A feature symbol: never substituted by wilds, pays nothing on its own.
    multiplier : int
        Multiplies every line win the symbol takes part in (compounding with other
        multiplier symbols on the same line). In ways games a position showing it counts
        ``multiplier`` ways.
    substitutes : frozenset of str or None
        For a wild: the only symbols it substitutes for; None = all it may.
    level_pays : mapping level -> mapping count -> pay
        Pay-table columns that are not proportional to the bet level.
    """

    name: str
    pays: Mapping[int, Fraction] = field(default_factory=lambda: _frozen_map({}))
    wild: bool = False
    scatter: bool = False
    bonus: bool = False
    multiplier: int = 1
    substitutes: frozenset[str] | None = None
    level_pays: Mapping[int, Mapping[int, Fraction]] = field(
        default_factory=lambda: _frozen_map({})
    )

    def __post_init__(self):
        rules.check_symbol(self)

    def pay_at(self, count: int, level: int = 1) -> Fraction:
        """Pay for ``count`` at bet ``level``, in level-1 pay-table units times the level.

        Examples
        --------
        >>> s = Symbol("A", pays={3: Fraction(5)}, level_pays={2: {3: Fraction(12)}})
        >>> s.pay_at(3), s.pay_at(3, 2), s.pay_at(3, 3), s.pay_at(4)
        (Fraction(5, 1), Fraction(12, 1), Fraction(15, 1), Fraction(0, 1))
        """
        column = self.level_pays.get(level)
        if column is not None and count in column:
            return Fraction(column[count])
        return Fraction(self.pays.get(count, 0)) * level

    def substitutes_for(self, other: Symbol) -> bool:
        """Whether this (wild) symbol stands in for ``other``."""
        if not self.wild or other.scatter or other.bonus or other.wild:
            return False
        return self.substitutes is None or other.name in self.substitutes


@dataclass(frozen=True)
class SymbolGroup:
    """Mixed pays: any member symbol (or a wild standing in for one) counts, e.g. "any bar"."""

    name: str
    members: frozenset[str]
    pays: Mapping[int, Fraction]
    level_pays: Mapping[int, Mapping[int, Fraction]] = field(
        default_factory=lambda: _frozen_map({})
    )

    def __post_init__(self):
        rules.check_symbol(self)

    def pay_at(self, count: int, level: int = 1) -> Fraction:
        column = self.level_pays.get(level)
        if column is not None and count in column:
            return Fraction(column[count])
        return Fraction(self.pays.get(count, 0)) * level


@dataclass(frozen=True)
class Reel:
    """A circular strip listed top to bottom; optional integer stop weights (virtual reel).

    Its rules (:func:`slotmath.model.rules.check_reel`: at least one stop, one whole-number
    weight >= 0 per stop, not all zero) are checked when it is built; that its symbols are
    declared is the game's rule (:func:`~slotmath.model.rules.check_reel_sets`).

    Examples
    --------
    >>> Reel(("A", "B"), (0, 0))
    Traceback (most recent call last):
    ...
    slotmath.errors.RuleError: weights: all weights are zero: at least one stop needs a weight > 0
    """

    symbols: tuple[str, ...]
    weights: tuple[int, ...] | None = None

    def __post_init__(self):
        rules.check_reel(self)

    def __len__(self) -> int:
        return len(self.symbols)

    @property
    def stop_weights(self) -> tuple[int, ...]:
        return self.weights if self.weights is not None else (1,) * len(self.symbols)

    @property
    def cycle(self) -> int:
        """Total weight of all stops."""
        return sum(self.stop_weights)

    def window(self, stop: int, rows: int) -> tuple[str, ...]:
        """Symbols shown top to bottom when the reel stops at ``stop``.

        Examples
        --------
        >>> Reel(("A", "B", "C")).window(2, 2)
        ('C', 'A')
        """
        n = len(self.symbols)
        return tuple(self.symbols[(stop + r) % n] for r in range(rows))


@dataclass(frozen=True)
class ReelSet:
    name: str
    reels: tuple[Reel, ...]

    @property
    def cycle(self) -> int:
        total = 1
        for reel in self.reels:
            total *= reel.cycle
        return total

    def count_law(self, symbol: str, rows) -> dict[int, int]:
        """Weights of how many ``symbol`` a window of this reel set shows (``rows`` per reel,
        every row, weighted stops) over its full cycle: reels are independent, so the count
        is a sum of independent per-reel counts.

        >>> sorted(ReelSet("s", (Reel(("A", "S")), Reel(("S", "S", "A")))).count_law("S", (1, 1)).items())
        [(0, 1), (1, 3), (2, 2)]
        """
        law = {0: 1}
        for reel, r in zip(self.reels, rows):
            step: dict[int, int] = {}
            for stop, w in enumerate(reel.stop_weights):
                if w:
                    k = reel.window(stop, r).count(symbol)
                    step[k] = step.get(k, 0) + w
            out: dict[int, int] = {}
            for a, wa in law.items():
                for b, wb in step.items():
                    out[a + b] = out.get(a + b, 0) + wa * wb
            law = out
        return law


@dataclass(frozen=True)
class FreeSpins:
    """Scatter-triggered free spins.

    ``awards`` maps scatter count -> spins; a count above the highest listed is awarded as
    the highest listed. Its own rules (:func:`slotmath.model.rules.check_free_spins`) are
    checked when it is built; that ``trigger`` is a scatter of the game and ``reels`` one of
    its reel sets, when the game is.
    """

    trigger: str
    awards: Mapping[int, int]
    reels: str = "base"
    multiplier: int = 1
    retrigger: bool = False
    max_spins: int | None = None
    retrigger_awards: Mapping[int, int] | None = None  # awards in free spins (None: awards)
    scatter_pays: bool = True  # scatter pays apply in free spins
    # -- free spins with a state (issue 21; docs/game-format.md "Free spins with a state") --
    # count -> {spins: weight}: the spins awarded by the trigger drawn by weight (``awards``
    # then holds the most each count can award)
    award_laws: Mapping[int, Mapping[int, int]] | None = None
    growth: MultiplierRule | None = None  # the win multiplier of the k-th free spin (k from 0)
    state: ExpandingSymbol | StickyWilds | Collector | None = None

    def __post_init__(self):
        rules.check_free_spins(self)

    @property
    def plain(self) -> bool:
        """Whether the feature carries nothing from spin to spin but the spins (no state,
        no random award, no growing multiplier): the plain chain
        (:mod:`slotmath.markov.free_spins`) plays it."""
        return self.award_laws is None and self.growth is None and self.state is None

    def spins_law(self, count: int) -> dict[int, int]:
        """The spins ``count`` trigger symbols award, as ``{spins: weight}`` (empty: none).

        Examples
        --------
        >>> FreeSpins("SC", {3: 10}).spins_law(4)
        {10: 1}
        >>> FreeSpins("SC", {3: 12}, award_laws={3: {9: 1, 12: 2}}).spins_law(3)
        {9: 1, 12: 2}
        """
        if self.award_laws is not None:
            law = _by_count(self.award_laws, count)
            return {n: w for n, w in law.items() if w} if law else {}
        n = self.award_for(count)
        return {n: 1} if n else {}

    def retrigger_for(self, count: int) -> int:
        """Spins awarded during free spins for ``count`` trigger symbols.

        Examples
        --------
        >>> FreeSpins("SC", {3: 9}, retrigger=True, retrigger_awards={1: 1, 2: 2}).retrigger_for(3)
        2
        """
        return _by_count(self.retrigger_awards if self.retrigger_awards is not None
                         else self.awards, count)

    def award_for(self, count: int) -> int:
        """Spins awarded for ``count`` trigger symbols.

        Examples
        --------
        >>> FreeSpins("SC", {3: 10, 4: 15}).award_for(5)
        15
        """
        return _by_count(self.awards, count)


@dataclass(frozen=True)
class BonusWheel:
    """A line-triggered bonus game: a weighted wheel paying multiples of the total bet.

    Triggered when ``symbol`` shows ``count`` or more times in succession from reel 1 on a
    payline (only the symbol itself counts; wilds do not stand in), in the base game and in
    free spins alike. ``per_spin = "once"`` plays one wheel spin however many lines trigger;
    ``"per_line"`` plays one per triggering line. In free spins the wheel win is multiplied
    by the free-spin multiplier only when ``multiplied`` is true.

    ``prizes`` and ``weights`` are the coin divisions. ``jackpots`` names further divisions,
    one per progressive jackpot of the game (:class:`JackpotSpec`): such a division is hit with
    the probability its jackpot's hit law gives for the pool and the bet, and the coin
    divisions share what is left by their weights. One wheel spin wins at most one jackpot.

    Examples
    --------
    >>> w = BonusWheel("BN", 3, "once", (Fraction(1), Fraction(5)), (3, 1))
    >>> w.mean
    Fraction(2, 1)
    """

    symbol: str
    count: int
    per_spin: str
    prizes: tuple[Fraction, ...]
    weights: tuple[int, ...]
    multiplied: bool = False
    labels: tuple[str, ...] = ()
    jackpots: tuple[str, ...] = ()

    def __post_init__(self):
        rules.check_wheel(self)

    @property
    def mean(self) -> Fraction:
        """Expected prize of one wheel spin, in total bets (with jackpot divisions: of one spin
        that stops on a coin division)."""
        total = sum(self.weights)
        return sum((p * w for p, w in zip(self.prizes, self.weights)), Fraction(0)) / total

    def spins_for(self, lines: int) -> int:
        """Wheel spins played when ``lines`` paylines trigger."""
        return min(lines, 1) if self.per_spin == "once" else lines


@dataclass(frozen=True)
class JackpotSpec:
    """One progressive jackpot: its money rules and the law of its hit probability.

    Parameters
    ----------
    name : str
        The wheel division it sits on.
    seed : Fraction
        Restart value in currency, before the reserve is added.
    contribution : Fraction
        Fraction of every paid bet contributed.
    reserve_fraction : Fraction
        Fraction of each contribution set aside for the next jackpot.
    law : str
        ``"constant"`` (``probability``), ``"linear"`` (``rate`` per currency unit in the
        pool) or ``"saturating"`` (``p_max``, ``half``): the probability that one wheel spin
        hits this jackpot, given the pool in currency.
    parameters : mapping name -> float
        The law's parameters (see :data:`slotmath.model.hit_laws.LAWS`).
    level_factors : mapping level -> float
        The law's probabilities are multiplied by this factor at each bet level.

    Examples
    --------
    >>> j = JackpotSpec("MINOR", Fraction(50), Fraction(3, 125), Fraction(1, 10), "linear",
    ...                 {"rate": 1e-4}, {1: 1.0, 2: 2.5})
    >>> j.factor(2), j.factor(3)
    (2.5, 1.0)

    Its rules (:func:`slotmath.model.rules.check_jackpot`) are checked when it is built:

    >>> JackpotSpec("MINOR", Fraction(-5), Fraction(3, 125), Fraction(0), "linear",
    ...             {"rate": 1e-4})
    Traceback (most recent call last):
    ...
    slotmath.errors.RuleError: jackpot 'MINOR': seed: must be >= 0, got -5
    """

    name: str
    seed: Fraction
    contribution: Fraction
    reserve_fraction: Fraction
    law: str
    parameters: Mapping[str, float]
    level_factors: Mapping[int, float] = field(default_factory=lambda: _frozen_map({}))

    def __post_init__(self):
        rules.check_jackpot(self)

    def factor(self, level: int) -> float:
        """The law's factor at bet ``level`` (1 when not listed)."""
        return float(self.level_factors.get(level, 1.0))


@dataclass(frozen=True)
class MaxWin:
    """The most a game round (paid spin and its free spins, bonus-wheel coins included) may
    pay: ``bet_multiple`` x total bet, or ``currency`` units, whichever is reached first.
    Progressive jackpots are paid from their pools, outside this cap."""

    bet_multiple: Fraction | None = None
    currency: Fraction | None = None

    def __post_init__(self):
        rules.check_max_win(self)


def _by_count(table: Mapping[int, object], count: int):
    """Value for ``count``: the listed one, the highest listed above the top, else 0."""
    if not table or count < min(table):
        return 0
    if count in table:
        return table[count]
    top = max(table)
    if count > top:
        return table[top]
    return 0


@dataclass(frozen=True)
class Game:
    """A whole game definition.

    Exactly one of ``paylines`` (lines game) and ``ways`` (ways game) is set, or ``grid``
    (a grid game: Megaways ways, pay anywhere or clusters; its ``rows`` are each reel's most).
    """

    name: str
    rows: tuple[int, ...]
    bet: int
    symbols: Mapping[str, Symbol]
    reel_sets: Mapping[str, ReelSet]
    paylines: tuple[tuple[int, ...], ...] | None = None
    ways: bool = False
    groups: Mapping[str, SymbolGroup] = field(default_factory=lambda: _frozen_map({}))
    free_spins: FreeSpins | None = None
    bonus_wheel: BonusWheel | None = None
    bet_levels: tuple[int, ...] = (1,)
    description: str = ""
    source: str | None = None
    coin_value: Fraction | None = None
    currency: str = ""
    jackpots: tuple[JackpotSpec, ...] = ()
    max_win: MaxWin | None = None
    cascades: Cascades | None = None
    bonus_symbols: BonusSymbols | None = None
    random_wilds: RandomWilds | None = None  # persistent state (slotmath.model.persistent)
    conveyor: Conveyor | None = None
    target_rtp: Fraction | None = None  # the designer's RTP target, in percent
    hold_and_win: HoldAndWin | None = None  # cash respins (slotmath.model.hold_and_win)
    modifiers: Modifiers | None = None  # base-game modifiers (slotmath.model.modifiers)
    # how the multipliers of a line's run combine: "multiply" (x2 and x3 pay x6) or "add"
    # (x2 and x3 pay x5; a run without a multiplier symbol pays x1)
    line_multipliers: str = "multiply"
    # grid games (slotmath.model.grid): how the window pays (Megaways heights, anywhere,
    # clusters), tumbles, multiplier symbols, and how the game is analysed
    grid: Grid | None = None
    tumbles: Tumbles | None = None
    multipliers: MultiplierSymbols | None = None
    analysis: AnalysisSettings | None = None
    modes: tuple[Mode, ...] = ()  # game modes: bonus buys, ante bets (slotmath.model.modes)

    def __post_init__(self):
        rules.check_game(self)

    def check_level(self, level: int) -> None:
        """Raise :class:`~slotmath.errors.RuleError` (a ``ValueError``) unless ``level`` is one
        of the game's bet levels.

        Examples
        --------
        >>> Game("g", (3,), 1, {}, {}, ways=True, bet_levels=(1, 2)).check_level(4)
        Traceback (most recent call last):
        ...
        slotmath.errors.RuleError: bet level 4 is not one of the game's levels [1, 2]
        """
        rules.check_level(self.bet_levels, level)

    def with_analysis(self, **changes) -> Game:
        """This game with its ``[analysis]`` settings changed (``method``, ``exact_limit``,
        ``accuracy``, ``rounds``, ``seed``); a game that reads none (its analysis is exact as
        it stands) is returned as it is."""
        from slotmath.model.grid import with_settings

        return with_settings(self, **changes)

    def mode(self, name: str) -> Mode:
        """The game mode called ``name``.

        Examples
        --------
        >>> Game("g", (3,), 1, {}, {}, ways=True).mode("buy")
        Traceback (most recent call last):
        ...
        ValueError: no game mode 'buy': the game has none
        """
        for m in self.modes:
            if m.name == name:
                return m
        have = ", ".join(m.name for m in self.modes) or "none"
        raise ValueError(f"no game mode {name!r}: the game has {have}")

    def jackpot(self, name: str) -> JackpotSpec:
        """The progressive jackpot called ``name``.

        Examples
        --------
        >>> Game("g", (3,), 1, {}, {}, ways=True).jackpot("MINOR")
        Traceback (most recent call last):
        ...
        ValueError: no jackpot 'MINOR': the game has []
        """
        for spec in self.jackpots:
            if spec.name == name:
                return spec
        raise ValueError(f"no jackpot {name!r}: the game has {[j.name for j in self.jackpots]}")

    @property
    def n_reels(self) -> int:
        return len(self.rows)

    @property
    def base(self) -> ReelSet:
        return self.reel_sets["base"]

    @property
    def n_lines(self) -> int:
        return len(self.paylines) if self.paylines is not None else 0

    @property
    def scatters(self) -> tuple[str, ...]:
        return tuple(s.name for s in self.symbols.values() if s.scatter)

    def scatter_caps(self) -> dict[str, int]:
        """The scatters whose count matters (they pay or trigger), each with the count it is
        capped at: the digits the engine counts jointly (one home for the engine and the
        rule that refuses a table too large to allocate).

        Examples
        --------
        >>> g = Game("g", (3,), 1, {"S": Symbol("S", pays={2: Fraction(1), 3: Fraction(4)},
        ...          scatter=True)}, {}, ways=True)
        >>> g.scatter_caps()
        {'S': 3}
        """
        out = {}
        for name in self.scatters:
            sym = self.symbols[name]
            counts = set(sym.pays) | {c for col in sym.level_pays.values() for c in col}
            cap = max(counts) if counts else 0
            if self.free_spins is not None and self.free_spins.trigger == name:
                cap = max(cap, max(self.free_spins.awards))
            if cap:
                out[name] = cap
        return out

    @property
    def trigger_symbol(self) -> str | None:
        """The symbol whose count in the window the engine's trigger column counts (the
        free-spin trigger), or None."""
        return None if self.free_spins is None else self.free_spins.trigger

    @property
    def has_currency_figures(self) -> bool:
        """Whether a figure of the game is set in currency (a jackpot's seed, a cap in
        currency), so that its coin value changes more than the bet's currency value."""
        return bool(self.jackpots) or (self.max_win is not None
                                       and self.max_win.currency is not None)

    def pay_level(self, level: int) -> int:
        """The first bet level whose pay rules, per total bet, are those of ``level``: every
        symbol's and group's pays (``level_pays`` included) and the scatter pays the same
        fraction of the total bet, and the max-win cap the same multiple of it (a cap in
        currency does not scale). A feature whose figures in total bets depend on the level
        only through these (the bauble conveyor) computes them once for such levels.

        Examples
        --------
        >>> import slotmath
        >>> slotmath.load_game("data/games/jingle_spin.toml").pay_level(7)  # pays scale
        1
        >>> g = slotmath.load_game("data/games/classic_3reel.toml")  # W3's column at 3
        >>> [g.pay_level(level) for level in g.bet_levels]
        [1, 1, 3]
        """
        self.check_level(level)

        def rules_at(at: int) -> tuple:
            pays = tuple(
                (s.name, c, s.pay_at(c, at) / at)
                for s in (*self.symbols.values(), *self.groups.values())
                for c in sorted(set(s.pays) | {c for col in s.level_pays.values() for c in col}))
            cap = self.cap_coins(at)
            return pays, None if cap is None else cap / self.total_bet(at)

        mine = rules_at(level)
        return next(at for at in self.bet_levels if at == level or rules_at(at) == mine)

    def total_bet(self, level: int = 1) -> int:
        """Total bet in coins at ``level``."""
        return self.bet * level

    def bet_value(self, level: int = 1) -> Fraction:
        """Total bet in currency at ``level`` (needs ``coin_value``)."""
        if self.coin_value is None:
            raise ValueError(f"{self.name}: no coin_value, so bets have no currency value")
        return self.total_bet(level) * self.coin_value

    def cap_coins(self, level: int = 1) -> Fraction | None:
        """The max-win cap of a round in coins at ``level`` (None: no cap).

        Examples
        --------
        >>> g = Game("g", (3,), 25, {}, {}, ways=True, coin_value=Fraction(1, 10),
        ...          max_win=MaxWin(Fraction(10000), Fraction(250000)))
        >>> g.cap_coins(1), g.cap_coins(4)
        (Fraction(250000, 1), Fraction(1000000, 1))
        """
        if self.max_win is None:
            return None
        caps = []
        if self.max_win.bet_multiple is not None:
            caps.append(self.max_win.bet_multiple * self.total_bet(level))
        if self.max_win.currency is not None:
            caps.append(self.max_win.currency / self.coin_value)
        return min(caps) if caps else None

    def scatter_pay(self, name: str, count: int, level: int = 1) -> Fraction:
        """Scatter pay in total bets at ``level`` for ``count`` symbols (top pay above the top).

        Examples
        --------
        >>> g = Game("g", (3,), 1, {"S": Symbol("S", pays={2: Fraction(1), 3: Fraction(4)},
        ...          scatter=True)}, {}, ways=True)
        >>> g.scatter_pay("S", 1), g.scatter_pay("S", 3), g.scatter_pay("S", 5)
        (Fraction(0, 1), Fraction(4, 1), Fraction(4, 1))
        """
        sym = self.symbols[name]
        counts = set(sym.pays) | {c for col in sym.level_pays.values() for c in col}
        if not counts or count < min(counts):
            return Fraction(0)
        effective = count if count in counts or count < max(counts) else max(counts)
        return sym.pay_at(effective, level) / level

    def replace_reels(self, name: str, reels: tuple[Reel, ...]) -> Game:
        """A copy with reel set ``name`` replaced (for what-if studies and widgets)."""
        from dataclasses import replace

        sets = dict(self.reel_sets)
        sets[name] = ReelSet(name, tuple(reels))
        return replace(self, reel_sets=_frozen_map(sets))
