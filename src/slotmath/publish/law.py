"""The round's payout law as the export reads it from an analysis: the part that starts no
feature exact (integer weights over the paid spin's full cycle), the part that starts one
numerical (the analysis' FFT distribution less the exact part), with the numerical part's
stated error and its total mass set to the exact probability that a feature starts.

A game without round features has an exact law (the paid spin's full cycle) and no
numerical part. With round features (free spins with retriggers, hold & win) the round's law
is infinite or computed in float64: the analysis gives it on a grid of credits
(:meth:`slotmath.features.compose.RoundLaw.distribution`: the exact no-feature part added to an
FFT of the rest), with the mass folded back by the grid (``aliased_mass_bound``), the noise
dropped (``dropped_bound``) and, on a coarsened grid, how far a win moved
(``rounding_bets``). Here the numerical part is that distribution less the exact part; its
total is scaled to the exact start probability (the factor is kept, :attr:`ExportLaw.scale`),
so that the table's chance of a round that starts nothing is exact.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

__all__ = ["ExportLaw", "export_law"]


@dataclass(frozen=True)
class ExportLaw:
    """A round's payout law, in credits (``credits_per_bet`` a bet).

    Attributes
    ----------
    credits_per_bet : int
    exact : dict credits -> int
        Weights (over ``cycle``) of the rounds that start no round feature: the whole law
        when ``numerical`` is empty.
    cycle : int
        The paid spin's full cycle.
    numerical : dict credits -> float
        Probabilities of the rounds that start a feature (already scaled by ``scale``).
    started : Fraction
        The exact probability that a round starts a feature (what ``numerical`` adds up to).
    scale : float
        The factor that took the numerical part's own total to ``started`` (1: none).
    error_bound : float
        Bound on the probability mass the numerical part misplaces (folded by the grid, the
        noise dropped, and each kept entry's roundoff up to the analysis' noise floor); 0 for
        an exact law.
    moved_bets : float
        How far a win may have moved to reach the analysis' grid (0: no coarsening).
    method : str
    """

    credits_per_bet: int
    exact: dict[int, int]
    cycle: int
    numerical: dict[int, float]
    started: Fraction
    scale: float = 1.0
    error_bound: float = 0.0
    moved_bets: float = 0.0
    method: str = "exact full-cycle enumeration"

    @property
    def is_exact(self) -> bool:
        return not self.numerical and not self.started

    def probabilities(self) -> dict[Fraction, Fraction]:
        """Amount (bets) -> probability, exact fractions adding up to 1 (a float of the
        numerical part as its exact binary value, then scaled to ``started`` exactly)."""
        cpb = self.credits_per_bet
        out: dict[Fraction, Fraction] = {}
        for c, w in self.exact.items():
            out[Fraction(c, cpb)] = Fraction(w, self.cycle)
        if self.numerical:
            raw = {c: Fraction(p) for c, p in self.numerical.items()}
            norm = self.started / sum(raw.values())
            for c, p in raw.items():
                a = Fraction(c, cpb)
                out[a] = out.get(a, Fraction(0)) + p * norm
        return out

    def sources(self, credits: int) -> tuple[bool, bool]:
        """Whether rounds paying ``credits`` come from the exact part, the numerical part."""
        return credits in self.exact, credits in self.numerical


def export_law(analysis) -> ExportLaw:
    """The payout law of ``analysis``' paid round (see the module notes).

    Examples
    --------
    >>> import slotmath
    >>> law = export_law(slotmath.analyze(slotmath.load_game("data/games/classic_3reel.toml")))
    >>> law.is_exact, law.cycle, sum(law.probabilities().values())
    (True, 665028, Fraction(1, 1))
    >>> law = export_law(slotmath.analyze(slotmath.load_game("data/games/tiny_lines.toml")))
    >>> law.is_exact, law.started, abs(law.scale - 1) < 1e-12
    (False, Fraction(27, 512), True)
    """
    from slotmath.exact.distribution import WinDistribution

    d = analysis.distribution
    round_law = analysis.round
    base = round_law.base
    if isinstance(d, WinDistribution):
        weights = {int(c): int(w) for c, w in zip(d.credits.tolist(), d.weights.tolist())}
        return ExportLaw(d.credits_per_bet, weights, int(d.total), {}, Fraction(0))
    unit = d.credits_per_bet
    sb = unit // base.credits_per_bet
    marks = [base.mark_index(f.mark.kind) for f in round_law.features]
    none: dict[int, int] = {}
    started_weight = 0
    for key, w in base.weights.items():
        starts = any(f.start(key[i]) is not None for f, i in zip(round_law.features, marks))
        if starts:
            started_weight += w
        else:
            none[key[-1] * sb] = none.get(key[-1] * sb, 0) + w
    cycle = base.cycle
    credits = d.credits.astype(np.int64)
    probs = d.probs.astype(np.float64).copy()
    grid = int(np.gcd.reduce(credits)) if len(credits) else 1
    moved = float(getattr(d, "rounding_bets", 0.0))
    index = {int(c): i for i, c in enumerate(credits.tolist())}
    floor = max(float(d.noise_floor), 0.0)
    for c, w in none.items():
        at = c if not moved else round(c / grid) * grid
        e = w / cycle
        i = index.get(at)
        if i is None:  # the FFT's noise floor dropped it: it is all exact mass
            continue
        probs[i] -= e
        # what is left below the subtraction's own roundoff or the noise floor is no mass
        if probs[i] <= max(floor, 8 * np.finfo(float).eps * e):
            probs[i] = 0.0
    keep = probs > 0
    numerical = {int(c): float(p) for c, p in zip(credits[keep].tolist(), probs[keep].tolist())}
    started = Fraction(started_weight, cycle)
    raw = math.fsum(numerical.values())
    scale = float(started) / raw if raw else 1.0
    numerical = {c: p * scale for c, p in numerical.items()}
    # the mass the FFT's grid may fold and the noise it dropped, plus each kept entry's
    # roundoff, at most the noise floor the analysis drops below (a round whose groups were
    # all summed pair by pair, without an FFT, folds and drops nothing, yet its floats still
    # carry roundoff)
    error = (float(d.aliased_mass_bound) + float(d.dropped_bound)
             + floor * len(numerical))
    method = ("exact for the rounds that start no feature; an FFT of the features' chains "
              "for the rest (the analysis' round distribution)")
    return ExportLaw(unit, none, cycle, numerical, started, scale, error, moved, method)
