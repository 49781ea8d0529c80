"""The strip editor panel: a slider change shows the exact figures the engine gives."""

import re
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import pytest

import slotmath
from slotmath.exact.cycle import spin_table
from slotmath.model.edit import replace_reel, with_symbol_count, with_symbol_weight
from slotmath.widgets import strip_editor, summary_html

ROOT = Path(__file__).resolve().parents[1]
GAMES = ROOT / "data" / "games"


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


def test_the_rtp_shows_its_fraction_when_exact_and_its_error_when_numerical():
    """Issue 23: on a jackpot game the strip editor showed a float where the exact fraction
    stands; a numerical RTP shows its float with its error bound, and no fraction."""
    from strategies import jackpot_game

    a = slotmath.analyze(jackpot_game())
    text = re.search(r"<td[^>]*>RTP</td><td>(.*?)</td>", summary_html(a)).group(1)
    assert not a.exact and not re.search(r"\d/\d", text)
    assert f"<code>{a.rtp_float!r}</code> &plusmn; " in text and "numerical" in text
    bound = float(text.split("&plusmn; ")[1].split()[0])
    assert a.rtp_error <= bound <= 1.1 * a.rtp_error  # rounded up: still a bound
    exact = slotmath.analyze(slotmath.load_game(GAMES / "tiny_lines.toml"))
    text = re.search(r"<td[^>]*>RTP</td><td>(.*?)</td>", summary_html(exact)).group(1)
    assert text == "91.741071% &nbsp; <code>411/448</code>"


def test_strip_sliders_give_each_stop_eight_pixels(fruits):
    """A slider's track has 8 pixels a step: at 150 px its track was 62 px for 20 steps
    (the readout and its margins take 88 px, measured in Chromium), and a 25 px drag moved 8
    stops. The browser suite measures the track as drawn (tests/browser/moves.py)."""
    readout = 88
    panel = strip_editor(fruits, draw=False)
    for slider in panel.sliders.values():
        label = int(slider.style.description_width.removesuffix("px") or 0)
        track = int(slider.layout.width.removesuffix("px")) - label - readout
        assert track / (slider.max - slider.min) >= 8
        assert slider.description and label >= 11 * len(slider.description)  # its symbol


def test_a_figure_of_the_same_shape_keeps_the_first_ones_layout():
    """A panel's redraw skips matplotlib's constrained layout (a third of a jackpot panel's
    redraw) when the figure has the shape of one laid out before; another shape, or a view
    not asked to, lays it out."""
    from matplotlib.figure import Figure
    from matplotlib.layout_engine import ConstrainedLayoutEngine

    from slotmath.widgets.figure_view import FigureView

    def constrained(fig):
        return isinstance(fig.get_layout_engine(), ConstrainedLayoutEngine)

    def figure(label, columns=2):
        fig = Figure(figsize=(6, 3), layout="constrained")
        for ax in fig.subplots(1, columns):
            ax.plot([0, 1], [1, 0])
            ax.set_ylabel(label)
            ax.set_title("a title")
        fig.suptitle("above the titles")
        return fig

    view = FigureView()
    first = figure("a")
    view.show(first, keep_layout=True)
    laid = [ax.get_position().bounds for ax in first.axes]
    assert constrained(first)
    second = figure("another label")
    view.show(second, keep_layout=True)
    assert not constrained(second)
    assert [ax.get_position().bounds for ax in second.axes] == laid
    assert second._suptitle.get_position() == first._suptitle.get_position()  # placed too
    other = figure("a", columns=3)
    view.show(other, keep_layout=True)
    assert constrained(other)
    plain = figure("a")
    view.show(plain)
    assert constrained(plain)


def test_a_sweep_row_is_computed_once(fruits, monkeypatch):
    """The sweep chart's rows of an earlier move are kept: a slider moved a stop and back
    analyses no value twice; the chart's data is rtp_sweep_data's, computed afresh here."""
    import slotmath.analysis
    from slotmath.plot import rtp_sweep_data

    panel = strip_editor(fruits)
    panel.sliders[(2, "W")].value = 3  # values 0..6
    seen = []
    analyze = slotmath.analysis.analyze
    monkeypatch.setattr(slotmath.analysis, "analyze",
                        lambda game, level=1: seen.append(game) or analyze(game, level))
    panel.sliders[(2, "W")].value = 4  # values 1..7: only 7 is new
    assert len(seen) == 1 and seen[0].base.reels[2].symbols.count("W") == 7
    panel.sliders[(2, "W")].value = 3
    assert len(seen) == 1
    shown = panel.figure.axes[2].lines[0]
    fresh = rtp_sweep_data(panel.game, "W", range(7), reels=[2])
    assert list(shown.get_xdata()) == fresh["value"].tolist()
    assert list(shown.get_ydata()) == (fresh["rtp"] * 100).tolist()


def test_a_game_without_a_round_distribution_gets_every_tab():
    # a conveyor game's owner plays the whole round and computes no win distribution: its
    # workbench (strip editor, charts, player's view) said so by failing (NotImplementedError)
    from slotmath.widgets import workbench

    w = workbench(slotmath.load_game(ROOT / "tests/data/conveyor_tiny.toml"), draw=True)
    assert w.titles[-2:] == ("Player's view", "Tuning") and "Bauble conveyor" in w.titles
    assert "needs the round's win distribution" in w.panels["player"].value
    texts = [t.get_text() for ax in w.panels["strips"].figure.axes for t in ax.texts]
    assert any(t.startswith("Win distribution not computed") for t in texts)


def test_a_hold_and_win_game_gets_its_panel_through_the_registry():
    # the workbench and feature_panel pass draw= to every panel; the hold & win and modifiers
    # panels took only the analysis (TypeError: a hold & win game's workbench failed)
    from slotmath.widgets import feature_panel, workbench

    game = slotmath.load_game(ROOT / "tests/data/link_modes.toml")
    w = workbench(game, draw=False)
    assert "Hold & win" in w.titles
    panel = feature_panel(w.analysis, "hold_and_win", draw=False)
    assert "game RTP" in panel.children[-2].value


def test_a_move_shows_its_figures_before_its_charts_are_drawn(fruits, monkeypatch):
    """Each widget's value goes to the page when it is set: the summary with the new exact
    RTP is set before the charts are drawn, so the RTP answers a move while the charts are
    being drawn (issue 25 item 3); the timings say how long each took."""
    panel = strip_editor(fruits)
    seen = []
    show = panel.charts.show
    monkeypatch.setattr(panel.charts, "show",
                        lambda fig, **kw: seen.append(shown_rtp(panel)) or show(fig, **kw))
    panel.sliders[(1, "W")].value = 3
    edited = replace_reel(fruits, "base", 1, with_symbol_count(fruits.base.reels[1], "W", 3))
    assert seen == [str(slotmath.analyze(edited).rtp)]
    assert 0 < panel.timings["figures"] <= panel.timings["charts"]
