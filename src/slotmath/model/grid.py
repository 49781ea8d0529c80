"""Grid games: what a Megaways, pay-anywhere or cluster game IS, as frozen dataclasses.

A *grid game* pays its window as a whole rather than along paylines:

* ``ways`` on reels whose height is drawn every spin from a weighted law (Megaways), with an
  optional horizontal top reel over some middle reels (:class:`Grid`, :class:`HeightLaw`,
  :class:`TopReel`);
* ``anywhere``: a symbol pays by how many times it shows anywhere in the window;
* ``cluster``: a symbol pays per cluster of adjacent cells showing it (or a wild).

Around the pays, three mechanics can be added: :class:`Tumbles` (winning cells are removed, the
survivors fall and the gaps refill, until a drop wins nothing), :class:`MultiplierSymbols`
(symbols that land with a value drawn from a weighted table and multiply the win of the tumble
sequence they land in) and the game's ``[free_spins]``. How they are analysed (exact or
simulated) is :class:`AnalysisSettings`. The order of a spin, which every engine and every
reference follows, is written once in ``docs/game-format.md`` ("Grid games").

Every rule on these values is in :mod:`slotmath.model.rules` (``check_height_law`` ...
``check_grid_in_game``); the loader reads them (:mod:`slotmath.io.grid_loader`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from types import MappingProxyType

from slotmath.model import rules
from slotmath.model.cascades import MultiplierRule

__all__ = ["ADJACENCY", "GRID_PAYS", "METHODS", "REFILLS", "AnalysisSettings", "Grid",
           "HeightLaw", "MultiplierSymbols", "TopReel", "Tumbles"]

#: how a grid game pays its window
GRID_PAYS = ("ways", "anywhere", "cluster")
#: which cells touch in a cluster game
ADJACENCY = ("orthogonal", "diagonal")
#: how the gaps of a tumble are refilled
REFILLS = ("strip", "random")
#: how a game is analysed: exact where the estimate allows (auto), exact or refused, simulated
METHODS = ("auto", "exact", "simulate")


def _frozen(d: Mapping) -> Mapping:
    return MappingProxyType(dict(d))


@dataclass(frozen=True)
class HeightLaw:
    """How many rows one reel shows on a spin: ``weights[h]`` is the weight of height ``h``.

    Examples
    --------
    >>> law = HeightLaw({2: 1, 3: 1, 7: 2})
    >>> law.heights, law.total, law.probability(7), law.max
    ((2, 3, 7), 4, Fraction(1, 2), 7)
    >>> HeightLaw.fixed(5).heights
    (5,)
    >>> HeightLaw({0: 1})
    Traceback (most recent call last):
    ...
    slotmath.errors.RuleError: 0: a height is a whole number of rows from 1 to 12, got 0
    """

    weights: Mapping[int, int]

    def __post_init__(self):
        rules.check_height_law(self)
        object.__setattr__(self, "weights", _frozen(dict(sorted(self.weights.items()))))

    @classmethod
    def fixed(cls, rows: int) -> HeightLaw:
        """The law of a reel that always shows ``rows`` rows."""
        return cls({rows: 1})

    @property
    def heights(self) -> tuple[int, ...]:
        """The heights with a weight > 0, lowest first."""
        return tuple(h for h, w in self.weights.items() if w)

    @property
    def total(self) -> int:
        return sum(self.weights.values())

    @property
    def max(self) -> int:
        return max(self.heights)

    @property
    def min(self) -> int:
        return min(self.heights)

    def probability(self, height: int) -> Fraction:
        """P(the reel shows ``height`` rows)."""
        return Fraction(self.weights.get(height, 0), self.total)

    @property
    def is_fixed(self) -> bool:
        return len(self.heights) == 1


@dataclass(frozen=True)
class TopReel:
    """A horizontal reel above reels ``first``..``last`` (1-based, inclusive) of a ways game.

    ``strips[set]`` is its strip on reel set ``set`` (a :class:`~slotmath.model.game.Reel`,
    read left to right: stop ``s`` shows ``strip[s], strip[s+1], ...`` over reels ``first``
    to ``last``). Each of those reels counts its top cell in its ways.
    """

    first: int
    last: int
    strips: Mapping

    def __post_init__(self):
        rules.check_top_reel(self)
        object.__setattr__(self, "strips", _frozen(self.strips))

    @property
    def width(self) -> int:
        return self.last - self.first + 1

    def covers(self, reel: int) -> bool:
        """Whether 0-based ``reel`` has a top cell."""
        return self.first - 1 <= reel <= self.last - 1


@dataclass(frozen=True)
class Grid:
    """How a grid game pays its window.

    Parameters
    ----------
    pays : str
        ``"ways"`` (left to right ways on each reel's rows, Megaways when heights vary),
        ``"anywhere"`` (a symbol's count anywhere in the window) or ``"cluster"`` (clusters of
        adjacent cells).
    heights : tuple of HeightLaw
        One per reel: the law of its rows on each spin (fixed rows: a one-height law).
    top_reel : TopReel or None
        A horizontal reel over some middle reels (ways only).
    cluster_size : int
        The smallest cluster that pays (cluster only).
    adjacency : str
        ``"orthogonal"`` (cells sharing a side, the default) or ``"diagonal"`` (corners too).

    Examples
    --------
    >>> g = Grid("ways", (HeightLaw({2: 1, 7: 1}),) * 6)
    >>> g.max_rows, g.max_ways, g.window_cells
    ((7, 7, 7, 7, 7, 7), 117649, 42)
    """

    pays: str
    heights: tuple[HeightLaw, ...]
    top_reel: TopReel | None = None
    cluster_size: int = 5
    adjacency: str = "orthogonal"

    def __post_init__(self):
        rules.check_grid(self)

    @property
    def n_reels(self) -> int:
        return len(self.heights)

    @property
    def max_rows(self) -> tuple[int, ...]:
        return tuple(h.max for h in self.heights)

    @property
    def varies(self) -> bool:
        """Whether some reel's height is drawn per spin (Megaways)."""
        return any(not h.is_fixed for h in self.heights)

    @property
    def window_cells(self) -> int:
        """The most cells a window can show (top reel included)."""
        return sum(self.max_rows) + (self.top_reel.width if self.top_reel else 0)

    @property
    def max_ways(self) -> int:
        """Ways when every reel shows its most rows (each covered reel one more)."""
        out = 1
        for j, h in enumerate(self.heights):
            out *= h.max + (1 if self.top_reel is not None and self.top_reel.covers(j) else 0)
        return out


@dataclass(frozen=True)
class Tumbles:
    """Winning cells are removed, the survivors fall, the gaps are refilled; again until a drop
    wins nothing (a *tumble sequence*).

    Parameters
    ----------
    refill : str
        ``"strip"``: a reel's gaps take the symbols above its window on its strip (the stops
        decide the whole sequence); ``"random"``: each new symbol is drawn from
        ``refill_weights``.
    refill_weights : mapping reel set -> tuple of mapping symbol -> weight
        One table per reel (and one more for the top reel, if any); random refill only.
    multiplier : MultiplierRule
        The multiplier of drop ``k`` of a sequence (``k = 0`` the first drop), on the paid spin.
    free_multiplier : MultiplierRule or None
        The rule in free spins (None: ``multiplier``).
    carry_multiplier : bool
        In free spins the drop index is not reset between spins: each feature starts at 0 and
        every winning drop of every spin moves it on (a multiplier that grows without limit
        with ``step > 0`` and no ``max``).
    max_drops : int
        A sequence is cut after this many drops (a refill that kept winning forever); the
        simulator counts the sequences cut and the exact engines refuse a chain that reaches it.
    """

    refill: str = "strip"
    refill_weights: Mapping = field(default_factory=lambda: _frozen({}))
    multiplier: MultiplierRule = field(default_factory=MultiplierRule)
    free_multiplier: MultiplierRule | None = None
    carry_multiplier: bool = False
    max_drops: int = 200

    def __post_init__(self):
        rules.check_tumbles(self)
        object.__setattr__(self, "refill_weights", _frozen(self.refill_weights))

    def rule(self, free: bool) -> MultiplierRule:
        """The drop multiplier rule of a paid spin (``free`` False) or a free spin."""
        return self.free_multiplier if free and self.free_multiplier is not None \
            else self.multiplier


@dataclass(frozen=True)
class MultiplierSymbols:
    """Symbols that carry a multiplier value drawn, when the symbol lands, from a weighted table.

    They pay nothing, are never substituted and are never removed by a tumble. When a tumble
    sequence ends having won anything (scatter pays aside), the values of every multiplier
    symbol in the final window combine (``"add"``: their sum; ``"multiply"``: their product)
    into the sequence multiplier, and the sequence's win is multiplied by it; with none in the
    window it is 1.

    With ``carry`` (free spins only), the feature keeps a running total, 0 at its start
    (``"add"``) or 1 (``"multiply"``): a winning sequence with multiplier symbols first adds
    (multiplies) its value into the total, then is multiplied by the total; a winning sequence
    without them is paid as it is.

    Parameters
    ----------
    symbol : str
        The multiplier symbol's name (declared in ``[symbols]`` with no pays).
    values : mapping value -> weight
        The law of a landed symbol's value (whole numbers >= 1).
    free_values : mapping value -> weight, or None
        The law in free spins (None: ``values``).
    combine : str
        ``"add"`` or ``"multiply"``.
    carry : bool
        Whether free spins accumulate the total across the feature's spins.

    Examples
    --------
    >>> m = MultiplierSymbols("M", {2: 3, 10: 1})
    >>> m.mean_value(False)
    Fraction(4, 1)
    """

    symbol: str
    values: Mapping[int, int]
    free_values: Mapping[int, int] | None = None
    combine: str = "add"
    carry: bool = False

    def __post_init__(self):
        rules.check_multiplier_symbols(self)
        object.__setattr__(self, "values", _frozen(dict(sorted(self.values.items()))))
        if self.free_values is not None:
            object.__setattr__(self, "free_values",
                               _frozen(dict(sorted(self.free_values.items()))))

    def table(self, free: bool) -> Mapping[int, int]:
        """The value law of a paid spin (``free`` False) or a free spin."""
        return self.free_values if free and self.free_values is not None else self.values

    def mean_value(self, free: bool) -> Fraction:
        t = self.table(free)
        return Fraction(sum(v * w for v, w in t.items()), sum(t.values()))


@dataclass(frozen=True)
class AnalysisSettings:
    """How ``slotmath analyze`` treats a grid game (the ``[analysis]`` table; each setting
    also a command-line option).

    Parameters
    ----------
    method : str
        ``"auto"``: exact when the up-front estimate is within ``exact_limit``, else the
        simulated PAR sheet (said so); ``"exact"``: exact or a one-line refusal giving the
        estimate; ``"simulate"``: the simulated PAR sheet.
    exact_limit : int
        The most elementary steps (window evaluations and state transitions) the exact engine
        may be estimated to take.
    accuracy : Fraction
        The simulated PAR's target: the half-width of the RTP's 95 % confidence interval, in
        total bets (0.001 = 0.1 percentage points).
    rounds : int or None
        Simulate exactly this many paid rounds instead (accuracy then only reported).
    seed : int
        The simulation's seed (the same seed gives the same figures on any number of cores).
    """

    method: str = "auto"
    exact_limit: int = 200_000_000
    accuracy: Fraction = Fraction(1, 500)
    rounds: int | None = None
    seed: int = 1

    def __post_init__(self):
        rules.check_analysis_settings(self)


def with_settings(game, **changes):
    """``game`` analysed with its ``[analysis]`` settings changed (``method``,
    ``exact_limit``, ``accuracy``, ``rounds``, ``seed``); the settings' rules check the new
    values. Only grid games read them: another game is returned as it is.

    Examples
    --------
    >>> import slotmath
    >>> g = with_settings(slotmath.load_game("tests/data/grid/anywhere_tiny.toml"),
    ...                   method="simulate", rounds=1000)
    >>> g.analysis.method, g.analysis.rounds, g.analysis.seed
    ('simulate', 1000, 1)
    """
    from dataclasses import replace

    if game.grid is None:
        return game
    settings = replace(game.analysis or AnalysisSettings(), **changes)
    return replace(game, analysis=settings)
