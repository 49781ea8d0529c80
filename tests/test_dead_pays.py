"""Dead pays (issue 23): a pay-table entry no outcome can show is named by ``slotmath analyze``
(a line on stderr, ``dead_pays`` in the JSON) instead of silently missing from the pay table.

The reference shares no code with :mod:`slotmath.report.dead_pays` (which reads the pay
table's hit counts, from the direct method): it visits every stop combination of the base
reels, and of the free-spin reels when a base window can start the free spins, and collects
what each window's lines (or ways) and scatters pay, entry by entry.
"""

from __future__ import annotations

import itertools
import json
import subprocess
import sys
from pathlib import Path

from bundled import ANALYSED, BENCHMARK_ONLY, analysed
from hypothesis import HealthCheck, given, settings
from strategies import game_dicts

import slotmath
from slotmath.evaluate.window import PayModel, window_at
from slotmath.io.toml_loader import game_from_dict
from slotmath.report.dead_pays import dead_pay_lines, dead_pays

ROOT = Path(__file__).resolve().parent.parent

DEAD_WILD = """
name = "Dead wild"
rows = 1
bet = 1
paylines = [[0, 0, 0]]
[symbols]
W = { wild = true, pays = { 3 = 50 } }
A = { pays = { 2 = 1, 3 = 10 } }
SC = { scatter = true, pays = { 3 = 5 } }
B = {}
[reels]
base = [["A", "B", "SC"], ["A", "W", "SC"], ["A", "W", "B", "SC"]]
"""


def _windows(game, reel_set: str):
    reels = game.reel_sets[reel_set]
    live = [[s for s, w in enumerate(reel.stop_weights) if w] for reel in reels.reels]
    for stops in itertools.product(*live):
        yield window_at(game, reels, stops)


def _shown(game, model, reel_set: str) -> set:
    shown = set()
    for window in _windows(game, reel_set):
        if game.paylines is not None:
            for line in game.paylines:
                win = model.line_win([window[j][r] for j, r in enumerate(line)])
                if win.credits:
                    shown.add(("pay", win.key, win.count))
        else:
            shown |= {("pay", key, run) for key, (credits, run, _) in
                      model.ways_wins(window).items() if credits}
        for name in game.scatters:
            n = sum(column.count(name) for column in window)
            listed = sorted(c for c in _listed(game.symbols[name]) if c <= n)
            if listed and (listed[-1] == n or n > max(_listed(game.symbols[name]))):
                shown.add(("scatter", name, listed[-1]))
    return shown


def _listed(symbol) -> set:
    return set(symbol.pays) | {c for col in symbol.level_pays.values() for c in col}


def _reference(game, level: int) -> list[tuple]:
    """Advertised entries at ``level`` that no window of a played reel set pays."""
    model = PayModel(game, level)
    shown = _shown(game, model, "base")
    fs = game.free_spins
    if fs is not None and fs.reels != "base" and any(
            fs.award_for(sum(column.count(fs.trigger) for column in window))
            for window in _windows(game, "base")):
        shown |= _shown(game, model, fs.reels)
    advertised = []
    entries = [s for s in game.symbols.values() if not s.scatter and not s.bonus]
    entries += list(game.groups.values())
    for entry in entries:
        advertised += [("pay", entry.name, c) for c in sorted(_listed(entry))
                       if entry.pay_at(c, level) > 0]
    for name in game.scatters:
        sym = game.symbols[name]
        advertised += [("scatter", name, c) for c in sorted(_listed(sym))
                       if sym.pay_at(c, level) > 0]
    return sorted(e for e in advertised if e not in shown)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game_dicts(max_combinations=600))
def test_dead_pays_are_the_entries_no_window_pays(data):
    game = game_from_dict(data)
    level = max(game.bet_levels)
    got = dead_pays(slotmath.analyze(game, level))
    assert sorted((e["kind"], e["symbol"], e["count"]) for e in got) == _reference(game, level)


def test_a_wild_never_on_reel_1_is_named():
    game = slotmath.loads_game(DEAD_WILD)
    a = slotmath.analyze(game)
    assert dead_pays(a) == [{"kind": "pay", "symbol": "W", "count": 3, "pay_x_bet": 50.0}]
    assert _reference(game, 1) == [("pay", "W", 3)]
    assert dead_pay_lines(a, "dead.toml") == [(
        "slotmath: warning: dead.toml: pay W x3 (50 x bet) can never land: no outcome of the "
        "game shows it, so the pay table leaves it out")]


def test_analyze_warns_on_stderr_and_lists_them_in_the_json(tmp_path):
    path = tmp_path / "dead.toml"
    path.write_text(DEAD_WILD)
    cli = [sys.executable, "-m", "slotmath.cli", "analyze", str(path)]
    text = subprocess.run(cli, capture_output=True, text=True, check=True)
    as_json = subprocess.run(cli + ["--json"], capture_output=True, text=True, check=True)
    warning = (f"slotmath: warning: {path}: pay W x3 (50 x bet) can never land: no outcome of "
               "the game shows it, so the pay table leaves it out")
    # (under load a delayed progress bar, or on a fresh machine the compile notice, can share
    # stderr with the warning: the warnings are the lines that say so)
    for run in (text, as_json):
        assert [line for line in run.stderr.splitlines() if "warning" in line] == [warning]
        assert "Traceback" not in run.stderr
    assert "W" not in {line.split()[0] for line in text.stdout.splitlines() if line.strip()}
    assert json.loads(as_json.stdout)["dead_pays"] == [
        {"kind": "pay", "symbol": "W", "count": 3, "pay_x_bet": 50.0}]


def test_no_bundled_game_advertises_a_dead_pay():
    # issue 23: Classic Fruits' and Tiny Lines' wilds never showed on reel 1, so their own
    # 3/4/5-of-a-kind pays could never land
    for path in ANALYSED:
        game = slotmath.load_game(path)
        for level in game.bet_levels:
            assert dead_pays(analysed(path, level)) == [], f"{path.stem} at level {level}"


def test_the_game_left_out_above_has_no_dead_pay_on_its_first_drop():
    # Frozen Gems' full cascade analysis takes minutes (tests/bundled.py): its pay table read
    # from the first window of every drop's reels, which its chain can only add to
    from slotmath.exact.direct import direct_method

    assert set(BENCHMARK_ONLY) == {"frozen_gems"}
    game = slotmath.load_game(ROOT / "data" / "games" / "frozen_gems.toml")
    model = PayModel(game)
    shown = {(p.key, p.count) for reels in ("base", "free")
             for p in direct_method(game, reels, 1, model).pays if p.hits}
    advertised = {(key, count) for key in model.keys
                  for count, credits in model.key_credits[key].items() if credits}
    assert advertised <= shown
