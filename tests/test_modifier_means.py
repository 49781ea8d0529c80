"""A modified spin's mean and marks' law without its joint table
(:mod:`slotmath.exact.modifier_means`), the RTP from them (:func:`slotmath.rtp_only`) and the
strip editor that shows it at once (issue 25 item 3, Gus's Gold Christmas).

Checked against paths that share no code with it: the whole-window brute force and the
linearity reference of ``tests/modifiers_reference.py``, and the full analysis (the engine's
joint tables, :mod:`slotmath.exact.modifiers`)."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest
from bundled import analysed
from hypothesis import HealthCheck, given, settings
from modifiers_reference import modified_law, place_mean_by_lines
from test_modifiers import DYNAMITE, PICKAXE, SPEC, TNT, _cases, _modifier_dict, _text

import slotmath
from slotmath.exact.modifier_means import modifier_means
from slotmath.exact.modifiers import modifier_counts_table
from slotmath.exact.spin_table import MeansOnly
from slotmath.features.composition import Composition
from slotmath.io.toml_loader import loads_game
from slotmath.model.edit import replace_reel, symbol_count, with_symbol_count

ROOT = Path(__file__).resolve().parents[1]
GUS = ROOT / "data" / "games" / "gus_gold_christmas.toml"
FIXTURES = [ROOT / "tests" / "data" / "stake_modifiers.toml",
            ROOT / "tests" / "data" / "stake_boosters.toml"]


def _by_brute_force(spec, modifier, cap):
    """{count of S (at most ``cap``): probability}, and the mean win in total bets."""
    law, mean = {}, Fraction(0)
    for (count, win), p in modified_law(spec, _modifier_dict(modifier), "S").items():
        law[min(count, cap)] = law.get(min(count, cap), 0) + p
        mean += p * win
    return law, mean


def _by_means(game, modifier, cap):
    law, credits, cycle, cpb = modifier_means(game, modifier, [("S", cap)])
    return ({k[0]: Fraction(w, cycle) for k, w in law.items()},
            Fraction(credits, cycle * cpb))


@pytest.mark.parametrize("modifier", [DYNAMITE, PICKAXE, TNT], ids=lambda m: m.name)
@pytest.mark.parametrize("ways", [False, True])
@pytest.mark.parametrize("cap", [1, 6])
def test_means_equal_the_brute_force(modifier, ways, cap):
    spec = dict(SPEC, ways=ways)
    game = loads_game(_text(spec))
    assert _by_means(game, modifier, cap) == _by_brute_force(spec, modifier, cap)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_cases())
def test_random_small_games_means_equal_the_brute_force_and_the_tables(case):
    spec, m, _ = case
    game = loads_game(_text(spec))
    assert _by_means(game, m, 2) == _by_brute_force(spec, m, 2)
    # and the engine's joint table summed, integer for integer over the same cycle
    law, credits, cycle, cpb = modifier_means(game, m, [("S", 2), ("A", 9)])
    table, cycle2, cpb2 = modifier_counts_table(game, m, [("S", 2), ("A", 9)])
    summed: dict = {}
    for k, w in table.items():
        summed[k[:-1]] = summed.get(k[:-1], 0) + w
    assert (law, credits, cycle, cpb) == (summed, sum(k[-1] * w for k, w in table.items()),
                                          cycle2, cpb2)


def _moved(game, edits):
    for j, symbol, step in edits:
        reel = game.reel_sets["base"].reels[j]
        game = replace_reel(game, "base", j,
                            with_symbol_count(reel, symbol, symbol_count(reel, symbol) + step))
    return game


@pytest.mark.parametrize("edits", [[(4, "J", 1)], [(1, "Q", -1), (3, "WILD", 1)]],
                         ids=["reel 5 +J", "reel 2 -Q reel 4 +WILD"])
def test_gus_after_a_move_has_the_mean_of_its_lines_one_by_one(edits):
    """Gus's Gold Christmas with moved strips: Dynamite's and Pickaxe's means equal the
    linearity reference (each line alone); Dynamite keeps the nuggets, so its nugget law is
    the plain spin's, counted here stop by stop."""
    game = _moved(slotmath.load_game(GUS), edits)
    reels = game.reel_sets["base"].reels
    pays = {n: dict(s.pays) for n, s in game.symbols.items() if s.pays and not s.scatter}
    for m in game.modifiers:
        if m.kind != "place":
            continue
        law, credits, cycle, cpb = modifier_means(game, m, [("NUGGET", 15)])
        by_lines = place_mean_by_lines([r.symbols for r in reels],
                                       [r.stop_weights for r in reels], list(game.rows),
                                       game.paylines, pays, "WILD", _modifier_dict(m))
        assert Fraction(credits, cycle * cpb) == by_lines / game.n_lines
        if m.name == "dynamite":
            plain: dict = {(0,): Fraction(1)}
            for reel, rows in zip(reels, game.rows):
                n = len(reel.symbols)
                new: dict = {}
                for (c,), p in plain.items():
                    for stop in range(n):
                        k = c + sum(reel.symbols[(stop + r) % n] == "NUGGET"
                                    for r in range(rows))
                        new[k,] = new.get((k,), 0) + p / n
                plain = new
            assert {k: Fraction(w, cycle) for k, w in law.items()} == plain


def _same_figures(quick, full):
    assert quick.rtp == full.rtp
    assert quick.components == full.components
    assert quick.exact == full.exact
    assert quick.rtp_error == pytest.approx(full.rtp_error, rel=1e-12, abs=0)


def test_gus_rtp_only_is_the_analysis_rtp():
    """On the bundled game (its analysis shared with the generic suites)."""
    game = analysed(GUS).game
    _same_figures(slotmath.rtp_only(game), analysed(GUS))


@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: p.stem)
@pytest.mark.parametrize("edits", [[], [(0, "A", 1)], [(1, "X", -1), (2, "O", 2)]],
                         ids=["as filed", "one move", "two reels"])
def test_rtp_only_is_the_analysis_rtp_on_hold_and_win_games(path, edits):
    """Hold & win games with every kind of modifier: the RTP and components from the means
    equal the full analysis' (the joint tables) exactly, strips moved or not."""
    game = slotmath.load_game(path)
    edits = [(j, s, d) for j, s, d in edits if j < game.n_reels]
    game = _moved(game, edits)
    _same_figures(slotmath.rtp_only(game), slotmath.analyze(game))


FREE = """
[free_spins]
trigger = "S"
awards = { 2 = 5, 3 = 8 }
multiplier = 2
"""


@pytest.mark.parametrize("ways", [False, True])
@pytest.mark.parametrize("inside", [False, True], ids=["paid spin only", "in free spins too"])
def test_rtp_only_with_free_spins_is_the_analysis_rtp(ways, inside):
    """Modifiers with free spins: on the paid spin only, the means give the analysis' RTP and
    components exactly; a modifier that also acts inside the free spins (whose chain reads the
    spin's whole law) makes rtp_only take the whole analysis: the same figures, never a figure
    from the stand-in table."""
    from test_modifiers import GOOD

    mods = GOOD.replace('keep = ["S"]', 'keep = ["S"]\nin_free_spins = true') if inside else GOOD
    game = loads_game(_text(dict(SPEC, ways=ways), mods) + FREE, "g.toml")
    assert any(m.in_free_spins for m in game.modifiers) == inside
    _same_figures(slotmath.rtp_only(game), slotmath.analyze(game))
    if inside:
        with pytest.raises(MeansOnly):
            _ = Composition(game, means=True).rtp


def test_figures_past_the_mean_are_refused():
    """A composition of means gives the RTP; what reads the joint law raises MeansOnly
    instead of answering from the stand-in table."""
    game = slotmath.load_game(FIXTURES[0])
    c = Composition(game, means=True)
    assert c.rtp == slotmath.analyze(game).rtp
    for figure in ("hit_frequency", "second_moment", "distribution"):
        with pytest.raises(MeansOnly):
            attr = getattr(c.round, figure)
            attr() if callable(attr) else None


def test_the_strip_editor_shows_the_exact_rtp_at_once_then_the_analysis(monkeypatch):
    """A move shows the edited game's exact RTP (the full analysis' figure) before any
    analysis of it; the background's analysis then replaces it. (The background is run here
    by hand, so the figures at once are read before it.)"""
    from slotmath.widgets.strip_editor import StripEditor

    game = slotmath.load_game(FIXTURES[0])
    panel = StripEditor(game, draw=False, sweep=False)
    assert panel.at_once
    queued = []
    monkeypatch.setattr(panel, "_start", queued.append)
    before = panel.analysis
    panel.sliders[(1, "B")].value += 1
    edited = panel.edited_game()
    full = slotmath.analyze(edited)
    assert panel.quick.rtp == full.rtp != before.rtp
    assert panel.analysis is before  # not analysed yet: the figures below are the old ones
    assert "RTP of this move" in panel.notice.value and str(full.rtp) in panel.notice.value
    assert 0 < panel.timings["rtp"] <= panel.timings["figures"]
    assert len(queued) == 1 and queued[0].reel_sets["base"] == edited.reel_sets["base"]
    panel._analyse(queued[0])
    assert panel.quick is None and panel.analysis.rtp == full.rtp
    assert str(full.rtp) in panel.summary.value
    # an edit that cannot be analysed (an empty reel): said, and the sliders go back
    kept = {s: panel.sliders[(0, s)].value for s in panel.symbols}
    panel._muted = True
    for s in panel.symbols:
        panel.sliders[(0, s)].value = 0
    panel._muted = False
    panel.sliders[(0, "A")].value = 1
    panel.sliders[(0, "A")].value = 0
    assert "cannot analyse this edit" in panel.notice.value
    assert {s: panel.sliders[(0, s)].value for s in panel.symbols} == kept
