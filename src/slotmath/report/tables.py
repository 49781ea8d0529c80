"""PAR-sheet tables as pandas DataFrames, built from an :class:`~slotmath.analysis.Analysis`
(each feature's own tables are its ``tables`` hook; the pay and scatter tables are
re-exported here from :mod:`slotmath.report.pays`).

Examples
--------
>>> import slotmath
>>> a = slotmath.analyze(slotmath.load_game("data/games/tiny_lines.toml"))
>>> list(summary_frame(a).columns), len(symbol_table(a)) > 0
(['figure', 'value'], True)
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from slotmath.features.base import hook
from slotmath.report.pays import scatter_table, symbol_table

if TYPE_CHECKING:  # pandas is imported where a table is made (the JSON needs none)
    import pandas as pd


def _one_in(p) -> float:
    return float("inf") if not p else 1 / float(p)


def win_size_frame(analysis) -> pd.DataFrame:
    """Probability and RTP share of each band of round wins (multiples of the total bet)."""
    import pandas as pd

    rows = [{"band": r.label, "probability": float(r.probability), "one_in": r.one_in,
             "rtp_share": float(r.rtp_share)} for r in analysis.win_sizes]
    return pd.DataFrame(rows, columns=["band", "probability", "one_in", "rtp_share"])


def confidence_frame(analysis, spins=(10**3, 10**4, 10**5, 10**6, 10**7, 10**8)) -> pd.DataFrame:
    """90 % and 95 % intervals of the RTP measured over N paid rounds, in total bets.

    From the law of the mean of N rounds where the round's distribution is known, so never
    below 0; otherwise the normal approximation cut at 0
    (:func:`slotmath.stats.interval.rtp_intervals`). ``attrs["method"]`` says which, and why.
    """
    import pandas as pd

    rows, method, resolution = confidence_rows(analysis, spins)
    frame = pd.DataFrame(rows)
    frame.attrs["method"] = method
    frame.attrs["resolution"] = resolution
    return frame


def confidence_rows(analysis, spins=(10**3, 10**4, 10**5, 10**6, 10**7, 10**8)) -> tuple:
    """:func:`confidence_frame`'s rows (dicts), its method and its resolution, without pandas
    (the JSON reads them)."""
    from slotmath.stats.interval import rtp_intervals

    found = rtp_intervals(analysis, spins, (0.90, 0.95))
    rows = []
    for n in spins:
        i90, i95 = found[n, 0.90], found[n, 0.95]
        rows.append({"spins": n, "lower_90": i90.lower, "upper_90": i90.upper,
                     "lower_95": i95.lower, "upper_95": i95.upper})
    return rows, found[spins[0], 0.95].method, max(i.resolution for i in found.values())


def _with_interval(value, spec: str) -> str:
    """``value`` formatted by ``spec``, and its 95 % interval when it is simulated."""
    from slotmath.stats.estimate import is_estimate

    text = format(float(value), spec)
    if is_estimate(value):
        lo, hi = value.interval()
        text += f"  (simulated, 95%: {format(lo, spec)} to {format(hi, spec)})"
    return text


def _cycle(a) -> str:
    try:
        return f"{a.base_table.cycle:,}"
    except NotImplementedError:  # a simulated round: no full cycle
        return "not enumerated (simulated)"


def summary_frame(analysis) -> pd.DataFrame:
    """The headline figures as one two-column table (figure, value), then each feature's
    summary rows (its ``summary`` hook). A simulated figure shows its 95 % interval."""
    import pandas as pd

    from slotmath.stats.estimate import is_estimate

    a = analysis
    mw = a.top_award
    if a.exact:
        items = [("RTP", f"{a.rtp_float:.6%}  ({a.rtp})")]
    elif is_estimate(a.rtp):
        items = [("RTP", _with_interval(a.rtp, ".6%"))]
    else:
        items = [("RTP", f"{a.rtp_float:.6%}  (numerical, error <= {a.rtp_error:.1e})")]
    if a.game.target_rtp is not None:
        target = float(a.game.target_rtp) / 100
        items.append(("target RTP", f"{target:.6%}  (RTP - target {a.rtp_float - target:+.6%})"))
    for name, value in a.components.items():
        items.append((f"  {name}", _with_interval(value, ".6%")))
    carried = bool(a.composition.carried)
    if carried or a.composition.operations:
        items.append(("coin round RTP (every prize paid, no cap)", f"{float(a.round.mean):.6%}"))
    items += [
        ("hit frequency", _with_interval(a.hit_frequency, ".6%")
         + f"  (1 in {_one_in(a.hit_frequency):.3f})"),
        ("base-spin hit frequency", _with_interval(a.base_hit_frequency, ".6%")),
        ("SD (x bet)", _with_interval(a.std, ".4f")),
        *([("SD of the whole return (x bet, approx.)", f"{a.std_total:.4f}")] if carried else []),
        ("volatility index 90%", f"{a.volatility_index(0.90):.4f}"),
        ("volatility index 95%", f"{a.volatility_index(0.95):.4f}"),
        ("max win of the paid spin (x bet)" if not is_estimate(mw.multiple) else
         "largest round win seen (x bet)", f"{float(mw.multiple):g}  (1 in {mw.one_in:,.0f})"),
        ("full cycle", _cycle(a)),
    ]
    for f in a.declared:
        rows = hook(f, "summary")
        if rows is not None:
            items += rows(a)
    return pd.DataFrame(items, columns=["figure", "value"])


__all__ = ["confidence_frame", "scatter_table", "summary_frame", "symbol_table",
           "win_size_frame"]
