"""Tuning a game to its targets (issue 25): exact sensitivities, exact rational figures, and an
inverse solver. See docs/tuning.md.

* :mod:`slotmath.tune.reel_tables`: one reel as a linear part of the analysis (a table per
  window), the engine's enumeration run once per window;
* :mod:`slotmath.tune.sensitivity`: the exact change of RTP, hit frequency and E[X^2] when
  one symbol is added to or removed from one reel, for every reel and symbol;
* :mod:`slotmath.tune.rational`: a figure as an exact sympy rational function of a stop
  weight, a one-row symbol count, a wheel weight, a hold & win value weight or a free-spin
  award (or several at once), solvable for a target;
* :mod:`slotmath.tune.solver`: integer symbol counts (or a weighted reel's stop weights; or,
  by :mod:`slotmath.tune.prize_weights`, a bonus wheel's or hold & win's value weights) that
  meet an RTP target and ranges (hit frequency, SD, a feature's and the max win's "1 in N"),
  holding GLI-11's odds rule, by coordinate descent with :func:`scipy.optimize.milp`;
* :mod:`slotmath.tune.search`: the solver's path for the games the window tables do not cover
  (cascades, grid games, the conveyor, paid-spin modifiers): single and paired stop moves
  ranked cheaply (exact analyses, paired simulation, common random numbers), each step
  confirmed by the game's own analysis;
* :mod:`slotmath.tune.awards`: GLI-11's awards and odds, as the compliance check gives them;
* :mod:`slotmath.tune.layout`: strip layout rules (spacing, stacks) and the placement;
* :mod:`slotmath.tune.game_file`: the tuned game written back as a game file.
"""

from slotmath.tune.awards import Awards, awards
from slotmath.tune.layout import Layout, LayoutError, lay_out
from slotmath.tune.prize_weights import PrizeWeights, with_prize_weights
from slotmath.tune.rational import (
    FreeSpinAward,
    RationalFigure,
    RationalFunction,
    StopWeight,
    SymbolCount,
    ValueWeight,
    WheelWeight,
    rational_figure,
    rational_function,
)
from slotmath.tune.reel_tables import Figures, ReelTables, check_tunable
from slotmath.tune.sensitivity import Entry, Sensitivities, sensitivities, step
from slotmath.tune.solver import Step, TuneResult, tune

__all__ = ["Awards", "Entry", "Figures", "FreeSpinAward", "Layout", "LayoutError",
           "PrizeWeights", "RationalFigure", "RationalFunction", "ReelTables", "Sensitivities",
           "Step", "StopWeight", "SymbolCount", "TuneResult", "ValueWeight", "WheelWeight",
           "awards", "check_tunable", "lay_out", "rational_figure", "rational_function",
           "sensitivities", "step", "tune", "with_prize_weights"]
