"""Strip layout rules (slotmath.tune.layout) and the solver's use of them.

The rules are measured here, independently of the module: the cyclic distance between every
two stops of a spaced symbol and the length of every maximal cyclic run of a stacked one,
on random strips (hypothesis) and on the strips of a written game file read back with tomllib.
The figures the solver keeps for a laid-out strip are checked against the brute force of
tests/test_tune_sensitivity.py (every stop combination, paid by the rules).
"""

from __future__ import annotations

import tomllib
from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import slotmath
from slotmath.cli import main
from slotmath.model.game import Reel
from slotmath.tune import tune
from slotmath.tune.layout import Layout, LayoutError, lay_out
from tests.bundled import ROOT
from tests.test_tune_sensitivity import as_game, brute

GAMES = ROOT / "data" / "games"


def closest(strip, symbol) -> int | None:
    """The least cyclic distance between two stops showing ``symbol`` (None: fewer than 2)."""
    at = [i for i, s in enumerate(strip) if s == symbol]
    n = len(strip)
    pairs = [(a, b) for a in at for b in at if a < b]
    return min((min(b - a, n - (b - a)) for a, b in pairs), default=None)


def runs(strip, symbol) -> list[int]:
    """Lengths of the maximal cyclic runs of ``symbol``."""
    n = len(strip)
    if n and all(s == symbol for s in strip):
        return [n]
    out = []
    for i in range(n):
        if strip[i] == symbol and strip[i - 1] != symbol:  # a run starts at i
            k = 0
            while strip[(i + k) % n] == symbol:
                k += 1
            out.append(k)
    return out


def keeps(strip, spacing, stack) -> bool:
    return (all((closest(strip, s) or d) >= d for s, d in spacing.items())
            and all(all(r == k for r in runs(strip, s)) for s, k in stack.items()))


@st.composite
def strips_and_rules(draw):
    names = ["A", "B", "C", "S", "T", "W"]
    strip = draw(st.lists(st.sampled_from(names), min_size=1, max_size=16))
    weighted = draw(st.booleans())
    weights = (tuple(draw(st.lists(st.integers(1, 5), min_size=len(strip),
                                   max_size=len(strip)))) if weighted else None)
    ruled = draw(st.lists(st.sampled_from(names), unique=True, max_size=3))
    spacing, stack = {}, {}
    for s in ruled:
        if draw(st.booleans()):
            spacing[s] = draw(st.integers(1, 5))
        else:
            stack[s] = draw(st.integers(1, 3))
    return strip, weights, spacing, stack


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(strips_and_rules())
def test_a_laid_out_strip_keeps_the_rules_and_the_counts(case):
    strip, weights, spacing, stack = case
    reel = Reel(tuple(strip), weights)
    counts = Counter(strip)
    try:
        out = lay_out(reel, spacing, stack)
    except LayoutError:
        # it may refuse only where the rules are hard: a count no stacks make, or spaced
        # symbols that do not fit with room to spare, or stacks and spacing together
        length, spaced = len(strip), sum(counts[s] for s in spacing)
        blocks = sum(counts[s] // k for s, k in stack.items())
        unruled = length - spaced - sum(counts[s] for s in stack)
        roomy = (all(counts[s] * (d - 1) <= length - spaced for s, d in spacing.items())
                 and blocks <= unruled and not (spacing and stack))
        assert any(counts[s] % k for s, k in stack.items()) or not roomy
        return
    assert Counter(out.symbols) == counts
    pairs = Counter(zip(strip, weights or (None,) * len(strip)))
    assert Counter(zip(out.symbols, out.weights or (None,) * len(strip))) == pairs
    assert keeps(out.symbols, spacing, stack)
    if keeps(strip, spacing, stack):
        assert out == reel  # a strip that keeps the rules is not touched
    else:
        unruled = [s for s in strip if s not in spacing and s not in stack]
        assert [s for s in out.symbols if s not in spacing and s not in stack] == unruled


def test_layout_is_deterministic_and_starts_from_the_strip():
    reel = Reel(("SC", "A", "SC", "B", "C", "D", "E", "F", "W", "G", "W", "H"))
    one = lay_out(reel, {"SC": 3}, {"W": 2})
    assert one == lay_out(reel, {"SC": 3}, {"W": 2})
    assert keeps(one.symbols, {"SC": 3}, {"W": 2})
    assert [s for s in one.symbols if s not in ("SC", "W")] == list("ABCDEFGH")
    with pytest.raises(LayoutError, match="3 stops do not make stacks of 2"):
        lay_out(Reel(("W", "A", "W", "B", "W")), {}, {"W": 2})
    with pytest.raises(LayoutError, match="SC"):
        lay_out(Reel(("SC", "A", "SC", "B", "SC")), {"SC": 3}, {})


def test_the_written_file_keeps_the_rules_measured_from_its_strips(tmp_path, capsys):
    out = tmp_path / "tuned.toml"
    code = main(["tune", str(GAMES / "ways_243.toml"), "--target-rtp", "95", "--tolerance",
                 "0.01", "--stack", "W=2", "--spacing", "LION=4", "--out", str(out)])
    printed = capsys.readouterr()
    assert code == 0, printed
    assert "layout        the start strips broke a layout rule; laid out: RTP" in printed.out
    reels = tomllib.loads(out.read_text())["reels"]["base"]
    original = slotmath.load_game(GAMES / "ways_243.toml")
    assert [list(r.symbols) for r in original.base.reels] != reels  # it did change them
    for strip in reels:
        assert all(r == 2 for r in runs(strip, "W")), strip
        assert (closest(strip, "LION") or 4) >= 4, strip
        assert (closest(strip, "SC") or 3) >= 3, strip  # the scatter's default: 3 rows
    tuned = slotmath.analyze(slotmath.load_game(out))
    assert abs(tuned.rtp - Fraction(95, 100)) <= Fraction(1, 10_000)


def test_the_kept_figures_are_the_laid_out_strips_by_brute_force():
    pays = {"A": {2: 2, 3: 5}, "B": {3: 9}}
    strips = [(["A", "W", "X", "B", "W", "X", "A", "B"], None),
              (["B", "A", "W", "X", "X", "W", "A", "B"], None),
              (["X", "A", "B", "W", "A", "X", "W", "B"], None)]
    lines = [(0, 0, 0), (1, 1, 1), (0, 1, 0), (1, 0, 1)]
    game = as_game(2, False, pays, strips, lines)
    layout = Layout(stack={"W": 2})
    r = tune(game, "0.8", layout=layout, tolerance=Fraction(1, 50), time_limit=20,
             max_rounds=3)
    tuned = [list(x.symbols) for x in r.game.base.reels]
    assert all(all(k == 2 for k in runs(s, "W")) for s in tuned)
    assert r.laid_out is not None  # the start's W were single
    expected = brute(tuned, [[1] * len(s) for s in tuned], 2, lines, pays, len(lines))
    assert (r.figures.rtp, r.figures.hit_frequency, r.figures.second_moment) == expected
    assert r.met == (abs(expected[0] - Fraction("0.8")) <= Fraction(1, 50))
    assert all(e % 2 == 0 for s in r.steps for sym, e in s.edits.items() if sym == "W")


@pytest.mark.parametrize(("extra", "fragment"), [
    (["--stack", "W=x"], "--stack: must be SYMBOL=N"),
    (["--spacing", "SC"], "--spacing: must be SYMBOL=N"),
    (["--spacing", "ZZ=3"], "no symbol 'ZZ'"),
    (["--stack", "W=2", "--spacing", "W=3"], "both a spacing and a stack rule"),
    (["--stack", "W=2"], "reel 2: W: 1 stops do not make stacks of 2"),
    (["--spacing", "X=5"], "X (spacing 5)"),
])
def test_cli_bad_layout_is_one_line_exit_2(tmp_path, capsys, extra, fragment):
    code = main(["tune", str(GAMES / "tiny_lines.toml"), "--target-rtp", "95", *extra,
                 "--out", str(tmp_path / "x.toml")])
    err = capsys.readouterr().err
    assert code == 2 and fragment in err and len(err.strip().splitlines()) == 1, err
    assert not (tmp_path / "x.toml").exists()


@st.composite
def two_row_games_with_rules(draw):
    pays = {"A": {2: draw(st.integers(1, 4)), 3: draw(st.integers(2, 9))},
            "B": {3: draw(st.integers(2, 20))}}
    reels = []
    for _ in range(3):
        body = draw(st.lists(st.sampled_from(["A", "B", "X"]), min_size=4, max_size=7))
        reels.append((body + ["W", "W"], None))  # a stack of 2 wilds each, laid out below
    lines = [(0, 0, 0), (1, 1, 1), (0, 1, 0), (1, 0, 1)]
    return 2, False, pays, reels, lines


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(two_row_games_with_rules(), st.sampled_from(["0.5", "1.0", "2.0"]))
def test_random_two_row_games_tuned_with_rules_keep_them_and_the_brute_force(case, target):
    rows, _, pays, _, lines = case
    game = as_game(*case)
    layout = {"stack": {"W": 2}, "spacing": {"B": 2}}
    try:
        r = tune(game, target, layout=layout, gli11=None, tolerance=Fraction(1, 50),
                 max_rounds=2, time_limit=10)
    except ValueError as exc:  # only when the start's B cannot be kept 2 apart
        assert "B (spacing 2)" in str(exc)
        return
    tuned = [list(x.symbols) for x in r.game.base.reels]
    for strip in tuned:
        assert all(k == 2 for k in runs(strip, "W")) and (closest(strip, "B") or 2) >= 2
    expected = brute(tuned, [[1] * len(s) for s in tuned], rows, lines, pays, len(lines))
    assert (r.figures.rtp, r.figures.hit_frequency, r.figures.second_moment) == expected


def _orderable(strip, d) -> bool:
    """Whether some order of ``strip``'s stops keeps every symbol's copies ``d`` or more
    apart (cyclically): every distinct order tried."""
    import itertools

    n = len(strip)
    for order in set(itertools.permutations(strip)):
        if all(order[i] != order[(i + k) % n] for i in range(n) for k in range(1, min(d, n))
               if (i + k) % n != i):
            return True
    return False


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(["A", "B", "C", "D"]), min_size=1, max_size=8),
       st.integers(2, 3), st.booleans())
def test_the_strip_order_rule_is_met_whenever_some_order_meets_it(strip, d, weighted):
    """Every symbol ruled (the strip-order rule): the strip comes back with the same stops
    (and weights), no symbol within ``d - 1`` stops of its copy; refused only when no order
    of its stops does it (every order tried here)."""
    game = slotmath.load_game(GAMES / "tiny_lines.toml")
    weights = tuple(range(1, len(strip) + 1)) if weighted else None
    reel = Reel(tuple(strip), weights)
    spacing, _ = Layout(no_repeat=d, scatter_spacing=False).for_reel(game, 0)
    spacing = {s: spacing.get(s, d) for s in "ABCD"}  # (tiny_lines has no A-D: given here)
    try:
        out = lay_out(reel, spacing, {})
    except LayoutError:
        assert not _orderable(strip, d)
        return
    assert Counter(zip(out.symbols, out.weights or (None,) * len(strip))) == Counter(
        zip(strip, weights or (None,) * len(strip)))
    assert all((closest(out.symbols, s) or d) >= d for s in "ABCD")


def test_the_strip_order_rule_covers_every_symbol_without_a_rule_of_its_own():
    game = slotmath.load_game(GAMES / "ways_243.toml")
    spacing, stack = Layout(stack={"LION": 2}, no_repeat=2).for_reel(game, 0)
    assert stack == {"LION": 2} and "LION" not in spacing
    assert spacing["SC"] == 3  # its own (the window height) kept
    assert all(spacing[s] == 2 for s in game.symbols if s not in ("SC", "LION"))
    with pytest.raises(ValueError, match="no_repeat=0"):
        Layout(no_repeat=0).check(game)


def test_a_cascade_game_tuned_under_the_strip_order_rule_keeps_it():
    """A cascading game tuned by the proxy's swaps with ``--no-repeat 2``: its start broke
    the rule (two A side by side, cyclically, on reel 1) and is laid out first; every swap
    ranked keeps it; the tuned strips have no symbol next to itself (scanned here), and the
    written file's RTP is the cascade reference's (tests/cascade_reference.py, sharing no
    code), within the tolerance of the target."""
    from cascade_reference import figures as cascade_figures

    from slotmath.tune.game_file import tuned_text

    path = ROOT / "tests" / "data" / "cascades" / "tiny_bonus.toml"
    game = slotmath.load_game(path)
    first = game.base.reels[0].symbols
    assert any(first[i] == first[i - 1] for i in range(len(first)))  # the start breaks it
    start = slotmath.analyze(game).rtp
    # (upward: on strips of 4-6 stops no rule-keeping swap lowers it; the laid-out start is
    # 112.07 bets against the file's 108.53)
    target, tolerance = start * Fraction(120, 100), start * Fraction(3, 100)
    r = tune(game, target, tolerance=tolerance, gli11=None, method="proxy",
             layout={"no_repeat": 2}, time_limit=900)
    assert r.met and r.laid_out is not None, r
    for reel in r.game.base.reels:
        s = reel.symbols
        assert all(s[i] != s[i - 1] for i in range(len(s))), s
    text = tuned_text(path, r.game, "base")
    rtp = cascade_figures(tomllib.loads(text)).rtp
    assert rtp == r.figures.rtp == slotmath.analyze(r.game).rtp
    assert abs(rtp - target) <= tolerance


def test_cli_no_repeat_below_one_is_one_line_exit_2(tmp_path, capsys):
    code = main(["tune", str(GAMES / "tiny_lines.toml"), "--target-rtp", "95",
                 "--no-repeat", "0", "--out", str(tmp_path / "x.toml")])
    err = capsys.readouterr().err
    assert code == 2 and "--no-repeat" in err and len(err.strip().splitlines()) == 1, err
