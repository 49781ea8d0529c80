"""docs/architecture.md: the feature registry, and its toy feature written only against the
interface.

The doc's code blocks are run as a module of their own (a changed interface breaks the doc
here), and the round they build is checked against a brute-force enumeration of spin x prize
that shares no code with :class:`~slotmath.features.compose.RoundLaw`; so is a round with two
features at once (free spins and the toy prize on the same mark). Adding the toy to the
registry is one line, and every consumer then shows it. The generic modules name no mechanic
(their code, read token by token) and ``Analysis`` stays short.
"""

from __future__ import annotations

import itertools
import re
import sys
import types
from fractions import Fraction
from pathlib import Path

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from slotmath.exact.spin_table import MarkedTable, SpinTable
from slotmath.features.compose import RoundLaw
from slotmath.features.free_spins import FreeSpinsRound
from slotmath.model.game import FreeSpins

DOC = Path(__file__).resolve().parents[1] / "docs" / "architecture.md"


def doc_namespace() -> dict:
    blocks = re.findall(r"```python\n(.*?)```", DOC.read_text(), flags=re.DOTALL)
    assert len(blocks) == 2, "docs/architecture.md lost its toy-feature example"
    module = types.ModuleType("architecture_doc")  # dataclasses look their module up, and the
    sys.modules[module.__name__] = module  # declaration's hooks name it ("architecture_doc:...")
    for block in blocks:
        exec(compile(block, str(DOC), "exec"), module.__dict__)  # noqa: S102 - our own doc
    return module.__dict__


def test_the_doc_example_runs():
    ns = doc_namespace()
    assert ns["round_law"].mean == Fraction(1, 2)


def brute_round(spin: dict, cycle: int, prize) -> dict[Fraction, Fraction]:
    """Round win law by enumeration: each (trigger, credits) outcome, then each prize."""
    out: dict[Fraction, Fraction] = {}
    for (t, c), w in spin.items():
        for extra, q in (prize if t >= 1 else {0: Fraction(1)}).items():
            x = Fraction(c) + extra
            out[x] = out.get(x, 0) + Fraction(w, cycle) * q
    return out


spins = st.dictionaries(st.tuples(st.integers(0, 2), st.integers(0, 6)), st.integers(1, 9),
                        min_size=1, max_size=8)


@settings(max_examples=40, deadline=None)
@given(spins)
def test_toy_round_equals_brute_force(weights):
    prize_feature = doc_namespace()["MysteryPrize"]()
    cycle = sum(weights.values())
    r = RoundLaw(MarkedTable(("trigger",), weights, cycle, 1), (prize_feature,))
    law = brute_round(weights, cycle, {1: Fraction(1, 3), 2: Fraction(1, 3), 3: Fraction(1, 3)})
    assert r.mean == sum(x * p for x, p in law.items())
    assert r.second_moment == sum(x * x * p for x, p in law.items())
    assert r.hit_frequency == sum(p for x, p in law.items() if x > 0)
    d = r.distribution()
    got = {Fraction(int(c), d.credits_per_bet): p for c, p in zip(d.credits, d.probs)}
    for x, p in law.items():
        assert abs(got.get(x, 0.0) - float(p)) < 1e-12


@settings(max_examples=30, deadline=None)
@given(spins, st.dictionaries(st.tuples(st.just(0), st.integers(0, 4)), st.integers(1, 5),
                              min_size=1, max_size=4))
def test_two_features_on_one_mark_equal_brute_force(weights, free_weights):
    """Free spins (2 spins per trigger count >= 1, no retrigger) and the toy prize, both
    started by the same mark, run independently: the round is spin + spins + prize."""
    prize_feature = doc_namespace()["MysteryPrize"]()
    cycle, free_cycle = sum(weights.values()), sum(free_weights.values())
    free = SpinTable(free_weights, free_cycle, 1, 0)
    spec = FreeSpins("S", {1: 2, 2: 2})
    r = RoundLaw(MarkedTable(("trigger",), weights, cycle, 1),
                 (FreeSpinsRound(spec, free), prize_feature))
    # brute force: spin, then two free spins, then the prize
    two = {}
    for (_, a), wa in free_weights.items():
        for (_, b), wb in free_weights.items():
            two[a + b] = two.get(a + b, 0) + Fraction(wa * wb, free_cycle**2)
    law: dict[Fraction, Fraction] = {}
    for (t, c), w in weights.items():
        extra = ([(0, Fraction(1))] if t == 0 else
                 [(f + k, q * Fraction(1, 3)) for (f, q), k in itertools.product(two.items(),
                                                                               (1, 2, 3))])
        for x, q in extra:
            law[Fraction(c + x)] = law.get(Fraction(c + x), 0) + Fraction(w, cycle) * q
    assert r.mean == sum(x * p for x, p in law.items())
    assert r.second_moment == sum(x * x * p for x, p in law.items())
    assert r.hit_frequency == sum(p for x, p in law.items() if x > 0)
    d = r.distribution()
    got = dict(zip(d.credits.tolist(), d.probs.tolist()))
    assert all(abs(got.get(int(x * d.credits_per_bet), 0.0) - float(p)) < 1e-12
               for x, p in law.items())
    assert np.isclose(sum(got.values()), 1.0)


HOOKS = ("json", "tables", "summary", "errors", "charts", "panel", "simulator",
         "round_simulator", "simulation", "simulation_text", "checks", "rates", "disclosure")


def test_every_declared_hook_exists_and_every_kind_is_used():
    """Every function a declaration names is there (its simulator counterpart included), and
    every round simulator's ``plays`` names registered features."""
    from slotmath.features.base import Kind, hook
    from slotmath.features.registry import REGISTRY

    names = {f.name for f in REGISTRY}
    assert len(names) == len(REGISTRY)
    assert {f.kind for f in REGISTRY} == set(Kind)
    for f in REGISTRY:
        assert f.simulator, f"{f.name} names no simulator counterpart"
        for what in HOOKS:
            if getattr(f, what) is not None and getattr(f, what) != "":
                assert callable(hook(f, what)), (f.name, what)
        assert set(f.plays) <= names, f.name


def play_mystery(rng, trigger_counts):
    """Simulator counterpart of the doc's toy feature: each round whose paid spin shows the
    trigger at least once draws a prize of 1, 2 or 3 bets."""
    prize = rng.integers(1, 4, size=len(trigger_counts)).astype(float)
    return np.where(np.asarray(trigger_counts) >= 1, prize, 0.0)


def test_toy_feature_composes_into_an_analysis(monkeypatch):
    """One more registry line makes the toy a feature of Tiny Lines: its component is
    P(trigger >= 1 on the paid spin) x 2, with the trigger probability from brute force, the
    RTP moves by exactly that, the rest of the analysis is unchanged, and the JSON, the PAR
    sheets and the text show its section; nothing else in slotmath changes."""
    import slotmath
    from slotmath import report
    from slotmath.exact.brute import brute_force
    from slotmath.features import registry

    game = slotmath.load_game(DOC.parents[1] / "data" / "games" / "tiny_lines.toml")
    plain = slotmath.analyze(game)
    plain_rtp, plain_components, plain_hits = plain.rtp, plain.components, plain.hit_frequency
    toy = doc_namespace()["FEATURE"]
    monkeypatch.setattr(registry, "REGISTRY", registry.REGISTRY + (toy,))  # the one line
    a = slotmath.analyze(game)
    assert "mystery" in a.features and [f.name for f in a.declared][-1] == "mystery"
    base = brute_force(game, "base")
    p = Fraction(sum(w for (t, _), w in base.weights.items() if t >= 1), base.cycle)
    assert a.components["mystery"] == 2 * p == a.features["mystery"]
    assert a.rtp == plain_rtp + 2 * p
    assert a.rtp == sum(a.components.values())
    assert {k: v for k, v in a.components.items() if k != "mystery"} == plain_components
    assert a.hit_frequency > plain_hits
    assert report.analysis_dict(a)["mystery"] == {"rtp": float(2 * p)}
    features = next(s for s in report.par_sheets(a) if s.name == "Features")
    assert "Mystery prize" in [title for title, _ in features.tables]
    assert "Mystery prize" in report.par_sheet_text(a)
    # the simulator counterpart: base-spin trigger counts drawn from brute force, prizes drawn
    rng = np.random.default_rng(20261201)
    keys = list(base.weights)
    draws = rng.choice(len(keys), size=400_000,
                       p=np.array([base.weights[k] for k in keys], dtype=float) / base.cycle)
    prizes = play_mystery(rng, np.array([t for t, _ in keys])[draws])
    se = prizes.std() / np.sqrt(len(prizes))
    assert abs(prizes.mean() - float(a.components["mystery"])) < 4.5 * se


def test_context_refuses_a_trigger_mark_it_cannot_count():
    """The engine counts the free-spin trigger only; a feature asking it to count another
    symbol's appearances must be told so, not handed the scatter count."""
    import pytest

    import slotmath
    from slotmath.features.base import Context, Mark

    game = slotmath.load_game(DOC.parents[1] / "data" / "games" / "gold_money_frog.toml")
    ctx = Context(game, 1)
    assert ctx.table("base", (Mark("trigger", game.free_spins.trigger),)).marks == ("trigger",)
    with pytest.raises(ValueError, match="counts the free-spin trigger symbol"):
        ctx.table("base", (Mark("trigger", "WILD"),))


def test_features_are_freed_with_their_analysis():
    """Features keep their laws per instance: a global cache (functools.cache on a method)
    held every feature, with its chain and tables, for the life of the process, so a notebook
    moving a slider grew without bound."""
    import gc
    import weakref

    import slotmath

    game = slotmath.load_game(DOC.parents[1] / "data" / "games" / "gold_money_frog.toml")
    a = slotmath.analyze(game, 4)
    _ = a.round.mean, a.components
    refs = [weakref.ref(f) for f in (*a.round.features, *a.composition.spin_features())]
    assert refs and all(r() is not None for r in refs)
    del a, _
    gc.collect()
    assert [r() for r in refs if r() is not None] == []


# -- the generic modules name no mechanic ----------------------------------------------------
SRC = DOC.parents[1] / "src" / "slotmath"
#: the modules that loop over the registry: their code must name no mechanic
GENERIC = ("analysis.py", "features/base.py", "features/composition.py", "features/compose.py",
           "report/json_report.py", "report/sheets.py", "report/tables.py", "report/text.py",
           "report/charts.py", "report/progress.py", "report/compliance.py",
           "report/simulation.py", "report/html.py", "report/workbook.py", "cli.py",
           "widgets/workbench.py", "notebook.py", "simulate/front.py")
#: a mechanic's names: its registry name and the game's attribute that holds it
MECHANICS = ("free_spins", "bonus_wheel", "jackpots", "max_win_cap", "cascades",
             "bonus_symbols", "hold_and_win", "modifiers", "conveyor", "random_wilds",
             "expanding_symbol", "sticky_wilds", "collector", "megaways", "anywhere_pays",
             "cluster", "tumbles", "multiplier_symbols", "grid")
#: names as code only: the game's cap (the JSON key "max_win" is the top award)
ATTRIBUTES = ("max_win",)


def mechanic_names(source: str) -> list[str]:
    """The mechanic names a module's code uses: as a name or attribute, or as a string that
    is exactly a mechanic's name (a key); docstrings, comments and prose are not code."""
    import io
    import tokenize

    found = []
    for tok in tokenize.generate_tokens(io.StringIO(source).readline):
        if tok.type == tokenize.NAME and tok.string in MECHANICS + ATTRIBUTES or tok.type == tokenize.STRING and tok.string.strip("\"'") in MECHANICS:
            found.append(f"{tok.start[0]}: {tok.string}")
    return found


def test_the_scan_finds_a_mechanic_name():
    assert mechanic_names('x = game.free_spins\ny = a.features["jackpots"]\n') == [
        "1: free_spins", '2: "jackpots"']
    assert mechanic_names('"""free_spins in prose"""\n# bonus_wheel\n') == []


def test_generic_modules_name_no_mechanic():
    named = {m: mechanic_names((SRC / m).read_text()) for m in GENERIC}
    assert {m: n for m, n in named.items() if n} == {}


def test_analysis_is_short_and_has_no_mechanic_member():
    from slotmath import analysis

    assert len((SRC / "analysis.py").read_text().splitlines()) <= 250
    members = [n for n in vars(analysis.Analysis) if not n.startswith("__")]
    assert len(members) <= 30, members
    assert not [n for n in members if n in MECHANICS or "wheel" in n or "cascade" in n]
