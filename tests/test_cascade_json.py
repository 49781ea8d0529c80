"""``slotmath analyze --json`` of a cascading game with frozen bonus symbols and free spins
carrying the multiplier (issue 9's keys), on the small game tests/data/cascades/
tiny_free_spins.toml; and the multiplier carried into each free spin against a brute-force
forward pass that keeps the index in its state.

The bundled Frozen Gems takes minutes to analyse: its JSON is checked by hand in the closing
note, not here; this game has the same sections (ways, cascades, bonus symbols, carried free
spins with retriggers and a cap).
"""

from __future__ import annotations

import json
from collections import defaultdict
from fractions import Fraction
from pathlib import Path

import pytest

import slotmath
from slotmath import report
from slotmath.plot import carried_multiplier_data, cascade_count_data, cascade_win_data
from slotmath.report.figures import is_figure, read_figure

GAME = Path(__file__).parent / "data" / "cascades" / "tiny_free_spins.toml"


@pytest.fixture(scope="module")
def analysis():
    return slotmath.analyze(slotmath.load_game(GAME))


@pytest.fixture(scope="module")
def doc(analysis):
    return json.loads(json.dumps(report.analysis_dict(analysis), default=str))


def _leaves(doc, path=""):
    if is_figure(doc):
        yield path, doc
    elif isinstance(doc, dict):
        for k, v in doc.items():
            yield from _leaves(v, f"{path}.{k}")
    elif isinstance(doc, list):
        for i, v in enumerate(doc):
            yield from _leaves(v, f"{path}.{i}")
    else:
        yield path, doc


def test_issue_keys(doc, analysis):
    game = analysis.game
    assert is_figure(doc["rtp"]) and doc["rtp"]["exact"] is not None
    assert doc["rtp_float"] == float(Fraction(doc["rtp"]["exact"]))
    assert set(doc["components"]) == {"ways", "cascades", "scatter", "free_spins"}
    total = sum((read_figure(v) for v in doc["components"].values()), Fraction(0))
    assert total == read_figure(doc["rtp"])
    assert doc["free_spins"]["max_spins"] == game.free_spins.max_spins == 6
    c = doc["cascades"]
    for key in ("cascade_counts", "final_multiplier", "freed", "ways_in_play",
                "free_spins_multiplier", "free_spins_win", "methods"):
        assert c[key], key
    for key in ("cascade_counts", "final_multiplier", "ways_in_play"):
        assert sum(read_figure(v) for v in c[key].values()) == 1, key
    # scatter rows (computed once, in report.cascades) add up to the scatter component
    assert sum(read_figure(r["rtp"]) for r in doc["scatters"]) == read_figure(
        doc["components"]["scatter"])
    assert sum(read_figure(r["probability"]) for r in doc["scatters"]) == 1


def test_max_ways_is_the_largest_product_the_arrangements_allow(doc, analysis):
    """Max ways from the rule alone: every reel freed, rows x split per reel (a wild reel
    keeps its rows), the best arrangement; it is reached with a positive probability."""
    game = analysis.game
    b = game.bonus_symbols
    rows = game.rows[0]
    best = 0
    for _weight, symbols in b.arrangements:
        ways = 1
        for s in symbols:
            ways *= rows * (b.effects[s].split or 1)
        best = max(best, ways)
    assert doc["max_ways"] == doc["cascades"]["max_ways"] == best == 32
    assert read_figure(doc["cascades"]["max_ways_probability"]) > 0
    assert doc["cascades"]["ways_in_play"][str(best)] == doc["cascades"]["max_ways_probability"]


def test_every_figure_states_exact_or_numerical(doc):
    """Every probability of the cascades object is a figure; the exact ones are exact, the
    sampled quantiles are numerical and carry their bound."""
    c = doc["cascades"]
    figures = [v for _p, v in _leaves(c) if is_figure(v)]
    assert len(figures) > 30
    for path, value in _leaves(c):
        if isinstance(value, float):
            assert path in (".free_spins_win.cdf_bound",), f"{path} is a bare float"
    exact_parts = ("cascade_counts", "final_multiplier", "freed", "ways_in_play",
                   "free_spins_multiplier")
    for key in exact_parts:
        for _p, v in _leaves(c[key]):
            if is_figure(v):
                assert v["exact"] is not None, key
    win = c["free_spins_win"]
    assert win["mean"]["exact"] is not None
    assert all(q["exact"] is None for q in win["quantiles_x_bet"].values())
    assert win["quantiles_exact"] is False and 0 < win["cdf_bound"] < 0.01
    assert set(c["methods"]) == {"exact", "numerical"}


def brute_force_carried(chain, starts, carry):
    """Forward over (spins left, spins awarded, index): P(spin j played) and
    E[index carried into spin j; played], mixed over the starts, from the per-spin law."""
    spec = chain.spec
    outcomes = defaultdict(Fraction)
    for (_y, _a, n, c), w in chain.spin.items():
        outcomes[(n, c)] += Fraction(w, chain.cycle)
    played, mass = defaultdict(Fraction), defaultdict(Fraction)
    for (spins, i0), p in starts.items():
        layer = {(spins, spins, i0 if carry else 0): p}
        j = 0
        while layer:
            j += 1
            nxt = defaultdict(Fraction)
            for (left, awarded, index), q in layer.items():
                played[j] += q
                mass[j] += q * index
                for (n, c), pc in outcomes.items():
                    add = min(spec.retrigger_for(n), spec.max_spins - awarded)
                    if left - 1 + add > 0:
                        nxt[(left - 1 + add, awarded + add, index + c if carry else 0)] += q * pc
            layer = nxt
    return played, mass


def test_carried_multiplier_equals_brute_force(doc, analysis):
    feature = next(f for f in analysis.round.features if f.name == "free_spins")
    starts = analysis.round.start_probabilities("free_spins")
    total = sum(starts.values())
    played, mass = brute_force_carried(feature.chain, starts, carry=True)
    rule = analysis.game.cascades.rule(free=True)
    rows = doc["cascades"]["free_spins_multiplier"]
    assert [r["spin"] for r in rows] == sorted(played) == list(range(1, 7))
    for r in rows:
        j = r["spin"]
        assert read_figure(r["played"]) == played[j] / total
        assert read_figure(r["mean_index"]) == mass[j] / played[j]
        assert read_figure(r["mean_multiplier"]) == rule.start + rule.step * mass[j] / played[j]
    # the multiplier grows spin by spin, and the plot reads the same numbers
    values = [read_figure(r["mean_multiplier"]) for r in rows]
    assert values == sorted(values) and values[0] > 1
    df = carried_multiplier_data(analysis)
    assert [Fraction(x) for x in df["mean_multiplier_exact"]] == values


def test_brute_force_sees_a_wrong_carry(analysis):
    """The comparison can fail: without the index carried between spins (every spin from
    the start index) the law differs from the carried one."""
    feature = next(f for f in analysis.round.features if f.name == "free_spins")
    starts = analysis.round.start_probabilities("free_spins")
    carried = brute_force_carried(feature.chain, starts, carry=True)[1]
    reset = brute_force_carried(feature.chain, starts, carry=False)[1]
    assert carried[3] != reset[3]


def test_cascade_count_chart_reads_the_json_law(doc, analysis):
    df = cascade_count_data(analysis)
    law = {str(k): p for k, p in zip(df["cascades"], df["probability_exact"], strict=True)}
    assert {k: read_figure(v) for k, v in doc["cascades"]["cascade_counts"].items()} == law
    assert df["at_least"].iloc[0] == 1.0
    # multiplier column is the rule's value: 1 + cascades for start 1, step 1
    assert list(df["multiplier"]) == [k + 1 for k in df["cascades"]]


def test_paid_spin_win_chart_is_the_paid_spin_law(doc, analysis):
    """Its mean is the paid spin's components (first drop + later drops + scatter), read
    from the JSON; its probabilities and P(0) add up to 1."""
    df = cascade_win_data(analysis)
    assert sum(df["probability_exact"]) + df.attrs["zero"] == 1
    mean = sum(w * p for w, p in zip(df["win_exact"], df["probability_exact"], strict=True))
    assert mean == sum(read_figure(doc["components"][k]) for k in ("ways", "cascades", "scatter"))


def test_a_coarse_grid_moves_each_win_by_at_most_its_stated_rounding(analysis, monkeypatch):
    """A round too wide for the FFT grid (Frozen Gems: wins to ~1e8 credits) is computed on a
    coarser grid. Here the grid is forced small: the distribution's CDF stays between the
    exact-grid CDF shifted by the stated rounding either way, and so does its mean."""
    import numpy as np

    from slotmath.features import compose

    fine = analysis.round.distribution()
    assert fine.rounding_bets == 0.0
    monkeypatch.setattr(compose, "MAX_GRID", 1 << 8)
    coarse = analysis.round.distribution()
    r = coarse.rounding_bets
    assert r > 0
    tol = 1e-9 + fine.aliased_mass_bound + coarse.aliased_mass_bound + coarse.dropped_bound \
        + fine.dropped_bound
    wins_f = fine.credits / fine.credits_per_bet
    wins_c = coarse.credits / coarse.credits_per_bet
    cdf_f, cdf_c = np.cumsum(fine.probs), np.cumsum(coarse.probs)

    def at(wins, cdf, x):
        i = np.searchsorted(wins, x, side="right")
        return cdf[i - 1] if i else 0.0

    def bracket_holds(shift):
        xs = np.concatenate([wins_f, wins_c, wins_f - shift, wins_c + shift])
        return all(at(wins_f, cdf_f, x - shift) - tol <= at(wins_c, cdf_c, x)
                   <= at(wins_f, cdf_f, x + shift) + tol for x in xs)

    assert bracket_holds(r)
    assert not bracket_holds(0)  # the grid did move wins: the check sees a move
    assert abs(coarse.mean_bets - fine.mean_bets) <= r + tol * wins_f.max()
    assert len(coarse.credits) < len(fine.credits)
    # the free-spin laws themselves stay within the grid (Frozen Gems' 1-credit laws were
    # ~730 MB a start key, and the JSON run was killed for memory)
    feature = next(f for f in analysis.round.features if f.name == "free_spins")
    starts = analysis.round.start_probabilities("free_spins")
    for law in feature.dense(sorted(starts)).values():
        assert len(law.probs) <= compose.MAX_GRID and law.step > 1 and law.rounding > 0


def test_the_multiplier_chart_draws_quoted_figures_too(doc):
    """The notebook draws the bundled game's figures, read from its JSON, through the same
    chart: a table with the needed columns passes as it is; one without them is refused."""
    import pandas as pd

    rows = doc["cascades"]["free_spins_multiplier"]
    table = pd.DataFrame({"spin": [r["spin"] for r in rows],
                          "played": [r["played"]["float"] for r in rows],
                          "mean_multiplier": [r["mean_multiplier"]["float"] for r in rows]})
    assert carried_multiplier_data(table) is table
    with pytest.raises(TypeError, match="mean_multiplier"):
        carried_multiplier_data(table.drop(columns="mean_multiplier"))
