"""The compliance odds rules on grid games: each pay-table entry's rate comes from the grid
owner (its ``rates`` hook), not from the lines and ways direct method, which read no pays of a
pay-anywhere game and called every entry "never" (a false FAIL on each). Exact rates are
compared with a count over the reference's first windows (tests/grid_reference.py, no engine
code); simulated ones must hold those exact rates within their stated error, and an entry a
short simulation never showed must say so rather than pass."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import grid_reference as ref

import slotmath
from slotmath.report.compliance import check

ROOT = Path(__file__).resolve().parents[1]
TINY = ROOT / "tests/data/grid/anywhere_tiny.toml"


def pay_rows(report):
    return {f.subject: f for f in report.findings if f.rule == "GLI-11 odds: pay table"}


def reference_rates(game) -> dict[str, Fraction]:
    """Each listed entry -> P(the paid spin's window pays it), by visiting every window:
    a symbol pays its highest listed count reached; a scatter likewise."""
    out: dict[str, Fraction] = {}
    for name, sym in game.symbols.items():
        for c in sym.pays:
            out[f"{'scatter' if sym.scatter else 'pay'} {name} x{c}"] = Fraction(0)
    for p, columns, _top, _pos, _t in ref._first_windows(game, "base"):
        for name, sym in game.symbols.items():
            n = sum(col.count(name) for col in columns)
            reached = [c for c in sym.pays if c <= n]
            if reached:
                out[f"{'scatter' if sym.scatter else 'pay'} {name} x{max(reached)}"] += p
    return out


def test_exact_rates_are_the_reference_counts():
    game = slotmath.load_game(TINY)
    want = reference_rates(game)
    shown = pay_rows(check(game, ["gli11"]))
    assert set(shown) == set(want)
    for subject, rate in want.items():
        assert Fraction(shown[subject].probability or "0") == rate, subject
    assert any(rate == 0 for rate in want.values()) or all(f.passed for f in shown.values())


def test_simulated_rates_hold_the_exact_ones_and_unseen_entries_say_so():
    game = slotmath.load_game(TINY).with_analysis(method="simulate", rounds=1 << 14, seed=3)
    want = reference_rates(slotmath.load_game(TINY))
    shown = pay_rows(check(game, ["gli11"]))
    assert set(shown) == set(want)
    for subject, rate in want.items():
        f = shown[subject]
        assert f.note.startswith("simulated:"), f.note
        if f.value:
            error = float(f.note.split("+- ")[1].split(" ")[0])
            assert abs(f.value - float(rate)) <= 2.1 * error, (subject, f.value, float(rate))
        else:
            assert "not seen in 16,384 paid rounds" in f.note and not f.passed
    top = next(f for f in check(game, ["gli11"]).findings if f.rule == "GLI-11 odds: top award")
    assert "largest win seen" in top.note and not top.passed
