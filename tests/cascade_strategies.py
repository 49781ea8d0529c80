"""Hypothesis strategies for small random cascade games (issue 9), as TOML-shaped dicts with
the keys of /work/notes/cascade_spec.md, and a tiny TOML renderer for them.

Games are kept small so that the brute-force reference (tests/cascade_reference.py) follows
every outcome in well under a second: 3-5 reels, 1-3 rows, strips of 1-6 stops with at most
``max_combinations`` stop combinations per reel set; random refill games have 3 reels of at
most 2 rows and refill tables of at most 2 symbols (every drop branches over the draws).

They cover both refill modes, lines and ways games, a wild (sometimes with pays, a x2
multiplier or restricted substitution), a plain x2 symbol, a bonus-flagged symbol, an "any"
group, a scatter (with or without pays), weighted stops,
start/step (with or without max) and ladder multipliers, [bonus_symbols] (split effects in
ways games, wild effects in both, threshold 1-3, accumulating or not, shuffled or not) and free spins (own
reels, retrigger with retrigger_awards and max_spins, scatter_pays, free_spins.multiplier,
carry_multiplier with a separate free_multiplier).

So that chains end (a chain that can repeat a state has no finite law, and the reference
refuses it), random-refill games refill reel 1 with blanks and scatters only: every win
needs a member on reel 1, so reel 1's members run out (unless a wild bonus symbol frees reel 1;
the comparison suite drops the few games whose chains can loop).
"""

from __future__ import annotations

import math
import re
from typing import Any

from hypothesis import strategies as st

PLAIN = ("A", "B", "C")
BLANK, WILD, SCATTER, BONUS, GROUP = "X", "W", "S", "BN", "ANY"
EFFECTS = {"SPLIT2": {"split": 2}, "SPLIT3": {"split": 3}, "BW": {"wild": WILD}}


def _count_table(draw, counts, values) -> dict[str, Any]:
    chosen = draw(st.lists(st.sampled_from(counts), min_size=1, max_size=len(counts),
                           unique=True))
    return {str(c): draw(values) for c in sorted(chosen)}


def _lengths(draw, n_reels: int, max_combinations: int) -> list[int]:
    lengths = [draw(st.integers(1, 6)) for _ in range(n_reels)]
    while math.prod(lengths) > max_combinations:
        longest = max(range(n_reels), key=lambda j: lengths[j])
        lengths[longest] -= 1
    return lengths


def _reel_set(draw, names, n_reels, max_combinations, weighted) -> list:
    reels: list = []
    for length in _lengths(draw, n_reels, max_combinations):
        strip = draw(st.lists(st.sampled_from(names), min_size=length, max_size=length))
        if weighted and draw(st.booleans()):
            weights = draw(st.lists(st.integers(0, 3), min_size=length, max_size=length))
            if sum(weights) == 0:
                weights[0] = 1
            reels.append({"strip": strip, "weights": weights})
        else:
            reels.append(strip)
    return reels


def _refill_tables(draw, members, n_reels, has_scatter) -> list[dict[str, int]]:
    """Reel 1 refills with blanks (and scatters) only; the other reels from 1-2 symbols."""
    first = [BLANK] + ([SCATTER] if has_scatter and draw(st.booleans()) else [])
    tables = [{name: draw(st.integers(1, 3)) for name in first}]
    pool = members + [BLANK] + ([SCATTER] if has_scatter else [])
    for _ in range(n_reels - 1):
        names = draw(st.lists(st.sampled_from(pool), min_size=1, max_size=2, unique=True))
        tables.append({name: draw(st.integers(1, 3)) for name in names})
    return tables


def _multiplier_rule(draw, linear_only: bool) -> dict[str, Any]:
    if not linear_only and draw(st.integers(0, 2)) == 0:
        return {"ladder": draw(st.lists(st.integers(1, 5), min_size=1, max_size=4))}
    rule: dict[str, Any] = {"start": draw(st.integers(1, 2)), "step": draw(st.integers(0, 2))}
    if not linear_only and draw(st.booleans()):
        rule["max"] = rule["start"] + draw(st.integers(0, 3))
    return rule


@st.composite
def cascade_game_dicts(draw, refill: str | None = None, ways: bool | None = None,
                       bonus: bool | None = None, free_spins: bool | None = None,
                       max_combinations: int | None = None) -> dict[str, Any]:
    """A small random cascade game as the dict its TOML file parses to.

    Each of ``refill`` ("strip" / "random"), ``ways``, ``bonus`` ([bonus_symbols]) and
    ``free_spins`` is drawn when None and forced otherwise. Split bonus symbols come with
    ways games only (the spec defines splits for ways); lines games get wild ones.
    """
    mode = draw(st.sampled_from(["strip", "random"])) if refill is None else refill
    is_ways = draw(st.booleans()) if ways is None else ways
    has_bonus = draw(st.booleans()) if bonus is None else bonus
    has_free = draw(st.booleans()) if free_spins is None else free_spins
    if mode == "random":
        n_reels = 3
        rows_per_reel = [draw(st.integers(1, 2)) for _ in range(n_reels)]
        combos = 24 if max_combinations is None else max_combinations
    else:
        n_reels = draw(st.integers(3, 5))
        rows_per_reel = [draw(st.integers(1, 3)) for _ in range(n_reels)]
        combos = 64 if max_combinations is None else max_combinations
    rows: int | list[int] = rows_per_reel
    if len(set(rows_per_reel)) == 1 and draw(st.booleans()):
        rows = rows_per_reel[0]
    window = sum(rows_per_reel)

    plain = list(PLAIN[: draw(st.integers(1, 3))])
    counts = list(range(1, n_reels + 1))
    symbols: dict[str, dict[str, Any]] = {}
    for name in plain:
        symbols[name] = {"pays": _count_table(draw, counts[1:], st.integers(1, 9))}
    if len(plain) > 1 and draw(st.integers(0, 3)) == 0:
        symbols[plain[-1]]["multiplier"] = 2  # a plain multiplier symbol
    symbols[BLANK] = {}
    if draw(st.integers(0, 4)) == 0:
        symbols[BONUS] = {"bonus": True}  # a feature symbol: ends runs, freed wild reels turn it
    has_wild = draw(st.booleans())
    if has_wild:
        wild: dict[str, Any] = {"wild": True}
        if draw(st.integers(0, 2)) == 0:
            wild["pays"] = _count_table(draw, counts[1:], st.integers(1, 9))
        if draw(st.integers(0, 3)) == 0:
            wild["multiplier"] = 2
        if len(plain) > 1 and draw(st.integers(0, 3)) == 0:
            wild["substitutes"] = plain[:1]
        symbols[WILD] = wild
    has_scatter = has_free or has_bonus or draw(st.booleans())
    if has_scatter:
        scatter: dict[str, Any] = {"scatter": True}
        if draw(st.booleans()):
            scatter["pays"] = _count_table(draw, list(range(1, min(window, 4) + 1)),
                                           st.integers(1, 5))
        symbols[SCATTER] = scatter

    data: dict[str, Any] = {"name": "generated cascades", "rows": rows}
    if is_ways:
        data["ways"] = True
        data["bet"] = draw(st.sampled_from([1, 2, 5]))
    else:
        n_lines = draw(st.integers(1, 3))
        data["paylines"] = [[draw(st.integers(0, r - 1)) for r in rows_per_reel]
                            for _ in range(n_lines)]
        data["bet"] = draw(st.sampled_from([1, n_lines, 2 * n_lines]))
    data["symbols"] = symbols
    if len(plain) > 1 and draw(st.integers(0, 3)) == 0:
        data["groups"] = {GROUP: {"members": plain[:2],
                                  "pays": _count_table(draw, counts[1:], st.integers(1, 9))}}

    names = list(symbols)
    weighted = draw(st.integers(0, 3)) == 0
    reel_sets = {"base": _reel_set(draw, names, n_reels, combos, weighted)}
    free_set = "base"
    if has_free and draw(st.booleans()):
        reel_sets["free"] = _reel_set(draw, names, n_reels, combos, weighted)
        free_set = "free"
    data["reels"] = reel_sets

    carry = has_free and draw(st.booleans())
    cascades: dict[str, Any] = {"refill": mode, "multiplier": _multiplier_rule(draw, carry)}
    if has_free and draw(st.integers(0, 2)) == 0:
        cascades["free_multiplier"] = _multiplier_rule(draw, carry)
    if has_free:
        cascades["carry_multiplier"] = carry
    if mode == "random":
        members = plain + ([WILD] if has_wild else [])
        cascades["refill_weights"] = {
            name: _refill_tables(draw, members, n_reels, has_scatter)
            for name in sorted({"base", free_set})
        }
    data["cascades"] = cascades

    if has_bonus:
        # splits are for ways games; a lines game gets wild bonus symbols only
        kinds = (draw(st.lists(st.sampled_from(sorted(EFFECTS)), min_size=1, max_size=3,
                               unique=True)) if is_ways else ["BW"])
        if "BW" in kinds and not has_wild:
            symbols[WILD] = {"wild": True}
        arrangements = []
        for _ in range(draw(st.integers(1, 2))):
            arrangements.append({
                "weight": draw(st.integers(1, 3)),
                "symbols": draw(st.lists(st.sampled_from(kinds), min_size=n_reels,
                                         max_size=n_reels)),
            })
        data["bonus_symbols"] = {
            "threshold": draw(st.integers(1, 3)),
            "accumulate": draw(st.booleans()),
            "effects": {name: dict(EFFECTS[name]) for name in kinds},
            "arrangements": arrangements,
            "shuffle": draw(st.booleans()),
        }

    if has_free:
        spec: dict[str, Any] = {
            "trigger": SCATTER,
            "awards": _count_table(draw, list(range(1, min(window, 3) + 1)),
                                   st.integers(1, 3)),
            "reels": free_set,
        }
        if draw(st.integers(0, 2)) == 0:
            spec["multiplier"] = 2
        if draw(st.booleans()):
            spec["retrigger"] = True
            spec["max_spins"] = draw(st.integers(1, 4))
            if draw(st.booleans()):
                spec["retrigger_awards"] = _count_table(
                    draw, list(range(1, min(window, 3) + 1)), st.integers(1, 2))
        elif draw(st.booleans()):
            spec["max_spins"] = draw(st.integers(1, 3))
        if draw(st.integers(0, 2)) == 0:
            spec["scatter_pays"] = False
        data["free_spins"] = spec
    return data


# ------------------------------------------------------------------------ TOML rendering

_BARE_KEY = re.compile(r"^[A-Za-z0-9_-]+$")


def _key(name: str) -> str:
    if _BARE_KEY.match(name):
        return name
    return '"' + name.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(value, list):
        return "[" + ", ".join(_value(v) for v in value) + "]"
    if isinstance(value, dict):
        if not value:
            return "{}"
        return "{ " + ", ".join(f"{_key(k)} = {_value(v)}" for k, v in value.items()) + " }"
    raise TypeError(f"cannot render {value!r} as TOML")


def to_toml(data: dict[str, Any]) -> str:
    """Render a game dict as TOML: scalars and arrays first, then one ``[table]`` per table,
    its values inline. ``tomllib.loads(to_toml(d)) == d`` for the dicts above."""
    lines = [f"{_key(k)} = {_value(v)}" for k, v in data.items() if not isinstance(v, dict)]
    for name, table in data.items():
        if isinstance(table, dict):
            lines.append("")
            lines.append(f"[{_key(name)}]")
            lines.extend(f"{_key(k)} = {_value(v)}" for k, v in table.items())
    return "\n".join(lines) + "\n"
