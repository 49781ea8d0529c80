"""slotmath workbench without a browser: the notebook it writes (sections by game, a loadable
path, code that uses the public API), bad input, an existing notebook kept, root handled.
The browser suite (tests/browser) runs the written notebooks."""

from __future__ import annotations

import json
from pathlib import Path

from slotmath.cli import main
from slotmath.notebook import open_command

REPO = Path(__file__).parents[1]
DOC_GAME = REPO / "tests" / "data" / "doc_game.toml"
FROG = REPO / "data" / "games" / "gold_money_frog.toml"


def _notebook(path: Path) -> list[str]:
    return ["".join(c["source"]) for c in json.loads(path.read_text())["cells"]]


def test_writes_the_sections_the_game_has(tmp_path, capsys):
    out = tmp_path / "sub" / "doc.ipynb"
    assert main(["workbench", str(DOC_GAME), "--no-open", "--output", str(out)]) == 0
    assert f"wrote {out}" in capsys.readouterr().out
    cells = _notebook(out)
    text = "".join(cells)
    assert "feature_panel(analysis, 'bonus_wheel')" in text and "'jackpots'" not in text
    # the game is loaded by its path relative to the notebook, which resolves
    load = next(c for c in cells if "load_game(" in c)
    relative = load.split("load_game(")[1].split(")")[0].strip("'\"")
    assert (out.parent / relative).resolve() == DOC_GAME.resolve()
    frog = tmp_path / "frog.ipynb"
    assert main(["workbench", str(FROG), "--no-open", "--output", str(frog),
                 "--bet-level", "4"]) == 0
    text = "".join(_notebook(frog))
    assert "slotmath.analyze(game, 4)" in text
    assert "feature_panel(analysis, 'jackpots')" in text
    assert "feature_panel(analysis, 'bonus_wheel')" in text


def test_the_written_code_runs(tmp_path):
    """Every code cell of the doc game's workbench runs as plain Python (no kernel)."""
    out = tmp_path / "doc.ipynb"
    assert main(["workbench", str(DOC_GAME), "--no-open", "--output", str(out)]) == 0
    import matplotlib

    matplotlib.use("Agg")
    namespace: dict = {}
    import os

    here = os.getcwd()
    os.chdir(tmp_path)
    try:
        for cell in json.loads(out.read_text())["cells"]:
            if cell["cell_type"] == "code":
                exec(compile("".join(cell["source"]), "cell", "exec"), namespace)  # noqa: S102
    finally:
        os.chdir(here)
        import matplotlib.pyplot as plt

        plt.close("all")
    import slotmath

    assert namespace["analysis"].rtp == slotmath.analyze(slotmath.load_game(DOC_GAME)).rtp
    assert namespace["bonus_wheel"].analysis.rtp == namespace["analysis"].rtp


def test_an_existing_notebook_is_kept(tmp_path, capsys):
    out = tmp_path / "mine.ipynb"
    out.write_text("{}")
    assert main(["workbench", str(DOC_GAME), "--no-open", "--output", str(out)]) == 0
    assert "kept the existing" in capsys.readouterr().out and out.read_text() == "{}"
    assert main(["workbench", str(DOC_GAME), "--no-open", "--output", str(out),
                 "--force"]) == 0
    assert json.loads(out.read_text())["cells"]


def test_bad_input_is_one_line_and_writes_nothing(tmp_path, capsys):
    bad = tmp_path / "bad.toml"
    bad.write_text('name = "x"\nrows = 3\n')
    out = tmp_path / "bad.ipynb"
    assert main(["workbench", str(bad), "--no-open", "--output", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("slotmath: error:") and err.count("\n") == 1 and "bad.toml" in err
    assert not out.exists() and list(tmp_path.iterdir()) == [bad]
    assert main(["workbench", str(DOC_GAME), "--no-open", "--output", str(out),
                 "--bet-level", "7"]) == 2


def test_root_gets_allow_root_and_voila_is_an_app():
    assert "--ServerApp.allow_root=True" in open_command("g.ipynb", allow_root=True)
    assert "--ServerApp.allow_root=True" not in open_command("g.ipynb", allow_root=False)
    assert open_command("g.ipynb", voila=True)[1:3] == ["-m", "voila"]
