"""Cascades as a feature of kind ``outcome``: the paid spin's outcome table, its window
components and pay rows, and the free spins that carry the cascade multiplier.

Cascades change what one spin pays, so they enter below the other features, as the outcome
table of a spin (:func:`slotmath.exact.cascades.cascade_law`, one per reel set, built for
:meth:`slotmath.features.base.Context.table`). Its marks:

* ``trigger``: the free-spin trigger symbols of the spin's final window;
* ``trigger_index``: ``trigger + STRIDE * cascades`` (the index a carried multiplier goes on
  from);
* ``drop_sum``: the spin's drop wins before any multiplier (on the free-spin reels of a game
  whose free spins carry the multiplier; 0 elsewhere).

The free spins of a cascading game (:class:`CascadeFreeSpins`) replace the plain free-spin
chain (``replaces``): a round feature started by ``trigger_index``, whose chain is
:class:`slotmath.markov.cascade_free_spins.CarriedFreeSpins`. Simulator counterpart:
:mod:`slotmath.simulate.cascades`. Report: :mod:`slotmath.report.cascades`.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property

import numpy as np

from slotmath.exact.spin_table import MarkedTable
from slotmath.features.base import Feature, FeatureLaw, Kind, Mark
from slotmath.markov.cascade_free_spins import CarriedFreeSpins
from slotmath.model.game import FreeSpins

__all__ = ["FEATURE", "STRIDE", "CascadeFreeSpins", "SampledLaw", "table"]

#: trigger_index = trigger + STRIDE * cascades (trigger counts stay below it).
STRIDE = 1 << 10
MARKS = ("trigger", "trigger_index", "drop_sum")
#: A free spin on reel set R is played as table ``FREE + R`` (its rules differ from a paid
#: spin's on the same reels: the free multiplier rule, scatter pays, the free-spin multiplier).
FREE = "free:"


def table(context, reel_set: str, progress=None) -> MarkedTable:
    """The exact outcome table of one cascading spin on ``reel_set``, marks :data:`MARKS`.

    A game with free spins asks for its free spins' table (``FREE`` + their reel set) too:
    the paid reels' table is computed together with it (:func:`_laws_at_once`), and the free
    spins' table is then read from ``context.laws``."""
    law = context.laws.get(reel_set)
    if law is None:
        law = _laws_at_once(context, reel_set, progress)
    weights = _columns(law.joint, lambda c, a, t, k: (t, t + STRIDE * k, a, c),
                       lambda t, i, a, c: (c, a, t, (i - t) // STRIDE))
    if hasattr(weights, "keys_array"):  # the law's rows, in their order: the chain's table
        weights.law = law.joint
    context.laws[reel_set] = law
    return MarkedTable(MARKS, weights, law.cycle, law.credits_per_bet)


def _request(game, reel_set: str):
    """What :func:`slotmath.exact.cascades.cascade_laws` computes for table ``reel_set``."""
    from slotmath.exact.cascades import LawRequest

    free = reel_set.startswith(FREE)
    name = reel_set[len(FREE):] if free else reel_set
    return LawRequest(name, free, free and game.cascades.carry_multiplier, True, not free)


def _laws_at_once(context, reel_set: str, progress):
    """The law of table ``reel_set``, and with the paid reels' that of the free spins' table
    when the game has free spins (its round needs both): their enumerations share one pool
    of workers, the free reels' first: the workers go on to the paid reels while this process
    merges the free reels' table and computes their chain (:func:`_warm`), then merges the paid
    reels' (the laws are the ones computed one at a time). Both go into ``context.laws``."""
    from slotmath.exact.cascades import cascade_laws

    game = context.game
    names, reports = [reel_set], [progress]
    fs = game.free_spins
    done = None
    if fs is not None and FREE + fs.reels not in context.laws and (
            not reel_set.startswith(FREE)
            or (reel_set == FREE + fs.reels and "base" not in context.laws)):
        # the free reels first: their chain is then computed while the paid reels are
        # enumerated (:func:`_warm`); so too when the free spins' table is asked for first
        # (the round's features before the paid spin's pays: ``analyze(game).rtp``)
        if reel_set.startswith(FREE):
            names.append("base")  # (the paid spin's table: :func:`window`, :func:`_result`)
            reports.append(context.reporter("base reels (cascades)"))
        else:
            names.insert(0, FREE + fs.reels)  # (reported as Context.table would report it)
            reports.insert(0, context.reporter(f"{FREE + fs.reels} reels (cascades)"))

        def done(i, law):
            if i == 0:
                _warm(game, law)
    laws = cascade_laws(game, [_request(game, n) for n in names], context.level,
                        progress=reports, model=context.model, done=done)
    context.laws.update(zip(names, laws))
    return laws[names.index(reel_set)]


def _columns(weights, new_key, old_key=None):
    """``{new_key(*key): summed weight}`` in the order of ``weights``' first keys. A
    :class:`~slotmath.exact.cascades.WeightTable` whose new keys are all distinct (``new_key``
    applied to its columns, as arrays) stays one, its rows in their order: the dict it replaces
    would have iterated in the same order, its weights the same (nothing summed).

    ``old_key``, when given, turns new columns back into old ones: when it gives back every
    row's old key, ``new_key`` is one-to-one on the table's (distinct) keys, so the new keys
    are distinct without sorting them (a check of every row, O(n)); else they are compared
    (:func:`~slotmath.exact.spin_table.distinct_rows`)."""
    from slotmath.exact.cascades import WeightTable
    from slotmath.exact.spin_table import distinct_rows

    if isinstance(weights, WeightTable) and len(weights):
        old = weights.keys_array
        keys = _stack(new_key(*old.T), len(old))
        if _returns(old_key, keys, old) or distinct_rows(keys):
            return WeightTable(keys, weights.weights_array)
    out: dict = {}
    for key, w in weights.items():
        key = new_key(*key)
        out[key] = out.get(key, 0) + w
    return out


def _stack(cols, n: int) -> np.ndarray:
    """Columns (arrays, or numbers repeated) as the columns of an (n, len(cols)) int64 array,
    held column by column (its readers take its columns)."""
    out = np.empty((len(cols), n), np.int64)
    for j, c in enumerate(cols):
        out[j] = c
    return out.T


def _returns(old_key, keys: np.ndarray, old: np.ndarray) -> bool:
    """Whether ``old_key`` turns every row of ``keys`` back into the row of ``old`` it came
    from."""
    if old_key is None:
        return False
    back = old_key(*keys.T)
    return len(back) == old.shape[1] and all(
        np.array_equal(np.broadcast_to(b, len(old)), old[:, j]) for j, b in enumerate(back))


def window(context):
    """The paid spin's own pays over every drop of its chains
    (:class:`slotmath.features.pays.Window`): components first drop ("lines"/"ways"), later
    drops ("cascades", multiplied) and "scatter"; pay rows by entry and run (RTP only: one
    spin can pay an entry in several drops); scatter rows by the trigger symbol's count in
    the spin's final window; with ``cascades.scatters = "every_fall"``, by the count each
    fall won with: a row's weight counts winning falls (a spin may count on several) and its
    RTP is what those falls paid (times their multiplier with ``scatter_multiplied``)."""
    from slotmath.features.pays import PayRow, ScatterRow, Window, awards_of, scatter_rows

    context.table("base", ())
    law = context.laws["base"]
    game, model, cpb = context.game, context.model, law.credits_per_bet
    first = "ways" if game.ways else "lines"
    pays = tuple(PayRow(key, run, model.key_credits[key].get(run, 0), None, None,
                        Fraction(credits, law.cycle * cpb))
                 for (key, run), credits in sorted(law.entry_weights.items()))
    fs = game.free_spins
    name = fs.trigger if fs is not None else (game.scatters[0] if game.scatters else None)
    counts = _column_weights(law.joint, 2, law.cycle)
    if game.cascades.scatters == "every_fall":
        scatters = tuple(
            ScatterRow(s, n, falls, Fraction(_credit(model.scatter_credits.get(s, ()), n), cpb),
                       awards_of(game, s, n), Fraction(credits, law.cycle * cpb))
            for (s, n), (falls, credits) in sorted(law.scatter_falls.items()))
    else:
        scatters = () if name is None else scatter_rows(
            game, {name: counts}, {name: model.scatter_credits.get(name, ())}, law.cycle, cpb)
    components = {first: law.mean_first, "cascades": law.mean_later}
    if game.scatters:
        components["scatter"] = law.mean_scatter
    return Window(first, law.cycle, cpb, components, pays, scatters)


def _column_weights(weights, column: int, cycle: int) -> dict:
    """``{value: summed weight}`` of one key column of a table (``{key tuple: weight}``),
    in the order each value first occurs; a :class:`~slotmath.exact.cascades.WeightTable`
    with int64 weights whose total, ``cycle``, fits in int64 is summed in numpy (no sum can
    overflow), the same integers as the loop over its rows (Frozen Gems: 596,000 rows).

    >>> from slotmath.exact.cascades import WeightTable
    >>> t = WeightTable(np.array([[5, 2], [0, 1], [7, 2]]), np.array([3, 4, 5]))
    >>> _column_weights(t, 1, 12), _column_weights(dict(t.items()), 1, 12)
    ({2: 8, 1: 4}, {2: 8, 1: 4})
    """
    keys = getattr(weights, "keys_array", None)
    if keys is not None and len(keys) and weights.weights_array.dtype == np.int64 \
            and cycle < 1 << 63:
        values, first, inverse = np.unique(keys[:, column], return_index=True,
                                           return_inverse=True)
        sums = np.zeros(len(values), np.int64)
        np.add.at(sums, inverse.reshape(-1), weights.weights_array)
        order = np.argsort(first, kind="stable")
        return dict(zip(values[order].tolist(), sums[order].tolist()))
    out: dict = {}
    for key, w in weights.items():
        out[key[column]] = out.get(key[column], 0) + w
    return out


def _credit(credits: tuple, count: int) -> int:
    return credits[count] if count < len(credits) else 0


def _marks(game) -> tuple[Mark, ...]:
    if game.free_spins is None:
        return ()
    trig = game.free_spins.trigger
    return (Mark("trigger", trig), Mark("trigger_index", trig), Mark("drop_sum"))


@dataclass(frozen=True, eq=False)
class CascadeFreeSpins:
    """Free spins of a cascading game, started by ``trigger_index``; a key is (spins,
    start index)."""

    spec: FreeSpins
    free: MarkedTable  # marks include trigger_index and drop_sum
    beta: int  # step * free-spin multiplier when the index is carried, else 0
    carry: bool
    reels: str = ""  # the table its spins play on: FREE + the free-spin reel set
    window_multiplier: int = 1
    name: str = "free_spins"
    simulator: str = "slotmath.simulate.cascades.simulate_cascades"

    @property
    def mark(self) -> Mark:
        return Mark("trigger_index", self.spec.trigger)

    @property
    def reel_set(self) -> str:
        """The game's reel set its spins play on (``reels`` names the table)."""
        return self.spec.reels

    def start(self, value: int):
        trig, index = value % STRIDE, value // STRIDE
        n = self.spec.award_for(trig)
        if self.spec.max_spins is not None:
            n = min(n, self.spec.max_spins)
        if not n:
            return None
        return (n, index if self.carry else 0)

    @cached_property
    def chain(self) -> CarriedFreeSpins:
        t = self.free  # one pass: (y, a, trigger, cascades), summed over any other mark
        law = getattr(t.weights, "law", None)
        if law is not None and t.marks == MARKS and len(law):
            trig = law.keys_array[:, 2]
            if 0 <= trig.min() and trig.max() < STRIDE:
                # t's rows are the law's (c, a, trigger, cascades) keyed (trigger, trigger +
                # STRIDE * cascades, a, c), one to one, in order (:func:`table`): the key read
                # back below is the law's own, row for row, when every trigger is below STRIDE
                return _chain(self.spec, law, t.cycle, t.credits_per_bet, self.beta)
        i, j = t.mark_index("trigger_index"), t.mark_index("drop_sum")
        spin = _columns(t.weights, lambda *key: (key[-1], key[j], key[i] % STRIDE,
                                                 key[i] // STRIDE), self._old_key(t))
        return CarriedFreeSpins(self.spec, spin, t.cycle, t.credits_per_bet, self.beta)

    @staticmethod
    def _old_key(t: MarkedTable):
        """The chain's key (y, a, trigger, cascades) back into a key of ``t`` when ``t``
        counts :data:`MARKS` alone (the trigger is the index's remainder); else None."""
        if sorted(t.marks) != sorted(MARKS):
            return None
        at = {m: n for n, m in enumerate(t.marks)}

        def old(y, a, trig, casc):
            cols = [None] * (len(MARKS) + 1)
            cols[at["trigger"]], cols[at["drop_sum"]] = trig, a
            cols[at["trigger_index"]], cols[-1] = trig + STRIDE * casc, y
            return cols

        return old

    def spins_distribution(self, key):
        """Exact law of the spins a feature started with ``key`` plays."""
        return self.chain.spins_distribution(key)

    @cached_property
    def _laws(self) -> dict:
        return {}

    def law(self, key) -> FeatureLaw:
        if key not in self._laws:
            n, i = key
            c = self.chain
            self._laws[key] = FeatureLaw(c.mean(n, i), c.second_moment(n, i),
                                         c.zero_probability(n), c.expected_spins(n))
        return self._laws[key]

    def samples(self, spins: int):
        return self.chain.sampled(spins)

    def win_samples(self, key) -> np.ndarray:
        """Sampled feature wins (credits) of a feature started with ``key``."""
        n, i = key
        x, y = self.samples(n)
        return self.beta * i * x + y

    def dense(self, keys) -> dict:
        """Sampled laws on a grid of 1 credit, or, when the wins reach past
        :data:`slotmath.features.compose.MAX_GRID` credits (Frozen Gems' free spins reach
        ~1e8), on the coarsest step that keeps them within it, each win rounded to the
        nearest step (``rounding`` says by how much at most)."""
        from slotmath.features.compose import MAX_GRID

        out = {}
        for key in keys:
            w = self.win_samples(key).astype(np.int64)
            step = -(-(int(w.max()) + 1) // MAX_GRID) if len(w) else 1
            if step > 1:
                w = (w + step // 2) // step
            out[key] = SampledLaw(w, step, self.free.credits_per_bet,
                                  CarriedFreeSpins.bound(len(w)), step // 2)
        return out


class SampledLaw:
    """A :class:`~slotmath.features.base.DenseLaw` kept as its samples: ``probs`` (the
    samples' histogram on the grid, up to :data:`slotmath.features.compose.MAX_GRID` points:
    64 MB each, Frozen Gems' 19 start keys held 1.1 GB) is computed each time it is read,
    from ``wins`` (the samples in grid steps, 3 MB).

    >>> law = SampledLaw(np.array([0, 2, 2, 3]), 5, 10, 0.0)
    >>> law.probs.tolist(), law.step, law.points
    ([0.25, 0.0, 0.5, 0.25], 5, 4)
    """

    def __init__(self, wins: np.ndarray, step: int, credits_per_bet: int, error: float,
                 rounding: float = 0.0):
        self.wins, self.step, self.credits_per_bet = wins, step, credits_per_bet
        self.error, self.rounding = error, rounding
        self.points = int(wins.max()) + 1 if len(wins) else 0  # len(probs)

    @property
    def probs(self) -> np.ndarray:
        return np.bincount(self.wins) / len(self.wins)

    def atoms(self) -> tuple[np.ndarray, np.ndarray]:
        """The grid points the samples reach (ascending) and ``probs`` there, bit for bit,
        without the dense histogram (Frozen Gems: ~6,000 points of ~7e6).

        >>> law = SampledLaw(np.array([0, 2, 2, 3]), 5, 10, 0.0)
        >>> [a.tolist() for a in law.atoms()]
        [[0, 2, 3], [0.25, 0.5, 0.25]]
        """
        points, counts = np.unique(self.wins, return_counts=True)
        return points.astype(np.int64), counts / len(self.wins)


def _build_round(game, spin) -> CascadeFreeSpins:
    """The free spins of a cascading game, on its own tables (``FREE`` + the reel set)."""
    fs = game.free_spins
    carry = game.cascades.carry_multiplier
    return CascadeFreeSpins(fs, spin(FREE + fs.reels, 1), _beta(game), carry, FREE + fs.reels)


def _beta(game) -> int:
    """:attr:`CascadeFreeSpins.beta` of ``game``."""
    step = game.cascades.rule(free=True).step
    return step * game.free_spins.multiplier if game.cascades.carry_multiplier else 0


def _chain(spec, law, cycle: int, credits_per_bet: int, beta: int) -> CarriedFreeSpins:
    """The free-spin chain on the free reels' joint table ``law`` (a
    :class:`~slotmath.exact.cascades.WeightTable`, rows (y, a, trigger, cascades)), built
    once per table and arguments: kept on ``law``, so that the one :func:`_warm` built while
    the paid reels were enumerated is the one the round reads."""
    args = (spec, cycle, credits_per_bet, beta)
    kept = getattr(law, "chain", None)
    if kept is not None and kept[0] == args:
        return kept[1]
    chain = CarriedFreeSpins(spec, law, cycle, credits_per_bet, beta)
    law.chain = (args, chain)
    return chain


def _warm(game, law) -> None:
    """The free-spin chain on the free reels' law ``law``, and what the round and its report
    read of it for each award (exact moments, spin-count laws, the samples): all of it needs
    the free reels' table alone, so it is computed while the workers enumerate the paid
    reels (:func:`_laws_at_once`), not after."""
    spec = game.free_spins
    keys = getattr(law.joint, "keys_array", None)
    cap = spec.max_spins
    if keys is None or not len(keys) or not 0 <= keys[:, 2].min() <= keys[:, 2].max() < STRIDE \
            or (spec.retrigger and cap is None):  # (the round reads another chain, or refuses)
        return
    chain = _chain(spec, law.joint, law.cycle, law.credits_per_bet, _beta(game))
    for spins in sorted({min(s, cap) if cap else s for s in spec.awards.values()}):
        if spins:
            chain.moments(spins)
            chain.spins_distribution(spins)
            chain.sampled(spins)


#: strips up to this long are analysed as they are in the workbench; longer ones (Frozen Gems'
#: 40 stops: about 30 s a move) through :func:`fast_variant`
FAST_STOPS = 15


def fast_variant(game, stops: int = FAST_STOPS):
    """A quick stand-in of a cascading game for the workbench's panels: every longer strip
    resampled to ``stops`` stops (stop ``i`` of the stand-in is stop ``i L // stops`` of the
    strip, so the symbols keep roughly their shares and their order); None when every strip
    is that short already. Its figures are the stand-in's, not the game's: the panels say so.

    >>> import slotmath
    >>> g = slotmath.load_game("data/games/frozen_gems.toml")
    >>> [len(r.symbols) for r in fast_variant(g).base.reels]
    [15, 15, 15, 15, 15]
    """
    from dataclasses import replace

    from slotmath.model.game import Reel, ReelSet

    if all(len(r.symbols) <= stops for rs in game.reel_sets.values() for r in rs.reels):
        return None

    def cut(reel):
        if len(reel.symbols) <= stops:
            return reel
        s = reel.symbols
        keep = [i * len(s) // stops for i in range(stops)]
        weights = None if reel.weights is None else tuple(reel.weights[i] for i in keep)
        if weights is not None and not any(weights):
            weights = None
        return Reel(tuple(s[i] for i in keep), weights)

    sets = {name: ReelSet(name, tuple(cut(r) for r in rs.reels))
            for name, rs in game.reel_sets.items()}
    return replace(game, name=f"{game.name} ({stops}-stop stand-in)", reel_sets=sets)


def _result(composition):
    """The paid spin's exact cascade law (:class:`slotmath.exact.cascades.CascadeLaw`)."""
    composition.context.table("base", ())
    return composition.context.laws["base"]


FEATURE = Feature(
    name="cascades",
    kind=Kind.OUTCOME,
    title="Cascades",
    present=lambda game: game.cascades is not None,
    marks=_marks,
    build=table,
    window=window,
    replaces=("free_spins",),
    build_round=_build_round,
    result=_result,
    fast=fast_variant,
    panel="slotmath.widgets.cascades_panel:feature_panel",
    json="slotmath.report.cascades:json_section",
    tables="slotmath.report.cascades:tables",
    summary="slotmath.report.cascades:summary",
    charts="slotmath.plot.cascades:charts",
    simulator="slotmath.simulate.cascades:simulate_cascades",
    round_simulator="slotmath.simulate.cascades:simulate_rounds",
    book="slotmath.publish.cascades:book",
    plays=("pays", "cascades", "free_spins"),
)
