"""Seeded simulations reproduce recorded results: every bundled game at every bet level, and
variants that play the wheel without jackpots, per line and multiplied, and a low max-win cap
(whole and fractional), in one batch and in several.

The file ``golden/simulate/seeded.json`` was recorded with the simulator as it was before the
redesign of issue 8 (commit 49a277a), so a change that moves one random draw, or one credit,
fails here (Classic Fruits' and Tiny Lines' cases were recorded again by that same simulator
when their free-spin reels changed, issue 23). Counts and figures that are exact integer ratios
(hit frequency, base and free-spins RTP of a game without jackpots, the cap's effect, hits per
round) must match to the last bit. Figures that go through a floating-point sum over the run
(standard deviations and standard errors; with jackpots the currency paid, the pools and so the
RTP's jackpot part) are held within the rounding bound of such a sum, not to the last digit
(issue 23): a float64 sum of ``n`` terms of one sign, in any order, is within ``(n - 1) u`` of
its exact value, relative (``u = 2**-53``), so two machines' sums of at most ``SPINS`` terms
agree within ``2 SPINS u`` (:func:`_rounding`); BLAS, or numpy's reductions on another CPU, may
order a sum differently.

Record again (only for a deliberate change of the simulation):
``python tests/test_simulate_seeded.py`` from the repository root.
"""

from __future__ import annotations

import json
import math
import sys
from dataclasses import replace
from fractions import Fraction
from pathlib import Path

import pytest

import slotmath
from slotmath.model.game import Game, MaxWin
from slotmath.simulate import monte_carlo, simulate

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = Path(__file__).resolve().parent / "golden" / "simulate" / "seeded.json"
SPINS = 40_000
SEED = 1
BATCHES = {"one batch": None, "batches of 7000": 7_000}
BUNDLED = ("classic_3reel", "classic_fruits", "gold_money_frog", "tiny_lines", "ways_243")


def _games() -> dict[str, Game]:
    games = {name: slotmath.load_game(ROOT / "data" / "games" / f"{name}.toml")
             for name in BUNDLED}
    frog, fruits = games["gold_money_frog"], games["classic_fruits"]
    coin_wheel = replace(frog.bonus_wheel, jackpots=())
    games["frog, wheel without jackpots"] = replace(frog, jackpots=(), bonus_wheel=coin_wheel)
    games["frog, wheel per line, multiplied"] = replace(
        frog, jackpots=(), max_win=None,
        bonus_wheel=replace(coin_wheel, per_spin="per_line", multiplied=True))
    games["frog, cap 20 bets"] = replace(frog, max_win=MaxWin(Fraction(20), None))
    games["fruits, cap 37/7 bets"] = replace(fruits, max_win=MaxWin(Fraction(37, 7), None))
    return games


def _cases() -> list[tuple[str, str, int, int | None]]:
    return [(name, batch_name, level, batch)
            for name, game in _games().items() for level in game.bet_levels
            for batch_name, batch in BATCHES.items()]


def _key(name: str, batch_name: str, level: int) -> str:
    return f"{name} | level {level} | {batch_name}"


def _run(game: Game, level: int, batch: int | None) -> dict:
    old = monte_carlo.BATCH
    if batch is not None:
        monte_carlo.BATCH = batch
    try:
        result = simulate(game, SPINS, seed=SEED, level=level).as_dict()
    finally:
        monte_carlo.BATCH = old
    result = json.loads(json.dumps(result))  # as stored: lists for tuples
    # added after the recording (issue 20: one result type): the RTP by feature, the
    # trigger rates and the features' details; the components must add up to the RTP the
    # recording holds
    components = result.pop("components")
    result.pop("trigger_rates")
    assert result.pop("details") == {}  # (a feature's own figures: none of these games has one)
    assert sum(components.values()) == pytest.approx(result["rtp"], rel=1e-12, abs=1e-15)
    return result


#: the unit roundoff of float64
UNIT_ROUNDOFF = 2.0**-53
#: fields that are floating-point sums over the run (in a jackpot's record too); at the top
#: level ``rtp`` is exact but for its jackpot part, ``jackpot_rtp``
FLOAT_SUMS = frozenset({"std", "std_error", "max_win_cap_std_error", "jackpot_rtp",
                        "hits_per_round_std_error", "mean_value", "mean_value_std_error",
                        "rtp_std_error", "final_pool", "final_reserve"})


def _rounding(value: float) -> float:
    """How far two machines' float64 sums of at most ``SPINS`` terms of one sign may differ."""
    return 2 * SPINS * UNIT_ROUNDOFF * abs(value)


def _assert_same(got, want, where: str, jackpot: bool = False):
    """``got`` reproduces the recorded ``want``: exact figures to the last bit, floating-point
    sums within :func:`_rounding` (a jackpot's ``rtp`` is one; the round's has the jackpots'
    part ``jackpot_rtp`` in it)."""
    if isinstance(want, dict):
        assert sorted(got) == sorted(want), where
        for field in want:
            sums = field in FLOAT_SUMS or (jackpot and field == "rtp")
            if sums or field == "rtp":
                bound = _rounding(want[field] if sums else want.get("jackpot_rtp", 0.0))
                assert abs(got[field] - want[field]) <= bound, (
                    f"{where}: {field} {got[field]!r} != {want[field]!r} (held to {bound:.2g})")
            else:
                _assert_same(got[field], want[field], f"{where}: {field}",
                             jackpot=field == "jackpots")
    elif isinstance(want, list):
        assert len(got) == len(want), where
        for i, (g, w) in enumerate(zip(got, want)):
            _assert_same(g, w, f"{where}[{i}]", jackpot)
    else:
        assert type(got) is type(want) and got == want, f"{where}: {got!r} != {want!r}"


@pytest.fixture(scope="module")
def golden() -> dict:
    return json.loads(GOLDEN.read_text())


@pytest.fixture(scope="module")
def games() -> dict[str, Game]:
    return _games()


def test_every_case_is_recorded(golden):
    assert sorted(golden) == sorted(_key(n, b, lv) for n, b, lv, _ in _cases())


@pytest.mark.parametrize(("name", "batch_name", "level", "batch"), _cases())
def test_seeded_simulation_reproduces_recorded_result(golden, games, name, batch_name, level,
                                                      batch):
    key = _key(name, batch_name, level)
    _assert_same(_run(games[name], level, batch), golden[key], key)


def test_the_comparison_can_fail(golden, games):
    # Another seed must not pass as the recorded one.
    key = _key("classic_fruits", "one batch", 1)
    other = json.loads(json.dumps(simulate(games["classic_fruits"], SPINS, seed=SEED + 1)
                                  .as_dict()))
    with pytest.raises(AssertionError):
        _assert_same(other, golden[key], key)


def test_exact_figures_to_the_last_bit_and_sums_within_their_rounding(golden):
    key = _key("gold_money_frog", "batches of 7000", 4)
    want = golden[key]
    assert want["jackpot_rtp"] > 0 and want["jackpots"][0]["hits"] > 0
    same = json.loads(json.dumps(want))
    same["std"] *= 1 + 2e-12  # another order of the sum of squares
    same["jackpots"][0]["mean_value"] *= 1 - 2e-12  # of the currency paid
    same["jackpot_rtp"] *= 1 + 1e-12
    same["rtp"] += 1e-12 * want["jackpot_rtp"]
    _assert_same(same, want, key)
    for field, change in [("hit_frequency", lambda x: math.nextafter(x, 1.0)),
                          ("rtp", lambda x: x * (1 + 1e-10)),
                          ("std", lambda x: x * (1 + 1e-10)),
                          ("spins_per_feature", lambda x: math.nextafter(x, 0.0))]:
        changed = json.loads(json.dumps(want))
        changed[field] = change(want[field])
        with pytest.raises(AssertionError, match=field):
            _assert_same(changed, want, key)
    changed = json.loads(json.dumps(want))
    changed["jackpots"][1]["final_pool"] *= 1 + 1e-10
    with pytest.raises(AssertionError, match="final_pool"):
        _assert_same(changed, want, key)


def _record() -> None:
    games = _games()
    out = {_key(n, b, lv): _run(games[n], lv, batch) for n, b, lv, batch in _cases()}
    GOLDEN.parent.mkdir(parents=True, exist_ok=True)
    GOLDEN.write_text(json.dumps(out, indent=1, sort_keys=True) + "\n")
    print(f"{len(out)} results written to {GOLDEN}", file=sys.stderr)


if __name__ == "__main__":
    _record()
