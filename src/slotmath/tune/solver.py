"""The inverse solver: integer symbol counts that bring a game's RTP to a target.

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
   ``t``), and, with a hit-frequency range ``[lo, hi]``, ``lo L <= H <= hi L``; ``r_s`` at
   most the copies the reel has, the reel keeps at least one stop. First with
   ``e <= tolerance x L / 2``, minimising the number of edits ``sum (a_s + r_s)``; when that
   has no solution, minimising ``e + penalty x sum (a_s + r_s)`` (each program at most
   :data:`STEP_SECONDS`, then HiGHS's best point).
3. The chosen edits are applied one symbol at a time (the same edits), and the new strip's
   figures are computed exactly. It is kept when its RTP is closer to the target and the hit
   frequency is no further outside its range; otherwise the step is tried again with
   ``max_change`` halved, down to 1.

Rounds over the reels repeat until the RTP is within ``tolerance`` of the target (and the hit
frequency in range), a round changes nothing, or the time limit is reached. Everything is
deterministic (a fixed reel order, HiGHS is deterministic). The final game's figures are
exact fractions; the CLI re-analyses the written file.

Scatters and bonus symbols are held fixed unless named in ``symbols``: they start features,
and their frequency is a target of its own.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np
from scipy.optimize import Bounds, LinearConstraint, milp

from slotmath.model.game import Game, Reel
from slotmath.tune.reel_tables import Figures, ReelTables, check_tunable
from slotmath.tune.sensitivity import step as one_step

__all__ = ["Step", "TuneResult", "tune"]

#: weight of the number of edits in the objective, against the RTP miss (in S units)
PENALTY = 1e-7
#: seconds one mixed-integer program may take at most (HiGHS then returns its best point)
STEP_SECONDS = 5.0


@dataclass(frozen=True)
class Step:
    """One solver step on reel ``reel`` (0 = reel 1): the program's size (``variables``,
    ``constraints``), the edits tried (symbol -> net change), the exact RTP before and after,
    whether it was kept, and its time in seconds."""

    round: int
    reel: int
    variables: int
    constraints: int
    edits: dict
    rtp_before: Fraction
    rtp_after: Fraction
    kept: bool
    seconds: float


@dataclass
class TuneResult:
    """The tuned ``game`` and its exact ``figures``, the ``start`` figures, the ``steps``
    taken, and ``misses``: per target, how far it is from being met (0 when met)."""

    game: Game
    figures: Figures
    start: Figures
    steps: list[Step] = field(default_factory=list)
    misses: dict = field(default_factory=dict)
    seconds: float = 0.0

    @property
    def met(self) -> bool:
        return all(m == 0 for m in self.misses.values())


def _misses(f: Figures, target: Fraction, tolerance: Fraction, hit) -> dict:
    out = {"rtp": max(Fraction(0), abs(f.rtp - target) - tolerance)}
    if hit is not None:
        lo, hi = hit
        out["hit_frequency"] = max(Fraction(0), lo - f.hit_frequency, f.hit_frequency - hi)
    return out


def _better(new: dict, old: dict, new_f: Figures, old_f: Figures, target: Fraction) -> bool:
    if new.get("hit_frequency", 0) > old.get("hit_frequency", 0):
        return False
    if new.get("hit_frequency", 0) < old.get("hit_frequency", 0):
        return True
    return abs(new_f.rtp - target) < abs(old_f.rtp - target)


def _program(tables: ReelTables, reel: Reel, base: Figures, symbols: Sequence[str],
             target: Fraction, tolerance: Fraction, hit, cap: int, time_left: float):
    """(edits, variables, constraints) of one linear step, or None when HiGHS finds none."""
    length = reel.cycle
    columns = []  # (symbol, direction, dS, dH, dL, upper bound)
    tried = [(s, change, one_step(reel, s, change)) for s in symbols for change in (1, -1)]
    tables.prefetch(w for _, _, e in tried if e is not None for w in tables.window_weights(e))
    for s, change, edited in tried:
        if edited is not None:
            f = tables.figures(edited)
            d_length = edited.cycle - length
            d_s = float(f.rtp * edited.cycle - base.rtp * length)
            d_h = float(f.hit_frequency * edited.cycle - base.hit_frequency * length)
            have = (sum(w for x, w in zip(reel.symbols, reel.stop_weights) if x == s)
                    if change < 0 else cap)
            columns.append((s, change, d_s, d_h, d_length, min(cap, have)))
    if not columns:
        return None
    n = len(columns)
    t = float(target)
    s0, h0 = float(base.rtp * length), float(base.hit_frequency * length)
    miss = [col[2] - t * col[4] for col in columns]  # d(S - tL) per edit
    # variables x_0..x_{n-1} (integer counts of each edit) and e (the miss, continuous)
    rows = [np.append([col[4] for col in columns], 0.0)]  # the reel keeps >= 1 stop
    lower, upper = [1 - length], [np.inf]
    if hit is not None:
        lo, hi = float(hit[0]), float(hit[1])
        rows.append(np.append([col[3] - lo * col[4] for col in columns], 0.0))
        lower.append(lo * length - h0)
        upper.append(np.inf)
        rows.append(np.append([col[3] - hi * col[4] for col in columns], 0.0))
        lower.append(-np.inf)
        upper.append(hi * length - h0)
    rows += [np.append(miss, -1.0), np.append(miss, 1.0)]  # -e <= S - tL <= e
    lower += [-np.inf, t * length - s0]
    upper += [t * length - s0, np.inf]
    integrality = np.array([1] * n + [0])
    constraint = LinearConstraint(np.array(rows), lower, upper)
    options = {"time_limit": max(min(time_left, STEP_SECONDS), 0.1), "disp": False}
    # first the fewest edits that reach the tolerance (quick for HiGHS: a small objective
    # with a feasible point proves optimal at once); failing that, the smallest miss
    reach = float(tolerance) * length / 2
    res = milp(np.array([1.0] * n + [0.0]), constraints=constraint, integrality=integrality,
               bounds=Bounds([0] * n + [0], [col[5] for col in columns] + [reach]),
               options=options)
    if res.x is None:
        res = milp(np.array([PENALTY] * n + [1.0]), constraints=constraint,
                   integrality=integrality,
                   bounds=Bounds([0] * n + [0], [col[5] for col in columns] + [np.inf]),
                   options=options)
    if res.x is None:
        return None
    edits: dict[str, int] = {}
    for col, x in zip(columns, res.x[:n]):
        k = round(x)
        if k:
            edits[col[0]] = edits.get(col[0], 0) + col[1] * k
    return {s: k for s, k in edits.items() if k}, n + 1, len(rows)


def _apply(reel: Reel, edits: dict) -> Reel | None:
    for s, k in edits.items():
        for _ in range(abs(k)):
            reel = one_step(reel, s, 1 if k > 0 else -1)
            if reel is None:
                return None
    return reel


def tune(game: Game, target_rtp, reel_set: str = "base", *, hit_frequency=None,
         tolerance=Fraction(1, 100_000), symbols: Sequence[str] | None = None,
         max_change: int = 4, max_rounds: int = 20, time_limit: float = 60.0,
         level: int = 1, progress: Callable[[Step], None] | None = None) -> TuneResult:
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
    tolerance : Fraction
        How close the RTP must come (default 1e-5, i.e. 0.001 percentage points).
    symbols : sequence of str, optional
        The symbols whose counts may change; default every symbol but scatters and bonus
        symbols.
    max_change : int
        The most copies of one symbol a step adds or removes on one reel.
    max_rounds : int
        Rounds over the reels at most.
    time_limit : float
        Seconds; the solver stops after the step that passes it.
    level : int
    progress : callable, optional
        Hears every :class:`Step`.

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
    """
    started = time.monotonic()
    target = Fraction(str(target_rtp)) if not isinstance(target_rtp, Fraction) else target_rtp
    tolerance = Fraction(str(tolerance)) if not isinstance(tolerance, Fraction) else tolerance
    hit = None if hit_frequency is None else tuple(
        Fraction(str(v)) if not isinstance(v, Fraction) else v for v in hit_frequency)
    comp = check_tunable(game, level)
    if reel_set not in game.reel_sets:
        raise ValueError(f"{game.name} has no reel set {reel_set!r}; it has "
                         f"{sorted(game.reel_sets)}")
    if reel_set in {getattr(f, "reels", None) for f in comp.round.features}:
        raise ValueError(f"reel set {reel_set!r} is played by a round feature; tune the "
                         f"paid spin's reel set")
    if symbols is None:
        symbols = [s.name for s in game.symbols.values() if not (s.scatter or s.bonus)]
    unknown = [s for s in symbols if s not in game.symbols]
    if unknown:
        raise ValueError(f"{game.name} has no symbol {unknown[0]!r}")
    reels = list(game.reel_sets[reel_set].reels)
    current = ReelTables(game, reel_set, 0, level, comp).figures(reels[0])
    result = TuneResult(game, current, current)
    misses = _misses(current, target, tolerance, hit)
    for rnd in range(max_rounds):
        changed = False
        for j in range(len(reels)):
            if all(m == 0 for m in misses.values()):
                break
            left = time_limit - (time.monotonic() - started)
            if left <= 0:
                break
            t0 = time.monotonic()
            g = game.replace_reels(reel_set, tuple(reels))
            tables = ReelTables(g, reel_set, j, level, comp)
            cap = max_change
            while cap >= 1:
                solved = _program(tables, reels[j], current, symbols, target, tolerance, hit, cap,
                                  time_limit - (time.monotonic() - started))
                if solved is None:
                    break
                edits, n_vars, n_rows = solved
                new_reel = _apply(reels[j], edits) if edits else None
                new = tables.figures(new_reel) if new_reel is not None else current
                new_misses = _misses(new, target, tolerance, hit)
                kept = bool(edits) and new_reel is not None and _better(
                    new_misses, misses, new, current, target)
                step = Step(rnd, j, n_vars, n_rows, edits, current.rtp, new.rtp, kept,
                            time.monotonic() - t0)
                result.steps.append(step)
                if progress is not None:
                    progress(step)
                if kept:
                    reels[j], current, misses, changed = new_reel, new, new_misses, True
                    break
                if not edits:
                    break
                cap //= 2
        if not changed or all(m == 0 for m in misses.values()):
            break
        if time_limit - (time.monotonic() - started) <= 0:
            break
    result.game = game.replace_reels(reel_set, tuple(reels))
    result.figures, result.misses = current, misses
    result.seconds = time.monotonic() - started
    return result


def _percent(x: Fraction) -> str:
    return f"{float(x) * 100:.6f}%"


def step_line(step: Step) -> str:
    """One line about a solver step (the CLI's progress).

    Examples
    --------
    >>> print(step_line(Step(0, 1, 7, 3, {"A": 2}, Fraction(9, 10), Fraction(24, 25), True, 0.5)))
    round 1 reel 2: 7 variables, 3 constraints, edits {'A': 2}: RTP 90.000000% -> 96.000000% kept (0.50 s)
    """
    verdict = "kept" if step.kept else "not kept"
    return (f"round {step.round + 1} reel {step.reel + 1}: {step.variables} variables, "
            f"{step.constraints} constraints, edits {step.edits or '{}'}: RTP "
            f"{_percent(step.rtp_before)} -> {_percent(step.rtp_after)} {verdict} "
            f"({step.seconds:.2f} s)")


def summary_text(result: TuneResult, target: Fraction, hit=None) -> str:
    """The solver's result in a few lines: start and tuned figures, each target's miss."""
    rtp = result.figures.rtp
    hit_target = "" if hit is None else f" (target {_percent(hit[0])}..{_percent(hit[1])})"
    kept = sum(s.kept for s in result.steps)
    lines = [
        (f"RTP           {_percent(result.start.rtp)} -> {_percent(rtp)} "
         f"(exact {rtp.numerator}/{rtp.denominator}; target {_percent(target)})"),
        (f"hit frequency {_percent(result.start.hit_frequency)} -> "
         f"{_percent(Fraction(result.figures.hit_frequency))}{hit_target}"),
        f"SD            {result.start.sd:.4f} -> {result.figures.sd:.4f}",
        f"steps         {len(result.steps)} ({kept} kept) in {result.seconds:.1f} s",
    ]
    for name, miss in result.misses.items():
        state = "met" if miss == 0 else f"NOT met: misses by {float(miss) * 100:.6f} points"
        lines.append(f"{name:<13} {state}")
    return "\n".join(lines)
