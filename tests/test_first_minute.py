"""The first minute with the CLI: help that answers at once, progress on long runs, the README."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
HEAVY = ("numpy", "numba", "sympy", "scipy", "pandas", "matplotlib", "ipywidgets", "tqdm")


@pytest.mark.parametrize("argv", [["--help"], ["analyze", "--help"], ["simulate", "--help"],
                                  ["check", "--help"], ["report", "--help"]])
def test_help_imports_nothing_heavy(argv):
    # the console script imports slotmath.cli and calls main: before the lazy package init,
    # `import slotmath` loaded the analysis (numba, sympy, scipy, pandas: ~0.7 s)
    probe = ("import sys; from slotmath.cli import main; code = main(sys.argv[1:]); "
             "print(sorted({m.split('.')[0] for m in sys.modules} & set(" + repr(HEAVY) + ")))"
             "; sys.exit(code)")
    proc = subprocess.run([sys.executable, "-c", probe, *argv], cwd=ROOT, capture_output=True,
                          text=True, check=False)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.rstrip().splitlines()[-1] == "[]"


def test_the_lazy_package_keeps_its_public_names():
    probe = ("import slotmath, slotmath.simulate, slotmath.analysis, inspect; "
             "assert inspect.isfunction(slotmath.simulate), slotmath.simulate; "
             "assert set(slotmath.__all__) <= set(dir(slotmath)); "
             "print(slotmath.load_game('data/games/tiny_lines.toml').name, "
             "slotmath.GameFileError.__name__)")
    proc = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True,
                          text=True, check=False)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "Tiny Lines GameFileError"
