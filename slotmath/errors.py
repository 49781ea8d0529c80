"""The one error type for bad game input."""

from __future__ import annotations


class GameFileError(ValueError):
    """A game definition is invalid.

    Carries the file, the key path inside it and what is wrong, so that the CLI can print
    the whole story on one line.

    Examples
    --------
    >>> str(GameFileError("game.toml", "reels.base[2][4]", "symbol 'Q' is not declared in [symbols]"))
    "game.toml: reels.base[2][4]: symbol 'Q' is not declared in [symbols]"
    """

    def __init__(self, file: str | None, key: str | None, message: str):
        self.file = file
        self.key = key
        self.message = message
        parts = [p for p in (file, key) if p]
        super().__init__(": ".join([*parts, message]))
