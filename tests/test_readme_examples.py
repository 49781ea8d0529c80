"""The README's ``slotmath check`` examples exit as the README says (issue 23: its Tiny Lines
example, meant to pass with a raised RTP floor, exited 1 on a wild pay that could never land).

Each example line in the README's ``sh`` blocks states its exit status in its comment
(``# ... exit 0``); a line that states none fails here, so the README cannot drift.
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from slotmath.cli import main

ROOT = Path(__file__).resolve().parents[1]


def _check_examples() -> list[tuple[list[str], int | None]]:
    text = (ROOT / "README.md").read_text()
    out = []
    for block in re.findall(r"```sh\n(.*?)```", text, flags=re.DOTALL):
        for line in block.splitlines():
            if line.startswith("slotmath check "):
                command, _, comment = line.partition("#")
                status = re.search(r"\bexit (\d)\b", comment)
                out.append((shlex.split(command)[1:], int(status.group(1)) if status else None))
    return out


EXAMPLES = _check_examples()


def test_the_readme_has_check_examples():
    assert len(EXAMPLES) >= 3


@pytest.mark.parametrize(("argv", "status"), EXAMPLES, ids=[" ".join(a) for a, _ in EXAMPLES])
def test_each_check_example_exits_as_the_readme_says(argv, status, capsys, monkeypatch):
    assert status is not None, f"the README's example {argv} states no exit status"
    monkeypatch.chdir(ROOT)
    assert main(argv) == status, capsys.readouterr().out[-2000:]
