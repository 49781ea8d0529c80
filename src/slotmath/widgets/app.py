"""Cells that an app does not run at load: :func:`opt_in` runs a long computation at once in
a notebook, and behind a button in a Voila app."""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

import ipywidgets as widgets
from IPython.display import display

__all__ = ["in_app", "opt_in"]


def in_app() -> bool:
    """Whether this kernel runs a Voila app (Voila sets ``VOILA_KERNEL_ID`` in its kernels)."""
    return bool(os.environ.get("VOILA_KERNEL_ID") or os.environ.get("VOILA_REQUEST_URL"))


def opt_in(run: Callable[[], Any], label: str) -> Any:
    """``run()`` now in a notebook; in a Voila app, a button that runs it when pressed.

    A Voila app executes every cell before it shows anything: a long cross-check (the Gold
    Money Frog notebook's 20-million-round simulation) would hold the whole app back. Under
    JupyterLab, nbconvert or nbval the cell runs as written, so its output is checked as before.

    Parameters
    ----------
    run : callable
        The cell's work; its return value is the cell's result.
    label : str
        The button's text in an app (say how long it takes).

    Returns
    -------
    object
        ``run()``'s result, or (in an app) the button and the output it fills.

    Examples
    --------
    >>> opt_in(lambda: 6 * 7, "the answer (instant)")
    42
    """
    if not in_app():
        return run()
    button = widgets.Button(description=label, icon="play",
                            layout=widgets.Layout(width="auto"))
    out = widgets.Output()

    def clicked(_):
        button.disabled = True
        with out:
            result = run()
            if result is not None:
                display(result)

    button.on_click(clicked)
    return widgets.VBox([button, out])
