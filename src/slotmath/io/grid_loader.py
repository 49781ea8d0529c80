"""Reading a grid game's keys (docs/game-format.md, "Grid games"): ``rows`` as a law of heights,
``pays = "anywhere"`` / ``"cluster"``, ``[cluster]``, ``[top_reel]``, ``[tumbles]``,
``[multipliers]`` and ``[analysis]``; one clear error per bad key.

Called by :class:`slotmath.io.toml_loader._Builder` with itself, so every failure carries the
file and key path; the rules on the values are the model's (:mod:`slotmath.model.rules`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from slotmath.model.game import Reel, _frozen_map
from slotmath.model.grid import (
    AnalysisSettings,
    Grid,
    HeightLaw,
    MultiplierSymbols,
    TopReel,
    Tumbles,
)

__all__ = ["GRID_KEYS", "GridReader", "is_grid"]

#: the top-level keys of grid games
GRID_KEYS = {"pays", "cluster", "top_reel", "tumbles", "multipliers", "analysis"}
CLUSTER_KEYS = {"min_size", "adjacency"}
TOP_REEL_KEYS = {"reels", "strips"}
TUMBLE_KEYS = {"refill", "refill_weights", "multiplier", "free_multiplier", "carry_multiplier",
               "max_drops"}
MULTIPLIER_KEYS = {"symbol", "values", "free_values", "combine", "carry"}
ANALYSIS_KEYS = {"method", "exact_limit", "accuracy", "rounds", "seed"}
HEIGHT_KEYS = {"min", "max", "heights"}
PAYS = ("ways", "anywhere", "cluster")


def _is_law(value: Any) -> bool:
    return isinstance(value, Mapping)


def is_grid(data: Mapping) -> bool:
    """Whether a game file describes a grid game: a ``pays`` kind, rows as a law of heights,
    a top reel, tumbles or multiplier symbols."""
    rows = data.get("rows")
    law = _is_law(rows) or (isinstance(rows, list) and any(_is_law(r) for r in rows))
    return law or any(k in data for k in ("pays", "cluster", "top_reel", "tumbles",
                                          "multipliers"))


@dataclass
class GridReader:
    """The grid parts of one game file, read in two steps: :meth:`read` before the symbols
    (the kind of pays, the rows and the window: they set what a pay count may be), and
    :meth:`finish` after the reels (what names symbols and reel sets)."""

    b: Any  # the loader's builder
    data: Mapping
    n_reels: int

    def read(self) -> None:
        b, d = self.b, self.data
        for key in ("paylines",):
            if key in d:
                b.fail(key, "a grid game pays its whole window: remove paylines")
        kind = d.get("pays", "ways")
        if kind not in PAYS:
            b.fail("pays", f"must be \"anywhere\" (a symbol's count anywhere pays), \"cluster\" "
                           f"(clusters of adjacent cells) or \"ways\", got {kind!r}")
        ways = b._bool(d["ways"], "ways") if "ways" in d else False
        if kind != "ways" and ways:
            b.fail("ways", f"ways = true and pays = {kind!r} do not go together: keep one")
        if kind == "ways" and not ways:
            b.fail("ways", "missing: a grid that pays left-to-right ways (Megaways) needs "
                           "ways = true; or give pays = \"anywhere\" or \"cluster\"")
        self.kind = kind
        if "rows" not in d:
            b.fail("rows", "missing: rows per reel (a number, a law of heights like "
                           "{ min = 2, max = 7 }, or a list with one per reel)")
        self.heights = self._heights(d["rows"])
        self.rows = tuple(h.max for h in self.heights)
        self.top: tuple[int, int] | None = None
        if "top_reel" in d:
            spec = d["top_reel"]
            if not isinstance(spec, Mapping):
                b.fail("top_reel", "must be a table: [top_reel] with reels = [2, 5] and strips")
            b._unknown(spec, TOP_REEL_KEYS, "top_reel")
            reels = spec.get("reels")
            if (not isinstance(reels, list) or len(reels) != 2):
                b.fail("top_reel.reels", f"must be [first, last], the reels it covers (1-based), "
                                         f"like [2, 5], got {reels!r}")
            first = b._int(reels[0], "top_reel.reels[0]", 1)
            last = b._int(reels[1], "top_reel.reels[1]", first)
            if last > self.n_reels:
                b.fail("top_reel.reels[1]", f"reel {last} is past the game's {self.n_reels} reels")
            self.top = (first, last)
        self.window = sum(self.rows) + (self.top[1] - self.top[0] + 1 if self.top else 0)

    @property
    def pay_limit(self) -> tuple[int, str]:
        """What a symbol's pay count may be: reels (ways) or cells of the window."""
        if self.kind == "ways":
            return self.n_reels, "reels"
        return self.window, "cells in the window"

    def _law(self, value: Any, key: str) -> HeightLaw:
        b = self.b
        if isinstance(value, int) and not isinstance(value, bool):
            b._int(value, key, 1)
            return b._rule(key, HeightLaw.fixed, value)
        if not isinstance(value, Mapping):
            b.fail(key, f"must be a number of rows, {{ min = 2, max = 7 }} or {{ heights = "
                        f"{{ 2 = 1, 3 = 2 }} }}, got {value!r}")
        b._unknown(value, HEIGHT_KEYS, key)
        if "heights" in value:
            if set(value) != {"heights"}:
                b.fail(key, "give either heights = { ... } or min and max, not both")
            table = value["heights"]
            if not isinstance(table, Mapping) or not table:
                b.fail(f"{key}.heights", f"must be a table of height = weight like "
                                         f"{{ 2 = 1, 7 = 3 }}, got {table!r}")
            weights = {}
            for raw, w in table.items():
                sub = f"{key}.heights.{raw}"
                h = b._count(raw, sub)
                weights[h] = b._int(w, sub, 0)
            return b._rule(f"{key}.heights", HeightLaw, weights)
        if "min" not in value or "max" not in value:
            b.fail(key, "a law of heights needs both min and max (every height between equally "
                        "likely), or heights = { height = weight }")
        low = b._int(value["min"], f"{key}.min", 1)
        high = b._int(value["max"], f"{key}.max", low)
        return b._rule(key, HeightLaw, {h: 1 for h in range(low, high + 1)})

    def _heights(self, value: Any) -> tuple[HeightLaw, ...]:
        b = self.b
        if isinstance(value, list):
            if len(value) != self.n_reels:
                b.fail("rows", f"lists {len(value)} reels but the base reel set has "
                               f"{self.n_reels}: give one entry per reel, or a single one")
            return tuple(self._law(v, f"rows[{i}]") for i, v in enumerate(value))
        return (self._law(value, "rows"),) * self.n_reels

    # -- after the symbols and reels ------------------------------------------------------
    def finish(self, symbols: Mapping, reel_sets: Mapping) -> dict:
        """The Game's grid fields: ``grid``, ``tumbles``, ``multipliers``, ``analysis``."""
        b, d = self.b, self.data
        top = None
        if self.top is not None:
            spec = d["top_reel"]
            strips = spec.get("strips")
            if not isinstance(strips, Mapping) or not strips:
                b.fail("top_reel.strips", "must be a table of reel set = strip, like "
                                          "strips = { base = [\"A\", \"B\", ...] }")
            read = {}
            for set_name, strip in strips.items():
                key = f"top_reel.strips.{set_name}"
                read[set_name] = self._strip(strip, key, symbols)
            top = b._rule("top_reel", TopReel, self.top[0], self.top[1], read)
        size, adjacency = 5, "orthogonal"
        if "cluster" in d:
            spec = b._table(d["cluster"], "cluster", CLUSTER_KEYS,
                            '[cluster] with min_size = 5 and adjacency = "orthogonal"')
            if self.kind != "cluster":
                b.fail("cluster", "is for pays = \"cluster\"")
            size = b._int(spec.get("min_size", 5), "cluster.min_size", 2)
            adjacency = spec.get("adjacency", "orthogonal")
        grid = b._rule("", Grid, self.kind, self.heights, top, size, adjacency)
        return {"grid": grid, "tumbles": self._tumbles(), "multipliers": self._multipliers(),
                "analysis": read_analysis(b, d)}

    def _strip(self, strip: Any, key: str, symbols) -> Reel:
        b = self.b
        weights = None
        if isinstance(strip, Mapping):
            b._unknown(strip, {"strip", "weights"}, key)
            strip, weights = strip.get("strip"), strip.get("weights")
            key = f"{key}.strip"
        if not isinstance(strip, list) or not strip or not all(isinstance(s, str) for s in strip):
            b.fail(key, f"must be a list of symbol names, got {strip!r}")
        for i, s in enumerate(strip):
            if s not in symbols:
                b.fail(f"{key}[{i}]", f"symbol {s!r} is not declared in [symbols]")
        if weights is not None:
            if not isinstance(weights, list):
                b.fail(key, f"weights must be a list, got {weights!r}")
            weights = tuple(weights)
        return b._rule(key, Reel, tuple(strip), weights)

    def _tumbles(self) -> Tumbles | None:
        b, d = self.b, self.data
        if "tumbles" not in d:
            return None
        key = "tumbles"
        spec = b._table(d[key], key, TUMBLE_KEYS, '[tumbles] with refill = "strip" or "random"')
        refill = spec.get("refill", "strip")
        multiplier = b._multiplier_rule(spec.get("multiplier", {}), f"{key}.multiplier")
        free = None
        if "free_multiplier" in spec:
            free = b._multiplier_rule(spec["free_multiplier"], f"{key}.free_multiplier")
        carry = b._bool(spec.get("carry_multiplier", False), f"{key}.carry_multiplier")
        max_drops = b._int(spec.get("max_drops", 200), f"{key}.max_drops", 1)
        weights = {}
        raw = spec.get("refill_weights", {})
        if not isinstance(raw, Mapping):
            b.fail(f"{key}.refill_weights", "must be a table: reel set = [{symbol = weight}, "
                                            "...] with one table per reel")
        for set_name, tables in raw.items():
            where = f"{key}.refill_weights.{set_name}"
            if not isinstance(tables, list) or not all(isinstance(t, Mapping) for t in tables):
                b.fail(where, "must be a list with one { symbol = weight } table per reel")
            weights[set_name] = tuple(_frozen_map(t) for t in tables)
        return b._rule(key, Tumbles, refill, _frozen_map(weights), multiplier, free, carry,
                       max_drops)

    def _values(self, table: Any, key: str) -> dict[int, int]:
        b = self.b
        if not isinstance(table, Mapping) or not table:
            b.fail(key, f"must be a table of value = weight like {{ 2 = 10, 5 = 3 }}, "
                        f"got {table!r}")
        out = {}
        for raw, w in table.items():
            sub = f"{key}.{raw}"
            out[b._count(raw, sub)] = b._int(w, sub, 0)
        return out

    def _multipliers(self) -> MultiplierSymbols | None:
        b, d = self.b, self.data
        if "multipliers" not in d:
            return None
        key = "multipliers"
        spec = b._table(d[key], key, MULTIPLIER_KEYS,
                        '[multipliers] with symbol = "M" and values = { 2 = 10, 5 = 3 }')
        for need, example in (("symbol", 'symbol = "M"'), ("values", "values = { 2 = 10 }")):
            if need not in spec:
                b.fail(f"{key}.{need}", f"missing: e.g. {example}")
        symbol = b._name(spec["symbol"], f"{key}.symbol", "a symbol name")
        values = self._values(spec["values"], f"{key}.values")
        free = (self._values(spec["free_values"], f"{key}.free_values")
                if "free_values" in spec else None)
        carry = b._bool(spec.get("carry", False), f"{key}.carry")
        return b._rule(key, MultiplierSymbols, symbol, values, free, spec.get("combine", "add"),
                       carry)


def read_analysis(b, d: Mapping) -> AnalysisSettings | None:
    """``[analysis]``: how the game is analysed (its rules: the model's)."""
    if "analysis" not in d:
        return None
    key = "analysis"
    spec = b._table(d[key], key, ANALYSIS_KEYS, '[analysis] with method = "auto", exact_limit, '
                                                "accuracy, rounds and seed")
    default = AnalysisSettings()
    accuracy = (b._number(spec["accuracy"], f"{key}.accuracy", "a number > 0 like 0.001")
                if "accuracy" in spec else default.accuracy)
    limit = spec.get("exact_limit", default.exact_limit)
    if isinstance(limit, float) and limit.is_integer():
        limit = int(limit)  # 1e9 as written
    rounds = spec.get("rounds")
    if isinstance(rounds, float) and rounds.is_integer():
        rounds = int(rounds)
    return b._rule(key, AnalysisSettings, spec.get("method", default.method), limit,
                   Fraction(accuracy), rounds, spec.get("seed", default.seed))
