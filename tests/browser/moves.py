"""The controls the suite moves, per notebook, and what the library says each move must show.

Each function takes the page (a notebook that has run, in JupyterLab or Voila) and returns the
number of moves it checked. After every move the panel's RTP must equal, digit for digit, the
RTP :func:`slotmath.analyze` gives for the same parameters, built here with the library's own
edit functions (``with_symbol_count``, ``with_wheel_weights``, ``with_jackpot_controls``), and
the panel's chart must be a new image.
"""

from __future__ import annotations

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


def check(panel, expected_rtp, old_src: str, *, exact: bool) -> str:
    """Wait for the panel to show ``expected_rtp`` (its exact fraction too when ``exact``)
    and for a new chart; return the new chart's src."""
    pages.wait_for_rtp(panel, expected_rtp, exact)
    return pages.wait_for_new_chart(panel, old_src)


# -- the strip editor -----------------------------------------------------------------------

def strip_slider(panel, symbol: str, reel: int):
    """The slider of ``symbol`` on reel index ``reel`` (the grid: a label cell per symbol,
    then one slider per reel)."""
    cells = panel.locator(".widget-gridbox > *")
    index = cells.evaluate_all("""(cells, symbol) => cells.findIndex(c =>
        c.querySelector('code') && c.textContent.trim() === symbol)""", symbol)
    assert index >= 0, f"no row for {symbol} in the strip editor"
    return cells.nth(index + 1 + reel)


def move_strip(page, game, panel_index: int, symbol: str, reel: int, value: int,
               reel_set: str = "base", level: int = 1, edited_so_far=None):
    """Move one strip slider; ``edited_so_far`` is the game with the panel's earlier edits
    (on other reels). Returns the game the panel now shows."""
    panel = pages.panel(page, "slotmath-strip-editor", panel_index)
    old = pages.chart_src(panel)
    pages.type_into_slider(strip_slider(panel, symbol, reel), value)
    strip = game.reel_sets[reel_set].reels[reel]
    edited = (with_symbol_weight(strip, symbol, value) if strip.weights is not None
              else with_symbol_count(strip, symbol, value))
    now = replace_reel(edited_so_far or game, reel_set, reel, edited)
    check(panel, slotmath.analyze(now, level).rtp, old, exact=not game.jackpots)
    return now


def reset(page, marker: str, panel_index: int, game, level: int = 1) -> None:
    panel = pages.panel(page, marker, panel_index)
    old = pages.chart_src(panel)
    panel.locator("button", has_text="Reset").first.click()
    check(panel, slotmath.analyze(game, level).rtp, old, exact=not game.jackpots)


# -- the wheel panel --------------------------------------------------------------------------

def move_wheel(page, game, division: int, weight: int, level: int = 1) -> None:
    panel = pages.panel(page, "slotmath-wheel-panel")
    old = pages.chart_src(panel)
    pages.type_into_slider(panel.locator(".widget-hslider").nth(division), weight)
    weights = list(game.bonus_wheel.weights)
    weights[division] = weight
    expected = slotmath.analyze(with_wheel_weights(game, weights), level).rtp
    check(panel, expected, old, exact=not game.jackpots)


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

    def _then_check(self) -> None:
        check(self.panel, self.expected_rtp(), self.old, exact=False)

    def _before(self) -> None:
        self.old = pages.chart_src(self.panel)

    def weight(self, name: str, value: float) -> None:
        self._before()
        pages.type_into_slider(self.row(name).locator(".widget-hslider").nth(0), value)
        self.values[name]["weight"] = float(value)
        self._then_check()

    def contribution(self, name: str, percent: float) -> None:
        self._before()
        pages.type_into_slider(self.row(name).locator(".widget-hslider").nth(1), percent)
        self.values[name]["contribution_percent"] = float(percent)
        self._then_check()

    def reseed(self, name: str, seed: float) -> None:
        self._before()
        box = self.row(name).locator(".widget-text", has=self.page.locator("label",
                                                                           has_text="reseed"))
        pages.type_into_box(box, seed)
        self.values[name]["seed"] = float(seed)
        self._then_check()

    def law(self, name: str, law: str) -> None:
        self._before()
        self.row(name).locator("select").select_option(law)
        self.values[name]["law"] = law
        self._then_check()

    def bet_level(self, level: int) -> None:
        self._before()
        self.panel.locator(".widget-toggle-buttons button", has_text=str(level)).click()
        self.level = level
        self._then_check()


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
    move_strip(page, game, 0, "W", 2, 3)            # the tour's own edit, now by hand
    reset(page, "slotmath-strip-editor", 0, game)
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
    return 3


#: The notebooks whose controls are moved, by file name.
MOVES = {
    "01_tour.ipynb": tour,
    "gold_money_frog.ipynb": gold_money_frog,
    "workbench_gold_money_frog.ipynb": workbench_gold_money_frog,
    "workbench_doc_game.ipynb": workbench_doc_game,
}
