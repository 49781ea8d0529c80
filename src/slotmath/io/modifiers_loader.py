"""Reading ``[modifiers]`` (docs/game-format.md "Modifiers"): one clear error per bad key.

Called by :class:`slotmath.io.toml_loader._Builder` with itself, so every failure carries the
file and key path; the rules are the model's (:func:`slotmath.model.rules.check_modifier`,
and :func:`~slotmath.model.rules.check_modifiers_in_game` when the game is built).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from slotmath.model.modifiers import MODIFIER_KINDS, Modifier, Modifiers

KEYS = {"place": {"kind", "frequency", "symbol", "counts", "keep", "reels", "in_free_spins"},
        "upgrade": {"kind", "frequency", "from", "to", "in_free_spins"}}
EXAMPLE = ('[modifiers.dynamite] with kind = "place", frequency = "1/40", symbol = "WILD", '
           'counts = { 3 = 5, 4 = 3, 5 = 2 }')


def _weights(b, raw: Any, where: str, key_of, what: str) -> tuple:
    if not isinstance(raw, Mapping) or not raw:
        b.fail(where, f"must be a table of {what} = whole weight, e.g. {{ 3 = 5, 4 = 1 }}, "
                      f"got {raw!r}")
    out = []
    for k, w in raw.items():
        out.append((key_of(k, f"{where}.{k}"), b._int(w, f"{where}.{k}", 0)))
    return tuple(out)


def _count(b, k: str, where: str) -> int:
    try:
        n = int(k)
    except ValueError:
        b.fail(where, f"a count must be a whole number of positions, got {k!r}")
    if n < 1:
        b.fail(where, f"a count must be >= 1, got {n}")
    return n


def _names(b, raw: Any, where: str) -> tuple[str, ...]:
    if not isinstance(raw, list):
        b.fail(where, f"must be a list of symbol names, got {raw!r}")
    return tuple(b._name(s, f"{where}[{i}]", "a symbol name") for i, s in enumerate(raw))


def _reels(b, raw: Any, where: str) -> tuple[int, ...]:
    if not isinstance(raw, list) or not raw:
        b.fail(where, f"must be a list of reel numbers counted from 1, e.g. [2, 3, 4] (leave "
                      f"the key out for every reel), got {raw!r}")
    return tuple(b._int(r, f"{where}[{i}]", 1) for i, r in enumerate(raw))


def read_modifiers(b, spec: Any) -> Modifiers:
    """The :class:`Modifiers` of table ``spec`` (``b``: the loader's builder)."""
    key = "modifiers"
    if not isinstance(spec, Mapping) or not spec:
        b.fail(key, f"must be a table of named modifiers, e.g. {EXAMPLE}")
    mods = []
    for name, t in spec.items():
        where = f"{key}.{name}"
        if not isinstance(t, Mapping):
            b.fail(where, f"must be a table, e.g. {EXAMPLE}")
        kind = t.get("kind")
        if kind not in MODIFIER_KINDS:
            b.fail(f"{where}.kind", f"must be one of {', '.join(MODIFIER_KINDS)} (\"place\": "
                                    f"k positions show a symbol; \"upgrade\": symbols become "
                                    f"one drawn symbol), got {kind!r}")
        b._unknown(t, KEYS[kind], where)
        if "frequency" not in t:
            b.fail(f"{where}.frequency", 'missing: its probability per paid spin, e.g. '
                                         'frequency = "1/40"')
        freq = b._number(t["frequency"], f"{where}.frequency", "a probability per paid spin")
        inside = (b._bool(t["in_free_spins"], f"{where}.in_free_spins")
                  if "in_free_spins" in t else False)
        if kind == "place":
            for need, example in (("symbol", 'symbol = "WILD"'),
                                  ("counts", "counts = { 3 = 5, 4 = 3, 5 = 2 }")):
                if need not in t:
                    b.fail(f"{where}.{need}", f"missing: e.g. {example}")
            symbol = b._name(t["symbol"], f"{where}.symbol", "a symbol name")
            counts = _weights(b, t["counts"], f"{where}.counts",
                              lambda k, w: _count(b, k, w), "count")
            keep = _names(b, t.get("keep", []), f"{where}.keep")
            reels = _reels(b, t["reels"], f"{where}.reels") if "reels" in t else ()
            mods.append(b._rule(where, Modifier, name, kind, freq, symbol=symbol,
                                counts=counts, keep=keep, reels=reels, in_free_spins=inside))
        else:
            for need, example in (("from", 'from = ["A", "K", "Q", "J"]'),
                                  ("to", "to = { GUS = 1, MULE = 2 }")):
                if need not in t:
                    b.fail(f"{where}.{need}", f"missing: e.g. {example}")
            from_symbols = _names(b, t["from"], f"{where}.from")
            to = _weights(b, t["to"], f"{where}.to", lambda k, w: k, "symbol")
            mods.append(b._rule(where, Modifier, name, kind, freq, from_symbols=from_symbols,
                                to=to, in_free_spins=inside))
    return b._rule(key, Modifiers, tuple(mods))
