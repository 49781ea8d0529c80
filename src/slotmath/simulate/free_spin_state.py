"""Free spins with a state, random awards or a growing multiplier, as the simulator plays them:
the Monte Carlo counterpart of :mod:`slotmath.markov.free_spin_state`.

Every running feature of a batch spins once at a time: the stops are drawn with the caller's
``numpy.random.Generator`` (:func:`slotmath.simulate.spins.draw_stops`), the windows built as
symbol ids, changed by each feature's state (sticky cells forced) and paid by a numba kernel
on the compiled pay tables (:mod:`slotmath.simulate.tables`: lines, also with added line
multipliers, or ways, and scatters); then the state's own rule is played on each window (the
expanding symbol's extra pay, the cash values drawn and collected, the wilds that stick) and
the state moves on. The rules are those of docs/game-format.md, "Free spins with a state".

:func:`simulate_rounds` plays whole paid rounds (the round simulator of the three state
features, and of free spins with random awards or a growing multiplier), through the paid
spin's own kernel (:func:`slotmath.simulate.spins.play_paid_spins`) and
:func:`play_features`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import NamedTuple

import numpy as np
from numba import njit
from tqdm.auto import tqdm

from slotmath.evaluate.window import PayModel
from slotmath.model.game import Game
from slotmath.simulate import _kernels
from slotmath.simulate.monte_carlo import BATCH, SimulationResult, _spin_count
from slotmath.simulate.spins import ReelSet, draw_stops, play_paid_spins
from slotmath.simulate.tables import MODE_WAYS, compile_pays, compile_reels

__all__ = ["Features", "Player", "play_features", "simulate_rounds"]


class Features(NamedTuple):
    """What a batch of features paid, one entry a feature."""

    win: np.ndarray  # int64: credits (Player.credits_per_bet a bet), every multiplier applied
    played: np.ndarray  # int64: free spins played
    state: np.ndarray  # the state at the end: expanding symbol index, sticky wilds, collected


@njit(cache=True)
def _pay_windows(ids, lines, symbol_class, n_classes, pay_table, member, class_multiplier,
                 key_pay, ways, counted_of, counted_credits, trigger_id):
    """Credits and trigger count of windows ``ids[spin, reel, row]`` (symbol ids): lines
    through the line pay table (or the generic line rule), or ways, plus scatters."""
    n, n_reels, rows = ids.shape
    win = np.zeros(n, np.int64)
    trig = np.zeros(n, np.int64)
    counts = np.zeros(counted_credits.shape[0], np.int64)
    classes = np.empty(n_reels, np.int64)
    for i in range(n):
        total = 0
        if ways:
            for k in range(member.shape[0]):
                run = 0
                product = 1
                for j in range(n_reels):
                    c = 0
                    for r in range(rows):
                        s = ids[i, j, r]
                        if s >= 0:
                            cl = symbol_class[s]
                            if member[k, cl]:
                                c += class_multiplier[cl]
                    if c == 0:
                        break
                    run += 1
                    product *= c
                if run > 0:
                    total += key_pay[k, run] * product
        else:
            for line in range(lines.shape[0]):
                index = 0
                for j in range(n_reels):
                    classes[j] = symbol_class[ids[i, j, lines[line, j]]]
                    index = index * n_classes + classes[j]
                if pay_table.shape[0] > 0:
                    total += pay_table[index]
                else:
                    total += _kernels._line_pay(classes, member, class_multiplier, key_pay)
        counts[:] = 0
        t = 0
        for j in range(n_reels):
            for r in range(rows):
                s = ids[i, j, r]
                if s >= 0:
                    if counted_of[s] >= 0:
                        counts[counted_of[s]] += 1
                    if s == trigger_id:
                        t += 1
        for q in range(counts.shape[0]):
            total += counted_credits[q, counts[q]]
        win[i] = total
        trig[i] = t
    return win, trig


@dataclass(eq=False)
class Player:
    """``game``'s free spins at bet ``level``, compiled for the simulator."""

    game: Game
    level: int = 1

    def __post_init__(self):
        game, fs = self.game, self.game.free_spins
        self.fs = fs
        self.model = PayModel(game, self.level)
        self.pays = compile_pays(game, self.model)
        self.reels = compile_reels(game, self.model, self.pays, fs.reels)
        names = list(game.symbols)
        self.ids = {name: i for i, name in enumerate(names)}
        rs = game.reel_sets[fs.reels]
        rows = max(game.rows)
        self.rows = rows
        # window of every stop: strip[j][stop + r] (ids; -1 past a reel's rows)
        self.window_of = []
        for j, reel in enumerate(rs.reels):
            n = len(reel.symbols)
            w = np.full((n, rows), -1, np.int64)
            for stop in range(n):
                for r in range(game.rows[j]):
                    w[stop, r] = self.ids[reel.symbols[(stop + r) % n]]
            self.window_of.append(w)
        self.symbol_class = np.array([self.pays.symbol_class[s] for s in names], np.int64)
        self.counted_of = np.full(len(names), -1, np.int64)
        for q, name in enumerate(self.pays.counted):
            self.counted_of[self.ids[name]] = q
        self.lines = np.asarray(game.paylines or [[0] * game.n_reels], np.int64)
        self.trigger_id = self.ids[fs.trigger]
        state = fs.state
        self.kind = None if state is None else state.kind
        self.credits_per_bet = self.model.credits_per_bet
        if self.kind == "collector":
            dens = [Fraction(v).denominator for v, _ in state.values]
            self.credits_per_bet = math.lcm(self.model.credits_per_bet, *dens)
        self.scale = self.credits_per_bet // self.model.credits_per_bet
        if self.kind == "expanding_symbol":
            self.expanding = [x for x, w in state.symbols if w]
            weights = np.array([w for _, w in state.symbols if w], np.float64)
            self.expanding_p = weights / weights.sum()
            top = game.n_reels
            self.expansion = np.zeros((len(self.expanding), top + 1), np.int64)
            for i, x in enumerate(self.expanding):
                for k in range(top + 1):
                    self.expansion[i, k] = game.n_lines * self.model.key_credits[x].get(k, 0)
            self.expanding_ids = np.array([self.ids[x] for x in self.expanding], np.int64)
        if self.kind == "sticky_wilds":
            self.sticky = np.zeros(len(names), np.bool_)
            for s in state.symbols:
                self.sticky[self.ids[s]] = True
        if self.kind == "collector":
            self.collector_id = self.ids[state.collector]
            self.cash = np.zeros(len(names), np.bool_)
            for s in state.cash:
                self.cash[self.ids[s]] = True
            self.values = np.array([int(v * self.credits_per_bet) for v, w in state.values
                                    if w], np.int64)
            vw = np.array([w for _, w in state.values if w], np.float64)
            self.values_p = vw / vw.sum()
        cap = max(fs.awards)
        self.retrigger = np.array([fs.retrigger_for(t) if fs.retrigger else 0
                                   for t in range(cap + 1)], np.int64)
        self.trigger_cap = cap

    def draw_awards(self, rng: np.random.Generator, counts: np.ndarray) -> np.ndarray:
        """The spins ``counts`` trigger symbols award (drawn by weight for random awards)."""
        out = np.zeros(counts.size, np.int64)
        for c in np.unique(counts):
            law = self.fs.spins_law(int(c))
            at = np.flatnonzero(counts == c)
            if not law:
                continue
            spins = np.array(list(law), np.int64)
            p = np.array(list(law.values()), np.float64)
            out[at] = spins[rng.choice(len(spins), size=at.size, p=p / p.sum())]
        if self.fs.max_spins is not None:
            out = np.minimum(out, self.fs.max_spins)
        return out

    def windows(self, rng: np.random.Generator, n: int) -> np.ndarray:
        """``n`` free-spin windows as symbol ids ``[spin, reel, row]``."""
        stops = draw_stops(rng, self.reels, n)
        return np.stack([self.window_of[j][stops[:, j]] for j in range(len(self.window_of))],
                        axis=1)

    def pay(self, ids: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        p = self.pays
        return _pay_windows(ids, self.lines, self.symbol_class, p.n_classes, p.pay_table,
                            p.member, p.class_multiplier, p.key_pay, p.mode == MODE_WAYS,
                            self.counted_of, p.counted_credits, self.trigger_id)


def play_features(rng: np.random.Generator, player: Player, awarded: np.ndarray) -> Features:
    """Simulator counterpart of the free-spin state chain: play the features that start with
    ``awarded`` spins (cut to ``max_spins``) to their end, every running feature one spin at
    a time.

    Examples
    --------
    >>> import slotmath
    >>> g = slotmath.load_game("tests/data/free_spin_state/tiny_sticky.toml")
    >>> f = play_features(np.random.default_rng(1), Player(g), np.array([2, 3]))
    >>> f.played.tolist(), f.win.shape
    ([2, 3], (2,))
    """
    fs, kind = player.fs, player.kind
    n = awarded.size
    cap = fs.max_spins
    awarded = np.minimum(awarded, cap) if cap is not None else awarded.astype(np.int64)
    total = np.zeros(n, np.int64)
    played = np.zeros(n, np.int64)
    if kind == "expanding_symbol":
        state = rng.choice(len(player.expanding), size=n, p=player.expanding_p)
    elif kind == "sticky_wilds":
        state = np.full((n, player.game.n_reels, player.rows), -1, np.int64)
    else:
        state = np.zeros(n, np.int64)  # collectors counted (no state: unused)
    running = np.flatnonzero(awarded > 0)
    while running.size:
        ids = player.windows(rng, running.size)
        if kind == "sticky_wilds":
            forced = state[running]
            ids = np.where(forced >= 0, forced, ids)
            state[running] = np.where((forced < 0) & player.sticky[ids], ids, forced)
        credits, trigger = player.pay(ids)
        credits = credits * player.scale
        award = player.retrigger[np.minimum(trigger, player.trigger_cap)]
        if kind == "expanding_symbol":
            x = state[running]
            shows = (ids == player.expanding_ids[x][:, None, None]).any(axis=2).sum(axis=1)
            credits = credits + player.expansion[x, shows] * player.scale
        elif kind == "collector":
            c = fs.state
            nc = (ids == player.collector_id).sum(axis=(1, 2))
            nf = player.cash[ids].sum(axis=(1, 2))
            draws = rng.choice(player.values.size, size=int(nf.sum()), p=player.values_p)
            owner = np.repeat(np.arange(running.size), nf)
            cash = np.bincount(owner, weights=player.values[draws],
                               minlength=running.size).astype(np.int64)
            before = state[running]
            level = np.minimum(before // c.every, len(c.ladder))
            ladder = np.array((1, *c.ladder), np.int64)[level]
            if c.applies == "all":
                credits = (credits + nc * cash) * ladder
            else:
                credits = credits + nc * cash * ladder
            after = np.minimum(before + nc, c.every * len(c.ladder))
            state[running] = after
            award = award + c.retrigger * (np.minimum(after // c.every, len(c.ladder)) - level)
        credits = credits * fs.multiplier
        if fs.growth is not None:
            spin_index = played[running]
            g = np.array([fs.growth.value(int(k)) for k in range(int(spin_index.max()) + 1)],
                         np.int64)
            credits = credits * g[spin_index]
        total[running] += credits
        played[running] += 1
        if cap is not None:
            award = np.minimum(award, cap - awarded[running])
        awarded[running] += award
        running = running[played[running] < awarded[running]]
    return Features(total, played, state)


def simulate_rounds(game: Game, spins: int, seed: int, level: int = 1,
                    progress: bool | float = False) -> SimulationResult:
    """Play ``spins`` seeded paid rounds of ``game`` whose free spins carry a state (or draw
    their awards, or grow their multiplier): the paid spin by the compiled kernel, each
    feature it triggers by :func:`play_features`.

    Examples
    --------
    >>> import slotmath
    >>> g = slotmath.load_game("tests/data/free_spin_state/tiny_book.toml")
    >>> r = simulate_rounds(g, 20_000, seed=2)
    >>> r == simulate_rounds(g, 20_000, seed=2), sorted(r.components)
    (True, ['free_spins', 'pays'])
    """
    spins = _spin_count(spins)
    game.check_level(level)
    fs = game.free_spins
    # the paid spin's kernel tells the trigger count itself (awards t -> t)
    counting = replace(game, free_spins=replace(
        fs, awards={c: c for c in range(1, max(fs.awards) + 1)}, award_laws=None, growth=None,
        state=None, retrigger=False, max_spins=None, retrigger_awards=None))
    model = PayModel(counting, level)
    base = ReelSet.compile(counting, model, compile_pays(counting, model), "base")
    player = Player(game, level)
    scale = player.scale
    rng = np.random.Generator(np.random.PCG64(seed))
    done = base_total = feature_total = features = feature_spins = hits = 0
    mean = squares = 0.0
    delay = 0.0 if isinstance(progress, bool) else float(progress)
    with tqdm(total=spins, disable=progress is False, unit="spin", unit_scale=True,
              desc=game.name, delay=delay) as bar:
        while done < spins:
            n = min(BATCH, spins - done)
            paid = play_paid_spins(rng, base, n)
            win = paid.win * scale
            counts = paid.award
            triggered = np.flatnonzero(counts)
            awarded = player.draw_awards(rng, counts[triggered])
            started = triggered[awarded > 0]
            base_total += int(win.sum())
            if started.size:
                played = play_features(rng, player, awarded[awarded > 0])
                win[started] += played.win
                feature_total += int(played.win.sum())
                features += started.size
                feature_spins += int(played.played.sum())
            total, sq, hit = _kernels.moments(win)
            delta = total / n - mean
            squares += sq + delta * delta * done * n / (done + n)
            mean += delta * n / (done + n)
            hits += int(hit)
            done += n
            bar.update(n)
    cpb = player.credits_per_bet
    std = math.sqrt(squares / (spins - 1)) / cpb if spins > 1 else 0.0
    base_rtp, free = base_total / spins / cpb, feature_total / spins / cpb
    return SimulationResult(
        spins=spins, rtp=base_rtp + free, std_error=std / math.sqrt(spins),
        hit_frequency=hits / spins, std=std, base=base_rtp, free_spins=free,
        trigger_rate=features / spins,
        spins_per_feature=feature_spins / features if features else 0.0, seed=seed,
        level=level, components={"pays": base_rtp, "free_spins": free},
        trigger_rates={"free_spins": features / spins})
