"""The Stake Engine export of game modes (issue 26 item 1, ``[modes.NAME]``): one lookup table
and one books file per mode, ``index.json`` with each mode's cost.

Stake's unit: a mode's ``payoutMultiplier`` is the round's payout in hundredths of the base
bet, and its RTP is ``E[payout] / cost``. Every figure is read back from the files with plain
``csv``/``json``/``zstandard`` and compared with a path that shares nothing with the export:

* each mode's RTP recomputed from its table, against the mode's exact RTP worked out by hand
  and by brute force in this file (Stake Modes: the bought feature's mean 740/189 from Tiny
  Lines' notes; the ante reels' paid spin enumerated here with the plain evaluator), within
  the bound the report states;
* the books of the ante mode: boards against the ante strips at their stops, wins paid again
  by the plain evaluator; of the bonus buy: a ``bonusBuy`` start with the count of the
  declared law and no paid spin, every free spin's board against the free strips, their wins
  adding up to the payout;
* the Link fixture (its books are replayed in tests/test_stake_link.py), its modes' laws
  against the analysis' exact mode RTPs, and Stake's RTP rule failing on its 1157 %;
* a hold & win game with a bonus buy of the respins and an ante
  (``tests/data/stake_hold_and_win.toml``): each mode's table against the exact RTP from
  ``tests/hold_and_win_reference.py`` (a plain recursion over every landing), the bought
  round's table row by row against the reference's laws, and every book's respins replayed
  by the rules.
"""

from __future__ import annotations

import csv
import io
import itertools
import json
from fractions import Fraction
from pathlib import Path

import pytest
import zstandard

import slotmath
from slotmath.cli import main
from slotmath.evaluate.window import PayModel
from slotmath.publish import export_stake, lookup_table, refusal, verify_stake
from slotmath.publish.law import export_law
from slotmath.report.compliance import check

ROOT = Path(__file__).resolve().parents[1]
MODES = ROOT / "tests/data/stake_modes.toml"
LINK = ROOT / "tests/data/link_modes.toml"

# Tiny Lines' notes (data/games/tiny_lines.toml), worked by hand: a feature of 3 free spins
# pays 740/189 bets on average; the base game's RTP is 411/448.
FEATURE_MEAN = Fraction(740, 189)
BASE_RTP = Fraction(411, 448)
BUY_COST, ANTE_COST = Fraction(17, 4), Fraction(119, 100)


def read_index(directory: Path) -> dict:
    return json.loads((directory / "index.json").read_text())


def read_rows(directory: Path, mode: str) -> list[tuple[int, int, int]]:
    text = (directory / f"lookUpTable_{mode}_0.csv").read_text()
    return [tuple(int(x) for x in row) for row in csv.reader(io.StringIO(text))]


def read_books(directory: Path, mode: str) -> list[dict]:
    data = (directory / f"books_{mode}.jsonl.zst").read_bytes()
    with zstandard.ZstdDecompressor().stream_reader(io.BytesIO(data)) as reader:
        text = reader.read().decode("utf-8")
    return [json.loads(line) for line in text.splitlines() if line]


def table_rtp(rows, cost) -> Fraction:
    """Stake's RTP of a mode: the mean payout (hundredths of the base bet) over the cost (as
    the decimal index.json writes: 1.19 is 119/100, not the float nearest to it)."""
    total = sum(w for _, w, _ in rows)
    return Fraction(sum(w * p for _, w, p in rows), 100 * total) / Fraction(str(cost))


def window_at(reels, stops, rows) -> list[list[str]]:
    return [[r.symbols[(s + row) % len(r.symbols)] for row in range(n)]
            for r, s, n in zip(reels, stops, rows)]


def ante_rtp_by_hand(game) -> Fraction:
    """The ante mode's RTP: its paid spin enumerated on the ante reels with the plain
    evaluator, plus P(3 scatters) x the feature's hand-worked mean, over the cost."""
    model = PayModel(game, 1)
    reels = game.reel_sets["ante"].reels
    total, started, n = 0, 0, 0
    for stops in itertools.product(*(range(len(r.symbols)) for r in reels)):
        window = tuple(tuple(c) for c in window_at(reels, stops, game.rows))
        total += model.spin_win(window)
        started += sum(c.count("SC") for c in window) >= 3
        n += 1
    assert n == 9 * 8 * 8 and Fraction(started, n) == Fraction(3, 32)  # (2/3)(3/8)(3/8)
    return (Fraction(total, n * model.credits_per_bet) + Fraction(started, n) * FEATURE_MEAN) \
        / ANTE_COST


@pytest.fixture(scope="module")
def modes_export(tmp_path_factory):
    game = slotmath.load_game(MODES)
    out = tmp_path_factory.mktemp("modes") / "export"
    export_stake(game, out)
    return game, out


def test_every_mode_is_written_with_its_cost(modes_export):
    _, out = modes_export
    assert read_index(out) == {"modes": [
        {"name": name, "cost": cost, "events": f"books_{name}.jsonl.zst",
         "weights": f"lookUpTable_{name}_0.csv"}
        for name, cost in (("base", 1.0), ("buy", 4.25), ("ante", 1.19))]}
    assert sorted(p.name for p in out.iterdir()) == sorted(
        [f"books_{m}.jsonl.zst" for m in ("base", "buy", "ante")]
        + [f"lookUpTable_{m}_0.csv" for m in ("base", "buy", "ante")]
        + ["index.json", "report.json", "report.txt"])


def test_each_mode_s_table_rtp_is_its_exact_rtp(modes_export):
    game, out = modes_export
    by_hand = {"base": BASE_RTP, "buy": FEATURE_MEAN / BUY_COST, "ante": ante_rtp_by_hand(game)}
    assert by_hand["buy"] == Fraction(2960, 3213)  # the fixture's header
    a = slotmath.analyze(game)
    assert {"base": a.rtp, **{n: m.rtp for n, m in a.modes.items()}} == by_hand
    reports = {r["mode"]: r for r in json.loads((out / "report.json").read_text())["modes"]}
    for entry in read_index(out)["modes"]:
        name = entry["name"]
        rtp = table_rtp(read_rows(out, name), entry["cost"])
        bound = reports[name]["rtp_error_bound"]
        assert 0 < bound < 1e-12  # retriggers: an infinite law scaled to 2**63, stated
        assert abs(rtp - by_hand[name]) <= Fraction(bound), name
        assert Fraction(reports[name]["table"]["rtp"]["exact"]) == rtp
        assert Fraction(reports[name]["exact_rtp"]["exact"]) == by_hand[name]
    result = verify_stake(out)  # the verifier reads the files its own way
    assert {n: abs(r - by_hand[n]) < Fraction(1, 10**12) for n, r in result.rtps.items()} == \
        {"base": True, "buy": True, "ante": True}
    failed = [c for c in result.checks if not c.passed]
    # the RTPs (90-98 %) and their spread (0.385 % <= 0.5 %) pass; the top wins, long
    # retrigger chains, are rarer than 1 in 10,000,000 in every mode
    assert {(c.mode, c.name) for c in failed} == {
        (m, "max win more often than 1 in 10,000,000") for m in ("base", "buy", "ante")}, \
        result.text()
    spread = next(c for c in result.checks if c.name.startswith("modes' RTPs"))
    assert spread.passed and f"{float(by_hand['buy'] - by_hand['base']):.6%}" in spread.figure


def test_the_ante_books_are_spins_of_the_ante_reels(modes_export):
    game, out = modes_export
    model = PayModel(game, 1)
    reels = game.reel_sets["ante"].reels
    rows, books = read_rows(out, "ante"), read_books(out, "ante")
    assert [(b["id"], b["payoutMultiplier"]) for b in books] == [(i, p) for i, _, p in rows]
    for b in books:
        reveal = b["events"][0]
        assert reveal["type"] == "reveal" and reveal["reelSet"] == "ante"
        window = window_at(reels, reveal["stops"], game.rows)
        assert [[c["name"] for c in col] for col in reveal["board"]] == window
        paid = Fraction(100 * model.spin_win(tuple(map(tuple, window))), model.credits_per_bet)
        first = next((e for e in b["events"] if e["type"] == "winInfo"), None)
        if paid:
            assert first["totalWin"] == paid
        if not any(e["type"] == "freeSpinTrigger" for e in b["events"]):
            assert paid == b["payoutMultiplier"]
        wins = [w["win"] for e in b["events"] if e["type"] == "winInfo" for w in e["wins"]]
        assert sum(wins) == b["payoutMultiplier"] == b["events"][-1]["amount"]


def test_the_buy_books_are_bought_feature_rounds(modes_export):
    game, out = modes_export
    model = PayModel(game, 1)
    free = game.reel_sets["free"].reels
    rows, books = read_rows(out, "buy"), read_books(out, "buy")
    assert [(b["id"], b["payoutMultiplier"]) for b in books] == [(i, p) for i, _, p in rows]
    for b in books[:200] + books[200::20]:
        events = b["events"]
        assert events[0]["type"] == "bonusBuy" and events[0]["triggerCount"] == 3
        assert events[1]["type"] == "freeSpinTrigger" and events[1]["totalFs"] == 3
        assert not any(e.get("gameType") == "basegame" for e in events)  # no paid spin
        spins = [e for e in events if e["type"] == "reveal"]
        awarded = 3 + 3 * sum(e["type"] == "freeSpinRetrigger" for e in events)
        assert len(spins) == awarded  # every spin awarded is played
        paid = 0
        for e in spins:
            assert e["reelSet"] == "free"
            window = window_at(free, e["stops"], game.rows)
            assert [[c["name"] for c in col] for col in e["board"]] == window
            paid += 2 * model.spin_win(tuple(map(tuple, window)))  # the x2 of the free spins
        assert Fraction(100 * paid, model.credits_per_bet) == b["payoutMultiplier"]


def test_one_mode_on_request(tmp_path):
    game = slotmath.load_game(MODES)
    export_stake(game, tmp_path / "out", modes=["buy"])
    assert [m["name"] for m in read_index(tmp_path / "out")["modes"]] == ["buy"]
    assert not (tmp_path / "out" / "lookUpTable_base_0.csv").exists()
    assert abs(table_rtp(read_rows(tmp_path / "out", "buy"), 4.25) - Fraction(2960, 3213)) \
        < Fraction(1, 10**12)


def test_link_modes_laws_against_the_exact_mode_rtps():
    # the law each mode's table is made from (its books: tests/test_stake_link.py),
    # in bets of the base bet (the analysis' FFT of the round), over the cost, against the
    # mode's exact RTP (its chains' exact means), within the mass the FFT may misplace times
    # the largest amount
    game = slotmath.load_game(LINK)
    assert refusal(game) is None
    a = slotmath.analyze(game)
    for name, m in {"base": a, **a.modes}.items():
        cost = Fraction(1) if name == "base" else Fraction(game.mode(name).cost)
        law = export_law(m)
        probabilities = law.probabilities()
        rtp = sum((x * p for x, p in probabilities.items()), Fraction(0)) / cost
        assert isinstance(m.rtp, Fraction) and m.rtp_error == 0
        bound = law.error_bound * float(max(probabilities)) / float(cost)
        assert 0 < bound < 1e-11 and abs(float(rtp - m.rtp)) <= bound, name
        t = lookup_table(probabilities, "keep-rtp", exact_rtp=m.rtp * cost)
        table = Fraction(sum(k * w for k, w in t.rows), 10 * t.total) / cost
        assert abs(table - m.rtp) < Fraction(1, 10**15), name  # keep-rtp lands on it
    # Stake's RTP rule fails on the fixture's 1157 % (the rule working), one line per mode
    r = check(game, ["stake"], levels=[1])
    rtp_rows = {f.subject: f for f in r.findings if f.rule == "Stake RTP range"}
    assert not rtp_rows["RTP of mode base"].passed
    assert rtp_rows["RTP of mode base"].value == pytest.approx(float(a.rtp))
    assert float(a.rtp) > 11


@pytest.mark.parametrize("change, says", [
    (("cost = 4.25", "cost = \"13/3\""), "not a decimal that index.json's cost"),
    (("[modes.ante]", "[modes.base]"), "would take the name of the standard game's mode"),
])
def test_modes_stake_cannot_hold_are_refused_in_one_line(tmp_path, change, says):
    path = tmp_path / "game.toml"
    path.write_text(MODES.read_text().replace(*change))
    why = refusal(slotmath.load_game(path))
    assert says in why and "\n" not in why
    assert main(["export-stake", str(path), "--out", str(tmp_path / "x")]) == 2
    assert not (tmp_path / "x").exists()


def test_an_unknown_mode_is_one_line(tmp_path, capsys):
    code = main(["export-stake", str(MODES), "--out", str(tmp_path / "x"), "--mode", "bonus"])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and "base, buy, ante" in err


# -- hold & win (tests/data/stake_hold_and_win.toml), against tests/hold_and_win_reference.py

HOLD = ROOT / "tests/data/stake_hold_and_win.toml"


def amount(event: dict, name: str) -> Fraction:
    exact = event.get(name + "Exact")
    return Fraction(exact) if exact else Fraction(event[name], 100)


@pytest.fixture(scope="module")
def hold_export(tmp_path_factory):
    from hold_and_win_reference import reference_start_law

    game = slotmath.load_game(HOLD)
    out = tmp_path_factory.mktemp("hold") / "export"
    export_stake(game, out)
    laws = {h: reference_start_law(game.hold_and_win, h) for h in range(3, 7)}
    return game, out, laws


def replay_hold_and_win(game, events: list[dict], held_count: int, shown=None) -> Fraction:
    """The round's respins by the rules: each respin lands on empty positions of the grid
    values of the law, resets the respins when one lands, spends one otherwise; the round
    ends out of respins or full, paying the values held and the prize when full."""
    spec = game.hold_and_win
    allowed = {v for v, w in zip(spec.values, spec.value_weights) if w}
    (trigger,) = [e for e in events if e["type"] == "holdAndWinTrigger"]
    held = {(c["reel"], c["row"]): amount(c, "value") for c in trigger["held"]}
    assert len(held) == held_count and set(held.values()) <= allowed
    if shown is not None:
        assert set(held) == shown  # the cash symbols the paid window showed
    size = spec.reels * spec.rows
    left = spec.respins
    for e in [e for e in events if e["type"] == "respin"]:
        assert left > 0 and len(held) < size  # played only with respins left and room
        for c in e["landed"]:
            at = (c["reel"], c["row"])
            assert at not in held and c["reel"] < spec.reels and c["row"] < spec.rows
            held[at] = amount(c, "value")
            assert held[at] in allowed
        left = spec.respins if e["landed"] else left - 1
        assert e["respinsLeft"] == left
    full = len(held) == size
    assert left == 0 or full  # it ends only then
    assert any(e["type"] == "fullGrid" for e in events) == full
    return sum(held.values(), Fraction(0)) + (spec.full_grid_prize if full else 0)


def hold_rtp_by_reference(game, reel_set: str, laws) -> Fraction:
    """A paid round's mean win: the paid spin over its full cycle by the plain evaluator, and
    the reference's exact hold & win mean for the cash symbols it shows."""
    model = PayModel(game, 1)
    reels = game.reel_sets[reel_set].reels
    total, n = Fraction(0), 0
    for stops in itertools.product(*(range(len(r.symbols)) for r in reels)):
        window = tuple(tuple(c) for c in window_at(reels, stops, game.rows))
        total += Fraction(model.spin_win(window), model.credits_per_bet)
        count = sum(c.count("O") for c in window)
        if count >= 3:
            total += sum((w * p for w, p in laws[count].items()), Fraction(0))
        n += 1
    return total / n


def test_hold_and_win_modes_tables_against_the_reference(hold_export):
    game, out, laws = hold_export
    means = {h: sum((w * p for w, p in law.items()), Fraction(0)) for h, law in laws.items()}
    exact = {"base": hold_rtp_by_reference(game, "base", laws),
             "ante": hold_rtp_by_reference(game, "ante", laws) / Fraction(3, 2),
             "buy_cash": (2 * means[3] + means[4]) / 3 / 15}
    a = slotmath.analyze(game)
    assert {"base": a.rtp, **{n: m.rtp for n, m in a.modes.items()}} == exact
    reports = {r["mode"]: r for r in json.loads((out / "report.json").read_text())["modes"]}
    for entry in read_index(out)["modes"]:
        name = entry["name"]
        rtp = table_rtp(read_rows(out, name), entry["cost"])
        bound = reports[name]["rtp_error_bound"]
        assert bound < 1e-12 and abs(rtp - exact[name]) <= Fraction(bound), name
    # the bought round's table row by row: the reference's laws mixed 2:1 (counts 3 and 4)
    rows = read_rows(out, "buy_cash")
    total = sum(w for _, w, _ in rows)
    mixed: dict[int, Fraction] = {}
    for h, share in ((3, Fraction(2, 3)), (4, Fraction(1, 3))):
        for win, p in laws[h].items():
            mixed[int(100 * win)] = mixed.get(int(100 * win), Fraction(0)) + share * p
    assert {p for _, _, p in rows} == set(mixed)
    assert max(abs(Fraction(w, total) - mixed[p]) for _, w, p in rows) < 1e-12


def test_hold_and_win_books_are_rounds_of_the_rules(hold_export):
    game, out, _ = hold_export
    model = PayModel(game, 1)
    started = 0
    for name in ("base", "ante", "buy_cash"):
        rows, books = read_rows(out, name), read_books(out, name)
        assert [(b["id"], b["payoutMultiplier"]) for b in books] == [(i, p) for i, _, p in rows]
        for b in books:
            events = b["events"]
            if name == "buy_cash":
                assert events[0]["type"] == "bonusBuy" and events[0]["triggerCount"] in (3, 4)
                paid, count, shown = Fraction(0), events[0]["triggerCount"], None
            else:
                reveal = events[0]
                reels = game.reel_sets[reveal["reelSet"]].reels
                assert reveal["reelSet"] == ("ante" if name == "ante" else "base")
                window = window_at(reels, reveal["stops"], game.rows)
                assert [[c["name"] for c in col] for col in reveal["board"]] == window
                paid = Fraction(model.spin_win(tuple(map(tuple, window))), model.credits_per_bet)
                shown = {(j, r) for j, col in enumerate(window) for r, s in enumerate(col)
                         if s == "O"}
                count = len(shown)
            won = paid
            if any(e["type"] == "holdAndWinTrigger" for e in events):
                assert count >= 3
                started += 1
                won += replay_hold_and_win(game, events, count, shown)
            else:
                assert count < 3
            assert 100 * won == b["payoutMultiplier"] == events[-1]["amount"]
    assert started > 100


BOOSTER = 'full_grid_prize = 30\n[hold_and_win.boosters.respins]\nprobability = "1/12"'


def test_hold_and_win_boosters_are_no_longer_refused(tmp_path):
    """Boosters are played (their books: tests/test_stake_modifiers.py)."""
    path = tmp_path / "game.toml"
    path.write_text(HOLD.read_text().replace("full_grid_prize = 30", BOOSTER))
    assert refusal(slotmath.load_game(path)) is None
    assert refusal(slotmath.load_game(ROOT / "data/games/gus_gold_christmas.toml")) is None


def test_losses_disguised_as_wins_per_mode_against_the_reference(hold_export):
    """The compliance check's "losses disguised as wins" per mode, at the mode's stake: the
    bought respins (cost 15 bets) pay 0 < win <= 15 with the reference laws' probability
    (mixed 2:1 over 3 and 4 orbs), not the 1-bet stake of a paid spin."""
    from slotmath import player
    from slotmath.report.compliance import check

    game, _, laws = hold_export
    expected = sum((share * p for h, share in ((3, Fraction(2, 3)), (4, Fraction(1, 3)))
                    for win, p in laws[h].items() if 0 < win <= 15), Fraction(0))
    at_one_bet = sum((share * p for h, share in ((3, Fraction(2, 3)), (4, Fraction(1, 3)))
                      for win, p in laws[h].items() if 0 < win <= 1), Fraction(0))
    assert expected != at_one_bet
    a = slotmath.analyze(game)
    f = player.losses_disguised_as_wins(a.modes["buy_cash"].distribution, 15)
    assert abs(Fraction(f.value) - expected) <= Fraction(f.upper - f.lower) + Fraction(1, 10**12)
    rows = [r for r in check(game, rule_sets=("ukgc",)).findings
            if r.rule == "UKGC losses disguised as wins"]
    assert [r.subject for r in rows] == [
        "rounds paying 0 < win <= stake",
        "rounds paying 0 < win <= stake (mode buy_cash, stake 15 bets)",
        "rounds paying 0 < win <= stake (mode ante, stake 3/2 bets)"]
    assert abs(rows[1].value - float(expected)) < 1e-9
