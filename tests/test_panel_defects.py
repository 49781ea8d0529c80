"""What a new user hit in the widget panels (issue 12, item 4), each checked at widget level.

The jackpot panel on the small jackpot game of tests/strategies.py: after a refused edit the
controls show what the figures show; the refusal is one line saying what to change; rows wrap
instead of shrinking their sliders; the file's game is a baseline. The strip editor shows each
reel's length.
"""

from __future__ import annotations

import html
import re
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import pytest
from strategies import jackpot_game

import slotmath
from slotmath.model.edit import with_jackpot
from slotmath.widgets import JackpotPanel, strip_editor

GAMES = Path(__file__).resolve().parents[1] / "data" / "games"


@pytest.fixture(scope="module")
def game():
    return jackpot_game()


@pytest.fixture(scope="module")
def reference(game):
    return slotmath.analyze(game, 1)


def shown_line(panel) -> str:
    """The refusal as the user reads it: the red line, without the folded details."""
    match = re.search(r"<span style='color:#b00'>(.*?)</span>", panel.figures.value)
    return match.group(1) if match else ""


def test_a_refused_level_leaves_the_toggle_on_the_level_shown(game, reference):
    # level 1 takes a constant law of 0.3 per wheel spin; level 2 (factor 3) cannot: the
    # toggle used to stay on 2 while the figures and charts said level 1
    panel = JackpotPanel(game, reference=reference, level=1, analysis=reference)
    grand = panel.controls["GRAND"]
    grand["law"].value = "constant"
    grand["parameters"]["constant"]["probability"].value = 0.3
    edited = with_jackpot(game, "GRAND", law="constant", parameters={"probability": 0.3})
    assert panel.game == edited and panel.analysis.level == 1
    panel.level.value = 2
    assert panel.level.value == panel.analysis.level == 1
    assert panel.figure.get_suptitle() == "bet level 1"
    assert panel.game == edited and grand["law"].value == "constant"
    assert "bet level 2 not applied" in shown_line(panel)
    assert f"<b>{slotmath.analyze(edited, 1).rtp:.4%}</b>" in panel.figures.value


def test_a_refused_law_edit_puts_the_control_back(game, reference):
    panel = JackpotPanel(game, reference=reference, level=2, draw=False)
    panel.controls["GRAND"]["weight"].value = 8.0  # p_max 0.05 x 8 x level factor 3 > 1
    assert panel.controls["GRAND"]["weight"].value == 1.0 and panel.game == game


@pytest.mark.parametrize("path, value, advice", [
    (("GRAND", "weight"), 8.0, "lower the weight or p_max"),
    # a pool hit once in billions of rounds is analysed (issue 23), a law of 0 refused
    (("MINI", "parameters", "linear", "rate"), 1e-12, None),
    (("MINI", "parameters", "linear", "rate"), 0.0, "rate must be above 0"),
    (("MINI", "contribution"), 10.0, None),  # 10% is accepted: no refusal
    (("MINI", "parameters", "linear", "rate"), -0.01, "rate must be >= 0"),
])
def test_the_refusal_is_one_plain_line_saying_what_to_change(game, reference, path, value,
                                                             advice):
    panel = JackpotPanel(game, reference=reference, level=2, draw=False)
    widget = panel.controls
    for key in path:
        widget = widget[key]
    widget.value = value
    line = shown_line(panel)
    if advice is None:
        assert line == ""
        return
    assert html.escape(advice) in line
    assert line.endswith(".") and len(html.unescape(line)) <= 140, line
    for jargon in ("lattice", "survives", "level factor", "above 1e-", "Traceback", "x level"):
        assert jargon not in line


def test_rows_wrap_and_no_control_is_shrunk(game, reference):
    # a row is wider than a notebook: flexbox shrank every child, so the slider tracks were
    # a few dozen pixels wide, and the saturating law's `half` box was cut off
    panel = JackpotPanel(game, reference=reference, level=1, analysis=reference, draw=False)
    panel.controls["MINI"]["law"].value = "saturating"
    rows = panel.children[:len(game.jackpots)]
    for row in rows:
        assert row.layout.flex_flow == "row wrap"
        for child in row.children:
            assert child.layout.flex == "0 0 auto", child
            assert child.layout.min_width == child.layout.width
    readout = 64  # px ipywidgets gives a slider's readout
    for c in panel.controls.values():
        for slider in (c["weight"], c["contribution"]):
            label = int(slider.style.description_width.removesuffix("px"))
            track = int(slider.layout.width.removesuffix("px")) - label - readout
            assert track >= 150, (slider.description, track)
    half = panel.controls["MINI"]["parameters"]["saturating"]["half"]
    assert half.layout.display is None and half.layout.flex == "0 0 auto"


def test_the_file_game_is_the_baseline_and_each_figure_shows_its_change(game, reference):
    panel = JackpotPanel(game, reference=reference, level=1, analysis=reference, draw=False)
    assert panel.baseline is reference
    assert "change against the game file at bet level 1" in panel.figures.value
    assert "(+" not in panel.figures.value and "(-" not in panel.figures.value  # all "(=)"
    panel.controls["MINI"]["weight"].value = 2.0
    now, then = panel.analysis, reference
    change = 100 * (now.rtp_float - then.rtp_float)
    assert f"<b>{now.rtp_float:.4%}</b> <span style='color:#555'>({change:+.4f} pts)" in (
        panel.figures.value)
    mini, was = now.features["jackpots"].pools["MINI"], then.features["jackpots"].pools["MINI"]
    delta = mini.mean_rounds_between_hits - was.mean_rounds_between_hits
    assert f"1 in {mini.mean_rounds_between_hits:,.0f} rounds <span style='color:#555'>" \
           f"({delta:+,.0f})" in panel.figures.value
    panel.level.value = 2  # the baseline follows the level
    assert panel.baseline.level == 2 and panel.baseline.game == game


def test_the_strip_editor_shows_each_reels_length():
    game = slotmath.load_game(GAMES / "tiny_lines.toml")
    panel = strip_editor(game, draw=False)
    reels = game.base.reels
    for j, reel in enumerate(reels):
        assert f"reel {j + 1}</b><br><span class='slotmath-reel-length'>{len(reel)} stops" in (
            panel.reel_headers[j].value)
    symbol = reels[0].symbols[0]
    slider = panel.sliders[(0, symbol)]
    slider.value += 2  # two more stops on reel 1
    assert f"{len(reels[0]) + 2} stops" in panel.reel_headers[0].value
    assert len(panel.game.base.reels[0]) == len(reels[0]) + 2
    weighted = strip_editor(slotmath.load_game(GAMES / "classic_3reel.toml"), draw=False)
    reel = weighted.game.base.reels[0]
    assert f"{len(reel)} stops, weight {sum(reel.weights)}" in weighted.reel_headers[0].value


def test_a_refused_strip_edit_puts_the_slider_back():
    # emptying reel 1 is refused; the slider stayed at 0 while the figures were of the strip
    # before it
    game = slotmath.loads_game("""
name = "Two"
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
    panel.sliders[(0, "A")].value = 0
    shown = panel.game
    panel.sliders[(0, "B")].value = 0  # nothing left on reel 1
    assert "cannot analyse this edit" in panel.summary.value
    assert panel.sliders[(0, "B")].value == 1 and panel.sliders[(0, "A")].value == 0
    assert panel.game is shown and "1 stops" in panel.reel_headers[0].value
    assert "<code>0</code>" in panel.summary.value  # the figures shown: RTP 0
