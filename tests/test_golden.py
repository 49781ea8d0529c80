"""Every figure of every bundled game at every bet level against its golden file.

The golden files (``tests/golden/GAME_levelN.json``) are the ``slotmath analyze --json``
output recorded before the feature redesign (issue 8) moved any code; they were written by
the code of commit 1aa760c, which shares nothing with today's composition. Exact fields
(fractions as text, integers, flags, labels) must be equal; floats must agree to 1e-9
relative (plus 1e-15 absolute, for the error bounds themselves), far inside the numerical
figures' stated error bounds (the RTP's is 2e-8 and up).
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

import slotmath
from slotmath import report

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = sorted((ROOT / "tests" / "golden").glob("*_level*.json"))
GAMES = sorted((ROOT / "data" / "games").glob("*.toml"))
# frozen_gems: its exact analysis takes minutes (every cascade chain of 40-stop strips), so it
# is left out here; benchmarks/bench_frozen_gems.py runs it and checks its header's figures.
GAMES = [p for p in GAMES if p.stem != "frozen_gems"]


def _differences(want, got, path: str = "") -> list[str]:
    if isinstance(want, dict):
        if not isinstance(got, dict) or set(want) != set(got):
            return [f"{path}: keys {sorted(want)} != {sorted(got) if isinstance(got, dict) else got}"]
        return [d for k in want for d in _differences(want[k], got[k], f"{path}.{k}")]
    if isinstance(want, list):
        if not isinstance(got, list) or len(want) != len(got):
            return [f"{path}: {want!r} != {got!r}"]
        return [d for i, (a, b) in enumerate(zip(want, got)) for d in _differences(a, b, f"{path}[{i}]")]
    if isinstance(want, float) and isinstance(got, float):
        ok = math.isclose(want, got, rel_tol=1e-9, abs_tol=1e-15)
        return [] if ok else [f"{path}: {want!r} != {got!r}"]
    return [] if (type(want), want) == (type(got), got) else [f"{path}: {want!r} != {got!r}"]


def test_every_bundled_game_and_level_has_a_golden_file():
    assert len(GOLDEN) >= 10, "golden files missing from tests/golden"
    for path in GAMES:
        for level in slotmath.load_game(path).bet_levels:
            assert (ROOT / "tests" / "golden" / f"{path.stem}_level{level}.json").exists(), (
                f"no golden file for {path.stem} at level {level}")


@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: p.stem)
def test_figures_equal_the_golden_file(path):
    game, level = path.stem.rsplit("_level", 1)
    a = slotmath.analyze(slotmath.load_game(ROOT / "data" / "games" / f"{game}.toml"), int(level))
    got = json.loads(json.dumps(report.analysis_dict(a), default=str))
    want = json.loads(path.read_text())
    diffs = _differences(want, got)
    assert not diffs, "\n".join(diffs[:20])


def test_the_comparison_can_fail():
    want = json.loads(GOLDEN[0].read_text())
    changed = json.loads(GOLDEN[0].read_text())
    changed["rtp_float"] *= 1 + 1e-8
    changed["hit_frequency"] = "1/2"
    assert len(_differences(want, changed)) == 2
