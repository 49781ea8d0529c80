"""The conveyor simulator's numba kernels (slotmath/simulate/_conveyor_kernels.py):

* their PCG64 and ``integers(total)`` are NumPy's, draw for draw, and their weighted choice is
  the rules' walk;
* they play exactly what the pure-Python player of main 6731a74 played: figures recorded from
  it, bit for bit;
* a line's pay from the table and from the pay-table walk is PayModel's;
* per visible conveyor state, the simulated mean of each component (lines, spreads, coins,
  free spins) agrees with the exact analysis (slotmath.features.conveyor, which shares no code
  with the simulator) within a Bonferroni bound, and so does the share of rounds with each
  bauble in each slot; the seeded kernel mutations (the conveyor read right to left, a spread
  without its corners, baubles that never move) fail that check.
"""

from __future__ import annotations

import itertools
import math
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import slotmath
from slotmath.errors import GameFileError
from slotmath.evaluate.window import PayModel
from slotmath.features.conveyor import ConveyorFeature
from slotmath.io.toml_loader import loads_game
from slotmath.simulate import _conveyor_kernels as K
from slotmath.simulate import conveyor
from slotmath.simulate._pcg64 import rng_state
from slotmath.simulate.conveyor import (
    COMPONENTS,
    _pay_arrays,
    _simulate,
    _tables,
    simulate_conveyor,
    simulate_from_reset,
)

ROOT = Path(__file__).resolve().parents[1]
TINY = ROOT / "tests" / "data" / "conveyor_tiny.toml"
JINGLE = ROOT / "data" / "games" / "jingle_spin.toml"
TEXT = TINY.read_text()
CONSUMING = TEXT.replace("empty_weight = 2\n", "empty_weight = 2\nconsume_on_activation = true\n")
BASE = 'base = [["A", "B", "C", "C"], ["B", "A", "C", "B", "C"], ["C", "B", "A", "C"]]'
WEIGHTED = TEXT.replace(BASE, 'base = [{ strip = ["A", "B", "C", "C"], weights = [1, 3, 2, 1] }, '
                        '{ strip = ["B", "A", "C", "B", "C"], weights = [2, 1, 1, 4, 1] }, '
                        '{ strip = ["C", "B", "A", "C"], weights = [1, 1, 5, 2] }]')


# -- the random numbers (the generator itself: tests/test_pcg64.py) -------------------------
@pytest.mark.parametrize("weights", [[1], [0, 3, 0, 1], [5, 0, 0, 2, 7, 1], [1] * 37,
                                     [2**33, 1, 2**35]])
def test_a_weighted_choice_is_the_rules_walk(weights):
    generator = np.random.Generator(np.random.PCG64(9))
    rs = rng_state(generator)
    out = np.empty(2000, dtype=np.int64)
    K.picks(rs, np.cumsum(np.array(weights, dtype=np.int64)), len(weights), out)
    expected = []
    for _ in range(len(out)):
        x = generator.integers(sum(weights))
        for i, w in enumerate(weights):
            if x < w:
                expected.append(i)
                break
            x -= w
    assert out.tolist() == expected


# -- the same spins as the Python player ----------------------------------------------------
# Recorded from main 6731a74 (the pure-Python player): rtp, std_error, components,
# free spins awarded in all, the top round (float.hex()).
RECORDED = {
    "tiny": ["0x1.0c790f3f086b7p+3", "0x1.fe71d9753de33p-3", [
        "0x1.aa706995f588ep+0", "0x1.5fa89e60f04c2p+1", "0x1.46d3a06d3a06dp-1",
        "0x1.ab4e81b4e81b6p+1"], 1047, "0x1.c555555555556p+6"],
    "consumed": ["0x1.62d65b7a32847p+2", "0x1.51167918bfcb7p-3", [
        "0x1.90a3d70a3d6f7p+0", "0x1.7d27d27d27d28p+0", "0x1.bab596de8ca12p-2",
        "0x1.07702f54e0d35p+1"], 775, "0x1.3aaaaaaaaaaabp+6"],
    "unmoving": ["0x1.2e22222222222p+2", "0x1.f719bbf21d67ap-3", [
        "0x1.b9db22d0e55ecp+0", "0x1.92c5f92c5f926p-1", "0x1.2f1a9fbe76c8bp-2",
        "0x1.e983c131d5acbp+0"], 361, "0x1.cd55555555555p+7"],
    "jingle": ["0x1.0b44ad1fcff0cp+0", "0x1.6c9f619b77eacp-4", [
        "0x1.436bff74309bap-1", "0x1.83afb7e90ff97p-4", "0x1.f92c5f92c5f90p-4",
        "0x1.8e075f6fd2201p-3"], 228, "0x1.f49999999999ap+6"],
    "jingle_level3": ["0x1.9212d77318fc5p-1", "0x1.3220aff475798p-4", [
        "0x1.1bf487fcb9235p-1", "0x1.23d70a3d70a3dp-4", "0x1.c63f141205bc1p-4",
        "0x1.8db8bac710cb3p-5"], 56, "0x1.5333333333333p+5"],
    "reset": [["0x1.ea61d950c83f9p+0", "0x1.3c3b2a1907f6cp+2", "0x1.49d0369d0369bp+2",
               "0x1.1d950c83fb72cp+3"],
              ["0x1.773fa6fbd8877p-3", "0x1.44608ae552810p-1", "0x1.c8b58bedaadb6p-2",
               "0x1.9d1bb6f453e89p-1"]],
    "reset_unmoving": [["0x1.a7ae147ae147bp+0", "0x1.ad70a3d70a3d4p+1", "0x1.beb851eb851e8p+1"],
                       ["0x1.66bdad56000d6p-3", "0x1.6dfbdde8a05eap-2",
                        "0x1.6bfe5333bc627p-2"]],
}


def _figures(s):
    return [s.rtp.hex(), s.std_error.hex(), [v.hex() for v in s.components.values()],
            int(s.awarded.sum()), float(s.wins.max()).hex()]


def _runs(mutation=""):
    jingle = slotmath.load_game(JINGLE)
    tiny = loads_game(TEXT)
    return {
        "tiny": lambda: _simulate(tiny, 3000, seed=7, mutation=mutation),
        "consumed": lambda: _simulate(loads_game(CONSUMING), 3000, seed=8, mutation=mutation),
        "unmoving": lambda: _simulate(tiny, 2000, seed=2, moving=False, mutation=mutation),
        "jingle": lambda: _simulate(jingle, 3000, seed=3, mutation=mutation),
        "jingle_level3": lambda: _simulate(jingle, 1000, seed=5, level=3, mutation=mutation),
    }


def test_the_same_figures_as_the_python_player_bit_for_bit():
    for name, run in _runs().items():
        assert _figures(run()) == RECORDED[name], name
    m, e = simulate_from_reset(loads_game(TEXT), 300, 4, seed=11)
    assert [[x.hex() for x in m], [x.hex() for x in e]] == RECORDED["reset"]
    m, e = simulate_from_reset(loads_game(CONSUMING), 200, 3, seed=12, moving=False)
    assert [[x.hex() for x in m], [x.hex() for x in e]] == RECORDED["reset_unmoving"]


@pytest.mark.parametrize("mutation", ["reversed", "cross"])
def test_a_mutated_kernel_does_not_give_the_recorded_figures(mutation):
    differs = [name for name, run in _runs(mutation).items()
               if _figures(run()) != RECORDED[name]]
    assert set(differs) >= {"tiny", "jingle"}


def test_the_window_and_the_pay_table_walk_play_what_the_line_columns_play(monkeypatch):
    """The three ways to a spin's line wins: per-reel line codes (the default), the window's
    cells summed into each line's code, and each line walking the pay table."""
    game = slotmath.load_game(JINGLE)
    columns = simulate_conveyor(game, 20_000, seed=4)
    assert _tables(game, 1, True).params[K.P_COLUMNS]
    walked = _simulate(game, 20_000, seed=4, table_limit=0)
    assert np.array_equal(columns.wins, walked.wins)
    monkeypatch.setattr(conveyor, "_COLUMN_LIMIT", 0)
    assert not _tables(game, 1, True).params[K.P_COLUMNS]
    window = simulate_conveyor(game, 20_000, seed=4)
    assert np.array_equal(columns.wins, window.wins)


@pytest.mark.parametrize("text", [WEIGHTED, JINGLE.read_text()], ids=["weighted", "jingle"])
def test_stops_by_binary_search_play_what_the_look_up_plays(text, monkeypatch):
    game = loads_game(text)
    looked_up = simulate_conveyor(game, 20_000, seed=4)
    monkeypatch.setattr(K, "STOP_TABLE", 0)  # every reel by its cumulative weights
    searched = simulate_conveyor(game, 20_000, seed=4)
    assert np.array_equal(looked_up.wins, searched.wins)


# -- line pays --------------------------------------------------------------------------------
def _line_cases():
    lines = ROOT / "data" / "games" / "tiny_lines.toml"
    added = loads_game('line_multipliers = "add"\n' + lines.read_text())
    assert added.line_multipliers == "add"
    return [(slotmath.load_game(TINY), 1), (slotmath.load_game(lines), 1), (added, 1),
            (slotmath.load_game(ROOT / "data" / "games" / "classic_3reel.toml"), 3),
            (slotmath.load_game(JINGLE), 2)]


@pytest.mark.parametrize("case", range(5))
def test_line_pays_are_paymodels(case):
    """Groups, multiplier wilds (multiplied and added), bet-level pays: the table (every
    symbol sequence) and the walk against PayModel.line_win."""
    game, level = _line_cases()[case]
    model = PayModel(game, level)
    symbols = list(game.symbols)
    n = game.n_reels
    member, key_pay, multiplier, added = _pay_arrays(model, symbols, n)
    table = K.line_table(len(symbols), n, member, key_pay, multiplier, added)
    sequences = list(itertools.product(range(len(symbols)), repeat=n))
    if len(sequences) > 5000:
        pick = np.random.default_rng(case).choice(len(sequences), 5000, replace=False)
        sequences = [sequences[i] for i in pick]
    paying = 0
    for seq in sequences:
        expected = model.line_win([symbols[s] for s in seq]).credits
        code = sum(s * len(symbols) ** (n - 1 - j) for j, s in enumerate(seq))
        assert table[code] == expected, seq
        paying += expected > 0
    assert paying > 0


# -- per visible state against the exact analysis ---------------------------------------------
Z = 5.0  # about 1,700 comparisons per game: P(any |z| > 5) < 1e-3 when the kernel is right
MIN_VISITS = 1000  # per-state means over fewer rounds are left to the slot-by-slot sums


def _disagreements(game, sim, figures=None) -> list[str]:
    """Each way the simulated rounds disagree with the exact analysis (beyond Z standard
    errors):

    * per visible state and component: the mean over the rounds starting from it (rounds
      given their starting state are independent by the Markov property, so the plain
      standard error holds);
    * per slot, bauble kind and component: the sum of the rounds' residuals (simulated minus
      the exact mean of their starting state; martingale differences, so the standard error
      is the root of the sum of their squares);
    * per slot and bauble kind: the share of rounds starting with it (batch means).
    """
    figures = figures or ConveyorFeature(game).analyze()
    feature = figures.feature
    n, K1 = feature.n, len(feature.kinds) + 1
    kind = np.array([0] + [feature.kinds.index(b) + 1 for b, _ in game.conveyor.wheel])
    codes = kind[sim.states]  # the engine's kind code of each slot of each round's start
    key = codes @ (K1 ** np.arange(n - 1, -1, -1))
    row = np.full(K1**n, -1)
    for i, s in enumerate(figures.states):
        row[sum(k * K1 ** (n - 1 - j) for j, k in enumerate(s))] = i
    out = []
    if np.any(row[key] < 0):
        out.append(f"{np.sum(row[key] < 0)} rounds start from states the exact law never has")
        return out
    exact = np.array([[float(v[i]) for v in figures.by_state.values()]
                      for i in range(len(figures.states))])
    assert list(figures.by_state) == list(COMPONENTS)
    residual = sim.parts - exact[row[key]]
    order = np.argsort(key, kind="stable")
    bounds = np.flatnonzero(np.diff(key[order])) + 1
    for group in np.split(order, bounds):
        if len(group) < MIN_VISITS:
            continue
        r = residual[group]
        mean, se = r.mean(axis=0), r.std(axis=0, ddof=1) / math.sqrt(len(group))
        state = feature.describe(figures.states[row[key[group[0]]]])
        for c, name in enumerate(COMPONENTS):
            if (se[c] == 0 and abs(mean[c]) > 1e-9) or abs(mean[c]) > Z * se[c]:
                out.append(f"{name} | state {state}: {mean[c]:+.4g} +- {se[c]:.2g}")
    labels = ["empty"] + [b.label for b in feature.kinds]
    law = figures.slot_law()
    for j in range(n):
        sums = [np.bincount(codes[:, j], residual[:, c], K1) for c in range(len(COMPONENTS))]
        scale = [np.sqrt(np.bincount(codes[:, j], residual[:, c] ** 2, K1))
                 for c in range(len(COMPONENTS))]
        for k in range(K1):
            for c, name in enumerate(COMPONENTS):
                if abs(sums[c][k]) > max(Z * scale[c][k], 1e-9):
                    out.append(f"{name} | slot {j + 1} {labels[k]}: residual sum "
                               f"{sums[c][k]:+.4g} +- {scale[c][k]:.2g}")
            where = codes[:, j] == k
            p = float(law[j][labels[k]])
            share, se = sim.share(where)
            if abs(share - p) > Z * max(se, math.sqrt(p * (1 - p) / len(where))):
                out.append(f"law | slot {j + 1} holds {labels[k]}: {share:.5f} +- {se:.2g} vs "
                           f"{p:.5f}")
    return out


SPINS = 600_000
# no surprise baubles (no surprise law), free spins on the paid spins' strips
PLAIN = (TEXT.replace("surprise = { spreading_wild = 1, free_spins = 1, coin_win = 2 }\n", "")
         .replace('  { feature = "surprise", weight = 1 },\n', "")
         .replace('reels = "free"', 'reels = "base"'))
GAMES = {"kept": TEXT, "consumed": CONSUMING, "weighted": WEIGHTED, "plain": PLAIN}
SEEDS = {"kept": 21, "consumed": 22, "weighted": 23, "plain": 24}


@pytest.mark.parametrize("name", list(GAMES))
def test_per_state_figures_agree_with_the_exact_analysis(name):
    game = loads_game(GAMES[name])
    assert (name == "plain") == (not game.conveyor.surprise)
    sim = simulate_conveyor(game, SPINS, seed=SEEDS[name], states=True)
    assert _disagreements(game, sim) == []


@pytest.mark.parametrize("name", ["kept", "consumed"])  # (each fails on the other two too)
@pytest.mark.parametrize("mutation", ["reversed", "cross", "unmoving"])
def test_a_mutated_kernel_fails_the_per_state_check(name, mutation):
    game = loads_game(GAMES[name])
    sim = _simulate(game, SPINS, seed=SEEDS[name], states=True, moving=mutation != "unmoving",
                    mutation="" if mutation == "unmoving" else mutation)
    found = _disagreements(game, sim)
    assert found != []
    wrong = {f.split(" | ")[0] for f in found}
    if mutation == "cross":  # only the spreads' extra pay is wrong (in free spins too)
        assert "spreading_wild" in wrong and wrong <= {"spreading_wild", "free_spins"}, found


def test_states_and_parts_are_what_the_run_played():
    game = loads_game(TEXT)
    sim = simulate_conveyor(game, 5000, seed=3, states=True)
    assert np.array_equal(sim.parts.sum(axis=1), sim.wins)
    assert sim.states.shape == (5000, 3) and sim.states.max() <= len(game.conveyor.wheel)
    # kept baubles move one slot left per paid spin: slot j+1 before is slot j after
    assert np.array_equal(sim.states[1:, :-1], sim.states[:-1, 1:])
    plain = simulate_conveyor(game, 5000, seed=3)
    assert plain.states is None and np.array_equal(plain.wins, sim.wins)


# -- random small conveyors -------------------------------------------------------------------
_weights = st.lists(st.integers(0, 4), min_size=3, max_size=3).filter(lambda w: w[0] > 0)


@settings(max_examples=4, deadline=None, suppress_health_check=list(HealthCheck))
@given(wilds=st.lists(_weights, min_size=3, max_size=3),
       wheel=st.lists(st.integers(0, 3), min_size=6, max_size=6).filter(lambda w: sum(w) > 0),
       empty=st.integers(0, 3), consume=st.booleans(),
       # a spreading wild with weight 0 on the wheel and in the surprise law; the other two
       # features keep a weight (the exact engine's surprise law divides by zero for a
       # feature weighing 0 whose baubles all weigh 0 on the wheel: a defect outside the
       # simulator, reported)
       surprise=st.tuples(st.integers(0, 3), st.integers(1, 3), st.integers(1, 3)),
       stops=st.lists(st.integers(1, 4), min_size=13, max_size=13))
def test_random_small_conveyors_per_state(wilds, wheel, empty, consume, surprise, stops):
    text = TEXT.replace(BASE, f'base = [{{ strip = ["A", "B", "C", "C"], weights = '
                        f'{stops[:4]} }}, {{ strip = ["B", "A", "C", "B", "C"], weights = '
                        f'{stops[4:9]} }}, {{ strip = ["C", "B", "A", "C"], weights = '
                        f'{stops[9:]} }}]')
    text = text.replace("weights = [[6, 1, 1], [5, 2, 1], [4, 1, 2]]", f"weights = {wilds}")
    text = text.replace("empty_weight = 2\n", f"empty_weight = {empty}\n"
                        f"consume_on_activation = {str(consume).lower()}\n")
    text = text.replace("surprise = { spreading_wild = 1, free_spins = 1, coin_win = 2 }",
                        f"surprise = {{ spreading_wild = {surprise[0]}, free_spins = "
                        f"{surprise[1]}, coin_win = {surprise[2]} }}")
    lines = text.splitlines()
    at = [i for i, line in enumerate(lines) if "weight = " in line and "{ feature" in line]
    for i, w in zip(at, wheel):
        lines[i] = lines[i].rsplit("weight = ", 1)[0] + f"weight = {w} }},"
    try:
        game = loads_game("\n".join(lines))
    except GameFileError:  # e.g. a surprise turning into a feature no longer on the wheel
        return
    sim = simulate_conveyor(game, 300_000, seed=5, states=True)
    assert _disagreements(game, sim) == []


def test_the_progress_bar_s_chunks_play_the_same_rounds(capsys):
    game = loads_game(CONSUMING)
    whole = simulate_conveyor(game, 150_000, seed=6, states=True)
    chunked = simulate_conveyor(game, 150_000, seed=6, states=True, progress=True)
    assert np.array_equal(whole.parts, chunked.parts)
    assert np.array_equal(whole.states, chunked.states)
    assert np.array_equal(whole.awarded, chunked.awarded)
    assert "conveyor spins" in capsys.readouterr().err
