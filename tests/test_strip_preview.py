"""A slow cascading game in the strip editor (issue 25 item 3): a move shows at once a paired
simulation's estimate of the RTP change with its interval, and the exact analysis runs in the
background under a progress bar, its figures replacing the estimate. The estimate is held to
the exact change (two plain analyses); the background figures to a fresh analysis of the
edited game; the paired error to two independent runs'."""

from __future__ import annotations

from pathlib import Path

import matplotlib
import pytest

matplotlib.use("Agg")

import slotmath
from slotmath.model.edit import replace_reel, symbol_count, with_symbol_count
from slotmath.simulate.cascades import paired_rounds
from slotmath.widgets import strip_editor

ROOT = Path(__file__).resolve().parents[1]
CASCADES = ROOT / "tests" / "data" / "cascades"


def one_more(game, reel: int, symbol: str):
    r = game.reel_sets["base"].reels[reel]
    return replace_reel(game, "base", reel, with_symbol_count(r, symbol,
                                                              symbol_count(r, symbol) + 1))


@pytest.mark.parametrize("name", ["tiny_lines", "tiny_free_spins_books"])
def test_the_paired_change_is_the_exact_change_within_its_error(name):
    game = slotmath.load_game(CASCADES / f"{name}.toml")
    moved = one_more(game, 0, game.reel_sets["base"].reels[0].symbols[0])
    exact = float(slotmath.analyze(moved).rtp - slotmath.analyze(game).rtp)
    for seed in range(3):
        est = paired_rounds(game, moved, 100_000, seed=seed)
        assert abs(est.change - exact) <= 4.5 * est.std_error, (seed, est, exact)
        assert est.rtp_b - est.rtp_a == pytest.approx(est.change)
        # the same draws round by round: the paired error is well below independent runs'
        assert est.std_error < 0.75 * est.independent_std_error
        assert 0 < est.rounds_differing < est.rounds


def test_the_same_strips_change_nothing_and_the_rounds_are_checked():
    game = slotmath.load_game(CASCADES / "tiny_lines.toml")
    same = paired_rounds(game, game, 3000, seed=5)
    assert (same.change, same.std_error, same.rounds_differing) == (0.0, 0.0, 0)
    with pytest.raises(ValueError, match="rounds must be"):
        paired_rounds(game, game, 1)


def test_a_move_previews_then_the_background_gives_the_exact_figures():
    game = slotmath.load_game(CASCADES / "tiny_free_spins_books.toml")
    panel = strip_editor(game, draw=False, sweep=False, slow_after=0.0)
    panel.preview_rounds = 100_000
    assert panel.on_demand and panel.background
    symbol = game.reel_sets["base"].reels[1].symbols[0]
    slider = panel.sliders[(1, symbol)]
    slider.value += 1  # a move: the preview, and the exact analysis started
    est = panel.estimate  # (read now: the background's exact figures replace it when done,
    # which may be before the two analyses below are)
    assert est is not None and "Estimated RTP" in panel.notice.value
    moved = one_more(game, 1, symbol)
    exact_change = float(slotmath.analyze(moved).rtp - slotmath.analyze(game).rtp)
    assert abs(est.change - exact_change) <= 4.5 * est.std_error
    slider.value += 1  # a second move while the first may still run: analysed next
    panel.wait(timeout=300)
    twice = one_more(moved, 1, symbol)
    assert panel.analysis.rtp == slotmath.analyze(twice).rtp
    assert panel.estimate is None and panel.bar.layout.display == "none"
    assert "Estimated" not in panel.notice.value


def test_a_plain_game_keeps_the_run_button():
    game = slotmath.load_game(ROOT / "data" / "games" / "tiny_lines.toml")
    panel = strip_editor(game, draw=False, sweep=False, slow_after=0.0)
    assert panel.on_demand and not panel.background
    panel.sliders[(0, game.reel_sets["base"].reels[0].symbols[0])].value += 1
    assert "wait for <b>Run</b>" in panel.notice.value and panel.estimate is None
