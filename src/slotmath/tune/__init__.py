"""Tuning a game to its targets: exact sensitivities of its figures to its strips.

* :mod:`slotmath.tune.reel_tables`: one reel as a linear part of the analysis (a table per
  window), the engine's enumeration run once per window;
* :mod:`slotmath.tune.sensitivity`: the exact change of RTP, hit frequency and E[X^2] when
  one symbol is added to or removed from one reel, for every reel and symbol.
"""

from slotmath.tune.reel_tables import Figures, ReelTables, check_tunable
from slotmath.tune.sensitivity import Entry, Sensitivities, sensitivities, step

__all__ = ["Entry", "Figures", "ReelTables", "Sensitivities", "check_tunable",
           "sensitivities", "step"]
