"""Tuning a game the window tables do not cover through an exact proxy: the same strips in a
game without the sections that stop the window tables, tuned by the window-table solver,
each result confirmed by the real game's own analysis.

Which games
-----------
Games whose paid spin is a lines or ways spin and whose analysis is a full analysis
(exact, or a numerical chain with its stated error) but slow per candidate: cascades with
frozen bonus symbols and carried free spins (Frozen Gems), the bauble conveyor with random
wilds (Jingle Spin), paid-spin modifiers with hold & win (Gus's Gold Christmas). And ways grid
games (Megaways Bonanza) through their paid spin without tumbles and free spins, which has an
exact programme of its own (:mod:`slotmath.exact.grid_ways`; see "Grid proxies" below). Other
grid games (clusters, pay anywhere) have no proxy; see :mod:`slotmath.tune.crn`.

Method
------
1. **The proxy** (:func:`proxy_game`): the game with its :data:`DROPPED` sections removed
   (cascades, frozen bonus symbols, the conveyor and its random wilds, paid-spin modifiers),
   and whatever the model's rules then refuse (Frozen Gems' free spins, whose retrigger
   awards only the cascade engine honours). What is left is a lines or ways game the window
   tables cover (:func:`slotmath.tune.reel_tables.check_tunable`): its RTP is the real
   game's first drop, or its paid spin without modifiers and hold & win (Gus's), exactly,
   and exactly linear in one reel's counts on a one-row reel (first-order on three rows).
   (Hold & win is dropped too: the window tables cover it, but slowly; see :data:`DROPPED`.)
2. **A secant on the proxy's target.** The real RTP ``R`` and the proxy's ``p`` move together
   but not one for one (a cascade pays the first drop's symbols again, multiplied; the
   modifiers' uplift grows with the pays). The first slope is the ratio ``R0 / p0`` (the
   features scale with the pays); then each confirmed point gives the secant
   ``(R_k - R_{k-1}) / (p_k - p_{k-1})`` (kept when it is positive; else the last slope).
   Each round asks for the proxy target ``p + (T - R) / slope``: with ``moves="counts"``
   the window-table solver (:func:`slotmath.tune.solver.tune`, exact mixed-integer steps
   per reel, starting from the current strips, within ``tolerance / slope / 2``); with
   ``moves="swaps"`` (the default for cascades) the one-stop swap (one stop of one reel
   turns from ``a`` into ``b``: every strip keeps its length and every other stop its
   place) whose exact proxy change, from that reel's window tables of the proxy, times the
   slope comes closest to the gap. A round not kept halves the next move (down to
   :data:`MIN_DAMPING`).
3. **Confirm** the proxy's strips by the real game's analysis (:func:`slotmath.analyze`:
   a fraction where it is exact; the analysis' float with its stated error otherwise, which
   counts against the tolerance). A point is kept when the targets are missed by less (the
   solver's rule, :func:`slotmath.tune.solver._better`); one that is not kept still gives
   the secant its slope, and the next round starts again from the kept strips.

Ranges
------
A hit-frequency, SD or feature range (:data:`RANGES`) is steered like the RTP, each by its
own figure of the proxy and its own slope (first the game's figure over the proxy's, then
each confirmed point's secant, kept when positive and held within :data:`SLOPE_SPAN` of the
first, as the RTP's is with a range): with swaps (the default with a range), the swap whose
foreseen misses (each figure's proxy change times its slope, over the damping, scored as
:func:`slotmath.tune.solver._score`; the RTP's distance from the target decides a tie) are
least, and only if less than the kept point's; with counts, the window-table solver is given
each range mapped to the proxy's (``proxy + (end - real) * damping / slope`` at either end).
The feature's proxy figure is the chance its strips show the trigger count
(:func:`trigger_of`: one free spins or hold & win feature started by a count of its symbol),
the game's is read off its analysis' round law; a feature range moves by swaps over every
symbol with the default layout rules held. Every round is then confirmed by the game's whole
analysis (not the modifiers' means, which give the RTP alone). The max win's "1 in N" is not
the proxy's (its round features and modifiers are dropped) and is refused, as are ranges on a
grid proxy (common random numbers offer them).

Grid proxies
------------
A ways grid game without multiplier symbols has as its proxy the game without
:data:`GRID_DROPPED` (tumbles, free spins, the max-win cap): one paid spin, whose mean
:class:`slotmath.exact.grid_ways.SpinMean` gives exactly, each reel's sums kept per strip so
a one-stop swap costs its own reel (milliseconds). The moves are swaps (the window tables do
not cover a grid); a round makes up to ``per_round`` of them, each the one whose exact proxy
change comes closest to what is left of the round's proxy move, re-ranked after each. The
first slope is not ``R0 / p0``: the start analysis' free-spin share plays other reels and
does not move with the paid strips, so it is ``(R0 - free spins) / p0`` (on Megaways
Bonanza: 0.960 of RTP, 0.163 of it the first drop, 0.34 the free spins). The confirmations
are the game's own seeded analysis; on a simulated one (its ``[analysis]`` rounds, or
``rounds``, same seed) the stated error counts against the tolerance, and a secant is taken
only when its RTP change exceeds twice the two points' stated errors together (else the
last slope is kept: a secant between two noisy points is mostly noise).

Stops when the targets are met, at the time limit (checked before each proxy solve and each
analysis; one under way finishes), after ``max_rounds`` rounds, or when the proxy solver
returns strips already confirmed too often ("no move helps"). GLI-11 (on by default) as in
:func:`slotmath.tune.search.search` for the simulated rankings: the start and the final game
by the compliance check after the rounds, and kept points undone from the last while the
final game pushes an award that met the rule at the start past it (the proxy's solve holds
no GLI-11 rule of its own: the proxy's awards are not the game's, and an award the game
misses at the start would make the proxy's solver chase it).

Deterministic: the window-table solver is deterministic, and so is each analysis.
"""

from __future__ import annotations

import dataclasses
import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from slotmath.errors import RuleError
from slotmath.model.game import Game, ReelSet
from slotmath.tune.awards import awards
from slotmath.tune.layout import LayoutError, lay_out, violations
from slotmath.tune.reel_tables import check_tunable
from slotmath.tune.reel_tables import started as started_by
from slotmath.tune.search import SearchResult, figures_from, rtp_only_request
from slotmath.tune.solver import Step, Targets, _better, _layout, _misses

__all__ = ["DROPPED", "GRID_DROPPED", "RANGES", "ROUNDS", "ProxyStep", "proxy_game", "trigger_of",
           "tune_by_proxy"]

#: the game-file sections a proxy drops: each of the first five stops the window tables;
#: hold & win they cover, but its composition per candidate strip took the whole time limit
#: of one proxy solve on Gus's Gold Christmas (over 600 s at load 10), and its share of the
#: RTP moves with the pays like the rest (the slope follows it)
DROPPED = ("cascades", "bonus_symbols", "conveyor", "random_wilds", "modifiers",
           "hold_and_win")
#: the sections a ways grid game's proxy drops: its paid spin is then one drop, which
#: :mod:`slotmath.exact.grid_ways` gives exactly (uncapped)
GRID_DROPPED = ("tumbles", "free_spins", "max_win")
#: swaps a grid proxy's round makes at most (its ranking is exact and cheap; a confirmation
#: is a simulated analysis of minutes)
GRID_PER_ROUND = 12
#: the proxy's tolerance is never below this (the window tables' solver needs some room)
PROXY_TOLERANCE = Fraction(1, 1_000_000)
#: a round not kept halves the next proxy move; below this share of the secant's the search
#: stops ("no move helps")
MIN_DAMPING = 1 / 8
#: with a range, rounds not kept at :data:`MIN_DAMPING` before the search stops (each tries
#: the next swap the foreseen misses rank: a range's figures move the game in more ways than
#: its RTP alone, and the first ranked swaps of a cascade game can be all wrong for its RTP)
PATIENCE = 6
#: with a range, the RTP's secant is held within this factor of the first slope (Jingle Spin's
#: went from 2.3 to 6,448 in three rounds: a round that met its hit frequency moved the proxy's
#: RTP by next to nothing and the game's by 0.6 points, and the rounds after it stood still)
SLOPE_SPAN = 4.0
#: confirmations by the game's analysis at most, by default
ROUNDS = 12
#: the ranges a lines or ways proxy steers, each from its own figure and slope (the feature's:
#: the proxy strips' chance of the trigger count, :func:`trigger_of`); the max win is not the
#: proxy's (its round features and modifiers dropped)
RANGES = ("hit_frequency", "sd", "feature_one_in")


def proxy_game(game: Game) -> tuple[Game, tuple[str, ...]] | None:
    """The game's exact proxy and the sections dropped for it, or None when it has none (a
    grid game that does not pay ways or has multiplier symbols, or a game the window tables
    still refuse without those sections).

    Examples
    --------
    >>> import slotmath
    >>> proxy, dropped = proxy_game(slotmath.load_game("data/games/frozen_gems.toml"))
    >>> dropped
    ('bonus_symbols', 'cascades', 'free_spins')
    >>> proxy_game(slotmath.load_game("data/games/cluster_crush.toml")) is None
    True
    >>> proxy_game(slotmath.load_game("data/games/megaways_bonanza.toml"))[1]
    ('free_spins', 'max_win', 'tumbles')
    """
    if game.grid is not None:
        if game.grid.pays != "ways" or game.multipliers is not None:
            return None
        drops = {k: None for k in GRID_DROPPED if getattr(game, k) is not None}
        try:
            return dataclasses.replace(game, **drops), tuple(sorted(drops))
        except RuleError:
            return None
    drops = {k for k in DROPPED if getattr(game, k) is not None}
    if not drops:
        return None
    for _ in range(len(dataclasses.fields(game))):
        try:
            proxy = dataclasses.replace(game, **{k: None for k in drops})
        except RuleError as exc:  # another section needs a dropped one: drop it too
            key = (exc.field or "").split(".")[0].split("[")[0]
            if key in drops or getattr(game, key, None) is None:
                return None
            drops.add(key)
            continue
        try:
            check_tunable(proxy)
        except ValueError:
            return None
        return proxy, tuple(sorted(drops))
    return None


@dataclass(frozen=True)
class ProxyStep(Step):
    """One round of the proxy tuning: the solver's :class:`~slotmath.tune.solver.Step`
    (``variables``/``constraints``: the largest program of the proxy's solve, or the swaps
    ranked and 0; ``edits``: the net change per reel and symbol against the kept strips) with
    the proxy's target and RTP, the slope used, and the window-table programs solved
    (``programs``: variables x rows each)."""

    proxy_target: Fraction = Fraction(0)
    proxy_rtp: Fraction = Fraction(0)
    slope: float = 1.0
    programs: tuple = ()
    rtp_error: float = 0.0
    #: True when the round chose a one-stop swap (``variables``: the swaps ranked)
    swaps: bool = False
    #: each range's figure before and after: (name, before, after)
    ranges: tuple = ()

    def line(self) -> str:
        """The CLI's progress line.

        Examples
        --------
        >>> s = ProxyStep(0, -1, 12, 6, {"reel 1 A": 1}, Fraction(9, 10), Fraction(91, 100),
        ...               True, 2.5, proxy_target=Fraction(1, 3), proxy_rtp=Fraction(1, 3),
        ...               slope=2.0, programs=((12, 6),))
        >>> print(s.line())
        proxy round 1: proxy target 33.333333% -> 33.333333% (slope 2.000, 1 programs, largest 12 variables x 6 rows), edits {'reel 1 A': 1}: RTP 90.000000% -> 91.000000% kept (2.50 s)
        """
        verdict = "kept" if self.kept else "not kept"
        error = f" +-{self.rtp_error * 100:.2g}" if self.rtp_error else ""
        how = (f"{self.variables} swaps ranked" if self.swaps else
               f"{len(self.programs)} programs, largest {self.variables} variables x "
               f"{self.constraints} rows")
        return (f"proxy round {self.round + 1}: proxy target "
                f"{float(self.proxy_target) * 100:.6f}% -> {float(self.proxy_rtp) * 100:.6f}% "
                f"(slope {self.slope:.3f}, {how}), edits "
                f"{self.edits or '{}'}: RTP {float(self.rtp_before) * 100:.6f}% -> "
                f"{float(self.rtp_after) * 100:.6f}%{error}"
                + "".join(f", {_NAMES[k]} {_shown(k, a)} -> {_shown(k, b)}"
                          for k, a, b in self.ranges)
                + f" {verdict}"
                f"{f' ({self.reason})' if self.reason else ''} ({self.seconds:.2f} s)")


def _edits(before, after) -> dict:
    out = {}
    for j, (a, b) in enumerate(zip(before, after)):
        for s in sorted(set(a.symbols) | set(b.symbols)):
            k = (sum(w for x, w in zip(b.symbols, b.stop_weights) if x == s)
                 - sum(w for x, w in zip(a.symbols, a.stop_weights) if x == s))
            if k:
                out[f"reel {j + 1} {s}"] = k
    return out


def tune_by_proxy(game: Game, targets: Targets, reel_set: str = "base", *, layout=None,
                  symbols: Sequence[str] | None = None, time_limit: float = 60.0,
                  level: int = 1, progress: Callable[[Step], None] | None = None,
                  max_rounds: int | None = None, moves: str | None = None,
                  rounds: int | None = None, per_round: int | None = None,
                  why: str = "") -> SearchResult:
    """Tune ``reel_set`` of ``game`` to ``targets`` through its exact proxy (see the module
    notes); what :func:`slotmath.tune.tune` does for a large game with a proxy.

    Parameters
    ----------
    game : Game
    targets : Targets
        The RTP and its tolerance, GLI-11's limit, a hit-frequency, an SD and a feature range
        (see "Ranges" in the module notes; not on a grid proxy); a max-win range is refused
        (not the proxy's figure).
    reel_set : str
        The reel set tuned (the paid spin's; the proxy must play it).
    layout : Layout or dict, optional
        As :func:`slotmath.tune.tune`: the proxy solver lays out every edited strip. With
        swaps (each strip's order kept but for the stop swapped) the start is laid out by the
        rules first (:func:`slotmath.tune.layout.lay_out`; its figures are the result's
        ``laid_out``) and a swap that breaks a rule is not ranked: how a strip-order rule
        (``no_repeat``) holds on a cascade game's strips.
    symbols : sequence of str, optional
        The symbols whose counts may change (default: every symbol but scatters and bonus
        symbols).
    time_limit : float
        Seconds for the rounds, counted after the set-up (the start's analysis and the
        proxy's); no proxy solve or analysis starts after it (one under way finishes), and
        the GLI-11 checks come after it.
    max_rounds : int, optional
        Rounds (confirmations by the game's analysis) at most (default :data:`ROUNDS`).
    moves : {"counts", "swaps"}, optional
        ``"counts"``: each round the window-table solver's symbol counts (its exact
        mixed-integer programs; a strip gets longer or shorter). ``"swaps"``: each round one
        stop of one reel turns from one symbol into another (every strip keeps its length
        and every other stop its place), the swap whose proxy change (exact, from the proxy's
        window tables of that reel) times the slope comes closest to the gap. Default
        ``"swaps"`` for cascades (the refills read the strips' order beyond the window: an
        insertion shifts every later stop and changes whole chains) and where the tuned
        strips hold a scatter or bonus symbol fixed (a longer or shorter strip moves how
        often it starts its feature, which the proxy does not see: on Gus's Gold Christmas
        one GUS fewer on reel 1 raised the RTP by 0.73 points) or with a range, else
        ``"counts"``. A grid proxy moves by swaps only.
    rounds : int, optional
        A simulated analysis' rounds for every confirmation and the start's (its
        ``[analysis]`` rounds replaced, same seed; default the file's): fewer rounds, a
        quicker round and a larger stated error, which counts against the tolerance.
    per_round : int, optional
        Swaps one round makes at most (default :data:`GRID_PER_ROUND` on a grid proxy, else
        1), each the one whose exact proxy change comes closest to what is left of the
        round's proxy move, re-ranked after each.
    why : str
        Why the window tables do not cover the game (the summary's method line).

    Returns
    -------
    SearchResult
        ``rank`` is ``"proxy"``; ``analyses``: the real game's analyses; ``estimates``: the
        proxy solves; ``steps``: one :class:`ProxyStep` per round.

    Examples
    --------
    >>> import slotmath
    >>> g = slotmath.load_game("tests/data/cascades/tiny_bonus.toml")
    >>> r = tune_by_proxy(g, Targets(Fraction(98), Fraction(1), gli11=None))
    >>> r.met, r.rank, r.figures.rtp == slotmath.analyze(r.game).rtp
    (True, 'proxy', True)
    >>> m = slotmath.load_game("tests/data/grid/megaways_tumbles_tiny.toml")
    >>> r = tune_by_proxy(m, Targets(Fraction(13, 10), Fraction(1, 20), gli11=None))
    >>> r.met, r.figures.rtp == slotmath.analyze(r.game).rtp
    (True, True)
    """
    import slotmath
    from slotmath.tune.solver import tune

    called = started = time.monotonic()
    why = why.removesuffix("; not tuned yet")
    max_rounds = ROUNDS if max_rounds is None else max_rounds

    def left() -> float:
        return time_limit - (time.monotonic() - started)

    grid = game.grid is not None
    rtp_only_request(game, reel_set, targets,
                     "the proxy (RTP only on a grid game)" if grid else
                     "the proxy (its max win is not the game's)", offered=() if grid else RANGES)
    ranged = [k for k in RANGES if getattr(targets, k) is not None]
    # a feature range: the proxy's figure is the chance its strips show the trigger count
    trigger = trigger_of(game) if "feature_one_in" in ranged else None
    if trigger is not None:
        if moves == "counts":
            raise ValueError(f"{game.name}: a feature_one_in range moves by swaps on the proxy "
                             f"(its window-table programs do not see the dropped feature)")
        moves = "swaps"
    found = proxy_game(game)
    if found is None:
        raise ValueError(f"{game.name}: no exact proxy (a lines or ways game without "
                         f"{', '.join(DROPPED)}) is covered by the window tables")
    proxy, dropped = found
    if symbols is None:  # (with a feature range every symbol, the trigger's too)
        symbols = [s.name for s in game.symbols.values()
                   if trigger is not None or not (s.scatter or s.bonus)]
    if moves is None:  # swaps keep each strip's length: the held scatters' and bonus
        # symbols' frequency (the features they start) stays where it was
        held = {s.name for s in game.symbols.values() if s.scatter or s.bonus} - set(symbols)
        on_strips = any(x in held for r in game.reel_sets[reel_set].reels for x in r.symbols)
        # with a range too: the counts' programs met Jingle Spin's ranges in one round and
        # then moved 3-4 stops of one reel a round, each 0.1-1.1 points of RTP where the
        # game was 0.04 from its target (its conveyor sees a strip's length); one-stop swaps
        # came within 0.006 points in 12 rounds
        moves = ("swaps" if grid or game.cascades is not None or on_strips or ranged
                 else "counts")
    if moves not in ("counts", "swaps"):
        raise ValueError(f"moves must be 'counts' or 'swaps', got {moves!r}")
    if grid and moves != "swaps":
        raise ValueError(f"{game.name}: a grid game's proxy moves by swaps only (the window "
                         f"tables do not cover a grid)")
    if per_round is None:
        per_round = GRID_PER_ROUND if grid else 1
    if per_round < 1:
        raise ValueError(f"per_round must be >= 1, got {per_round}")
    analysed = game if rounds is None else game.with_analysis(rounds=rounds)
    # swaps that keep the rules only (with a feature range, the default rules at least: the
    # scatters and bonus symbols a window height apart)
    ruled = moves == "swaps" and (layout is not None or trigger is not None)
    layout = _layout(layout)
    layout.check(game)

    count = {"analyses": 0, "checks": 0, "solves": 0, "rtps": 0}
    cache: dict = {}
    # a game with base-game modifiers: each round is confirmed by its exact RTP alone (the
    # modifiers' means, slotmath.rtp_only: a tenth of a second, where an analysis recomputes
    # their joint tables); the game reached gets its whole analysis at the end. A range
    # (hit frequency, SD) needs the whole analysis of each round.
    at_once = game.modifiers is not None and not ranged

    def real(reels) -> object:
        key = tuple(reels)
        if key not in cache:
            count["rtps" if at_once else "analyses"] += 1
            edited = analysed.replace_reels(reel_set, key)
            cache[key] = (RTPPoint.of(slotmath.rtp_only(edited, level)) if at_once
                          else figures(slotmath.analyze(edited, level)))
        return cache[key]

    def figures(a):
        """The analysis' figures; with a feature range, P(the paid spin starts a round
        feature) read off its round law (the engine's)."""
        f = figures_from(a)
        return f if trigger is None else dataclasses.replace(
            f, feature_probability=started_by(a.round))

    start_reels = tuple(game.reel_sets[reel_set].reels)
    count["analyses"] += 1
    first = slotmath.analyze(analysed, level)
    if trigger is not None:  # the round features the engine found: that one alone
        try:
            names = [f.name for f in first.round.features]
        except NotImplementedError as exc:
            raise ValueError(f"{game.name}: a feature_one_in range is not offered when tuning "
                             f"by the proxy: {exc}") from None
        if len(names) != 1 or names[0] not in ("free_spins", "hold_and_win"):
            raise ValueError(f"{game.name}: a feature_one_in range is not offered when tuning "
                             f"by the proxy with round features {names} (one free spins or "
                             f"hold & win feature only)")
    start = cache[start_reels] = figures(first)
    current, reels = start, start_reels
    rules = [layout.for_reel(game, j) for j in range(len(start_reels))] if ruled else None
    laid_out = None
    if ruled:  # the start laid out by the rules (the strips' order kept where they hold)
        try:
            laid = tuple(lay_out(r, *rules[j]) for j, r in enumerate(start_reels))
        except LayoutError as exc:
            raise ValueError(f"{game.name}: reel set {reel_set!r}: {exc}") from None
        if laid != start_reels:
            reels, current = laid, real(laid)
            laid_out = current
            if at_once:  # (its confirmation is its RTP alone: the result shows it whole)
                count["analyses"] += 1
                laid_out = figures(slotmath.analyze(analysed.replace_reels(reel_set, laid),
                                                    level))
    misses = _misses(current, targets)
    if grid:  # the paid spin's exact mean, each reel's sums kept per strip
        from slotmath.exact.grid_ways import SpinMean

        proxy_rtp = SpinMean(proxy, reel_set, level)
        p_now, p_fig = proxy_rtp(reels), None  # (no range on a grid proxy)
        # the free spins play their own reels: their share does not move with the paid strips
        scaled = float(current.rtp) - float(first.components.get("free_spins", 0))
    else:
        p_fig = figures_from(slotmath.analyze(proxy.replace_reels(reel_set, reels), level))
        p_now = Fraction(p_fig.rtp)
        scaled = float(current.rtp)
    slope = first_slope = scaled / float(p_now) if p_now and scaled > 0 else 1.0
    # each range's figure: the proxy's now, and its slope (the game's against the proxy's:
    # first their ratio, then each confirmed point's secant, as the RTP's)
    def proxy_values(f, rs) -> dict:
        """Each range's figure of the proxy with strips ``rs`` (``f``: its figures)."""
        out = {k: _value(f, k) for k in ranged if k != "feature_one_in"}
        if trigger is not None:
            out["feature_one_in"] = float(_started_by_count(rs, game.rows, *trigger))
        return out

    q_now = proxy_values(p_fig, reels)
    slopes = {k: (_value(current, k) / q_now[k] if q_now[k] and _value(current, k) > 0
                  else 1.0) for k in ranged}
    first_slopes = dict(slopes)
    engine = "the paid spin's ways programme" if grid else "window tables"
    started = time.monotonic()  # the time limit is the rounds': the set-up is not counted
    result = SearchResult(game, current, start, targets=targets, rank="proxy", laid_out=laid_out,
                          method=(f"proxy ({engine} on the game without "
                                  f"{', '.join(dropped)}), each round confirmed by the game's "
                                  + ("exact RTP (the modifiers' means), the game reached by "
                                     "its analysis" if at_once else "analysis")
                                  + (f"; not by window tables: {why}" if why else "")))
    history = [(reels, current, misses)]
    ranked_at: dict = {}
    comp = None if grid else check_tunable(proxy, level)

    def swaps(rs, p_rs, q_rs) -> list:
        """Every one-stop swap of ``rs``: (the proxy's RTP change as a float, the strips, its
        name, the change exactly, each range's figure's change), from each reel's window
        tables of the proxy (or the grid proxy's programme)."""
        if rs not in ranked_at:
            from slotmath.tune.crn import swap
            from slotmath.tune.reel_tables import ReelTables

            out = []
            g = proxy.replace_reels(reel_set, rs)
            for j, reel in enumerate(rs):
                edits = [(a, b, swap(reel, a, b)) for a in symbols
                         if reel.symbols.count(a) >= 2 for b in symbols if b != a]
                if grid:
                    figures_of = (lambda e, j=j: (proxy_rtp(rs[:j] + (e,) + rs[j + 1:]), {}))
                else:
                    tables = ReelTables(g, reel_set, j, level, comp)
                    tables.prefetch(w for _, _, e in edits for w in tables.window_weights(e))

                    def figures_of(e, tables=tables, j=j):
                        f = tables.figures(e)
                        values = proxy_values(f, rs[:j] + (e,) + rs[j + 1:])
                        return f.rtp, {k: values[k] - q_rs[k] for k in ranged}
                if rules is not None:  # the swaps that keep every layout rule
                    edits = [(a, b, e) for a, b, e in edits
                             if e is not None and not violations(e.symbols, *rules[j])]
                for a, b, e in edits:
                    count["solves"] += 1
                    rtp, others = figures_of(e)
                    d = Fraction(rtp - p_rs)
                    out.append((float(d), rs[:j] + (e,) + rs[j + 1:], f"reel {j + 1} {a}->{b}",
                                d, others))
            ranked_at[rs] = out
        return ranked_at[rs]

    # the last confirmed (proxy, real, stated error) point, for the secant; each range's
    # (proxy, real) figures
    last = (p_now, current.rtp, current.rtp_error)  # (the laid-out start's, if laid out)
    last_q = (q_now, {k: _value(current, k) for k in ranged})

    def foreseen(rs_p, rs_q) -> float:
        """The score (:func:`slotmath.tune.solver._score` of the misses) the slopes foresee
        for a proxy point, and its RTP's distance from the target (which decides a tie, as
        in :func:`slotmath.tune.solver._better`): each figure's change from the kept point's,
        times its slope, over the damping (a damped round takes smaller moves)."""
        rtp = float(current.rtp) + slope * float(rs_p - p_now) / damping
        off = abs(float(targets.rtp) - rtp)
        out = max(0.0, off - float(targets.tolerance)) / float(targets.rtp)
        for k in ranged:
            lo, hi = getattr(targets, k)
            value = _value(current, k) + slopes[k] * (rs_q[k] - q_now[k]) / damping
            if k == "feature_one_in":  # (a probability foreseen: its "1 in N")
                value = 1 / value if value > 0 else 1e300
            out += min(max(0.0, float(lo) - value, value - float(hi)), 1e300) / (float(hi) or 1.0)
        return out, off
    stopped = ""
    number = 0
    damping = 1.0  # halved after each point not kept, back to 1 after a kept one
    patience = PATIENCE
    while not all(m == 0 for m in misses.values()):
        if number >= max_rounds:
            stopped = f"{max_rounds} rounds"
            break
        if left() <= 0:
            stopped = "time limit"
            break
        t0 = time.monotonic()
        gap = float(targets.rtp - current.rtp)
        proxy_target = Fraction(p_now) + Fraction(gap / slope * damping)
        proxy_tolerance = max(PROXY_TOLERANCE,
                              Fraction(float(targets.tolerance) / max(slope, 1e-9) / 2))
        programs = []
        if moves == "swaps":  # up to per_round swaps, each re-ranked exactly
            wanted = gap * damping / slope  # the proxy's move this round
            new_reels, p_new, q_new, ranked_count = reels, p_now, dict(q_now), 0
            for _ in range(per_round):
                ranked = swaps(new_reels, p_new, q_new)
                ranked_count += len(ranked)
                untried = [c for c in ranked if c[1] not in cache]
                if ranged:  # the swap whose foreseen misses are least, if less than now's
                    def after(c, q=q_new):
                        return {k: q[k] + c[4][k] for k in ranged}

                    pick = min(untried, key=lambda c: (foreseen(p_new + c[3], after(c)),
                                                       c[2]), default=None)
                    if pick is None or (foreseen(p_new + pick[3], after(pick))
                                        >= foreseen(p_new, q_new)):
                        break
                    q_new = after(pick)
                else:
                    rest = wanted - float(p_new - p_now)
                    pick = min(untried, key=lambda c: (abs(rest - c[0]), c[2]), default=None)
                    if pick is None or (abs(rest - pick[0]) >= abs(rest) if new_reels != reels
                                        else abs(gap - slope * pick[0]) >= abs(gap)):
                        break
                new_reels, p_new = pick[1], p_new + pick[3]
            if new_reels == reels:
                stopped = "no move helps"
                break
            programs = [(ranked_count, 0)]
        else:
            # each range as the proxy's: the kept point's proxy figure plus the gap over the
            # slope at either end
            mapped = {k: _mapped(getattr(targets, k), _value(current, k), q_now[k],
                                 slopes[k] / damping, k) for k in ranged}
            try:
                solved = tune(proxy.replace_reels(reel_set, reels), proxy_target, reel_set,
                              **mapped, gli11=None, layout=layout, tolerance=proxy_tolerance,
                              symbols=symbols, time_limit=max(left(), 1.0), level=level,
                              progress=lambda st, out=programs: out.append(
                                  (st.variables, st.constraints)))
            except ValueError as exc:
                stopped = f"the proxy solver refused: {exc}"
                break
            count["solves"] += 1
            new_reels = tuple(solved.game.reel_sets[reel_set].reels)
            p_new = Fraction(solved.figures.rtp)
            q_new = proxy_values(solved.figures, new_reels)
        if new_reels in cache or new_reels == reels:
            damping /= 2
            if damping < MIN_DAMPING:
                stopped = "no move helps"
                break
            continue
        if left() <= 0:
            stopped = "time limit"
            break
        reason = ""
        try:
            fig = real(new_reels)
        except ValueError as exc:  # the real game's rules refuse the strips
            fig, reason = current, f"refused: {exc}"
        new_misses = _misses(fig, targets)
        kept = not reason and _better(new_misses, misses, fig, current, targets)
        if not reason and p_new != last[0]:
            change = float(fig.rtp - last[1])
            secant = change / float(p_new - last[0])
            # a secant between simulated points only when their change exceeds the noise
            if secant > 0 and abs(change) > 2 * math.hypot(fig.rtp_error, last[2]):
                # with a range, a round moves the game in ways its proxy RTP does not see
                # (the ranges' own moves): the secant is held within SLOPE_SPAN of the first
                slope = (min(max(secant, first_slope / SLOPE_SPAN), first_slope * SLOPE_SPAN)
                         if ranged else secant)
        for k in ([] if reason else ranged):
            moved = q_new[k] - last_q[0][k]
            if moved and (_value(fig, k) - last_q[1][k]) / moved > 0:
                secant = (_value(fig, k) - last_q[1][k]) / moved
                slopes[k] = min(max(secant, first_slopes[k] / SLOPE_SPAN),
                                first_slopes[k] * SLOPE_SPAN)
        biggest = max(programs, default=(0, 0), key=lambda vc: vc[0] * max(vc[1], 1))
        st = ProxyStep(number, -1, biggest[0], biggest[1], _edits(reels, new_reels),
                       current.rtp, fig.rtp, kept, time.monotonic() - t0, reason,
                       proxy_target=proxy_target, proxy_rtp=p_new, slope=slope,
                       programs=tuple(programs), rtp_error=float(fig.rtp_error),
                       swaps=moves == "swaps",
                       ranges=tuple((k, _value(current, k), _value(fig, k)) for k in ranged))
        number += 1
        result.tried += 1
        result.steps.append(st)
        if progress is not None:
            progress(st)
        if not reason:
            last = (p_new, fig.rtp, fig.rtp_error)
            last_q = (q_new, {k: _value(fig, k) for k in ranged})
        if kept:
            reels, current, misses, p_now, q_now = new_reels, fig, new_misses, p_new, q_new
            history.append((reels, current, misses))
            result.kept += 1
            damping, patience = 1.0, PATIENCE
        else:
            damping /= 2
            if damping < MIN_DAMPING:
                if ranged and patience > 0:
                    patience -= 1
                    damping = MIN_DAMPING
                    continue
                stopped = "no move helps"
                break
    else:
        stopped = "every target met"

    current_awards = start_awards = None
    if targets.gli11 is not None:  # the start's and the final game's, by the check
        count["checks"] += 1
        start_awards = awards(game, targets.gli11)
        final = start_awards
        if reels != start_reels:
            count["checks"] += 1
            final = awards(game.replace_reels(reel_set, reels), targets.gli11)
        while len(history) > 1 and (final.failing - start_awards.failing):
            history.pop()
            result.undone += 1
            reels, current, _ = history[-1]
            final = start_awards
            if reels != start_reels:
                count["checks"] += 1
                final = awards(game.replace_reels(reel_set, reels), targets.gli11)
        current_awards = final
    result.game = game.replace_reels(reel_set, reels)
    if isinstance(current, RTPPoint):  # the game reached: its whole analysis
        count["analyses"] += 1
        current = figures(slotmath.analyze(analysed.replace_reels(reel_set, reels), level))
    result.figures, result.awards, result.start_awards = current, current_awards, start_awards
    result.misses = _misses(current, targets, current_awards)
    result.analyses, result.checks, result.rtps = (count["analyses"], count["checks"],
                                                   count["rtps"])
    result.estimates = count["solves"]
    result.stopped = stopped
    result.seconds = time.monotonic() - called
    return result


@dataclass(frozen=True)
class RTPPoint:
    """A round's confirmation by the game's RTP alone (:func:`slotmath.rtp_only`): what the
    rounds read of it (the RTP, how it was found and its stated error). The game reached is
    analysed whole before it is returned, so no other figure is ever read off one."""

    rtp: Fraction
    rtp_kind: str
    rtp_error: float

    @classmethod
    def of(cls, figures) -> RTPPoint:
        return cls(Fraction(figures.rtp), "exact" if figures.exact else "analysis",
                   0.0 if figures.exact else float(figures.rtp_error))


_NAMES = {"hit_frequency": "hit frequency", "sd": "SD", "feature_one_in": "feature"}


def _shown(name: str, value: float) -> str:
    if name == "feature_one_in":
        return f"1 in {1 / value:,.1f}" if value else "never"
    return f"{value * 100:.4f}%" if name == "hit_frequency" else f"{value:.4f}"


def _value(figures, name: str) -> float:
    """A range's figure as a float: the hit frequency, the SD, or for the feature's "1 in N"
    its probability (what moves linearly with the strips)."""
    return float(figures.feature_probability if name == "feature_one_in"
                 else getattr(figures, name))


def trigger_of(game: Game) -> tuple[str, int]:
    """(symbol, least count) of the round feature the game's paid spin starts by a count of
    one symbol in its window (free spins: their trigger and least awarded count; hold & win:
    its symbol and trigger), or ``ValueError`` in one line when the game has none or more than
    one (a feature range needs the one figure the proxy can follow).

    Examples
    --------
    >>> import slotmath
    >>> trigger_of(slotmath.load_game("data/games/gus_gold_christmas.toml"))
    ('NUGGET', 5)
    """
    found = []
    if game.free_spins is not None:
        found.append((game.free_spins.trigger,
                      min(k for k, v in game.free_spins.awards.items() if v)))
    if game.hold_and_win is not None:
        found.append((game.hold_and_win.symbol, game.hold_and_win.trigger))
    others = [k for k in ("bonus_wheel", "conveyor") if getattr(game, k) is not None]
    if len(found) != 1 or others:
        raise ValueError(f"{game.name}: a feature_one_in range is not offered when tuning by "
                         f"the proxy unless one free spins or hold & win feature starts by a "
                         f"count of its symbol (this game: "
                         f"{', '.join([f[0] for f in found] + others) or 'none'})")
    return found[0]


def _started_by_count(reels, rows, symbol: str, least: int) -> Fraction:
    """P(the window of ``reels`` shows ``symbol`` at least ``least`` times), by the reel
    set's count law (:meth:`slotmath.model.game.ReelSet.count_law`)."""
    strips = ReelSet("proxy", tuple(reels))
    law = strips.count_law(symbol, rows)
    return Fraction(sum(w for k, w in law.items() if k >= least), strips.cycle)


def _mapped(span, real: float, proxy: float, slope: float, name: str) -> tuple:
    """A range of the game's figure as the proxy's, by the figure's slope from the kept
    point: ``proxy + (end - real) / slope`` at either end (a hit frequency within 0 and 1,
    an SD at least 0); a range the proxy cannot reach is clipped to its nearest end.

    Examples
    --------
    >>> _mapped((Fraction(3, 10), Fraction(4, 10)), 0.25, 0.2, 1.25, "hit_frequency")
    (Fraction(6, 25), Fraction(8, 25))
    """
    top = 1.0 if name == "hit_frequency" else math.inf
    lo, hi = (min(top, max(0.0, proxy + (float(end) - real) / slope)) for end in span)
    return Fraction(lo).limit_denominator(10**9), Fraction(hi).limit_denominator(10**9)
