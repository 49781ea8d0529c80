"""Hold & win: the chain against a plain recursion over every landing outcome (exact), the
float64 chain against the exact one, the engine's cash count against brute force, the loader's
errors, and the round feature inside an analysis."""

from __future__ import annotations

import itertools
from fractions import Fraction

import numpy as np
import pytest
from hold_and_win_reference import reference_figures, reference_start_law
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import slotmath
from slotmath.errors import GameFileError, RuleError
from slotmath.evaluate.window import PayModel, window_at
from slotmath.features.base import Context, Mark
from slotmath.features.hold_and_win import HoldAndWinRound
from slotmath.io.toml_loader import loads_game
from slotmath.markov.hold_and_win import HoldAndWinChain
from slotmath.model.hold_and_win import Booster, HoldAndWin

F = Fraction


def _spec(**kw):
    base = {"symbol": "C", "trigger": 1, "respins": 2, "cash_probability": F(1, 3),
                "values": (F(1), F(5)), "value_weights": (2, 1), "rows": 1, "max_rows": 2,
                "reels": 2,
                "boosters": (Booster("rows", F(1, 4), 2, 1), Booster("values", F(1, 3), 1, 2),
                          Booster("respins", F(1, 5), 2, 1),
                          Booster("multiplier", F(1, 4), 1, 2, ladder=(2, 3))),
                "ceiling": None, "full_grid_prize": F(3)}
    base.update(kw)
    return HoldAndWin(**base)


FIXED = {
    "all boosters, prize": _spec(),
    "no boosters": _spec(max_rows=1, boosters=(), full_grid_prize=F(0)),
    "values to a ceiling, respins 2 extra": _spec(
        max_rows=1, respins=1, values=(F(1), F(2), F(5)), value_weights=(2, 1, 1),
        ceiling=F(2), boosters=(Booster("values", F(1, 2), 1, 2),
                                         Booster("respins", F(1, 3), 1, 1, extra=2))),
    "one reel, rows booster": _spec(reels=1, max_rows=3, respins=2,
                                    boosters=(Booster("rows", F(1, 2), 1, 2),)),
}


def _check_exact(spec, held):
    chain = HoldAndWinChain(spec, exact=True)
    law = reference_start_law(spec, held)
    assert chain.exact_distribution(held) == law
    fig = chain.figures(held)
    assert fig.mean == sum((w * p for w, p in law.items()), F(0))
    ref = reference_figures(spec, held)
    assert fig.expected_respins == ref["spins"]
    assert fig.fill_probability == ref["full"]
    assert fig.booster_levels == ref["levels"]
    return chain


@pytest.mark.parametrize("name", sorted(FIXED))
def test_chain_equals_landing_recursion_exactly(name):
    spec = FIXED[name]
    # (the recursion enumerates the trigger values too: one held for the largest case)
    top = 1 if spec.boosters and len(spec.boosters) > 2 else spec.capacity(0)
    for held in range(1, top + 1):
        _check_exact(spec, held)


REGRESSION_MEAN = F(1969621342735750541, 200838781497600000)  # the recursion's, kept


def test_exact_figures_of_the_fixed_case():
    """A regression figure, from the reference recursion (kept as data)."""
    fig = HoldAndWinChain(FIXED["all boosters, prize"], exact=True).figures(1)
    assert fig.mean == REGRESSION_MEAN


@st.composite
def small_specs(draw):
    reels = draw(st.integers(1, 2))
    max_rows = draw(st.integers(1, 2))
    budget = 2  # boosters beyond the rows one (the recursion's cost grows fast with them)
    n_values = draw(st.integers(1, 2))
    values = tuple(F(v) for v in sorted(draw(st.lists(st.integers(1, 9), min_size=n_values,
                                                      max_size=n_values, unique=True))))
    weights = tuple(draw(st.lists(st.integers(0, 3), min_size=n_values, max_size=n_values)))
    if not sum(weights):
        weights = (1,) + weights[1:]
    probability = st.sampled_from([F(1, 2), F(1, 3), F(2, 5), F(1, 7)])
    boosters = []
    if max_rows > 1:
        boosters.append(Booster("rows", draw(probability), draw(st.integers(1, 2)), 1))
    kinds = draw(st.lists(st.sampled_from(["values", "respins", "multiplier"]), max_size=budget,
                          unique=True))
    if "values" in kinds:
        boosters.append(Booster("values", draw(probability), 1, draw(st.integers(1, 2))))
    if "respins" in kinds:
        boosters.append(Booster("respins", draw(probability), draw(st.integers(1, 2)), 1,
                                extra=draw(st.integers(1, 2))))
    if "multiplier" in kinds:
        ladder = tuple(sorted(draw(st.lists(st.integers(2, 5), min_size=1, max_size=2,
                                            unique=True))))
        boosters.append(Booster("multiplier", draw(probability), 1, len(ladder),
                                ladder=ladder))
    ceiling = draw(st.sampled_from([None, values[-1], values[0]]))
    return HoldAndWin("C", 1, draw(st.integers(1, 2)), draw(probability), values, weights,
                      rows=1, max_rows=max_rows, reels=reels, boosters=tuple(boosters),
                      ceiling=ceiling, full_grid_prize=F(draw(st.integers(0, 4))))


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_specs())
def test_random_configurations_exact_and_float(spec):
    held = spec.capacity(0) if spec.reels == 1 else 1
    exact = _check_exact(spec, held)
    # the float64 chain: same figures to rounding, records and law to rounding
    fl = HoldAndWinChain(spec, drop=0.0)
    f_fig, e_fig = fl.figures(held), exact.figures(held)
    assert f_fig.mean == pytest.approx(float(e_fig.mean), rel=1e-12)
    assert f_fig.fill_probability == pytest.approx(float(e_fig.fill_probability), abs=1e-14)
    exact_records = exact.records(held)
    float_records = fl.float_records([held])
    assert set(float_records) == {k for k, p in exact_records.items() if p}
    for k, p in exact_records.items():
        assert float_records[k][0] == pytest.approx(float(p), rel=1e-12)
    probs, bound, second = fl.float_distributions([held])[held]
    law = exact.exact_distribution(held)
    dense = np.zeros(len(probs))
    for w, p in law.items():
        dense[int(w / fl.unit)] += float(p)
    assert np.abs(dense - probs).max() <= bound
    assert second == pytest.approx(float(sum(w * w * p for w, p in law.items())), rel=1e-12)


def _gus_like(**kw):
    vals = [1, 2, 3, 5, 7, 10, 15, 20, 25, 30, 40, 50, 100, 200, 300, 500, 750, 1000]
    w = [400, 300, 200, 120, 80, 50, 30, 20, 12, 8, 5, 4, 2, 1, 1, 1, 1, 1]
    base = {"symbol": "N", "trigger": 5, "respins": 3, "cash_probability": F(1, 15),
                "values": tuple(F(v) for v in vals), "value_weights": tuple(w), "rows": 3, "max_rows": 6,
                "reels": 5,
                "boosters": (Booster("rows", F(1, 8), 3, 3), Booster("values", F(1, 10), 3, 3),
                          Booster("respins", F(1, 12), 3, 1),
                          Booster("multiplier", F(1, 10), 3, 3, ladder=(2, 3, 5)))}
    base.update(kw)
    return HoldAndWin(**base)


def test_float_chain_on_a_mid_grid_against_exact():
    """3 reels x 1 row growing to 2: too large for the recursion, small enough for exact
    fractions; the float64 chain (with its dropped-move bound) agrees within its bound."""
    spec = _gus_like(reels=3, rows=1, max_rows=2, trigger=1, values=(F(1), F(5), F(50)),
                     value_weights=(6, 3, 1), cash_probability=F(1, 4),
                     boosters=(Booster("rows", F(1, 4), 2, 1), Booster("values", F(1, 5), 2, 2),
                               Booster("respins", F(1, 6), 2, 1),
                               Booster("multiplier", F(1, 5), 2, 2, ladder=(2, 5))))
    exact = HoldAndWinChain(spec, exact=True).figures(1)
    fl = HoldAndWinChain(spec, drop=1e-3)
    fig = fl.figures(1)
    top = 5 * (6 * 50)
    assert abs(fig.mean - float(exact.mean)) <= fl.dropped_probability(1) * top + 1e-12
    assert fl.dropped_probability(1) > 0  # the bound is exercised, not zero by construction


# -- the engine's cash count ------------------------------------------------------------------

GAME = """
name = "cash toy"
rows = 2
bet = 2
paylines = [[0, 0, 0], [1, 1, 1]]
[symbols]
W = {{ wild = true }}
C = {{ scatter = true }}
A = {{ pays = {{ 3 = 10 }} }}
B = {{ pays = {{ 2 = 1, 3 = 4 }} }}
[reels]
base = [{strips}]
[hold_and_win]
symbol = "C"
trigger = {trigger}
respins = 1
cash_probability = "1/3"
values = [1, 2]
value_weights = [1, 1]
"""


@settings(max_examples=20, deadline=None)
@given(st.lists(st.lists(st.sampled_from(["W", "C", "A", "B"]), min_size=2, max_size=5),
                min_size=3, max_size=3), st.integers(1, 6))
def test_cash_count_table_equals_brute_force(strips, trigger):
    text = GAME.format(strips=", ".join(str(s).replace("'", '"') for s in strips),
                       trigger=trigger)
    game = loads_game(text)
    table = Context(game).table("base", (Mark("count", "C"),))
    model = PayModel(game)
    brute: dict = {}
    for stops in itertools.product(*(range(len(s)) for s in strips)):
        window = window_at(game, game.base, stops)
        key = (sum(col.count("C") for col in window), model.spin_win(window))
        brute[key] = brute.get(key, 0) + 1
    assert dict(table.weights) == brute


def test_cash_mark_counts_jointly_with_another():
    """The engine counts any set of marks jointly (it refused a second one beside the cash
    count): the cash symbol and a paying symbol, against every stop combination."""
    strips = [["A", "C", "B"], ["B", "C", "A", "W"], ["A", "W", "C"]]
    game = loads_game(GAME.format(strips=", ".join(str(s).replace("'", '"') for s in strips),
                                  trigger=2))
    table = Context(game).table("base", (Mark("count", "C"), Mark("count", "A")))
    assert table.marks == ("count:C", "count:A")
    model = PayModel(game)
    brute: dict = {}
    for stops in itertools.product(*(range(len(s)) for s in strips)):
        window = window_at(game, game.base, stops)
        key = (sum(col.count("C") for col in window), sum(col.count("A") for col in window),
               model.spin_win(window))
        brute[key] = brute.get(key, 0) + 1
    assert dict(table.weights) == brute


# -- the loader -------------------------------------------------------------------------------

@pytest.mark.parametrize("edit, key, words", [
    (('cash_probability = "1/3"', 'cash_probability = "3/2"'), "hold_and_win.cash_probability",
     "(0, 1)"),
    (('symbol = "C"', 'symbol = "X"'), "hold_and_win.symbol", "not declared"),
    (("value_weights = [1, 1]", "value_weights = [1]"), "hold_and_win.value_weights",
     "one weight per value"),
    (("values = [1, 2]", "values = [2, 1]"), "hold_and_win.values", "rise"),
    (("respins = 1", "respins = 1\nrespinz = 2"), "hold_and_win.respinz", "did you mean"),
    (("respins = 1", "respins = 1\nmax_rows = 3"), "hold_and_win.max_rows", "rows booster"),
    (("respins = 1", "respins = 0"), "hold_and_win.respins", ">= 1"),
    (('value_weights = [1, 1]', ('value_weights = [1, 1]\n[hold_and_win.boosters.multiplier]\n'
                                'probability = "1/9"\nladder = [3, 2]')),
     "hold_and_win.boosters.multiplier.ladder", "rise"),
    (('value_weights = [1, 1]', ('value_weights = [1, 1]\n[hold_and_win.boosters.gold]\n'
                                'probability = "1/9"')),
     "hold_and_win.boosters.gold", "unknown key"),
])
def test_loader_errors_name_the_key(edit, key, words):
    text = GAME.format(strips='["A", "C"], ["B", "C"], ["A", "W"]', trigger=2)
    assert edit[0] in text
    with pytest.raises(GameFileError) as err:
        loads_game(text.replace(edit[0], edit[1], 1))
    assert err.value.key == key
    assert words in str(err.value)


def test_model_refuses_a_bad_booster():
    with pytest.raises(RuleError, match="kind"):
        Booster("gold", F(1, 2))


# -- the round feature in an analysis ---------------------------------------------------------

def test_toy_analysis_is_exact_and_mixes_the_round():
    game = loads_game(GAME.format(strips='["A", "C", "B"], ["B", "C"], ["A", "W", "C"]',
                                  trigger=2))
    a = slotmath.analyze(game)
    assert a.exact
    feature = next(f for f in a.round.features if f.name == "hold_and_win")
    assert isinstance(feature, HoldAndWinRound) and feature.exact
    # by hand: P(start with k cash) from the cash table, times the exact round law
    table = a.context.table("base", (Mark("count", "C"),))
    by_count: dict = {}
    for (k, _credits), w in table.weights.items():
        by_count[k] = by_count.get(k, 0) + w
    spec = game.hold_and_win
    expected = sum((F(w, table.cycle) * sum(v * p for v, p in
                                            reference_start_law(spec, k).items())
                    for k, w in by_count.items() if k >= 2), F(0))
    assert a.components["hold_and_win"] == expected
    assert a.rtp == a.components["lines"] + a.components["scatter"] + expected


# -- wild-only lines ---------------------------------------------------------------------------

WILD_GAME = """
name = "wild only"
rows = 1
bet = 1
paylines = [[0, 0, 0]]
[symbols]
W = { wild = true }
A = { pays = { 2 = 1, 3 = 4 } }
B = { pays = { 2 = 3, 3 = 2 } }
X = {}
[reels]
base = [["W", "A", "B", "X"], ["W", "A", "B", "X"], ["W", "A", "B", "X"]]
"""


def test_wild_only_line_pays_as_the_highest_paying_symbol():
    """By hand: a wild-only run of k pays the highest pay for k among the symbols; the
    engine's full cycle equals brute force over the 64 stop combinations."""
    from slotmath.exact.brute import brute_force
    from slotmath.exact.cycle import spin_table
    game = loads_game(WILD_GAME)
    model = PayModel(game)
    pays = {"A": {2: 1, 3: 4}, "B": {2: 3, 3: 2}}
    assert model.line_win(["W", "W", "W"]).credits == max(p[3] for p in pays.values())
    assert model.line_win(["W", "W", "X"]).credits == max(p[2] for p in pays.values())
    assert model.line_win(["W", "W", "A"]).credits == 4  # A's run of 3 beats B's 2 = 3
    for line in itertools.product("WABX", repeat=3):  # every line, by the rule's words
        best = 0
        for sym, table in pays.items():
            run = 0
            for s in line:
                if s not in (sym, "W"):
                    break
                run += 1
            best = max(best, table.get(run, 0))
        assert model.line_win(list(line)).credits == best, line
    assert spin_table(game) == brute_force(game)


# -- the bundled game ---------------------------------------------------------------------------

@pytest.fixture(scope="module")
def gus():
    from bundled import ROOT, analysed

    return analysed(ROOT / "data" / "games" / "gus_gold_christmas.toml")  # (one per session)


def test_gus_gold_christmas_rtp_top_award_and_json(gus):
    import json

    from test_json_shape import check_shape

    from slotmath.report.json_report import analysis_dict
    d = analysis_dict(gus)
    check_shape(json.loads(json.dumps(d, default=str)), gus, "gus_gold_christmas")
    assert abs(d["rtp_float"] - 0.94) <= 0.0001  # the design target: 94.00% within 0.01%
    assert d["max_win"]["multiple"]["float"] == 5000
    assert d["max_win"]["probability"]["float"] >= 1e-9  # no rarer than 1 in 1e9
    comps = gus.components
    assert d["components"]["lines"]["exact"] == str(comps["lines"])  # exact text
    # the plain game's parts plus each modifier's uplift make the RTP
    assert set(comps) >= {"lines", "hold_and_win", "pickaxe", "tnt"}
    assert sum(float(v) for v in comps.values()) == pytest.approx(gus.rtp_float, abs=1e-14)
    h = d["hold_and_win"]
    assert set(h["boosters"]) == {"rows", "values", "respins", "multiplier"}
    tail = [r["probability"]["float"] for r in h["tail"]]
    assert tail == sorted(tail, reverse=True) and tail[0] <= 1
    assert 0 < h["fill_probability"]["float"] < 1 and h["expected_respins"]["float"] >= 3
    assert max(int(k) for k in h["start_probabilities"]) == 8  # 5 + Pickaxe's 3 at most
    # the trigger, by hand: each reel shows at most one NUGGET (3 stops each), so the
    # probability is the product over reels of 3 x nuggets / stops
    game = gus.game
    by_hand = F(1)
    for reel in game.base.reels:
        strip = reel.symbols
        assert all(strip[i] != "NUGGET" or "NUGGET" not in
                   (strip[(i + 1) % len(strip)], strip[(i + 2) % len(strip)])
                   for i in range(len(strip)))
        by_hand *= F(3 * strip.count("NUGGET"), len(strip))
    # with Pickaxe (TNT leaves the nuggets): c nuggets shown (one reel at most one), k of the
    # 15 positions chosen uniformly, h of them on a nugget (hypergeometric), c + k - h >= 5
    from math import comb
    shown = {0: F(1)}
    for reel in game.base.reels:
        q = F(3 * reel.symbols.count("NUGGET"), len(reel.symbols))
        nxt: dict = {}
        for c, p in shown.items():
            nxt[c] = nxt.get(c, 0) + p * (1 - q)
            nxt[c + 1] = nxt.get(c + 1, 0) + p * q
        shown = nxt
    pick = next(m for m in game.modifiers if m.name == "pickaxe")
    total = sum(w for _, w in pick.counts)
    p_pick = sum(p * F(w, total) * F(comb(c, hh) * comb(15 - c, k - hh), comb(15, k))
                 for c, p in shown.items() for k, w in pick.counts
                 for hh in range(min(c, k) + 1) if c + k - hh >= 5)
    assert shown[5] == by_hand
    assert gus.features["hold_and_win"].trigger_probability == (1 - pick.frequency) * by_hand + (
        pick.frequency * p_pick)
    # two paths to the feature's mean: backward by linearity, forward through the records
    feature = next(f for f in gus.round.features if f.name == "hold_and_win")
    probs = feature.dense([5])[5].probs
    grid = np.arange(len(probs)) * float(feature.chain.unit)
    assert (grid * probs).sum() == pytest.approx(float(feature.law(5).mean), rel=1e-9)
    assert probs.sum() == pytest.approx(1.0, abs=1e-9)
    assert feature.chain.n_states > 400_000


def test_panel_builds_and_recomputes():
    from slotmath.widgets.hold_and_win_panel import hold_and_win_panel
    game = loads_game(GAME.format(strips='["A", "C", "B"], ["B", "C"], ["A", "W", "C"]',
                                  trigger=2))
    panel = hold_and_win_panel(slotmath.analyze(game))
    cash, *_rest, _low, button, out, _chart = panel.children
    before = out.value
    cash.value = 10
    button.click()
    assert out.value != before and "hold &amp; win" not in out.value
    assert "game RTP" in out.value
