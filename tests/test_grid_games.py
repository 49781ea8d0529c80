"""Grid games (Megaways, pay anywhere, clusters, tumbles, multiplier symbols): every exact
engine against the brute force ``tests/grid_reference.py``, written from docs/game-format.md
("Grid games") and sharing no code with ``slotmath.evaluate.grid``, ``slotmath.exact.grid_*``
or ``slotmath.simulate.grid``. Figures are compared EXACTLY (Fractions): the RTP, the
components the reference can separate, the paid spin's or the round's whole law, the law of
the ways in play and P(most ways), a scatter's count law. Fixed tiny games first, then
hypothesis over generated ones; then the simulator against exact figures on a seeded run, the
up-front refusal, and bad input.
"""

from __future__ import annotations

import math
import os
from fractions import Fraction

import grid_reference as ref
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import slotmath
from slotmath.errors import GameFileError

FIXTURES = "tests/data/grid"


def _load(name: str):
    return slotmath.load_game(f"{FIXTURES}/{name}.toml")


def _owner(analysis):
    """The figures of the feature that plays a grid game's round."""
    for name in ("megaways", "anywhere_pays", "cluster_pays"):
        if name in analysis.features:
            return analysis.features[name]
    raise AssertionError(f"no grid owner among {list(analysis.features)}")


def _law_of(distribution) -> dict:
    """{win in bets: probability} of an exact WinDistribution."""
    cpb, total = distribution.credits_per_bet, distribution.total
    return {Fraction(c, cpb): Fraction(w, total) for c, w in distribution.as_dict().items()
            if w}


def _clean(law: dict) -> dict:
    out: dict = {}
    for w, p in law.items():
        if p:
            out[Fraction(w)] = out.get(Fraction(w), 0) + p
    return out


def _variance(law: dict) -> Fraction:
    m = ref.mean(law)
    return sum(p * (w - m) ** 2 for w, p in law.items())


def assert_round_equals_reference(game, context: str = "") -> None:
    """The whole analysis (RTP; without free spins the round's law) equals the reference's."""
    a = slotmath.analyze(game)
    expected = _clean(ref.round_law(game))
    if game.free_spins is not None and game.max_win is not None:
        # the cap acts on the round's law, which with free spins is a float64 law: the
        # capped RTP is numerical, within the roundoff of that law's sums
        assert not a.exact, context
        assert float(a.rtp) == pytest.approx(float(ref.mean(expected)), rel=1e-12, abs=1e-12)
        return
    assert a.exact, context
    assert isinstance(a.rtp, Fraction), context
    assert a.rtp == ref.mean(expected), context
    figures = _owner(a)
    if game.free_spins is None:
        assert _law_of(figures.distribution) == expected, context
        assert figures.hit_frequency == sum(p for w, p in expected.items() if w), context
        assert figures.variance == _variance(expected), context


# -- fixed tiny games -------------------------------------------------------------------------

@pytest.mark.parametrize("name", ["anywhere_tiny", "cluster_tiny", "megaways_tiny"])
def test_fixture_round_equals_reference(name):
    assert_round_equals_reference(_load(name), name)


def _random_tiny(max_drops: int):
    import dataclasses

    g = _load("random_tiny")
    return dataclasses.replace(g, tumbles=dataclasses.replace(g.tumbles, max_drops=max_drops))


def test_random_refill_chain_equals_reference():
    """The random-refill chain (memoised windows) on the 3x2 game, sequences cut at 2 drops."""
    g = _random_tiny(2)
    assert_round_equals_reference(g, "random_tiny, max_drops 2")
    assert _owner(slotmath.analyze(g)).plan.engine == "random chain"


@pytest.mark.benchmark
def test_random_refill_chain_equals_reference_four_drops():
    assert_round_equals_reference(_load("random_tiny"), "random_tiny")  # ~15 s of reference


def test_cluster_components_split_first_drop_and_tumbles():
    """The cluster component is the first drop, tumbles the later drops (reference: the same
    sequence walked with max_drops 1 gives the first drop alone)."""
    import dataclasses

    g = _load("cluster_tiny")
    a = slotmath.analyze(g)
    once = dataclasses.replace(g, tumbles=dataclasses.replace(g.tumbles, max_drops=1))
    first = ref.mean(ref.round_law(once))
    assert a.components["cluster"] == first
    assert a.components["tumbles"] == a.rtp - first
    assert a.components["tumbles"] > 0


def test_clusters_counted_diagonally_differ():
    """A mutation (clusters joined at corners) changes the reference's law on the fixture, so
    the comparison above can fail; the engine follows the declared adjacency."""
    import dataclasses

    g = _load("cluster_tiny")
    diagonal = dataclasses.replace(g, grid=dataclasses.replace(g.grid, adjacency="diagonal"))
    assert ref.mean(ref.round_law(diagonal)) != ref.mean(ref.round_law(g))
    assert_round_equals_reference(diagonal, "cluster_tiny diagonal")


# -- Megaways: the ways programme, the ways count's law, P(most ways) ------------------------

def _brute_ways_laws(game, reel_set="base"):
    """{ways in play: p} and the scatter's {count: p}, over every first window (reference
    enumeration); ways = product of each reel's cells (its top cell counted)."""
    ways: dict = {}
    scat: dict = {}
    name = [n for n, s in game.symbols.items() if s.scatter]
    for p, columns, top, _pos, _t in ref._first_windows(game, reel_set):
        w = math.prod(len(c) + (1 if j in top else 0) for j, c in enumerate(columns))
        ways[w] = ways.get(w, 0) + p
        if name:
            c = ref.count_of(columns, top, name[0])
            scat[c] = scat.get(c, 0) + p
    return ways, scat


def _collapse(spin_law: dict) -> dict:
    """{win: p} of a reference spin law keyed by (trigger count, win)."""
    out: dict = {}
    for (_trig, win), p in spin_law.items():
        if p:
            out[win] = out.get(win, 0) + p
    return out


def assert_ways_programme_equals_reference(game, context: str = "") -> None:
    """The Megaways programme (no tumbles): mean, components, variance, hit frequency, the
    law of the ways in play, P(most ways) and the scatter's count law."""
    from slotmath.exact.grid_ways import SpinMean, ways_law
    from slotmath.model.game import Reel

    law = ways_law(game)
    spin = _collapse(ref.spin_law(game))
    ways, scat = _brute_ways_laws(game)
    assert law.mean_bets == ref.mean(spin), context
    # the tuner's proxy (slotmath.tune.proxy): the mean alone, and with reel 1 replaced by
    # its strip reversed and one stop longer (its sums recomputed, the others kept)
    mean = SpinMean(game)
    assert mean(game.base.reels) == ref.mean(spin), context
    first = game.base.reels[0]
    other = game.replace_reels("base", (Reel(first.symbols[::-1] + first.symbols[:1]),)
                               + tuple(game.base.reels[1:]))
    assert mean(other.base.reels) == ref.mean(_collapse(ref.spin_law(other))), context
    assert law.variance == _variance(spin), context
    assert law.hit_frequency == sum(p for w, p in spin.items() if w), context
    assert {k: v for k, v in law.ways_in_play.items() if v} == ways, context
    assert law.max_ways == max(ways), context
    assert law.max_ways_probability == ways[max(ways)], context
    names = [n for n, s in game.symbols.items() if s.scatter]
    if names:
        assert {c: p for c, p in law.count_law(names[0]).items() if p} == scat, context
        plain = _clean({w: p for w, p in _collapse(ref.spin_law(_without_scatter_pays(game)))
                        .items()})
        assert law.ways_rtp == ref.mean(plain), context
        assert law.scatter_rtp == law.mean_bets - ref.mean(plain), context


def _without_scatter_pays(game):
    import dataclasses

    symbols = {n: (dataclasses.replace(s, pays={}) if s.scatter else s)
               for n, s in game.symbols.items()}
    return dataclasses.replace(game, symbols=symbols)


def test_megaways_programme_equals_reference():
    g = _load("megaways_tiny")
    assert_ways_programme_equals_reference(g, "megaways_tiny")
    a = slotmath.analyze(g)
    assert _owner(a).plan.engine in ("enumeration", "ways programme")


def test_megaways_heights_redrawn_matter():
    """A mutation (every reel at its tallest) changes the ways law: heights are drawn."""
    import dataclasses

    from slotmath.model.grid import HeightLaw

    g = _load("megaways_tiny")
    tall = dataclasses.replace(g, grid=dataclasses.replace(
        g.grid, heights=tuple(HeightLaw.fixed(h.max) for h in g.grid.heights)))
    ways, _ = _brute_ways_laws(tall)
    assert ways == {36: 1}
    assert _brute_ways_laws(g)[0] != ways


# -- generated tiny games (hypothesis) --------------------------------------------------------

def _strip(draw, names, size):
    return draw(st.lists(st.sampled_from(names), min_size=size[0], max_size=size[1]))


@st.composite
def grid_games(draw, kind=None, tumbles=None, multipliers=None, free_spins=None, cap=True):
    """A dict of a tiny grid game: 2-3 reels, 1-3 rows, strips of 2-4 stops, small pays;
    optional scatter, wild (ways, clusters), top reel (ways), multiplier symbol, tumbles
    (strip refill; random refill on 2 reels of 1-2 rows), free spins (with retriggers cut by
    max_spins). Small enough for the reference's walk over everything."""
    kind = kind or draw(st.sampled_from(["ways", "anywhere", "cluster"]))
    tumbles = draw(st.booleans()) if tumbles is None else tumbles
    refill = draw(st.sampled_from(["strip", "strip", "random"])) if tumbles else None
    n = 2 if refill == "random" else draw(st.integers(2, 3))
    data: dict = {"name": "generated", "bet": draw(st.sampled_from([1, 2, 5]))}
    if kind == "ways":
        data["ways"] = True
        hs = draw(st.lists(st.integers(1, 2 if refill == "random" else 3), min_size=1,
                           max_size=2, unique=True))
        data["rows"] = {"heights": {str(h): draw(st.integers(1, 3)) for h in hs}}
    else:
        data["pays"] = kind
        data["rows"] = draw(st.integers(1, 2)) if refill == "random" else \
            draw(st.integers(2, 3))
    symbols: dict = {}
    rows_max = max(int(h) for h in data["rows"]["heights"]) if kind == "ways" else data["rows"]
    cells = n * rows_max
    for name in ("A", "B"):
        if kind == "ways":
            counts = draw(st.lists(st.integers(2, n), min_size=1, max_size=2, unique=True))
        elif kind == "anywhere":
            counts = draw(st.lists(st.integers(2, max(2, cells)), min_size=1, max_size=2,
                                   unique=True))
        else:
            counts = draw(st.lists(st.integers(2, max(2, cells)), min_size=1, max_size=2,
                                   unique=True))
        symbols[name] = {"pays": {str(c): draw(st.integers(1, 6)) for c in counts}}
    symbols["X"] = {}
    names = ["A", "B", "X"]
    if kind == "cluster":
        data["cluster"] = {"min_size": min(int(c) for s in ("A", "B")
                                           for c in symbols[s]["pays"]),
                           "adjacency": draw(st.sampled_from(["orthogonal", "diagonal"]))}
    if kind != "anywhere" and draw(st.booleans()):
        symbols["W"] = {"wild": True}
        names.append("W")
    scatter = draw(st.booleans()) or free_spins
    if scatter:
        symbols["S"] = {"scatter": True}
        if draw(st.booleans()):
            symbols["S"]["pays"] = {"2": draw(st.integers(1, 4))}
        names.append("S")
    multi = draw(st.booleans()) if multipliers is None else multipliers
    if multi:
        symbols["M"] = {}
        names.append("M")
        data["multipliers"] = {
            "symbol": "M",
            "values": {str(v): draw(st.integers(1, 3))
                       for v in draw(st.lists(st.integers(1, 4), min_size=1, max_size=2,
                                              unique=True))},
            "combine": draw(st.sampled_from(["add", "multiply"]))}
    data["symbols"] = symbols
    size = (1, 3) if refill == "random" else (2, 4)
    data["reels"] = {"base": [_strip(draw, names, size) for _ in range(n)]}
    if kind == "ways" and refill != "random" and draw(st.booleans()):
        data["top_reel"] = {"reels": [2, draw(st.integers(2, n))],
                            "strips": {"base": _strip(draw, names, (2, 5))}}
    if tumbles:
        t = {"refill": refill, "max_drops": draw(st.integers(1, 2 if refill == "random" else 3)),
             "multiplier": {"start": draw(st.integers(1, 2)), "step": draw(st.integers(0, 2))}}
        if refill == "random":
            t["refill_weights"] = {"base": [
                {name: draw(st.integers(0, 2)) for name in names[:3]} | {"X": 1}
                for _ in range(n)]}
        data["tumbles"] = t
    if scatter and (draw(st.booleans()) if free_spins is None else free_spins):
        fs = {"trigger": "S", "awards": {"1": draw(st.integers(1, 2))}}
        if draw(st.booleans()):  # free spins on reels of their own, with their own rules
            data["reels"]["free"] = [_strip(draw, names, size) for _ in range(n)]
            fs["reels"] = "free"
            if "top_reel" in data:
                data["top_reel"]["strips"]["free"] = _strip(draw, names, (2, 4))
            if tumbles and refill == "random":
                data["tumbles"]["refill_weights"]["free"] = data["tumbles"]["refill_weights"][
                    "base"][::-1]
        if multi and draw(st.booleans()):
            data["multipliers"]["free_values"] = {"3": 1, "1": draw(st.integers(1, 2))}
        if tumbles and draw(st.booleans()):
            data["tumbles"]["free_multiplier"] = {"ladder": [1, 2, 4]}
        if draw(st.booleans()):
            fs |= {"retrigger": True, "max_spins": 3}
        if draw(st.booleans()):
            fs["multiplier"] = 2
        data["free_spins"] = fs
    if cap and draw(st.integers(0, 3)) == 0:
        data["max_win"] = {"bet_multiple": draw(st.sampled_from([1, 2, 5]))}
    return data


def _game(data):
    from slotmath.io.toml_loader import game_from_dict

    return game_from_dict(data, "<generated grid game>")


#: GRID_EXAMPLES=300 in the environment for a longer hunt
HYP = settings(max_examples=int(os.environ.get("GRID_EXAMPLES", "25")), deadline=None,
               database=None,
               suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])


@HYP
@given(grid_games())
def test_generated_round_equals_reference(data):
    """Any kind, tumbles or not, multiplier symbols, free spins: the analysis's RTP (and
    without free spins the round's law) equals the brute force's exactly."""
    assert_round_equals_reference(_game(data), repr(data))


@HYP
@given(grid_games(kind="ways", tumbles=False, multipliers=False, free_spins=False))
def test_generated_megaways_programme_equals_reference(data):
    assert_ways_programme_equals_reference(_game(data), repr(data))


@HYP
@given(grid_games(kind="anywhere", tumbles=False, free_spins=False))
def test_generated_count_laws_equal_reference(data):
    """Pay anywhere without tumbles: the RTP by linearity (each symbol's count law a
    convolution), the count laws, and the whole law from the joint count state."""
    from slotmath.exact.grid_anywhere import anywhere_law

    g = _game(data)
    law = anywhere_law(g)
    spin = _collapse(ref.spin_law(g))
    assert law.mean_bets == ref.mean(spin)
    assert law.hit_frequency == sum(p for w, p in spin.items() if w)
    if law.variance is not None:
        assert law.variance == _variance(spin)
    if law.distribution is not None:
        total = law.cycle * law.mixing
        got = {Fraction(c, law.credits_per_bet): Fraction(w, total)
               for c, w in law.distribution.items() if w}
        assert got == spin
    for name, counts in law.count_laws.items():
        expected: dict = {}
        for p, columns, top, _pos, _t in ref._first_windows(g, "base"):
            c = ref.count_of(columns, top, name)
            expected[c] = expected.get(c, 0) + p
        assert {c: Fraction(w, law.cycle) for c, w in counts.items() if w} == \
            {c: p for c, p in expected.items() if p}, name


# -- the engines chosen past the enumeration: count laws, the paid spin exact ----------------

def _forced(game, method: str, engine: str, rounds: int = 1 << 16):
    """The owner of ``game`` analysed by ``engine`` whatever the estimate says (the plan
    would pick the enumeration on a game this small)."""
    import dataclasses

    from slotmath.features.grid import GridGame, plan
    from slotmath.model.grid import with_settings

    game = with_settings(game, rounds=rounds, seed=7)
    owner = GridGame(game)
    owner.__dict__["plan"] = dataclasses.replace(plan(game), method=method, engine=engine)
    return owner.analyze()


@HYP
@given(grid_games(kind="anywhere", tumbles=False, free_spins=False))
def test_generated_count_laws_analysis_equals_reference(data):
    """The analysis by the count laws (pay anywhere without tumbles): RTP, components, the
    whole law, hit frequency, variance."""
    import dataclasses

    g = _game(data)
    figures = _forced(g, "exact", "count laws")
    expected = _clean(ref.round_law(g))
    assert figures.rtp == ref.mean(expected)
    assert _law_of(figures.distribution) == expected
    assert figures.hit_frequency == sum(p for w, p in expected.items() if w)
    assert figures.variance == _variance(expected)
    uncapped = dataclasses.replace(g, max_win=None)
    plain = _clean(ref.round_law(_without_scatter_pays(uncapped)))
    whole = ref.mean(ref.round_law(uncapped))
    # a game without a scatter symbol lists no scatter component (its share is 0)
    has_scatter = any(s.scatter for s in g.symbols.values())
    assert ("scatter" in figures.components) == has_scatter
    assert figures.components.get("scatter", 0) == whole - ref.mean(plain)
    assert figures.components.get("max_win_cap", 0) == ref.mean(expected) - whole


PAID_SPIN = settings(HYP, max_examples=max(5, HYP.max_examples // 3))


@PAID_SPIN
@given(st.sampled_from(["ways", "anywhere"]).flatmap(
    lambda k: grid_games(kind=k, tumbles=False, free_spins=True, cap=False,
                         multipliers=False if k == "ways" else None)))
def test_generated_paid_spin_exact_with_free_spins_equals_reference(data):
    """With free spins (no tumbles), the ways programme or the count laws give the round's
    RTP exactly (Wald: spins played x a free spin's mean); the round's law is simulated."""
    g = _game(data)
    engine = "ways programme" if g.grid.pays == "ways" else "count laws"
    figures = _forced(g, "exact paid spin", engine)
    expected = _clean(ref.round_law(g))
    assert isinstance(figures.rtp, Fraction)
    assert figures.rtp == ref.mean(expected)
    assert figures.components["free_spins"] == ref.mean(expected) - ref.mean(
        _collapse(ref.spin_law(g)))


# -- the simulator against exact figures -----------------------------------------------------

#: a seeded run's figure must lie within Z standard errors of the exact one: the two-sided
#: 99.9 % normal band (a seeded run is deterministic: it passes or fails the same every time)
Z = 3.29
SIM_ROUNDS = 1 << 18


def _within(estimate, exact, what: str) -> None:
    se = estimate.std_error
    assert abs(float(estimate) - float(exact)) <= Z * se + 1e-12, (
        f"{what}: simulated {float(estimate)!r} +- {se:.3g}, exact {float(exact)!r}")


def _bombs(carry: bool):
    import dataclasses

    g = _load("bombs_tiny")
    return dataclasses.replace(g, multipliers=dataclasses.replace(g.multipliers, carry=carry))


SIMULATED = {
    "anywhere_tiny": lambda: _load("anywhere_tiny"),
    "cluster_tiny": lambda: _load("cluster_tiny"),
    "megaways_tiny": lambda: _load("megaways_tiny"),
    "random_tiny": lambda: _load("random_tiny"),
    "bombs_tiny": lambda: _bombs(False),
}


@pytest.mark.parametrize("name", sorted(SIMULATED))
def test_simulator_agrees_with_exact(name):
    """RTP, its components, hit frequency and the paid spin's hit frequency of a seeded run
    within the 99.9 % band of the exact figures (the enumeration or the random chain)."""
    from slotmath.simulate.grid import simulate_grid

    g = SIMULATED[name]()
    a = slotmath.analyze(g)
    assert a.exact
    figures = _owner(a)
    sim = simulate_grid(g, rounds=SIM_ROUNDS, seed=5)
    _within(sim.rtp, a.rtp, "RTP")
    _within(sim.hit_frequency, figures.hit_frequency, "hit frequency")
    _within(sim.base_hit_frequency, figures.base_hit_frequency, "paid spin hit frequency")
    kind = {"ways": "ways", "anywhere": "anywhere", "cluster": "cluster"}[g.grid.pays]
    for name_, exact in figures.components.items():
        key = "first" if name_ == kind else name_
        _within(sim.components[key], exact, name_)
    v = figures.variance
    # the variance's own standard error is not estimated: a loose 10 % band
    assert float(sim.variance) == pytest.approx(float(v), rel=0.1)


def test_simulator_agrees_with_brute_force_where_no_engine_is_exact():
    """Free spins carrying the bombs' total: no exact engine (unbounded), the brute force
    plays the carried total; the seeded simulation agrees, and the analysis says it
    simulated."""
    from slotmath.model.grid import with_settings
    from slotmath.simulate.grid import simulate_grid

    g = _bombs(True)
    sim = simulate_grid(g, rounds=SIM_ROUNDS, seed=5)
    law = _clean(ref.round_law(g))
    _within(sim.rtp, ref.mean(law), "RTP")
    _within(sim.hit_frequency, sum(p for w, p in law.items() if w), "hit frequency")
    a = slotmath.analyze(with_settings(g, rounds=1 << 16))
    assert not a.exact
    assert _owner(a).plan.method == "simulated"
    assert "accumulates over free spins" in _owner(a).plan.why
    _within(a.rtp, ref.mean(law), "the analysis's simulated RTP")


def test_simulator_same_on_any_number_of_threads_and_differs_by_seed():
    from slotmath.simulate.grid import simulate_grid

    g = _bombs(True)
    one = simulate_grid(g, rounds=3 << 16, seed=9, threads=1)
    two = simulate_grid(g, rounds=3 << 16, seed=9, threads=2)
    other = simulate_grid(g, rounds=3 << 16, seed=10, threads=2)
    assert one == two
    assert float(one.rtp) == float(two.rtp)
    assert one != other


def test_multipliers_per_sequence_not_per_drop():
    """A mutation (the bombs' total applied to each drop as it wins, each drop seeing only
    the bombs then in the window) gives another RTP than the brute force's per-sequence
    rule, which the engine follows: the fixture can tell the two apart."""
    g = _bombs(False)
    exact = slotmath.analyze(g).rtp
    assert exact == ref.mean(ref.round_law(g))
    mutated = Fraction(0)
    for p, columns, top, positions, tnext in ref._first_windows(g, "base"):
        mutated += p * _per_drop(g, columns, top, positions, tnext)
    assert mutated != _paid_spin_mean(g)


def _per_drop(g, columns, top, positions, tnext, won=0):
    """The paid spin's expected sequence win with each drop multiplied by the bombs' value
    law in its own window (the mutation), scatters left out."""
    win, removed = ref.drop_win(g, columns, top)
    if not win:
        return Fraction(0)
    m = ref.count_of(columns, top, "M")
    factor = ref.mean(ref._value_laws(g, False, m)) if m else 1
    total = win * factor
    if won + 1 >= g.tumbles.max_drops:
        return total
    for q, cols, tp, pos, nxt in ref._refills(g, "base", columns, top, removed, positions,
                                               tnext):
        total += q * _per_drop(g, cols, tp, pos, nxt, won + 1)
    return total


def _paid_spin_mean(g) -> Fraction:
    """The paid spin's expected sequence win (per sequence, the rule), scatters left out."""
    total = Fraction(0)
    for (win, m, _trig, _scat, _idx), p in ref.spin_outcomes(g).items():
        total += p * win * (ref.mean(ref._value_laws(g, False, m)) if (win and m) else 1)
    return total


# -- bad input: one line naming the file and the key ------------------------------------------

def _text(name: str) -> str:
    with open(f"{FIXTURES}/{name}.toml") as f:
        return f.read()


BAD = {  # name: (fixture, old, new, the key path the error must name)
    "rows_law": ("megaways_tiny", "rows = { heights = { 2 = 1, 3 = 2 } }",
                 "rows = { min = 3, max = 2 }", "rows.max"),
    "height_0": ("megaways_tiny", "rows = { heights = { 2 = 1, 3 = 2 } }",
                 "rows = { heights = { 0 = 1 } }", "rows.heights.0"),
    "pays_kind": ("anywhere_tiny", 'pays = "anywhere"', 'pays = "everywhere"', "pays"),
    "min_size": ("cluster_tiny", "min_size = 3", "min_size = 1", "cluster.min_size"),
    "adjacency": ("cluster_tiny", "min_size = 3", 'min_size = 3\nadjacency = "hex"',
                  "cluster.adjacency"),
    "pay_below_min_size": ("cluster_tiny", "min_size = 3", "min_size = 4", "symbols.A.pays"),
    "unknown_key": ("cluster_tiny", "min_size = 3", "min_size = 3\nsize = 4", "cluster.size"),
    "multiplier_symbol": ("bombs_tiny", 'symbol = "M"', 'symbol = "Q"', "multipliers.symbol"),
    "multiplier_value": ("bombs_tiny", "values = { 2 = 3, 5 = 1 }", "values = { 0 = 3 }",
                         "multipliers.values.0"),
    "combine": ("bombs_tiny", 'combine = "add"', 'combine = "max"', "multipliers.combine"),
    "refill_weights": ("random_tiny", "refill_weights.base", "#", "tumbles.refill_weights"),
    "refill": ("cluster_tiny", 'refill = "strip"', 'refill = "gravity"', "tumbles.refill"),
    "max_drops": ("cluster_tiny", 'refill = "strip"', 'refill = "strip"\nmax_drops = 0',
                  "tumbles.max_drops"),
    "wild_anywhere": ("anywhere_tiny", "X = {}", "X = {}\nW = { wild = true }", "symbols.W"),
    "top_reel_span": ("megaways_tiny", "reels = [2, 2]", "reels = [2, 9]", "top_reel.reels[1]"),
    "top_reel_anywhere": ("anywhere_tiny", "[reels]",
                          '[top_reel]\nreels = [2, 2]\nstrips = { base = ["A", "B"] }\n\n[reels]',
                          "top_reel"),
    "pay_decimals": ("anywhere_tiny", "A = { pays = { 3 = 1, 5 = 4 } }",
                     "A = { pays = { 3 = 1.0000000001, 5 = 4 } }", "symbols.A.pays.3"),
    "method": ("anywhere_tiny", "[reels]", '[analysis]\nmethod = "fast"\n\n[reels]',
               "analysis.method"),
    "exact_limit": ("anywhere_tiny", "[reels]", "[analysis]\nexact_limit = 0\n\n[reels]",
                    "analysis.exact_limit"),
}


@pytest.mark.parametrize("case", sorted(BAD))
def test_bad_input_is_one_line_naming_file_and_key(case):
    fixture, old, new, key = BAD[case]
    text = _text(fixture)
    assert old in text
    with pytest.raises(GameFileError) as err:
        slotmath.loads_game(text.replace(old, new, 1), f"{case}.toml")
    message = str(err.value)
    assert "\n" not in message
    assert message.startswith(f"{case}.toml: {key}: "), message


def _big_tumble_game(tmp_path):
    """A 6x5 pay-anywhere tumble game on 100-stop strips: 10^12 stop combinations."""
    names = ["A", "B", "C", "D", "E", "S"]
    reels = [[names[(7 * i + 3 * j + i * j) % 6] for i in range(100)] for j in range(6)]
    text = (
        'name = "Big Tumble"\npays = "anywhere"\nrows = 5\nbet = 1\n\n[symbols]\n'
        + "".join(f"{n} = {{ pays = {{ 8 = 1, 10 = 3, 12 = 10 }} }}\n" for n in names[:5])
        + 'S = { scatter = true, pays = { 4 = 3 } }\n\n[tumbles]\nrefill = "strip"\n\n'
        + f"[reels]\nbase = {reels!r}\n".replace("'", '"'))
    path = tmp_path / "big_tumble.toml"
    path.write_text(text)
    return path


def test_exact_refused_up_front_in_one_line(tmp_path):
    """Past the limit, method = "exact" is refused before anything is allocated, in one line
    with the estimate and what to do instead; auto simulates and says why."""
    from slotmath.features.grid import ExactRefused, plan
    from slotmath.model.grid import with_settings

    game = slotmath.load_game(_big_tumble_game(tmp_path))
    with pytest.raises(ExactRefused) as err:
        plan(with_settings(game, method="exact"))
    message = str(err.value)
    assert "\n" not in message
    assert "Big Tumble: no exact analysis: exact analysis (enumeration) needs ~" in message
    assert "over the limit of 2e+08" in message
    assert '--method simulate' in message
    auto = plan(game)
    assert auto.method == "simulated"
    assert "over the limit" in auto.why
    # a small game within the limit is exact; one step of limit refuses it too
    tiny = _load("cluster_tiny")
    assert plan(tiny).method == "exact"
    with pytest.raises(ExactRefused):
        plan(with_settings(tiny, method="exact", exact_limit=1))


def test_cli_refuses_exact_and_simulates_on_request(tmp_path, capsys):
    from slotmath.cli import main

    path = _big_tumble_game(tmp_path)
    code = main(["analyze", str(path), "--method", "exact"])
    out, err = capsys.readouterr()
    assert code == 2
    assert err.count("\n") == 1 and "Traceback" not in err
    assert str(path) in err and "no exact analysis" in err
    code = main(["analyze", str(path), "--rounds", "65536", "--seed", "3"])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert "simulated" in out
    assert "65,536" in out or "65536" in out


# -- dead pays: the entries no drop of the round can show --------------------------------------

def _anywhere_entries_shown(g) -> set:
    """(symbol, listed count) of every pay-anywhere entry some drop pays, over every window of
    every tumble sequence on the paid and the free reels (reference walk)."""
    shown: set = set()

    def walk(rs, columns, top, positions, nxt, won):
        for name in ref._paying(g):
            c = ref.count_of(columns, top, name)
            reached = [k for k in g.symbols[name].pays if k <= c]
            if reached:
                shown.add((name, max(reached)))
        win, removed = ref.drop_win(g, columns, top)
        if not win or g.tumbles is None or won + 1 >= g.tumbles.max_drops:
            return
        for _q, cols, tp, pos, n in ref._refills(g, rs, columns, top, removed, positions, nxt):
            walk(rs, cols, tp, pos, n, won + 1)

    sets = {"base"} | ({g.free_spins.reels} if g.free_spins is not None else set())
    for rs in sets:
        for _p, columns, top, positions, _t in ref._first_windows(g, rs):
            walk(rs, columns, top, positions, 0, 0)
    return shown


@pytest.mark.parametrize("name", ["anywhere_tiny", "bombs_tiny"])
def test_dead_pays_of_a_grid_game_are_those_no_drop_shows(name):
    """Dead pays of an exact grid game come from every drop of the paid and the free reels
    (an entry only a tumble reaches is alive); a simulated one names none (it cannot know)."""
    from slotmath.model.grid import with_settings
    from slotmath.report.dead_pays import dead_pays

    g = _bombs(False) if name == "bombs_tiny" else _load(name)
    shown = _anywhere_entries_shown(g)
    listed = {(n, c) for n in ref._paying(g) for c in g.symbols[n].pays}
    dead = {(e["symbol"], e["count"]) for e in dead_pays(slotmath.analyze(g))
            if e["kind"] == "pay"}
    assert dead == listed - shown
    if name == "bombs_tiny":
        assert dead == {("A", 5), ("B", 6)}  # B x4 lands only after a tumble: alive
    simulated = with_settings(g, method="simulate", rounds=1 << 16)
    assert dead_pays(slotmath.analyze(simulated)) == []


# -- the worked examples (data/games: simulated; the generic suites play them over fewer rounds) --

EXAMPLES = {"megaways_bonanza": "the drop multiplier carries over free spins",
            "sugar_tumble": "accumulates over free spins",
            "cluster_crush": "over the limit"}


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_worked_examples_plan_and_simulate(name):
    """Each worked game loads, states why it is simulated before anything is allocated, and
    plays a short seeded run whose RTP interval holds its first-drop component's."""
    from slotmath.features.grid import plan
    from slotmath.simulate.grid import simulate_grid

    game = slotmath.load_game(f"data/games/{name}.toml")
    p = plan(game)
    assert p.method == "simulated"
    assert EXAMPLES[name] in p.why, p.why
    sim = simulate_grid(game, rounds=8192, block=4096, seed=1)
    assert sim.rounds == 8192
    assert 0 < float(sim.components["first"]) <= float(sim.rtp) + 4 * sim.rtp.std_error


def test_bundled_grid_games_are_declared():
    """Every bundled game whose analysis simulates is named in tests/bundled.py's
    SUITE_ROUNDS (the rounds the generic suites play, fewer than its file's full report); each
    suite that leaves one out says why and reads its games through ``games_for``: leaving a
    game out of a suite is never silent."""
    from pathlib import Path

    import bundled

    from slotmath.features.grid import plan

    simulated = set()
    for path in bundled.ALL:
        game = slotmath.load_game(path)
        if game.grid is not None and plan(game).method != "exact":
            simulated.add(path.stem)
            suite = bundled.load(path)
            assert suite.analysis.rounds == bundled.SUITE_ROUNDS[path.stem]
            assert game.analysis.rounds is not None and game.analysis.rounds > 100 * (
                suite.analysis.rounds), f"{path.stem}: its file states the full report's rounds"
    assert simulated == set(bundled.SUITE_ROUNDS) == set(EXAMPLES)
    assert set(bundled.SUITE_ROUNDS) <= {p.stem for p in bundled.ANALYSED}
    tests = Path(__file__).resolve().parent
    for suite, games in bundled.NOT_APPLICABLE.items():
        assert set(games) <= simulated, suite
        assert all(len(why) > 60 for why in games.values()), suite
        assert f'games_for("{suite}")' in (tests / f"test_{suite}.py").read_text(), suite
        assert not set(games) & {p.stem for p in bundled.games_for(suite)}


def test_report_of_a_simulated_grid_game():
    """The workbook and the HTML of a simulated grid game are written (the generic win-size
    chart read the round's law, which a simulated round has not: an internal error), with the
    owner's own win sizes and their intervals instead."""
    from slotmath.model.grid import with_settings
    from slotmath.report.charts import chart_images
    from slotmath.report.html import html_text
    from slotmath.report.sheets import par_sheets
    from slotmath.report.workbook import workbook_bytes

    a = slotmath.analyze(with_settings(_bombs(True), rounds=1 << 16))
    sheets, charts = par_sheets(a), chart_images(a)
    titles = [c.title for c in charts]
    assert "Win sizes" not in titles and "Win distribution" not in titles
    assert "Grid: win sizes" in titles
    assert workbook_bytes(a, charts, sheets)[:2] == b"PK"
    assert "simulated" in html_text(a, charts, sheets)


def test_capped_numerical_rtp_states_a_bound_that_holds_the_brute_force():
    """Free spins and a max-win cap: the round's law is numerical (FFT), so is the capped
    RTP; its error is a real bound (misplaced mass x the cap, the law's mean error,
    roundoff), not 0, and it holds the brute force's exact capped RTP."""
    import dataclasses

    from slotmath.model.game import MaxWin

    g = dataclasses.replace(_bombs(False), max_win=MaxWin(bet_multiple=Fraction(6)))
    want = ref.mean(ref.round_law(g))
    uncapped = ref.mean(ref.round_law(_bombs(False)))
    assert want < uncapped  # the cap binds
    a = slotmath.analyze(g)
    assert _owner(a).plan.method == "exact" and not a.exact
    assert isinstance(a.rtp, float)
    assert 0 < a.rtp_error < 1e-6
    assert abs(a.rtp - float(want)) <= a.rtp_error
    assert report_error(a) == a.rtp_error


def report_error(a) -> float:
    from slotmath import report

    return report.analysis_dict(a)["rtp_error"]



def _with_dead_entries(name: str, edits: list[tuple[str, str]]):
    from pathlib import Path

    text = Path(f"tests/data/grid/{name}.toml").read_text()
    for old, new in edits:
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    return slotmath.loads_game(text, f"<{name} with dead entries>")


@pytest.mark.parametrize("method", ["exact", "simulate"])
def test_dead_pays_no_window_can_hold_are_named_exact_or_simulated(method):
    """Pay anywhere: Y x4 and S x7 need more cells than the reels they land on give (Y: reel
    1, 3 cells; S: reels 1 and 3, 6 cells; the loader refuses only counts above the whole
    window's 9), Z is on no strip. A simulated analysis cannot see which entries never land,
    but these no window can hold: it names exactly them; the exact one names them among
    those no drop shows (the brute force's, tests/grid_reference.py)."""
    from slotmath.model.grid import with_settings
    from slotmath.report.dead_pays import dead_pays

    g = _with_dead_entries("anywhere_tiny", [
        ("S = { scatter = true, pays = { 3 = 5 } }",
         "S = { scatter = true, pays = { 3 = 5, 7 = 50 } }"),
        ("X = {}", "X = {}\nY = { pays = { 2 = 1, 4 = 50 } }\nZ = { pays = { 3 = 1 } }"),
        ('base = [["A", "B", "X", "S"],', 'base = [["A", "B", "X", "S", "Y"],')])
    structural = {("pay", "Y", 4), ("scatter", "S", 7), ("pay", "Z", 3)}
    a = slotmath.analyze(with_settings(g, method=method, rounds=1 << 14))
    assert _owner(a).plan.method == ("exact" if method == "exact" else "simulated")
    dead = {(e["kind"], e["symbol"], e["count"]) for e in dead_pays(a)}
    if method == "simulate":
        assert dead == structural
    else:
        shown = {("pay",) + e for e in _anywhere_entries_shown(g)}
        listed = {("pay", n, c) for n in ref._paying(g) for c in g.symbols[n].pays}
        assert dead == (listed - shown) | structural


def test_dead_ways_pays_of_a_simulated_megaways_game():
    """Megaways: C lands on reel 3 only and no wild reaches reel 1, so C x2 (two reels from
    the left) is dead; A's entries and the scatter's are not (a wild on reel 2 and the top
    reel joins them)."""
    from slotmath.model.grid import with_settings
    from slotmath.report.dead_pays import dead_pays

    g = _with_dead_entries("megaways_tiny", [
        ("X = {}", "X = {}\nC = { pays = { 2 = 1 } }"),
        ('["B", "A", "S", "X", "A", "B"]', '["B", "A", "S", "X", "A", "B", "C"]')])
    a = slotmath.analyze(with_settings(g, method="simulate", rounds=1 << 14))
    assert [(e["kind"], e["symbol"], e["count"]) for e in dead_pays(a)] == [("pay", "C", 2)]


#: a fixed-seed run's rounds, RTP, a CRC-32 of all its statistics arrays, its integer sums
#: (RECORDED_STATS) and its first 12 drop counts, recorded from the simulator of main
#: 434e134 before the kernels were made faster (seed 7, blocks of 16,384, 2 threads)
RECORDED_STATS = ("rounds", "win", "hits", "paid hits", "first", "later", "multiplier",
                  "scatter", "free", "capped off", "triggers", "free spins", "capped", "top",
                  "top count", "cut", "retriggers", "overflow")
RECORDED = {
    "anywhere_tiny": (49152, 0.7498982747395834, 3332277512,
        [49152, 36859, 36859, 36859, 36859, 0, 0, 0, 0,
         0, 0, 0, 0, 1, 36859, 0, 0, 0],
        [12293, 36859, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]),
    "cluster_tiny": (49152, 2.5045979817708335, 2982889173,
        [49152, 123106, 33737, 33737, 92169, 30937, 0, 0, 0,
         0, 0, 0, 0, 9, 1282, 0, 0, 0],
        [15415, 23715, 4925, 3167, 1930, 0, 0, 0, 0, 0, 0, 0]),
    "megaways_tiny": (49152, 1.7814351399739585, 640169026,
        [49152, 875611, 45546, 45546, 496391, 0, 0, 379220, 0,
         0, 0, 0, 0, 120, 217, 0, 0, 0],
        [8570, 40582, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]),
    "random_tiny": (49152, 1.1185506184895833, 1995146180,
        [49152, 54979, 16353, 16353, 27215, 27764, 0, 0, 0,
         0, 0, 0, 0, 27, 1, 265, 0, 0],
        [32799, 11589, 3574, 925, 265, 0, 0, 0, 0, 0, 0, 0]),
    "bombs_carry": (49152, 8.863138834635416, 1826680546,
        [49152, 435641, 44257, 44257, 33127, 17978, 73181, 38097, 273258,
         0, 38097, 76194, 0, 53, 1, 4356, 0, 0],
        [16025, 26316, 2455, 4356, 0, 0, 0, 0, 0, 0, 0, 0]),
    "sugar_tumble": (65536, 0.9611677551269531, 73684378,
        [65536, 6299109, 9539, 9539, 4669332, 1349919, 0, 8100, 271758,
         0, 27, 295, 0, 56556, 1, 0, 5, 0],
        [56015, 7755, 1382, 301, 70, 9, 4, 0, 0, 0, 0, 0]),
    "cluster_crush": (16384, 0.9267584228515625, 3890191206,
        [16384, 1518401, 7430, 7430, 810504, 707897, 0, 0, 0,
         0, 0, 0, 0, 12413, 1, 0, 0, 0],
        [8954, 5369, 1480, 436, 111, 29, 3, 1, 1, 0, 0, 0]),
    "megaways_bonanza": (16384, 1.218432421875, 1417581165,
        [16384, 199627968, 11820, 11820, 26988119, 80463541, 0, 1697400, 90478908,
         0, 40, 520, 0, 30063948, 1, 0, 0, 0],
        [4567, 4364, 2788, 1698, 1029, 631, 441, 281, 214, 97, 77, 65]),
}


def _recorded_game(name: str):
    if name == "bombs_carry":
        return _bombs(True)
    if name.endswith("_tiny"):
        return _load(name)
    return slotmath.load_game(f"data/games/{name}.toml")


@pytest.mark.parametrize("name", sorted(RECORDED))
def test_simulator_figures_equal_those_recorded_before_the_fast_kernels(name):
    """The same seed gives the same sums as the simulator gave before its kernels were
    optimised (RTP, hits, top win and every other integer statistic, the drop counts, and a
    checksum of every array including the pay-table hits and the float moments): a faster
    kernel must draw the same numbers in the same order."""
    import zlib

    import numpy as np

    from slotmath.simulate.grid import simulate_grid

    rounds, rtp, crc, ints, drops = RECORDED[name]
    sim = simulate_grid(_recorded_game(name), rounds=rounds, seed=7, block=1 << 14, threads=2)
    s = sim.sums
    got = dict(zip(RECORDED_STATS, s.ints[0].tolist()))
    assert got == dict(zip(RECORDED_STATS, ints))
    assert s.drop_hist[0].tolist()[:12] == drops
    check = 0
    for a in s.arrays():
        check = zlib.crc32(np.ascontiguousarray(a).tobytes(), check)
    assert check == crc
    assert float(sim.rtp) == rtp
