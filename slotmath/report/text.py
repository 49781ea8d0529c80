"""The PAR sheet rendered as plain text (what ``slotmath analyze`` prints)."""

from __future__ import annotations

import pandas as pd

from slotmath.report.tables import (
    confidence_frame,
    jackpot_frame,
    scatter_table,
    summary_frame,
    symbol_table,
    win_size_frame,
)


def _block(title: str, frame: pd.DataFrame, **fmt) -> str:
    body = frame.to_string(index=False, **fmt) if len(frame) else "(none)"
    return f"{title}\n{'-' * len(title)}\n{body}\n"


def par_sheet_text(a) -> str:
    """Summary, pay table hits, scatters, win sizes and confidence intervals as text."""
    game = a.game
    head = f"PAR sheet: {game.name} (bet {game.total_bet(a.level)} coins, level {a.level})\n"
    parts = [head, _block("Summary", summary_frame(a))]
    pays = symbol_table(a).drop(columns=["rtp_exact"])
    parts.append(_block("Pay table", pays, float_format=lambda v: f"{v:.6g}"))
    scatters = scatter_table(a)
    if len(scatters):
        parts.append(_block("Scatters", scatters, float_format=lambda v: f"{v:.6g}"))
    if a.jackpots is not None:
        title = (f"Jackpots (currency {game.currency or 'units'}, bet "
                 f"{float(game.bet_value(a.level)):g})")
        if a.jackpots.reachable:
            parts.append(_block(title, jackpot_frame(a), float_format=lambda v: f"{v:.6g}"))
        else:
            parts.append(f"{title}\n{'-' * len(title)}\nnever hit: no round can spin the "
                         "bonus wheel on these reels\n")
    parts.append(_block("Win sizes (x bet)", win_size_frame(a), float_format=lambda v: f"{v:.6g}"))
    parts.append(_block("RTP confidence intervals", confidence_frame(a),
                        float_format=lambda v: f"{v:.4%}"))
    return "\n".join(parts)
