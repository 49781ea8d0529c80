"""One reel of a reel set as a linear part of the exact analysis: a table per window.

Method
------
A spin's outcome depends on reel ``j`` only through the window it shows. Writing ``T_w`` for
the exact (marks..., credits) weights of the other reels' full cycle with reel ``j`` showing
the window ``w`` (the engine's own enumeration with reel ``j`` held at a stop showing ``w``:
:class:`slotmath.exact.cycle.StopTables`, set up once for a batch of windows), the paid
spin's table for *any* strip of reel ``j`` is

    T = sum over stops s of weight(s) * T_{window(s)}

so every win moment of the spin (its RTP, E[X^2], hit weight, the trigger counts) is linear
in reel ``j``'s window weights; on a one-row reel, in its symbol counts. The other reels are
enumerated once per distinct window: about one full cycle per reel, however many strips of
reel ``j`` are then tried. The round's figures (free spins, a bonus wheel) are then composed
exactly from ``T`` by the game's own features (:meth:`Composition.round_of`), so they hold for
a reel of the free-spin reel set too (where the round is not linear in ``T``).

Which games
-----------
A lines or ways game whose features are ``pays``, ``spin`` and ``round`` kinds (free spins,
with a state or not; a bonus wheel; hold & win, its coins counted jointly with the trigger),
composed exactly; free spins with a state that play the tuned reel set have their chain
rebuilt on each strip. With ``stationary`` or ``operation`` features (progressive jackpots, a
max-win cap) the RTP is not a sum over the windows: :meth:`ReelTables.figures` gives it as a
first-order guide and :meth:`ReelTables.checked` as the edited game's analysis states it
(:func:`guided`). Cascades and owners of the whole round (their refills read the strip beyond
the window) and paid-spin modifiers raise ``ValueError`` naming the feature and why.
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property

import numpy as np
import pandas as pd

from slotmath.evaluate.window import PayModel
from slotmath.exact.cycle import StopTables, _prepare, _run
from slotmath.exact.spin_table import MarkedTable
from slotmath.features.base import Kind
from slotmath.features.compose import RoundLaw, fold
from slotmath.features.composition import Composition, _Spins, fold_nested
from slotmath.model.game import Game, Reel, ReelSet

__all__ = ["Figures", "NotWindowTunable", "ReelTables", "check_tunable", "guided"]

#: the feature kinds whose games decompose by window (see the module notes)
TUNABLE_KINDS = (Kind.PAYS, Kind.SPIN, Kind.ROUND)
#: kinds whose figures are not sums over the windows (a jackpot pool's renewal, a cap on the
#: round's distribution): tuned with the window tables as a guide, each step checked by the
#: game's own analysis (:meth:`ReelTables.checked`)
GUIDED_KINDS = (Kind.STATIONARY, Kind.OPERATION)


#: why a kind is refused (one line each, the refusal's reason)
WHY_NOT = {
    Kind.OUTCOME: "a cascade's refills read the strip beyond the window, so a spin is not a "
                  "sum over one reel's windows",
    Kind.OWNER: "it plays the whole round (cascades on a grid, a conveyor) from the strips' "
                "order beyond the window, so a spin is not a sum over one reel's windows",
    Kind.PAID_SPIN: "its modifiers re-draw the paid spin's window (tables that take minutes "
                    "per strip); not tuned yet",
}


class NotWindowTunable(ValueError):
    """The game has a feature of a kind in :data:`WHY_NOT`: the window tables do not cover
    it (:func:`slotmath.tune.tune` then tunes it by :mod:`slotmath.tune.search`); ``why``
    is the reason."""

    def __init__(self, message: str, why: str):
        super().__init__(message)
        self.why = why


def guided(composition: Composition) -> bool:
    """Whether the game's RTP is not composed from the window tables alone (progressive
    jackpots, a max-win cap): :meth:`ReelTables.figures` then gives a first-order guide of
    the RTP, and :meth:`ReelTables.checked` the analysis' figure."""
    return any(f.kind in GUIDED_KINDS for f in composition.declared)


@dataclass(frozen=True)
class Figures:
    """Exact figures of a paid round, in total bets: ``rtp`` (E[X]), ``hit_frequency``
    (P(X > 0)), ``second_moment`` (E[X^2]) and ``feature_probability`` (P(the paid spin
    starts a round feature), 0 without one); ``variance`` is exact, ``sd`` a float. The max
    win (:attr:`top_award`, :attr:`top_probability`) is read off the paid spin's exact win
    law ``paid``: (credits, weight) pairs, the cycle and the credits per bet."""

    rtp: Fraction
    hit_frequency: Fraction
    second_moment: Fraction
    feature_probability: Fraction = Fraction(0)
    #: the paid spin's win law: credits -> weight over its cycle (spin features folded in);
    #: what :meth:`top_award` and :meth:`probability_of` read
    paid: tuple = field(default=((), 1, 1), compare=False, repr=False)
    #: how the RTP was found: "exact" (a fraction), "guide" (the window tables' round with
    #: the game's jackpot and cap terms held at the start game's: a first-order guide) or
    #: "analysis" (the game's own analysis, within ``rtp_error``, a float made a Fraction)
    rtp_kind: str = field(default="exact", compare=False)
    rtp_error: float = field(default=0.0, compare=False)

    @property
    def variance(self) -> Fraction:
        return self.second_moment - self.rtp**2

    @property
    def sd(self) -> float:
        return math.sqrt(self.variance)

    @property
    def top_credits(self) -> int:
        """The max win: the largest win (credits) of one paid spin, 0 when it never wins."""
        weights = dict(self.paid[0])
        return max((c for c, w in weights.items() if w), default=0)

    @property
    def top_award(self) -> Fraction:
        """The max win as a multiple of the bet (as :attr:`Analysis.top_award`)."""
        return Fraction(self.top_credits, self.paid[2])

    @property
    def top_probability(self) -> Fraction:
        """P(a paid spin wins :attr:`top_credits`); 0 when the paid spin never wins."""
        top = self.top_credits
        return self.probability_of(top) if top else Fraction(0)

    def probability_of(self, credits: int) -> Fraction:
        """P(a paid spin wins exactly ``credits``), exact."""
        return Fraction(dict(self.paid[0]).get(credits, 0), self.paid[1])


def started(law) -> Fraction:
    """P(the paid spin of ``law`` (a :class:`~slotmath.features.compose.RoundLaw`) starts
    any of its round features)."""
    if not law.features:
        return Fraction(0)
    idx = [law.base.mark_index(f.mark.kind) for f in law.features]
    weight = sum(w for key, w in law.base.weights.items()
                 if any(f.start(key[i]) is not None for f, i in zip(law.features, idx)))
    return Fraction(weight, law.base.cycle)


def check_tunable(game: Game, level: int = 1) -> Composition:
    """The game's composition, or ``ValueError`` naming the feature that is not linear in the
    window (see the module notes).

    Examples
    --------
    >>> import slotmath
    >>> [f.name for f in check_tunable(slotmath.load_game("data/games/tiny_lines.toml")).declared]
    ['pays', 'free_spins']
    """
    comp = Composition(game, level)
    bad = [f for f in comp.declared if f.kind not in TUNABLE_KINDS + GUIDED_KINDS]
    if bad:
        why = WHY_NOT.get(bad[0].kind, "only lines or ways games with round features are")
        message = (f"{game.name}: {bad[0].title} ({bad[0].kind.value}) is not tuned by window "
                   f"tables: {why}")
        if bad[0].kind in WHY_NOT:
            raise NotWindowTunable(message, f"{bad[0].title} ({bad[0].kind.value}): {why}")
        raise ValueError(message)
    counted = [m for m in comp.marks if m.kind == "count"]
    if counted and any(m.kind == "bonus_lines" for m in comp.marks):
        raise ValueError(
            f"{game.name}: its features count {', '.join(m.column for m in comp.marks)} jointly "
            "in one spin: window tables hold counted symbols and the trigger, or the trigger "
            "with its bonus lines, not both")
    return comp


def _state_round(composition: Composition):
    """The round's free spins when they carry a state, random awards or a growing multiplier
    (a :class:`~slotmath.features.free_spins.StateRound`), else None."""
    fs = composition.game.free_spins
    if fs is None or fs.plain:
        return None
    return fs


class ReelTables:
    """Reel ``index`` (0 = reel 1) of ``reel_set`` as a sum of window tables.

    Examples
    --------
    Tiny Lines' reel 2: its own strip gives back the analysis's figures (411/448), and a
    strip with one more BAR is evaluated without a new enumeration of reels 1 and 3:

    >>> import slotmath
    >>> g = slotmath.load_game("data/games/tiny_lines.toml")
    >>> rt = ReelTables(g, "base", 1)
    >>> rt.figures(g.base.reels[1]).rtp
    Fraction(411, 448)
    >>> from slotmath.model.game import Reel
    >>> rt.figures(Reel(g.base.reels[1].symbols + ("BAR",))).rtp == slotmath.analyze(
    ...     g.replace_reels("base", (g.base.reels[0], Reel(g.base.reels[1].symbols + ("BAR",)),
    ...                              g.base.reels[2]))).rtp
    True
    """

    def __init__(self, game: Game, reel_set: str, index: int, level: int = 1,
                 composition: Composition | None = None):
        if reel_set not in game.reel_sets:
            raise ValueError(f"{game.name} has no reel set {reel_set!r}; it has "
                             f"{sorted(game.reel_sets)}")
        reels = game.reel_sets[reel_set].reels
        if not 0 <= index < len(reels):
            raise ValueError(f"reel set {reel_set!r} has reels 1..{len(reels)}, not {index + 1}")
        self.game, self.reel_set, self.index, self.level = game, reel_set, index, level
        self.composition = composition or check_tunable(game, level)
        self.rows = game.rows[index]
        self._tables: dict[tuple[str, ...], MarkedTable] = {}

    @cached_property
    def marks(self):
        return self.composition.marks

    @cached_property
    def _engine(self) -> tuple[dict, str]:
        """The engine's arguments for the marks counted, and the table's shape: as
        :meth:`slotmath.features.base.Context.table` counts them."""
        counted = [m for m in self.marks if m.kind == "count"]
        lines = [m for m in self.marks if m.kind == "bonus_lines"]
        if counted and len(self.marks) > 1:
            return {}, "joint"
        if counted:
            return {"count_symbol": counted[0].symbol}, "count"
        if lines:
            m = lines[0]
            cap = self.game.n_lines if m.cap is None else m.cap
            return {"line_trigger": (m.symbol, m.count), "line_cap": cap}, "lines"
        return {}, "plain"

    def prefetch(self, windows) -> None:
        """Compute the tables of ``windows`` not yet known, with one set-up of the engine:
        reel ``index`` becomes a strip of these windows end to end (window ``k`` at stop
        ``k x rows``) and each table is the enumeration with the reel held at that stop
        (:class:`slotmath.exact.cycle.StopTables`)."""
        new = list(dict.fromkeys(tuple(w) for w in windows if tuple(w) not in self._tables))
        if not new:
            return
        reels = list(self.game.reel_sets[self.reel_set].reels)
        reels[self.index] = Reel(tuple(s for w in new for s in w))
        rs = ReelSet(self.reel_set, tuple(reels))
        arguments, shape = self._engine
        if shape == "joint":
            self._prefetch_joint(rs, new)
            return
        stops = StopTables(self.game, rs, self.index, self.model, **arguments)
        kinds = tuple(m.kind for m in self.marks)
        cpb, cap = self.model.credits_per_bet, stops.trigger_cap
        for k, window in enumerate(new):
            out = stops.dense(k * self.rows)
            idx = np.nonzero(out)
            if shape == "lines":
                weights = {(int(t), int(b), int(c)): int(out[t, b, c]) for t, b, c in zip(*idx)}
                marks = ("trigger", "bonus_lines")
            else:
                weights = {(int(t), int(c)): int(out[t, b, c]) for t, b, c in zip(*idx)}
                marks = (self.marks[0].column,) if shape == "count" else ("trigger",)
            table = MarkedTable(marks, weights, int(out.sum()), cpb, cap)
            self._tables[window] = table if shape == "count" else table.project(kinds)

    def _prefetch_joint(self, rs: ReelSet, new: list) -> None:
        """The tables of ``new`` (the windows of ``rs``'s reel ``index``, end to end) counting
        every mark jointly (the trigger and each counted symbol, e.g. a hold & win's coins):
        the engine's joint enumeration (as :meth:`slotmath.features.base.Context.table`
        sets it up) with the reel held at one stop per window."""
        columns, counts, _, trigger = self.composition.context._spec(self.marks)
        symbols: dict[str, int] = {}  # one symbol counted once, at its largest cap
        for symbol, cap in counts:
            symbols[symbol] = max(symbols.get(symbol, 0), cap)
        prep = _prepare(self.game, rs, self.model, None, 0, tuple(symbols.items()))
        order = list(symbols)
        index = [order.index(symbol) for symbol, _ in counts]
        caps = [cap for _, cap in counts]
        names = tuple(columns)
        if trigger and "trigger" not in names:  # a game without free spins: never triggers
            names = ("trigger",) + names
        wanted = tuple(m.column for m in self.marks)
        trigger_cap = dict(zip(columns, caps)).get("trigger", 0)
        cpb = self.model.credits_per_bet
        for k, window in enumerate(new):
            out = _run(prep, [k * self.rows], self.index)
            out = out.reshape(prep.dims[:-1] + (out.shape[-1],))
            weights: dict[tuple[int, ...], int] = {}
            for key in zip(*np.nonzero(out)):
                w = int(out[key])
                row = tuple(min(int(key[i]), cap) for i, cap in zip(index, caps))
                row = ((0,) if len(names) > len(columns) else ()) + row + (int(key[-1]),)
                weights[row] = weights.get(row, 0) + w
            table = MarkedTable(names, weights, int(out.sum()), cpb, trigger_cap)
            self._tables[window] = table.project(wanted)

    @cached_property
    def model(self) -> PayModel:
        return PayModel(self.game, self.level)

    def window_table(self, window: tuple[str, ...]) -> MarkedTable:
        """``T_w``: the exact table of the other reels' full cycle with this reel showing
        ``window`` (computed once per window)."""
        window = tuple(window)
        if window not in self._tables:
            self.prefetch([window])
        return self._tables[window]

    def window_weights(self, reel: Reel) -> dict[tuple[str, ...], int]:
        """How much weight each window of ``reel`` has (zero-weight stops left out)."""
        out: dict[tuple[str, ...], int] = {}
        for stop, w in enumerate(reel.stop_weights):
            if w:
                window = reel.window(stop, self.rows)
                out[window] = out.get(window, 0) + w
        return out

    @cached_property
    def _own(self) -> tuple[dict, dict, int, MarkedTable]:
        """The reel set's own strip: its window weights, the summed table's weights and
        cycle, and one window table (for the table's marks and units)."""
        own = self.game.reel_sets[self.reel_set].reels[self.index]
        windows = self.window_weights(own)
        self.prefetch(windows)
        weights: dict[tuple[int, ...], int] = {}
        cycle, first = 0, None
        for window, w in windows.items():
            t = self.window_table(window)
            first = first or t
            cycle += w * t.cycle
            for key, v in t.weights.items():
                weights[key] = weights.get(key, 0) + w * v
        return windows, weights, cycle, first

    def table(self, reel: Reel) -> MarkedTable:
        """The exact paid-spin table of the reel set with this reel replaced by ``reel``: the
        own strip's table plus the window tables of the windows whose weight changed (an edit
        of a few stops costs a few window tables, not the whole strip)."""
        windows, weights, cycle, first = self._own
        new = self.window_weights(reel)
        delta = {w: new.get(w, 0) - windows.get(w, 0) for w in set(new) | set(windows)}
        weights = dict(weights)
        for window, d in delta.items():
            if d:
                t = self.window_table(window)
                cycle += d * t.cycle
                for key, v in t.weights.items():
                    weights[key] = weights.get(key, 0) + d * v
        weights = {k: v for k, v in weights.items() if v}
        return MarkedTable(first.marks, weights, cycle, first.credits_per_bet,
                           first.trigger_cap)

    def figures(self, reel: Reel) -> Figures:
        """The round's exact figures with this reel replaced by ``reel``."""
        return self._figures(self.table(reel), reel, self.round_law(reel))

    @cached_property
    def _state(self) -> tuple[str | None, object]:
        """Free spins with a state (random awards, a growing multiplier): (the reel set they
        play, their round feature as the game's own composition built it), or (None, None)."""
        fs = _state_round(self.composition)
        if fs is None:
            return None, None
        if fs.reels == self.reel_set:  # rebuilt on each strip (:meth:`_state_feature`)
            return fs.reels, None
        return fs.reels, self.composition._built_rounds()["free_spins"]

    def _state_feature(self, reel: Reel | None, spin):
        """The state round for this reel: the game's own when it plays another reel set (its
        chain does not read this reel); else built on the game with ``reel`` in place (its
        engine enumerates the free reels itself: exact, one chain per strip)."""
        own = self._state[1]
        if own is not None:
            return own
        if reel is None:
            raise ValueError(f"reel set {self.reel_set!r} is played by the free spins with a "
                             f"state: their round is not a sum over its windows")
        from slotmath.features.registry import feature

        edited = Composition(reel_with(self.game, self.reel_set, self.index, reel),
                             self.level)
        return feature("free_spins").build(edited.game, _BoundSpin(edited, spin))

    def round_law(self, reel: Reel) -> RoundLaw:
        """The round's exact law (:class:`~slotmath.features.compose.RoundLaw`) with this reel
        replaced by ``reel``, composed from the window tables as :meth:`figures` composes it."""
        laws = self.__dict__.setdefault("_laws", {})  # the last few strips' laws
        if reel not in laws:
            if len(laws) >= 64:
                laws.pop(next(iter(laws)))
            laws[reel] = self._law(self.table(reel), reel)
        return laws[reel]

    def _figures(self, table: MarkedTable, reel: Reel | None = None,
                 law: RoundLaw | None = None) -> Figures:
        """The round's figures of :meth:`_law` (``law``: already composed from ``table``)."""
        law = self._law(table, reel) if law is None else law
        paid = (tuple(sorted(law.base.credits_weights().items())), law.base.cycle,
                law.base.credits_per_bet)
        if self.guided:
            return Figures(law.mean + self._offset, law.hit_frequency, law.second_moment,
                           started(law), paid, "guide", float("nan"))
        return Figures(law.mean, law.hit_frequency, law.second_moment, started(law), paid)

    def _law(self, table: MarkedTable, reel: Reel | None = None) -> RoundLaw:
        """The round composed as :meth:`Composition.round_of` composes the game's own, with
        this reel set's spin read off ``table``: the paid spin (spin features folded in),
        and the spins played inside round features (nested round features folded in too,
        as :meth:`Composition.inside`); a free-spin state's chain as :meth:`_state_feature`
        gives it."""
        comp = self.composition

        def plain(reel_set: str, multiplier: int) -> MarkedTable:
            if reel_set != self.reel_set:
                return comp.spin(reel_set, multiplier)
            out = table.scaled(multiplier)
            for f in comp.spin_features():
                out, _ = fold(out, f, multiplier)
            return out

        paid = comp.paid(plain)(comp.paid_reels, 1)
        nested: list = []

        def inside(reel_set: str, multiplier: int) -> MarkedTable:
            if reel_set != self.reel_set:
                return comp.inside(reel_set, multiplier)
            out = plain(reel_set, multiplier)
            for f in nested:
                out, _ = fold_nested(out, f)
            return out

        spins = _TunedSpins(comp, inside, paid)
        state = self._state[0] is not None
        nesting = comp._nesting()
        built: dict = {}
        for f in nesting + tuple(f for f in comp.of_kind(Kind.ROUND) if f not in nesting):
            if state and f.name == "free_spins":
                made = self._state_feature(reel, inside)
            else:
                made = f.build(comp.game, spins)
            built[f.name] = made
            if f in nesting and made:
                nested.append(made)
        features = tuple(built[f.name] for f in comp.of_kind(Kind.ROUND) if built[f.name])
        return RoundLaw(paid, features)

    @cached_property
    def guided(self) -> bool:
        """See :func:`guided`."""
        return guided(self.composition)

    @cached_property
    def _offset(self) -> Fraction:
        """What the game's RTP adds to its round's mean (the jackpots' long-run payout net of
        the prizes they replace, minus a cap's effect), as the start game's analysis gives it
        (a float made an exact Fraction)."""
        comp = self.composition
        if isinstance(comp.rtp, Fraction):
            return comp.rtp * comp.cost - comp.round.mean
        return Fraction(float(comp.rtp) * float(comp.cost)) - comp.round.mean

    def checked(self, reel: Reel) -> Figures:
        """The round's figures with this reel replaced by ``reel``, the RTP by the edited
        game's own analysis (:class:`Composition`'s RTP, the jackpots' renewal and the cap
        included: ``rtp_kind="analysis"`` and its stated ``rtp_error`` when it is numerical);
        the same as :meth:`figures` for a game the window tables compose whole."""
        f = self.figures(reel)
        if not self.guided:
            return f
        comp = Composition(reel_with(self.game, self.reel_set, self.index, reel), self.level)
        rtp = comp.rtp
        kind = "exact" if isinstance(rtp, Fraction) else "analysis"
        return dataclasses.replace(f, rtp=Fraction(rtp), rtp_kind=kind,
                                   rtp_error=float(comp.rtp_error))

    def contributions(self, reel: Reel | None = None) -> pd.DataFrame:
        """Each window's part: one row per distinct window of ``reel`` (default: the game's
        strip), its ``weight`` and the round's exact figures with the reel showing only that
        window (``rtp``, ``hit_frequency``, ``second_moment``). The round's figures are their
        averages weighted by ``weight`` (on a one-row reel: one row per symbol, and the
        figures are linear in its counts). Only for a reel set no round feature plays (else
        the round is not linear in the strip): ``ValueError``.

        Examples
        --------
        >>> import slotmath
        >>> g = slotmath.load_game("data/games/classic_3reel.toml")
        >>> parts = ReelTables(g, "base", 2).contributions()
        >>> parts.loc[parts["window"] == ("7R",), ["weight", "rtp"]].values.tolist()
        [[2, Fraction(8885, 7644)]]
        >>> sum(parts["weight"] * parts["rtp"]) / sum(parts["weight"]) == slotmath.analyze(g).rtp
        True
        """
        played = {getattr(f, "reels", None) for f in self.composition.round.features}
        if self.reel_set in played:
            raise ValueError(f"reel set {self.reel_set!r} is played by a round feature: its "
                             f"round is not an average over its windows")
        own = self.game.reel_sets[self.reel_set].reels[self.index]
        windows = self.window_weights(own if reel is None else reel)
        self.prefetch(windows)
        rows = []
        for window, weight in windows.items():
            f = self._figures(self.window_table(window))
            rows.append({"window": window, "weight": weight, "rtp": f.rtp,
                         "hit_frequency": f.hit_frequency, "second_moment": f.second_moment})
        return pd.DataFrame(rows)


class _TunedSpins(_Spins):
    """What a round feature's ``build`` receives (as :class:`Composition` hands it): the
    spins played inside it, and ``paid``, the tuned paid spin."""

    def __init__(self, composition: Composition, spin, paid: MarkedTable):
        super().__init__(composition, spin)
        self._paid = paid

    @property
    def paid(self) -> MarkedTable:
        return self._paid


class _BoundSpin:
    """``spin(reel_set, multiplier)`` as a bound method of ``composition`` (a state round's
    engine reads its level and pay model there) that answers with ``spin``."""

    def __init__(self, composition: Composition, spin):
        self.__self__, self._spin = composition, spin

    def __call__(self, reel_set: str, multiplier: int) -> MarkedTable:
        return self._spin(reel_set, multiplier)


def reel_with(game: Game, reel_set: str, index: int, reel: Reel) -> Game:
    """``game`` with reel ``index`` of ``reel_set`` replaced (a plain helper for callers)."""
    reels = list(game.reel_sets[reel_set].reels)
    reels[index] = reel
    return game.replace_reels(reel_set, tuple(reels))

