"""The player's view over N paid rounds, from a round's exact (or numerical) win law.

What a player (or a regulator) asks of a game, each figure with rigorous bounds and the
normal approximation beside it:

- :func:`session_law`: the law of the total win of ``N`` rounds (and so of the net result),
  one FFT power for ``N`` up to 1e6, with a stated error (:mod:`slotmath.player.session`);
- :func:`probability_ahead`, :func:`probability_even`: the net result > 0, = 0;
- :func:`rtp_quantiles`: quantiles of the session RTP;
- :func:`ruin_probability`, :func:`ruin_curve`: the risk of ruin of a bankroll of ``B`` bets
  within ``N`` rounds, by a recursion over the balance with the absorbing barrier (exact
  fractions, or float64 with a bound), or rigorous bounds beyond (:mod:`slotmath.player.ruin`);
- :func:`expected_loss_per_hour`, :func:`hourly_loss`: the loss per hour at a game cycle
  (2.5 s, the UK and Ontario minimum, by default);
- :func:`losses_disguised_as_wins`: P(0 < round win <= stake);
- :func:`summary`: all of these for one law in one nested dict (a report section).

Everything here is numpy/scipy only; the charts are :mod:`slotmath.plot.player`, the panel
:mod:`slotmath.widgets.player_panel`.

Examples
--------
>>> import slotmath
>>> from slotmath import player
>>> law = slotmath.analyze(slotmath.load_game("data/games/classic_3reel.toml")).distribution
>>> f = player.probability_ahead(law, 1000)
>>> f.upper - f.lower < 1e-9, f.normal - f.value > 0.01      # the normal approximation is off
(True, True)
>>> player.expected_loss_per_hour(law.mean) == (1 - law.mean) * 1440
True
"""

from slotmath.player.figures import (
    QUANTILE_LEVELS,
    UK_MIN_CYCLE_SECONDS,
    AheadCurve,
    HourlyLoss,
    RtpFunnel,
    ahead_curve,
    expected_loss_per_hour,
    hourly_loss,
    losses_disguised_as_wins,
    probability_ahead,
    probability_even,
    rtp_funnel,
    rtp_quantiles,
    summary,
)
from slotmath.player.law import PlayerLaw, as_player_law
from slotmath.player.result import PlayerFigure
from slotmath.player.ruin import RuinCurve, ruin_curve, ruin_plan, ruin_probability
from slotmath.player.session import SessionLaw, session_law

__all__ = ["QUANTILE_LEVELS", "UK_MIN_CYCLE_SECONDS", "AheadCurve", "HourlyLoss", "PlayerFigure",
           "PlayerLaw", "RtpFunnel", "RuinCurve", "SessionLaw", "ahead_curve", "as_player_law",
           "expected_loss_per_hour", "hourly_loss", "losses_disguised_as_wins",
           "probability_ahead", "probability_even", "rtp_funnel", "rtp_quantiles",
           "ruin_curve", "ruin_plan", "ruin_probability", "session_law", "summary"]
