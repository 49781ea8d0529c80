"""Exact paid spin of a pay-anywhere grid game without tumbles, from symbol-count laws.

The win is ``W = sum_u f_u(c_u)``: each paying symbol and each scatter ``u`` pays by its own
count ``c_u`` in the window (the rows are fixed, the reels independent), then, with multiplier
symbols, the symbols' part is multiplied by the combined value ``T`` of the ``m`` multiplier
symbols the window shows (when both are > 0).

* **RTP, by linearity**: ``E[f_u(c_u) g(m)]`` from the joint law of ``(c_u, m)``, a
  convolution over the reels of each reel's law (``g(0) = 1``; ``g(m) = E[T | m]``: ``m`` x the
  mean value when values add, the mean to the power ``m`` when they multiply). The pay table's
  hits per count come from the law of ``c_u`` alone.
* **Second moment** (without multiplier symbols): ``sum_{u,v} E[f_u(c_u) f_v(c_v)]``, from the
  joint laws of pairs of counts.
* **Hit frequency**: ``P(W > 0) = P(union of A_u)`` with ``A_u = {f_u(c_u) > 0}``, by
  inclusion-exclusion; a set of symbols whose smallest paying counts add up to more than the
  window's cells cannot pay together, so the sum stops at a few symbols at once.
* **The whole law**, where the joint count state fits: a programme over the reels whose state
  is every paying symbol's and scatter's count (each capped at its top listed count) and the
  multiplier symbols' count. Its size, ``min(prod (cap_u + 1), C(cells + U, U))``, is
  estimated first (:func:`joint_states`); past the limit the law is not computed.

Examples
--------
>>> import slotmath
>>> law = anywhere_law(slotmath.load_game("tests/data/grid/anywhere_tiny.toml"))
>>> law.mean_bets, law.hit_frequency, law.variance
(Fraction(3, 4), Fraction(3, 4), Fraction(3, 16))
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np

from slotmath.evaluate.grid import PAYS, GridModel
from slotmath.exact.grid_enumerate import multiplier_law
from slotmath.model.game import Game

__all__ = ["AnywhereLaw", "anywhere_law", "joint_states"]


def _reel_counts(strip: list[int], weights, rows: int, codes: list[int]) -> dict:
    """(count of each of ``codes``) -> weight, over one reel's stops."""
    L = len(strip)
    out: dict = {}
    for s, w in enumerate(weights):
        if not w:
            continue
        window = [strip[(s + r) % L] for r in range(rows)]
        key = tuple(window.count(c) for c in codes)
        out[key] = out.get(key, 0) + w
    return out


def _joint(game: Game, reel_set: str, codes: list[int], model: GridModel, caps=None) -> dict:
    """The joint law (weights) of the counts of ``codes`` in the window (each capped)."""
    law = {(0,) * len(codes): 1}
    for reel, rows in zip(game.reel_sets[reel_set].reels, game.grid.max_rows):
        step = _reel_counts([model.code[x] for x in reel.symbols], reel.stop_weights, rows,
                            codes)
        nxt: dict = {}
        for a, wa in law.items():
            for b, wb in step.items():
                key = tuple(x + y for x, y in zip(a, b))
                if caps is not None:
                    key = tuple(min(x, c) for x, c in zip(key, caps))
                nxt[key] = nxt.get(key, 0) + wa * wb
        law = nxt
    return law


def joint_states(game: Game, model: GridModel | None = None) -> int:
    """How many states the whole law's programme may hold (see the module notes)."""
    model = model or GridModel(game)
    caps = _caps(model, game)
    cells = model.window
    product = math.prod(c + 1 for c in caps.values())
    bound = math.comb(cells + len(caps), len(caps))
    return min(product, bound) * (cells + 1 if game.multipliers is not None else 1)


def _caps(model: GridModel, game: Game) -> dict[int, int]:
    """Each paying symbol's and scatter's count cap: its top listed count (no count above
    pays differently)."""
    out = {}
    for u in range(len(model.names)):
        if model.role[u] == PAYS:
            listed = [c for c in range(1, model.pay.shape[1]) if model.pay[u, c]
                      != model.pay[u, c - 1]]
            out[u] = max(listed) if listed else 0
        elif model.scatter_pay[u].any():
            nz = np.nonzero(model.scatter_pay[u])[0]
            top = int(nz.max())
            while top > 0 and model.scatter_pay[u, top - 1] == model.scatter_pay[u, top]:
                top -= 1
            out[u] = top
    return out


@dataclass(frozen=True, eq=False)
class AnywhereLaw:
    """Exact figures of one paid spin of a pay-anywhere game (see the module notes); weights
    are over ``cycle``, credits in ``credits_per_bet`` per bet."""

    cycle: int
    credits_per_bet: int
    symbol_credits: int  # weight x credits of the paying symbols (multipliers included)
    scatter_credits: int
    plain_symbol_credits: int  # the same before multiplier symbols
    second: int | None  # weight x credits^2 (None: not computed, with multiplier symbols)
    hit_weight: int
    hits: dict = field(repr=False)  # (symbol, count) -> weight
    count_laws: dict = field(repr=False)  # symbol -> {count: weight}
    distribution: dict | None = field(default=None, repr=False)  # credits -> weight
    mixing: int = 1  # distribution weights are over cycle x mixing

    @property
    def mean_bets(self) -> Fraction:
        return Fraction(self.symbol_credits + self.scatter_credits,
                        self.cycle * self.credits_per_bet)

    @property
    def variance(self) -> Fraction | None:
        if self.second is None:
            return None
        return Fraction(self.second, self.cycle * self.credits_per_bet**2) - self.mean_bets**2

    @property
    def hit_frequency(self) -> Fraction:
        return Fraction(self.hit_weight, self.cycle)


def anywhere_law(game: Game, reel_set: str = "base", level: int = 1, free: bool = False,
                 model: GridModel | None = None, joint_limit: int = 0) -> AnywhereLaw:
    """The exact figures of one spin on ``reel_set`` (``joint_limit``: the most states the
    whole law may take; 0 leaves it out)."""
    model = model or GridModel(game, level)
    if model.kind != "anywhere":
        raise ValueError(f"{game.name} does not pay anywhere")
    S = len(model.names)
    paying = [u for u in range(S) if model.role[u] == PAYS]
    scatters = [u for u in range(S) if model.scatter_pay[u].any()]
    W = model.window
    m = game.multipliers
    mcode = model.code[m.symbol] if m is not None else None
    cycle = math.prod(sum(r.stop_weights) for r in game.reel_sets[reel_set].reels)

    def f(u: int, c: int) -> int:
        if u in scatters:
            return int(model.scatter_pay[u, min(c, W)])
        return int(model.pay[u, min(c, model.pay.shape[1] - 1)])

    if m is not None:
        values = m.table(free)
        total = sum(values.values())
        mean = Fraction(sum(v * w for v, w in values.items()), total)
        combine = m.combine

        def g(k: int) -> Fraction:
            if k == 0:
                return Fraction(1)
            return k * mean if combine == "add" else mean**k
    count_laws = {}
    hits = {}
    symbol_credits = Fraction(0)
    plain = 0
    for u in paying:
        if m is None:
            law = {k[0]: w for k, w in _joint(game, reel_set, [u], model).items()}
            symbol_credits += sum(w * f(u, c) for c, w in law.items())
        else:
            pair = _joint(game, reel_set, [u, mcode], model)
            law = {}
            for (c, k), w in pair.items():
                law[c] = law.get(c, 0) + w
                symbol_credits += w * f(u, c) * g(k)
        count_laws[model.names[u]] = dict(sorted(law.items()))
        plain += sum(w * f(u, c) for c, w in law.items())
        for c, w in law.items():
            if f(u, c):
                hits[model.names[u], c] = w
    scatter_credits = 0
    for u in scatters:
        law = {k[0]: w for k, w in _joint(game, reel_set, [u], model).items()}
        count_laws[model.names[u]] = dict(sorted(law.items()))
        scatter_credits += sum(w * f(u, c) for c, w in law.items())
    # a scatter that pays nothing (a free-spin trigger) has its count law too
    for u in range(S):
        name = model.names[u]
        if game.symbols[name].scatter and name not in count_laws:
            law = {k[0]: w for k, w in _joint(game, reel_set, [u], model).items()}
            count_laws[name] = dict(sorted(law.items()))
    # second moment, without multiplier symbols
    second = None
    if m is None:
        second = 0
        units = paying + scatters
        for a, u in enumerate(units):
            law = count_laws[model.names[u]]
            second += sum(w * f(u, c) ** 2 for c, w in law.items())
            for v in units[a + 1:]:
                pair = _joint(game, reel_set, [u, v], model)
                second += 2 * sum(w * f(u, cu) * f(v, cv) for (cu, cv), w in pair.items())
    hit_weight = _hit_weight(game, reel_set, model, paying + scatters, f, cycle)
    distribution, mixing = None, 1
    if joint_limit and joint_states(game, model) <= joint_limit:
        distribution, mixing = _whole_law(game, reel_set, model, paying, scatters, f, free)
    return AnywhereLaw(cycle, model.credits_per_bet, symbol_credits, scatter_credits, plain,
                       second, hit_weight, hits, count_laws, distribution, mixing)


def _paying_counts(u: int, f, W: int) -> list[int]:
    return [c for c in range(W + 1) if f(u, c)]


def _hit_weight(game, reel_set, model, units, f, cycle) -> int:
    """Weight of spins where some unit pays, by inclusion-exclusion over sets of units that
    can pay together."""
    W = model.window
    smallest = {u: min(_paying_counts(u, f, W), default=W + 1) for u in units}
    units = [u for u in units if smallest[u] <= W]
    total = 0
    for size in range(1, len(units) + 1):
        any_set = False
        for group in itertools.combinations(units, size):
            if sum(smallest[u] for u in group) > W:
                continue
            any_set = True
            law = _joint(game, reel_set, list(group), model, caps=[W] * size)
            both = sum(w for key, w in law.items() if all(f(u, c) for u, c in zip(group, key)))
            total += both if size % 2 else -both
        if not any_set:
            break
    return total


def _whole_law(game, reel_set, model, paying, scatters, f, free) -> tuple[dict, int]:
    """credits -> weight of the whole spin (over cycle x mixing)."""
    m = game.multipliers
    units = paying + scatters
    caps = [max(_caps(model, game).get(u, 0), 0) for u in units]
    codes = list(units)
    if m is not None:
        codes.append(model.code[m.symbol])
        caps.append(model.window)
    law = _joint(game, reel_set, codes, model, caps=caps)
    out: dict = {}
    mixing = 1
    if m is None:
        for key, w in law.items():
            c = sum(f(u, k) for u, k in zip(units, key))
            out[c] = out.get(c, 0) + w
        return out, 1
    values = m.table(free)
    total = sum(values.values())
    top = max(key[-1] for key in law)
    mixing = total**top
    laws = {k: multiplier_law(dict(values), k, m.combine == "multiply") for k in range(top + 1)}
    for key, w in law.items():
        k = key[-1]
        sym = sum(f(u, c) for u, c in zip(paying, key))
        sc = sum(f(u, c) for u, c in zip(scatters, key[len(paying):len(units)]))
        if sym == 0 or k == 0:
            out[sym + sc] = out.get(sym + sc, 0) + w * mixing
            continue
        scale = w * total ** (top - k)
        for v, q in laws[k].items():
            out[sym * v + sc] = out.get(sym * v + sc, 0) + scale * q
    return out, mixing
