"""The hit-probability laws of progressive jackpots: the one place each law is defined.

A law gives the probability that one bonus-wheel spin hits a jackpot, as a function of the
pool (currency). Each law is one :class:`HitLaw` in :data:`LAWS`, holding everything the rest
of the library needs to know about it:

* its ``name`` (as written in game files) and integer ``id`` (for numba kernels);
* its ``parameters`` and the rule on each (a probability in [0, 1], or a number >= 0);
* its ``formula``: a plain scalar function ``(*parameters, pool) -> probability`` using only
  arithmetic, ``min`` and ``if``, so that :func:`numba.njit` compiles it as it stands (the
  simulator's kernel is built that way), and ``array_formula``, the same formula written with
  numpy for arrays of pools (the Markov analysis); the tests hold the two bit for bit equal;
* how a bet level's factor scales it (:meth:`HitLaw.scaled`, :meth:`HitLaw.check_factor`);
* ``through``: the parameters of the law passing through one (pool, probability) point (the
  jackpot panel starts a law there).

Used by :mod:`slotmath.model.game` and :mod:`slotmath.model.rules` (validation),
:mod:`slotmath.markov.jackpot` (the law classes are thin wrappers), the simulator's kernel and
the jackpot panel. Adding a law = adding a :class:`HitLaw` here (and a branch to the
simulator's ``hit_probability`` kernel, which a test checks covers every law).

Examples
--------
>>> LINEAR.formula(1e-4, 50.0)
0.005
>>> law("saturating").parameters
('p_max', 'half')
>>> scaled_parameters("constant", {"probability": 0.3}, 4.0)
{'probability': 1.0}
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

import numpy as np

from slotmath.errors import RuleError

__all__ = ["CONSTANT", "LAWS", "LINEAR", "SATURATING", "HitLaw", "law", "scaled_parameters"]


@dataclass(frozen=True)
class HitLaw:
    """One hit-probability law: name, id, parameters and their rules, formula, scaling.

    Parameters
    ----------
    name : str
        As written in a game file (``law = "linear"``).
    id : int
        Its number in numba kernels (unique).
    parameters : tuple of str
        In the order the formulas take them.
    probability_parameters : frozenset of str
        Parameters that are probabilities, in [0, 1]; the others must be >= 0.
    scaled_parameter : str
        The parameter a factor multiplies to multiply every probability of the law by the
        factor (a bet level's factor; the jackpot panel's weight).
    refuses_past_one : bool
        Whether a scaled probability parameter above 1 is refused (True: capping it at 1
        would give a law outside the family, as for the saturating law) rather than capped.
    formula : callable
        ``formula(*parameters, pool) -> float``, scalar, numba-compilable.
    array_formula : callable
        The same for an array of pools (numpy), returning a scalar for a scalar pool.
    through : callable
        ``through(probability, pool) -> dict``: parameters of the law giving ``probability``
        at ``pool``.
    wording : callable
        ``wording(*parameters) -> str``: the law in plain words (:meth:`in_words`).
    """

    name: str
    id: int
    parameters: tuple[str, ...]
    probability_parameters: frozenset[str]
    scaled_parameter: str
    refuses_past_one: bool
    formula: Callable[..., float]
    array_formula: Callable[..., object]
    through: Callable[[float, float], dict[str, float]]
    wording: Callable[..., str]

    def __repr__(self) -> str:
        return f"HitLaw({self.name!r})"

    def describe(self, parameter: str) -> str:
        """What ``parameter`` must be, as a phrase: ``"a probability in [0, 1]"`` or
        ``"a number >= 0"``.

        Examples
        --------
        >>> SATURATING.describe("p_max"), SATURATING.describe("half")
        ('a probability in [0, 1]', 'a number >= 0')
        """
        if parameter in self.probability_parameters:
            return "a probability in [0, 1]"
        return "a number >= 0"

    def in_words(self, parameters: Mapping[str, float]) -> str:
        """The law with these parameters in plain words, as the PAR reports show it (the
        HTML, the workbook and the text sheet): the chance that one wheel spin hits, with the
        pool in currency. Short enough for a table cell (48 characters or fewer for the
        bundled games).

        Examples
        --------
        >>> LINEAR.in_words({"rate": 0.000101683})
        'pool x 0.000101683 per wheel spin, at most 1'
        >>> CONSTANT.in_words({"probability": 0.0008})
        '1 in 1,250 per wheel spin, at any pool'
        >>> SATURATING.in_words({"p_max": 0.02, "half": 5000.0})
        'up to 0.02 per wheel spin, half at pool 5,000'
        """
        self.check_names(parameters)
        return self.wording(*(float(parameters[p]) for p in self.parameters))

    def check_names(self, names: Iterable[str]) -> None:
        """Refuse parameter names that are not exactly this law's: the first one that does not
        belong, else the first one missing, is named in :class:`RuleError`'s ``field``.

        Examples
        --------
        >>> LINEAR.check_names(["rate", "half"])
        Traceback (most recent call last):
        ...
        slotmath.errors.RuleError: half: is not a parameter of the linear law (it takes rate)
        """
        names = list(names)
        takes = " and ".join(self.parameters)
        for name in names:
            if name not in self.parameters:
                raise RuleError(name, f"is not a parameter of the {self.name} law (it takes "
                                      f"{takes})")
        for name in self.parameters:
            if name not in names:
                raise RuleError(name, f"missing: the {self.name} law needs {takes}")

    def check_value(self, parameter: str, value: float) -> None:
        """Refuse a parameter value outside its range (NaN is outside every range).

        Examples
        --------
        >>> CONSTANT.check_value("probability", 1.5)
        Traceback (most recent call last):
        ...
        slotmath.errors.RuleError: probability: must be in [0, 1], got 1.5
        """
        if parameter in self.probability_parameters:
            if not 0 <= value <= 1:
                raise RuleError(parameter, "must be in [0, 1]", value)
        elif not value >= 0:
            raise RuleError(parameter, "must be >= 0", value)

    def check(self, parameters: Mapping[str, float]) -> None:
        """Every rule on a mapping of this law's parameters: the names, then each value."""
        self.check_names(parameters)
        for name in self.parameters:
            self.check_value(name, parameters[name])

    def check_factor(self, parameters: Mapping[str, float], factor: float) -> None:
        """Refuse a factor that would take the scaled parameter of a law that
        :attr:`refuses_past_one` above 1.

        Examples
        --------
        >>> SATURATING.check_factor({"p_max": 0.4, "half": 50.0}, 3.0)
        Traceback (most recent call last):
        ...
        slotmath.errors.RuleError: saturating law: p_max x level factor = 1.2 > 1; lower p_max or the level factor
        """
        p = self.scaled_parameter
        if self.refuses_past_one and float(parameters[p]) * factor > 1:
            # min(1, factor x law) is then no longer a law of this family: refuse, don't
            # approximate
            raise RuleError(None, f"{self.name} law: {p} x level factor = "
                                  f"{float(parameters[p]) * factor:.4g} > 1; lower {p} or the "
                                  "level factor")

    def never_hits(self, parameters: Mapping[str, float], seed: float, grows: bool) -> bool:
        """Whether the law is 0 at every pool a jackpot of this ``seed`` reaches: the seed
        and, if the pool ``grows`` (a contribution > 0), every pool above it. The laws do not
        decrease, so that is the seed's and the largest float pool's (``1e300``).

        A level factor (> 0) cannot change it.

        Examples
        --------
        >>> LINEAR.never_hits({"rate": 1e-9}, 0.0, grows=True)
        False
        >>> LINEAR.never_hits({"rate": 1e-9}, 0.0, grows=False)
        True
        >>> CONSTANT.never_hits({"probability": 0.0}, 50.0, grows=True)
        True
        """
        values = [parameters[p] for p in self.parameters]
        pools = (float(seed), 1e300) if grows else (float(seed),)
        return all(self.formula(*values, pool) == 0 for pool in pools)

    def scaled(self, parameters: Mapping[str, float], factor: float) -> dict[str, float]:
        """The parameters with every probability of the law multiplied by ``factor``: the
        scaled parameter times ``factor`` (capped at 1 if it is a probability); the others
        unchanged. The arithmetic only: :meth:`check_factor` is the rule on the factor.

        Examples
        --------
        >>> LINEAR.scaled({"rate": 1e-4}, 2.0)
        {'rate': 0.0002}
        """
        out = {name: parameters[name] for name in self.parameters}
        value = float(parameters[self.scaled_parameter]) * factor
        if self.scaled_parameter in self.probability_parameters:
            value = min(1.0, value)
        out[self.scaled_parameter] = value
        return out


# -- the laws ------------------------------------------------------------------------------------
# Each formula twice, side by side: scalar (numba compiles it for the simulator) and numpy.


def constant_probability(probability, pool):
    """``p = probability`` whatever the pool."""
    return probability


def constant_probabilities(probability, pool):
    return np.full(np.shape(pool), float(probability))[()]


def linear_probability(rate, pool):
    """``p = min(1, rate * pool)``."""
    return min(1.0, rate * pool)


def linear_probabilities(rate, pool):
    return np.minimum(1.0, float(rate) * np.asarray(pool, dtype=float))[()]


def saturating_probability(p_max, half, pool):
    """``p = p_max * pool / (pool + half)``, 0 where ``pool + half`` is 0."""
    if pool + half > 0.0:
        return p_max * pool / (pool + half)
    return 0.0


def saturating_probabilities(p_max, half, pool):
    x = np.asarray(pool, dtype=float)
    with np.errstate(invalid="ignore", divide="ignore"):
        p = float(p_max) * x / (x + float(half))
    return np.where(x + float(half) > 0, p, 0.0)[()]


def _number(x: float) -> str:
    """A law's parameter as a reader takes it: 6 significant digits, thousands separated."""
    if x == int(x) and abs(x) < 1e15:
        return f"{int(x):,}"
    return f"{x:,.6g}"


def constant_words(probability):
    if probability == 0:
        return "never"
    n = 1 / probability
    return f"1 in {f'{round(n):,}' if n >= 1000 else f'{n:.4g}'} per wheel spin, at any pool"


def linear_words(rate):
    return f"pool x {_number(rate)} per wheel spin, at most 1"


def saturating_words(p_max, half):
    return f"up to {_number(p_max)} per wheel spin, half at pool {_number(half)}"


CONSTANT = HitLaw(
    name="constant", id=0, parameters=("probability",),
    probability_parameters=frozenset({"probability"}), scaled_parameter="probability",
    refuses_past_one=False, formula=constant_probability, array_formula=constant_probabilities,
    through=lambda probability, pool: {"probability": probability}, wording=constant_words,
)
LINEAR = HitLaw(
    name="linear", id=1, parameters=("rate",), probability_parameters=frozenset(),
    scaled_parameter="rate", refuses_past_one=False, formula=linear_probability,
    array_formula=linear_probabilities,
    through=lambda probability, pool: {"rate": probability / pool if pool > 0 else 0.0},
    wording=linear_words,
)
SATURATING = HitLaw(
    name="saturating", id=2, parameters=("p_max", "half"),
    probability_parameters=frozenset({"p_max"}), scaled_parameter="p_max",
    refuses_past_one=True, formula=saturating_probability,
    array_formula=saturating_probabilities,
    through=lambda probability, pool: {"p_max": 2 * probability, "half": pool},
    wording=saturating_words,
)

#: Every law by name, in the order game-file messages list them.
LAWS: Mapping[str, HitLaw] = {h.name: h for h in (CONSTANT, LINEAR, SATURATING)}
#: Every parameter name of any law.
PARAMETERS: frozenset[str] = frozenset(p for h in LAWS.values() for p in h.parameters)


def law(name: object) -> HitLaw:
    """The law called ``name``; :class:`RuleError` (field ``law``) for any other value.

    Examples
    --------
    >>> law("linar")
    Traceback (most recent call last):
    ...
    slotmath.errors.RuleError: law: must be one of 'constant', 'linear', 'saturating', got 'linar'
    """
    if not isinstance(name, str) or name not in LAWS:
        raise RuleError("law", f"must be one of {', '.join(map(repr, LAWS))}", name)
    return LAWS[name]


def scaled_parameters(name: str, parameters: Mapping[str, float],
                      factor: float = 1.0) -> dict[str, float]:
    """The parameters of law ``name`` scaled by ``factor`` (a bet level's factor), after every
    rule: the law exists, its parameters are valid, the factor is allowed.

    Examples
    --------
    >>> scaled_parameters("saturating", {"p_max": 0.3, "half": 50.0}, 3.0)
    {'p_max': 0.8999999999999999, 'half': 50.0}
    """
    h = law(name)
    h.check(parameters)
    h.check_factor(parameters, factor)
    return h.scaled(parameters, factor)
