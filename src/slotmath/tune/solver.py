"""The inverse solver: integer symbol counts (or stop weights) that bring a game's RTP to a
target, other figures into ranges, and keep GLI-11's odds rule.

Method
------
Coordinate descent over the reels of one reel set, one exact linear step per reel:

1. For reel ``j``, the exact figures of one symbol more and one fewer
   (:mod:`slotmath.tune.sensitivity`'s edits, evaluated by
   :class:`~slotmath.tune.reel_tables.ReelTables`) give, per symbol ``s`` and direction, the
   change ``dS`` of ``S = RTP x L`` (``L`` the reel's cycle: stops, or total weight), of
   ``H = hit frequency x L`` and of ``L``. On a reel set no round feature plays, ``S`` and
   ``H`` are sums over the reel's windows (the round's figures are averages of the figures
   of the reel's windows), so on a one-row reel they are *exactly* linear in the counts; on a
   reel with more rows the placement of new copies changes neighbouring windows too, and the
   linear model is the first-order one.
2. A mixed-integer program (:func:`scipy.optimize.milp`, HiGHS) chooses how many of each
   symbol to add (``a_s``) and remove (``r_s``), each at most ``max_change``:
   subject to ``|S0 + sum dS (a - r) - t (L0 + sum dL (a - r))| <= e`` (the RTP target
   ``t``), and, for each range ``[lo, hi]`` of a figure ``F`` (the hit frequency; E[X^2] for an
   SD range, ``lo^2 + t^2 .. hi^2 + t^2``; the feature probability for a "1 in N" range),
   ``lo L <= F L <= hi L``, linear the same way (the max win's "1 in N": P(the current
   largest win of the paid spin) in ``[1/hi, 1/lo]``); for GLI-11's rule, every advertised
   award rarer than 1 in :data:`NEAR` has a row ``rate x L x limit >= L`` (each edit's
   change of ``rate x L`` from the exact rates of the edited game: the window tables' where
   they cover every award near the limit (:mod:`slotmath.tune.fast_awards`), else a
   compliance check; exact on a one-row reel, first-order elsewhere; hard for an award that meets the rule, soft for one that
   does not); ``r_s`` at most the copies the reel has, the reel keeps at least one stop.
   First with ``e <= tolerance x L / 2``, minimising the number of edits ``sum (a_s + r_s)``; when that
   has no solution, minimising ``e + penalty x sum (a_s + r_s)`` (each program at most
   :data:`STEP_SECONDS`, then HiGHS's best point).
3. The chosen edits are applied one symbol at a time (the same edits, each laid out by the
   layout rules, :mod:`slotmath.tune.layout`), and the new strip's figures are computed
   exactly, and its awards by the window tables where they cover every award of the game,
   else by a fresh compliance check (which must agree with the tables on the awards they
   cover): a step that pushes an award that met
   GLI-11's rule past it, or cannot be laid out, is not kept (``Step.reason``). Otherwise it
   is kept when the targets are missed by less in all (each miss relative to its size: the
   RTP's to the target, a range's to its top, GLI-11's shortfall as it is), or by as much and
   the RTP is closer; otherwise the step is tried again with ``max_change``
   halved, down to 1. The fallback program minimises the same relative misses.

Rounds over the reels repeat until every target is met, a round changes nothing, or the time
limit is reached. The returned game's awards are always a full compliance check's; an award
the window tables gave a different rate raises
:class:`~slotmath.tune.fast_awards.FastAwardsMismatch`. Everything is
deterministic (a fixed reel order, HiGHS is deterministic). The final game's figures are
exact fractions; the CLI re-analyses the written file.

Scatters and bonus symbols are held fixed unless named in ``symbols`` or a "1 in N" range is
given: they start features, and their frequency is a target of its own.

With ``moves="weights"`` a weighted reel's columns are one unit of each stop's own weight
(``(symbol, stop)`` keys): the figures are exactly linear in one reel's stop weights on any
reel, so the model of step 2 is exact there.

With ``moves="wheel"`` or ``"values"`` no strip changes: the bonus wheel's division weights or
hold & win's value weights move, their total held fixed, one exact program per step
(:mod:`slotmath.tune.prize_weights`).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np
from scipy.optimize import Bounds, LinearConstraint, milp

from slotmath.model.game import Game, Reel
from slotmath.tune.awards import GLI11_GAMES, Awards, awards
from slotmath.tune.awards import one_in as award_one_in
from slotmath.tune.fast_awards import FastAwards, confirm
from slotmath.tune.layout import Layout, LayoutError, lay_out
from slotmath.tune.prize_weights import KINDS as PRIZE_KINDS
from slotmath.tune.prize_weights import tune_prize_weights
from slotmath.tune.reel_tables import Figures, NotWindowTunable, ReelTables, check_tunable
from slotmath.tune.sensitivity import step as one_step

__all__ = ["Step", "Targets", "TuneResult", "summary_text", "tune"]

#: weight of the number of edits in the objective, against the RTP miss (in S units)
PENALTY = 1e-7
#: seconds one mixed-integer program may take at most (HiGHS then returns its best point)
STEP_SECONDS = 5.0
#: rounds over the reels (and wheel or value weight steps) by default
ROUNDS = 20


@dataclass(frozen=True)
class Step:
    """One solver step on reel ``reel`` (0 = reel 1): the program's size (``variables``,
    ``constraints``), the edits tried (symbol -> net change), the exact RTP before and after,
    whether it was kept, and its time in seconds; ``reason`` says why a step that improved
    the targets was not kept (an award it would push past GLI-11's limit, a layout rule)."""

    round: int
    reel: int
    variables: int
    constraints: int
    edits: dict
    rtp_before: Fraction
    rtp_after: Fraction
    kept: bool
    seconds: float
    reason: str = ""
    #: what the step moved when not a reel's strip: "wheel" (the bonus wheel's division
    #: weights) or "values" (hold & win's value weights); then ``reel`` is -1
    part: str = ""


@dataclass
class TuneResult:
    """The tuned ``game`` and its exact ``figures``, the ``start`` figures, the ``steps``
    taken, the ``targets`` and ``misses``: per target, how far it is from being met (0 when
    met; see :func:`_misses` for the units); ``laid_out``: the figures of the start
    strips laid out by the layout rules (None when they kept them). ``awards`` and
    ``start_awards``: GLI-11's
    awards of the tuned and the original game (:class:`~slotmath.tune.awards.Awards`; None
    when the rule is not checked)."""

    game: Game
    figures: Figures
    start: Figures
    steps: list[Step] = field(default_factory=list)
    misses: dict = field(default_factory=dict)
    seconds: float = 0.0
    targets: Targets | None = None
    awards: Awards | None = None
    start_awards: Awards | None = None
    #: the figures of the start strips laid out by the layout rules, where that changed them
    laid_out: Figures | None = None

    @property
    def met(self) -> bool:
        return all(m == 0 for m in self.misses.values())


@dataclass(frozen=True)
class Targets:
    """What the solver aims at: the RTP ``rtp`` within ``tolerance``, optional ranges
    (lo, hi) of the hit frequency, the SD (in bets), the feature's "1 in N" and the max
    win's "1 in N", and GLI-11's rule (``gli11``: the games every award must show in at
    least once, None when not checked)."""

    rtp: Fraction
    tolerance: Fraction
    hit_frequency: tuple | None = None
    sd: tuple | None = None
    feature_one_in: tuple | None = None
    max_win_one_in: tuple | None = None
    gli11: int | None = GLI11_GAMES


def _outside(value, lo, hi):
    return max(0, lo - value, value - hi)


def _one_in_value(p) -> float:
    return float("inf") if p == 0 else float(1 / p)


def _misses(f: Figures, t: Targets, awards: Awards | None = None) -> dict:
    """How far each target is from being met (0 when met): the RTP and the hit frequency in
    total bets and probability (exact), the SD in bets and the "1 in N" of the feature and
    of the max win in spins (floats), GLI-11's rule as the failing awards' shortfall
    (:attr:`Awards.shortfall`, exact)."""
    # an RTP by a numerical analysis is met only when its stated error is within the tolerance
    out = {"rtp": max(Fraction(0), abs(f.rtp - t.rtp) + Fraction(f.rtp_error) - t.tolerance)}
    if t.hit_frequency is not None:
        out["hit_frequency"] = _outside(Fraction(f.hit_frequency), *t.hit_frequency)
    if t.sd is not None:
        out["sd"] = _outside(f.sd, *t.sd)
    if t.feature_one_in is not None:
        out["feature_one_in"] = _outside(_one_in_value(f.feature_probability),
                                         *t.feature_one_in)
    if t.max_win_one_in is not None:
        out["max_win_one_in"] = _outside(_one_in_value(f.top_probability), *t.max_win_one_in)
    if t.gli11 is not None and awards is not None:
        out["gli11"] = awards.shortfall
    return out


def _score(misses: dict, t: Targets) -> float:
    """Every target's miss relative to its size (the RTP's to the target, a range's to its
    top, GLI-11's shortfall as it is), added up: what a step must lower to be kept."""
    scale = {"rtp": (0, t.rtp), "hit_frequency": t.hit_frequency, "sd": t.sd,
             "feature_one_in": t.feature_one_in, "max_win_one_in": t.max_win_one_in,
             "gli11": (0, 1)}
    return sum(min(float(m), 1e300) / (float(scale[k][1]) or 1.0) for k, m in misses.items())


def _better(new: dict, old: dict, new_f: Figures, old_f: Figures, t: Targets) -> bool:
    a, b = _score(new, t), _score(old, t)
    if a != b:
        return a < b
    return abs(new_f.rtp - t.rtp) < abs(old_f.rtp - t.rtp)


#: awards at least this many times more frequent than GLI-11's limit get no row in the
#: program (the exact check on every step still guards them)
NEAR = 10_000


def _program(tables: ReelTables, reel: Reel, base: Figures, symbols: Sequence,
             targets: Targets, cap: int, time_left: float,
             edit: Callable[[Reel, str, int], Reel | None], units: dict,
             award_rates: Callable[[Reel], dict] | None = None, base_awards: dict | None = None):
    """(edits, variables, constraints) of one linear step, or None when HiGHS finds none.

    ``edit(reel, symbol, change)`` is one unit of the symbol more or fewer, laid out (a unit:
    ``units[symbol]`` stops, a stack's length, else one); the edits are counted in stops.
    A key ``(symbol, stop)`` in ``symbols`` is one unit of that stop's weight instead (a
    weighted reel's stop weights: exactly linear on any reel).
    ``award_rates``
    gives the GLI-11 award rates of the reel set with this reel replaced (the rows for the
    awards near the limit), ``base_awards`` those of ``reel``."""
    length = reel.cycle
    target, tolerance = targets.rtp, targets.tolerance
    top = base.top_credits
    near = []
    if award_rates is not None and base_awards:
        near = [k for k, r in base_awards.items() if Fraction(r) * targets.gli11 < NEAR]
    columns = []  # dicts: symbol, change, S, H, L, cap, M, P, W (the max win), award rates
    # each edit's change is read against the same model's figures of the current reel (where
    # the tables are a guide, ``base`` is the analysis' figure: the changes are the guide's)
    ref = tables.figures(reel) if tables.guided else base
    tried = [(s, change, edit(reel, s, change)) for s in symbols for change in (1, -1)]
    tables.prefetch(w for _, _, e in tried if e is not None for w in tables.window_weights(e))
    for s, change, edited in tried:
        if edited is None:
            continue
        f = tables.figures(edited)
        c = {"symbol": s, "change": change, "L": edited.cycle - length}

        def d(new, old, c=c, edited=edited):
            return float(new * edited.cycle - old * length)

        c["S"] = d(f.rtp, ref.rtp)
        c["H"] = d(f.hit_frequency, ref.hit_frequency)
        c["M"] = d(f.second_moment, ref.second_moment)
        c["P"] = d(f.feature_probability, ref.feature_probability)
        c["W"] = d(f.probability_of(top), ref.probability_of(top))
        if change > 0:
            have = cap
        elif isinstance(s, tuple):
            have = reel.stop_weights[s[1]]
        else:
            have = (sum(w for x, w in zip(reel.symbols, reel.stop_weights) if x == s)
                    // units.get(s, 1))
        c["cap"] = min(cap, have)
        if near:
            rates = award_rates(edited)
            c["awards"] = [d(Fraction(rates.get(k, 0)), Fraction(base_awards[k])) for k in near]
        columns.append(c)
    if not columns:
        return None
    n = len(columns)
    t = float(target)
    s0 = float(base.rtp * length)
    # each range lo <= F <= hi of a figure F = (F0 L + sum dF x) / (L + sum dL x)
    ranges = []
    if targets.hit_frequency is not None:
        ranges.append(("H", float(base.hit_frequency) * length, targets.hit_frequency))
    if targets.sd is not None:  # the SD with the RTP at its target: E[X^2] in a range
        lo, hi = targets.sd
        ranges.append(("M", float(base.second_moment) * length,
                       (float(lo) ** 2 + t * t, float(hi) ** 2 + t * t)))
    if targets.feature_one_in is not None:  # 1 in N: the probability in [1/hi, 1/lo]
        lo, hi = targets.feature_one_in
        ranges.append(("P", float(base.feature_probability) * length,
                       (1 / float(hi), 1 / float(lo) if lo else 1.0)))
    if targets.max_win_one_in is not None and top:  # P(the current max win) in [1/hi, 1/lo]
        lo, hi = targets.max_win_one_in
        ranges.append(("W", float(base.probability_of(top)) * length,
                       (1 / float(hi), 1 / float(lo) if lo else 1.0)))
    m = len(ranges)
    failing = [i for i, k in enumerate(near) if Fraction(base_awards[k]) * targets.gli11 < 1]
    q = len(failing)
    # variables: x_0..x_{n-1} (integer counts of each edit), e (the RTP's miss, in S units),
    # u_1..u_m (each range's miss, in F L units), v_1..v_q (each failing award's shortfall, in
    # rate x limit x L units); all misses continuous and >= 0
    width = n + 1 + m + q

    def row(coefficients, e=0.0, k=None, u=0.0):
        out = np.zeros(width)
        out[:n] = coefficients
        out[n] = e
        if k is not None:
            out[n + 1 + k] = u
        return out

    rows = [row([c["L"] for c in columns])]  # the reel keeps >= 1 stop
    lower, upper = [1 - length], [np.inf]
    for k, (f, f0, (lo, hi)) in enumerate(ranges):
        lo, hi = float(lo), float(hi)
        rows.append(row([c[f] - lo * c["L"] for c in columns], k=k, u=1.0))
        lower.append(lo * length - f0)
        upper.append(np.inf)
        rows.append(row([c[f] - hi * c["L"] for c in columns], k=k, u=-1.0))
        lower.append(-np.inf)
        upper.append(hi * length - f0)
    # GLI-11: rate x L x limit >= L for every award near the limit; exact on a one-row reel
    # of a reel set no round feature plays (an award's hits are linear in the counts), the
    # first-order model elsewhere. Met now: a hard row; failing now: a soft one.
    limit = float(targets.gli11 or 0)
    for i, k in enumerate(near):
        r0 = float(base_awards[k]) * length * limit
        coefficients = [c["awards"][i] * limit - c["L"] for c in columns]
        soft = failing.index(i) if i in failing else None
        rows.append(row(coefficients, k=None if soft is None else m + soft, u=1.0))
        lower.append(length - r0 if soft is not None else min(length - r0, 0.0))
        upper.append(np.inf)
    miss = [c["S"] - t * c["L"] for c in columns]  # d(S - tL) per edit
    rows += [row(miss, e=-1.0), row(miss, e=1.0)]  # -e <= S - tL <= e
    lower += [-np.inf, t * length - s0]
    upper += [t * length - s0, np.inf]
    integrality = np.array([1] * n + [0] * (1 + m + q))
    constraint = LinearConstraint(np.array(rows), lower, upper)
    options = {"time_limit": max(min(time_left, STEP_SECONDS), 0.1), "disp": False}
    caps = [c["cap"] for c in columns]
    # first the fewest edits that meet every target (quick for HiGHS: a small objective with
    # a feasible point proves optimal at once); failing that, the smallest misses, each
    # relative to its target (the ranges' first)
    reach = float(tolerance) * length / 2
    res = milp(np.concatenate([np.ones(n), np.zeros(1 + m + q)]), constraints=constraint,
               integrality=integrality, options=options,
               bounds=Bounds(np.zeros(width), caps + [reach] + [0.0] * (m + q)))
    if res.x is None:
        weights = ([1.0 / max(t, 1e-9)] + [1.0 / max(float(r[2][1]), 1e-9) for r in ranges]
                   + [1.0 / max(length, 1)] * q)
        res = milp(np.concatenate([np.full(n, PENALTY), weights]), constraints=constraint,
                   integrality=integrality, options=options,
                   bounds=Bounds(np.zeros(width), caps + [np.inf] * (1 + m + q)))
    if res.x is None:
        return None
    edits: dict[str, int] = {}
    for c, x in zip(columns, res.x[:n]):
        k = round(x)
        if k:
            edits[c["symbol"]] = (edits.get(c["symbol"], 0)
                                  + c["change"] * k * units.get(c["symbol"], 1))
    return {s: k for s, k in edits.items() if k}, width, len(rows)


def _step_awards(fast: FastAwards | None, reel: Reel, current: Awards, full) -> Awards:
    """The awards of a kept-or-not step's strip ``reel``: from the window tables when they
    cover every award the game has (``Awards.fast``), else by the full check ``full()``
    (whose rates of the covered awards must then agree with the tables'; a mismatch is
    :class:`~slotmath.tune.fast_awards.FastAwardsMismatch`)."""
    if fast is not None and all(fast.covers(k) for k in current.rates):
        return Awards(fast.rates(reel), current.limit, fast=True)
    checked = full()
    if fast is not None and fast.pays:
        confirm(fast.rates(reel), checked.rates, " (a step)")
    return checked


def _apply(reel: Reel, edits: dict, edit, units: dict) -> tuple[Reel | None, str]:
    """The reel with ``edits`` (stops) made one unit at a time, each laid out, and why not
    ("" when it could be)."""
    for s, k in edits.items():
        for _ in range(abs(k) // units.get(s, 1)):
            try:
                reel = edit(reel, s, 1 if k > 0 else -1, strict=True)
            except LayoutError as exc:
                return None, f"layout: {exc}"
            if reel is None:
                return None, f"{s}: no copy to take away"
    return reel, ""


def _layout(layout) -> Layout:
    if layout is None:
        return Layout()
    if isinstance(layout, Layout):
        return layout
    if isinstance(layout, Mapping) and set(layout) <= {"spacing", "stack",
                                                        "scatter_spacing", "no_repeat"}:
        return Layout(**layout)
    raise ValueError(f"layout must be a Layout or a dict with keys spacing, stack, "
                     f"scatter_spacing, no_repeat; got {layout!r}")


def sd_range(volatility_index) -> tuple[float, float]:
    """An SD range (in total bets) from a volatility-index range at 90 % (VI = z SD, z the
    normal quantile), as the CLI's ``--volatility-index`` and the tuning panel take it.

    Examples
    --------
    >>> lo, hi = sd_range((1.6448536269514722, 3.2897072539029444))
    >>> round(lo, 12), round(hi, 12)
    (1.0, 2.0)
    """
    from slotmath.stats.par import normal_quantile

    z = normal_quantile(0.90)
    return float(volatility_index[0]) / z, float(volatility_index[1]) / z


def _range(value, name: str):
    if value is None:
        return None
    try:
        lo, hi = (Fraction(str(v)) if not isinstance(v, Fraction) else v for v in value)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be a pair (lo, hi) of numbers, got {value!r}") from None
    if not 0 <= lo <= hi:
        raise ValueError(f"{name} must be 0 <= lo <= hi, got {value}")
    return lo, hi


def tune(game: Game, target_rtp, reel_set: str = "base", *, hit_frequency=None, sd=None,
         feature_one_in=None, max_win_one_in=None, gli11: int | None = GLI11_GAMES,
         layout: Layout | Mapping | None = None, moves: str = "counts",
         tolerance=Fraction(1, 100_000), symbols: Sequence[str] | None = None,
         max_change: int = 4, max_rounds: int | None = None, time_limit: float = 60.0,
         level: int = 1, progress: Callable[[Step], None] | None = None,
         weight_scale: int = 1, min_weight: int = 1, hold_weights: Sequence[str] = (),
         method: str | None = None) -> TuneResult:
    """Integer symbol counts on ``reel_set`` that bring the RTP within ``tolerance`` of
    ``target_rtp`` (see the module notes for the method).

    Parameters
    ----------
    game : Game
        A lines or ways game the window tables cover
        (:func:`slotmath.tune.reel_tables.check_tunable`).
    target_rtp : Fraction, int or str
        In total bets (``"0.96"``, ``Fraction(24, 25)``).
    reel_set : str
        The reel set tuned; no round feature may play on it (its figures would not be linear
        in its strips).
    hit_frequency : (lo, hi), optional
        A range the round's hit frequency must end in (fractions of 1).
    sd : (lo, hi), optional
        A range of the round's SD, in total bets (a volatility index VI = z SD gives
        ``(lo / z, hi / z)``).
    feature_one_in : (lo, hi), optional
        A range of N in "a round feature starts 1 in N paid spins"; then the scatters and
        bonus symbols may change too unless ``symbols`` says otherwise.
    max_win_one_in : (lo, hi), optional
        A range of N in "the max win comes 1 in N paid spins". The max win is the largest
        win of one paid spin (window wins with its spin features, no round feature) as the
        exact win law of the tuned strips gives it: :attr:`Analysis.top_award`.
    gli11 : int or None
        GLI-11 4.8.2: every advertised award (the compliance check's, at every bet level)
        shows at least once in this many games (default 100,000,000). A step that pushes an
        award that met it past it is not kept; an award that misses it is a target. None: not
        checked.
    layout : Layout or dict, optional
        Strip layout rules (:class:`slotmath.tune.layout.Layout`, or a dict
        ``{"spacing": {symbol: d}, "stack": {symbol: k}}``): every strip the solver keeps
        (and the start, when it breaks one) is laid out by them, and its exact figures are
        those of the laid-out strip; a stacked symbol changes a whole stack at a time. By
        default a scatter or bonus symbol is kept a window height apart. A rule the start
        strips' counts cannot meet: ``ValueError``.
    moves : {"counts", "weights", "wheel", "values"}
        What a step changes on a weighted reel: ``"counts"`` (default) one unit of a
        symbol's weight on its heaviest stop; ``"weights"`` the weight of each stop of the
        tuned symbols on its own (two variables per stop; the figures are exactly linear in
        one reel's stop weights on any reel, so the program's model is exact; the stops and
        their order do not change). A reel without weights always changes counts.
        ``"wheel"``: the bonus wheel's coin-division weights instead of any strip;
        ``"values"``: hold & win's cash-value weights (their total held fixed; the RTP is
        exactly linear in them, one exact program per step:
        :mod:`slotmath.tune.prize_weights`). A game without a wheel or hold & win, or with
        a values booster: ``ValueError``. ``reel_set``, ``symbols``, ``max_change`` and
        layout rules do not apply to them.
    tolerance : Fraction
        How close the RTP must come (default 1e-5, i.e. 0.001 percentage points).
    symbols : sequence of str, optional
        The symbols whose counts may change; default every symbol but scatters and bonus
        symbols (with a ``feature_one_in`` range: every symbol).
    max_change : int
        The most copies of one symbol a step adds or removes on one reel.
    max_rounds : int, optional
        Rounds at most: over the reels (default :data:`ROUNDS`); with ``moves="wheel"`` or
        ``"values"`` steps (default :data:`ROUNDS`); by proxy, confirmations by the game's
        analysis (default :data:`slotmath.tune.proxy.ROUNDS`); by search, steps (default:
        until the time limit). Not offered with method ``"crn"`` (its anchors and
        confirmations follow the time limit).
    time_limit : float
        Seconds; the solver stops after the step that passes it.
    level : int
    progress : callable, optional
        Hears every :class:`Step`.
    weight_scale : int
        ``moves="wheel"``/``"values"``: every weight is multiplied by this first (the same
        law; the RTP's grid is this many times finer).
    min_weight : int
        ``moves="wheel"``/``"values"``: the least weight a division or value (of positive
        weight at the start) keeps (default 1: nothing leaves the wheel or the ladder).
    hold_weights : sequence of str
        ``moves="wheel"``/``"values"``: divisions or values whose weights stay, each by its
        label or the label's name (``"MAJOR"`` for ``MAJOR=200``): a named jackpot's weight.

    method : {"search", "proxy", "crn"}, optional
        For a game the window tables do not cover: :mod:`slotmath.tune.search` (single and
        paired moves, each confirmed by the game's analysis), :mod:`slotmath.tune.proxy`
        (the window-table solver on the game without the sections that stop it, each round
        confirmed by the game's analysis) or :mod:`slotmath.tune.crn` (stop swaps ranked and
        confirmed by common random numbers, the final game by its analysis). Default
        :func:`default_method`.

    Returns
    -------
    TuneResult

    Examples
    --------
    >>> import slotmath
    >>> g = slotmath.load_game("data/games/classic_3reel.toml")
    >>> r = tune(g, "0.96")
    >>> r.met, abs(r.figures.rtp - Fraction(24, 25)) <= Fraction(1, 100_000)
    (True, True)
    >>> r.figures.rtp == slotmath.analyze(r.game).rtp
    True
    >>> r.awards.rarest[0], r.awards.failing
    ('pay W3 x3', frozenset())
    """
    started = time.monotonic()
    target = Fraction(str(target_rtp)) if not isinstance(target_rtp, Fraction) else target_rtp
    tolerance = Fraction(str(tolerance)) if not isinstance(tolerance, Fraction) else tolerance
    if moves not in ("counts", "weights", *PRIZE_KINDS):
        raise ValueError(f"moves must be 'counts', 'weights', 'wheel' or 'values', got "
                         f"{moves!r}")
    if max_rounds is not None and (not isinstance(max_rounds, int) or max_rounds < 1):
        raise ValueError(f"max_rounds must be a whole number >= 1 or None, got {max_rounds!r}")
    if gli11 is not None and (not isinstance(gli11, int) or gli11 < 1):
        raise ValueError(f"gli11 must be a whole number of games >= 1 or None, got {gli11!r}")
    targets = Targets(target, tolerance, _range(hit_frequency, "hit_frequency"),
                      _range(sd, "sd"), _range(feature_one_in, "feature_one_in"),
                      _range(max_win_one_in, "max_win_one_in"), gli11)
    if moves in PRIZE_KINDS:
        rules = _layout(layout)
        if symbols is not None or rules.spacing or rules.stack or method is not None:
            raise ValueError(f"moves {moves!r} changes no strip: symbols, layout rules and "
                             f"a method do not apply")
        return tune_prize_weights(game, targets, moves, level=level,
                                  weight_scale=weight_scale, min_weight=min_weight,
                                  max_rounds=max_rounds or ROUNDS, time_limit=time_limit,
                                  started_at=started, progress=progress, hold=hold_weights)
    if hold_weights:
        raise ValueError(f"hold_weights holds wheel or value weights: moves {moves!r} changes "
                         f"strips (moves='wheel' or 'values')")
    try:
        comp = check_tunable(game, level)
    except NotWindowTunable as exc:  # cascades, grids, the conveyor, modifiers: by search
        if moves != "counts":
            raise ValueError(f"{exc}; tuned by search, which changes counts only (not "
                             f"moves={moves!r})") from None
        return _not_by_tables(game, targets, reel_set, method, layout=layout,
                              symbols=symbols, time_limit=time_limit, level=level,
                              progress=progress, why=exc.why, max_rounds=max_rounds)
    if method is not None:
        raise ValueError(f"{game.name}: the window tables cover it; method={method!r} is for "
                         f"games they do not cover")
    if reel_set not in game.reel_sets:
        raise ValueError(f"{game.name} has no reel set {reel_set!r}; it has "
                         f"{sorted(game.reel_sets)}")
    if reel_set != comp.paid_reels and reel_set in {getattr(f, "reels", None)
                                                    for f in comp.round.features}:
        raise ValueError(f"reel set {reel_set!r} is played by a round feature; tune the "
                         f"paid spin's reel set")
    if symbols is None:
        symbols = [s.name for s in game.symbols.values()
                   if feature_one_in is not None or not (s.scatter or s.bonus)]
    unknown = [s for s in symbols if s not in game.symbols]
    if unknown:
        raise ValueError(f"{game.name} has no symbol {unknown[0]!r}")
    layout = _layout(layout)
    layout.check(game)
    reels = list(game.reel_sets[reel_set].reels)
    rules = [layout.for_reel(game, j) for j in range(len(reels))]
    for j, reel in enumerate(reels):  # the start, laid out where it breaks a rule
        try:
            reels[j] = lay_out(reel, *rules[j])
        except LayoutError as exc:
            raise ValueError(f"reel set {reel_set!r} reel {j + 1}: {exc}") from None
    laid_out = game.replace_reels(reel_set, tuple(reels))
    position = {"j": 0}

    def unit_sizes(j: int, reel: Reel) -> dict:
        return {} if reel.weights is not None else dict(rules[j][1])

    def edit(reel: Reel, symbol, change: int, strict: bool = False) -> Reel | None:
        if isinstance(symbol, tuple):  # one unit of one stop's weight: no stop moves
            weights = list(reel.stop_weights)
            weights[symbol[1]] += change
            if weights[symbol[1]] < 0 or not any(weights):
                return None
            return Reel(reel.symbols, tuple(weights))
        j = position["j"]
        for _ in range(unit_sizes(j, reel).get(symbol, 1)):
            reel = one_step(reel, symbol, change)
            if reel is None:
                return None
        try:
            return lay_out(reel, *rules[j])
        except LayoutError:
            if strict:
                raise
            return None

    def game_with(j: int, reel: Reel) -> Game:
        new = list(reels)
        new[j] = reel
        return game.replace_reels(reel_set, tuple(new))

    def checked(g: Game) -> Awards | None:
        return None if gli11 is None else awards(g, gli11)

    first = game.reel_sets[reel_set].reels[0]
    start = ReelTables(game, reel_set, 0, level, comp).checked(first)
    start_awards = checked(game)
    current, current_awards = start, start_awards
    if laid_out != game:
        current = ReelTables(laid_out, reel_set, 0, level, comp).checked(reels[0])
        current_awards = checked(laid_out)
    result = TuneResult(game, current, start, targets=targets, awards=current_awards,
                        start_awards=start_awards,
                        laid_out=None if laid_out == game else current)
    misses = _misses(current, targets, current_awards)
    for rnd in range(max_rounds or ROUNDS):
        changed = False
        for j in range(len(reels)):
            if all(m == 0 for m in misses.values()):
                break
            left = time_limit - (time.monotonic() - started)
            if left <= 0:
                break
            t0 = time.monotonic()
            position["j"] = j
            units = unit_sizes(j, reels[j])
            keys = symbols
            if moves == "weights" and reels[j].weights is not None:
                keys = [(s, p) for p, s in enumerate(reels[j].symbols) if s in symbols]
            g = game.replace_reels(reel_set, tuple(reels))
            tables = ReelTables(g, reel_set, j, level, comp)
            award_rates, fast = None, None
            if current_awards is not None:
                fast = FastAwards(tables)
                near = [k for k, r in current_awards.rates.items()
                        if Fraction(r) * gli11 < NEAR]
                if all(fast.covers(k) for k in near):  # exact from the window tables
                    award_rates = fast.rates
                else:
                    def award_rates(reel, j=j):
                        return awards(game_with(j, reel), gli11).rates
            cap = max_change
            while cap >= 1:
                solved = _program(tables, reels[j], current, keys, targets, cap,
                                  time_limit - (time.monotonic() - started), edit, units,
                                  award_rates,
                                  None if current_awards is None else current_awards.rates)
                if solved is None:
                    break
                edits, n_vars, n_rows = solved
                new_reel, reason = (_apply(reels[j], edits, edit, units) if edits
                                    else (None, ""))
                new = tables.checked(new_reel) if new_reel is not None else current
                new_awards = current_awards
                if new_reel is not None and current_awards is not None:
                    new_awards = _step_awards(fast, new_reel, current_awards,
                                              lambda r=new_reel, j=j: checked(game_with(j, r)))
                    broken = sorted(new_awards.failing - current_awards.failing)
                    if broken:
                        reason = (f"GLI-11: {broken[0]} would be "
                                  f"{award_one_in(new_awards.rates[broken[0]])}")
                new_misses = _misses(new, targets, new_awards)
                kept = bool(edits) and new_reel is not None and not reason and _better(
                    new_misses, misses, new, current, targets)
                shown = {(f"{k[0]}@{k[1] + 1}" if isinstance(k, tuple) else k): v
                         for k, v in edits.items()}
                step = Step(rnd, j, n_vars, n_rows, shown, current.rtp, new.rtp, kept,
                            time.monotonic() - t0, reason)
                result.steps.append(step)
                if progress is not None:
                    progress(step)
                if kept:
                    reels[j], current, misses, changed = new_reel, new, new_misses, True
                    current_awards = new_awards
                    break
                if not edits:
                    break
                cap //= 2
        if not changed or all(m == 0 for m in misses.values()):
            break
        if time_limit - (time.monotonic() - started) <= 0:
            break
    result.game = game.replace_reels(reel_set, tuple(reels))
    if current_awards is not None and current_awards.fast:
        # the final game by the full compliance check, whatever the steps used; the awards
        # the window tables gave must agree exactly (else FastAwardsMismatch)
        final = checked(result.game)
        confirm(current_awards.rates, final.rates, " (the tuned game)")
        current_awards = final
        misses = _misses(current, targets, current_awards)
    result.figures, result.misses, result.awards = current, misses, current_awards
    result.seconds = time.monotonic() - started
    return result


#: the paths for games the window tables do not cover
METHODS = ("search", "proxy", "crn")


def default_method(game: Game, reel_set: str = "base") -> str:
    """How :func:`tune` tunes a game the window tables do not cover: ``"search"`` on a small
    reel set (ranked by exact analyses, :func:`slotmath.tune.search.default_rank`), else
    ``"crn"`` for a grid game, else ``"proxy"`` where the game has an exact proxy
    (:func:`slotmath.tune.proxy.proxy_game`; a ways grid game has one too, offered by
    ``method="proxy"``).

    Examples
    --------
    >>> import slotmath
    >>> [default_method(slotmath.load_game(f"data/games/{n}.toml"))
    ...  for n in ("frozen_gems", "jingle_spin", "gus_gold_christmas", "cluster_crush")]
    ['proxy', 'proxy', 'proxy', 'crn']
    >>> default_method(slotmath.load_game("tests/data/cascades/tiny_lines.toml"))
    'search'
    """
    from slotmath.tune.proxy import proxy_game
    from slotmath.tune.search import default_rank

    if default_rank(game, reel_set) == "exact":
        return "search"
    if game.grid is not None:  # a grid's proxy (Megaways) is offered, not the default: its
        # first drop moved against the tumbles on Megaways Bonanza (docs/tuning.md)
        return "crn"
    if proxy_game(game) is not None:
        return "proxy"
    return "search"


def _not_by_tables(game: Game, targets: Targets, reel_set: str, method: str | None, *,
                   layout, symbols, time_limit, level, progress, why,
                   max_rounds=None) -> TuneResult:
    if reel_set not in game.reel_sets:
        raise ValueError(f"{game.name} has no reel set {reel_set!r}; it has "
                         f"{sorted(game.reel_sets)}")
    chosen, method = method, method or default_method(game, reel_set)
    if method not in METHODS:
        raise ValueError(f"method must be one of {', '.join(METHODS)}, got {method!r}")
    if method == "proxy":
        from slotmath.tune.proxy import tune_by_proxy

        return tune_by_proxy(game, targets, reel_set, layout=layout, symbols=symbols,
                             time_limit=time_limit, level=level, progress=progress, why=why,
                             max_rounds=max_rounds)
    if method == "crn":
        from slotmath.tune.crn import tune_by_crn

        if layout is not None:
            raise ValueError(f"{game.name}: layout rules are not offered with method 'crn' "
                             f"(swaps keep every stop's place)")
        if max_rounds is not None:
            raise ValueError(f"{game.name}: max_rounds (--max-rounds) is not offered on the "
                             f"crn path (this game's {'default ' if chosen is None else ''}"
                             f"path: its anchors and confirmations follow the time limit; "
                             f"--method proxy or search take it where they apply)")
        return tune_by_crn(game, targets, reel_set, symbols=symbols, time_limit=time_limit,
                           level=level, progress=progress, why=why)
    from slotmath.tune.search import search

    return search(game, targets, reel_set, layout=layout, symbols=symbols,
                  time_limit=time_limit, level=level, progress=progress, why=why,
                  max_rounds=max_rounds)


def _percent(x: Fraction) -> str:
    return f"{float(x) * 100:.6f}%"


def step_line(step: Step) -> str:
    """One line about a solver step (the CLI's progress).

    Examples
    --------
    >>> print(step_line(Step(0, 1, 7, 3, {"A": 2}, Fraction(9, 10), Fraction(24, 25), True, 0.5)))
    round 1 reel 2: 7 variables, 3 constraints, edits {'A': 2}: RTP 90.000000% -> 96.000000% kept (0.50 s)
    """
    if hasattr(step, "line"):  # a search step (slotmath.tune.search)
        return step.line()
    verdict = "kept" if step.kept else "not kept"
    where = f"reel {step.reel + 1}" if not step.part else step.part
    return (f"round {step.round + 1} {where}: {step.variables} variables, "
            f"{step.constraints} constraints, edits {step.edits or '{}'}: RTP "
            f"{_percent(step.rtp_before)} -> {_percent(step.rtp_after)} {verdict}"
            f"{f' ({step.reason})' if step.reason else ''} ({step.seconds:.2f} s)")


def summary_text(result: TuneResult, targets: Targets, z: float | None = None) -> str:
    """The solver's result in a few lines: start and tuned figures, each target's miss
    (``z``: the normal quantile of a volatility index, to show the SD as one)."""
    def one_in(p) -> str:
        return "none" if p == 0 else f"1 in {float(1 / p):.2f}"

    def span(pair, show) -> str:
        return "" if pair is None else f" (target {show(pair[0])}..{show(pair[1])})"

    start, end, rtp = result.start, result.figures, result.figures.rtp
    kept = sum(s.kept for s in result.steps)
    how = (f"exact {rtp.numerator}/{rtp.denominator}" if end.rtp_kind == "exact"
           else f"by the analysis, within {end.rtp_error:.2g}")
    lines = [
        (f"RTP           {_percent(start.rtp)} -> {_percent(rtp)} "
         f"({how}; target {_percent(targets.rtp)})"),
        (f"hit frequency {_percent(start.hit_frequency)} -> "
         f"{_percent(Fraction(end.hit_frequency))}{span(targets.hit_frequency, _percent)}"),
    ]
    if z is None:
        lines.append(f"SD            {start.sd:.4f} -> {end.sd:.4f}"
                     f"{span(targets.sd, lambda v: f'{float(v):.4f}')}")
    else:
        lines.append(f"VI            {z * start.sd:.4f} -> {z * end.sd:.4f}"
                     f"{span(targets.sd, lambda v: f'{z * float(v):.4f}')}")
    if start.feature_probability or targets.feature_one_in:
        lines.append(f"feature       {one_in(start.feature_probability)} -> "
                     f"{one_in(end.feature_probability)}"
                     f"{span(targets.feature_one_in, lambda v: f'{float(v):g}')}")
    if result.laid_out is not None:
        lines.append(f"layout        the start strips broke a layout rule; laid out: RTP "
                     f"{_percent(start.rtp)} -> {_percent(result.laid_out.rtp)}")
    lines.append(f"max win       {float(start.top_award):,g} x bet "
                 f"{award_one_in(start.top_probability)} -> {float(end.top_award):,g} x bet "
                 f"{award_one_in(end.top_probability)}"
                 f"{span(targets.max_win_one_in, lambda v: f'{float(v):g}')}")
    if result.awards is not None and result.awards.rarest is not None:
        first, last = result.start_awards.rarest, result.awards.rarest
        lines.append(f"rarest award  {first[0]} {award_one_in(first[1])} -> {last[0]} "
                     f"{award_one_in(last[1])} (GLI-11: at least 1 in "
                     f"{result.awards.limit:,} games)")
    if end.rtp_kind == "analysis" and not hasattr(result, "search_lines"):
        lines.append(f"exactness     RTP by the game's analysis (jackpot pools' renewal, a cap), "
                     f"within its stated error {end.rtp_error:.2g}; hit frequency, SD, feature "
                     f"and max win exact (the round's; each step's program used the window "
                     f"tables as a first-order guide)")
    lines.extend(result.search_lines() if hasattr(result, "search_lines") else ())
    lines.append(f"steps         {len(result.steps)} ({kept} kept) in {result.seconds:.1f} s")
    units = {"rtp": ("points", 100), "hit_frequency": ("points", 100),
             "sd": ("x bet", z or 1), "feature_one_in": ("spins", 1),
             "max_win_one_in": ("spins", 1)}
    names = {"sd": "VI" if z else "SD", "gli11": "GLI-11", "max_win_one_in": "max_win_one_in"}
    for name, miss in result.misses.items():
        if name == "gli11":
            failing = sorted(result.awards.failing, key=lambda k: result.awards.rates[k])
            state = "met" if miss == 0 else (
                f"NOT met: {len(failing)} award(s) rarer than 1 in {result.awards.limit:,} "
                f"games: " + ", ".join(f"{k} {award_one_in(result.awards.rates[k])}"
                                       for k in failing))
        else:
            unit, scale = units[name]
            state = ("met" if miss == 0
                     else f"NOT met: misses by {float(miss) * scale:.6g} {unit}")
        lines.append(f"{names.get(name, name):<13} {state}")
    return "\n".join(lines)
