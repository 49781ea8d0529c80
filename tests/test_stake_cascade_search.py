"""The Stake Engine export of a cascading game whose full cycle is too large for the plain
player (Frozen Gems'): books from a seeded search over whole rounds
(:mod:`slotmath.publish.cascade_rounds`), each played again by the plain player.

The fixtures are small, so the search is made to take its path by a lowered cycle limit
(``RoundSearch.cycle_max``). Everything is checked against ``tests/cascade_reference.py`` (a
brute force written from the rules alone, importing nothing from slotmath): each book is
replayed from its events by ``test_stake_cascades.replay`` and must pay its row; the table
against the reference's law (exact game) or the exact RTP within the stated error (free
spins, a numerical law); the rows the search misses, their count and the RTP change stated,
recomputed here from the reference's law; with ``keep-rtp`` the exact RTP kept exactly.
"""

from __future__ import annotations

import tomllib
from fractions import Fraction
from pathlib import Path

import pytest
from cascade_reference import RefGame, figures, spin_outcomes
from cascade_strategies import cascade_game_dicts
from hypothesis import event, given, settings
from test_stake_cascades import GENERATED, generated_game, read_books, read_rows, replay

import slotmath
from slotmath.publish import export_stake, lookup_table, refusal, verify_stake
from slotmath.publish.cascade_rounds import RoundSearch

ROOT = Path(__file__).resolve().parents[1]
FREE = ROOT / "tests/data/cascades/tiny_free_spins_books.toml"  # carried index, retriggers
BONUS = ROOT / "tests/data/cascades/tiny_bonus.toml"  # bonus symbols, two arrangements, exact


def export(path: Path, out: Path, rounding: str = "nearest", **search) -> dict:
    import json

    game = slotmath.load_game(path)
    export_stake(game, out, rounding=rounding,
                 search=RoundSearch(**({"cycle_max": 10} | search)))
    (report,) = json.loads((out / "report.json").read_text())["modes"]
    return report


def table_rtp(rows) -> Fraction:
    return Fraction(sum(w * p for _, w, p in rows), 100 * sum(w for _, w, _ in rows))


def check_books(path: Path, out: Path) -> list[dict]:
    """Every book replayed by the reference pays its row (nearest tenth), ids and payouts
    are the table's, and each names the searched round it is."""
    ref = RefGame(tomllib.loads(path.read_text()))
    rows, books = read_rows(out), read_books(out)
    assert [(b["id"], b["payoutMultiplier"]) for b in books] == [(i, p) for i, _, p in rows]
    for b in books:
        assert 10 * round(10 * replay(ref, b)) == b["payoutMultiplier"]
        (origin,) = [e for e in b["events"] if e["type"] == "searchedRound"]
        assert origin["round"] >= 0
    failed = [c for c in verify_stake(out).checks if not c.passed and "approval" not in c.source]
    assert not failed, failed
    return books


def test_free_spins_books_are_searched_rounds_and_table_within_the_stated_error(tmp_path):
    game = slotmath.load_game(FREE)
    assert refusal(game) is None
    report = export(FREE, tmp_path / "out", rounds=1 << 16, seed=5)
    assert report["books"]["search"]["rounds"] <= 1 << 16
    assert report["rows_without_a_book"]["rows"] == 0  # the search reached every row
    books = check_books(FREE, tmp_path / "out")
    assert any(e["type"] == "freeSpinRetrigger" for b in books for e in b["events"])
    assert max(e["cascadeIndex"] for b in books for e in b["events"]
               if e["type"] == "freeSpinTrigger") >= 1
    # the law is numerical (the free spins' chain): the table's RTP within the stated error
    # of the reference's exact RTP
    exact = figures(tomllib.loads(FREE.read_text())).rtp
    rows = read_rows(tmp_path / "out")
    bound = Fraction(report["law"]["numerical_error_bound"]) * Fraction(max(p for *_, p in rows),
                                                                         100)
    assert 0 < bound < Fraction(1, 20) and abs(table_rtp(rows) - exact) <= bound


def reference_law(path: Path) -> dict[Fraction, Fraction]:
    """The reference's law of the spin's win (a game without free spins: the round)."""
    law: dict[Fraction, Fraction] = {}
    for result, p in spin_outcomes(RefGame(tomllib.loads(path.read_text())), "base").items():
        law[result.win] = law.get(result.win, Fraction(0)) + p
    return law


def moved_change(law, payouts) -> tuple[Fraction, int]:
    """What giving each payout of ``law`` (nearest tenth) that is not in ``payouts``
    (hundredths) to the nearest one (a tie to the lower) does to the mean, and how many."""
    change, moved = Fraction(0), set()
    for win, q in law.items():
        k = 10 * round(10 * win)
        if k not in payouts:
            to = min(payouts, key=lambda a: (abs(a - k), a))
            change += q * Fraction(to - k, 100)
            moved.add(k)
    return change, len(moved)


def test_a_starved_search_moves_the_rows_it_misses_and_says_by_how_much(tmp_path):
    # 2048 rounds of a game of ~400 payouts: some are never reached; their probability goes to
    # the nearest row with a book and the report states the exact change of the RTP
    law = reference_law(BONUS)
    exact = slotmath.analyze(slotmath.load_game(BONUS)).rtp
    assert sum(w * p for w, p in law.items()) == exact
    report = export(BONUS, tmp_path / "near", rounds=1 << 11, seed=1, unplayed_max=1.0)
    rows = read_rows(tmp_path / "near")
    change, moved = moved_change(law, {p for *_, p in rows})
    stated = report["rows_without_a_book"]
    assert moved > 0 and stated["rows"] == moved
    rounding = sum((q * (Fraction(round(10 * w), 10) - w) for w, q in law.items()), Fraction(0))
    assert Fraction(report["rtp_change"]["rows_without_a_book"]["exact"]) == change
    assert table_rtp(rows) == exact + rounding + change  # the weights are exact here
    check_books(BONUS, tmp_path / "near")
    # keep-rtp: the same rounds, the missed rows split between their neighbours: the exact
    # RTP kept exactly
    report = export(BONUS, tmp_path / "keep", "keep-rtp", rounds=1 << 11, seed=1,
                    unplayed_max=1.0)
    assert report["rows_without_a_book"]["rows"] > 0
    assert Fraction(report["rtp_change"]["rows_without_a_book"]["exact"]) == 0
    assert table_rtp(read_rows(tmp_path / "keep")) == exact
    books = read_books(tmp_path / "keep")
    ref = RefGame(tomllib.loads(BONUS.read_text()))
    for b in books:  # keep-rtp: a book pays its row's payout or a neighbouring win
        assert abs(replay(ref, b) * 100 - b["payoutMultiplier"]) < 10


def test_the_same_search_twice_is_byte_identical(tmp_path):
    export(FREE, tmp_path / "a", rounds=1 << 12, seed=7, unplayed_max=1.0)
    export(FREE, tmp_path / "b", rounds=1 << 12, seed=7, unplayed_max=1.0)
    for name in ("index.json", "lookUpTable_base_0.csv", "books_base.jsonl.zst"):
        assert (tmp_path / "a" / name).read_bytes() == (tmp_path / "b" / name).read_bytes()
    a, b = (tmp_path / "a" / "report.json").read_text(), (tmp_path / "b" / "report.json")
    strip = [line for line in a.splitlines() if "seconds" not in line]
    assert strip == [line for line in b.read_text().splitlines() if "seconds" not in line]


def test_the_arrangements_drawn_alike_reach_the_rare_one(tmp_path):
    # the second half of the rounds draws every arrangement of positive weight alike: books
    # from both halves, each with the bonus symbols of an arrangement of the game
    export(BONUS, tmp_path / "out", rounds=1 << 12, seed=2, unplayed_max=1.0)
    books = read_books(tmp_path / "out")
    laws = {e["drawLaw"] for b in books for e in b["events"] if e["type"] == "searchedRound"}
    assert len(laws) == 2
    check_books(BONUS, tmp_path / "out")


def test_keep_mean_placement_keeps_the_mean_exactly():
    # the lookup table's placement alone, on a law with a payout above the top row with a
    # book: split between neighbours, and above the top scaled onto it from row 0
    law = {Fraction(0): Fraction(1, 2), Fraction(1, 4): Fraction(1, 8), Fraction(3, 5): Fraction(1, 8),
           Fraction(1): Fraction(1, 8), Fraction(5): Fraction(1, 8)}
    mean = sum(a * p for a, p in law.items())
    t = lookup_table(law, "keep-rtp", exact_rtp=mean, allowed={0, 3, 10})
    assert t.placement_change == 0 and t.rtp == mean and {k for k, _ in t.rows} == {0, 3, 10}
    near = lookup_table(law, "nearest", exact_rtp=mean, allowed={0, 3, 10})
    # nearest: 0.2 -> 0.3, 0.6 -> 0.3, 5 -> 1
    assert near.placement_change == Fraction(1, 8) * (Fraction(1, 10) - Fraction(3, 10) - 4)


def test_frozen_gems_is_searched_not_refused_and_random_refill_still_is(tmp_path):
    from slotmath.publish.cascades import CYCLE_MAX, _too_large

    game = slotmath.load_game(ROOT / "data/games/frozen_gems.toml")
    assert refusal(game) is None and _too_large(game, "base", CYCLE_MAX)
    path = tmp_path / "random.toml"
    path.write_text(FREE.read_text().replace('refill = "strip"', 'refill = "random"\n'
        'refill_weights = { base = [{ X = 1 }, { X = 1 }, { X = 1 }], '
        'free = [{ X = 1 }, { X = 1 }, { X = 1 }] }'))
    why = refusal(slotmath.load_game(path))
    assert "strip-refill cascades only" in why and "\n" not in why
    with pytest.raises(ValueError, match="rounds >= 1"):
        RoundSearch(rounds=0)


@settings(GENERATED, max_examples=5)
@given(cascade_game_dicts(refill="strip", free_spins=True))
def test_generated_cascade_games_through_the_search(tmp_path_factory, data):
    # random small strip games with free spins, sent through the search (cycle limit 0):
    # every book a round the reference plays to its row
    ref, _, game, _ = generated_game(data)
    out = tmp_path_factory.mktemp("generated") / "out"
    export_stake(game, out, search=RoundSearch(rounds=1 << 13, cycle_max=0, unplayed_max=1.0))
    rows, books = read_rows(out), read_books(out)
    assert [(b["id"], b["payoutMultiplier"]) for b in books] == [(i, p) for i, _, p in rows]
    for b in books:
        assert 10 * round(10 * replay(ref, b)) == b["payoutMultiplier"]
        assert any(e["type"] == "searchedRound" for e in b["events"])
    event("with free spins" if any(e["type"] == "freeSpinTrigger" for b in books
                                   for e in b["events"]) else "paid spins only")
