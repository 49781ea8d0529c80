"""The player's figures over N rounds, each beside its normal approximation.

Each function takes one round's win law (a win distribution or a
:class:`~slotmath.player.law.PlayerLaw`) and returns :class:`~slotmath.player.result.
PlayerFigure` objects (value, rigorous bounds, normal approximation, method) or a small
frozen record of arrays for a chart. The law of the total win comes from
:func:`~slotmath.player.session.session_law`; pass ``session=`` to read several figures from
one computation.

The normal approximations are the PAR sheet's: the net result of ``N`` rounds as
``Normal(N (RTP - 1), N SD^2)`` in bets, so the session RTP as ``RTP + z SD / sqrt(N)``; a
round's win as ``Normal(RTP, SD^2)``; the ruin as drifted Brownian motion
(:func:`~slotmath.player._bounds.diffusion_ruin`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

import numpy as np
from scipy.special import ndtr, ndtri

from slotmath.player.law import as_player_law
from slotmath.player.result import PlayerFigure
from slotmath.player.session import SessionLaw, session_law

__all__ = [
    "QUANTILE_LEVELS",
    "UK_MIN_CYCLE_SECONDS",
    "AheadCurve",
    "HourlyLoss",
    "RtpFunnel",
    "ahead_curve",
    "expected_loss_per_hour",
    "hourly_loss",
    "losses_disguised_as_wins",
    "probability_ahead",
    "probability_even",
    "rtp_funnel",
    "rtp_quantiles",
    "summary",
]

#: the minimum game cycle of the UK (UKGC RTS 14, 2.5 s) and Ontario (AGCO), in seconds
UK_MIN_CYCLE_SECONDS = Fraction(5, 2)
#: the session-RTP quantile levels reported by default
QUANTILE_LEVELS = (0.01, 0.05, 0.25, 0.5, 0.75, 0.95, 0.99)


def _session(law, n_rounds, session):
    if session is not None:
        if session.n_rounds != n_rounds:
            raise ValueError(f"the session law is of {session.n_rounds} rounds, not {n_rounds}")
        return session
    return session_law(law, n_rounds)


def _normal_net(law, n: int) -> tuple[float, float]:
    """Mean and SD (bets) of the net result of ``n`` rounds."""
    return n * (float(law.mean) - 1.0), law.std * math.sqrt(n)


def _method(session: SessionLaw) -> str:
    text = f"FFT power of the round's law, error <= {session.error_bound:.1e}"
    if session.blur:
        text += f", lattice coarsened (blur {session.blur / session.credits_per_bet:.3g} bets)"
    return text


def probability_ahead(law, n_rounds: int, *, session: SessionLaw | None = None
                      ) -> PlayerFigure:
    """P(the net result after ``n_rounds`` paid rounds is > 0): strictly ahead.

    A session that ends exactly even (total win = total stake) is not ahead; its
    probability is :func:`probability_even`.

    Examples
    --------
    Rounds paying 0 or 2 bets at evens: after 3 rounds the player is ahead with 2 or 3 wins.

    >>> from slotmath.exact.distribution import WinDistribution
    >>> f = probability_ahead(WinDistribution.from_mapping({0: 1, 2: 1}, 1), 3)
    >>> round(f.value, 12), f.lower <= 0.5 <= f.upper
    (0.5, True)
    """
    law = as_player_law(law)
    s = _session(law, n_rounds, session)
    threshold = n_rounds * law.credits_per_bet
    value = s.above(threshold)
    low, high = s.above_bounds(threshold)
    mean, sd = _normal_net(law, n_rounds)
    normal = float(1 - ndtr(-mean / sd)) if sd > 0 else float(mean > 0)
    return PlayerFigure(value, low, high, normal, _method(s))


def probability_even(law, n_rounds: int, *, session: SessionLaw | None = None
                     ) -> PlayerFigure:
    """P(the net result after ``n_rounds`` is exactly 0). Exactly 0 when the total stake is
    not a multiple of the wins' gcd. The normal figure is the normal mass within half a
    lattice step of 0 (the local normal approximation).

    Examples
    --------
    >>> from slotmath.exact.distribution import WinDistribution
    >>> f = probability_even(WinDistribution.from_mapping({0: 1, 2: 1}, 1), 2)
    >>> round(f.value, 12)     # one win in two rounds: 2 x 1/4
    0.5
    """
    law = as_player_law(law)
    s = _session(law, n_rounds, session)
    threshold = n_rounds * law.credits_per_bet
    mean, sd = _normal_net(law, n_rounds)
    half = 0.5 * law.unit / law.credits_per_bet
    normal = float(ndtr((half - mean) / sd) - ndtr((-half - mean) / sd)) if sd > 0 else 0.0
    if s.exact_lattice and (threshold - s.first) % s.step:
        return PlayerFigure(Fraction(0), 0.0, 0.0, normal, "the stake is off the wins' lattice")
    value = s.cdf(threshold) - s.below(threshold)
    high = min(1.0, s.cdf(threshold + s.blur) - s.below(threshold - s.blur)
               + 2 * (s.error_bound + s.blur_bound))
    low = max(0.0, value - 2 * s.error_bound) if s.exact_lattice else 0.0
    return PlayerFigure(value, low, high, normal, _method(s))


def _down(credits: float, stake: int) -> float:
    """``credits / stake`` rounded towards -inf (a lower bound stays one)."""
    if not math.isfinite(credits):
        return credits / stake
    exact = Fraction(credits) / stake
    f = float(exact)
    return math.nextafter(f, -math.inf) if Fraction(f) > exact else f


def _up(credits: float, stake: int) -> float:
    """``credits / stake`` rounded towards +inf."""
    return -_down(-credits, stake)


def rtp_quantiles(law, n_rounds: int, levels=QUANTILE_LEVELS, *,
                  session: SessionLaw | None = None) -> tuple[PlayerFigure, ...]:
    """Quantiles of the session RTP (total win / total stake) over ``n_rounds`` rounds.

    The ``q``-quantile is the smallest RTP ``r`` with ``P(session RTP <= r) >= q``. Its
    bounds hold the true quantile; when they meet, the quantile is known exactly (a lattice
    point) and ``value`` is that ``Fraction``.

    Examples
    --------
    >>> from slotmath.exact.distribution import WinDistribution
    >>> coin = WinDistribution.from_mapping({0: 1, 2: 1}, 1)
    >>> [f.value for f in rtp_quantiles(coin, 3, levels=(0.1, 0.6, 0.9))]
    [Fraction(0, 1), Fraction(4, 3), Fraction(2, 1)]

    At a level the CDF meets exactly (P(S <= 2) = 1/2), float64 cannot tell which side:
    the bounds then hold both points.

    >>> f = rtp_quantiles(coin, 3, levels=(0.5,))[0]
    >>> f.exact, f.lower <= 2 / 3, 4 / 3 <= f.upper < 4 / 3 + 1e-15
    (False, True, True)
    """
    law = as_player_law(law)
    s = _session(law, n_rounds, session)
    stake = n_rounds * law.credits_per_bet
    out = []
    for q in levels:
        value, lower, upper = s.quantile_credits(float(q))
        normal = float(law.mean) + float(ndtri(q)) * law.std / math.sqrt(n_rounds)
        lower = max(lower, 0.0)
        if lower == upper and s.exact_lattice:
            out.append(PlayerFigure(Fraction(int(value), stake), _down(lower, stake),
                                    _up(upper, stake), normal,
                                    _method(s) + "; exact: the bounds meet"))
        else:
            out.append(PlayerFigure(value / stake, _down(lower, stake), _up(upper, stake),
                                    normal, _method(s)))
    return tuple(out)


# ---------------------------------------------------------------------------------------------
# Time and the game cycle
# ---------------------------------------------------------------------------------------------
def _seconds(cycle_seconds) -> Fraction:
    value = (Fraction(str(cycle_seconds)) if isinstance(cycle_seconds, float)
             else Fraction(cycle_seconds))
    if value <= 0:
        raise ValueError(f"the game cycle must be > 0 seconds, got {cycle_seconds!r}")
    return value


def expected_loss_per_hour(rtp, cycle_seconds=UK_MIN_CYCLE_SECONDS) -> Fraction | float:
    """The expected loss per hour of continuous play, in bets: ``(1 - RTP) * 3600 /
    cycle``. Exact when ``rtp`` is a ``Fraction`` (a float cycle is read as its decimal text,
    so 2.5 is 5/2). The normal approximation has the same mean: it is this figure.

    Examples
    --------
    >>> expected_loss_per_hour(Fraction(96, 100))          # 1440 rounds an hour at 2.5 s
    Fraction(288, 5)
    >>> expected_loss_per_hour(Fraction(96, 100), 3)
    Fraction(48, 1)
    """
    rounds = 3600 / _seconds(cycle_seconds)
    if isinstance(rtp, (Fraction, int)):
        return (1 - Fraction(rtp)) * rounds
    return (1.0 - float(rtp)) * float(rounds)


@dataclass(frozen=True)
class HourlyLoss:
    """One hour of play at one game cycle.

    Attributes
    ----------
    cycle_seconds : Fraction
    rounds_per_hour : Fraction
        ``3600 / cycle``; the distribution figures use its whole part (rounds completed).
    expected_loss : Fraction or float
        In bets per hour (exact with an exact RTP).
    ahead : PlayerFigure
        P(ahead after an hour).
    net_quantiles : tuple of PlayerFigure
        Quantiles (``levels``) of the hour's net result, in bets.
    levels : tuple of float
    """

    cycle_seconds: Fraction
    rounds_per_hour: Fraction
    expected_loss: Fraction | float
    ahead: PlayerFigure
    net_quantiles: tuple[PlayerFigure, ...]
    levels: tuple[float, ...]


def hourly_loss(law, cycle_seconds=UK_MIN_CYCLE_SECONDS, *, rtp=None,
                levels=(0.05, 0.5, 0.95)) -> HourlyLoss:
    """The expected loss per hour and the law of one hour's net result.

    Parameters
    ----------
    law : win distribution or PlayerLaw
    cycle_seconds : number
        Seconds per game cycle (default 2.5, the UK and Ontario minimum).
    rtp : Fraction or float, optional
        The game's RTP for the expected loss, when it is not the law's mean (jackpots paid
        outside the round's law); default the law's mean.
    levels : sequence of float
        Quantile levels of the hour's net result.

    Examples
    --------
    >>> from slotmath.exact.distribution import WinDistribution
    >>> h = hourly_loss(WinDistribution.from_mapping({0: 52, 2: 48}, 1), 2.5)
    >>> h.rounds_per_hour, h.expected_loss
    (Fraction(1440, 1), Fraction(288, 5))
    """
    law = as_player_law(law)
    cycle = _seconds(cycle_seconds)
    rounds = 3600 / cycle
    n = math.floor(rounds)
    if n < 1:
        raise ValueError(f"a game cycle of {cycle_seconds} s plays no round in an hour")
    s = session_law(law, n)
    mean = law.mean if rtp is None else rtp
    quantiles = []
    for f in rtp_quantiles(law, n, levels, session=s):
        def net(r):  # session RTP -> net result in bets
            return r * n - n
        value = None if f.value is None else (f.value * n - n if f.exact else net(f.value))
        quantiles.append(PlayerFigure(value, net(f.lower), net(f.upper), net(f.normal),
                                      f.method))
    return HourlyLoss(cycle, rounds, expected_loss_per_hour(mean, cycle),
                      probability_ahead(law, n, session=s), tuple(quantiles), tuple(levels))


def losses_disguised_as_wins(law, stake=1) -> PlayerFigure:
    """P(0 < round win <= stake): a round that pays something but not more than it cost.
    ``stake`` is the round's cost in total bets (1; a game mode's ``cost``: a bought round
    that pays back less than its price is a loss too).

    Exact (a ``Fraction``) for an exact law. A round paying exactly the stake is counted
    (the issue's definition: "less than or equal to the stake while paying something");
    ``probability_of(stake)`` on the distribution gives that part. The normal figure is
    ``P(0 < W <= stake)`` for a round's win ``W ~ Normal(mean, SD^2)`` in bets.

    Examples
    --------
    >>> from slotmath.exact.distribution import WinDistribution
    >>> losses_disguised_as_wins(WinDistribution.from_mapping({0: 5, 5: 2, 10: 1, 40: 2}, 10)
    ...                          ).value
    Fraction(3, 10)
    """
    law = as_player_law(law)
    stake = Fraction(stake)
    top = stake * law.credits_per_bet  # the stake in credits (a win <= it: credits <= floor)
    inside = (law.credits > 0) & (law.credits <= math.floor(top))
    mean, sd, s = float(law.mean), law.std, float(stake)
    normal = (float(ndtr((s - mean) / sd) - ndtr(-mean / sd)) if sd > 0
              else float(0 < mean <= s))
    if law.exact:
        value = Fraction(sum(w for w, i in zip(law.weights, inside) if i), law.total)
        return PlayerFigure(value, float(value), float(value), normal,
                            "exact: full-cycle weights")
    value = math.fsum(law.probs[inside])
    return PlayerFigure(value, max(0.0, value - law.error), min(1.0, value + law.error),
                        normal, "numerical law, within its stated error")


# ---------------------------------------------------------------------------------------------
# Curves for the charts
# ---------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class AheadCurve:
    """P(ahead after n rounds) at each ``rounds``: computed, bounds, normal."""

    rounds: np.ndarray
    value: np.ndarray
    lower: np.ndarray
    upper: np.ndarray
    normal: np.ndarray


def ahead_curve(law, rounds, *, sessions=None) -> AheadCurve:
    """:func:`probability_ahead` at each round count of ``rounds`` (``sessions``: a mapping
    round count -> :class:`SessionLaw` to read from instead of computing).

    Examples
    --------
    >>> from slotmath.exact.distribution import WinDistribution
    >>> c = ahead_curve(WinDistribution.from_mapping({0: 1, 2: 1}, 1), [1, 2, 3])
    >>> np.round(c.value, 12).tolist()
    [0.5, 0.25, 0.5]
    """
    law = as_player_law(law)
    sessions = sessions or {}
    figures = [probability_ahead(law, int(n), session=sessions.get(int(n))) for n in rounds]
    return AheadCurve(np.asarray(rounds, dtype=np.int64),
                      np.array([f.float for f in figures]),
                      np.array([f.lower for f in figures]),
                      np.array([f.upper for f in figures]),
                      np.array([f.normal for f in figures]))


@dataclass(frozen=True)
class RtpFunnel:
    """Session-RTP quantiles by round count: arrays of shape ``(len(rounds), len(levels))``."""

    rounds: np.ndarray
    levels: tuple[float, ...]
    value: np.ndarray
    lower: np.ndarray
    upper: np.ndarray
    normal: np.ndarray
    rtp: float


def rtp_funnel(law, rounds, levels=(0.05, 0.5, 0.95), *, sessions=None) -> RtpFunnel:
    """:func:`rtp_quantiles` at each round count of ``rounds`` (the "RTP spread after N
    spins" table, exact beside normal; ``sessions`` as for :func:`ahead_curve`).

    Examples
    --------
    >>> from slotmath.exact.distribution import WinDistribution
    >>> f = rtp_funnel(WinDistribution.from_mapping({0: 1, 2: 1}, 1), [1, 3], (0.5,))
    >>> f.value.tolist()
    [[0.0], [0.6666666666666666]]
    """
    law = as_player_law(law)
    sessions = sessions or {}
    rows = [rtp_quantiles(law, int(n), levels, session=sessions.get(int(n))) for n in rounds]

    def grid(attr):
        return np.array([[getattr(f, attr) if attr != "value" else f.float for f in row]
                         for row in rows], dtype=np.float64)
    return RtpFunnel(np.asarray(rounds, dtype=np.int64), tuple(float(q) for q in levels),
                     grid("value"), grid("lower"), grid("upper"), grid("normal"),
                     float(law.mean))


# ---------------------------------------------------------------------------------------------
# Everything at once, for a report section
# ---------------------------------------------------------------------------------------------
def summary(law, *, rtp=None, rounds=(100, 1_000, 10_000, 100_000, 1_000_000),
            levels=(0.05, 0.5, 0.95), ruin=((100, 1_000), (1_000, 10_000)),
            cycle_seconds=UK_MIN_CYCLE_SECONDS, max_seconds: float = 10.0) -> dict:
    """The player's figures of one round law in one nested dict (for a JSON section or a PAR
    table): every figure a :class:`PlayerFigure`, or an exact number.

    Parameters
    ----------
    law : win distribution or PlayerLaw
    rtp : Fraction or float, optional
        The game's RTP when it is not the law's mean (for the loss per hour).
    rounds, levels : sequences
        Session lengths, and quantile levels of the session RTP.
    ruin : sequence of (bankroll, rounds)
        The risk-of-ruin cases (``method="auto"`` with ``max_seconds`` each).
    cycle_seconds : number

    Returns
    -------
    dict
        ``{"law_mean", "rtp", "cycle_seconds", "rounds_per_hour", "expected_loss_per_hour",
        "losses_disguised_as_wins", "sessions": {N: {"ahead", "even", "rtp_quantiles":
        {q: figure}}}, "ruin": {(B, N): figure}}``.

    Examples
    --------
    >>> from slotmath.exact.distribution import WinDistribution
    >>> s = summary(WinDistribution.from_mapping({0: 52, 2: 48}, 1), rounds=(10,),
    ...             ruin=((5, 20),))
    >>> s["expected_loss_per_hour"], s["ruin"][5, 20].method
    (Fraction(288, 5), 'exact')
    """
    from slotmath.player.ruin import ruin_probability

    law = as_player_law(law)
    cycle = _seconds(cycle_seconds)
    sessions = {}
    for n in rounds:
        s = session_law(law, int(n))
        sessions[int(n)] = {
            "ahead": probability_ahead(law, int(n), session=s),
            "even": probability_even(law, int(n), session=s),
            "rtp_quantiles": dict(zip((float(q) for q in levels),
                                      rtp_quantiles(law, int(n), levels, session=s))),
        }
    return {
        "law_mean": law.mean,
        "rtp": law.mean if rtp is None else rtp,
        "cycle_seconds": cycle,
        "rounds_per_hour": 3600 / cycle,
        "expected_loss_per_hour": expected_loss_per_hour(law.mean if rtp is None else rtp,
                                                         cycle),
        "losses_disguised_as_wins": losses_disguised_as_wins(law),
        "sessions": sessions,
        "ruin": {(int(b), int(n)): ruin_probability(law, int(b), int(n),
                                                    max_seconds=max_seconds)
                 for b, n in ruin},
    }
