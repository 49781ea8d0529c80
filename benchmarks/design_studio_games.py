"""Design the four studio-style bundled games (issue 21) to their target RTP, exactly.

Each game is written here as a specification: its pay table, the symbols of each reel (a
seeded shuffle of stated counts, so the strips are reproducible), its features, and ONE knob,
an integer stop weight. The script analyses the game exactly for a knob, and bisects the knob
(integer bisection on a bracket whose ends lie on either side of the target) until the exact
RTP is within 0.01 % of the target. A Link-style game's bonus buy has a second knob, the
weight of the 3-scatter count in the buy's trigger law, bisected afterwards (it does not
change the base game) until the buy's RTP is within 0.01 % of the base RTP (Stake's spread
rule asks for 0.5 %).

Then it prints, per game and side by side: the knob, the exact RTP (fraction and percent), the
time of the whole exact analysis (the JSON document every generic suite reads) against the
time of the RTP alone, the free-spin chain's size (states, moves), and with ``--write`` writes
``data/games/NAME.toml`` with a header stating the design choices and those figures.

Run: ``python benchmarks/design_studio_games.py [--write] [--only book_of_gold ...]``
(report ``uptime`` beside the times).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import textwrap
import time
from fractions import Fraction
from pathlib import Path

import slotmath
from slotmath import report

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "data" / "games"
TOLERANCE = Fraction(1, 10_000)  # 0.01 % of the bet

LINES_10 = [[1, 1, 1, 1, 1], [0, 0, 0, 0, 0], [2, 2, 2, 2, 2], [0, 1, 2, 1, 0],
            [2, 1, 0, 1, 2], [1, 2, 2, 2, 1], [1, 0, 0, 0, 1], [2, 2, 1, 0, 0],
            [0, 0, 1, 2, 2], [2, 1, 1, 1, 0]]
LINES_20 = LINES_10 + [[1, 2, 1, 0, 1], [1, 0, 1, 2, 1], [0, 1, 1, 1, 0], [2, 1, 1, 1, 2],
                       [0, 1, 0, 1, 0], [2, 1, 2, 1, 2], [1, 1, 0, 1, 1], [1, 1, 2, 1, 1],
                       [0, 0, 2, 0, 0], [2, 2, 0, 2, 2]]


# -- writing a game file ------------------------------------------------------------------
SINGLES = {"BOOK", "SC", "W", "W2", "W3", "ORB"}


def shuffled(counts: dict[str, int], seed: str) -> list[str]:
    """A strip holding ``counts`` of each symbol in a seeded order (reproducible): paying
    symbols in runs of 1 to 3 (stacks), wilds, scatters and orbs single."""
    rng = random.Random(seed)
    runs = []
    for s, n in counts.items():
        while n > 0:
            k = 1 if s in SINGLES else min(n, rng.randint(1, 3))
            runs.append([s] * k)
            n -= k
    rng.shuffle(runs)
    return [s for run in runs for s in run]


def _value(v) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, str):
        return json.dumps(v)
    if isinstance(v, Fraction):
        return json.dumps(str(v))
    if isinstance(v, dict):
        return "{ " + ", ".join(f"{_key(k)} = {_value(x)}" for k, x in v.items()) + " }"
    if isinstance(v, list):
        return "[" + ", ".join(_value(x) for x in v) + "]"
    return str(v)


def _key(k) -> str:
    k = str(k)
    return k if k.replace("_", "").isalnum() and not k[0].isdigit() or k.isdigit() else (
        json.dumps(k))


def _table(name: str, body: dict) -> list[str]:
    out = [f"[{name}]"]
    out += [f"{_key(k)} = {_value(v)}" for k, v in body.items()
            if not (isinstance(v, dict) and k.startswith("@"))]
    for k, v in body.items():
        if isinstance(v, dict) and k.startswith("@"):
            out += [""] + _table(f"{name}.{k[1:]}", v)
    return out


def toml(spec: dict) -> str:
    """The game file of ``spec`` (top-level keys, then [symbols], [reels], the features)."""
    lines = [f"{_key(k)} = {_value(v)}" for k, v in spec["top"].items() if k != "paylines"]
    rows = spec["top"]["paylines"]
    lines += ["paylines = ["] + [
        "  " + ", ".join(_value(x) for x in rows[i:i + 5]) + ","
        for i in range(0, len(rows), 5)] + ["]"]
    lines += ["", "[symbols]"]
    width = max(len(s) for s in spec["symbols"])
    lines += [f"{s:<{width}} = {_value(v)}" for s, v in spec["symbols"].items()]
    lines += ["", "[reels]"]
    for name, reels in spec["reels"].items():
        lines.append(f"{name} = [")
        for reel in reels:
            lines.append(f"  {_value(reel)},")
        lines.append("]")
    for name, body in spec["tables"].items():
        lines += [""] + _table(name, body)
    return "\n".join(lines) + "\n"


def weighted(strip: list[str], window: dict[str, int], knob: tuple[int, int] | None = None,
             default: int = 100, rows: int = 3) -> dict:
    """A virtual reel: each stop weighs ``default``, or ``window[symbol]`` when its window
    (the stop and the ``rows - 1`` below it) shows ``symbol``; ``knob = (stop, weight)`` sets
    one stop's weight."""
    n = len(strip)
    w = []
    for i in range(n):
        shown = {strip[(i + r) % n] for r in range(rows)}
        w.append(max([window[s] for s in shown if s in window] or [default]))
    if knob is not None:
        w[knob[0]] = knob[1]
    return {"strip": strip, "weights": w}


# -- the four games ---------------------------------------------------------------------------
DESCRIPTION = {
    "book_of_gold": "Book style: a wild scatter BOOK, 10 free spins with an expanding symbol",
    "sticky_paws": "Dog House style: x2/x3 wilds that stick in free spins",
    "big_catch": "Big Bass style: cash fish collected by the fisherman, a x2/x3/x10 ladder",
    "golden_link": "Link style: hold & win in free spins, fixed jackpots, a 100x bonus buy",
}


def book_of_gold(knob: int) -> dict:
    high = {"EXPLORER": {2: 10, 3: 100, 4: 1000, 5: 5000},
            "PHARAOH": {2: 5, 3: 40, 4: 400, 5: 2000},
            "ANUBIS": {2: 5, 3: 30, 4: 100, 5: 750}, "SCARAB": {2: 5, 3: 30, 4: 100, 5: 750}}
    low = {"A": {3: 4, 4: 25, 5: 100}, "K": {3: 4, 4: 25, 5: 100}, "Q": {3: 3, 4: 15, 5: 75},
           "J": {3: 3, 4: 15, 5: 75}, "T": {3: 3, 4: 15, 5: 75}}
    symbols = {"BOOK": {"wild": True, "scatter": True, "pays": {3: 2, 4: 20, 5: 200}}}
    symbols |= {s: {"pays": p} for s, p in (high | low).items()}
    counts = {"BOOK": 1, "EXPLORER": 1, "PHARAOH": 2, "ANUBIS": 2, "SCARAB": 3,
              "A": 4, "K": 4, "Q": 4, "J": 4, "T": 5}
    reels = []
    for j in range(5):
        strip = shuffled(counts, f"book_of_gold-{j}")
        knobbed = (strip.index("T"), knob) if j == 4 else None
        reels.append(weighted(strip, {"BOOK": 105}, knobbed))
    return {
        "top": {"name": "Book of Gold", "description": DESCRIPTION["book_of_gold"], "rows": 3, "bet": 10, "target_rtp": 96.0,
                "paylines": LINES_10},
        "symbols": symbols, "reels": {"base": reels},
        "tables": {"free_spins": {
            "trigger": "BOOK", "awards": {3: 10}, "reels": "base", "retrigger": True,
            "max_spins": 30,
            "@expanding_symbol": {"symbols": {s: 1 for s in high | low}}}}}


def sticky_paws(knob: int, free_wild_reels=(1, 3)) -> dict:
    pays = {"ROTTWEILER": {3: 35, 4: 110, 5: 350}, "PUG": {3: 22, 4: 55, 5: 220},
            "DACHSHUND": {3: 17, 4: 45, 5: 170}, "COLLAR": {3: 11, 4: 28, 5: 85},
            "BONE": {3: 8, 4: 22, 5: 55}, "A": {3: 6, 4: 14, 5: 35},
            "K": {3: 4, 4: 11, 5: 28}, "Q": {3: 3, 4: 8, 5: 21}}
    symbols = {"W2": {"wild": True, "multiplier": 2}, "W3": {"wild": True, "multiplier": 3},
               "SC": {"scatter": True, "pays": {3: 5}}}
    symbols |= {s: {"pays": p} for s, p in pays.items()}
    base_counts = {"ROTTWEILER": 2, "PUG": 2, "DACHSHUND": 3, "COLLAR": 3, "BONE": 4,
                   "A": 5, "K": 5, "Q": 6}
    base, free = [], []
    for j in range(5):
        c = dict(base_counts)
        if j in (0, 2, 4):
            c["SC"] = 1
        else:
            c |= {"W2": 1}
        if j == 2:
            c |= {"W2": 1, "W3": 1}
        strip = shuffled(c, f"sticky_paws-base-{j}")
        knobbed = (strip.index("Q"), knob) if j == 3 else None
        base.append(weighted(strip, {"SC": 230}, knobbed))
        f = dict(base_counts) | {"ROTTWEILER": 3, "PUG": 3}
        if j in (0, 2, 4):
            f["SC"] = 1
        if j in free_wild_reels:
            f |= {"W2": 2, "W3": 1}
        free.append(shuffled(f, f"sticky_paws-free-{j}"))
    return {
        "top": {"name": "Sticky Paws", "description": DESCRIPTION["sticky_paws"], "rows": 3, "bet": 20, "target_rtp": 96.0,
                "paylines": LINES_20},
        "symbols": symbols, "reels": {"base": base, "free": free},
        "tables": {"free_spins": {
            "trigger": "SC", "reels": "free",
            "random_awards": {3: {"cells": 3, "cell": {3: 3, 4: 2, 5: 1}}},
            "@sticky_wilds": {"symbols": ["W2", "W3"]}}}}


def big_catch(knob: int) -> dict:
    pays = {"BOAT": {2: 2, 3: 25, 4: 125, 5: 1000}, "ROD": {3: 20, 4: 100, 5: 500},
            "FISH": {3: 8, 4: 30, 5: 200}, "BAG": {3: 12, 4: 60, 5: 250},
            "A": {3: 7, 4: 25, 5: 125}, "K": {3: 7, 4: 25, 5: 125},
            "Q": {3: 6, 4: 15, 5: 75}}
    symbols = {"W": {"wild": True}, "SC": {"scatter": True, "pays": {3: 2, 4: 20, 5: 200}}}
    symbols |= {s: {"pays": p} for s, p in pays.items()}
    base_counts = {"BOAT": 3, "ROD": 2, "FISH": 3, "BAG": 2, "A": 7, "K": 7, "Q": 5, "SC": 1}
    free_counts = {"BOAT": 4, "ROD": 4, "FISH": 4, "BAG": 4, "A": 11, "K": 11, "Q": 11,
                   "SC": 1}
    base, free = [], []
    for j in range(5):
        strip = shuffled(base_counts, f"big_catch-base-{j}")
        knobbed = (strip.index("Q"), knob) if j == 4 else None
        base.append(weighted(strip, {"SC": 106}, knobbed))
        f = dict(free_counts) | ({"W": 1} if j else {})
        free.append(shuffled(f, f"big_catch-free-{j}"))
    return {
        "top": {"name": "Big Catch", "description": DESCRIPTION["big_catch"], "rows": 3, "bet": 10, "target_rtp": 96.0,
                "paylines": LINES_10},
        "symbols": symbols, "reels": {"base": base, "free": free},
        "tables": {"free_spins": {
            "trigger": "SC", "awards": {3: 10, 4: 15, 5: 20}, "reels": "free",
            "@collector": {
                "cash": ["FISH"],
                "values": {"2": 400, "5": 200, "10": 100, "15": 40, "20": 20, "25": 10,
                           "50": 4, "250": 1},
                "collector": "W", "every": 4, "retrigger": 10, "ladder": [2, 3, 10]}}}}


LINK_VALUES = [1, 2, 3, 5, 10, 20, 50, 200]


def golden_link(knob: int, buy_knob: int = 10_000) -> dict:
    pays = {"DRAGON": {3: 30, 4: 150, 5: 750}, "TIGER": {3: 25, 4: 90, 5: 400},
            "KOI": {3: 15, 4: 60, 5: 250}, "LANTERN": {3: 12, 4: 40, 5: 150},
            "A": {3: 7, 4: 24, 5: 75}, "K": {3: 7, 4: 24, 5: 75},
            "Q": {3: 6, 4: 15, 5: 60}}
    symbols = {"W": {"wild": True},
               "SC": {"scatter": True, "pays": {3: 2, 4: 10, 5: 50}},
               "ORB": {"bonus": True}}
    symbols |= {s: {"pays": p} for s, p in pays.items()}
    base_counts = {"DRAGON": 2, "TIGER": 2, "KOI": 2, "LANTERN": 2, "A": 7, "K": 7, "Q": 7,
                   "ORB": 4, "SC": 1}
    free_counts = base_counts | {"ORB": 8, "DRAGON": 3, "TIGER": 3}
    base, free = [], []
    for j in range(5):
        c = dict(base_counts) | ({"W": 1} if j else {})
        strip = shuffled(c, f"golden_link-base-{j}")
        knobbed = (strip.index("Q"), knob) if j == 4 else None
        base.append(weighted(strip, {"SC": 80, "ORB": 115}, knobbed))
        f = dict(free_counts) | ({"W": 2} if j else {})
        free.append(shuffled(f, f"golden_link-free-{j}"))
    return {
        "top": {"name": "Golden Link", "description": DESCRIPTION["golden_link"], "rows": 3, "bet": 20, "target_rtp": 96.0,
                "paylines": LINES_20},
        "symbols": symbols, "reels": {"base": base, "free": free},
        "tables": {
            "free_spins": {"trigger": "SC", "awards": {3: 10, 4: 15, 5: 25}, "reels": "free",
                           "multiplier": 2},
            "hold_and_win": {"symbol": "ORB", "trigger": 6, "respins": 3,
                             "cash_probability": "1/9", "values": LINK_VALUES,
                             "value_weights": [400, 300, 150, 80, 40, 12, 4, 1],
                             "full_grid_prize": 1000, "in_free_spins": True},
            "modes.bonus_buy": {"cost": 100, "buys": "free_spins",
                                "trigger": {3: buy_knob, 4: 2000, 5: 200},
                                "description": "Buy the free spins for 100 total bets"}}}


GAMES = {"book_of_gold": (book_of_gold, (0, 5_000)),
         "sticky_paws": (sticky_paws, (0, 5_000)),
         "big_catch": (big_catch, (0, 5_000)),
         "golden_link": (golden_link, (0, 5_000))}


# -- analysis and bisection -------------------------------------------------------------------
def rtp_of(text: str, name: str, mode: str | None = None) -> Fraction:
    game = slotmath.loads_game(text, f"{name}.toml")
    return slotmath.analyze(game, mode=mode).rtp


def bisect(rtp, lo: int, hi: int, target: Fraction) -> tuple[int, Fraction, int]:
    """The integer knob in [lo, hi] whose ``rtp(knob)`` is nearest ``target``, by bisection
    on the sign of ``rtp - target`` (which must differ at the ends), every other step a
    false-position guess inside the bracket (the RTP is smooth in a weight, so the guess
    usually lands within a few units); with its RTP and the analyses it took."""
    r_lo, r_hi = rtp(lo), rtp(hi)
    runs = 2
    if (r_lo - target) * (r_hi - target) > 0:
        raise SystemExit(f"the knob's range [{lo}, {hi}] gives RTPs {float(r_lo):.5f} .. "
                         f"{float(r_hi):.5f}: it does not bracket {float(target):.5f}")
    best = min(((lo, r_lo), (hi, r_hi)), key=lambda x: abs(x[1] - target))
    while hi - lo > 1 and abs(best[1] - target) > TOLERANCE / 4:
        if runs % 2 == 0:  # false position, kept strictly inside the bracket
            guess = lo + (target - r_lo) * (hi - lo) / (r_hi - r_lo)
            mid = min(max(round(guess), lo + 1), hi - 1)
        else:
            mid = (lo + hi) // 2
        r = rtp(mid)
        runs += 1
        best = min((best, (mid, r)), key=lambda x: abs(x[1] - target))
        if (r - target) * (r_lo - target) > 0:
            lo, r_lo = mid, r
        else:
            hi, r_hi = mid, r
    return best[0], best[1], runs


def _state_space(doc: dict) -> str:
    for key in ("expanding_symbol", "sticky_wilds", "collector"):
        if doc.get(key):
            s = doc[key]["state_space"]
            return f"{s['states']:,} states, {s['moves']:,} moves ({key})"
    if doc.get("hold_and_win"):
        return f"hold & win chain {doc['hold_and_win']['states']} states (no free-spin state)"
    return "none"


def design(name: str) -> dict:
    build, (lo, hi) = GAMES[name]
    target = Fraction(96, 100)
    start = time.perf_counter()
    knob, rtp, runs = bisect(lambda k: rtp_of(toml(build(k)), name), lo, hi, target)
    extra = {}
    if name == "golden_link":
        base = rtp

        def buy(k):
            return rtp_of(toml(build(knob, k)), name, "bonus_buy")
        buy_knob, buy_rtp, more = bisect(buy, 1, 100_000, base)
        runs += more
        extra = {"buy_knob": buy_knob, "buy_rtp": buy_rtp}
        text = toml(build(knob, buy_knob))
    else:
        text = toml(build(knob))
    design_time = time.perf_counter() - start
    if abs(rtp - target) > TOLERANCE:
        raise SystemExit(f"{name}: the knob's nearest RTP {float(rtp):.6%} is not within "
                         "0.01 % of the target: a finer knob is needed")
    game = slotmath.loads_game(text, f"{name}.toml")
    t = time.perf_counter()
    assert slotmath.analyze(game).rtp == rtp
    rtp_time = time.perf_counter() - t
    t = time.perf_counter()
    a = slotmath.analyze(game)
    doc = json.loads(json.dumps(report.analysis_dict(a), default=str))
    full_time = time.perf_counter() - t
    return {"name": name, "text": text, "knob": knob, "rtp": rtp, "runs": runs,
            "design_time": design_time, "rtp_time": rtp_time, "full_time": full_time,
            "doc": doc, "state_space": _state_space(doc), **extra}


# -- the header -------------------------------------------------------------------------------
DESIGN = {
    "book_of_gold": """\
Book of Gold: a Book-of-Ra/Dead-style expanding-symbol game, 5 reels x 3 rows, 10 fixed
lines (issue 21's first worked example, designed by benchmarks/design_studio_games.py).

Design choices:
* BOOK is wild AND scatter: it stands in on lines, pays 2/20/200 total bets for 3/4/5
  anywhere, and 3 or more start 10 free spins; 3 or more in a free spin add 10 more (30
  spins at most).
* When the feature starts one of the 9 paying symbols (EXPLORER, PHARAOH, ANUBIS, SCARAB, A,
  K, Q, J, T, equally likely) is drawn and kept; after the normal pays of a free spin it
  expands on every reel it shows on and pays its line pay for that many reels on all 10
  lines (adjacency does not count; EXPLORER, PHARAOH, ANUBIS and SCARAB expand from 2 reels).
* The free spins play the base reels. Each reel holds 30 stops (1 BOOK, 1 EXPLORER, 2
  PHARAOH, 2 ANUBIS, 3 SCARAB, 4 each of A, K, Q, J and 5 T; paying symbols in runs of 1 to
  3, in a seeded order). Every stop weighs 100, a stop whose window shows BOOK 105; the
  weight of reel 5's first T is the knob that sets the RTP.""",
    "sticky_paws": """\
Sticky Paws: a Dog-House-style sticky-multiplier-wild game, 5 reels x 3 rows, 20 fixed lines
(issue 21's sticky-wild worked example, designed by benchmarks/design_studio_games.py).

Design choices:
* SC (scatter, reels 1, 3 and 5) pays 5 total bets for 3; 3 start free spins whose number is
  revealed by 3 cells of 3, 4 or 5 spins (weights 3:2:1): 9 to 15, 11 on average; no
  retrigger.
* Wilds carry multipliers: W2 (x2) and W3 (x3). In the base game W2 lands on reels 2-4 and W3
  on reel 3. In free spins W2 and W3 land on reels 2 and 4, and every wild that lands stays on
  its cell to the end of the feature. The multipliers on a line multiply.
* Why reels 2 and 4 only in free spins: the sticky state gives each cell of a reel showing a
  sticky wild one of 3 values (empty, W2, W3). Reels 2 and 4 make 3 ** 6 = 729 sticky states
  (2,916 joint states a spin with the scatter count). Reels 2, 3 and 4 would make 3 ** 9 =
  19,683 sticky states and 78,732 joint states a spin, over the engine's 16,384: the loader
  refuses that file (free_spins.sticky_wilds), it is not computed approximately.
* Every paying symbol is on every reel (no dead pays). Base strips hold 31 to 33 stops
  (paying symbols in runs of 1 to 3, in a seeded order); every stop weighs 100, a stop whose
  window shows SC 230; the weight of reel 4's first Q is the knob that sets the RTP. Free
  strips hold 33 or 35 stops (more ROTTWEILER and PUG; 2 W2 and 1 W3 on reels 2 and 4),
  unweighted.""",
    "big_catch": """\
Big Catch: a Big-Bass-style collector game, 5 reels x 3 rows, 10 fixed lines (issue 21's
collector worked example, designed by benchmarks/design_studio_games.py).

Design choices:
* SC (scatter, every reel) pays 2/20/200 total bets for 3/4/5 anywhere and starts 10/15/20
  free spins on their own reels (scatters do not retrigger).
* FISH pays on lines; in free spins each FISH shown also carries a cash value (2, 5, 10, 15,
  20, 25, 50 or 250 total bets, weights 400/200/100/40/20/10/4/1, drawn independently) and
  every W (the fisherman, a wild on free reels 2-5 only, never in the base game) collects all
  of them, times the ladder's multiplier.
* Every 4 fishermen collected award 10 more spins and move the ladder x2, x3, x10 (3 levels,
  so at most 20 + 30 = 50 spins).
* Base strips: 30 stops (paying symbols in runs of 1 to 3, in a seeded order); every stop
  weighs 100, a stop whose window shows SC 106; the weight of reel 5's first Q is the knob
  that sets the RTP. Free strips: 50 stops (4 FISH) and a W on reels 2-5, unweighted.""",
    "golden_link": """\
Golden Link: a Link-style game, 5 reels x 3 rows, 20 fixed lines: scatters start free spins,
cash orbs start hold & win, also inside free spins, with fixed jackpots as orb values, and a
bonus buy (issue 21's Link worked example, designed by benchmarks/design_studio_games.py).

Design choices:
* SC (scatter, every reel) pays 2/10/50 total bets for 3/4/5 and starts 10/15/25 free spins on
  the free reels, their line and scatter pays x2 (no retrigger).
* ORB (a bonus symbol; wilds never stand in for it): 6 or more in a window, in the paid spin
  or in a free spin, start hold & win on the 5x3 grid with 3 respins; every empty cell lands
  an ORB with probability 1/9 per respin, a landing resets the respins. Its win is never
  multiplied by the free-spin multiplier.
* Orb values in total bets: 1, 2, 3, 5, 10 (weights 400/300/150/80/40) and the fixed
  jackpots MINI = 20 (weight 12), MINOR = 50 (weight 4), MAJOR = 200 (weight 1); the GRAND,
  1000 total bets, is the full-grid prize (all 15 cells held), added to the values held.
  (The jackpots are orb values and the full-grid prize; the reports do not name them.
  With 1/9 a cell a round fills the grid 7.4 % of the time, so the GRAND comes once in 6,400
  paid rounds from the base game alone: far more often than in commercial Link games. A rarer grand needs a
  lower landing rate and richer values or triggers; not designed here.)
* Mode bonus_buy: 100 total bets buy the free spins as if 3, 4 or 5 scatters had landed
  (weights knob:2000:200: the weight of 3 is the buy's knob, set so that its RTP per amount
  wagered is within 0.01 % of the base game's; Stake Engine asks for 0.5 %).
* Base strips: 34 or 35 stops (4 ORB, 1 SC, a W on reels 2-5; paying symbols in runs of 1
  to 3, in a seeded order); every stop weighs 100, a stop whose window shows SC 80 and one
  showing an ORB 115; the weight of reel 5's first Q is the knob that sets the base RTP.
  Free strips: 40 or 42 stops (8 ORB, 2 W on reels 2-5), unweighted.""",
}


def _wrap_fraction(label: str, value: Fraction) -> list[str]:
    text = f"{value.numerator}/{value.denominator}"
    head = f"{label} = "
    if len(head) + len(text) <= 96:
        return [head + text]
    return [head] + ["  " + p for p in textwrap.wrap(text, 94, break_on_hyphens=False)]


def header(d: dict, load: str) -> str:
    doc = d["doc"]
    comps = ", ".join(f"{k.replace('_', ' ')} {100 * float(v):.3f}%"
                      for k, v in doc["components_float"].items())
    lines = DESIGN[d["name"]].splitlines() + [""]
    off = 100 * float(d["rtp"] - Fraction(96, 100))
    lines.append(f"Exact RTP {100 * float(d['rtp']):.4f}% ({off:+.4f}% from target_rtp; "
                 f"`slotmath analyze data/games/{d['name']}.toml --json` prints the fraction "
                 "as rtp.exact):")
    lines += _wrap_fraction("RTP", d["rtp"])
    hit = 100 * doc["hit_frequency"]["float"]
    lines.append(f"Components: {comps}; hit frequency {hit:.2f}%.")
    if "buy_rtp" in d:
        lines.append(f"Mode bonus_buy: RTP {100 * float(d['buy_rtp']):.4f}% per amount "
                     f"wagered (trigger weight of 3 scatters: {d['buy_knob']}), exact:")
        lines += _wrap_fraction("RTP(bonus_buy)", d["buy_rtp"])
    lines.append(f"Free-spin chain: {d['state_space']}.")
    lines.append(f"Exact analysis (the whole JSON document): {d['full_time']:.1f} s wall on 2 "
                 f"shared cores at load {load} (the RTP alone {d['rtp_time']:.1f} s).")
    out = []
    for line in lines:
        out += textwrap.wrap(line, 97, subsequent_indent="  " if line.startswith("*") else "",
                             break_on_hyphens=False) or [""]
    return "\n".join(("# " + x).rstrip() for x in out) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help="write data/games/NAME.toml")
    parser.add_argument("--only", nargs="*", default=list(GAMES), choices=list(GAMES))
    args = parser.parse_args()
    try:  # the refusal the sticky game's header speaks of, shown, not assumed
        slotmath.loads_game(toml(sticky_paws(1000, free_wild_reels=(1, 2, 3))), "wide.toml")
        print("sticky wilds on reels 2-4: accepted")
    except Exception as error:  # noqa: BLE001 - the loader's one-line refusal
        print(f"sticky wilds on reels 2-4 are refused: {error}")
    print(f"{'game':<14}{'knob':>7}{'RTP %':>11}{'analyses':>9}{'design s':>9}"
          f"{'RTP s':>7}{'full s':>7}  free-spin chain")
    for name in args.only:
        d = design(name)
        load = f"{os.getloadavg()[0]:.1f}"
        print(f"{name:<14}{d['knob']:>7}{100 * float(d['rtp']):>11.5f}{d['runs']:>9}"
              f"{d['design_time']:>9.1f}{d['rtp_time']:>7.1f}{d['full_time']:>7.1f}  "
              f"{d['state_space']}  (load {load})")
        print(f"  exact RTP {d['rtp'].numerator}/{d['rtp'].denominator}"[:200])
        if "buy_rtp" in d:
            print(f"  bonus_buy: trigger weight of 3 = {d['buy_knob']}, RTP "
                  f"{100 * float(d['buy_rtp']):.5f}% per amount wagered")
        if args.write:
            (OUT / f"{name}.toml").write_text(header(d, load) + d["text"])


if __name__ == "__main__":
    main()
