"""The player's view: each figure of :mod:`slotmath.player` as a chart, exact beside normal.

Each chart is a pair: ``*_data(result) -> DataFrame`` is exactly what is drawn (read from a
computed :mod:`slotmath.player` result, nothing solved here), ``plot_*(result, ax=None)`` only
draws it. Exact figures are solid; the normal approximation is dashed.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd
from scipy.special import ndtr

from slotmath.player import (
    AheadCurve,
    HourlyLoss,
    RtpFunnel,
    RuinCurve,
    SessionLaw,
    as_player_law,
    losses_disguised_as_wins,
)
from slotmath.plot._common import axes

__all__ = ["ahead_data", "hourly_loss_data", "net_result_data", "plot_ahead",
           "plot_hourly_loss", "plot_net_result", "plot_round_outcomes", "plot_rtp_funnel",
           "plot_ruin", "round_outcomes_data", "rtp_funnel_data", "ruin_data"]


# ---------------------------------------------------------------------------------------------
# The net result after N rounds
# ---------------------------------------------------------------------------------------------
def net_result_data(session: SessionLaw, bins: int = 80, coverage: float = 1e-4
                    ) -> pd.DataFrame:
    """What :func:`plot_net_result` draws: the law of the net result after N rounds in bands.

    Parameters
    ----------
    session : SessionLaw
        From :func:`slotmath.player.session_law`.
    bins : int
        Most bands. When the law has at most this many lattice points in the range shown,
        each point is its own band ``[net - step/2, net + step/2)``.
    coverage : float
        Each tail holding less than this is left out of the range shown (its mass is in
        ``attrs["below"]`` and ``attrs["above"]``).

    Returns
    -------
    pandas.DataFrame
        ``lower``, ``upper`` (net result in bets), ``probability`` (the computed mass in the
        band), ``normal`` (the normal approximation's mass in it). ``attrs``: ``n_rounds``,
        ``error_bound``, ``below``, ``above``, ``blur`` (bets).

    Examples
    --------
    >>> from slotmath.exact.distribution import WinDistribution
    >>> from slotmath.player import session_law
    >>> s = session_law(WinDistribution.from_mapping({0: 1, 2: 1}, 1), 2)
    >>> net_result_data(s).round(4)
       lower  upper  probability  normal
    0   -3.0   -1.0         0.25  0.2228
    1   -1.0    1.0         0.50  0.5205
    2    1.0    3.0         0.25  0.2228
    """
    if bins < 1:
        raise ValueError(f"bins must be >= 1, got {bins}")
    cpb = session.credits_per_bet
    cumulative = np.cumsum(session.pmf)
    first = int(np.searchsorted(cumulative, coverage, side="right"))
    last = int(np.searchsorted(cumulative, cumulative[-1] - coverage, side="left"))
    last = max(min(last, len(cumulative) - 1), first)
    net = session.net_bets
    step = session.step / cpb
    mean = session.n_rounds * (float(session.mean) - 1.0)
    sd = float(np.sqrt(session.n_rounds * float(session.variance)))
    if last - first + 1 <= bins:
        lower = net[first:last + 1] - step / 2
        upper = net[first:last + 1] + step / 2
        probability = session.pmf[first:last + 1]
    else:
        edges = np.linspace(net[first] - step / 2, net[last] + step / 2, bins + 1)
        index = np.clip(np.searchsorted(edges, net[first:last + 1], side="right") - 1, 0,
                        bins - 1)
        probability = np.bincount(index, weights=session.pmf[first:last + 1], minlength=bins)
        lower, upper = edges[:-1], edges[1:]
    normal = (ndtr((upper - mean) / sd) - ndtr((lower - mean) / sd)) if sd > 0 else \
        ((lower <= mean) & (mean < upper)).astype(float)
    df = pd.DataFrame({"lower": lower, "upper": upper, "probability": probability,
                       "normal": normal})
    df.attrs.update(n_rounds=session.n_rounds, error_bound=session.error_bound,
                    below=float(cumulative[first - 1]) if first else 0.0,
                    above=float(cumulative[-1] - cumulative[last]),
                    blur=session.blur / cpb)
    return df


def plot_net_result(session: SessionLaw, ax=None, bins: int = 80):
    """Draw the law of the net result after N rounds (bars) with the normal approximation
    (dashed); a vertical line at 0 (even).

    Returns
    -------
    matplotlib.axes.Axes
    """
    data = net_result_data(session, bins)
    ax = axes(ax)
    width = data["upper"] - data["lower"]
    ax.bar(data["lower"], data["probability"], width=width, align="edge", color="C0",
           edgecolor="white", linewidth=0.3, label="exact")
    ax.step(np.append(data["lower"], data["upper"].iloc[-1]),
            np.append(data["normal"], data["normal"].iloc[-1]), where="post", color="C3",
            linestyle="--", linewidth=1.2, label="normal approximation")
    ax.axvline(0, color="grey", linewidth=0.8)
    ax.set_xlabel("net result (bets)")
    ax.set_ylabel("probability per band")
    ax.set_title(f"Net result after {data.attrs['n_rounds']:,} rounds")
    ax.legend(fontsize="small")
    return ax


# ---------------------------------------------------------------------------------------------
# Session RTP by round count
# ---------------------------------------------------------------------------------------------
def rtp_funnel_data(funnel: RtpFunnel) -> pd.DataFrame:
    """What :func:`plot_rtp_funnel` draws: one row per (round count, quantile level).

    Columns ``rounds``, ``level``, ``value``, ``lower``, ``upper`` (session RTP, computed and
    its bounds), ``normal``; ``attrs["rtp"]`` is the long-run RTP.

    Examples
    --------
    >>> from slotmath.exact.distribution import WinDistribution
    >>> from slotmath.player import rtp_funnel
    >>> f = rtp_funnel(WinDistribution.from_mapping({0: 1, 2: 1}, 1), [1, 3], (0.9,))
    >>> rtp_funnel_data(f)[["rounds", "level", "value"]]
       rounds  level  value
    0       1    0.9    2.0
    1       3    0.9    2.0
    """
    rows = []
    for i, n in enumerate(funnel.rounds):
        for j, q in enumerate(funnel.levels):
            rows.append({"rounds": int(n), "level": q, "value": funnel.value[i, j],
                         "lower": funnel.lower[i, j], "upper": funnel.upper[i, j],
                         "normal": funnel.normal[i, j]})
    df = pd.DataFrame(rows, columns=["rounds", "level", "value", "lower", "upper", "normal"])
    df.attrs["rtp"] = funnel.rtp
    return df


def plot_rtp_funnel(funnel: RtpFunnel, ax=None):
    """Draw the session-RTP quantiles against the round count (log scale): exact solid,
    normal dashed, the long-run RTP as a grey line.

    Returns
    -------
    matplotlib.axes.Axes
    """
    data = rtp_funnel_data(funnel)
    ax = axes(ax)
    for k, (level, part) in enumerate(data.groupby("level", sort=True)):
        color = f"C{k}"
        ax.plot(part["rounds"], part["value"], color=color, marker="o", markersize=3,
                label=f"{level:.0%} exact")
        ax.plot(part["rounds"], part["normal"], color=color, linestyle="--", linewidth=1,
                label=f"{level:.0%} normal")
    ax.axhline(data.attrs["rtp"], color="grey", linewidth=0.8)
    ax.set_xscale("log")
    ax.set_xlabel("rounds")
    ax.set_ylabel("session RTP")
    ax.set_title("Session RTP quantiles")
    ax.legend(fontsize="x-small", ncol=2)
    return ax


# ---------------------------------------------------------------------------------------------
# P(ahead) by round count
# ---------------------------------------------------------------------------------------------
def ahead_data(curve: AheadCurve) -> pd.DataFrame:
    """What :func:`plot_ahead` draws: ``rounds``, ``value``, ``lower``, ``upper``,
    ``normal`` of P(ahead after n rounds).

    Examples
    --------
    >>> from slotmath.exact.distribution import WinDistribution
    >>> from slotmath.player import ahead_curve
    >>> c = ahead_curve(WinDistribution.from_mapping({0: 1, 2: 1}, 1), [1, 2])
    >>> ahead_data(c)[["rounds", "value", "normal"]].round(4)
       rounds  value  normal
    0       1   0.50     0.5
    1       2   0.25     0.5
    """
    return pd.DataFrame({"rounds": curve.rounds, "value": curve.value, "lower": curve.lower,
                         "upper": curve.upper, "normal": curve.normal})


def plot_ahead(curve: AheadCurve, ax=None):
    """Draw P(ahead after n rounds) against n (log scale), exact and normal.

    Returns
    -------
    matplotlib.axes.Axes
    """
    data = ahead_data(curve)
    ax = axes(ax)
    ax.plot(data["rounds"], data["value"], color="C0", marker="o", markersize=3, label="exact")
    ax.plot(data["rounds"], data["normal"], color="C3", linestyle="--",
            label="normal approximation")
    ax.set_xscale("log")
    ax.set_ylim(bottom=0)
    ax.set_xlabel("rounds")
    ax.set_ylabel("P(ahead)")
    ax.set_title("Chance of being ahead")
    ax.legend(fontsize="small")
    return ax


# ---------------------------------------------------------------------------------------------
# Risk of ruin
# ---------------------------------------------------------------------------------------------
def ruin_data(curve: RuinCurve) -> pd.DataFrame:
    """What :func:`plot_ruin` draws: ``rounds``, ``value`` (NaN where only bounds are known),
    ``lower``, ``upper``, ``normal`` (diffusion) of P(ruined by round n); ``attrs``:
    ``bankroll``, ``method``.

    Examples
    --------
    >>> from slotmath.exact.distribution import WinDistribution
    >>> from slotmath.player import ruin_curve
    >>> c = ruin_curve(WinDistribution.from_mapping({0: 1, 2: 1}, 1), 1, 3)
    >>> ruin_data(c)[["rounds", "value", "lower", "upper"]]
       rounds  value  lower  upper
    0       1  0.500  0.500  0.500
    1       2  0.500  0.500  0.500
    2       3  0.625  0.625  0.625
    """
    df = pd.DataFrame({"rounds": curve.rounds, "value": curve.value, "lower": curve.lower,
                       "upper": curve.upper, "normal": curve.normal})
    df.attrs.update(bankroll=curve.bankroll, method=curve.method)
    return df


def plot_ruin(curve: RuinCurve, ax=None):
    """Draw the risk of ruin by round n: the computed curve (exact or float64) or, beyond the
    recursion, the band between its bounds; the diffusion approximation dashed.

    Returns
    -------
    matplotlib.axes.Axes
    """
    data = ruin_data(curve)
    ax = axes(ax)
    if data["value"].notna().all():
        ax.plot(data["rounds"], data["value"], color="C0", label=data.attrs["method"])
    else:
        ax.fill_between(data["rounds"], data["lower"], data["upper"], color="C0", alpha=0.3,
                        label="bounds")
    ax.plot(data["rounds"], data["normal"], color="C3", linestyle="--", label="diffusion")
    if data["rounds"].iloc[-1] >= 100 * data["rounds"].iloc[0]:
        ax.set_xscale("log")
    ax.set_ylim(0, 1)
    ax.set_xlabel("rounds")
    ax.set_ylabel("P(ruined)")
    ax.set_title(f"Risk of ruin, bankroll {data.attrs['bankroll']:,} bets")
    ax.legend(fontsize="small")
    return ax


# ---------------------------------------------------------------------------------------------
# Loss per hour by game cycle
# ---------------------------------------------------------------------------------------------
def hourly_loss_data(hours: Sequence[HourlyLoss]) -> pd.DataFrame:
    """What :func:`plot_hourly_loss` draws: one row per game cycle: ``cycle_seconds``,
    ``rounds_per_hour``, ``expected_loss`` (bets), then per quantile level ``q`` of the hour's
    net result ``net_q`` (computed) and ``net_q_normal``.

    Examples
    --------
    >>> from slotmath.exact.distribution import WinDistribution
    >>> from slotmath.player import hourly_loss
    >>> law = WinDistribution.from_mapping({0: 52, 2: 48}, 1)
    >>> hourly_loss_data([hourly_loss(law, s, levels=(0.5,)) for s in (2.5, 5)]).iloc[:, :3]
       cycle_seconds  rounds_per_hour  expected_loss
    0            2.5           1440.0           57.6
    1            5.0            720.0           28.8
    """
    rows = []
    for h in hours:
        row = {"cycle_seconds": float(h.cycle_seconds),
               "rounds_per_hour": float(h.rounds_per_hour),
               "expected_loss": float(h.expected_loss)}
        for q, f in zip(h.levels, h.net_quantiles):
            row[f"net_{q:g}"] = f.float
            row[f"net_{q:g}_normal"] = f.normal
        rows.append(row)
    return pd.DataFrame(rows)


def plot_hourly_loss(hours: Sequence[HourlyLoss], ax=None):
    """Draw the expected loss per hour against the game cycle, the band of the hour's net
    result (its lowest and highest quantile levels, as a loss) exact and normal, and the 2.5 s
    minimum.

    Returns
    -------
    matplotlib.axes.Axes
    """
    data = hourly_loss_data(hours)
    ax = axes(ax)
    x = data["cycle_seconds"]
    ax.plot(x, data["expected_loss"], color="C0", marker="o", markersize=3,
            label="expected loss")
    nets = [c for c in data.columns if c.startswith("net_") and not c.endswith("_normal")]
    if len(nets) >= 2:
        low, high = nets[0], nets[-1]
        ax.fill_between(x, -data[high], -data[low], color="C0", alpha=0.2,
                        label=f"loss between {low[4:]} and {high[4:]} quantiles (exact)")
        for col in (low, high):
            ax.plot(x, -data[f"{col}_normal"], color="C3", linestyle="--", linewidth=1)
    ax.axvline(2.5, color="grey", linewidth=0.8, linestyle=":")
    ax.set_xlabel("game cycle (seconds)")
    ax.set_ylabel("loss per hour (bets)")
    ax.set_title("Loss per hour of play")
    ax.legend(fontsize="x-small")
    return ax


# ---------------------------------------------------------------------------------------------
# One round: no win, a loss disguised as a win, a real win
# ---------------------------------------------------------------------------------------------
def round_outcomes_data(law) -> pd.DataFrame:
    """What :func:`plot_round_outcomes` draws: P(no win), P(0 < win <= stake) (a loss
    disguised as a win) and P(win > stake), computed and by the normal approximation of a
    round's win.

    Examples
    --------
    >>> from slotmath.exact.distribution import WinDistribution
    >>> round_outcomes_data(WinDistribution.from_mapping({0: 5, 5: 2, 10: 1, 40: 2}, 10)
    ...                     )[["outcome", "probability"]]
                       outcome  probability
    0                   no win          0.5
    1  loss disguised as a win          0.3
    2      win above the stake          0.2
    """
    law = as_player_law(law)
    ldw = losses_disguised_as_wins(law)
    none = float(np.sum(law.probs[law.credits == 0]))
    above = float(np.sum(law.probs[law.credits > law.credits_per_bet]))
    mean, sd = float(law.mean), law.std
    normal_none = float(ndtr(-mean / sd)) if sd > 0 else float(mean <= 0)
    normal_above = float(1 - ndtr((1 - mean) / sd)) if sd > 0 else float(mean > 1)
    return pd.DataFrame({
        "outcome": ["no win", "loss disguised as a win", "win above the stake"],
        "probability": [none, ldw.float, above],
        "normal": [normal_none, ldw.normal, normal_above],
    })


def plot_round_outcomes(law, ax=None):
    """Draw the three outcomes of a round as bars, exact beside normal.

    Returns
    -------
    matplotlib.axes.Axes
    """
    data = round_outcomes_data(law)
    ax = axes(ax)
    x = np.arange(len(data))
    ax.bar(x - 0.2, data["probability"], width=0.4, color="C0", label="exact")
    ax.bar(x + 0.2, data["normal"], width=0.4, color="C3", alpha=0.6,
           label="normal approximation")
    ax.set_xticks(x, data["outcome"], fontsize="small")
    ax.set_ylabel("probability per round")
    ax.set_title("What a round does")
    ax.legend(fontsize="small")
    return ax
