"""The mean and the counted marks' law of a modified paid spin, without its joint table.

A strip move on a game with base-game modifiers (Gus's Gold Christmas) changes each
modifier's table (:mod:`slotmath.exact.modifiers`): tens of seconds for a place modifier
choosing 3 to 5 of 15 positions, since the table is the joint law of every line's win. The
RTP needs less: the spin's expected credits and the law of what the round features count
(a hold & win's cash symbols, a free-spin trigger). Both come from per-reel laws:

* a ``place`` modifier's outcome is enumerated as the engine does, every stop with every
  subset of its reel's eligible positions (the *chosen* count of that reel), and the whole
  window's chosen count is the sum over the reels. So every weight below is a polynomial in
  the chosen count (a list indexed by it, cut past the most the law chooses), and reels
  combine by multiplying polynomials; the entries at ``k`` sum every stop combination with
  every ``k``-subset once, weighed as in the engine (``w_k / W / C(cells, k)``);
* a line's win reads one cell per reel, and those cells are independent given the reels'
  chosen counts: each line is the direct method's small DP over its automaton
  (:mod:`slotmath.exact.direct`) with polynomial weights;
* a ways entry pays ``pay[k] * prod c_j * 1{c_(k+1) = 0}``, a product over the reels;
* the counted symbols and the paying scatters are per-reel counts, summed.

``upgrade`` modifiers are the same with one relabelled window per stop (chosen count 0), per
drawn symbol. Every figure is an integer over the engine's cycle, so the law and the credits
equal the sums of :func:`slotmath.exact.modifiers.modifier_counts_table` exactly (tests
compare them, and the means with the brute force and the linearity reference of
``tests/modifiers_reference.py``).
"""

from __future__ import annotations

from collections.abc import Sequence

from slotmath.evaluate.window import PayModel
from slotmath.exact.automata import line_automaton
from slotmath.exact.cycle import _ways_count
from slotmath.exact.modifiers import _virtual_windows, outcome_parts
from slotmath.model.game import Game
from slotmath.model.modifiers import Modifier

__all__ = ["ModifiedMeans", "modifier_means"]


class ModifiedMeans(tuple):
    """``(law, credits, cycle, credits_per_bet)``: ``law`` maps the capped counts of the
    counted symbols (in the order asked) to their weight, ``credits`` is the credits summed
    over every outcome, both over ``cycle`` (the engine's)."""

    __slots__ = ()

    def __new__(cls, law: dict, credits: int, cycle: int, credits_per_bet: int):
        return super().__new__(cls, (law, credits, cycle, credits_per_bet))

    law = property(lambda self: self[0])
    credits = property(lambda self: self[1])
    cycle = property(lambda self: self[2])
    credits_per_bet = property(lambda self: self[3])


def _mul(a: list[int], b: list[int], top: int) -> list[int]:
    """The product of two polynomials in the chosen count, cut past degree ``top``."""
    out = [0] * (top + 1)
    for i, x in enumerate(a):
        if x:
            for j, y in enumerate(b[: top + 1 - i]):
                if y:
                    out[i + j] += x * y
    return out


def _by_chosen(merged: dict, top: int, value) -> dict:
    """``{value(window): polynomial}`` of one reel's virtual windows ``merged``
    (``{(window shown, chosen): weight}``)."""
    out: dict = {}
    for (shown, chosen), w in merged.items():
        if chosen <= top:
            poly = out.setdefault(value(shown), [0] * (top + 1))
            poly[chosen] += w
    return out


def _line_credits(game: Game, model: PayModel, reels: list[dict], top: int) -> list[int]:
    """Line credits summed over every outcome, by the window's chosen count."""
    symbol_ids = {name: i for i, name in enumerate(game.symbols)}
    auto = line_automaton(model, symbol_ids, attribution=True)
    n = game.n_reels
    rows = [{r: _by_chosen(merged, top, lambda shown, r=r: shown[r]) for r in range(k)}
            for merged, k in zip(reels, game.rows)]
    totals = [_by_chosen(merged, top, lambda shown: 0)[0] for merged in reels]
    after = [[1] + [0] * top for _ in range(n + 1)]  # the reels j.. n-1's total weights
    for j in range(n - 1, -1, -1):
        after[j] = _mul(after[j + 1], totals[j], top)
    out = [0] * (top + 1)
    done: dict = {}  # a line whose rows show the same weights pays alike: run each once
    for line in game.paylines:
        profile = tuple(tuple((s, tuple(p)) for s, p in sorted(rows[j][r].items()))
                        for j, r in enumerate(line))
        if profile not in done:
            credits = [0] * (top + 1)
            cur = {1: [1] + [0] * top}
            for j in range(n):
                nt, info = auto.next_status[j], auto.emit_info[j]
                new: dict = {}
                for sid, w in cur.items():
                    for sym, sw in rows[j][line[j]].items():
                        a = symbol_ids[sym]
                        ws = _mul(w, sw, top)
                        nxt = int(nt[sid, a])
                        if nxt:
                            acc = new.setdefault(nxt, [0] * (top + 1))
                            for c, x in enumerate(ws):
                                acc[c] += x
                        else:
                            pay = info[sid, a][0]
                            if pay:
                                for c, x in enumerate(_mul(ws, after[j + 1], top)):
                                    credits[c] += pay * x
                cur = new
            for sid, w in cur.items():
                pay = auto.final_info[sid][0]
                for c, x in enumerate(w):
                    credits[c] += pay * x
            done[profile] = credits
        for c, x in enumerate(done[profile]):
            out[c] += x
    return out


def _ways_credits(game: Game, model: PayModel, reels: list[dict], top: int) -> list[int]:
    """Ways credits summed over every outcome, by the window's chosen count."""
    n = game.n_reels
    zero = [0] * (top + 1)
    totals = [_by_chosen(merged, top, lambda shown: 0)[0] for merged in reels]
    out = list(zero)
    for key in model.keys:
        sums, zeros = [], []
        for merged in reels:
            by_count = _by_chosen(merged, top, lambda shown, key=key: _ways_count(model, key, shown))
            s = list(zero)
            for count, poly in by_count.items():
                for c, x in enumerate(poly):
                    s[c] += count * x
            sums.append(s)
            zeros.append(by_count.get(0, zero))
        for k in range(1, n + 1):
            pay = model.key_credits[key].get(k, 0)
            if not pay:
                continue
            poly = [1] + [0] * top
            for j in range(k):
                poly = _mul(poly, sums[j], top)
            if k < n:
                poly = _mul(poly, zeros[k], top)
                for j in range(k + 1, n):
                    poly = _mul(poly, totals[j], top)
            for c, x in enumerate(poly):
                out[c] += pay * x
    return out


def _count_law(reels: list[dict], symbols: Sequence[str], top: int) -> dict:
    """``{(count of each symbol in the window...): polynomial}`` over every outcome."""
    law: dict = {tuple(0 for _ in symbols): [1] + [0] * top}
    for merged in reels:
        reel = _by_chosen(merged, top, lambda shown: tuple(shown.count(s) for s in symbols))
        new: dict = {}
        for counts, poly in law.items():
            for more, p in reel.items():
                key = tuple(a + b for a, b in zip(counts, more))
                acc = new.setdefault(key, [0] * (top + 1))
                for c, x in enumerate(_mul(poly, p, top)):
                    acc[c] += x
        law = new
    return law


def modifier_means(game: Game, modifier: Modifier, counts=(), reel_set: str = "base",
                   level: int = 1, model: PayModel | None = None) -> ModifiedMeans:
    """The law of the counted symbols and the summed credits of a spin on ``reel_set`` that
    ``modifier`` acts on (``counts``: ((symbol, cap), ...), each count stored at most at its
    cap), over the cycle of :func:`slotmath.exact.modifiers.modifier_counts_table`: its
    weights summed by counts, and its credits column times its weights, summed.

    Examples
    --------
    >>> import slotmath
    >>> from slotmath.exact.modifiers import modifier_counts_table
    >>> g = slotmath.load_game("data/games/tiny_lines.toml")
    >>> m = Modifier("tnt", "upgrade", 1, from_symbols=("CHERRY",), to=(("SC", 1),))
    >>> law, credits, cycle, _ = modifier_means(g, m, [("SC", 3)])
    >>> table, cycle2, _ = modifier_counts_table(g, m, [("SC", 3)])
    >>> cycle == cycle2, credits == sum(k[-1] * w for k, w in table.items())
    (True, True)
    >>> law == {(k[0],): sum(w for kk, w in table.items() if kk[0] == k[0]) for k in table}
    True
    """
    rs = game.reel_sets[reel_set]
    model = model or PayModel(game, level)
    counts = tuple(counts)
    symbols = [s for s, _ in counts]
    scatters = [s for s in game.scatters if any(model.scatter_credits.get(s, ()))]
    tracked = list(dict.fromkeys(symbols + scatters))
    parts, factor = outcome_parts(game, modifier)
    law: dict = {}
    credits = 0
    for transform, factors in parts:
        top = max(factors)
        reels = [_virtual_windows(game, rs, j, transform) for j in range(game.n_reels)]
        if game.paylines is not None:
            pays = _line_credits(game, model, reels, top)
        else:
            pays = _ways_credits(game, model, reels, top)
        for k, f in factors.items():
            credits += f * pays[k]
        for full, poly in _count_law(reels, tracked, top).items():
            by_name = dict(zip(tracked, full))
            scatter = sum(model.scatter_credits[s][by_name[s]] for s in scatters)
            key = tuple(min(by_name[s], cap) for s, cap in counts)
            for k, f in factors.items():
                if poly[k]:
                    law[key] = law.get(key, 0) + f * poly[k]
                    credits += f * poly[k] * scatter
    return ModifiedMeans(law, credits, factor * rs.cycle, model.credits_per_bet)
