"""Grid games (Megaways, pay anywhere, clusters) as features: what their declarations share.

A grid game's round is played by one feature of kind ``owner`` (its pay kind:
:mod:`~slotmath.features.megaways`, :mod:`~slotmath.features.anywhere`,
:mod:`~slotmath.features.cluster`), which builds a :class:`GridGame`; tumbles and multiplier
symbols are features of kind ``part`` (:mod:`~slotmath.features.tumbles`,
:mod:`~slotmath.features.multiplier_symbols`) whose figures are read off the owner's. The
owner plays the game's free spins and applies its max-win cap itself (``replaces``).

How a grid game is analysed: first an estimate, then one method
----------------------------------------------------------------
:func:`plan` estimates, before anything is allocated, what each exact engine would take
(elementary steps, states, seconds at a measured rate) and chooses by the game's
:class:`~slotmath.model.grid.AnalysisSettings` (``[analysis]``, or the command line):

* ``"enumeration"``: every (stop, height, top stop) combination, each tumble sequence played
  to its end (:mod:`slotmath.exact.grid_enumerate`; strip refill or no tumbles), on the paid
  reels and the free reels: the whole round exact (free spins through the exact free-spins
  chain, :class:`~slotmath.features.compose.RoundLaw`);
* ``"random chain"``: the same with random refill, the chain of windows memoised
  (:mod:`slotmath.exact.grid_random`);
* ``"ways programme"`` / ``"count laws"``: without tumbles, the paid spin of a ways (Megaways)
  or pay-anywhere game from per-reel sums (:mod:`slotmath.exact.grid_ways`,
  :mod:`slotmath.exact.grid_anywhere`): RTP, components, pay table exact (the second moment and
  the hit frequency too without free spins); what needs the round's whole law (win sizes, top
  award) is simulated beside them, and said so;
* ``"simulation"``: the simulated PAR sheet (:mod:`slotmath.simulate.grid`), every figure an
  :class:`~slotmath.stats.estimate.Estimate` with its 95 % interval.

A multiplier carried over free spins (``tumbles.carry_multiplier``, ``multipliers.carry``)
has no bound, so no exact engine applies. ``method = "auto"`` takes the first of these whose
estimate is within ``exact_limit``, else the simulation; ``"exact"`` refuses past the limit,
in one line giving the estimate (:class:`ExactRefused`); ``"simulate"`` simulates.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from fractions import Fraction
from functools import cached_property

import numpy as np

from slotmath.evaluate.grid import GridModel
from slotmath.exact.distribution import WinDistribution
from slotmath.exact.spin_table import MarkedTable, SpinTable
from slotmath.features.compose import RoundLaw
from slotmath.features.free_spins import FreeSpinsRound
from slotmath.features.pays import PayRow, ScatterRow, Window, awards_of
from slotmath.model.game import Game
from slotmath.model.grid import AnalysisSettings
from slotmath.stats import par
from slotmath.stats.estimate import Estimate

__all__ = ["RATES", "ExactRefused", "GridFigures", "GridGame", "Plan", "component_names",
           "owner_of", "plan"]

#: elementary steps per second of each exact engine on one core (measured:
#: benchmarks/bench_grid.py), for the time the estimate states
RATES = {"enumeration": 2.0e6, "random chain": 2.0e4, "ways programme": 2.0e6,
         "count laws": 2.0e6}
#: the engines that give the whole round's law
FULL = ("enumeration", "random chain")
#: the name of the first drop's RTP component, by pay kind
KIND_COMPONENT = {"ways": "ways", "anywhere": "anywhere", "cluster": "cluster"}


class ExactRefused(ValueError):
    """Exact analysis would go past the limit (or cannot be exact): one line with the
    estimate and what to do instead."""


@dataclass(frozen=True)
class Option:
    """One exact engine for a game: its estimated steps and states, and whether it gives the
    whole round (``full``) or the paid spin's figures beside a simulation."""

    engine: str
    steps: int
    states: int
    full: bool

    @property
    def seconds(self) -> float:
        import os

        return self.steps / (RATES[self.engine] * (os.cpu_count() or 1
                                                   if self.engine == "enumeration" else 1))


@dataclass(frozen=True)
class Plan:
    """How a grid game is analysed (see the module notes).

    ``method``: ``"exact"``, ``"exact paid spin"`` (exact figures of the paid spin beside a
    simulation of the rest) or ``"simulated"``; ``engine``: the exact engine (or None);
    ``options``: every exact engine considered, with its estimate; ``why``: why the
    simulation was chosen (empty when exact); ``settings``: the settings used.
    """

    method: str
    engine: str | None
    options: tuple[Option, ...]
    why: str
    settings: AnalysisSettings
    blocked: str = ""  # why no exact engine applies at all (a carried multiplier), or ""

    @property
    def estimate(self) -> Option | None:
        """The smallest whole-round estimate (None: no exact engine applies)."""
        full = [o for o in self.options if o.full]
        return min(full, key=lambda o: o.steps) if full else None

    def text(self) -> str:
        """One line: the method and the estimate behind it."""
        if self.method == "exact":
            o = next(o for o in self.options if o.engine == self.engine)
            return (f"exact ({self.engine}: ~{o.steps:.3g} steps, ~{o.seconds:.3g} s "
                    f"estimated; limit {self.settings.exact_limit:.3g})")
        if self.method == "exact paid spin":
            return (f"exact paid spin ({self.engine}) and a simulation of the round's law: "
                    f"{self.why}")
        return f"simulated: {self.why}"


def _sets(game: Game) -> tuple[str, ...]:
    fs = game.free_spins
    return ("base",) if fs is None or fs.reels == "base" else ("base", fs.reels)


def _carried(game: Game) -> str:
    t, m = game.tumbles, game.multipliers
    if game.free_spins is None:
        return ""
    if t is not None and t.carry_multiplier:
        return ("the drop multiplier carries over free spins without a bound (its state "
                "space is infinite)")
    if m is not None and m.carry:
        return ("the multiplier symbols' total accumulates over free spins without a bound "
                "(its state space is infinite)")
    return ""


def plan(game: Game, settings: AnalysisSettings | None = None) -> Plan:
    """The analysis of ``game``: the exact engines that apply, their estimates, and the
    method the settings choose (see the module notes). Nothing is allocated.

    Examples
    --------
    >>> import slotmath
    >>> p = plan(slotmath.load_game("tests/data/grid/anywhere_tiny.toml"))
    >>> p.method, p.engine, p.options[0].steps
    ('exact', 'enumeration', 64)
    """
    from slotmath.exact import grid_enumerate, grid_random, grid_ways
    from slotmath.exact.grid_anywhere import joint_states

    s = settings or game.analysis or AnalysisSettings()
    t = game.tumbles
    blocked = _carried(game)
    options: list[Option] = []
    if not blocked:
        if t is not None and t.refill == "random":
            steps = sum(grid_random.estimate_steps(game, r) for r in _sets(game))
            options.append(Option("random chain", steps, steps, True))
        else:
            combos = sum(grid_enumerate.combinations(game, r) for r in _sets(game))
            drops = 1 if t is None else 3  # a tumble sequence: the first drop and ~2 more
            options.append(Option("enumeration", combos * drops, combos, True))
    if t is None and game.grid.pays == "ways" and game.multipliers is None and not blocked:
        steps = sum(grid_ways.steps(game, r) for r in _sets(game))
        options.append(Option("ways programme", steps, steps, False))
    if t is None and game.grid.pays == "anywhere" and not blocked:
        model = GridModel(game)
        outcomes = sum(len(r) for r in game.base.reels)
        units = sum(1 for i in range(len(model.names)) if model.pay[i].any()
                    or model.scatter_pay[i].any())
        steps = outcomes * (units * units + 2**min(units, 12)) * (model.window + 1)
        states = joint_states(game, model)
        full = states <= s.exact_limit and game.free_spins is None
        options.append(Option("count laws", steps + (states * outcomes if full else 0),
                              states, full))
    limit = s.exact_limit
    fits = [o for o in options if o.steps <= limit]
    if s.method == "simulate":
        return Plan("simulated", None, tuple(options), "method = \"simulate\"", s, blocked)
    full = [o for o in fits if o.full]
    if full:
        return Plan("exact", full[0].engine, tuple(options), "", s, blocked)
    best = min((o for o in options if o.full), key=lambda o: o.steps, default=None)
    if best is None:
        why = blocked or "no exact engine applies"
    else:
        why = (f"exact analysis ({best.engine}) needs ~{best.steps:.3g} steps "
               f"({best.states:.3g} states, ~{_duration(best.seconds)}), over the limit of "
               f"{limit:.3g}")
    if s.method == "exact":
        more = ("" if best is None else
                "raise [analysis] exact_limit (--exact-limit N) or ")
        raise ExactRefused(
            f"{game.name}: no exact analysis: {why}: {more}run the simulated PAR sheet "
            "instead: method = \"simulate\" (--method simulate, with --accuracy X or "
            "--rounds N)")
    partial = [o for o in fits if not o.full]
    if partial:
        return Plan("exact paid spin", partial[0].engine, tuple(options), why, s, blocked)
    return Plan("simulated", None, tuple(options), why, s, blocked)


def _duration(seconds: float) -> str:
    if seconds < 120:
        return f"{seconds:.3g} s"
    if seconds < 2 * 3600:
        return f"{seconds / 60:.3g} min"
    if seconds < 2 * 86400:
        return f"{seconds / 3600:.3g} h"
    if seconds < 2 * 3.15e7:
        return f"{seconds / 86400:.3g} days"
    return f"{seconds / 3.15e7:.3g} years"


def component_names(game: Game) -> tuple[str, ...]:
    """The RTP components of a grid round, in order: the first drop (by pay kind), the
    scatters (when a scatter symbol exists), then each mechanic the game has (multiplier
    symbols when the paid spin can show them: on a paid reel or in a paid refill table; where
    they land only in free spins, their share is in ``free_spins``)."""
    out = [KIND_COMPONENT[game.grid.pays]]
    if any(sym.scatter for sym in game.symbols.values()):
        out.append("scatter")
    if game.tumbles is not None:
        out.append("tumbles")
    if game.multipliers is not None and _paid_spin_shows(game, game.multipliers.symbol):
        out.append("multiplier_symbols")
    if game.free_spins is not None:
        out.append("free_spins")
    if game.max_win is not None:
        out.append("max_win_cap")
    return tuple(out)


def _paid_spin_shows(game: Game, symbol: str) -> bool:
    """Whether ``symbol`` can appear in a paid spin: on a base reel, or drawn by a base
    random-refill table."""
    if any(symbol in reel.symbols for reel in game.reel_sets["base"].reels):
        return True
    t = game.tumbles
    tables = (t.refill_weights or {}).get("base", ()) if t is not None else ()
    return any(table.get(symbol, 0) > 0 for table in tables)


class _GridFreeSpins(FreeSpinsRound):
    """Free spins whose initial award is ``awards`` and whose retriggers are
    ``retrigger_awards`` (the chain reads ``award_for`` for retriggers)."""

    def __init__(self, spec, free, reels, initial):
        super().__init__(spec, free, reels)
        object.__setattr__(self, "_initial", initial)

    def start(self, trigger_count: int) -> int | None:
        n = self._initial.award_for(trigger_count)
        if self._initial.max_spins is not None:
            n = min(n, self._initial.max_spins)
        return n or None


def _trigger_cap(game: Game) -> int | None:
    fs = game.free_spins
    if fs is None:
        return 0
    keys = set(fs.awards) | set(fs.retrigger_awards or {})
    return max(keys)


@dataclass(eq=False)
class GridFigures:
    """A grid game's figures at one bet level: what ``analysis.features[name]`` gives and
    what the analysis reads for the round (see :class:`slotmath.analysis.Analysis`).

    Exact figures are Fractions; simulated ones :class:`~slotmath.stats.estimate.Estimate`
    (a float with its interval); ``method`` says which way each group was computed.
    """

    game: Game
    level: int
    plan: Plan
    rtp: object
    components: dict
    hit_frequency: object
    base_hit_frequency: object
    variance: object
    top_award: par.TopAward
    win_sizes: tuple
    window: Window
    round_exact: bool
    distribution: object = None
    base_table: MarkedTable | None = None
    simulation: object = None  # GridSimulation
    laws: dict = field(default_factory=dict)  # per reel set: the exact spin law
    checks: tuple = ()  # (figure, exact, simulated Estimate)
    free_spins: dict = field(default_factory=dict)  # the free-spin figures
    round_law: RoundLaw | None = None
    rtp_error: float = 0.0  # a numerical (not simulated) RTP's error bound

    def __post_init__(self):
        # a component the game cannot have (scatters without a scatter symbol, multiplier
        # symbols that land only in free spins) is left out when it is 0: listed, it read as
        # a mechanic that returns nothing; one that is not 0 stays (no money is hidden)
        names = component_names(self.game)
        kept = {k: v for k, v in self.components.items() if k in names or float(v) != 0}
        if len(kept) != len(self.components):
            object.__setattr__(self, "components", kept)

    @property
    def error(self) -> float:
        """The RTP's error: 0 when exact; a simulated RTP's 95 % half-width; a numerical
        one's bound (the cap read off the round's FFT law: :func:`capped_rtp_error`)."""
        return self.rtp.half_width() if isinstance(self.rtp, Estimate) else self.rtp_error

    @property
    def exact(self) -> bool:
        return self.round_exact

    @property
    def std(self):
        v = self.variance
        if isinstance(v, Estimate):
            sd = math.sqrt(float(v))
            return Estimate(sd, v.std_error / (2 * sd) if sd else 0.0, v.rounds)
        return math.sqrt(v)

    @property
    def base_distribution(self):
        if self.base_table is None:
            raise NotImplementedError(
                f"{self.game.name}: the paid spin's distribution is not computed "
                f"({self.plan.text()})")
        return WinDistribution.from_mapping(self.base_table.credits_weights(),
                                            self.base_table.credits_per_bet)

    def intervals(self, spins, confidences) -> dict:
        """The RTP measured over N rounds: from the round's law where it is known, else the
        normal approximation with the (simulated) SD."""
        from slotmath.stats.interval import mean_intervals, normal_interval

        if self.distribution is not None:
            return mean_intervals(self.distribution, spins, confidences)
        why = ("the round's law is simulated: normal approximation with the simulated SD "
               f"({self.plan.text()})")
        return {(int(n), float(c)): normal_interval(float(self.rtp), float(self.std), n, c,
                                                    why)
                for n in spins for c in confidences}

    @property
    def no_distribution(self) -> str:
        """Why the round's law is not computed (read when :attr:`distribution` is None)."""
        return (f"{self.game.name}: the round distribution is not computed ({self.plan.text()});"
                " its win sizes are simulated bands")

    @property
    def rounds(self) -> int | None:
        """Simulated rounds behind the simulated figures (None: none simulated)."""
        return None if self.simulation is None else self.simulation.rounds

    @property
    def shown_pays(self) -> frozenset | None:
        """The pay-table entries some outcome of the round shows, as ``("pay", symbol,
        count)`` with ``count`` the listed entry paid (every drop, the paid and the free
        reels), for :mod:`slotmath.report.dead_pays`. Where that is not known exactly (a
        simulated round, or an engine that keeps no per-drop hits), the entries the game's
        structure does not rule out (:func:`possible_entries`): a dead pay is then one no
        window can hold. Scatter entries count as shown where their count fits: the spin
        laws keep the trigger's count, not each scatter's."""

        g = self.game
        possible = possible_entries(g)
        sets = ["base"] + (["free"] if g.free_spins is not None else [])
        if not all(k in self.laws for k in sets):
            return possible
        out = {("scatter", n, c) for n in g.scatters for c in g.symbols[n].pays}
        for key in sets:
            law = self.laws[key]
            for arr in (law.hits, law.later_hits):
                for s, c in zip(*np.nonzero(arr)):
                    name = law.model.names[s]
                    if g.grid.pays == "ways":
                        out.add(("pay", name, int(c)))
                        continue
                    reached = [k for k in g.symbols[name].pays if k <= c]
                    if reached:
                        out.add(("pay", name, max(reached)))
        return frozenset(out) & possible

    def part(self, name: str):
        """The figures of a part feature (``tumbles``, ``multiplier_symbols``)."""
        return PartFigures(self, name)


@dataclass(frozen=True, eq=False)
class PartFigures:
    """A part feature's figures, read off its owner's: its RTP component and laws."""

    owner: GridFigures
    name: str

    @property
    def rtp(self):
        return self.owner.components.get(self.name, Fraction(0))

    @property
    def drops(self) -> dict:
        """Paid spins by the drops that won (exact weights or simulated counts)."""
        law = self.owner.laws.get("base")
        if law is not None and law.drops:
            return {k: Fraction(w, law.cycle) for k, w in law.drops.items()}
        sim = self.owner.simulation
        if sim is None:
            return {}
        return {k: Estimate.proportion(v, sim.rounds) for k, v in sim.drops.items()}


def possible_entries(game: Game) -> frozenset:
    """The listed pay-table entries (``("pay" or "scatter", symbol, count)``) the game's
    structure does not rule out: an entry is out when no window of any reel set the round
    plays (the paid and the free reels, their top reel and random refills) can hold its
    count, counting every cell where the symbol or a wild can land.

    Pay anywhere, clusters and scatters count cells; ways count reels from the left (a ways
    entry of ``count`` needs the symbol or a wild on each of the first ``count`` reels).
    Sound, not complete: an entry it keeps may still never land (the exact engines find
    those where they apply).

    Examples
    --------
    >>> import slotmath
    >>> g = slotmath.load_game("tests/data/grid/anywhere_tiny.toml")
    >>> sorted(e for e in possible_entries(g) if e[1] == "A")
    [('pay', 'A', 3), ('pay', 'A', 5)]
    """
    grid = game.grid
    sets = {"base"} | ({game.free_spins.reels} if game.free_spins is not None else set())
    wilds = {n for n, s in game.symbols.items() if s.wild}
    refill = game.tumbles.refill_weights if game.tumbles is not None else {}
    top = grid.top_reel

    def lands(reel_set: str, reel: int) -> set:
        """The symbols that can show on 0-based ``reel`` (its strip and its random refill)."""
        out = set(game.reel_sets[reel_set].reels[reel].symbols)
        tables = refill.get(reel_set, ())
        if reel < len(tables):
            out |= {n for n, w in tables[reel].items() if w > 0}
        return out

    def top_lands(reel_set: str) -> set:
        if top is None or reel_set not in top.strips:
            return set()
        out = set(top.strips[reel_set].symbols)
        tables = refill.get(reel_set, ())
        if len(tables) > grid.n_reels:
            out |= {n for n, w in tables[grid.n_reels].items() if w > 0}
        return out

    def cells(name: str, reel_set: str) -> int:
        hold = {name} | (wilds if not game.symbols[name].scatter else set())
        n = sum(h for j, h in enumerate(grid.max_rows) if lands(reel_set, j) & hold)
        return n + (top.width if top is not None and top_lands(reel_set) & hold else 0)

    def reels_from_left(name: str, reel_set: str) -> int:
        hold = {name} | wilds
        n = 0
        for j in range(grid.n_reels):
            on_top = top is not None and top.covers(j) and top_lands(reel_set) & hold
            if not (lands(reel_set, j) & hold or on_top):
                break
            n += 1
        return n

    out = set()
    for name, sym in game.symbols.items():
        kind = "scatter" if sym.scatter else "pay"
        for count in sym.pays:
            if sym.scatter or grid.pays != "ways":
                reach = max(cells(name, rs) for rs in sets)
            else:
                reach = max(reels_from_left(name, rs) for rs in sets)
            if count <= reach:
                out.add((kind, name, count))
    return frozenset(out)


# -- the analysis ---------------------------------------------------------------------------
class GridGame:
    """What a grid owner feature builds: the game at one bet level, analysed on demand by
    :meth:`analyze` as :func:`plan` says (the ``stationary``/``owner`` protocol)."""

    driven_by = None
    simulator = "slotmath.simulate.grid:simulate_grid"

    def __init__(self, game: Game, level: int = 1, name: str = "grid"):
        self.game, self.level, self.name = game, level, name

    @cached_property
    def model(self) -> GridModel:
        return GridModel(self.game, self.level)

    @cached_property
    def plan(self) -> Plan:
        return plan(self.game)

    def analyze(self, events_round=None) -> GridFigures:
        p = self.plan
        if p.method == "exact":
            return self._exact()
        if p.method == "exact paid spin":
            return self._paid_spin_exact()
        return self._simulated()

    # -- simulation ---------------------------------------------------------------------
    def _simulate(self):
        from slotmath.simulate.grid import simulate_grid

        s = self.plan.settings
        return simulate_grid(self.game, self.level, rounds=s.rounds,
                             accuracy=float(s.accuracy), seed=s.seed)

    def _exact_first_drop(self):
        """Exact figures of the first drop (a paid spin without tumbles), where an exact
        programme gives them cheaply, for the checks beside a simulation."""
        from slotmath.exact.grid_anywhere import anywhere_law
        from slotmath.exact.grid_ways import ways_law

        g = self.game
        if g.multipliers is not None:
            return None
        plain = replace(g, tumbles=None, free_spins=None, max_win=None, analysis=None)
        limit = (g.analysis or AnalysisSettings()).exact_limit
        from slotmath.exact import grid_ways

        if g.grid.pays == "ways" and grid_ways.steps(plain) <= limit:
            law = ways_law(plain, level=self.level)
            return law.ways_rtp
        if g.grid.pays == "anywhere":
            law = anywhere_law(plain, level=self.level)
            return Fraction(law.plain_symbol_credits, law.cycle * law.credits_per_bet)
        return None

    def _simulated(self) -> GridFigures:
        sim = self._simulate()
        names = component_names(self.game)
        raw = sim.components
        comps = {}
        for name in names:
            key = "first" if name == KIND_COMPONENT[self.game.grid.pays] else name
            comps[name] = raw[key]
        checks = []
        first = self._exact_first_drop()
        if first is not None:
            t = self.game.tumbles
            factor = t.rule(False).value(0) if t is not None else 1
            checks.append((f"{KIND_COMPONENT[self.game.grid.pays]}: first drop RTP",
                           first * factor, raw["first"]))
        return GridFigures(
            self.game, self.level, self.plan, sim.rtp, comps, sim.hit_frequency,
            sim.base_hit_frequency, sim.variance, sim.top_award, sim.win_sizes(),
            _simulated_window(self.game, sim), False, simulation=sim, checks=tuple(checks),
            free_spins=_simulated_free_spins(sim) if self.game.free_spins else {})

    # -- exact: the whole round ----------------------------------------------------------
    def _spin_law(self, reel_set: str, free: bool):
        from slotmath.exact.grid_enumerate import enumerate_spin
        from slotmath.exact.grid_random import random_spin

        if self.plan.engine == "random chain":
            return random_spin(self.game, reel_set, self.level, free, self.model)
        if self.plan.engine == "count laws":
            return None
        return enumerate_spin(self.game, reel_set, self.level, free, self.model)

    def _exact(self) -> GridFigures:
        if self.plan.engine == "count laws":
            return self._count_laws_exact()
        g = self.game
        fs = g.free_spins
        base = self._spin_law("base", False)
        cap = _trigger_cap(g)
        table = base.table(cap)
        features = ()
        laws = {"base": base}
        fs_figures = {}
        if fs is not None:
            free = self._spin_law(fs.reels, True)  # a free spin's rules: its own law
            laws["free"] = free
            free_table = free.table(cap, scatter=fs.scatter_pays)
            spec = replace(fs, awards=fs.retrigger_awards or fs.awards, retrigger_awards=None,
                           multiplier=fs.multiplier)
            features = (_GridFreeSpins(spec, SpinTable(free_table.weights, free_table.cycle,
                                                       free_table.credits_per_bet, cap),
                                       fs.reels, fs),)
        rl = RoundLaw(table, features)
        cycle, cpb = base.cycle, base.credits_per_bet
        comps = {KIND_COMPONENT[g.grid.pays]: Fraction(base.first, cycle * cpb),
                 "scatter": Fraction(base.scatter, cycle * cpb)}
        if g.tumbles is not None:
            comps["tumbles"] = Fraction(base.later, cycle * cpb)
        if g.multipliers is not None:
            comps["multiplier_symbols"] = base.uplift()
        if fs is not None:
            comps["free_spins"] = rl.feature_mean("free_spins")
            starts = rl.start_probabilities("free_spins")
            p = sum(starts.values(), Fraction(0))
            fs_figures = {"trigger_probability": p,
                          "expected_spins": rl.feature_spins("free_spins") / p if p else 0,
                          "expected_win": comps["free_spins"] / p if p else 0,
                          "rtp": comps["free_spins"]}
        distribution = (WinDistribution.from_mapping(table.credits_weights(), cpb)
                        if not features else rl.distribution())
        rtp = rl.mean
        round_exact = True
        rtp_error = 0.0
        if g.max_win is not None:
            effect, exact = _cap_effect(distribution, g, self.level)
            comps["max_win_cap"] = -effect
            rtp = rtp - effect if exact else float(rtp) - float(effect)
            round_exact = exact
            if not exact:
                rtp_error = capped_rtp_error(distribution, rl.mean,
                                             _cap_credits(g, self.level,
                                                          distribution.credits_per_bet))
            distribution = _capped(distribution, g, self.level)
        variance = rl.variance
        if g.max_win is not None:
            variance = distribution.variance if isinstance(distribution, WinDistribution) \
                else float(distribution.variance)
        top = par.top_award(WinDistribution.from_mapping(table.credits_weights(), cpb))
        return GridFigures(
            g, self.level, self.plan, rtp, comps, rl.hit_frequency,
            Fraction(table.hit_weight, table.cycle), variance, top,
            par.win_size_table(distribution, _edges()), _exact_window(g, base),
            round_exact, distribution=distribution, base_table=table, laws=laws,
            free_spins=fs_figures, round_law=rl, rtp_error=rtp_error)

    def _count_laws_exact(self) -> GridFigures:
        """Pay anywhere without tumbles or free spins, whose joint count state fits: the whole
        law from the count programme."""
        from slotmath.exact.grid_anywhere import anywhere_law

        g = self.game
        law = anywhere_law(g, level=self.level, model=self.model,
                           joint_limit=self.plan.settings.exact_limit)
        dist = WinDistribution.from_mapping(law.distribution, law.credits_per_bet)
        comps = {"anywhere": Fraction(law.plain_symbol_credits, law.cycle * law.credits_per_bet),
                 "scatter": Fraction(law.scatter_credits, law.cycle * law.credits_per_bet)}
        if g.multipliers is not None:
            comps["multiplier_symbols"] = law.mean_bets - sum(comps.values())
        rtp = dist.mean
        round_exact = True
        if g.max_win is not None:
            effect, _ = _cap_effect(dist, g, self.level)
            comps["max_win_cap"] = -effect
            rtp -= effect
            dist = _capped(dist, g, self.level)
        table = MarkedTable(("trigger",), {(0, c): w for c, w in law.distribution.items()},
                            law.cycle * law.mixing, law.credits_per_bet)
        return GridFigures(g, self.level, self.plan, rtp, comps, law.hit_frequency,
                           law.hit_frequency, dist.variance, par.top_award(dist),
                           par.win_size_table(dist, _edges()), _anywhere_window(g, law),
                           round_exact, distribution=dist, base_table=table)

    # -- exact paid spin beside a simulation ------------------------------------------------
    def _paid_spin_exact(self) -> GridFigures:
        from slotmath.exact.grid_anywhere import anywhere_law
        from slotmath.exact.grid_ways import ways_law
        from slotmath.markov.free_spins import FreeSpinsFeature

        g = self.game
        fs = g.free_spins
        sim = self._simulate()
        kind = KIND_COMPONENT[g.grid.pays]
        if g.grid.pays == "ways":
            law = ways_law(g, level=self.level, model=self.model)
            comps = {kind: law.ways_rtp, "scatter": law.scatter_rtp}
            window = _ways_window(g, law)
            trigger = law.count_law(fs.trigger) if fs is not None else {}
            mean, var, hit = law.mean_bets, law.variance, law.hit_frequency
        else:
            law = anywhere_law(g, level=self.level, model=self.model)
            comps = {kind: Fraction(law.plain_symbol_credits, law.cycle * law.credits_per_bet),
                     "scatter": Fraction(law.scatter_credits, law.cycle * law.credits_per_bet)}
            if g.multipliers is not None:
                comps["multiplier_symbols"] = law.mean_bets - comps[kind] - comps["scatter"]
            window = _anywhere_window(g, law)
            trigger = ({c: Fraction(w, law.cycle) for c, w in law.count_laws[fs.trigger].items()}
                       if fs is not None else {})
            mean, var, hit = law.mean_bets, law.variance, law.hit_frequency
        checks = [("RTP of the paid spin", mean,
                   Estimate(float(sim.components["first"]) + float(sim.components["scatter"])
                            + float(sim.components["multiplier_symbols"]),
                            sim.rtp.std_error, sim.rounds))]
        rtp = mean
        round_exact = True
        fs_figures = {}
        if fs is not None:
            # E[feature] = E[spins] x E[free spin] (Wald: a free spin's win does not depend on
            # the spins before it, and whether it is played does)
            if g.grid.pays == "ways":
                free = ways_law(g, fs.reels, self.level, self.model)
                spin = free.ways_rtp + (free.scatter_rtp if fs.scatter_pays else 0)
                free_trigger = free.count_law(fs.trigger)
            else:
                free = anywhere_law(g, fs.reels, self.level, free=True, model=self.model)
                spin = Fraction(free.symbol_credits + (free.scatter_credits if fs.scatter_pays
                                                      else 0), free.cycle * free.credits_per_bet)
                free_trigger = {c: Fraction(w, free.cycle)
                                for c, w in free.count_laws[fs.trigger].items()}
            den = math.lcm(*(p.denominator for p in free_trigger.values()))
            trig_table = SpinTable({(c, 0): int(p * den) for c, p in free_trigger.items()},
                                   den, 1, max(free_trigger))
            chain = FreeSpinsFeature(trig_table, replace(
                fs, awards=fs.retrigger_awards or fs.awards, retrigger_awards=None))
            feature = Fraction(0)
            p_start = Fraction(0)
            spins = Fraction(0)
            for c, p in trigger.items():
                n = fs.award_for(c)
                if fs.max_spins is not None:
                    n = min(n, fs.max_spins)
                if n:
                    p_start += p
                    spins += p * chain.expected_spins(n)
            feature = spins * spin * fs.multiplier
            comps["free_spins"] = feature
            rtp = mean + feature
            fs_figures = {"trigger_probability": p_start,
                          "expected_spins": spins / p_start if p_start else 0,
                          "expected_win": feature / p_start if p_start else 0,
                          "rtp": feature}
            checks.append(("free spins RTP", feature, sim.components["free_spins"]))
            var, hit = sim.variance, sim.hit_frequency
        if g.max_win is not None:  # the cap acts on the round's law: simulated
            comps["max_win_cap"] = sim.components["max_win_cap"]
            rtp = Estimate(float(rtp) + float(comps["max_win_cap"]),
                           sim.components["max_win_cap"].std_error, sim.rounds)
            round_exact = False
        checks.append(("RTP", rtp, sim.rtp))
        return GridFigures(
            g, self.level, self.plan, rtp, comps, hit, law.hit_frequency, var, sim.top_award,
            sim.win_sizes(), window, round_exact, simulation=sim, checks=tuple(checks),
            free_spins=fs_figures)


def _edges():
    from slotmath.simulate.grid import GRID_EDGES

    return GRID_EDGES


def _cap_credits(game: Game, level: int, cpb: int) -> int:
    cap = game.cap_coins(level)
    return math.floor(Fraction(cap) / game.total_bet(level) * cpb)


def _cap_effect(distribution, game: Game, level: int):
    """What the max-win cap removes from the RTP, and whether that is exact."""
    cpb = distribution.credits_per_bet
    top = _cap_credits(game, level, cpb)
    if isinstance(distribution, WinDistribution):
        excess = sum((int(c) - top) * int(w) for c, w in zip(distribution.credits,
                                                             distribution.weights) if c > top)
        return Fraction(excess, distribution.total * cpb), True
    excess = sum((float(c) - top) * float(p) for c, p in zip(distribution.credits,
                                                             distribution.probs) if c > top)
    return excess / cpb, False


def capped_rtp_error(d, exact_mean: Fraction, cap: int) -> float:
    """A bound on the error of the capped RTP ``exact_mean - E[(R - cap)+]`` when the
    excess is read off a numerical (FFT) round law ``d`` (``cap`` in its credits).

    That figure equals ``E_d[min(R, cap)] + (exact_mean - E_d[R])``. The second term is known
    (the law's own mean error). In the first, every unit of probability the FFT misplaced
    (folded back from beyond its grid: ``aliased_mass_bound``; dropped as noise:
    ``dropped_bound``; the total's shortfall from 1) moves ``min(R, cap)`` by at most
    ``cap``, and every kept amount carries roundoff below the noise floor. The law may be
    cut anywhere above the cap: what lies beyond it counts at most ``cap`` each.

    Examples
    --------
    >>> from slotmath.exact.distribution import NumericWinDistribution
    >>> d = NumericWinDistribution([0, 10, 40], [0.5, 0.25, 0.25 - 1e-9], 10, 1e-9)
    >>> e = capped_rtp_error(d, Fraction(5, 4), 20)
    >>> 7.9e-9 < e < 8.1e-9  # 1e-9 misplaced and 1e-9 short of 1, x the cap's 2 bets; + the
    ...                      # law's mean, 4e-9 short of the exact 5/4
    True
    """
    cpb = d.credits_per_bet
    capped = np.minimum(d.credits, cap).astype(np.float64)
    misplaced = d.aliased_mass_bound + d.dropped_bound + abs(1.0 - d.total_mass)
    noise = d.noise_floor * float(capped.sum())
    mean_gap = abs(float(exact_mean) - d.mean_bets)
    roundoff = 8 * np.finfo(float).eps * (float(exact_mean) + float(capped @ d.probs) / cpb)
    return float((misplaced * cap + noise) / cpb + mean_gap + roundoff + 1e-15)


def _capped(distribution, game: Game, level: int):
    cpb = distribution.credits_per_bet
    top = _cap_credits(game, level, cpb)
    if isinstance(distribution, WinDistribution):
        acc: dict = {}
        for c, w in zip(distribution.credits.tolist(), distribution.weights):
            acc[min(c, top)] = acc.get(min(c, top), 0) + int(w)
        return WinDistribution.from_mapping(acc, cpb)
    import numpy as np

    from slotmath.exact.distribution import NumericWinDistribution

    credits = np.minimum(distribution.credits, top)
    keys, inverse = np.unique(credits, return_inverse=True)
    probs = np.zeros(len(keys))
    np.add.at(probs, inverse, distribution.probs)
    return NumericWinDistribution(keys, probs, cpb)


# -- windows: the paid spin's own pays, for the pays feature ----------------------------------
def _scatter_rows(game: Game, law_by_count: dict, cycle: int, cpb: int, model) -> tuple:
    """Rows of the trigger scatter (or the only paying scatter) by its final count."""
    fs = game.free_spins
    names = [n for n in model.names if game.symbols[n].scatter]
    paying = [n for n in names if model.scatter_pay[model.code[n]].any()]
    symbol = fs.trigger if fs is not None else (paying[0] if len(paying) == 1 else None)
    if symbol is None or (len(paying) > 1) or (paying and paying[0] != symbol):
        return ()
    rows = []
    code = model.code[symbol]
    for c in sorted(law_by_count):
        w = law_by_count[c]
        credit = int(model.scatter_pay[code, min(c, model.window)])
        rows.append(ScatterRow(symbol, c, w, Fraction(credit, cpb),
                               awards_of(game, symbol, c), Fraction(w * credit, cycle * cpb)))
    return tuple(rows)


def _exact_window(game: Game, law) -> Window:
    """The first drop's pay table and the final window's scatters, from a spin law."""
    model = law.model
    cycle, cpb = law.cycle, law.credits_per_bet
    t = game.tumbles
    factor = t.rule(False).value(0) if t is not None else 1
    pays = []
    for s, c in zip(*law.hits.nonzero()):
        hits = int(law.hits[s, c])
        credits = int(law.credits_by[s, c])
        per = int(model.pay[s, min(c, model.pay.shape[1] - 1)])
        ways = credits // per if model.kind == "ways" and per else None
        pays.append(PayRow(model.names[s], int(c), per * factor, hits, ways,
                           Fraction(credits * factor, cycle * cpb)))
    by_count: dict = {}
    for (_c, _m, trig, _s), w in law.weights.items():
        by_count[trig] = by_count.get(trig, 0) + w
    kind = KIND_COMPONENT[game.grid.pays]
    comps = {kind: Fraction(law.first, cycle * cpb), "scatter": Fraction(law.scatter,
                                                                          cycle * cpb)}
    first = "the first drop" if t is not None else "the paid spin"
    return Window(kind, cycle, cpb, comps, tuple(sorted(pays, key=lambda p: (p.symbol,
                                                                              p.count))),
                  _scatter_rows(game, by_count, cycle, cpb, model),
                  title=f"Pay table: {first} (hits over the full cycle)",
                  note=_exact_note(game, cycle))


def _exact_note(game: Game, cycle: int) -> str:
    later = ("; the later drops' pays are the tumbles' component" if game.tumbles is not None
             else "")
    per = "per way" if game.grid.pays == "ways" else "per hit"
    return (f"hits: spins whose first drop pays the entry, exact integer weights over the full "
            f"cycle of {cycle:,} (every stop, height and top-reel stop); pay_x_bet {per}; "
            f"rtp_exact adds up to the first drop's component exactly{later}. Scatters: their "
            "count in the final window.")


def _ways_window(game: Game, law) -> Window:
    model = GridModel(game)
    pays = tuple(PayRow(p.symbol, p.count, p.credits, p.hits, p.ways,
                        Fraction(p.credits * p.ways, law.cycle * law.credits_per_bet))
                 for p in law.pays)
    by_count = {}
    if law.scatter_names:
        fs = game.free_spins
        name = fs.trigger if fs is not None else law.scatter_names[0]
        if name in law.scatter_names:
            by_count = {c: int(p * law.cycle) for c, p in law.count_law(name).items()}
    comps = {"ways": law.ways_rtp, "scatter": law.scatter_rtp}
    return Window("ways", law.cycle, law.credits_per_bet, comps, pays,
                  _scatter_rows(game, by_count, law.cycle, law.credits_per_bet, model),
                  title="Pay table: the paid spin (hits over the full cycle)",
                  note=_exact_note(game, law.cycle))


def _anywhere_window(game: Game, law) -> Window:
    model = GridModel(game)
    pays = []
    for (name, c), w in sorted(law.hits.items()):
        per = int(model.pay[model.code[name], c])
        pays.append(PayRow(name, c, per, w, None, Fraction(w * per,
                                                           law.cycle * law.credits_per_bet)))
    fs = game.free_spins
    by_count = {}
    scatters = [n for n in model.names if game.symbols[n].scatter]
    name = fs.trigger if fs is not None else (scatters[0] if len(scatters) == 1 else None)
    if name is not None and name in law.count_laws:
        by_count = law.count_laws[name]
    comps = {"anywhere": Fraction(law.plain_symbol_credits, law.cycle * law.credits_per_bet),
             "scatter": Fraction(law.scatter_credits, law.cycle * law.credits_per_bet)}
    return Window("anywhere", law.cycle, law.credits_per_bet, comps, tuple(pays),
                  _scatter_rows(game, by_count, law.cycle, law.credits_per_bet, model),
                  title="Pay table: the paid spin (hits over the full cycle)",
                  note=_exact_note(game, law.cycle))


def _simulated_window(game: Game, sim) -> Window:
    """The first drop's pays as simulated: RTP per entry with an approximate interval (its
    hits binomial, its credits per hit held at their mean), no exact hit counts."""
    cpb = sim.credits_per_bet
    rows = []
    for name, c, hits, credits in sorted(sim.pay_rows(first=True)):
        p = Estimate.proportion(hits, sim.rounds)
        per_hit = credits / hits / cpb
        rtp = Estimate(credits / cpb / sim.rounds, per_hit * p.std_error, sim.rounds)
        model_pay = credits // hits if game.grid.pays != "ways" else 0
        rows.append(PayRow(name, c, model_pay, None, None, rtp))
    kind = KIND_COMPONENT[game.grid.pays]
    comps = {kind: sim.components["first"], "scatter": sim.components["scatter"]}
    return Window(kind, sim.rounds, cpb, comps, tuple(rows), (),
                  title="Pay table: the first drop (simulated RTP; hits are not counted)",
                  note=(f"rtp: each entry's share of the first drop's pays over {sim.rounds:,} "
                        f"simulated rounds (seed {sim.seed}); rtp_exact is empty (simulated); "
                        "the simulated figures table gives each one's 95% interval (its "
                        "credits per hit held at their mean)."))


def _simulated_free_spins(sim) -> dict:
    trig = sim.trigger_rate
    return {"trigger_probability": trig, "expected_spins": sim.spins_per_feature,
            "expected_win": (float(sim.components["free_spins"]) / float(trig)
                             if float(trig) else 0.0),
            "rtp": sim.components["free_spins"]}


def owner_of(composition):
    """The owner feature's figures of a composition (for the part features' results)."""
    return composition.stationary[composition.owner.name]



# -- the declarations -------------------------------------------------------------------------
def _present(pays: str):
    return lambda game: game.grid is not None and game.grid.pays == pays


def owner_feature(name: str, pays: str, title: str):
    """The declaration of the owner feature of grid games paying ``pays``."""
    from slotmath.features.base import Feature, Kind

    return Feature(
        name=name, kind=Kind.OWNER, title=title, present=_present(pays),
        build=lambda game, level: GridGame(game, level, name),
        result=lambda composition: composition.stationary[name],
        replaces=("free_spins", "max_win_cap"),
        json="slotmath.report.grid:json_section",
        tables="slotmath.report.grid:tables",
        summary="slotmath.report.grid:summary",
        errors="slotmath.report.grid:errors",
        charts="slotmath.plot.grid:charts",
        panel="slotmath.widgets.grid_panel:feature_panel",
        checks="slotmath.report.grid:entries",
        rates="slotmath.report.grid:rates",
        simulator="slotmath.simulate.grid:simulate_grid",
        round_simulator="slotmath.simulate.grid:simulate_rounds",
        book="slotmath.publish.grid:book",
        plays=("pays", name, "tumbles", "multiplier_symbols", "free_spins", "max_win_cap"),
    )


def part_feature(name: str, title: str, present):
    """The declaration of a mechanic played inside a grid game's round (kind ``part``)."""
    from slotmath.features.base import Feature, Kind

    return Feature(
        name=name, kind=Kind.PART, title=title, present=present,
        result=lambda composition: owner_of(composition).part(name),
        tables=f"slotmath.report.grid:{name}_tables",
        summary=f"slotmath.report.grid:{name}_summary",
        charts=f"slotmath.plot.grid:{name}_charts",
        simulator="slotmath.simulate.grid:simulate_grid",
        book="slotmath.publish.grid:book",  # played by the owner's player
    )
