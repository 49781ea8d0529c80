"""A plain reference for games whose features combine, written from the rules of
docs/game-format.md and sharing no code with slotmath's engines, evaluators or chains.

It reads the game file's own data (the dict the TOML parses to), for the small games the
tests build: a lines game (``paylines``), plain symbols paying line bets for a run from reel
1 of the symbol or the wild (the line pays its best candidate), one wild without pays of its
own and no multiplier symbols, scatters paying total bets for their count anywhere (the top
pay above the top count), uniform strips. Then, by the rules:

* the paid spin: every stop combination of the paid reels (``base``, or a mode's
  ``reels``), and each outcome of a base-game modifier (every count and every subset of
  positions, or every drawn symbol) at its frequency;
* the bonus wheel: ``count`` of its symbol from reel 1 on a payline (the symbol itself, no
  wild) plays one wheel spin (``once``) or one per such line (``per_line``);
* hold & win (no boosters): ``trigger`` or more cash symbols hold that many; every respin
  each empty position lands cash with ``cash_probability``, a landing resets the respins,
  the round ends when they run out or the grid is full; each held symbol pays a value drawn
  from the value law; a full grid adds ``full_grid_prize``. With ``in_free_spins`` the same
  round starts inside a free spin, its win added to that spin's, not multiplied;
* free spins: the trigger count awards spins (the top award above the top count); each free
  spin plays the free reels (with the modifiers that act in free spins), its window win and
  scatter pay times the multiplier, the wheel's win times it only if ``multiplied``; a
  retrigger adds ``retrigger_awards`` (else ``awards``), cut so that the feature never
  exceeds ``max_spins``;
* a mode that buys a feature: no paid spin, the feature started with a count drawn from its
  ``trigger`` law; a mode's RTP is its round's mean over its ``cost``.

Everything is an exact law ``{win in total bets: probability}`` built by enumeration and
convolution of dictionaries, so it is for tiny games only.
"""

from __future__ import annotations

import itertools
from fractions import Fraction
from functools import cache
from math import comb

ONE = {Fraction(0): Fraction(1)}


def convolve(a: dict, b: dict) -> dict:
    out: dict = {}
    for x, p in a.items():
        for y, q in b.items():
            out[x + y] = out.get(x + y, 0) + p * q
    return out


def mix(parts) -> dict:
    """The mixture of laws: ``parts`` is [(probability, law), ...]."""
    out: dict = {}
    for p, law in parts:
        for x, q in law.items():
            out[x] = out.get(x, 0) + p * q
    return out


def scaled(law: dict, k) -> dict:
    out: dict = {}
    for x, p in law.items():
        out[x * k] = out.get(x * k, 0) + p
    return out


def moments(law: dict) -> tuple[Fraction, Fraction, Fraction]:
    """Mean, second moment and P(win > 0) of a law."""
    return (sum((x * p for x, p in law.items()), Fraction(0)),
            sum((x * x * p for x, p in law.items()), Fraction(0)),
            sum((p for x, p in law.items() if x > 0), Fraction(0)))


def _by_count(table: dict, count: int):
    """The entry for ``count`` of a count table (the top entry above the top count)."""
    keys = sorted(int(k) for k in table)
    if not keys or count < keys[0]:
        return 0
    use = max(k for k in keys if k <= count)
    return table[str(use)] if str(use) in table else table[use]


#: the free spins' laws of a game's data without its other reel sets -> {spins: law}
_FREE_SPINS: dict[str, dict] = {}


class Reference:
    """The round of the game ``data`` (a game file's dict), by the rules above."""

    def __init__(self, data: dict):
        self.d = data
        self.lines = data["paylines"]
        self.rows = data["rows"]
        symbols = data["symbols"]
        self.wild = next((s for s, v in symbols.items() if v.get("wild")), None)
        self.scatters = {s: v.get("pays", {}) for s, v in symbols.items() if v.get("scatter")}
        self.pays = {s: {int(k): Fraction(x) for k, x in v.get("pays", {}).items()}
                     for s, v in symbols.items()
                     if not v.get("scatter") and not v.get("bonus") and not v.get("wild")}
        self.fs = data.get("free_spins")
        self.hw = data.get("hold_and_win")
        self.wheel = data.get("bonus_wheel")
        self.mods = data.get("modifiers", {})
        self._hw_laws: dict = {}  # (memos: each law is built once)
        # the free spins' laws depend on the data but the other reel sets: games that differ
        # only in their paid reels (a tuner's edits) share them (_FREE_SPINS)
        fs_reels = (self.fs or {}).get("reels", "base")
        self._fs_laws: dict = _FREE_SPINS.setdefault(repr(
            ({k: v for k, v in data.items() if k not in ("reels", "modes")},
             data["reels"].get(fs_reels))), {})
        self._classes = None

    # -- one window ---------------------------------------------------------------------
    def columns(self, reel_set: str, stops) -> list[list[str]]:
        strips = self.d["reels"][reel_set]
        return [[s[(stop + r) % len(s)] for r in range(self.rows)]
                for s, stop in zip(strips, stops)]

    def window_pay(self, cols, scatter_pays: bool = True) -> Fraction:
        """Lines (line bets / lines) plus scatters (total bets)."""
        total = Fraction(0)
        for line in self.lines:
            cells = [cols[j][r] for j, r in enumerate(line)]
            best = 0
            for s, table in self.pays.items():
                run = 0
                for x in cells:
                    if x != s and x != self.wild:
                        break
                    run += 1
                best = max(best, table.get(run, 0))
            total += Fraction(best, len(self.lines))
        if scatter_pays:
            for s, table in self.scatters.items():
                n = sum(col.count(s) for col in cols)
                total += Fraction(_by_count(table, n)) if table else 0
        return total

    def wheel_law(self, cols, multiplier: int) -> dict:
        """Law of the wheel's win of a window (ONE without a wheel)."""
        w = self.wheel
        if w is None:
            return ONE
        lines = sum(all(cols[j][r] == w["symbol"] for j, r in enumerate(line[: w["count"]]))
                    for line in self.lines)
        spins = lines if w.get("per_spin", "once") == "per_line" else min(lines, 1)
        total = sum(w["weights"])
        one = {}
        for prize, weight in zip(w["prizes"], w["weights"]):
            x = Fraction(prize) * multiplier
            one[x] = one.get(x, 0) + Fraction(weight, total)
        out = ONE
        for _ in range(spins):
            out = convolve(out, one)
        return out

    def modified(self, cols, where: str):
        """(probability, window) of each outcome of the modifiers acting on a window
        (``where``: "paid" or "free": the modifiers with ``in_free_spins``)."""
        acting = {n: m for n, m in self.mods.items()
                  if where == "paid" or m.get("in_free_spins")}
        none = 1 - sum((Fraction(m["frequency"]) for m in acting.values()), Fraction(0))
        out = [(none, cols)] if none else []
        for m in acting.values():
            f = Fraction(m["frequency"])
            if m["kind"] == "upgrade":
                total = sum(m["to"].values())
                for t, w in m["to"].items():
                    if w:
                        out.append((f * Fraction(w, total),
                                    [[t if x in m["from"] else x for x in col] for col in cols]))
                continue
            reels = m.get("reels") or range(1, len(cols) + 1)
            cells = [(j, r) for j in range(len(cols)) for r in range(self.rows) if j + 1 in reels]
            total = sum(m["counts"].values())
            for k, w in m["counts"].items():
                k = int(k)
                for chosen in itertools.combinations(cells, k):
                    shown = [list(col) for col in cols]
                    for j, r in chosen:
                        if shown[j][r] not in m.get("keep", ()):
                            shown[j][r] = m["symbol"]
                    out.append((f * Fraction(w, total) / comb(len(cells), k), shown))
        return out

    def outcomes(self, reel_set: str, where: str):
        """(probability, window) of one spin on ``reel_set``, modifiers applied."""
        strips = self.d["reels"][reel_set]
        p = Fraction(1)
        for s in strips:
            p /= len(s)
        for stops in itertools.product(*(range(len(s)) for s in strips)):
            for q, cols in self.modified(self.columns(reel_set, stops), where):
                yield p * q, cols

    # -- hold & win -------------------------------------------------------------------------
    def hold_and_win_law(self, held: int) -> dict:
        if held not in self._hw_laws:
            self._hw_laws[held] = self._hold_and_win_law(held)
        return self._hw_laws[held]

    def _hold_and_win_law(self, held: int) -> dict:
        hw = self.hw
        cells = len(self.lines[0]) * self.rows
        p = Fraction(hw["cash_probability"])
        respins = hw["respins"]

        @cache
        def end(h: int, left: int) -> tuple:  # law of the count held at the end
            if left == 0 or h == cells:
                return ((h, Fraction(1)),)
            empty = cells - h
            out: dict = {}
            for n in range(empty + 1):
                q = comb(empty, n) * p**n * (1 - p) ** (empty - n)
                nxt = end(h + n, respins) if n else end(h, left - 1)
                for k, r in nxt:
                    out[k] = out.get(k, 0) + q * r
            return tuple(out.items())

        total = sum(hw["value_weights"])
        value = {}
        for v, w in zip(hw["values"], hw["value_weights"]):
            value[Fraction(v)] = value.get(Fraction(v), 0) + Fraction(w, total)
        out: dict = {}
        for k, q in end(held, respins):
            law = ONE
            for _ in range(k):
                law = convolve(law, value)
            if k == cells:
                law = {x + Fraction(hw.get("full_grid_prize", 0)): r for x, r in law.items()}
            for x, r in law.items():
                out[x] = out.get(x, 0) + q * r
        return out

    def hold_and_win_start(self, cols) -> dict:
        if self.hw is None:
            return ONE
        n = sum(col.count(self.hw["symbol"]) for col in cols)
        return self.hold_and_win_law(n) if n >= self.hw["trigger"] else ONE

    # -- free spins -------------------------------------------------------------------------
    def free_spin_classes(self) -> dict:
        """{uncut retrigger award: (probability, law of the spin's win)} of one free spin."""
        if self._classes is None:
            self._classes = self._free_spin_classes()
        return self._classes

    def _free_spin_classes(self) -> dict:
        fs = self.fs
        mult = fs.get("multiplier", 1)
        again = fs.get("retrigger_awards", fs["awards"]) if fs.get("retrigger") else {}
        wheel_mult = mult if self.wheel and self.wheel.get("multiplied") else 1
        nested = self.hw is not None and self.hw.get("in_free_spins")
        out: dict = {}
        for p, cols in self.outcomes(fs.get("reels", "base"), "free"):
            win = {self.window_pay(cols, fs.get("scatter_pays", True)) * mult: Fraction(1)}
            win = convolve(win, self.wheel_law(cols, wheel_mult))
            if nested:
                win = convolve(win, self.hold_and_win_start(cols))
            a = _by_count(again, sum(col.count(fs["trigger"]) for col in cols)) if again else 0
            q, law = out.setdefault(a, [Fraction(0), {}])
            out[a][0] = q + p
            for x, r in win.items():
                law[x] = law.get(x, 0) + p * r
        return {a: (q, {x: r / q for x, r in law.items()}) for a, (q, law) in out.items()}

    def free_spins_law(self, n: int) -> dict:
        if n not in self._fs_laws:
            self._fs_laws[n] = self._free_spins_law(n)
        return self._fs_laws[n]

    def _free_spins_law(self, n: int) -> dict:
        fs = self.fs
        cap = fs.get("max_spins")
        classes = self.free_spin_classes()

        @cache
        def rest(left: int, awarded: int) -> tuple:
            if left == 0:
                return tuple(ONE.items())
            out: dict = {}
            for a, (q, win) in classes.items():
                cut = a if cap is None else min(a, cap - awarded)
                after = dict(rest(left - 1 + cut, awarded + cut))
                for x, r in convolve(win, after).items():
                    out[x] = out.get(x, 0) + q * r
            return tuple(out.items())

        n = n if cap is None else min(n, cap)
        return dict(rest(n, n))

    # -- the round --------------------------------------------------------------------------
    def round_law(self, mode: dict | None = None) -> dict:
        """The exact law of a paid round's win (in total bets), in ``mode`` (a
        ``[modes.NAME]`` dict) or the standard game."""
        if mode is not None and mode.get("buys"):
            total = sum(mode["trigger"].values())
            parts = []
            for k, w in mode["trigger"].items():
                k = int(k)
                law = (self.free_spins_law(_by_count(self.fs["awards"], k))
                       if mode["buys"] == "free_spins" else self.hold_and_win_law(k))
                parts.append((Fraction(w, total), law))
            return mix(parts)
        reels = (mode or {}).get("reels", "base")
        # The outcomes grouped by what they start (window pay, wheel law, cash symbols held,
        # spins awarded): each group's law is convolved once.
        groups: dict = {}
        for p, cols in self.outcomes(reels, "paid"):
            held = 0
            if self.hw is not None:
                held = sum(col.count(self.hw["symbol"]) for col in cols)
                held = held if held >= self.hw["trigger"] else 0
            n = 0
            if self.fs is not None:
                n = _by_count(self.fs["awards"], sum(col.count(self.fs["trigger"]) for col in cols))
            key = (self.window_pay(cols), tuple(sorted(self.wheel_law(cols, 1).items())), held, n)
            groups[key] = groups.get(key, 0) + p
        out: dict = {}
        for (pay, wheel, held, n), p in groups.items():
            law = convolve({pay: Fraction(1)}, dict(wheel))
            if held:
                law = convolve(law, self.hold_and_win_law(held))
            if n:
                law = convolve(law, self.free_spins_law(n))
            for x, r in law.items():
                out[x] = out.get(x, 0) + p * r
        return out

    def rtp(self, mode: dict | None = None) -> Fraction:
        mean = moments(self.round_law(mode))[0]
        return mean / Fraction(mode["cost"]) if mode is not None else mean
