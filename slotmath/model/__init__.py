"""What a game is: frozen dataclasses."""

from slotmath.model.game import FreeSpins, Game, Reel, ReelSet, Symbol, SymbolGroup

__all__ = ["FreeSpins", "Game", "Reel", "ReelSet", "Symbol", "SymbolGroup"]
