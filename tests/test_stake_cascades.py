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
import json
import tomllib
from fractions import Fraction
from pathlib import Path

import pytest
import zstandard
from cascade_reference import (
    EndlessCascade,
    RefGame,
    arrangement_orderings,
    effective_window,
    play_spin,
    scatter_pay,
    spin_outcomes,
    window_win,
)
from cascade_strategies import cascade_game_dicts, to_toml
from hypothesis import HealthCheck, assume, given, settings

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


def replay(ref: RefGame, book: dict) -> Fraction:
    """Play the book's round again from its reveal, fall by fall, by the rules with the
    reference's pieces, checking every event on the way; returns the round's win (bets)."""
    events = book["events"]
    reveal = events[0]
    assert reveal["type"] == "reveal" and reveal["reelSet"] == "base"
    n = ref.n_reels
    strips = [ref.strip_and_weights("base", r)[0] for r in range(n)]
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
    counters, freed = [0] * n, [False] * n
    total, k, freed_seen = Fraction(0), 0, []
    while True:
        assert [[c["name"] for c in col] for col in boards[k]] == window, (k, book["id"])
        if ref.bonus is not None:
            for r in range(n):
                here = sum(ref.is_scatter(s) for s in window[r])
                if not freed[r] and counters[r] + here >= ref.bonus.get("threshold", 3):
                    freed[r] = True
                    freed_seen.append((k, r, arrangement[r]))
        win, removed = window_win(ref, effective_window(ref, window, arrangement, freed))
        drop = win * ref.multiplier_value(ref.rule, k)
        if drop == 0:
            break
        fall = falls[k]
        assert (fall["fall"], fall["multiplier"]) == (k, ref.multiplier_value(ref.rule, k))
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
    paid = [e for e in events if e["type"] == "winInfo" and e not in falls]
    assert sum((amount(e, "totalWin") for e in paid), Fraction(0)) == scatter
    total += scatter
    assert events[-1] == {"index": len(events) - 1, "type": "finalWin",
                          "amount": book["payoutMultiplier"]}
    # the reference's own chain from the same stops and bonus symbols
    (_, result), = play_spin(ref, "base", tuple(reveal["stops"]), arrangement, 0, False)
    assert result.win == total
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


@pytest.mark.parametrize("path, says", [
    ("data/games/frozen_gems.toml", "free spins of a cascading game"),
    ("tests/data/cascades/tiny_free_spins.toml", "free spins of a cascading game"),
])
def test_what_the_cascade_books_cannot_play_is_refused_in_one_line(path, says):
    why = refusal(slotmath.load_game(ROOT / path))
    assert says in why and "\n" not in why
