"""Every notebook in notebooks/ (and the workbenches `slotmath workbench` writes), run in
JupyterLab 4 and loaded as a Voila app in headless Chromium: every cell runs, every output
renders (images loaded, widgets drawn as widgets, none as its text repr, no "Error displaying
widget"), and the console stays free of errors.

The notebooks are found at collection time, so a notebook added to notebooks/ joins this
suite without an edit here.
"""

from __future__ import annotations

import json

import moves
import pages
import pytest
import servers
from conftest import WORKBENCH_GAMES

NOTEBOOKS = sorted(p.name for p in servers.NOTEBOOKS.glob("*.ipynb"))
ALL = NOTEBOOKS + sorted(WORKBENCH_GAMES)


def test_the_suite_sees_the_notebooks():
    assert {"01_tour.ipynb", "gold_money_frog.ipynb"} <= set(NOTEBOOKS)
    assert set(moves.MOVES) <= set(ALL)


def widget_cells(workspace, notebook: str) -> int:
    """How many cells of the notebook end in a widget (a panel as the last expression)."""
    nb = json.loads((workspace / "notebooks" / notebook).read_text())
    names = ("strip_editor(", "JackpotPanel(", "WheelPanel(", "workbench(")
    return sum(1 for c in nb["cells"] if c["cell_type"] == "code"
               and any(n in "".join(c["source"]) for n in names))


@pytest.mark.parametrize("notebook", ALL)
def test_runs_in_jupyterlab(page, lab, workspace, notebook):
    pages.open_in_lab(page, lab, notebook)
    pages.run_all_in_lab(page)
    assert pages.lab_errors(page) == []
    assert pages.lab_output_count(page) > 0
    found = pages.check_rendered(page, expect_widgets=widget_cells(workspace, notebook))
    assert found["images"] > 0
    move_controls(page, notebook)


@pytest.mark.parametrize("notebook", ALL)
def test_loads_as_a_voila_app(page, voila, workspace, notebook):
    """A fresh server, and this browser its first visitor (the case that hung)."""
    server = voila(notebook)
    pages.load_in_voila(page, server)
    found = pages.check_rendered(page, expect_widgets=widget_cells(workspace, notebook))
    assert found["images"] > 0
    move_controls(page, notebook)


#: interactions checked, by test (printed at the end of the session)
CHECKED: dict[str, int] = {}


def move_controls(page, notebook: str) -> None:
    """The notebook's panels, moved by hand (moves.MOVES): each move's RTP and chart checked."""
    if notebook in moves.MOVES:
        CHECKED[f"{notebook} ({page.url.split('/')[3] or 'voila'})"] = moves.MOVES[notebook](page)
        pages.check_rendered(page)  # and nothing broke on the way
