"""The simulator's progressive jackpots and max-win cap against independent references.

References, each computed without the simulator:

* ``exact_chances``: the law of the number K of bonus-wheel spins per paid round, exactly
  (Fractions), from brute-force (trigger count, trigger lines) tables and a recursion over
  (free spins left, spins awarded); checked against :func:`slotmath.analyze`'s float law.
* :func:`slotmath.markov.jackpot.analyze_pool` driven by ``exact_chances``: each pool's hit
  rate, mean value at a hit and RTP share. A wheel spin hits pool j with probability
  ``p_j(pool_j)`` whatever the other pools hold (as long as the slices fit in [0, 1)), so each
  pool on its own is exactly the single-pool renewal model.
* :func:`slotmath.analyze`: the round's coin part, the cap's effect and the total RTP, with
  their error bounds.
* Money conservation per pool, exact cases worked out by hand (a cap whose value is not a
  whole number of credits, slices that add up to more than 1).

Statistical checks use fixed seeds, so they are deterministic; each allows 4.5 standard errors
(the simulator's batch-means errors) plus the reference's own error bound.
"""

from __future__ import annotations

import json
import math
from dataclasses import replace
from fractions import Fraction
from functools import cache
from pathlib import Path

import numpy as np
import pytest
from strategies import JACKPOT_GAME, jackpot_game

import slotmath
from slotmath.cli import main
from slotmath.exact.brute import brute_force_line_trigger
from slotmath.markov.jackpot import JackpotPool, analyze_pool, hit_law
from slotmath.model.game import Game, JackpotSpec
from slotmath.simulate import _kernels, jackpots, monte_carlo, simulate

ROOT = Path(__file__).resolve().parents[1]
Z = 4.5  # standard errors allowed between an estimate and its reference
SPINS = 1_000_000
LEVELS = [1, 2]


# -- independent references ----------------------------------------------------------------

def exact_chances(game: Game, level: int) -> dict[int, Fraction]:
    """``P(K = k)``: wheel spins per paid round (paid spin and all its free spins), exactly.

    From the brute-force tables, the law of (trigger count, wheel spins) of one spin on each
    reel set; a feature's remaining wheel spins depend only on (spins left, spins awarded so
    far), so they follow by recursion, convolved with the paid spin's own wheel spins.
    """
    fs, wheel = game.free_spins, game.bonus_wheel
    assert fs.max_spins is not None  # the recursion ends

    def spin_law(reel_set: str) -> dict[tuple[int, int], Fraction]:
        table = brute_force_line_trigger(game, wheel.symbol, wheel.count, reel_set, level)
        out: dict[tuple[int, int], Fraction] = {}
        for (trigger, lines, _), weight in table.weights.items():
            key = (trigger, wheel.spins_for(lines))
            out[key] = out.get(key, 0) + Fraction(weight, table.cycle)
        return out

    base, free = spin_law("base"), spin_law(fs.reels)

    def add(out: dict, k: int, p: Fraction) -> None:
        out[k] = out.get(k, 0) + p

    @cache
    def rest(left: int, awarded: int) -> dict[int, Fraction]:
        if left == 0:
            return {0: Fraction(1)}
        out: dict[int, Fraction] = {}
        for (trigger, k), p in free.items():
            extra = min(fs.award_for(trigger) if fs.retrigger else 0, fs.max_spins - awarded)
            for more, q in rest(left - 1 + extra, awarded + extra).items():
                add(out, k + more, p * q)
        return out

    chances: dict[int, Fraction] = {}
    for (trigger, k), p in base.items():
        award = min(fs.award_for(trigger), fs.max_spins)
        for more, q in rest(award, award).items():
            add(chances, k + more, p * q)
    return chances


@cache
def _chances(level: int) -> dict[int, Fraction]:
    return exact_chances(jackpot_game(), level)


@cache
def _pool_reference(level: int, name: str):
    game = jackpot_game()
    spec = next(s for s in game.jackpots if s.name == name)
    return analyze_pool(JackpotPool.from_spec(spec, level), game.bet_value(level),
                        _chances(level))


@cache
def _simulated(level: int):
    return simulate(jackpot_game(), SPINS, seed=2024, level=level)


@cache
def _analysis(level: int):
    return slotmath.analyze(jackpot_game(), level)


def _close(estimate: float, reference: float, std_error: float, bound: float = 0.0) -> bool:
    return abs(estimate - reference) <= Z * std_error + bound


# -- the wheel-spins law both references use ------------------------------------------------

@pytest.mark.parametrize("level", LEVELS)
def test_exact_chances_agree_with_analysis(level):
    chances = _chances(level)
    assert sum(chances.values()) == 1
    figures = _analysis(level).features["jackpots"]
    mean = sum(k * p for k, p in chances.items())
    assert mean == figures.mean_chances  # exact, by two different routes
    assert set(figures.chances) <= set(chances)
    for k, p in chances.items():
        assert figures.chances.get(k, 0.0) == pytest.approx(float(p), abs=1e-12)


def test_exact_chances_by_hand():
    # Without free spins K is the paid spin's wheel spins: "once" -> P(K=1) = P(a line).
    game = jackpot_game()
    no_feature = replace(game, free_spins=replace(game.free_spins, awards={9: 1}))
    table = brute_force_line_trigger(game, "BN", 2, "base")
    p_line = Fraction(sum(w for (_, b, _), w in table.weights.items() if b), table.cycle)
    assert exact_chances(no_feature, 1) == {0: 1 - p_line, 1: p_line}


# -- pools against the renewal model --------------------------------------------------------

@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("name", ["MINI", "GRAND"])
def test_pools_match_the_renewal_model(level, name):
    result = _simulated(level).jackpot(name)
    reference = _pool_reference(level, name)
    bounds = reference.error_bounds
    assert result.hits_per_block > 50  # enough hits a block for honest batch means
    assert _close(result.hits_per_round, reference.hits_per_round,
                  result.hits_per_round_std_error,
                  bounds["mean_rounds_between_hits"] / reference.mean_rounds_between_hits ** 2)
    assert _close(result.mean_value, reference.hit_value_mean, result.mean_value_std_error,
                  bounds["hit_value_mean"])
    assert _close(result.rtp, reference.rtp_contribution, result.rtp_std_error,
                  bounds["rtp_contribution"])
    assert result.one_in == pytest.approx(1 / result.hits_per_round)
    # The analysis's pool (float chances) is the same model.
    assert _analysis(level).features["jackpots"].pools[name].rtp_contribution == pytest.approx(
        reference.rtp_contribution, rel=1e-6)


@pytest.mark.parametrize("level", LEVELS)
def test_round_matches_analysis(level):
    result, a = _simulated(level), _analysis(level)
    c = {k: float(v) for k, v in a.components.items()}
    se = result.std_error
    assert _close(result.rtp, a.rtp_float, se, a.rtp_error)
    assert _close(result.jackpot_rtp, c["jackpots"], se, a.features["jackpots"].error)
    assert result.jackpot_rtp == pytest.approx(sum(p.rtp for p in result.jackpots), rel=1e-12)
    # The wheel's coin part (net of the spins that won a jackpot), and the rest of the coins.
    assert _close(result.bonus_wheel, c["bonus_wheel"], se, a.features["jackpots"].error)
    coins = result.base + result.free_spins - result.bonus_wheel
    assert _close(coins, c["lines"] + c["scatter"] + c["free_spins"], se)
    # The cap: what it removed, against the analysis's bracketed estimate.
    assert result.capped_rounds > 0
    assert _close(result.max_win_cap, c["max_win_cap"], result.max_win_cap_std_error,
                  a.features["max_win_cap"].error)
    assert result.batches == jackpots.BLOCKS


def test_levels_differ_as_their_factors_say():
    # Level 2 doubles the bet and scales GRAND's law by 3: more GRANDs per round.
    one, two = _simulated(1).jackpot("GRAND"), _simulated(2).jackpot("GRAND")
    assert two.hits_per_round > 2 * one.hits_per_round


# -- bookkeeping ------------------------------------------------------------------------------

@pytest.mark.parametrize("level", LEVELS)
def test_money_is_conserved_across_batches(level, monkeypatch):
    # Every contribution is paid or still in the pool or reserve; the operator adds the seed
    # at the start and at every restart. Small batches: the pools carry over between them.
    monkeypatch.setattr(monte_carlo, "BATCH", 7_000)
    game = jackpot_game()
    spins = 50_000
    result = simulate(game, spins, seed=5, level=level)
    bet = float(game.bet_value(level))
    for spec, pool in zip(game.jackpots, result.jackpots):
        assert pool.name == spec.name and pool.hits > 100
        put_in = float(spec.seed) * (1 + pool.hits) + float(spec.contribution) * bet * spins
        taken = pool.mean_value * pool.hits + pool.final_pool + pool.final_reserve
        assert taken == pytest.approx(put_in, rel=1e-12)
        assert pool.rtp == pytest.approx(pool.mean_value * pool.hits / (spins * bet), rel=1e-12)
        assert pool.final_pool >= float(spec.seed)
    assert simulate(game, spins, seed=5, level=level) == result


def test_same_seed_same_result():
    game = jackpot_game()
    first = simulate(game, 30_000, seed=11, level=2)
    assert simulate(game, 30_000, seed=11, level=2) == first
    assert simulate(game, 30_000, seed=12, level=2) != first
    assert first.as_dict()["jackpots"][0]["one_in"] == first.jackpots[0].one_in


def test_batch_means_standard_error_is_honest():
    # The spread of 24 independent runs against the standard error each run reports.
    game = jackpot_game()
    runs = [simulate(game, 40_000, seed=100 + i, level=2) for i in range(24)]
    spread = float(np.std([r.rtp for r in runs], ddof=1))
    reported = float(np.sqrt(np.mean([r.std_error ** 2 for r in runs])))
    assert 0.6 < spread / reported < 1.5  # about 3 SD of the ratio's sampling error
    pool_spread = float(np.std([r.jackpot("GRAND").rtp for r in runs], ddof=1))
    pool_reported = float(np.sqrt(np.mean([r.jackpot("GRAND").rtp_std_error ** 2
                                           for r in runs])))
    assert 0.6 < pool_spread / pool_reported < 1.5


def test_block_sizes():
    for spins, blocks in ((10, 3), (1000, 100), (1001, 100), (7, 7)):
        sizes = jackpots.block_sizes(spins, blocks)
        assert sizes.sum() == spins and sizes.max() - sizes.min() <= 1
        owners = jackpots.block_of(0, spins, spins, blocks)
        assert np.bincount(owners, minlength=blocks).tolist() == sizes.tolist()


# -- the hit laws and the slices ---------------------------------------------------------------

def _with_pools(game: Game, specs: list[JackpotSpec]) -> Game:
    wheel = replace(game.bonus_wheel, jackpots=tuple(s.name for s in specs))
    return replace(game, jackpots=tuple(specs), bonus_wheel=wheel)


def _spec(name: str, law: str, factors=(1.0, 1.0), **parameters) -> JackpotSpec:
    return JackpotSpec(name, Fraction(5), Fraction(1, 50), Fraction(1, 10), law, parameters,
                       {1: factors[0], 2: factors[1]})


def test_kernel_hit_laws_equal_the_markov_laws():
    specs = [
        _spec("C", "constant", (1.0, 4.0), probability=0.3),  # 1.2 at level 2: capped at 1
        _spec("L", "linear", (1.0, 2.5), rate=0.01),  # reaches 1 at pool 100 (40 at level 2)
        _spec("S", "saturating", (1.0, 3.0), p_max=0.3, half=50.0),  # p_max x 3 = 0.9
        _spec("H", "saturating", (0.5, 1.0), p_max=0.2, half=0.0),  # 0 at an empty pool
    ]
    game = _with_pools(jackpot_game(), specs)
    pools = np.concatenate(([0.0, 1e-9, 5.0, 39.99, 40.0, 99.9, 100.0, 1e6],
                            np.linspace(0, 300, 61)))
    for level in LEVELS:
        kinds, a, b = jackpots.law_arrays(game, level)
        for j, spec in enumerate(specs):
            law = hit_law(spec.law, spec.parameters, spec.factor(level))
            got = [_kernels.hit_probability(kinds[j], a[j], b[j], x) for x in pools]
            np.testing.assert_array_equal(got, law(pools))
    # p_max x factor above 1 is no saturating law: refused here as by the analysis
    game = _with_pools(jackpot_game(), [_spec("S", "saturating", (1.0, 3.0), p_max=0.4,
                                              half=50.0)])
    with pytest.raises(ValueError, match="p_max x level factor"):
        jackpots.law_arrays(game, 2)


def _play(u: list[float], probabilities: tuple[float, float], coin: int = 7):
    """One round with len(u) wheel spins against two constant-law pools."""
    n = len(u)
    state = _kernels.PoolState(
        seed=np.array([5.0, 50.0]), to_pool=np.array([1.0, 2.0]),
        to_reserve=np.array([0.25, 0.5]), law=np.zeros(2, np.int64),
        law_a=np.array(probabilities), law_b=np.zeros(2), spins=1, blocks=1,
        pool=np.array([10.0, 100.0]), reserve=np.array([0.5, 2.0]),
        block_hits=np.zeros((2, 1), np.int64), block_paid=np.zeros((2, 1)))
    batch = _kernels.WheelBatch(
        first=0, wheel_base=np.array([1]), wheel_free=np.array([n - 1]), u=np.array(u),
        coin=np.full(n, coin), paid=np.zeros(1), coin_base=np.zeros(1, np.int64),
        coin_free=np.zeros(1, np.int64))
    _kernels.jackpot_rounds(state, batch)
    hits, block_paid, pool = state.block_hits, state.block_paid, state.pool
    coin_base, coin_free = batch.coin_base, batch.coin_free
    return (hits[:, 0].tolist(), block_paid[:, 0].tolist(), int(coin_base[0]),
            int(coin_free[0]), pool.tolist())


def test_slices_by_hand():
    # Contribution first (pools 11 and 102, reserves 0.75 and 2.5), then the wheel spins.
    assert _play([0.05], (0.1, 0.2)) == ([1, 0], [11.0, 0.0], 0, 0, [5.75, 102.0])
    assert _play([0.1], (0.1, 0.2))[:2] == ([0, 1], [0.0, 102.0])
    assert _play([0.5], (0.1, 0.2))[:4] == ([0, 0], [0.0, 0.0], 7, 0)
    # Two wheel spins hitting the same pool: the second pays the restarted pool.
    hits, paid, _, _, pool = _play([0.05, 0.05], (0.1, 0.2))
    assert hits == [2, 0] and paid == [11.0 + 5.75, 0.0] and pool[0] == 5.0
    assert _play([0.5, 0.99], (0.1, 0.2))[2:4] == (7, 7)  # paid spin's coins, then free
    # Slices adding up to more than 1 are clipped in pool order: nothing left for coins.
    assert _play([0.69, 0.7, 0.999999], (0.7, 0.6))[0] == [1, 2]


def test_clipped_slices_in_a_game():
    game = _with_pools(jackpot_game(), [_spec("A", "constant", probability=0.7),
                                        _spec("B", "constant", probability=0.6)])
    result = simulate(game, 50_000, seed=3)
    assert result.bonus_wheel == 0
    a, b = result.jackpot("A").hits, result.jackpot("B").hits
    share = a / (a + b)
    assert abs(share - 0.7) <= Z * math.sqrt(0.21 / (a + b))


# -- the max-win cap ---------------------------------------------------------------------------

def _without_jackpots(game: Game) -> Game:
    return replace(game, jackpots=(), bonus_wheel=replace(game.bonus_wheel, jackpots=()))


@pytest.mark.parametrize("level", LEVELS)
def test_cap_without_jackpots_matches_analysis(level):
    game = _without_jackpots(jackpot_game())
    result = simulate(game, 400_000, seed=17, level=level)
    a = slotmath.analyze(game, level)
    assert result.batches == 0 and result.jackpots == () and result.jackpot_rtp == 0
    assert result.std_error == pytest.approx(result.std / math.sqrt(result.spins))
    assert result.capped_rounds > 0
    assert _close(result.max_win_cap, float(a.components["max_win_cap"]),
                  result.max_win_cap_std_error, a.features["max_win_cap"].error)
    assert _close(result.rtp, a.rtp_float, result.std_error, a.rtp_error)
    capped_share = result.capped_rounds / result.spins
    reach = float(a.features["max_win_cap"].probability)  # P(coin win >= cap) >= P(coin win > cap)
    assert capped_share <= reach + Z * math.sqrt(reach / result.spins)
    # The same game without its cap: the simulator pays more, by what the cap removed.
    uncapped = simulate(replace(game, max_win=None), 400_000, seed=17, level=level)
    assert uncapped.base == result.base and uncapped.free_spins == result.free_spins
    assert uncapped.rtp == pytest.approx(result.rtp - result.max_win_cap, abs=1e-12)


CERTAIN_WIN = """
rows = 1
bet = 1
bet_levels = [1, 2]
coin_value = 1
paylines = [[0, 0, 0]]
[symbols]
A = { pays = { 3 = 10 } }
[reels]
base = [["A"], ["A"], ["A"]]
[max_win]
currency = 7.5
"""


@pytest.mark.parametrize("level, cap", [(1, Fraction(15, 2)), (2, Fraction(15, 4))])
def test_cap_that_is_not_a_whole_number_of_credits(level, cap):
    # Every round wins 10 bets; the cap is 7.5 coins: 7.5 bets at level 1, 3.75 at level 2.
    game = slotmath.loads_game(CERTAIN_WIN)
    assert game.cap_coins(level) / game.total_bet(level) == cap
    result = simulate(game, 10_000, seed=1, level=level)
    assert result.rtp == float(cap) and result.max_win_cap == float(cap - 10)
    assert result.capped_rounds == 10_000 and result.std == 0 == result.max_win_cap_std_error
    assert result.base == 10 and result.hit_frequency == 1


# -- the command line ------------------------------------------------------------------------

def test_cli_shows_jackpots_and_cap(capsys, tmp_path):
    path = tmp_path / "jackpot.toml"
    path.write_text(JACKPOT_GAME)
    argv = ["simulate", str(path), "--spins", "20000", "--seed", "3", "--bet-level", "2"]
    assert main(argv + ["--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    result = simulate(jackpot_game(), 20_000, seed=3, level=2)
    assert doc["rtp"] == result.rtp and doc["bet_level"] == 2 and doc["currency"] == "EUR"
    assert doc["max_win_cap"] == result.max_win_cap
    assert doc["capped_rounds"] == result.capped_rounds
    assert doc["jackpot_rtp"] == result.jackpot_rtp
    assert set(doc["jackpots"]) == {"MINI", "GRAND"}
    grand = doc["jackpots"]["GRAND"]
    assert grand["hits"] == result.jackpot("GRAND").hits
    assert grand["one_in"] == pytest.approx(result.jackpot("GRAND").one_in)
    assert main(argv) == 0
    text = capsys.readouterr().out
    for fragment in ("max-win cap", "MINI", "GRAND", "1 in", "EUR", "batch means"):
        assert fragment in text


def test_cli_plain_game_has_no_jackpot_lines(capsys):
    assert main(["simulate", str(ROOT / "data/games/tiny_lines.toml"), "--spins", "2000",
                 "--seed", "1"]) == 0
    text = capsys.readouterr().out
    assert "max-win cap" not in text and "jackpot" not in text.lower()



def test_multiplied_jackpot_wheel_is_refused():
    # The loader refuses it; a Game built in code is refused by the simulator the same way.
    game = jackpot_game()
    game = replace(game, bonus_wheel=replace(game.bonus_wheel, multiplied=True))
    with pytest.raises(ValueError, match="must not multiply"):
        simulate(game, 10, seed=1)
