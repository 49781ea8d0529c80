"""The Stake Engine export (issue 26 item 1): ``slotmath export-stake`` and ``verify-stake``.

Every figure of the written files is read back here with plain ``csv``/``json``/``zstandard``
(none of the writer's code) and compared with an independent path:

* the lookup table's weights of Classic Sevens against brute force (every stop combination
  paid by the plain evaluator), row by row, and its RTP, hit rate and max win against the
  exact analysis;
* the RTP change of rounding to 0.1x on a hand-made game whose pays are not whole tenths,
  against the figures worked out by hand below;
* the books' boards against the reel strips at their stops, their wins against the plain
  evaluator, their payouts against the table, row by row;
* a free-spins game (numerical round law): the table's RTP within the report's stated bound
  of the exact RTP;
* the verifier (``slotmath.publish.verify``, which reads the files only) against the exact
  analysis, and failing on a broken copy.
"""

from __future__ import annotations

import csv
import io
import json
import shutil
from fractions import Fraction
from pathlib import Path

import pytest
import zstandard
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from strategies import small_games

import slotmath
from slotmath.cli import main
from slotmath.evaluate.window import PayModel
from slotmath.exact.brute import brute_force
from slotmath.publish import export_stake, lookup_table, verify_stake
from slotmath.publish.table import WEIGHT_TOTAL_MAX
from slotmath.report.compliance import check

ROOT = Path(__file__).resolve().parents[1]
CLASSIC = ROOT / "data/games/classic_3reel.toml"
TINY = ROOT / "data/games/tiny_lines.toml"
FROG = ROOT / "data/games/gold_money_frog.toml"

# 5 x 5 x 5 = 125 combinations; one line; a three of a kind of A, B, C, D pays 1/4, 7/20, 5,
# 3/40 bets, each with probability 1/125. Rounded to tenths of the bet:
#   nearest (ties to even): 0.25 -> 0.2, 0.35 -> 0.4, 0.075 -> 0.1: change
#       (-0.05 + 0.05 + 0.025) / 125 = +1/5000;
#   down: 0.25 -> 0.2, 0.35 -> 0.3, 0.075 -> 0: change (-0.05 - 0.05 - 0.075) / 125 = -7/5000;
#   keep-rtp: change 0.
QUARTER = """
name = "Quarter"
rows = 1
bet = 1
paylines = [[0, 0, 0]]
[symbols]
A = { pays = { 3 = "1/4" } }
B = { pays = { 3 = "7/20" } }
C = { pays = { 3 = 5 } }
D = { pays = { 3 = "3/40" } }
X = {}
[reels]
base = [["A", "B", "C", "D", "X"], ["A", "B", "C", "D", "X"], ["A", "B", "C", "D", "X"]]
"""
QUARTER_RTP = Fraction(1, 4) + Fraction(7, 20) + 5 + Fraction(3, 40)
QUARTER_RTP /= 125
QUARTER_CHANGE = {"nearest": Fraction(1, 5000), "down": Fraction(-7, 5000),
                  "keep-rtp": Fraction(0)}


# -- reading an export back, with nothing of the writer's ---------------------------------

def read_index(directory: Path) -> dict:
    return json.loads((directory / "index.json").read_text())


def read_rows(directory: Path, mode: str = "base") -> list[tuple[int, int, int]]:
    text = (directory / f"lookUpTable_{mode}_0.csv").read_text()
    return [tuple(int(x) for x in row) for row in csv.reader(io.StringIO(text))]


def read_books(directory: Path, mode: str = "base") -> list[dict]:
    data = (directory / f"books_{mode}.jsonl.zst").read_bytes()
    with zstandard.ZstdDecompressor().stream_reader(io.BytesIO(data)) as reader:
        text = reader.read().decode("utf-8")
    return [json.loads(line) for line in text.splitlines() if line]


def figures(rows) -> tuple[Fraction, Fraction, Fraction, Fraction]:
    """RTP, hit rate, max win (bets) and its probability, from the table's rows."""
    total = sum(w for _, w, _ in rows)
    rtp = Fraction(sum(w * p for _, w, p in rows), 100 * total)
    hit = Fraction(sum(w for _, w, p in rows if p > 0), total)
    top = max(p for _, _, p in rows)
    return rtp, hit, Fraction(top, 100), Fraction(sum(w for _, w, p in rows if p == top), total)


@pytest.fixture(scope="module")
def classic(tmp_path_factory):
    game = slotmath.load_game(CLASSIC)
    out = tmp_path_factory.mktemp("classic") / "export"
    export_stake(game, out)
    return game, out


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    game = slotmath.load_game(TINY)
    out = tmp_path_factory.mktemp("tiny") / "export"
    export_stake(game, out)
    return game, out


def test_the_files_of_the_format(classic):
    _, out = classic
    assert sorted(p.name for p in out.iterdir()) == [
        "books_base.jsonl.zst", "index.json", "lookUpTable_base_0.csv", "report.json",
        "report.txt"]
    assert read_index(out) == {"modes": [{"name": "base", "cost": 1.0,
                                          "events": "books_base.jsonl.zst",
                                          "weights": "lookUpTable_base_0.csv"}]}
    rows = read_rows(out)
    assert [i for i, _, _ in rows] == list(range(len(rows)))
    assert all(p % 10 == 0 and (p == 0 or p >= 10) for _, _, p in rows)
    assert all(0 < w < 2**64 for _, w, _ in rows) and sum(w for _, w, _ in rows) < 2**64
    assert not (out / "lookUpTable_base_0.csv").read_text().startswith("id")  # no header


def test_classic_table_is_brute_force_row_by_row(classic):
    game, out = classic
    brute = brute_force(game)
    expected: dict[int, int] = {}
    for (_, credits), w in brute.weights.items():
        hundredths = Fraction(100 * credits, brute.credits_per_bet)
        assert hundredths.denominator == 1 and hundredths % 10 == 0  # whole tenths: no rounding
        expected[int(hundredths)] = expected.get(int(hundredths), 0) + w
    rows = read_rows(out)
    assert {p: w for _, w, p in rows} == expected
    assert sum(w for _, w, _ in rows) == brute.cycle == 91 * 84 * 87


def test_classic_figures_from_the_table_are_the_exact_analysis(classic):
    game, out = classic
    a = slotmath.analyze(game)
    rtp, hit, top, top_p = figures(read_rows(out))
    assert rtp == a.rtp == Fraction(317035, 332514)  # the file's own comment
    assert hit == a.hit_frequency
    assert top == a.top_award.multiple and top_p == a.top_award.probability
    result = verify_stake(out)  # the verifier reads the same files its own way
    assert result.passed, result.text()
    assert result.rtps == {"base": a.rtp}


def test_classic_books_are_real_rounds(classic):
    game, out = classic
    rows, books = read_rows(out), read_books(out)
    assert [(b["id"], b["payoutMultiplier"]) for b in books] == [(i, p) for i, _, p in rows]
    model = PayModel(game, 1)
    for b in books:
        reveal = b["events"][0]
        assert reveal["type"] == "reveal"
        reels = game.reel_sets[reveal["reelSet"]].reels
        window = tuple(tuple(r.symbols[(s + row) % len(r.symbols)] for row in range(n))
                       for r, s, n in zip(reels, reveal["stops"], game.rows))
        assert [[c["name"] for c in column] for column in reveal["board"]] == \
            [list(column) for column in window]
        won = Fraction(100 * model.spin_win(window), model.credits_per_bet)
        assert won == b["payoutMultiplier"]
        assert b["events"][-1] == {"index": len(b["events"]) - 1, "type": "finalWin",
                                   "amount": b["payoutMultiplier"]}
        wins = [e for e in b["events"] if e["type"] == "winInfo"]
        assert sum(w["win"] for e in wins for w in e["wins"]) == b["payoutMultiplier"]


def test_free_spins_game_within_the_stated_bound(tiny):
    game, out = tiny
    a = slotmath.analyze(game)
    (report,) = json.loads((out / "report.json").read_text())["modes"]
    rtp, hit, _, _ = figures(read_rows(out))
    bound = report["rtp_error_bound"]
    assert 0 < bound < 1e-12  # an infinite law (retriggers): scaled to 2**63, stated
    assert abs(rtp - a.rtp) <= Fraction(bound)
    assert abs(float(hit) - float(a.hit_frequency)) < 1e-12
    assert Fraction(report["table"]["rtp"]["exact"]) == rtp
    books = read_books(out)
    assert [b["payoutMultiplier"] for b in books] == [p for _, _, p in read_rows(out)]
    kinds = {e["type"] for b in books for e in b["events"]}
    assert {"reveal", "winInfo", "finalWin"} <= kinds and len(kinds) > 4  # features' events
    result = verify_stake(out)
    failed = {c.name for c in result.checks if not c.passed}
    # the only rule it breaks is Stake's: its top win (a long retrigger chain) is rarer than
    # 1 in 10,000,000
    assert failed == {"max win more often than 1 in 10,000,000"}, result.text()


@pytest.mark.parametrize("rounding", ["nearest", "down", "keep-rtp"])
def test_rounding_changes_the_rtp_by_the_hand_worked_amount(tmp_path, rounding):
    game = slotmath.loads_game(QUARTER)
    assert slotmath.analyze(game).rtp == QUARTER_RTP
    export_stake(game, tmp_path / "out", rounding=rounding)
    rtp, _, _, _ = figures(read_rows(tmp_path / "out"))
    assert rtp - QUARTER_RTP == QUARTER_CHANGE[rounding]
    (report,) = json.loads((tmp_path / "out" / "report.json").read_text())["modes"]
    assert Fraction(report["rtp_change"]["rounding"]["exact"]) == QUARTER_CHANGE[rounding]
    assert Fraction(report["rtp_change"]["total"]["exact"]) == QUARTER_CHANGE[rounding]
    assert {r: Fraction(v["exact"]) for r, v in report["rounding_changes"].items()} == \
        QUARTER_CHANGE
    text = (tmp_path / "out" / "report.txt").read_text()
    change = QUARTER_CHANGE[rounding]
    assert f"rounding to 0.1x ({rounding}): " in text
    assert ("(exactly 0)" if not change else f"(exactly {change})") in text
    books = read_books(tmp_path / "out")
    rounded = [b for b in books if any(e["type"] == "payoutRounding" for e in b["events"])]
    assert rounded and all(b["events"][-1]["amount"] == b["payoutMultiplier"] for b in books)


# -- random small games (tests/strategies.py) -------------------------------------------

def _rounded(amount: Fraction, rounding: str) -> Fraction:
    """The payout (bets) of a win under nearest / down, by the rule's plain definition."""
    tenths = 10 * amount
    return Fraction(round(tenths) if rounding == "nearest" else tenths // 1, 10)


@settings(max_examples=12, deadline=None, suppress_health_check=list(HealthCheck))
@given(small_games(free_spins=False, max_combinations=3_000),
       st.sampled_from(["nearest", "down", "keep-rtp"]))
def test_exact_games_table_is_brute_force_rounded(tmp_path_factory, game, rounding):
    out = tmp_path_factory.mktemp("generated") / "out"
    export_stake(game, out, rounding=rounding)
    rows = read_rows(out)
    total = sum(w for _, w, _ in rows)
    brute = brute_force(game)
    exact_rtp = brute.mean_bets
    if rounding == "keep-rtp":
        assert figures(rows)[0] == exact_rtp
    else:
        expected: dict[Fraction, Fraction] = {}
        for (_, credits), w in brute.weights.items():
            x = _rounded(Fraction(credits, brute.credits_per_bet), rounding)
            expected[x] = expected.get(x, Fraction(0)) + Fraction(w, brute.cycle)
        assert {Fraction(p, 100): Fraction(w, total) for _, w, p in rows} == {
            x: q for x, q in expected.items() if q}
    checks = verify_stake(out).checks
    assert all(c.passed for c in checks if "approval" not in c.source), checks


@settings(max_examples=10, deadline=None, suppress_health_check=list(HealthCheck))
@given(small_games(free_spins=True, max_combinations=2_000), st.sampled_from(["nearest", "down"]))
def test_free_spins_games_within_the_rounding_of_the_exact_law(tmp_path_factory, game,
                                                              rounding):
    out = tmp_path_factory.mktemp("generated") / "out"
    try:
        export_stake(game, out, rounding=rounding)
    except ValueError as exc:  # a round the books cannot play yet: refused, nothing written
        assert "no export" in str(exc) and "\n" not in str(exc) and not out.exists()
        return
    a = slotmath.analyze(game)
    d = a.distribution
    change = sum(float(_rounded(Fraction(int(c), d.credits_per_bet), rounding)
                       - Fraction(int(c), d.credits_per_bet)) * float(p)
                 for c, p in zip(d.credits, d.probs))
    rtp = figures(read_rows(out))[0]
    assert abs(float(rtp - Fraction(a.rtp)) - change) <= 1e-9 * max(1.0, float(a.rtp))
    books = read_books(out)
    assert [b["payoutMultiplier"] for b in books] == [p for _, _, p in read_rows(out)]
    checks = verify_stake(out).checks
    assert all(c.passed for c in checks if "approval" not in c.source), checks


# -- the lookup table on its own ---------------------------------------------------------

laws = st.dictionaries(
    st.fractions(min_value=0, max_value=50, max_denominator=40),
    st.integers(1, 10**6), min_size=1, max_size=12)


@settings(max_examples=60, deadline=None)
@given(laws)
def test_exact_weights_reproduce_the_rounded_law(weights):
    total = sum(weights.values())
    law = {a: Fraction(w, total) for a, w in weights.items()}
    mean = sum(a * p for a, p in law.items())
    for rounding, rule in (("nearest", lambda x: round(x)), ("down", lambda x: x // 1)):
        t = lookup_table(law, rounding)
        expected: dict[int, Fraction] = {}
        for a, p in law.items():
            k = int(rule(10 * a))
            expected[k] = expected.get(k, Fraction(0)) + p
        assert {k: Fraction(w, t.total) for k, w in t.rows} == {
            k: p for k, p in expected.items() if p}
        assert t.rtp - mean == sum((Fraction(k, 10) - a) * p for a, p in law.items()
                                   for k in [int(rule(10 * a))])
    assert lookup_table(law, "keep-rtp").rtp == mean


def test_scaled_weights_fit_and_keep_rtp_lands_on_the_rtp():
    # denominators whose lcm is far beyond 2**63: the weights are scaled, their sum fixed
    primes = [10**9 + 7, 10**9 + 9, 998244353, 1000000021]
    law = {Fraction(i, 3): Fraction(1, p) for i, p in enumerate(primes, 1)}
    law[Fraction(0)] = 1 - sum(law.values())
    mean = sum(a * p for a, p in law.items())
    near = lookup_table(law, "nearest")
    assert not near.exact_weights and near.total <= WEIGHT_TOTAL_MAX
    assert sum(w for _, w in near.rows) == near.total
    keep = lookup_table(law, "keep-rtp")
    assert sum(w for _, w in keep.rows) == keep.total <= WEIGHT_TOTAL_MAX
    # 10 T R is a whole number only for some T; what is left is below one unit of weight
    assert abs(keep.rtp - mean) <= Fraction(1, 20 * keep.total)
    assert keep.rtp - mean == keep.target_gap


# -- bad input: one line, exit 2; failing checks: exit 1 ----------------------------------

def run(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_cli_help_constants_are_the_library_s():
    from slotmath import cli, publish
    from slotmath.report.player import DEFAULT_ROUNDS, DEFAULT_RUIN

    assert cli.STAKE_ROUNDINGS == publish.ROUNDINGS
    assert cli.PLAYER_ROUNDS == ", ".join(str(n) for n in DEFAULT_ROUNDS)
    assert cli.PLAYER_RUIN == " ".join(f"{b},{n}" for b, n in DEFAULT_RUIN)


def test_cli_export_and_verify(tmp_path, capsys):
    out = tmp_path / "upload"
    code, text, err = run(capsys, "export-stake", CLASSIC, "--out", out, "--rounding",
                          "keep-rtp")
    assert code == 0 and not err
    assert "table RTP - exact RTP: +0.0000000000% (exactly 0)" in text
    assert "all checks pass" in text
    code, text, err = run(capsys, "verify-stake", out)
    assert code == 0 and "FAIL" not in text and not err


@pytest.mark.parametrize("argv, says", [
    (["export-stake", FROG, "--out", "{tmp}/x"], "stateless games only"),
    (["export-stake", CLASSIC, "--out", "{tmp}/x", "--mode", "bonus"], "has the modes base"),
    (["export-stake", CLASSIC, "--out", "{tmp}/x", "--rounding", "up"], "invalid choice"),
    (["export-stake", CLASSIC], "--out"),
    (["export-stake", CLASSIC, "--out", "{tmp}/no/such/folder"], "does not exist"),
    (["export-stake", "{tmp}/missing.toml", "--out", "{tmp}/x"], "missing.toml"),
    (["export-stake", CLASSIC, "--out", "{tmp}/x", "--bet-level", "7"], "bet level 7"),
    (["verify-stake", "{tmp}"], "no index.json"),
])
def test_bad_input_is_one_line_exit_2(tmp_path, capsys, argv, says):
    code, out, err = run(capsys, *(str(a).format(tmp=tmp_path) for a in argv))
    assert code == 2, (out, err)
    assert err.count("\n") == 1 and says in err and "Traceback" not in err
    assert not (tmp_path / "x").exists()


def test_a_non_empty_directory_is_kept(tmp_path, capsys):
    (tmp_path / "keep.txt").write_text("mine")
    code, _, err = run(capsys, "export-stake", CLASSIC, "--out", tmp_path)
    assert code == 2 and "--force" in err and err.count("\n") == 1
    assert [p.name for p in tmp_path.iterdir()] == ["keep.txt"]


def test_the_verifier_fails_a_broken_copy(classic, tmp_path, capsys):
    _, out = classic
    broken = tmp_path / "broken"
    shutil.copytree(out, broken)
    table = broken / "lookUpTable_base_0.csv"
    lines = table.read_text().splitlines()
    i, w, p = lines[1].split(",")
    lines[1] = f"{i},{w},{int(p) + 5}"  # not a multiple of 10, and no longer the book's
    table.write_text("\n".join(lines) + "\n")
    code, text, _ = run(capsys, "verify-stake", broken)
    assert code == 1
    failed = [line for line in text.splitlines() if line.startswith("FAIL")]
    assert any("multiples of 10" in line for line in failed)
    assert any("books' payouts equal the table's" in line for line in failed)
    (broken / "books_base.jsonl.zst").write_bytes(b"not zstandard")
    code, text, _ = run(capsys, "verify-stake", broken)
    assert code == 1 and "not a zstandard stream" in text


def test_the_verifier_fails_an_rtp_out_of_range(tmp_path, capsys):
    export_stake(slotmath.loads_game(QUARTER), tmp_path / "out")
    code, text, _ = run(capsys, "verify-stake", tmp_path / "out")
    assert code == 1
    rtp_line = next(line for line in text.splitlines() if "RTP between 90% and 98%" in line)
    assert rtp_line.startswith("FAIL") and f"{float(QUARTER_RTP + Fraction(1, 5000)):.6%}" \
        in rtp_line


# -- the compliance check's rule set "stake" and the UKGC rows that follow from the maths -----

def test_compliance_stake_rules_and_player_rows_against_brute_force():
    game = slotmath.load_game(CLASSIC)
    brute = brute_force(game)
    cpb = brute.credits_per_bet
    r = check(game, ["ukgc", "stake"], levels=[1])
    rows = {f.rule: f for f in r.findings}
    assert all(f.passed for f in r.findings if f.rule_set == "stake"), r.text()
    top = max(c for _, c in brute.weights)
    top_p = Fraction(sum(w for (_, c), w in brute.weights.items() if c == top), brute.cycle)
    assert Fraction(rows["Stake max win"].probability) == top_p == Fraction(1, 665028)
    hit = Fraction(sum(w for (_, c), w in brute.weights.items() if c > 0), brute.cycle)
    assert Fraction(rows["Stake hit rate"].probability) == hit
    ldw = Fraction(sum(w for (_, c), w in brute.weights.items() if 0 < c <= cpb), brute.cycle)
    assert Fraction(rows["UKGC losses disguised as wins"].probability) == ldw
    assert Fraction(rows["UKGC loss per hour"].probability) == 1440 * (1 - brute.mean_bets)
    assert Fraction(rows["Stake RTP range"].probability) == brute.mean_bets


def test_compliance_stake_rules_fail_where_stake_would():
    r = check(slotmath.load_game(FROG), ["stake"], levels=[1])
    assert [f.rule for f in r.failed] == ["Stake stateless", "Stake max win"], r.text()
    code = main(["check", str(TINY), "--rules", "stake"])
    assert code == 1  # its top win, a long retrigger chain, is rarer than 1 in 10,000,000
