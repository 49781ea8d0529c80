"""The tuned game as a game file: the original file's data with one reel set replaced.

The file is read with :mod:`tomllib` and written back by a small TOML emitter (top-level
keys, then one ``[table]`` per table, ``[[table]]`` per array of tables, inline tables
inside); the data is the same as the original's but for the tuned reel set, its comments
are not kept (a header comment says where the file came from).
"""

from __future__ import annotations

import json
import math
import re
import tomllib
from pathlib import Path

from slotmath.model.game import Game

__all__ = ["dumps", "tuned_text", "tuned_weights_text"]

_BARE = re.compile(r"[A-Za-z0-9_-]+")


def _key(key: str) -> str:
    return key if _BARE.fullmatch(key) else json.dumps(key, ensure_ascii=False)


def _value(value, inline: bool = False, indent: str = "") -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if math.isnan(value):
            return "nan"
        if math.isinf(value):
            return "inf" if value > 0 else "-inf"
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, dict):
        inner = ", ".join(f"{_key(k)} = {_value(v, True)}" for k, v in value.items())
        return "{ " + inner + " }" if inner else "{}"
    if isinstance(value, list):
        nested = any(isinstance(v, (list, dict)) for v in value)
        if inline or not nested:
            return "[" + ", ".join(_value(v, True) for v in value) + "]"
        inner = "".join(f"{indent}  {_value(v, True)},\n" for v in value)
        return "[\n" + inner + indent + "]"
    raise TypeError(f"cannot write {type(value).__name__} {value!r} as TOML")


def _is_table_array(value) -> bool:
    return isinstance(value, list) and bool(value) and all(isinstance(v, dict) for v in value)


def dumps(data: dict) -> str:
    """TOML text of ``data`` (as :func:`tomllib.loads` gives it).

    Examples
    --------
    >>> text = dumps({"name": "g", "rows": 3, "symbols": {"A": {"pays": {"3": 5}}},
    ...               "jackpots": [{"name": "MINI", "seed": 1.5}]})
    >>> print(text)
    name = "g"
    rows = 3
    <BLANKLINE>
    [symbols]
    A = { pays = { 3 = 5 } }
    <BLANKLINE>
    [[jackpots]]
    name = "MINI"
    seed = 1.5
    <BLANKLINE>
    >>> tomllib.loads(text) == {"name": "g", "rows": 3, "symbols": {"A": {"pays": {"3": 5}}},
    ...                         "jackpots": [{"name": "MINI", "seed": 1.5}]}
    True
    """
    head, tables = [], []
    for key, value in data.items():
        if isinstance(value, dict):
            body = "".join(f"{_key(k)} = {_value(v)}\n" for k, v in value.items())
            tables.append(f"\n[{_key(key)}]\n{body}")
        elif _is_table_array(value):
            for item in value:
                body = "".join(f"{_key(k)} = {_value(v)}\n" for k, v in item.items())
                tables.append(f"\n[[{_key(key)}]]\n{body}")
        else:
            head.append(f"{_key(key)} = {_value(value)}\n")
    return "".join(head) + "".join(tables)


def tuned_text(source: str | Path, game: Game, reel_set: str, header: str = "") -> str:
    """The text of game file ``source`` with reel set ``reel_set`` taken from ``game``
    (weighted reels as ``{ strip = [...], weights = [...] }``), ``header`` as comment lines
    on top."""
    data = tomllib.loads(Path(source).read_text(encoding="utf-8"))
    reels = []
    for reel in game.reel_sets[reel_set].reels:
        if reel.weights is None:
            reels.append(list(reel.symbols))
        else:
            reels.append({"strip": list(reel.symbols), "weights": list(reel.weights)})
    data.setdefault("reels", {})[reel_set] = reels
    comment = "".join(f"# {line}\n" if line else "#\n" for line in header.splitlines())
    return comment + dumps(data)


def tuned_weights_text(source: str | Path, game: Game, kind: str, header: str = "") -> str:
    """The text of game file ``source`` with the bonus wheel's weights (``kind="wheel"``:
    ``[bonus_wheel] weights``) or hold & win's value weights (``"values"``:
    ``[hold_and_win] value_weights``) taken from ``game``; every other key as it was."""
    data = tomllib.loads(Path(source).read_text(encoding="utf-8"))
    if kind == "wheel":
        data["bonus_wheel"]["weights"] = list(game.bonus_wheel.weights)
    elif kind == "values":
        data["hold_and_win"]["value_weights"] = list(game.hold_and_win.value_weights)
    else:
        raise ValueError(f"kind must be 'wheel' or 'values', got {kind!r}")
    comment = "".join(f"# {line}\n" if line else "#\n" for line in header.splitlines())
    return comment + dumps(data)
