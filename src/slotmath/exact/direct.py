"""Exact mean RTP and pay-table hit counts by the direct method.

The mean needs no joint distribution: for lines games, a line's pay depends only on the
symbols on its own rows, and those are independent from reel to reel, so each line is a
small dynamic program over its automaton (see :mod:`slotmath.exact.automata`) with the
per-row symbol weights of each reel. Ways games factorise per pay-table entry:
``E[pay[k] * prod c_j * 1{c_{k+1} = 0}] = pay[k] * prod E[c_j] * P(c_{k+1} = 0)``.
Scatters are a sum of independent per-reel counts.

All results are integer hit counts over the full cycle and exact fractions; the figures
match :func:`slotmath.exact.cycle.spin_table` (tests compare them on every game).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction

from slotmath.evaluate.window import PayModel, scatter_count_distribution
from slotmath.exact.automata import line_automaton
from slotmath.model.game import Game, ReelSet


@dataclass(frozen=True)
class PayHits:
    """One pay-table outcome over the full cycle.

    ``hits`` is the weight of stop combinations (summed over paylines for lines games)
    that pay ``credits`` for ``count`` of ``key``; for ways games ``ways`` is the summed
    number of ways of those hits and ``credits`` is the pay per way.
    """

    key: str
    count: int
    credits: int
    hits: int
    ways: int

    @property
    def total_credits(self) -> int:
        return self.credits * (self.ways if self.ways else self.hits)


@dataclass(frozen=True)
class DirectResult:
    """Exact mean figures of one spin on one reel set.

    Attributes
    ----------
    cycle : int
    credits_per_bet : int
    pays : tuple of PayHits
        Lines or ways pay-table outcomes.
    scatter_counts : mapping name -> {count: weight}
    scatter_credits : mapping name -> tuple of credits by count
    kind : str
        "lines" or "ways".
    """

    cycle: int
    credits_per_bet: int
    pays: tuple[PayHits, ...]
    scatter_counts: Mapping[str, Mapping[int, int]]
    scatter_credits: Mapping[str, tuple[int, ...]]
    kind: str

    @property
    def pattern_rtp(self) -> Fraction:
        """Lines or ways RTP in total bets."""
        total = sum(p.total_credits for p in self.pays)
        return Fraction(total, self.cycle * self.credits_per_bet)

    @property
    def scatter_rtp(self) -> Fraction:
        total = sum(
            w * self.scatter_credits[name][c]
            for name, counts in self.scatter_counts.items()
            for c, w in counts.items()
        )
        return Fraction(total, self.cycle * self.credits_per_bet)

    @property
    def rtp(self) -> Fraction:
        return self.pattern_rtp + self.scatter_rtp

    @property
    def components(self) -> dict[str, Fraction]:
        return {self.kind: self.pattern_rtp, "scatter": self.scatter_rtp}


def _row_weights(reel, rows: int) -> list[dict[str, int]]:
    """Per row of the window: weight of each symbol over the reel's stops."""
    out = [{} for _ in range(rows)]
    n = len(reel.symbols)
    for stop, w in enumerate(reel.stop_weights):
        if w:
            for r in range(rows):
                s = reel.symbols[(stop + r) % n]
                out[r][s] = out[r].get(s, 0) + w
    return out


def _line_pays(game: Game, model: PayModel, rs: ReelSet) -> dict[tuple[str, int, int], int]:
    symbol_ids = {name: i for i, name in enumerate(game.symbols)}
    auto = line_automaton(model, symbol_ids, attribution=True)
    row_w = [_row_weights(reel, rows) for reel, rows in zip(rs.reels, game.rows)]
    cycles = [reel.cycle for reel in rs.reels]
    n = game.n_reels
    after = [1] * (n + 1)  # product of the cycles of reels j.. n-1
    for j in range(n - 1, -1, -1):
        after[j] = after[j + 1] * cycles[j]
    # Lines whose rows show the same symbol weights (every line, on reels without stop
    # weights) pay alike: run each distinct line profile once.
    row_keys = [[tuple(sorted(w.items())) for w in reel_rows] for reel_rows in row_w]
    cache: dict[tuple, dict] = {}
    totals: dict[tuple[str, int, int], int] = {}
    for line in game.paylines:
        profile = tuple(row_keys[j][r] for j, r in enumerate(line))
        if profile not in cache:
            settled: dict[tuple, int] = {}
            cur = {1: 1}
            for j in range(n):
                weights = row_w[j][line[j]]
                nt, info = auto.next_status[j], auto.emit_info[j]
                new: dict[int, int] = {}
                for sid, w in cur.items():
                    for sym, sw in weights.items():
                        a = symbol_ids[sym]
                        nxt = int(nt[sid, a])
                        if nxt:
                            new[nxt] = new.get(nxt, 0) + w * sw
                        else:
                            best = info[sid, a]
                            settled[best] = settled.get(best, 0) + w * sw * after[j + 1]
                cur = new
            for sid, w in cur.items():
                best = auto.final_info[sid]
                settled[best] = settled.get(best, 0) + w
            cache[profile] = settled
        for (credits, _, key, count), w in cache[profile].items():
            if credits:
                k = (key, count, credits)
                totals[k] = totals.get(k, 0) + w
    return totals


def _ways_pays(game: Game, model: PayModel, rs: ReelSet) -> list[PayHits]:
    n = game.n_reels
    cycles = [reel.cycle for reel in rs.reels]
    out = []
    for key in model.keys:
        members = model.key_members[key]
        sums, zeros = [], []
        for reel, rows in zip(rs.reels, game.rows):
            s_sum = z = 0
            for stop, w in enumerate(reel.stop_weights):
                if w:
                    c = sum(model.multiplier[s] for s in reel.window(stop, rows) if s in members)
                    s_sum += w * c
                    z += w * (c == 0)
            sums.append(s_sum)
            zeros.append(z)
        for k in range(1, n + 1):
            credits = model.key_credits[key].get(k, 0)
            if not credits:
                continue
            hits = ways = 1
            for j in range(k):
                hits *= cycles[j] - zeros[j]
                ways *= sums[j]
            tail = 1
            if k < n:
                tail = zeros[k]
                for j in range(k + 1, n):
                    tail *= cycles[j]
            if hits * tail:
                out.append(PayHits(key, k, credits, hits * tail, ways * tail))
    return out


def direct_method(game: Game, reel_set: str | ReelSet = "base", level: int = 1,
                  model: PayModel | None = None) -> DirectResult:
    """Exact mean RTP, its components and the pay-table hit counts of one spin.

    Examples
    --------
    >>> import slotmath
    >>> from slotmath.exact.cycle import spin_table
    >>> g = slotmath.load_game("data/games/tiny_lines.toml")
    >>> direct_method(g).rtp == spin_table(g).mean_bets
    True
    """
    rs = game.reel_sets[reel_set] if isinstance(reel_set, str) else reel_set
    model = model or PayModel(game, level)
    if game.paylines is not None:
        pays = tuple(
            PayHits(key, count, credits, hits, 0)
            for (key, count, credits), hits in sorted(
                _line_pays(game, model, rs).items(),
                key=lambda kv: (model.keys.index(kv[0][0]), kv[0][1], kv[0][2]),
            )
        )
        kind = "lines"
    else:
        pays = tuple(_ways_pays(game, model, rs))
        kind = "ways"
    scatter_counts = {
        name: scatter_count_distribution(game, rs, name)
        for name in game.scatters
    }
    return DirectResult(
        cycle=rs.cycle,
        credits_per_bet=model.credits_per_bet,
        pays=pays,
        scatter_counts=scatter_counts,
        scatter_credits={name: model.scatter_credits[name] for name in game.scatters},
        kind=kind,
    )
