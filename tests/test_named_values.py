"""Named hold & win values (a Link game's fixed jackpots, ``named_values``) and the named full
grid (``full_grid_name``): their odds per paid round against a plain recursion written here
(the respins over (held, respins left), each empty cell landing with its probability, and the
paid spin's start counts by enumerating the strips), sharing no code with the engine; and the
loader's refusals."""

from __future__ import annotations

import itertools
import math
from fractions import Fraction
from pathlib import Path

import pytest

import slotmath
from slotmath.errors import GameFileError
from slotmath.io.toml_loader import loads_game
from slotmath.report.hold_and_win import named_odds
from slotmath.report.simulation import simulation_dict, simulation_text

ROOT = Path(__file__).resolve().parents[1]
FIXTURE = ROOT / "tests" / "data" / "stake_hold_and_win.toml"
NAMES = '\nnamed_values = { BIG = 20, SMALL = 1 }\nfull_grid_name = "GRAND"\n'


def named_text(extra: str = NAMES) -> str:
    text = FIXTURE.read_text()
    return text.replace("full_grid_prize = 30\n", "full_grid_prize = 30" + extra, 1)


def end_law(held: int, cells: int, respins: int, p: Fraction) -> dict[int, Fraction]:
    """Law of the cash symbols held when the round ends, by plain recursion."""
    out: dict[int, Fraction] = {}

    def walk(h: int, left: int, mass: Fraction) -> None:
        if left == 0 or h == cells:
            out[h] = out.get(h, Fraction(0)) + mass
            return
        empty = cells - h
        for k in range(empty + 1):
            q = math.comb(empty, k) * p**k * (1 - p) ** (empty - k)
            if k:
                walk(h + k, respins, mass * q)
            else:
                walk(h, left - 1, mass * q)

    walk(held, respins, Fraction(1))
    return out


def start_law(game) -> dict[int, Fraction]:
    """Per paid round, P(the paid window shows h cash symbols), h >= trigger."""
    reels = game.reel_sets["base"].reels
    rows = game.rows[0]
    counts: dict[int, int] = {}
    n = 0
    for stops in itertools.product(*(range(len(r.symbols)) for r in reels)):
        h = sum(r.symbols[(s + i) % len(r.symbols)] == "O"
                for r, s in zip(reels, stops) for i in range(rows))
        counts[h] = counts.get(h, 0) + 1
        n += 1
    return {h: Fraction(c, n) for h, c in counts.items() if h >= game.hold_and_win.trigger}


def test_named_odds_equal_the_plain_recursion():
    game = loads_game(named_text(), "named.toml")
    a = slotmath.analyze(game)
    got = {r["name"]: r for r in named_odds(a)}
    spec = game.hold_and_win
    cells = spec.reels * spec.rows
    mixed: dict[int, Fraction] = {}
    for h, p in start_law(game).items():
        for n, q in end_law(h, cells, spec.respins, spec.cash_probability).items():
            mixed[n] = mixed.get(n, Fraction(0)) + p * q
    total = sum(spec.value_weights)
    for name, weight in (("BIG", 1), ("SMALL", 6)):
        q = Fraction(weight, total)
        assert got[name]["at_least_one"] == sum(m * (1 - (1 - q) ** n) for n, m in mixed.items())
        assert got[name]["expected"] == sum(m * n * q for n, m in mixed.items())
    assert got["GRAND"]["at_least_one"] == mixed.get(cells, 0) > 0
    doc = slotmath.report.analysis_dict(a)["hold_and_win"]["named"]
    assert set(doc) == {"BIG", "SMALL", "GRAND"} and doc["GRAND"]["full_grid"]
    assert Fraction(doc["BIG"]["rounds_showing_it"]["exact"]) == got["BIG"]["at_least_one"]


def test_a_game_without_names_reports_none():
    a = slotmath.analyze(slotmath.load_game(FIXTURE))
    assert named_odds(a) == [] and "named" not in slotmath.report.analysis_dict(a)["hold_and_win"]


@pytest.mark.parametrize("extra, says", [
    ("\nnamed_values = { BIG = 7 }\n", "must be one of values"),
    ("\nnamed_values = { BIG = 20, HUGE = 20 }\n", "names one value twice"),
    ('\nfull_grid_name = "GRAND"\nnamed_values = { GRAND = 20 }\n', "is also a named value"),
    ("\nnamed_values = [20]\n", "must be a table of names"),
    ("\nfull_grid_name = 3\n", "must be a name"),
])
def test_bad_names_are_one_clear_error(extra, says):
    with pytest.raises(GameFileError, match=says):
        loads_game(named_text(extra), "named.toml")


def test_a_named_value_under_a_values_booster_is_refused():
    text = named_text("\nnamed_values = { BIG = 20 }\n") + (
        '\n[hold_and_win.boosters.values]\nprobability = "1/10"\n')
    with pytest.raises(GameFileError, match="values booster"):
        loads_game(text, "named.toml")


def test_the_hold_and_win_panel_shows_the_named_odds_of_its_edited_rules():
    """The panel's figures (its lowest value's weight moved, the cash probability kept) show
    each name's 1 in N as the plain recursion gives it for the edited weights."""
    from slotmath.widgets.hold_and_win_panel import edited_spec, figures_html

    game = loads_game(named_text(), "named.toml")
    a = slotmath.analyze(game)
    spec = game.hold_and_win
    low = 3 * spec.value_weights[0]
    edited = edited_spec(spec, round(1 / spec.cash_probability), {}, low)
    assert edited.cash_probability == spec.cash_probability
    page = figures_html(edited, a)
    cells = spec.reels * spec.rows
    mixed: dict[int, Fraction] = {}
    for h, p in start_law(game).items():
        for n, q in end_law(h, cells, spec.respins, spec.cash_probability).items():
            mixed[n] = mixed.get(n, Fraction(0)) + p * q
    weights = (low, *spec.value_weights[1:])
    for name, value in (("BIG", 20), ("SMALL", 1)):
        q = Fraction(weights[spec.values.index(value)], sum(weights))
        some = sum(m * (1 - (1 - q) ** n) for n, m in mixed.items())
        assert f"{name} ({value} x bet) shows in a paid round" in page
        assert f"1 in {1 / float(some):,.0f}<" in page, (name, page)
    assert "GRAND (30 x bet) shows in a paid round" in page
    assert f">1 in {1 / float(mixed[cells]):,.0f}<" in page


def test_the_simulator_counts_the_named_values_the_analysis_predicts():
    """The round simulator's named values per paid round (its kernel counts the held cells
    that show each named value at the end; report.hold_and_win.simulation) against the exact
    odds, within 4.5 binomial standard errors; the other name's exact figure lies far
    outside, so the check can fail."""
    game = loads_game(named_text(), "named.toml")
    exact = {r["name"]: r for r in named_odds(slotmath.analyze(game))}
    n = 300_000
    result = slotmath.simulate(game, n, seed=7)
    doc = simulation_dict(result, game)["hold_and_win_named_values"]
    got = {r["name"]: r for r in doc}
    assert list(got) == ["BIG", "SMALL", "GRAND"] and got["GRAND"]["full_grid"]

    def z(p_sim, p):
        return abs(p_sim - p) / math.sqrt(p * (1 - p) / n)

    for name, row in got.items():
        p = float(exact[name]["at_least_one"])
        assert z(row["at_least_one"], p) < 4.5, (name, row, p)
        assert row["one_in"] == pytest.approx(1 / row["at_least_one"])
    assert z(got["BIG"]["at_least_one"], float(exact["SMALL"]["at_least_one"])) > 4.5
    # the mean shown: a count per round, its SD below sqrt(E[N^2]) <= cells * sqrt(p)
    cells = game.hold_and_win.reels * game.hold_and_win.rows
    for name in ("BIG", "SMALL"):
        mean = float(exact[name]["expected"])
        assert abs(got[name]["expected"] - mean) < 4.5 * cells * math.sqrt(mean / n)
    text = simulation_text(result, game)
    assert "BIG" in text and "GRAND" in text


def test_a_simulation_of_a_game_without_names_reports_none():
    game = slotmath.load_game(FIXTURE)
    result = slotmath.simulate(game, 10_000, seed=1)
    assert result.details == {}
    assert "hold_and_win_named_values" not in simulation_dict(result, game)
