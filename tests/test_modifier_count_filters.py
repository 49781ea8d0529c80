"""A place modifier's table when its count law is narrow: the engine visits only the windows
and folds only the pairs that can end on a count the law uses (slotmath.exact.modifiers),
checked against the brute force written from the rules (tests/modifiers_reference.py,
sharing no code with the engine) on random four-reel games, where the filters act on every
step and on the last reel's fold."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from modifiers_reference import modified_law
from test_modifiers import _engine_law, _modifier_dict, _text

from slotmath.io.toml_loader import loads_game
from slotmath.model.modifiers import Modifier


@st.composite
def _narrow_cases(draw):
    rows = 2
    n_reels = 4
    names = ["W", "S", "A", "B", "C", "X"]
    strips = [draw(st.lists(st.sampled_from(names), min_size=1, max_size=3))
              for _ in range(n_reels)]
    pays = {s: {k: draw(st.integers(0, 6)) for k in (2, 3, 4)} for s in ("A", "B", "C")}
    lines = draw(st.lists(st.lists(st.integers(0, rows - 1), min_size=n_reels,
                                   max_size=n_reels), min_size=1, max_size=3))
    spec = {"rows": rows, "bet": draw(st.integers(1, 3)), "ways": draw(st.booleans()),
            "wild": "W", "lines": lines, "pays": pays, "strips": strips,
            "scatter_pays": draw(st.sampled_from([{}, {2: 1}]))}
    # a band of counts well inside 1..8 (a gap allowed): the fewest and the most both bite
    low = draw(st.integers(2, 5))
    ks = sorted({low, draw(st.integers(low, min(low + 2, 8)))})
    counts = tuple((k, draw(st.integers(1, 4))) for k in ks)
    symbol = draw(st.sampled_from(["W", "S"]))
    keep = tuple(s for s in draw(st.sets(st.sampled_from(["S", "W"]))) if s != symbol)
    m = Modifier("m", "place", Fraction(1, 3), symbol=symbol, counts=counts, keep=keep)
    return spec, m, draw(st.booleans())


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_narrow_cases())
def test_narrow_count_laws_on_four_reels_equal_the_brute_force(case):
    spec, m, by_first = case
    game = loads_game(_text(spec))
    assert _engine_law(game, m, "S", by_first) == modified_law(spec, _modifier_dict(m), "S")


def test_the_direct_last_reel_fold_is_the_path_checked(monkeypatch):
    """The last two reels of a place modifier on a lines and on a ways game are
    :func:`slotmath.exact.modifiers._fold_through` (each new state's entries made and folded
    at once, its credit table summed over the windows' columns), and its table equals the
    brute force: the cases above check this kernel, not the generic fold it replaced."""
    from slotmath.exact import modifiers

    calls = []
    direct = modifiers._fold_through

    def counted(*args):
        calls.append(1)
        return direct(*args)

    monkeypatch.setattr(modifiers, "_fold_through", counted)
    monkeypatch.setenv("SLOTMATH_CACHE", "off")
    m = Modifier("m", "place", Fraction(1, 3), symbol="W", counts=((2, 1), (3, 2)),
                 keep=("S",))
    for ways in (False, True):
        spec = {"rows": 2, "bet": 2, "ways": ways, "wild": "W",
                "lines": [[0, 0, 0, 0], [1, 1, 1, 1], [0, 1, 1, 0]],
                "pays": {"A": {2: 1, 3: 4, 4: 6}, "B": {3: 2, 4: 5}, "C": {2: 1, 4: 3}},
                "strips": [["A", "S", "C"], ["B", "W", "A"], ["C", "A", "S", "B"], ["A", "B"]],
                "scatter_pays": {2: 1}}
        before = len(calls)
        game = loads_game(_text(spec))
        assert _engine_law(game, m, "S") == modified_law(spec, _modifier_dict(m), "S")
        assert len(calls) > before
