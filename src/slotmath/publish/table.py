"""The lookup table of a Stake Engine export: a round's payout law as rows of unsigned integer
weights and payouts in steps of 0.1x the bet, with an exact account of what each step did to
the RTP.

Stake's format (math-sdk ``docs/rgs_docs/data_format.md``; its checks in
``utils/rgs_verification.py``): one CSV row ``id,weight,payoutMultiplier`` per book, every
field an unsigned 64-bit integer; ``payoutMultiplier`` is in hundredths of the bet, 0 or at
least 10 and a multiple of 10 (so a payout is a whole number of tenths of the bet); the
weights are relative (the RGS draws a row with probability weight / total) and their sum must
fit in 64 bits.

From a round's law to the rows, three steps, each with its exact effect on the RTP:

1. **Rounding** every amount ``w`` (bets) to tenths, ``x = 10 w``:

   * ``"nearest"``: the nearest tenth, a tie to the even tenth (``round``);
   * ``"down"``: the tenth below (``floor``: never more than the round won);
   * ``"keep-rtp"``: the probability of ``w`` is shared between the two neighbouring tenths
     ``a = floor(x)`` and ``a + 1`` in the proportions ``a + 1 - x`` and ``x - a``, whose mean
     is ``x``: the law's mean, hence its RTP, is kept exactly; the spread grows a little.

2. **Integer weights**: when every row probability is an exact fraction and their common
   denominator fits (at most :data:`WEIGHT_TOTAL_MAX`), the weights are the probabilities
   times that denominator: exact, no change. Otherwise the total ``T`` is fixed (the largest
   multiple of the granularity the RTP needs, at most :data:`WEIGHT_TOTAL_MAX`) and each row
   gets ``floor(q T)`` plus one for the rows with the largest remainders (largest-remainder
   rounding, so the weights add up to ``T`` exactly). A row whose share is below one unit
   can end with weight 0: it is dropped (truncation), its probability and RTP listed.

   Before this, a row no book can be found for (no real round of the game pays an amount
   that rounds to it: see :mod:`slotmath.publish.books`) gives its probability to the nearest
   row that has one (``allowed``; ``unplayed`` lists what moved, ``placement_change`` its
   effect on the RTP). With ``"keep-rtp"`` it is split instead between the rows with a book
   below and above it so that the mean stays (``placement_change`` 0; above the top row with
   a book, that row takes ``p k / top`` and the row of payout 0 gives up the difference):
   a search that leaves many rows without a book (a cascading game's, see
   :mod:`slotmath.publish.cascade_rounds`) then keeps the RTP.

3. With ``"keep-rtp"``, what steps 1-2 left of the gap to the exact RTP ``R`` is closed by
   moving whole units of weight between two neighbouring rows (the consecutive payouts
   closest together, ``g`` tenths apart, the pair with the most weight to give): each unit
   moves the sum ``sum w_k k`` by ``g``. With ``g = 1`` the table's RTP
   ``sum w_k k / (10 T)`` reaches ``R`` exactly when ``10 T R`` is a whole number (``T`` a
   multiple of the denominator of ``10 R``), else the nearest whole number; with ``g > 1``
   it lands within ``g / 2`` of it (the report gives what is left). At most a ``2**-30``
   share of the weight moves (:data:`AIM_SHARE_BITS`): a larger gap is left and reported.

``WEIGHT_TOTAL_MAX`` is 2**63, one bit below the uint64 limit, so that a reader that sums the
weights in signed 64-bit integers cannot overflow either.

Examples
--------
A law with an amount between two tenths (0.25 bets):

>>> from fractions import Fraction as F
>>> law = {F(0): F(1, 2), F(1, 4): F(1, 4), F(2): F(1, 4)}
>>> t = lookup_table(law, "nearest", exact_rtp=F(9, 16))
>>> t.rows, t.total
(((0, 2), (2, 1), (20, 1)), 4)
>>> t.rtp, t.rtp - t.exact_rtp                    # 0.25 paid as 0.2
(Fraction(11, 20), Fraction(-1, 80))
>>> k = lookup_table(law, "keep-rtp", exact_rtp=F(9, 16))
>>> k.rows, k.rtp == F(9, 16)                     # 0.25 paid as 0.2 or 0.3, one time in two
(((0, 4), (2, 1), (3, 1), (20, 2)), True)
"""

from __future__ import annotations

import bisect
import itertools
import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction

__all__ = ["ROUNDINGS", "UINT64_MAX", "WEIGHT_TOTAL_MAX", "LookupTable", "lookup_table",
           "payout_rows", "round_amount"]

#: the roundings of an amount to tenths of the bet (see the module notes)
ROUNDINGS = ("nearest", "down", "keep-rtp")
#: the largest value of an unsigned 64-bit integer
UINT64_MAX = 2**64 - 1
#: the largest total weight this export writes (one bit of headroom below uint64)
WEIGHT_TOTAL_MAX = 2**63
#: ``"keep-rtp"`` moves at most a 2**-30 share of the total weight (or one unit a row)
AIM_SHARE_BITS = 30


def round_amount(amount: Fraction, rounding: str) -> dict[int, Fraction]:
    """Where an amount of ``amount`` bets goes: tenths of the bet -> share of its probability.

    Examples
    --------
    >>> from fractions import Fraction as F
    >>> round_amount(F(1, 4), "nearest"), round_amount(F(7, 20), "down")
    ({2: Fraction(1, 1)}, {3: Fraction(1, 1)})
    >>> round_amount(F(1, 4), "keep-rtp"), round_amount(F(3, 10), "keep-rtp")
    ({2: Fraction(1, 2), 3: Fraction(1, 2)}, {3: Fraction(1, 1)})
    """
    x = Fraction(amount) * 10
    if rounding == "nearest":
        return {round(x): Fraction(1)}
    if rounding == "down":
        return {math.floor(x): Fraction(1)}
    if rounding == "keep-rtp":
        a = math.floor(x)
        if x == a:
            return {a: Fraction(1)}
        return {a: a + 1 - x, a + 1: x - a}
    raise ValueError(f"rounding must be one of {', '.join(ROUNDINGS)}, got {rounding!r}")


@dataclass(frozen=True)
class LookupTable:
    """The rows of one mode's lookup table and the account of how they were made.

    Attributes
    ----------
    rows : tuple of (tenths, weight)
        Payout in tenths of the bet (``payoutMultiplier`` is ten times it) and integer
        weight, by payout; rows of weight 0 are left out.
    total : int
        The sum of the weights.
    rounding : str
    exact_rtp : Fraction or float
        The game's RTP (a float when the analysis computes it numerically).
    law_rtp : Fraction
        The mean of the law the table was made from (its probabilities as exact binary
        fractions where they are floats).
    rounded_rtp : Fraction
        The mean after step 1 (rounding to tenths).
    rtp : Fraction
        The table's own RTP, ``sum w_k k / (10 total)``, exactly.
    exact_weights : bool
        Whether the weights are the row probabilities times one common denominator
        (nothing scaled, nothing truncated, nothing moved).
    denominator : int
        The common denominator the exact weights need (its bits say whether they fit).
    placed_rtp : Fraction
        The mean after rows without a book gave their probability to a neighbour.
    truncated : tuple of (tenths, probability)
        Rows whose probability became weight 0.
    unplayed : tuple of (tenths, to tenths, probability)
        Rows without a book and where their probability went.
    moved : int
        Units of weight moved by step 3 (signed: + from the lower row to the upper one).
    moved_between : tuple of two tenths, or None
    target_gap : Fraction
        What step 3 could not close, in the table's RTP (0 when it landed exactly).
    """

    rows: tuple[tuple[int, int], ...]
    total: int
    rounding: str
    exact_rtp: Fraction | float
    law_rtp: Fraction
    rounded_rtp: Fraction
    placed_rtp: Fraction
    rtp: Fraction
    exact_weights: bool
    denominator: int
    truncated: tuple[tuple[int, Fraction], ...] = ()
    unplayed: tuple[tuple[int, int, Fraction], ...] = ()
    moved: int = 0
    moved_between: tuple[int, int] | None = None
    target_gap: Fraction = Fraction(0)
    probabilities: Mapping[int, Fraction] = field(default_factory=dict, repr=False)

    @property
    def law_change(self) -> Fraction | float:
        """``law_rtp - exact_rtp``: the law's own error (0 for an exact law)."""
        return _difference(self.law_rtp, self.exact_rtp)

    @property
    def rounding_change(self) -> Fraction:
        """``rounded_rtp - law_rtp``: what rounding to tenths did to the RTP."""
        return self.rounded_rtp - self.law_rtp

    @property
    def placement_change(self) -> Fraction:
        """``placed_rtp - rounded_rtp``: what moving the rows without a book did."""
        return self.placed_rtp - self.rounded_rtp

    @property
    def weights_change(self) -> Fraction:
        """``rtp - placed_rtp``: what integer weights (scaling, truncation, step 3) did."""
        return self.rtp - self.placed_rtp

    @property
    def total_change(self) -> Fraction | float:
        """``rtp - exact_rtp``: the table's RTP against the game's."""
        return _difference(self.rtp, self.exact_rtp)

    @property
    def truncated_rtp(self) -> Fraction:
        """The RTP carried by the truncated rows (before any step-3 correction)."""
        return sum((p * k / 10 for k, p in self.truncated), Fraction(0))

    @property
    def hit_rate(self) -> Fraction:
        """P(payout > 0) in the table."""
        return Fraction(sum(w for k, w in self.rows if k > 0), self.total)

    @property
    def max_payout(self) -> tuple[int, Fraction]:
        """The top payout (tenths) and its probability in the table."""
        k, w = self.rows[-1]
        return k, Fraction(w, self.total)


def _difference(a: Fraction, b: Fraction | float) -> Fraction | float:
    if isinstance(b, Fraction):
        return a - b
    return float(a - Fraction(b))  # b as its exact binary value, the result as a float


def _rows_of(law: Mapping[Fraction, Fraction], rounding: str) -> dict[int, Fraction]:
    parts: dict[int, list] = {}
    for amount, p in law.items():
        if p < 0:
            raise ValueError(f"probability {p} < 0 at {amount} bets")
        if not p:
            continue
        for k, share in round_amount(amount, rounding).items():
            if k < 0:
                raise ValueError(f"amount {amount} bets < 0")
            parts.setdefault(k, []).append((p, share))
    rows = {k: exact_sum(parts[k]) for k in sorted(parts)}
    return {k: p for k, p in rows.items() if p}


def exact_sum(terms) -> Fraction:
    """``sum p x`` over ``terms`` (pairs of Fractions), exactly: over one common denominator
    (a running Fraction sum reduces by a gcd of ever larger numbers at every step; a
    numerical law's million probabilities, each a float times one factor, took minutes).

    >>> from fractions import Fraction as F
    >>> exact_sum([(F(1, 3), F(2)), (F(1, 6), F(1, 10))]) == F(2, 3) + F(1, 60)
    True
    """
    terms = [(p, x) for p, x in terms if p and x]
    common = 1
    for p, x in terms:
        d = p.denominator * x.denominator
        if common % d:
            common = common // math.gcd(common, d) * d
    total = sum(p.numerator * x.numerator * (common // (p.denominator * x.denominator))
                for p, x in terms)
    return Fraction(total, common)


def payout_rows(law: Mapping[Fraction, Fraction], rounding: str) -> list[int]:
    """The payouts (tenths) a table of ``law`` has before integer weights: where each amount
    of positive probability goes under ``rounding``.

    >>> from fractions import Fraction as F
    >>> payout_rows({F(0): F(1, 2), F(1, 4): F(1, 2)}, "keep-rtp")
    [0, 2, 3]
    """
    out: set[int] = set()
    for amount, p in law.items():
        if p:
            out.update(k for k, share in round_amount(amount, rounding).items() if share)
    return sorted(out)


def _largest_remainder(q: dict[int, Fraction], total: int) -> dict[int, int]:
    """Integer weights adding up to ``total`` exactly, ``floor(q_k total / sum q)`` plus one
    for the largest remainders (ties: the smaller payout first)."""
    mass = sum(q.values())
    floors: dict[int, int] = {}
    remainders = []
    for k, p in q.items():
        x = p * total / mass
        f = math.floor(x)
        floors[k] = f
        remainders.append((x - f, -k))
    short = total - sum(floors.values())
    for _, minus_k in sorted(remainders, reverse=True)[:short]:
        floors[-minus_k] += 1
    return floors


def _granularity(exact_rtp) -> int:
    """The smallest total ``T`` with ``10 T R`` a whole number (1 when R is no fraction)."""
    if isinstance(exact_rtp, Fraction):
        return (Fraction(exact_rtp) * 10).denominator
    return 1


def _place(q: dict[int, Fraction], allowed, keep_mean: bool = False) -> tuple[dict[int, Fraction],
                                                                            tuple]:
    """Each row not in ``allowed`` gives its probability to the nearest allowed row (a tie
    to the lower one); with ``keep_mean``, split between the allowed rows below and above it
    in the proportions that keep its mean (``p (hi - k) / (hi - lo)`` to ``lo``), and above
    the top allowed row ``t`` to that row as ``p k / t``, the row of payout 0 giving up the
    difference ``p (k / t - 1)`` (the mean kept, the hit rate raised by it); a row below the
    lowest allowed one, or above the top when row 0 is not allowed or cannot give, goes to
    the nearest. ``unplayed`` lists ``(row, nearest allowed row, probability)``."""
    if allowed is None or set(q) <= set(allowed):
        return q, ()
    allowed = sorted(set(allowed))
    if not allowed:
        raise ValueError("no real round of the game was found for any payout of the table "
                         "(no book can be written): no export")
    member = set(allowed)
    one = Fraction(1)
    parts: dict[int, list] = {}  # row -> [(probability, share)], summed at the end
    moved = []
    top = allowed[-1]
    above: list = []
    for k, p in q.items():
        if k in member or not p:
            parts.setdefault(k, []).append((p, one))
            continue
        i = bisect.bisect_left(allowed, k)
        to = min(allowed[max(i - 1, 0):i + 1], key=lambda a: (abs(a - k), a))
        moved.append((k, to, p))
        if keep_mean and 0 < i < len(allowed):
            lo, hi = allowed[i - 1], allowed[i]
            parts.setdefault(lo, []).append((p, Fraction(hi - k, hi - lo)))
            parts.setdefault(hi, []).append((p, Fraction(k - lo, hi - lo)))
        elif keep_mean and i == len(allowed) and top > 0 and allowed[0] == 0:
            above.append((k, p))
        else:
            parts.setdefault(to, []).append((p, one))
    out = {k: exact_sum(terms) for k, terms in parts.items()}
    if above:
        give = exact_sum((p, Fraction(k - top, top)) for k, p in above)
        if out.get(0, Fraction(0)) > give:
            out[top] = out.get(top, Fraction(0)) + exact_sum((p, Fraction(k, top))
                                                             for k, p in above)
            out[0] -= give
        else:  # row 0 cannot give: the nearest (the top row)
            out[top] = out.get(top, Fraction(0)) + exact_sum((p, one) for _, p in above)
    return {k: out[k] for k in sorted(out) if out[k]}, tuple(moved)


def lookup_table(law: Mapping[Fraction, Fraction], rounding: str = "nearest", *,
                 exact_rtp: Fraction | float | None = None, allowed=None,
                 total_max: int = WEIGHT_TOTAL_MAX,
                 keep_mean: bool | None = None) -> LookupTable:
    """The lookup table of a round's payout law (see the module notes).

    Parameters
    ----------
    law : mapping amount (bets, Fraction) -> probability (Fraction)
        The round's law; the probabilities must add up to 1 (a numerical law's floats given
        as their exact binary fractions, normalised).
    rounding : str
        One of :data:`ROUNDINGS`.
    exact_rtp : Fraction or float, optional
        The game's RTP (default: the law's mean); ``"keep-rtp"`` aims the table's RTP at it.
    allowed : collection of int, optional
        The payouts (tenths) that may have a row (those with a book); default: any.
    total_max : int
        The largest total weight.
    keep_mean : bool, optional
        How a row without a book gives its probability away (``allowed``): split between
        the allowed rows around it so that the mean is kept, or to the nearest one (default:
        keep the mean with ``"keep-rtp"``, the nearest otherwise).

    Returns
    -------
    LookupTable
    """
    if rounding not in ROUNDINGS:
        raise ValueError(f"rounding must be one of {', '.join(ROUNDINGS)}, got {rounding!r}")
    law = {Fraction(a): Fraction(p) for a, p in law.items()}
    mass = sum(law.values())
    if mass != 1:
        raise ValueError(f"the law's probabilities add up to {float(mass)!r}, not 1")
    law_rtp = exact_sum((p, a) for a, p in law.items())
    exact_rtp = law_rtp if exact_rtp is None else exact_rtp
    q = _rows_of(law, rounding)
    rounded_rtp = exact_sum((p, Fraction(k, 10)) for k, p in q.items())
    if keep_mean is None:
        keep_mean = rounding == "keep-rtp"
    q, unplayed = _place(q, allowed, keep_mean)
    placed_rtp = exact_sum((p, Fraction(k, 10)) for k, p in q.items())
    denominator = math.lcm(*(p.denominator for p in q.values()))
    if denominator <= total_max:  # exact: no scaling, nothing truncated, nothing moved
        weights = {k: int(p * denominator) for k, p in q.items()}
        rows = tuple(weights.items())
        rtp = Fraction(sum(k * w for k, w in rows), 10 * denominator)
        target_gap = Fraction(0)
        if rounding == "keep-rtp":
            target_gap = _gap(rtp, exact_rtp)
        return LookupTable(rows, denominator, rounding, exact_rtp, law_rtp, rounded_rtp,
                           placed_rtp, rtp, not unplayed, denominator, unplayed=unplayed,
                           target_gap=target_gap, probabilities=q)
    grain = _granularity(exact_rtp) if rounding == "keep-rtp" else 1
    if grain > total_max >> 20:  # too coarse a total to aim at R: the nearest is the aim
        grain = 1
    total = total_max // grain * grain
    weights = _largest_remainder(q, total)
    truncated = tuple((k, q[k]) for k, w in weights.items() if w == 0)
    moved, between, gap = 0, None, Fraction(0)
    if rounding == "keep-rtp":
        moved, between = _aim(weights, total, exact_rtp)
        gap = _gap(Fraction(sum(k * w for k, w in weights.items()), 10 * total), exact_rtp)
    rows = tuple((k, w) for k, w in weights.items() if w > 0)
    rtp = Fraction(sum(k * w for k, w in rows), 10 * total)
    return LookupTable(rows, total, rounding, exact_rtp, law_rtp, rounded_rtp, placed_rtp, rtp,
                       False, denominator, truncated, unplayed, moved, between, gap, q)


def _gap(rtp: Fraction, exact_rtp) -> Fraction:
    return rtp - Fraction(exact_rtp)


def _aim(weights: dict[int, int], total: int, exact_rtp) -> tuple[int, tuple[int, int] | None]:
    """Move whole units of weight between two neighbouring rows so that ``sum w_k k`` comes as
    close to ``10 total R`` as a whole number of moves allows; returns the units moved (+: up)
    and the pair.

    The pair is the two consecutive payouts closest together (one unit moved changes the sum
    by their gap ``g``; one tenth apart lands on the whole number nearest the aim), among
    those the one whose giving row has the most weight; each row keeps at least one unit.
    At most ``max(rows, total / 2**AIM_SHARE_BITS)`` units move: enough for what integer
    weights and a numerical law's error leave, never a reshaping of the law to hide a large
    gap (e.g. rows without a book), which stays in the report as what is left.
    """
    target = Fraction(exact_rtp) * 10 * total
    target = math.floor(target + Fraction(1, 2))
    delta = target - sum(k * w for k, w in weights.items())
    if delta == 0:
        return 0, None
    present = sorted(k for k, w in weights.items() if w)
    pairs = list(itertools.pairwise(present))
    if not pairs:
        return 0, None
    gap = min(high - low for low, high in pairs)
    pairs = [(low, high) for low, high in pairs if high - low == gap]
    low, high = max(pairs, key=lambda kk: weights[kk[0]] if delta > 0 else weights[kk[1]])
    giver = low if delta > 0 else high
    most = max(len(weights), total >> AIM_SHARE_BITS)
    units = min(math.floor((abs(delta) + Fraction(gap, 2)) / gap), weights[giver] - 1, most)
    if units <= 0:
        return 0, None
    if delta > 0:
        weights[low] -= units
        weights[high] += units
        return units, (low, high)
    weights[high] -= units
    weights[low] += units
    return -units, (low, high)
