"""The one error type for bad game input."""

from __future__ import annotations


class GameFileError(ValueError):
    """A game definition is invalid.

    Carries the file, the key path inside it and what is wrong, so that the CLI can print
    the whole story on one line: ``str(err)`` is ``"file: key: message"`` and never contains
    a line break (any in the parts are folded into spaces).

    Parameters
    ----------
    file : str or None
        The file (or label) the game came from.
    key : str or None
        Dotted key path inside the file, e.g. ``"symbols.A.pays.3"``; None when the problem
        is the file as a whole.
    message : str
        What is wrong and, where it helps, what would be right.

    Examples
    --------
    >>> str(GameFileError("game.toml", "reels.base[2][4]", "symbol 'Q' is not declared in [symbols]"))
    "game.toml: reels.base[2][4]: symbol 'Q' is not declared in [symbols]"
    >>> str(GameFileError("game.toml", None, "no such file"))
    'game.toml: no such file'
    """

    def __init__(self, file: str | None, key: str | None, message: str):
        self.file = file
        self.key = key
        self.message = message
        parts = [_one_line(p) for p in (file, key) if p]
        super().__init__(": ".join([*parts, _one_line(message)]))


def _one_line(text: str) -> str:
    return " ".join(part.strip() for part in str(text).splitlines() if part.strip())
