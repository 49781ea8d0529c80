"""The controls the suite moves, per notebook, and what the library says each move must show.

Each function takes the page (a notebook that has run, in JupyterLab or Voila) and returns the
number of moves it checked. After every move the panel's RTP must equal, digit for digit, the
RTP :func:`slotmath.analyze` gives for the same parameters, built here with the library's own
edit functions (``with_symbol_count``, ``with_wheel_weights``, ``with_jackpot_controls``), and
the panel's chart must be a new image.
"""

from __future__ import annotations

import os
import time
from functools import cache

import slotmath
from browser import pages, servers
from slotmath.model.edit import (
    replace_reel,
    with_symbol_count,
    with_symbol_weight,
    with_wheel_weights,
)
from slotmath.widgets import starting_parameters, with_jackpot_controls

GAMES = servers.REPO / "data" / "games"


@cache
def load(path) -> slotmath.Game:
    return slotmath.load_game(path)


#: Seconds from each move to its figures and to its redrawn chart, by move: (what was moved,
#: RTP shown after, chart shown after, 1-minute load average then). Printed at the end of the
#: session (issue 23 item 8: 2 s or less from a move to the redrawn chart).
TIMES: list[tuple[str, float, float, float]] = []


def move_and_check(panel, action, expected_rtp, *, exact: bool, what: str) -> str:
    """Do ``action()`` (a move), wait for the panel to show ``expected_rtp`` (its exact
    fraction too when ``exact``) and for a new chart; return the new chart's src.

    ``expected_rtp`` is computed before the move, so the suite's own analysis does not take
    the kernel's cores while it is timed; the seconds from the move to the figures and to the
    loaded chart go to :data:`TIMES`."""
    old_src = pages.chart_src(panel)
    moved = time.monotonic()
    action()
    pages.wait_for_rtp(panel, expected_rtp, exact)
    shown = time.monotonic()
    src = pages.wait_for_new_chart(panel, old_src)
    TIMES.append((what, shown - moved, time.monotonic() - moved, os.getloadavg()[0]))
    return src


# -- the strip editor -----------------------------------------------------------------------

def strip_slider(panel, symbol: str, reel: int):
    """The slider of ``symbol`` on reel index ``reel`` (a column per reel, one slider per
    symbol, labelled with it)."""
    column = panel.locator(".slotmath-reel").nth(reel)
    slider = column.locator(".widget-hslider").filter(
        has=panel.page.locator(f".widget-label:text-is('{symbol}')"))
    assert slider.count() == 1, f"no slider for {symbol} on reel {reel + 1} in the strip editor"
    return slider


#: The least pixels a strip slider's track gives one step, so that a drag sets one stop at a
#: time (issue 23: 3.1 px, a 25 px drag moved 8 stops; the panel gives 8). Weighted reels
#: with wide ranges are capped (slotmath.widgets.strip_editor.MAX_TRACK_PX) and not held to it.
MIN_PX_PER_STEP = 7.5


def check_strip_steps(page, panel_index: int = 0) -> float:
    """Every strip slider of the panel gives each step MIN_PX_PER_STEP pixels or more;
    returns the least."""
    panel = pages.panel(page, "slotmath-strip-editor", panel_index)
    sliders = panel.locator(".slotmath-reel .widget-hslider")
    least = min(pages.slider_geometry(sliders.nth(i))["px_per_step"]
                for i in range(sliders.count()))
    assert least >= MIN_PX_PER_STEP, (
        f"a strip slider gives a step {least:.1f} px: a drag cannot set one stop at a time")
    return least


def move_strip(page, game, panel_index: int, symbol: str, reel: int, value: int,
               reel_set: str = "base", level: int = 1, edited_so_far=None):
    """Move one strip slider; ``edited_so_far`` is the game with the panel's earlier edits
    (on other reels). Returns the game the panel now shows."""
    panel = pages.panel(page, "slotmath-strip-editor", panel_index)
    strip = game.reel_sets[reel_set].reels[reel]
    edited = (with_symbol_weight(strip, symbol, value) if strip.weights is not None
              else with_symbol_count(strip, symbol, value))
    now = replace_reel(edited_so_far or game, reel_set, reel, edited)
    move_and_check(panel, lambda: pages.type_into_slider(strip_slider(panel, symbol, reel),
                                                         value),
                   slotmath.analyze(now, level).rtp, exact=not game.jackpots,
                   what=f"{game.name}: strip {symbol} on reel {reel + 1} = {value}")
    return now


def drag_strip(page, game, panel_index: int, symbol: str, reel: int, steps: int,
               level: int = 1):
    """Drag one strip slider's handle by ``steps`` steps' worth of pixels, as a user does
    with the mouse: the slider must move exactly ``steps`` stops, and the panel show the
    edited game's RTP. Returns the game the panel now shows."""
    panel = pages.panel(page, "slotmath-strip-editor", panel_index)
    slider = strip_slider(panel, symbol, reel)
    before = pages.slider_geometry(slider)
    value = round(before["value"]) + steps
    strip = game.reel_sets["base"].reels[reel]
    now = replace_reel(game, "base", reel, with_symbol_count(strip, symbol, value))
    move_and_check(panel, lambda: pages.drag_slider(page, slider, steps * before["px_per_step"]),
                   slotmath.analyze(now, level).rtp, exact=not game.jackpots,
                   what=f"{game.name}: strip {symbol} on reel {reel + 1} dragged {steps:+d}")
    assert pages.slider_geometry(slider)["value"] == value
    return now


def reset(page, marker: str, panel_index: int, game, level: int = 1) -> None:
    panel = pages.panel(page, marker, panel_index)
    move_and_check(panel, lambda: panel.locator("button", has_text="Reset").first.click(),
                   slotmath.analyze(game, level).rtp, exact=not game.jackpots,
                   what=f"{game.name}: {marker.removeprefix('slotmath-')} reset")


# -- the wheel panel --------------------------------------------------------------------------

def move_wheel(page, game, division: int, weight: int, level: int = 1) -> None:
    panel = pages.panel(page, "slotmath-wheel-panel")
    weights = list(game.bonus_wheel.weights)
    weights[division] = weight
    expected = slotmath.analyze(with_wheel_weights(game, weights), level).rtp
    move_and_check(panel, lambda: pages.type_into_slider(
        panel.locator(".widget-hslider").nth(division), weight), expected,
        exact=not game.jackpots, what=f"{game.name}: wheel division {division} = {weight}")


# -- the jackpot panel ------------------------------------------------------------------------

class JackpotMoves:
    """Moves on a jackpot panel, keeping the control values it should hold."""

    def __init__(self, page, game, level: int):
        self.page, self.game, self.level = page, game, level
        self.panel = pages.panel(page, "slotmath-jackpot-panel")
        reference = slotmath.analyze(game, min(game.bet_levels))
        self.starts = {s.name: starting_parameters(s, reference.features["jackpots"].pools[s.name])
                       for s in game.jackpots}
        self.values = {s.name: {"weight": 1.0, "contribution_percent": float(s.contribution)
                                * 100, "seed": float(s.seed), "law": s.law}
                       for s in game.jackpots}

    def row(self, name: str):
        return self.panel.locator(".widget-hbox", has=self.page.locator(f"b:text-is('{name}')"))

    def expected_rtp(self):
        game = self.game
        for name, v in self.values.items():
            game = with_jackpot_controls(game, name, **v,
                                         parameters=self.starts[name][v["law"]])
        return slotmath.analyze(game, self.level).rtp

    def _move(self, action, what: str) -> None:
        """``action()`` after the values it sets are in :attr:`values` (so the expected RTP
        is computed before the move)."""
        move_and_check(self.panel, action, self.expected_rtp(), exact=False,
                       what=f"{self.game.name} jackpots: {what}")

    def weight(self, name: str, value: float) -> None:
        self.values[name]["weight"] = float(value)
        self._move(lambda: pages.type_into_slider(
            self.row(name).locator(".widget-hslider").nth(0), value), f"{name} weight x{value}")

    def contribution(self, name: str, percent: float) -> None:
        self.values[name]["contribution_percent"] = float(percent)
        self._move(lambda: pages.type_into_slider(
            self.row(name).locator(".widget-hslider").nth(1), percent),
            f"{name} contribution {percent}%")

    def reseed(self, name: str, seed: float) -> None:
        box = self.row(name).locator(".widget-text", has=self.page.locator("label",
                                                                           has_text="reseed"))
        self.values[name]["seed"] = float(seed)
        self._move(lambda: pages.type_into_box(box, seed), f"{name} reseed {seed}")

    def law(self, name: str, law: str) -> None:
        self.values[name]["law"] = law
        self._move(lambda: self.row(name).locator("select").select_option(law),
                   f"{name} {law} law")

    def bet_level(self, level: int) -> None:
        self.level = level
        self._move(lambda: self.panel.locator(".widget-toggle-buttons button",
                                              has_text=str(level)).click(),
                   f"bet level {level}")


def jackpot_tour(page, game, level: int, to_level: int, every: bool = True) -> int:
    """Every kind of jackpot control once: weight, contribution, reseed, bet level, law
    (``to_level``: one the edited game can be analysed at; level 1 refuses the saturating
    SUPER). ``every=False``: the weight and the bet level only."""
    m = JackpotMoves(page, game, level)
    m.weight("MAJOR", 2)
    if not every:
        m.bet_level(to_level)
        return 2
    m.contribution("SUPER", 3.0)
    m.reseed("MINOR", 80)
    m.bet_level(to_level)
    m.law("SUPER", "saturating")
    return 5


# -- per notebook -----------------------------------------------------------------------------

def tour(page, where: str) -> int:
    game = load(GAMES / "classic_fruits.toml")
    check_strip_steps(page, 0)
    move_strip(page, game, 0, "W", 2, 3)            # the tour's own edit, now by hand
    reset(page, "slotmath-strip-editor", 0, game)
    drag_strip(page, game, 0, "W", 2, 1)            # one stop, with the mouse
    reset(page, "slotmath-strip-editor", 0, game)
    return 4


def gus_gold_christmas(page, where: str) -> int:
    """The strip editor on a game with base-game modifiers: a move shows its exact RTP at once
    (expected here by ``slotmath.rtp_only``, the modifiers' means: the RTP ``slotmath.analyze``
    gives, held equal by tests/test_modifier_means.py, without a Dynamite table in this
    process), and its chart when the background's analysis of the moved tables ends; Reset
    is a plain analysis (the original strips' tables come from the store)."""
    game = load(GAMES / "gus_gold_christmas.toml")
    # reel 1: the background's whole analysis of the move takes ~4 s there, ~13 s on reel 5
    # (benchmarks/bench_slider.py --games gus_gold_christmas --each)
    strip = game.base.reels[0]
    value = strip.symbols.count("J") + 1
    now = replace_reel(game, "base", 0, with_symbol_count(strip, "J", value))
    panel = pages.panel(page, "slotmath-strip-editor", 0)
    move_and_check(panel, lambda: pages.type_into_slider(strip_slider(panel, "J", 0), value),
                   slotmath.rtp_only(now).rtp, exact=False,
                   what=f"{game.name}: strip J on reel 1 = {value} (RTP at once, chart after)")
    # Reset: a plain analysis of the original strips (numerical: its hold & win chain)
    move_and_check(panel, lambda: panel.locator("button", has_text="Reset").first.click(),
                   slotmath.rtp_only(game).rtp, exact=False,
                   what=f"{game.name}: strip-editor reset")
    return 2


def gold_money_frog(page, where: str) -> int:
    """Every jackpot control in JupyterLab; in the app, two (the same panel code runs)."""
    return jackpot_tour(page, load(GAMES / "gold_money_frog.toml"), level=4, to_level=2,
                        every=where == "lab")


def workbench_gold_money_frog(page, where: str) -> int:
    """The wheel panel (coin weights: the RTP must not move, the chart must), and in
    JupyterLab the workbench's jackpot panel at its level 1."""
    game = load(GAMES / "gold_money_frog.toml")
    move_wheel(page, game, 0, 50)
    if where != "lab":
        return 1
    return 1 + jackpot_tour(page, game, level=1, to_level=3, every=False)


def workbench_doc_game(page, where: str) -> int:
    game = load(servers.REPO / "tests" / "data" / "doc_game.toml")
    now = move_strip(page, game, 0, "W", 1, 3)
    move_strip(page, game, 0, "X", 3, 6, edited_so_far=now)  # a weighted reel: its weight
    move_wheel(page, game, 3, 6)
    tune_to(page, game, "90.00")
    return 4


# -- the tuning panel -------------------------------------------------------------------------

def tuned_rtp_text(panel_locator) -> str:
    """The tuned game's RTP as the tuning panel shows it (the PAR table's RTP row, its
    "tuned" column)."""
    return panel_locator.evaluate("""p => {
      const row = [...p.querySelectorAll('table tr')]
        .find(r => r.cells.length > 2 && r.cells[0].textContent.trim() === 'RTP');
      return row ? row.cells[2].textContent : '';
    }""")


def tune_to(page, game, target_percent: str, level: int = 1) -> None:
    """Type a target RTP into the tuning panel and press Tune: the panel must show, as the
    tuned game's RTP, the PAR row of the game the library's solver gives for that target,
    analysed afresh here (the solver is deterministic within its time limit)."""
    from fractions import Fraction

    from slotmath import report
    from slotmath.tune import tune

    result = tune(game, Fraction(target_percent) / 100, tolerance=Fraction(1, 100_000),
                  time_limit=30.0, level=level)
    rows = report.summary_frame(slotmath.analyze(result.game, level))
    want = rows.loc[rows["figure"] == "RTP", "value"].item()
    panel = pages.panel(page, "slotmath-tuning-panel")
    pages.type_into_box(panel.locator(".widget-text").first, target_percent)
    moved = time.monotonic()
    panel.locator("button", has_text="Tune").click()
    deadline = moved + pages.MOVE_TIMEOUT_MS / 1000
    want = " ".join(want.split())  # the page shows the double space as non-breaking ones
    while (shown := " ".join(tuned_rtp_text(panel).split())) != want:
        if time.monotonic() > deadline:
            raise AssertionError(f"tuning panel shows tuned RTP {shown!r}; the solver and a "
                                 f"fresh analysis give {want!r}")
        time.sleep(0.25)
    TIMES.append((f"{game.name}: tuned to {target_percent}%", time.monotonic() - moved,
                  time.monotonic() - moved, os.getloadavg()[0]))


#: The notebooks whose controls are moved, by file name.
MOVES = {
    "01_tour.ipynb": tour,
    "gold_money_frog.ipynb": gold_money_frog,
    "gus_gold_christmas.ipynb": gus_gold_christmas,
    "workbench_gold_money_frog.ipynb": workbench_gold_money_frog,
    "workbench_doc_game.ipynb": workbench_doc_game,
}
