"""The books of a Stake Engine export: for each row of the lookup table, one real round of the
game whose win rounds to the row's payout.

A round is played from parts the features give (each declaration's ``book`` hook, see
:func:`players`): the paid spin is an enumerated stop combination of the base reels with its
exact table key (marks, credits); a round feature it starts (free spins, hold & win) is played
by its own player, which says which totals a started feature can pay (:meth:`reachable`) and
plays one (:meth:`play`). Nothing is invented: every spin is a stop combination evaluated by
the game's rules, every feature a chain played by them, and the players check their totals
against the engine's.

For a row of ``k`` tenths of the bet, the round sought pays ``x`` with ``k`` among the
payouts ``x`` rounds to (:func:`slotmath.publish.table.round_amount`), as close to ``k / 10``
bets as the game allows: a paid spin that starts nothing, or a paid spin paying ``b`` that
starts a feature paying ``x - b``. Stop combinations are first sought among seeded random
draws (:data:`slotmath.publish.spins.SAMPLE` a reel set); for rows still without a round, the
full cycles are visited. A row no round can serve is reported (:attr:`Books.missing`); the
export then gives its probability to the nearest row that has one
(:func:`slotmath.publish.table.lookup_table`, ``allowed``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np

from slotmath.features.base import Kind, hook
from slotmath.publish.spins import close_round

__all__ = ["Book", "Books", "BoughtStart", "build_books", "players", "unsupported"]


@dataclass(frozen=True)
class Book:
    """One round for the row paying ``tenths`` tenths of the bet: its exact win (bets), the
    kind of round, and its events."""

    tenths: int
    win: Fraction
    kind: str
    events: list[dict] = field(repr=False)


@dataclass
class Books:
    """The books found, by row (tenths), and the rows none could be found for; ``search``:
    what a seeded search over whole rounds did (:mod:`slotmath.publish.cascade_rounds`),
    None when the rounds were not searched."""

    books: dict[int, Book]
    missing: tuple[int, ...]
    visited_full_cycles: bool
    search: dict | None = None


def unsupported(declared) -> list:
    """The declared features without a player for the books (their ``book`` hook)."""
    return [f for f in declared if getattr(f, "book", None) is None]


@dataclass
class BoughtStart:
    """The start of a bonus-buy round (a game mode with ``buys``, :mod:`slotmath.model.modes`):
    there is no paid spin; the round is the bought feature, started with a trigger count of
    the mode's declared law. Its "table" is the analysis' paid table of that mode (keys
    ``(marks..., 0)`` weighted by the law), so every key has its round at once: the
    ``bonusBuy`` event that names the count drawn.
    """

    analysis: object

    def __post_init__(self):
        a = self.analysis
        self.mode = a.game.mode(a.mode)
        self.table = a.round.base
        self.credits_per_bet = self.table.credits_per_bet

    def found(self) -> set[tuple[int, ...]]:
        return set(self.table.weights)

    def sample(self) -> None:
        """Nothing to seek: every count of the law is a start."""

    def find(self, wanted) -> None:
        """Nothing to seek: every count of the law is a start."""

    def play(self, key: tuple[int, ...], first_index: int = 0) -> tuple[list[dict], None]:
        """The ``bonusBuy`` event of the start ``key`` (its count drawn from the law) and no
        window."""
        if key[-1]:
            raise AssertionError("a bought round has no paid spin to pay anything")
        count = next(v for v in key[:-1] if v)
        law = self.mode.trigger_probabilities
        p = law[count]
        return [{"index": first_index, "type": "bonusBuy", "mode": self.mode.name,
                 "feature": self.mode.buys, "triggerCount": count,
                 "triggerWeights": {str(k): w for k, w in self.mode.trigger},
                 "triggerProbability": f"{p.numerator}/{p.denominator}"}], None


def players(analysis, progress=None):
    """The paid spin's player and each round feature's, from the declarations' ``book``
    hooks: ``(paid, {round feature name: player})``. In a bonus-buy mode the paid spin's
    player is :class:`BoughtStart` (no paid spin; no paid-spin feature acts).

    The hook is called ``book(analysis, part, progress)``: ``part`` None for the paid spin
    (the ``outcome`` feature's, else the ``pays`` one's); the plain paid spin's player for a
    ``paid-spin`` feature, which wraps it; the built round feature for a ``round`` feature,
    or for one an ``outcome`` feature ``replaces``.
    """
    declared = analysis.declared
    outcome = next((f for f in declared if f.kind is Kind.OUTCOME), None)
    pays = next(f for f in declared if f.kind is Kind.PAYS)
    mode = None if analysis.mode is None else analysis.game.mode(analysis.mode)
    if mode is not None and mode.buys:
        paid = BoughtStart(analysis)
    else:
        paid = hook(outcome or pays, "book")(analysis, None, progress)
        for f in declared:
            if f.kind is Kind.PAID_SPIN:
                paid = hook(f, "book")(analysis, paid, progress)
    # a round feature that builds the mechanic of another's round (a free-spin state,
    # ``build_round``) plays the books of the round built on its mechanic
    extends = [f for f in declared if f.kind is Kind.ROUND and f.build_round is not None]
    rounds = {}
    for built in analysis.round.features:
        owner = outcome if outcome is not None and built.name in outcome.replaces else \
            next(f for f in declared if f.name == built.name)
        if owner is not outcome and extends and getattr(built, "mechanic", None) is not None:
            owner = extends[0]
        rounds[built.name] = hook(owner, "book")(analysis, built, progress)
    return paid, rounds


def _valid(d: np.ndarray, k: np.ndarray, unit: int, rounding: str) -> np.ndarray:
    """Whether an amount ``x`` (``d = 10 x - k unit``, in ``unit`` credits a bet) can be paid
    as ``k`` tenths under ``rounding`` (integer arithmetic, as round_amount decides)."""
    if rounding == "nearest":
        return (2 * np.abs(d) < unit) | ((2 * np.abs(d) == unit) & (k % 2 == 0))
    if rounding == "down":
        return (d >= 0) & (d < unit)
    return np.abs(d) < unit


class _Best:
    """The best source found so far for each row: distance |10 x - k unit| and how to play
    it."""

    def __init__(self, rows: np.ndarray, unit: int, rounding: str):
        self.rows, self.unit, self.rounding = rows, unit, rounding
        self.distance = np.full(len(rows), np.iinfo(np.int64).max, np.int64)
        self.how: list = [None] * len(rows)

    def offer(self, amounts: np.ndarray, make) -> None:
        """Offer sorted candidate amounts (unit credits, each paid by ``make(x)``): for each
        row the nearest valid one below and above its payout."""
        if not len(amounts):
            return
        target = self.rows * self.unit  # 10 x for x at the payout exactly
        pos = np.searchsorted(10 * amounts, target)
        for shift in (-1, 0):
            i = np.clip(pos + shift, 0, len(amounts) - 1)
            x = amounts[i]
            d = 10 * x - target
            ok = _valid(d, self.rows, self.unit, self.rounding)
            better = ok & (np.abs(d) < self.distance)
            for j in np.flatnonzero(better).tolist():
                self.distance[j] = abs(int(d[j]))
                self.how[j] = (int(x[j]), make)


def build_books(analysis, law, rows, rounding: str, paid, rounds, *,
                progress=None) -> Books:
    """A real round for each row of ``rows`` (tenths), from the players ``paid`` and
    ``rounds`` (:func:`players`); ``law`` (:class:`~slotmath.publish.law.ExportLaw`) gives
    the unit of the amounts."""
    unit = law.credits_per_bet
    rows = np.array(sorted(rows), np.int64)
    base = analysis.round.base
    features = analysis.round.features
    marks = [base.mark_index(f.mark.kind) for f in features]
    scale = unit // paid.credits_per_bet
    if scale * paid.credits_per_bet != unit:
        raise ValueError(f"the paid spin's credits ({paid.credits_per_bet} a bet) are not on "
                         f"the law's grid ({unit} a bet)")
    plain: dict[int, list] = {}  # amount (unit credits) -> table keys, rounds starting nothing
    # the features a key starts, in the order they play -> [(amount, table key)]
    started: dict[tuple, list] = {}
    for key in sorted(base.weights):
        starts = [(j, f.start(key[i])) for j, (f, i) in enumerate(zip(features, marks))]
        starts = tuple(sorted(((j, s) for j, s in starts if s is not None),
                              key=lambda js: (_rank(features[js[0]]), js[0])))
        if starts:
            started.setdefault(starts, []).append((key[-1] * scale, key))
        else:
            plain.setdefault(key[-1] * scale, []).append(key)
    top = int(rows.max()) * unit // 10 + unit  # the largest amount a row may need
    players = [rounds[f.name] for f in features]
    for f, p in zip(features, players):
        if unit % p.credits_per_bet:
            raise ValueError(f"the books' player of {f.name} pays in {p.credits_per_bet} credits "
                             f"a bet, not on the law's grid ({unit} a bet)")

    together: dict = {}  # starts -> _together(starts), for the players as last prepared

    def reach(starts) -> np.ndarray:
        """The totals (unit credits) the features ``starts`` can pay together."""
        if len(starts) == 1:
            (j, start), = starts
            return players[j].reachable(start) * (unit // players[j].credits_per_bet)
        if starts not in together:
            together[starts] = _together(starts, players, unit, top)
        return np.flatnonzero(together[starts][1][0])

    def assign(found: set):
        best = _Best(rows, unit, rounding)
        ready = {x: next(k for k in keys if k in found) for x, keys in plain.items()
                 if any(k in found for k in keys)}
        best.offer(np.array(sorted(ready), np.int64), ("plain", ready))
        for starts, entries in started.items():
            totals = reach(starts)
            seen: set = set()
            for b, key in entries:
                if key not in found or b in seen:
                    continue
                seen.add(b)
                best.offer(b + totals, ("started", starts, key, b))
        return best

    def prepare(complete: bool):
        together.clear()
        for f, p in zip(features, players):
            factor = unit // p.credits_per_bet
            p.prepare(top // factor + 1, complete=complete)

    paid.sample()
    prepare(False)
    best = assign(paid.found())
    full = False
    lacking = [j for j, h in enumerate(best.how) if h is None]
    if lacking:  # visit the full cycles: base keys that could serve, every trigger key
        full = True
        want = set()
        need = rows[lacking]
        for x, keys in plain.items():
            d = 10 * np.int64(x) - need * unit
            if _valid(d, need, unit, rounding).any():
                want |= set(keys)
        for entries in started.values():
            want |= {key for _, key in entries}
        paid.find(want)
        prepare(True)
        best = assign(paid.found())
    books: dict[int, Book] = {}
    for j, k in enumerate(rows.tolist()):
        how = best.how[j]
        if how is None:
            continue
        x, make = how
        books[k] = _play(k, x, make, unit, rounding, paid, players, features, together)
    missing = tuple(k for k in rows.tolist() if k not in books)
    return Books(books, missing, full)


#: the round features a paid spin starting several plays first (docs/game-format.md: the
#: paid spin, its hold & win round, then its free spins; the simulator's order)
FIRST = ("hold_and_win",)


def _rank(feature) -> int:
    return 0 if feature.name in FIRST else 1


def _together(starts, players, unit: int, top: int) -> tuple[list, list]:
    """For the features ``starts`` (``(index, start)`` in play order), boolean arrays over
    ``0..top`` unit credits: ``own[i]``, the totals part ``i`` can pay, and ``suffix[i]``,
    the totals parts ``i, i + 1, ...`` can pay together (``suffix[0]``: the whole round's
    features; the last, ``{0}``)."""
    from slotmath.publish.sums import indicator, sumset

    suffix = [indicator([0], top)]
    own = []
    for j, start in reversed(starts):
        own.insert(0, indicator(players[j].reachable(start)
                                * (unit // players[j].credits_per_bet), top))
        suffix.insert(0, sumset(own[0], suffix[0]))
    return own, suffix


def _with_modifier(kind: str, events: list[dict]) -> str:
    """``kind`` with the base-game modifier the round's paid spin played under, if any (its
    ``modifier`` event, :mod:`slotmath.publish.modifiers`), so the report counts those books
    apart.

    >>> _with_modifier("paid spin", [{"type": "reveal"}, {"type": "modifier", "name": "tnt"}])
    'paid spin under tnt'
    >>> _with_modifier("hold_and_win", [{"type": "reveal"}])
    'hold_and_win'
    """
    name = next((e["name"] for e in events if e.get("type") == "modifier"), None)
    return kind if name is None else f"{kind} under {name}"


def _play(k: int, x: int, make, unit: int, rounding: str, paid, players, features,
          together: dict) -> Book:
    """The events of the round paying ``x`` unit credits for the row of ``k`` tenths."""
    if make[0] == "plain":
        events, _ = paid.play(make[1][x])
        kind = _with_modifier("paid spin", events)
    else:
        from slotmath.publish.sums import split

        _, starts, key, b = make
        events, window = paid.play(key)
        left = x - b
        for i, (j, start) in enumerate(starts):
            p = players[j]
            factor = unit // p.credits_per_bet
            if i + 1 < len(starts):
                own, suffix = together[starts]
                part, left = split(own[i], suffix[i + 1], left)
            else:
                part, left = left, 0
            events += p.play(start, part // factor, window, len(events))
        kind = _with_modifier(" and ".join(features[j].name for j, _ in starts), events)
    close_round(events, k, x, unit, rounding)
    return Book(k, Fraction(x, unit), kind, events)
