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


def test_a_game_the_solver_does_not_cover_gets_its_reason():
    panel = TuningPanel(slotmath.load_game(GAMES / "frozen_gems.toml"), draw=False)
    assert panel.refusal and "not tuned by window tables" in panel.refusal
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
