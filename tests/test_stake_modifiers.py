"""The Stake Engine export of a game with base-game modifiers (issue 26 item 1: the books of
Dynamite, Pickaxe and TNT, :mod:`slotmath.publish.modifiers`), on
``tests/data/stake_modifiers.toml`` (a 3x2 hold & win game with all three kinds).

Read back from the files with plain ``csv``/``json``/``zstandard`` and compared with paths
that share no code with the export:

* the table's RTP against the exact RTP by brute force: every stop combination x every
  modifier outcome by ``tests/modifiers_reference.py`` (its own window evaluation), and the
  hold & win round's exact mean per start count by ``tests/hold_and_win_reference.py``;
* every book replayed: the board against the strips at its stops; a ``modifier`` event's
  draw checked against the declared law (a count or symbol of positive weight, distinct
  positions) and its board made again by the rules (what a chosen position shows, the kept
  symbol, every source symbol upgraded); the wins of the board shown paid by the reference's
  evaluator; the orbs it shows starting the respins, replayed by the rules.
"""

from __future__ import annotations

import itertools
import json
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from modifiers_reference import modified_law, outcomes, window_win
from test_hold_and_win import small_specs
from test_modifiers import _cases as _modifier_cases
from test_modifiers import _modifier_dict
from test_modifiers import _text as _modifier_text
from test_stake_modes import read_books, read_index, read_rows, replay_hold_and_win, table_rtp

import slotmath
from slotmath.exact.modifiers import modifier_table
from slotmath.io.toml_loader import loads_game
from slotmath.publish import export_stake, refusal, verify_stake

ROOT = Path(__file__).resolve().parents[1]
GAME = ROOT / "tests/data/stake_modifiers.toml"

# the fixture's rules, written out for the reference (not read from the loaded game)
SPEC = {
    "rows": 2, "bet": 2, "ways": False, "wild": "W", "lines": [[0, 0, 0], [1, 1, 1]],
    "pays": {"A": {3: 5}, "B": {2: 1, 3: 2}},
    "strips": [["X", "O", "A", "B"], ["O", "X", "B", "W"], ["B", "O", "A", "X"]],
}
MODIFIERS = {
    "dynamite": (Fraction(1, 5), {"kind": "place", "symbol": "W", "counts": {1: 2, 2: 1},
                                  "keep": {"O"}}),
    "pickaxe": (Fraction(1, 7), {"kind": "place", "symbol": "O", "counts": {1: 3, 2: 1}}),
    "tnt": (Fraction(1, 10), {"kind": "upgrade", "from": {"X"}, "to": {"A": 1, "B": 2}}),
}
TRIGGER = 3


def paid_win(columns) -> Fraction:
    return Fraction(window_win(columns, SPEC), len(SPEC["lines"]))


def board(strips, stops) -> list[list[str]]:
    return [[s[(stop + r) % len(s)] for r in range(SPEC["rows"])]
            for s, stop in zip(strips, stops)]


@pytest.fixture(scope="module")
def exported(tmp_path_factory):
    from hold_and_win_reference import reference_start_law

    game = slotmath.load_game(GAME)
    out = tmp_path_factory.mktemp("modifiers") / "export"
    export_stake(game, out)
    means = {h: sum((w * p for w, p in reference_start_law(game.hold_and_win, h).items()),
                    Fraction(0)) for h in range(TRIGGER, 7)}
    return game, out, means


def reference_rtp(means) -> Fraction:
    """Every stop combination x every modifier outcome (none with 1 - the frequencies)."""
    strips = SPEC["strips"]
    none = 1 - sum(f for f, _ in MODIFIERS.values())
    choices = [(none, None)] + list(MODIFIERS.values())
    total = Fraction(0)
    n = 0
    for stops in itertools.product(*(range(len(s)) for s in strips)):
        n += 1
        for f, m in choices:
            for p, shown in outcomes(board(strips, stops), m):
                count = sum(col.count("O") for col in shown)
                total += f * p * (paid_win(shown) + (means[count] if count >= TRIGGER else 0))
    return total / n


def test_the_table_rtp_is_the_brute_force_rtp(exported):
    game, out, means = exported
    exact = reference_rtp(means)
    assert slotmath.analyze(game).rtp == exact
    # every check but Stake's approval rules (the fixture's RTP is far above 98 %)
    checks = verify_stake(out).checks
    assert all(c.passed for c in checks if "approval" not in c.source), checks
    (mode,) = json.loads((out / "report.json").read_text())["modes"]
    (entry,) = read_index(out)["modes"]
    bound = mode["rtp_error_bound"]
    assert bound < 1e-12
    assert abs(table_rtp(read_rows(out, "base"), entry["cost"]) - exact) <= Fraction(bound)
    # the report counts the books by kind, a modified paid spin's apart (by its modifier event)
    books = read_books(out, "base")
    kinds: dict[str, int] = {}
    for b in books:
        names = [e["name"] for e in b["events"] if e["type"] == "modifier"]
        kind = "paid spin" if not any(e["type"].startswith("holdAndWin")
                                      for e in b["events"]) else "hold_and_win"
        kind += f" under {names[0]}" if names else ""
        kinds[kind] = kinds.get(kind, 0) + 1
    assert mode["books"]["by_kind"] == kinds
    assert any("under" in k for k in kinds)


def replay_modifier(event: dict, window: list[list[str]], modifiers=None) -> list[list[str]]:
    """The board a ``modifier`` event shows, made again from the rules and its draw
    (``modifiers``: name -> (frequency, rules), default the Stake Modifiers fixture's)."""
    f, m = (modifiers or MODIFIERS)[event["name"]]
    assert Fraction(event["frequency"]) == f and event["kind"] == m["kind"]
    shown = [list(col) for col in window]
    if m["kind"] == "upgrade":
        assert m["to"].get(event["symbol"], 0) > 0
        shown = [[event["symbol"] if s in m["from"] else s for s in col] for col in shown]
    else:
        chosen = [(p["reel"], p["row"]) for p in event["positions"]]
        assert len(set(chosen)) == len(chosen) == event["count"]
        assert m["counts"].get(event["count"], 0) > 0
        for j, r in chosen:
            assert 0 <= j < len(window) and 0 <= r < len(window[j])
            if shown[j][r] not in m.get("keep", ()):
                shown[j][r] = m["symbol"]
    assert [[c["name"] for c in col] for col in event["board"]] == shown
    changed = {(j, r) for j, col in enumerate(window) for r, s in enumerate(col)
               if shown[j][r] != s}
    assert {(c["reel"], c["row"]) for c in event["changed"]} == changed
    return shown


def test_every_book_is_a_round_of_the_rules(exported):
    game, out, _ = exported
    rows, books = read_rows(out, "base"), read_books(out, "base")
    assert [(b["id"], b["payoutMultiplier"]) for b in books] == [(i, p) for i, _, p in rows]
    kinds: dict[str, int] = {}
    started = 0
    for b in books:
        events = b["events"]
        reveal = events[0]
        assert reveal["type"] == "reveal"
        window = board(SPEC["strips"], reveal["stops"])
        assert [[c["name"] for c in col] for col in reveal["board"]] == window
        acted = [e for e in events if e["type"] == "modifier"]
        assert len(acted) <= 1
        shown = replay_modifier(acted[0], window) if acted else window
        name = acted[0]["name"] if acted else "none"
        kinds[name] = kinds.get(name, 0) + 1
        won = paid_win(shown)
        paid = [e for e in events if e["type"] == "setWin"]
        assert (Fraction(paid[0]["amount"], 100) if paid else 0) == won
        count = sum(col.count("O") for col in shown)
        if any(e["type"] == "holdAndWinTrigger" for e in events):
            assert count >= TRIGGER
            started += 1
            cells = {(j, r) for j, col in enumerate(shown) for r, s in enumerate(col)
                     if s == "O"}
            won += replay_hold_and_win(game, events, count, cells)
        else:
            assert count < TRIGGER
        assert 100 * won == b["payoutMultiplier"] == events[-1]["amount"]
    assert started > 50 and kinds.get("dynamite", 0) > 10, kinds


def test_every_key_of_the_mixed_table_has_a_spin_of_the_rules():
    """The paid spins' player finds a spin for every key of the mixed paid table (plain
    and each modifier's, the whole cycle visited), and each plays, by the reference's rules,
    the orbs and the win of its key."""
    from slotmath.publish.books import players

    a = slotmath.analyze(slotmath.load_game(GAME))
    paid, _ = players(a)
    paid.sample()
    table = a.round.base
    assert paid.found() == set(table.weights)
    assert all(s.complete for s in paid.spins)
    cpb = table.credits_per_bet

    def check(key, events, shown, name):
        window = board(SPEC["strips"], events[0]["stops"])
        acted = [e for e in events if e["type"] == "modifier"]
        assert [e["name"] for e in acted] == ([] if name == "none" else [name])
        replayed = replay_modifier(acted[0], window) if acted else window
        assert [list(c) for c in shown] == replayed
        assert sum(col.count("O") for col in replayed) == key[0]
        assert paid_win(replayed) == Fraction(key[-1], cpb)

    played = {"none": 0}
    for key in sorted(table.weights):  # as the books play them: a plain spin when one shows it
        events, shown = paid.play(key)
        name = next((e["name"] for e in events if e["type"] == "modifier"), "none")
        played[name] = played.get(name, 0) + 1
        check(key, events, shown, name)
    for spins in paid.spins:  # every key of each modifier's own table, by that modifier
        assert set(spins.found) == spins.table_keys
        for key in sorted(spins.found):
            check(key, *spins.events(key, 0), spins.modifier.name)
    # Pickaxe alone shows 4 or 5 orbs, Dynamite pays wins the strips cannot show
    assert played["dynamite"] and played["pickaxe"] and played["none"], played


def test_tampered_modifier_books_fail_the_replay(exported):
    """The replay can fail: a position the draw did not choose, an upgrade to a symbol of
    weight 0, a kept orb blown up."""
    _, out, _ = exported
    books = read_books(out, "base")
    b = next(b for b in books if any(e["type"] == "modifier" and e["kind"] == "place"
                                     for e in b["events"]))
    window = board(SPEC["strips"], b["events"][0]["stops"])
    event = next(e for e in b["events"] if e["type"] == "modifier")
    replay_modifier(event, window)
    moved = dict(event, positions=[{"reel": (p["reel"] + 1) % 3, "row": p["row"]}
                                   for p in event["positions"]])
    with pytest.raises(AssertionError):
        replay_modifier(moved, window)
    upgraded = {"name": "tnt", "kind": "upgrade", "frequency": "1/10", "symbol": "W",
                "board": event["board"], "changed": []}
    with pytest.raises(AssertionError):
        replay_modifier(upgraded, window)


def test_refusals_left(tmp_path):
    """Modifiers acting in free spins have no player yet (its free spins' player plays no
    modifier); Gus's Gold Christmas is no longer refused."""
    path = tmp_path / "game.toml"
    text = GAME.read_text().replace('keep = ["O"]', 'keep = ["O"]\nin_free_spins = true')
    text = text.replace("X  = {}", "X  = {}\nS  = { scatter = true }")
    path.write_text(text.replace("[hold_and_win]", '[free_spins]\ntrigger = "S"\n'
                                 "awards = { 3 = 2 }\n\n[hold_and_win]", 1))
    why = refusal(slotmath.load_game(path))
    assert "modifiers acting on free spins (dynamite)" in why and "\n" not in why
    assert refusal(slotmath.load_game(GAME)) is None
    assert refusal(slotmath.load_game(ROOT / "data/games/gus_gold_christmas.toml")) is None


# -- hold & win with boosters (tests/data/stake_boosters.toml), with Pickaxe and TNT

BOOSTED = ROOT / "tests/data/stake_boosters.toml"
BOOSTED_SPEC = {
    "rows": 1, "bet": 1, "ways": False, "wild": "W", "lines": [[0, 0]],
    "pays": {"A": {2: 2}, "B": {2: 1}},
    "strips": [["O", "A", "X", "B"], ["A", "O", "X", "X", "B"]],
}
BOOSTED_MODIFIERS = {
    "pickaxe": (Fraction(1, 4), {"kind": "place", "symbol": "O", "counts": {1: 1}}),
    "tnt": (Fraction(1, 10), {"kind": "upgrade", "from": {"X"}, "to": {"A": 1, "B": 1}}),
}
# the fixture's hold & win, written out: 2 reels x 1 row growing to 2, respins 2, cash 1/3
RULES = {"reels": 2, "rows": 1, "respins": 2, "values": {1: 2, 5: 1}, "prize": 3,
         "boosters": {"rows": {"collect": 2, "times": 1}, "values": {"collect": 1, "times": 2},
                      "respins": {"collect": 2, "times": 1, "extra": 1},
                      "multiplier": {"collect": 1, "ladder": [2, 3]}}}
LADDER = [1, 5]  # the values, in order: a value step moves one rung up (never past the top)


def boosted_round_law(game) -> dict[Fraction, Fraction]:
    """The paid round's exact law: every stop combination x every modifier outcome
    (modifiers_reference) and the reference's exact law of the respins for the orbs shown."""
    from hold_and_win_reference import reference_start_law

    strips = BOOSTED_SPEC["strips"]
    none = 1 - sum(f for f, _ in BOOSTED_MODIFIERS.values())
    choices = [(none, None)] + list(BOOSTED_MODIFIERS.values())
    starts = {h: reference_start_law(game.hold_and_win, h) for h in (1, 2)}
    law: dict[Fraction, Fraction] = {}
    n = 0
    for stops in itertools.product(*(range(len(s)) for s in strips)):
        n += 1
        for f, m in choices:
            for p, shown in outcomes([[s[stop]] for s, stop in zip(strips, stops)], m):
                paid = Fraction(window_win(shown, BOOSTED_SPEC), 1)
                count = sum(col.count("O") for col in shown)
                for w, q in (starts[count].items() if count else [(0, 1)]):
                    law[paid + w] = law.get(paid + w, Fraction(0)) + f * p * q
    return {a: q / n for a, q in law.items()}


@pytest.fixture(scope="module")
def boosted(tmp_path_factory):
    game = slotmath.load_game(BOOSTED)
    out = tmp_path_factory.mktemp("boosted") / "export"
    export_stake(game, out)
    return game, out, boosted_round_law(game)


def test_boosted_table_against_the_reference_law(boosted):
    """Row by row within 1e-12 (the analysis' law is an FFT of the float chain), every row
    of the law has its row, and the table's RTP is the exact RTP within the stated bound."""
    game, out, law = boosted
    exact = sum((a * q for a, q in law.items()), Fraction(0))
    assert slotmath.analyze(game).rtp == exact
    rows = read_rows(out, "base")
    total = sum(w for _, w, _ in rows)
    assert {p for _, _, p in rows} == {int(100 * a) for a in law}
    assert max(abs(Fraction(w, total) - law[Fraction(p, 100)]) for _, w, p in rows) < 1e-12
    (mode,) = json.loads((out / "report.json").read_text())["modes"]
    assert mode["rows_without_a_book"]["rows"] == 0
    bound = mode["rtp_error_bound"]
    assert bound < 1e-12 and abs(table_rtp(rows, 1) - exact) <= Fraction(bound)
    checks = verify_stake(out).checks
    assert all(c.passed for c in checks if "approval" not in c.source), checks


def replay_boosted(events: list[dict], shown_cells: set, rules=None, ladder=None) -> Fraction:
    """The respins by the rules: gems only of boosters not used up, one of a kind a respin;
    ``collect`` of a kind fire it (a row opens, every held value steps up a rung, the
    respins and their reset grow, the multiplier steps up the ladder); cash lands on empty
    open positions with values of positive weight, resets the respins or one is spent; the
    round goes on only with respins left and an empty position, ends full or out of respins,
    paying the multiplier times the values held (and the prize when full). ``rules`` and
    ``ladder``: the game's (default the Stake Boosters fixture's)."""
    rules, ladder = rules or RULES, ladder or LADDER
    b = rules["boosters"]
    (trigger,) = [e for e in events if e["type"] == "holdAndWinTrigger"]
    held = {(c["reel"], c["row"]): Fraction(c["value"], 100) for c in trigger["held"]}
    assert set(held) == shown_cells and set(held.values()) <= set(rules["values"])
    counters = dict.fromkeys(b, 0)
    fired = dict.fromkeys(b, 0)
    times = {k: v.get("times", len(v.get("ladder", ()))) for k, v in b.items()}
    rows, left, reset, multiplier = rules["rows"], rules["respins"], rules["respins"], 1
    respins = [e for e in events if e["type"] == "respin"]
    for e in respins:
        assert left > 0 and len(held) < rules["reels"] * rows
        done = []
        for kind in e["gems"]:
            assert fired[kind] < times[kind] and e["gems"].count(kind) == 1
            counters[kind] += 1
            if counters[kind] == b[kind]["collect"]:
                counters[kind] = 0
                fired[kind] += 1
                if kind == "rows":
                    rows += 1
                    done.append({"kind": "rows", "rowsOpen": rows})
                elif kind == "values":
                    top = rules.get("top", len(ladder) - 1)  # never past the ceiling
                    held = {g: ladder[max(ladder.index(v), min(ladder.index(v) + 1, top))]
                            for g, v in held.items()}
                elif kind == "respins":
                    left += b[kind]["extra"]
                    reset += b[kind]["extra"]
                else:
                    multiplier = b[kind]["ladder"][fired[kind] - 1]
                    done.append({"kind": "multiplier", "multiplier": multiplier})
        assert e["boosters"] == done
        for c in e["landed"]:
            at = (c["reel"], c["row"])
            assert at not in held and c["reel"] < rules["reels"] and c["row"] < rows
            held[at] = Fraction(c["value"], 100)
            assert held[at] in rules["values"]
        left = reset if e["landed"] else left - 1
        assert e["respinsLeft"] == left and e["multiplier"] == multiplier
    full = len(held) == rules["reels"] * rows
    assert left == 0 or full
    assert any(e["type"] == "fullGrid" for e in events) == full
    (end,) = [e for e in events if e["type"] == "holdAndWinEnd"]
    won = multiplier * (sum(held.values(), Fraction(0)) + (rules["prize"] if full else 0))
    assert Fraction(end["amount"], 100) == won
    return won


def test_boosted_books_are_rounds_of_the_rules(boosted):
    _, out, _ = boosted
    rows, books = read_rows(out, "base"), read_books(out, "base")
    assert [(b["id"], b["payoutMultiplier"]) for b in books] == [(i, p) for i, _, p in rows]
    boosted_books = 0
    for b in books:
        events = b["events"]
        reveal = events[0]
        window = [[s[stop]] for s, stop in zip(BOOSTED_SPEC["strips"], reveal["stops"])]
        assert [[c["name"] for c in col] for col in reveal["board"]] == window
        acted = [e for e in events if e["type"] == "modifier"]
        shown = window
        if acted:
            f, m = BOOSTED_MODIFIERS[acted[0]["name"]]
            assert Fraction(acted[0]["frequency"]) == f
            assert any(s == [[c["name"] for c in col] for col in acted[0]["board"]]
                       for _, s in outcomes(window, m))
            shown = [[c["name"] for c in col] for col in acted[0]["board"]]
            if m["kind"] == "place":
                chosen = {(p["reel"], p["row"]) for p in acted[0]["positions"]}
                assert all(shown[j][r] == "O" for j, r in chosen)
        won = Fraction(window_win(shown, BOOSTED_SPEC), 1)
        cells = {(j, r) for j, col in enumerate(shown) for r, s in enumerate(col) if s == "O"}
        if cells:
            won += replay_boosted(events, cells)
            boosted_books += any(e["type"] == "respin" and e["boosters"] for e in events)
        else:
            assert not any(e["type"] == "holdAndWinTrigger" for e in events)
        assert 100 * won == b["payoutMultiplier"] == events[-1]["amount"]
    assert boosted_books >= 5


def test_boosted_replay_fails_a_tampered_round(boosted):
    """The replay can fail: a gem left out, a multiplier not earned, a landing on a row
    not open."""
    _, out, _ = boosted
    books = read_books(out, "base")
    b = next(b for b in books if any(e["type"] == "respin" and e["boosters"]
                                     for e in b["events"]))
    events = b["events"]
    window = [[s[stop]] for s, stop in zip(BOOSTED_SPEC["strips"], events[0]["stops"])]
    shown = next((e for e in events if e["type"] == "modifier"), {"board": None})["board"]
    shown = window if shown is None else [[c["name"] for c in col] for col in shown]
    cells = {(j, r) for j, col in enumerate(shown) for r, s in enumerate(col) if s == "O"}
    replay_boosted(events, cells)
    i = next(i for i, e in enumerate(events) if e["type"] == "respin" and e["gems"])
    no_gem = [dict(e, gems=[]) if j == i else e for j, e in enumerate(events)]
    with pytest.raises(AssertionError):
        replay_boosted(no_gem, cells)
    end = [dict(e, multiplier=3, amount=3 * e["amount"]) if e["type"] == "holdAndWinEnd"
           else e for e in events]
    with pytest.raises(AssertionError):
        replay_boosted(end, cells)


def test_a_booster_that_never_lands_is_never_fired(tmp_path):
    """A multiplier booster of probability 0: no round the player plays lands its gem, and
    its top total is the unmultiplied one (4 values of 5 and the prize: 23 bets)."""
    from slotmath.publish.hold_and_win import BoostedHoldAndWinPlayer

    path = tmp_path / "game.toml"
    text = BOOSTED.read_text()
    at = text.index("[hold_and_win.boosters.multiplier]")
    path.write_text(text[:at] + text[at:].replace('probability = "1/4"', 'probability = "0"', 1))
    player = BoostedHoldAndWinPlayer(slotmath.load_game(path))
    player.prepare(200)
    totals = player.reachable(1).tolist()
    assert max(totals) == 23
    for t in totals:
        events = player.play(1, t, [["O"], ["A"]], 0)
        assert replay_boosted(events, {(0, 0)}) == t
        assert all("multiplier" not in e.get("gems", ()) for e in events)


# -- Gus's Gold Christmas at full size (marked benchmark: the export takes minutes)

GUS = ROOT / "data/games/gus_gold_christmas.toml"
GUS_LINES = [
    [1, 1, 1, 1, 1], [0, 0, 0, 0, 0], [2, 2, 2, 2, 2], [0, 1, 2, 1, 0], [2, 1, 0, 1, 2],
    [0, 0, 1, 2, 2], [2, 2, 1, 0, 0], [1, 0, 0, 0, 1], [1, 2, 2, 2, 1], [0, 1, 1, 1, 0],
    [2, 1, 1, 1, 2], [1, 0, 1, 2, 1], [1, 2, 1, 0, 1], [0, 1, 0, 1, 0], [2, 1, 2, 1, 2],
    [1, 1, 0, 1, 1], [1, 1, 2, 1, 1], [0, 0, 2, 0, 0], [2, 2, 0, 2, 2], [0, 2, 0, 2, 0],
]
GUS_PAYS = {"GUS": {3: 50, 4: 150, 5: 500}, "MULE": {3: 30, 4: 100, 5: 300},
            "LANTERN": {3: 20, 4: 75, 5: 200}, "PAN": {3: 15, 4: 50, 5: 150},
            "A": {3: 10, 4: 25, 5: 100}, "K": {3: 8, 4: 20, 5: 80}, "Q": {3: 5, 4: 15, 5: 60},
            "J": {3: 5, 4: 12, 5: 50}}
GUS_VALUES = [1, 2, 3, 5, 7, 10, 15, 20, 25, 30, 40, 50, 100, 200, 300, 500, 750, 1000]
GUS_RULES = {"reels": 5, "rows": 3, "respins": 3, "values": dict.fromkeys(GUS_VALUES, 1),
             "prize": 0,
             "boosters": {"rows": {"collect": 3, "times": 3}, "values": {"collect": 3, "times": 3},
                          "respins": {"collect": 3, "times": 1, "extra": 1},
                          "multiplier": {"collect": 3, "ladder": [2, 3, 5]}}}
GUS_MODIFIERS = {
    "dynamite": (Fraction(1, 300), {"kind": "place", "symbol": "WILD",
                                    "counts": {3: 5, 4: 3, 5: 1}, "keep": {"NUGGET"}}),
    "pickaxe": (Fraction(1, 400), {"kind": "place", "symbol": "NUGGET",
                                   "counts": {1: 5, 2: 3, 3: 1}}),
    "tnt": (Fraction(1, 1000), {"kind": "upgrade", "from": {"A", "K", "Q", "J"},
                                "to": {"GUS": 1, "MULE": 2, "LANTERN": 3, "PAN": 4}}),
}


def replay_gus_books(directory: Path) -> dict[str, int]:
    """Every book of a Gus export replayed by the rules written out above (the strips read
    from the game file, nothing else): the board at its stops, the modifier's board, the
    line wins by the reference's evaluator, the respins with boosters; each must pay its
    payout. Returns counts by kind."""
    game = slotmath.load_game(GUS)
    strips = [list(r.symbols) for r in game.reel_sets["base"].reels]
    spec = {"ways": False, "wild": "WILD", "lines": GUS_LINES, "pays": GUS_PAYS}
    rows, books = read_rows(directory, "base"), read_books(directory, "base")
    assert [(b["id"], b["payoutMultiplier"]) for b in books] == [(i, p) for i, _, p in rows]
    counts: dict[str, int] = {}
    for b in books:
        events = b["events"]
        reveal = events[0]
        window = [[s[(stop + r) % len(s)] for r in range(3)]
                  for s, stop in zip(strips, reveal["stops"])]
        assert [[c["name"] for c in col] for col in reveal["board"]] == window
        acted = [e for e in events if e["type"] == "modifier"]
        shown = replay_modifier(acted[0], window, GUS_MODIFIERS) if acted else window
        won = Fraction(window_win(shown, spec), len(GUS_LINES))
        cells = {(j, r) for j, col in enumerate(shown) for r, s in enumerate(col)
                 if s == "NUGGET"}
        kind = acted[0]["name"] if acted else "plain"
        if len(cells) >= 5:
            won += replay_boosted(events, cells, GUS_RULES, GUS_VALUES)
            kind += " + hold & win"
            fired = {f["kind"] for e in events if e["type"] == "respin" for f in e["boosters"]}
            for f in sorted(fired):
                counts[f"fired {f}"] = counts.get(f"fired {f}", 0) + 1
        else:
            assert not any(e["type"] == "holdAndWinTrigger" for e in events)
        counts[kind] = counts.get(kind, 0) + 1
        # the payout is the round's win rounded to the nearest tenth (a tie to the even one)
        tenths = won * 10
        assert abs(tenths - b["payoutMultiplier"] // 10) <= Fraction(1, 2), (b["id"], won)
        assert b["payoutMultiplier"] == events[-1]["amount"]
    return counts


@pytest.mark.benchmark
def test_gus_export_every_book_replayed(tmp_path):
    out = tmp_path / "gus"
    export_stake(slotmath.load_game(GUS), out)
    checks = verify_stake(out).checks
    failed = {c.name for c in checks if not c.passed}
    assert failed <= {"max win more often than 1 in 10,000,000"}, checks
    counts = replay_gus_books(out)
    # every total up to 30 x 1000 bets needs no multiplier: the scripts open rows instead
    assert counts["plain + hold & win"] > 1000 and counts["fired rows"] > 1000, counts


def _rules_of(spec) -> tuple[dict, list]:
    """A hold & win spec's rules as :func:`replay_boosted` reads them."""
    boosters = {b.kind: {"collect": b.collect, "times": b.times, "extra": b.extra,
                         "ladder": list(b.ladder)} for b in spec.boosters}
    rules = {"reels": spec.reels, "rows": spec.rows, "respins": spec.respins,
             "values": {v: w for v, w in zip(spec.values, spec.value_weights) if w},
             "prize": spec.full_grid_prize, "boosters": boosters, "top": spec.top_index}
    return rules, list(spec.values)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_specs())
def test_random_boosted_rounds_are_real_and_pay_their_total(spec):
    """On random small grids with boosters: every total the player says a round started
    with one held can pay is one the reference's exact law gives positive probability, and
    the round it plays for it pays it by the rules. Without a respins booster and with every
    value of positive weight, the player reaches every total of the law."""
    from types import SimpleNamespace

    from hold_and_win_reference import reference_start_law

    from slotmath.publish.hold_and_win import BoostedHoldAndWinPlayer

    if not spec.boosters:
        return
    player = BoostedHoldAndWinPlayer(SimpleNamespace(name="random", hold_and_win=spec))
    cpb = player.credits_per_bet
    law = reference_start_law(spec, 1)
    support = {int(w * cpb) for w, q in law.items() if q}
    player.prepare(max(support))
    reached = set(player.reachable(1).tolist())
    assert reached <= support
    rules, ladder = _rules_of(spec)
    start = {(0, 0)}
    for t in sorted(reached):
        events = player.play(1, t, None, 0)
        assert replay_boosted(events, start, rules, ladder) * cpb == t
    if spec.booster("respins") is None and all(spec.value_weights):
        assert reached == support, sorted(support - reached)


def _reference_key(shown, spec) -> tuple[int, Fraction]:
    """(scatters S shown, win in total bets) of a board, as modifiers_reference pays it."""
    unit = len(spec["lines"]) if not spec["ways"] else spec["bet"]
    scatters = sum(col.count("S") for col in shown)
    table = spec.get("scatter_pays", {})
    scatter = table.get(scatters, 0)
    if table and scatters > max(table):
        scatter = table[max(table)]
    return scatters, Fraction(window_win(shown, spec), unit) + scatter


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_modifier_cases())
def test_random_small_games_every_modified_spin_is_found_and_replays(case):
    """On random small games and modifiers (test_modifiers' cases): visiting every stop
    combination with every outcome, the keys found are the brute force's support, and each
    key's spin, replayed by the reference (its board one of the modifier's outcomes of the
    window at its stops), shows that key."""
    from slotmath.evaluate.window import PayModel
    from slotmath.publish.modifiers import ModifierSpins

    spec, m, _ = case
    game = loads_game(_modifier_text(spec))
    table = modifier_table(game, m, count_symbol="S")
    model = PayModel(game, 1)
    spins = ModifierSpins(game, 1, "base", m, (("S", sum(game.rows)),), model, table.weights)
    spins.enumerate()
    cpb = model.credits_per_bet
    law = modified_law(spec, _modifier_dict(m), "S")
    assert {(c, Fraction(x, cpb)) for c, x in spins.found} == {k for k, p in law.items() if p}
    rule = _modifier_dict(m)
    for key in spins.found:
        events, shown = spins.events(key, 0)
        stops = events[0]["stops"]
        window = [[s[(stop + r) % len(s)] for r in range(spec["rows"])]
                  for s, stop in zip(spec["strips"], stops)]
        assert [[c["name"] for c in col] for col in events[0]["board"]] == window
        board_shown = [[c["name"] for c in col] for col in events[1]["board"]]
        assert board_shown == [list(c) for c in shown]
        assert any(board_shown == b for _, b in outcomes(window, rule))
        assert _reference_key(board_shown, spec) == (key[0], Fraction(key[1], cpb))
