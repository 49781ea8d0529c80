"""The strip editor panel: a slider change shows the exact figures the engine gives."""

from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import pytest

import slotmath
from slotmath.exact.cycle import spin_table
from slotmath.model.edit import replace_reel, with_symbol_count, with_symbol_weight
from slotmath.widgets import strip_editor, summary_html

GAMES = Path(__file__).resolve().parents[1] / "data" / "games"


@pytest.fixture(scope="module")
def fruits():
    return slotmath.load_game(GAMES / "classic_fruits.toml")


def shown_rtp(panel) -> str:
    """The exact RTP as the panel displays it."""
    html = panel.summary.value
    start = html.index("<code>") + len("<code>")
    return html[start:html.index("</code>")]


def test_slider_change_shows_the_engine_rtp(fruits):
    panel = strip_editor(fruits, draw=False)
    assert shown_rtp(panel) == str(slotmath.analyze(fruits).rtp)
    assert panel.sliders[(1, "W")].value == 2 and panel.sliders[(0, "W")].value == 0

    panel.sliders[(1, "W")].value = 4
    edited = replace_reel(fruits, "base", 1, with_symbol_count(fruits.base.reels[1], "W", 4))
    want = slotmath.analyze(edited)
    assert panel.game.base.reels[1] == edited.base.reels[1]
    assert panel.analysis.rtp == want.rtp
    assert shown_rtp(panel) == str(want.rtp)
    assert want.rtp > slotmath.analyze(fruits).rtp
    assert f"{float(want.hit_frequency):.4%}" in panel.summary.value

    panel.sliders[(1, "W")].value = 2  # back where it started: the very same strip
    assert panel.game.base.reels[1] == fruits.base.reels[1]
    assert shown_rtp(panel) == str(slotmath.analyze(fruits).rtp)


def test_sliders_on_weighted_reels_set_the_total_weight():
    game = slotmath.load_game(GAMES / "classic_3reel.toml")
    panel = strip_editor(game, draw=False)
    slider = panel.sliders[(2, "CHERRY")]
    assert slider.value == 4
    slider.value = 9
    edited = replace_reel(game, "base", 2, with_symbol_weight(game.base.reels[2], "CHERRY", 9))
    assert panel.analysis.rtp == spin_table(edited).mean_bets  # no free spins: the paid spin
    assert shown_rtp(panel) == str(spin_table(edited).mean_bets)


def test_absent_symbol_on_a_weighted_reel_has_no_slider_to_move():
    game = slotmath.loads_game("""
rows = 1
bet = 1
paylines = [[0, 0]]
[symbols]
A = { pays = { 2 = 5 } }
B = {}
[reels]
base = [{ strip = ["A", "B"], weights = [1, 3] }, { strip = ["B"], weights = [2] }]
""")
    panel = strip_editor(game, draw=False)
    assert panel.sliders[(1, "A")].disabled and not panel.sliders[(0, "A")].disabled


def test_a_bad_edit_is_reported_and_the_last_good_state_kept():
    game = slotmath.loads_game("""
rows = 1
bet = 1
paylines = [[0, 0]]
[symbols]
A = { pays = { 2 = 4 } }
B = {}
[reels]
base = [["A", "B"], ["A", "B"]]
""")
    panel = strip_editor(game, draw=False)
    assert shown_rtp(panel) == "1"  # 4 x 1/4
    panel.sliders[(0, "A")].value = 0
    assert shown_rtp(panel) == "0"
    panel.sliders[(0, "B")].value = 0  # nothing left on reel 1
    assert "cannot analyse this edit" in panel.summary.value and "empty" in panel.summary.value
    assert panel.analysis.rtp == 0
    panel.reset()
    assert shown_rtp(panel) == "1" and panel.game == game


def test_charts_follow_the_last_slider(fruits):
    panel = strip_editor(fruits)
    assert len(panel.figure.axes) == 2  # distribution and breakdown until a slider moves
    panel.sliders[(3, "SC")].value = 2
    assert len(panel.figure.axes) == 3
    sweep = panel.figure.axes[2].lines[0]
    assert list(sweep.get_xdata()) == [0, 1, 2, 3, 4, 5]  # 2 - 3 .. 2 + 3, counts >= 0
    # the point at the current value is the RTP the summary shows
    assert sweep.get_ydata()[2] / 100 == pytest.approx(panel.analysis.rtp_float, rel=1e-15)


def test_summary_html_lists_the_free_spins(fruits):
    text = summary_html(slotmath.analyze(fruits))
    assert "free spins: trigger" in text and "1 in 94.6" in text
