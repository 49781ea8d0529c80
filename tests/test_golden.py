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
from bundled import ANALYSED, analysed

import slotmath
from slotmath import report
from slotmath.report.figures import is_figure

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = sorted((ROOT / "tests" / "golden").glob("*_level*.json"))
GAMES = ANALYSED  # (tests/bundled.py)


def _differences(want, got, path: str = "") -> list[str]:
    if is_figure(got) and not isinstance(want, dict):
        # the golden files predate one shape per figure (report.figures): a figure read
        # there as text "p/q" is its exact field, one read as a number is its float
        if isinstance(want, str):
            return [] if got["exact"] == want else [f"{path}: {want!r} != {got!r}"]
        got = got["float"] if isinstance(want, float) or got["exact"] is None else (
            int(got["exact"]) if "/" not in got["exact"] else got["float"])
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
        game = slotmath.load_game(path)
        # a conveyor game's figures are the same at every level (every pay and coin value
        # scales with it: tests/test_jingle_spin.py checks that), so its level 1 is recorded
        for level in game.bet_levels if game.conveyor is None else (1,):
            assert (ROOT / "tests" / "golden" / f"{path.stem}_level{level}.json").exists(), (
                f"no golden file for {path.stem} at level {level}")


#: keys added to the document after the golden files were recorded
ADDED = {"confidence_intervals_method", "cascades", "max_ways"}


def _interval_differences(want: list, got: list) -> list[str]:
    """The golden confidence intervals are the normal approximation ``rtp +/- z SD/sqrt(N)``;
    since issue 12 they come from the law of the mean of N rounds (never below 0), or are the
    normal approximation cut at 0. By the central limit theorem the two agree at many
    rounds: from 1e7 rounds to 3 % of the golden half-width times sqrt(1e7 / N) (the skewness
    the normal approximation ignores fades as 1/sqrt(N)); at fewer rounds the new ones are
    >= 0 and still contain the RTP."""
    out = []
    for w, g in zip(want, got, strict=True):
        n = w["spins"]
        if g["spins"] != n:
            out.append(f"confidence_intervals: spins {g['spins']} != {n}")
        for level in ("90", "95"):
            (wl, wh), (gl, gh) = w[level], g[level]
            half, centre = (wh - wl) / 2, (wh + wl) / 2
            if not 0 <= gl <= centre <= gh:
                out.append(f"confidence_intervals[{n}][{level}]: {[gl, gh]} vs rtp {centre}")
            tolerance = 0.03 * (10**7 / n) ** 0.5 * half  # skewness fades as 1/sqrt(N)
            if n >= 10**7 and max(abs(gl - max(wl, 0)), abs(gh - wh)) > tolerance:
                out.append(f"confidence_intervals[{n}][{level}]: {[gl, gh]} != {[wl, wh]}")
    return out


@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: p.stem)
def test_figures_equal_the_golden_file(path):
    game, level = path.stem.rsplit("_level", 1)
    a = analysed(ROOT / "data" / "games" / f"{game}.toml", int(level))
    got = json.loads(json.dumps(report.analysis_dict(a), default=str))
    want = json.loads(path.read_text())
    for key in ADDED:
        got.pop(key, None)
    if got.get("free_spins"):
        got["free_spins"].pop("max_spins")  # added with the cascades (issue 9)
    diffs = []
    if "confidence_intervals" in want or "confidence_intervals" in got:  # not for a conveyor
        diffs += _interval_differences(want.pop("confidence_intervals"),
                                       got.pop("confidence_intervals"))
    diffs += _differences(want, got)
    assert not diffs, "\n".join(diffs[:20])


def test_the_comparison_can_fail():
    want = json.loads(GOLDEN[0].read_text())
    changed = json.loads(GOLDEN[0].read_text())
    changed["rtp_float"] *= 1 + 1e-8
    changed["hit_frequency"] = "1/2"
    assert len(_differences(want, changed)) == 2


def test_the_reading_of_intervals_can_fail():
    want = json.loads(GOLDEN[0].read_text())["confidence_intervals"]
    assert _interval_differences(want, want) == [] or any(w["95"][0] < 0 for w in want)
    shifted = json.loads(json.dumps(want))
    shifted[-1]["95"][1] += 0.02 * (want[-1]["95"][1] - want[-1]["95"][0])
    shifted[0]["90"][0] = -0.1
    assert len(_interval_differences(want, shifted)) == 2


def test_the_reading_of_figures_can_fail():
    want = {"rtp": "411/448", "std": 1.5, "multiple": 100, "p": 0.25}
    got = {"rtp": {"exact": "411/448", "float": 411 / 448}, "std": {"exact": None, "float": 1.5},
           "multiple": {"exact": "100", "float": 100.0}, "p": {"exact": "1/4", "float": 0.25}}
    assert _differences(want, got) == []
    bad = {"rtp": {"exact": "411/449", "float": 411 / 448},
           "std": {"exact": None, "float": 1.5 * (1 + 1e-8)},
           "multiple": {"exact": "101", "float": 100.0}, "p": {"exact": "1/4", "float": 0.26}}
    assert len(_differences(want, bad)) == 4
