"""Base-game modifiers as a feature of kind ``paid-spin``: the paid spin's table becomes the exact mixture
of the plain spin's table and each modifier's table (:mod:`slotmath.exact.modifiers`).

At most one modifier acts on a paid spin (``[modifiers]``, :mod:`slotmath.model.modifiers`),
so the paid spin's law is ``(1 - F) plain + sum_m f_m table_m`` over one common denominator
(exact integers). The round features then read their marks from the mixed table: a hold &
win's start count includes the cash symbols a modifier placed, so start counts above the
strips' own appear.

Each modifier's share of the RTP (:meth:`PaidSpinModifiers.shares`): with ``R_0`` the RTP of
a round whose paid spin no modifier touches and ``R_m`` that of a round whose paid spin
modifier ``m`` acts on, the RTP is ``R_0 + sum_m f_m (R_m - R_0)``. ``uplift`` is ``f_m (R_m
- R_0)`` (what the modifier adds to the game's RTP; the components list it, beside the plain
game's own components), ``rtp`` is ``f_m R_m`` (the RTP carried by the spins it acts on).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from math import lcm

from slotmath.exact.modifier_means import modifier_means
from slotmath.exact.modifiers import modifier_counts_table
from slotmath.exact.spin_table import MarkedTable, MeanTable
from slotmath.features.base import Context, Feature, Kind, Mark
from slotmath.features.compose import RoundLaw
from slotmath.model.modifiers import Modifier, Modifiers

__all__ = ["FEATURE", "ModifierFigures", "ModifierShare", "PaidSpinModifiers", "mix"]


@dataclass(frozen=True)
class ModifierShare:
    """One modifier's figures per paid round (in total bets; floats when a round feature is
    numerical).

    ``frequency``: P(it acts on a paid spin); ``lines``: the window's RTP of a spin it acts
    on (its own table's mean); ``round``: ``R_m``, a round whose paid spin it acts on;
    ``rtp``: ``f R_m``; ``uplift``: ``f (R_m - R_0)``; ``trigger``: P(the spin it acts on
    starts a round feature), or None without one.
    """

    name: str
    kind: str
    frequency: Fraction
    lines: Fraction
    round: Fraction | float
    rtp: Fraction | float
    uplift: Fraction | float
    trigger: Fraction | None


def mix(parts: list[tuple[Fraction, MarkedTable]]) -> MarkedTable:
    """The exact mixture ``sum p_i table_i`` (the p_i sum to 1) over one common denominator.

    >>> a = MarkedTable((), {(0,): 1, (2,): 1}, 2, 1, 0)
    >>> b = MarkedTable((), {(4,): 3}, 3, 1, 0)
    >>> m = mix([(Fraction(3, 4), a), (Fraction(1, 4), b)])
    >>> m.weights, m.cycle, m.mean_bets   # 3/8, 3/8, 1/4 over one common denominator
    ({(0,): 9, (2,): 9, (4,): 6}, 24, Fraction(7, 4))
    """
    parts = [(p, t) for p, t in parts if p]
    if sum(p for p, _ in parts) != 1:
        raise ValueError("mixture probabilities must sum to 1")
    first = parts[0][1]
    if any((t.marks, t.credits_per_bet) != (first.marks, first.credits_per_bet)
           for _, t in parts):
        raise ValueError("mixed tables must count the same marks in the same credits")
    q = lcm(*(p.denominator for p, _ in parts))
    c = lcm(*(t.cycle for _, t in parts))
    weights: dict = {}
    for p, t in parts:
        factor = p.numerator * (q // p.denominator) * (c // t.cycle)
        for key, w in t.weights.items():
            weights[key] = weights.get(key, 0) + factor * w
    means = any(isinstance(t, MeanTable) for _, t in parts)  # then so is the mixture
    return (MeanTable if means else MarkedTable)(first.marks, weights, q * c,
                                                 first.credits_per_bet,
                                                 max(t.trigger_cap for _, t in parts))


@dataclass(frozen=True, eq=False)
class PaidSpinModifiers:
    """The game's modifiers acting on its paid spin (reel set ``base``)."""

    context: Context
    spec: Modifiers
    marks: tuple[Mark, ...] = ()  # what the round features count on the paid spin
    name: str = "modifiers"
    simulator: str = "slotmath.simulate.modifiers.play_paid_spins"
    _tables: dict = field(default_factory=dict, repr=False)

    def _counts(self, columns: tuple[str, ...]) -> tuple[tuple[str, int], ...]:
        """What the engine counts for the table ``columns`` (the marks of the round
        features: the trigger and counted symbols)."""
        game = self.context.game
        by_column = {m.column: m for m in self.marks}
        out = []
        for c in columns:
            m = by_column.get(c) or next((m for m in self.marks if m.kind == c), None)
            if m is None or m.kind not in ("trigger", "count"):
                raise ValueError(f"a modified spin counts the trigger and counted symbols, "
                                 f"not {c!r}")
            if m.kind == "trigger":
                if game.trigger_symbol is None:
                    raise ValueError("a modified spin of a game without free spins has no "
                                     "trigger to count")
                out.append((game.trigger_symbol, max(game.free_spins.awards)))
            else:
                out.append((m.symbol, sum(game.rows) if m.cap is None else m.cap))
        return tuple(out)

    def table(self, modifier: Modifier, marks: tuple[str, ...],
              reel_set: str = "base") -> MarkedTable:
        """Exact (marks..., credits) weights of a spin on ``reel_set`` that ``modifier`` acts
        on (once per reel set and marks)."""
        key = (modifier.name, marks, reel_set)
        if key not in self._tables:
            report = None
            if self.context.progress is not None:
                def report(done, total, stage=f"{modifier.name} (modifier, {reel_set})"):
                    self.context.progress(stage, done, total)
            counts = self._counts(marks)
            symbols: dict[str, int] = {}
            for s, c in counts:
                symbols[s] = max(symbols.get(s, 0), c)
            index = [list(symbols).index(s) for s, _ in counts]
            cap = dict(zip(marks, (c for _, c in counts))).get("trigger", 0)
            if self.context.means:  # the marks' law and the mean only (no joint table)
                law, credits, cycle, cpb = modifier_means(
                    self.context.game, modifier, tuple(symbols.items()), reel_set,
                    self.context.level, self.context.model)
                by_marks: dict = {}
                for k, w in law.items():
                    kk = tuple(min(k[i], c) for i, (_, c) in zip(index, counts))
                    by_marks[kk] = by_marks.get(kk, 0) + w
                self._tables[key] = MeanTable.of_means(marks, by_marks, credits, cycle, cpb,
                                                       cap)
                return self._tables[key]
            raw, cycle, cpb = modifier_counts_table(
                self.context.game, modifier, tuple(symbols.items()), reel_set,
                self.context.level, self.context.model, progress=report)
            weights: dict = {}
            for k, w in raw.items():
                kk = (*(min(k[i], c) for i, (_, c) in zip(index, counts)), k[-1])
                weights[kk] = weights.get(kk, 0) + w
            self._tables[key] = MarkedTable(marks, weights, cycle, cpb, cap)
        return self._tables[key]

    @property
    def reel_set(self) -> str:
        """The reel set of the paid spin the modifiers act on."""
        return self.context.paid_reels

    def paid(self, plain: MarkedTable, reel_set: str | None = None) -> MarkedTable:
        """The paid spin's table: ``plain`` (the unmodified spin on ``reel_set``, default the
        paid reels) mixed with every modifier's table at its frequency."""
        reel_set = reel_set or self.reel_set
        parts = [(self.spec.none_probability, plain)]
        parts += [(m.frequency, self.table(m, plain.marks, reel_set)) for m in self.spec]
        return mix(parts)

    @property
    def acts_inside(self) -> bool:
        """Whether a modifier also acts on the spins played inside a round feature (its
        ``in_free_spins`` key)."""
        return any(m.in_free_spins for m in self.spec)

    def inside(self, plain: MarkedTable, reel_set: str) -> MarkedTable:
        """A spin played inside a round feature (a free spin) on ``reel_set``: ``plain``
        mixed with the table of each modifier that acts there (``in_free_spins``), at its
        frequency per spin; the others never act there."""
        acting = [m for m in self.spec if m.in_free_spins]
        if not acting:
            return plain
        none = 1 - sum((m.frequency for m in acting), Fraction(0))
        return mix([(none, plain)] + [(m.frequency, self.table(m, plain.marks, reel_set))
                                      for m in acting])

    def shares(self, round_law: RoundLaw, plain: MarkedTable) -> dict[str, ModifierShare]:
        """Each modifier's figures, with the round features of ``round_law`` (the game's
        round) started from its table; ``plain``: the unmodified paid spin's table."""
        features = round_law.features
        exact = all(getattr(f, "exact", True) for f in features)

        def number(x):
            return x if exact else float(x)

        r0 = RoundLaw(plain, features).mean
        out = {}
        for m in self.spec:
            t = self.table(m, plain.marks, self.reel_set)
            law = RoundLaw(t, features)
            started = None
            if features:
                started = sum((w for g, (w, *_r) in law._groups.items()
                               if any(k is not None for k in g)), 0)
                started = Fraction(started, t.cycle)
            out[m.name] = ModifierShare(
                m.name, m.kind, m.frequency, t.mean_bets, number(law.mean),
                number(m.frequency * law.mean), number(m.frequency * (law.mean - r0)), started)
        return out

    def errors(self, round_law: RoundLaw, plain: MarkedTable) -> dict[str, float]:
        """Absolute error bounds of the entries :meth:`components` writes: a numerical round
        feature's plain share (``sum_k P_0(k) error(k)``) and each modifier's uplift
        (``f (sum_k P_m(k) error(k) + sum_k P_0(k) error(k))``); exact entries are absent."""
        numerical = [f for f in round_law.features if not getattr(f, "exact", True)]
        if not numerical:
            return {}

        def bound(table):
            law = RoundLaw(table, round_law.features)
            return sum(float(p) * f.error(k) for f in numerical
                       for k, p in law.start_probabilities(f.name).items())

        out = {}
        base = RoundLaw(plain, round_law.features)
        for f in numerical:
            out[f.name] = sum(float(p) * f.error(k)
                              for k, p in base.start_probabilities(f.name).items())
        e0 = bound(plain)
        for m in self.spec:
            out[m.name] = float(m.frequency) * (bound(self.table(m, plain.marks, self.reel_set)) + e0)
        return out

    def components(self, components: dict, round_law: RoundLaw, plain: MarkedTable) -> dict:
        """``components`` (the window's from the plain strips, each round feature's from the
        mixed round) restated as the plain game's plus each modifier's uplift: every round
        feature's entry becomes its share in a round no modifier touches, and one entry per
        modifier (its ``uplift``) is added, so they still sum to the RTP."""
        out = dict(components)
        base = RoundLaw(plain, round_law.features)
        for f in round_law.features:
            mean = base.feature_mean(f.name)
            out[f.name] = mean if getattr(f, "exact", True) else float(mean)
        for name, share in self.shares(round_law, plain).items():
            out[name] = share.uplift
        return out


@dataclass(frozen=True)
class ModifierFigures:
    """``analysis.features["modifiers"]``: each modifier's :class:`ModifierShare` by name
    (``shares``), and the error bounds of the components it restates (numerical ones only:
    :meth:`PaidSpinModifiers.errors`)."""

    shares: dict
    errors: dict


def _result(c) -> ModifierFigures:
    built = next(f for f in c.paid_spin_features if f.name == FEATURE.name)
    plain = c.spin(c.paid_reels, 1)
    return ModifierFigures(built.shares(c.round, plain), built.errors(c.round, plain))


FEATURE = Feature(
    name="modifiers",
    kind=Kind.PAID_SPIN,
    title="Base-game modifiers",
    present=lambda game: game.modifiers is not None,
    build=lambda context, marks: PaidSpinModifiers(context, context.game.modifiers, marks),
    result=_result,
    json="slotmath.report.modifiers:json_section",
    tables="slotmath.report.modifiers:tables",
    errors="slotmath.report.modifiers:errors",
    panel="slotmath.widgets.modifiers_panel:modifiers_panel",
    simulator="slotmath.simulate.modifiers:play_paid_spins",
    book="slotmath.publish.modifiers:book",
    round_simulator="slotmath.simulate.combined:simulate_rounds",
    plays=("pays", "free_spins", "hold_and_win", "bonus_wheel", "modifiers", "max_win_cap"),
)


def components_at(components: dict, shares: dict[str, ModifierShare],
                  frequencies: dict[str, Fraction]) -> dict:
    """``components`` (an analysis's, with ``shares`` its modifiers) at other modifier
    ``frequencies``: the modifiers' tables and the plain round are unchanged, so only each
    modifier's uplift ``f (R_m - R_0)`` moves (exact when they are).

    >>> s = ModifierShare("tnt", "upgrade", Fraction(1, 10), Fraction(3), Fraction(4),
    ...                   Fraction(2, 5), Fraction(3, 10), None)
    >>> components_at({"lines": Fraction(1), "tnt": Fraction(3, 10)}, {"tnt": s},
    ...               {"tnt": Fraction(1, 5)})
    {'lines': Fraction(1, 1), 'tnt': Fraction(3, 5)}
    """
    if sum(frequencies.values(), Fraction(0)) > 1:
        raise ValueError("the modifiers' frequencies must sum to at most 1")
    out = dict(components)
    for name, f in frequencies.items():
        s = shares[name]
        out[name] = f * (s.uplift / s.frequency)
    return out
