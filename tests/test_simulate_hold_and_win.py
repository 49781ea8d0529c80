"""The hold & win simulator (played respin by respin) against the exact chain, within its
confidence bound; and seeded mutations of the rules (a booster applied twice, a reset that
does not restore the boosted count) fail the same checks."""

from __future__ import annotations

import math
from fractions import Fraction as F

import numpy as np
import pytest

import slotmath
from slotmath.markov.hold_and_win import HoldAndWinChain
from slotmath.model.hold_and_win import Booster, HoldAndWin
from slotmath.simulate.hold_and_win import play_hold_and_win, simulate_game

Z = 4.0  # |z| above this fails (a correct simulator fails a check about 1 time in 15,000)

#: Boosters that fire often, so that a wrong rule moves the figures far beyond the bound.
SENSITIVE = HoldAndWin(
    "C", 2, 2, F(1, 5), (F(1), F(2), F(5), F(10)), (8, 4, 2, 1), rows=2, max_rows=3, reels=3,
    boosters=(Booster("rows", F(1, 3), 2, 1), Booster("values", F(1, 2), 1, 3),
              Booster("respins", F(1, 3), 1, 2, extra=1),
              Booster("multiplier", F(1, 4), 2, 2, ladder=(2, 3))))


def _z_scores(spec, held, rounds, seed, mutation=None) -> dict[str, float]:
    fig = HoldAndWinChain(spec, drop=0.0).figures(held)
    s = play_hold_and_win(spec, np.full(rounds, held), np.random.default_rng(seed), mutation)
    n = len(s.win)

    def z(sample, exact):
        se = sample.std(ddof=1) / math.sqrt(n)
        return (sample.mean() - exact) / se

    out = {"win": z(s.win, fig.mean), "respins": z(s.respins.astype(float),
                                                  fig.expected_respins),
           "full": z(s.full.astype(float), fig.fill_probability)}
    for k, kind in enumerate(("rows", "values", "respins", "multiplier")):
        for j, p in enumerate(fig.booster_levels.get(kind, [])):
            out[f"{kind}>={j + 1}"] = z((s.fired[:, k] >= j + 1).astype(float), p)
    return out


@pytest.mark.parametrize("seed", [11, 12])
def test_simulator_agrees_with_the_chain(seed):
    scores = _z_scores(SENSITIVE, 2, 60_000, seed)
    assert max(abs(v) for v in scores.values()) < Z, scores


@pytest.mark.parametrize("mutation", ["booster_twice", "reset_unboosted"])
def test_mutated_rules_fail_the_agreement(mutation):
    scores = _z_scores(SENSITIVE, 2, 60_000, 11, mutation)
    assert max(abs(v) for v in scores.values()) >= Z, scores


def test_game_simulation_agrees_with_the_analysis():
    """Gus's Gold Christmas: the whole round (paid spin by the engine's spin kernel, respins
    by the simulator) against the exact lines (direct method), the exact trigger and the
    chain's round mean."""
    from slotmath.features.base import Context, Mark
    game = slotmath.load_game("data/games/gus_gold_christmas.toml")
    n = 400_000
    result = simulate_game(game, n, 3)
    a = slotmath.analyze(game)
    lines = float(a.features["pays"].direct.components["lines"])
    table = Context(game).table("base", (Mark("count", "NUGGET"),))
    p = sum(w for k, w in table.weights.items() if k[0] >= 5) / table.cycle
    round_mean = HoldAndWinChain(game.hold_and_win).figures(5).mean
    assert abs(result.trigger_rate - p) < Z * math.sqrt(p * (1 - p) / n)
    assert abs(result.hold_and_win - p * round_mean) < Z * result.hold_and_win_std_error
    assert abs(result.rtp - (lines + p * round_mean)) < Z * result.std_error


def test_any_generator_plays_reproducibly():
    """A generator on another bit generator seeds the kernel's PCG64 stream with one draw:
    the same seed plays the same rounds, another seed others."""
    def play(seed):
        rng = np.random.Generator(np.random.Philox(seed))
        return play_hold_and_win(SENSITIVE, np.full(5000, 2), rng).win
    assert (play(1) == play(1)).all() and not (play(1) == play(2)).all()


def test_respin_laws_are_the_binomial_and_the_gems_product():
    """The tables one respin draws from, against laws computed here in floats: the count of
    cash symbols that land on e empty positions is binomial(e, cash_probability); the gems
    of the kinds still able to fire land independently, each with its probability. And a
    draw through the guide table is the cumulative search it stands for."""
    from slotmath.simulate.hold_and_win import _draw, _guide, _laws
    bs = [SENSITIVE.booster(k) for k in ("rows", "values", "respins", "multiplier")]
    landed, landed_guide, fired, fired_guide = _laws(SENSITIVE)
    p = float(SENSITIVE.cash_probability)
    for e in range(landed.shape[0]):
        law = [math.comb(e, k) * p**k * (1 - p) ** (e - k) for k in range(e + 1)]
        assert np.allclose(landed[e, :e + 1], np.cumsum(law), rtol=0, atol=1e-12)
        assert landed[e, e] == 1.0
    q = [float(b.probability) for b in bs]
    for m in range(16):
        law = [math.prod((q[k] if o >> k & 1 else 1 - q[k]) if m >> k & 1 else
                         (0.0 if o >> k & 1 else 1.0) for k in range(4)) for o in range(16)]
        assert np.allclose(fired[m], np.cumsum(law), rtol=0, atol=1e-12)
    u = np.random.default_rng(5).random(20_000)
    for table, guide, row in ((landed, landed_guide, 5), (fired, fired_guide, 15)):
        assert (guide[row] == _guide(table[row])).all()
        assert [_draw(x, table, guide, row) for x in u] == list(
            np.searchsorted(table[row], u, side="right"))
