"""Tuning the games the window tables do not cover: a coordinate search over integer symbol
counts, each step confirmed by the game's own exact analysis.

Which games
-----------
Cascades (a refill reads the strip beyond the window), games whose feature plays the whole
round (grid games with tumbles, the conveyor) and paid-spin modifiers: for them a spin is not
a sum over one reel's windows (:data:`slotmath.tune.reel_tables.WHY_NOT`), so the window
tables' linear steps do not apply. :func:`slotmath.tune.tune` hands them to :func:`search`.

Method
------
The candidate moves are one stop more or one fewer of one symbol on one reel of the tuned
reel set (:func:`slotmath.tune.sensitivity.step`: the strip editor's placement, then the
layout rules, :func:`slotmath.tune.layout.lay_out`; a stacked symbol moves a whole stack).
A step is one move, or two moves together (on one reel that is one stop changing symbol:
one fewer ``a`` and one more ``b``; on two reels, two stops):

1. **Rank** every candidate by an estimate of its RTP change, cheaply:

   * ``"exact"``: the game's exact analysis of each candidate (the default on a small reel
     set: at most :data:`EXACT_RANK_CYCLE` stop combinations); the estimate is the exact
     change, and a one-move step needs no further analysis;
   * ``"paired"`` (cascade games): :func:`slotmath.simulate.cascades.paired_rounds`, the
     current and the candidate strips played on the same draws round by round (the change's
     standard error far below two independent runs');
   * ``"crn"`` (the others): the game's own simulator (:func:`slotmath.simulate.simulate`)
     run on the current and the candidate game with the same seed (common random numbers:
     rounds that land alike pay alike until the two runs' draws part).

2. **Propose** the moves whose estimated changes bring the RTP closest to the target: every
   single move and every pair of moves (two different (reel, symbol) keys) is scored by
   ``|target - RTP - estimated change|`` (a pair pays :data:`PAIR_PENALTY` of the gap more,
   so one move is preferred where it does as well); the best few that are predicted to
   lower the RTP's miss are tried in that order.

3. **Confirm** each proposal by the edited game's exact analysis
   (:func:`slotmath.analyze`: a fraction where the analysis is exact, else its float with
   its stated error, which counts against the tolerance). It is kept when the targets are
   missed by less in all (the solver's own rule, :func:`slotmath.tune.solver._better`: the
   RTP, the hit frequency, the SD and the max win's "1 in N" ranges, by the exact figures).

After a kept step only the candidates on the reels that changed are ranked again (the other
estimates are kept as a first-order model); when every proposal of a ranking fails, the
stale estimates are refreshed once, and when a fresh ranking proposes nothing that helps the
search stops ("no move helps"). It also stops when every target is met or at the time limit
(checked before each estimate and each analysis; an analysis under way is finished).

GLI-11 (on by default): the start and the final game are checked by the compliance check
(:func:`slotmath.tune.awards.awards`, a fresh analysis at every bet level). With the
``"exact"`` ranking (small games) every kept step is checked too, and a step that pushes an
award that met the rule past it is not kept. Otherwise both checks run after the search (the
time limit is spent on moves; the wall time is the limit plus two or more checks), and when the final game pushes an award
that met the rule at the start past it, the kept steps are undone from the last until it
holds (one check each), and the summary says so. An award that misses the rule at the start
is reported as a miss (the search does not aim at it).

Deterministic: a fixed order of candidates, seeded estimates (``seed``), ties broken by the
order. Not offered here: a feature's "1 in N" range (the analyses of these games do not give
the paid spin's start probability in one place) and ``moves="weights"``.
"""

from __future__ import annotations

import itertools
import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from slotmath.model.game import Game, Reel
from slotmath.tune.awards import Awards, awards
from slotmath.tune.awards import one_in as award_one_in
from slotmath.tune.layout import LayoutError, lay_out
from slotmath.tune.reel_tables import Figures
from slotmath.tune.sensitivity import step as one_step
from slotmath.tune.solver import Step, Targets, TuneResult, _better, _layout, _misses

__all__ = ["EXACT_RANK_CYCLE", "Move", "SearchResult", "SearchStep", "search"]

#: a reel set with at most this many stop combinations is ranked by exact analyses
EXACT_RANK_CYCLE = 20_000
#: a pair of moves is proposed only when it beats one move by this share of the gap
PAIR_PENALTY = 0.05
#: proposals tried per ranking before the estimates are refreshed
TRIES = 4


@dataclass(frozen=True, order=True)
class Move:
    """One stop (a stack, for a stacked symbol) of ``symbol`` more (``change=+1``) or fewer
    (``-1``) on reel ``reel`` (0 = reel 1)."""

    reel: int
    symbol: str
    change: int

    @property
    def key(self) -> tuple[int, str]:
        return self.reel, self.symbol

    def __str__(self) -> str:
        return f"reel {self.reel + 1} {self.symbol} {self.change:+d}"


@dataclass(frozen=True)
class SearchStep(Step):
    """A search step: the solver's :class:`~slotmath.tune.solver.Step` (``variables``: the
    candidate moves ranked; ``constraints``: 0; ``edits``: move -> change) with the moves,
    their estimated RTP change and how it was estimated."""

    moves: tuple = ()
    estimate: float = 0.0
    rank: str = ""

    def line(self) -> str:
        """The CLI's progress line.

        Examples
        --------
        >>> s = SearchStep(2, 0, 40, 0, {"reel 1 A": 1}, Fraction(9, 10), Fraction(91, 100),
        ...                True, 1.5, moves=(Move(0, "A", 1),), estimate=0.011, rank="paired")
        >>> print(s.line())
        search step 3: reel 1 A +1 (estimated +1.100 points by paired, of 40 moves ranked): RTP 90.000000% -> 91.000000% kept (1.50 s)
        """
        verdict = "kept" if self.kept else "not kept"
        return (f"search step {self.round + 1}: {', '.join(str(m) for m in self.moves)} "
                f"(estimated {self.estimate * 100:+.3f} points by {self.rank}, of "
                f"{self.variables} moves ranked): RTP {float(self.rtp_before) * 100:.6f}% -> "
                f"{float(self.rtp_after) * 100:.6f}% {verdict}"
                f"{f' ({self.reason})' if self.reason else ''} ({self.seconds:.2f} s)")


@dataclass
class SearchResult(TuneResult):
    """The solver's :class:`~slotmath.tune.solver.TuneResult` with the search's counts:
    ``rank`` (how moves were ranked), ``analyses`` (exact analyses run, the GLI-11 checks
    not counted), ``estimates`` (candidate estimates made), ``checks`` (GLI-11 compliance
    checks), ``tried``/``kept`` (proposals confirmed / kept), ``stopped`` (why it stopped)
    and ``undone`` (kept steps undone for GLI-11); ``rtps``: proposals confirmed by the
    game's exact RTP alone (:func:`slotmath.rtp_only`: a game with base-game modifiers), not
    counted in ``analyses``."""

    method: str = ""
    rank: str = ""
    analyses: int = 0
    estimates: int = 0
    checks: int = 0
    tried: int = 0
    kept: int = 0
    stopped: str = ""
    undone: int = 0
    rtps: int = 0

    def search_lines(self) -> list[str]:
        """The summary's lines about the search (the method, its counts, why it stopped)."""
        return _search_lines(self)


def _rows(game: Game) -> int:
    rows = game.rows
    return max(rows) if isinstance(rows, tuple) else int(rows)


def figures_of(game: Game, level: int = 1) -> Figures:
    """The figures the solver compares, from ``game``'s own exact analysis: the RTP (exact,
    or the analysis' float with ``rtp_error``), the hit frequency, E[X^2] and the max win
    (:attr:`Analysis.top_award`); ``feature_probability`` is not read (0).

    Examples
    --------
    >>> import slotmath
    >>> g = slotmath.load_game("tests/data/grid/cluster_tiny.toml")
    >>> f = figures_of(g)
    >>> f.rtp == slotmath.analyze(g).rtp, f.rtp_kind
    (True, 'exact')
    """
    import slotmath

    return figures_from(slotmath.analyze(game, level))


def figures_from(a) -> Figures:
    """:func:`figures_of` from an analysis already made (:class:`slotmath.Analysis`)."""
    rtp = a.rtp
    exact = isinstance(rtp, Fraction)
    rtp = Fraction(rtp)
    top = a.top_award
    p = Fraction(top.probability)
    # a simulated analysis gives its top award's credits and multiple as floats
    credits, multiple = Fraction(top.credits), Fraction(top.multiple)
    per_bet = credits / multiple if multiple else Fraction(1)
    paid = (((credits, p.numerator),) if credits else (), p.denominator or 1, per_bet)
    return Figures(rtp, Fraction(a.hit_frequency), Fraction(a.variance) + rtp * rtp,
                   Fraction(0), paid, "exact" if exact else "analysis",
                   0.0 if exact else float(a.rtp_error))


def default_rank(game: Game, reel_set: str) -> str:
    """How :func:`search` ranks moves by default: ``"exact"`` on a reel set of at most
    :data:`EXACT_RANK_CYCLE` stop combinations, else ``"paired"`` for a cascade game and
    ``"crn"`` for the others.

    Examples
    --------
    >>> import slotmath
    >>> default_rank(slotmath.load_game("tests/data/cascades/tiny_lines.toml"), "base")
    'exact'
    >>> default_rank(slotmath.load_game("data/games/frozen_gems.toml"), "base")
    'paired'
    """
    if math.prod(len(r.symbols) for r in game.reel_sets[reel_set].reels) <= EXACT_RANK_CYCLE:
        return "exact"
    return "paired" if game.cascades is not None else "crn"


class _Estimator:
    """Estimates of the RTP change of candidate games against the current one."""

    def __init__(self, rank: str, rounds: int, seed: int, level: int, exact):
        self.rank, self.rounds, self.seed, self.level = rank, rounds, seed, level
        self.exact = exact  # game -> Figures (counted, cached)
        self.count = 0
        self._sim: dict = {}

    def _simulated(self, game: Game) -> float:
        from slotmath.simulate import simulate

        key = tuple(game.reel_sets.items())
        if key not in self._sim:
            self._sim[key] = simulate(game, self.rounds, self.seed, self.level).rtp
        return self._sim[key]

    def change(self, now: Game, now_rtp: Fraction, new: Game) -> float:
        self.count += 1
        if self.rank == "exact":
            return float(self.exact(new).rtp - now_rtp)
        if self.rank == "paired":
            from slotmath.simulate.cascades import paired_rounds

            return paired_rounds(now, new, self.rounds, self.seed, self.level).change
        return self._simulated(new) - self._simulated(now)


def search(game: Game, targets: Targets, reel_set: str = "base", *, layout=None,
           symbols: Sequence[str] | None = None, time_limit: float = 60.0, level: int = 1,
           progress: Callable[[Step], None] | None = None, rank: str | None = None,
           rounds: int | None = None, seed: int = 0, why: str = "",
           max_rounds: int | None = None) -> SearchResult:
    """Tune ``reel_set`` of ``game`` to ``targets`` by a search over single moves (see the
    module notes); what :func:`slotmath.tune.tune` does for a game the window tables do not
    cover.

    Parameters
    ----------
    game : Game
    targets : Targets
        The RTP and its tolerance, the ranges (no ``feature_one_in`` here), GLI-11's limit.
    reel_set : str
    layout : Layout or dict, optional
        As :func:`slotmath.tune.tune`: every candidate strip is laid out by the rules.
    symbols : sequence of str, optional
        The symbols whose counts may change; default every symbol but scatters and bonus
        symbols.
    time_limit : float
        Seconds; no estimate or analysis starts after it.
    rank : {"exact", "paired", "crn"}, optional
        How candidates are ranked (default :func:`default_rank`).
    rounds : int, optional
        Rounds per simulated estimate (default 200,000 paired, 100,000 common random
        numbers).
    seed : int
    why : str
        Why the window tables do not cover the game (the summary's method line).
    max_rounds : int, optional
        Steps (confirmations by the game's analysis) at most; default: until the time limit.

    Returns
    -------
    SearchResult

    Examples
    --------
    >>> import slotmath
    >>> from slotmath.tune.solver import Targets
    >>> g = slotmath.load_game("tests/data/grid/cluster_tiny.toml")
    >>> r = search(g, Targets(Fraction(2), Fraction(1, 10), gli11=None))
    >>> r.met, r.rank, abs(r.figures.rtp - 2) <= Fraction(1, 10), r.stopped
    (True, 'exact', True, 'every target met')
    >>> r.figures.rtp == slotmath.analyze(r.game).rtp
    True
    """
    started = time.monotonic()
    why = why.removesuffix("; not tuned yet")  # by window tables; here it is

    def left() -> float:
        return time_limit - (time.monotonic() - started)

    def at_limit() -> bool:  # the steps max_rounds allows are taken
        return max_rounds is not None and number >= max_rounds

    check_reel_set(game, reel_set)
    if targets.feature_one_in is not None:
        raise ValueError(f"{game.name}: a feature's '1 in N' range is not offered for games "
                         f"tuned by search ({why or 'not by window tables'})")
    rank = rank or default_rank(game, reel_set)
    if rank not in ("exact", "paired", "crn"):
        raise ValueError(f"rank must be 'exact', 'paired' or 'crn', got {rank!r}")
    if rank == "paired" and game.cascades is None:
        raise ValueError(f"{game.name}: paired simulation needs a cascade game ([cascades])")
    if rounds is None:
        rounds = 200_000 if rank == "paired" else 100_000
    if symbols is None:
        symbols = [s.name for s in game.symbols.values() if not (s.scatter or s.bonus)]
    unknown = [s for s in symbols if s not in game.symbols]
    if unknown:
        raise ValueError(f"{game.name} has no symbol {unknown[0]!r}")
    layout = _layout(layout)
    layout.check(game)
    height = _rows(game)
    start_reels = list(game.reel_sets[reel_set].reels)
    rules = [layout.for_reel(game, j) for j in range(len(start_reels))]
    reels = []
    for j, reel in enumerate(start_reels):
        try:
            reels.append(lay_out(reel, *rules[j]))
        except LayoutError as exc:
            raise ValueError(f"reel set {reel_set!r} reel {j + 1}: {exc}") from None

    cache: dict = {}
    count = {"analyses": 0, "checks": 0}

    def game_of(rs) -> Game:
        return game.replace_reels(reel_set, tuple(rs))

    def exact(g: Game) -> Figures:
        key = g.reel_sets[reel_set].reels
        if key not in cache:
            count["analyses"] += 1
            cache[key] = figures_of(g, level)
        return cache[key]

    def checked(g: Game) -> Awards | None:
        if targets.gli11 is None:
            return None
        count["checks"] += 1
        return awards(g, targets.gli11)

    def moved(reel: Reel, j: int, symbol: str, change: int) -> Reel | None:
        for _ in range(rules[j][1].get(symbol, 1) if reel.weights is None else 1):
            reel = one_step(reel, symbol, change)
            if reel is None:
                return None
        if len(reel.symbols) < height:
            return None
        try:
            return lay_out(reel, *rules[j])
        except LayoutError:
            return None

    start_game = game
    start = exact(start_game)
    laid = game_of(reels)
    each_step = rank == "exact" and targets.gli11 is not None
    # GLI-11 checked on every step: the start's awards now; else the start's and the final
    # game's after the search (each check is a full analysis: the time limit goes to moves)
    start_awards = checked(start_game) if each_step else None
    current, current_awards = start, start_awards
    if laid != start_game:
        current = exact(laid)
        current_awards = checked(laid) if each_step else None
    misses = _misses(current, targets, current_awards if each_step else None)
    estimator = _Estimator(rank, rounds, seed, level, exact)
    result = SearchResult(start_game, current, start, targets=targets, awards=current_awards,
                          start_awards=start_awards,
                          laid_out=None if laid == start_game else current,
                          method=f"search ({rank}); not by window tables: {why}" if why
                          else f"search ({rank})", rank=rank)
    history = [(list(reels), current, current_awards, misses)]
    # move -> (estimated RTP change, the candidate game, its edited reel)
    estimates: dict[Move, tuple[float, Game, Reel]] = {}
    stale: set[int] = set(range(len(reels)))
    fresh: set[int] = set()  # reels whose estimates are against the current game
    seen: set[tuple] = set()  # the strips every proposal confirmed so far made
    number = 0
    stopped = ""

    def rank_reels(which) -> bool:
        now = game_of(reels)
        for j in sorted(which):
            for key in [m for m in estimates if m.reel == j]:
                del estimates[key]
            for s in symbols:
                for change in (1, -1):
                    if left() <= 0:
                        return False
                    new_reel = moved(reels[j], j, s, change)
                    if new_reel is None or new_reel == reels[j]:
                        continue
                    new = list(reels)
                    new[j] = new_reel
                    try:  # the game's rules or its engine may refuse the strip (a random
                        # wild on it, too short a strip): not a candidate
                        g = game_of(new)
                        d = estimator.change(now, current.rtp, g)
                    except ValueError:
                        continue
                    estimates[Move(j, s, change)] = (d, g, new_reel)
            stale.discard(j)
            fresh.add(j)
        return True

    def proposals() -> list[tuple[float, tuple[Move, ...]]]:
        gap = float(targets.rtp - current.rtp)
        moves = sorted(estimates)
        out = [(abs(gap - estimates[m][0]), (m,)) for m in moves]
        for a, b in itertools.combinations(moves, 2):
            if a.key == b.key:
                continue
            miss = abs(gap - estimates[a][0] - estimates[b][0]) + PAIR_PENALTY * abs(gap)
            out.append((miss, (a, b)))
        out = [p for p in out if p[0] < abs(gap)]
        out.sort(key=lambda p: (p[0], len(p[1]), p[1]))
        return out[:TRIES]

    while not all(m == 0 for m in misses.values()):
        if left() <= 0:
            stopped = "time limit"
            break
        if at_limit():
            stopped = f"{max_rounds} rounds"
            break
        if stale and not rank_reels(stale):
            stopped = "time limit"
            break
        kept_one = False
        for _, moves in proposals():
            if left() <= 0 or at_limit():
                break
            t0 = time.monotonic()
            new = list(reels)
            for m in moves:  # each move on the strip as it stands after the previous ones
                new[m.reel] = (estimates[m][2] if new[m.reel] == reels[m.reel]
                               else moved(new[m.reel], m.reel, m.symbol, m.change))
            if tuple(new) in seen:  # confirmed before (and not kept): not again
                continue
            seen.add(tuple(new))
            reason = ""
            if any(r is None for r in new):
                reason = "layout: the moves cannot be laid out together"
                fig, new_awards = current, current_awards
            else:
                try:
                    g = game_of(new)
                    fig = exact(g)
                except ValueError as exc:
                    fig, reason = current, f"refused: {exc}"
                new_awards = current_awards
                if not reason and each_step:
                    new_awards = checked(g)
                    broken = sorted(new_awards.failing - current_awards.failing)
                    if broken:
                        reason = (f"GLI-11: {broken[0]} would be "
                                  f"{award_one_in(new_awards.rates[broken[0]])}")
            new_misses = _misses(fig, targets, new_awards if each_step else None)
            kept = not reason and _better(new_misses, misses, fig, current, targets)
            number += 1
            result.tried += 1
            edits = {str(m)[:-3]: m.change for m in moves}
            st = SearchStep(number - 1, moves[0].reel, len(estimates), 0, edits, current.rtp,
                            fig.rtp, kept, time.monotonic() - t0, reason, moves=moves,
                            estimate=sum(estimates[m][0] for m in moves), rank=rank)
            result.steps.append(st)
            if progress is not None:
                progress(st)
            if kept:
                changed = {m.reel for m in moves}
                reels, current, current_awards, misses = new, fig, new_awards, new_misses
                history.append((list(reels), current, current_awards, misses))
                result.kept += 1
                # the changed reels are ranked again; the others' estimates are kept (each
                # an estimate against the game before this step: a first-order model), or
                # all of them with exact ranking (then they are exact again)
                fresh.clear()
                stale |= set(range(len(reels))) if rank == "exact" else changed
                kept_one = True
                break
        if kept_one:
            continue
        if left() <= 0:
            stopped = "time limit"
            break
        if at_limit():
            stopped = f"{max_rounds} rounds"
            break
        if len(fresh) == len(reels) or not estimates:
            stopped = "no move helps"
            break
        stale |= set(range(len(reels))) - fresh  # refresh the old estimates before giving up
    else:
        stopped = "every target met"

    # GLI-11 on the final game by the compliance check; undo steps while it breaks an award
    # that met the rule at the start
    if targets.gli11 is not None and not each_step:
        start_awards = result.start_awards = checked(start_game)
        final = checked(game_of(reels)) if game_of(reels) != start_game else start_awards
        while len(history) > 1 and (final.failing - start_awards.failing):
            history.pop()
            result.undone += 1
            reels, current, _, _ = history[-1]
            final = checked(game_of(reels)) if game_of(reels) != start_game else start_awards
        current_awards = final
    misses = _misses(current, targets, current_awards)
    result.game = game_of(reels)
    result.figures, result.misses, result.awards = current, misses, current_awards
    result.analyses, result.checks = count["analyses"], count["checks"]
    result.estimates = estimator.count
    result.stopped = stopped
    result.seconds = time.monotonic() - started
    return result


def _search_lines(result: SearchResult) -> list[str]:
    out = [f"method        {result.method}",
           (f"search        {result.tried} proposals tried, {result.kept} kept; "
            f"{result.analyses} exact analyses, "
            + (f"{result.rtps} exact RTPs alone, " if result.rtps else "")
            + f"{result.estimates} estimates ({result.rank}), "
            f"{result.checks} GLI-11 checks; stopped: {result.stopped}")]
    if result.undone:
        out.append(f"GLI-11 undo   {result.undone} kept step(s) undone: the final game pushed "
                   f"an award past the rule")
    return out


def check_reel_set(game, reel_set: str) -> None:
    """Refuse, in one line, a reel set ``game`` lacks."""
    if reel_set not in game.reel_sets:
        raise ValueError(f"{game.name} has no reel set {reel_set!r}; it has "
                         f"{sorted(game.reel_sets)}")


def rtp_only_request(game, reel_set: str, targets, how: str, offered=()) -> None:
    """Refuse, in one line each, a reel set the game lacks and any target but the RTP and
    the ranges ``offered`` (``how`` says why in the message, which names the path that does
    offer the range: common random numbers on a grid game (hit frequency, SD, a feature's
    "1 in N"), else the search)."""
    check_reel_set(game, reel_set)
    for name in ("hit_frequency", "sd", "feature_one_in", "max_win_one_in"):
        if getattr(targets, name) is not None and name not in offered:
            if game.grid is not None and name != "max_win_one_in":
                other = ("; --method crn offers it (paired runs of the game itself, the "
                         "result by its analysis)")
            elif name not in ("feature_one_in",) and game.grid is None:
                other = "; --method search offers it (each step by the game's analysis)"
            else:
                other = ""
            raise ValueError(f"{game.name}: a {name} range is not offered when tuning by "
                             f"{how}{other}")
