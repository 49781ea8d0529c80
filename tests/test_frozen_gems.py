"""The bundled Frozen Gems game (data/games/frozen_gems.toml, issue 9): it loads, it follows
every rule of the rule sheet (/work/shared/seeds/002_eb1fc64a3c198f90.txt), and a seeded
simulation through the cascade simulator's own kernel agrees with the exact figures recorded in
the file's header within its confidence bound (the light-tailed parts; see below why not the total),
and rejects a multiplier that does not reset.

The exact RTP (every base and free stop combination x every bonus arrangement, each chain to its
end) is recomputed once here and must equal, to the last digit of its ~530-digit fraction, the
one the header records: written by the code of issue 9 (two independent exact runs, minutes
each then), which shares nothing with today's merged tables and compiled chains. The game stays
out of the generic suites (tests/bundled.py ``BENCHMARK_ONLY`` says why)."""

from __future__ import annotations

import math
import re
import tomllib
from collections import Counter
from fractions import Fraction
from pathlib import Path

import pytest
from test_simulate_cascades import game_with_rules

import slotmath
from slotmath.simulate.cascades import simulate_cascades

PATH = Path(__file__).resolve().parents[1] / "data" / "games" / "frozen_gems.toml"
Z = 4.0
SPINS = 300_000
SEED = 9


@pytest.fixture(scope="module")
def game():
    return slotmath.load_game(PATH)


@pytest.fixture(scope="module")
def data():
    return tomllib.loads(PATH.read_text())


def header_rtp() -> Fraction:
    """The exact RTP the header records (``#   total RTP  N/D``, the whole fraction)."""
    m = re.search(r"^#\s+total RTP\s+(\d+)/(\d+)", PATH.read_text(), re.MULTILINE)
    assert m, f"{PATH}: no '#   total RTP N/D' line in the header"
    return Fraction(int(m.group(1)), int(m.group(2)))


def test_header_rtp_is_the_published_one():
    assert abs(header_rtp() - Fraction(9636, 10000)) <= Fraction(1, 10000)


def test_five_by_three_ways(game):
    assert game.ways and game.paylines is None
    assert game.n_reels == 5 and tuple(game.rows) == (3,) * 5


def test_strips_at_least_40_stops(game):
    for name in ("base", "free"):
        for reel in game.reel_sets[name].reels:
            assert len(reel.symbols) >= 40, name


def test_cascade_multiplier_starts_at_1_grows_by_1_and_carries(game):
    rule = game.cascades.multiplier
    assert [rule.value(k) for k in range(6)] == [1, 2, 3, 4, 5, 6]
    assert rule.max is None
    assert game.cascades.free_multiplier is None  # the same +1 ladder in free spins
    assert game.cascades.carry_multiplier
    assert game.free_spins.multiplier == 1


def test_bonus_symbols_as_the_sheet_says(game):
    b = game.bonus_symbols
    assert b.threshold == 3 and b.shuffle
    effects = {n: (e.wild, e.split) for n, e in b.effects.items()}
    assert sorted(effects.values(), key=str) == sorted(
        [("WILD", 1), (None, 2), (None, 3)], key=str)
    assert game.symbols["WILD"].wild
    kinds = {n: ("wild" if e.wild else f"x{e.split}") for n, e in b.effects.items()}
    drawn = sorted(tuple(sorted(Counter(kinds[s] for s in symbols).items()))
                   for _weight, symbols in b.arrangements)
    assert drawn == sorted([
        (("wild", 2), ("x2", 2), ("x3", 1)),   # two x2, two BONUS WILDS, one x3
        (("wild", 1), ("x2", 2), ("x3", 2)),   # two x2, one BONUS WILD, two x3
    ])
    assert all(w > 0 for w, _ in b.arrangements)


def test_max_ways_8748(game):
    split = {n: e.split for n, e in game.bonus_symbols.effects.items()}
    best = max(
        math.prod(3 * split[s] for s in symbols)
        for _w, symbols in game.bonus_symbols.arrangements)
    assert best == 8748 == 6 * 6 * 9 * 9 * 3


def test_scatter_pays_5x_per_scatter_from_3(game):
    sc = game.symbols[game.free_spins.trigger]
    assert sc.scatter
    window = 15
    assert {n: sc.pays.get(n, 0) for n in range(1, window + 1)} == {
        n: (5 * (n - 2) if n >= 3 else 0) for n in range(1, window + 1)}


def test_frozen_spins_9_plus_1_per_scatter_max_50(game):
    fs = game.free_spins
    assert fs.reels == "free" and fs.retrigger and not fs.scatter_pays
    assert fs.max_spins == 50
    assert dict(fs.awards) == {3: 9}  # 3 or more scatters: 9 spins (the highest listed)
    assert all(fs.retrigger_for(n) == n for n in range(1, 16))


def header_component(name: str) -> Fraction:
    """An exact component the header records (``#   <name> ... N/D = 0.xxx``)."""
    m = re.search(rf"^#\s+{name}\b.*?\s(\d+)/(\d+) =", PATH.read_text(), re.MULTILINE)
    assert m, f"{PATH}: no exact '{name}' line in the header"
    return Fraction(int(m.group(1)), int(m.group(2)))


@pytest.fixture(scope="module")
def analysis(game):
    return slotmath.analyze(game)  # the exact RTP and components (~11 s CPU on a quiet machine)


def test_exact_rtp_and_components_equal_the_header(analysis):
    assert analysis.exact
    assert analysis.rtp == header_rtp()  # the whole fraction (header line 17)
    for name in ("ways", "cascades", "scatter"):
        assert analysis.components[name] == header_component(name), name
    assert set(analysis.components) == {"ways", "cascades", "scatter", "free_spins"}


def test_header_components_add_up_to_less_than_the_rtp():
    parts = [header_component(n) for n in ("ways", "cascades", "scatter")]
    assert all(p > 0 for p in parts) and sum(parts) < header_rtp()


def test_simulation_agrees_with_the_exact_light_tailed_parts(data):
    """Seeded simulation (its own kernel; rules built from the TOML dict, see
    test_simulate_cascades.game_with_rules) against the exact first-drop ways win and scatter
    pay, each within Z of its standard error.

    The total RTP is not checked this way: about 1 paid spin in 10^5 frees two bonus wilds on
    reels 1-3 or a bonus wild with splits, and such a chain runs tens of drops at a multiplier of
    tens, paying thousands of bets. A few hundred thousand rounds see a handful of them or none,
    so their sample standard error is no bound (seeds 1 and 3 fall 5-6 "standard errors" short).
    benchmarks/bench_frozen_gems.py --simulate checks the total with tens of millions of rounds."""
    sim_game = game_with_rules(data)
    r = simulate_cascades(sim_game, SPINS, SEED)
    for part, exact in (("first_drop", header_component("ways")),
                        ("scatter", header_component("scatter"))):
        se = r.component_std_errors[part]
        assert abs(getattr(r, part) - float(exact)) <= Z * se, (part, getattr(r, part), se)


def test_simulation_rejects_a_multiplier_that_does_not_reset(data):
    """The seeded mutation (the paid spins' multiplier never resets) must fail the check."""
    sim_game = game_with_rules(data)
    r = simulate_cascades(sim_game, SPINS // 3, SEED, _reset_multiplier=False)
    assert abs(r.rtp - float(header_rtp())) > Z * r.std_error
