"""Seeded simulations reproduce recorded results: every bundled game at every bet level, and
variants that play the wheel without jackpots, per line and multiplied, and a low max-win
cap (whole and fractional), in one batch and in several.

The file ``golden/simulate/seeded.json`` was recorded with the simulator as it was before
the redesign of issue 8 (commit 49a277a), so a change that moves one random draw, or one
credit, fails here. Figures that are exact integer ratios must match exactly; those that go
through a floating-point dot product (standard deviations and standard errors) to 1e-12,
since BLAS may order that sum differently on another machine.

Record again (only for a deliberate change of the simulation):
``python tests/test_simulate_seeded.py`` from the repository root.
"""

from __future__ import annotations

import json
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
    # added after the recording (issue 20: one result type): the RTP by feature and the
    # trigger rates; the components must add up to the RTP the recording holds
    components = result.pop("components")
    result.pop("trigger_rates")
    assert sum(components.values()) == pytest.approx(result["rtp"], rel=1e-12, abs=1e-15)
    return result


def _assert_same(got, want, where: str):
    if isinstance(want, dict):
        assert sorted(got) == sorted(want), where
        for field in want:
            if field.endswith("std_error") or field == "std":
                assert got[field] == pytest.approx(want[field], rel=1e-12, abs=0), \
                    f"{where}: {field}"
            else:
                _assert_same(got[field], want[field], f"{where}: {field}")
    elif isinstance(want, list):
        assert len(got) == len(want), where
        for i, (g, w) in enumerate(zip(got, want)):
            _assert_same(g, w, f"{where}[{i}]")
    else:
        assert got == want, where


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


def _record() -> None:
    games = _games()
    out = {_key(n, b, lv): _run(games[n], lv, batch) for n, b, lv, batch in _cases()}
    GOLDEN.parent.mkdir(parents=True, exist_ok=True)
    GOLDEN.write_text(json.dumps(out, indent=1, sort_keys=True) + "\n")
    print(f"{len(out)} results written to {GOLDEN}", file=sys.stderr)


if __name__ == "__main__":
    _record()
