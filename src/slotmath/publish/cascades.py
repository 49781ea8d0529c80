"""The rounds of a cascading game for the books (the ``cascades`` declaration's ``book``
hook): one enumerated stop combination (and ordering of the frozen bonus symbols) per outcome
of a spin's exact table, its cascade sequence as events, and the free spins started from the
final window, each a cascade spin of the free reels at the index the feature carries.

A cascading spin's round is its cascade sequence (``docs/game-format.md``, "Cascades"): each
fall's window is evaluated with the reels freed so far, its win times the multiplier of the
fall's index is paid, the winning positions are removed, the survivors fall and the strip
refills the gaps from above, until a fall wins nothing; the scatters of the final window pay
last and trigger. With strip refill the stops (and the bonus symbols above the reels) decide
the whole sequence, so a spin is a stop combination of the full cycle and the sequence it
plays.

:class:`CascadePlayer` plays a spin here in plain Python (:meth:`CascadePlayer.spin`), window
by window with :class:`~slotmath.evaluate.window.PayModel`'s pay tables, paid or free (the
free multiplier rule from the carried index, the free-spin multiplier, scatter pays only with
``scatter_pays``). The full cycle of each reel set played (every stop combination of positive
weight times every ordering of the bonus arrangements, at most :data:`CYCLE_MAX`) is visited
once, keeping the first combination that shows each key; the keys must be exactly the exact
engine's table keys (the plain player and :mod:`slotmath.exact.cascades` agree on every
outcome, or the export stops). :class:`CascadeSpins` gives the paid spins,
:class:`CascadeFreeSpinsPlayer` the free spins: which totals a feature can pay (a table over
spins left, spins awarded and carried index) and one feature that pays a given total.

Not played here (refused in one line by :func:`refusal`): random refill (a refill draw is
not a stop combination). A cycle larger than :data:`CYCLE_MAX` (Frozen Gems': 40^5 stops x 60
orderings) is not visited: its books come from a seeded search over whole rounds, each played
again by :class:`CascadePlayer` (:mod:`slotmath.publish.cascade_rounds`).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import numpy as np

from slotmath.evaluate.window import PayModel
from slotmath.publish.spins import amount_fields, board

__all__ = ["CYCLE_MAX", "CascadePlayer", "CascadeSpins", "book", "refusal"]

#: the most stop combinations x bonus orderings the plain player visits
CYCLE_MAX = 1 << 20
#: a cascade sequence longer than this never ends (the engine's rule)
MAX_FALLS = 250


def _orderings(game) -> list[tuple[str | None, ...]]:
    """The bonus symbols above the reels, one tuple per ordering the engine weighs (each
    distinct ordering of each arrangement with ``shuffle``); one empty one without them."""
    bonus = game.bonus_symbols
    if bonus is None:
        return [(None,) * game.n_reels]
    out: list = []
    for weight, symbols in bonus.arrangements:
        if not weight:
            continue
        orders = sorted(set(itertools.permutations(symbols))) if bonus.shuffle \
            else [tuple(symbols)]
        out += [o for o in orders if o not in out]
    return out


def _cycle(game, reel_set: str) -> int:
    live = [sum(1 for w in r.stop_weights if w > 0) for r in game.reel_sets[reel_set].reels]
    n = 1
    for x in live:
        n *= x
    return n * len(_orderings(game))


def refusal(game, reel_set: str = "base") -> str | None:
    """Why the books cannot play ``game``'s cascades (None: they can).

    >>> import slotmath
    >>> refusal(slotmath.load_game("tests/data/cascades/tiny_bonus.toml")) is None
    True
    >>> refusal(slotmath.load_game("data/games/frozen_gems.toml")) is None  # searched
    True
    """
    c = game.cascades
    if c is None:
        return None
    if c.refill != "strip":
        return (f"{game.name}: the books play strip-refill cascades only (a random refill draw "
                "is not a stop combination)")
    if _too_large(game, reel_set):
        from slotmath.publish.cascade_rounds import search_refusal

        return search_refusal(game)  # its books from a seeded search over whole rounds
    return None


def _too_large(game, reel_set: str, cycle_max: int = CYCLE_MAX) -> bool:
    """Whether a reel set the books play has more than ``cycle_max`` stop combinations x
    bonus orderings (the free spins are retriggered up to the loader's ``max_spins``)."""
    fs = game.free_spins
    sets = {reel_set} | {m.reels for m in game.modes if m.reels}
    if fs is not None:
        sets.add(fs.reels)
    return any(_cycle(game, name) > cycle_max for name in sets)


@dataclass(frozen=True)
class Fall:
    """One fall of a cascade sequence: the window shown, the reels freed (effect name or
    None), the multiplier of its index, its wins (credits before the multiplier) and the
    positions they remove."""

    window: tuple[tuple[str, ...], ...]
    freed: tuple[str | None, ...]
    multiplier: int
    wins: tuple[dict, ...]
    credits: int
    removed: frozenset


@dataclass(frozen=True)
class Spin:
    """A cascading spin played: its falls, the final window's scatter wins (credits as
    paid), the whole win, the sum of the falls' wins before any multiplier (``drop_sum``),
    the winning falls (``cascades``) and the trigger symbols of the final window."""

    falls: tuple[Fall, ...]
    scatter: tuple[dict, ...]
    total: int
    drop_sum: int
    cascades: int
    trigger: int

    @property
    def window(self):
        return self.falls[-1].window


class CascadePlayer:
    """Cascading spins of ``game`` at bet ``level`` on ``reel_set``, played by the rules
    (:meth:`spin`), in :class:`~slotmath.evaluate.window.PayModel` credits: paid spins, or
    free spins (``free``: the free multiplier rule, the free-spin multiplier on every win,
    scatter pays only with ``scatter_pays``)."""

    def __init__(self, game, level: int = 1, reel_set: str = "base", free: bool = False):
        self.game = game
        self.model = PayModel(game, level)
        self.reel_set = reel_set
        self.free = free
        self.reels = game.reel_sets[reel_set].reels
        self.orderings = _orderings(game)
        self.rule = game.cascades.rule(free=free)
        self.bonus = game.bonus_symbols
        self.scatters = set(game.scatters)
        fs = game.free_spins
        self.trigger = None if fs is None else fs.trigger
        self.spin_multiplier = fs.multiplier if free else 1
        self.scatter_pays = not free or fs.scatter_pays

    # -- one spin, by the rules -------------------------------------------------------------
    def _effective(self, window, freed):
        """Each position as (symbol, split) with the freed reels' effects."""
        out = []
        for column, effect in zip(window, freed):
            e = None if effect is None else self.bonus.effects[effect]
            cells = []
            for s in column:
                if e is None or s in self.scatters:
                    cells.append((s, 1))
                elif e.wild:
                    cells.append((e.wild, 1))
                else:
                    cells.append((s, e.split))
            out.append(tuple(cells))
        return out

    def _evaluate(self, eff) -> tuple[list[dict], int, set]:
        """A fall's wins (before the multiplier), their credits and the positions removed."""
        m = self.model
        wins, total, removed = [], 0, set()
        if self.game.paylines is not None:
            for i, line in enumerate(self.game.paylines):
                lw = m.line_win([eff[j][r][0] for j, r in enumerate(line)])
                if lw.credits:
                    total += lw.credits
                    spots = [(j, line[j]) for j in range(lw.count)]
                    removed |= set(spots)
                    wins.append({"kind": "line", "line": i, "symbol": lw.key, "count": lw.count,
                                 "positions": spots, "credits": lw.credits})
            return wins, total, removed
        for key in m.keys:
            members = m.key_members[key]
            run, ways = 0, 1
            for column in eff:
                c = sum(m.multiplier[s] * split for s, split in column if s in members)
                if not c:
                    break
                run += 1
                ways *= c
            credits = m.key_credits[key].get(run, 0) * ways if run else 0
            if credits:
                total += credits
                spots = [(j, r) for j in range(run) for r, (s, _) in enumerate(eff[j])
                         if s in members]
                removed |= set(spots)
                wins.append({"kind": "ways", "symbol": key, "count": run, "ways": ways,
                             "positions": spots, "credits": credits})
        return wins, total, removed

    def spin(self, stops, arrangement, start_index: int = 0) -> Spin:
        """The cascade sequence of ``stops`` with ``arrangement`` above the reels, its first
        fall at index ``start_index`` (a free spin's carried index)."""
        rows = self.game.rows
        strips = [r.symbols for r in self.reels]
        window = [list(r.window(s, n)) for r, s, n in zip(self.reels, stops, rows)]
        tops = list(stops)
        counters = [0] * len(window)
        freed: list[str | None] = [None] * len(window)
        falls: list[Fall] = []
        total = drop_sum = 0
        m = self.spin_multiplier
        for k in range(MAX_FALLS + 1):
            if self.bonus is not None:
                for r, column in enumerate(window):
                    here = sum(s in self.scatters for s in column)
                    if freed[r] is None and counters[r] + here >= self.bonus.threshold:
                        freed[r] = arrangement[r]
            wins, credits, removed = self._evaluate(self._effective(window, freed))
            multiplier = self.rule.value(start_index + k)
            falls.append(Fall(tuple(map(tuple, window)), tuple(freed), multiplier,
                              tuple(wins), credits, frozenset(removed)))
            if not credits * multiplier * m:
                break
            total += credits * multiplier * m
            drop_sum += credits
            for r, column in enumerate(window):
                gone = [row for row in range(len(column)) if (r, row) in removed]
                keep = [s for row, s in enumerate(column) if row not in gone]
                n, p, strip = len(gone), tops[r], strips[r]
                window[r] = [strip[(p - n + i) % len(strip)] for i in range(n)] + keep
                tops[r] = (p - n) % len(strip)
                accumulate = self.bonus is None or self.bonus.accumulate
                counters[r] = counters[r] + n if accumulate else n
        else:
            raise ValueError(f"{self.game.name}: a cascade sequence of more than {MAX_FALLS} "
                             f"falls at stops {list(stops)}")
        final = falls[-1].window
        scatter = []
        for name, pays in self.model.scatter_credits.items():
            count = sum(column.count(name) for column in final)
            if pays[count] and self.scatter_pays:
                total += pays[count] * m
                scatter.append({"kind": "scatter", "symbol": name, "count": count,
                                "positions": [(j, r) for j, col in enumerate(final)
                                              for r, s in enumerate(col) if s == name],
                                "credits": pays[count] * m})
        trigger = 0 if self.trigger is None else sum(c.count(self.trigger) for c in final)
        return Spin(tuple(falls), tuple(scatter), total, drop_sum, len(falls) - 1, trigger)

    def events(self, stops, arrangement, start_index: int = 0, first_index: int = 0,
               won_before: int = 0) -> tuple[list[dict], Spin]:
        """The events of a spin: the reveal (stops, board, the bonus symbols above the
        reels), then per winning fall the reels freed, its wins times the multipliers, the
        running win (``setWin``: from ``won_before`` credits, what the free spins before it
        won) and the next fall's board (``tumble``); the final window's scatter wins.
        Amounts in hundredths of the bet."""
        spin = self.spin(stops, arrangement, start_index)
        cpb = self.model.credits_per_bet
        m = self.spin_multiplier
        events: list[dict] = []

        def add(event):
            events.append({"index": first_index + len(events)} | event)

        def spots(positions):
            return [{"reel": j, "row": r} for j, r in positions]
        reveal = {"type": "reveal", "gameType": "freegame" if self.free else "basegame",
                  "reelSet": self.reel_set, "stops": list(stops),
                  "board": board(spin.falls[0].window)}
        if self.bonus is not None:
            reveal["bonusSymbols"] = list(arrangement)
        add(reveal)
        paid, freed = 0, (None,) * len(stops)
        for k, fall in enumerate(spin.falls):
            new = [{"reel": r, "effect": e} for r, (e, before) in
                   enumerate(zip(fall.freed, freed)) if e is not None and before is None]
            if new:
                add({"type": "bonusFreed", "fall": k, "reels": new})
            freed = fall.freed
            if k == spin.cascades:
                break
            won = fall.credits * fall.multiplier * m
            paid += won
            wins = [{k2: v for k2, v in w.items() if k2 != "credits"}
                    | {"positions": spots(w["positions"])}
                    | amount_fields(w["credits"] * fall.multiplier * m, cpb, "win")
                    for w in fall.wins]
            add({"type": "winInfo", "fall": k, "multiplier": fall.multiplier}
                | ({"spinMultiplier": m} if self.free else {}) | {"wins": wins}
                | amount_fields(won, cpb, "totalWin"))
            add({"type": "setWin"} | amount_fields(won_before + paid, cpb))
            add({"type": "tumble", "fall": k + 1, "removed": spots(sorted(fall.removed)),
                 "board": board(spin.falls[k + 1].window)})
        if spin.scatter:
            won = sum(w["credits"] for w in spin.scatter)
            paid += won
            add({"type": "winInfo", "fall": spin.cascades, "multiplier": 1,
                 "wins": [{k2: v for k2, v in w.items() if k2 != "credits"}
                          | {"positions": spots(w["positions"])}
                          | amount_fields(w["credits"], cpb, "win") for w in spin.scatter]}
                | amount_fields(won, cpb, "totalWin"))
            add({"type": "setWin"} | amount_fields(won_before + paid, cpb))
        if paid != spin.total:
            raise AssertionError("the cascade events do not add up to the spin's win")
        return events, spin


class _Index:
    """Visit the full cycle of a player once and keep, per key ``key_of(spin)``, the first
    stop combination and bonus ordering that shows it; the keys must be exactly ``listed``
    (the exact engine's table)."""

    def __init__(self, player: CascadePlayer, key_of, listed, progress=None):
        self.player, self.key_of, self.listed, self.progress = player, key_of, listed, progress
        self.found: dict = {}
        self.complete = False

    def visit(self) -> None:
        if self.complete:
            return
        p = self.player
        live = [[s for s, w in enumerate(r.stop_weights) if w > 0] for r in p.reels]
        size = len(p.orderings)
        for x in live:
            size *= len(x)
        done = 0
        for stops in itertools.product(*live):
            for arrangement in p.orderings:
                key = self.key_of(p.spin(stops, arrangement))
                if key not in self.found:
                    self.found[key] = (stops, arrangement)
            done += len(p.orderings)
            if self.progress is not None and done % 65536 < len(p.orderings):
                self.progress(done, size)
        self.complete = True
        if set(self.found) != self.listed:
            extra = sorted(set(self.found) - self.listed)[:5]
            lost = sorted(self.listed - set(self.found))[:5]
            raise AssertionError(f"{p.game.name}: the books' cascade player and the exact "
                                 f"engine disagree on reels {p.reel_set}: outcomes only the "
                                 f"player shows {extra}, only the engine lists {lost}")


def _key_of(marks, scale: int, keep_a: bool, min_trigger: int | None):
    """The exact engine's table key of a spin (:func:`slotmath.features.cascades.table`:
    marks ``trigger``, ``trigger_index``, ``drop_sum``, then credits). The engine keeps the
    cascade count in ``trigger_index`` only where it matters: a paid spin that starts free
    spins (``min_trigger`` trigger symbols or more), every free spin when the index is
    carried (``keep_a``), which also keeps the drop sum."""
    from slotmath.features.cascades import STRIDE

    def key(spin: Spin) -> tuple[int, ...]:
        kept = keep_a or (min_trigger is not None and spin.trigger >= min_trigger)
        values = {"trigger": spin.trigger,
                  "trigger_index": spin.trigger + STRIDE * (spin.cascades if kept else 0),
                  "drop_sum": spin.drop_sum if keep_a else 0}
        return tuple(values[m] for m in marks) + (spin.total * scale,)
    return key


class CascadeSpins(CascadePlayer):
    """The paid spins of a cascading game for the books (``analysis``: its paid reels and
    exact table): one stop combination and bonus ordering per key, found by visiting the
    full cycle."""

    def __init__(self, analysis, progress=None):
        game = analysis.game
        if _too_large(game, analysis.composition.paid_reels):
            raise ValueError(f"{game.name}: the books' cascade player visits at most "
                             f"{CYCLE_MAX:,} stop combinations x bonus orderings a reel set "
                             "(a larger game's books come from the round search: "
                             "slotmath.publish.cascade_rounds)")
        super().__init__(game, analysis.level, analysis.composition.paid_reels)
        self.analysis = analysis
        self.table = analysis.round.base
        self.credits_per_bet = self.table.credits_per_bet
        self.scale, rest = divmod(self.credits_per_bet, self.model.credits_per_bet)
        if rest:
            raise ValueError("the cascade table's credits are not on the pay model's grid")
        fs = game.free_spins
        starts = None if fs is None else min(fs.awards)
        self.index = _Index(self, _key_of(self.table.marks, self.scale, False, starts),
                            {k for k, w in self.table.weights.items() if w}, progress)

    def sample(self) -> None:
        """Visit the full cycle (it is small: :func:`refusal`)."""
        self.index.visit()

    def find(self, wanted) -> None:
        self.index.visit()

    def found(self) -> set[tuple[int, ...]]:
        return set(self.index.found)

    def play(self, key: tuple[int, ...], first_index: int = 0) -> tuple[list[dict], tuple]:
        """The events of the spin found for ``key`` (:meth:`CascadePlayer.events`) and its
        final window."""
        stops, arrangement = self.index.found[key]
        events, spin = self.events(stops, arrangement, 0, first_index)
        if spin.total * self.scale != key[-1]:
            raise AssertionError("the cascade spin pays other than its table key says")
        return events, spin.window


class CascadeFreeSpinsPlayer:
    """The free spins of a cascading game for the books (``feature``: the built
    :class:`~slotmath.features.cascades.CascadeFreeSpins`): which totals a feature started
    with ``(spins, index)`` can pay, and a feature that pays one.

    Each free spin is a cascade spin of the free reels, found by visiting their full cycle
    (its keys must be the engine's free table's), played at the index the feature carries
    (``carry_multiplier``: the index a spin starts at is the start's plus the cascades of the
    spins before it). It pays ``y + beta i a`` (``y`` its win from index 0, ``a`` its drop
    sum, ``beta = step x free-spin multiplier``) and awards ``retrigger_for(trigger count)``
    spins, cut so that the feature never exceeds ``max_spins`` spins. A table over (spins
    left, spins awarded, index) says which totals (up to :meth:`prepare`'s bound) each state
    can still pay; :meth:`play` walks it, spin by spin.
    """

    def __init__(self, analysis, feature, progress=None):
        game = analysis.game
        self.game, self.feature, self.spec = game, feature, game.free_spins
        reels = self.spec.reels
        self.player = CascadePlayer(game, analysis.level, reels, free=True)
        self.credits_per_bet = feature.free.credits_per_bet
        self.scale, rest = divmod(self.credits_per_bet, self.player.model.credits_per_bet)
        if rest:
            raise ValueError("the cascade free table's credits are not on the pay model's grid")
        self.carry = feature.carry
        self.beta = feature.beta
        self.index = _Index(self.player, _key_of(feature.free.marks, self.scale, self.carry,
                                                 None),
                            {k for k, w in feature.free.weights.items() if w}, progress)
        self._most = 0
        self._memo: dict = {}
        self._options: list = []

    def prepare(self, most_credits: int, *, complete: bool = False) -> None:
        """Visit the free reels' cycle and bound the totals followed by ``most_credits``
        (free table credits)."""
        self.index.visit()
        options, seen = [], set()
        for key, (stops, arrangement) in sorted(self.index.found.items()):
            spin = self.player.spin(stops, arrangement)
            o = (spin.total * self.scale, spin.drop_sum * self.scale, spin.trigger,
                 spin.cascades)
            if o not in seen:
                seen.add(o)
                options.append(o + (stops, arrangement))
        self._options = options
        self._most = int(most_credits)
        self._memo = {}

    def _award(self, trigger: int, awarded: int) -> int:
        add = self.spec.retrigger_for(trigger) if self.spec.retrigger else 0
        if self.spec.max_spins is not None:
            add = min(add, self.spec.max_spins - awarded)
        return add

    def _reach(self, left: int, awarded: int, index: int):
        """Bool array: the totals (0..most credits) a feature in this state can still pay
        (the states form no cycle: a spin either uses one up or raises the spins awarded,
        which the game file holds below ``max_spins`` when the spins retrigger)."""
        state = (left, awarded, index if self.carry else 0)
        if state in self._memo:
            return self._memo[state]
        out = np.zeros(self._most + 1, bool)
        if left == 0:
            out[0] = True
        else:
            for y, a, t, k, _, _ in self._options:
                value = y + self.beta * state[2] * a
                if value > self._most:
                    continue
                add = self._award(t, awarded)
                child = self._reach(left - 1 + add, awarded + add, state[2] + k)
                out[value:] |= child[:self._most + 1 - value]
        self._memo[state] = out
        return out

    def reachable(self, start) -> np.ndarray:
        """The totals (free table credits) a feature started with ``start`` (spins, index)
        can pay."""
        spins, index = start
        return np.flatnonzero(self._reach(spins, spins, index))

    def play(self, start, credits: int, trigger_window, first_index: int) -> list[dict]:
        """The events of a feature started with ``start`` paying ``credits`` (free table
        credits), started by the paid spin showing ``trigger_window`` (None: bought)."""
        spins, index = start
        if not self._reach(spins, spins, index)[credits]:
            raise ValueError(f"no feature of {spins} spins at index {index} pays {credits}")
        cpb = self.player.model.credits_per_bet
        events: list[dict] = []

        def add(event):
            events.append({"index": first_index + len(events)} | event)
        add({"type": "freeSpinTrigger", "totalFs": spins, "cascadeIndex": index,
             "positions": [{"reel": j, "row": r} for j, col in enumerate(trigger_window or ())
                           for r, s in enumerate(col) if s == self.spec.trigger]})
        left, awarded, s, played, paid = spins, spins, credits, 0, 0
        index = index if self.carry else 0
        while left:
            for y, a, t, k, stops, arrangement in self._options:
                value = y + self.beta * index * a
                add_spins = self._award(t, awarded)
                if value > s:
                    continue
                if self._reach(left - 1 + add_spins, awarded + add_spins,
                               index + k if self.carry else 0)[s - value]:
                    break
            else:
                raise AssertionError("the free-spin table has no way on")
            played += 1
            add({"type": "updateFreeSpin", "amount": played, "total": awarded})
            spin_events, spin = self.player.events(stops, arrangement, index,
                                                   first_index + len(events), paid)
            if spin.total * self.scale != value:
                raise AssertionError("a free spin pays other than its carried index says")
            events += spin_events
            paid += spin.total
            if add_spins:
                add({"type": "freeSpinRetrigger", "totalFs": awarded + add_spins,
                     "positions": [{"reel": j, "row": r} for j, col in enumerate(spin.window)
                                   for r, x in enumerate(col) if x == self.spec.trigger]})
            s -= value
            left += add_spins - 1
            awarded += add_spins
            if self.carry:
                index += k
        if s or paid * self.scale != credits:
            raise AssertionError("the free spins played do not pay what the table said")
        add({"type": "freeSpinEnd"} | amount_fields(paid, cpb))
        return events


def book(analysis, part=None, progress=None):
    """The book player of a cascading game (the ``cascades`` declaration's ``book`` hook):
    its paid spin (``part`` None) or its free spins (``part``: the built round feature)."""
    if part is None:
        return CascadeSpins(analysis, progress)
    return CascadeFreeSpinsPlayer(analysis, part, progress)


def whole_rounds(analysis, search=None, progress=None):
    """The books' round search of a cascading game too large for its full cycle
    (:func:`slotmath.publish.cascade_rounds.whole_rounds`; the export asks each book module
    for one), or None."""
    from slotmath.publish.cascade_rounds import whole_rounds as searched

    return searched(analysis, search, progress)
