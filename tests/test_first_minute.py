"""The first minute with the CLI: help that answers at once, progress on long runs, the README."""

from __future__ import annotations

import json
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


def test_a_small_analysis_imports_only_what_it_uses():
    # a fresh `slotmath analyze tiny_lines.toml` spent 0.4-0.8 s importing scipy.signal (for one
    # FFT convolution) and 0.2 s importing sympy (for a root it never needs): issue 25, item 4
    probe = ("import sys; from slotmath.cli import main; code = main(sys.argv[1:]); "
             "print(sorted(m for m in ('scipy.signal', 'sympy', 'matplotlib', 'ipywidgets') "
             "if m in sys.modules)); sys.exit(code)")
    proc = subprocess.run([sys.executable, "-c", probe, "analyze", "data/games/tiny_lines.toml"],
                          cwd=ROOT, capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stderr
    assert "RTP" in proc.stdout
    assert proc.stdout.rstrip().splitlines()[-1] == "[]"


def test_python_dash_m_runs_the_command_line():
    proc = subprocess.run([sys.executable, "-m", "slotmath", "analyze", "--help"], cwd=ROOT,
                          capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stderr
    assert "usage: slotmath analyze" in proc.stdout


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


# -- the CLI as a new user types it ------------------------------------------------------------

TINY = str(ROOT / "data/games/tiny_lines.toml")
FROG = str(ROOT / "data/games/gold_money_frog.toml")


def run(capsys, *argv):
    from slotmath.cli import main

    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("spins", ["1e4", "10_000", "10,000", "10000", "1.0e4"])
def test_spins_in_any_usual_notation(capsys, spins):
    # `--spins 1e6` was refused: "invalid int value: '1e6'"
    code, out, err = run(capsys, "simulate", TINY, "--spins", spins, "--seed", "3", "--json")
    assert code == 0, err
    assert json.loads(out)["spins"] == 10_000


@pytest.mark.parametrize("spins", ["2.5", "1e", "ten", "inf", "nan"])
def test_spins_that_are_not_a_whole_number_are_one_line(capsys, spins):
    code, _, err = run(capsys, "simulate", TINY, "--spins", spins, "--seed", "3")
    assert code == 2 and err.count("\n") == 1 and "--spins" in err and "whole number" in err


def test_seed_defaults_and_is_printed_so_the_run_can_be_repeated(capsys):
    # --seed was mandatory
    code, out, err = run(capsys, "simulate", TINY, "--spins", "2000", "--json")
    assert code == 0, err
    doc = json.loads(out)
    seed = doc["seed"]
    assert f"--seed {seed}" in err
    again = json.loads(run(capsys, "simulate", TINY, "--spins", "2000", "--seed", str(seed),
                           "--json")[1])
    assert again == doc
    code, out, err = run(capsys, "simulate", TINY, "--spins", "2000")
    seed = int(err.split("--seed ")[1].split()[0])
    assert f"seed {seed}," in out.splitlines()[0]


def test_every_argument_has_help(capsys):
    # `file`, `--spins` and `--seed` had none: argparse printed bare names
    from slotmath.cli import _parser

    parser = _parser()
    commands = next(a for a in parser._actions if a.dest == "command").choices
    for name, sub in commands.items():
        for action in sub._actions:
            assert action.help, f"slotmath {name} {action.dest} has no help text"
    _, out, _ = run(capsys, "simulate", "--help")
    assert "1e6" in out and "default: a fresh one" in out and "game file" in out


def test_coin_value_on_a_game_without_currency_figures_says_it_changes_nothing(capsys):
    code, out, err = run(capsys, "analyze", TINY, "--coin-value", "0.05", "--json")
    assert code == 0 and "--coin-value changes no figure of Tiny Lines" in err
    assert err.count("\n") == 1
    plain = json.loads(run(capsys, "analyze", TINY, "--json")[1])
    doc = json.loads(out)
    assert {k: v for k, v in doc.items() if k not in ("coin_value", "currency", "bet_value")} \
        == plain
    # a game whose jackpot seeds are in currency: the coin value matters, no note
    code, _, err = run(capsys, "analyze", FROG, "--bet-level", "4", "--coin-value", "0.05",
                       "--json")
    assert code == 0 and "note" not in err


def test_a_long_run_shows_progress_without_being_asked(capsys, monkeypatch):
    # the CLI shows a bar once a run has taken PROGRESS_DELAY (2 s); with 0 it shows at once
    from slotmath import cli

    monkeypatch.setattr(cli, "PROGRESS_DELAY", 0.0)
    _, _, err = run(capsys, "simulate", TINY, "--spins", "5000", "--seed", "1")
    assert "Tiny Lines" in err and "spin" in err
    _, out, err = run(capsys, "analyze", TINY)
    assert "Tiny Lines" in err and "stage" in err and "PAR sheet" in out
    monkeypatch.setattr(cli, "PROGRESS_DELAY", 60.0)
    _, _, err = run(capsys, "analyze", TINY)
    assert err == ""


# -- the README's first screen -----------------------------------------------------------------

README = (ROOT / "README.md").read_text()
FIRST_SCREEN = "\n".join(README.splitlines()[:40])


def test_the_first_screen_says_what_how_and_where():
    assert "Exact slot-game mathematics" in FIRST_SCREEN and "PAR sheet" in FIRST_SCREEN
    assert "python -m venv .venv" in FIRST_SCREEN and "pip install -e ." in FIRST_SCREEN
    commands = [line.split("#")[0].split() for line in FIRST_SCREEN.splitlines()
                if line.startswith(("slotmath ", "jupyter "))]
    assert len(commands) == 3, commands
    assert "--allow-root" in FIRST_SCREEN and "activate" in FIRST_SCREEN
    for target in ["docs/game-format.md", "docs/architecture.md",
                   *(f"notebooks/{p.name}" for p in sorted((ROOT / "notebooks").glob("*.ipynb")))]:
        assert f"]({target})" in FIRST_SCREEN, f"the README's first screen does not link {target}"
        assert (ROOT / target).exists()
    assert "## Command line" in README.split(FIRST_SCREEN, 1)[1]  # the rest is still below


def test_every_cli_example_in_the_readme_parses():
    # each `slotmath ...` line of the README's code blocks is a command the CLI accepts
    from slotmath.cli import _parser

    blocks = README.split("```sh")[1:]
    lines = [line.split("  #")[0].split("#")[0].split()
             for block in blocks for line in block.split("```")[0].splitlines()
             if line.startswith("slotmath ")]
    assert len(lines) >= 10
    for words in lines:
        args = _parser().parse_args(words[1:])
        assert getattr(args, "file", None) is None or (ROOT / args.file).exists(), words
    assert "assume the venv is active" in README and ".venv/bin/slotmath" in README
