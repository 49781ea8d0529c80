"""Reading ``[modes.NAME]`` (docs/game-format.md "Game modes"): one clear error per bad key.

Called by :class:`slotmath.io.toml_loader._Builder` with itself, so every failure carries the
file and key path; the rules are the model's (:func:`slotmath.model.rules.check_mode`, and
:func:`~slotmath.model.rules.check_modes_in_game` when the game is built).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from slotmath.model.modes import Mode

KEYS = {"cost", "reels", "buys", "trigger", "description"}
EXAMPLE = ('[modes.bonus_buy] with cost = 100, buys = "free_spins", '
           'trigger = { 3 = 80, 4 = 15, 5 = 5 }; or [modes.ante] with cost = 1.25, '
           'reels = "ante"')


def read_modes(b, spec: Any) -> tuple[Mode, ...]:
    """The :class:`Mode` of each table of ``spec`` (``b``: the loader's builder)."""
    key = "modes"
    if not isinstance(spec, Mapping) or not spec:
        b.fail(key, f"must be a table of named modes, e.g. {EXAMPLE}")
    out = []
    for name, t in spec.items():
        where = f"{key}.{name}"
        if not isinstance(t, Mapping):
            b.fail(where, f"must be a table, e.g. {EXAMPLE}")
        b._unknown(t, KEYS, where)
        if "cost" not in t:
            b.fail(f"{where}.cost", "missing: what a round costs in total bets, e.g. cost = 100")
        cost = b._number(t["cost"], f"{where}.cost", "a number of total bets > 0")
        reels = (b._name(t["reels"], f"{where}.reels", "a reel set name")
                 if "reels" in t else None)
        buys = b._name(t["buys"], f"{where}.buys", "a feature name") if "buys" in t else None
        trigger: tuple = ()
        if "trigger" in t:
            raw = t["trigger"]
            if not isinstance(raw, Mapping) or not raw:
                b.fail(f"{where}.trigger", f"must be a table of count = whole weight, e.g. "
                                           f"{{ 3 = 80, 4 = 15, 5 = 5 }}, got {raw!r}")
            trigger = tuple((b._count(k, f"{where}.trigger.{k}"),
                             b._int(w, f"{where}.trigger.{k}", 0)) for k, w in raw.items())
        description = t.get("description", "")
        if not isinstance(description, str):
            b.fail(f"{where}.description", f"must be a string, got {description!r}")
        out.append(b._rule(where, Mode, str(name), cost, reels=reels, buys=buys,
                           trigger=trigger, description=description))
    return tuple(out)
