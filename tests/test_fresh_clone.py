"""A clone named ``slotmath`` beside the user's own files (issue 23, item 1).

The user cloned into a folder named ``slotmath``, kept their games beside it and ran
``slotmath workbench games/newcomer.toml --output wb.ipynb`` there. With the package at the
top of the clone, Python took that folder (no ``__init__.py``) for a namespace package: cell 1
of the notebook, and ``python -c "import slotmath"`` from that folder, failed with
"module 'slotmath' has no attribute 'load_game'". The src layout cures it (the installed
package is a regular package, which wins over a namespace folder); these tests stand in that
folder, with the Python and the ``slotmath`` command of this environment. Where ``slotmath``
still resolves to a folder (a kernel whose Python lacks the package), the notebook's first cell
says so in one line.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

ROOT = Path(__file__).resolve().parents[1]
GAME = ROOT / "data" / "games" / "tiny_lines.toml"
SLOTMATH = Path(sys.executable).with_name("slotmath")  # this environment's command


@pytest.fixture
def beside_a_clone(tmp_path) -> Path:
    """A folder holding an empty folder named ``slotmath`` and ``games/newcomer.toml``."""
    (tmp_path / "slotmath").mkdir()
    (tmp_path / "games").mkdir()
    shutil.copy(GAME, tmp_path / "games" / "newcomer.toml")
    return tmp_path


def _environment() -> dict:
    env = dict(os.environ)
    env.pop("PYTHONPATH", None)  # as a user's shell: the package only as installed
    return env


def _run(args: list[str], where: Path) -> subprocess.CompletedProcess:
    return subprocess.run(args, cwd=where, env=_environment(), capture_output=True, text=True,
                          timeout=300, check=False)


def _workbench(where: Path) -> None:
    run = _run([str(SLOTMATH), "workbench", "games/newcomer.toml", "--output", "wb.ipynb",
                "--no-open"], where)
    assert run.returncode == 0, run.stderr


def test_import_from_beside_a_clone_finds_the_package(beside_a_clone):
    code = ("import slotmath; slotmath.load_game; "
            "print(slotmath.load_game('games/newcomer.toml').name)")
    run = _run([sys.executable, "-c", code], beside_a_clone)
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "Tiny Lines"


def _first_code_cell(notebook: Path):
    nb = nbformat.read(notebook, as_version=4)
    first = next(i for i, c in enumerate(nb.cells) if c.cell_type == "code")
    nb.cells = nb.cells[: first + 1]
    return nb


def test_the_workbench_notebook_imports_the_package_beside_a_clone(beside_a_clone):
    assert SLOTMATH.exists(), f"no slotmath command beside {sys.executable}"
    _workbench(beside_a_clone)
    nb = _first_code_cell(beside_a_clone / "wb.ipynb")
    nb.cells[-1].source += ("\nprint(slotmath.load_game.__module__, sys.executable)"
                            "\nimport os; print(os.getcwd())")
    # the kernel starts in the notebook's folder, as JupyterLab starts it
    NotebookClient(nb, timeout=300, kernel_name="python3",
                   resources={"metadata": {"path": str(beside_a_clone)}}).execute(
        env=_environment())
    out = "".join(o.get("text", "") for o in nb.cells[-1].outputs if o.output_type == "stream")
    errors = [o for o in nb.cells[-1].outputs if o.output_type == "error"]
    assert not errors, errors
    lines = out.splitlines()
    assert lines[0].startswith("Tiny Lines - RTP 91.741071%")
    module, executable = lines[1].split(" ", 1)
    assert module.startswith("slotmath.") and Path(executable).resolve() == Path(
        sys.executable).resolve()
    assert Path(lines[2]).resolve() == beside_a_clone.resolve()


def test_the_first_cell_says_in_one_line_when_slotmath_is_only_a_folder(beside_a_clone):
    """A Python without the package (``-S``: no site-packages) beside the folder imports it as a
    namespace package; the cell stops at once with one line saying what is wrong."""
    _workbench(beside_a_clone)
    cell = _first_code_cell(beside_a_clone / "wb.ipynb").cells[-1].source
    bare = _run([sys.executable, "-S", "-c", cell], beside_a_clone)
    assert bare.returncode != 0
    last = bare.stderr.strip().splitlines()[-1]
    folder = str(beside_a_clone / "slotmath")
    assert last == (f"ImportError: 'import slotmath' found [{folder!r}], a folder, not the "
                    f"slotmath package: install slotmath for this kernel's Python "
                    f"({sys.executable}), or rename that folder")
