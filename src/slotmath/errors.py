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


_NO_VALUE = object()


class RuleError(ValueError):
    """A value breaks one of the model's rules (:mod:`slotmath.model.rules`,
    :mod:`slotmath.model.hit_laws`).

    Parts are kept apart so that each entry point can say it in its own terms: the loader
    turns ``field`` into a key path of the file and shows the value as written there
    (:meth:`problem_with`), an edit names the object (``subject``).

    Parameters
    ----------
    field : str or None
        The value inside the object checked: ``"seed"``, ``"rate"``, ``"weights[2]"``; None
        when the rule is about the object as a whole.
    problem : str
        What is wrong (and, where it helps, what would be right), e.g. ``"must be >= 0"``.
    value : optional
        The offending value, shown after the problem as ``", got ..."``.
    subject : str or None
        The object checked, e.g. ``"jackpot 'MINOR'"``.

    Examples
    --------
    >>> err = RuleError("seed", "must be >= 0", -5, subject="jackpot 'MINOR'")
    >>> str(err)
    "jackpot 'MINOR': seed: must be >= 0, got -5"
    >>> err.problem_with("-5.0")
    "must be >= 0, got '-5.0'"
    """

    def __init__(self, field: str | None, problem: str, value=_NO_VALUE,
                 subject: str | None = None):
        self.field = field
        self.problem = problem
        self.value = value
        self.subject = subject
        super().__init__(str(self))

    def problem_with(self, shown=_NO_VALUE) -> str:
        """The problem followed by ``shown`` (default: the value) as ``", got ..."``; the
        problem alone for a rule without a value."""
        if self.value is _NO_VALUE:
            return self.problem
        value = self.value if shown is _NO_VALUE else shown
        return f"{self.problem}, got {_show(value)}"

    def about(self, subject: str) -> RuleError:
        """The same error said of ``subject``."""
        return RuleError(self.field, self.problem, self.value, subject)

    def within(self, prefix: str | None) -> RuleError:
        """The same error with ``field`` inside ``prefix``: a rule on a part (a reel, the
        free spins) reported for the whole (a game, a file), as ``prefix.field`` or, for an
        index, ``prefix[i]``.

        Examples
        --------
        >>> RuleError("[4]", "symbol 'Q' is not declared in [symbols]").within("reels.base[2]").field
        'reels.base[2][4]'
        >>> RuleError("weights[1]", "must be >= 0", -2).within("reels.base[0]").field
        'reels.base[0].weights[1]'
        >>> RuleError(None, "strip is empty").within("reels.base[0]").field
        'reels.base[0]'
        """
        if not prefix:
            return self
        if not self.field:
            field = prefix
        elif self.field.startswith("["):
            field = prefix + self.field
        else:
            field = f"{prefix}.{self.field}"
        return RuleError(field, self.problem, self.value, self.subject)

    def __str__(self) -> str:
        parts = [p for p in (self.subject, self.field) if p]
        return ": ".join([*parts, self.problem_with()])


def _show(value) -> str:
    """A value as a person wrote it: fractions as ``3/125``, everything else by repr."""
    from fractions import Fraction

    return str(value) if isinstance(value, Fraction) else repr(value)
