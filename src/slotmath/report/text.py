"""The PAR sheet rendered as plain text (what ``slotmath analyze`` prints)."""

from __future__ import annotations

import pandas as pd

from slotmath.features.base import Kind, hook
from slotmath.report.modes import modes_frame
from slotmath.report.tables import (
    confidence_frame,
    scatter_table,
    summary_frame,
    symbol_table,
    win_size_frame,
)

#: longest text shown whole in a table of the text sheet
FOLD = 48

#: the text sheet's one convention: shares of the bet and probabilities in %, each such
#: column labelled " %" (the DataFrames of report.tables keep fractions)
PERCENT_COLUMNS = ("rtp", "seed_rtp", "contribution", "probability", "rtp_share",
                   "p_per_wheel_spin")


def _block(title: str, frame: pd.DataFrame, **fmt) -> str:
    body = frame.to_string(index=False, **fmt) if len(frame) else "(none)"
    return f"{title}\n{'-' * len(title)}\n{body}\n"


def _in_percent(frame: pd.DataFrame) -> pd.DataFrame:
    """``frame`` with its share and probability columns in %, renamed ``"... %"``."""
    columns = [c for c in PERCENT_COLUMNS if c in frame.columns]
    out = frame.copy()
    for c in columns:
        out[c] = out[c].astype(float) * 100
    return out.rename(columns={c: f"{c} %" for c in columns})


def frequency_text(hits_per_spin: float) -> str:
    """How often a pay shows: "1 in N" spins, or "x per spin" when it shows more than once
    per spin on average (a lines pay counted on every line it wins): "1 in 0.84" is no
    frequency.

    Examples
    --------
    >>> frequency_text(0.05), frequency_text(1 / 0.84), frequency_text(0)
    ('1 in 20', '1.19 per spin', 'never')
    """
    if not hits_per_spin:
        return "never"
    if hits_per_spin > 1:
        return f"{hits_per_spin:.3g} per spin"
    return f"1 in {1 / hits_per_spin:,.6g}"


def pay_table_display(a) -> pd.DataFrame:
    """The pay table as the PAR sheet shows it: ``rtp %`` in % of the total bet and a
    ``frequency`` ("1 in N", or "x per spin" for a pay that shows more than once a spin)
    instead of ``one_in``; for a notebook, where :func:`~slotmath.report.tables.symbol_table`
    keeps fractions.

    Examples
    --------
    >>> import slotmath
    >>> a = slotmath.analyze(slotmath.load_game("data/games/classic_fruits.toml"))
    >>> row = pay_table_display(a).set_index(["symbol", "count"]).loc[("CHERRY", 2)]
    >>> row["frequency"], round(float(row["rtp %"]), 4)
    ('1.19 per spin', 4.7619)
    """
    pays = symbol_table(a).drop(columns=["rtp_exact"])
    if "one_in" not in pays:  # a cascading game: contributions over the chain, no hit counts
        return _in_percent(pays)
    pays.insert(pays.columns.get_loc("one_in"), "frequency",
                [frequency_text(h) for h in pays["hits_per_spin"]])
    return _in_percent(pays.drop(columns=["one_in"]))


def _folded(frame: pd.DataFrame, width: int = FOLD) -> pd.DataFrame:
    """``frame`` with long texts (exact fractions of hundreds of digits) cut to ``width``
    characters, their length said: the workbook and the JSON hold them whole."""
    out = frame.copy()
    for c in out.columns:
        if out[c].dtype == object:
            out[c] = [f"{v[:width - 12]}...({len(v)} ch)" if isinstance(v, str) and len(v) > width
                      else v for v in out[c]]
    return out


def par_sheet_text(a) -> str:
    """Summary, pay table hits, scatters, each feature's tables, win sizes and confidence
    intervals as text."""
    game = a.game
    head = f"PAR sheet: {game.name} (bet {game.total_bet(a.level)} coins, level {a.level})\n"
    if a.mode is not None:
        head += (f"game mode {a.mode}: cost {game.mode(a.mode).cost} total bets; RTP and SD "
                 "per amount wagered\n")
    parts = [head, _block("Summary", summary_frame(a))]
    modes = modes_frame(a)
    if len(modes):
        parts.append(_block("Game modes (RTP and SD per amount wagered; wins in x bet)",
                            modes, float_format=lambda v: f"{v:.6g}"))
    parts.append(_block("Pay table (rtp in % of the total bet)", pay_table_display(a),
                        float_format=lambda v: f"{v:.6g}"))
    scatters = scatter_table(a)
    if len(scatters):
        parts.append(_block("Scatters (probability and rtp in %)", _in_percent(scatters),
                            float_format=lambda v: f"{v:.6g}"))
    for f in a.declared:  # a section per feature: its PAR tables (pays: above)
        made = hook(f, "tables")
        if made is None or f.kind is Kind.PAYS:
            continue
        for title, frame in made(a):
            parts.append(_block(title, _in_percent(_folded(frame)),
                                float_format=lambda v: f"{v:.6g}"))
    parts.append(_block("Win sizes (bands in x bet; probability and rtp share in %)",
                        _in_percent(win_size_frame(a)), float_format=lambda v: f"{v:.6g}"))
    intervals = confidence_frame(a)
    parts.append(_block("RTP confidence intervals (in %)", intervals,
                        float_format=lambda v: f"{v:.4%}")
                 + f"method: {intervals.attrs['method']}\n")
    return "\n".join(parts)
