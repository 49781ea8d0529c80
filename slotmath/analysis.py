"""The whole exact analysis of a game at one bet level: what ``slotmath analyze`` prints.

Composes the layers: the fast full-cycle engine (:mod:`slotmath.exact.cycle`) for the exact
spin distributions, the direct method (:mod:`slotmath.exact.direct`) for components and the
pay-table hit counts, the free-spins chain and round composition (:mod:`slotmath.markov`),
PAR statistics (:mod:`slotmath.stats`) and the PAR tables (:mod:`slotmath.report`).

What is exact and what is numerical
-----------------------------------
Exact fractions: RTP and every component, hit frequency, the round's SD (as the square root of
an exact variance), trigger probability, expected spins and win per feature, the base-game
distribution and its max win, all pay-table hit counts. Numerical (float64, with the bounds
reported by :meth:`slotmath.markov.round.RoundAnalysis.win_distribution`): the whole-round
win distribution of a game with free spins, and what is read off it (win-size table).

Progressive jackpots and a max-win cap
--------------------------------------
A game whose bonus wheel carries jackpot divisions is analysed in two parts. The *coin
round* (:attr:`Analysis.round`) plays every wheel spin as a coin division: its RTP, hit
frequency, variance and distribution are exact as above. The jackpots (:attr:`Analysis.jackpots`)
are the renewal model of :mod:`slotmath.markov.jackpot`, one pool at a time: a jackpot
division's probability depends on its own pool only, so each pool's chain is driven by the
number ``K`` of wheel spins per paid round alone (its law from the same free-spins chain,
numerically). A jackpot hit replaces a coin prize, so the wheel's coin component loses
``coin prize x hits per round`` and the jackpots add their long-run payout per unit bet.
Those parts are numerical, with the error bounds of :class:`~slotmath.markov.jackpot.PoolAnalysis`.

The max-win cap (:attr:`Analysis.cap`) applies to a round's coin win (paid spin, its free
spins and the wheel's coin prizes); jackpots are paid from their pools outside it. The RTP it
removes is exact for a game without free spins and read off the numerical round distribution
otherwise.

:attr:`Analysis.rtp` is then the total (float when any part is numerical), and
:attr:`Analysis.components` add up to it.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction
from functools import cached_property
from typing import Any

from slotmath.evaluate.window import PayModel
from slotmath.exact.cycle import line_trigger_table, spin_table
from slotmath.exact.direct import DirectResult, direct_method
from slotmath.exact.distribution import FloatDistribution, WinDistribution
from slotmath.exact.spin_table import LineTriggerTable, SpinTable
from slotmath.markov.jackpot import JackpotPool, PoolAnalysis, analyze_pool
from slotmath.markov.round import RoundAnalysis
from slotmath.model.game import Game
from slotmath.stats import par

POOL_TAIL = 1e-12  # pools beyond each one's 1 - POOL_TAIL quantile are too rare to matter
CHANCES_TAIL = 1e-13  # mass of the wheel-spins-per-round law cut off its upper tail
CONFIDENCE_SPINS = (10**3, 10**4, 10**5, 10**6, 10**7, 10**8)


def fraction_text(value) -> str:
    """An exact number as "p/q" (like ``str(Fraction)``); sympy numbers as their text."""
    if isinstance(value, Fraction):
        return str(value)
    if isinstance(value, int):
        return str(value)
    return str(value)


def _wheel_sums(wheel, credits: tuple[int, ...], multiplier: int, k_max: int) -> list[dict]:
    """Exact weights of the total prize of k wheel spins, k = 0..k_max (total W^k each)."""
    one: dict[int, int] = {}
    for c, w in zip(credits, wheel.weights):
        if w:
            one[c * multiplier] = one.get(c * multiplier, 0) + w
    sums = [{0: 1}]
    for _ in range(k_max):
        nxt: dict[int, int] = {}
        for a, wa in sums[-1].items():
            for b, wb in one.items():
                nxt[a + b] = nxt.get(a + b, 0) + wa * wb
        sums.append(nxt)
    return sums


def fold_wheel(table: LineTriggerTable, wheel, credits: tuple[int, ...], window_multiplier: int,
               wheel_multiplier: int) -> SpinTable:
    """A spin table of everything one spin pays, bonus wheel included, exactly.

    The window's credits are multiplied by ``window_multiplier`` (the free-spin multiplier),
    the wheel's by ``wheel_multiplier``; each spin plays ``wheel.spins_for(lines)`` wheel
    spins, independent of the window. Weights are kept whole by giving every outcome the
    same denominator: cycle x (wheel total)^(most wheel spins in one spin).

    Examples
    --------
    >>> from fractions import Fraction
    >>> from slotmath.model.game import BonusWheel
    >>> wheel = BonusWheel("B", 3, "once", (Fraction(1), Fraction(3)), (1, 1))
    >>> t = LineTriggerTable({(0, 0, 0): 3, (0, 1, 0): 1}, 4, 1)
    >>> folded = fold_wheel(t, wheel, (1, 3), 1, 1)
    >>> dict(folded.weights), folded.mean_bets
    ({(0, 0): 6, (0, 1): 1, (0, 3): 1}, Fraction(1, 2))
    """
    k_max = max((wheel.spins_for(b) for (_, b, _) in table.weights), default=0)
    total = sum(wheel.weights)
    sums = _wheel_sums(wheel, credits, wheel_multiplier, k_max)
    out: dict[tuple[int, int], int] = {}
    for (t, b, c), w in table.weights.items():
        k = wheel.spins_for(b)
        scale = w * total ** (k_max - k)
        for x, wx in sums[k].items():
            key = (t, c * window_multiplier + x)
            out[key] = out.get(key, 0) + scale * wx
    return SpinTable(out, table.cycle * total**k_max, table.credits_per_bet, table.trigger_cap)


@dataclass(frozen=True)
class FreeSpinsSummary:
    """Exact free-spin figures: per paid round and per triggered feature."""

    trigger_probability: Fraction
    expected_spins: Fraction  # per triggered feature
    expected_win: Fraction  # per triggered feature, in total bets
    rtp: Fraction  # contribution per paid round, in total bets
    spins_distribution: Any  # markov.free_spins.SpinCountDistribution


@dataclass(frozen=True, eq=False)
class JackpotFigures:
    """The progressive jackpots of a game at one bet level (see the module notes).

    Attributes
    ----------
    bet_value : Fraction
        Currency bet per paid round.
    coin_prize : Fraction
        What a wheel spin pays when it stops on a coin division, in total bets.
    mean_chances : Fraction
        Exact expected wheel spins per paid round (base game and free spins).
    chances : dict k -> float
        ``P(K = k)``: wheel spins per paid round, from the free-spins chain (float64).
    chances_error : float
        Probability mass cut or moved by the float computation of ``chances``, plus
        ``|sum k P(K=k) - mean_chances|``.
    pools : dict name -> PoolAnalysis
        Each pool's stationary analysis (seeds, values, cycles, RTP).
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
        return sum(p.rtp_contribution for p in self.pools.values())

    @property
    def hits_per_round(self) -> float:
        """Expected jackpot hits (all pools) per paid round."""
        return sum(p.hits_per_round for p in self.pools.values())

    @property
    def coin_loss(self) -> float:
        """Coin prizes not paid because the wheel stopped on a jackpot, per paid round, in
        total bets."""
        return float(self.coin_prize) * self.hits_per_round

    @property
    def coin_probability(self) -> float:
        """Stationary probability that a wheel spin stops on a coin division."""
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

    def summary(self) -> dict[str, dict]:
        """Per pool: the figures a PAR sheet shows (plain floats)."""
        out = {}
        for name, p in self.pools.items():
            out[name] = {
                "seed": float(p.pool.seed),
                "contribution": float(p.pool.contribution),
                "reserve_fraction": float(p.pool.reserve_fraction),
                "law": repr(p.pool.law),
                "rtp": p.rtp_contribution,
                "rtp_error": p.error_bounds["rtp_contribution"],
                "contribution_rtp": float(p.contribution_rtp),
                "seed_rtp": p.seed_rtp,
                "one_in_rounds": p.mean_rounds_between_hits,
                # the same "1 in N", in paid spins (a paid spin and its free spins are a round)
                "one_in_spins": p.mean_rounds_between_hits,
                "hits_per_round": p.hits_per_round,
                "hit_probability_per_wheel_spin": p.expected_hit_probability_per_spin,
                "mean_value_at_hit": p.hit_value_mean,
                "mean_value_at_hit_bets": p.hit_value_mean / float(self.bet_value),
                "mean_pool": p.mean_pool,
                "mean_restart_value": p.mean_restart_value,
            }
        return out


@dataclass(frozen=True)
class CapFigures:
    """The max-win cap of a round's coin win and what it removes.

    ``effect`` is the RTP removed (total bets per paid round), ``probability`` the chance
    that a round's coin win reaches the cap (with jackpots: with every wheel spin paying
    coins, an upper bound); ``exact`` tells whether both are exact fractions; ``error`` bounds
    ``effect``: float roundoff of the round distribution and, with jackpots, the bracket
    between the effect with every wheel spin paying coins and with none paying coins
    (jackpot hits replace coin prizes; the estimate interpolates at the stationary chance of
    a coin division). ``resolution`` is the numerical round distribution's noise floor: the
    probability of any one win amount below it is dropped, so a cap that only such amounts
    reach shows an effect of 0 (not bounded by ``error``).
    """

    cap_coins: Fraction
    cap_bets: Fraction
    effect: Fraction | float
    probability: Fraction | float
    exact: bool
    error: float
    resolution: float = 0.0  # numerical: probabilities per amount below this are not resolved


@dataclass(frozen=True, eq=False)
class Analysis:
    """Exact analysis of ``game`` at bet ``level`` (lazy: each figure is computed on first use).

    Examples
    --------
    >>> import slotmath
    >>> a = slotmath.analyze(slotmath.load_game("data/games/tiny_lines.toml"))
    >>> a.base_table.mean_bets == a.components["lines"] + a.components["scatter"]
    True
    """

    game: Game
    level: int = 1

    @cached_property
    def model(self) -> PayModel:
        return PayModel(self.game, self.level)

    @cached_property
    def base_table(self) -> SpinTable:
        """Exact (trigger count, credits) weights of the paid spin."""
        return spin_table(self.game, "base", self.level, self.model)

    @cached_property
    def free_table(self) -> SpinTable | None:
        """Exact weights of one free spin (before the multiplier), or None."""
        fs = self.game.free_spins
        if fs is None:
            return None
        return spin_table(self.game, fs.reels, self.level, self.model)

    @cached_property
    def direct(self) -> DirectResult:
        return direct_method(self.game, "base", self.level, self.model)

    @cached_property
    def _trigger_tables(self) -> dict[str, LineTriggerTable]:
        return {}

    def _trigger_table(self, reel_set: str) -> LineTriggerTable:
        """Exact (trigger count, bonus lines, credits) weights of one spin on ``reel_set``,
        computed once (the wheel spins, the round and the jackpots' chances all read it)."""
        tables = self._trigger_tables
        if reel_set not in tables:
            wheel = self.game.bonus_wheel
            cap = 1 if wheel.per_spin == "once" else None
            tables[reel_set] = line_trigger_table(self.game, wheel.symbol, wheel.count, reel_set,
                                                  self.level, cap=cap, model=self.model)
        return tables[reel_set]

    @cached_property
    def wheel_spins(self) -> dict[str, Fraction]:
        """Exact expected bonus-wheel spins per spin, on the base and the free-spin reels."""
        wheel = self.game.bonus_wheel
        if wheel is None:
            return {}
        out = {}
        sets = {"base": "base"}
        if self.game.free_spins is not None:
            sets["free_spins"] = self.game.free_spins.reels
        for label, name in sets.items():
            t = self._trigger_table(name)
            spins = sum(w * wheel.spins_for(b) for (_, b, _), w in t.weights.items())
            out[label] = Fraction(spins, t.cycle)
        return out

    @cached_property
    def round_tables(self) -> tuple[SpinTable, SpinTable | None]:
        """The paid spin and one free spin as the round sees them: bonus-wheel wins folded in,
        free-spin credits already multiplied (only where the rules multiply them)."""
        if self.game.bonus_wheel is None:
            return self.base_table, self.free_table
        return self._folded(self.model.wheel_credits)

    def _folded(self, credits: tuple[int, ...]) -> tuple[SpinTable, SpinTable | None]:
        """:attr:`round_tables` with the wheel's divisions paying ``credits``."""
        fs, wheel = self.game.free_spins, self.game.bonus_wheel
        base = fold_wheel(self._trigger_table("base"), wheel, credits, 1, 1)
        if fs is None:
            return base, None
        m = fs.multiplier
        free = fold_wheel(self._trigger_table(fs.reels), wheel, credits, m,
                          m if wheel.multiplied else 1)
        return base, free

    @cached_property
    def round(self) -> RoundAnalysis:
        return self._round_of(self.round_tables)

    def _round_of(self, tables: tuple[SpinTable, SpinTable | None]) -> RoundAnalysis:
        fs = self.game.free_spins
        if fs is not None and self.game.bonus_wheel is not None:
            fs = replace(fs, multiplier=1)  # the folded free-spin table is already multiplied
        return RoundAnalysis(*tables, fs)

    # -- headline figures -----------------------------------------------------------------
    @property
    def exact(self) -> bool:
        """Whether :attr:`rtp` and every component are exact fractions."""
        return not self.game.jackpots and (self.cap is None or self.cap.exact)

    @cached_property
    def rtp(self) -> Fraction | float:
        """RTP of a paid round (feature, jackpots and cap included), in total bets: an exact
        Fraction unless jackpots or a cap on a free-spins game make it numerical (see
        :attr:`rtp_error`)."""
        if self.exact:
            return sum(self.components.values(), Fraction(0))
        return float(sum(float(v) for v in self.components.values()))

    @property
    def rtp_float(self) -> float:
        return float(self.rtp)

    @property
    def rtp_error(self) -> float:
        """Absolute error bound of :attr:`rtp` (0 when exact)."""
        if self.exact:
            return 0.0
        error = self.jackpots.error if self.jackpots is not None else 0.0
        if self.cap is not None:
            error += self.cap.error
        return error + 1e-15 * len(self.components)

    @cached_property
    def jackpots(self) -> JackpotFigures | None:
        """The progressive jackpots' figures at this level (None without jackpots)."""
        game = self.game
        if not game.jackpots:
            return None
        chances, mean, error = self._wheel_chances()
        bet = game.bet_value(self.level)
        pools = {}
        for spec in game.jackpots:
            pool = JackpotPool.from_spec(spec, self.level)
            pools[spec.name] = analyze_pool(pool, bet, chances)
        # The divisions' probabilities must leave room for the coin divisions wherever the pools
        # go, except in states rarer than POOL_TAIL (where a sum above 1 changes no figure).
        top = sum(float(p.pool.law(p.stationary_pool.quantile(1 - POOL_TAIL)))
                  for p in pools.values())
        if top > 1:
            raise ValueError(
                f"{game.name}: at bet level {self.level} the jackpot divisions' probabilities "
                f"add up to {top:.4g} > 1 at pools reached with probability above {POOL_TAIL:g}:"
                " lower the hit laws or their level factors")
        return JackpotFigures(bet, self.game.bonus_wheel.mean, mean, chances, error, pools)

    def wheel_outcomes(self, pools: dict[str, float] | None = None) -> list[dict]:
        """One bonus-wheel spin as a distribution over its divisions, at this bet level.

        Parameters
        ----------
        pools : dict name -> currency, optional
            The jackpots' current values; each jackpot division's probability is its hit law
            there. Without it: the stationary chance per wheel spin (the mean of the law over
            the pool a wheel spin meets in the long run).

        Returns
        -------
        list of dict
            One per division: ``division`` (label), ``kind`` ("coins" or "jackpot"),
            ``prize`` (total bets; None for a jackpot), ``probability`` (float; an exact
            Fraction for a wheel without jackpots).

        Examples
        --------
        >>> import slotmath
        >>> g = slotmath.load_game("data/games/gold_money_frog.toml")
        >>> rows = slotmath.analyze(g, 4).wheel_outcomes({"MINOR": 100, "MAJOR": 900,
        ...                                                "SUPER": 9000})
        >>> [(r["division"], round(r["probability"], 6)) for r in rows[-3:]]
        [('MINOR', 0.079542), ('MAJOR', 0.005727), ('SUPER', 0.000315)]
        >>> round(sum(r["probability"] for r in rows), 12)
        1.0
        """
        wheel = self.game.bonus_wheel
        if wheel is None:
            raise ValueError(f"{self.game.name} has no bonus wheel")
        jackpot_p: dict[str, float] = {}
        for spec in self.game.jackpots:
            if pools is not None:
                if spec.name not in pools:
                    raise ValueError(f"give the value of every jackpot: {spec.name} is missing")
                law = JackpotPool.from_spec(spec, self.level).law
                jackpot_p[spec.name] = float(law(float(pools[spec.name])))
            else:
                jackpot_p[spec.name] = self.jackpots.pools[spec.name].\
                    expected_hit_probability_per_spin
        coins = 1 - sum(jackpot_p.values()) if jackpot_p else Fraction(1)
        if coins < 0:
            raise ValueError(f"the jackpot divisions' probabilities add up to "
                             f"{1 - coins:.4g} > 1 at these pools")
        total = sum(wheel.weights)
        rows = []
        for i, (prize, w) in enumerate(zip(wheel.prizes, wheel.weights)):
            label = wheel.labels[i] if wheel.labels else f"coins {i + 1}"
            p = Fraction(w, total) * coins if not jackpot_p else coins * w / total
            rows.append({"division": label, "kind": "coins", "prize": prize, "probability": p})
        for name, p in jackpot_p.items():
            rows.append({"division": name, "kind": "jackpot", "prize": None, "probability": p})
        return rows

    def _wheel_chances(self) -> tuple[dict[int, float], Fraction, float]:
        """Law of the wheel spins per paid round: the free-spins chain run on tables whose
        "credits" are wheel spins."""
        wheel, fs = self.game.bonus_wheel, self.game.free_spins

        def counts(reel_set: str) -> SpinTable:
            t = self._trigger_table(reel_set)
            out: dict[tuple[int, int], int] = {}
            for (trig, lines, _), w in t.weights.items():
                key = (trig, wheel.spins_for(lines))
                out[key] = out.get(key, 0) + w
            return SpinTable(out, t.cycle, 1, t.trigger_cap)

        if fs is None:
            r = RoundAnalysis(counts("base"))
        else:
            r = RoundAnalysis(counts("base"), counts(fs.reels), replace(fs, multiplier=1))
        mean = r.rtp  # exact expected wheel spins per round
        d = r.win_distribution()
        probs = {int(k): float(p) for k, p in zip(d.credits.tolist(), d.probs.tolist()) if p > 0}
        # The far tail (rounds with very many wheel spins, below CHANCES_TAIL in all) is cut:
        # it cannot move a pool figure measurably, and each extra k costs a lattice row.
        tail, cut = 0.0, 0.0
        for k in sorted(probs, reverse=True)[:-1]:
            if tail + probs[k] > CHANCES_TAIL:
                break
            tail += probs[k]
            cut += probs.pop(k)
        total = sum(probs.values())
        probs = {k: p / total for k, p in probs.items()}
        moved = abs(total + cut - 1) + cut + d.aliased_mass_bound + d.dropped_mass
        error = moved + abs(sum(k * p for k, p in probs.items()) - float(mean))
        return probs, mean, error

    @cached_property
    def cap(self) -> CapFigures | None:
        """The max-win cap's figures at this level (None without a cap)."""
        cap = self.game.cap_coins(self.level)
        if cap is None:
            return None
        cap_bets = cap / self.game.total_bet(self.level)
        if self.game.free_spins is None:
            effect, reach = self._exact_cap(self.base_distribution, cap_bets)
            if not self.game.jackpots:
                return CapFigures(cap, cap_bets, effect, reach, True, 0.0)
        else:
            effect, reach, error = self._numeric_cap(self._numeric_round, cap_bets)
            if not self.game.jackpots:
                return CapFigures(cap, cap_bets, effect, reach, False, error,
                                  self._numeric_round.noise_floor)
        # Jackpot hits replace coin prizes: the true effect lies between the effect with every
        # wheel spin paying coins (above) and with none paying coins (the cap's effect only
        # grows with the round's win).
        no_coins = self._folded((0,) * len(self.game.bonus_wheel.prizes))
        if self.game.free_spins is None:
            base = no_coins[0]
            low, _ = self._exact_cap(
                WinDistribution.from_mapping(base.credits_weights(), base.credits_per_bet),
                cap_bets)
            error = 0.0
        else:
            low, _, low_error = self._numeric_cap(self._round_of(no_coins).win_distribution(),
                                                  cap_bets)
            error = max(error, low_error)
        # Interpolated at the stationary chance that a wheel spin pays coins; both the estimate
        # and the true effect lie in [low, effect], which bounds the error.
        q = self.jackpots.coin_probability
        width = float(effect) - float(low)
        resolution = 0.0 if self.game.free_spins is None else self._numeric_round.noise_floor
        return CapFigures(cap, cap_bets, float(low) + q * width, float(reach), False,
                          error + width * max(q, 1 - q), resolution)

    @staticmethod
    def _exact_cap(d: WinDistribution, cap_bets: Fraction) -> tuple[Fraction, Fraction]:
        """(effect, P(reach)) of a cap on an exact distribution, as Fractions."""
        limit = cap_bets * d.credits_per_bet
        over = d.credits > limit
        excess = sum((Fraction(int(c)) - limit) * int(w)
                     for c, w in zip(d.credits[over], d.weights[over]))
        reach = Fraction(int(d.weights[d.credits >= limit].sum()), d.total)
        return excess / (d.total * d.credits_per_bet), reach

    @staticmethod
    def _numeric_cap(n, cap_bets: Fraction) -> tuple[float, float, float]:
        """(effect, P(reach), error) of a cap on a numerical round distribution."""
        limit = float(cap_bets) * n.credits_per_bet
        over = n.credits > limit
        effect = float((n.credits[over] - limit) @ n.probs[over]) / n.credits_per_bet
        reach = float(n.probs[n.credits >= limit].sum())
        top = float(n.credits[-1]) / n.credits_per_bet if len(n.credits) else 0.0
        error = (n.aliased_mass_bound + n.dropped_mass) * max(top - float(cap_bets), 0.0)
        return effect, reach, error + 1e-15

    @cached_property
    def components(self) -> dict[str, Fraction | float]:
        """RTP by source: "lines" or "ways", "scatter" (base game), "free_spins", and
        "bonus_wheel" for a game with one (wheel wins in the base game and in free spins;
        "free_spins" is then the rest of the feature). With jackpots, "bonus_wheel" is the
        coin divisions' part (net of the spins that hit a jackpot) and "jackpots" the pools'
        payout; with a cap, "max_win_cap" is minus the RTP it removes."""
        out = self._coin_components
        if self.jackpots is not None:
            out["bonus_wheel"] = float(out["bonus_wheel"]) - self.jackpots.coin_loss
            out["jackpots"] = self.jackpots.rtp
        if self.cap is not None:
            out["max_win_cap"] = 0 - self.cap.effect  # (0 - x: no "-0.0" for a float 0)
        return out

    @property
    def _coin_components(self) -> dict[str, Fraction]:
        out = dict(self.direct.components)
        feature = self.round.feature_rtp
        wheel = self.game.bonus_wheel
        if wheel is not None:
            spins = self.wheel_spins
            base_part = spins["base"] * wheel.mean
            free_part = Fraction(0)
            if "free_spins" in spins:
                fs = self.game.free_spins
                per_round = self.round.trigger_probability * (
                    self.round.expected_spins_per_feature if self.round.trigger_probability else 0)
                free_part = per_round * spins["free_spins"] * wheel.mean * (
                    fs.multiplier if wheel.multiplied else 1)
            out["free_spins"] = feature - free_part
            out["bonus_wheel"] = base_part + free_part
        else:
            out["free_spins"] = feature
        return out

    @property
    def hit_frequency(self):
        """Exact P(a paid round wins anything), feature included."""
        return self.round.hit_frequency

    @property
    def base_hit_frequency(self) -> Fraction:
        """Exact P(the paid spin itself pays), its bonus wheel included."""
        base = self.round_tables[0]
        return Fraction(base.hit_weight, base.cycle)

    @property
    def variance(self) -> Fraction:
        """Exact variance of the round win, in total bets squared."""
        return self.round.variance

    @property
    def std(self) -> float:
        """SD of the round win in total bets (with jackpots: of the coin round)."""
        return self.round.std

    @cached_property
    def std_total(self) -> float:
        """SD of the round's whole return in total bets, jackpots included.

        Without jackpots this is :attr:`std`. With them it is approximate:
        ``Var(coin round) + sum_j h_j E[V_j^2] / B^2 - (jackpot RTP)^2``, with ``h_j`` hits per
        round and ``V_j`` the value at a hit: it leaves out the covariance of the coin win with
        the jackpot payout (a hit round has a wheel spin, so it is positive but small next to
        the jackpot's own spread) and rounds that hit two jackpots.
        """
        j = self.jackpots
        if j is None:
            return self.std
        bet = float(j.bet_value)
        second = 0.0
        for pool in j.pools.values():
            v = pool.hit_value_distribution
            second += pool.hits_per_round * float(v.values**2 @ v.probabilities) / bet**2
        return (float(self.variance) + second - j.rtp**2) ** 0.5

    def volatility_index(self, confidence: float = 0.90) -> float:
        """Normal quantile x SD of the round's whole return (jackpots included)."""
        return par.normal_quantile(confidence) * self.std_total

    @cached_property
    def base_distribution(self) -> WinDistribution:
        """Exact distribution of the paid spin's own win (lines or ways, scatter, and the
        bonus wheel it may trigger)."""
        base = self.round_tables[0]
        return WinDistribution.from_mapping(base.credits_weights(), base.credits_per_bet)

    @cached_property
    def _numeric_round(self):
        return self.round.win_distribution()

    @cached_property
    def distribution(self) -> WinDistribution | FloatDistribution:
        """The round's win distribution: exact without free spins, float64 with them."""
        if self.game.free_spins is None:
            return self.base_distribution
        numeric = self._numeric_round
        return FloatDistribution(numeric.credits, numeric.probs, numeric.credits_per_bet)

    @cached_property
    def distribution_error(self) -> dict:
        """How the round distribution was computed and its error bounds (probability mass)."""
        if self.game.free_spins is None:
            return {"method": "exact full-cycle enumeration", "exact": True}
        n = self._numeric_round
        return {
            "method": "FFT over the free-spins chain, convolved with the exact base spin",
            "exact": False,
            "aliased_mass_bound": n.aliased_mass_bound,
            "dropped_mass": n.dropped_mass,
            "noise_floor": n.noise_floor,
            "mean_error": abs(n.mean_bets - float(self.round.rtp)),  # its own exact mean
        }

    @cached_property
    def free_spins(self) -> FreeSpinsSummary | None:
        if self.game.free_spins is None:
            return None
        r = self.round
        triggered = r.trigger_probability > 0
        return FreeSpinsSummary(
            trigger_probability=r.trigger_probability,
            expected_spins=r.expected_spins_per_feature if triggered else Fraction(0),
            expected_win=r.expected_win_per_feature if triggered else Fraction(0),
            rtp=r.feature_rtp,
            spins_distribution=r.spins_distribution() if triggered else None,
        )

    @cached_property
    def max_win(self) -> par.MaxWin:
        """The top award of the paid spin (exact), as a multiple of the bet and "1 in N".

        With free spins the round's own maximum is unbounded in principle (retriggers) or
        astronomically rare; the PAR convention of the top single-spin award is used.
        """
        return par.max_win(self.base_distribution)

    @cached_property
    def win_sizes(self) -> tuple[par.WinSizeRow, ...]:
        return par.win_size_table(self.distribution)

    def confidence_interval(self, spins: int, confidence: float = 0.95) -> tuple[float, float]:
        """Where the RTP measured over ``spins`` rounds lies with probability ``confidence``
        (normal approximation with :attr:`std_total`; with jackpots, rounds are not independent
        and these are a guide only)."""
        half = par.normal_quantile(confidence) * self.std_total / spins**0.5
        return self.rtp_float - half, self.rtp_float + half

    # -- PAR tables (pandas) --------------------------------------------------------------
    @property
    def symbol_table(self):
        from slotmath.report.tables import symbol_table

        return symbol_table(self)

    @property
    def scatter_table(self):
        from slotmath.report.tables import scatter_table

        return scatter_table(self)

    @property
    def win_size_table(self):
        from slotmath.report.tables import win_size_frame

        return win_size_frame(self)

    @property
    def confidence_table(self):
        from slotmath.report.tables import confidence_frame

        return confidence_frame(self)

    @property
    def summary_table(self):
        from slotmath.report.tables import summary_frame

        return summary_frame(self)

    def to_dict(self) -> dict:
        """The JSON document of ``slotmath analyze --json``."""
        from slotmath.report.json_report import analysis_dict

        return analysis_dict(self)

    def to_text(self) -> str:
        """The PAR sheet as text."""
        from slotmath.report.text import par_sheet_text

        return par_sheet_text(self)


def analyze(game: Game, level: int = 1) -> Analysis:
    """Exact analysis of a game at one bet level.

    Parameters
    ----------
    game : Game
    level : int
        Bet level (one of ``game.bet_levels``).

    Examples
    --------
    >>> import slotmath
    >>> a = slotmath.analyze(slotmath.load_game("data/games/tiny_lines.toml"))
    >>> a.rtp == a.components["lines"] + a.components["scatter"] + a.components["free_spins"]
    True
    """
    if level not in game.bet_levels:
        raise ValueError(f"bet level {level} is not one of the game's levels {list(game.bet_levels)}")
    return Analysis(game, level)
