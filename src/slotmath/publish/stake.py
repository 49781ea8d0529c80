"""``slotmath export-stake``: a game as Stake Engine's RGS upload (math-sdk
``docs/rgs_docs/data_format.md``), with a report of what the export did to the RTP.

The directory holds, per mode (``base``, the standard game at cost 1, and each game mode of
``[modes.NAME]`` under its own name and cost):

* ``index.json``: ``{"modes": [{"name", "cost", "events", "weights"}]}``;
* ``lookUpTable_<mode>_0.csv``: ``id,weight,payoutMultiplier`` per row, no header, unsigned
  64-bit integers, ``payoutMultiplier`` in hundredths of the bet (a multiple of 10), ids
  from 0 in order of payout (:mod:`slotmath.publish.table`);
* ``books_<mode>.jsonl.zst``: zstandard-compressed JSON lines, one real round per row with
  the row's ``id`` and ``payoutMultiplier`` and its ``events`` (:mod:`slotmath.publish.books`);
* ``report.txt`` and ``report.json``: per mode, the exact RTP, the table's RTP and each step
  between them (the law's own error, rounding to 0.1x, rows without a book, integer weights
  and truncation), every figure exact where it is. These two files are not part of Stake's
  format: the upload needs only ``index.json`` and the files it names.

Stake's unit in a mode that costs ``cost`` bets: ``payoutMultiplier`` is the round's payout
in hundredths of the *base* bet (not of the amount wagered), and the mode's RTP is
``E[payout] / cost`` (the SDK's ``calculate_rtp(dist, bet_cost)``). The table of a mode is
therefore its round's win law in bets of the game's bet (what the analysis' mode
distribution holds), and every RTP figure of the report is per amount wagered: the table's
``E[payout] / cost`` against the mode's exact RTP (:attr:`slotmath.analysis.Analysis.modes`).

Stake takes stateless games only (its approval guidelines: no jackpots, no state carried
between rounds): a game with a feature that carries a state between rounds is refused in one
line, as is a feature with no player for the books yet.
"""

from __future__ import annotations

import importlib
import io
import json
import math
import os
import shutil
import tempfile
import time
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path

from slotmath.publish.table import (
    ROUNDINGS,
    LookupTable,
    exact_sum,
    lookup_table,
    payout_rows,
)

__all__ = ["STANDARD", "ModeExport", "StakeExport", "export_stake", "mode_names", "refusal"]

#: the name of the standard mode in an export (cost 1, the paid spin on the base reels)
STANDARD = "base"
#: zstandard level of the books
ZSTD_LEVEL = 10
#: the most probability rows without a book may carry (moved to a neighbour) by default:
#: the FFT's noise of a numerical law lands on amounts no round pays (1e-15 in the tests)
UNPLAYED_MAX = 1e-9


def refusal(game) -> str | None:
    """Why ``game`` cannot be exported (None: it can).

    >>> import slotmath
    >>> refusal(slotmath.load_game("data/games/gold_money_frog.toml"))
    'Stake Engine takes stateless games only: Gold Money Frog has progressive jackpots, a state carried between rounds'
    >>> refusal(slotmath.load_game("data/games/classic_fruits.toml")) is None
    True
    """
    from slotmath.features.registry import declared

    have = declared(game)
    carried = [f for f in have if f.stateful]
    if carried:
        names = " and ".join(f.title.lower() for f in carried)
        return (f"Stake Engine takes stateless games only: {game.name} has {names}, a state "
                "carried between rounds")
    for m in game.modes:
        if m.name == STANDARD:
            return (f"{game.name}: its game mode [modes.{STANDARD}] would take the name of "
                    f"the standard game's mode ({STANDARD!r}, cost 1) in the export: rename it")
        if Fraction(repr(float(m.cost))) != m.cost:
            return (f"{game.name}: the cost of mode {m.name} ({m.cost}) is not a decimal that "
                    "index.json's cost (a float) holds exactly")
    fs = game.free_spins
    if fs is not None and fs.state is None and (fs.award_laws is not None
                                                or fs.growth is not None):
        return (f"{game.name}: no player of real rounds for the books yet for free spins with "
                "random awards or a growing multiplier")
    from slotmath.publish.books import unsupported

    missing = [f for f in unsupported(have)]
    if missing:
        return (f"{game.name}: no player of real rounds for the books yet for "
                + ", ".join(f.title.lower() for f in missing))
    for f in have:  # a player may refuse what it cannot play (its module's ``refusal``)
        check = getattr(importlib.import_module(f.book.split(":")[0]), "refusal", None)
        why = None if check is None else check(game)
        if why is not None:
            return why
    return None


def mode_names(game) -> tuple[str, ...]:
    """The modes of ``game``'s export: the standard one, then each game mode.

    >>> import slotmath
    >>> mode_names(slotmath.load_game("tests/data/link_modes.toml"))
    ('base', 'buy_free', 'buy_cash', 'ante')
    """
    return (STANDARD, *(m.name for m in game.modes))


def mode_cost(game, name: str) -> Fraction:
    """What a round of mode ``name`` costs, in bets."""
    return Fraction(1) if name == STANDARD else Fraction(game.mode(name).cost)


@dataclass
class ModeExport:
    """One mode of an export: its analysis, law, table, books and report."""

    name: str
    cost: Fraction
    analysis: object
    law: object
    table: LookupTable
    books: object
    report: dict
    seconds: dict = field(default_factory=dict)


@dataclass
class StakeExport:
    """What :func:`export_stake` wrote and measured: each mode's part, the whole report
    (``report["modes"]``: one entry per mode), the seconds by stage and the files' sizes."""

    directory: Path
    modes: dict[str, ModeExport]
    report: dict
    seconds: dict = field(default_factory=dict)
    sizes: dict = field(default_factory=dict)


def _figure(value) -> dict:
    from slotmath.report.figures import figure

    return figure(value)


def _rounding_changes(law: dict[Fraction, Fraction]) -> dict[str, Fraction]:
    """What each rounding to tenths does to the law's mean (bets), exactly: an amount ``n / d``
    bets is ``10 n / d`` tenths, ``q`` whole ones and ``r / d`` over; it moves by
    ``(k d - 10 n) / (10 d)`` bets to the tenth ``k`` it goes to. ``keep-rtp`` shares an
    amount between its two tenths so that their mean is the amount (``round_amount``): its
    change is 0 by that identity (``a (a + 1 - x) + (a + 1) (x - a) = x``)."""
    moves: dict[str, list] = {"nearest": [], "down": []}
    for a, p in law.items():
        if not p:
            continue
        n, d = a.numerator, a.denominator
        q, r = divmod(10 * n, d)
        if not r:
            continue
        up = 2 * r > d or (2 * r == d and q % 2)  # round half to even, as round() does
        moves["nearest"].append((p, Fraction((q + up) * d - 10 * n, 10 * d)))
        moves["down"].append((p, Fraction(q * d - 10 * n, 10 * d)))
    out = {rounding: exact_sum(terms) for rounding, terms in moves.items()}
    out["keep-rtp"] = Fraction(0)
    return {rounding: out[rounding] for rounding in ROUNDINGS}


def _per(value, cost: Fraction):
    """An amount in bets per round as a share of the amount wagered (``cost`` bets)."""
    if isinstance(value, (int, Fraction)):
        return Fraction(value) / cost
    return float(value) / float(cost)


def _report(game, analysis, mode: str, cost: Fraction, law, probabilities,
            table: LookupTable, books, rounding: str) -> dict:
    """One mode's report; every RTP figure per amount wagered (the table's mean payout over
    ``cost``), the mean payout itself in bets."""
    exact_rtp = analysis.rtp
    top, top_p = table.max_payout
    total_change = _per(table.total_change, cost)
    # the table aimed at the mean payout, exact_rtp x cost: as a float, one more rounding
    slack = 0.0 if isinstance(exact_rtp, Fraction) or cost == 1 \
        else abs(float(exact_rtp)) * 2**-52
    kinds, on_payout = _book_counts(table, books)
    truncated_p = sum((p for _, p in table.truncated), Fraction(0))
    unplayed_p = sum((p for _, _, p in table.unplayed), Fraction(0))
    return {
        "mode": mode,
        "cost": float(cost),
        "cost_exact": str(cost),
        "rounding": rounding,
        "exact_rtp": _figure(exact_rtp),
        "exact_rtp_error": analysis.rtp_error,
        "law": {
            "method": law.method,
            "exact": law.is_exact,
            "credits_per_bet": law.credits_per_bet,
            "amounts": len(probabilities),
            "started_probability": _figure(law.started),
            "numerical_scale": law.scale,
            "numerical_error_bound": law.error_bound,
            "moved_bets": law.moved_bets,
            "rtp": _figure(_per(table.law_rtp, cost)),
        },
        "rtp_change": {
            "law": _figure(_per(table.law_change, cost)),
            "rounding": _figure(_per(table.rounding_change, cost)),
            "rows_without_a_book": _figure(_per(table.placement_change, cost)),
            "integer_weights": _figure(_per(table.weights_change, cost)),
            "total": _figure(total_change),
        },
        "rounding_changes": {r: _figure(_per(c, cost))
                             for r, c in _rounding_changes(probabilities).items()},
        "table": {
            "rows": len(table.rows),
            "total_weight": str(table.total),
            "total_weight_bits": table.total.bit_length(),
            "exact_weights": table.exact_weights,
            "exact_denominator_bits": table.denominator.bit_length(),
            "rtp": _figure(_per(table.rtp, cost)),
            "mean_payout": _figure(table.rtp),
            "hit_rate": _figure(table.hit_rate),
            "max_payout": top / 10,
            "max_payout_probability": _figure(top_p),
        },
        "truncated": {"rows": len(table.truncated), "probability": _figure(truncated_p),
                      "rtp": _figure(_per(table.truncated_rtp, cost))},
        "rows_without_a_book": {"rows": len(table.unplayed), "probability": _figure(unplayed_p),
                                "payouts": [k / 10 for k, _, _ in table.unplayed][:50]},
        "moved": {"units": table.moved,
                  "between": None if table.moved_between is None
                  else [k / 10 for k in table.moved_between],
                  "gap_left": _figure(_per(table.target_gap, cost))},
        "books": {"count": len(table.rows), "by_kind": kinds,
                  "paying_the_payout_exactly": on_payout,
                  "full_cycles_visited": books.visited_full_cycles,
                  "search": books.search},
        "rtp_error_bound": _upper(_upper(_upper(abs(float(total_change))) + analysis.rtp_error)
                                  + slack),
    }


def _upper(x: float) -> float:
    """The float just above ``x``: a bound written as a float stays a bound (``float`` of a
    fraction and a float sum both round to nearest, possibly down)."""
    return math.nextafter(x, math.inf) if x else x


def _pct(x) -> str:
    return f"{float(x):+.10%}"


def _change(fig: dict) -> str:
    """A change of the RTP: percent, and the exact fraction when it is one and short."""
    text = _pct(fig["float"])
    exact = fig.get("exact")
    if exact == "0":
        return text + " (exactly 0)"
    if exact and len(exact) <= 60:
        return f"{text} (exactly {exact})"
    return text + (" (exact fraction in report.json)" if exact else "")


def report_text(report: dict) -> str:
    """The report as plain lines (``report.txt``): each mode's, one after the other."""
    return "\n".join(_sampled_text(report, m) if "simulated" in m else _mode_text(report, m)
                     for m in report["modes"])


def _mode_text(doc: dict, r: dict) -> str:
    t, c, law = r["table"], r["rtp_change"], r["law"]
    exact = r["exact_rtp"]
    if exact["exact"] and len(exact["exact"]) < 80:
        exact_text = f" = {exact['exact']}"
    elif exact["exact"]:
        exact_text = " (an exact fraction, in report.json)"
    else:
        exact_text = f" (numerical, error <= {r['exact_rtp_error']:.1e})"
    table_text = f" = {t['rtp']['exact']}" if len(t["rtp"]["exact"]) < 80 else ""
    numerical = ""
    if not law["exact"]:
        numerical = (f"; numerical part scaled by {law['numerical_scale']:.15g} to the exact "
                     f"start probability {law['started_probability']['exact']}; its stated "
                     f"error <= {law['numerical_error_bound']:.1e} of probability")
    aimed = ", weight moved to aim at the exact RTP" if r["rounding"] == "keep-rtp" else ""
    unplaced = r["rows_without_a_book"]
    if t["exact_weights"]:
        weights = "exact: each row's probability times one common denominator"
    else:
        weights = (f"scaled: the exact weights need a denominator of "
                   f"{t['exact_denominator_bits']} bits")
    cost = "" if r["cost_exact"] == "1" else (
        f"; cost {r['cost_exact']} bets, RTP = mean payout {t['mean_payout']['float']:.6g}x / "
        "cost")
    lines = [
        (f"Stake Engine export: {doc['game']} (mode {r['mode']}, bet level {doc['bet_level']}, "
         f"rounding {r['rounding']}{cost})"),
        f"exact RTP: {exact['float']:.10%}{exact_text}",
        f"table RTP: {t['rtp']['float']:.10%}{table_text}",
        (f"table RTP - exact RTP: {_change(c['total'])}; |table RTP - true RTP| <= "
         f"{r['rtp_error_bound']:.3e}"),
        "  made of:",
        f"    the law's own error: {_change(c['law'])} ({law['method']}{numerical})",
        f"    rounding to 0.1x ({r['rounding']}): {_change(c['rounding'])}",
        (f"    rows without a book (probability moved to a neighbour): "
         f"{_change(c['rows_without_a_book'])} ({unplaced['rows']} rows, probability "
         f"{unplaced['probability']['float']:.3e})"),
        f"    integer weights (scaling, truncation{aimed}): {_change(c['integer_weights'])}",
        "what each rounding to 0.1x does to the RTP: " + "; ".join(
            f"{name} {_change(v)}" for name, v in r["rounding_changes"].items()),
        (f"weights: {t['rows']} rows, total {t['total_weight']} ({t['total_weight_bits']} "
         f"bits); {weights}"),
        (f"truncated: {r['truncated']['rows']} rows of weight 0 dropped, probability "
         f"{r['truncated']['probability']['float']:.3e}, RTP "
         f"{r['truncated']['rtp']['float']:.3e}"),
    ]
    if r["rounding"] == "keep-rtp":
        m = r["moved"]
        lines.append(f"aimed at the exact RTP: {m['units']} units of weight moved between "
                     f"payouts {m['between']}; left: {m['gap_left']['float']:.3e}")
    kinds = ", ".join(f"{k} {v}" for k, v in r["books"]["by_kind"].items())
    lines += [
        (f"hit rate {t['hit_rate']['float']:.6%}; max payout {t['max_payout']:g}x, "
         f"probability {t['max_payout_probability']['float']:.3e}"),
        (f"books: {r['books']['count']} ({kinds}); {r['books']['paying_the_payout_exactly']} "
         "pay their row's payout exactly, the others within the rounding"),
    ]
    s = r["books"].get("search")
    if s is not None:
        lines.append(
            f"books found by a {s['method']}: {s['rounds']:,} rounds of a budget of "
            f"{s['budget']:,} (seed {s['seed']}; arrangements drawn by "
            f"{' then by '.join(s['draw_laws'])}), {s['distinct_wins']:,} distinct wins, "
            f"{s['search_seconds']:.1f} s; played again {s['replay_seconds']:.1f} s; rows no "
            f"round reached: {unplaced['rows']:,}, probability "
            f"{unplaced['probability']['float']:.3e} (allowed {s['unplayed_max']:g})")
    return "\n".join(lines) + "\n"


def _books_bytes(table: LookupTable, books) -> bytes:
    import zstandard

    raw = io.BytesIO()
    for i, (k, _) in enumerate(table.rows):
        b = books.books[k]
        line = {"id": i, "payoutMultiplier": 10 * k, "events": b.events}
        raw.write(json.dumps(line, separators=(",", ":")).encode())
        raw.write(b"\n")
    return zstandard.ZstdCompressor(level=ZSTD_LEVEL).compress(raw.getvalue())


def _table_bytes(table: LookupTable) -> bytes:
    return "".join(f"{i},{w},{10 * k}\n" for i, (k, w) in enumerate(table.rows)).encode()


def export_stake(game, directory, *, modes=None, rounding: str = "nearest",
                 level: int | None = None, force: bool = False, progress=None,
                 unplayed_max: float = UNPLAYED_MAX, rounds: int | None = None,
                 seed: int | None = None, search=None) -> StakeExport:
    """Write ``game`` as a Stake Engine upload into ``directory`` (see the module notes).

    Parameters
    ----------
    game : Game
    directory : path
        Created; an existing non-empty one is refused unless ``force`` (then replaced).
    modes : sequence of str, optional
        The modes to export: ``"base"`` (the standard game) and game modes by name (default:
        every one, :func:`mode_names`).
    rounding : str
        ``"nearest"``, ``"down"`` or ``"keep-rtp"`` (:mod:`slotmath.publish.table`).
    level : int, optional
        The bet level whose pays the table holds (default: the game's first).
    progress : callable, optional
        ``progress(stage, done, total)`` while the full cycles are visited.
    unplayed_max : float
        The most probability the rows without a real round (no book) may carry in a mode; it
        goes to the nearest row with one, and the report states what that does to the RTP.
        Above it the export is refused (ValueError), nothing written.
    rounds, seed : int, optional
        For a game whose analysis is a seeded simulation (``[analysis]``): simulate this
        many rounds from this seed instead of the file's (the table is their counts, see
        :mod:`slotmath.publish.grid`).
    search : RoundSearch, optional
        A cascading game whose full cycle is above ``search.cycle_max`` has its books from a
        seeded search over whole rounds with this budget and seed
        (:mod:`slotmath.publish.cascade_rounds`; default :class:`~slotmath.publish.
        cascade_rounds.RoundSearch`); its rows without a round may carry up to
        ``search.unplayed_max`` (in place of ``unplayed_max``).

    Returns
    -------
    StakeExport
    """
    import slotmath

    every = mode_names(game)
    modes = every if modes is None else tuple(dict.fromkeys(modes))
    unknown = [m for m in modes if m not in every]
    if unknown:
        raise ValueError(f"mode {unknown[0]!r}: {game.name} has the modes {', '.join(every)}")
    if rounding not in ROUNDINGS:
        raise ValueError(f"rounding must be one of {', '.join(ROUNDINGS)}, got {rounding!r}")
    why = refusal(game)
    if why is not None:
        raise ValueError(why)
    if rounds is not None or seed is not None:
        game = _resimulated(game, rounds, seed)
    directory = Path(directory)
    if directory.exists() and (not directory.is_dir() or any(directory.iterdir())) and not force:
        raise ValueError(f"{directory} exists and is not empty (force=True, or --force on the "
                         "command line, replaces it)")
    level = game.bet_levels[0] if level is None else level
    game.check_level(level)
    clock = time.perf_counter
    start = clock()
    analysis = slotmath.analyze(game, level)
    parts = {}
    for name in modes:
        a = analysis if name == STANDARD else analysis.modes[name]
        parts[name] = _export_mode(game, a, name, rounding, unplayed_max, progress, search)
    t = clock()
    doc = {"game": game.name, "source": game.source, "bet_level": level, "rounding": rounding,
           "modes": [p.report for p in parts.values()]}
    index = {"modes": [{"name": name, "cost": float(p.cost),
                        "events": f"books_{name}.jsonl.zst",
                        "weights": f"lookUpTable_{name}_0.csv"} for name, p in parts.items()]}
    files = {"index.json": json.dumps(index, indent=2).encode() + b"\n"}
    for name, p in parts.items():
        files[f"lookUpTable_{name}_0.csv"] = _table_bytes(p.table)
        files[f"books_{name}.jsonl.zst"] = _books_bytes(p.table, p.books)
    files["report.json"] = json.dumps(doc, indent=2).encode() + b"\n"
    files["report.txt"] = report_text(doc).encode()
    _write_directory(directory, files)
    seconds = {stage: sum(p.seconds[stage] for p in parts.values())
               for stage in ("analysis", "table", "books")}
    seconds["write"] = clock() - t
    seconds["total"] = clock() - start
    doc["seconds"] = seconds
    sizes = {name: len(data) for name, data in files.items()}
    return StakeExport(directory, parts, doc, seconds, sizes)


def _resimulated(game, rounds: int | None, seed: int | None):
    """``game`` with its simulated analysis' rounds and seed set."""
    import dataclasses

    settings = getattr(game, "analysis", None)
    if settings is None:
        raise ValueError(f"{game.name}: rounds and seed set a seeded simulation's; this game "
                         "has no [analysis] settings (its law is not simulated)")
    if rounds is not None and rounds < 1 or seed is not None and seed < 0:
        raise ValueError(f"{game.name}: rounds must be >= 1 and seed >= 0")
    changes = {k: v for k, v in (("rounds", rounds), ("seed", seed)) if v is not None}
    return dataclasses.replace(game, analysis=dataclasses.replace(settings, **changes))


def _whole_rounds(analysis, search, progress):
    """The player that finds whole rounds for the books by a search (a declaration's book
    module's ``whole_rounds``: :mod:`slotmath.publish.cascade_rounds`), or None."""
    for f in analysis.declared:
        if getattr(f, "book", None) is None:
            continue
        module = importlib.import_module(f.book.split(":")[0])
        make = getattr(module, "whole_rounds", None)
        made = None if make is None else make(analysis, search, progress)
        if made is not None:
            return made
    return None


def _export_mode(game, analysis, name: str, rounding: str, unplayed_max: float,
                 progress, search=None) -> ModeExport:
    """The table, books and report of one mode (``analysis``: the mode's)."""
    from slotmath.publish.books import build_books, players
    from slotmath.publish.law import export_law

    clock = time.perf_counter
    seconds: dict[str, float] = {}
    cost = mode_cost(game, name)
    t = clock()
    sampled = _sampled(analysis, progress)  # (reads the RTP: a simulation runs here)
    if sampled is not None:
        return _export_sampled(game, analysis, name, cost, rounding, sampled, clock() - t)
    t = clock()
    law = export_law(analysis)
    rtp = analysis.rtp
    # the table holds payouts in bets of the game's bet: it aims at the mean payout
    mean = rtp * cost if isinstance(rtp, Fraction) else float(rtp) * float(cost)
    seconds["analysis"] = clock() - t
    t = clock()
    probabilities = law.probabilities()

    def report(done, total):
        if progress is not None:
            progress(f"books {name}", done, total)
    searched = _whole_rounds(analysis, search, report)
    if searched is None:
        first = lookup_table(probabilities, rounding, exact_rtp=mean)
        rows = [k for k, _ in first.rows]
    else:  # the table is made once, from the rows the search reaches
        first = None
        rows = payout_rows(probabilities, rounding)
    seconds["table"] = clock() - t
    t = clock()
    if searched is not None:  # rounds found by a seeded search: rows it missed are expected
        books = searched.books(rows, rounding)
        unplayed_max = searched.search.unplayed_max
    else:
        paid, rounds = players(analysis, report)
        books = build_books(analysis, law, rows, rounding, paid, rounds)
    table = first
    if books.missing or first is None:
        table = lookup_table(probabilities, rounding, exact_rtp=mean, allowed=set(books.books))
        moved = sum((p for _, _, p in table.unplayed), Fraction(0))
        if moved > Fraction(unplayed_max):
            top = max(k for k, _, _ in table.unplayed)
            raise ValueError(
                f"{game.name}: no real round of mode {name} was found for "
                f"{len(table.unplayed)} payouts (up to {top / 10:g}x) with probability "
                f"{float(moved):.3g} in all; moving it to other payouts would change the RTP "
                f"by {float(table.placement_change / cost):+.3g} (allowed: probability "
                f"{unplayed_max:g}): no export")
    seconds["books"] = clock() - t
    doc = _report(game, analysis, name, cost, law, probabilities, table, books, rounding)
    return ModeExport(name, cost, analysis, law, table, books, doc, seconds)


def _sampled(analysis, progress):
    """The export of a round whose law is a seeded simulation's (its owner feature's ``book``
    hook gives one with ``simulated`` set: :mod:`slotmath.publish.grid`), or None."""
    from slotmath.features.base import Kind, hook
    from slotmath.stats.estimate import Estimate

    if not isinstance(analysis.rtp, Estimate):
        return None
    for f in analysis.declared:  # the feature that plays the whole round
        if f.kind is not Kind.OWNER or getattr(f, "book", None) is None:
            continue
        made = hook(f, "book")(analysis, None, progress)
        if getattr(made, "simulated", False):
            return made
    raise ValueError(f"{analysis.game.name}: its RTP is simulated and no player exports a "
                     "simulated law")


def _export_sampled(game, analysis, name: str, cost: Fraction, rounding: str,
                    sampled, analysis_seconds: float) -> ModeExport:
    """A mode whose law is the seeded simulation's counts (see :mod:`slotmath.publish.grid`):
    the table from the counts (exact weights: they add up to the rounds), a book per row
    played again from the simulation, the report against the simulated estimate."""
    clock = time.perf_counter
    seconds: dict[str, float] = {"analysis": analysis_seconds}
    t = clock()
    law = sampled.law()
    probabilities = law.probabilities()
    mean = law.mean
    table = lookup_table(probabilities, rounding, exact_rtp=mean)
    seconds["table"] = clock() - t
    t = clock()
    books = sampled.books([k for k, _ in table.rows], rounding)
    if books.missing:  # every row holds simulated rounds, each one a book: never expected
        raise AssertionError(f"{game.name}: no book for the rows {books.missing[:5]}")
    seconds["books"] = clock() - t
    doc = _sampled_report(analysis, name, cost, law, table, books, rounding)
    return ModeExport(name, cost, analysis, law, table, books, doc, seconds)


#: the normal quantile of the 95 % intervals the sampled report states
Z95 = 1.959963984540054


def _book_counts(table: LookupTable, books) -> tuple[dict[str, int], int]:
    """The table's books by kind, and how many pay exactly their row's payout."""
    kinds: dict[str, int] = {}
    on_payout = 0
    for k, _ in table.rows:
        b = books.books[k]
        kinds[b.kind] = kinds.get(b.kind, 0) + 1
        on_payout += b.win * 10 == k
    return kinds, on_payout


def _sampled_report(analysis, mode: str, cost: Fraction, law, table: LookupTable, books,
                    rounding: str) -> dict:
    """The report of a mode whose law is a seeded simulation's: the estimate (the counts'
    mean, exactly), its standard error, and what the table did to it, exactly."""
    estimate = law.estimate
    se = float(estimate.std_error) / float(cost)
    change = _per(table.total_change, cost)
    top, top_p = table.max_payout
    kinds, on_payout = _book_counts(table, books)
    return {
        "mode": mode,
        "cost": float(cost),
        "cost_exact": str(cost),
        "rounding": rounding,
        "simulated": {
            "method": ("seeded simulation (the analysis' rounds, counted per payout; "
                       "as Stake's math-sdk weighs simulated books)"),
            "rounds": law.rounds,
            "seed": law.seed,
            "rounds_per_block": law.block,
            "credits_per_bet": law.credits_per_bet,
            "distinct_wins": len(law.counts),
            "rtp_estimate": _figure(_per(law.mean, cost)),
            "analysis_rtp": float(estimate) / float(cost),
            "std_error": se,
            "interval_95": [float(law.mean / cost) - Z95 * se, float(law.mean / cost) + Z95 * se],
            "replay_seconds": law.seconds,
        },
        "rtp_change": {
            "rounding": _figure(_per(table.rounding_change, cost)),
            "rows_without_a_book": _figure(_per(table.placement_change, cost)),
            "integer_weights": _figure(_per(table.weights_change, cost)),
            "total": _figure(change),
        },
        "rounding_changes": {r: _figure(_per(c, cost))
                             for r, c in _rounding_changes(law.probabilities()).items()},
        "table": {
            "rows": len(table.rows),
            "total_weight": str(table.total),
            "total_weight_bits": table.total.bit_length(),
            "exact_weights": table.exact_weights,
            "rtp": _figure(_per(table.rtp, cost)),
            "mean_payout": _figure(table.rtp),
            "hit_rate": _figure(table.hit_rate),
            "max_payout": top / 10,
            "max_payout_probability": _figure(top_p),
        },
        "books": {"count": len(table.rows), "by_kind": kinds,
                  "paying_the_payout_exactly": on_payout, "full_cycles_visited": False},
        # the table against the simulation's estimate: the change it made, exactly (the
        # true RTP is a further 1.96 standard errors either side, 95 %: "interval_95")
        "rtp_error_bound": _upper(abs(float(change))),
    }


def _sampled_text(doc: dict, r: dict) -> str:
    s, t, c = r["simulated"], r["table"], r["rtp_change"]
    kinds = ", ".join(f"{k} {v}" for k, v in r["books"]["by_kind"].items())
    lo, hi = s["interval_95"]
    lines = [
        (f"Stake Engine export: {doc['game']} (mode {r['mode']}, bet level {doc['bet_level']}, "
         f"rounding {r['rounding']})"),
        (f"law: {s['rounds']:,} simulated rounds, seed {s['seed']} (blocks of "
         f"{s['rounds_per_block']:,}), {s['distinct_wins']:,} distinct wins; the weights are "
         "their counts per payout, as Stake's math-sdk weighs simulated books"),
        (f"simulated RTP (the analysis' estimate): {s['rtp_estimate']['float']:.10%}, "
         f"standard error {s['std_error']:.3e}; 95 %: {lo:.4%} to {hi:.4%}"),
        f"table RTP: {t['rtp']['float']:.10%}",
        (f"table RTP - simulated RTP: {_change(c['total'])}; |table RTP - true RTP| within "
         f"{r['rtp_error_bound']:.3e} + 1.96 x {s['std_error']:.3e} (95 %)"),
        "  made of:",
        f"    rounding to 0.1x ({r['rounding']}): {_change(c['rounding'])}",
        f"    rows without a book: {_change(c['rows_without_a_book'])}",
        f"    integer weights: {_change(c['integer_weights'])}",
        "what each rounding to 0.1x does to the RTP: " + "; ".join(
            f"{name} {_change(v)}" for name, v in r["rounding_changes"].items()),
        (f"weights: {t['rows']} rows, total {t['total_weight']} (the rounds simulated; "
         f"{t['total_weight_bits']} bits), exact counts"),
        (f"hit rate {t['hit_rate']['float']:.6%}; max payout {t['max_payout']:g}x, "
         f"probability {t['max_payout_probability']['float']:.3e} (seen "
         f"{round(t['max_payout_probability']['float'] * s['rounds'])} time(s))"),
        (f"books: {r['books']['count']} ({kinds}), each a simulated round played again; "
         f"{r['books']['paying_the_payout_exactly']} pay their row's payout exactly, the "
         "others within the rounding"),
    ]
    return "\n".join(lines) + "\n"


def _write_directory(directory: Path, files: dict[str, bytes]) -> None:
    """Write ``files`` into a fresh folder beside ``directory``, then put it in its place (a
    failure leaves nothing half-written)."""
    parent = directory.parent if str(directory.parent) else Path(".")
    if not parent.is_dir():
        raise ValueError(f"cannot write {directory}: folder {parent} does not exist")
    tmp = Path(tempfile.mkdtemp(prefix=f".{directory.name}.", suffix=".part", dir=parent))
    try:
        for name, data in files.items():
            (tmp / name).write_bytes(data)
        os.chmod(tmp, 0o777 & ~_umask())
        if directory.exists():
            old = Path(tempfile.mkdtemp(prefix=f".{directory.name}.", suffix=".old", dir=parent))
            os.replace(directory, old / "old")
            os.replace(tmp, directory)
            shutil.rmtree(old)
        else:
            os.replace(tmp, directory)
    finally:
        if tmp.exists():
            shutil.rmtree(tmp)


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask
