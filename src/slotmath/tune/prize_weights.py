"""The inverse solver's prize-weight moves: a bonus wheel's division weights
(``moves="wheel"``) or hold & win's cash-value weights (``moves="values"``).

Method
------
Let ``w_i`` be the weights (``W`` their total, held fixed) and ``p_i = w_i / W`` the
division's (or value's) probability. Every prize drawn from the law is drawn independently
of the rest of the round (a wheel spin's division, a cash symbol's value), and how many are
drawn does not depend on them, so the round's mean is ``E[X] = A + B sum p_i v_i``: **linear
in** ``p``. Hence, exactly,

    RTP(w) = sum_i w_i c_i / W,   c_i = the RTP of the game whose law always draws i

(the game with all the weight on ``i``: a "degenerate" law, whose round is small and quick to
compose). The ``c_i`` are computed once (one composition each, sharing the paid spin's window
tables, which do not depend on the weights), and each step is one exact mixed-integer program
(:func:`scipy.optimize.milp`) over integer changes ``d_i = a_i - r_i`` with ``sum d_i = 0``
(the total fixed) and ``w_i + d_i >= min_weight``:

    |W (RTP(w) - t) + sum_i d_i (c_i - RTP(w))| <= e,  e <= tolerance x W / 2,

minimising the weight moved ``sum (a_i + r_i)`` (failing that, the smallest misses and then,
among the programs that miss by that much, the least weight moved: two programs). The total is held
fixed because the law depends only on ``p``: with ``W`` fixed the figures are linear in the
integers ``w_i``; with ``W`` free they would be a ratio. The RTP then moves on a grid of
``(c_i - c_k) / W``; ``weight_scale`` multiplies every weight by a whole number first (the
same law, a finer grid).

What is not linear in ``p``
---------------------------
* E[X^2] (the SD): two prizes of one round multiply, so it is quadratic in ``p``. The hit
  frequency: constant when every prize is positive (a drawn prize always wins), else not
  linear. The max win's odds: the paid spin's wheel prize (linear for one wheel spin per
  paid spin). The feature's odds: independent of the weights. For each range given, the
  program has a **first-order** row: ``F(w + d) ~ F(w) + sum d_i g_i / W`` with
  ``g_i = (W + 1)(F(w + e_i) - F(w))`` (one more unit on ``i``; exact when ``F`` is linear
  in ``p``), one composition per weight per step.
* A max-win cap and progressive jackpots (Gold Money Frog): the cap acts on the round's law,
  the pools' renewal on the analysis; the program's RTP row is the window tables' round (as
  above, exact before the cap and the jackpots) shifted to the checked RTP of the current
  weights (a first-order guide).
* GLI-11's awards: every step's awards are the full compliance check's, and a step that
  pushes an award that met the rule past it is not kept. The award it broke then gets a row
  in every later program (cutting planes: ``rate x limit >= 1``, first-order in the same way,
  exact where the rate is linear in ``p``; one compliance check per weight per step while
  rows are held) and the step is tried again; a step rejected again is tried with the
  largest change halved.

The time limit counts from the call; the first step is taken however long the set-up (the
start's composition and compliance check, the degenerate laws) took, and the solver stops
after the step that passes the limit.

Whatever the model, **every step is checked** by the edited game's own figures
(:meth:`ReelTables.checked`: exact fractions where the analysis is exact) and kept only when
it lowers the targets' misses (:func:`slotmath.tune.solver._better`). ``hold`` names
divisions or values whose weights stay (a named jackpot's, say): their changes are bounded at
0, and their degenerate laws still count in the RTP's row. A value booster that
steps held values up the ladder (``[hold_and_win.boosters.values]``) is refused in one line.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction

import numpy as np
from scipy.optimize import Bounds, LinearConstraint, milp

from slotmath.model.edit import with_wheel_weights
from slotmath.model.game import Game
from slotmath.tune.reel_tables import Figures, ReelTables, check_tunable, started

__all__ = ["KINDS", "PrizeWeights", "prize_weights", "with_prize_weights"]

#: the prize-weight moves and the game-file key each one writes
KINDS = {"wheel": ("bonus_wheel", "weights"), "values": ("hold_and_win", "value_weights")}


@dataclass(frozen=True)
class PrizeWeights:
    """The weights ``moves`` changes: ``kind`` ("wheel" or "values"), one ``label`` and one
    ``prize`` (total bets) per division or value, and the ``weights``."""

    kind: str
    labels: tuple[str, ...]
    prizes: tuple[Fraction, ...]
    weights: tuple[int, ...]

    @property
    def total(self) -> int:
        return sum(self.weights)

    def indices(self, names) -> set[int]:
        """The divisions or values ``names`` designate, each by its label (``"MAJOR=200"``,
        ``"#3=20"``) or the label's part before ``=`` (``"MAJOR"``, ``"#3"``); ``ValueError``
        (one line, with the labels) for a name that designates none.

        Examples
        --------
        >>> import slotmath
        >>> pw = prize_weights(slotmath.load_game("data/games/golden_link.toml"), "values")
        >>> sorted(pw.indices(["MAJOR", "MINI=20"]))
        [5, 7]
        >>> pw.indices(["GRAND"])
        Traceback (most recent call last):
        ...
        ValueError: no value is called 'GRAND' (the values: 1, 2, 3, 5, 10, MINI=20, MINOR=50, MAJOR=200)
        """
        out = set()
        for name in names:
            found = [i for i, label in enumerate(self.labels)
                     if name in (label, label.split("=")[0])]
            if not found:
                what = "division" if self.kind == "wheel" else "value"
                raise ValueError(f"no {what} is called {name!r} (the {what}s: "
                                 f"{', '.join(self.labels)})")
            out.update(found)
        return out


def prize_weights(game: Game, kind: str) -> PrizeWeights:
    """The bonus wheel's coin divisions (``"wheel"``) or hold & win's cash values
    (``"values"``) of ``game``; ``ValueError`` (one line) when the game has none, or its law
    in them is one the solver does not model (a value booster).

    Examples
    --------
    >>> import slotmath
    >>> pw = prize_weights(slotmath.load_game("data/games/golden_link.toml"), "values")
    >>> pw.labels[:2], pw.labels[-1], pw.weights
    (('1', '2'), 'MAJOR=200', (400, 300, 150, 80, 40, 12, 4, 1))
    >>> prize_weights(slotmath.load_game("data/games/tiny_lines.toml"), "wheel")
    Traceback (most recent call last):
    ...
    ValueError: Tiny Lines has no bonus wheel ([bonus_wheel]) for moves 'wheel' to change
    """
    if kind == "wheel":
        wheel = game.bonus_wheel
        if wheel is None:
            raise ValueError(f"{game.name} has no bonus wheel ([bonus_wheel]) for moves "
                             f"'wheel' to change")
        named = len(wheel.labels) == len(wheel.prizes)
        labels = tuple(f"{wheel.labels[i]}" if named else f"#{i + 1}={_num(p)}"
                       for i, p in enumerate(wheel.prizes))
        return PrizeWeights(kind, labels, tuple(wheel.prizes), tuple(wheel.weights))
    if kind == "values":
        spec = game.hold_and_win
        if spec is None:
            raise ValueError(f"{game.name} has no hold & win ([hold_and_win]) for moves "
                             f"'values' to change")
        if spec.booster("values") is not None:
            raise ValueError(f"{game.name}: its values booster steps the held values up the "
                             f"ladder; value weights are not tuned with a values booster")
        names = {v: n for n, v in spec.named_values}
        labels = tuple(f"{names[v]}={_num(v)}" if v in names else _num(v)
                       for v in spec.values)
        return PrizeWeights(kind, labels, tuple(spec.values), tuple(spec.value_weights))
    raise ValueError(f"moves must be one of {sorted(KINDS)}, got {kind!r}")


def _num(x: Fraction) -> str:
    x = Fraction(x)
    return str(x.numerator) if x.denominator == 1 else f"{float(x):g}"


def with_prize_weights(game: Game, kind: str, weights) -> Game:
    """``game`` with the wheel's (``"wheel"``) or the cash values' (``"values"``) weights
    replaced by ``weights`` (whole numbers, one per division or value).

    Examples
    --------
    >>> import slotmath
    >>> g = slotmath.load_game("data/games/golden_link.toml")
    >>> with_prize_weights(g, "values", [1, 0, 0, 0, 0, 0, 0, 0]).hold_and_win.mean_value
    Fraction(1, 1)
    """
    weights = tuple(int(w) for w in weights)
    if kind == "wheel":
        return with_wheel_weights(game, weights)
    spec = game.hold_and_win
    return replace(game, hold_and_win=replace(spec, value_weights=weights))


class _Evaluator:
    """The round's exact figures at a weight vector, composed on the paid spin's window
    tables of the start game (they do not depend on the weights): one composition per
    weight vector, remembered."""

    def __init__(self, game: Game, kind: str, level: int):
        self.game, self.kind, self.level = game, kind, level
        self.comp = check_tunable(game, level)
        self.paid = self.comp.paid_reels
        self.reel = game.reel_sets[self.paid].reels[0]
        self.tables = ReelTables(game, self.paid, 0, level, self.comp)
        self.tables.table(self.reel)  # the own strip's windows, once
        self._laws: dict = {}

    def _rt(self, weights) -> ReelTables:
        g = with_prize_weights(self.game, self.kind, weights)
        rt = ReelTables(g, self.paid, 0, self.level)
        rt._tables = self.tables._tables  # the same windows: shared, not recomputed
        rt.__dict__["_own"] = self.tables._own
        return rt

    def law(self, weights):
        """The round's exact law (before jackpots and a cap) at ``weights`` (remembered by the
        probabilities: weights and their multiples share one law)."""
        common = math.gcd(*weights) or 1
        key = tuple(w // common for w in weights)
        if key not in self._laws:
            if len(self._laws) > 256:
                self._laws.clear()
            self._laws[key] = self._rt(key).round_law(self.reel)
        return self._laws[key]

    def row_figures(self, weights, top: int) -> dict:
        """The program's figures of the round law at ``weights``: ``S`` (mean), ``H`` (hit
        frequency), ``M`` (E[X^2]), ``P`` (feature probability), ``W`` (P(the paid spin wins
        ``top`` credits))."""
        law = self.law(weights)
        paid = law.base.credits_weights()
        return {"S": Fraction(law.mean), "H": Fraction(law.hit_frequency),
                "M": Fraction(law.second_moment), "P": started(law),
                "W": Fraction(paid.get(top, 0), law.base.cycle)}

    def checked(self, weights) -> Figures:
        """The round's figures at ``weights``, the RTP by the edited game's analysis where
        the window tables do not compose it whole (jackpots, a cap)."""
        rt = self._rt(tuple(weights))
        if rt.guided:  # the analysis' RTP (jackpots, a cap)
            return rt.checked(self.reel)
        return rt._figures(None, self.reel, self.law(weights))

    def game_at(self, weights) -> Game:
        return with_prize_weights(self.game, self.kind, weights)


#: seconds one program may take at most (a safety net: the node limit comes first)
STEP_SECONDS = 30.0
#: branch-and-bound nodes one program may take at most (then HiGHS's best point: the same
#: point on every run, unlike a time limit)
NODE_LIMIT = 20_000


def _program(weights, free, cap: int, min_weight: int, rtp_now: Fraction, means: list,
             mean_now: Fraction, targets, ranges: list, time_left: float,
             floors: list = ()):
    """(changes d_i, variables, constraints) of one step, or None when HiGHS finds none.

    ``means``: the exact round mean ``c_i`` of each degenerate law; ``ranges``: (figure now,
    its gradient ``g_i``, lo, hi) for each range target, in figure units; a weight not
    ``free`` (0 at the start) does not move; ``floors``: hard rows ``sum d_i g_i >= lower``
    (GLI-11's awards, :func:`_award_rows`)."""
    n = len(weights)
    total = sum(weights)
    t = float(targets.rtp)
    a = [float(c - mean_now) for c in means]  # d(W RTP) per unit moved onto i
    r = len(ranges)
    width = 2 * n + 1 + r  # add_i, remove_i, e, u_k

    def row(coefficients, e=0.0, k=None, u=0.0):
        out = np.zeros(width)
        out[:n] = coefficients
        out[n:2 * n] = [-x for x in coefficients]
        out[2 * n] = e
        if k is not None:
            out[2 * n + 1 + k] = u
        return out

    rows, lower, upper = [row([1.0] * n)], [0.0], [0.0]  # the total is held
    miss0 = float(total * (rtp_now - targets.rtp))
    rows += [row(a, e=-1.0), row(a, e=1.0)]  # -e <= W (RTP - t) <= e
    lower += [-np.inf, -miss0]
    upper += [-miss0, np.inf]
    for k, (now, grad, lo, hi) in enumerate(ranges):
        g = [float(x) for x in grad]
        rows.append(row(g, k=k, u=1.0))
        lower.append(float(total * (lo - now)))
        upper.append(np.inf)
        rows.append(row(g, k=k, u=-1.0))
        lower.append(-np.inf)
        upper.append(float(total * (hi - now)))
    for coefficients, least in floors:
        rows.append(row([float(x) for x in coefficients]))
        lower.append(float(least))
        upper.append(np.inf)
    constraint = LinearConstraint(np.array(rows), lower, upper)
    integrality = np.array([1] * (2 * n) + [0] * (1 + r))
    top = ([float(min(cap, total)) if f else 0.0 for f in free]
           + [float(min(cap, max(w - min_weight, 0))) if f else 0.0
              for w, f in zip(weights, free)])
    # a node limit (deterministic) bounds the search; the time limit is a safety net only
    options = {"time_limit": max(min(time_left, STEP_SECONDS), 0.1), "disp": False,
               "node_limit": NODE_LIMIT}
    reach = float(targets.tolerance) * total / 2
    res = milp(np.concatenate([np.ones(2 * n), np.zeros(1 + r)]), constraints=constraint,
               integrality=integrality, options=options,
               bounds=Bounds(np.zeros(width), top + [reach] + [0.0] * r))
    if res.x is None:
        # none meets every target: the smallest misses (each relative to its target), then
        # the least weight moved among the programs that miss by that much (two programs,
        # lexicographic: a penalty in one objective would trade a miss for weight moved)
        scale = [1.0 / max(t * total, 1e-12)] + [1.0 / max(float(hi) * total, 1e-12)
                                                  for _, _, _, hi in ranges]
        misses = np.concatenate([np.zeros(2 * n), scale])
        bounds = Bounds(np.zeros(width), top + [np.inf] * (1 + r))
        res = milp(misses, constraints=constraint, integrality=integrality, options=options,
                   bounds=bounds)
        if res.x is None:
            return None
        best = LinearConstraint(misses, -np.inf, res.fun * (1 + 1e-9) + 1e-12)
        least = milp(np.concatenate([np.ones(2 * n), np.zeros(1 + r)]),
                     constraints=[constraint, best], integrality=integrality,
                     options=options, bounds=bounds)
        if least.x is not None:
            res = least
        rows.append(misses)
    d = [round(res.x[i]) - round(res.x[n + i]) for i in range(n)]
    if sum(d) != 0:  # HiGHS's integers must keep the total (never a silent change of W)
        raise RuntimeError(f"the program's changes {d} do not keep the weights' total")
    return d, width, len(rows)


def tune_prize_weights(game: Game, targets, kind: str, *, level: int = 1,
                       weight_scale: int = 1, min_weight: int = 1, max_rounds: int = 20,
                       time_limit: float = 60.0, started_at: float | None = None,
                       progress: Callable | None = None, hold: Sequence[str] = ()):
    """The solver's loop for ``moves="wheel"`` / ``"values"`` (see the module notes); called
    by :func:`slotmath.tune.solver.tune`, which builds ``targets`` and documents the rest.

    Examples
    --------
    A wheel of prizes 1, 4 and 20 bets (weights 6:3:1) on a toy whose RTP is 11/75, tuned to
    20 % with the total 10 held:

    >>> from slotmath.io.toml_loader import loads_game
    >>> from slotmath.tune import tune
    >>> g = loads_game('''
    ... name = "Wheel"
    ... rows = 1
    ... bet = 1
    ... paylines = [[0, 0, 0]]
    ... [symbols]
    ... A  = { pays = { 3 = 5 } }
    ... BN = { bonus = true }
    ... X  = {}
    ... [reels]
    ... base = [["A", "BN", "X", "X"], ["BN", "A", "X"], ["A", "X", "BN", "X", "X"]]
    ... [bonus_wheel]
    ... symbol = "BN"
    ... count = 3
    ... prizes = [1, 4, 20]
    ... weights = [6, 3, 1]
    ... ''')
    >>> r = tune(g, "0.2", moves="wheel")
    >>> r.figures.rtp, r.game.bonus_wheel.weights, r.steps[0].edits
    (Fraction(1, 5), (6, 1, 3), {'#2=4': -2, '#3=20': 2})
    """
    from slotmath.tune.awards import awards
    from slotmath.tune.awards import one_in as award_one_in
    from slotmath.tune.solver import Step, TuneResult, _better, _misses

    t_start = time.monotonic() if started_at is None else started_at
    pw = prize_weights(game, kind)
    if not isinstance(weight_scale, int) or weight_scale < 1:
        raise ValueError(f"weight_scale must be a whole number >= 1, got {weight_scale!r}")
    if not isinstance(min_weight, int) or min_weight < 0:
        raise ValueError(f"min_weight must be a whole number >= 0, got {min_weight!r}")
    low = [i for i, w in enumerate(pw.weights) if 0 < w * weight_scale < min_weight]
    if low:
        raise ValueError(f"{game.name}: {kind} weight of {pw.labels[low[0]]} is "
                         f"{pw.weights[low[0]] * weight_scale}, below min_weight {min_weight}")
    ev = _Evaluator(game, kind, level)
    weights = [w * weight_scale for w in pw.weights]
    # a division or value with weight 0 stays at 0 (it is off the wheel or the ladder); one
    # held (``hold``: a named jackpot's weight, say) keeps its weight
    held = pw.indices(hold)
    positive = [w > 0 for w in weights]
    free = [p and i not in held for i, p in enumerate(positive)]
    start = ev.checked(pw.weights)
    gli = targets.gli11

    def checked_awards(ws):
        return None if gli is None else awards(ev.game_at(ws), gli)

    start_awards = checked_awards(pw.weights)
    # scaled weights: the same law (its figures and awards are the start's)
    current, current_awards = start, start_awards
    result = TuneResult(game, current, start, targets=targets, awards=current_awards,
                        start_awards=start_awards)
    misses = _misses(current, targets, current_awards)
    n = len(weights)
    total = sum(weights)
    means = []
    for i in range(n):  # the degenerate laws: all the weight on i
        e = [0] * n
        e[i] = 1
        means.append(ev.row_figures(e, 0)["S"] if positive[i] else Fraction(0))
    step_round = 0
    cap = total
    watched: set = set()  # GLI-11 awards a step has pushed past the limit: rows from now on
    floors_at: dict = {}
    while step_round < max_rounds and any(m != 0 for m in misses.values()):
        left = time_limit - (time.monotonic() - t_start)
        if left <= 0 and result.steps:  # the first step is taken whatever the set-up cost
            break
        left = max(left, STEP_SECONDS)
        t0 = time.monotonic()
        mean_now = sum((w * c for w, c in zip(weights, means)), Fraction(0)) / total
        ranges = _range_rows(ev, weights, targets, current, free)
        floors = []
        if watched and current_awards is not None:
            key = (tuple(weights), frozenset(watched))
            if key not in floors_at:
                floors_at.clear()
                floors_at[key] = _award_rows(weights, sorted(watched), current_awards, free,
                                             checked_awards)
            floors = floors_at[key]
        solved = _program(weights, free, cap, min_weight, current.rtp, means, mean_now,
                          targets, ranges, left, floors)
        if solved is None:
            break
        d, n_vars, n_rows = solved
        new_weights = [w + x for w, x in zip(weights, d)]
        edits = {pw.labels[i]: x for i, x in enumerate(d) if x}
        reason = ""
        new, new_awards = current, current_awards
        if edits:
            new = ev.checked(new_weights)
            new_awards = checked_awards(new_weights)
            broken = []
            if new_awards is not None:
                broken = sorted(new_awards.failing - current_awards.failing)
                if broken:
                    reason = (f"GLI-11: {broken[0]} would be "
                              f"{award_one_in(new_awards.rates[broken[0]])}")
        new_misses = _misses(new, targets, new_awards)
        kept = bool(edits) and not reason and _better(new_misses, misses, new, current,
                                                      targets)
        step = Step(step_round, -1, n_vars, n_rows, edits, current.rtp, new.rtp, kept,
                    time.monotonic() - t0, reason, part=kind)
        result.steps.append(step)
        if progress is not None:
            progress(step)
        step_round += 1
        if kept:
            weights, current, current_awards, misses = new_weights, new, new_awards, new_misses
            cap = total
            continue
        if edits and set(broken) - watched:  # again, with rows for the awards it broke
            watched |= set(broken)
            continue
        biggest = max((abs(x) for x in d), default=0)
        if not edits or biggest <= 1:
            break
        cap = biggest // 2
    result.game = ev.game_at(weights)
    result.figures, result.misses, result.awards = current, misses, current_awards
    result.seconds = time.monotonic() - t_start
    return result


def _one_more(weights, free, figure) -> list:
    """``figure`` of the weights with one more unit on each free weight (None where not
    free): the first-order rows' one composition or check per weight."""
    out = []
    for i, w in enumerate(weights):
        up = list(weights)
        up[i] = w + 1
        out.append(figure(up) if free[i] else None)
    return out


def _award_rows(weights, keys, now, free, checked_awards) -> list:
    """GLI-11's rows for the awards ``keys``: ``rate x limit >= 1`` after the step, first-order
    (exact where the rate is linear in the probabilities, e.g. the paid spin's top prize with
    one wheel spin), ``sum d_i g_i >= W (1 - rate x limit)`` with ``g_i = (W + 1)(rate(w +
    e_i) - rate(w)) x limit``: one full compliance check per weight."""
    total, limit = sum(weights), now.limit
    ups = _one_more(weights, free, lambda up: checked_awards(up).rates)
    out = []
    for k in keys:
        r0 = Fraction(now.rates.get(k, 0))
        grad = [0 if u is None else (total + 1) * (Fraction(u.get(k, 0)) - r0) * limit
                for u in ups]
        out.append((grad, total * (1 - r0 * limit)))
    return out


def _range_rows(ev: _Evaluator, weights, targets, current: Figures, free) -> list:
    """(figure now, gradient g_i, lo, hi) of each range target: the first-order rows (one
    composition per weight, at one more unit on it; exact where the figure is linear in the
    probabilities)."""
    wanted = []
    if targets.hit_frequency is not None:
        wanted.append(("H", *targets.hit_frequency))
    if targets.sd is not None:  # E[X^2] with the RTP at its target
        lo, hi = targets.sd
        wanted.append(("M", lo**2 + targets.rtp**2, hi**2 + targets.rtp**2))
    if targets.feature_one_in is not None:
        lo, hi = targets.feature_one_in
        wanted.append(("P", Fraction(1) / hi, Fraction(1) / lo if lo else Fraction(1)))
    if targets.max_win_one_in is not None and current.top_credits:
        lo, hi = targets.max_win_one_in
        wanted.append(("W", Fraction(1) / hi, Fraction(1) / lo if lo else Fraction(1)))
    if not wanted:
        return []
    total = sum(weights)
    top = current.top_credits
    now = ev.row_figures(weights, top)
    ups = _one_more(weights, free, lambda up: ev.row_figures(up, top))
    out = []
    for key, lo, hi in wanted:
        grad = [0 if u is None else (total + 1) * (u[key] - now[key]) for u in ups]
        out.append((now[key], grad, Fraction(lo), Fraction(hi)))
    return out
