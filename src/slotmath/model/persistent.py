"""Persistent state carried between paid spins: what it IS (frozen dataclasses, no numerics).

A persistent-state game keeps a *state* from one paid spin to the next, moves it by a
*transition law* on every paid spin, and clears it on a *reset event* (a bet change). The
analysis (:mod:`slotmath.markov.persistent`, :mod:`slotmath.features.conveyor`) is a Markov
chain on that state. The first kind of state is the **bauble conveyor** (Jingle Spin):

* :class:`RandomWilds`: on every spin each reel independently shows at most one *regular*
  wild, on row ``r`` with weight ``weights[reel][1 + r]`` (``weights[reel][0]``: no wild). It
  overlays the strip symbol at that position.
* :class:`Conveyor`: one slot ("dwarf") above each reel holds at most one :class:`Bauble`.
  Per paid spin, in this order (each choice the rule sheet leaves open is named):

  1. the reels stop and the random wilds land;
  2. each bauble above a reel showing a regular wild activates: a coin win pays its value, a
     spreading wild turns the 8 neighbours of that wild into wilds (which activate nothing), a
     free-spins bauble awards its spins (simultaneous awards add), a surprise bauble turns
     into a feature drawn by ``surprise`` with a value drawn from the wheel's own baubles of
     that feature (weight for weight);
  3. the line wins are paid on the window with the spread wilds;
  4. activated baubles are removed when ``consume_on_activation`` (default: they stay);
  5. every bauble moves one slot to the left; the one above reel 1 is gone;
  6. the wheel delivers a bauble to the slot above the last reel with the weights of
     ``wheel`` (``empty_weight``: nothing);
  7. free spins awarded in step 2 play now on their own conveyor (:class:`ConveyorFreeSpins`)
     and leave the base conveyor as step 6 left it ("the dwarves revert").

  A bet change empties every slot (``reset = "bet_change"``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from types import MappingProxyType

from slotmath.model import rules

__all__ = ["BAUBLE_FEATURES", "RESET_EVENTS", "Bauble", "Conveyor", "ConveyorFreeSpins",
           "RandomWilds", "with_conveyor_design"]

#: What a bauble can hold.
BAUBLE_FEATURES = ("spreading_wild", "free_spins", "coin_win", "surprise")
#: What clears a persistent state.
RESET_EVENTS = ("bet_change",)


@dataclass(frozen=True)
class Bauble:
    """One kind of bauble on the wheel: its feature and value (free spins: the spins; coin
    win: coins at bet level 1, scaled by the level like a line win; else 0)."""

    feature: str
    value: int = 0

    def __post_init__(self):
        rules.check_bauble(self)

    @property
    def label(self) -> str:
        return self.feature if self.feature in ("spreading_wild", "surprise") \
            else f"{self.feature}:{self.value}"


@dataclass(frozen=True)
class RandomWilds:
    """At most one regular wild per reel: ``weights[reel] = [none, row 1, row 2, ...]``."""

    symbol: str
    weights: tuple[tuple[int, ...], ...]

    def __post_init__(self):
        rules.check_random_wilds(self)

    def probability(self, reel: int, row: int | None) -> Fraction:
        """P(the wild lands on ``row`` of ``reel``) (``row=None``: no wild on the reel)."""
        w = self.weights[reel]
        return Fraction(w[0 if row is None else 1 + row], sum(w))

    def hit_probability(self, reel: int) -> Fraction:
        """P(``reel`` shows a regular wild)."""
        return 1 - self.probability(reel, None)


@dataclass(frozen=True)
class ConveyorFreeSpins:
    """The free spins baubles award: their own conveyor, always fed.

    At the start the wheel fills slots ``n - start_baubles + 1 .. n`` (the rightmost ones;
    the others stay empty); every free spin then runs steps 1-6 of :class:`Conveyor` with
    ``wheel`` (default: the base wheel; no empty delivery unless ``empty_weight``). Free-spins baubles collected by a
    wild add spins; spins left above ``max_spins_left`` are lost.
    """

    reels: str = "base"
    start_baubles: int = 4
    max_spins_left: int = 100
    wheel: tuple[tuple[Bauble, int], ...] = ()
    empty_weight: int = 0

    def __post_init__(self):
        rules.check_conveyor_free_spins(self)


@dataclass(frozen=True)
class Conveyor:
    """The bauble conveyor of a game (see the module docstring for the order of a spin)."""

    wheel: tuple[tuple[Bauble, int], ...]
    empty_weight: int
    surprise: Mapping[str, int] = field(default_factory=lambda: MappingProxyType({}))
    consume_on_activation: bool = False
    reset: str = "bet_change"
    free_spins: ConveyorFreeSpins = field(default_factory=ConveyorFreeSpins)

    def __post_init__(self):
        if not self.free_spins.wheel:  # the free spins use the base wheel unless given one
            fs = self.free_spins
            object.__setattr__(self, "free_spins", ConveyorFreeSpins(
                fs.reels, fs.start_baubles, fs.max_spins_left, self.wheel, fs.empty_weight))
        rules.check_conveyor(self)

    def surprise_law(self) -> dict[Bauble, Fraction]:
        """What a surprise bauble turns into on activation: feature by ``surprise``, value by
        the base wheel's weights among that feature's baubles."""
        total = sum(self.surprise.values())
        out: dict[Bauble, Fraction] = {}
        for feature, w in self.surprise.items():
            if not w:  # never drawn (its baubles may all weigh 0 on the wheel)
                continue
            kinds = [(b, k) for b, k in self.wheel if b.feature == feature]
            inner = sum(k for _, k in kinds)
            if feature == "spreading_wild" and not inner:
                kinds, inner = [(Bauble("spreading_wild"), 1)], 1
            for b, k in kinds:
                out[b] = out.get(b, Fraction(0)) + Fraction(w, total) * Fraction(k, inner)
        return out


def with_conveyor_design(game, *, wheel: dict | None = None, empty_weight: int | None = None,
                         values: dict | None = None, wild_weights=None,
                         consume_on_activation: bool | None = None):
    """A copy of ``game`` with a new bauble-wheel design (checked like a game file).

    ``wheel`` maps a bauble's label (``"coin_win:20"``, ``"spreading_wild"``) to its new
    weight; ``values`` maps a label to a new value (``{"coin_win:20": 25}``); ``wild_weights``
    replaces the random-wild weights (one list per reel). The free spins keep using the base
    wheel when they did.

    Examples
    --------
    >>> import slotmath
    >>> g = slotmath.load_game("tests/data/conveyor_tiny.toml")
    >>> h = with_conveyor_design(g, wheel={"spreading_wild": 0}, values={"coin_win:6": 9})
    >>> [(b.label, w) for b, w in h.conveyor.wheel][:4]
    [('spreading_wild', 0), ('free_spins:1', 1), ('free_spins:2', 1), ('coin_win:9', 2)]
    """
    from dataclasses import replace

    c = game.conveyor
    wheel, values = dict(wheel or {}), dict(values or {})
    labels = {b.label for b, _ in c.wheel}
    for label in set(wheel) | set(values):
        if label not in labels:
            raise rules.RuleError("wheel", f"no bauble {label!r} on the wheel (it has "
                                  f"{', '.join(sorted(labels))})")

    def redesign(entries):
        out = []
        for b, w in entries:
            new = Bauble(b.feature, values.get(b.label, b.value))
            out.append((new, wheel.get(b.label, w)))
        return tuple(out)

    shared = c.free_spins.wheel == c.wheel
    base = redesign(c.wheel)
    fs = replace(c.free_spins, wheel=base if shared else redesign(c.free_spins.wheel))
    conveyor = replace(c, wheel=base, free_spins=fs,
                       empty_weight=c.empty_weight if empty_weight is None else empty_weight,
                       consume_on_activation=(c.consume_on_activation
                                              if consume_on_activation is None
                                              else consume_on_activation))
    wilds = game.random_wilds
    if wild_weights is not None:
        wilds = RandomWilds(wilds.symbol, tuple(tuple(w) for w in wild_weights))
    return replace(game, conveyor=conveyor, random_wilds=wilds)
