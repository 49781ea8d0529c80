"""slotmath: exact slot-game mathematics.

>>> import slotmath
>>> game = slotmath.load_game("data/games/classic_fruits.toml")
>>> game.name
'Classic Fruits'
"""

from slotmath.analysis import Analysis, analyze
from slotmath.errors import GameFileError
from slotmath.exact.cycle import spin_table
from slotmath.exact.direct import direct_method
from slotmath.io.toml_loader import load_game, loads_game
from slotmath.simulate import SimulationResult, simulate

__all__ = ["Analysis", "GameFileError", "SimulationResult", "analyze", "direct_method",
           "load_game", "loads_game", "simulate", "spin_table"]
