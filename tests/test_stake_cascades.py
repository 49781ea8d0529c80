"""The Stake Engine export of cascading games (issue 26 item 1, books for cascades): each book
a real enumerated stop combination (and ordering of the bonus symbols) whose cascade
sequence pays the book's amount; weights the exact full-cycle counts.

Everything is checked against ``tests/cascade_reference.py`` (a brute force written from the
rules alone, importing nothing from slotmath), never against the export's own player:

* the table, row by row, against the reference's law of the spin's win (every stop
  combination x every bonus ordering followed to its end), rounded to tenths by the rule's
  plain definition; its RTP against the exact analysis and the reference, equal;
* each book replayed from its events by a small evaluator here, from the reference's window
  pieces (effective window, window win, scatter pay, the multiplier rule): the reveal's board
  is the strips at its stops; each fall frees the reels the rule frees, pays what the
  reference pays times the fall's multiplier, removes the winning positions; the next board
  is the survivors fallen and the strip above refilled; the final board's scatters pay; the
  sum is the book's payout. The reference's own chain (``play_spin``) from the reveal's stops
  pays the same.
"""

from __future__ import annotations

import csv
import io
import itertools
import json
import tomllib
from fractions import Fraction
from pathlib import Path

import pytest
import zstandard
from cascade_reference import (
    EndlessCascade,
    RefGame,
    above_highest,
    arrangement_orderings,
    effective_window,
    figures,
    play_spin,
    scatter_pay,
    spin_outcomes,
    window_win,
)
from cascade_strategies import cascade_game_dicts, to_toml
from hypothesis import HealthCheck, assume, event, given, settings

import slotmath
from slotmath.publish import export_stake, refusal, verify_stake

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = [ROOT / "tests/data/cascades/tiny_bonus.toml",  # ways, split and wild bonus symbols
            ROOT / "tests/data/cascades/tiny_lines.toml"]  # lines, a ladder, a wild bonus


def read_rows(directory: Path) -> list[tuple[int, int, int]]:
    text = (directory / "lookUpTable_base_0.csv").read_text()
    return [tuple(int(x) for x in row) for row in csv.reader(io.StringIO(text))]


def read_books(directory: Path) -> list[dict]:
    data = (directory / "books_base.jsonl.zst").read_bytes()
    with zstandard.ZstdDecompressor().stream_reader(io.BytesIO(data)) as reader:
        text = reader.read().decode("utf-8")
    return [json.loads(line) for line in text.splitlines() if line]


def amount(event: dict, name: str) -> Fraction:
    """An amount of the books in bets (exact when the book gives the fraction)."""
    exact = event.get(name + "Exact")
    return Fraction(exact) if exact else Fraction(event[name], 100)


def reference_table(ref: RefGame) -> dict[int, Fraction]:
    """payoutMultiplier -> probability: the reference's law of the spin's win, each win
    rounded to the nearest tenth of the bet (a tie to the even tenth)."""
    out: dict[int, Fraction] = {}
    for result, p in spin_outcomes(ref, "base").items():
        k = 10 * round(10 * result.win)
        out[k] = out.get(k, Fraction(0)) + p
    return {k: p for k, p in out.items() if p}


def replay_spin(ref: RefGame, events: list[dict], start_index: int = 0,
                free: bool = False) -> tuple[Fraction, int, int]:
    """Play one spin of the book again from its reveal (``events``: the reveal and what
    follows it, up to the next reveal), fall by fall, by the rules with the reference's
    pieces, checking every event on the way. Returns its win (bets), its winning falls and
    the trigger symbols of its final window."""
    reveal = events[0]
    reel_set = ref.free_spins.get("reels", "base") if free else "base"
    assert reveal["type"] == "reveal" and reveal["reelSet"] == reel_set
    assert reveal["gameType"] == ("freegame" if free else "basegame")
    n = ref.n_reels
    strips = [ref.strip_and_weights(reel_set, r)[0] for r in range(n)]
    tops = list(reveal["stops"])
    window = [[strips[r][(tops[r] + i) % len(strips[r])] for i in range(ref.rows[r])]
              for r in range(n)]
    arrangement = tuple(reveal.get("bonusSymbols", (None,) * n))
    assert arrangement in [a for _, a in arrangement_orderings(ref)]
    falls = [e for e in events if e["type"] == "winInfo"
             and not any(w["kind"] == "scatter" for w in e["wins"])]
    tumbles = [e for e in events if e["type"] == "tumble"]
    freed_events = [e for e in events if e["type"] == "bonusFreed"]
    boards = [reveal["board"]] + [t["board"] for t in tumbles]
    rule = ref.free_rule if free else ref.rule
    spin_multiplier = ref.free_spins.get("multiplier", 1) if free else 1
    counters, freed = [0] * n, [False] * n
    total, k, freed_seen = Fraction(0), 0, []
    while True:
        assert [[c["name"] for c in col] for col in boards[k]] == window, k
        if ref.bonus is not None:
            for r in range(n):
                here = sum(ref.is_scatter(s) for s in window[r])
                if not freed[r] and counters[r] + here >= ref.bonus.get("threshold", 3):
                    freed[r] = True
                    freed_seen.append((k, r, arrangement[r]))
        win, removed = window_win(ref, effective_window(ref, window, arrangement, freed))
        drop = win * ref.multiplier_value(rule, start_index + k) * spin_multiplier
        if drop == 0:
            break
        fall = falls[k]
        assert (fall["fall"], fall["multiplier"]) == \
            (k, ref.multiplier_value(rule, start_index + k))
        assert amount(fall, "totalWin") == drop
        assert {(p["reel"], p["row"]) for w in fall["wins"] for p in w["positions"]} == removed
        assert {(p["reel"], p["row"]) for p in tumbles[k]["removed"]} == removed
        total += drop
        accumulate = ref.bonus is None or ref.bonus.get("accumulate", True)
        for r in range(n):
            gone = [row for row in range(ref.rows[r]) if (r, row) in removed]
            keep = [s for row, s in enumerate(window[r]) if row not in gone]
            fresh = [strips[r][(tops[r] - len(gone) + i) % len(strips[r])]
                     for i in range(len(gone))]
            window[r] = fresh + keep
            tops[r] = (tops[r] - len(gone)) % len(strips[r])
            counters[r] = counters[r] + len(gone) if accumulate else len(gone)
        k += 1
    assert len(falls) == len(tumbles) == k  # every winning fall, and no more
    assert [(e["fall"], r["reel"], r["effect"]) for e in freed_events for r in e["reels"]] \
        == freed_seen
    scatter = scatter_pay(ref, window)
    if free:
        scatter = scatter * spin_multiplier if ref.free_spins.get("scatter_pays", True) else 0
    paid = [e for e in events if e["type"] == "winInfo" and e not in falls]
    assert sum((amount(e, "totalWin") for e in paid), Fraction(0)) == scatter
    total += scatter
    # the reference's own chain from the same stops and bonus symbols
    (_, result), = play_spin(ref, reel_set, tuple(reveal["stops"]), arrangement, start_index,
                             free)
    assert (result.win, result.cascades) == (total, k)
    trigger = 0
    if ref.free_spins is not None:
        trigger = sum(col.count(ref.free_spins["trigger"]) for col in window)
    return total, k, trigger


def replay(ref: RefGame, book: dict) -> Fraction:
    """Play the book's round again: the paid spin (:func:`replay_spin`) and, when it starts
    free spins, each free spin at the index the rules carry into it, with the spins the
    rules award (cut by ``max_spins``). Returns the round's win (bets)."""
    events = book["events"]
    starts = [i for i, e in enumerate(events) if e["type"] == "reveal"] + [len(events)]
    total, cascades, trigger = replay_spin(ref, events[:starts[1]])
    fs = ref.free_spins
    spins = above_highest({int(c): v for c, v in fs["awards"].items()}, trigger) if fs else 0
    if fs is not None and fs.get("max_spins") is not None:
        spins = min(spins, fs["max_spins"])
    started = [e for e in events if e["type"] == "freeSpinTrigger"]
    assert len(started) == (spins > 0)
    if spins:
        carry = ref.carry
        index = cascades if carry else 0
        assert (started[0]["totalFs"], started[0]["cascadeIndex"]) == (spins, index)
        retrigger = {int(c): v for c, v in fs.get("retrigger_awards", fs["awards"]).items()}
        left, awarded = spins, spins
        for a, b in itertools.pairwise(starts[1:]):
            assert left > 0  # no spin beyond those awarded
            win, k, t = replay_spin(ref, events[a:b], index, free=True)
            total += win
            add = above_highest(retrigger, t) if fs.get("retrigger") else 0
            if fs.get("max_spins") is not None:
                add = min(add, fs["max_spins"] - awarded)
            left, awarded = left - 1 + add, awarded + add
            index = index + k if carry else 0
        assert left == 0  # every spin awarded is played
    assert events[-1] == {"index": len(events) - 1, "type": "finalWin",
                          "amount": book["payoutMultiplier"]}
    return total


def check_export(data: dict, out: Path) -> None:
    ref = RefGame(data)
    game = slotmath.loads_game(to_toml(data) if not isinstance(data, str) else data)
    assert refusal(game) is None
    export_stake(game, out)
    rows = read_rows(out)
    total = sum(w for _, w, _ in rows)
    expected = reference_table(ref)
    assert {p: Fraction(w, total) for _, w, p in rows} == expected  # the full cycle's counts
    a = slotmath.analyze(game)
    rtp = Fraction(sum(w * p for _, w, p in rows), 100 * total)
    rounding = sum((Fraction(k, 100) * p for k, p in expected.items()), Fraction(0)) \
        - sum((r.win * p for r, p in spin_outcomes(ref, "base").items()), Fraction(0))
    assert rtp == a.rtp + rounding  # exactly: 0 when every win is a whole tenth
    books = read_books(out)
    assert [(b["id"], b["payoutMultiplier"]) for b in books] == [(i, p) for i, _, p in rows]
    for b in books:
        win = replay(ref, b)
        assert 10 * round(10 * win) == b["payoutMultiplier"]
    checks = verify_stake(out).checks
    assert all(c.passed for c in checks if "approval" not in c.source), checks


@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: p.stem)
def test_cascade_fixture_books_replay_and_table_is_the_full_cycle(tmp_path, path):
    data = tomllib.loads(path.read_text())
    check_export(data, tmp_path / "out")
    rows = read_rows(tmp_path / "out")
    a = slotmath.analyze(slotmath.load_game(path))
    assert Fraction(sum(w * p for _, w, p in rows), 100 * sum(w for _, w, _ in rows)) == a.rtp
    books = read_books(tmp_path / "out")
    assert max(sum(e["type"] == "tumble" for e in b["events"]) for b in books) >= 2
    if "bonus_symbols" in data:
        assert any(e["type"] == "bonusFreed" for b in books for e in b["events"])


@settings(max_examples=12, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much,
                                 HealthCheck.function_scoped_fixture])
@given(cascade_game_dicts(refill="strip", free_spins=False))
def test_generated_cascade_games(tmp_path_factory, data):
    try:
        spin_outcomes(RefGame(data), "base")
    except EndlessCascade:
        assume(False)
    check_export(data, tmp_path_factory.mktemp("generated") / "out")


def test_cascade_free_spins_books_replay_and_table_within_the_stated_error(tmp_path):
    # free spins that carry the cascade multiplier and retrigger up to a cap: the round law
    # is numerical (the feature's win drawn from the exact chain), so the table's RTP is held
    # to the reference's exact RTP within the law's stated error (probability misplaced)
    # times the largest payout; every book is a round the rules play
    path = ROOT / "tests/data/cascades/tiny_free_spins_books.toml"
    data = tomllib.loads(path.read_text())
    ref = RefGame(data)
    game = slotmath.load_game(path)
    assert refusal(game) is None
    exact = figures(data).rtp
    assert slotmath.analyze(game).rtp == exact
    export_stake(game, tmp_path / "out")
    rows = read_rows(tmp_path / "out")
    total = sum(w for _, w, _ in rows)
    rtp = Fraction(sum(w * p for _, w, p in rows), 100 * total)
    (report,) = json.loads((tmp_path / "out" / "report.json").read_text())["modes"]
    top = Fraction(max(p for _, _, p in rows), 100)
    bound = Fraction(report["law"]["numerical_error_bound"]) * top
    assert 0 < bound < Fraction(1, 20) and abs(rtp - exact) <= bound
    books = read_books(tmp_path / "out")
    assert [(b["id"], b["payoutMultiplier"]) for b in books] == [(i, p) for i, _, p in rows]
    for b in books:
        assert 10 * round(10 * replay(ref, b)) == b["payoutMultiplier"]
    indices = [e["cascadeIndex"] for b in books for e in b["events"]
               if e["type"] == "freeSpinTrigger"]
    assert max(indices) >= 1  # some carry an index into the free spins
    checks = verify_stake(tmp_path / "out").checks
    assert all(c.passed for c in checks if "approval" not in c.source), checks


RANDOM = ('refill = "random"\nrefill_weights = { base = [{ X = 1 }, { X = 1 }, { X = 1 }], '
          'free = [{ X = 1 }, { X = 1 }, { X = 1 }] }')


@pytest.mark.parametrize("change, says", [
    (('refill = "strip"', RANDOM), "strip-refill cascades only"),
])
def test_what_the_cascade_books_cannot_play_is_refused_in_one_line(tmp_path, change, says):
    path = tmp_path / "game.toml"
    path.write_text((ROOT / "tests/data/cascades/tiny_free_spins_books.toml").read_text()
                    .replace(*change))
    why = refusal(slotmath.load_game(path))
    assert says in why and "\n" not in why


#: the generated cascade games' hypothesis settings (each example is an analysis and an
#: export; the function-scoped tmp_path_factory is session-wide)
GENERATED = settings(deadline=None,
                     suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much,
                                            HealthCheck.function_scoped_fixture])


def generated_game(data):
    """(the reference's game, its exact RTP, the engine's game and analysis) of a generated
    game both play to the end and the export does not refuse (the others are assumed away:
    chains that never end, the reference's own limits, a refused game)."""
    ref = RefGame(data)
    try:
        exact = figures(data).rtp
    except (EndlessCascade, ValueError):  # chains that never end; the reference's own limits
        assume(False)
    try:
        game = slotmath.loads_game(to_toml(data))
        assume(refusal(game) is None)
        a = slotmath.analyze(game)
        assert a.distribution is not None
    except ValueError as err:  # the engine refuses a free reel set whose chain never ends
        assume("never ends" not in str(err))
        raise
    return ref, exact, game, a


@settings(GENERATED, max_examples=6)
@given(cascade_game_dicts(refill="strip", free_spins=True))
def test_generated_cascade_games_with_free_spins(tmp_path_factory, data):
    ref, exact, game, a = generated_game(data)
    assert a.rtp == exact
    out = tmp_path_factory.mktemp("generated") / "out"
    try:
        export_stake(game, out)
    except ValueError as err:  # payouts no round pays with more than 1e-9: nothing written
        assert "no export" in str(err) and "\n" not in str(err) and not out.exists()
        event("refused: payouts no round pays")
        return
    rows = read_rows(out)
    books = read_books(out)
    event("exported" + (" with free spins" if any(
        e["type"] == "freeSpinTrigger" for b in books for e in b["events"]) else ""))
    assert [(b["id"], b["payoutMultiplier"]) for b in books] == [(i, p) for i, _, p in rows]
    for b in books:
        assert 10 * round(10 * replay(ref, b)) == b["payoutMultiplier"]
    checks = verify_stake(out).checks
    assert all(c.passed for c in checks if "approval" not in c.source), checks
