"""The player's view of an analysed game as JSON and as plain text (``slotmath player FILE``).

Only rendering: the figures are :func:`slotmath.player.summary` of the analysis' round law
(the distribution of one paid round's win), each with its bounds and the normal (for ruin,
diffusion) approximation beside it; see ``docs/player.md`` for the methods.
"""

from __future__ import annotations

import math
from fractions import Fraction

from slotmath import player
from slotmath.player.result import PlayerFigure
from slotmath.report.figures import figure

__all__ = ["DEFAULT_ROUNDS", "DEFAULT_RUIN", "player_dict", "player_summary", "player_text"]

#: the session lengths of the view (rounds)
DEFAULT_ROUNDS = (100, 1_000, 10_000, 100_000, 1_000_000)
#: the risk-of-ruin cases (bankroll in bets, rounds)
DEFAULT_RUIN = ((100, 1_000), (1_000, 10_000))
#: the quantile levels of the session RTP
LEVELS = (0.05, 0.5, 0.95)


def player_summary(analysis, *, rounds=DEFAULT_ROUNDS, ruin=DEFAULT_RUIN,
                   cycle_seconds=player.UK_MIN_CYCLE_SECONDS, max_seconds: float = 10.0) -> dict:
    """:func:`slotmath.player.summary` of ``analysis``' round law, with the game's RTP for the
    loss per hour (which differs from the law's mean where jackpots are paid from pools).

    Parameters
    ----------
    analysis : Analysis
    rounds : sequence of int
        Session lengths (each from 1 to 10**7).
    ruin : sequence of (bankroll, rounds)
        Risk-of-ruin cases: bankroll in bets (>= 1), rounds (>= 1).
    cycle_seconds : number
        Seconds a round (the loss per hour).
    max_seconds : float
        Time allowed to each ruin case's recursion before bounds are used.

    Raises
    ------
    ValueError
        A session length, bankroll or cycle out of range (one line).
    """
    for n in rounds:
        if not 1 <= int(n) <= 10**7:
            raise ValueError(f"--rounds: a session is 1 to 10,000,000 rounds, got {n}")
    for b, n in ruin:
        if int(b) < 1 or int(n) < 1:
            raise ValueError(f"--ruin: bankroll and rounds must be >= 1, got {b},{n}")
    if not (isinstance(cycle_seconds, (int, float, Fraction)) and 0 < cycle_seconds < math.inf):
        raise ValueError(f"--cycle: seconds a round must be > 0, got {cycle_seconds}")
    return player.summary(analysis.distribution, rtp=analysis.rtp, rounds=tuple(rounds),
                          levels=LEVELS, ruin=tuple(ruin), cycle_seconds=cycle_seconds,
                          max_seconds=max_seconds)


#: an exact fraction with more digits than this is written as its float, with its digit count
#: (an exact ruin probability over thousands of rounds can have many thousands of digits)
MAX_EXACT_DIGITS = 1000


def _value(value) -> dict:
    if isinstance(value, Fraction):
        digits = len(str(value.denominator)) if value.denominator.bit_length() < 13_000 \
            else math.ceil(value.denominator.bit_length() * math.log10(2))
        if digits > MAX_EXACT_DIGITS:
            return {"exact": None, "float": float(value), "exact_digits": digits}
    return figure(value)


def _figure(value) -> dict:
    if isinstance(value, PlayerFigure):
        return {"value": None if value.value is None else _value(value.value),
                "lower": value.lower, "upper": value.upper, "normal": value.normal,
                "normal_gap": value.normal_gap, "method": value.method}
    return figure(value)


def player_dict(analysis, summary: dict) -> dict:
    """The view as JSON-ready data: every figure ``{"exact", "float"}`` or, for a figure with
    bounds, ``{"value", "lower", "upper", "normal", "normal_gap", "method"}``. An exact value
    of more than :data:`MAX_EXACT_DIGITS` digits is ``{"exact": null, "float",
    "exact_digits"}`` (its method still says ``exact``).

    Examples
    --------
    >>> import slotmath
    >>> a = slotmath.analyze(slotmath.load_game("data/games/classic_3reel.toml"))
    >>> d = player_dict(a, player_summary(a, rounds=(100,), ruin=((20, 100),)))
    >>> d["expected_loss_per_hour"]["exact"], d["ruin"][0]["probability"]["method"]
    ('1238320/18473', 'exact')
    """
    s = summary
    return {
        "game": analysis.game.name,
        "bet_level": analysis.level,
        "rtp": figure(s["rtp"]),
        "law_mean": figure(s["law_mean"]),
        "cycle_seconds": figure(s["cycle_seconds"]),
        "rounds_per_hour": figure(s["rounds_per_hour"]),
        "expected_loss_per_hour": figure(s["expected_loss_per_hour"]),
        "losses_disguised_as_wins": _figure(s["losses_disguised_as_wins"]),
        "sessions": [
            {"rounds": n, "ahead": _figure(v["ahead"]), "even": _figure(v["even"]),
             "rtp_quantiles": [{"level": q, "rtp": _figure(f)}
                               for q, f in v["rtp_quantiles"].items()]}
            for n, v in s["sessions"].items()],
        "ruin": [{"bankroll": b, "rounds": n, "probability": _figure(f)}
                 for (b, n), f in s["ruin"].items()],
    }


def _text(f, percent: bool = True) -> str:
    def show(x, digits):
        return f"{x:.{digits}%}" if percent else f"{x:,.{digits}f}"
    if not isinstance(f, PlayerFigure):
        return show(float(f), 6) + (" (exact)" if isinstance(f, (Fraction, int)) else "")
    if f.exact:
        computed = f"{show(float(f.value), 6)} (exact)"
    elif f.value is not None and f.upper - f.lower < 1e-6 * (1 if percent else 100):
        computed = show(float(f.value), 6)
    elif f.value is not None:
        computed = f"{show(float(f.value), 4)} (in {show(f.lower, 4)} .. {show(f.upper, 4)})"
    else:
        computed = f"{show(f.lower, 4)} .. {show(f.upper, 4)}"
    return f"{computed}; normal {show(f.normal, 4)}"


def player_text(analysis, summary: dict) -> str:
    """The view as plain lines: each figure, its bounds when not exact, and the normal
    approximation beside it."""
    s = summary
    lines = [
        (f"Player's view: {analysis.game.name} (bet level {analysis.level}), RTP "
         f"{float(s['rtp']):.6%}"),
        (f"expected loss per hour at {float(s['cycle_seconds']):g} s a round "
         f"({float(s['rounds_per_hour']):,.0f} rounds): "
         f"{float(s['expected_loss_per_hour']):,.4f} bets"),
        "losses disguised as wins, P(0 < round win <= stake): "
        + _text(s["losses_disguised_as_wins"]),
    ]
    for n, v in s["sessions"].items():
        lines.append(f"after {n:,} rounds:")
        lines.append(f"  P(ahead) {_text(v['ahead'])}")
        lines.append(f"  P(even) {_text(v['even'])}")
        for q, f in v["rtp_quantiles"].items():
            lines.append(f"  session RTP, {q:.0%} quantile: {_text(f)}")
    for (b, n), f in s["ruin"].items():
        lines.append(f"risk of ruin, bankroll {b:,} bets within {n:,} rounds: {_text(f)} "
                     f"[{f.method}]")
    return "\n".join(lines) + "\n"
