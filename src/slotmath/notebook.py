"""``slotmath workbench``: a notebook for any game file, and the command that opens it.

The notebook has the sections of :func:`slotmath.widgets.workbench.sections` as cells (the PAR
sheet, the distribution and breakdown, the strip editor, and each of the game's features'
panels), calling only the public API, so that it runs anywhere the game file is.
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

__all__ = ["open_command", "workbench_notebook", "write_workbench"]


def _md(text: str):
    import nbformat

    return nbformat.v4.new_markdown_cell(text.strip())


def _code(text: str):
    import nbformat

    return nbformat.v4.new_code_cell(text.strip())


def workbench_notebook(file: str | os.PathLike, notebook_dir: str | os.PathLike = ".", *,
                       level: int | None = None):
    """The workbench notebook of a game file (an ``nbformat`` notebook, not executed).

    Parameters
    ----------
    file : path
        The game's TOML file; loaded first, so a bad file raises its
        :class:`~slotmath.errors.GameFileError` and nothing is written.
    notebook_dir : path
        The folder the notebook will be saved in: the game is loaded by its path relative
        to it.
    level : int, optional
        Bet level of the analyses (default: the game's lowest).

    Returns
    -------
    nbformat.NotebookNode

    Examples
    --------
    >>> nb = workbench_notebook("tests/data/doc_game.toml")
    >>> [c.source.splitlines()[0] for c in nb.cells if c.cell_type == "markdown"]
    ['# Workbench: Doc Wheel', '## PAR sheet', '## Distribution and breakdown', '## Strip editor', '## Bonus wheel', "## Player's view", '## Tuning']
    """
    import nbformat

    import slotmath
    from slotmath.widgets.workbench import CLOSING, SECTIONS, sections, stand_in

    game = slotmath.load_game(file)
    level = min(game.bet_levels) if level is None else level
    if level not in game.bet_levels:
        raise ValueError(f"bet level {level} is not one of the game's {list(game.bet_levels)}")
    where = Path(os.path.relpath(Path(file).resolve(), Path(notebook_dir).resolve())).as_posix()
    worked, note = stand_in(game)
    have = sections(worked)
    cells = [_md(f"""
# Workbench: {game.name}

{game.description}

Game file: `{where}` (format: `docs/game-format.md`), bet level {level}. Written by
`slotmath workbench`; run every cell (Run > Run All Cells). Each panel re-analyses the game
exactly when a control moves; the file itself is never changed.
{note}
"""), _code(f"""
import sys

import slotmath

if not hasattr(slotmath, "load_game"):  # a folder named slotmath, not the installed package
    raise ImportError(f"'import slotmath' found {{list(getattr(slotmath, '__path__', []))}}, a folder, not the slotmath package: install slotmath for this kernel's Python ({{sys.executable}}), or rename that folder")

import matplotlib.pyplot as plt
from slotmath import report
from slotmath.plot import plot_rtp_breakdown, plot_win_distribution
from slotmath.widgets import PlayerPanel, TuningPanel, feature_panel, strip_editor
from slotmath.widgets.workbench import stand_in

game, note = stand_in(slotmath.load_game({where!r}))
analysis = slotmath.analyze(game, {level})
print(game.name, "-", f"RTP {{analysis.rtp_float:.6%}}", f"at bet level {level}")
""")]
    cells += [_md(f"## {SECTIONS['par']}"), _code("report.summary_frame(analysis)"),
              _code("report.symbol_table(analysis)")]
    if any(s.scatter and s.pays for s in game.symbols.values()):
        cells.append(_code("report.scatter_table(analysis)"))
    cells += [_md(f"## {SECTIONS['charts']}"), _code("""
fig, (left, right) = plt.subplots(1, 2, figsize=(12, 4), layout="constrained")
plot_win_distribution(analysis, ax=left, bins=40)
plot_rtp_breakdown(analysis, ax=right)
plt.show()
""")]
    cells += [_md(f"## {SECTIONS['strips']}\n\nOne slider per symbol and reel (on a weighted "
                  "reel, its total stop weight); a game whose analysis takes more than a few "
                  "seconds moves on Run."),
              _code(f"strips = strip_editor(game, level={level})\nstrips")]
    for name, title in have.items():
        if name in SECTIONS or name in CLOSING:
            continue
        cells += [_md(f"## {title}"),
                  _code(f"{name} = feature_panel(analysis, {name!r})\n{name}")]
    cells += [_md(f"## {CLOSING['player']}\n\nThe net result, P(ahead), the session RTP and "
                  "the risk of ruin over N paid rounds, exact (or within stated bounds) beside "
                  "the normal approximation (`docs/player.md`)."),
              _code("player = PlayerPanel(analysis)\nplayer")]
    cells += [_md(f"## {CLOSING['tuning']}\n\nTargets in, the tuned game's PAR beside the "
                  "original's out; the exact change of the RTP per symbol added; Apply writes "
                  "the tuned game file (`docs/tuning.md`)."),
              _code(f"tuning = TuningPanel(game, level={level})\ntuning")]
    nb = nbformat.v4.new_notebook(cells=cells)
    nb.metadata["kernelspec"] = {"display_name": "Python 3 (ipykernel)", "language": "python",
                                 "name": "python3"}
    nb.metadata["language_info"] = {"name": "python"}
    return nb


def write_workbench(file: str | os.PathLike, output: str | os.PathLike | None = None, *,
                    level: int | None = None, force: bool = False) -> tuple[Path, bool]:
    """Write the workbench notebook of ``file``.

    Parameters
    ----------
    file : path
        The game file.
    output : path, optional
        Where to write; default ``<file stem>_workbench.ipynb`` in the current folder.
    level : int, optional
        As :func:`workbench_notebook`.
    force : bool
        Rewrite an existing notebook (default: keep it, so that edits are never lost).

    Returns
    -------
    (Path, bool)
        The notebook's path, and whether it was written (False: it existed and was kept).
    """
    import nbformat

    path = Path(output) if output is not None else Path(f"{Path(file).stem}_workbench.ipynb")
    if path.exists() and not force:
        return path, False
    nb = workbench_notebook(file, path.parent, level=level)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            nbformat.write(nb, out)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return path, True


def open_command(notebook: str | os.PathLike, *, voila: bool = False,
                 port: int | None = None, allow_root: bool | None = None) -> list[str]:
    """The command that opens ``notebook`` in JupyterLab, or as a Voila app.

    Run as root, JupyterLab refuses to start unless told ``--allow-root``; ``allow_root``
    defaults to whether this process is root.

    Examples
    --------
    >>> open_command("g.ipynb", allow_root=True)[-2:]
    ['--ServerApp.allow_root=True', 'g.ipynb']
    >>> open_command("g.ipynb", voila=True, port=8866)[1:]
    ['-m', 'voila', '--port=8866', 'g.ipynb']
    """
    if allow_root is None:
        allow_root = hasattr(os, "geteuid") and os.geteuid() == 0
    if voila:
        args = [sys.executable, "-m", "voila"]
    else:
        args = [sys.executable, "-m", "jupyterlab"]
    if port is not None:
        args.append(f"--port={port}")
    if allow_root and not voila:
        args.append("--ServerApp.allow_root=True")
    return [*args, str(notebook)]
