"""The conveyor's round law and PAR figures (hit frequency, SD, win sizes, top award,
covariances of consecutive rounds) against two paths that share no code with the engine:

* the brute force of tests/conveyor_brute.py on the tiny game (every stop, wild placement and
  surprise draw of a spin; free spins by dense solves): exactly where the engine is exact
  (the spin's own law, every figure of a game whose baubles award no free spins), within the
  free spins' stated error otherwise;
* a seeded simulation of consecutive paid spins on Jingle Spin.

Each comparison is shown to fail on a mutation: spreads forgotten in the engine's line law
(brute force), baubles that do not move (simulation).
"""

from __future__ import annotations

import math
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from conveyor_brute import Brute
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import slotmath
from slotmath.errors import GameFileError
from slotmath.exact import random_wilds
from slotmath.exact.distribution import WinDistribution
from slotmath.exact.random_wilds import WildLines, WildSpinLaw
from slotmath.features.conveyor import ConveyorFeature, ConveyorRound, ConveyorSpinLaw
from slotmath.io.toml_loader import loads_game
from slotmath.simulate.conveyor import simulate_conveyor
from slotmath.stats.par import win_size_table

ROOT = Path(__file__).resolve().parents[1]
TINY = ROOT / "tests" / "data" / "conveyor_tiny.toml"
JINGLE = ROOT / "data" / "games" / "jingle_spin.toml"
TEXT = TINY.read_text()
CONSUMING = TEXT.replace("empty_weight = 2\n", "empty_weight = 2\nconsume_on_activation = true\n")
SHORT = "max_spins_left = 2"  # fewer free-spin states: the brute force's dense solves
NO_FREE_SPINS = (TEXT.replace('  { feature = "free_spins", value = 1, weight = 1 },\n', "")
                 .replace('  { feature = "free_spins", value = 2, weight = 1 },\n', "")
                 .replace("free_spins = 1, coin_win = 2", "coin_win = 2"))
VARIANTS = {
    "kept": TEXT.replace("max_spins_left = 4", SHORT),
    "consumed": CONSUMING.replace("max_spins_left = 4", SHORT),
}


def _as_brute(feature, state):
    return tuple(None if k == 0 else (feature.kinds[k - 1].feature, feature.kinds[k - 1].value)
                 for k in state)


def _pattern_sums(law: WildSpinLaw) -> dict:
    """Each option pattern's sum of credits x weight (Python ints)."""
    out = {}
    for options, (credits, weights) in law.laws.items():
        hi, lo = weights >> 31, weights & ((1 << 31) - 1)  # int64 products cannot overflow
        out[options] = (int((credits * hi).sum()) << 31) + int((credits * lo).sum())
    return out


def _pattern_mean(law: WildSpinLaw, sums: dict, spread) -> Fraction:
    """The line win's mean when a wild on reel j spreads with probability spread[j]: the
    option patterns weighted by it (the wild rows are in the table's weights)."""
    total = 0
    scale = 1
    for p in spread:
        scale *= p.denominator
    for options, pattern_sum in sums.items():
        factor = 1
        for j, o in enumerate(options):
            p = spread[j]
            factor *= (p.denominator if o == 0 else p.denominator - p.numerator if o == 1
                       else p.numerator)
        total += factor * pattern_sum
    return Fraction(total, scale * law.denominator * law.credits_per_bet)


@pytest.mark.parametrize("path", [TINY, JINGLE], ids=["tiny", "jingle"])
def test_the_pattern_law_gives_the_wild_line_means(path):
    """The per-pattern line laws (the full-cycle engine over overlaid windows) against the
    wild-line means of slotmath.exact.random_wilds.WildLines (a walk along each line), for
    spread chances 0, 1 and mixed: exact equality."""
    game = slotmath.load_game(path)
    law, lines = WildSpinLaw(game, "base"), WildLines(game, "base")
    sums = _pattern_sums(law)
    n = game.n_reels
    for spread in ([Fraction(0)] * n, [Fraction(1)] * n,
                   [Fraction(j % 3, 3) for j in range(n)]):
        assert _pattern_mean(law, sums, spread) == lines.mean(spread)


@pytest.mark.parametrize("text", [TEXT, CONSUMING], ids=["kept", "consumed"])
def test_the_spin_law_of_each_state_is_the_brute_forces(text):
    """The exact law of a paid spin's own pay and spins, per conveyor state, equals the brute
    force's (every stop, wild placement and surprise draw), Fraction for Fraction."""
    game = loads_game(text)
    feature = ConveyorFeature(game)
    figures = feature.analyze()
    brute = Brute(game)
    for state in figures.states[::5]:
        law = feature.spin_law(state)
        want = brute.spin_law(_as_brute(feature, state))
        got = {}
        for v in law.spins:
            d = law.distribution(v)
            p = law.spins_probability(v)
            for c, w in zip(d.credits.tolist(), d.weights.tolist()):
                got[Fraction(c, d.credits_per_bet), v] = p * Fraction(w, d.total)
        assert got == {k: p for k, p in want.items() if p}


#: a bet of 6 coins on 3 lines: a coin win of 5 is 5/6 of a bet, 2.5 line credits, so the
#: round's credits are halves of the lines' (ConveyorFeature.round_unit = 2)
HALF_CREDITS = (NO_FREE_SPINS.replace("bet = 3\n", "bet = 6\n")
                .replace("value = 3, weight = 1", "value = 5, weight = 1"))


@pytest.mark.parametrize("text", [NO_FREE_SPINS, HALF_CREDITS], ids=["plain", "half-credits"])
def test_without_free_spins_every_figure_is_exact_and_the_brute_forces(text):
    game = loads_game(text)
    figures = ConveyorFeature(game).analyze()
    r = figures.round
    assert figures.feature.round_unit == (2 if text is HALF_CREDITS else 1)
    brute = Brute(game)
    law = brute.stationary_spin_law()
    cpb = r.spin.credits_per_bet
    denominator = math.lcm(*(p.denominator for p in law.values()))
    assert all((x * cpb).denominator == 1 for x, _ in law)
    want = WinDistribution.from_mapping(
        {int(x * cpb): int(p * denominator) for (x, _), p in law.items() if p}, cpb)
    assert r.exact and r.round_law == want
    mean, second, hit = brute.round_figures(law)
    assert (r.mean, r.second_moment, r.hit_frequency) == (mean, second, hit)
    assert r.variance == second - mean**2 and isinstance(r.variance, Fraction)
    assert r.mean == figures.rtp  # the engine's RTP (wild-line means, coins per state)
    rows = r.win_sizes()
    assert [(x.label, x.probability, x.rtp_share) for x in rows] == [
        (x.label, x.probability, x.rtp_share) for x in win_size_table(want)]
    top = max(x for x, _ in law)
    assert r.top_award.multiple == top
    assert r.top_award.probability == sum(p for (x, _), p in law.items() if x == top)


@pytest.fixture(scope="module", params=list(VARIANTS), ids=list(VARIANTS))
def pair(request):
    game = loads_game(VARIANTS[request.param])
    figures = ConveyorFeature(game).analyze()
    brute = Brute(game)
    return figures, brute, brute.free_spin_moments()


def test_free_spin_moments_are_the_brute_forces(pair):
    figures, _, (F1, F2, Z) = pair
    f = figures.feature.free_spin_moments
    assert f.mean_error < 1e-9 and f.second_error < 1e-7 and f.zero_error < 1e-9
    for n in range(len(F1)):
        mean, second, zero = f.of(n)
        assert mean == pytest.approx(F1[n], rel=1e-9, abs=f.mean_error + 1e-12)
        assert second == pytest.approx(F2[n], rel=1e-9, abs=f.second_error + 1e-12)
        assert zero == pytest.approx(Z[n], rel=1e-9, abs=f.zero_error + 1e-15)
        # the free spins' mean without coin kinds merged: the feature's own chain
        assert mean == pytest.approx(figures.feature.free_spin_value(n), rel=1e-10)


def test_stationary_round_figures_are_the_brute_forces(pair):
    figures, brute, free = pair
    r = figures.round
    mean, second, hit = brute.round_figures(brute.stationary_spin_law(), free)
    e = r.errors
    assert float(r.mean) == pytest.approx(mean, rel=1e-10, abs=e["mean"])
    assert float(r.second_moment) == pytest.approx(second, rel=1e-10, abs=e["second_moment"])
    assert float(r.hit_frequency) == pytest.approx(hit, rel=1e-12, abs=e["hit_frequency"])
    assert float(r.mean) == pytest.approx(float(figures.rtp), abs=e["mean"] + figures.error)
    assert 0 < e["hit_frequency"] < 1e-12 and 0 < e["second_moment"] < 1e-6


def test_covariances_of_consecutive_rounds_are_the_brute_forces(pair):
    """Cov(W_0, W_k) from the fundamental-matrix form (engine) and by conditioning on each
    state's wild placements and the conveyor they leave (brute force); rounds n or more
    apart are independent (every slot refilled since the last bauble a round saw)."""
    figures, brute, free = pair
    r = figures.round
    n = figures.feature.n
    want = brute.lag_covariances(n + 1, free[0])
    assert r.covariances == pytest.approx(want, rel=1e-9, abs=r.covariance_error + 1e-12)
    assert abs(want[0]) > 0.1 and all(abs(g) < 1e-10 for g in want[n - 1:])
    rounds = 50
    variance = (rounds * float(r.variance)
                + 2 * sum((rounds - k) * g for k, g in enumerate(want, start=1))) / rounds**2
    assert r.mean_variance(rounds) == pytest.approx(variance, rel=1e-9)
    ci = r.confidence_interval(10**6, 0.95)
    half = 1.959964 * math.sqrt(r.asymptotic_variance / 10**6)
    assert ci.upper - ci.lower == pytest.approx(2 * half, rel=1e-5)


def test_the_brute_force_comparison_fails_when_spreads_are_forgotten(monkeypatch):
    """Mutation: the engine's line law with the spread wilds dropped (each spreading wild
    makes only its own cell wild). The stationary SD and hit frequency must leave the brute
    force's (the RTP too: spreads pay 10% of Jingle Spin's)."""
    game = loads_game(VARIANTS["kept"])
    brute = Brute(game)
    mean, second, hit = brute.round_figures(brute.stationary_spin_law())

    def forgotten(game, spreads):
        return [{r} if r is not None else set() for r in spreads]

    monkeypatch.setenv("SLOTMATH_CACHE", "off")  # never read the true table from the store
    monkeypatch.setattr(random_wilds, "spread_cells", forgotten)
    r = ConveyorFeature(game).analyze().round
    assert abs(float(r.mean) - mean) > 1e3 * r.errors["mean"] + 1e-6
    assert abs(float(r.second_moment) - second) > 1e3 * r.errors["second_moment"] + 1e-6
    assert abs(float(r.hit_frequency) - hit) > 1e-6


# -- Jingle Spin: the figures, and a seeded simulation of consecutive spins -------------------

@pytest.fixture(scope="module")
def jingle():
    return ConveyorFeature(slotmath.load_game(JINGLE)).analyze()


def test_jingle_spin_round_figures(jingle):
    r = jingle.round
    assert not r.exact and r.round_law is None
    assert float(r.mean) == pytest.approx(float(jingle.rtp), abs=r.errors["mean"] + jingle.error)
    assert 0.35 < r.hit_frequency < 0.45 and 4 < r.std < 6
    assert r.errors["hit_frequency"] < 1e-12 and r.errors["variance"] < 1e-8
    # the paid spin's top award: five wild reels pay the best five of a kind on every line;
    # it takes two spreads (each covers three reels), so coins on at most the other three
    top = r.top_award
    game = jingle.feature.game
    best_line = max(s.pays.get(5, 0) for s in game.symbols.values()) * game.n_lines
    coins = 3 * max(b.value for b, _ in game.conveyor.wheel if b.feature == "coin_win")
    assert top.credits == best_line + coins and 0 < top.probability < Fraction(1, 10**15)
    # rounds n or more apart are independent; the RTP over N rounds varies more than
    # independent rounds would say
    n = jingle.feature.n
    assert all(abs(g) < 1e-12 for g in r.covariances[n - 1:])
    assert r.asymptotic_variance > float(r.variance) > 0


SPINS = 12_000


def _simulation_agrees(r, sim) -> list[str]:
    """The simulated hit frequency and mean squared win against the engine's, each within
    4 batch-means standard errors (consecutive rounds are correlated)."""
    out = []
    hit, hit_se = sim.hit_frequency()
    if abs(hit - float(r.hit_frequency)) > 4 * hit_se:
        out.append(f"hit frequency {hit} +- {hit_se} vs {float(r.hit_frequency)}")
    second, second_se = sim.second_moment()
    if abs(second - float(r.second_moment)) > 4 * second_se:
        out.append(f"E[W^2] {second} +- {second_se} vs {float(r.second_moment)}")
    return out


def _bands_agree(r, sim) -> list[str]:
    """The simulated share of rounds in each win-size band (rounds that award free spins in
    their own row) within 4 batch-means standard errors of the engine's."""
    out = []
    cpb = r.spin.credits_per_bet
    for row in r.win_sizes():
        if row.lower is None:
            where = sim.awarded > 0
        else:
            credits = np.rint(sim.wins * cpb)  # whole credits: no band edge is missed
            high = math.inf if row.upper is None else float(row.upper * cpb)
            low = -1 if row.upper == 0 else float(row.lower * cpb)
            where = (sim.awarded == 0) & (credits > low) & (credits <= high)
        share, se = sim.share(where)
        p = float(row.probability)  # the binomial error too: a rare band may not be seen
        if abs(share - p) > 4 * max(se, math.sqrt(p * (1 - p) / len(sim.wins))):
            out.append(f"{row.label}: {share} +- {se} vs {float(row.probability)}")
    return out


def test_jingle_spin_simulation_agrees_and_unmoving_baubles_do_not(jingle):
    r = jingle.round
    game = jingle.feature.game
    sim = simulate_conveyor(game, SPINS, seed=3)
    assert _simulation_agrees(r, sim) == []
    assert _bands_agree(r, sim) == []
    assert sim.std() == pytest.approx(r.std, rel=0.5)  # a heavy tail: loose on its own
    # the simulator's mutation: baubles that never move (only reel 5 keeps one)
    mutant = simulate_conveyor(game, SPINS, seed=3, moving=False)
    assert _simulation_agrees(r, mutant) != []
    # the engine's mutation: the coin wins left out of the spin's law (its bands)
    spin = r.spin
    coinless: dict = {}
    for (options, _, spins), w in spin.mixture.items():
        coinless[options, 0, spins] = coinless.get((options, 0, spins), 0) + w
    forgot = ConveyorRound(ConveyorSpinLaw(spin.table, coinless, spin.mixture_denominator,
                                           spin.unit), r.free)
    assert _bands_agree(forgot, sim) != []


def test_a_state_s_round_and_the_stationary_one(jingle):
    """Per visible state: the round from the empty conveyor pays its line wins only (no
    bauble can act) and the engine's state RTPs are the per-state round means."""
    feature = jingle.feature
    empty = feature.state_round((0,) * feature.n)
    assert empty.spin.spins == (0,)
    assert empty.mean == pytest.approx(float(jingle.components["lines"]), rel=1e-14)
    means, _ = feature.round_means()
    K = len(feature.kinds) + 1
    codes = [sum(k * K ** (feature.n - 1 - j) for j, k in enumerate(s)) for s in jingle.states]
    assert np.max(np.abs(means[codes] - jingle.state_rtp)) < 1e-12


# -- random small conveyors ----------------------------------------------------------------------

_weights = st.lists(st.integers(0, 4), min_size=3, max_size=3).filter(lambda w: w[0] > 0)


@settings(max_examples=3, deadline=None, suppress_health_check=list(HealthCheck))
@given(wilds=st.lists(_weights, min_size=3, max_size=3),
       wheel=st.lists(st.integers(0, 3), min_size=6, max_size=6).filter(lambda w: sum(w) > 0),
       empty=st.integers(0, 3), consume=st.booleans(),
       surprise=st.lists(st.integers(1, 3), min_size=3, max_size=3))
def test_random_small_conveyors_round_figures_are_the_brute_forces(wilds, wheel, empty,
                                                                  consume, surprise):
    text = TEXT.replace("max_spins_left = 4", "max_spins_left = 2")
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
    figures = ConveyorFeature(game).analyze()
    r = figures.round
    brute = Brute(game)
    law = brute.stationary_spin_law()
    free = brute.free_spin_moments() if any(v for _, v in law) else None
    mean, second, hit = brute.round_figures(law, free)
    if r.exact:
        assert (r.mean, r.second_moment, r.hit_frequency) == (mean, second, hit)
    else:
        e = r.errors
        assert float(r.mean) == pytest.approx(mean, rel=1e-10, abs=e["mean"])
        assert float(r.second_moment) == pytest.approx(second, rel=1e-10,
                                                       abs=e["second_moment"])
        assert float(r.hit_frequency) == pytest.approx(hit, rel=1e-12,
                                                       abs=e["hit_frequency"])
    F1 = free[0] if free is not None else [0.0] * 3
    want = brute.lag_covariances(2, F1)
    assert r.covariances[:2] == pytest.approx(want, rel=1e-9, abs=r.covariance_error + 1e-12)
