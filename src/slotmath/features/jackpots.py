"""Progressive jackpots on the bonus wheel as a stationary feature.

A jackpot division's probability depends on its own pool only, so each pool is a renewal
chain (:mod:`slotmath.markov.jackpot`) driven by the number ``K`` of wheel spins per paid
round alone. ``K``'s law is the round law of the wheel's *events* (the free-spins chain run
on tables whose credits are wheel spins): its mean is exact, its distribution numerical.
A jackpot hit replaces a coin prize, so the wheel's coin component loses ``coin prize x hits
per round`` and the jackpots add their long-run payout. Simulator counterpart:
:class:`slotmath.simulate.jackpots.Pools`.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from slotmath.features.base import Feature, Kind
from slotmath.markov.jackpot import JackpotPool, PoolAnalysis, analyze_pool
from slotmath.model.game import Game

__all__ = ["CHANCES_TAIL", "FEATURE", "POOL_TAIL", "JackpotFigures", "Jackpots", "chances_law"]

POOL_TAIL = 1e-12  # pools beyond each one's 1 - POOL_TAIL quantile are too rare to matter
CHANCES_TAIL = 1e-13  # mass of the wheel-spins-per-round law cut off its upper tail
POOLS_KEPT = 16  # pool analyses kept for the next analysis (pool_analysis)


def chances_law(events_round) -> tuple[dict[int, float], Fraction, float]:
    """``(P(K = k), E[K] exact, error)`` from the round law of the wheel's events.

    The far tail (rounds with very many wheel spins, below ``CHANCES_TAIL`` in all) is cut:
    it cannot move a pool figure measurably, and each extra k costs a lattice row. ``error``
    is the probability mass cut or moved by the float computation plus ``|sum k P(K=k) -
    E[K]|``.
    """
    mean = events_round.mean  # exact expected wheel spins per round
    d = events_round.distribution()
    probs = {int(k): float(p) for k, p in zip(d.credits.tolist(), d.probs.tolist()) if p > 0}
    tail, cut = 0.0, 0.0
    for k in sorted(probs, reverse=True)[:-1]:
        if tail + probs[k] > CHANCES_TAIL:
            break
        tail += probs[k]
        cut += probs.pop(k)
    total = sum(probs.values())
    probs = {k: p / total for k, p in probs.items()}
    moved = abs(total + cut - 1) + cut + d.aliased_mass_bound + d.dropped_bound
    error = moved + abs(sum(k * p for k, p in probs.items()) - float(mean))
    return probs, mean, error


@lru_cache(maxsize=POOLS_KEPT)
def pool_analysis(pool: JackpotPool, bet: Fraction, chances: tuple) -> PoolAnalysis:
    """:func:`~slotmath.markov.jackpot.analyze_pool` of ``pool``, kept for the next analysis
    that asks for the same pool, bet and wheel-spins law (``chances``: sorted ``(k, P)``
    pairs). A panel's move changes one jackpot, or only the wheel's coin weights, which no
    pool reads: the pools it leaves alone are not solved again (issue 23 item 8)."""
    return analyze_pool(pool, bet, dict(chances))


@dataclass(frozen=True, eq=False)
class JackpotFigures:
    """The progressive jackpots of a game at one bet level.

    Attributes
    ----------
    bet_value : Fraction
        Currency bet per paid round.
    coin_prize : Fraction
        What a wheel spin pays when it stops on a coin division, in total bets.
    mean_chances : Fraction
        Exact expected wheel spins per paid round (base game and free spins).
    chances : dict k -> float
        ``P(K = k)``: wheel spins per paid round (float64).
    chances_error : float
        See :func:`chances_law`.
    pools : dict name -> PoolAnalysis
        Empty when no round ever spins the wheel (:attr:`reachable` is then False).
    """

    bet_value: Fraction
    coin_prize: Fraction
    mean_chances: Fraction
    chances: dict
    chances_error: float
    pools: dict

    @property
    def rtp(self) -> float:
        """Long-run jackpot payout per unit bet, all pools."""
        return sum((p.rtp_contribution for p in self.pools.values()), 0.0)

    @property
    def hits_per_round(self) -> float:
        """Expected jackpot hits (all pools) per paid round."""
        return sum((p.hits_per_round for p in self.pools.values()), 0.0)

    @property
    def coin_loss(self) -> float:
        """Coin prizes not paid because the wheel stopped on a jackpot, per paid round, in
        total bets."""
        return float(self.coin_prize) * self.hits_per_round

    @property
    def replaced(self) -> float:
        """What the driving feature does not pay because its event hit a jackpot instead,
        per paid round, in total bets (:attr:`coin_loss`)."""
        return self.coin_loss

    @property
    def reachable(self) -> bool:
        """Whether any round ever spins the wheel (else no pool is ever hit or analysed)."""
        return self.mean_chances > 0

    @property
    def coin_probability(self) -> float:
        """Stationary probability that a wheel spin stops on a coin division."""
        if not self.reachable:
            return 1.0
        return 1.0 - self.hits_per_round / float(self.mean_chances)

    def hits_error(self, pool: PoolAnalysis) -> float:
        n = pool.mean_rounds_between_hits
        e = pool.error_bounds["mean_rounds_between_hits"]
        return e / (n * max(n - e, 1e-300))

    @property
    def error(self) -> float:
        """Absolute error bound on ``rtp - coin_loss``, in total bets."""
        return sum(p.error_bounds["rtp_contribution"]
                   + float(self.coin_prize) * self.hits_error(p) for p in self.pools.values())

    def total_std(self, coin_variance) -> float:
        """SD of the round's whole return in total bets, given the coin round's variance.

        Approximate: ``Var(coin round) + sum_j h_j E[V_j^2] / B^2 - (jackpot RTP)^2``, with
        ``h_j`` hits per round and ``V_j`` the value at a hit: it leaves out the covariance of
        the coin win with the jackpot payout (a hit round has a wheel spin, so it is positive
        but small next to the jackpot's own spread) and rounds that hit two jackpots.
        """
        bet = float(self.bet_value)
        second = 0.0
        for pool in self.pools.values():
            v = pool.hit_value_distribution
            second += pool.hits_per_round * float(v.values**2 @ v.probabilities) / bet**2
        return (float(coin_variance) + second - self.rtp**2) ** 0.5

    def chance_per_wheel_spin(self, name: str) -> float:
        """Stationary chance that a wheel spin stops on jackpot ``name`` (0 when the wheel is
        never reached)."""
        pool = self.pools.get(name)
        return 0.0 if pool is None else pool.expected_hit_probability_per_spin


@dataclass(frozen=True, eq=False)
class Jackpots:
    """The stationary feature: every pool of ``game`` at bet ``level``."""

    game: Game
    level: int
    name: str = "jackpots"
    simulator: str = "slotmath.simulate.jackpots.Pools"
    driven_by: str = "bonus_wheel"  # the spin feature whose events (wheel spins) it counts

    def analyze(self, events_round) -> JackpotFigures:
        """Each pool's stationary analysis, driven by the round law of wheel spins.

        Raises ValueError when the jackpot divisions' probabilities add up to more than 1 at
        pools reached with probability above ``POOL_TAIL``.
        """
        game = self.game
        bet = game.bet_value(self.level)
        if not events_round.mean:  # the wheel can never be reached: no pool is ever hit
            return JackpotFigures(bet, game.bonus_wheel.mean, Fraction(0), {0: 1.0}, 0.0, {})
        chances, mean, error = chances_law(events_round)
        pools = {}
        for spec in game.jackpots:
            pools[spec.name] = pool_analysis(JackpotPool.from_spec(spec, self.level), bet,
                                             tuple(sorted(chances.items())))
        top = sum(float(p.pool.law(p.stationary_pool_quantile(1 - POOL_TAIL)))
                  for p in pools.values())
        if top > 1:
            raise ValueError(
                f"{game.name}: at bet level {self.level} the jackpot divisions' probabilities "
                f"add up to {top:.4g} > 1 at pools reached with probability above {POOL_TAIL:g}:"
                " lower the hit laws or their level factors")
        return JackpotFigures(bet, game.bonus_wheel.mean, mean, chances, error, pools)

    def chances_at(self, pools: dict[str, float]) -> dict[str, float]:
        """Each jackpot division's probability per wheel spin at the given pool values."""
        out = {}
        for spec in self.game.jackpots:
            if spec.name not in pools:
                raise ValueError(f"give the value of every jackpot: {spec.name} is missing")
            law = JackpotPool.from_spec(spec, self.level).law
            out[spec.name] = float(law(float(pools[spec.name])))
        return out

    def division_chances(self, figures: JackpotFigures) -> dict[str, float]:
        """Each jackpot division's stationary chance per wheel spin (0 when the wheel is never
        reached), given this feature's ``figures``."""
        return {spec.name: figures.chance_per_wheel_spin(spec.name) for spec in self.game.jackpots}


FEATURE = Feature(
    name="jackpots",
    kind=Kind.STATIONARY,
    title="Progressive jackpots",
    present=lambda game: bool(game.jackpots),
    build=Jackpots,
    result=lambda composition: composition.stationary["jackpots"],
    json="slotmath.report.jackpots:json_section",
    tables="slotmath.report.jackpots:tables",
    simulation="slotmath.report.jackpots:simulation",
    simulation_text="slotmath.report.jackpots:simulation_text",
    summary="slotmath.report.jackpots:summary",
    panel="slotmath.widgets.jackpot_panel:feature_panel",
    charts="slotmath.plot.jackpots:charts",
    simulator="slotmath.simulate.jackpots:Pools",
    checks="slotmath.report.jackpots:entries",
    disclosure="slotmath.report.jackpots:disclosure",
    errors="slotmath.report.jackpots:errors",
)
