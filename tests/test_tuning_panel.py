"""The tuning panel (issue 25 item 5): targets in, the tuned game's PAR beside the original's,
the sensitivity heat map, and Apply writing a game file that loads and analyses to the tuned
figures. The tuned figures are checked by a fresh load and analysis of the written file, and
the strip changes by counting symbols on the two games' strips here."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from pathlib import Path

import matplotlib
import numpy as np
import pytest

matplotlib.use("Agg")

import slotmath
from slotmath.widgets import TuningPanel, workbench

ROOT = Path(__file__).resolve().parents[1]
GAMES = ROOT / "data" / "games"


@pytest.fixture(scope="module")
def tuned():
    panel = TuningPanel(slotmath.load_game(GAMES / "classic_3reel.toml"))
    panel.target.value = 96.0
    panel.run()
    return panel


def test_the_tuned_game_meets_the_target_and_its_par_sits_beside_the_original(tuned):
    assert tuned.result.met
    fresh = slotmath.analyze(tuned.result.game)
    assert abs(fresh.rtp - Fraction(96, 100)) <= Fraction(1, 100_000)
    assert tuned.tuned.rtp == fresh.rtp
    page = tuned.par.value
    before = slotmath.analyze(slotmath.load_game(GAMES / "classic_3reel.toml")).rtp
    assert f"{float(before):.6%}" in page and f"{float(fresh.rtp):.6%}" in page
    assert "changed" in page
    assert "steps in" in tuned.progress.value


def test_the_strip_changes_are_the_counts_that_moved(tuned):
    original = tuned.game.base.reels
    new = tuned.result.game.base.reels
    want = set()
    for j, (a, b) in enumerate(zip(original, new)):
        ca, cb = Counter(), Counter()  # stops (or total stop weight on a weighted reel)
        for reel, count in ((a, ca), (b, cb)):
            for i, symbol in enumerate(reel.symbols):
                count[symbol] += 1 if reel.weights is None else reel.weights[i]
        want |= {(j + 1, s, ca[s], cb[s]) for s in set(ca) | set(cb) if ca[s] != cb[s]}
    assert want, "the solver changed nothing, so this test checks nothing"
    for reel, symbol, before, after in want:
        assert f"<td>{symbol}</td>\n      <td>{before}</td>\n      <td>{after}</td>" in \
            tuned.changes.value, (reel, symbol)


def test_apply_writes_a_game_file_that_analyses_to_the_tuned_figures(tuned, tmp_path):
    path = tuned.apply(tmp_path / "tuned.toml")
    assert path == tmp_path / "tuned.toml" and tuned.written == path
    again = slotmath.analyze(slotmath.load_game(path))
    assert again.rtp == tuned.tuned.rtp
    assert again.hit_frequency == tuned.tuned.hit_frequency
    assert str(again.rtp) in path.read_text().splitlines()[0]


def test_apply_to_a_folder_that_does_not_exist_says_so(tuned, tmp_path):
    assert tuned.apply(tmp_path / "no" / "such" / "dir.toml") is None
    assert "cannot write" in tuned.applied.value


def test_targets_out_of_reach_are_reported_not_claimed():
    panel = TuningPanel(slotmath.load_game(GAMES / "tiny_lines.toml"), draw=False)
    panel.target.value = 400.0
    panel.time_limit.value = 5
    panel.run()
    assert not panel.result.met
    assert "not every target met: rtp misses by" in panel.progress.value


def test_the_heat_map_is_the_sensitivities(tuned):
    from slotmath.plot.tuning import sensitivity_heatmap_data

    assert tuned.sensitivities is None and tuned.figure is None  # on request only
    tuned.show_sensitivities()
    image = tuned.figure.axes[0].images[0]
    data = sensitivity_heatmap_data(tuned.sensitivities).fillna(0).to_numpy()
    assert np.allclose(image.get_array().filled(0), data)


def test_a_game_the_window_tables_do_not_cover_is_tuned_by_its_path(tmp_path):
    """A cascading game (the window tables do not cover it) is tuned here by tune()'s path
    for it (each step confirmed by its own exact analysis), the RTP target only, no heat map;
    Apply writes a file the cascade reference (tests/cascade_reference.py) reads to the tuned
    RTP."""
    import tomllib

    from cascade_reference import figures as cascade_figures

    path = ROOT / "tests" / "data" / "cascades" / "tiny_lines.toml"
    game = slotmath.load_game(path)
    panel = TuningPanel(game, draw=False)
    assert panel.refusal is None and panel.searched and not panel.proxied
    assert "Cascades" in panel.why and panel.sensitivity_button not in panel.children
    start = slotmath.analyze(game).rtp  # 1,717 %: a fixture, far above a real game's
    panel.target.max = 10_000.0
    panel.target.value = round(float(start) * 120, 2)
    panel.tolerance.max = 1_000.0
    panel.tolerance.value = float(start) * 3
    panel.run()
    assert panel.result is not None and panel.result.met, panel.progress.value
    written = panel.apply(tmp_path / "tuned.toml")
    rtp = cascade_figures(tomllib.loads(written.read_text())).rtp
    assert rtp == panel.tuned.rtp != start
    assert abs(float(rtp) * 100 - panel.target.value) <= panel.tolerance.value
    panel.show_sensitivities()  # no heat map here: nothing happens
    assert panel.sensitivities is None


def test_a_game_the_solver_cannot_take_gets_its_reason(monkeypatch):
    """A refusal that is no window-table limit (the check's own ValueError) is said in one
    line and nothing runs."""
    from slotmath.widgets import tuning_panel

    def refuse(game, level=1):
        raise ValueError("its features count trigger and count:C jointly in one spin")

    monkeypatch.setattr(tuning_panel, "check_tunable", refuse)
    panel = TuningPanel(slotmath.load_game(GAMES / "tiny_lines.toml"), draw=False)
    assert panel.refusal and "jointly" in panel.children[1].value
    panel.run()  # nothing to run: no error
    assert panel.result is None


def test_the_workbench_ends_with_the_tuning_tab():
    w = workbench(slotmath.load_game(GAMES / "tiny_lines.toml"), draw=False)
    assert w.titles[-1] == "Tuning"
    assert isinstance(w.panels["tuning"], TuningPanel)


def test_the_max_win_range_and_gli11_reach_the_solver_and_are_shown():
    """A max-win range set in the panel is met by the tuned game as a fresh analysis of it
    reads its top award; with GLI-11 on the rarest award is shown, with it off the solver
    is not asked (no awards)."""
    game = slotmath.load_game(GAMES / "classic_fruits.toml")
    panel = TuningPanel(game, draw=False)
    start = panel.original.top_award.one_in
    panel.target.value = round(float(panel.original.rtp) * 100, 2)
    panel.tolerance.value = 0.5
    panel.max_win_on.value = True
    panel.max_win_lo.value, panel.max_win_hi.value = 0.5 * start, 0.9 * start
    panel.time_limit.value = 60
    panel.run()
    assert panel.result.met, panel.progress.value
    top = panel.tuned.top_award  # a fresh analyze() of the tuned game, not the solver's
    assert 0.5 * start <= top.one_in <= 0.9 * start
    assert "Max win" in panel.progress.value and "Rarest award" in panel.progress.value
    panel.gli11.value = False
    panel.max_win_on.value = False
    panel.run()
    assert panel.result.awards is None and "Rarest award" not in panel.progress.value


def _cyclic_runs(symbols, symbol):
    """Lengths of the maximal cyclic runs of ``symbol`` on a strip (measured here)."""
    n = len(symbols)
    at = [i for i, s in enumerate(symbols) if s == symbol]
    if len(at) == n:
        return [n]
    runs = []
    for i in at:
        if symbols[i - 1] != symbol:  # a run starts here
            k = 0
            while symbols[(i + k) % n] == symbol:
                k += 1
            runs.append(k)
    return runs


def _closest(symbols, symbol):
    at = [i for i, s in enumerate(symbols) if s == symbol]
    n = len(symbols)
    return min((min(abs(a - b), n - abs(a - b)) for a in at for b in at if a < b),
               default=n)


def test_layout_rules_typed_in_the_panel_hold_on_the_tuned_strips():
    """Spacing and stack rules typed as SYMBOL=N reach the solver: every tuned strip keeps
    them (measured on the strips here), the scatter keeps its default window-height spacing,
    the target is met, and the panel says the rules are kept."""
    game = slotmath.load_game(GAMES / "ways_243.toml")
    panel = TuningPanel(game, draw=False)
    assert [v for _, v in panel.moves.options] == ["counts"]  # no weighted reel
    panel.target.value = 94.0
    panel.tolerance.value = 0.01
    panel.spacing.value = "LION=4"
    panel.stack.value = "W=2"
    panel.time_limit.value = 60
    panel.run()
    assert panel.result.met, panel.progress.value
    assert abs(panel.tuned.rtp - Fraction(94, 100)) <= Fraction(1, 10_000)
    for reel in panel.result.game.base.reels:
        symbols = list(reel.symbols)
        assert set(_cyclic_runs(symbols, "W")) <= {2}, symbols
        assert _closest(symbols, "LION") >= 4, symbols
        assert _closest(symbols, "SC") >= 3, symbols
    assert "LION=4 apart" in panel.progress.value and "W in stacks of 2" in panel.progress.value
    assert "kept on every reel" in panel.progress.value


def test_stop_weights_move_and_no_stop_moves():
    """With "stop weights" chosen on a weighted game the tuned strips are the original stops
    in the original order; only weights changed, and the target is met (a fresh analysis)."""
    game = slotmath.load_game(GAMES / "classic_3reel.toml")
    panel = TuningPanel(game, draw=False)
    panel.moves.value = "weights"
    panel.target.value = 96.0
    panel.run()
    assert panel.result.met, panel.progress.value
    fresh = slotmath.analyze(panel.result.game)
    assert abs(fresh.rtp - Fraction(96, 100)) <= Fraction(1, 100_000)
    old, new = game.base.reels, panel.result.game.base.reels
    assert all(list(a.symbols) == list(b.symbols) for a, b in zip(old, new))
    assert any(list(a.weights) != list(b.weights) for a, b in zip(old, new))


def test_a_bad_layout_rule_is_one_line_not_a_run():
    panel = TuningPanel(slotmath.load_game(GAMES / "ways_243.toml"), draw=False)
    panel.spacing.value = "SC=x"
    panel.run()
    assert panel.result is None
    assert "cannot tune: spacing: must be SYMBOL=N" in panel.progress.value
    panel.spacing.value = ""
    panel.stack.value = "NOPE=2"
    panel.run()
    assert panel.result is None and "has no symbol &#x27;NOPE&#x27;" in panel.progress.value


def test_wheel_and_value_weights_are_moves_of_the_games_that_have_them(tmp_path):
    """The panel offers wheel and value weights only where the game has them; tuning the toy
    wheel game by its wheel weights meets the target as the rules' own enumeration reads the
    tuned weights (tests/test_tune_values.py's reference), shows the weights that moved, and
    Apply writes a file whose weights are those."""
    from tests.test_tune_values import CASH_GAME, WHEEL_GAME, wheel_rtp

    assert [v for _, v in TuningPanel(slotmath.load_game(GAMES / "tiny_lines.toml"),
                                      draw=False).moves.options] == ["counts"]
    path = tmp_path / "wheel.toml"
    path.write_text(WHEEL_GAME)
    cash = tmp_path / "cash.toml"
    cash.write_text(CASH_GAME)
    assert "values" in [v for _, v in TuningPanel(slotmath.load_game(cash),
                                                  draw=False).moves.options]
    panel = TuningPanel(slotmath.load_game(path), draw=False)
    assert "wheel" in [v for _, v in panel.moves.options]
    panel.moves.value = "wheel"
    panel.target.value = 20.0
    panel.tolerance.value = 0.5
    panel.gli11.value = False
    panel.run()
    assert panel.result.met, panel.progress.value
    weights = panel.result.game.bonus_wheel.weights
    assert abs(wheel_rtp((1, 4, 20), weights) - Fraction(20, 100)) <= Fraction(5, 1000)
    assert "Wheel weight changes" in panel.changes.value and "Layout" not in \
        panel.progress.value
    written = panel.apply(tmp_path / "tuned.toml")
    assert tuple(slotmath.load_game(written).bonus_wheel.weights) == tuple(weights)
    panel.spacing.value = "BN=2"  # a layout rule with a move that changes no strip
    panel.run()
    assert "cannot tune" in panel.progress.value and "changes no strip" in panel.progress.value


def test_a_game_with_modifiers_tunes_in_the_panel_and_its_heat_map_is_the_rtps(tmp_path):
    """A game the window tables refuse for its base-game modifiers alone is tuned here (the
    RTP target and GLI-11); its heat map is the RTP's exact changes, each equal to a whole
    analysis of the edited game (the modifiers' joint tables: no code shared with
    slotmath.rtp_only's means), and Apply writes a file that analyses to the tuned RTP."""
    from fractions import Fraction

    game = slotmath.load_game(ROOT / "tests" / "data" / "stake_modifiers.toml")
    panel = TuningPanel(game, draw=False)
    assert panel.refusal is None and panel.proxied
    start = slotmath.analyze(game).rtp
    # (its RTP is 466 %: its modifiers act on most spins; one stop moves it 55-330 points)
    panel.target.value = round(float(start) * 100 - 66, 2)
    panel.tolerance.value = 5
    panel.run()
    assert panel.result is not None and panel.result.met, panel.progress.value
    assert panel.tuned.rtp == slotmath.analyze(panel.result.game).rtp
    assert abs(float(panel.tuned.rtp) * 100 - panel.target.value) <= 5
    written = panel.apply(tmp_path / "tuned.toml")
    assert slotmath.analyze(slotmath.load_game(written)).rtp == panel.tuned.rtp != start
    panel.show_sensitivities()
    s = panel.sensitivities
    assert s.figures == ("rtp",) and s.base.rtp == start
    for e in s.entries[::3]:
        reels = list(game.base.reels)
        reels[e.reel] = e.strip
        edited = slotmath.analyze(game.replace_reels("base", tuple(reels)))
        assert e.figures.rtp == edited.rtp, (e.reel, e.symbol, e.change)
    with pytest.raises(ValueError, match="only the RTP"):
        s.grid("hit_frequency")
    with pytest.raises(ValueError, match="only the RTP"):
        s.grid("sd")
    assert "d_hit_frequency" not in s.table.columns
    assert len(s.table) == len(s.entries) and Fraction(s.table["d_rtp"].iloc[0]) is not None


def test_gus_is_tuned_in_the_panel_by_the_proxy():
    """The bundled game with modifiers: no refusal, the proxy's controls (its analysis shared
    with the generic suites)."""
    from bundled import analysed

    path = GAMES / "gus_gold_christmas.toml"
    panel = TuningPanel(analysed(path).game, draw=False, analysis=analysed(path))
    assert panel.refusal is None and panel.proxied
    assert "proxy" in panel.children[1].children[0].value


def test_the_strip_order_rule_typed_in_the_panel_holds_on_a_cascade_games_strips():
    """The strip-order box on a cascading game: every tuned strip has no symbol within 2
    stops of its copy (scanned here) and the cascade reference reads the written file's
    RTP."""
    import tomllib

    from cascade_reference import figures as cascade_figures

    from slotmath.tune.game_file import tuned_text

    path = ROOT / "tests" / "data" / "cascades" / "tiny_lines.toml"
    game = slotmath.load_game(path)
    panel = TuningPanel(game, draw=False)
    assert panel.no_repeat in panel.children[1].children  # offered on the search path
    start = slotmath.analyze(game).rtp
    panel.target.max, panel.tolerance.max = 10_000.0, 1_000.0
    panel.target.value = round(float(start) * 120, 2)
    panel.tolerance.value = float(start) * 5
    panel.no_repeat.value = 3  # reel 1's two A are 2 apart (cyclically): laid out first
    panel.run()
    assert panel.result is not None, panel.progress.value
    for reel in panel.result.game.base.reels:
        s, n = reel.symbols, len(reel.symbols)
        assert all(s[i] != s[(i + k) % n] for i in range(n) for k in (1, 2)), s
    text = tuned_text(path, panel.result.game, "base")
    assert cascade_figures(tomllib.loads(text)).rtp == panel.tuned.rtp
    assert "Layout:" in panel.progress.value and "kept on every reel" in panel.progress.value
