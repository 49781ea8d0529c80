"""Every notebook in notebooks/ (and the workbenches `slotmath workbench` writes), run in
JupyterLab 4 and loaded as a Voila app in headless Chromium: every cell runs, every output
renders (images loaded, widgets drawn as widgets, none as its text repr, no "Error displaying
widget"), and the console stays free of errors.

The notebooks are found at collection time, so a notebook added to notebooks/ joins this
suite without an edit here.
"""

from __future__ import annotations

import json

import pytest

from browser import moves, pages, servers

NOTEBOOKS = sorted(p.name for p in servers.NOTEBOOKS.glob("*.ipynb"))
ALL = NOTEBOOKS + sorted(servers.WORKBENCH_GAMES)


def test_the_suite_sees_the_notebooks():
    assert {"01_tour.ipynb", "gold_money_frog.ipynb"} <= set(NOTEBOOKS)
    assert set(moves.MOVES) <= set(ALL)


def widget_cells(workspace, notebook: str) -> int:
    """How many cells of the notebook end in a widget (a panel as the last expression)."""
    nb = json.loads((workspace / "notebooks" / notebook).read_text())
    names = ("strip_editor(", "JackpotPanel(", "WheelPanel(", "workbench(", "ConveyorPanel(",
             "hold_and_win_panel(", "modifiers_panel(", "ChartPanel(", "feature_panel(")
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
    move_controls(page, notebook, "lab")


@pytest.mark.parametrize("notebook", NOTEBOOKS)
def test_reads_without_running(page, lab, workspace, notebook):
    """A saved notebook opened and not run (so not trusted: JupyterLab draws no widget): each
    panel's output shows its stored chart, not the text ``JackpotPanel(children=...``."""
    pages.open_in_lab(page, lab, notebook)
    pages.check_rendered(page)
    panels = page.evaluate("""() => window.jupyterapp.shell.currentWidget.content.widgets
      .filter(c => c.model.type === 'code' && c.model.outputs.toJSON().some(o =>
        o.data && o.data['application/vnd.jupyter.widget-view+json']))
      .map(c => ({
        image: !!c.node.querySelector('.jp-OutputArea-output img'),
        text: c.node.querySelector('.jp-OutputArea').textContent.trim().slice(0, 80)}))""")
    assert len(panels) == widget_cells(workspace, notebook)
    for shown in panels:
        assert shown["image"], f"a panel shows no chart: {shown['text']!r}"
        assert "children=" not in shown["text"], shown["text"]


@pytest.mark.parametrize("notebook", ALL)
def test_loads_as_a_voila_app(page, voila, workspace, notebook):
    """A fresh server, and this browser its first visitor. Gold Money Frog's kernel also
    starts on an empty numba cache, as on a machine where slotmath never ran: that app hung
    at "Executing 26 of 35" (its kernel idle) while its panels drew through an Output widget."""
    server = voila(notebook, cold_numba=notebook == "gold_money_frog.ipynb")
    pages.load_in_voila(page, server)
    assert "Executing" not in pages.loading_text(page)
    found = pages.check_rendered(page, expect_widgets=widget_cells(workspace, notebook))
    assert found["images"] > 0
    move_controls(page, notebook, "voila")


#: interactions checked, by test (printed at the end of the session)
CHECKED: dict[str, int] = {}


def move_controls(page, notebook: str, where: str) -> None:
    """The notebook's panels, moved by hand (moves.MOVES): each move's RTP and chart checked."""
    if notebook in moves.MOVES:
        CHECKED[f"{notebook} in {where}"] = moves.MOVES[notebook](page, where)
        pages.check_rendered(page)  # and nothing broke on the way


def test_interactions_checked():
    """Runs last (file order): how many moves the tests above checked, printed."""
    print("interactions checked:", sum(CHECKED.values()), CHECKED)
