"""Charts, matplotlib only. Each chart is a pair: ``*_data(result) -> DataFrame`` computes
exactly what is drawn (and is what tests check), ``plot_*(result, ax=None) -> Axes`` only
draws it. ``result`` is an :class:`~slotmath.analysis.Analysis` or, for the distribution
charts, any win distribution (``credits``, ``probs``, ``credits_per_bet``). The jackpot
charts (:mod:`slotmath.plot.jackpots`) take an analysis and a jackpot's name, or a game for
the RTP by bet level.
"""

from slotmath.plot.breakdown import plot_rtp_breakdown, rtp_breakdown_data
from slotmath.plot.cascades import (
    carried_multiplier_data,
    cascade_count_data,
    cascade_win_data,
    freed_data,
    plot_carried_multiplier,
    plot_cascade_counts,
    plot_cascade_wins,
    plot_freed,
)
from slotmath.plot.conveyor import (
    plot_rtp_by_visible_state,
    plot_rtp_from_reset,
    plot_stationary,
    rtp_by_visible_state_data,
    rtp_from_reset_data,
    stationary_data,
)
from slotmath.plot.distribution import plot_win_distribution, win_distribution_data
from slotmath.plot.jackpots import (
    hit_value_data,
    plot_hit_value,
    plot_pool,
    plot_rtp_by_level,
    plot_time_between_hits,
    pool_data,
    rtp_by_level_data,
    time_between_hits_data,
)
from slotmath.plot.sweep import edit_symbol, plot_rtp_sweep, rtp_sweep_data
from slotmath.plot.tuning import plot_sensitivity_heatmap, sensitivity_heatmap_data
from slotmath.plot.win_sizes import plot_win_sizes, win_size_data

__all__ = [
    "carried_multiplier_data",
    "cascade_count_data",
    "cascade_win_data",
    "edit_symbol",
    "freed_data",
    "hit_value_data",
    "plot_carried_multiplier",
    "plot_cascade_counts",
    "plot_cascade_wins",
    "plot_freed",
    "plot_hit_value",
    "plot_pool",
    "plot_rtp_breakdown",
    "plot_rtp_by_level",
    "plot_rtp_by_visible_state",
    "plot_rtp_from_reset",
    "plot_rtp_sweep",
    "plot_sensitivity_heatmap",
    "plot_stationary",
    "plot_time_between_hits",
    "plot_win_distribution",
    "plot_win_sizes",
    "pool_data",
    "rtp_breakdown_data",
    "rtp_by_level_data",
    "rtp_by_visible_state_data",
    "rtp_from_reset_data",
    "rtp_sweep_data",
    "sensitivity_heatmap_data",
    "stationary_data",
    "time_between_hits_data",
    "win_distribution_data",
    "win_size_data",
]
