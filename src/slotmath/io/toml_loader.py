"""TOML game files in; one clear :class:`GameFileError` out for anything wrong.

The format is documented in ``docs/game-format.md``. Every check names the file, the key
path and what is wrong and what would be right, on one line.

The loader owns the format (types, spelling, which keys exist, how numbers are written); the
rules on the values are the model's (:mod:`slotmath.model.rules`,
:mod:`slotmath.model.hit_laws`): the loader runs each as it reads the key and turns its
:class:`~slotmath.errors.RuleError` into a :class:`GameFileError` at that key.
"""

from __future__ import annotations

import difflib
import json
import math
import re
import tomllib
from collections.abc import Mapping
from fractions import Fraction
from pathlib import Path
from typing import Any

from slotmath.errors import GameFileError, RuleError
from slotmath.model import hit_laws, rules
from slotmath.model.cascades import BonusEffect, BonusSymbols, Cascades, MultiplierRule
from slotmath.model.free_spin_state import Collector, ExpandingSymbol, StickyWilds, cells_law
from slotmath.model.game import (
    BonusWheel,
    FreeSpins,
    Game,
    JackpotSpec,
    MaxWin,
    Reel,
    ReelSet,
    Symbol,
    SymbolGroup,
    _frozen_map,
)
from slotmath.model.persistent import Bauble, Conveyor, ConveyorFreeSpins, RandomWilds

TOP_KEYS = {
    "name", "description", "rows", "bet", "paylines", "ways", "bet_levels", "symbols",
    "groups", "reels", "free_spins", "bonus_wheel", "coin_value", "currency", "max_win",
    "jackpots", "cascades", "bonus_symbols", "random_wilds", "conveyor", "target_rtp",
    "hold_and_win", "modifiers", "line_multipliers", "modes",
    # grid games (slotmath.io.grid_loader)
    "pays", "cluster", "top_reel", "tumbles", "multipliers", "analysis",
}
RANDOM_WILD_KEYS = {"symbol", "weights"}
CONVEYOR_KEYS = {"wheel", "empty_weight", "surprise", "consume_on_activation", "reset",
                 "free_spins"}
CONVEYOR_FREE_SPIN_KEYS = {"reels", "start_baubles", "max_spins_left", "wheel", "empty_weight"}
BAUBLE_KEYS = {"feature", "value", "weight"}
SYMBOL_KEYS = {"pays", "wild", "scatter", "bonus", "multiplier", "substitutes", "level_pays"}
GROUP_KEYS = {"members", "pays", "level_pays"}
BONUS_WHEEL_KEYS = {"symbol", "count", "per_spin", "prizes", "weights", "multiplied", "labels",
                    "jackpots"}
JACKPOT_KEYS = {"name", "seed", "contribution", "reserve", "law", "level_factors"
                } | hit_laws.PARAMETERS
MAX_WIN_KEYS = {"bet_multiple", "currency"}
FREE_SPIN_KEYS = {"trigger", "awards", "reels", "multiplier", "retrigger", "max_spins",
                  "retrigger_awards", "scatter_pays", "random_awards", "multiplier_growth",
                  "expanding_symbol", "sticky_wilds", "collector"}
EXPANDING_KEYS = {"symbols"}
STICKY_KEYS = {"symbols"}
COLLECTOR_KEYS = {"cash", "values", "collector", "every", "retrigger", "ladder", "applies"}
GROWTH_KEYS = {"per", "start", "step", "max", "ladder"}
CELLS_KEYS = {"cells", "cell"}
CASCADE_KEYS = {"refill", "multiplier", "free_multiplier", "carry_multiplier", "refill_weights",
                "scatters", "scatter_multiplied"}
MULTIPLIER_RULE_KEYS = {"start", "step", "max", "ladder"}
BONUS_SYMBOL_KEYS = {"threshold", "accumulate", "effects", "arrangements", "shuffle"}
BONUS_EFFECT_KEYS = {"wild", "split"}
ARRANGEMENT_KEYS = {"weight", "symbols"}
WEIGHTED_REEL_KEYS = {"strip", "weights"}

_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")


def key_path(*parts: Any) -> str:
    """A TOML-style dotted key path; names that are not bare TOML keys are quoted.

    Examples
    --------
    >>> key_path("symbols", "7", "pays")
    'symbols.7.pays'
    >>> key_path("symbols", "any bar")
    'symbols."any bar"'
    """
    out = []
    for part in parts:
        text = str(part)
        out.append(text if _BARE_KEY.fullmatch(text) else json.dumps(text))
    return ".".join(out)


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
        text = path.read_text(encoding="utf-8-sig")  # a byte-order mark is not an error
    except FileNotFoundError:
        raise GameFileError(label, None,
                            "no such file: give the path of a TOML game file") from None
    except UnicodeDecodeError as exc:
        raise GameFileError(label, None, f"is not UTF-8 text ({exc.reason} at byte "
                                         f"{exc.start}): save the game file as UTF-8") from None
    except OSError as exc:
        raise GameFileError(label, None, f"cannot be read ({exc.strerror or exc})") from None
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
        key, message = _explain_toml_error(text, str(exc))
        raise GameFileError(label, key, message) from None
    return game_from_dict(data, label)


def game_from_dict(data: Mapping[str, Any], label: str = "<dict>") -> Game:
    """Build and validate a :class:`Game` from parsed TOML data."""
    if not isinstance(data, Mapping):
        raise GameFileError(label, None, f"must be a table of game keys, got {type(data).__name__}")
    return _Builder(data, label).build()


# -- TOML syntax errors ---------------------------------------------------------------------
_POSITION = re.compile(r"\s*\((?:at line (\d+), column (\d+)|at end of document)\)\s*$")
_HEADER = re.compile(r"^\s*\[\[?\s*([^\[\]=,#]+?)\s*\]\]?\s*(?:#.*)?$")
_ASSIGN = re.compile(r"^\s*([A-Za-z0-9_\-.\"' ]+?)\s*=")


def _toml_key(raw: str) -> list[str]:
    """The parts of a dotted TOML key as written (quotes removed, simple cases only)."""
    return [p.strip().strip("\"'") for p in re.findall(r'"[^"]*"|\'[^\']*\'|[^.]+', raw)]


def _explain_toml_error(text: str, raw: str) -> tuple[str | None, str]:
    """(key path, one-line message) for a tomllib error; duplicate keys get their key path."""
    match = _POSITION.search(raw)
    reason = raw[: match.start()] if match else raw
    lines = text.splitlines()
    if match and match.group(1):
        line_no = int(match.group(1))
        where = f"line {line_no}, column {match.group(2)}"
    else:
        line_no = max((i + 1 for i, line in enumerate(lines) if line.split("#")[0].strip()),
                      default=0)
        where = "the end of the file"

    def table_at(n: int) -> tuple[list[str], int]:
        """The table header in force at line ``n`` and the line of the statement there."""
        statement = 0
        for i in range(min(n, len(lines)) - 1, -1, -1):
            if not statement and _ASSIGN.match(lines[i]):
                statement = i + 1
            header = _HEADER.match(lines[i])
            if header:
                return _toml_key(header.group(1)), statement
        return [], statement

    declared = re.fullmatch(r"Cannot declare \((.*)\) twice", reason)
    if declared:
        parts = re.findall(r"'([^']*)'|\"([^\"]*)\"", declared.group(1))
        path = key_path(*(a or b for a, b in parts)) if parts else None
        return path, (f"table declared twice (line {line_no}): TOML allows each table header "
                      "once; merge the two tables")
    inline = re.fullmatch(r"Duplicate inline table key '(.*)'", reason)
    if reason == "Cannot overwrite a value" or inline:
        header, statement = table_at(line_no)
        if statement:
            assigned = _ASSIGN.match(lines[statement - 1]).group(1)
            path = key_path(*header, *_toml_key(assigned))
            if inline:
                return path, (f"key {inline.group(1)!r} is given twice inside this inline table "
                              f"(line {line_no}): give each key once")
            return path, (f"key is given twice (second at line {statement}): TOML allows each "
                          "key once per table; remove or rename one")
        return None, f"a key is given twice ({where}): TOML allows each key once per table"
    shown = ""
    if match and match.group(1) and 0 < line_no <= len(lines) and lines[line_no - 1].strip():
        snippet = lines[line_no - 1].strip()
        shown = f" in {snippet[:60] + ('...' if len(snippet) > 60 else '')!r}"
    return None, f"not valid TOML: {reason} at {where}{shown}"


# -- the builder ----------------------------------------------------------------------------
class _Builder:
    def __init__(self, data: Mapping[str, Any], label: str):
        self.data = data
        self.label = label

    def fail(self, key: str | None, message: str):
        raise GameFileError(self.label, key, message)

    def _rule(self, prefix: str, check, *args, raw: Any = None, **kwargs):
        """``check(*args, **kwargs)``: a rule of the model, or the building of a model object
        (which checks its rules); a :class:`RuleError` is failed at ``prefix`` + the rule's
        field, showing ``raw`` (the value as written) if given."""
        try:
            return check(*args, **kwargs)
        except RuleError as err:
            key = err.within(prefix).field or None
            self.fail(key, err.problem_with() if raw is None else err.problem_with(raw))

    # -- scalar helpers -------------------------------------------------------------------
    def _unknown(self, table: Mapping, allowed: set[str], prefix: str):
        """Reject keys not in ``allowed`` (typos get a suggestion); ``prefix`` is its path."""
        for key in table:
            if key not in allowed:
                close = difflib.get_close_matches(str(key), sorted(allowed), n=1)
                hint = f"did you mean {close[0]!r}? " if close else ""
                self.fail(f"{prefix}.{key_path(key)}" if prefix else key_path(key),
                          f"unknown key: {hint}(expected one of: {', '.join(sorted(allowed))})")

    def _int(self, value: Any, key: str, minimum: int | None = None) -> int:
        self._rule(key, rules.check_whole, value, None, minimum)
        return value

    def _bool(self, value: Any, key: str) -> bool:
        if not isinstance(value, bool):
            self.fail(key, f"must be true or false, got {value!r}")
        return value

    def _name(self, value: Any, key: str, what: str) -> str:
        if not isinstance(value, str) or not value:
            self.fail(key, f"must be {what} (a non-empty string), got {value!r}")
        return value

    def _pay(self, value: Any, key: str) -> Fraction:
        if isinstance(value, bool) or not isinstance(value, (int, float, str)):
            self.fail(key, f"pay must be a number like 10, 2.5 or '5/2', got {value!r}")
        if isinstance(value, float):
            if not math.isfinite(value):
                self.fail(key, f"pay must be a finite number, got {value!r}")
            pay = Fraction(str(value))  # the decimal the user wrote, not the binary float
        elif isinstance(value, str):
            try:
                pay = Fraction(value)
            except (ValueError, ZeroDivisionError):
                self.fail(key, f"pay must be a number or a fraction like '5/2', got {value!r}")
        else:
            pay = Fraction(value)
        self._rule(key, rules.check_pay, pay, raw=value)
        return pay

    def _count(self, raw: Any, key: str) -> int:
        """A count (or level) written as a table key: plain decimal digits."""
        if isinstance(raw, int) and not isinstance(raw, bool):
            return raw
        if not isinstance(raw, str) or not re.fullmatch(r"[0-9]+", raw):
            self.fail(key, f"must be a whole number written with digits only, got {raw!r}")
        return int(raw)

    def _count_table(self, table: Any, where: tuple, limit: int, limit_what: str,
                     value=None) -> dict[int, Any]:
        """``{ count = value }`` with 1 <= count <= limit (``limit_what`` explains the limit)."""
        key = key_path(*where)
        if not isinstance(table, Mapping):
            self.fail(key, f"must be a table of count = value like {{ 3 = 10, 4 = 50 }}, "
                           f"got {table!r}")
        value = value or self._pay
        out: dict[int, Any] = {}
        for raw, v in table.items():
            sub = key_path(*where, raw)
            count = self._count(raw, sub)
            if count < 1:
                self.fail(sub, f"count must be >= 1, got {count}")
            if count > limit:
                self.fail(sub, f"count {count} can never happen: at most {limit} ({limit_what})")
            if count in out:
                self.fail(sub, f"count {count} is listed twice: give each count once")
            out[count] = value(v, sub)
        return out

    # -- the build ------------------------------------------------------------------------
    def build(self) -> Game:
        d = self.data
        self._unknown(d, TOP_KEYS, "")
        name = d.get("name", Path(self.label).stem)
        if not isinstance(name, str):
            self.fail("name", f"must be a string, got {name!r}")
        description = d.get("description", "")
        if not isinstance(description, str):
            self.fail("description", f"must be a string, got {description!r}")

        if "reels" not in d:
            self.fail("reels", "missing: add a [reels] table with at least a 'base' reel set")
        reels_table = d["reels"]
        if not isinstance(reels_table, Mapping) or not reels_table:
            self.fail("reels", "must be a table of named reel sets, e.g. base = [[...], ...]")
        if "base" not in reels_table:
            self.fail("reels.base", "missing: the base game's reel set, base = [[...], ...]")
        n_reels = self._n_reels(reels_table)

        from slotmath.io.grid_loader import GridReader, is_grid, read_analysis

        grid = GridReader(self, d, n_reels) if is_grid(d) else None
        if grid is not None:
            grid.read()
        if "rows" not in d:
            self.fail("rows", "missing: rows per reel (a number, or a list with one per reel)")
        rows = grid.rows if grid is not None else self._rows(d["rows"], n_reels)
        if "bet" not in d:
            self.fail("bet", "missing: the total bet in coins at bet level 1, e.g. bet = 20")
        bet = self._int(d["bet"], "bet", 1)
        bet_levels = self._bet_levels(d.get("bet_levels", [1]))

        has_lines = "paylines" in d
        has_ways = self._bool(d["ways"], "ways") if "ways" in d else False
        if grid is not None:
            has_lines = has_ways = False  # a grid game's pays (ways included) are its grid's
        elif has_lines and has_ways:
            self.fail("paylines", "a game has either paylines or ways = true, not both: "
                                  "remove one")
        if not has_lines and not has_ways and grid is None:
            self.fail("paylines", "missing: give paylines = [[...], ...] (a lines game) or "
                                  "ways = true (a ways game)")
        paylines = self._paylines(d["paylines"], rows) if has_lines else None

        window = sum(rows) if grid is None else grid.window
        symbols = self._symbols(d.get("symbols"), n_reels, bet_levels, window,
                                None if grid is None else grid.pay_limit)
        groups = self._groups(d.get("groups", {}), symbols, n_reels, bet_levels)
        self._check_multipliers(symbols, groups)
        reel_sets = {}
        for set_name, reels in reels_table.items():
            reel_sets[set_name] = self._reel_set(set_name, reels, symbols, n_reels)
        free_spins = None
        if "free_spins" in d:
            free_spins = self._free_spins(d["free_spins"], symbols, reel_sets, window)
        grid_parts = (grid.finish(symbols, reel_sets) if grid is not None
                      else {"analysis": read_analysis(self, d)})
        bonus_wheel = None
        if "bonus_wheel" in d:
            if paylines is None:
                self.fail("bonus_wheel", "a line-triggered bonus wheel needs paylines, and this "
                                         "is a ways game")
            bonus_wheel = self._bonus_wheel(d["bonus_wheel"], symbols, len(rows))
        coin_value = None
        if "coin_value" in d:
            coin_value = self._number(d["coin_value"], "coin_value", "a number > 0")
            self._rule("", rules.check_coin_value, coin_value, raw=d["coin_value"])
        currency = d.get("currency", "")
        if not isinstance(currency, str):
            self.fail("currency", f"must be a currency name like \"EUR\", got {currency!r}")
        max_win = self._max_win(d["max_win"], coin_value) if "max_win" in d else None
        jackpots = self._jackpots(d.get("jackpots"), bonus_wheel, coin_value, bet_levels)
        cascades = self._cascades(d["cascades"]) if "cascades" in d else None
        bonus_symbols = self._bonus_symbols(d["bonus_symbols"]) if "bonus_symbols" in d else None
        hold_and_win = None
        if "hold_and_win" in d:
            from slotmath.io.hold_and_win_loader import read_hold_and_win
            hold_and_win = read_hold_and_win(self, d["hold_and_win"], symbols, rows, n_reels)
        modifiers = None
        if "modifiers" in d:
            from slotmath.io.modifiers_loader import read_modifiers
            modifiers = read_modifiers(self, d["modifiers"])
        modes: tuple = ()
        if "modes" in d:
            from slotmath.io.modes_loader import read_modes
            modes = read_modes(self, d["modes"])

        random_wilds, conveyor, target_rtp = self._persistent(d)
        line_multipliers = d.get("line_multipliers", "multiply")
        if line_multipliers not in rules.LINE_MULTIPLIERS:
            self.fail("line_multipliers", 'must be "multiply" (x2 and x3 on a line pay x6) or '
                                          f'"add" (they pay x5), got {line_multipliers!r}')
        game = self._rule(
            "", Game,
            name=name,
            description=description,
            rows=rows,
            bet=bet,
            paylines=paylines,
            symbols=_frozen_map(symbols),
            groups=_frozen_map(groups),
            reel_sets=_frozen_map(reel_sets),
            free_spins=free_spins,
            bonus_wheel=bonus_wheel,
            bet_levels=bet_levels,
            source=self.label,
            coin_value=coin_value,
            currency=currency,
            jackpots=jackpots,
            max_win=max_win,
            cascades=cascades,
            bonus_symbols=bonus_symbols,
            random_wilds=random_wilds,
            conveyor=conveyor,
            target_rtp=target_rtp,
            hold_and_win=hold_and_win,
            modifiers=modifiers,
            line_multipliers=line_multipliers,
            ways=has_ways or (grid is not None and grid.kind == "ways"),
            modes=modes,
            **grid_parts,
        )
        return game

    def _n_reels(self, reels_table: Mapping) -> int:
        base = reels_table["base"]
        if not isinstance(base, list) or not base:
            self.fail("reels.base", "must be a non-empty list of reels, e.g. "
                                    "base = [[\"A\", \"B\"], [\"B\", \"A\"], [\"A\", \"A\"]]")
        return len(base)

    def _rows(self, value: Any, n_reels: int) -> tuple[int, ...]:
        if isinstance(value, list):
            if len(value) != n_reels:
                self.fail("rows", f"lists {len(value)} reels but the base reel set has {n_reels}: "
                                  "give one row count per reel, or a single number")
            return tuple(self._int(v, f"rows[{i}]", 1) for i, v in enumerate(value))
        return (self._int(value, "rows", 1),) * n_reels

    def _bet_levels(self, levels: Any) -> tuple[int, ...]:
        if not isinstance(levels, list) or not levels:
            self.fail("bet_levels", f"must be a non-empty list of whole numbers >= 1 like "
                                    f"[1, 2, 5], got {levels!r}")
        bet_levels = tuple(self._int(v, f"bet_levels[{i}]", 1) for i, v in enumerate(levels))
        self._rule("bet_levels", rules.check_bet_levels, bet_levels)
        return bet_levels

    def _paylines(self, value: Any, rows: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
        if not isinstance(value, list) or not value:
            self.fail("paylines", "must be a non-empty list of lines, each one row index per "
                                  "reel like [1, 1, 1, 1, 1]")
        lines = []
        for i, line in enumerate(value):
            key = f"paylines[{i}]"
            if not isinstance(line, list):
                self.fail(key, f"must be a list of row indices, one per reel, got {line!r}")
            if len(line) != len(rows):
                self.fail(key, f"has {len(line)} entries but the game has {len(rows)} reels: "
                               "give one row index per reel")
            for j, r in enumerate(line):
                self._int(r, f"{key}[{j}]")
                if not 0 <= r < rows[j]:
                    self.fail(f"{key}[{j}]", f"row {r} is outside reel {j + 1}'s rows: "
                                             f"use 0 (top) to {rows[j] - 1} (bottom)")
            lines.append(tuple(line))
        return tuple(lines)

    def _level_pays(self, value: Any, where: tuple, bet_levels, limit: int, limit_what: str,
                    pay_counts: set[int] | None = None):
        key = key_path(*where)
        if not isinstance(value, Mapping):
            self.fail(key, f"must be a table of level = {{ count = pay }}, got {value!r}")
        out = {}
        for raw, column in value.items():
            sub = key_path(*where, raw)
            level = self._count(raw, sub)
            if level == 1:
                self.fail(sub, "level 1 pays are the pays table itself: list level_pays only "
                               "for the other bet levels")
            if level not in bet_levels:
                self.fail(sub, f"bet level {level} is not in bet_levels {list(bet_levels)}: "
                               "add it there or remove this column")
            counts = self._count_table(column, (*where, raw), limit, limit_what)
            if pay_counts is not None:
                for count in counts:
                    if count not in pay_counts:
                        self.fail(key_path(*where, raw, count),
                                  f"count {count} is not in this scatter's pays "
                                  f"{sorted(pay_counts)}: a scatter's counts are the same at "
                                  "every level (list it in pays, with 0 if need be)")
            out[level] = _frozen_map(counts)
        return _frozen_map(out)

    def _symbols(self, table: Any, n_reels: int, bet_levels, window: int,
                 pay_limit: tuple[int, str] | None = None) -> dict[str, Symbol]:
        if table is None:
            self.fail("symbols", "missing: declare every symbol under [symbols], "
                                 "e.g. A = { pays = { 3 = 10 } }")
        if not isinstance(table, Mapping) or not table:
            self.fail("symbols", "must be a non-empty table of symbol = { ... }")
        symbols: dict[str, Symbol] = {}
        for name, spec in table.items():
            where = ("symbols", name)
            key = key_path(*where)
            self._name(name, key, "a symbol name")
            if not isinstance(spec, Mapping):
                self.fail(key, f"must be a table, e.g. {{ pays = {{ 3 = 10 }} }} or {{}}, "
                               f"got {spec!r}")
            self._unknown(spec, SYMBOL_KEYS, key)
            wild = self._bool(spec.get("wild", False), f"{key}.wild")
            scatter = self._bool(spec.get("scatter", False), f"{key}.scatter")
            bonus = self._bool(spec.get("bonus", False), f"{key}.bonus")
            # wild and scatter at once (the book of a Book game) is allowed: it stands in on
            # lines and ways and pays and triggers by its count anywhere
            if bonus and (wild or scatter):
                self.fail(key, "a bonus symbol cannot also be wild or scatter: keep one of them")
            # Line and ways pays count reels; scatters count every position of the window.
            if scatter:
                limit, limit_what = window, "positions in the window"
            else:
                limit, limit_what = pay_limit or (n_reels, "reels")
            pays = self._count_table(spec.get("pays", {}), (*where, "pays"), limit, limit_what)
            if bonus and pays:
                self.fail(f"{key}.pays", "a bonus symbol pays nothing on its own: remove pays "
                                         "(its value is in the feature it starts)")
            if bonus and spec.get("level_pays"):
                self.fail(f"{key}.level_pays", "a bonus symbol pays nothing on its own: remove "
                                               "level_pays")
            level_pays = self._level_pays(spec.get("level_pays", {}), (*where, "level_pays"),
                                          bet_levels, limit, limit_what,
                                          set(pays) if scatter else None)
            multiplier = self._int(spec.get("multiplier", 1), f"{key}.multiplier", 1)
            if multiplier != 1 and (scatter and not wild or bonus):
                kind = "scatter" if scatter else "bonus symbol"
                self.fail(f"{key}.multiplier", f"a {kind} takes part in no line or way, so it "
                                               "cannot multiply: remove multiplier")
            substitutes = spec.get("substitutes")
            if substitutes is not None:
                if not wild:
                    self.fail(f"{key}.substitutes", "only a wild substitutes: add wild = true "
                                                    "or remove substitutes")
                if not isinstance(substitutes, list) or not all(
                        isinstance(s, str) for s in substitutes):
                    self.fail(f"{key}.substitutes", f"must be a list of symbol names like "
                                                    f"[\"A\", \"B\"], got {substitutes!r}")
                substitutes = frozenset(substitutes)
            symbols[name] = self._rule(
                key, Symbol,
                name=name, pays=_frozen_map(pays), wild=wild, scatter=scatter, bonus=bonus,
                multiplier=multiplier, substitutes=substitutes, level_pays=level_pays,
            )
        for name, sym in symbols.items():
            for other in sorted(sym.substitutes or ()):
                key = key_path("symbols", name, "substitutes")
                self._rule(key, rules.check_declared, other, symbols)
                o = symbols[other]
                kind = "scatter" if o.scatter else "bonus symbol" if o.bonus else "wild"
                if o.scatter or o.bonus or o.wild:
                    self.fail(key, f"{other!r} is a {kind}: wilds never stand in for it, "
                                   "list only plain symbols")
        return symbols

    def _groups(self, table: Any, symbols, n_reels, bet_levels) -> dict[str, SymbolGroup]:
        if not isinstance(table, Mapping):
            self.fail("groups", "must be a table of group = { members = [...], pays = {...} }")
        groups = {}
        for name, spec in table.items():
            where = ("groups", name)
            key = key_path(*where)
            self._name(name, key, "a group name")
            if name in symbols:
                self.fail(key, f"a group cannot share its name with the symbol {name!r}: "
                               "rename the group")
            if not isinstance(spec, Mapping):
                self.fail(key, "must be a table like { members = [\"A\", \"B\"], "
                               "pays = { 3 = 5 } }")
            self._unknown(spec, GROUP_KEYS, key)
            members = spec.get("members")
            if (not isinstance(members, list) or len(members) < 2
                    or not all(isinstance(m, str) for m in members)):
                self.fail(f"{key}.members", f"must list at least two symbol names, got {members!r}")
            if len(set(members)) != len(members):
                self.fail(f"{key}.members", "lists a symbol twice: give each member once")
            for m in members:
                self._rule(f"{key}.members", rules.check_declared, m, symbols)
                s = symbols[m]
                if s.scatter or s.bonus or s.wild:
                    kind = "scatter" if s.scatter else "bonus symbol" if s.bonus else "wild"
                    self.fail(f"{key}.members", f"{m!r} is a {kind}: a group lists plain symbols "
                                                "(wilds join a group by substituting)")
            if "pays" not in spec:
                self.fail(f"{key}.pays", "missing: the group's pays by count, e.g. { 3 = 5 }")
            pays = self._count_table(spec["pays"], (*where, "pays"), n_reels, "reels")
            level_pays = self._level_pays(spec.get("level_pays", {}), (*where, "level_pays"),
                                          bet_levels, n_reels, "reels")
            groups[name] = self._rule(key, SymbolGroup, name, frozenset(members),
                                      _frozen_map(pays), level_pays)
        return groups

    def _check_multipliers(self, symbols, groups):
        """A multiplier only acts inside a win: on a wild, a paying symbol or a group member."""
        in_groups = {m for g in groups.values() for m in g.members}
        for name, s in symbols.items():
            if s.multiplier != 1 and not (s.wild or s.pays or s.level_pays or name in in_groups):
                self.fail(key_path("symbols", name, "multiplier"),
                          f"has no effect: {name!r} is not wild, pays nothing and is in no "
                          "group, so it is never part of a win; remove multiplier")

    def _reel_set(self, set_name, reels, symbols, n_reels) -> ReelSet:
        key = key_path("reels", set_name)
        self._name(set_name, key, "a reel set name")
        if not isinstance(reels, list):
            self.fail(key, f"must be a list of reels, got {reels!r}")
        if len(reels) != n_reels:
            self.fail(key, f"has {len(reels)} reels but the base reel set has {n_reels}: "
                           "every reel set has the same number of reels")
        out = []
        for j, reel in enumerate(reels):
            rkey = f"{key}[{j}]"
            weights = None
            if isinstance(reel, Mapping):
                self._unknown(reel, WEIGHTED_REEL_KEYS, rkey)
                if "strip" not in reel:
                    self.fail(f"{rkey}.strip", "missing: a weighted reel is "
                                               "{ strip = [...], weights = [...] }")
                strip, weights = reel["strip"], reel.get("weights")
                skey = f"{rkey}.strip"
            else:
                strip, skey = reel, rkey
            if not isinstance(strip, list):
                self.fail(skey, f"must be a list of symbol names, got {strip!r}")
            self._rule(skey, rules.check_strip, strip)
            # Stops are reported in order: the symbols rule runs on the stops before the first
            # that is not a name at all (the format's), so whichever comes first is reported.
            names = next((i for i, s in enumerate(strip) if not isinstance(s, str)), len(strip))
            self._rule(skey, rules.check_strip_symbols, strip[:names], symbols)
            if names < len(strip):
                self.fail(f"{skey}[{names}]",
                          f"must be a symbol name (a string), got {strip[names]!r}")
            if weights is not None:
                self._rule(rkey, rules.check_stop_weights, weights, len(strip))
                weights = tuple(weights)
            out.append(self._rule(rkey, Reel, tuple(strip), weights))
        return ReelSet(set_name, tuple(out))

    def _free_spins(self, spec, symbols, reel_sets, window: int) -> FreeSpins:
        key = "free_spins"
        if not isinstance(spec, Mapping):
            self.fail(key, "must be a table: [free_spins] with trigger and awards")
        self._unknown(spec, FREE_SPIN_KEYS, key)
        trigger = spec.get("trigger")
        if trigger is None:
            self.fail(f"{key}.trigger", "missing: the scatter symbol that triggers, "
                                        "e.g. trigger = \"SC\"")
        if not isinstance(trigger, str):
            self.fail(f"{key}.trigger", f"must be a symbol name (a string), got {trigger!r}")
        self._rule(key, rules.check_trigger, trigger, symbols)
        if "awards" not in spec and "random_awards" not in spec:
            self.fail(f"{key}.awards", "missing: spins awarded by trigger count, "
                                       "e.g. awards = { 3 = 10 }")
        if "awards" in spec and "random_awards" in spec:
            self.fail(f"{key}.awards", "give either awards or random_awards (the spins drawn "
                                       "by weight), not both")

        def award(spins, count_key):
            self._rule(count_key, rules.check_award, spins)
            return spins

        award_laws = None
        if "random_awards" in spec:
            award_laws = self._count_table(spec["random_awards"], (key, "random_awards"), window,
                                           "positions in the window", value=self._award_law)
            awards = {c: max(n for n, w in law.items() if w) for c, law in award_laws.items()}
            award_laws = _frozen_map({c: _frozen_map(law) for c, law in award_laws.items()})
        else:
            awards = self._count_table(spec["awards"], (key, "awards"), window,
                                       "positions in the window", value=award)
        self._rule(key, rules.check_awards, awards)
        reels = spec.get("reels", "base")
        if not isinstance(reels, str):
            self.fail(f"{key}.reels", f"must be the name of a reel set, got {reels!r}")
        self._rule(key, rules.check_reel_set_name, reels, reel_sets)
        multiplier = spec.get("multiplier", 1)
        self._rule(key, rules.check_spin_multiplier, multiplier)
        retrigger = self._bool(spec.get("retrigger", False), f"{key}.retrigger")
        max_spins = spec.get("max_spins")
        self._rule(key, rules.check_max_spins, max_spins)
        retrigger_awards = None
        if "retrigger_awards" in spec:
            retrigger_awards = _frozen_map(self._count_table(
                spec["retrigger_awards"], (key, "retrigger_awards"), window,
                "positions in the window", value=award))
        scatter_pays = self._bool(spec.get("scatter_pays", True), f"{key}.scatter_pays")
        growth = None
        if "multiplier_growth" in spec:
            growth = self._growth(spec["multiplier_growth"], f"{key}.multiplier_growth")
        states = [k for k in ("expanding_symbol", "sticky_wilds", "collector") if k in spec]
        if len(states) > 1:
            self.fail(f"{key}.{states[1]}", f"a feature carries one state: give {states[0]} or "
                                            f"{states[1]}, not both")
        state = None
        if states:
            state = getattr(self, "_" + states[0])(spec[states[0]], f"{key}.{states[0]}")
        return self._rule(key, FreeSpins, trigger, _frozen_map(awards), reels, multiplier,
                          retrigger, max_spins, retrigger_awards, scatter_pays, award_laws,
                          growth, state)

    # -- free spins with a state (slotmath.model.free_spin_state) ---------------------------
    def _award_law(self, value, key: str) -> dict[int, int]:
        """One count's random award: ``{ spins = weight }`` or ``{ cells = 9, cell = { 1 = 3,
        2 = 2, 3 = 1 } }`` (the sum of that many cells revealed, each drawn by weight)."""
        if not isinstance(value, Mapping):
            self.fail(key, "must be a table { spins = weight } like { 9 = 3, 12 = 1 }, or "
                           "{ cells = 9, cell = { 1 = 3, 2 = 2, 3 = 1 } }")

        def weight(w, sub):
            self._int(w, sub, 0)
            return w

        if "cells" in value or "cell" in value:
            self._unknown(value, CELLS_KEYS, key)
            if "cells" not in value or "cell" not in value:
                self.fail(key, "give both cells (how many are revealed) and cell "
                               "({ spins = weight } of one cell)")
            cells = self._int(value["cells"], f"{key}.cells", 1)
            if cells > 50:
                self.fail(f"{key}.cells", f"at most 50 cells, got {cells}")
            cell = self._count_table(value["cell"], (*key.split("."), "cell"), 10_000,
                                     "spins", value=weight)
            self._rule(f"{key}.cell", rules.check_award_law, cell)
            return cells_law(cells, cell)
        law = {}
        for raw, w in value.items():
            sub = f"{key}.{key_path(raw)}"
            spins = self._count(raw, sub)
            law[spins] = weight(w, sub)
        self._rule(key, rules.check_award_law, law)
        return law

    def _growth(self, spec, key: str) -> MultiplierRule:
        spec = self._table(spec, key, GROWTH_KEYS, '{ per = "spin", start = 1, step = 1 } or '
                                                   '{ per = "spin", ladder = [1, 2, 3, 5] }')
        per = spec.get("per", "spin")
        if per != "spin":
            self.fail(f"{key}.per", f'must be "spin" (a multiplier per collector is the '
                                    f"collector's ladder with every = 1; per cascade, "
                                    f"[cascades] free_multiplier), got {per!r}")
        return self._multiplier_rule({k: v for k, v in spec.items() if k != "per"}, key)

    def _weights(self, table, key: str, what: str) -> tuple[tuple[str, int], ...]:
        if not isinstance(table, Mapping) or not table:
            self.fail(key, f"must be a table of {what} = weight, like {{ A = 3, K = 1 }}")
        for name, w in table.items():
            self._int(w, f"{key}.{key_path(name)}", 0)
        return tuple(table.items())

    def _names(self, value, key: str) -> tuple[str, ...]:
        if (not isinstance(value, list) or not value
                or not all(isinstance(v, str) for v in value)):
            self.fail(key, f'must be a list of symbol names like ["W"], got {value!r}')
        return tuple(value)

    def _expanding_symbol(self, spec, key: str) -> ExpandingSymbol:
        spec = self._table(spec, key, EXPANDING_KEYS, "symbols = { A = 1, K = 1 } (weights)")
        if "symbols" not in spec:
            self.fail(f"{key}.symbols", "missing: the symbols drawn and their weights, like "
                                        "{ A = 3, K = 2 }")
        return self._rule(key, ExpandingSymbol, self._weights(spec["symbols"],
                                                              f"{key}.symbols", "symbol"))

    def _sticky_wilds(self, spec, key: str) -> StickyWilds:
        spec = self._table(spec, key, STICKY_KEYS, 'symbols = ["W"]')
        if "symbols" not in spec:
            self.fail(f"{key}.symbols", 'missing: the wilds that stick, like ["W2", "W3"]')
        return self._rule(key, StickyWilds, self._names(spec["symbols"], f"{key}.symbols"))

    def _collector(self, spec, key: str) -> Collector:
        spec = self._table(spec, key, COLLECTOR_KEYS, 'cash = ["F"], values = { "2" = 3 }, '
                                                      'collector = "W"')
        for need in ("cash", "values", "collector"):
            if need not in spec:
                self.fail(f"{key}.{need}", "missing: see docs/game-format.md, Free spins with "
                                           "a state")
        cash = self._names(spec["cash"], f"{key}.cash")
        collector = self._name(spec["collector"], f"{key}.collector", "a symbol name")
        raw = spec["values"]
        if not isinstance(raw, Mapping) or not raw:
            self.fail(f"{key}.values", 'must be a table of value (total bets) = weight, like '
                                       '{ "2" = 30, "0.5" = 10 }')
        values = []
        for text, w in raw.items():
            sub = f"{key}.values.{key_path(text)}"
            values.append((self._pay(text, sub), self._int(w, sub, 0)))
        ladder = spec.get("ladder", [2, 3, 10])
        if not isinstance(ladder, list):
            self.fail(f"{key}.ladder", f"must be a list of whole multipliers like [2, 3, 10], "
                                       f"got {ladder!r}")
        for i, m in enumerate(ladder):
            self._int(m, f"{key}.ladder[{i}]", 1)
        applies = spec.get("applies", "collected")
        return self._rule(key, Collector, cash, tuple(values), collector,
                          self._int(spec.get("every", 4), f"{key}.every", 1),
                          self._int(spec.get("retrigger", 10), f"{key}.retrigger", 0),
                          tuple(ladder), applies)

    # -- cascades and frozen bonus symbols ------------------------------------------------
    def _table(self, spec, key: str, allowed: set[str], what: str) -> Mapping:
        if not isinstance(spec, Mapping):
            self.fail(key, f"must be a table: {what}")
        self._unknown(spec, allowed, key)
        return spec

    def _multiplier_rule(self, spec, key: str) -> MultiplierRule:
        spec = self._table(spec, key, MULTIPLIER_RULE_KEYS,
                           "{ start = 1, step = 1 } or { ladder = [1, 2, 3, 5] }")
        if "ladder" in spec:
            if set(spec) != {"ladder"}:
                self.fail(key, "give either ladder = [...] or start/step/max, not both")
            ladder = spec["ladder"]
            if not isinstance(ladder, list):
                self.fail(f"{key}.ladder", f"must be a list of whole numbers, got {ladder!r}")
            return self._rule(key, MultiplierRule, ladder=tuple(ladder))
        return self._rule(key, MultiplierRule, spec.get("start", 1), spec.get("step", 0),
                          spec.get("max"))

    def _cascades(self, spec) -> Cascades:
        key = "cascades"
        spec = self._table(spec, key, CASCADE_KEYS, '[cascades] with refill = "strip" and a '
                                                    "multiplier rule")
        refill = spec.get("refill", "strip")
        multiplier = self._multiplier_rule(spec.get("multiplier", {}), f"{key}.multiplier")
        free = None
        if "free_multiplier" in spec:
            free = self._multiplier_rule(spec["free_multiplier"], f"{key}.free_multiplier")
        carry = self._bool(spec.get("carry_multiplier", False), f"{key}.carry_multiplier")
        weights = {}
        raw = spec.get("refill_weights", {})
        if not isinstance(raw, Mapping):
            self.fail(f"{key}.refill_weights", "must be a table: reel set = [{symbol = weight}, "
                                               "...] with one table per reel")
        for set_name, tables in raw.items():
            where = f"{key}.refill_weights.{key_path(set_name)}"
            if not isinstance(tables, list) or not all(isinstance(t, Mapping) for t in tables):
                self.fail(where, "must be a list with one { symbol = weight } table per reel")
            weights[set_name] = tuple(_frozen_map(t) for t in tables)
        scatters = spec.get("scatters", "final")
        multiplied = self._bool(spec.get("scatter_multiplied", False),
                                f"{key}.scatter_multiplied")
        return self._rule(key, Cascades, refill, multiplier, free, carry, _frozen_map(weights),
                          scatters, multiplied)

    def _bonus_symbols(self, spec) -> BonusSymbols:
        key = "bonus_symbols"
        spec = self._table(spec, key, BONUS_SYMBOL_KEYS, "[bonus_symbols] with effects and "
                                                         "arrangements")
        for need in ("effects", "arrangements"):
            if need not in spec:
                self.fail(f"{key}.{need}", "missing: see docs/game-format.md, Cascades")
        effects = {}
        raw_effects = self._table(spec["effects"], f"{key}.effects", set(spec["effects"])
                                  if isinstance(spec["effects"], Mapping) else set(),
                                  "{ NAME = { split = 2 } or { wild = \"W\" } }")
        for name, e in raw_effects.items():
            where = f"{key}.effects.{key_path(name)}"
            e = self._table(e, where, BONUS_EFFECT_KEYS, '{ split = 2 } or { wild = "W" }')
            effects[name] = self._rule(where, BonusEffect, name, e.get("wild"), e.get("split", 1))
        arrangements = []
        raw = spec["arrangements"]
        if not isinstance(raw, list):
            self.fail(f"{key}.arrangements", "must be a list of { weight = 1, symbols = [...] }")
        for i, a in enumerate(raw):
            where = f"{key}.arrangements[{i}]"
            a = self._table(a, where, ARRANGEMENT_KEYS, "{ weight = 1, symbols = [...] }")
            symbols = a.get("symbols")
            if not isinstance(symbols, list):
                self.fail(f"{where}.symbols", "missing or not a list: one bonus symbol per reel")
            arrangements.append((a.get("weight", 1), tuple(symbols)))
        return self._rule(key, BonusSymbols, _frozen_map(effects), tuple(arrangements),
                          spec.get("threshold", 3),
                          self._bool(spec.get("accumulate", True), f"{key}.accumulate"),
                          self._bool(spec.get("shuffle", True), f"{key}.shuffle"))

    # -- persistent state (slotmath.model.persistent) --------------------------------------
    def _persistent(self, d):
        """``[random_wilds]``, ``[conveyor]`` and ``target_rtp`` (each optional)."""
        target = None
        if "target_rtp" in d:
            target = self._number(d["target_rtp"], "target_rtp", "a percentage like 96.0")
        wilds = conveyor = None
        if "random_wilds" in d:
            spec = d["random_wilds"]
            if not isinstance(spec, Mapping):
                self.fail("random_wilds", "must be a table: [random_wilds] with symbol and "
                                          "weights")
            self._unknown(spec, RANDOM_WILD_KEYS, "random_wilds")
            symbol = self._name(spec.get("symbol"), "random_wilds.symbol", "a symbol name")
            weights = spec.get("weights")
            if not isinstance(weights, list) or not all(isinstance(w, list) for w in weights):
                self.fail("random_wilds.weights", "must be one list per reel of weights "
                          "[no wild, row 1, row 2, ...], got " + repr(weights))
            wilds = self._rule("random_wilds", RandomWilds, symbol,
                               tuple(tuple(w) for w in weights))
        if "conveyor" in d:
            spec = d["conveyor"]
            if not isinstance(spec, Mapping):
                self.fail("conveyor", "must be a table: [conveyor] with wheel and empty_weight")
            self._unknown(spec, CONVEYOR_KEYS, "conveyor")
            wheel = self._bauble_wheel(spec.get("wheel"), "conveyor.wheel")
            surprise = spec.get("surprise", {})
            if not isinstance(surprise, Mapping):
                self.fail("conveyor.surprise", "must be a table of feature = weight, e.g. "
                          "{ coin_win = 1, free_spins = 1 }")
            consume = self._bool(spec.get("consume_on_activation", False),
                                 "conveyor.consume_on_activation")
            reset = spec.get("reset", "bet_change")
            fs = spec.get("free_spins", {})
            if not isinstance(fs, Mapping):
                self.fail("conveyor.free_spins", "must be a table: [conveyor.free_spins]")
            self._unknown(fs, CONVEYOR_FREE_SPIN_KEYS, "conveyor.free_spins")
            fs_wheel = (self._bauble_wheel(fs["wheel"], "conveyor.free_spins.wheel")
                        if "wheel" in fs else wheel)
            free_spins = self._rule(
                "conveyor.free_spins", ConveyorFreeSpins, fs.get("reels", "base"),
                fs.get("start_baubles", 4), fs.get("max_spins_left", 100), fs_wheel,
                fs.get("empty_weight", 0))
            conveyor = self._rule("conveyor", Conveyor, wheel, spec.get("empty_weight", 0),
                                  _frozen_map(surprise), consume, reset, free_spins)
        return wilds, conveyor, target

    def _bauble_wheel(self, entries, key: str) -> tuple:
        """``[{ feature = ..., value = ..., weight = ... }, ...]`` -> ((Bauble, weight), ...)."""
        if not isinstance(entries, list) or not entries:
            self.fail(key, "must be a list of baubles like [{ feature = \"coin_win\", "
                           "value = 20, weight = 5 }, ...]")
        out = []
        for i, entry in enumerate(entries):
            where = f"{key}[{i}]"
            if not isinstance(entry, Mapping):
                self.fail(where, f"must be a table {{ feature, value, weight }}, got {entry!r}")
            self._unknown(entry, BAUBLE_KEYS, where)
            if "weight" not in entry:
                self.fail(f"{where}.weight", "missing: the bauble's weight on the wheel")
            bauble = self._rule(where, Bauble, entry.get("feature"), entry.get("value", 0))
            out.append((bauble, entry["weight"]))
        return tuple(out)

    def _bonus_wheel(self, spec, symbols, n_reels: int) -> BonusWheel:
        key = "bonus_wheel"
        if not isinstance(spec, Mapping):
            self.fail(key, "must be a table: [bonus_wheel] with symbol, prizes and weights")
        self._unknown(spec, BONUS_WHEEL_KEYS, key)
        symbol = spec.get("symbol")
        if not isinstance(symbol, str):
            self.fail(f"{key}.symbol", "missing or not a string: the bonus symbol that triggers "
                                       "on a line, e.g. symbol = \"BN\"")
        self._rule(f"{key}.symbol", rules.check_declared, symbol, symbols)
        if not symbols[symbol].bonus:
            self.fail(f"{key}.symbol", f"symbol {symbol!r} is not a bonus symbol: declare it "
                                       "with bonus = true (wilds never stand in for it)")
        count = self._int(spec.get("count", 3), f"{key}.count", 1)
        self._rule(key, rules.check_wheel_count, count, n_reels)
        per_spin = spec.get("per_spin", "once")
        prizes = spec.get("prizes")
        weights = spec.get("weights")
        if not isinstance(prizes, list) or not prizes:
            self.fail(f"{key}.prizes", "missing: a list of prizes, one per wheel division, in "
                                       "multiples of the total bet")
        prizes_f = tuple(self._pay(v, f"{key}.prizes[{i}]") for i, v in enumerate(prizes))
        weights_t = tuple(weights) if isinstance(weights, list) else ()
        labels = spec.get("labels", [])
        if not isinstance(labels, list) or (labels and len(labels) != len(prizes)) or not all(
                isinstance(x, str) for x in labels):
            self.fail(f"{key}.labels", f"must be a list of {len(prizes)} division names")
        multiplied = self._bool(spec.get("multiplied", False), f"{key}.multiplied")
        jackpots = spec.get("jackpots", [])
        if not isinstance(jackpots, list) or not all(isinstance(x, str) and x for x in jackpots):
            self.fail(f"{key}.jackpots", "must be a list of jackpot names, one per jackpot "
                                         f"division, like [\"MINOR\", \"MAJOR\"], got {jackpots!r}")
        wheel = self._rule(key, BonusWheel, symbol, count, per_spin, prizes_f, weights_t,
                           multiplied, tuple(labels), tuple(jackpots))
        self._rule(key, rules.check_wheel_jackpots, wheel)
        return wheel

    def _number(self, value: Any, key: str, what: str) -> Fraction:
        """A real number as written (floats through their decimal text, strings like '1/5')."""
        if isinstance(value, bool) or not isinstance(value, (int, float, str)):
            self.fail(key, f"must be {what}, got {value!r}")
        if isinstance(value, float) and not math.isfinite(value):
            self.fail(key, f"must be a finite number, got {value!r}")
        try:
            out = Fraction(value) if isinstance(value, int) else Fraction(str(value))
        except (ValueError, ZeroDivisionError):
            self.fail(key, f"must be {what}, got {value!r}")
        try:
            float(out)  # hit laws and level factors are used as floats
        except OverflowError:
            self.fail(key, f"is too large to compute with (above ~1.8e308), got {value!r}")
        return out

    def _max_win(self, spec, coin_value) -> MaxWin:
        key = "max_win"
        if not isinstance(spec, Mapping) or not spec:
            self.fail(key, "must be a table with bet_multiple and/or currency, like "
                           "{ bet_multiple = 10000, currency = 250000 }")
        self._unknown(spec, MAX_WIN_KEYS, key)
        amounts = {}
        for field in ("bet_multiple", "currency"):
            if field in spec:
                amounts[field] = self._number(spec[field], f"{key}.{field}", "a number > 0")
                self._rule(key, rules.check_positive, amounts[field], field, raw=spec[field])
        max_win = self._rule(key, MaxWin, amounts.get("bet_multiple"), amounts.get("currency"))
        self._rule(key, rules.check_max_win, max_win, coin_value, need_coin_value=True)
        return max_win

    def _jackpots(self, specs, wheel, coin_value, bet_levels) -> tuple[JackpotSpec, ...]:
        divisions = wheel.jackpots if wheel is not None else ()
        if specs is None:
            if divisions:
                self.fail("bonus_wheel.jackpots", f"names jackpots {list(divisions)} but the "
                                                  "file has no [[jackpots]] to define them")
            return ()
        if not isinstance(specs, list) or not all(isinstance(x, Mapping) for x in specs):
            self.fail("jackpots", "must be an array of tables: [[jackpots]] with name, seed, "
                                  "contribution, reserve, law and its parameters")
        if not specs:
            self.fail("jackpots", "is empty: give one [[jackpots]] table per jackpot, or leave "
                                  "the key out")
        if wheel is None:
            self.fail("jackpots", "jackpots are won on the bonus wheel: add a [bonus_wheel] "
                                  "with jackpots = [...] naming them")
        if coin_value is None:
            self.fail("jackpots", "jackpot seeds are in currency: give coin_value (currency per "
                                  "coin) at the top of the file")
        law_names = ", ".join(map(repr, hit_laws.LAWS))
        needed = {
            "name": "the name of its wheel division, e.g. name = \"MINOR\"",
            "seed": "the jackpot's restart value in currency, e.g. seed = 50",
            "contribution": "the fraction of each paid bet it takes, e.g. contribution = 0.024",
            "law": f"the law of its hit probability per wheel spin, one of {law_names}",
        }
        out = []
        for i, spec in enumerate(specs):
            key = f"jackpots[{i}]"
            self._unknown(spec, JACKPOT_KEYS, key)
            for k, meaning in needed.items():
                if k not in spec:
                    self.fail(f"{key}.{k}", f"missing: {meaning}")
            name = self._name(spec["name"], f"{key}.name", "the jackpot's name")
            if name in (j.name for j in out):
                self.fail(f"{key}.name", f"jackpot {name!r} is defined twice: give each "
                                         "jackpot one [[jackpots]] table")
            if name not in divisions:
                self.fail(f"{key}.name", f"jackpot {name!r} has no division on the wheel: add "
                                         f"it to bonus_wheel.jackpots {list(divisions)}")
            seed = self._number(spec["seed"], f"{key}.seed", "a currency amount >= 0")
            self._rule(key, rules.check_seed, seed, raw=spec["seed"])
            contribution = self._number(spec["contribution"], f"{key}.contribution",
                                        "a fraction of the bet like 0.024")
            self._rule(key, rules.check_share, contribution, "contribution",
                       raw=spec["contribution"])
            raw_reserve = spec.get("reserve", 0)
            reserve = self._number(raw_reserve, f"{key}.reserve",
                                   "a fraction of the contribution like 0.1")
            self._rule(key, rules.check_reserve, reserve, "reserve", raw=raw_reserve)
            law = self._rule(key, hit_laws.law, spec["law"])
            self._rule(key, law.check_names, [p for p in spec if p in hit_laws.PARAMETERS])
            params = {}
            for p in law.parameters:
                value = self._number(spec[p], f"{key}.{p}", law.describe(p))
                self._rule(key, law.check_value, p, value, raw=spec[p])
                params[p] = float(value)
            factors = spec.get("level_factors", [1] * len(bet_levels))
            if not isinstance(factors, list) or len(factors) != len(bet_levels):
                self.fail(f"{key}.level_factors", f"must list one factor per bet level "
                                                  f"{list(bet_levels)}, got {factors!r}")
            level_factors = {}
            for j, (level, f) in enumerate(zip(bet_levels, factors)):
                factor = self._number(f, f"{key}.level_factors[{j}]", "a number > 0")
                self._rule(key, rules.check_level_factor, factor, f"level_factors[{j}]", raw=f)
                level_factors[level] = float(factor)
            out.append(self._rule(key, JackpotSpec, name, seed, contribution, reserve, law.name,
                                  _frozen_map(params), _frozen_map(level_factors)))
        missing = [n for n in divisions if n not in {j.name for j in out}]
        if missing:
            self.fail("bonus_wheel.jackpots", f"no [[jackpots]] entry defines {missing}")
        self._rule("", rules.check_contributions, [j.contribution for j in out])
        return tuple(out)
