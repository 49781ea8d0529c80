"""Strip layout rules for the solver: where the copies of a symbol go, given their counts.

The solver chooses how many of each symbol a reel has; on a reel with more than one row where
they stand changes the windows. Two rules, each keyed by symbol:

* **spacing** ``S=d``: no two stops showing ``S`` closer than ``d`` stops, cyclically (the
  distance of stops ``i`` and ``j`` on a strip of ``L`` stops is ``min(|i - j|, L - |i - j|)``;
  ``d`` equal to the window height means a window never shows two). A scatter or bonus
  symbol has the window height of its reel by default (:meth:`Layout.for_reel`; not a hold &
  win's coin, which lands several to a window); ``S=1`` turns that off.
* **stack** ``S=k``: every maximal run of consecutive ``S`` stops (cyclically) is exactly ``k``
  long, so the count of ``S`` is a multiple of ``k`` and two stacks never touch.
* **strip order** ``no_repeat=d`` (one number for the reel set): every symbol's copies at
  least ``d`` stops apart, cyclically, for each symbol on the reel without a rule of its own
  (not a stacked one). Where the order beyond the window is read (cascades: a refill drops
  the stops above the window in strip order) it keeps a symbol removed by a win from falling
  straight back in from the next ``d - 1`` stops; ``d = 2``: no symbol next to itself.

:func:`lay_out` places the copies deterministically, starting from the strip it is given and
changing as little of the order as it can: a strip that keeps the rules is returned as it is;
with a strip-order rule (every symbol ruled) the strip is repaired by swapping two stops at a
time (:func:`_repair`: a stop that breaks its rule with the nearest stop whose symbol can
stand there, the pair that breaks the fewest rules first); otherwise the stops of the symbols
that break a rule are taken out (all ruled symbols' stops,
when taking out only those would break another rule) and put back one symbol at a time (stacks
first, larger spacings first, then by name) into the gaps nearest to where they stood, the
other stops keeping their order. Putting a stop into a strip never brings two others closer,
and no stop is put inside a stack, so a rule met once stays met. When no placement is found,
:class:`LayoutError` says which rule and why. A weighted reel's stops carry their weights.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from itertools import pairwise

from slotmath.model.game import Game, Reel

__all__ = ["Layout", "LayoutError", "lay_out", "parse_rules", "violations"]


class LayoutError(ValueError):
    """The rules cannot be met on this strip with these counts."""


@dataclass(frozen=True)
class Layout:
    """Layout rules: ``spacing`` (symbol -> least distance between two of its stops) and
    ``stack`` (symbol -> the exact length of its stacks); ``scatter_spacing``: whether a
    scatter or bonus symbol without a spacing rule gets the window height.

    Examples
    --------
    >>> import slotmath
    >>> g = slotmath.load_game("data/games/ways_243.toml")
    >>> Layout(stack={"LION": 2}).for_reel(g, 0)
    ({'SC': 3}, {'LION': 2})
    >>> Layout({"SC": 1}).for_reel(g, 0)
    ({}, {})
    """

    spacing: Mapping[str, int] = field(default_factory=dict)
    stack: Mapping[str, int] = field(default_factory=dict)
    scatter_spacing: bool = True
    #: the strip-order rule: every symbol without a rule of its own at least this many stops
    #: from its next copy (1: no rule)
    no_repeat: int = 1

    def check(self, game: Game) -> None:
        """``ValueError`` for an unknown symbol, a length that is not a whole number >= 1,
        or a symbol with both rules."""
        for name, rules in (("spacing", self.spacing), ("stack", self.stack)):
            for symbol, n in rules.items():
                if symbol not in game.symbols:
                    raise ValueError(f"{name} {symbol}={n}: {game.name} has no symbol "
                                     f"{symbol!r}")
                if isinstance(n, bool) or not isinstance(n, int) or n < 1:
                    raise ValueError(f"{name} {symbol}={n}: must be a whole number >= 1")
        both = sorted(set(self.spacing) & set(self.stack))
        if both:
            raise ValueError(f"{both[0]} has both a spacing and a stack rule: give one")
        n = self.no_repeat
        if isinstance(n, bool) or not isinstance(n, int) or n < 1:
            raise ValueError(f"no_repeat={n}: must be a whole number >= 1")

    def for_reel(self, game: Game, index: int) -> tuple[dict, dict]:
        """(spacing, stack) on reel ``index`` (0 = reel 1): the defaults added, rules that
        ask nothing (a spacing of 1, a stack of 1 is not trivial: it keeps copies apart)
        left out."""
        spacing = {}
        # a hold & win's coin is counted anywhere, several to a window (Golden Link starts
        # its round with 6 on 5 reels): no default spacing for it
        coin = getattr(game.hold_and_win, "symbol", None)
        if self.scatter_spacing:
            spacing = {s.name: game.rows[index] for s in game.symbols.values()
                       if (s.scatter or s.bonus) and s.name not in self.stack
                       and s.name != coin}
        spacing |= dict(self.spacing)
        if self.no_repeat > 1:  # the strip-order rule: every symbol without a rule of its own
            for name in game.symbols:
                if name not in spacing and name not in self.stack:
                    spacing[name] = self.no_repeat
        return {s: d for s, d in spacing.items() if d > 1}, dict(self.stack)


def _runs(symbols, symbol):
    """Lengths of the maximal cyclic runs of ``symbol`` (the whole strip: one run)."""
    n = len(symbols)
    if all(s == symbol for s in symbols):
        return [n]
    start = next(i for i in range(n) if symbols[i] != symbol)  # a stop that is not it
    runs, run = [], 0
    for k in range(1, n + 1):
        if symbols[(start + k) % n] == symbol:
            run += 1
        elif run:
            runs.append(run)
            run = 0
    return runs


def _broken(symbols, spacing: Mapping[str, int], stack: Mapping[str, int]) -> set[str]:
    """The ruled symbols whose rule the strip breaks."""
    return ({s for s in spacing if violations(symbols, {s: spacing[s]}, {})}
            | {s for s in stack if violations(symbols, {}, {s: stack[s]})})


def violations(symbols, spacing: Mapping[str, int], stack: Mapping[str, int]) -> list[str]:
    """Each rule the strip (a sequence of symbols) breaks, in words; empty when it keeps them.

    Examples
    --------
    >>> violations(["SC", "A", "SC", "A", "A"], {"SC": 3}, {})
    ['SC: two stops 2 apart (spacing 3)']
    >>> violations(["W", "W", "A", "W"], {}, {"W": 2})
    ['W: a run of 3 (stack 2)']
    """
    out = []
    n = len(symbols)
    for symbol, d in spacing.items():
        at = [i for i, s in enumerate(symbols) if s == symbol]
        gaps = [min(b - a, n - (b - a)) for a, b in pairwise(at)]
        if len(at) > 1:
            gaps.append(min(n - at[-1] + at[0], at[-1] - at[0]))
        if gaps and min(gaps) < d:
            out.append(f"{symbol}: two stops {min(gaps)} apart (spacing {d})")
    for symbol, k in stack.items():
        bad = [r for r in _runs(symbols, symbol) if r != k]
        if bad:
            out.append(f"{symbol}: a run of {bad[0]} (stack {k})")
    return out


def _distance(a: int, b: int, m: int) -> int:
    d = abs(a - b) % m if m else 0
    return min(d, m - d)


def _place(desired: list[int], m: int, allowed: list[int], sep: int, what: str) -> list[int]:
    """``len(desired)`` gaps of a cycle of ``m`` stops (gap ``g``: before stop ``g``), among
    ``allowed``, consecutive ones at least ``sep`` stops apart (cyclically), as near the
    ``desired`` gaps as found; ``LayoutError`` when none is found."""
    n = len(desired)
    if n == 0:
        return []
    if not allowed:
        raise LayoutError(f"{what}: no place for it")
    if n == 1:
        return [min(allowed, key=lambda g: (_distance(g, desired[0], m), g))]
    if m == 0 or n * sep > m:
        raise LayoutError(f"{what}: {n} of them need {n * sep} other stops between them, the "
                          f"strip has {m}")
    ring = sorted(set(allowed))
    unwrapped = ring + [g + m for g in ring] + [g + 2 * m for g in ring]

    def valid(h):
        return all(b - a >= sep for a, b in pairwise(h)) and h[0] + m - h[-1] >= sep

    def first_at_least(x):
        return next((g for g in unwrapped if g >= x), None)

    def cost(h):
        return sum(_distance(a % m, b, m) for a, b in zip(h, desired))

    desired = sorted(desired)
    candidates = []
    if valid(desired) and all(g in ring for g in desired):
        return desired
    for r in range(n):  # anchor copy r near its place, the others forward from it
        order = desired[r:] + [g + m for g in desired[:r]]
        anchor = min(ring, key=lambda g: (_distance(g, order[0], m), g))
        if anchor > order[0] + m // 2:
            anchor -= m
        for want in (order, [anchor] * n):  # near their places; or packed from the anchor
            h = [anchor]
            for g in want[1:]:
                nxt = first_at_least(max(g, h[-1] + sep))
                if nxt is None:
                    break
                h.append(nxt)
            if len(h) == n and valid(h):
                candidates.append([x % m for x in h])
    for offset in ring:  # evenly spread from each allowed gap
        h = [offset]
        for i in range(1, n):
            nxt = first_at_least(max(offset + (i * m) // n, h[-1] + sep))
            if nxt is None:
                break
            h.append(nxt)
        if len(h) == n and valid(h):
            candidates.append([x % m for x in h])
    if not candidates:
        raise LayoutError(f"{what}: no placement keeps {n} of them {sep + 1} or more stops "
                          f"apart among the other {m}")
    best = min(candidates, key=lambda h: (cost(sorted(h)), sorted(h)))
    return sorted(best)


def _clear(symbols: list, p: int, d: int) -> bool:
    """Whether no other stop within ``d - 1`` of stop ``p`` (cyclically) shows its symbol."""
    n, s = len(symbols), symbols[p]
    return all(symbols[(p + k) % n] != s and symbols[(p - k) % n] != s
               for k in range(1, min(d, (n + 1) // 2 + 1)) if (p + k) % n != p)


def _repair(reel: Reel, spacing: Mapping[str, int], stack: Mapping[str, int]) -> Reel:
    """``reel`` with two stops swapped at a time until every spacing rule holds (the stacks
    must hold already and are not moved): the first stop that breaks its rule goes to the
    nearest stop (then the lower index) whose symbol may stand where it stood, each of the
    two clear of its rule there. Deterministic; ``LayoutError`` when no swap helps.

    >>> _repair(Reel(("A", "A", "B", "B", "C", "C")), {"A": 2, "B": 2, "C": 2}, {}).symbols
    ('C', 'B', 'A', 'B', 'C', 'A')
    """
    symbols, weights = list(reel.symbols), list(reel.stop_weights)
    n = len(symbols)
    stacked = set(stack)

    def d_of(p):
        return spacing.get(symbols[p], 1)

    for _ in range(n * n):
        bad = next((p for p in range(n) if symbols[p] not in stacked
                    and not _clear(symbols, p, d_of(p))), None)
        if bad is None:
            return Reel(tuple(symbols), None if reel.weights is None else tuple(weights))
        for k in sorted(range(n), key=lambda q: (min(abs(q - bad), n - abs(q - bad)), q)):
            if k == bad or symbols[k] in stacked or symbols[k] == symbols[bad]:
                continue
            symbols[bad], symbols[k] = symbols[k], symbols[bad]
            if _clear(symbols, bad, d_of(bad)) and _clear(symbols, k, d_of(k)):
                weights[bad], weights[k] = weights[k], weights[bad]
                break
            symbols[bad], symbols[k] = symbols[k], symbols[bad]
        else:  # no single swap helps: the whole order arranged anew
            return _arrange(reel, spacing)
    return _arrange(reel, spacing)


#: strips :func:`_arrange` tries at most before it gives up
ARRANGE_NODES = 200_000


def _arrange(reel: Reel, spacing: Mapping[str, int]) -> Reel:
    """The stops of ``reel`` in an order that keeps every spacing rule (every symbol ruled),
    found depth first: at each place the symbol with the most copies left (then the one that
    came first on the strip) among those its rule allows there, each symbol's copies in their
    order on the strip (weights ride along); ``LayoutError`` when no order exists or none is
    found within :data:`ARRANGE_NODES` places tried.

    >>> _arrange(Reel(("A", "A", "B", "B", "C", "C")), {"A": 3, "B": 3, "C": 3}).symbols
    ('A', 'B', 'C', 'A', 'B', 'C')
    """
    n = len(reel.symbols)
    copies: dict = {}
    for i, (sym, w) in enumerate(zip(reel.symbols, reel.stop_weights)):
        copies.setdefault(sym, []).append((i, w))
    first = {sym: at[0][0] for sym, at in copies.items()}
    left = {sym: len(at) for sym, at in copies.items()}
    d = {sym: max(1, spacing.get(sym, 1)) for sym in copies}
    for sym in copies:
        if left[sym] > 1 and left[sym] * d[sym] > n:
            raise LayoutError(f"{sym} (spacing {d[sym]}): {left[sym]} of them need "
                              f"{left[sym] * d[sym]} stops, the strip has {n}")
    out: list = []
    tried = 0

    def fits(sym, p) -> bool:
        k = d[sym]
        if any(out[p - j] == sym for j in range(1, min(k, p + 1))):
            return False
        if p == n - 1 or n - p < k:  # near the end: the wrap to the start
            return not any(out[j] == sym for j in range(k - (n - p)) if j < p)
        return True

    def room(p) -> bool:  # every symbol's copies left still fit in the places left
        rest = n - p
        return all(c <= 1 or (c - 1) * d[s] + 1 <= rest for s, c in left.items())

    def place(p) -> bool:
        nonlocal tried
        if p == n:
            return True
        tried += 1
        if tried > ARRANGE_NODES:
            raise LayoutError(f"no order found within {ARRANGE_NODES:,} places tried")
        for sym in sorted((s for s in left if left[s]), key=lambda s: (-left[s], first[s])):
            if fits(sym, p):
                out.append(sym)
                left[sym] -= 1
                if room(p + 1) and place(p + 1):
                    return True
                left[sym] += 1
                out.pop()
        return False

    if not place(0):
        raise LayoutError("no order of the strip's stops keeps every spacing rule")
    taken = {sym: iter(at) for sym, at in copies.items()}
    stops = [next(taken[sym]) for sym in out]
    return Reel(tuple(out), None if reel.weights is None else tuple(w for _, w in stops))


def lay_out(reel: Reel, spacing: Mapping[str, int], stack: Mapping[str, int]) -> Reel:
    """``reel`` with its stops placed so that the rules hold (see the module notes): the same
    stops (and weights), in as nearly the same order as found.

    Examples
    --------
    >>> lay_out(Reel(("SC", "SC", "A", "B", "C", "D")), {"SC": 3}, {}).symbols
    ('SC', 'A', 'B', 'SC', 'C', 'D')
    >>> lay_out(Reel(("W", "A", "W", "B", "W", "C")), {}, {"W": 3}).symbols
    ('W', 'W', 'W', 'A', 'B', 'C')
    >>> lay_out(Reel(("W", "A", "W")), {}, {"W": 3})
    Traceback (most recent call last):
    ...
    slotmath.tune.layout.LayoutError: W: 2 stops do not make stacks of 3
    """
    symbols = list(reel.symbols)
    spacing = {s: d for s, d in spacing.items() if d > 1}
    if not violations(symbols, spacing, stack):
        return reel
    try:
        return _take_out_and_place(reel, spacing, stack)
    except LayoutError:  # every symbol ruled (a strip-order rule): nothing stays put to
        # place the others between, so two stops are swapped at a time instead
        if (any(s not in spacing and s not in stack for s in symbols)
                or any(violations(symbols, {}, {s: k}) for s, k in stack.items())):
            raise
        try:
            return _repair(reel, spacing, stack)
        except LayoutError:
            pass
        raise


def _take_out_and_place(reel: Reel, spacing: Mapping[str, int],
                        stack: Mapping[str, int]) -> Reel:
    """:func:`lay_out`'s placement (the module notes): the stops of the symbols that break a
    rule taken out and put back into the gaps nearest to where they stood."""
    symbols = list(reel.symbols)
    for s, k in stack.items():
        count = symbols.count(s)
        if count % k:
            raise LayoutError(f"{s}: {count} stops do not make stacks of {k}")
    weights = reel.stop_weights
    stops = [(s, w, i) for i, (s, w) in enumerate(zip(symbols, weights))]  # i: where it stood
    broken = _broken(symbols, spacing, stack)
    kept = [p for p in stops if p[0] not in broken]
    rest_rules = ({s: d for s, d in spacing.items() if s not in broken},
                  {s: k for s, k in stack.items() if s not in broken})
    if violations([p[0] for p in kept], *rest_rules) if kept else False:
        broken = set(spacing) | set(stack)
        kept = [p for p in stops if p[0] not in broken]
    base = list(kept)
    order = sorted(broken & set(stack)) + sorted(broken & set(spacing),
                                                 key=lambda s: (-spacing[s], s))
    for s in order:
        mine = [p for p in stops if p[0] == s]
        # gap of each stop: before the first base stop that stood after it
        def gap(where):
            return next((g for g, p in enumerate(base) if p[2] > where), 0)

        m = len(base)
        # a gap inside a stack takes no stop: the stops on both sides show one stacked
        # symbol (stacks never touch, so they are one stack)
        inside = {g for g in range(m) if m > 1 and base[g - 1][0] == base[g][0]
                  and base[g][0] in stack}
        allowed = [g for g in range(m) if g not in inside] if m else [0]
        if s in stack:
            k = stack[s]
            blocks = [mine[i:i + k] for i in range(0, len(mine), k)]
            at = _place([gap(b[0][2]) for b in blocks], m, allowed, 1,
                        f"{s} (stacks of {k})")
            units = list(zip(at, blocks))
        else:
            at = _place([gap(p[2]) for p in mine], m, allowed, spacing[s] - 1,
                        f"{s} (spacing {spacing[s]})")
            units = list(zip(at, ([p] for p in mine)))
        for g, unit in sorted(units, key=lambda u: -u[0]):  # from the back: gaps stay put
            base[g:g] = unit
    out = Reel(tuple(p[0] for p in base),
               None if reel.weights is None else tuple(p[1] for p in base))
    left = violations(out.symbols, spacing, stack)
    if left:  # never returned broken: say so rather than write it
        raise LayoutError(left[0])
    return out


def parse_rules(items, label: str) -> dict[str, int]:
    """Layout rules written ``SYMBOL=N``: a list of such items (the CLI's repeated
    ``--spacing``) or one text of them separated by commas or spaces (the tuning panel's box).
    ``ValueError`` naming ``label`` and the item for anything else.

    Examples
    --------
    >>> parse_rules("SC=3, W=2", "spacing")
    {'SC': 3, 'W': 2}
    >>> parse_rules(["SC=3"], "--spacing")
    {'SC': 3}
    >>> parse_rules("SC=x", "spacing")
    Traceback (most recent call last):
    ...
    ValueError: spacing: must be SYMBOL=N with N a whole number >= 1, got 'SC=x'
    """
    if isinstance(items, str):
        items = items.replace(",", " ").split()
    out: dict[str, int] = {}
    for item in items:
        symbol, sep, n = item.partition("=")
        if not sep or not symbol.strip() or not n.strip().isdigit() or int(n) < 1:
            raise ValueError(f"{label}: must be SYMBOL=N with N a whole number >= 1, "
                             f"got {item!r}")
        out[symbol.strip()] = int(n)
    return out
