"""Progressive jackpot charts: the RTP and its parts per bet level, and each pool's laws (value
at a hit, rounds between hits, the pool at a random round).

The pool laws come from :class:`~slotmath.markov.jackpot.PoolAnalysis` (numerical, on the
lattice ``seed + k x increment``, often hundreds of thousands of points); the ``*_data``
functions bin them for drawing. Every bin keeps the mean of the values it holds, so the
probability-weighted bin means give back the law's mean, and the last bin also holds the far
tail (above the ``1 - tail`` quantile, mass ``df.attrs["beyond"]``): nothing is dropped.

Examples
--------
A one-line game whose bonus wheel (on a B-B-B line) has one coin division and a MINI jackpot:

>>> import slotmath
>>> game = slotmath.loads_game('''
... name = "Tiny Jackpot"
... rows = 1
... bet = 1
... bet_levels = [1, 2]
... coin_value = 1
... paylines = [[0, 0, 0]]
... symbols = { A = { pays = { 3 = 5 } }, B = { bonus = true }, X = {} }
... reels = { base = [["A", "B", "X"], ["A", "B", "X"], ["A", "B", "X"]] }
... bonus_wheel = { symbol = "B", prizes = [1], weights = [1], jackpots = ["MINI"] }
... jackpots = [{ name = "MINI", seed = 5, contribution = 0.05, law = "linear", rate = 0.01 }]
... ''')
>>> df = hit_value_data(slotmath.analyze(game), "MINI")
>>> round(float(df["probability"].sum()), 12), round(df.attrs["mean"], 4)
(1.0, 15.6468)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import numpy as np
import pandas as pd

from slotmath.plot._common import axes, feature_of

__all__ = [
    "hit_value_data",
    "plot_hit_value",
    "plot_pool",
    "plot_rtp_by_level",
    "plot_time_between_hits",
    "pool_data",
    "rtp_by_level_data",
    "time_between_hits_data",
]

#: Default number of bins of a pool law.
BINS = 50
#: Default mass above the last bin's upper edge (folded into the last bin).
TAIL = 1e-6

#: The columns of :func:`rtp_by_level_data` before the components.
_COLUMNS = ("level", "bet_value", "rtp", "rtp_error")


# -- RTP by bet level ----------------------------------------------------------------------------


def rtp_by_level_data(game: Any, levels: Iterable[int] | None = None, *,
                      analyses: Mapping[int, Any] | None = None) -> pd.DataFrame:
    """What :func:`plot_rtp_by_level` draws: the RTP and its components at each bet level.

    Parameters
    ----------
    game : Game
    levels : iterable of int, optional
        Bet levels, default all of ``game.bet_levels``.
    analyses : mapping level -> Analysis, optional
        Analyses of ``game`` already computed (reused instead of analysing again).

    Returns
    -------
    pandas.DataFrame
        One row per level: ``level``, ``bet_value`` (currency per paid round, None without a
        coin value), ``rtp`` and ``rtp_error`` (floats, :attr:`Analysis.rtp
        <slotmath.analysis.Analysis.rtp>` and its error bound), then one float column per
        component (:attr:`Analysis.components <slotmath.analysis.Analysis.components>`, in
        its order). ``df.attrs["components"]`` lists the component columns.

    Examples
    --------
    >>> import slotmath
    >>> game = slotmath.loads_game('''
    ... name = "Tiny Jackpot"
    ... rows = 1
    ... bet = 1
    ... bet_levels = [1, 2]
    ... coin_value = 1
    ... paylines = [[0, 0, 0]]
    ... symbols = { A = { pays = { 3 = 5 } }, B = { bonus = true }, X = {} }
    ... reels = { base = [["A", "B", "X"], ["A", "B", "X"], ["A", "B", "X"]] }
    ... bonus_wheel = { symbol = "B", prizes = [1], weights = [1], jackpots = ["MINI"] }
    ... jackpots = [{ name = "MINI", seed = 5, contribution = 0.05, law = "linear", rate = 0.01 }]
    ... ''')
    >>> df = rtp_by_level_data(game)
    >>> df.attrs["components"]
    ['lines', 'bonus_wheel', 'jackpots']
    >>> df[["level", "bet_value", "rtp", "jackpots"]].round(4)
       level  bet_value     rtp  jackpots
    0      1        1.0  0.2910    0.0735
    1      2        2.0  0.2814    0.0652
    """
    from slotmath.analysis import analyze

    levels = list(game.bet_levels if levels is None else levels)
    analyses = dict(analyses or {})
    rows, names = [], []
    for level in levels:
        a = analyses.get(level)
        if a is None:
            a = analyze(game, level)
        elif a.level != level:
            raise ValueError(f"analyses[{level}] is an analysis at level {a.level}")
        for name in a.components:
            if name not in names:
                names.append(name)
        bet_value = float(game.bet_value(level)) if game.coin_value is not None else None
        rows.append({"level": level, "bet_value": bet_value, "rtp": float(a.rtp),
                     "rtp_error": float(a.rtp_error),
                     **{k: float(v) for k, v in a.components.items()}})
    df = pd.DataFrame(rows, columns=[*_COLUMNS, *names])
    df.attrs["components"] = names
    return df


def plot_rtp_by_level(data: Any, ax=None, *, kind: str = "stacked",
                      components: Iterable[str] | None = None,
                      published: Mapping[int, float] | None = None):
    """Draw the RTP at each bet level, split into its components.

    Parameters
    ----------
    data : pandas.DataFrame or Game
        From :func:`rtp_by_level_data` (a Game is analysed at every level first).
    ax : matplotlib Axes, optional
    kind : {"stacked", "grouped"}
        ``"stacked"``: one bar per level, the components stacked (a negative one, the max-win
        cap, below zero) with the total written on top. ``"grouped"``: one bar per
        component side by side for each level, on their own scale, so that small parts
        that move with the level (wheel coins, jackpots) can be compared.
    components : iterable of str, optional
        The components to draw (default all). A stacked chart of some components only is
        labelled with their sum.
    published : mapping level -> RTP, optional
        Published figures (e.g. ``{1: 0.9231, 4: 0.9296}``), marked on the stacked bars
        (or as points in a grouped chart of the total).

    Returns
    -------
    matplotlib.axes.Axes
    """
    if not isinstance(data, pd.DataFrame):
        data = rtp_by_level_data(data)
    if kind not in ("stacked", "grouped"):
        raise ValueError(f"kind must be 'stacked' or 'grouped', not {kind!r}")
    names = list(data.attrs.get("components", [c for c in data.columns if c not in _COLUMNS]))
    if components is not None:
        wanted = list(components)
        unknown = [c for c in wanted if c not in names]
        if unknown:
            raise ValueError(f"no component(s) {unknown}: the data has {names}")
        names = wanted
    ax = axes(ax)
    x = np.arange(len(data))
    levels = [str(v) for v in data["level"]]
    if kind == "stacked":
        up = np.zeros(len(data))
        down = np.zeros(len(data))
        for i, name in enumerate(names):
            values = data[name].to_numpy(dtype=float) * 100
            bottom = np.where(values >= 0, up, down)
            ax.bar(x, values, 0.6, bottom=bottom, label=name, color=f"C{i}")
            up += np.maximum(values, 0)
            down += np.minimum(values, 0)
        totals = data[names].sum(axis=1).to_numpy(dtype=float)
        for xi, top, total in zip(x, up, totals):
            ax.annotate(f"{total:.2%}", (xi, top), xytext=(0, 3), textcoords="offset points",
                        ha="center", va="bottom")
        if published:
            marks = [(xi, published[lv]) for xi, lv in zip(x, data["level"]) if lv in published]
            if marks:
                ax.hlines([p * 100 for _, p in marks], [m - 0.4 for m, _ in marks],
                          [m + 0.4 for m, _ in marks], colors="black", linestyles="dashed",
                          label="published")
        ax.set_ylim(min(0.0, float(down.min()) * 1.2), float(up.max()) * 1.12 or 1)
        if (down < 0).any():
            ax.axhline(0, color="black", linewidth=0.8)
    else:
        width = 0.8 / max(len(names), 1)
        for i, name in enumerate(names):
            values = data[name].to_numpy(dtype=float) * 100
            offset = (i - (len(names) - 1) / 2) * width
            bars = ax.bar(x + offset, values, width, label=name, color=f"C{i}")
            ax.bar_label(bars, labels=[f"{v:.2f}" for v in values], padding=2, fontsize=8)
        if published:
            marks = [(xi, published[lv]) for xi, lv in zip(x, data["level"]) if lv in published]
            if marks:
                ax.scatter([m for m, _ in marks], [p * 100 for _, p in marks], marker="_",
                           s=400, color="black", label="published", zorder=3)
    ax.set_xticks(x, levels)
    ax.set_xlabel("bet level")
    ax.set_ylabel("RTP (% of total bet)")
    ax.set_title("RTP by bet level" if components is None
                 else f"RTP by bet level: {', '.join(names)}")
    if kind == "stacked":  # the legend beside the bars, not over them
        ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1), fontsize="small")
    else:
        ax.legend(loc="best", fontsize="small")
    return ax


# -- pool laws -----------------------------------------------------------------------------------


def _pool(analysis: Any, name: str):
    jackpots = feature_of(analysis, "jackpots")
    if jackpots is None or not hasattr(jackpots, "pools"):
        raise ValueError("the analysis has no progressive jackpots")
    if name not in jackpots.pools:
        raise ValueError(f"no jackpot {name!r}: the analysis has {list(jackpots.pools)}")
    return jackpots.pools[name]


def _binned(values: np.ndarray, probabilities: np.ndarray, bins: int, tail: float) -> pd.DataFrame:
    """Bin a discrete law: equal-width bins from its smallest value to its ``1 - tail``
    quantile, the mass above folded into the last bin. On an evenly spaced support (a pool's
    lattice, whole rounds) the bins are whole numbers of steps wide, centred on the points,
    so that every bin holds the same number of support points."""
    if bins < 1:
        raise ValueError(f"bins must be >= 1, not {bins}")
    if not 0 <= tail < 1:
        raise ValueError(f"tail must be in [0, 1), not {tail}")
    values = np.asarray(values, dtype=float)
    p = np.asarray(probabilities, dtype=float)
    p = p / p.sum()
    cumulative = np.cumsum(p)
    i_top = min(int(np.searchsorted(cumulative, 1 - tail - 1e-15, side="left")), len(p) - 1)
    lo, hi = float(values[0]), float(values[i_top])
    steps = np.diff(values)
    step = float(steps.min()) if len(steps) else 0.0
    on_lattice = step > 0 and np.allclose(
        (values - lo) / step, np.round((values - lo) / step), rtol=0, atol=1e-6)
    if on_lattice:
        points = round((hi - lo) / step) + 1
        per_bin = -(-points // bins)
        n = -(-points // per_bin)
        edges = lo - step / 2 + per_bin * step * np.arange(n + 1)
    elif hi > lo:
        edges = np.linspace(lo, hi, bins + 1)
    else:
        edges = np.array([lo, lo])
    n = len(edges) - 1
    index = np.clip(np.searchsorted(edges, values, side="right") - 1, 0, n - 1)
    mass = np.bincount(index, weights=p, minlength=n)
    first = np.bincount(index, weights=p * values, minlength=n)
    middle = (edges[:-1] + edges[1:]) / 2
    with np.errstate(invalid="ignore", divide="ignore"):
        bin_mean = np.where(mass > 0, first / mass, middle)
    df = pd.DataFrame({"low": edges[:-1], "high": edges[1:], "bin_mean": bin_mean,
                       "probability": mass})
    df.attrs["beyond"] = float(p[values > edges[-1]].sum())
    return df


def _law_frame(dist, bins: int, tail: float, **attrs) -> pd.DataFrame:
    df = _binned(dist.values, dist.probabilities, bins, tail)
    df.attrs.update(attrs)
    return df


def hit_value_data(analysis: Any, name: str, *, bins: int = BINS,
                   tail: float = TAIL) -> pd.DataFrame:
    """What :func:`plot_hit_value` draws: the law of the value a jackpot pays at a hit.

    Parameters
    ----------
    analysis : Analysis
        Of a game with progressive jackpots.
    name : str
        The jackpot.
    bins : int
        Number of bins (at most; fewer when the law has fewer points).
    tail : float
        Mass left above the last bin's upper edge (folded into the last bin).

    Returns
    -------
    pandas.DataFrame
        One row per bin: ``low``, ``high`` (edges, currency), ``bin_mean`` (mean value paid
        within the bin) and ``probability``, which add up to 1. ``attrs``: ``mean``
        (:attr:`~slotmath.markov.jackpot.PoolAnalysis.hit_value_mean`), ``error`` (its error
        bound), ``seed``, ``bet_value``, ``currency``, ``name``, ``beyond`` (mass above the last
        edge).

    Examples
    --------
    >>> import slotmath
    >>> game = slotmath.loads_game('''
    ... name = "Tiny Jackpot"
    ... rows = 1
    ... bet = 1
    ... coin_value = 1
    ... paylines = [[0, 0, 0]]
    ... symbols = { A = { pays = { 3 = 5 } }, B = { bonus = true }, X = {} }
    ... reels = { base = [["A", "B", "X"], ["A", "B", "X"], ["A", "B", "X"]] }
    ... bonus_wheel = { symbol = "B", prizes = [1], weights = [1], jackpots = ["MINI"] }
    ... jackpots = [{ name = "MINI", seed = 5, contribution = 0.05, law = "linear", rate = 0.01 }]
    ... ''')
    >>> df = hit_value_data(slotmath.analyze(game), "MINI", bins=3)
    >>> df.round(3)
          low    high  bin_mean  probability
    0   5.025  23.725    13.625        0.864
    1  23.725  42.425    28.354        0.134
    2  42.425  61.125    45.385        0.001
    >>> round(float((df["bin_mean"] * df["probability"]).sum()), 6) == round(df.attrs["mean"], 6)
    True
    """
    pool = _pool(analysis, name)
    spec = pool.pool
    return _law_frame(pool.hit_value_distribution, bins, tail, name=name,
                      mean=pool.hit_value_mean, error=pool.error_bounds["hit_value_mean"],
                      seed=float(spec.seed), bet_value=float(pool.model.bet),
                      currency=getattr(analysis.game, "currency", None))


def time_between_hits_data(analysis: Any, name: str, *, bins: int = BINS,
                           tail: float = TAIL) -> pd.DataFrame:
    """What :func:`plot_time_between_hits` draws: the law of the number of paid rounds from
    one hit of a jackpot to the next (0: both hits in the same round).

    Parameters
    ----------
    analysis : Analysis
    name : str
    bins, tail
        As in :func:`hit_value_data`.

    Returns
    -------
    pandas.DataFrame
        One row per bin of whole rounds: ``low``, ``high``, ``bin_mean`` (mean rounds within
        the bin), ``probability`` (adding up to 1). ``attrs``: ``mean``
        (:attr:`~slotmath.markov.jackpot.PoolAnalysis.mean_rounds_between_hits`), ``error``,
        ``median``, ``name``, ``beyond``.

    Examples
    --------
    >>> import slotmath
    >>> game = slotmath.loads_game('''
    ... name = "Tiny Jackpot"
    ... rows = 1
    ... bet = 1
    ... coin_value = 1
    ... paylines = [[0, 0, 0]]
    ... symbols = { A = { pays = { 3 = 5 } }, B = { bonus = true }, X = {} }
    ... reels = { base = [["A", "B", "X"], ["A", "B", "X"], ["A", "B", "X"]] }
    ... bonus_wheel = { symbol = "B", prizes = [1], weights = [1], jackpots = ["MINI"] }
    ... jackpots = [{ name = "MINI", seed = 5, contribution = 0.05, law = "linear", rate = 0.01 }]
    ... ''')
    >>> df = time_between_hits_data(slotmath.analyze(game), "MINI")
    >>> round(df.attrs["mean"], 2), df.attrs["median"]
    (212.94, 191.0)
    >>> df[["low", "high"]].head(2)   # whole rounds: 1..23, 24..46, ...
        low  high
    0   0.5  23.5
    1  23.5  46.5
    """
    pool = _pool(analysis, name)
    dist = pool.cycle_length_distribution
    return _law_frame(dist, bins, tail, name=name, mean=pool.mean_rounds_between_hits,
                      error=pool.error_bounds["mean_rounds_between_hits"],
                      median=float(dist.quantile(0.5)))


def pool_data(analysis: Any, name: str, *, bins: int = BINS, tail: float = TAIL) -> pd.DataFrame:
    """What :func:`plot_pool` draws: the law of a jackpot's pool at a random paid round (after
    the round's contribution, before its wheel spins).

    Parameters
    ----------
    analysis : Analysis
    name : str
    bins, tail
        As in :func:`hit_value_data`.

    Returns
    -------
    pandas.DataFrame
        Bins as in :func:`hit_value_data`; ``attrs``: ``mean``
        (:attr:`~slotmath.markov.jackpot.PoolAnalysis.mean_pool`), ``error``, ``seed``,
        ``bet_value``, ``currency``, ``name``, ``beyond``.

    Examples
    --------
    >>> import slotmath
    >>> game = slotmath.loads_game('''
    ... name = "Tiny Jackpot"
    ... rows = 1
    ... bet = 1
    ... coin_value = 1
    ... paylines = [[0, 0, 0]]
    ... symbols = { A = { pays = { 3 = 5 } }, B = { bonus = true }, X = {} }
    ... reels = { base = [["A", "B", "X"], ["A", "B", "X"], ["A", "B", "X"]] }
    ... bonus_wheel = { symbol = "B", prizes = [1], weights = [1], jackpots = ["MINI"] }
    ... jackpots = [{ name = "MINI", seed = 5, contribution = 0.05, law = "linear", rate = 0.01 }]
    ... ''')
    >>> df = pool_data(slotmath.analyze(game), "MINI")
    >>> round(df.attrs["mean"], 2), df.attrs["seed"], round(float(df["probability"].sum()), 12)
    (12.68, 5.0, 1.0)
    """
    pool = _pool(analysis, name)
    spec = pool.pool
    return _law_frame(pool.stationary_pool, bins, tail, name=name, mean=pool.mean_pool,
                      error=pool.error_bounds["mean_pool"], seed=float(spec.seed),
                      bet_value=float(pool.model.bet),
                      currency=getattr(analysis.game, "currency", None))


def compact_number(value: float, _position=None) -> str:
    """A tick label short enough not to collide with its neighbours: ``250k``, ``1.5M``.

    Examples
    --------
    >>> [compact_number(v) for v in (0, 750, 2500, 250_000, 1_500_000, -50_000)]
    ['0', '750', '2.5k', '250k', '1.5M', '-50k']
    """
    for scale, suffix in ((1e9, "G"), (1e6, "M"), (1e3, "k")):
        if abs(value) >= scale:
            return f"{value / scale:.3g}{suffix}"
    return f"{value:.3g}"


def _x_ticks(ax) -> None:
    """At most six ticks with compact labels and no offset text: with matplotlib's defaults
    the SUPER pool's axes had ten six-digit labels running into each other, and a "1e6"
    offset for the rounds between hits."""
    from matplotlib.ticker import FuncFormatter, MaxNLocator

    ax.xaxis.set_major_locator(MaxNLocator(nbins=5, steps=[1, 2, 2.5, 5, 10]))
    ax.xaxis.set_major_formatter(FuncFormatter(compact_number))


def _draw_law(data: pd.DataFrame, ax, color: str):
    ax.bar(data["low"], data["probability"], width=data["high"] - data["low"], align="edge",
           color=color, alpha=0.75, linewidth=0)
    _x_ticks(ax)
    width = float(data["high"].iloc[0] - data["low"].iloc[0])
    ax.set_ylabel(f"probability per bin ({width:,.0f} wide)" if width >= 100
                  else f"probability per bin ({width:.3g} wide)")
    ax.set_ylim(0, None)
    ax.grid(True, axis="y", alpha=0.3)


def _money(data: pd.DataFrame, value: float) -> str:
    currency = data.attrs.get("currency") or ""
    text = f"{value:,.2f} {currency}".strip()
    bet = data.attrs.get("bet_value")
    if bet:
        text += f" = {value / bet:,.1f} x bet"
    return text


def _plot_money_law(data: pd.DataFrame, ax, color: str, xlabel: str, title: str):
    """A law of money (value at hit, pool) with its mean and the seed marked."""
    _draw_law(data, ax, color)
    ax.axvline(data.attrs["mean"], color="C3", label=f"mean {_money(data, data.attrs['mean'])}")
    ax.axvline(data.attrs["seed"], color="grey", linestyle=":",
               label=f"seed {data.attrs['seed']:,g}")
    ax.set_xlabel(f"{xlabel} ({data.attrs.get('currency') or 'currency'})")
    ax.set_title(f"{data.attrs['name']}: {title}")
    ax.legend(loc="best", fontsize="small")
    return ax


def plot_hit_value(analysis: Any, name: str, ax=None, *, bins: int = BINS, tail: float = TAIL):
    """Draw the law of a jackpot's value at a hit (currency), the mean and the seed marked.

    Parameters
    ----------
    analysis : Analysis
    name : str
    ax : matplotlib Axes, optional
    bins, tail
        As in :func:`hit_value_data`.

    Returns
    -------
    matplotlib.axes.Axes
    """
    data = hit_value_data(analysis, name, bins=bins, tail=tail)
    return _plot_money_law(data, axes(ax), "C1", "value at hit", "value paid at a hit")


def plot_time_between_hits(analysis: Any, name: str, ax=None, *, bins: int = BINS,
                           tail: float = TAIL):
    """Draw the law of the rounds between two hits of a jackpot, the mean ("1 in N") and the
    median marked.

    Parameters
    ----------
    analysis : Analysis
    name : str
    ax : matplotlib Axes, optional
    bins, tail
        As in :func:`hit_value_data`.

    Returns
    -------
    matplotlib.axes.Axes
    """
    data = time_between_hits_data(analysis, name, bins=bins, tail=tail)
    ax = axes(ax)
    _draw_law(data, ax, "C0")
    ax.axvline(data.attrs["mean"], color="C3",
               label=f"mean: 1 in {data.attrs['mean']:,.0f} rounds")
    ax.axvline(data.attrs["median"], color="C2", linestyle="--",
               label=f"median {data.attrs['median']:,.0f}")
    ax.set_xlabel("paid rounds between hits")
    ax.set_title(f"{data.attrs['name']}: time between hits")
    ax.legend(loc="best", fontsize="small")
    return ax


def plot_pool(analysis: Any, name: str, ax=None, *, bins: int = BINS, tail: float = TAIL):
    """Draw the law of a jackpot's pool at a random paid round, the mean and the seed marked.

    Parameters
    ----------
    analysis : Analysis
    name : str
    ax : matplotlib Axes, optional
    bins, tail
        As in :func:`hit_value_data`.

    Returns
    -------
    matplotlib.axes.Axes
    """
    data = pool_data(analysis, name, bins=bins, tail=tail)
    return _plot_money_law(data, axes(ax), "C4", "pool at a random round", "pool")


def charts(analysis) -> list:
    """The report's charts of each pool: its value at a hit, the time between hits and the
    pool itself (``(title, draw(ax))`` pairs)."""
    pools = feature_of(analysis, "jackpots").pools
    out = []
    for name in pools:
        out += [(f"{name}: value at hit", lambda ax, n=name: plot_hit_value(analysis, n, ax)),
                (f"{name}: time between hits",
                 lambda ax, n=name: plot_time_between_hits(analysis, n, ax)),
                (f"{name}: pool", lambda ax, n=name: plot_pool(analysis, n, ax))]
    return out
