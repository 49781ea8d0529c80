"""TOML game files in; one clear :class:`GameFileError` out for anything wrong.

The format is documented in ``docs/game-format.md``. Every check names the file, the key
path and what would be right.
"""

from __future__ import annotations

import math
import tomllib
from fractions import Fraction
from pathlib import Path
from typing import Any, Mapping

from slotmath.errors import GameFileError
from slotmath.model.game import FreeSpins, Game, Reel, ReelSet, Symbol, SymbolGroup, _frozen_map

TOP_KEYS = {
    "name", "description", "rows", "bet", "paylines", "ways", "bet_levels", "symbols",
    "groups", "reels", "free_spins",
}
SYMBOL_KEYS = {"pays", "wild", "scatter", "bonus", "multiplier", "substitutes", "level_pays"}
GROUP_KEYS = {"members", "pays", "level_pays"}
FREE_SPIN_KEYS = {"trigger", "awards", "reels", "multiplier", "retrigger", "max_spins"}


def load_game(path: str | Path) -> Game:
    """Read and validate a game file.

    Parameters
    ----------
    path : str or Path
        A TOML game file (format in ``docs/game-format.md``).

    Returns
    -------
    Game

    Raises
    ------
    GameFileError
        Naming the file, the key and what is wrong.

    Examples
    --------
    >>> import slotmath
    >>> game = slotmath.load_game("data/games/classic_fruits.toml")
    >>> game.n_reels, game.n_lines
    (5, 25)
    """
    path = Path(path)
    label = str(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise GameFileError(label, None, "no such file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise GameFileError(label, None, f"cannot be read: {exc}") from None
    return loads_game(text, label)


def loads_game(text: str, label: str = "<string>") -> Game:
    """Parse a game from TOML text; ``label`` names it in errors.

    Examples
    --------
    >>> g = loads_game('''
    ... rows = 1
    ... bet = 1
    ... paylines = [[0, 0, 0]]
    ... [symbols]
    ... A = { pays = { 3 = 10 } }
    ... B = {}
    ... [reels]
    ... base = [["A", "B"], ["A", "B"], ["A", "B"]]
    ... ''')
    >>> g.base.cycle
    8
    """
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise GameFileError(label, None, f"not valid TOML ({exc})") from None
    return game_from_dict(data, label)


def game_from_dict(data: Mapping[str, Any], label: str = "<dict>") -> Game:
    """Build and validate a :class:`Game` from parsed TOML data."""
    return _Builder(data, label).build()


class _Builder:
    def __init__(self, data: Mapping[str, Any], label: str):
        self.data = data
        self.label = label

    def fail(self, key: str | None, message: str):
        raise GameFileError(self.label, key, message)

    # -- scalar helpers -------------------------------------------------------------------
    def _unknown(self, table: Mapping, allowed: set[str], where: str):
        for key in table:
            if key not in allowed:
                path = f"{where}.{key}" if where else key
                self.fail(path, f"unknown key (expected one of: {', '.join(sorted(allowed))})")

    def _int(self, value: Any, key: str, minimum: int | None = None) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            self.fail(key, f"must be a whole number, got {value!r}")
        if minimum is not None and value < minimum:
            self.fail(key, f"must be >= {minimum}, got {value}")
        return value

    def _bool(self, value: Any, key: str) -> bool:
        if not isinstance(value, bool):
            self.fail(key, f"must be true or false, got {value!r}")
        return value

    def _pay(self, value: Any, key: str) -> Fraction:
        if isinstance(value, bool) or not isinstance(value, (int, float, str)):
            self.fail(key, f"pay must be a number, got {value!r}")
        if isinstance(value, float):
            if not math.isfinite(value):
                self.fail(key, f"pay must be finite, got {value!r}")
            pay = Fraction(str(value))  # the decimal the user wrote, not the binary float
        elif isinstance(value, str):
            try:
                pay = Fraction(value)
            except (ValueError, ZeroDivisionError):
                self.fail(key, f"pay must be a number or a fraction like '5/2', got {value!r}")
        else:
            pay = Fraction(value)
        if pay < 0:
            self.fail(key, f"pay must not be negative, got {value!r}")
        return pay

    def _count_table(self, table: Any, key: str, n_reels: int, max_count: int | None = None,
                     value=None) -> dict[int, Any]:
        if not isinstance(table, Mapping):
            self.fail(key, f"must be a table of count = value, got {table!r}")
        value = value or self._pay
        out: dict[int, Any] = {}
        for raw, v in table.items():
            sub = f"{key}.{raw}"
            try:
                count = int(raw)
            except ValueError:
                self.fail(sub, f"count must be a whole number, got {raw!r}")
            if count < 1:
                self.fail(sub, f"count must be >= 1, got {count}")
            top = max_count if max_count is not None else n_reels
            if count > top:
                self.fail(sub, f"count {count} is more than the {top} possible")
            out[count] = value(v, sub)
        return out

    # -- the build ------------------------------------------------------------------------
    def build(self) -> Game:
        d = self.data
        self._unknown(d, TOP_KEYS, "")
        name = d.get("name", Path(self.label).stem)
        if not isinstance(name, str):
            self.fail("name", "must be a string")
        description = d.get("description", "")
        if not isinstance(description, str):
            self.fail("description", "must be a string")

        if "reels" not in d:
            self.fail("reels", "missing: the [reels] table with at least a 'base' reel set")
        reels_table = d["reels"]
        if not isinstance(reels_table, Mapping) or not reels_table:
            self.fail("reels", "must be a table of named reel sets, e.g. base = [[...], ...]")
        if "base" not in reels_table:
            self.fail("reels.base", "missing: the base game's reel set")
        n_reels = self._n_reels(reels_table)

        if "rows" not in d:
            self.fail("rows", "missing: rows per reel (a number, or a list with one per reel)")
        rows = self._rows(d["rows"], n_reels)
        if "bet" not in d:
            self.fail("bet", "missing: the total bet in coins at bet level 1")
        bet = self._int(d["bet"], "bet", 1)

        levels = d.get("bet_levels", [1])
        if not isinstance(levels, list) or not levels:
            self.fail("bet_levels", "must be a non-empty list of whole numbers >= 1")
        bet_levels = tuple(self._int(v, f"bet_levels[{i}]", 1) for i, v in enumerate(levels))
        if len(set(bet_levels)) != len(bet_levels):
            self.fail("bet_levels", "lists a level twice")

        has_lines, has_ways = "paylines" in d, bool(d.get("ways", False))
        if "ways" in d:
            self._bool(d["ways"], "ways")
        if has_lines and has_ways:
            self.fail("paylines", "a game has either paylines or ways = true, not both")
        if not has_lines and not has_ways:
            self.fail("paylines", "missing: give paylines = [[...], ...] or ways = true")
        paylines = self._paylines(d["paylines"], rows) if has_lines else None

        symbols = self._symbols(d.get("symbols"), n_reels, bet_levels, sum(rows))
        groups = self._groups(d.get("groups", {}), symbols, n_reels, bet_levels)
        reel_sets = {
            set_name: self._reel_set(set_name, reels, symbols, rows, n_reels)
            for set_name, reels in reels_table.items()
        }
        free_spins = None
        if "free_spins" in d:
            free_spins = self._free_spins(d["free_spins"], symbols, reel_sets, n_reels, rows)

        game = Game(
            name=name,
            description=description,
            rows=rows,
            bet=bet,
            paylines=paylines,
            ways=has_ways,
            symbols=_frozen_map(symbols),
            groups=_frozen_map(groups),
            reel_sets=_frozen_map(reel_sets),
            free_spins=free_spins,
            bet_levels=bet_levels,
            source=self.label,
        )
        if free_spins is not None:
            self._check_free_spins_end(game)
        return game

    def _n_reels(self, reels_table: Mapping) -> int:
        base = reels_table["base"]
        if not isinstance(base, list) or not base:
            self.fail("reels.base", "must be a non-empty list of reels")
        return len(base)

    def _rows(self, value: Any, n_reels: int) -> tuple[int, ...]:
        if isinstance(value, list):
            if len(value) != n_reels:
                self.fail("rows", f"lists {len(value)} reels but the base reel set has {n_reels}")
            return tuple(self._int(v, f"rows[{i}]", 1) for i, v in enumerate(value))
        return (self._int(value, "rows", 1),) * n_reels

    def _paylines(self, value: Any, rows: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
        if not isinstance(value, list) or not value:
            self.fail("paylines", "must be a non-empty list of lines, one row index per reel")
        lines = []
        for i, line in enumerate(value):
            key = f"paylines[{i}]"
            if not isinstance(line, list):
                self.fail(key, f"must be a list of row indices, got {line!r}")
            if len(line) != len(rows):
                self.fail(key, f"has {len(line)} entries but the game has {len(rows)} reels")
            for j, r in enumerate(line):
                self._int(r, f"{key}[{j}]")
                if not 0 <= r < rows[j]:
                    self.fail(f"{key}[{j}]", f"row {r} is outside reel {j + 1}'s rows 0..{rows[j] - 1}")
            lines.append(tuple(line))
        return tuple(lines)

    def _level_pays(self, value: Any, key: str, n_reels: int, bet_levels, max_count=None):
        if not isinstance(value, Mapping):
            self.fail(key, "must be a table of level = { count = pay }")
        out = {}
        for raw, column in value.items():
            try:
                level = int(raw)
            except ValueError:
                self.fail(f"{key}.{raw}", "bet level must be a whole number")
            if level not in bet_levels:
                self.fail(f"{key}.{raw}", f"bet level {level} is not in bet_levels {list(bet_levels)}")
            out[level] = _frozen_map(
                self._count_table(column, f"{key}.{raw}", n_reels, max_count)
            )
        return _frozen_map(out)

    def _symbols(self, table: Any, n_reels: int, bet_levels, window: int) -> dict[str, Symbol]:
        if table is None:
            self.fail("symbols", "missing: declare every symbol under [symbols]")
        if not isinstance(table, Mapping) or not table:
            self.fail("symbols", "must be a non-empty table of symbol = { ... }")
        symbols: dict[str, Symbol] = {}
        for name, spec in table.items():
            key = f"symbols.{name}"
            if not isinstance(spec, Mapping):
                self.fail(key, "must be a table, e.g. { pays = { 3 = 10 } } or {}")
            self._unknown(spec, SYMBOL_KEYS, key)
            wild = self._bool(spec.get("wild", False), f"{key}.wild")
            scatter = self._bool(spec.get("scatter", False), f"{key}.scatter")
            bonus = self._bool(spec.get("bonus", False), f"{key}.bonus")
            if wild and scatter:
                self.fail(key, "a symbol cannot be both wild and scatter")
            if bonus and (wild or scatter):
                self.fail(key, "a bonus symbol cannot also be wild or scatter")
            # Line and ways pays count reels; scatters count every position of the window.
            max_count = window if scatter else n_reels
            pays = self._count_table(spec.get("pays", {}), f"{key}.pays", n_reels, max_count)
            if bonus and pays:
                self.fail(f"{key}.pays", "bonus symbols pay through their feature, not a pay table")
            level_pays = self._level_pays(spec.get("level_pays", {}), f"{key}.level_pays",
                                          n_reels, bet_levels, max_count)
            multiplier = self._int(spec.get("multiplier", 1), f"{key}.multiplier", 1)
            if multiplier != 1 and scatter:
                self.fail(f"{key}.multiplier", "a scatter cannot be a multiplier symbol")
            substitutes = spec.get("substitutes")
            if substitutes is not None:
                if not wild:
                    self.fail(f"{key}.substitutes", "only a wild symbol substitutes")
                if not isinstance(substitutes, list) or not all(isinstance(s, str) for s in substitutes):
                    self.fail(f"{key}.substitutes", "must be a list of symbol names")
                substitutes = frozenset(substitutes)
            symbols[name] = Symbol(
                name=name, pays=_frozen_map(pays), wild=wild, scatter=scatter, bonus=bonus,
                multiplier=multiplier, substitutes=substitutes, level_pays=level_pays,
            )
        for name, sym in symbols.items():
            for other in sym.substitutes or ():
                if other not in symbols:
                    self.fail(f"symbols.{name}.substitutes", f"symbol {other!r} is not declared")
                o = symbols[other]
                if o.scatter or o.bonus or o.wild:
                    self.fail(f"symbols.{name}.substitutes",
                              f"{other!r} is a scatter, bonus or wild symbol: wilds never stand in for it")
        return symbols

    def _groups(self, table: Any, symbols, n_reels, bet_levels) -> dict[str, SymbolGroup]:
        if not isinstance(table, Mapping):
            self.fail("groups", "must be a table of group = { members = [...], pays = {...} }")
        groups = {}
        for name, spec in table.items():
            key = f"groups.{name}"
            if name in symbols:
                self.fail(key, "a group cannot share its name with a symbol")
            if not isinstance(spec, Mapping):
                self.fail(key, "must be a table with members and pays")
            self._unknown(spec, GROUP_KEYS, key)
            members = spec.get("members")
            if not isinstance(members, list) or len(members) < 2:
                self.fail(f"{key}.members", "must list at least two symbols")
            for m in members:
                if m not in symbols:
                    self.fail(f"{key}.members", f"symbol {m!r} is not declared")
                if symbols[m].scatter or symbols[m].bonus or symbols[m].wild:
                    self.fail(f"{key}.members", f"{m!r} is a scatter, bonus or wild symbol")
            if "pays" not in spec:
                self.fail(f"{key}.pays", "missing")
            pays = self._count_table(spec["pays"], f"{key}.pays", n_reels)
            level_pays = self._level_pays(spec.get("level_pays", {}), f"{key}.level_pays",
                                          n_reels, bet_levels)
            groups[name] = SymbolGroup(name, frozenset(members), _frozen_map(pays), level_pays)
        return groups

    def _reel_set(self, set_name, reels, symbols, rows, n_reels) -> ReelSet:
        key = f"reels.{set_name}"
        if not isinstance(reels, list):
            self.fail(key, "must be a list of reels")
        if len(reels) != n_reels:
            self.fail(key, f"has {len(reels)} reels but the base reel set has {n_reels}")
        out = []
        for j, reel in enumerate(reels):
            rkey = f"{key}[{j}]"
            weights = None
            if isinstance(reel, Mapping):
                self._unknown(reel, {"strip", "weights"}, rkey)
                if "strip" not in reel:
                    self.fail(f"{rkey}.strip", "missing")
                strip, weights = reel["strip"], reel.get("weights")
                skey = f"{rkey}.strip"
            else:
                strip, skey = reel, rkey
            if not isinstance(strip, list):
                self.fail(skey, "must be a list of symbol names")
            if not strip:
                self.fail(skey, "strip is empty")
            for i, s in enumerate(strip):
                if not isinstance(s, str):
                    self.fail(f"{skey}[{i}]", f"must be a symbol name, got {s!r}")
                if s not in symbols:
                    self.fail(f"{skey}[{i}]", f"symbol {s!r} is not declared in [symbols]")
            if weights is not None:
                wkey = f"{rkey}.weights"
                if not isinstance(weights, list) or len(weights) != len(strip):
                    self.fail(wkey, f"must list one whole-number weight per stop ({len(strip)})")
                weights = tuple(self._int(w, f"{wkey}[{i}]", 0) for i, w in enumerate(weights))
                if sum(weights) == 0:
                    self.fail(wkey, "all weights are zero")
            out.append(Reel(tuple(strip), weights))
        return ReelSet(set_name, tuple(out))

    def _free_spins(self, spec, symbols, reel_sets, n_reels, rows) -> FreeSpins:
        key = "free_spins"
        if not isinstance(spec, Mapping):
            self.fail(key, "must be a table")
        self._unknown(spec, FREE_SPIN_KEYS, key)
        trigger = spec.get("trigger")
        if trigger is None:
            self.fail(f"{key}.trigger", "missing: the scatter symbol that triggers")
        if trigger not in symbols:
            self.fail(f"{key}.trigger", f"symbol {trigger!r} is not declared in [symbols]")
        if not symbols[trigger].scatter:
            self.fail(f"{key}.trigger", f"symbol {trigger!r} is not a scatter")
        if "awards" not in spec:
            self.fail(f"{key}.awards", "missing: spins awarded by trigger count")
        awards = self._count_table(
            spec["awards"], f"{key}.awards", n_reels, max_count=sum(rows),
            value=lambda v, k: self._int(v, k, 1),
        )
        if not awards:
            self.fail(f"{key}.awards", "must award spins for at least one count")
        reels = spec.get("reels", "base")
        if reels not in reel_sets:
            self.fail(f"{key}.reels", f"reel set {reels!r} is not defined under [reels]")
        multiplier = self._int(spec.get("multiplier", 1), f"{key}.multiplier", 1)
        retrigger = self._bool(spec.get("retrigger", False), f"{key}.retrigger")
        max_spins = spec.get("max_spins")
        if max_spins is not None:
            max_spins = self._int(max_spins, f"{key}.max_spins", 1)
        return FreeSpins(trigger, _frozen_map(awards), reels, multiplier, retrigger, max_spins)

    def _check_free_spins_end(self, game: Game):
        fs = game.free_spins
        if not fs.retrigger or fs.max_spins is not None:
            return
        from slotmath.evaluate.window import scatter_count_distribution

        counts = scatter_count_distribution(game, game.reel_sets[fs.reels], fs.trigger)
        total = sum(counts.values())
        expected = Fraction(sum(w * fs.award_for(c) for c, w in counts.items()), total)
        if expected >= 1:
            self.fail(
                "free_spins.retrigger",
                f"expected retrigger award per free spin is {float(expected):.4g} >= 1 and there is "
                "no max_spins cap: the feature would never end",
            )
