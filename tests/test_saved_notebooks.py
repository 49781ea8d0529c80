"""Saved notebooks read well without a kernel: every widget a cell displays is stored in the
notebook (its view in the output, every model in the notebook's widget state), so nbviewer or
GitHub draw the panels with their figures and charts, and each panel's output also holds its
chart as a PNG, which JupyterLab shows in a notebook it does not trust (it draws no widget
there), instead of the text repr ``JackpotPanel(children=(HBox(...`` (what the notebooks
showed until they were run).

Run over every notebook in notebooks/: save one with its widget state by executing it with
``jupyter nbconvert --to notebook --execute --inplace notebooks/NAME.ipynb`` (nbconvert stores
the state; a notebook saved from JupyterLab does when its widget setting "Save widget state
automatically" is on).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

NOTEBOOKS = sorted((Path(__file__).parents[1] / "notebooks").glob("*.ipynb"))
VIEW = "application/vnd.jupyter.widget-view+json"
STATE = "application/vnd.jupyter.widget-state+json"
REPR = re.compile(r"^\w+\((children|value|layout)=")


def test_there_are_notebooks():
    assert len(NOTEBOOKS) >= 2


def _children(state: dict, model_id: str, seen: set) -> None:
    """Every model reachable from ``model_id`` (children, layouts, styles) is in the state."""
    if model_id in seen:
        return
    assert model_id in state, f"model {model_id} is referenced but not stored"
    seen.add(model_id)
    for value in state[model_id]["state"].values():
        for item in value if isinstance(value, list) else [value]:
            if isinstance(item, str) and item.startswith("IPY_MODEL_"):
                _children(state, item.removeprefix("IPY_MODEL_"), seen)


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_widgets_are_stored_with_the_notebook(path):
    nb = json.loads(path.read_text())
    state = nb["metadata"].get("widgets", {}).get(STATE, {}).get("state", {})
    views = 0
    for index, cell in enumerate(nb["cells"]):
        for output in cell.get("outputs", []):
            data = output.get("data", {})
            text = "".join(data.get("text/plain", ""))
            assert not REPR.match(text), (f"{path.name} cell {index} shows a widget as text "
                                          f"({text[:40]}...): save it with its widget state")
            if VIEW in data:
                views += 1
                # what JupyterLab shows where it draws no widget (an untrusted notebook)
                assert "image/png" in data, f"{path.name} cell {index}: no static chart"
                _children(state, data[VIEW]["model_id"], set())
    if any("widgets import" in "".join(c["source"]) for c in nb["cells"]):
        assert views, f"{path.name} uses widgets but stores none"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_stored_charts_are_images(path):
    """The panels' charts are image widgets whose PNG is in the stored state."""
    nb = json.loads(path.read_text())
    state = nb["metadata"].get("widgets", {}).get(STATE, {}).get("state", {})
    images = [m for m in state.values() if m["model_name"] == "ImageModel"]
    if any("widgets import" in "".join(c["source"]) for c in nb["cells"]):
        assert images, f"{path.name}: no chart stored"
    for model in images:
        value = [b for b in model.get("buffers", []) if b["path"] == ["value"]]
        assert value and value[0]["encoding"] == "base64" and len(value[0]["data"]) > 1000
