"""PAR statistics computed from a win distribution (RTP, hit rate, SD, VI, CI, tails)."""

from slotmath.stats.par import (
    ConfidenceInterval,
    ConfidenceRow,
    ParSummary,
    TopAward,
    WinSizeRow,
    confidence_table,
    hit_frequency,
    hit_frequency_one_in,
    normal_quantile,
    par_summary,
    rtp,
    rtp_confidence_interval,
    standard_deviation,
    top_award,
    volatility_index,
    win_size_table,
)

__all__ = [
    "ConfidenceInterval",
    "ConfidenceRow",
    "ParSummary",
    "TopAward",
    "WinSizeRow",
    "confidence_table",
    "hit_frequency",
    "hit_frequency_one_in",
    "normal_quantile",
    "par_summary",
    "rtp",
    "rtp_confidence_interval",
    "standard_deviation",
    "top_award",
    "volatility_index",
    "win_size_table",
]
