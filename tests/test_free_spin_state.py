"""Free spins with a state (issue 21): the exact chain against a brute-force reference that
shares no engine code (tests/free_spin_state_reference.py), on three fixed toys and on
random small games (hypothesis); and seeded mutations of the engine that those checks catch.

What is compared, exactly (Fractions): the round's mean (the RTP), second moment and hit
frequency, each feature law's mean / second moment / P(0) / expected spins, how features end
(spins played, final state); numerically: the round distribution to 1e-12 per win.
"""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from free_spin_state_reference import Reference, moments
from free_spin_state_strategies import state_games
from hypothesis import HealthCheck, given, settings

import slotmath
from slotmath.errors import GameFileError
from slotmath.exact import free_spin_moves
from slotmath.features.free_spins import StateRound
from slotmath.io.toml_loader import loads_game

DATA = Path(__file__).resolve().parent / "data" / "free_spin_state"
TOYS = ["tiny_book", "tiny_sticky", "tiny_collector"]


def _game(name):
    return slotmath.load_game(DATA / f"{name}.toml")


def _feature(a) -> StateRound:
    return next(f for f in a.round.features if isinstance(f, StateRound))


def _cells(mechanic, state):
    """The reference's sticky state (a set of (reel, row, wild)) as the engine writes it."""
    if not isinstance(state, frozenset):
        return state
    return tuple(next((1 + mechanic.wilds.index(w) for j, r, w in state if (j, r) == cell), 0)
                 for cell in mechanic.cells)


def differences(game) -> list[str]:
    """Every way the engine's figures of ``game`` differ from the reference's (empty: none)."""
    a = slotmath.analyze(game)
    ref = Reference(game)
    out = []
    law = ref.round()
    mean, second, zero = moments(law)
    if a.rtp != mean:
        out.append(f"rtp {a.rtp} != {mean}")
    if a.round.second_moment != second:
        out.append(f"E[R^2] {a.round.second_moment} != {second}")
    if a.hit_frequency != 1 - zero:
        out.append(f"hit frequency {a.hit_frequency} != {1 - zero}")
    feature = _feature(a)
    for t in sorted({k[0] for k in a.round.base.weights}):
        key = feature.start(t)
        if key is None:
            continue
        got, want = feature.law(key), ref.feature(t)
        w1, w2, wz = moments(want)
        if (got.mean, got.second_moment, got.zero_probability) != (w1, w2, wz):
            out.append(f"feature of count {t}: {got} != {(w1, w2, wz)}")
        ends = {}
        for (n, x), p in ref.feature_ends(t).items():
            key2 = (n, _cells(feature.mechanic, x))
            ends[key2] = ends.get(key2, 0) + p
        if feature.chain.final_states(dict(key)) != ends:
            out.append(f"feature of count {t}: final states differ")
        spins = sum(n * p for (n, _), p in ends.items())
        if got.spins != spins:
            out.append(f"feature of count {t}: spins {got.spins} != {spins}")
    d = a.distribution
    got_law = {Fraction(int(c), d.credits_per_bet): p for c, p in zip(d.credits, d.probs)}
    worst = max(abs(got_law.get(w, 0.0) - float(p)) for w, p in law.items())
    if worst > 1e-12 or abs(sum(d.probs) - 1) > 1e-9:
        out.append(f"distribution off by {worst}")
    return out


@pytest.mark.parametrize("name", TOYS)
def test_toy_equals_brute_force(name):
    assert differences(_game(name)) == []


def _against_reference(kind, examples: int) -> None:
    """``examples`` random small games whose free spins carry ``kind`` against the reference."""

    @settings(max_examples=examples, deadline=None,
              suppress_health_check=[HealthCheck.too_slow])
    @given(state_games(kind))
    def check(game):
        assert differences(game) == []

    check()


#: random games per kind in the default run (a few hundredths of a second each; a sticky one
#: with 3 rows of sticky cells, 512 states each enumerated, up to a second); the
#: benchmark-marked runs take ten times as many
EXAMPLES = {"expanding_symbol": 25, "sticky_wilds": 25, "collector": 25, None: 25}


@pytest.mark.parametrize("kind", list(EXAMPLES), ids=str)
def test_random_games_equal_brute_force(kind):
    _against_reference(kind, EXAMPLES[kind])


@pytest.mark.benchmark
@pytest.mark.parametrize("kind", list(EXAMPLES), ids=str)
def test_many_random_games_equal_brute_force(kind):
    _against_reference(kind, 10 * EXAMPLES[kind])


# -- seeded mutations: each is caught ---------------------------------------------------------
MUTATIONS = {
    "sticky wilds that do not stick": (
        "tiny_sticky", free_spin_moves.StickyMoves, "landed",
        lambda original: lambda self, state, digits: state),
    "an expanding symbol that expands without paying": (
        "tiny_book", free_spin_moves.ExpandingMoves, "expansion",
        lambda original: lambda self, symbol, reels: 0),
    "a collector that collects twice": (
        "tiny_collector", free_spin_moves.CollectorMoves, "factors",
        lambda original: lambda self, level, nc: (original(self, level, nc)[0],
                                                  2 * original(self, level, nc)[1])),
}


@pytest.mark.parametrize("mutation", sorted(MUTATIONS))
def test_a_mutated_engine_fails_the_comparison(monkeypatch, mutation):
    game, cls, name, make = MUTATIONS[mutation]
    monkeypatch.setattr(cls, name, make(getattr(cls, name)))
    assert differences(_game(game)), f"{mutation}: the comparison did not fail"


@pytest.mark.parametrize("mutation", sorted(MUTATIONS))
def test_the_reference_mutated_alike_agrees(mutation):
    """The reference's own switch for each defect (used by the simulation checks) plays the
    defect as the engine would: with the defect in both, they agree again."""
    game, cls, name, make = MUTATIONS[mutation]
    g = _game(game)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(cls, name, make(getattr(cls, name)))
        a = slotmath.analyze(g)
        rtp = a.rtp
    assert moments(Reference(g, mutation).round())[0] == rtp


@pytest.mark.parametrize("name, key", [("tiny_book", "expanding_symbol"),
                                       ("tiny_sticky", "sticky_wilds"),
                                       ("tiny_collector", "collector")])
def test_a_state_with_another_section_is_refused_naming_both(name, key):
    """What a free-spin state combines with is declared in COMBINE (the paid spin's pays and
    the plain free-spin keys): another section is refused in one line naming both keys."""
    text = (DATA / f"{name}.toml").read_text() + "\n[max_win]\nbet_multiple = 40\n"
    with pytest.raises(GameFileError) as err:
        loads_game(text, f"{name}_capped.toml")
    message = str(err.value)
    assert f"{name}_capped.toml" in message and "\n" not in message
    assert "[max_win] with [free_spins." in message  # the state, or random awards first
    assert f"free_spins.{key}" in message


# -- the seeded simulation: the feature's simulator, no code shared with the chain -------------
#: paid rounds of each seeded simulation (a second at most on each toy)
ROUNDS = 200_000
#: standard errors a simulated figure may stray from the exact one (a one-in-15,000 miss)
Z = 4.0


def _simulated(name):
    return slotmath.simulate(_game(name), ROUNDS, seed=20261203)


@pytest.mark.parametrize("name", TOYS)
def test_the_seeded_simulation_agrees_within_its_bound(name):
    """The round simulator of the state (:mod:`slotmath.simulate.free_spin_state`, reached
    through the front door) plays the toys; its RTP, trigger rate and hit frequency agree with
    the exact figures within Z standard errors, and it lists the feature's component."""
    a = slotmath.analyze(_game(name))
    r = _simulated(name)
    assert set(r.components) == {"pays", "free_spins"}
    assert abs(r.rtp - float(a.rtp)) <= Z * r.std_error
    p = float(a.features["free_spins"].trigger_probability)
    assert abs(r.trigger_rate - p) <= Z * (p * (1 - p) / ROUNDS) ** 0.5
    h = float(a.hit_frequency)
    assert abs(r.hit_frequency - h) <= Z * (h * (1 - h) / ROUNDS) ** 0.5


@pytest.mark.parametrize("mutation", sorted(MUTATIONS))
def test_a_mutated_engine_fails_the_simulation_check(monkeypatch, mutation):
    """Each seeded defect of the engine moves its RTP outside the simulation's bound."""
    game, cls, name, make = MUTATIONS[mutation]
    r = _simulated(game)
    monkeypatch.setattr(cls, name, make(getattr(cls, name)))
    mutated = slotmath.analyze(_game(game)).rtp
    assert abs(r.rtp - float(mutated)) > Z * r.std_error, mutation


# -- reports, charts and panels of each state ------------------------------------------------
@pytest.mark.parametrize("name, kind", [("tiny_book", "expanding_symbol"),
                                        ("tiny_sticky", "sticky_wilds"),
                                        ("tiny_collector", "collector")])
def test_reports_charts_and_panel_of_each_state(name, kind):
    """The JSON of a toy has every figure in the one shape (tests/test_json_shape.py) and the
    state's section with its state space; the PAR text holds the state's tables; the charts
    draw and the panel builds."""
    import matplotlib

    matplotlib.use("Agg")
    from test_json_shape import check_shape

    from slotmath import report
    from slotmath.features.base import hook
    from slotmath.features.registry import feature

    a = slotmath.analyze(_game(name))
    doc = json.loads(json.dumps(report.analysis_dict(a), default=str))
    check_shape(doc, a, name)
    section = doc[kind]
    size = a.features[kind].size
    assert section["state_space"] == size and size["states"] >= 1 and size["moves"] >= 1
    assert section["exact"] is True
    text = report.par_sheet_text(a)
    assert kind.replace("_", " ").capitalize().split()[0] in text
    f = feature(kind)
    charts = hook(f, "charts")(a)
    assert charts
    panel = hook(f, "panel")(a, draw=False)
    assert panel.children


def test_the_expanding_panel_equals_the_game_reanalysed():
    """The panel's RTP for other weights of the expanding symbols is the RTP of the game file
    with those weights, analysed afresh."""
    from slotmath.widgets.free_spin_state_panel import expanding_rtp

    a = slotmath.analyze(_game("tiny_book"))
    text = (DATA / "tiny_book.toml").read_text().replace("symbols = { A = 1, K = 2 }",
                                                         "symbols = { A = 5, K = 1 }")
    fresh = slotmath.analyze(loads_game(text, "tiny_book_5_1.toml")).rtp
    assert fresh != a.rtp
    assert expanding_rtp(a, {"A": 5, "K": 1}) == fresh


def test_the_collector_panel_equals_the_game_reanalysed():
    """The panel's RTP for another ``every`` and ``retrigger`` is the RTP of the game file with
    them, analysed afresh."""
    from slotmath.widgets.free_spin_state_panel import ladder_rtp

    a = slotmath.analyze(_game("tiny_collector"))
    spec = a.game.free_spins.state
    every, retrigger = spec.every + 1, spec.retrigger + 1
    text = (DATA / "tiny_collector.toml").read_text()
    text = text.replace(f"every = {spec.every}", f"every = {every}")
    text = text.replace(f"retrigger = {spec.retrigger}", f"retrigger = {retrigger}")
    fresh = slotmath.analyze(loads_game(text, "tiny_collector_edited.toml"))
    assert fresh.game.free_spins.state.every == every
    assert fresh.game.free_spins.state.retrigger == retrigger
    assert fresh.rtp != a.rtp
    assert ladder_rtp(a, every, retrigger)[0] == fresh.rtp


def test_added_line_multipliers_on_plain_free_spins():
    """``line_multipliers = "add"`` on a game with plain free spins: the plain engine equals
    the reference exactly, the seeded simulation agrees within its bound, and the key
    matters (the same game multiplying returns more)."""
    g = _game("tiny_added")
    a = slotmath.analyze(g)
    mean, second, zero = moments(Reference(g).round())
    assert (a.rtp, a.round.second_moment, a.hit_frequency) == (mean, second, 1 - zero)
    r = slotmath.simulate(g, ROUNDS, seed=20261203)
    assert abs(r.rtp - float(a.rtp)) <= Z * r.std_error
    text = (DATA / "tiny_added.toml").read_text().replace('line_multipliers = "add"', "")
    assert slotmath.analyze(loads_game(text, "tiny_multiplied.toml")).rtp > a.rtp


EXAMPLES_DIR = DATA.parents[2] / "docs" / "examples"


@pytest.mark.parametrize("name, kind, states", [("book_style", "expanding_symbol", 480),
                                                ("bass_style", "collector", 1002),
                                                ("sticky_style", "sticky_wilds", 9072)])
def test_the_documented_examples(name, kind, states):
    """docs/examples/book_style.toml (5x3, 10 lines, a wild scatter BOOK, an expanding symbol
    drawn from 8), bass_style.toml (5x3, 10 lines, fish collected by a wild, a x2/x3/x10
    ladder) and sticky_style.toml (5x3, 20 lines, sticky x2 and x3 wilds on reels 2 and 4,
    spins revealed by 3 cells): the RTP each header states, within 0.01 % of its target_rtp, the chain's size it
    states, and a seeded simulation agrees within its bound."""
    path = EXAMPLES_DIR / f"{name}.toml"
    g = slotmath.load_game(path)
    a = slotmath.analyze(g)
    assert a.exact and repr(a.rtp_float) in path.read_text().split("Exact RTP: ")[1][:200]
    assert abs(a.rtp * 100 - g.target_rtp) <= Fraction(1, 100)
    assert a.features[kind].size["states"] == states
    r = slotmath.simulate(g, ROUNDS, seed=20261203)
    assert abs(r.rtp - a.rtp_float) <= Z * r.std_error


@pytest.mark.parametrize("name", TOYS)
def test_the_spectra_in_blocks_equal_the_whole_spectra(name, monkeypatch):
    """When the laws' spectra do not fit in SPECTRA_BYTES, the chain takes the frequencies in
    residue-class blocks (a law given as points: one small FFT of its points folded with a
    twiddle) or in slices of the whole spectrum (a law given as a spectrum only: the collector);
    either must give the characteristic function the whole spectra give (that one is held to
    the brute-force reference above), at a folded grid's power-of-two length."""
    from slotmath.markov import free_spin_state as chain_module

    a = slotmath.analyze(_game(name))
    feature = _feature(a)
    chain = feature.chain
    key = next(feature.start(t) for t in sorted(feature.spec.awards) if feature.start(t))
    starts = chain.starts(dict(key))
    plan = chain._plan([s for _, s in starts])
    whole, mean = chain._transform(starts, plan, 1024, chain.mechanic.grid_unit)
    monkeypatch.setattr(chain_module, "SPECTRA_BYTES", 16 * len(plan.laws) * 64)
    blocks, mean_blocks = chain._transform(starts, plan, 1024, chain.mechanic.grid_unit)
    assert mean_blocks == mean
    assert np.abs(blocks - whole).max() < 1e-14
    assert np.abs(whole).max() > 0.5  # (phi(0) = 1: not a comparison of zeros)
