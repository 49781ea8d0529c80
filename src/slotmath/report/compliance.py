"""Compliance check: a game's figures against jurisdiction rules (GLI-11, ANZ/NZ, UKGC RTS)
and, on request (``--rules stake``), Stake Engine's approval rules for the maths.

Each rule is data (:class:`Rule`): an id, the document and section it comes from, what it
asks, the name of its limit (a parameter with a default, :data:`LIMITS`) and a function that
turns the analyses of a game into rows (:class:`Finding`: subject, bet level, figure, limit,
pass/fail, note). :func:`check` evaluates the chosen rule sets at every bet level they need;
:class:`ComplianceReport` renders the rows as text tables (one per rule set), a DataFrame or
a JSON document. ``slotmath check`` prints it and exits 1 when any rule fails.

How each figure is read
-----------------------
*Exact* (fractions over the full cycle): pay-table hits (:attr:`Analysis.direct`), scatter
counts, the top award, the free-spins trigger, expected bonus-wheel spins per game, the RTP
of a game without jackpots. *Numerical* (float64 with the analysis's error bound, used on
the side that makes a pass conservative): jackpot hit rates, a jackpot game's RTP, the SD
with jackpots (an approximation, :meth:`JackpotFigures.total_std`).

"1 in N games" is the expected number of games per occurrence: for a lines game a pay's hits
add up over the paylines (as in the PAR sheet's pay table), so ``1 / N`` is the expected
number of times the award shows per game. GLI-11's "at least once in every 100 million
games" is that expectation over 1e8 games being at least 1; for an award that rare the
chance that it shows twice in one game is negligible, so it is also the probability.
ANZ 1.22.16a multiplies the probability per line (or way) by the number of lines (ways),
which is the same expected count per play.

Examples
--------
>>> import slotmath
>>> r = check(slotmath.load_game("data/games/tiny_lines.toml"))
>>> r.passed, [f.subject for f in r.failed]
(True, [])
>>> [(f.rule, f.figure, f.probability) for f in r.findings if f.subject == "pay BAR x3"]
... # base game: 20 line hits in the 512 combinations; per game, its free spins' hits too
[('GLI-11 odds: pay table', '1 in 24.3', '295/7168'), ('ANZ pattern probability', '1 in 25.6', '5/128')]
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterable, Mapping
from dataclasses import asdict, dataclass, field
from fractions import Fraction
from functools import cached_property

import pandas as pd

from slotmath.features.base import hook
from slotmath.stats import par

__all__ = ["DEFAULT_RULE_SETS", "LIMITS", "RULES", "RULE_SETS", "ComplianceReport", "Finding", "Limit", "Rule",
           "check", "parse_limits", "parse_rule_sets"]


@dataclass(frozen=True)
class Limit:
    """A rule's limit: its name on the command line (``--limit name=value``), its default."""

    name: str
    default: float
    meaning: str


LIMITS: dict[str, Limit] = {limit.name: limit for limit in (
    Limit("gli11.games", 100_000_000, "every advertised award shows at least once in this "
                                      "many games (GLI-11 4.8.2: 100 million)"),
    Limit("anz.min_rtp", 0.87, "minimum RTP, as a fraction ([MINRTP]; 0.87 is 87%)"),
    Limit("anz.pattern_plays", 7_000_000, "each base-game winning pattern at least once in "
                                          "this many plays, per line x lines (1.22.16a)"),
    Limit("modes.min_rtp", 0.87, "minimum RTP of every game mode, as a fraction"),
    Limit("modes.spread", 0.005, "the most the RTPs of a game's modes (the standard game "
                                 "among them) may differ, as a fraction (Stake Engine: 0.5%)"),
    Limit("modes.max_win_plays", 0, "each mode's top award (the round's largest win) at "
                                    "least once in this many rounds (0: not asked; Stake "
                                    "Engine asks 1e7)"),
)}


@dataclass(frozen=True)
class Finding:
    """One row of a compliance table.

    ``figure`` and ``limit`` are as printed; ``value`` is the figure as a number (a float,
    None for "never" or when there is none) and ``probability`` the exact rate as "p/q" when
    the figure is exact (else None). ``passed`` decides the exit status.
    """

    rule_set: str
    rule: str
    source: str
    subject: str
    levels: str
    figure: str
    limit: str
    passed: bool
    value: float | None = None
    probability: str | None = None
    note: str = ""

    def __post_init__(self):  # plain Python numbers (numpy's would not serialise as JSON)
        object.__setattr__(self, "passed", bool(self.passed))
        if self.value is not None:
            object.__setattr__(self, "value", float(self.value))

    @property
    def result(self) -> str:
        return "pass" if self.passed else "FAIL"


@dataclass(frozen=True)
class Rule:
    """One jurisdiction rule as data: where it comes from and how it is evaluated."""

    id: str
    rule_set: str
    source: str  # document and section
    requirement: str
    limit: str | None  # a key of LIMITS, or None for a rule with no numeric limit
    evaluate: Callable[[_Levels, Mapping[str, float], Rule], list[Finding]] = field(repr=False)


# -- the analyses a check needs: one per bet level, computed once ----------------------------
class _Levels:
    """The game's analyses at the levels under check (lazy, shared by every rule)."""

    def __init__(self, game, levels: tuple[int, ...], progress=None):
        self.game = game
        self.levels = levels
        self.progress = progress
        self._by_level: dict = {}

    def __getitem__(self, level: int):
        if level not in self._by_level:
            import slotmath

            self._by_level[level] = slotmath.analyze(self.game, level, self.progress)
        return self._by_level[level]

    def items(self):
        return [(level, self[level]) for level in self.levels]


def _levels_text(levels: Iterable[int]) -> str:
    levels = sorted(levels)
    if not levels:
        return "-"
    if len(levels) > 2 and levels == list(range(levels[0], levels[-1] + 1)):
        return f"{levels[0]}-{levels[-1]}"
    return ",".join(map(str, levels))


def _one_in_text(rate) -> str:
    if not rate:
        return "never"
    n = 1 / float(rate)
    return f"1 in {n:,.1f}" if n < 1000 else f"1 in {n:,.0f}"


def _exact_text(rate) -> str | None:
    return str(rate) if isinstance(rate, (int, Fraction)) else None


def _meets(rate, error: float, plays: float) -> bool:
    """Whether ``rate`` (per game) is at least one in ``plays``: exactly for a fraction, for a
    float only when its lower bound ``rate - error`` is."""
    if isinstance(rate, (int, Fraction)):
        return Fraction(rate) * Fraction(plays) >= 1
    return (rate - error) * plays >= 1


# -- what the figures are ---------------------------------------------------------------------
def _direct(analysis, reel_set: str):
    direct = analysis.composition.window.direct
    if reel_set == "base" and direct is not None:
        return direct
    from slotmath.exact.direct import direct_method

    return direct_method(analysis.game, reel_set, analysis.level, analysis.context.model)


def _pattern_rates(analysis, reel_set: str = "base") -> dict[str, Fraction]:
    """Pay-table entries advertised at the analysis's level -> exact rate per spin on
    ``reel_set``.

    Lines: hits summed over the paylines; ways: the expected number of winning ways; both per
    stop combination of the full cycle. Rows split by a multiplier wild's credits are one
    entry; an advertised entry no combination pays has rate 0.
    """
    d = _direct(analysis, reel_set)
    model = analysis.context.model
    out: dict[str, Fraction] = {}
    for key in model.keys:
        for count, credits in sorted(model.key_credits[key].items()):
            if credits > 0:
                out[f"pay {key} x{count}"] = Fraction(0)
    for p in d.pays:
        name = f"pay {p.key} x{p.count}"
        if name in out:
            out[name] += Fraction(p.ways if d.kind == "ways" else p.hits, d.cycle)
    return out | _scatter_rates(analysis, d)


def _scatter_rates(analysis, d) -> dict[str, Fraction]:
    """Advertised scatter pays at the level -> exact probability per spin of the direct
    result ``d`` (a count above the top listed one pays the top pay, so it counts as that
    entry)."""
    game, level = analysis.game, analysis.level
    out: dict[str, Fraction] = {}
    for name in game.scatters:
        sym = game.symbols[name]
        listed = sorted(set(sym.pays) | {c for col in sym.level_pays.values() for c in col})
        counts = d.scatter_counts[name]
        for c in listed:
            if sym.pay_at(c, level) <= 0:
                continue
            weight = sum(w for k, w in counts.items() if k == c or (c == listed[-1] and k > c))
            out[f"scatter {name} x{c}"] = Fraction(weight, d.cycle)
    return out


def _game_rates(analysis) -> dict[str, Fraction]:
    """Each advertised pay -> exact expected occurrences per paid game: on the paid spin plus
    the expected free spins times its rate on the free-spin reels."""
    rates = _pattern_rates(analysis)
    for f in analysis.composition.round_features:
        if f.reels:
            spins = analysis.round.feature_spins(f.name)
            # a feature whose spins play their own table names the reel set under it
            reel_set = getattr(f, "reel_set", f.reels)
            for subject, rate in _pattern_rates(analysis, reel_set).items():
                rates[subject] = rates.get(subject, Fraction(0)) + spins * rate
    return rates


def _worst(rule: Rule, limits, per_level: dict[int, dict[str, tuple]], plays_limit: str,
           notes: Mapping[str, str] | None = None) -> list[Finding]:
    """One row per subject: its rarest level among those that offer it."""
    plays = limits[rule.limit]
    subjects: dict[str, list] = {}
    for level, rates in per_level.items():
        for subject, (rate, error) in rates.items():
            subjects.setdefault(subject, []).append((level, rate, error))
    rows = []
    for subject, entries in subjects.items():
        level, rate, error = min(entries, key=lambda e: (float(e[1]) - e[2], e[0]))
        levels = [e[0] for e in entries]
        passed = all(_meets(r, e, plays) for _, r, e in entries)
        note = (notes or {}).get(subject, "")
        if not rate and not note:
            note = "no outcome of the game shows it"
        if len({float(e[1]) for e in entries}) > 1:
            note = (note + "; " if note else "") + f"rarest at level {level}"
        rows.append(Finding(rule.rule_set, rule.id, rule.source, subject, _levels_text(levels),
                            _one_in_text(rate), plays_limit, passed,
                            value=float(rate), probability=_exact_text(rate), note=note))
    return rows


def _owner_rates(a) -> dict[str, tuple] | None:
    """An owner feature's own rates of the pay-table entries (its ``rates`` hook: (rate,
    error, note) each), where the lines and ways direct method does not read its pays."""
    owner = a.composition.owner
    rates = hook(owner, "rates") if owner is not None else None
    return rates(a) if rates is not None else None


def _gli_pays(levels: _Levels, limits, rule: Rule) -> list[Finding]:
    per_level, notes = {}, {}
    for level, a in levels.items():
        owned = _owner_rates(a)
        if owned is None:
            per_level[level] = {s: (r, 0.0) for s, r in _game_rates(a).items()}
        else:
            per_level[level] = {s: (r, e) for s, (r, e, _) in owned.items()}
            notes |= {s: note for s, (_, _, note) in owned.items() if note}
    return _worst(rule, limits, per_level, f"1 in {limits[rule.limit]:,.0f} games", notes)


def _gli_top_award(levels: _Levels, limits, rule: Rule) -> list[Finding]:
    plays = limits[rule.limit]
    rows = []
    for level, a in levels.items():
        top = a.top_award
        p = top.probability
        note, passed = ("" if p else "the paid spin never wins"), _meets(p, 0.0, plays)
        if hasattr(p, "interval"):  # simulated: the largest win seen, not the game's top award
            note = (f"simulated: the largest win seen in {p.rounds:,} rounds; the game's top "
                    "award may be larger and rarer, so its odds are not shown")
            passed = False
        rows.append(Finding(rule.rule_set, rule.id, rule.source,
                            f"top award {float(top.multiple):,g} x bet", str(level),
                            _one_in_text(p), f"1 in {plays:,.0f} games", passed,
                            value=float(p), probability=_exact_text(p), note=note))
    return rows


def _gli_features(levels: _Levels, limits, rule: Rule) -> list[Finding]:
    """Entry to each feature: every declared feature's ``checks`` entries (its trigger, its
    expected entries per game, each jackpot's hits), per level."""
    per_level: dict[int, dict[str, tuple]] = {}
    notes: dict[str, str] = {}
    for level, a in levels.items():
        rates: dict[str, tuple] = {}
        for f in a.declared:
            entries = hook(f, "checks")
            if entries is None:
                continue
            for subject, (rate, error, note) in entries(a).items():
                rates[subject] = (rate, error)
                if note:
                    notes[subject] = note
        per_level[level] = rates
    if not any(per_level.values()):
        return [Finding(rule.rule_set, rule.id, rule.source, "features", "-", "none", "-", True,
                        note="the game has no feature to enter")]
    return _worst(rule, limits, per_level, f"1 in {limits[rule.limit]:,.0f} games", notes)


def _rtp_text(rtp) -> str:
    return f"{float(rtp):.4%}"


def _anz_min_rtp(levels: _Levels, limits, rule: Rule) -> list[Finding]:
    floor = limits[rule.limit]
    by_level = {level: (a.rtp, a.rtp_error) for level, a in levels.items()}
    level = min(by_level, key=lambda k: float(by_level[k][0]) - by_level[k][1])
    rtp, error = by_level[level]
    passed = all(float(r) - e >= floor for r, e in by_level.values())
    if isinstance(rtp, Fraction):
        passed = all(Fraction(r) >= Fraction(floor) for r, _ in by_level.values())
    nonlinear = sorted({lv for s in (*levels.game.symbols.values(), *levels.game.groups.values())
                        for lv in s.level_pays})
    note = "RTP by level: " + ", ".join(f"{lv} {_rtp_text(r)}" for lv, (r, _) in by_level.items())
    note += ("; non-linear pay table (level_pays at level "
             + _levels_text(nonlinear) + ")" if nonlinear else "; pay table linear in the bet")
    if error:
        note += f"; numerical, error <= {error:.1e}"
    return [Finding(rule.rule_set, rule.id, rule.source, "minimum RTP over bet levels",
                    str(level), f"{_rtp_text(rtp)} at level {level}", f">= {floor:.2%}", passed,
                    value=float(rtp), probability=_exact_text(rtp), note=note)]


def _ways_or_lines(game) -> int:
    if game.paylines is not None:
        return game.n_lines
    return math.prod(game.rows)


def _anz_patterns(levels: _Levels, limits, rule: Rule) -> list[Finding]:
    """Base-game patterns only (1.22.16a); one that only free spins can show is listed as not
    offered in the base game and does not fail this rule (GLI-11's row checks it)."""
    per_level, free_only, notes = {}, {}, {}
    for level, a in levels.items():
        owned = _owner_rates(a)
        if owned is not None:  # the owner's rates are the paid spin's (base game) already
            per_level[level] = {s: (r, e) for s, (r, e, _) in owned.items()}
            notes |= {s: note for s, (_, _, note) in owned.items() if note}
            continue
        base, anywhere = _pattern_rates(a), _game_rates(a)
        per_level[level] = {s: (r, 0.0) for s, r in base.items() if r or not anywhere[s]}
        free_only |= {s: level for s, r in base.items() if not r and anywhere[s]}
    lines = _ways_or_lines(levels.game)
    unit = ("line" if lines == 1 else "lines") if levels.game.paylines is not None else "ways"
    limit = f"1 in {limits[rule.limit]:,.0f} plays (per line x {lines} {unit})"
    if notes:  # an owner's rates are per paid round, not per line or way
        limit = f"1 in {limits[rule.limit]:,.0f} plays"
    rows = _worst(rule, limits, per_level, limit, notes)
    for subject in free_only:
        if not any(r.subject == subject for r in rows):
            rows.append(Finding(rule.rule_set, rule.id, rule.source, subject,
                                _levels_text(lv for lv, rates in per_level.items()
                                             if subject not in rates),
                                "never in the base game", limit, True, value=0.0,
                                probability="0", note="not offered in the base game: only "
                                                      "free spins can show it"))
    return rows


def _anz_sd(levels: _Levels, limits, rule: Rule) -> list[Finding]:
    by_level = {level: (a.std_total, a.std, _carried(a)) for level, a in levels.items()}
    level = max(by_level, key=lambda k: (by_level[k][0], -k))
    total, coin, carried = by_level[level]
    passed = all(math.isfinite(t) for t, _, _ in by_level.values())
    figure = f"{total:.4f} x bet at level {level}"
    note = "SD by level: " + ", ".join(f"{lv} {t:.4f}" for lv, (t, _, _) in by_level.items())
    if carried:
        note = (f"with {', '.join(carried)} (approx.); the round without them {coin:.4f}; "
                + note)
    return [Finding(rule.rule_set, rule.id, rule.source, "SD in the highest-SD configuration",
                    str(level), figure, "computed", passed, value=total, note=note)]


def _carried(a) -> list[str]:
    """The titles of ``a``'s stationary features (a state carried between rounds)."""
    c = a.composition
    return [f.title.lower() for f in a.declared if f.name in c.carried]


def _anz_progressive(levels: _Levels, limits, rule: Rule) -> list[Finding]:
    """Each declared feature's ``disclosure`` rows (a progressive jackpot's reset, increment
    and expected hit value), per level."""
    rows = []
    for level, a in levels.items():
        for f in a.declared:
            disclosure = hook(f, "disclosure")
            if disclosure is None:
                continue
            for subject, text, value, passed, note in disclosure(a):
                rows.append(Finding(rule.rule_set, rule.id, rule.source, subject, str(level),
                                    text, "disclosed", passed, value=value, note=note))
    if not rows:
        return [Finding(rule.rule_set, rule.id, rule.source, "progressive jackpots", "-", "none",
                        "disclosed", True, note="the game has no progressive jackpot")]
    return rows


def _ukgc_split(levels: _Levels, limits, rule: Rule) -> list[Finding]:
    rows = []
    for level, a in levels.items():
        parts = a.components
        carried = set(a.composition.carried)
        jackpot = sum((v for k, v in parts.items() if k in carried), Fraction(0))
        base = sum((v for k, v in parts.items() if k not in carried), Fraction(0))
        total, error = a.rtp, a.rtp_error
        # two paths: the parts (direct method and each feature's mean) against the RTP (the
        # round's law); they must add up within the RTP's error bound
        gap = abs(float(base) + float(jackpot) - float(total))
        adds_up = (base + jackpot == total) if a.exact else gap <= error + 1e-12
        computed = all(math.isfinite(float(x)) for x in (base, jackpot, total))
        note = "exact" if a.exact else f"numerical, error <= {error:.1e}"
        if not adds_up:
            note = f"base + jackpot differs from the RTP by {gap:.2e}"
        rows.append(Finding(rule.rule_set, rule.id, rule.source, "RTP split: base + jackpot",
                            str(level), f"{_rtp_text(base)} + {_rtp_text(jackpot)} = "
                                        f"{_rtp_text(total)}", "both computed",
                            computed and adds_up, value=float(total),
                            probability=_exact_text(total), note=note))
    return rows


# the Gambling Commission's online slots game design changes in force 31 October 2021: no
# celebration of a return <= the stake, a game cycle of at least 2.5 s
UKGC_SLOTS = "UKGC online slots game design rules (2021)"


def _round_law(a):
    """The round's win law, or why the analysis does not compute one (a str)."""
    try:
        return a.distribution
    except NotImplementedError as exc:
        return str(exc)


def _ukgc_ldw(levels: _Levels, limits, rule: Rule) -> list[Finding]:
    """The share of rounds that pay something but no more than the stake (disclosed)."""
    from slotmath import player

    rows = []
    for level, base in levels.items():
        for mode, a in {"base": base, **base.modes}.items():
            cost = a.game.mode(mode).cost if mode != "base" else 1
            subject = "rounds paying 0 < win <= stake" + (
                f" (mode {mode}, stake {cost} bets)" if mode != "base" else "")
            law = _round_law(a)
            if isinstance(law, str):
                rows.append(Finding(rule.rule_set, rule.id, rule.source, subject, str(level),
                                    "not computed", "disclosed", True, note=law))
                continue
            f = player.losses_disguised_as_wins(law, cost)
            note = ("exact" if f.exact
                    else f"{f.method}; within [{f.lower:.6%}, {f.upper:.6%}]")
            note += f"; mode {mode}; the normal approximation says {f.normal:.4%}"
            rows.append(Finding(rule.rule_set, rule.id, rule.source, subject, str(level),
                                f"{f.float:.4%}", "disclosed", True, value=f.float,
                                probability=_exact_text(f.value), note=note))
    return rows


def _ukgc_loss_per_hour(levels: _Levels, limits, rule: Rule) -> list[Finding]:
    """The expected loss per hour at the 2.5 s minimum game cycle, in bets (disclosed)."""
    from slotmath import player

    rows = []
    for level, a in levels.items():
        loss = player.expected_loss_per_hour(a.rtp, player.UK_MIN_CYCLE_SECONDS)
        note = "exact" if isinstance(loss, Fraction) else f"numerical, RTP error <= {a.rtp_error:.1e}"
        rows.append(Finding(rule.rule_set, rule.id, rule.source,
                            "expected loss per hour at 2.5 s a round", str(level),
                            f"{float(loss):,.2f} bets ({3600 / 2.5:,.0f} rounds)", "disclosed",
                            True, value=float(loss), probability=_exact_text(loss), note=note))
    return rows


# -- Stake Engine: the approval rules for the maths, on the game's round law (slotmath
# verify-stake checks the same on an export's files); the limits are slotmath.publish.verify's
def _stake_limits():
    from slotmath.publish.verify import APPROVAL

    return APPROVAL


def _stake_stateless(levels: _Levels, limits, rule: Rule) -> list[Finding]:
    a = levels[levels.levels[0]]
    carried = [f.title.lower() for f in a.declared if f.stateful]
    return [Finding(rule.rule_set, rule.id, rule.source, "state carried between rounds", "-",
                    ", ".join(carried) if carried else "none", "none", not carried,
                    note="Stake takes stateless games only")]


def _stake_rtp(levels: _Levels, limits, rule: Rule) -> list[Finding]:
    lo, hi = _stake_limits()["min_rtp"], _stake_limits()["max_rtp"]
    rows = []
    for level, a in levels.items():
        for mode, m in {"base": a, **a.modes}.items():
            rtp, error = m.rtp, m.rtp_error
            if isinstance(rtp, Fraction):
                passed = lo <= rtp <= hi
            else:
                passed = float(lo) <= rtp - error and rtp + error <= float(hi)
            rows.append(Finding(rule.rule_set, rule.id, rule.source, f"RTP of mode {mode}",
                                str(level), _rtp_text(rtp),
                                f"{float(lo):.0%} .. {float(hi):.0%}", passed, value=float(rtp),
                                probability=_exact_text(rtp),
                                note="exact" if not error else
                                f"numerical, error <= {error:.1e}"))
    return rows


def _stake_spread(levels: _Levels, limits, rule: Rule) -> list[Finding]:
    limit = _stake_limits()["mode_spread"]
    rows = []
    for level, a in levels.items():
        rtps = {mode: m.rtp for mode, m in {"base": a, **a.modes}.items()}
        error = max(m.rtp_error for m in (a, *a.modes.values()))
        low, high = min(rtps, key=lambda k: rtps[k]), max(rtps, key=lambda k: rtps[k])
        spread = rtps[high] - rtps[low]
        exact = all(isinstance(r, Fraction) for r in rtps.values())
        passed = spread <= limit if exact else float(spread) + 2 * error <= float(limit)
        rows.append(Finding(rule.rule_set, rule.id, rule.source, "RTP spread between modes",
                            str(level), f"{_rtp_text(spread)} ({high} - {low})"
                            if len(rtps) > 1 else "one mode (base)",
                            f"<= {float(limit):.1%}", passed, value=float(spread),
                            probability=_exact_text(spread),
                            note="; ".join(f"{k} {_rtp_text(v)}" for k, v in rtps.items())))
    return rows


def _stake_max_win(levels: _Levels, limits, rule: Rule) -> list[Finding]:
    plays = _stake_limits()["max_win_plays"]
    rows = []
    for level, a in levels.items():
        d = _round_law(a)
        if isinstance(d, str):
            rows.append(Finding(rule.rule_set, rule.id, rule.source, "max win", str(level),
                                "not computed", f"1 in {plays:,}", False, note=d))
            continue
        top = int(d.credits[-1])
        exact = hasattr(d, "weights")  # an exact law: integer weights over the full cycle
        p = Fraction(int(d.weights[-1]), int(d.total)) if exact else float(d.probs[-1])
        multiple = Fraction(top, d.credits_per_bet)
        rows.append(Finding(rule.rule_set, rule.id, rule.source,
                            f"max win {float(multiple):g} x bet", str(level), _one_in_text(p),
                            f"1 in {plays:,}", _meets(p, 0.0, plays), value=float(p),
                            probability=_exact_text(p),
                            note="the round's top win (features included)"
                            + ("" if isinstance(p, Fraction) else
                               "; the tail of a numerical round law")))
    return rows


def _stake_hit_rate(levels: _Levels, limits, rule: Rule) -> list[Finding]:
    plays = _stake_limits()["hit_plays"]
    rows = []
    for level, a in levels.items():
        hit = a.hit_frequency
        rows.append(Finding(rule.rule_set, rule.id, rule.source, "hit rate (round wins > 0)",
                            str(level), _one_in_text(hit), f"1 in {plays} or better",
                            _meets(hit, 0.0 if isinstance(hit, Fraction) else a.rtp_error,
                                   plays), value=float(hit), probability=_exact_text(hit)))
    return rows


# -- across game modes ([modes.NAME]; the rule set applies to a game that has modes) --------
def _modes(levels: _Levels):
    """``(level, {mode name: analysis})`` with the standard game as ``"(standard)"``."""
    return [(level, {"(standard)": a, **a.modes}) for level, a in levels.items()]


def _modes_min_rtp(levels: _Levels, limits, rule: Rule) -> list[Finding]:
    floor = limits[rule.limit]
    rows = []
    for name in _modes(levels)[0][1]:
        by_level = {level: (ms[name].rtp, ms[name].rtp_error) for level, ms in _modes(levels)}
        level = min(by_level, key=lambda k: float(by_level[k][0]) - by_level[k][1])
        rtp, error = by_level[level]
        if all(isinstance(r, Fraction) for r, _ in by_level.values()):
            passed = all(r >= Fraction(floor) for r, _ in by_level.values())
        else:
            passed = all(float(r) - e >= floor for r, e in by_level.values())
        note = "exact" if isinstance(rtp, Fraction) else f"numerical, error <= {error:.1e}"
        rows.append(Finding(rule.rule_set, rule.id, rule.source, f"mode {name}", str(level),
                            f"{_rtp_text(rtp)} at level {level}", f">= {floor:.2%}", passed,
                            value=float(rtp), probability=_exact_text(rtp), note=note))
    return rows


def _modes_spread(levels: _Levels, limits, rule: Rule) -> list[Finding]:
    limit = limits[rule.limit]
    rows = []
    for level, ms in _modes(levels):
        rtps = {name: m.rtp for name, m in ms.items()}
        error = max(m.rtp_error for m in ms.values())
        low, high = min(rtps, key=lambda k: rtps[k]), max(rtps, key=lambda k: rtps[k])
        spread = rtps[high] - rtps[low]
        if all(isinstance(r, Fraction) for r in rtps.values()):
            passed = spread <= Fraction(limit)
        else:
            passed = float(spread) + 2 * error <= limit
        rows.append(Finding(rule.rule_set, rule.id, rule.source, "RTP spread over the modes",
                            str(level), f"{_rtp_text(spread)} ({high} - {low})",
                            f"<= {limit:.2%}", passed, value=float(spread),
                            probability=_exact_text(spread),
                            note="; ".join(f"{k} {_rtp_text(v)}" for k, v in rtps.items())))
    return rows


def _modes_max_win(levels: _Levels, limits, rule: Rule) -> list[Finding]:
    plays = limits[rule.limit]
    rows = []
    for name in _modes(levels)[0][1]:
        tops = {level: (par.top_award(ms[name].distribution), ms[name])
                for level, ms in _modes(levels)}
        level = min(tops, key=lambda k: float(tops[k][0].probability))
        top, m = tops[level]
        note = ("exact" if m.distribution_exact else
                f"numerical round distribution, noise floor {m.distribution.noise_floor:.1e}")
        asked = plays > 0
        passed = (not asked or all(float(t.probability) * plays >= 1 for t, _ in tops.values()))
        rows.append(Finding(rule.rule_set, rule.id, rule.source,
                            f"mode {name}: top award {float(top.multiple):g} x bet", str(level),
                            _one_in_text(top.probability),
                            f"1 in {plays:,.0f} rounds" if asked else "not asked", passed,
                            value=float(top.probability),
                            probability=_exact_text(top.probability), note=note))
    return rows


GLI11 = "GLI-11 v3.0 (2016)"
ANZ = "ANZ Gaming Machine National Standard (NZ Gazette 2004 No. 79)"
UKGC = "UKGC Remote gambling and software technical standards (2021)"
# read from its users' summary (ReSkin-Games/stake-engine-skills, approval-math.md); the
# limits are slotmath.publish.verify.APPROVAL, which verify-stake checks on an export's files
STAKE = "Stake Engine approval guidelines, Math (as its users summarise them)"
MODES = "Stake Engine RGS rules across game modes"

RULES: tuple[Rule, ...] = (
    Rule("GLI-11 odds: pay table", "gli11", f"{GLI11} 4.8.2 Odds",
         "each advertised pay (line, way and scatter pays) shows at least once in 100 million "
         "games, at every bet level that can win it", "gli11.games", _gli_pays),
    Rule("GLI-11 odds: top award", "gli11", f"{GLI11} 4.8.2 Odds",
         "the top award shows at least once in 100 million games, at every bet level",
         "gli11.games", _gli_top_award),
    Rule("GLI-11 odds: feature entry", "gli11", f"{GLI11} 4.8.2 Odds",
         "entry to each feature (free spins, bonus wheel) and each jackpot shows at least once "
         "in 100 million games, at every bet level that can win it", "gli11.games",
         _gli_features),
    Rule("ANZ minimum RTP", "anz", f"{ANZ} 1.22.15 and 1.22.18 Non-linear Paytables",
         "the RTP is at least [MINRTP] at the lowest end of a non-linear pay table (the "
         "minimum over bet levels)", "anz.min_rtp", _anz_min_rtp),
    Rule("ANZ pattern probability", "anz", f"{ANZ} 1.22.16a Probability",
         "each base-game winning pattern at least 1 in 7,000,000 plays, its probability per "
         "line multiplied by the lines (ways)", "anz.pattern_plays", _anz_patterns),
    Rule("ANZ SD", "anz", f"{ANZ} 1.22.17 Standard deviation",
         "the SD is computed in the configuration with the highest SD", None, _anz_sd),
    Rule("ANZ progressive disclosure", "anz", f"{ANZ} progressive jackpots: player information",
         "each progressive's reset (seed), increment rate (contribution) and expected hit value",
         None, _anz_progressive),
    Rule("UKGC RTP split", "ukgc", f"{UKGC} RTS 9A (implementation guidance) with RTS 3C",
         "the RTP can be shown split into the base game and the jackpot part", None,
         _ukgc_split),
    Rule("UKGC losses disguised as wins", "ukgc", UKGC_SLOTS,
         "the share of rounds that pay something but no more than the stake, per mode "
         "(such returns may not be celebrated)", None, _ukgc_ldw),
    Rule("UKGC loss per hour", "ukgc", UKGC_SLOTS,
         "the expected loss per hour at the minimum game cycle of 2.5 s", None,
         _ukgc_loss_per_hour),
    Rule("Stake stateless", "stake", f"{STAKE}: stateless games",
         "no state carried between rounds (no progressive jackpot, no persistent feature)",
         None, _stake_stateless),
    Rule("Stake RTP range", "stake", f"{STAKE}: RTP",
         "the RTP of every mode between 90% and 98%", None, _stake_rtp),
    Rule("Stake mode spread", "stake", f"{STAKE}: RTP",
         "all modes' RTPs within 0.5% of each other", None, _stake_spread),
    Rule("Stake max win", "stake", f"{STAKE}: max win",
         "the maximum win more often than 1 in 10,000,000 rounds", None, _stake_max_win),
    Rule("Stake hit rate", "stake", f"{STAKE}: hit rate",
         "non-zero wins more often than 1 in 20 rounds", None, _stake_hit_rate),
    Rule("Modes: minimum RTP", "modes", f"{MODES}: minimum RTP",
         "the minimum RTP holds in every game mode, per amount wagered, at every bet level",
         "modes.min_rtp", _modes_min_rtp),
    Rule("Modes: RTP spread", "modes", f"{MODES}: RTP spread",
         "the RTPs of the modes (the standard game among them) differ by at most a limit",
         "modes.spread", _modes_spread),
    Rule("Modes: max win odds", "modes", f"{MODES}: max win",
         "each mode's top award shows at least once in a limit's rounds, where one is asked",
         "modes.max_win_plays", _modes_max_win),
)

RULE_SETS: dict[str, str] = {"gli11": GLI11, "anz": ANZ, "ukgc": UKGC, "stake": STAKE,
                             "modes": MODES}
#: the rule sets ``check`` runs when none is named (Stake's only on request: ``--rules stake``;
#: the modes' only for a game that has modes)
DEFAULT_RULE_SETS: tuple[str, ...] = ("gli11", "anz", "ukgc", "modes")


# -- the report -------------------------------------------------------------------------------
@dataclass(frozen=True, eq=False)
class ComplianceReport:
    """The rows of a compliance check of ``game`` at ``levels`` with ``limits``."""

    game_name: str
    levels: tuple[int, ...]
    rule_sets: tuple[str, ...]
    limits: Mapping[str, float]
    findings: tuple[Finding, ...]

    @property
    def passed(self) -> bool:
        """Whether every rule passed (the CLI's exit status 0)."""
        return all(f.passed for f in self.findings)

    @cached_property
    def failed(self) -> tuple[Finding, ...]:
        return tuple(f for f in self.findings if not f.passed)

    def frame(self, rule_set: str | None = None) -> pd.DataFrame:
        """The rows as a table: rule, subject, levels, figure, limit, result, note, source."""
        rows = [f for f in self.findings if rule_set is None or f.rule_set == rule_set]
        columns = ["rule", "subject", "levels", "figure", "limit", "result", "note", "source"]
        return pd.DataFrame([{**asdict(f), "result": f.result} for f in rows], columns=columns)

    def to_dict(self) -> dict:
        """The JSON document of ``slotmath check --json``: the same rows as the text."""
        return {
            "game": self.game_name,
            "bet_levels": list(self.levels),
            "passed": self.passed,
            "limits": dict(self.limits),
            "rule_sets": {
                name: {
                    "document": RULE_SETS[name],
                    "passed": all(f.passed for f in self.findings if f.rule_set == name),
                    "rules": [{**{k: v for k, v in asdict(f).items() if k != "rule_set"},
                               "result": f.result}
                              for f in self.findings if f.rule_set == name],
                }
                for name in self.rule_sets
            },
        }

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), indent=2)

    def text(self) -> str:
        """One table per rule set (rule, subject, levels, figure, limit, result, note)."""
        out = [f"Compliance check: {self.game_name} (bet levels {_levels_text(self.levels)})"]
        for name in self.rule_sets:
            frame = self.frame(name)
            verdict = "pass" if (frame["result"] == "pass").all() else "FAIL"
            out += ["", f"{name}: {RULE_SETS[name]}: {verdict}"]
            for rule in (r for r in RULES if r.rule_set == name):
                limit = "" if rule.limit is None else f"  [{rule.limit} = {self.limits[rule.limit]:g}]"
                out.append(f"  {rule.id}: {rule.source}{limit}")
            out.append(_table(frame.drop(columns=["source"])))
        failed = len(self.failed)
        out += ["", "all rules pass" if not failed else f"{failed} row(s) FAIL"]
        return "\n".join(out)


def _table(frame: pd.DataFrame) -> str:
    """Left-aligned plain-text table (the note column last, unpadded)."""
    cells = [list(frame.columns)] + frame.astype(str).values.tolist()
    widths = [max(len(row[i]) for row in cells) for i in range(len(frame.columns))]
    lines = ["  ".join(c.ljust(w) for c, w in zip(row, widths)).rstrip() for row in cells]
    return "\n".join("  " + line for line in lines)


def parse_rule_sets(text: str | None) -> tuple[str, ...]:
    """``"gli11,anz"`` -> ``("gli11", "anz")``; ValueError naming the unknown ones.

    Examples
    --------
    >>> parse_rule_sets(None), parse_rule_sets("ukgc, gli11, stake")
    (('gli11', 'anz', 'ukgc', 'modes'), ('ukgc', 'gli11', 'stake'))
    """
    if text is None:
        return DEFAULT_RULE_SETS
    names = tuple(dict.fromkeys(n.strip().lower() for n in text.split(",") if n.strip()))
    unknown = [n for n in names if n not in RULE_SETS]
    if unknown or not names:
        raise ValueError(f"unknown rule set {', '.join(map(repr, unknown)) or repr(text)}; "
                         f"choose from {', '.join(RULE_SETS)}")
    return names


def parse_limits(items: Iterable[str] = ()) -> dict[str, float]:
    """``["anz.min_rtp=0.9"]`` -> every limit, defaults for those not given.

    Examples
    --------
    >>> parse_limits(["anz.min_rtp=0.9"])["anz.min_rtp"], parse_limits()["gli11.games"]
    (0.9, 100000000)
    """
    limits = {name: limit.default for name, limit in LIMITS.items()}
    for item in items:
        name, sep, value = item.partition("=")
        name = name.strip()
        if not sep or name not in LIMITS:
            raise ValueError(f"expected NAME=VALUE with NAME one of {', '.join(LIMITS)}, "
                             f"got {item!r}")
        try:
            number = float(value)
        except ValueError:
            number = math.nan
        if not math.isfinite(number) or number <= 0:
            raise ValueError(f"{name} must be a number > 0, got {value.strip()!r}")
        limits[name] = number
    return limits


def check(game, rule_sets: Iterable[str] = DEFAULT_RULE_SETS,
          levels: Iterable[int] | None = None,
          limits: Mapping[str, float] | None = None, progress=None) -> ComplianceReport:
    """Check ``game`` against the rule sets at ``levels`` (default: every bet level).

    Parameters
    ----------
    game : Game
    rule_sets : iterable of str
        Keys of :data:`RULE_SETS`.
    levels : iterable of int, optional
        The bet levels to check (each rule needs its levels' analyses); default all.
    limits : mapping, optional
        Values for some :data:`LIMITS` (the others keep their defaults).
    progress : callable, optional
        Passed to each :func:`slotmath.analyze`.

    Examples
    --------
    >>> import slotmath
    >>> g = slotmath.load_game("data/games/classic_3reel.toml")
    >>> r = check(g, ["anz"], limits={"anz.min_rtp": 0.96})
    >>> [(f.rule, f.result) for f in r.findings if not f.passed]
    [('ANZ minimum RTP', 'FAIL')]
    """
    rule_sets = parse_rule_sets(",".join(rule_sets))
    levels = tuple(game.bet_levels if levels is None else levels)
    for level in levels:
        game.check_level(level)
    chosen = {name: limit.default for name, limit in LIMITS.items()} | dict(limits or {})
    unknown = set(chosen) - set(LIMITS)
    if unknown:
        raise ValueError(f"unknown limit {sorted(unknown)}; choose from {', '.join(LIMITS)}")
    if not game.modes:  # the rules across modes speak of a game that has them
        rule_sets = tuple(r for r in rule_sets if r != "modes")
    analyses = _Levels(game, levels, progress)
    findings: list[Finding] = []
    for name in rule_sets:
        for rule in RULES:
            if rule.rule_set == name:
                findings += rule.evaluate(analyses, chosen, rule)
    return ComplianceReport(game.name, levels, rule_sets, chosen, tuple(findings))
