"""A reel step whose new states are found by their exact code
(:func:`slotmath.exact.cycle._step_coded`, :func:`~slotmath.exact.cycle.state_code`) against
the step that builds, sorts and compares whole rows (:func:`slotmath.exact.cycle._step_room`):
on random automata, states, windows, classes of interchangeable units and window limits, the
two give the same new states in the same order and the same outcomes, code words one to
four. The modifier tables built on it are checked against the brute force in
tests/test_modifiers.py and tests/test_modifier_count_filters.py."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from slotmath.exact.cycle import _CODE_WORD, _step_coded, _step_room, state_code


def _case(seed: int, n_units: int, n_status: int, blocks: list, n_in: int = 4, n_cols: int = 3,
          n_vals: int = 4, n_states: int = 20, n_w: int = 20, n_pack: int = 4, radix: int = 3,
          limited: bool = True, line_cap: int = 0):
    """A random step: ``blocks`` the classes of interchangeable units (lists of two or more);
    the units read ``n_cols`` columns of ``n_vals`` values (by effect), ``n_in`` statuses
    before the reel and ``n_status`` after it."""
    rng = np.random.default_rng(seed)
    cls_ptr = np.cumsum([0] + [len(b) for b in blocks]).astype(np.int64)
    cls_mem = np.asarray([u for b in blocks for u in b], dtype=np.int64)
    nt = rng.integers(0, n_status, (n_in, n_vals)).astype(np.int32)
    nt[0] = 0  # a settled unit stays settled
    em = rng.integers(0, 4, (n_in, n_vals)).astype(np.int64)
    et = rng.integers(0, 2, (n_in, n_vals)).astype(np.int64)
    # few statuses before the reel: states that meet again after it
    states = rng.integers(0, n_in, (n_states, n_units)).astype(np.int32)
    ucol = rng.integers(0, n_cols, n_units).astype(np.int64)
    colval = rng.integers(0, n_vals, (n_w, n_cols)).astype(np.int32)
    inputs = np.ascontiguousarray(colval[:, ucol])  # by effect: each unit reads its column
    win_sa = rng.integers(0, n_pack, n_w).astype(np.int64)
    win_weight = rng.integers(1, 9, n_w).astype(np.int64)
    digit = rng.integers(0, radix, n_pack).astype(np.int64)
    # a room of -1 visits no window of its state
    room = (rng.integers(-1, radix, n_states).astype(np.int64) if limited
            else np.zeros(0, np.int64))
    line_place = n_pack if line_cap else 0
    return (states, nt, em, et, line_place, line_cap, inputs, ucol, colval, win_sa,
            win_weight, cls_ptr, cls_mem, digit, radix, room, n_status)


def _same_steps(case) -> int | None:
    """Both steps on ``case``, their answers compared; the code's words (None: refused)."""
    (states, nt, em, et, line_place, line_cap, inputs, ucol, colval, win_sa, win_weight,
     cls_ptr, cls_mem, digit, radix, room, n_status) = case
    code = state_code(states.shape[1], n_status, cls_ptr, cls_mem)
    if code is None:  # past the most words: the engines compare rows (nothing to check)
        return None
    rows = _step_room(states, nt, em, et, line_place, line_cap, inputs, ucol, colval, win_sa,
                      win_weight, cls_ptr, cls_mem, True, digit, radix, room)
    coded = _step_coded(states, nt, em, et, line_place, line_cap, ucol, colval, win_sa,
                        win_weight, cls_ptr, cls_mem, *code, digit, room)
    for a, b in zip(rows, coded):
        assert a.shape == b.shape and (a == b).all()
    return code[2]


@st.composite
def _steps(draw):
    n_units = draw(st.integers(1, 24))
    label = draw(st.lists(st.integers(0, n_units - 1), min_size=n_units, max_size=n_units))
    blocks = [[u for u in range(n_units) if label[u] == b] for b in sorted(set(label))]
    return _case(draw(st.integers(0, 2**32 - 1)), n_units, draw(st.integers(1, 20)),
                 [b for b in blocks if len(b) > 1], n_in=draw(st.integers(1, 6)),
                 n_cols=draw(st.integers(1, 3)), n_vals=draw(st.integers(1, 5)),
                 n_states=draw(st.integers(1, 30)), n_w=draw(st.integers(1, 25)),
                 n_pack=draw(st.integers(1, 6)), radix=draw(st.integers(1, 4)),
                 limited=draw(st.booleans()), line_cap=draw(st.integers(0, 3)))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_steps())
def test_coded_step_equals_the_row_step(case):
    _same_steps(case)


@pytest.mark.parametrize("words, n_units, n_status, blocks", [
    (1, 8, 5, [[1, 4]]),
    (2, 20, 10, []),  # twenty lines, no classes: 10**20 > 2**62
    # Gus's Gold Christmas's fourth reel: its lines by the row they read on the fifth
    (3, 20, 17, [[0, 7, 8, 11, 12, 15, 16], [1, 3, 6, 9, 13, 17, 19], [2, 4, 5, 10, 14, 18]]),
    (4, 24, 20, [list(range(k, k + 6)) for k in (0, 6, 12, 18)]),
    (None, 24, 20, [list(range(24))]),  # one class: 25**19 > 2**62, refused
])
def test_codes_of_one_to_four_words(words, n_units, n_status, blocks):
    """Fixed steps whose codes take one to four words, and one refused (its steps compare
    rows)."""
    for seed in range(3):
        case = _case(seed, n_units, n_status, blocks, n_in=n_status, n_states=200, n_w=40,
                     n_vals=6)
        assert _same_steps(case) == words


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 40), st.integers(1, 40), st.data())
def test_a_code_is_exact_or_refused(n_units, n_status, data):
    """Every word of the largest state's code stays below 2**62 (no digit carries into the
    next), and distinct canonical states get distinct codes; a code past the most words is
    refused (None)."""
    sizes = data.draw(st.lists(st.integers(2, 6), max_size=4))
    members = list(range(n_units))
    blocks = []
    for size in sizes:
        if len(members) >= size:
            blocks.append(members[:size])
            members = members[size:]
    cls_ptr = np.cumsum([0] + [len(b) for b in blocks]).astype(np.int64)
    cls_mem = np.asarray([u for b in blocks for u in b], dtype=np.int64)
    code = state_code(n_units, n_status, cls_ptr, cls_mem, max_words=64)
    if code is None:  # with 64 words only a class whose own digits pass 2**62 is refused
        assert any((len(b) + 1) ** (n_status - 1) > _CODE_WORD for b in blocks)
        return
    word, val, n_words = code
    top = [0] * n_words  # every unit on the highest status: each word's largest code
    for u in range(n_units):
        top[word[u]] += int(val[u, -1])
    assert all(t < _CODE_WORD for t in top)
    small = state_code(n_units, n_status, cls_ptr, cls_mem, max_words=1)
    assert (small is None) == (n_words > 1)
    # distinct canonical states (multisets within a class) have distinct codes
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1)))
    seen: dict[tuple, tuple] = {}
    for _ in range(60):
        row = rng.integers(0, n_status, n_units)
        canon = tuple(tuple(sorted(row[b].tolist())) for b in blocks) + tuple(
            int(row[u]) for u in members)
        key = [0] * n_words
        for u in range(n_units):
            key[word[u]] += int(val[u, row[u]])
        assert seen.setdefault(tuple(key), canon) == canon
