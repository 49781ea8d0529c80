"""The books of a cascading game whose full cycle is too large to visit (Frozen Gems: 40^5 stop
combinations x 60 bonus orderings), from a seeded search over whole rounds.

The lookup table is made from the game's round law as for every other game (the exact
full-cycle counts of the rounds that start nothing, the analysis' numerical law of those that
start free spins: :mod:`slotmath.publish.law`); only the books are found another way. The
plain player (:class:`~slotmath.publish.cascades.CascadePlayer`) cannot visit 6.1e9 stop
combinations for one per table key, and a free-spin feature of up to 50 spins carrying the
multiplier reaches too many totals for :class:`~slotmath.publish.cascades.
CascadeFreeSpinsPlayer`'s table. Here a round is sought whole:

1. **Search** (:meth:`CascadeRoundSearch.search`): ``search.rounds`` seeded rounds are played
   by the cascade simulator's compiled kernel (:mod:`slotmath.simulate.cascades`, its own
   evaluation: it shares none with the plain player), round ``n`` from its own PCG64 state
   (:func:`slotmath.simulate.cascades._round_states` of ``search.seed``), and the first round
   of each distinct win is kept. The first half of the rounds draws the bonus arrangement by
   the game's weights; the second half draws each arrangement of positive weight equally
   often (the rare ones, Frozen Gems' two bonus wilds, make the tail), which changes only
   which rounds are found, never what a round is: every round is stop combinations (and
   orderings) of positive weight, played by the rules. The search stops early once every
   row of the table has a round.
2. **Books** (:meth:`CascadeRoundSearch.books`): for each row, the round found whose win is
   closest to the row's payout among those that round to it, played again from its state by
   the plain player: the draws (stops reel by reel, the arrangement and its shuffle, for the
   paid spin and then each free spin) are taken again in Python from the round's PCG64
   state, and each spin is played by :class:`~slotmath.publish.cascades.CascadePlayer`
   (window by window, on symbol names); the free spins the plain player's own trigger counts
   award, at the index it carries. Its win must be the kernel's, to the credit, or the export
   stops. The book ends with a ``searchedRound`` event: seed, round number, the draw law of
   the arrangement, the state.

Rows no round reaches within the budget have no book: the export gives their probability to
rows that have one (:func:`slotmath.publish.table.lookup_table`, ``allowed``): with
``"nearest"`` and ``"down"`` to the nearest such row, with ``"keep-rtp"`` split between the
two around it so that the mean is kept (above the top row found: to that row, scaled, with
row 0 giving up the difference), and the report states the rows, their probability and the
exact change of the RTP. ``search.unplayed_max`` bounds that probability.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from slotmath.publish.cascades import CYCLE_MAX, CascadePlayer, _cycle
from slotmath.publish.spins import amount_fields, close_round

__all__ = ["CascadeRoundSearch", "RoundSearch", "whole_rounds"]

#: the first batch of rounds played (doubling up to :data:`BATCH_MAX`): a small game stops
#: after it when every row has its round
BATCH_FIRST = 1 << 14
BATCH_MAX = 1 << 20
#: the draw laws of the bonus arrangement in the search, by half of the rounds
DRAW_LAWS = ("game weights", "arrangements of positive weight equally likely")


@dataclass(frozen=True)
class RoundSearch:
    """The seeded search of whole rounds for a cascading game's books.

    Attributes
    ----------
    rounds : int
        The budget: rounds played at most (the search stops early once every row has one).
    seed : int
        Seed of the rounds' PCG64 states.
    cycle_max : int
        A reel set with more stop combinations x bonus orderings than this is searched (at or
        below it the plain player visits the full cycle: one round per table key).
    unplayed_max : float
        The most probability the rows without a round may carry (moved to rows with one);
        above it the export is refused.
    """

    rounds: int = 1 << 27
    seed: int = 0
    cycle_max: int = CYCLE_MAX
    unplayed_max: float = 1e-3

    def __post_init__(self):
        if self.rounds < 1 or self.seed < 0 or self.cycle_max < 0 or self.unplayed_max < 0:
            raise ValueError("the round search needs rounds >= 1, seed >= 0, cycle_max >= 0 "
                             f"and unplayed_max >= 0, got {self}")


def whole_rounds(analysis, search: RoundSearch | None = None, progress=None):
    """The round search of ``analysis``' books (a :class:`CascadeRoundSearch`), or None when
    the plain player visits its full cycles (every reel set played within
    ``search.cycle_max``) or the game has no cascades."""
    game = analysis.game
    search = RoundSearch() if search is None else search
    if game.cascades is None:
        return None
    sets = {"base"} | {m.reels for m in game.modes if m.reels}
    if game.free_spins is not None:
        sets.add(game.free_spins.reels)
    if all(_cycle(game, name) <= search.cycle_max for name in sets):
        return None
    why = search_refusal(game)
    if why is not None:
        raise ValueError(why)
    if analysis.mode is not None:
        raise ValueError(f"{game.name}: the round search plays the standard game only")
    return CascadeRoundSearch(analysis, search, progress)


def search_refusal(game) -> str | None:
    """Why the round search cannot play ``game`` (None: it can)."""
    c = game.cascades
    if c.refill != "strip":
        return (f"{game.name}: the books play strip-refill cascades only (a random refill draw "
                "is not a stop combination)")
    if c.scatters != "final":
        return (f"{game.name}: the books' cascade player pays scatters on the final window only "
                f"(scatters = {c.scatters!r})")
    if game.modes:
        return (f"{game.name}: the books' round search plays the standard game only (its "
                f"cycle is above {CYCLE_MAX:,}, and it has game modes)")
    if game.cap_coins(game.bet_levels[0]) is not None:
        return f"{game.name}: the books' round search plays no win cap"
    return None


@dataclass
class _Found:
    """The search's result: per distinct round win (kernel credits), the first round."""

    first: dict[int, int]
    rounds: int
    seconds: float


class CascadeRoundSearch:
    """The books of a cascading game from a seeded search over whole rounds (see the module
    notes). ``simulated`` is False: the law is the analysis', not the search's."""

    simulated = False
    whole_rounds = True

    def __init__(self, analysis, search: RoundSearch, progress=None):
        from slotmath.evaluate.compiled import compile_game
        from slotmath.simulate import cascades as sc

        game = analysis.game
        self.analysis, self.search, self.progress = analysis, search, progress
        self.game = game
        fs = game.free_spins
        level = analysis.level
        base = compile_game(game, "base", level)
        free_set = compile_game(game, fs.reels, level, free=True) if fs is not None else base
        self.credits_per_bet = base.credits_per_bet
        self.pair = sc._pair(base, free_set)
        # the search's second draw law: every arrangement of positive weight alike
        cum = self.pair.arrangement_cumulative
        even = np.zeros_like(cum)
        for gi in range(2):
            n = int(self.pair.arrangements[gi])
            weights = np.diff(np.concatenate([[0], cum[gi, :n]]))
            even[gi, :n] = np.cumsum(weights > 0)
        self.laws = (self.pair, self.pair._replace(arrangement_cumulative=even))
        self.stages = 2 if any(int(self.pair.arrangements[gi]) > 1 and
                               bool(self.pair.has_bonus[gi]) for gi in range(2)) else 1
        self.inc = sc.rng_state(np.random.Generator(np.random.PCG64(search.seed)))
        self.effects = tuple(game.bonus_symbols.effects) if game.bonus_symbols else ()
        self.paid = CascadePlayer(game, level, "base")
        self.free = CascadePlayer(game, level, fs.reels, free=True) if fs is not None else None
        if self.paid.model.credits_per_bet != self.credits_per_bet:
            raise AssertionError("the plain player and the kernel count different credits")
        self.found: _Found | None = None

    # -- the search ------------------------------------------------------------------------
    def _stage(self, number: int) -> int:
        """The draw law of round ``number`` (0: the game's weights)."""
        return 0 if self.stages == 1 else int(number >= self.search.rounds // 2)

    def search_rounds(self, rows: np.ndarray, rounding: str) -> _Found:
        """Play the budget's rounds (or until every row of ``rows``, tenths, has one), the
        first round of each distinct win kept."""
        from slotmath.publish.books import _Best
        from slotmath.simulate import cascades as sc

        if self.found is not None:
            return self.found
        total = self.search.rounds
        bounds = [0, total // 2, total] if self.stages == 2 else [0, total]
        first: dict[int, int] = {}
        start = time.perf_counter()
        played = 0
        batch = BATCH_FIRST
        covered = False
        for stage in range(self.stages):
            at, end = bounds[stage], bounds[stage + 1]
            while at < end and not covered:
                n = min(batch, end - at)
                states = sc._round_states(self.search.seed, at, n)
                rng = np.random.Generator(np.random.PCG64(self.search.seed))
                parts = sc._run_batch(rng, self.laws[stage], n, True, np.zeros(1, np.int64),
                                      states)
                wins = parts[0] + parts[1] + parts[2] + parts[3]
                values, where = np.unique(wins, return_index=True)
                for x, i in zip(values.tolist(), where.tolist()):
                    if x not in first:
                        first[x] = at + i
                at += n
                played += n
                batch = min(2 * batch, BATCH_MAX)
                amounts = np.array(sorted(first), np.int64)
                if 2 * len(first) >= len(rows):  # (a win serves two rows at most)
                    best = _Best(rows, self.credits_per_bet, rounding)
                    best.offer(amounts, None)
                    covered = all(h is not None for h in best.how)
                if self.progress is not None:
                    self.progress(played, total)
        self.found = _Found(first, played, time.perf_counter() - start)
        return self.found

    # -- a round played again by the plain player ------------------------------------------
    def _state(self, number: int) -> np.ndarray:
        from slotmath.simulate import _pcg64
        from slotmath.simulate import cascades as sc

        rs = self.inc.copy()
        hi, lo = sc._round_states(self.search.seed, number, 1)[0]
        rs[_pcg64.S_HI], rs[_pcg64.S_LO], rs[_pcg64.HAS32] = hi, lo, 0
        return rs

    def _draw(self, rs, gi: int, law) -> tuple[tuple[int, ...], tuple]:
        """One spin's draws of game ``gi`` (0 paid, 1 free) in the kernel's order: the stops
        reel by reel, the arrangement by ``law``'s weights and its shuffle."""
        from slotmath.simulate._pcg64 import draw
        from slotmath.simulate.cascades import _pick

        p = law
        stops = []
        for r in range(p.rows.shape[1]):
            size = int(p.lengths[gi, r])
            stops.append(int(draw(rs, size)) if p.even[gi, r]
                         else int(_pick(rs, p.cumulative, gi, r, size)))
        n = len(stops)
        if not p.has_bonus[gi]:
            return tuple(stops), (None,) * n
        cum = p.arrangement_cumulative[gi]
        u = int(draw(rs, int(cum[int(p.arrangements[gi]) - 1])))
        a = 0
        while u >= cum[a]:
            a += 1
        above = [int(e) for e in p.arrangement_effect[gi, a, :n]]
        if p.shuffle[gi]:
            for r in range(n - 1, 0, -1):
                j = int(draw(rs, r + 1))
                above[r], above[j] = above[j], above[r]
        return tuple(stops), tuple(self.effects[e] for e in above)

    def play(self, number: int) -> tuple[Fraction, list[dict], str]:
        """Round ``number`` of the search played again by the plain player: its win (bets),
        its events and its kind."""
        game, fs = self.game, self.game.free_spins
        stage = self._stage(number)
        law = self.laws[stage]
        rs = self._state(number)
        cpb = self.paid.model.credits_per_bet
        stops, arrangement = self._draw(rs, 0, law)
        events, spin = self.paid.events(stops, arrangement, 0, 0)
        total = spin.total
        spins = fs.award_for(spin.trigger) if fs is not None else 0
        if spins and fs.max_spins is not None:
            spins = min(spins, fs.max_spins)
        kind = "paid spin"
        if spins:
            kind = "free_spins"
            carry = game.cascades.carry_multiplier
            index = spin.cascades if carry else 0

            def add(event):
                events.append({"index": len(events)} | event)
            add({"type": "freeSpinTrigger", "totalFs": spins, "cascadeIndex": index,
                 "positions": [{"reel": j, "row": r} for j, col in enumerate(spin.window)
                               for r, s in enumerate(col) if s == fs.trigger]})
            left, awarded, played, paid_free = spins, spins, 0, 0
            while left:
                played += 1
                add({"type": "updateFreeSpin", "amount": played, "total": awarded})
                stops, arrangement = self._draw(rs, 1, law)
                spin_events, fspin = self.free.events(stops, arrangement, index, len(events),
                                                      total)
                events += spin_events
                total += fspin.total
                paid_free += fspin.total
                more = fs.retrigger_for(fspin.trigger) if fs.retrigger else 0
                if fs.max_spins is not None:
                    more = min(more, fs.max_spins - awarded)
                if more > 0:
                    add({"type": "freeSpinRetrigger", "totalFs": awarded + more,
                         "positions": [{"reel": j, "row": r}
                                       for j, col in enumerate(fspin.window)
                                       for r, s in enumerate(col) if s == fs.trigger]})
                    awarded += more
                    left += more
                left -= 1
                index = index + fspin.cascades if carry else 0
            add({"type": "freeSpinEnd"} | amount_fields(paid_free, cpb))
        state = self._state(number)
        from slotmath.simulate import _pcg64
        events.append({"index": len(events), "type": "searchedRound", "seed": self.search.seed,
                       "round": number, "drawLaw": DRAW_LAWS[stage],
                       "state": [f"{int(state[_pcg64.S_HI]):016x}",
                                 f"{int(state[_pcg64.S_LO]):016x}"]})
        return Fraction(total, cpb), events, kind

    # -- the books -------------------------------------------------------------------------
    def books(self, rows, rounding: str):
        """One round for each row (tenths) of ``rows`` that the search reached: the round
        whose win is closest to the row's payout among those that round to it, played again
        (see the module notes); the others in ``missing``."""
        from slotmath.publish.books import Book, Books, _Best

        rows = np.array(sorted(rows), np.int64)
        found = self.search_rounds(rows, rounding)
        started = time.perf_counter()
        cpb = self.credits_per_bet
        amounts = np.array(sorted(found.first), np.int64)
        best = _Best(rows, cpb, rounding)
        best.offer(amounts, None)
        reached = sum(h is not None for h in best.how)
        out: dict[int, Book] = {}
        for j, k in enumerate(rows.tolist()):
            how = best.how[j]
            if how is None:
                continue
            credits = how[0]
            number = found.first[credits]
            win, events, kind = self.play(number)
            if win * cpb != credits:
                raise AssertionError(
                    f"{self.game.name}: the books' cascade player and the simulator disagree "
                    f"on round {number} (seed {self.search.seed}): the player pays "
                    f"{float(win):g} x bet, the simulator {credits / cpb:g}")
            close_round(events, k, credits, cpb, rounding)
            out[k] = Book(k, win, kind, events)
            if self.progress is not None and len(out) % 256 == 0:
                self.progress(len(out), reached)
        missing = tuple(k for k in rows.tolist() if k not in out)
        search = {"method": ("seeded search over whole rounds (the cascade simulator's kernel), "
                             "each book played again by the plain player"),
                  "seed": self.search.seed, "budget": self.search.rounds,
                  "rounds": found.rounds, "distinct_wins": len(found.first),
                  "draw_laws": list(DRAW_LAWS[:self.stages]),
                  "search_seconds": found.seconds,
                  "replay_seconds": time.perf_counter() - started,
                  "unplayed_max": self.search.unplayed_max}
        return Books(out, missing, False, search)
