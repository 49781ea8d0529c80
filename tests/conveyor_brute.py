"""A brute-force reference for the bauble conveyor, written from the rules alone.

It shares no code with slotmath.features.conveyor, slotmath.exact.random_wilds or
slotmath.markov.persistent: it reads the game's plain data (strips, pays, wild weights, the
wheels) and enumerates every strip stop, every wild placement and every surprise draw of a
spin, pays each window with its own line evaluator, and solves the free-spins chain over
(spins left, conveyor) with a dense linear solve. Exact Fractions for the base spin's lines,
spreads and coins and for the conveyor's law (iterated from the empty conveyor until it is
exactly a fixed point); float64 for the free spins.
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import numpy as np


class Brute:
    def __init__(self, game, level: int = 1):
        self.g = game
        self.level = level
        self.n = game.n_reels
        self.rows = game.rows
        self.c = game.conveyor
        self.wild = game.random_wilds.symbol

    # -- one window -----------------------------------------------------------------------
    def line_pay(self, cells) -> Fraction:
        """Highest pay of one line, in total bets; the wild stands in for every symbol."""
        best = Fraction(0)
        for name, sym in self.g.symbols.items():
            if sym.wild:
                continue
            run = 0
            for s in cells:
                if s == name or s == self.wild:
                    run += 1
                else:
                    break
            pay = sym.pays.get(run, 0) * self.level if run else 0
            best = max(best, Fraction(pay, len(self.g.paylines) * self.level))
        return best

    def window_pay(self, window) -> Fraction:
        return sum((self.line_pay([window[j][r] for j, r in enumerate(line)])
                    for line in self.g.paylines), Fraction(0))

    def stops(self, reel_set):
        """Every stop combination with its probability."""
        reels = self.g.reel_sets[reel_set].reels
        per = []
        for reel, rows in zip(reels, self.rows):
            total = sum(reel.stop_weights)
            per.append([([reel.symbols[(s + r) % len(reel.symbols)] for r in range(rows)],
                         Fraction(w, total)) for s, w in enumerate(reel.stop_weights) if w])
        for combo in itertools.product(*per):
            p = Fraction(1)
            for _, q in combo:
                p *= q
            yield [list(col) for col, _ in combo], p

    def wild_rows(self):
        per = []
        for j in range(self.n):
            w = self.g.random_wilds.weights[j]
            per.append([(None if i == 0 else i - 1, Fraction(x, sum(w)))
                        for i, x in enumerate(w) if x])
        for combo in itertools.product(*per):
            p = Fraction(1)
            for _, q in combo:
                p *= q
            yield [r for r, _ in combo], p

    def surprise_draws(self):
        """What a surprise bauble becomes, with probabilities (from the rule sheet's key)."""
        out = []
        total = sum(self.c.surprise.values())
        for feature, w in self.c.surprise.items():
            if not w:
                continue
            kinds = [(b, k) for b, k in self.c.wheel if b.feature == feature and k]
            if not kinds:
                out.append(((feature, 0), Fraction(w, total)))
                continue
            inner = sum(k for _, k in kinds)
            out += [((b.feature, b.value), Fraction(w, total) * Fraction(k, inner))
                    for b, k in kinds]
        return out

    def lines_expectation(self, reel_set, wild_cells) -> Fraction:
        key = (reel_set, frozenset(wild_cells))
        cache = self.__dict__.setdefault("_lines", {})
        if key not in cache:
            total = Fraction(0)
            for window, p in self.stops(reel_set):
                for j, r in wild_cells:
                    window[j][r] = self.wild
                total += p * self.window_pay(window)
            cache[key] = total
        return cache[key]

    def spin_outcomes(self, slots):
        """Every (probability, wild cells without spread, wild cells with spread, coins in
        total bets, spins awarded, activated slots) of one spin's wilds and surprises."""
        for rows, p in self.wild_rows():
            active = [j for j in range(self.n) if rows[j] is not None and slots[j] is not None]
            options = []
            for j in active:
                b = slots[j]
                if b[0] == "surprise":
                    options.append(self.surprise_draws())
                else:
                    options.append([(b, Fraction(1))])
            for draw in itertools.product(*options):
                q = p
                cells = {(j, rows[j]) for j in range(self.n) if rows[j] is not None}
                spread = set(cells)
                coins, spins = Fraction(0), 0
                for j, (b, pb) in zip(active, draw):
                    q *= pb
                    if b[0] == "coin_win":
                        coins += Fraction(b[1], self.g.bet)
                    elif b[0] == "free_spins":
                        spins += b[1]
                    elif b[0] == "spreading_wild":
                        r = rows[j]
                        for jj in (j - 1, j, j + 1):
                            for rr in (r - 1, r, r + 1):
                                if 0 <= jj < self.n and 0 <= rr < self.rows[jj]:
                                    spread.add((jj, rr))
                yield q, cells, spread, coins, spins, active

    # -- the base spin and the conveyor -------------------------------------------------------
    def spin_parts(self, slots):
        """Exact (lines, spread extra, coins) and the law of spins awarded, from ``slots``."""
        lines = spread_extra = coins = Fraction(0)
        awards: dict[int, Fraction] = {}
        for q, cells, spread, c, spins, _ in self.spin_outcomes(slots):
            plain = self.lines_expectation("base", cells)
            lines += q * plain
            spread_extra += q * (self.lines_expectation("base", spread) - plain)
            coins += q * c
            awards[spins] = awards.get(spins, 0) + q
        return lines, spread_extra, coins, awards

    def base_moves(self, slots):
        """{next conveyor: probability}: consumption, the move left, the delivery."""
        wheel = [(None, self.c.empty_weight)] + [((b.feature, b.value), w)
                                                 for b, w in self.c.wheel]
        total = sum(w for _, w in wheel)
        out: dict = {}
        for q, _, _, _, _, active in self._consumption(slots):
            kept = [None if j in active and self.c.consume_on_activation else slots[j]
                    for j in range(self.n)]
            for b, w in wheel:
                if w:
                    t = tuple(kept[1:]) + (b,)
                    out[t] = out.get(t, 0) + q * Fraction(w, total)
        return out

    def _consumption(self, slots):
        for rows, p in self.wild_rows():
            active = {j for j in range(self.n) if rows[j] is not None and slots[j] is not None}
            yield p, None, None, None, None, active

    def stationary(self):
        """The conveyor's law, iterated from the empty conveyor until exactly fixed."""
        law = {(None,) * self.n: Fraction(1)}
        for _ in range(200):
            nxt: dict = {}
            for s, p in law.items():
                for t, q in self.base_moves(s).items():
                    nxt[t] = nxt.get(t, 0) + p * q
            if nxt == law:
                return law
            law = nxt
        raise AssertionError("the conveyor's law did not settle")

    def from_reset(self, reward, horizon):
        """Mean return of spin t = 1..horizon from the empty conveyor."""
        law = {(None,) * self.n: 1.0}
        out = []
        for _ in range(horizon):
            out.append(sum(p * reward(s) for s, p in law.items()))
            nxt: dict = {}
            for s, p in law.items():
                for t, q in self.base_moves(s).items():
                    nxt[t] = nxt.get(t, 0) + p * float(q)
            law = nxt
        return out

    # -- free spins -------------------------------------------------------------------------
    def free_spin_values(self):
        """F(N) for N = 0..max_spins_left, by a dense solve over (spins left, conveyor)."""
        fs = self.c.free_spins
        M = fs.max_spins_left
        wheel = [(None, fs.empty_weight)] + [((b.feature, b.value), w) for b, w in fs.wheel]
        wheel = [(b, Fraction(w, sum(x for _, x in wheel))) for b, w in wheel if w]
        kinds = [b for b, _ in wheel]
        convs = list(itertools.product([None] + [k for k in kinds if k is not None],
                                       repeat=self.n))
        states = [(m, c) for m in range(1, M + 1) for c in convs]
        index = {s: i for i, s in enumerate(states)}
        A = np.zeros((len(states), len(states)))
        r = np.zeros(len(states))
        for c in convs:
            reward = Fraction(0)
            moves: dict = {}
            for q, cells, spread, coins, spins, active in self.spin_outcomes(c):
                reward += q * (self.lines_expectation(fs.reels, spread) + coins)
                kept = [None if j in active and self.c.consume_on_activation else c[j]
                        for j in range(self.n)]
                for b, qb in wheel:
                    key = (spins, tuple(kept[1:]) + (b,))
                    moves[key] = moves.get(key, 0) + q * qb
            for m in range(1, M + 1):
                i = index[m, c]
                r[i] = float(reward)
                for (spins, t), q in moves.items():
                    m2 = min(m - 1 + spins, M)
                    if m2:
                        A[i, index[m2, t]] += float(q)
        V = np.linalg.solve(np.eye(len(states)) - A, r)
        out = [0.0]
        empty = self.n - fs.start_baubles
        for m in range(1, M + 1):
            total = 0.0
            for combo in itertools.product(wheel, repeat=fs.start_baubles):
                c = (None,) * empty + tuple(b for b, _ in combo)
                p = 1.0
                for _, q in combo:
                    p *= float(q)
                total += p * V[index[m, c]]
            out.append(total)
        return out

    def state_rtp(self, slots, F) -> float:
        lines, spread, coins, awards = self.spin_parts(slots)
        M = self.c.free_spins.max_spins_left
        fs = sum(float(p) * F[min(n, M)] for n, p in awards.items())
        return float(lines + spread + coins) + fs

    # -- the law of a paid spin and of the round ------------------------------------------------
    def lines_law(self, reel_set, wild_cells) -> dict:
        """{line pay in total bets: probability} over every stop, ``wild_cells`` wild."""
        key = (reel_set, frozenset(wild_cells))
        cache = self.__dict__.setdefault("_laws", {})
        if key not in cache:
            law: dict = {}
            for window, p in self.stops(reel_set):
                for j, r in wild_cells:
                    window[j][r] = self.wild
                pay = self.window_pay(window)
                law[pay] = law.get(pay, 0) + p
            cache[key] = law
        return cache[key]

    def lines_mean(self, reel_set, wild_cells) -> float:
        key = (reel_set, frozenset(wild_cells))
        cache = self.__dict__.setdefault("_means", {})
        if key not in cache:
            cache[key] = float(sum(x * p for x, p in self.lines_law(reel_set, wild_cells).items()))
        return cache[key]

    def spin_law(self, slots, reel_set="base") -> dict:
        """{(pay of the spin itself in total bets, spins awarded): probability} from
        ``slots``: every wild placement, surprise draw and stop."""
        grouped: dict = {}
        for q, _, spread, coins, spins, _ in self.spin_outcomes(slots):
            key = (frozenset(spread), coins, spins)
            grouped[key] = grouped.get(key, 0) + q
        denominator = 1  # integer weights over one denominator (Fractions are slow)
        for q in grouped.values():
            denominator = denominator * q.denominator // math.gcd(denominator, q.denominator)
        out: dict = {}
        for (spread, coins, spins), q in grouped.items():
            scale = q.numerator * (denominator // q.denominator)
            law, cycle = self.lines_weights(reel_set, spread)
            for pay, w in law.items():
                key = (pay + coins, spins)
                out[key] = out.get(key, 0) + scale * w
        return {k: Fraction(w, denominator * cycle) for k, w in out.items()}

    def lines_weights(self, reel_set, wild_cells):
        """({line pay: integer weight}, total weight): :meth:`lines_law` over the full cycle
        of the strips (the same denominator for every set of wild cells)."""
        key = (reel_set, frozenset(wild_cells))
        cache = self.__dict__.setdefault("_weights", {})
        if key not in cache:
            total = math.prod(sum(r.stop_weights) for r in self.g.reel_sets[reel_set].reels)
            law = self.lines_law(reel_set, wild_cells)
            cache[key] = ({x: int(p * total) for x, p in law.items()}, total)
        return cache[key]

    def stationary_spin_law(self) -> dict:
        out: dict = {}
        for s, p in self.stationary().items():
            for key, q in self.spin_law(s).items():
                out[key] = out.get(key, 0) + p * q
        return out

    def free_spin_moments(self):
        """(F1, F2, Z) for N = 0..max_spins_left: the mean, second moment and P(win = 0) of
        N free spins, by dense solves over (spins left, conveyor)."""
        fs = self.c.free_spins
        M = fs.max_spins_left
        wheel = [(None, fs.empty_weight)] + [((b.feature, b.value), w) for b, w in fs.wheel]
        wheel = [(b, Fraction(w, sum(x for _, x in wheel))) for b, w in wheel if w]
        kinds = [b for b, _ in wheel if b is not None]
        convs = list(itertools.product([None] + kinds, repeat=self.n))
        states = [(m, c) for m in range(1, M + 1) for c in convs]
        index = {s: i for i, s in enumerate(states)}
        size = len(states)
        A, A0, B = np.zeros((size, size)), np.zeros((size, size)), np.zeros((size, size))
        r1, r2, z_end = np.zeros(size), np.zeros(size), np.zeros(size)
        for c in convs:
            grouped: dict = {}  # (spread cells, coins, spins, kept slots) -> probability
            for q, _, spread, coins, spins, active in self.spin_outcomes(c):
                kept = tuple(None if j in active and self.c.consume_on_activation else c[j]
                             for j in range(1, self.n))
                key = (frozenset(spread), float(coins), spins, kept)
                grouped[key] = grouped.get(key, 0.0) + float(q)
            moves: dict = {}  # (spins, next conveyor, pays zero) -> [prob, E[w 1], E[w^2 1]]
            for (spread, coins, spins, kept), q in grouped.items():
                for pay, p in self.lines_law(fs.reels, spread).items():
                    w = float(pay) + coins
                    for b, qb in wheel:
                        key = (spins, kept + (b,), w == 0)
                        acc = moves.setdefault(key, [0.0, 0.0, 0.0])
                        pr = q * float(p) * float(qb)
                        acc[0] += pr
                        acc[1] += pr * w
                        acc[2] += pr * w * w
            for m in range(1, M + 1):
                i = index[m, c]
                for (spins, t, zero), (pr, e1, e2) in moves.items():
                    r1[i] += e1
                    r2[i] += e2
                    m2 = min(m - 1 + spins, M)
                    if m2:
                        j = index[m2, t]
                        A[i, j] += pr
                        B[i, j] += e1
                        if zero:
                            A0[i, j] += pr
                    elif zero:
                        z_end[i] += pr
        eye = np.eye(size)
        V1 = np.linalg.solve(eye - A, r1)
        V2 = np.linalg.solve(eye - A, r2 + 2 * B @ V1)
        Z = np.linalg.solve(eye - A0, z_end)
        out = []
        empty = self.n - fs.start_baubles
        for V, at_zero in ((V1, 0.0), (V2, 0.0), (Z, 1.0)):
            values = [at_zero]
            for m in range(1, M + 1):
                total = 0.0
                for combo in itertools.product(wheel, repeat=fs.start_baubles):
                    c = (None,) * empty + tuple(b for b, _ in combo)
                    p = 1.0
                    for _, q in combo:
                        p *= float(q)
                    total += p * V[index[m, c]]
                values.append(total)
            out.append(values)
        return out

    def round_figures(self, law=None, free=None):
        """(E[W], E[W^2], P(W > 0)) of the round (paid spin and its free spins) from the
        stationary law, or from ``law`` = {(pay, spins): probability}; exact Fractions when
        no spins can be awarded."""
        law = self.stationary_spin_law() if law is None else law
        if all(v == 0 for _, v in law):
            mean = sum(p * x for (x, _), p in law.items())
            second = sum(p * x * x for (x, _), p in law.items())
            return mean, second, 1 - sum(p for (x, _), p in law.items() if x == 0)
        F1, F2, Z = free if free is not None else self.free_spin_moments()
        M = self.c.free_spins.max_spins_left
        mean = second = zero = 0.0
        for (x, v), p in law.items():
            p, x, k = float(p), float(x), min(v, M)
            mean += p * (x + F1[k])
            second += p * (x * x + 2 * x * F1[k] + F2[k])
            if x == 0:
                zero += p * (Z[k] if v else 1.0)
        return mean, second, 1 - zero

    def lag_covariances(self, lags, F1):
        """Cov(W_0, W_k), k = 1..lags, in the stationary chain: from each state, every wild
        placement (which reels activate) with the round's expected win on it, the next
        conveyor it leaves, then the expected win k - 1 paid spins later."""
        M = self.c.free_spins.max_spins_left
        law = self.stationary()
        reward = {}

        def r(s):
            if s not in reward:
                reward[s] = sum(float(q) * (self.lines_mean("base", spread) + float(coins)
                                            + (F1[min(spins, M)] if spins else 0.0))
                                for q, _, spread, coins, spins, _ in self.spin_outcomes(s))
            return reward[s]

        mean = sum(float(p) * r(s) for s, p in law.items())
        wheel = [(None, self.c.empty_weight)] + [((b.feature, b.value), w)
                                                 for b, w in self.c.wheel]
        total = sum(w for _, w in wheel)
        weighted: dict = {}  # s_1 -> E[W_0 1{s_1}]
        for s, p in law.items():
            by_active: dict = {}
            for q, _, spread, coins, spins, active in self.spin_outcomes(s):
                lines = self.lines_mean("base", spread)
                won = lines + float(coins) + (F1[min(spins, M)] if spins else 0.0)
                key = frozenset(active)
                by_active[key] = by_active.get(key, 0.0) + float(q) * won
            for active, won in by_active.items():
                kept = [None if j in active and self.c.consume_on_activation else s[j]
                        for j in range(self.n)]
                for b, w in wheel:
                    if w:
                        t = tuple(kept[1:]) + (b,)
                        weighted[t] = weighted.get(t, 0.0) + float(p) * won * w / total
        out = []
        ahead = {t: r(t) for t in law}  # E[W_k | s_1 = t], k = 1 first
        moves = {t: self.base_moves(t) for t in law}
        for _ in range(lags):
            out.append(sum(w * ahead[t] for t, w in weighted.items()) - mean * mean)
            ahead = {t: sum(float(p) * ahead[u] for u, p in moves[t].items()) for t in law}
        return out
