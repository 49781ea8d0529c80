"""The cascade kernel's tail-sharing path (slotmath.exact.cascades, ``_fast_block``): in a ways
game whose every entry pays at every run from the prefix's length on, a block's prefix chain
(and its branches on freed prefix reels) is followed once and the tail reels' stops are looped
under it; a combination that frees a tail reel is followed whole by the generic chain.

Checked two ways: the whole law against the brute-force reference (tests/cascade_reference.py,
no shared code) on hypothesis-generated ways games whose pay tables pay every run; and the
kernel's every tally (joint table, cascade counts, freed reels, ways in play, sums, credits by
entry) with the path against the same kernel with the path turned off, on Frozen Gems' strips
shortened to a few stops (prefix reels freed, tail reels freed, long wild chains) and on the
generated games.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest
from cascade_strategies import cascade_game_dicts, to_toml
from hypothesis import HealthCheck, assume, given, settings
from test_cascades import _check_generated

import slotmath
from slotmath.evaluate.window import PayModel
from slotmath.exact import cascades
from slotmath.model.game import Reel, ReelSet, _frozen_map

FROZEN_GEMS = "data/games/frozen_gems.toml"


def _tallies(prep, keep_a: bool, entries: bool, pending_rows: int = cascades._PENDING):
    first = np.arange(int(prep.game.lengths[0]), dtype=np.int64)
    table, tally = cascades._call(prep, first, keep_a, entries, pending_rows)
    return dict(table), [np.asarray(a).copy() for a in tally[:6]]


def _same(a, b) -> bool:
    return a[0] == b[0] and all(np.array_equal(x, y) for x, y in zip(a[1], b[1]))


def _without_path(prep):
    return replace(prep, pruning=prep.pruning[:4] + (False,))


def _resampled(game, n: int):
    sets = {}
    for name, rs in game.reel_sets.items():
        reels = [Reel(tuple(r.symbols[i * len(r.symbols) // n] for i in range(n)))
                 for r in rs.reels]
        sets[name] = ReelSet(name, tuple(reels))
    return replace(game, reel_sets=_frozen_map(sets))


# which reels these strips free: 7 base: reels 1-3 and 5; 9 base: 1 and 4; 8 free: 2 and 5;
# 11 free: every reel, chains of 19 drops
@pytest.mark.parametrize("stops, reel_set", [(7, "base"), (9, "base"), (8, "free"), (11, "free")])
def test_frozen_gems_short_strips_equal_the_generic_chain(stops, reel_set):
    game = _resampled(slotmath.load_game(FROZEN_GEMS), stops)
    free = reel_set != "base"
    prep = cascades._prepare(game, reel_set, 1, PayModel(game), free, free)
    assert prep.pruning[4]  # the path is taken
    keep_a, entries = free, not free
    fast = _tallies(prep, keep_a, entries)
    slow = _tallies(_without_path(prep), keep_a, entries)
    assert fast[1][2].sum() > 0  # reels are freed in these chains
    assert _same(fast, slow)
    # the sparse buffer emptied after every row changes nothing
    assert _same(fast, _tallies(prep, keep_a, entries, pending_rows=1))


def _every_run_pays(data: dict) -> dict:
    """The game with every pay table paying every count from 2 on (so that the path
    applies)."""
    n_reels = len(data["reels"]["base"])
    full = {str(c): c + 1 for c in range(2, n_reels + 1)}
    for sym in data["symbols"].values():
        if "pays" in sym and not sym.get("scatter"):
            sym["pays"] = dict(full)
    for group in data.get("groups", {}).values():
        group["pays"] = dict(full)
    return data


@settings(max_examples=30, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(cascade_game_dicts(refill="strip", ways=True))
def test_generated_every_run_pays(data):
    data = _every_run_pays(data)
    game = slotmath.loads_game(to_toml(data), "<tail test>")
    prep = cascades._prepare(game, "base", 1, PayModel(game), False, False)
    assume(prep.pruning[4])
    assert _same(_tallies(prep, True, True), _tallies(_without_path(prep), True, True))
    _check_generated(data)
