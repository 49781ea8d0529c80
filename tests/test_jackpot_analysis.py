"""Progressive jackpots and the max-win cap in ``analyze()``, each figure against a path that
does not share its code: brute-force spin tables, plain convolution, money conservation.

The three mistakes these tests are built to catch: a bonus-wheel win multiplied in free spins,
a jackpot counted twice, and a missing (or misplaced) max-win cap.
"""

from __future__ import annotations

import json
from dataclasses import replace
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from strategies import JACKPOT_GAME, jackpot_game

import slotmath
from slotmath import report
from slotmath.cli import main
from slotmath.exact.brute import brute_force_line_trigger
from slotmath.markov.jackpot import JackpotPool, analyze_pool

ROOT = Path(__file__).resolve().parents[1]
GMF = ROOT / "data/games/gold_money_frog.toml"


def variant(*edits: tuple[str, str]) -> slotmath.Game:
    """:data:`JACKPOT_GAME` with text edits (each must apply exactly once)."""
    text = JACKPOT_GAME
    for old, new in edits:
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    return slotmath.loads_game(text, "<jackpot variant>")


NO_RETRIGGER = ("retrigger = true", "retrigger = false")
NO_CAP = ("[max_win]\nbet_multiple = 40\n", "")


def spin_outcomes(game, reel_set: str, window_mult: int):
    """{(trigger count, wheel spins, coin win in total bets as Fraction): probability}, from the
    brute-force line-trigger table, wheel coins at their mean are NOT added here."""
    wheel = game.bonus_wheel
    t = brute_force_line_trigger(game, wheel.symbol, wheel.count, reel_set)
    out: dict = {}
    for (trig, lines, credits), w in t.weights.items():
        key = (trig, wheel.spins_for(lines), Fraction(credits * window_mult, t.credits_per_bet))
        out[key] = out.get(key, 0) + Fraction(w, t.cycle)
    return out


def convolve(a: dict, b: dict) -> dict:
    out: dict = {}
    for x, p in a.items():
        for y, q in b.items():
            out[x + y] = out.get(x + y, 0) + p * q
    return out


def round_law(game, base: dict, free: dict) -> dict:
    """No retrigger: the law of a round's total, from the paid spin's {(trigger count, amount):
    p} and one free spin's {amount: p} (the n awarded free spins are independent)."""
    fs = game.free_spins
    out: dict = {}
    for (trig, x), p in base.items():
        law = {x: Fraction(1)}
        for _ in range(min(fs.award_for(trig), fs.max_spins or 10**9)):
            law = convolve(law, free)
        for total, q in law.items():
            out[total] = out.get(total, 0) + p * q
    return out


def marginal(law: dict) -> dict:
    """{(trigger count, amount): p} -> {amount: p}."""
    out: dict = {}
    for (_, x), p in law.items():
        out[x] = out.get(x, 0) + p
    return out


def wheel_spins_law_by_enumeration(game) -> dict[int, Fraction]:
    """No retrigger: K = base spin's wheel spins + the wheel spins of its n free spins."""

    def spins(reel_set):
        out: dict = {}
        for (trig, k, _), p in spin_outcomes(game, reel_set, 1).items():
            out[(trig, k)] = out.get((trig, k), 0) + p
        return out

    return round_law(game, spins("base"), marginal(spins(game.free_spins.reels)))


def test_wheel_spins_law_matches_enumeration():
    game = variant(NO_RETRIGGER)
    a = slotmath.analyze(game)
    expected = wheel_spins_law_by_enumeration(game)
    got = a.features["jackpots"].chances
    assert set(got) <= set(expected)
    for k, p in expected.items():
        assert got.get(k, 0.0) == pytest.approx(float(p), abs=1e-13)
    assert a.features["jackpots"].mean_chances == sum(k * p for k, p in expected.items())
    assert a.features["jackpots"].chances_error < 1e-12


@pytest.mark.parametrize("level", [1, 2])
def test_wheel_coins_are_not_multiplied_in_free_spins(level):
    """The wheel's coin part = coin prize x (wheel spins - jackpot hits) per round, with the
    wheel spins counted from brute-force tables: a x3 on wheel coins in free spins would add
    2 x coin prize x (free-spin wheel spins), far above the tolerance."""
    game = variant(NO_RETRIGGER)
    a = slotmath.analyze(game, level)
    law = wheel_spins_law_by_enumeration(game)
    mean_k = sum(k * p for k, p in law.items())
    coin = game.bonus_wheel.mean
    hits = sum(p.hits_per_round for p in a.features["jackpots"].pools.values())
    assert a.components["bonus_wheel"] == pytest.approx(float(coin * mean_k) - float(coin) * hits,
                                                        abs=1e-12)
    base_k = sum(k * p for (_, k, _), p in spin_outcomes(game, "base", 1).items())
    free_part = coin * (mean_k - base_k)
    assert 2 * free_part > Fraction(1, 100)  # what a wrong x3 would add: clearly detectable


def prize_law(wheel) -> dict[Fraction, Fraction]:
    """One wheel spin's coin prize (total bets) -> probability."""
    total = sum(wheel.weights)
    out: dict = {}
    for p, w in zip(wheel.prizes, wheel.weights):
        out[p] = out.get(p, 0) + Fraction(w, total)
    return out


def coin_round_by_enumeration(game) -> dict[Fraction, Fraction]:
    """No retrigger, no jackpots: the exact law of a round's coin win (wheel coins included)."""
    fs = game.free_spins
    prize = prize_law(game.bonus_wheel)

    def spin_law(reel_set, mult):
        out: dict = {}
        for (trig, k, win), p in spin_outcomes(game, reel_set, mult).items():
            law = {win: Fraction(1)}
            for _ in range(k):
                law = convolve(law, prize)
            for x, q in law.items():
                out[(trig, x)] = out.get((trig, x), 0) + p * q
        return out

    return round_law(game, spin_law("base", 1), marginal(spin_law(fs.reels, fs.multiplier)))


def without_jackpots(game):
    wheel = replace(game.bonus_wheel, jackpots=())
    return replace(game, bonus_wheel=wheel, jackpots=())


def test_cap_effect_matches_plain_convolution():
    """A free-spins game without jackpots: E[(W - cap)+] from the exact round law."""
    game = without_jackpots(variant(NO_RETRIGGER, ("bet_multiple = 40", "bet_multiple = 10")))
    a = slotmath.analyze(game)
    law = coin_round_by_enumeration(game)
    cap = a.features["max_win_cap"].cap_bets
    effect = sum((x - cap) * p for x, p in law.items() if x > cap)
    reach = sum(p for x, p in law.items() if x >= cap)
    assert effect > Fraction(1, 1000)  # the cap matters in this game
    assert a.features["max_win_cap"].effect == pytest.approx(float(effect), abs=1e-12)
    assert a.features["max_win_cap"].probability == pytest.approx(float(reach), abs=1e-12)
    assert a.components["max_win_cap"] == pytest.approx(-float(effect), abs=1e-12)
    assert a.rtp == pytest.approx(float(a.round.mean - effect), abs=1e-12)
    # the uncapped game returns exactly the capped one plus the effect
    uncapped = slotmath.analyze(replace(game, max_win=None))
    assert uncapped.rtp == a.round.mean and uncapped.exact and not a.exact


def test_cap_without_free_spins_is_exact():
    """No free spins, no jackpots: the cap's effect is an exact Fraction, equal to plain
    enumeration of the capped spin win."""
    game = without_jackpots(variant(NO_RETRIGGER))
    game = replace(game, free_spins=None, max_win=replace(game.max_win,
                                                          bet_multiple=Fraction(3)))
    a = slotmath.analyze(game)
    law: dict = {}
    for (_, k, win), p in spin_outcomes(game, "base", 1).items():
        dist = {win: Fraction(1)}
        for _ in range(k):
            dist = convolve(dist, prize_law(game.bonus_wheel))
        for x, q in dist.items():
            law[x] = law.get(x, 0) + p * q
    expected = sum(min(x, Fraction(3)) * p for x, p in law.items())
    assert a.exact and a.features["max_win_cap"].exact
    assert a.rtp == expected
    assert a.features["max_win_cap"].effect > 0


def test_zero_seed_jackpots_return_exactly_their_contributions():
    """Money conservation: with seeds of 0, every contributed coin is paid back, so the
    jackpots' RTP is the sum of the contribution rates (a jackpot counted twice doubles it)."""
    game = variant(("seed = 5\n", "seed = 0\n"), ("seed = 40\n", "seed = 0\n"))
    for level in game.bet_levels:
        a = slotmath.analyze(game, level)
        assert a.components["jackpots"] == pytest.approx(0.03 + 0.02, abs=1e-6)
        assert a.features["jackpots"].error < 1e-5


@pytest.mark.parametrize("level", [1, 2])
def test_rtp_is_the_sum_of_its_parts(level):
    game = jackpot_game()
    a = slotmath.analyze(game, level)
    j = a.features["jackpots"]
    # the RTP comes from the round's law, the components from the direct method and each
    # feature's own mean: two paths, equal up to the order of float additions
    assert a.rtp == pytest.approx(sum(float(v) for v in a.components.values()), abs=1e-14)
    bet = game.bet_value(level)
    for spec in game.jackpots:
        # each pool on its own, straight from the renewal model with the same wheel-spins law
        alone = analyze_pool(JackpotPool.from_spec(spec, level), bet, j.chances)
        got = j.pools[spec.name]
        assert got.rtp_contribution == pytest.approx(alone.rtp_contribution, rel=1e-12)
        assert got.rtp_contribution == pytest.approx(got.rtp_from_identity, abs=1e-9)
    assert j.rtp == pytest.approx(sum(p.rtp_contribution for p in j.pools.values()), rel=1e-12)
    # the cap bracket: the true effect lies between the all-coin and no-coin wheels
    assert a.features["max_win_cap"].error >= 0 and a.features["max_win_cap"].effect > 0


def test_the_chance_to_win_rises_with_the_bet():
    game = jackpot_game()
    low, high = (slotmath.analyze(game, level).features["jackpots"] for level in (1, 2))
    for name in low.pools:
        assert high.pools[name].hits_per_round > low.pools[name].hits_per_round


def test_hit_laws_that_leave_no_room_for_coins_are_refused():
    game = variant(("rate = 0.01", "rate = 0.2"))
    with pytest.raises(ValueError, match="add up to .* > 1"):
        _ = slotmath.analyze(game).rtp


# -- Gold Money Frog ------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def gmf():
    game = slotmath.load_game(GMF)
    return {level: slotmath.analyze(game, level) for level in (1, 4)}


@pytest.mark.parametrize("level, published", [(1, 0.9231), (4, 0.9296)])
def test_gold_money_frog_hits_the_published_rtp(gmf, level, published):
    a = gmf[level]
    assert a.rtp_error < 1e-6
    assert abs(a.rtp_float - published) + a.rtp_error < 1e-4  # within 0.01%
    assert set(a.components) == {"lines", "scatter", "free_spins", "bonus_wheel", "jackpots",
                                 "max_win_cap"}
    # the coin game is the same at every level: only the jackpots' hit laws depend on it
    assert a.round.mean == gmf[1].round.mean


def test_gold_money_frog_jackpots_are_sensible(gmf):
    for a in gmf.values():
        pools = a.features["jackpots"].pools
        assert (pools["MINOR"].mean_rounds_between_hits < pools["MAJOR"].mean_rounds_between_hits
                < pools["SUPER"].mean_rounds_between_hits)
        for name, seed in (("MINOR", 50), ("MAJOR", 500), ("SUPER", 5000)):
            assert pools[name].hit_value_mean > seed
        assert 0 < a.features["jackpots"].coin_probability < 1
    assert gmf[4].components["jackpots"] > gmf[1].components["jackpots"]


def test_cli_json_has_the_jackpot_figures(capsys):
    assert main(["analyze", str(GMF), "--json", "--bet-level", "4"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert abs(d["rtp_float"] - 0.9296) < 1e-4 and d["rtp"] == {"exact": None,
                                                                 "float": d["rtp_float"]}
    assert not d["rtp_exact"] and d["rtp_error"] < 1e-6
    for key in ("lines", "scatter", "free_spins", "bonus_wheel", "jackpots", "max_win_cap"):
        assert key in d["components"]
    assert Fraction(d["components"]["lines"]["exact"]) > 0  # exact parts stay "p/q"
    pools = d["jackpots"]["pools"]
    assert set(pools) == {"MINOR", "MAJOR", "SUPER"}
    for figures in pools.values():
        assert figures["contribution"] > 0 and figures["one_in_rounds"] > 1
        assert figures["mean_value_at_hit"]["float"] > figures["seed"]
    assert d["max_win_cap"]["cap_bets"] == 10000
    assert d["max_win_cap"]["cap_currency"] == 100000


# -- generated games ------------------------------------------------------------------------------

SYMBOLS = ("A", "BN", "SC", "W", "X")


@st.composite
def jackpot_variants(draw):
    """The jackpot test game with generated strips (base and free), awards, seeds, laws and
    factors; no retrigger, so the brute-force references stay plain."""
    strips = {}
    for name in ("base", "free"):
        strips[name] = [draw(st.lists(st.sampled_from(SYMBOLS), min_size=3, max_size=5)
                             .filter(lambda s: "BN" in s)) for _ in range(3)]
    award = draw(st.integers(1, 3))
    seeds = [draw(st.integers(0, 60)) for _ in range(2)]
    rate = draw(st.sampled_from(["0.001", "0.003", "0.006"]))
    p_max = draw(st.sampled_from(["0.02", "0.05", "0.1"]))
    factor = draw(st.sampled_from(["1.2", "1.5", "2"]))
    text = JACKPOT_GAME
    for old, new in (
        ("retrigger = true", "retrigger = false"),
        ("awards = { 3 = 3 }", f"awards = {{ 3 = {award} }}"),
        ("seed = 5\n", f"seed = {seeds[0]}\n"),
        ("seed = 40\n", f"seed = {seeds[1]}\n"),
        ("rate = 0.01", f"rate = {rate}"),
        ("p_max = 0.05", f"p_max = {p_max}"),
        ("level_factors = [1, 1.5]", f"level_factors = [1, {factor}]"),
    ):
        text = text.replace(old, new)
    lines = text.splitlines()
    for i, line in enumerate(lines):
        for name in ("base", "free"):
            if line.startswith(f"{name} = "):
                lines[i] = f"{name} = {json.dumps(strips[name])}"
    return slotmath.loads_game("\n".join(lines) + "\n", "<generated jackpot game>")


@settings(max_examples=15, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(jackpot_variants(), st.sampled_from([1, 2]))
def test_generated_jackpot_games_hold_together(game, level):
    """Wheel-spin law = enumeration; wheel coins = coin prize x (spins - hits), un-multiplied;
    each pool's RTP = the renewal identity; the RTP is the sum of its parts."""
    try:
        a = slotmath.analyze(game, level)
        j = a.features["jackpots"]
    except ValueError as exc:  # laws that leave no room for coins are refused, loudly
        assert "add up to" in str(exc)
        return
    law = wheel_spins_law_by_enumeration(game)
    for k, p in law.items():
        assert j.chances.get(k, 0.0) == pytest.approx(float(p), abs=1e-12)
    mean_k = sum(k * p for k, p in law.items())
    assert j.mean_chances == mean_k
    coin = float(game.bonus_wheel.mean)
    assert a.components["bonus_wheel"] == pytest.approx(
        coin * (float(mean_k) - j.hits_per_round), abs=1e-12)
    for pool in j.pools.values():
        assert pool.rtp_contribution == pytest.approx(pool.rtp_from_identity,
                                                      abs=pool.error_bounds["rtp_contribution"])
    assert a.rtp == pytest.approx(float(sum(a.components.values())), abs=1e-14)
    assert a.rtp_error < 1e-2


def test_saturating_law_scaled_past_one_is_refused():
    """law(pool) x factor capped at 1 is not a saturating law once p_max x factor > 1: the
    analysis and the simulator (which share ``hit_law``) refuse it rather than differ."""
    game = variant(("level_factors = [1, 3]", "level_factors = [1, 30]"))
    with pytest.raises(ValueError, match="p_max x level factor"):
        _ = slotmath.analyze(game, 2).rtp


def test_gold_money_frog_against_seeded_simulation(gmf):
    """Level 4, a million rounds: the coin game (tight), the wheel's coin part, and the MINOR
    and MAJOR pools (hit often enough for batch means) against the analysis."""
    from slotmath.simulate import simulate

    a = gmf[4]
    sim = simulate(a.game, 1_000_000, seed=20261129, level=4)
    n = sim.spins
    coin = float(sum(a.components[k] for k in ("lines", "scatter", "free_spins", "bonus_wheel")))
    assert abs(sim.base + sim.free_spins - coin) < 4.5 * a.std / n**0.5
    assert sim.max_win_cap == 0 and sim.capped_rounds == 0
    for name in ("MINOR", "MAJOR"):
        got, pool = sim.jackpot(name), a.features["jackpots"].pools[name]
        assert abs(got.hits_per_round - pool.hits_per_round) < 4.5 * got.hits_per_round_std_error
        assert abs(got.mean_value - pool.hit_value_mean) < 4.5 * got.mean_value_std_error
    assert abs(sim.rtp - a.rtp_float) < 4.5 * a.std_total / n**0.5


@pytest.mark.parametrize("level", [1, 2])
def test_wheel_outcomes_by_pool_and_in_the_long_run(level):
    game = jackpot_game()
    a = slotmath.analyze(game, level)
    j = a.features["jackpots"]
    rows = a.features["bonus_wheel"].outcomes()
    assert sum(r["probability"] for r in rows) == pytest.approx(1, abs=1e-12)
    coins = sum(r["probability"] for r in rows if r["kind"] == "coins")
    assert coins == pytest.approx(j.coin_probability, abs=1e-9)
    for r in rows:
        if r["kind"] == "jackpot":  # per wheel spin x wheel spins per round = hits per round
            pool = j.pools[r["division"]]
            assert r["probability"] * float(j.mean_chances) == pytest.approx(
                pool.hits_per_round, rel=1e-6)
    # at given pools: the laws themselves (MINI linear 0.01 x factor, GRAND saturating)
    factor = {1: (1.0, 1.0), 2: (1.5, 3.0)}[level]
    at = {r["division"]: r["probability"] for r in a.features["bonus_wheel"].outcomes({"MINI": 6, "GRAND": 50})}
    assert at["MINI"] == pytest.approx(0.01 * factor[0] * 6)
    assert at["GRAND"] == pytest.approx(0.05 * factor[1] * 50 / 150)
    with pytest.raises(ValueError, match="GRAND is missing"):
        a.features["bonus_wheel"].outcomes({"MINI": 6})


def test_wheel_outcomes_without_jackpots_are_exact():
    a = slotmath.analyze(without_jackpots(jackpot_game()))
    rows = a.features["bonus_wheel"].outcomes()
    assert [r["probability"] for r in rows] == [Fraction(3, 8), Fraction(3, 8), Fraction(1, 4)]


def test_round_distribution_error_is_against_the_coin_round():
    """The numerical round distribution is the coin round's: its mean error is measured
    against that exact mean, not against the RTP with jackpots."""
    a = slotmath.analyze(jackpot_game())
    assert report.distribution_notes(a)["mean_error"] < 1e-9


def test_cli_coin_value_changes_the_currency_figures(capsys):
    """Seeds are in currency, so the coin value moves the jackpot figures (and the RTP)."""
    assert main(["analyze", str(GMF), "--json", "--bet-level", "4", "--coin-value", "0.05"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["bet_value"] == 5 and d["max_win_cap"]["cap_currency"] == 50000
    game = replace(slotmath.load_game(GMF), coin_value=Fraction(1, 20))
    assert d["rtp_float"] == pytest.approx(slotmath.analyze(game, 4).rtp_float, abs=1e-15)
    assert d["rtp_float"] > 0.9296 + 0.005  # a smaller bet meets the same EUR seeds more often
    for bad in ("0", "-1", "abc"):
        assert main(["analyze", str(GMF), "--coin-value", bad]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "--coin-value" in err


def test_cap_on_a_jackpot_game_without_free_spins_is_bracketed():
    """No free spins: the all-coin and no-coin effects are exact Fractions (plain enumeration);
    the jackpot game's effect lies between them, its error covering the bracket."""
    game = replace(jackpot_game(), free_spins=None,
                   max_win=replace(jackpot_game().max_win, bet_multiple=Fraction(2)))
    a = slotmath.analyze(game)
    prize = prize_law(game.bonus_wheel)
    high = low = Fraction(0)
    for (_, k, win), p in spin_outcomes(game, "base", 1).items():
        dist = {win: Fraction(1)}
        for _ in range(k):
            dist = convolve(dist, prize)
        high += p * sum(q * max(x - 2, 0) for x, q in dist.items())
        low += p * max(win - 2, 0)  # no wheel spin pays coins
    assert 0 < low < high
    assert float(low) - 1e-15 <= a.features["max_win_cap"].effect <= float(high) + 1e-15
    assert a.features["max_win_cap"].error >= max(a.features["max_win_cap"].effect - float(low), float(high) - a.features["max_win_cap"].effect) - 1e-15
    assert not a.features["max_win_cap"].exact and not a.exact
