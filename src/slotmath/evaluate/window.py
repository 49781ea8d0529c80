"""What ONE outcome pays: plain evaluators for a window.

Everything is paid in integer *credits*: ``PayModel.credits_per_bet`` credits make one total
bet at the model's bet level, chosen as the smallest number that makes every pay an integer.
These evaluators are the shared definition of the rules: the brute-force reference and the
simulator call them directly, and the fast exact kernels are tested against them.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property

from slotmath.model.game import Game, ReelSet

Window = tuple[tuple[str, ...], ...]  # window[reel][row], row 0 on top


def window_at(game: Game, reel_set: ReelSet, stops: Sequence[int]) -> Window:
    """The symbols shown for one combination of stops.

    Examples
    --------
    >>> import slotmath
    >>> g = slotmath.load_game("data/games/classic_fruits.toml")
    >>> len(window_at(g, g.base, [0] * 5)), len(window_at(g, g.base, [0] * 5)[0])
    (5, 3)
    """
    return tuple(reel.window(s, r) for reel, s, r in zip(reel_set.reels, stops, game.rows))


@dataclass(frozen=True)
class LineWin:
    """The pay of one line: credits, the pay-table entry that won and its length."""

    credits: int
    key: str | None
    count: int


class PayModel:
    """A game's pay rules at one bet level, in integer credits.

    Parameters
    ----------
    game : Game
    level : int
        Bet level; pays follow ``Symbol.pay_at``.

    Examples
    --------
    >>> import slotmath
    >>> g = slotmath.load_game("data/games/classic_fruits.toml")
    >>> PayModel(g).credits_per_bet   # 25 lines with whole line pays: one credit per line bet
    25
    """

    def __init__(self, game: Game, level: int = 1):
        game.check_level(level)
        self.game = game
        self.level = level
        syms = game.symbols
        keys: dict[str, frozenset[str]] = {}
        raw: dict[str, dict[int, Fraction]] = {}
        wilds = [s for s in syms.values() if s.wild]
        for s in syms.values():
            if s.scatter or s.bonus:
                continue
            counts = set(s.pays) | {c for col in s.level_pays.values() for c in col}
            if not counts:
                continue
            if s.wild:
                members = frozenset({s.name})
            else:
                members = frozenset({s.name} | {w.name for w in wilds if w.substitutes_for(s)})
            keys[s.name] = members
            raw[s.name] = {c: s.pay_at(c, level) for c in counts}
        for g in game.groups.values():
            members = set(g.members)
            for w in wilds:
                if any(w.substitutes_for(syms[m]) for m in g.members):
                    members.add(w.name)
            counts = set(g.pays) | {c for col in g.level_pays.values() for c in col}
            keys[g.name] = frozenset(members)
            raw[g.name] = {c: g.pay_at(c, level) for c in counts}

        # Pay-table values -> fractions of the total bet at this level.
        if game.paylines is not None:
            unit = Fraction(1, game.n_lines * level)  # line bet / total bet, per pay unit
        else:
            unit = Fraction(1, game.bet * level)  # coins / total bet
        in_bets = {k: {c: p * unit for c, p in t.items()} for k, t in raw.items()}
        scatter_in_bets = {}
        window_size = sum(game.rows)
        for name in game.scatters:
            scatter_in_bets[name] = {
                c: game.scatter_pay(name, c, level) for c in range(window_size + 1)
            }
        denominators = [f.denominator for t in in_bets.values() for f in t.values()]
        denominators += [f.denominator for t in scatter_in_bets.values() for f in t.values()]
        wheel = game.bonus_wheel
        if wheel is not None:
            denominators += [Fraction(p).denominator for p in wheel.prizes]
        scale = 1
        for d in denominators:
            scale = scale * d // math.gcd(scale, d)
        self.credits_per_bet: int = scale
        self.keys: tuple[str, ...] = tuple(keys)
        self.key_members: Mapping[str, frozenset[str]] = keys
        self.key_credits: Mapping[str, Mapping[int, int]] = {
            k: {c: int(f * scale) for c, f in t.items()} for k, t in in_bets.items()
        }
        self.scatter_credits: Mapping[str, tuple[int, ...]] = {
            k: tuple(int(t[c] * scale) for c in range(window_size + 1))
            for k, t in scatter_in_bets.items()
        }
        self.multiplier: Mapping[str, int] = {s.name: s.multiplier for s in syms.values()}
        # Bonus wheel prizes (total-bet multiples, the same at every level) in credits.
        self.wheel_credits: tuple[int, ...] = (
            tuple(int(Fraction(p) * scale) for p in wheel.prizes) if wheel is not None else ()
        )

    def to_bets(self, credits: int) -> Fraction:
        """Credits as a multiple of the total bet."""
        return Fraction(credits, self.credits_per_bet)

    @cached_property
    def max_count(self) -> int:
        return max((max(t) for t in self.key_credits.values() if t), default=0)

    # -- lines ----------------------------------------------------------------------------
    def line_win(self, line_symbols: Sequence[str]) -> LineWin:
        """The highest win of one line (left to right from reel 1).

        Each pay-table entry (symbol, group, or wild on its own) is matched from reel 1 as
        long as the symbols are members (a symbol itself or a wild standing in for it);
        the entry pays for that run length times the product of the run's multiplier
        symbols. Only the highest candidate is paid.
        """
        best = LineWin(0, None, 0)
        for key in self.keys:
            members = self.key_members[key]
            run, mult = 0, 1
            for s in line_symbols:
                if s not in members:
                    break
                run += 1
                mult *= self.multiplier[s]
            if run:
                credits = self.key_credits[key].get(run, 0) * mult
                if credits > best.credits:
                    best = LineWin(credits, key, run)
        return best

    def lines_win(self, window: Window) -> int:
        """Sum of the line wins of a window, in credits."""
        total = 0
        for line in self.game.paylines:
            total += self.line_win([window[j][r] for j, r in enumerate(line)]).credits
        return total

    # -- ways -----------------------------------------------------------------------------
    def ways_wins(self, window: Window) -> dict[str, tuple[int, int, int]]:
        """Per pay-table entry: (credits, run length, number of ways) for a ways game.

        For each entry, each reel counts its positions showing a member (a position with a
        multiplier symbol counts as that many ways); the reels from reel 1 with a count > 0
        give the run; the win is pay[run] x the product of the counts.
        """
        out = {}
        for key in self.keys:
            members = self.key_members[key]
            run, ways = 0, 1
            for column in window:
                c = sum(self.multiplier[s] for s in column if s in members)
                if c == 0:
                    break
                run += 1
                ways *= c
            credits = self.key_credits[key].get(run, 0) * ways if run else 0
            out[key] = (credits, run, ways if run else 0)
        return out

    def ways_win(self, window: Window) -> int:
        return sum(c for c, _, _ in self.ways_wins(window).values())

    # -- scatters and the whole spin ------------------------------------------------------
    def scatter_count(self, window: Window, name: str) -> int:
        return sum(column.count(name) for column in window)

    def scatter_win(self, window: Window) -> int:
        return sum(self.scatter_credits[n][self.scatter_count(window, n)] for n in self.scatter_credits)

    def trigger_lines(self, window: Window, symbol: str, count: int) -> int:
        """Paylines showing ``symbol`` at least ``count`` times in succession from reel 1.

        Only the symbol itself counts (wilds do not stand in), as for a line-triggered
        bonus game.
        """
        lines = 0
        for line in self.game.paylines:
            run = 0
            for j, r in enumerate(line):
                if window[j][r] != symbol:
                    break
                run += 1
            lines += run >= count
        return lines

    def pattern_win(self, window: Window) -> int:
        """Lines or ways win of a window, in credits."""
        return self.lines_win(window) if self.game.paylines is not None else self.ways_win(window)

    def spin_win(self, window: Window) -> int:
        """Everything one window pays: lines or ways plus scatters, in credits."""
        return self.pattern_win(window) + self.scatter_win(window)


def scatter_count_distribution(game: Game, reel_set: ReelSet, name: str) -> dict[int, int]:
    """Exact weights of the number of ``name`` symbols anywhere in the window.

    Reels are independent, so the count is a sum of independent per-reel counts.

    Examples
    --------
    >>> import slotmath
    >>> g = slotmath.load_game("data/games/classic_fruits.toml")
    >>> d = scatter_count_distribution(g, g.base, "SC")
    >>> sum(d.values()) == g.base.cycle
    True
    """
    return dict(sorted(reel_set.count_law(name, game.rows).items()))
