"""A place modifier's table after strip moves (slotmath.exact.modifier_moves): the DP kept
from the strips before, moved to the new strips, gives the table of the DP from scratch bit
for bit, and the law of the brute force (tests/modifiers_reference.py, no shared code), over
sequences of moves on every reel, adding and removing symbols."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from modifiers_reference import modified_law
from test_modifiers import DYNAMITE, PICKAXE, _modifier_dict, _text

from slotmath.exact import modifier_moves, modifiers
from slotmath.exact.modifiers import modifier_table
from slotmath.io.toml_loader import loads_game
from slotmath.model.modifiers import Modifier

#: four reels: a move on reel 1 or 2 leaves a prefix cache (after reel 0, after reel 1) to
#: keep or drop
SPEC4 = {
    "rows": 2, "bet": 2, "ways": False, "wild": "W",
    "lines": [[0, 0, 0, 0], [1, 1, 1, 1], [0, 1, 1, 0]],
    "pays": {"A": {2: 1, 3: 5, 4: 9}, "B": {2: 2, 3: 4, 4: 7}, "C": {3: 3, 4: 6}},
    "strips": [["A", "W", "C", "S"], ["B", "C", "A"], ["S", "A", "C"], ["W", "B", "A"]],
    "scatter_pays": {2: 1, 4: 5},
}


def _table(spec, modifier, moves):
    """(weights, cycle) of ``modifier`` on the game of ``spec``; ``moves``: the kept DP may
    be moved (else the DP from scratch, and nothing is kept)."""
    old = modifiers.MOVES
    modifiers.MOVES = moves
    try:
        t = modifier_table(loads_game(_text(spec)), modifier, count_symbol="S")
    finally:
        modifiers.MOVES = old
    return t


def _law(t):
    cpb = t.credits_per_bet
    return {(c, Fraction(cr, cpb)): Fraction(w, t.cycle) for (c, cr), w in t.weights.items()}


def _edit(spec, edits):
    """``spec`` with ``edits`` applied: (reel, position, symbol) inserts the symbol there,
    (reel, position, None) removes the symbol there."""
    strips = [list(s) for s in spec["strips"]]
    for j, pos, symbol in edits:
        if symbol is None:
            del strips[j][pos % len(strips[j])]
        else:
            strips[j].insert(pos % (len(strips[j]) + 1), symbol)
    return dict(spec, strips=strips)


def _moves_made() -> int:
    return sum(c.moves for c in modifier_moves._CACHES.values())


def _walk(spec, modifier, steps, moved_each=False, workers=None):
    """Analyse ``spec``, then each edit of ``steps`` (a list of edit lists) in turn with the
    kept DP; each table against the DP from scratch (the same integers) and the brute force
    (the same law); ``moved_each``: every edit after the first moved the kept DP. Returns the
    moves the kept DP made; ``workers``: processes sharing a move's parts."""
    modifier_moves.forget()
    _table(spec, modifier, True)  # kept from here
    for kept in modifier_moves._CACHES.values():
        kept.workers = workers
    made = 0
    for edits in steps:
        spec = _edit(spec, edits)
        before = _moves_made()
        moved = _table(spec, modifier, True)
        if moved_each:  # the kept DP was moved (not the DP from scratch)
            assert _moves_made() > before
        made = _moves_made()
        scratch = _table(spec, modifier, False)
        assert moved.cycle == scratch.cycle
        assert moved.weights == scratch.weights
        assert _law(moved) == modified_law(spec, _modifier_dict(modifier), "S")
    modifier_moves.forget()
    return made


@pytest.mark.parametrize("modifier", [DYNAMITE, PICKAXE], ids=lambda m: m.name)
@pytest.mark.parametrize("ways", [False, True])
def test_moves_on_every_reel_equal_the_dp_from_scratch_and_the_brute_force(modifier, ways):
    """Every reel moved, symbols added and removed, the kept DP reused from move to move:
    reel 1 then reel 2 (the prefix after reel 1 is stale after the first: dropped), reel 3
    (the last: the summary only), reel 0 (the parts change), back to reel 1 and 2."""
    steps = [[(3, 1, "A")], [(1, 0, "W")], [(2, 2, "B")], [(3, 0, None)], [(0, 2, "B")],
             [(1, 1, None)], [(2, 0, "S")], [(0, 1, None)], [(1, 2, "C"), (3, 1, "W")]]
    assert _walk(dict(SPEC4, ways=ways), modifier, steps, moved_each=True) >= len(steps)


def test_a_stale_prefix_after_a_second_move_is_caught():
    """Moves that read a prefix an earlier move made stale: reel 2 (the prefix after reels
    0 and 1 made), reel 1 (the prefix after reel 1 changes), reel 3 (it reads that prefix
    again); reel 0 (the parts change: a part keeps its prefix only if it is the same part),
    then reel 2."""
    steps = [[(2, 1, "W")], [(1, 0, "A")], [(3, 1, "B")], [(0, 0, "A")], [(2, 0, None)],
             [(1, 1, "S")], [(3, 0, None)]]
    _walk(SPEC4, DYNAMITE, steps, moved_each=True)


def test_moves_over_two_processes_equal_the_dp_from_scratch(monkeypatch):
    """A move's parts shared over two forked processes (each chunk's table sent back as its
    nonzero cells, negative weights among them)."""
    from slotmath.exact import workers

    calls = []

    def spy(fn, parts, n, **kw):
        parts = list(parts)
        calls.append((n, len(parts)))
        return real(fn, parts, n, **kw)

    real = workers.map_parts
    monkeypatch.setattr(workers, "map_parts", spy)
    steps = [[(3, 1, "A")], [(2, 0, "W")], [(1, 1, None)]]
    assert _walk(SPEC4, DYNAMITE, steps, moved_each=True, workers=2) == len(steps)
    assert calls and all(n == 2 and chunks > 1 for n, chunks in calls)


@pytest.mark.parametrize("workers", [1, 2])
def test_a_move_reports_its_progress_to_the_end(workers):
    """A move tells ``progress`` how far it has come (the strip editor's bar during a move):
    from a first report below the total to done == total, never going back, on a one-reel
    and a two-reel move, its parts here or over two processes."""
    modifier_moves.forget()
    _table(SPEC4, DYNAMITE, True)
    for kept in modifier_moves._CACHES.values():
        kept.workers = workers
    for edits in ([(2, 1, "W")], [(0, 0, "A"), (3, 1, "B")]):
        spec = _edit(SPEC4, edits)
        heard = []
        old = modifiers.MOVES
        modifiers.MOVES = True
        try:
            before = _moves_made()
            moved = modifier_table(loads_game(_text(spec)), DYNAMITE, count_symbol="S",
                                   progress=lambda done, total, h=heard: h.append((done, total)))
        finally:
            modifiers.MOVES = old
        assert _moves_made() > before  # moved, not computed afresh
        assert _law(moved) == modified_law(spec, _modifier_dict(DYNAMITE), "S")
        fractions = [d / t for d, t in heard]
        assert heard and fractions[-1] == 1 and fractions[0] < 1, heard
        assert fractions == sorted(fractions), heard
    modifier_moves.forget()


def test_another_game_or_the_same_strips_are_not_moved():
    """The kept DP answers only a strip move of the same game: other pays (another
    automaton) or another modifier law are computed from scratch, and so are the same strips
    again (the store's case)."""
    modifier_moves.forget()
    _table(SPEC4, DYNAMITE, True)
    other_pays = dict(_edit(SPEC4, [(1, 0, "A")]), pays={"A": {2: 2, 3: 5, 4: 9},
                                                          "B": {2: 2, 3: 4, 4: 7}, "C": {4: 6}})
    other_law = Modifier("dynamite", "place", Fraction(1, 5), symbol="W",
                         counts=((1, 2), (3, 1)), keep=("S",))
    for spec, m in ((other_pays, DYNAMITE), (SPEC4, other_law), (SPEC4, DYNAMITE)):
        t = _table(spec, m, True)
        assert _moves_made() == 0
        assert _law(t) == modified_law(spec, _modifier_dict(m), "S")
    modifier_moves.forget()


def test_the_kept_dps_are_bounded():
    modifier_moves.forget()
    for m in (DYNAMITE, PICKAXE, Modifier("third", "place", Fraction(1, 3), symbol="A",
                                          counts=((2, 1),))):
        _table(SPEC4, m, True)
    assert len(modifier_moves._CACHES) == modifier_moves.KEPT
    modifier_moves.forget()


@st.composite
def _walks(draw):
    rows = draw(st.integers(1, 2))
    n_reels = draw(st.integers(2, 4))
    names = ["W", "S", "A", "B", "C", "X"]
    strips = [draw(st.lists(st.sampled_from(names), min_size=1, max_size=3))
              for _ in range(n_reels)]
    pays = {s: {k: draw(st.integers(0, 6)) for k in range(2, n_reels + 1)} for s in "ABC"}
    lines = draw(st.lists(st.lists(st.integers(0, rows - 1), min_size=n_reels,
                                   max_size=n_reels), min_size=1, max_size=3))
    spec = {"rows": rows, "bet": draw(st.integers(1, 3)), "ways": draw(st.booleans()),
            "wild": "W", "lines": lines, "pays": pays, "strips": strips,
            "scatter_pays": {k: v for k, v in draw(st.sampled_from([{}, {2: 1}, {1: 1, 3: 4}]))
                             .items() if k <= rows * n_reels}}
    reels = tuple(sorted(draw(st.sets(st.integers(1, n_reels), max_size=n_reels))))
    eligible = rows * (len(reels) or n_reels)
    ks = draw(st.sets(st.integers(1, min(eligible, 4)), min_size=1, max_size=3))
    counts = tuple((k, draw(st.integers(1, 4))) for k in sorted(ks))
    symbol = draw(st.sampled_from(["W", "S", "A"]))
    keep = tuple(s for s in draw(st.sets(st.sampled_from(["S", "W", "X"]))) if s != symbol)
    m = Modifier("m", "place", Fraction(1, 2), symbol=symbol, counts=counts, keep=keep,
                 reels=reels)
    steps = []
    lengths = [len(s) for s in strips]
    for _ in range(draw(st.integers(2, 4))):
        edits = []
        for _ in range(draw(st.integers(1, 2))):
            j = draw(st.integers(0, n_reels - 1))
            pos = draw(st.integers(0, 3))
            symbol = draw(st.sampled_from(names + ([None] if lengths[j] > 1 else [])))
            lengths[j] += -1 if symbol is None else 1
            edits.append((j, pos, symbol))
        steps.append(edits)
    return spec, m, steps


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_walks())
def test_random_walks_of_moves_equal_the_dp_from_scratch_and_the_brute_force(case):
    spec, m, steps = case
    _walk(spec, m, steps)
