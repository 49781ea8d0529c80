"""What a game is: frozen dataclasses."""

from slotmath.model.game import BonusWheel, FreeSpins, Game, Reel, ReelSet, Symbol, SymbolGroup

__all__ = ["BonusWheel", "FreeSpins", "Game", "Reel", "ReelSet", "Symbol", "SymbolGroup"]
