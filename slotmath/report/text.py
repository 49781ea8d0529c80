"""The PAR sheet rendered as plain text (what ``slotmath analyze`` prints)."""

from __future__ import annotations

import pandas as pd


def _block(title: str, frame: pd.DataFrame, **fmt) -> str:
    body = frame.to_string(index=False, **fmt) if len(frame) else "(none)"
    return f"{title}\n{'-' * len(title)}\n{body}\n"


def par_sheet_text(a) -> str:
    """Summary, pay table hits, scatters, win sizes and confidence intervals as text."""
    game = a.game
    head = f"PAR sheet: {game.name} (bet {game.total_bet(a.level)} coins, level {a.level})\n"
    parts = [head, _block("Summary", a.summary_table)]
    pays = a.symbol_table.drop(columns=["rtp_exact"])
    parts.append(_block("Pay table", pays, float_format=lambda v: f"{v:.6g}"))
    if len(a.scatter_table):
        parts.append(_block("Scatters", a.scatter_table, float_format=lambda v: f"{v:.6g}"))
    if a.jackpots is not None:
        from slotmath.report.tables import jackpot_frame

        parts.append(_block(f"Jackpots (currency {game.currency or 'units'}, bet "
                            f"{float(game.bet_value(a.level)):g})", jackpot_frame(a),
                            float_format=lambda v: f"{v:.6g}"))
    parts.append(_block("Win sizes (x bet)", a.win_size_table, float_format=lambda v: f"{v:.6g}"))
    parts.append(_block("RTP confidence intervals", a.confidence_table,
                        float_format=lambda v: f"{v:.4%}"))
    return "\n".join(parts)
