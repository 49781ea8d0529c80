"""The paid spin of a cascading game for the books (the ``cascades`` declaration's ``book``
hook): one enumerated stop combination (and ordering of the frozen bonus symbols) per outcome
of the spin's exact table, and its cascade sequence as events.

A cascading spin's round is its cascade sequence (``docs/game-format.md``, "Cascades"): each
fall's window is evaluated with the reels freed so far, its win times the multiplier of the
fall's index is paid, the winning positions are removed, the survivors fall and the strip
refills the gaps from above, until a fall wins nothing; the scatters of the final window pay
last. With strip refill the stops (and the bonus symbols above the reels) decide the whole
sequence, so a book is a stop combination of the full cycle and the sequence it plays.

:class:`CascadeSpins` plays a spin here in plain Python (:meth:`CascadeSpins.spin`), window
by window with :class:`~slotmath.evaluate.window.PayModel`'s pay tables, and visits the full
cycle (every stop combination of positive weight times every ordering of the bonus
arrangements) up to :data:`CYCLE_MAX` combinations, keeping the first that shows each key. The
keys it finds must be exactly the exact engine's table keys (:meth:`CascadeSpins.find`): the
plain player and the engine (:mod:`slotmath.exact.cascades`) agree on every outcome, or the
export stops. The table's weights are the engine's exact full-cycle counts.

Not played here (refused in one line by :func:`refusal`): random refill (a refill draw is
not a stop combination), free spins of a cascading game (their carried multiplier chain has
no player yet), and a cycle larger than :data:`CYCLE_MAX` (Frozen Gems': 40^5 stops x 30
orderings).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

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
    >>> refusal(slotmath.load_game("data/games/frozen_gems.toml"))
    'Frozen Gems: no player of real rounds for the books yet for free spins of a cascading game'
    """
    c = game.cascades
    if c is None:
        return None
    if c.refill != "strip":
        return (f"{game.name}: the books play strip-refill cascades only (a random refill draw "
                "is not a stop combination)")
    if game.free_spins is not None:
        return (f"{game.name}: no player of real rounds for the books yet for free spins of a "
                "cascading game")
    sets = {reel_set} | {m.reels for m in game.modes if m.reels}
    for name in sorted(sets):
        n = _cycle(game, name)
        if n > CYCLE_MAX:
            return (f"{game.name}: the books' cascade player visits at most {CYCLE_MAX:,} stop "
                    f"combinations x bonus orderings; reels {name} have {n:,}")
    return None


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


class CascadePlayer:
    """Cascading spins of ``game`` at bet ``level`` on ``reel_set``, played by the rules
    (:meth:`spin`), in :class:`~slotmath.evaluate.window.PayModel` credits."""

    def __init__(self, game, level: int = 1, reel_set: str = "base"):
        self.game = game
        self.model = PayModel(game, level)
        self.reel_set = reel_set
        self.reels = game.reel_sets[reel_set].reels
        self.orderings = _orderings(game)
        self.rule = game.cascades.rule(free=False)
        self.bonus = game.bonus_symbols
        self.scatters = set(game.scatters)

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

    def spin(self, stops, arrangement) -> tuple[list[Fall], list[dict], int]:
        """The cascade sequence of ``stops`` with ``arrangement`` above the reels: its falls,
        the final window's scatter wins and the spin's whole win (pay-model credits)."""
        rows = self.game.rows
        strips = [r.symbols for r in self.reels]
        window = [list(r.window(s, n)) for r, s, n in zip(self.reels, stops, rows)]
        tops = list(stops)
        counters = [0] * len(window)
        freed: list[str | None] = [None] * len(window)
        falls: list[Fall] = []
        total = 0
        for k in range(MAX_FALLS + 1):
            if self.bonus is not None:
                for r, column in enumerate(window):
                    here = sum(s in self.scatters for s in column)
                    if freed[r] is None and counters[r] + here >= self.bonus.threshold:
                        freed[r] = arrangement[r]
            wins, credits, removed = self._evaluate(self._effective(window, freed))
            multiplier = self.rule.value(k)
            falls.append(Fall(tuple(map(tuple, window)), tuple(freed), multiplier,
                              tuple(wins), credits, frozenset(removed)))
            if not credits * multiplier:
                break
            total += credits * multiplier
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
            if pays[count]:
                total += pays[count]
                scatter.append({"kind": "scatter", "symbol": name, "count": count,
                                "positions": [(j, r) for j, col in enumerate(final)
                                              for r, s in enumerate(col) if s == name],
                                "credits": pays[count]})
        return falls, scatter, total



class CascadeSpins(CascadePlayer):
    """The paid spins of a cascading game for the books (``analysis``: its paid reels and
    exact table): one stop combination and bonus ordering per key, found by visiting the
    full cycle."""

    def __init__(self, analysis, progress=None):
        game = analysis.game
        why = refusal(game, analysis.composition.paid_reels)
        if why is not None:
            raise ValueError(why)
        super().__init__(game, analysis.level, analysis.composition.paid_reels)
        self.analysis = analysis
        self.progress = progress
        self.table = analysis.round.base
        if self.table.marks:
            raise ValueError(f"{game.name}: the books' cascade player counts no marks")
        self.credits_per_bet = self.table.credits_per_bet
        self.scale, rest = divmod(self.credits_per_bet, self.model.credits_per_bet)
        if rest:
            raise ValueError("the cascade table's credits are not on the pay model's grid")
        self._found: dict[tuple[int, ...], tuple[tuple[int, ...], tuple]] = {}
        self._complete = False

    # -- finding a spin for each key ------------------------------------------------------
    def _visit(self) -> None:
        live = [[s for s, w in enumerate(r.stop_weights) if w > 0] for r in self.reels]
        size = len(self.orderings)
        for x in live:
            size *= len(x)
        done = 0
        for stops in itertools.product(*live):
            for arrangement in self.orderings:
                _, _, credits = self.spin(stops, arrangement)
                key = (credits * self.scale,)
                if key not in self._found:
                    self._found[key] = (stops, arrangement)
            done += len(self.orderings)
            if self.progress is not None and done % 65536 < len(self.orderings):
                self.progress(done, size)
        self._complete = True
        listed = {k for k, w in self.table.weights.items() if w}
        if set(self._found) != listed:
            extra = sorted(set(self._found) - listed)[:5]
            lost = sorted(listed - set(self._found))[:5]
            raise AssertionError(f"{self.game.name}: the books' cascade player and the exact "
                                 f"engine disagree: outcomes only the player shows {extra}, "
                                 f"only the engine lists {lost}")

    def sample(self) -> None:
        """Visit the full cycle (it is small: :func:`refusal`)."""
        if not self._complete:
            self._visit()

    def find(self, wanted) -> None:
        self.sample()

    def found(self) -> set[tuple[int, ...]]:
        return set(self._found)

    # -- one book ---------------------------------------------------------------------------
    def play(self, key: tuple[int, ...], first_index: int = 0) -> tuple[list[dict], tuple]:
        """The events of the spin found for ``key``: the reveal (stops, board, the bonus
        symbols above the reels), then per fall the reels freed, its wins times the
        multiplier, the running win and the next fall's board; the final window's scatter
        wins; and its final window."""
        stops, arrangement = self._found[key]
        falls, scatter, total = self.spin(stops, arrangement)
        if total * self.scale != key[-1]:
            raise AssertionError("the cascade spin pays other than its table key says")
        cpb = self.model.credits_per_bet
        events: list[dict] = []

        def add(event):
            events.append({"index": first_index + len(events)} | event)

        def spots(positions):
            return [{"reel": j, "row": r} for j, r in positions]
        reveal = {"type": "reveal", "gameType": "basegame", "reelSet": self.reel_set,
                  "stops": list(stops), "board": board(falls[0].window)}
        if self.bonus is not None:
            reveal["bonusSymbols"] = list(arrangement)
        add(reveal)
        paid, freed = 0, (None,) * len(stops)
        for k, fall in enumerate(falls):
            new = [{"reel": r, "effect": e} for r, (e, before) in
                   enumerate(zip(fall.freed, freed)) if e is not None and before is None]
            if new:
                add({"type": "bonusFreed", "fall": k, "reels": new})
            freed = fall.freed
            if not fall.credits * fall.multiplier:
                break
            won = fall.credits * fall.multiplier
            paid += won
            wins = [{k2: v for k2, v in w.items() if k2 != "credits"}
                    | {"positions": spots(w["positions"])}
                    | amount_fields(w["credits"] * fall.multiplier, cpb, "win")
                    for w in fall.wins]
            add({"type": "winInfo", "fall": k, "multiplier": fall.multiplier, "wins": wins}
                | amount_fields(won, cpb, "totalWin"))
            add({"type": "setWin"} | amount_fields(paid, cpb))
            add({"type": "tumble", "fall": k + 1, "removed": spots(sorted(fall.removed)),
                 "board": board(falls[k + 1].window)})
        if scatter:
            won = sum(w["credits"] for w in scatter)
            paid += won
            add({"type": "winInfo", "fall": len(falls) - 1, "multiplier": 1,
                 "wins": [{k2: v for k2, v in w.items() if k2 != "credits"}
                          | {"positions": spots(w["positions"])}
                          | amount_fields(w["credits"], cpb, "win") for w in scatter]}
                | amount_fields(won, cpb, "totalWin"))
            add({"type": "setWin"} | amount_fields(paid, cpb))
        if paid != total:
            raise AssertionError("the cascade events do not add up to the spin's win")
        return events, falls[-1].window


def book(analysis, part=None, progress=None) -> CascadeSpins:
    """The book player of a cascading game's paid spin (the ``cascades`` declaration's
    ``book`` hook; ``part`` is None for the paid spin: its free spins have no player yet)."""
    if part is not None:
        raise ValueError(f"{analysis.game.name}: no player of real rounds for the books yet "
                         "for free spins of a cascading game")
    return CascadeSpins(analysis, progress)
