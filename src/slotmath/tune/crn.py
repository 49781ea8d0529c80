"""Tuning a simulated game (the grid games: Megaways, pay anywhere, clusters) by stop swaps
ranked and confirmed with common random numbers, the final game checked by its own analysis.

Which games
-----------
Games whose analysis is a seeded simulation (their ``[analysis]`` rounds: 25 to 100 million
on the bundled grid games, minutes each), so a full analysis per candidate is out of reach,
and which have no exact proxy (:mod:`slotmath.tune.proxy`: the window is a grid, not a lines
or ways window). Small fixtures whose analysis is exact can be tuned this way too (their
"analysis" is then exact, and so is the final check).

Method
------
A move is a **swap**: ``k`` stops of symbol ``a`` become ``b`` on one reel or on every reel
of the tuned reel set. A swap keeps every strip's length and every other stop where it was,
so the same seed draws the same stops on the old and the new strips, and the two runs pay
alike on every round that does not show a swapped stop (common random numbers): the
change's error is a fraction of two independent runs'.

1. **Rank**: the symbol with most stops on the strips is the reference ``r``; for every
   other symbol ``s`` the game with one stop of ``r`` turned into ``s`` on every reel is
   simulated against the current game on the same ``rounds`` and seed: ``d_s`` (``d_r = 0``).
   The predicted change of a swap ``a -> b`` is ``k (d_b - d_a)`` on every reel, and
   ``k (d_b - d_a) / n`` on one reel of ``n`` (the first-order model; each reel alike).
2. **Propose** the swaps whose predicted RTP is closest to the target, the best
   ``tries`` (:data:`TRIES`; :data:`PAID_TRIES` when paired on the paid game), and **confirm** each by a longer run (``confirm_rounds``) against the
   start on the same seed: the estimate ``R0 + sim(new) - sim(start)``, with ``R0`` the
   start's analysis. A swap is kept when it brings that estimate closer to the target.
   A swap never takes the last stop of a symbol off the strips (its awards would vanish).
   When none of them is kept, the ranking runs again with twice the rounds (up to
   ``confirm_rounds``).
3. Stop when the estimate is within the **working tolerance** (half of the tolerance left
   after the start analysis' stated error), at the time limit, or when no proposal helps.
4. **Check** the game reached by its own analysis; when it misses the target (the
   estimates' own error), that analysis is the new anchor (``R0`` and the strips the
   estimates are paired against) and steps 1-3 run again, up to ``anchors`` analyses while
   the time limit allows. **The result** is the analysed game closest to the target, the
   start included (:func:`closest`; a re-anchored run can end farther off than it began:
   :func:`slotmath.analyze`: the seeded
   simulation of its ``[analysis]`` rounds, same seed as the start's; its stated error
   counts against the tolerance, :func:`slotmath.tune.solver._misses`). The result's
   figures are that analysis', never the estimates.

**Pairing on the paid game.** A round of free spins draws as many spins as it plays, so two
runs part at the first round whose trigger differs, and every later round is unpaired: on
Megaways Bonanza (40 % of the RTP in free spins at a carried multiplier, round SD ~11 x bet)
the paired estimates swung 4-8 points at 1,000,000 rounds. Without its free spins, a round
of a strip-refill game draws the same numbers whatever it shows (the tumbles refill from the
strip), so the runs part only where a swapped stop shows. With ``paid=True`` the estimates
(ranking and confirming) run on :func:`paid_game` (the game without free spins that play
their own reels). The free spins' reels do not change, so their share moves only with how
often the paid round triggers them; the paid game's spins still count the trigger symbol
(its only scatter) in their final window, tumbles included, so the same paired runs count
the rounds that would start free spins (:func:`paid_triggers`), and the estimate is

    ``R0 + B(new) - B(anchor) + V T(anchor) (W(new) - W(anchor)) / W(anchor)``

``B`` the paid game's RTP, ``T`` its trigger rate and ``W`` the same with each trigger
weighted by the spins it awards (``W(new)/W(anchor) = T(new)/T(anchor)`` when every award
is alike), ``V`` the anchor's free-spin win per trigger read from its analysis (its
free-spin RTP share over its trigger rate; re-read at each anchor). The free spins' value
is held proportional to the spins awarded (with a carried multiplier the longer awards are
worth more per spin: a first-order model), and ``V`` is the anchor's. Measured on Megaways
Bonanza, one swap pair (reel 1 L4->H1, reel 3
L2->H3): the paid game's RTP +0.09 and +0.10 points by two seeds of 1,000,000 paired rounds
each (first drop -0.26, tumbles +0.35), its SD 1.8 x bet against the whole round's 11;
one swap of 3 stops L3->L2 on reel 1: paid game -4.69 points, trigger rate 0.002265 ->
0.001846 by 1,000,000 paired rounds (the free spins' share, at the start's ~147 x bet per
trigger, -6.25 points: the estimate -10.94 points), which the estimate without the trigger
term did not see.
Default ``paid``: on for a ways grid game with free spins on their own reels (Megaways
Bonanza); off elsewhere (not measured on the other grid games: Sugar Tumble tunes as it is).

**Ranges** (a grid game): the hit frequency, the SD (the CLI's volatility index over
1.645) and the free spins' "1 in N" are read off the same paired runs as the RTP. Each run
is kept block by block (:data:`PAIRED_BLOCK` rounds a block, each block its own stream:
:func:`slotmath.simulate.grid.grid_blocks`), so every figure's paired change comes with the
standard error of the paired difference, by batch means over the blocks
(:func:`paired_change`): the candidate's estimate is the anchor's analysed figure plus that
change. Paired on the paid game, the free spins enter through the same triggers as in the
RTP's estimate: E[X^2] gains ``S T(anchor) (W(new) - W(old)) / W(old)`` with ``S`` the
anchor's E[X^2] beyond its paid game's, per trigger (its analysis' E[X^2] less the paid
game's by the anchor's confirming run: the free spins' square and the cross term with the
paid spin's win), and the hit frequency gains ``g (T(new) - T(old))`` with ``g`` the
anchor's P(the round pays only by its free spins) per trigger (its analysis' hit frequency
less its paid spin's, over its trigger rate; 0 on Megaways Bonanza, whose trigger scatters
pay). The ranking predicts every figure per symbol, as it does the RTP; proposals are
ordered by the solver's score of the predicted misses (each relative to its size,
:func:`slotmath.tune.solver._score`), and a swap is kept when its estimated misses score
lower than the current ones (or as low, with the RTP closer) and no range that held by the
estimate stops holding. The search ends when every estimate meets its target (the RTP
within the working tolerance); the reached game's analysis decides, and the result is the
analysed game that misses least by the same score (the RTP's distance breaking ties). Not
offered: the max win's "1 in N" (a simulated game's max win is the largest win its run
happened to see, and its "1 in N" how often that run saw it: not a figure of the strips a
paired change could estimate), ranges on a game that is not a grid.

GLI-11 (on by default) as in :func:`slotmath.tune.search.search`: the start's and the final
game's awards by the compliance check after the search, kept swaps undone from the last while
the final game pushes an award that met the rule at the start past it. Deterministic (a
fixed order of symbols and reels, seeded runs). Not offered: layout rules, weighted reels.
"""

from __future__ import annotations

import dataclasses
import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from slotmath.model.game import Game, Reel
from slotmath.tune.awards import awards
from slotmath.tune.reel_tables import Figures
from slotmath.tune.search import SearchResult, check_reel_set, figures_from
from slotmath.tune.solver import Step, Targets, _misses, _score

__all__ = ["PAIRED_BLOCK", "Swap", "SwapStep", "block_figures", "paid_game", "paid_triggers",
           "paired_change", "swap", "tune_by_crn"]

#: proposals confirmed per ranking before the ranking is refreshed
TRIES = 3
#: the same when the runs pair on the paid game: its confirmations are precise (three seeds
#: of one swap on Megaways Bonanza agreed within 0.08 points at 1,000,000 rounds) but a
#: one-stop change moves the tumbles by the strip order above the window, which the symbol
#: ranking does not see (one stop H4->L2: -1.9 points on reel 3, +0.5 on reel 2), so more
#: proposals are confirmed before the ranking runs again
PAID_TRIES = 12
#: the most stops of one symbol a swap turns on one reel
MAX_SWAPS = 4
#: rounds per block of a paired run (each block its own stream,
#: :func:`slotmath.simulate.grid.grid_blocks`): the blocks are the batches of the paired
#: difference's standard error (1,000,000 rounds: 245 of them)
PAIRED_BLOCK = 1 << 12
#: the figures a paired run estimates, by name (``trigger``: P(the paid spin starts the free
#: spins), the feature's "1 in N")
FIGURES = ("rtp", "hit_frequency", "second_moment", "trigger")


@dataclass(frozen=True, order=True)
class Swap:
    """``k`` stops of ``a`` turned into ``b`` on reel ``reel`` (0 = reel 1), or on every reel
    (``reel=-1``)."""

    reel: int
    a: str
    b: str
    k: int

    def __str__(self) -> str:
        where = "every reel" if self.reel < 0 else f"reel {self.reel + 1}"
        return f"{where} {self.k} x {self.a}->{self.b}"


@dataclass(frozen=True)
class SwapStep(Step):
    """A swap confirmed: the solver's :class:`~slotmath.tune.solver.Step` (``variables``:
    the swaps scored; ``constraints``: 0; ``rtp_before``/``rtp_after``: the estimates) with
    the swap, its predicted change and the confirming run's rounds."""

    swap: Swap | None = None
    predicted: float = 0.0
    rounds: int = 0
    #: the estimates of the ranged figures with their standard errors, as shown
    detail: str = ""
    #: every figure's estimate (:data:`FIGURES`): name -> (value, standard error of the
    #: paired difference it was read by)
    estimates: dict | None = None

    def line(self) -> str:
        """The CLI's progress line.

        Examples
        --------
        >>> s = SwapStep(0, -1, 60, 0, {"every reel L1->H1": 1}, Fraction(96, 100),
        ...              Fraction(95, 100), True, 3.0, swap=Swap(-1, "L1", "H1", 1),
        ...              predicted=-0.011, rounds=1_000_000)
        >>> print(s.line())
        crn step 1: every reel 1 x L1->H1 (predicted -1.100 points, of 60 swaps scored): RTP estimate 96.000000% -> 95.000000% by 1,000,000 paired rounds kept (3.00 s)
        """
        verdict = "kept" if self.kept else "not kept"
        return (f"crn step {self.round + 1}: {self.swap} (predicted "
                f"{self.predicted * 100:+.3f} points, of {self.variables} swaps scored): RTP "
                f"estimate {float(self.rtp_before) * 100:.6f}% -> "
                f"{float(self.rtp_after) * 100:.6f}% by {self.rounds:,} paired rounds"
                f"{f'; {self.detail};' if self.detail else ''} {verdict}{f' ({self.reason})' if self.reason else ''} "
                f"({self.seconds:.2f} s)")


def _spread(positions: list[int], avoid: list[int], length: int) -> int:
    """The position among ``positions`` farthest (cyclically) from every ``avoid``."""
    def gap(p):
        return min((min(abs(p - q), length - abs(p - q)) for q in avoid), default=length)
    return max(positions, key=lambda p: (gap(p), -p))


def swap(reel: Reel, a: str, b: str, k: int = 1) -> Reel | None:
    """``reel`` with ``k`` stops of ``a`` turned into ``b`` (each the stop of ``a`` farthest
    from every ``b``), or None when the reel has fewer than ``k`` stops of ``a``.

    Examples
    --------
    >>> swap(Reel(("A", "B", "A", "C", "A")), "A", "B").symbols
    ('A', 'B', 'A', 'C', 'B')
    >>> swap(Reel(("A", "B")), "A", "C", 2) is None
    True
    """
    if reel.weights is not None:
        raise ValueError("swaps move stops of unweighted strips; this reel has stop weights")
    symbols = list(reel.symbols)
    for _ in range(k):
        where = [p for p, s in enumerate(symbols) if s == a]
        if not where:
            return None
        at = _spread(where, [p for p, s in enumerate(symbols) if s == b], len(symbols))
        symbols[at] = b
    return Reel(tuple(symbols))


def block_figures(blocks, free_spins=None) -> dict[str, np.ndarray]:
    """Per block of a run (:class:`slotmath.simulate.grid.BlockSums`), the sums the paired
    estimates read: ``rounds``, ``rtp`` (wins, total bets), ``hit_frequency`` (rounds that
    won), ``second_moment`` (squared wins), ``trigger`` (paid spins that start the free
    spins) and ``weighted`` (the same, each weighted by the spins it awards). With
    ``free_spins`` (a run of :func:`paid_game`, which plays none) the triggers are read off
    the final window's count of the trigger symbol (as :func:`paid_triggers`); else they are
    the run's own.

    Examples
    --------
    >>> import slotmath
    >>> from slotmath.simulate.grid import BlockSums
    >>> fs = slotmath.load_game("data/games/megaways_bonanza.toml").free_spins
    >>> hist = np.zeros((2, 8), np.int64)
    >>> hist[0, [0, 3, 4]] = [90, 6, 4]  # 3 scatters start nothing, 4 do
    >>> hist[1, [0, 6]] = [99, 1]
    >>> b = BlockSums(np.array([100, 100]), np.array([50.0, 70.0]), np.array([900.0, 1e4]),
    ...               np.array([30, 31]), np.zeros(2, np.int64), hist)
    >>> f = block_figures(b, fs)
    >>> fs.award_for(3), f["trigger"].tolist(), f["weighted"].tolist() == [4 * fs.award_for(4), fs.award_for(6)]
    (0, [4.0, 1.0], True)
    """
    out = {"rounds": blocks.rounds.astype(float), "rtp": np.asarray(blocks.win, float),
           "hit_frequency": blocks.hits.astype(float),
           "second_moment": np.asarray(blocks.win2, float)}
    if free_spins is None:
        out["trigger"] = out["weighted"] = blocks.triggers.astype(float)
    else:
        width = blocks.trigger_hist.shape[1]
        award = np.array([free_spins.award_for(c) or 0 for c in range(width)], float)
        out["trigger"] = (blocks.trigger_hist * (award > 0)).sum(axis=1).astype(float)
        out["weighted"] = (blocks.trigger_hist * award).sum(axis=1).astype(float)
    return out


def paired_change(new: dict, old: dict, shares: dict | None = None) -> dict:
    """A candidate's figures minus the anchor's by runs paired block by block (same seed,
    same blocks; :func:`block_figures` of each): per figure of :data:`FIGURES`, ``(change,
    standard error)``.

    The change is ``sum_b c_b / N`` with ``c_b`` block ``b``'s difference of sums and ``N``
    the rounds; its standard error is the batch means' over the ``B`` blocks,
    ``sqrt(B / (B - 1) sum_b (c_b - n_b change)^2) / N`` (``n_b`` the block's rounds; the
    blocks are independent streams, a round is not: within a block the two runs share every
    draw until a swapped stop shows, which is what makes the difference precise). ``inf``
    with one block.

    ``shares`` (the runs are of :func:`paid_game`; the free spins are not played): what one
    trigger adds to each figure, held at the anchor's (first order), so that
    ``c_b += shares[f] x (the block's award-weighted triggers, new - old)`` for ``rtp`` and
    ``second_moment`` and ``+= shares["hit_frequency"] x (the block's triggers, new - old)``:
    the free spins' win per awarded spin, their share of E[X^2] per awarded spin (the cross
    term with the paid spin's win included) and P(a trigger's round pays only by its free
    spins).

    Examples
    --------
    >>> one = {"rounds": np.array([4.0, 4.0]), "rtp": np.array([2.0, 2.0]),
    ...        "hit_frequency": np.array([1.0, 2.0]), "second_moment": np.array([4.0, 4.0]),
    ...        "trigger": np.zeros(2), "weighted": np.zeros(2)}
    >>> two = dict(one, rtp=np.array([3.0, 4.0]), hit_frequency=np.array([2.0, 3.0]))
    >>> d = paired_change(two, one)
    >>> d["rtp"], d["hit_frequency"], d["second_moment"]
    ((0.375, 0.125), (0.25, 0.0), (0.0, 0.0))
    """
    n = new["rounds"]
    total = n.sum()
    blocks = len(n)
    if not np.array_equal(n, old["rounds"]):
        raise ValueError("paired runs must have the same blocks")
    out = {}
    for name in FIGURES:
        if name not in new or name not in old:
            continue
        c = new[name] - old[name]
        if shares:
            by = "trigger" if name == "hit_frequency" else "weighted"
            if shares.get(name):
                c = c + shares[name] * (new[by] - old[by])
        change = float(c.sum() / total)
        if blocks > 1:
            error = math.sqrt(blocks / (blocks - 1) * float(((c - n * change) ** 2).sum()))
            error = float(error / total)
        else:
            error = math.inf
        out[name] = (change, error)
    return out


def closest(rtps: list[float], target: float) -> int:
    """The index of the RTP closest to ``target`` (the earliest of equals: fewer moves).

    >>> closest([0.96, 0.9736, 0.9551], 0.95)
    2
    >>> closest([0.96, 0.9736], 0.95)
    0
    """
    return min(range(len(rtps)), key=lambda i: (abs(rtps[i] - target), i))


def paid_game(game: Game, reel_set: str = "base") -> Game | None:
    """``game`` without its free spins (and the tumbles' free-spin multiplier settings), when
    they play a reel set other than ``reel_set``; else None.

    Examples
    --------
    >>> import slotmath
    >>> g = paid_game(slotmath.load_game("data/games/megaways_bonanza.toml"))
    >>> g.free_spins, g.tumbles.carry_multiplier, g.tumbles.free_multiplier
    (None, False, None)
    >>> paid_game(slotmath.load_game("tests/data/grid/cluster_tiny.toml")) is None
    True
    """
    import dataclasses

    from slotmath.errors import RuleError

    fs = game.free_spins
    if fs is None or fs.reels == reel_set:
        return None
    changes: dict = {"free_spins": None}
    t = game.tumbles
    if t is not None and (t.carry_multiplier or t.free_multiplier is not None):
        changes["tumbles"] = dataclasses.replace(t, carry_multiplier=False, free_multiplier=None)
    try:
        return dataclasses.replace(game, **changes)
    except RuleError:  # another section needs the free spins
        return None


def paid_triggers(free_spins, counts: dict[int, int], rounds: int) -> tuple[float, float]:
    """The rounds of a paid game's run whose paid spin would start ``free_spins`` (its final
    window's count of the trigger symbol awards spins), per round, and the same with each
    weighted by the spins it awards: ``(T, W)``.

    ``counts``: the run's paid spins by that count
    (:attr:`slotmath.simulate.grid.GridSimulation.trigger_counts` of :func:`paid_game`,
    whose spins count its only scatter, the trigger).

    Examples
    --------
    >>> import slotmath
    >>> fs = slotmath.load_game("data/games/megaways_bonanza.toml").free_spins
    >>> paid_triggers(fs, {0: 90, 3: 6, 4: 3, 6: 1}, 100)
    (0.04, 0.56)
    """
    triggered = {k: c * fs_award for k, c in counts.items()
                 if (fs_award := free_spins.award_for(k))}
    return (sum(counts[k] for k in triggered) / rounds, sum(triggered.values()) / rounds)


def _default_paid(game: Game, reel_set: str) -> bool:
    return (game.grid is not None and game.grid.pays == "ways"
            and paid_game(game, reel_set) is not None)


def _eligible(game: Game) -> list[str]:
    multiplier = getattr(game.multipliers, "symbol", None)
    return [s.name for s in game.symbols.values()
            if not (s.scatter or s.bonus) and s.name != multiplier and (s.pays or s.wild)]


def tune_by_crn(game: Game, targets: Targets, reel_set: str = "base", *,
                symbols: Sequence[str] | None = None, time_limit: float = 60.0,
                level: int = 1, progress: Callable[[Step], None] | None = None,
                rounds: int = 200_000, confirm_rounds: int = 1_000_000,
                seed: int | None = None, anchors: int = 3, paid: bool | None = None,
                tries: int | None = None, why: str = "") -> SearchResult:
    """Tune ``reel_set`` of ``game`` to ``targets`` by swaps ranked and confirmed with common
    random numbers (see the module notes).

    Parameters
    ----------
    game : Game
    targets : Targets
        The RTP and its tolerance (which must exceed the start analysis' stated error),
        GLI-11's limit, and on a grid game ranges of the hit frequency, the SD and the free
        spins' "1 in N" (see the module notes); a max win's "1 in N" is refused.
    reel_set : str
    symbols : sequence of str, optional
        The symbols swaps may move (default: every paying symbol and wild; not scatters,
        bonus or multiplier symbols).
    time_limit : float
        Seconds for the search, counted after the start's analysis; no run starts after it.
        The final game's analysis (and the GLI-11 checks) come after it.
    rounds, confirm_rounds : int
        Rounds of each ranking run and of each confirming run.
    seed : int, optional
        The runs' seed (default the game's ``[analysis]`` seed, else 0).
    anchors : int
        Analyses of a reached game at most: when one misses the target, the estimates
        start again from it (the new anchor) while time is left.
    paid : bool, optional
        Pair the estimates on :func:`paid_game` (see the module notes). Default: on for a
        ways grid game whose free spins play their own reels.
    tries : int, optional
        Proposals confirmed per ranking (default :data:`TRIES`, :data:`PAID_TRIES` when the
        runs pair on the paid game).

    Returns
    -------
    SearchResult
        ``rank`` is ``"crn"``; ``figures``: the final game's analysis; ``estimates``: the
        simulation runs made.

    Examples
    --------
    >>> import slotmath
    >>> g = slotmath.load_game("tests/data/grid/cluster_tiny.toml")
    >>> r = tune_by_crn(g, Targets(Fraction(3), Fraction(1, 10), gli11=None),
    ...                 rounds=20_000, confirm_rounds=50_000)
    >>> r.met, r.figures.rtp == slotmath.analyze(r.game).rtp
    (True, True)
    """
    import slotmath
    from slotmath.simulate import simulate

    called = started = time.monotonic()

    def left() -> float:
        return time_limit - (time.monotonic() - started)

    check_reel_set(game, reel_set)
    if targets.max_win_one_in is not None:
        raise ValueError(f"{game.name}: a max_win_one_in range is not offered when tuning by "
                         f"common random numbers (a simulated game's max win and its '1 in "
                         f"N' are the largest win its run happened to see, not a figure of "
                         f"its strips)")
    ranged = [name for name in ("hit_frequency", "sd", "feature_one_in")
              if getattr(targets, name) is not None]
    if ranged and game.grid is None:
        raise ValueError(f"{game.name}: a {ranged[0]} range by common random numbers needs "
                         f"a grid game (its paired runs kept block by block)")
    if targets.feature_one_in is not None and game.free_spins is None:
        raise ValueError(f"{game.name}: a feature_one_in range needs free spins; the game "
                         f"has none")
    if symbols is None:
        symbols = _eligible(game)
    unknown = [s for s in symbols if s not in game.symbols]
    if unknown:
        raise ValueError(f"{game.name} has no symbol {unknown[0]!r}")
    if seed is None:
        seed = game.analysis.seed if game.analysis is not None else 0
    if paid is None:
        paid = _default_paid(game, reel_set)
    if tries is None:
        tries = PAID_TRIES if paid else TRIES
    paired = paid_game(game, reel_set) if paid else game
    if paired is None:
        raise ValueError(f"{game.name}: no paid game to pair on (no free spins on reels of "
                         f"their own)")
    if paid:
        trigger_symbol = game.free_spins.trigger
        scatters = [s.name for s in paired.symbols.values() if s.scatter]
        if scatters != [trigger_symbol]:  # the paid game's spins count its only scatter
            raise ValueError(f"{game.name}: the paid game's spins cannot count the free-spin "
                             f"trigger {trigger_symbol!r} (its scatters: {scatters})")
    start_reels = tuple(game.reel_sets[reel_set].reels)
    n_reels = len(start_reels)

    count = {"analyses": 0, "runs": 0, "checks": 0}
    runs: dict = {}

    def game_of(reels) -> Game:
        return game.replace_reels(reel_set, tuple(reels))

    def run(reels, n: int) -> dict:
        """The paired game's run on ``reels``: :func:`block_figures` of its blocks (a grid
        game), else its RTP as one block."""
        key = (tuple(reels), n)
        if key not in runs:
            count["runs"] += 1
            played = paired.replace_reels(reel_set, tuple(reels))
            if game.grid is not None:
                from slotmath.simulate.grid import grid_blocks

                blocks = grid_blocks(played, level, rounds=n, seed=seed, block=PAIRED_BLOCK)
                runs[key] = block_figures(blocks, game.free_spins if paid else None)
            else:
                runs[key] = {"rounds": np.array([float(n)]),
                             "rtp": np.array([simulate(played, n, seed, level).rtp * n])}
        return runs[key]

    def analysed_figures(g: Game):
        """``g``'s analysis: its figures (the free spins' trigger probability as the
        feature's) and what the paired runs on the paid game hold at the anchor's: the free
        spins' mean win per trigger, P(a trigger's round pays only by its free spins) per
        trigger and E[X^2] (its trigger part comes from the paired run, see ``anchored``)."""
        count["analyses"] += 1
        a = slotmath.analyze(g, level)
        f = figures_from(a)
        held = {"value": 0.0, "hit": 0.0, "trigger": 0.0}
        if game.free_spins is not None and game.grid is not None:
            from slotmath.features.grid import owner_of

            owner = owner_of(a.composition)
            p = float(owner.free_spins["trigger_probability"])
            f = dataclasses.replace(f, feature_probability=Fraction(p))
            held["trigger"] = p
            if paid:
                held["value"] = float(owner.free_spins["expected_win"])
                only = float(owner.hit_frequency) - float(owner.base_hit_frequency)
                held["hit"] = only / p if p else 0.0
        return f, held

    start, start_held = analysed_figures(game)
    working = (targets.tolerance - Fraction(start.rtp_error)) / 2
    if working <= 0:
        raise ValueError(f"{game.name}: the tolerance {float(targets.tolerance):g} does not "
                         f"exceed the analysis' stated error {start.rtp_error:.2g}: no tuned "
                         f"game could be shown to meet it")
    target = float(targets.rtp)
    # the estimates are held to the ranges as they are and to the RTP within the working
    # tolerance; GLI-11 is checked after the search
    aimed = dataclasses.replace(targets, tolerance=working, gli11=None)
    reels = start_reels
    started = time.monotonic()  # the time limit is the search's: the start's analysis is not

    # the last analysed game: its figures, reels and what the paired runs hold at its values
    anchor: dict = {}

    def anchored(figures: Figures, rs, held: dict) -> None:
        anchor.update(figures=figures, reels=rs, **held, square=0.0)
        if paid and held["trigger"]:
            # E[X^2] of the round beyond the paid spin's (the free spins' square and the
            # cross term), per trigger: the analysis' E[X^2] less the paid game's by the
            # confirming run on the anchor
            paid_square = float(run(rs, confirm_rounds)["second_moment"].sum()) / confirm_rounds
            anchor["square"] = (float(figures.second_moment) - paid_square) / held["trigger"]

    def figures_at(f: Figures) -> dict:
        return {"rtp": float(f.rtp), "hit_frequency": float(f.hit_frequency),
                "second_moment": float(f.second_moment),
                "trigger": float(f.feature_probability)}

    def shares(old: dict) -> dict | None:
        """What one trigger adds per figure (:func:`paired_change`), ``old`` the run the
        change is read against: the anchor's value per trigger, per awarded spin of
        ``old``'s triggers."""
        if not paid:
            return None
        weighted = float(old["weighted"].sum())
        per_spin = float(old["trigger"].sum()) / weighted if weighted else 0.0
        return {"rtp": anchor["value"] * per_spin, "second_moment": anchor["square"] * per_spin,
                "hit_frequency": anchor["hit"]}

    def change(new, old, n: int) -> dict:
        """Per figure, (change, standard error) of ``new`` against ``old`` by ``n`` paired
        rounds (:func:`paired_change`; with ``paid``, the free spins' part through the
        triggers)."""
        older = run(old, n)
        return paired_change(run(new, n), older, shares(older))

    def estimate(rs) -> tuple[dict, dict]:
        """``rs``'s figures: the anchor's analysis plus the paired change by
        ``confirm_rounds`` rounds; and each one's standard error."""
        d = change(rs, anchor["reels"], confirm_rounds)
        base = figures_at(anchor["figures"])
        return ({k: base[k] + d[k][0] for k in d}, {k: d[k][1] for k in d})

    def as_figures(values: dict) -> Figures:
        rtp = Fraction(values["rtp"])
        hit = min(max(values.get("hit_frequency", 0.0), 0.0), 1.0)
        # an estimate (or a ranking's prediction) may put E[X^2] below RTP^2: SD 0 then
        square = max(Fraction(values.get("second_moment", 0.0)), rtp * rtp)
        return Figures(rtp, Fraction(hit), square,
                       Fraction(max(values.get("trigger", 0.0), 0.0)))

    def misses_of(values: dict) -> dict:
        return _misses(as_figures(values), aimed)

    def rank_key(values: dict) -> tuple[float, float]:
        """What a step lowers: every target's estimated miss (the solver's relative score),
        then the RTP's distance from the target."""
        return _score(misses_of(values), aimed), abs(target - values["rtp"])

    def broken(new: dict, old: dict) -> str:
        """The first range that holds by ``old``'s estimate and not by ``new``'s."""
        a, b = misses_of(new), misses_of(old)
        return next((k for k in ranged if b[k] == 0 and a[k] != 0), "")

    def detail(values: dict, errors: dict) -> str:
        """The ranged figures' estimates with their standard errors."""
        out = []
        if targets.hit_frequency is not None:
            out.append(f"hit frequency {values['hit_frequency'] * 100:.4f}% "
                       f"+-{errors['hit_frequency'] * 100:.4f}")
        if targets.sd is not None:
            f = as_figures(values)
            sd = f.sd
            # delta method: d SD = (d E[X^2] - 2 RTP d RTP) / (2 SD)
            e = math.hypot(errors["second_moment"], 2 * values["rtp"] * errors["rtp"])
            out.append(f"SD {sd:.4f} +-{e / (2 * sd) if sd else math.inf:.4f}")
        if targets.feature_one_in is not None:
            p, e = values["trigger"], errors["trigger"]
            out.append(f"feature 1 in {1 / p if p > 0 else math.inf:,.2f} (P {p:.6f} "
                       f"+-{e:.6f})")
        return ", ".join(out)

    now_values = figures_at(start)
    result = SearchResult(game, start, start, targets=targets, rank="crn",
                          method=(f"swaps by common random numbers ({rounds:,} rounds to "
                                  f"rank, {confirm_rounds:,} to confirm, seed {seed}"
                                  f"{', on the game without its free spins' if paid else ''}"
                                  + (f"; {', '.join(ranged)} by the same paired rounds, each "
                                     f"with the standard error of the paired difference"
                                     if ranged else "")
                                  + "); the final game by its analysis"
                                  + (f"; not by window tables: {why}" if why else "")))
    history = [reels]
    seen = {reels}
    stopped = ""
    number = 0

    def applied(rs, sw: Swap):
        out = list(rs)
        for j in (range(n_reels) if sw.reel < 0 else (sw.reel,)):
            new = swap(out[j], sw.a, sw.b, sw.k)
            if new is None:
                return None
            out[j] = new
        if not any(sw.a in r.symbols for r in out):  # a symbol never leaves the strips
            return None
        return tuple(out)

    def met(values: dict) -> bool:
        return all(m == 0 for m in misses_of(values).values())

    final = start
    analysed = [(start_reels, start)]  # every game analysed, in order: the result is the closest
    ranking = {"rounds": rounds}  # doubled (up to confirm_rounds) when a ranking helps not
    anchored(start, start_reels, start_held)
    for _ in range(anchors):
        now_values = figures_at(anchor["figures"])
        while not met(now_values):
            if left() <= 0:
                stopped = "time limit"
                break
            # rank: each symbol's value against the reference, one stop on every reel
            counts = {s: sum(r.symbols.count(s) for r in reels) for s in symbols}
            ref = max(symbols, key=lambda s: (counts[s], s))
            value = {ref: {k: 0.0 for k in now_values}}
            for s in symbols:
                if s == ref or left() <= 0:
                    continue
                moved = applied(reels, Swap(-1, ref, s, 1))
                if moved is None:
                    continue
                d = change(moved, reels, ranking["rounds"])
                value[s] = {k: d[k][0] if k in d else 0.0 for k in now_values}
            if left() <= 0:
                stopped = "time limit"
                break
            now_key = rank_key(now_values)
            scored = []
            for a, value_a in value.items():
                for b, value_b in value.items():
                    if a == b:
                        continue
                    for k in range(1, MAX_SWAPS + 1):
                        for reel in range(-1, n_reels):
                            share = k / (1 if reel < 0 else n_reels)
                            predicted = {f: now_values[f] + share * (value_b[f] - value_a[f])
                                         for f in now_values}
                            key = rank_key(predicted)
                            if key < now_key:
                                scored.append((key, Swap(reel, a, b, k),
                                               predicted["rtp"] - now_values["rtp"]))
            scored.sort(key=lambda p: (p[0], p[1]))
            kept_one = False
            tried = 0
            for _, sw, predicted in scored:
                if tried >= tries or left() <= 0:
                    break
                new = applied(reels, sw)
                if new is None or new in seen:
                    continue
                seen.add(new)
                tried += 1
                t0 = time.monotonic()
                values, errors = estimate(new)
                reason = broken(values, now_values)
                kept = not reason and rank_key(values) < rank_key(now_values)
                st = SwapStep(number, sw.reel, len(scored), 0, {str(sw): sw.k},
                              Fraction(now_values["rtp"]), Fraction(values["rtp"]), kept,
                              time.monotonic() - t0,
                              f"the {reason} range would no longer hold" if reason else "",
                              swap=sw, predicted=predicted, rounds=confirm_rounds,
                              detail=detail(values, errors) if ranged else "",
                              estimates={k: (values[k], errors[k]) for k in values})
                number += 1
                result.tried += 1
                result.steps.append(st)
                if progress is not None:
                    progress(st)
                if kept:
                    reels, now_values = new, values
                    history.append(reels)
                    result.kept += 1
                    kept_one = True
                    break
            if not kept_one:
                if left() > 0 and ranking["rounds"] < confirm_rounds:  # rank again, finer
                    ranking["rounds"] = min(2 * ranking["rounds"], confirm_rounds)
                    continue
                stopped = "time limit" if left() <= 0 else "no move helps"
                break
        else:
            stopped = ("the estimates meet every target (the RTP within the working tolerance)"
                       if ranged else "the estimate is within the working tolerance")
        if reels == anchor["reels"]:
            break
        final, held = analysed_figures(game_of(reels))  # the game reached, by its analysis
        analysed.append((reels, final))
        if all(m == 0 for m in _misses(final, targets).values()) or left() <= 0:
            break
        anchored(final, reels, held)  # the estimates start again here
        stopped = "re-anchored"
    if ranged:  # the analysed game that misses the targets least (the solver's score)
        best = min(range(len(analysed)), key=lambda i: (
            _score(_misses(analysed[i][1], targets), targets),
            abs(float(analysed[i][1].rtp) - target), i))
    else:
        best = closest([float(f.rtp) for _, f in analysed], target)
    if best < len(analysed) - 1:  # the last analysis came out farther off: go back to the best
        reels, final = analysed[best]
        del history[history.index(reels) + 1:]
        stopped += (f"; the closest of the {len(analysed)} games analysed is returned "
                    f"({'the start' if best == 0 else f'analysis {best}'})")

    current_awards = start_awards = None
    if targets.gli11 is not None:
        count["checks"] += 1
        start_awards = awards(game, targets.gli11)
        final_awards = start_awards
        if reels != start_reels:
            count["checks"] += 1
            final_awards = awards(game_of(reels), targets.gli11)
        while len(history) > 1 and (final_awards.failing - start_awards.failing):
            history.pop()
            result.undone += 1
            reels = history[-1]
            final_awards, final = start_awards, start
            if reels != start_reels:  # its figures as the search's (the trigger's too)
                count["checks"] += 1
                final_awards = awards(game_of(reels), targets.gli11)
                final, _ = analysed_figures(game_of(reels))
        current_awards = final_awards
    result.game = game_of(reels)
    result.figures, result.awards, result.start_awards = final, current_awards, start_awards
    result.misses = _misses(final, targets, current_awards)
    result.analyses, result.checks = count["analyses"], count["checks"]
    result.estimates = count["runs"]
    result.stopped = stopped
    result.seconds = time.monotonic() - called
    return result
