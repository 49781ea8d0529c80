"""Reading ``[hold_and_win]`` (docs/game-format.md): one clear error per bad key.

Called by :class:`slotmath.io.toml_loader._Builder` with itself, so every failure carries the
file and key path; the rules are the model's (:func:`slotmath.model.rules.check_hold_and_win`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from slotmath.model import rules
from slotmath.model.hold_and_win import BOOSTER_KINDS, Booster, HoldAndWin

HOLD_AND_WIN_KEYS = {"symbol", "trigger", "respins", "max_rows", "cash_probability", "values",
                     "value_weights", "ceiling", "full_grid_prize", "boosters", "top_award",
                     "in_free_spins", "named_values", "full_grid_name"}
BOOSTER_KEYS = {"rows": {"probability", "collect"},
                "values": {"probability", "collect", "times"},
                "respins": {"probability", "collect", "times", "extra"},
                "multiplier": {"probability", "collect", "ladder"}}


def read_hold_and_win(b, spec: Any, symbols: Mapping, rows: tuple[int, ...],
                      n_reels: int) -> HoldAndWin:
    """The :class:`HoldAndWin` of table ``spec`` (``b``: the loader's builder)."""
    key = "hold_and_win"
    if not isinstance(spec, Mapping):
        b.fail(key, "must be a table: [hold_and_win] with symbol, trigger, respins, "
                    "cash_probability, values and value_weights")
    b._unknown(spec, HOLD_AND_WIN_KEYS, key)
    for need, example in (("symbol", 'symbol = "NUGGET"'), ("trigger", "trigger = 5"),
                          ("respins", "respins = 3"),
                          ("cash_probability", 'cash_probability = "1/14"'),
                          ("values", "values = [1, 2, 5]"),
                          ("value_weights", "value_weights = [10, 5, 1]")):
        if need not in spec:
            b.fail(f"{key}.{need}", f"missing: e.g. {example}")
    symbol = b._name(spec["symbol"], f"{key}.symbol", "a symbol name")
    b._rule(key, rules.check_declared, symbol, symbols, "symbol")
    trigger = b._int(spec["trigger"], f"{key}.trigger", 1)
    respins = b._int(spec["respins"], f"{key}.respins", 1)
    start_rows = rows[0]
    max_rows = b._int(spec.get("max_rows", start_rows), f"{key}.max_rows", 1)
    p = b._number(spec["cash_probability"], f"{key}.cash_probability", "a probability")
    values_raw = spec["values"]
    if not isinstance(values_raw, list) or not values_raw:
        b.fail(f"{key}.values", f"must be a list of values in total bets, got {values_raw!r}")
    values = tuple(b._number(v, f"{key}.values[{i}]", "a number of total bets")
                   for i, v in enumerate(values_raw))
    weights_raw = spec["value_weights"]
    if not isinstance(weights_raw, list):
        b.fail(f"{key}.value_weights", f"must be a list of whole weights, got {weights_raw!r}")
    weights = tuple(b._int(w, f"{key}.value_weights[{i}]", 0)
                    for i, w in enumerate(weights_raw))
    ceiling = (b._number(spec["ceiling"], f"{key}.ceiling", "a number of total bets")
               if "ceiling" in spec else None)
    prize = b._number(spec.get("full_grid_prize", 0), f"{key}.full_grid_prize",
                      "a number of total bets")
    top_award = (b._number(spec["top_award"], f"{key}.top_award", "a number of total bets")
                 if "top_award" in spec else None)
    boosters = []
    table = spec.get("boosters", {})
    if not isinstance(table, Mapping):
        b.fail(f"{key}.boosters", "must be a table of boosters by kind "
                                  f"({', '.join(BOOSTER_KINDS)})")
    b._unknown(table, set(BOOSTER_KINDS), f"{key}.boosters")
    for kind in BOOSTER_KINDS:
        if kind not in table:
            continue
        where = f"{key}.boosters.{kind}"
        t = table[kind]
        if not isinstance(t, Mapping):
            b.fail(where, "must be a table with probability and collect")
        b._unknown(t, BOOSTER_KEYS[kind], where)
        if "probability" not in t:
            b.fail(f"{where}.probability", "missing: the chance per respin that one gem of "
                                           'this kind lands, e.g. probability = "1/10"')
        q = b._number(t["probability"], f"{where}.probability", "a probability")
        collect = b._int(t.get("collect", 3), f"{where}.collect", 1)
        ladder: tuple[int, ...] = ()
        if kind == "rows":
            times = max_rows - start_rows
            if times < 1:
                b.fail(f"{key}.max_rows", f"a rows booster needs max_rows above the window's "
                                          f"{start_rows} rows, got {max_rows}")
        elif kind == "multiplier":
            raw = t.get("ladder")
            if not isinstance(raw, list) or not raw:
                b.fail(f"{where}.ladder", f"must list the multiplier after each firing, "
                                          f"e.g. [2, 3, 5], got {raw!r}")
            ladder = tuple(b._int(m, f"{where}.ladder[{i}]", 2) for i, m in enumerate(raw))
            times = len(ladder)
        else:
            times = b._int(t.get("times", 1), f"{where}.times", 1)
        extra = b._int(t.get("extra", 1), f"{where}.extra", 1)
        boosters.append(b._rule(where, Booster, kind, q, collect, times, extra, ladder))
    in_free = (b._bool(spec["in_free_spins"], f"{key}.in_free_spins")
               if "in_free_spins" in spec else False)
    named_raw = spec.get("named_values", {})
    if not isinstance(named_raw, Mapping):
        b.fail(f"{key}.named_values", "must be a table of names and values in total bets, "
                                      "e.g. { MINI = 20, MINOR = 50 }")
    named = tuple((str(name), b._number(v, f"{key}.named_values.{name}",
                                        "a number of total bets (one of values)"))
                  for name, v in named_raw.items())
    grid_name = spec.get("full_grid_name")
    if grid_name is not None and (not isinstance(grid_name, str) or not grid_name.strip()):
        b.fail(f"{key}.full_grid_name", f"must be a name, e.g. \"GRAND\", got {grid_name!r}")
    return b._rule(key, HoldAndWin, symbol, trigger, respins, p, values, weights,
                   rows=start_rows, max_rows=max_rows, reels=n_reels,
                   boosters=tuple(boosters), ceiling=ceiling, full_grid_prize=prize,
                   top_award=top_award, in_free_spins=in_free, named_values=named,
                   full_grid_name=grid_name)
