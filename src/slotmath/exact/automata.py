"""Per-line and per-way pay automata: the rules of evaluate/window.py, read one reel at a time.

A *unit* is one payline (lines games) or one pay-table entry (ways games). Reading the
reels left to right, each unit is a small automaton whose status after ``j`` reels carries
everything that can still change its pay. Statuses are interned per layer into integer ids
so that the enumerators can move whole arrays of them at once:

* ``next_status[j][status, input]`` -> status id after reel ``j`` (0 is DEAD: the unit's pay
  is settled),
* ``emit[j][status, input]`` -> credits paid when the unit settles on that step,
* ``final[status]`` -> credits of a unit still open after the last reel.

For lines the input is the symbol id on the line's row; for ways it is the unit's count on
the reel (positions showing a member, a multiplier symbol counting its multiplier).

A line settles early when nothing it could still become beats what it has already won, which
keeps the number of open statuses (and so the enumerators' states) small.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from slotmath.evaluate.window import PayModel

DEAD = 0


@dataclass(frozen=True)
class Automaton:
    """Layered transition tables, one layer per reel (see module docstring)."""

    next_status: tuple[np.ndarray, ...]
    emit: tuple[np.ndarray, ...]
    final: np.ndarray
    start: tuple[int, ...]  # start status of each unit (layer 0)
    payloads: tuple[tuple, ...]  # per layer: the payload of each status id
    # With attribution: per layer {(status, input): best} for settling steps, and per final
    # status its best, where best = (credits, -key_index, key, count).
    emit_info: tuple[dict, ...] = ()
    final_info: tuple = ()
    # With a line trigger: per layer, 1 where the step completes the trigger run on the line.
    emit_trigger: tuple[np.ndarray, ...] = ()


def _intern(table: dict, payloads: list, payload) -> int:
    sid = table.get(payload)
    if sid is None:
        sid = len(payloads)
        table[payload] = sid
        payloads.append(payload)
    return sid


def line_automaton(model: PayModel, symbol_ids: dict[str, int], attribution: bool = False,
                   line_trigger: tuple[str, int] | None = None) -> Automaton:
    """The automaton of one payline (all lines share it).

    Payload of an open status: ``(pay, run)``. ``pay`` is ``(alive_keys, mult, best)`` while
    the line's pay is open, where ``alive_keys`` is the set of pay-table entries matched on
    every reel so far, ``mult`` the product of their multiplier symbols, ``best`` the best
    settled candidate: ``credits`` or, with ``attribution``, ``(credits, -key_index, key,
    count)`` (ties go to the first entry, as in ``PayModel.line_win``); ``pay`` is None once
    the pay is settled (its credits were emitted on that step). ``run`` follows an optional
    ``line_trigger = (symbol, count)``: the number of ``symbol`` in succession from reel 1 so
    far, -1 once the run is broken or complete; the step that completes ``count`` emits 1 in
    ``emit_trigger``. A line is DEAD when both are settled.
    """
    n = model.game.n_reels
    keys = model.keys
    key_index = {k: i for i, k in enumerate(keys)}
    names = sorted(symbol_ids, key=symbol_ids.get)
    mults = [model.multiplier[s] for s in names]
    max_mult = max(mults) if mults else 1
    # How a run's multipliers combine (Game.line_multipliers): the payload's ``mult`` is
    # their product, or with "add" the sum of those above 1 (0: none, which pays x1).
    added = getattr(model.game, "line_multipliers", "multiply") == "add"

    def combine(mult, m):
        return (mult + m if m > 1 else mult) if added else mult * m

    def effective(mult):
        return max(mult, 1) if added else mult

    def most(mult, more):
        """The largest effective multiplier after ``more`` further symbols of the run."""
        if added:
            return max(mult + more * (max_mult if max_mult > 1 else 0), 1)
        return mult * max_mult**more
    credits = model.key_credits
    trigger_symbol, trigger_count = line_trigger if line_trigger else (None, 0)

    def zero_best():
        return (0, 1, None, 0) if attribution else 0  # loses to every paying candidate

    def best_credits(best):
        return best[0] if attribution else best

    def candidate(k, count, mult):
        c = credits[k].get(count, 0) * effective(mult)
        return (c, -key_index[k], k, count) if attribution else c

    # Upper bound of what key k can still pay once it has matched `count` reels at `mult`.
    def potential(k, count, mult):
        return max(
            (credits[k].get(c, 0) * most(mult, c - count) for c in range(count, n + 1)),
            default=0,
        )

    def pay_step(pay, j, a, sym):
        """(new pay payload or None, credits emitted now, attribution of the emission)."""
        if pay is None:
            return None, 0, None
        alive, mult, best = pay
        still = frozenset(k for k in alive if sym in model.key_members[k])
        new_best = best
        if j > 0:
            for k in alive - still:
                cand = candidate(k, j, mult)
                new_best = max(new_best, cand)
        if not still:
            return None, best_credits(new_best), new_best
        new_mult = combine(mult, mults[a])
        pot = max(potential(k, j + 1, new_mult) for k in still)
        settled = pot < best_credits(new_best) if attribution else pot <= best_credits(new_best)
        if settled:
            return None, best_credits(new_best), new_best
        return (still, new_mult, new_best), 0, None

    def run_step(run, sym):
        """(new run, 1 if the trigger run completes now)."""
        if run < 0 or sym != trigger_symbol:
            return -1, 0
        if run + 1 == trigger_count:
            return -1, 1
        return run + 1, 0

    start_payload = ((frozenset(keys), 0 if added else 1, zero_best()),
                     0 if line_trigger else -1)
    layers_payloads: list[list] = [[None, start_payload]]  # id 0 is DEAD
    next_tables, emit_tables, emit_infos, trigger_tables = [], [], [], []
    for j in range(n):
        cur = layers_payloads[j]
        nxt_payloads: list = [None]
        nxt_table: dict = {None: 0}
        info: dict = {}
        nt = np.zeros((len(cur), len(names)), dtype=np.int32)
        em = np.zeros((len(cur), len(names)), dtype=np.int64)
        et = np.zeros((len(cur), len(names)), dtype=np.int64)
        for sid in range(1, len(cur)):
            pay, run = cur[sid]
            for a, sym in enumerate(names):
                new_pay, emitted, emitted_info = pay_step(pay, j, a, sym)
                new_run, fired = run_step(run, sym)
                em[sid, a] = emitted
                et[sid, a] = fired
                if emitted_info is not None:
                    info[sid, a] = emitted_info
                if new_pay is None and new_run < 0:
                    continue
                nt[sid, a] = _intern(nxt_table, nxt_payloads, (new_pay, new_run))
        next_tables.append(nt)
        emit_tables.append(em)
        emit_infos.append(info)
        trigger_tables.append(et)
        layers_payloads.append(nxt_payloads)
    last = layers_payloads[n]
    final = np.zeros(len(last), dtype=np.int64)
    final_infos = [None] * len(last)
    for sid in range(1, len(last)):
        pay, _ = last[sid]
        if pay is None:
            final_infos[sid] = zero_best()
            continue
        alive, mult, best = pay
        b = best
        for k in alive:
            cand = candidate(k, n, mult)
            b = max(b, cand)
        final[sid] = best_credits(b)
        final_infos[sid] = b
    return Automaton(
        tuple(next_tables), tuple(emit_tables), final, (1,) * model.game.n_lines,
        tuple(tuple(p) for p in layers_payloads),
        tuple(emit_infos) if attribution else (), tuple(final_infos) if attribution else (),
        tuple(trigger_tables) if line_trigger else (),
    )


def ways_automaton(model: PayModel, max_count: int) -> Automaton:
    """One automaton holding every ways pay-table entry; payload ``(key, product_of_counts)``.

    ``max_count`` bounds the per-reel count input (rows x the largest multiplier).
    """
    n = model.game.n_reels
    keys = model.keys
    layers_payloads = []
    tables = []
    payloads = [None] + [(k, 1) for k in keys]
    layers_payloads.append(payloads)
    next_tables, emit_tables = [], []
    for j in range(n):
        cur = layers_payloads[j]
        nxt_payloads: list = [None]
        nxt_table: dict = {None: 0}
        nt = np.zeros((len(cur), max_count + 1), dtype=np.int32)
        em = np.zeros((len(cur), max_count + 1), dtype=np.int64)
        for sid in range(1, len(cur)):
            k, prod = cur[sid]
            em[sid, 0] = model.key_credits[k].get(j, 0) * prod if j > 0 else 0
            for c in range(1, max_count + 1):
                nt[sid, c] = _intern(nxt_table, nxt_payloads, (k, prod * c))
        next_tables.append(nt)
        emit_tables.append(em)
        layers_payloads.append(nxt_payloads)
        tables.append(nxt_table)
    last = layers_payloads[n]
    final = np.zeros(len(last), dtype=np.int64)
    for sid in range(1, len(last)):
        k, prod = last[sid]
        final[sid] = model.key_credits[k].get(n, 0) * prod
    start = tuple(range(1, len(keys) + 1))
    return Automaton(tuple(next_tables), tuple(emit_tables), final, start,
                     tuple(tuple(p) for p in layers_payloads))
