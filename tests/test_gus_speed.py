"""The compiled paths that make Gus's Gold Christmas fast, each against a path sharing no code.

* The win law of every start at once (``float_distributions``: the records' forward passes
  and the spectrum mixing, :func:`slotmath.markov.hold_and_win._mix_spectra`, whose two
  lowest Horner levels are one table) against the plain landing recursion of
  ``tests/hold_and_win_reference.py``, on random small games (hypothesis), with and without
  value steps.
* The float chain's backward passes (:meth:`HoldAndWinChain._float_solution`, compiled and
  batched) against scipy's sparse product and :func:`slotmath.markov.sparse.backward_induction`
  over the same moves: the same floats, bit for bit (the RTP of a large game is those floats
  made fractions, so a changed last bit would change an exact figure).
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction as F

import numpy as np
import pytest
import scipy.sparse as sp
from hold_and_win_reference import reference_start_law
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from slotmath.markov.hold_and_win import HoldAndWinChain
from slotmath.markov.sparse import backward_induction
from slotmath.model.hold_and_win import BOOSTER_KINDS, Booster, HoldAndWin

PROBABILITY = st.sampled_from([F(1, 2), F(1, 3), F(2, 5)])


@st.composite
def stepped_specs(draw, steps=True):
    """2 reels x 1 row (2 with a rows booster), every start count possible; a values booster
    (1 or 2 steps, so 2 or 3 value-step laws) unless ``steps`` is False; perhaps a multiplier
    (several (multiplier, full) pairs) and a full-grid prize."""
    n_values = draw(st.integers(1, 3))
    values = tuple(F(v) for v in sorted(draw(st.lists(st.integers(1, 9), min_size=n_values,
                                                      max_size=n_values, unique=True))))
    weights = tuple(draw(st.lists(st.integers(1, 3), min_size=n_values, max_size=n_values)))
    boosters = []
    if steps:
        boosters.append(Booster("values", draw(PROBABILITY), 1, draw(st.integers(1, 2))))
    extra = draw(st.sampled_from(["none", "rows", "multiplier"]))
    max_rows = 1
    if extra == "rows":
        max_rows = 2
        boosters.append(Booster("rows", draw(PROBABILITY), 1, 1))
    elif extra == "multiplier":
        boosters.append(Booster("multiplier", draw(PROBABILITY), 1, 1, ladder=(3,)))
    return HoldAndWin("C", 1, draw(st.integers(1, 2)), draw(PROBABILITY), values, weights,
                      rows=1, max_rows=max_rows, reels=2, boosters=tuple(boosters),
                      ceiling=draw(st.sampled_from([None, values[-1]])),
                      full_grid_prize=F(draw(st.integers(0, 3))))


def _law_against_recursion(spec: HoldAndWin) -> None:
    chain = HoldAndWinChain(spec, drop=0.0)
    helds = list(range(1, spec.capacity(0) + 1))  # every start in one pass (several columns)
    laws = chain.float_distributions(helds)
    for held in helds:
        probs, bound, second = laws[held]
        law = reference_start_law(spec, held)
        dense = np.zeros(max(len(probs), int(max(law) / chain.unit) + 1))
        for w, p in law.items():
            dense[int(w / chain.unit)] += float(p)
        assert len(dense) == len(probs)
        assert np.abs(dense - probs).max() <= bound
        assert bound < 1e-12
        assert second == pytest.approx(float(sum(w * w * p for w, p in law.items())),
                                       rel=1e-12)


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(stepped_specs())
def test_law_of_every_start_equals_the_recursion(spec):
    _law_against_recursion(spec)


@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(stepped_specs(steps=False))
def test_law_without_value_steps_equals_the_recursion(spec):
    _law_against_recursion(spec)


def _scipy_solution(chain: HoldAndWinChain) -> dict:
    """The float chain's passes as scipy products and ``backward_induction`` (the path the
    compiled kernels replaced): matrices of the moves in source order, zeros kept."""
    s, t = chain.states, chain.transitions
    n = chain.n_states
    order = np.argsort(t["rows"], kind="stable")
    ptr = np.searchsorted(t["rows"][order], np.arange(n + 1))

    def matrix(select=None, weight=None):
        data = t["probs"] if weight is None else t["probs"] * weight
        if select is not None:
            data = np.where(select, data, 0.0)
        return sp.csr_array((data[order], t["cols"][order], ptr), shape=(n, n))

    def solve(q, reward):
        return backward_induction(q, np.asarray(reward, dtype=np.float64), check=False).mean

    green = t["fired"][1] > 0
    mult = chain.multiplier(s["pp"])
    q_all, q0, q1 = matrix(), matrix(~green), matrix(green)
    a = np.zeros(n)
    for c in range(len(chain.value_step_laws) - 1, -1, -1):
        mu = float(sum((chain.spec.values[j] * p for j, p in chain.value_step_laws[c].items()),
                       F(0)))
        term = np.asarray([int(m) * mu if z else 0 for m, z in zip(mult.tolist(),
                                                                     s["terminal"])], float)
        a = solve(q0, q1 @ a + term)
    prize = float(chain.spec.full_grid_prize)
    cash = matrix(weight=t["landed"]) @ a + np.asarray(
        [int(m) * prize if z else 0 for m, z in zip(mult.tolist(), s["full"])], float)
    out = {"a0": a, "future": solve(q_all, cash),
           "spins": solve(q_all, (~s["terminal"]) & (s["ph"] == 0)),
           "fill": solve(q_all, s["full"]), "dropped": solve(q_all, t["dropped"])}
    for k, kind in enumerate(BOOSTER_KINDS):
        b = chain.spec.booster(kind)
        for j in range(1, (b.times if b else 0) + 1):
            out[f"{kind}{j}"] = solve(q_all, matrix(t["fired"][k] == j) @ np.ones(n))
    return out


def _same_floats(chain: HoldAndWinChain) -> None:
    want = _scipy_solution(chain)
    got = chain._float_solution()
    flat = {k: got[k] for k in ("a0", "future", "spins", "fill", "dropped")}
    for kind, vs in got["levels"].items():
        for j, v in enumerate(vs, start=1):
            flat[f"{kind}{j}"] = v
    assert flat.keys() == want.keys()
    for k, v in want.items():
        assert np.array_equal(flat[k], v), k  # bit for bit, not approximately


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(stepped_specs())
def test_float_passes_are_scipys_bit_for_bit(spec):
    _same_floats(HoldAndWinChain(spec, drop=0.0))


def test_float_passes_are_scipys_bit_for_bit_on_a_mid_grid():
    """Every booster, moves dropped (the dropped-mass pass), 3 reels growing to 3 rows."""
    spec = HoldAndWin("N", 1, 3, F(1, 5), (F(1), F(5), F(50)), (6, 3, 1), rows=1,
                      max_rows=3, reels=3,
                      boosters=(Booster("rows", F(1, 4), 2, 2),
                                Booster("values", F(1, 5), 2, 2),
                                Booster("respins", F(1, 6), 2, 1),
                                Booster("multiplier", F(1, 5), 2, 2, ladder=(2, 5))),
                      full_grid_prize=F(7))
    chain = HoldAndWinChain(spec, drop=1e-4)
    assert chain.transitions["dropped"].sum() > 0
    _same_floats(chain)


# -- the float chain's results in the table store -------------------------------------------

MID = HoldAndWin("N", 1, 3, F(1, 5), (F(1), F(5), F(50)), (6, 3, 1), rows=1, max_rows=3,
                 reels=3, boosters=(Booster("rows", F(1, 4), 2, 2),
                                    Booster("values", F(1, 5), 2, 2),
                                    Booster("respins", F(1, 6), 2, 1),
                                    Booster("multiplier", F(1, 5), 2, 2, ladder=(2, 5))),
                 full_grid_prize=F(7))


def _feature_figures(feature, helds) -> list:
    """Everything the analysis reads off a float round feature, per start count."""
    dense = feature.dense(helds)
    out = []
    for h in helds:
        fig = feature.figures(h)
        law = feature.law(h)
        out.append((fig.mean, fig.expected_respins, fig.fill_probability, fig.booster_levels,
                    law.mean, law.second_moment, feature.error(h), dense[h].probs.tobytes(),
                    dense[h].error))
    return out


def _chain_figures(spec, helds) -> list:
    """The same figures straight from a chain (no feature, no store)."""
    chain = HoldAndWinChain(spec)
    laws = chain.float_distributions(helds)
    out = []
    for h in helds:
        fig = chain.figures(h)
        probs, bound, second = laws[h]
        top = float(chain.unit) * (len(probs) - 1)
        error = chain.dropped_probability(h) * top + 1e-13 * fig.mean
        out.append((fig.mean, fig.expected_respins, fig.fill_probability, fig.booster_levels,
                    F(fig.mean), F(second), error, probs.tobytes(), bound))
    return out


def test_stored_chain_results_are_the_chains_floats(tmp_path, monkeypatch):
    """A float round feature's figures, computed into an empty store and then read back by a
    new feature (its chain never builds a move), are the chain's own floats bit for bit; a
    changed rule is another key (its own figures, not the stored ones); a stored file that
    does not hold the results is computed again."""
    from slotmath.exact import store
    from slotmath.features.hold_and_win import HoldAndWinRound

    monkeypatch.setenv("SLOTMATH_CACHE_DIR", str(tmp_path))
    helds = [1, 2]
    want = _chain_figures(MID, helds)
    first = HoldAndWinRound(MID, exact_mode=False, starts=tuple(helds))
    assert _feature_figures(first, helds) == want
    files = list((tmp_path / "hold-and-win").glob("*.npy"))
    assert len(files) == 1
    again = HoldAndWinRound(MID, exact_mode=False, starts=tuple(helds))
    assert _feature_figures(again, helds) == want
    assert "transitions" not in again.chain.__dict__  # read from the store, not computed
    # a count the paid spin does not show: computed by the chain, as before
    assert again.figures(3) == HoldAndWinChain(MID).figures(3)
    other = replace(MID, cash_probability=F(1, 4))
    got = _feature_figures(HoldAndWinRound(other, exact_mode=False, starts=tuple(helds)),
                           helds)
    assert got == _chain_figures(other, helds) and got != want
    assert len(list((tmp_path / "hold-and-win").glob("*.npy"))) == 2
    np.save(files[0], np.zeros((2, 3)))  # not a table of these results: computed again
    third = HoldAndWinRound(MID, exact_mode=False, starts=tuple(helds))
    assert _feature_figures(third, helds) == want
    assert "transitions" in third.chain.__dict__
    assert store.store_dir() == tmp_path


def test_exact_chain_is_not_stored(tmp_path, monkeypatch):
    from slotmath.features.hold_and_win import HoldAndWinRound

    monkeypatch.setenv("SLOTMATH_CACHE_DIR", str(tmp_path))
    small = replace(MID, reels=2, max_rows=1, boosters=())
    f = HoldAndWinRound(small, starts=(1,))
    assert f.exact and f.law(1).mean == HoldAndWinChain(small, exact=True).figures(1).mean
    assert not (tmp_path / "hold-and-win").exists()
