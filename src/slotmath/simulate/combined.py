"""Whole rounds of a game whose features combine, played spin by spin: the simulator
counterpart of the composed analysis for any mix of the paid spin's pays, free spins, hold
& win (also started inside free spins), the bonus wheel, base-game modifiers (also acting in
free spins), the max-win cap, and of the game's modes (an ante's reels, a bonus buy).

A round, as the rules say (docs/game-format.md):

1. the paid spin: its stops drawn on the paid reels (``base``, or the mode's ``reels``) and
   paid by the compiled spin kernel; at most one modifier acts on it (by frequency), its
   window changed and paid again by the game's evaluator; its trigger and cash symbols
   counted. A bonus buy has no paid spin: the count of the bought feature's trigger is drawn
   from the mode's law;
2. its bonus-wheel spins (one, or one per trigger line);
3. its hold & win round, if ``trigger`` or more cash symbols show
   (:func:`slotmath.simulate.hold_and_win.play_hold_and_win`);
4. its free spins, if the trigger count awards any: every running feature plays one free
   spin at a time on the free reels (stops drawn, paid by the kernel, a modifier with
   ``in_free_spins`` acting at its frequency), its window win times the multiplier, its wheel
   win times it only if ``multiplied``, a hold & win round when its window shows enough cash
   symbols and the hold & win plays in free spins (not multiplied), retriggers cut at
   ``max_spins``;
5. the max-win cap on the round's total.

Randomness: one ``numpy.random.Generator(PCG64(seed))``, used in this fixed order batch by
batch. For a game of the paid spin and hold & win (with or without modifiers) the draws are
those of :func:`slotmath.simulate.hold_and_win.simulate_game` within one batch.

``mutation`` exists for the tests only (the agreement tests must fail on it):
``"mode_base_cost"`` divides a mode's return by 1 instead of its cost; ``"no_nested"`` never
starts hold & win inside free spins.
"""

from __future__ import annotations

import math

import numpy as np
from tqdm.auto import tqdm

from slotmath.evaluate.window import PayModel
from slotmath.model.game import Game
from slotmath.simulate.bonus_wheel import play_bonus_wheel
from slotmath.simulate.hold_and_win import play_hold_and_win
from slotmath.simulate.modifiers import apply
from slotmath.simulate.monte_carlo import SimulationResult, _spin_count
from slotmath.simulate.spins import ReelSet, draw_stops, pay
from slotmath.simulate.tables import compile_pays

__all__ = ["MUTATIONS", "simulate_rounds"]

MUTATIONS = (None, "mode_base_cost", "no_nested")

#: paid rounds played per batch
BATCH = 1 << 20


class _Spins:
    """One reel set compiled: the kernel's tables and, per reel and stop, how many trigger
    and cash symbols its window shows."""

    def __init__(self, game: Game, model: PayModel, pays, name: str, symbols):
        self.game, self.model, self.name = game, model, name
        self.set = ReelSet.compile(game, model, pays, name)
        reels = game.reel_sets[name].reels
        self.counts = {s: [np.asarray([r.window(k, game.rows[j]).count(s)
                                       for k in range(len(r.symbols))], np.int64)
                           for j, r in enumerate(reels)] for s in symbols if s}

    def count(self, symbol, stops) -> np.ndarray:
        out = np.zeros(len(stops), np.int64)
        if symbol:
            for j, per_stop in enumerate(self.counts[symbol]):
                out += per_stop[stops[:, j]]
        return out

    def play(self, rng, n: int, modifiers, trigger, cash):
        """``n`` spins: credits, trigger count, cash count and wheel trigger lines, with at
        most one of ``modifiers`` acting on each (by frequency)."""
        stops = draw_stops(rng, self.set.reels, n)
        credits, _, lines, _ = pay(self.set, n, stops=stops)
        count, held = self.count(trigger, stops), self.count(cash, stops)
        if modifiers:
            edges = np.cumsum([float(m.frequency) for m in modifiers])
            which = np.searchsorted(edges, rng.random(n), side="right")
            game, reels = self.game, self.game.reel_sets[self.name].reels
            for i in np.flatnonzero(which < len(modifiers)):
                window = [list(reels[j].window(int(stops[i, j]), game.rows[j]))
                          for j in range(game.n_reels)]
                shown = tuple(tuple(c) for c in apply(window, modifiers[which[i]], rng))
                credits[i] = self.model.spin_win(shown)
                count[i] = sum(c.count(trigger) for c in shown) if trigger else 0
                held[i] = sum(c.count(cash) for c in shown) if cash else 0
        return credits, count, held, lines


class _Run:
    """The compiled parts of a round and what the rounds played so far paid (total bets)."""

    def __init__(self, game: Game, level: int, mode, mutation):
        self.game, self.mode, self.mutation = game, mode, mutation
        self.model = PayModel(game, level)
        self.pays = compile_pays(game, self.model)
        self.cpb = self.pays.credits_per_bet
        self.fs, self.hw = game.free_spins, game.hold_and_win
        self.trigger = self.fs.trigger if self.fs else None
        self.cash = self.hw.symbol if self.hw else None
        mods = list(game.modifiers) if game.modifiers is not None else []
        self.paid_mods = mods
        self.free_mods = [m for m in mods if m.in_free_spins]
        paid_reels = getattr(mode, "reels", None) or "base"
        self.paid = _Spins(game, self.model, self.pays, paid_reels, (self.trigger, self.cash))
        self.free = (_Spins(game, self.model, self.pays, self.fs.reels,
                            (self.trigger, self.cash)) if self.fs else None)
        self.cap = (float(game.cap_coins(level) / game.total_bet(level))
                    if game.max_win is not None else None)
        self.nested = bool(self.hw and self.hw.in_free_spins and mutation != "no_nested")
        self.totals = dict.fromkeys(("pays", "free_spins", "hold_and_win", "bonus_wheel",
                                     "max_win_cap"), 0.0)
        self.hits = self.features = self.feature_spins = self.hw_rounds = self.capped = 0
        # the respin rounds the paid spin starts: rounds showing each named value at least
        # once, the named values shown, the full grids (report.hold_and_win.named_odds)
        named = len(self.hw.named_values) if self.hw else 0
        self.named_some, self.named_shown = np.zeros(named, np.int64), np.zeros(named, np.int64)
        self.full_grids = 0
        self.done = 0
        self.mean = self.squares = 0.0

    def _awards(self, counts) -> np.ndarray:
        return np.asarray([self.fs.award_for(int(c)) for c in range(int(counts.max(initial=0))
                                                                     + 1)], np.int64)[counts]

    def play(self, rng, n: int) -> None:
        buys = getattr(self.mode, "buys", None)
        window = np.zeros(n)
        wheel = np.zeros(n)
        awarded = np.zeros(n, np.int64)
        held = np.zeros(n, np.int64)
        if buys:
            law = self.mode.trigger_probabilities
            counts = np.asarray(list(law), np.int64)[
                rng.choice(len(law), size=n, p=np.asarray([float(p) for p in law.values()]))]
            if buys == "free_spins":
                awarded = self._awards(counts)
            else:
                held = counts
        else:
            credits, count, held, lines = self.paid.play(rng, n, self.paid_mods, self.trigger,
                                                         self.cash)
            window = credits / self.cpb
            w = play_bonus_wheel(rng, self.pays, lines)
            if w is not None:
                wheel = w / self.cpb
            if self.fs is not None:
                awarded = self._awards(count)
        hw = np.zeros(n)
        if self.hw is not None:
            started = np.flatnonzero(held >= self.hw.trigger)
            if started.size:
                sample = play_hold_and_win(self.hw, held[started], rng)
                hw[started] = sample.win
                self.hw_rounds += started.size
                self.named_some += sample.named_rounds
                self.named_shown += sample.named_shown
                self.full_grids += int(sample.full.sum())
        free, free_wheel, free_hw = (np.zeros(n) for _ in range(3))
        running = np.flatnonzero(awarded)
        if running.size:
            self._free_spins(rng, running, awarded, free, free_wheel, free_hw)
        total = window + wheel + hw + free + free_wheel + free_hw
        paid_total = total
        if self.cap is not None:
            paid_total = np.minimum(total, self.cap)
            self.capped += int((total > self.cap).sum())
            self.totals["max_win_cap"] += float((paid_total - total).sum())
        for name, part in (("pays", window), ("bonus_wheel", wheel + free_wheel),
                           ("hold_and_win", hw + free_hw), ("free_spins", free)):
            self.totals[name] += float(part.sum())
        delta = paid_total.mean() - self.mean
        self.squares += float(((paid_total - paid_total.mean()) ** 2).sum()) + (
            delta * delta * self.done * n / (self.done + n))
        self.mean += delta * n / (self.done + n)
        self.hits += int((paid_total > 0).sum())
        self.done += n

    def _free_spins(self, rng, running, awarded, free, free_wheel, free_hw) -> None:
        """Play the free spins of the rounds ``running`` (``awarded`` spins each) to their
        end, adding their window, wheel and hold & win wins."""
        fs = self.fs
        cap = fs.max_spins
        awarded = awarded.copy()
        if cap is not None:
            awarded = np.minimum(awarded, cap)
        played = np.zeros(len(awarded), np.int64)
        wheel_mult = fs.multiplier if self.game.bonus_wheel is not None and \
            self.game.bonus_wheel.multiplied else 1
        self.features += running.size
        while running.size:
            credits, count, held, lines = self.free.play(rng, running.size, self.free_mods,
                                                         self.trigger, self.cash)
            free[running] += credits * fs.multiplier / self.cpb
            w = play_bonus_wheel(rng, self.pays, lines)
            if w is not None:
                free_wheel[running] += w * wheel_mult / self.cpb
            if self.nested:
                started = np.flatnonzero(held >= self.hw.trigger)
                if started.size:
                    free_hw[running[started]] += play_hold_and_win(self.hw, held[started],
                                                                   rng).win
                    self.hw_rounds += started.size
            played[running] += 1
            self.feature_spins += running.size
            if fs.retrigger:
                extra = self._awards(count)
                if cap is not None:
                    extra = np.minimum(extra, cap - awarded[running])
                awarded[running] += extra
            running = running[played[running] < awarded[running]]

    def result(self, seed: int, level: int) -> SimulationResult:
        spins = self.done
        cost = 1.0 if self.mode is None or self.mutation == "mode_base_cost" else float(
            self.mode.cost)
        std = math.sqrt(self.squares / (spins - 1)) if spins > 1 else 0.0
        present = {"pays": True, "free_spins": self.fs is not None,
                   "hold_and_win": self.hw is not None,
                   "bonus_wheel": self.game.bonus_wheel is not None,
                   "max_win_cap": self.cap is not None}
        components = {k: v / spins / cost for k, v in self.totals.items() if present[k]}
        rates = {}
        if self.fs is not None:
            rates["free_spins"] = self.features / spins
        if self.hw is not None:
            rates["hold_and_win"] = self.hw_rounds / spins
        free = (self.totals["free_spins"]) / spins / cost
        return SimulationResult(
            spins=spins, rtp=self.mean / cost, std_error=std / cost / math.sqrt(spins),
            hit_frequency=self.hits / spins, std=std / cost,
            base=self.totals["pays"] / spins / cost, free_spins=free,
            trigger_rate=self.features / spins,
            spins_per_feature=self.feature_spins / self.features if self.features else 0.0,
            seed=seed, level=level, bonus_wheel=self.totals["bonus_wheel"] / spins / cost,
            max_win_cap=self.totals["max_win_cap"] / spins / cost, capped_rounds=self.capped,
            components=components, trigger_rates=rates, details=self._details(spins))

    def _details(self, spins: int) -> dict:
        """A Link game's named values and named full grid per paid round, over the respin
        rounds the paid spin starts (the analysis' ``named_odds``)."""
        hw = self.hw
        if hw is None or not (hw.named_values or hw.full_grid_name):
            return {}
        named = [{"name": name, "value": float(value),
                  "at_least_one": int(some) / spins, "expected": int(shown) / spins}
                 for (name, value), some, shown in zip(hw.named_values, self.named_some,
                                                       self.named_shown)]
        if hw.full_grid_name is not None:
            named.append({"name": hw.full_grid_name, "value": float(hw.full_grid_prize),
                          "at_least_one": self.full_grids / spins,
                          "expected": self.full_grids / spins, "full_grid": True})
        return {"hold_and_win": {"named_values": named, "rounds": spins}}


def simulate_rounds(game: Game, spins: int, seed: int, level: int = 1,
                    progress: bool | float = False, mode: str | None = None,
                    mutation: str | None = None) -> SimulationResult:
    """Play ``spins`` seeded paid rounds of ``game`` (in game mode ``mode``) at ``level``:
    the front door's round simulator of games whose features combine (see the module notes).

    Returns
    -------
    SimulationResult
        Money per amount wagered (a mode's: per its cost): ``rtp``, its ``std_error``, the
        ``components`` by feature name (``pays``: the paid spin's window; ``free_spins``:
        the free spins' window wins; ``hold_and_win``: every hold & win round, inside free
        spins too; ``bonus_wheel``: every wheel spin; ``max_win_cap``: minus what the cap
        removed), adding up to ``rtp``; the trigger rate of each round feature.

    Examples
    --------
    >>> import slotmath
    >>> game = slotmath.load_game("data/games/tiny_lines.toml")
    >>> r = simulate_rounds(game, 20_000, seed=2)
    >>> r == simulate_rounds(game, 20_000, seed=2), sorted(r.components)
    (True, ['free_spins', 'pays'])
    """
    spins = _spin_count(spins)
    if mutation not in MUTATIONS:
        raise ValueError(f"unknown mutation {mutation!r}; choose from {MUTATIONS}")
    game.check_level(level)
    run = _Run(game, level, None if mode is None else game.mode(mode), mutation)
    rng = np.random.Generator(np.random.PCG64(seed))
    delay = 0.0 if isinstance(progress, bool) else float(progress)
    with tqdm(total=spins, disable=progress is False, unit="round", unit_scale=True,
              desc=game.name, delay=delay) as bar:
        while run.done < spins:
            n = min(BATCH, spins - run.done)
            run.play(rng, n)
            bar.update(n)
    return run.result(seed, level)
