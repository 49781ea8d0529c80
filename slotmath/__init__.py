"""slotmath: exact slot-game mathematics.

>>> import slotmath
>>> game = slotmath.load_game("data/games/classic_fruits.toml")
>>> game.name
'Classic Fruits'
"""

from slotmath.errors import GameFileError
from slotmath.io.toml_loader import load_game, loads_game

__all__ = ["GameFileError", "load_game", "loads_game"]
