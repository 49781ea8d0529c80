"""Features: one module per mechanic, each answering the interface of :mod:`.base`.

* :mod:`.free_spins` — round feature, started by the trigger count.
* :mod:`.bonus_wheel` — spin feature, played on bonus lines.
* :mod:`.jackpots` — stationary feature, driven by wheel spins per round.
* :mod:`.cap` — the max-win cap, an operation on the round's distribution.
* :mod:`.compose` — folding spin features and mixing round features.
"""

from slotmath.features.base import Context, DenseLaw, FeatureLaw, Mark
from slotmath.features.compose import RoundLaw, fold, fold_events

__all__ = ["Context", "DenseLaw", "FeatureLaw", "Mark", "RoundLaw", "fold", "fold_events"]
