"""A plain brute-force reference for cascades, frozen bonus symbols and free spins with a
carried multiplier (issue 9), written from /work/notes/cascade_spec.md only.

It reads a game from the raw TOML dict (what ``tomllib.loads`` returns), imports nothing
from slotmath, and computes every figure in exact :class:`fractions.Fraction` by following
every outcome: every stop combination x every ordering of every bonus arrangement, each
cascade chain followed drop by drop, and in random-refill mode every refill draw, by plain
recursion. The free-spins feature is a plain recursion over spins. It is meant for tiny
games only and is written to be read against the spec line by line, not to be fast.

Choices where the spec is silent (the simplest reading; also in the helper's note):

* ``scatters`` (of the joint law and of the bonus freeing rule) counts the positions showing
  ANY scatter symbol; each scatter symbol pays by its own count; the free-spins trigger and
  retrigger use the count of ``free_spins.trigger``.
* In free spins ``free_spins.multiplier`` multiplies the line/ways drop wins and (the
  documented rule of docs/game-format.md) the scatter pay, when ``scatter_pays``.
* Line ties: the entry declared first (symbols in file order, then groups) wins, so its run
  is the one removed.
* A ``split`` effect is defined for ways games only: the reference refuses it in a lines
  game; a ``wild`` effect works in both.
* A chain that can go on for ever (a state (window, strip tops, counters, freed reels) that
  repeats along one chain) has no finite law: the reference raises :class:`EndlessCascade`.
  In random mode this means every refill draw that could loop must be impossible.
* A retriggering feature needs ``max_spins`` (else the recursion need not end).
* Bet level 1 only (``level_pays`` is not read).

Scatters on every fall (``cascades.scatters = "every_fall"``, issue 21), written from
docs/game-format.md ("Cascades", the every-fall spin order) only:

* On each fall, after the line/ways evaluation, each scatter symbol is counted; its count
  WINS when it pays on this spin (its pay, x ``free_spins.multiplier`` in free spins, 0 there
  without ``scatter_pays``) or, for ``free_spins.trigger``, awards spins (``awards`` in a paid
  spin, ``retrigger_awards`` in a free one when ``retrigger``, else none). A winning count
  pays (x the fall's cascade multiplier with ``scatter_multiplied``) and its positions are
  removed with the line/ways winners; a fall with any win goes on (index + 1).
* The chain's trigger count is the highest count of the counted mark (``free_spins.trigger``,
  else the first scatter) over the falls where it won; nothing is read from the final window.
* ``RefGame.mutation`` ("not_removed": winning scatters pay but stay, and only a line/ways win
  goes on; "final_only": scatters as ``"final"`` whatever the file says) exists only so that
  the tests can show a wrong rule is caught.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Any


class EndlessCascade(ValueError):
    """A cascade chain of this game can repeat a state: its law is not finite."""


def to_fraction(value: Any) -> Fraction:
    """A pay or weight as written: 2, 2.5 (the decimal as written) or "5/2"."""
    if isinstance(value, bool):
        raise TypeError(value)
    if isinstance(value, float):
        return Fraction(repr(value))
    return Fraction(value)


def count_table(table: dict[str, Any]) -> dict[int, Fraction]:
    return {int(count): to_fraction(pay) for count, pay in table.items()}


def above_highest(table: dict[int, Any], count: int):
    """Scatter pays and awards: a count above the highest listed gets the highest listed;
    a count not listed otherwise gets nothing (0)."""
    if not table:
        return 0
    highest = max(table)
    if count > highest:
        return table[highest]
    return table.get(count, 0)


# ------------------------------------------------------------------------ the game, read


@dataclass
class Entry:
    """A pay-table entry: a plain symbol, a wild's own run, or a group."""

    name: str
    members: set[str]
    pays: dict[int, Fraction]


class RefGame:
    """The raw dict, read into plain Python values."""

    def __init__(self, data: dict[str, Any]):
        self.data = data
        self.symbols: dict[str, dict[str, Any]] = data["symbols"]
        self.reel_sets: dict[str, list] = data["reels"]
        self.n_reels = len(self.reel_sets["base"])
        rows = data["rows"]
        self.rows = list(rows) if isinstance(rows, list) else [rows] * self.n_reels
        self.bet = Fraction(data["bet"])
        self.ways = bool(data.get("ways", False))
        self.paylines = data.get("paylines", [])

        self.wilds = [s for s, d in self.symbols.items() if d.get("wild")]
        self.scatter_names = [s for s, d in self.symbols.items() if d.get("scatter")]

        self.entries: list[Entry] = []
        for name, d in self.symbols.items():  # symbols in file order
            if not d.get("pays") or d.get("scatter") or d.get("bonus"):
                continue
            if d.get("wild"):
                self.entries.append(Entry(name, {name}, count_table(d["pays"])))
            else:
                members = {name} | {w for w in self.wilds if self.substitutes(w, name)}
                self.entries.append(Entry(name, members, count_table(d["pays"])))
        for name, g in data.get("groups", {}).items():  # then groups
            members = set(g["members"])
            members |= {w for w in self.wilds if any(self.substitutes(w, m) for m in members)}
            self.entries.append(Entry(name, members, count_table(g["pays"])))

        cascades = data.get("cascades", {})
        self.refill_mode = cascades.get("refill", "strip")
        self.rule = cascades.get("multiplier", {"start": 1, "step": 0})
        self.free_rule = cascades.get("free_multiplier", self.rule)
        self.carry = bool(cascades.get("carry_multiplier", False))
        self.refill_weights = cascades.get("refill_weights", {})
        self.every_fall = cascades.get("scatters", "final") == "every_fall"
        self.scatter_multiplied = bool(cascades.get("scatter_multiplied", False))
        self.mutation = None

        self.bonus = data.get("bonus_symbols")
        if self.bonus is not None:
            for name, effect in self.bonus["effects"].items():
                if "split" in effect and not self.ways:
                    raise ValueError(f"bonus symbol {name}: split is for ways games only")

        self.free_spins = data.get("free_spins")
        if self.free_spins is not None:
            self.counted_mark = self.free_spins["trigger"]
        else:
            self.counted_mark = self.scatter_names[0] if self.scatter_names else None

    def plain(self, symbol: str) -> bool:
        d = self.symbols[symbol]
        return not (d.get("wild") or d.get("scatter") or d.get("bonus"))

    def substitutes(self, wild: str, symbol: str) -> bool:
        if not self.plain(symbol):
            return False
        allowed = self.symbols[wild].get("substitutes")
        return allowed is None or symbol in allowed

    def is_scatter(self, symbol: str) -> bool:
        return bool(self.symbols[symbol].get("scatter"))

    def symbol_multiplier(self, symbol: str) -> int:
        return int(self.symbols[symbol].get("multiplier", 1))

    def multiplier_value(self, rule: dict[str, Any], k: int) -> int:
        """The cascade multiplier of drop k (k = 0: the spin's first drop)."""
        if "ladder" in rule:
            ladder = rule["ladder"]
            return ladder[min(k, len(ladder) - 1)]
        value = rule["start"] + rule["step"] * k
        if "max" in rule:
            value = min(value, rule["max"])
        return value

    def strip_and_weights(self, reel_set: str, r: int) -> tuple[list[str], list[int]]:
        reel = self.reel_sets[reel_set][r]
        if isinstance(reel, dict):
            return list(reel["strip"]), list(reel["weights"])
        return list(reel), [1] * len(reel)


# ------------------------------------------------------------------ what one window pays
# An effective window is a list of reels; each reel a list of (symbol, split factor).


def effective_window(game: RefGame, window, arrangement, freed) -> list[list[tuple[str, int]]]:
    """Spec step 2: a freed wild reel shows its wild on every non-scatter position; a freed
    split reel counts every non-scatter position s times."""
    out = []
    for r, reel in enumerate(window):
        column = []
        for symbol in reel:
            if freed[r] and not game.is_scatter(symbol):
                effect = game.bonus["effects"][arrangement[r]]
                if "wild" in effect:
                    column.append((effect["wild"], 1))
                else:
                    column.append((symbol, effect["split"]))
            else:
                column.append((symbol, 1))
        out.append(column)
    return out


def ways_win(game: RefGame, eff) -> tuple[Fraction, set[tuple[int, int]]]:
    """Ways: every entry's win adds; returns (win in total bets, winning positions)."""
    total = Fraction(0)
    positions: set[tuple[int, int]] = set()
    for entry in game.entries:
        counts = []
        for reel in eff:
            count = 0
            for symbol, split in reel:
                if symbol in entry.members:
                    count += game.symbol_multiplier(symbol) * split
            counts.append(count)
        run = 0
        while run < len(counts) and counts[run] > 0:
            run += 1
        pay = entry.pays.get(run, Fraction(0)) if run > 0 else Fraction(0)
        if pay == 0:
            continue
        total += pay * math.prod(counts[:run]) / game.bet
        for r in range(run):
            for row, (symbol, _split) in enumerate(eff[r]):
                if symbol in entry.members:
                    positions.add((r, row))
    return total, positions


def lines_win(game: RefGame, eff) -> tuple[Fraction, set[tuple[int, int]]]:
    """Lines: each line pays its highest candidate (first declared on ties)."""
    total = Fraction(0)
    positions: set[tuple[int, int]] = set()
    for line in game.paylines:
        symbols = [eff[r][line[r]][0] for r in range(game.n_reels)]
        best_pay, best_run = Fraction(0), 0
        for entry in game.entries:
            run = 0
            while run < len(symbols) and symbols[run] in entry.members:
                run += 1
            if run == 0:
                continue
            pay = entry.pays.get(run, Fraction(0))
            pay *= math.prod(game.symbol_multiplier(s) for s in symbols[:run])
            if pay > best_pay:  # strictly greater: the first declared keeps a tie
                best_pay, best_run = pay, run
        if best_pay > 0:
            total += best_pay / len(game.paylines)
            for r in range(best_run):
                positions.add((r, line[r]))
    return total, positions


def window_win(game: RefGame, eff):
    return ways_win(game, eff) if game.ways else lines_win(game, eff)


def scatter_pay(game: RefGame, window) -> Fraction:
    total = Fraction(0)
    for name in game.scatter_names:
        count = sum(reel.count(name) for reel in window)
        total += Fraction(above_highest(count_table(game.symbols[name].get("pays", {})), count))
    return total


# ------------------------------------------------------------------------- one spin


@dataclass(frozen=True)
class SpinResult:
    first: Fraction       # the first drop's win (multiplied)
    later: Fraction       # the later drops' wins (multiplied)
    scatter: Fraction     # the scatter pay (already x free_spins.multiplier in free spins)
    scatters: int         # scatter positions in the final window
    trigger: int          # positions showing free_spins.trigger in the final window
    cascades: int         # winning drops
    final_index: int      # the cascade index the spin ended at
    final_multiplier: int  # the multiplier value at that index
    freed: tuple          # per reel: the effect name freed there, or None
    ways_in_play: int
    scatter_falls: tuple = ()  # every_fall: (name, count, pay) of each winning fall, sorted

    @property
    def win(self) -> Fraction:
        return self.first + self.later + self.scatter


def arrangement_orderings(game: RefGame) -> list[tuple[Fraction, tuple]]:
    """(probability, symbol above each reel); one empty arrangement without bonus symbols."""
    if game.bonus is None:
        return [(Fraction(1), (None,) * game.n_reels)]
    arrangements = game.bonus["arrangements"]
    total = sum(a["weight"] for a in arrangements)
    out = []
    for a in arrangements:
        if a["weight"] == 0:
            continue
        if game.bonus.get("shuffle", True):
            orders = sorted(set(itertools.permutations(a["symbols"])))
        else:
            orders = [tuple(a["symbols"])]
        for order in orders:
            out.append((Fraction(a["weight"], total) / len(orders), order))
    return out


def stop_combinations(game: RefGame, reel_set: str):
    """(probability, stops) for every stop combination of positive weight."""
    per_reel = []
    for r in range(game.n_reels):
        _strip, weights = game.strip_and_weights(reel_set, r)
        total = sum(weights)
        per_reel.append([(Fraction(w, total), p) for p, w in enumerate(weights) if w > 0])
    for combo in itertools.product(*per_reel):
        yield math.prod(p for p, _ in combo), tuple(s for _, s in combo)


def play_spin(game: RefGame, reel_set: str, stops, arrangement, start_index: int, free: bool):
    """Every way the spin can end: a list of (probability, SpinResult)."""
    strips = [game.strip_and_weights(reel_set, r)[0] for r in range(game.n_reels)]
    window = []
    for r, p in enumerate(stops):
        window.append([strips[r][(p + i) % len(strips[r])] for i in range(game.rows[r])])
    tops = list(stops)
    counters = [0] * game.n_reels
    freed = [False] * game.n_reels
    results: list[tuple[Fraction, SpinResult]] = []
    _drop(game, reel_set, strips, window, tops, counters, freed, arrangement, start_index,
          start_index, Fraction(0), Fraction(0), free, Fraction(1), set(), results)
    return results


def fall_scatters(game: RefGame, window, k: int, rule, free: bool):
    """Every-fall scatters of one fall: (pay, highest winning count of the counted mark,
    positions of the winning scatters, (name, count, pay) of each winning scatter)."""
    pay, trigger, positions, wins = Fraction(0), 0, set(), []
    spec = game.free_spins
    for name in game.scatter_names:
        count = sum(reel.count(name) for reel in window)
        credit = Fraction(above_highest(count_table(game.symbols[name].get("pays", {})), count))
        if free:
            credit = credit * spec.get("multiplier", 1) if spec.get("scatter_pays", True) else 0
        spins = 0
        if spec is not None and name == spec["trigger"]:
            if not free:
                spins = above_highest({int(c): n for c, n in spec["awards"].items()}, count)
            elif spec.get("retrigger", False):
                table = spec.get("retrigger_awards", spec["awards"])
                spins = above_highest({int(c): n for c, n in table.items()}, count)
        if credit == 0 and spins == 0:
            continue
        if game.scatter_multiplied:
            credit *= game.multiplier_value(rule, k)
        pay += credit
        wins.append((name, count, credit))
        if name == game.counted_mark:
            trigger = max(trigger, count)
        for r, reel in enumerate(window):
            positions |= {(r, row) for row, s in enumerate(reel) if s == name}
    return pay, trigger, positions, wins


def _drop(game, reel_set, strips, window, tops, counters, freed, arrangement, start_index, k,
          first, later, free, probability, seen, results, falls=(Fraction(0), 0, ())):
    """One pass of the spec's loop (steps 1-5), then the refill(s) and the next pass."""
    freed = list(freed)
    # 1. freeing
    if game.bonus is not None:
        for r in range(game.n_reels):
            scatters_here = sum(1 for s in window[r] if game.is_scatter(s))
            if not freed[r] and counters[r] + scatters_here >= game.bonus.get("threshold", 3):
                freed[r] = True
    # A state that repeats along the chain repeats for ever. The counters matter only on
    # reels not yet freed (where they are below the threshold, so the states are finite).
    live_counters = ()
    if game.bonus is not None:
        live_counters = tuple(c if not f else -1 for c, f in zip(counters, freed))
    state = (tuple(map(tuple, window)), tuple(tops) if game.refill_mode == "strip" else (),
             live_counters, tuple(freed))
    if state in seen:
        raise EndlessCascade(f"the cascade chain repeats the state {state}")
    seen = seen | {state}
    # 2.-3. effective window, its win, times the multiplier of index k
    eff = effective_window(game, window, arrangement, freed)
    win, removed = window_win(game, eff)
    rule = game.free_rule if free else game.rule
    drop = win * game.multiplier_value(rule, k)
    if free:
        drop *= game.free_spins.get("multiplier", 1)
    # every_fall: the scatters of this fall win, pay and go with the winners
    scatter_won = False
    if game.every_fall and game.mutation != "final_only":
        pay, trigger, positions, wins = fall_scatters(game, window, k, rule, free)
        if positions:
            falls = (falls[0] + pay, max(falls[1], trigger), tuple(sorted(falls[2] + tuple(wins))))
            if game.mutation != "not_removed":
                scatter_won = True
                removed = removed | positions
    # 4. a drop that wins nothing ends the spin
    if drop == 0 and not scatter_won:
        results.append((probability, _end(game, window, arrangement, freed, first, later,
                                          k - start_index, rule, k, free, falls)))
        return
    if k == start_index:
        first += drop
    else:
        later += drop
    # 5. remove the winning positions, count them, refill
    accumulate = game.bonus is None or game.bonus.get("accumulate", True)
    survivors, lost = [], []
    new_counters = list(counters)
    for r in range(game.n_reels):
        gone = [row for row in range(game.rows[r]) if (r, row) in removed]
        survivors.append([s for row, s in enumerate(window[r]) if row not in gone])
        lost.append(len(gone))
        new_counters[r] = (counters[r] + len(gone)) if accumulate else len(gone)
    if game.refill_mode == "strip":
        new_window, new_tops = [], []
        for r in range(game.n_reels):
            p, n, strip = tops[r], lost[r], strips[r]
            fresh = [strip[(p - n + i) % len(strip)] for i in range(n)]
            new_window.append(fresh + survivors[r])
            new_tops.append((p - n) % len(strip))
        _drop(game, reel_set, strips, new_window, new_tops, new_counters, freed, arrangement,
              start_index, k + 1, first, later, free, probability, seen, results, falls)
    else:
        tables = game.refill_weights[reel_set]
        choices = []  # per reel: every sequence of n new symbols, with its probability
        for r in range(game.n_reels):
            table = tables[r]
            total = sum(table.values())
            per_symbol = [(Fraction(w, total), s) for s, w in table.items() if w > 0]
            choices.append(list(itertools.product(per_symbol, repeat=lost[r])))
        for combo in itertools.product(*choices):
            p_draw = Fraction(1)
            new_window = []
            for r in range(game.n_reels):
                fresh = [s for _, s in combo[r]]
                p_draw *= math.prod(p for p, _ in combo[r])
                new_window.append(fresh + survivors[r])
            _drop(game, reel_set, strips, new_window, tops, new_counters, freed, arrangement,
                  start_index, k + 1, first, later, free, probability * p_draw, seen, results,
                  falls)


def _end(game, window, arrangement, freed, first, later, cascades, rule, k, free,
         falls=(Fraction(0), 0, ())):
    scatters = sum(1 for reel in window for s in reel if game.is_scatter(s))
    trigger = 0
    if game.free_spins is not None:
        trigger = sum(reel.count(game.free_spins["trigger"]) for reel in window)
    pay = scatter_pay(game, window)
    if free:
        if game.free_spins.get("scatter_pays", True):
            pay *= game.free_spins.get("multiplier", 1)
        else:
            pay = Fraction(0)
    if game.every_fall and game.mutation != "final_only":  # paid and counted on the falls
        pay, trigger = falls[0], falls[1]
    ways = 1
    freed_names = []
    for r in range(game.n_reels):
        split = 1
        if freed[r]:
            effect = game.bonus["effects"][arrangement[r]]
            split = effect.get("split", 1)
            freed_names.append(arrangement[r])
        else:
            freed_names.append(None)
        ways *= game.rows[r] * split
    return SpinResult(first, later, pay, scatters, trigger, cascades, k,
                      game.multiplier_value(rule, k), tuple(freed_names), ways, falls[2])


def spin_outcomes(game: RefGame, reel_set: str, start_index: int = 0, free: bool = False):
    """The law of one spin: a dict SpinResult -> probability (all stops x arrangements x
    refill draws)."""
    law: dict[SpinResult, Fraction] = {}
    for p_stops, stops in stop_combinations(game, reel_set):
        for p_arr, arrangement in arrangement_orderings(game):
            for p_chain, result in play_spin(game, reel_set, stops, arrangement, start_index,
                                             free):
                law[result] = law.get(result, Fraction(0)) + p_stops * p_arr * p_chain
    return law


# --------------------------------------------------------------- free spins, by recursion


class FeatureReference:
    """The free-spins feature: expected win given (trigger count, start index)."""

    def __init__(self, game: RefGame):
        self.game = game
        self.spec = game.free_spins
        self.reel_set = self.spec.get("reels", "base")
        self.max_spins = self.spec.get("max_spins")
        self.retrigger = bool(self.spec.get("retrigger", False))
        if self.retrigger and self.max_spins is None:
            raise ValueError("the reference needs max_spins with retrigger")
        self.awards = {int(c): n for c, n in self.spec["awards"].items()}
        self.retrigger_awards = {int(c): n for c, n in
                                 self.spec.get("retrigger_awards", self.spec["awards"]).items()}
        self._spin_laws: dict[int, dict[tuple, Fraction]] = {}
        self._values: dict[tuple, Fraction] = {}

    def spin_law(self, start_index: int) -> dict[tuple, Fraction]:
        """(win, trigger count, final index) -> probability of one free spin."""
        if start_index not in self._spin_laws:
            law: dict[tuple, Fraction] = {}
            for result, p in spin_outcomes(self.game, self.reel_set, start_index,
                                           free=True).items():
                key = (result.win, result.trigger, start_index + result.cascades)
                law[key] = law.get(key, Fraction(0)) + p
            self._spin_laws[start_index] = law
        return self._spin_laws[start_index]

    def value(self, spins_left: int, spins_awarded: int, index: int) -> Fraction:
        """Expected win of the rest of the feature."""
        if spins_left == 0:
            return Fraction(0)
        key = (spins_left, spins_awarded, index)
        if key not in self._values:
            total = Fraction(0)
            for (win, trigger, final_index), p in self.spin_law(index).items():
                extra = above_highest(self.retrigger_awards, trigger) if self.retrigger else 0
                if self.max_spins is not None:
                    extra = min(extra, self.max_spins - spins_awarded)
                next_index = final_index if self.game.carry else 0
                total += p * (win + self.value(spins_left - 1 + extra, spins_awarded + extra,
                                               next_index))
            self._values[key] = total
        return self._values[key]

    def expected_win(self, trigger_count: int, start_index: int) -> Fraction:
        spins = above_highest(self.awards, trigger_count)
        if self.max_spins is not None:
            spins = min(spins, self.max_spins)
        index = start_index if self.game.carry else 0
        return self.value(spins, spins, index)


# ------------------------------------------------------------------------- the figures


@dataclass
class Figures:
    probabilities: dict      # (win in total bets, scatters, cascades) -> probability
    mean_first: Fraction
    mean_later: Fraction
    mean_scatter: Fraction
    cascade_counts: dict
    final_multiplier: dict
    freed: dict              # (reel, effect name) -> probability (zeros left out)
    ways_in_play: dict
    mean_feature: Fraction
    rtp: Fraction


def _add(table: dict, key, p: Fraction) -> None:
    table[key] = table.get(key, Fraction(0)) + p


def figures(data: dict[str, Any], reel_set: str = "base") -> Figures:
    """Every figure of the spec's "Figures the reference must give", for a paid spin."""
    game = RefGame(data)
    law = spin_outcomes(game, reel_set)
    feature = FeatureReference(game) if game.free_spins is not None else None
    probabilities: dict = {}
    cascade_counts: dict = {}
    final_multiplier: dict = {}
    freed: dict = {}
    ways_in_play: dict = {}
    mean_first = mean_later = mean_scatter = mean_feature = Fraction(0)
    for result, p in law.items():
        _add(probabilities, (result.win, result.scatters, result.cascades), p)
        _add(cascade_counts, result.cascades, p)
        _add(final_multiplier, result.final_multiplier, p)
        _add(ways_in_play, result.ways_in_play, p)
        for r, name in enumerate(result.freed):
            if name is not None:
                _add(freed, (r, name), p)
        mean_first += p * result.first
        mean_later += p * result.later
        mean_scatter += p * result.scatter
        if feature is not None:
            mean_feature += p * feature.expected_win(result.trigger, result.final_index)
    return Figures(probabilities, mean_first, mean_later, mean_scatter, cascade_counts,
                   final_multiplier, freed, ways_in_play, mean_feature,
                   mean_first + mean_later + mean_scatter + mean_feature)
