"""Plain references for the player's view, sharing no code with slotmath.player.

- ``simulate_totals`` / ``simulate_ruin``: seeded Monte Carlo of whole sessions; each round is
  drawn from the law by the inverse CDF (a uniform looked up in the cumulative probabilities).
- ``brute_ruin``: the exact risk of ruin by walking every sequence of round outcomes.
- ``exact_total_law``: the exact law of the total win, by the integer convolution of
  :meth:`slotmath.exact.distribution.WinDistribution.power` (the exact engine's algebra, not
  the FFT of slotmath.player).
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import numpy as np


def draw_rounds(credits, probs, shape, rng) -> np.ndarray:
    """Round wins (credits) drawn from the law by inverse CDF."""
    cumulative = np.cumsum(np.asarray(probs, dtype=np.float64))
    u = rng.random(shape) * cumulative[-1]
    index = np.searchsorted(cumulative, u, side="right")
    return np.asarray(credits, dtype=np.int64)[np.minimum(index, len(cumulative) - 1)]


def simulate_totals(credits, probs, n_rounds: int, sessions: int, rng,
                    chunk: int = 2_000_000) -> np.ndarray:
    """Total win (credits) of ``sessions`` sessions of ``n_rounds`` rounds each."""
    out = np.empty(sessions, dtype=np.int64)
    per = max(1, chunk // n_rounds)
    for start in range(0, sessions, per):
        stop = min(sessions, start + per)
        out[start:stop] = draw_rounds(credits, probs, (stop - start, n_rounds), rng).sum(axis=1)
    return out


def simulate_ruin(credits, probs, stake: int, bankroll_bets: int, n_rounds: int,
                  sessions: int, rng, chunk: int = 2_000_000) -> np.ndarray:
    """For each session: whether the balance fell below one stake after one of the rounds."""
    out = np.empty(sessions, dtype=bool)
    per = max(1, chunk // n_rounds)
    for start in range(0, sessions, per):
        stop = min(sessions, start + per)
        wins = draw_rounds(credits, probs, (stop - start, n_rounds), rng)
        balance = bankroll_bets * stake + np.cumsum(wins - stake, axis=1)
        out[start:stop] = balance.min(axis=1) < stake
    return out


def brute_ruin(weights: dict[int, int], stake: int, bankroll_bets: int, n_rounds: int
               ) -> Fraction:
    """Exact P(ruined within n_rounds) by visiting every sequence of outcomes."""
    items = list(weights.items())
    total = sum(weights.values())
    ruined = 0
    for sequence in itertools.product(items, repeat=n_rounds):
        balance = bankroll_bets * stake
        weight = 1
        for credits, w in sequence:
            weight *= w
        for credits, _ in sequence:
            balance += credits - stake
            if balance < stake:
                ruined += weight
                break
    return Fraction(ruined, total**n_rounds)


def exact_total_law(distribution, n_rounds: int) -> tuple[np.ndarray, list[Fraction]]:
    """(credits, exact probabilities) of the total win of n_rounds rounds."""
    power = distribution.power(n_rounds)
    return (np.asarray(power.credits, dtype=np.int64),
            [Fraction(int(w), power.total) for w in power.weights])


def exact_quantile(credits, probs: list[Fraction], q: Fraction) -> int:
    """The smallest total x with P(total <= x) >= q, exactly."""
    running = Fraction(0)
    for c, p in zip(credits, probs):
        running += p
        if running >= q:
            return int(c)
    return int(credits[-1])


def dkw_epsilon(samples: int, alpha: float) -> float:
    """Dvoretzky-Kiefer-Wolfowitz (Massart's constant): the empirical CDF of ``samples``
    draws is within this of the true CDF everywhere, except with probability ``alpha``."""
    return math.sqrt(math.log(2 / alpha) / (2 * samples))
