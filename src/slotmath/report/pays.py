"""The paid spin's own pays in the PAR reports: the pay table and the scatter table.

Every figure is read off the window's rows (:class:`slotmath.features.pays.Window`,
``analysis.features["pays"]``), computed once by the direct method or the game's outcome
feature; the DataFrames here, the JSON records and the workbook's columns only format them.
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING

from slotmath.report.figures import exact_text, figure, is_exact

if TYPE_CHECKING:  # pandas is imported where a table is made (the JSON needs none)
    import pandas as pd

__all__ = ["pay_records", "scatter_records", "scatter_table", "symbol_table", "tables"]


def _one_in(p) -> float:
    return float("inf") if not p else 1 / float(p)


def symbol_table(analysis) -> pd.DataFrame:
    """Per pay-table entry and count: hits per cycle, hits per spin, pay and RTP contribution.

    For lines games ``hits`` adds up over the paylines (a spin paying on two lines counts
    twice), so ``hits_per_spin`` can exceed 1 and ``one_in`` is spins per hit. Rows are split
    by the credits paid, so a multiplier wild's x2 and x4 wins of the same entry are separate
    rows. For ways games ``hits`` counts stop combinations (``hits_per_spin`` is then a
    probability), ``ways`` is the summed number of ways and ``pay_x_bet`` is the pay per way.
    ``rtp_exact`` is the exact contribution as "p/q"; the contributions add up to the lines
    or ways component exactly. Where the window's outcome pays an entry in several drops of
    one spin (cascades), hits are not counted and only the pay and RTP are listed.
    """
    import pandas as pd

    rows, columns = _symbol_rows(analysis)
    return pd.DataFrame(rows, columns=columns)


def _symbol_rows(analysis) -> tuple[list[dict], list[str]]:
    """:func:`symbol_table`'s rows (dicts of Python numbers, keys in column order) and
    columns, without pandas (the JSON reads them)."""
    w = analysis.features["pays"]
    cpb, ways = w.credits_per_bet, w.kind == "ways"
    rows = []
    for p in w.pays:
        row = {"symbol": p.symbol, "count": p.count, "pay_x_bet": float(Fraction(p.credits, cpb))}
        if w.hit_counts:
            row["hits"] = p.hits
            if ways:
                row["ways"] = p.ways
            row |= {"hits_per_spin": p.hits / w.cycle,
                    "one_in": _one_in(Fraction(p.hits, w.cycle))}
        rows.append(row | {"rtp": float(p.rtp),
                           "rtp_exact": str(p.rtp) if is_exact(p.rtp) else ""})
    columns = ["symbol", "count", "pay_x_bet"]
    if w.hit_counts:
        columns += ["hits"] + (["ways"] if ways else []) + ["hits_per_spin", "one_in"]
    columns += ["rtp", "rtp_exact"]
    return [{c: row[c] for c in columns} for row in rows], columns


SCATTER_COLUMNS = ["symbol", "count", "weight", "probability", "one_in", "pay_x_bet"]


def _scatter_dicts(analysis, exact: bool) -> list[dict]:
    w = analysis.features["pays"]
    rows = []
    for s in w.scatters:
        p = Fraction(s.weight, w.cycle)
        row = {"symbol": s.symbol, "count": s.count, "weight": s.weight,
               "probability": p if exact else float(p), "one_in": _one_in(p),
               "pay_x_bet": float(s.pay)}
        row |= dict(s.awards)
        rows.append(row | {"rtp": s.rtp if exact else float(s.rtp)})
    return rows


def scatter_table(analysis) -> pd.DataFrame:
    """Per scatter symbol and count anywhere in the window (a cascading spin: its final
    window): weight, probability, pay, what each round feature it starts awards (a column
    per such feature, e.g. ``free_spins``), RTP."""
    import pandas as pd

    rows = _scatter_dicts(analysis, exact=False)
    awards = [name for name, _ in analysis.features["pays"].scatters[0].awards] if rows else \
        [name for name, _ in _listed_awards(analysis)]
    return pd.DataFrame(rows, columns=SCATTER_COLUMNS + awards + ["rtp"])


def _listed_awards(analysis):
    from slotmath.features.pays import awards_of

    return awards_of(analysis.game, "", 0)


def pay_records(analysis) -> list[dict]:
    """The JSON pay rows: the pay table's rows, their hits per spin and RTP as figures."""
    w = analysis.features["pays"]
    rows = _symbol_rows(analysis)[0]
    for row, p in zip(rows, w.pays):
        if w.hit_counts:
            row["hits_per_spin"] = figure(Fraction(p.hits, w.cycle))
        row["rtp"] = figure(p.rtp)
    return rows


def scatter_records(analysis) -> list[dict]:
    """The JSON scatter rows: probability and RTP as figures."""
    return [{k: figure(v) if k in ("probability", "rtp") else v for k, v in r.items()}
            for r in _scatter_dicts(analysis, exact=True)]


def _pay_table(a) -> pd.DataFrame:
    w = a.features["pays"]
    frame = symbol_table(a)
    frame.insert(frame.columns.get_loc("pay_x_bet") + 1, "pay_exact",
                 [exact_text(Fraction(p.credits, w.credits_per_bet)) if p.credits else ""
                  for p in w.pays])
    if w.hit_counts:
        frame.insert(frame.columns.get_loc("hits_per_spin") + 1, "hits_per_spin_exact",
                     [exact_text(Fraction(p.hits, w.cycle)) for p in w.pays])
        frame.insert(frame.columns.get_loc("one_in") + 1, "one_in_exact",
                     [exact_text(Fraction(w.cycle, p.hits)) if p.hits else "never"
                      for p in w.pays])
    return frame


def _scatters(a) -> pd.DataFrame:
    w = a.features["pays"]
    frame = scatter_table(a)
    probability = [exact_text(Fraction(s.weight, w.cycle)) for s in w.scatters]
    one_in = [exact_text(Fraction(w.cycle, s.weight)) if s.weight else "never"
              for s in w.scatters]
    frame.insert(frame.columns.get_loc("probability") + 1, "probability_exact", probability)
    frame.insert(frame.columns.get_loc("one_in") + 1, "one_in_exact", one_in)
    frame["rtp_exact"] = [exact_text(s.rtp) for s in w.scatters]
    return frame


def tables(a) -> list[tuple[str, pd.DataFrame]]:
    """The Pay table sheet's tables: the pay table with exact columns, and the scatters."""
    w = a.features["pays"]
    title = w.title or ("Pay table (hits over the full cycle)" if w.hit_counts else
                        "Pay table (RTP over every drop of the chain; hits are not counted)")
    out = [(title, _pay_table(a))]
    scatters = _scatters(a)
    if len(scatters):
        out.append(("Scatters (count anywhere in the window)", scatters))
    return out


def note(a) -> str:
    """What the pay table's hits count."""
    w = a.features["pays"]
    if w.note:
        return w.note
    if not w.hit_counts:
        return (f"rtp: each entry's exact share over every drop of the full cycle of "
                f"{w.cycle:,} stop combinations; rtp_exact adds up to the window's components "
                "exactly.")
    kind = ("paylines (a spin paying on two lines counts twice)" if w.kind != "ways"
            else "stop combinations")
    return (f"hits: {kind} over the full cycle of {w.cycle:,} stop combinations, exact "
            "integers; pay_x_bet in total bets; rtp_exact adds up to the component exactly.")
