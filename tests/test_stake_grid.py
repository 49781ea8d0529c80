"""The Stake Engine export of the simulated grid games (issue 26 item 1): Cluster Crush, Sugar
Tumble and Megaways Bonanza, each from a short seeded simulation (``rounds=``, as
``export-stake --rounds``).

The written files are read back with plain ``csv``/``json``/``zstandard`` and compared with
paths that share no code with the export:

* every book's boards against the reel strips at its stops, every drop's win and removed
  cells against the brute-force reference's evaluator (``tests/grid_reference.py``, written
  from docs/game-format.md alone), the free spins awarded against the game's awards, the
  multiplier symbols' values against the declared values, and the round's whole win (drops,
  multiplier symbols, scatters, free spins, cap) put together here from those against the
  book's final win and its row's payout;
* the table's RTP (from the CSV) against the analysis' simulated estimate (the simulator's
  own sums): within the change the report states, that change at most half a 0.1x step, and
  with ``keep-rtp`` equal to it exactly;
* ``verify-stake`` on each export.
"""

from __future__ import annotations

import csv
import dataclasses
import json
import math
from fractions import Fraction
from pathlib import Path

import grid_reference as ref
import pytest
import zstandard

import slotmath
from slotmath.cli import main
from slotmath.publish import export_stake, round_amount, verify_stake
from slotmath.simulate import _grid_kernels as gk

ROOT = Path(__file__).resolve().parents[1]
#: short simulations: enough rounds for free spins and tumbles to show in the books
GAMES = {"cluster_crush": 20_000, "sugar_tumble": 40_000, "megaways_bonanza": 12_000}
SEED = 5
#: the approval rules a short sample may miss (its RTP is noisy): everything else must pass
SAMPLE_RULES = ("RTP between 90% and 98%", "modes' RTPs within 0.5% of each other")


def _game(name: str):
    return slotmath.load_game(ROOT / f"data/games/{name}.toml")


@pytest.fixture(scope="module", params=list(GAMES))
def exported(request, tmp_path_factory):
    name = request.param
    game = _game(name)
    out = tmp_path_factory.mktemp(name) / "export"
    e = export_stake(game, out, rounds=GAMES[name], seed=SEED)
    short = dataclasses.replace(game, analysis=dataclasses.replace(
        game.analysis, rounds=GAMES[name], seed=SEED))
    return name, game, short, out, e


def _table(out: Path) -> list[tuple[int, int, int]]:
    with open(out / "lookUpTable_base_0.csv", newline="") as f:
        return [tuple(int(x) for x in row) for row in csv.reader(f)]


def _books(out: Path) -> list[dict]:
    with open(out / "books_base.jsonl.zst", "rb") as f, \
            zstandard.ZstdDecompressor().stream_reader(f) as raw:
        return [json.loads(line) for line in raw.read().decode().splitlines() if line]


def _exact(event: dict, name: str = "amount") -> Fraction:
    if name + "Exact" in event:
        return Fraction(event[name + "Exact"])
    return Fraction(event[name], 100)


def _board(event: dict):
    columns = [[cell["name"] for cell in col] for col in event["board"]]
    top = {x["reel"]: x["name"] for x in event.get("topReel", [])}
    return columns, top


def _cells(removed) -> set:
    return {(c["reel"], c["row"]) for c in removed}


def replay(game, events: list[dict]) -> Fraction:
    """The round's win put together from its events, every board evaluated by the reference
    (see the module notes); asserts each step on the way."""
    fs, m, t = game.free_spins, game.multipliers, game.tumbles
    scatters = [n for n, s in game.symbols.items() if s.scatter]
    counted = fs.trigger if fs is not None else (scatters[0] if len(scatters) == 1 else None)
    spins = []
    columns = top = values = None
    pending = None
    for e in events:
        kind = e["type"]
        if kind == "reveal":
            columns, top = _board(e)
            free = e["gameType"] == "freegame"
            reels = game.reel_sets[e["reelSet"]].reels
            for j, (col, stop) in enumerate(zip(columns, e["stops"])):
                strip = reels[j].symbols
                assert col == [strip[(stop + r) % len(strip)] for r in range(len(col))]
            if top:
                strip = game.grid.top_reel.strips[e["reelSet"]].symbols
                covered = sorted(top)
                assert [top[j] for j in covered] == [strip[(e["topStop"] + i) % len(strip)]
                                                     for i in range(len(covered))]
            values = e.get("multipliers", [])
            spins.append({"free": free, "seq": Fraction(0), "factor": 1, "drops": 0})
            pending = None
        elif kind == "winInfo" and "drop" in e:
            win, removed = ref.drop_win(game, columns, top)
            assert win and _exact(e, "totalWin") == win * e["multiplier"]
            rule = t.rule(spins[-1]["free"]) if t is not None else None
            assert rule is None or e["multiplier"] in {rule.value(i) for i in range(400)}
            spins[-1]["seq"] += win * e["multiplier"]
            spins[-1]["drops"] += 1
            pending = {(j, r) for j, r in removed}
        elif kind == "tumble":
            assert _cells(e["removed"]) == pending
            before = columns
            columns, top = _board(e)
            for j, (old, new) in enumerate(zip(before, columns)):
                survivors = [s for r, s in enumerate(old) if (j, r) not in pending]
                assert len(new) == len(old) and new[len(new) - len(survivors):] == survivors
            values = e.get("multipliers", [])
            pending = None
        elif kind == "multiplierWin":
            shown = ref.count_of(columns, top, m.symbol)
            assert shown == e["multipliers"] == len(values) > 0
            table = m.table(spins[-1]["free"])
            assert all(v["value"] in table for v in values)
            combined = [v["value"] for v in values]
            expected = sum(combined) if m.combine == "add" else math.prod(combined)
            assert e["value"] == expected
            spins[-1]["factor"] = e.get("runningTotal", e["value"])
    # the free spins played: the awards of the paid spin's final board, then retriggers
    total = Fraction(0)
    awarded = 0
    finals = _final_boards(events)
    for i, (spin, (columns, top)) in enumerate(zip(spins, finals)):
        scatter = sum((ref._scatter_pay(dict(game.symbols[s].pays), ref.count_of(columns, top,
                                                                                  s))
                       for s in scatters), Fraction(0))
        trig = ref.count_of(columns, top, counted) if counted else 0
        if not spin["free"]:
            assert i == 0
            total += spin["seq"] * spin["factor"] + scatter
            awarded = fs.award_for(trig) if fs is not None else 0
            if fs is not None and fs.max_spins is not None:
                awarded = min(awarded, fs.max_spins)
        else:
            total += (spin["seq"] * spin["factor"]
                      + (scatter if fs.scatter_pays else 0)) * fs.multiplier
            more = fs.retrigger_for(trig) if fs.retrigger else 0
            if fs.max_spins is not None:
                more = min(more, fs.max_spins - awarded)
            awarded += max(more, 0)
    assert sum(s["free"] for s in spins) == awarded
    cap = game.cap_coins(1)
    if cap is not None:
        total = min(total, Fraction(cap) / game.total_bet(1))
    return total


def _final_boards(events):
    """Each spin's final board (its last reveal or tumble)."""
    out = []
    for e in events:
        if e["type"] == "reveal":
            out.append(_board(e))
        elif e["type"] == "tumble":
            out[-1] = _board(e)
    return out


def test_every_book_is_a_round_the_reference_pays(exported):
    name, game, _, out, _ = exported
    rows = _table(out)
    books = _books(out)
    assert [b["id"] for b in books] == [i for i, _, _ in rows]
    kinds = set()
    for (i, _, payout), book in zip(rows, books):
        assert book["payoutMultiplier"] == payout
        events = book["events"]
        assert events[0]["type"] == "simulatedRound" and events[0]["seed"] == SEED
        win = replay(game, events)
        final = next(e for e in events if e["type"] == "setTotalWin")
        assert _exact(final) == win, (name, i)
        assert payout // 10 in round_amount(win, "nearest"), (name, i, win, payout)
        assert events[-1] == {"index": len(events) - 1, "type": "finalWin", "amount": payout}
        kinds |= {e["type"] for e in events}
    assert "tumble" in kinds
    if game.free_spins is not None:
        assert {"freeSpinTrigger", "updateFreeSpin", "freeSpinEnd"} <= kinds
    if game.multipliers is not None:
        assert "multiplierWin" in kinds


def test_table_rtp_against_the_simulated_estimate(exported):
    name, _, short, out, e = exported
    rows = _table(out)
    total = sum(w for _, w, _ in rows)
    rtp = Fraction(sum(w * p for _, w, p in rows), 100 * total)
    a = e.modes["base"].analysis  # the export's analysis: its simulator's own sums
    assert a.game.analysis == short.analysis
    sim = next(r for r in a.features.values() if getattr(r, "simulation", None)).simulation
    assert total == GAMES[name] == sim.rounds  # the weights are counts of the rounds
    estimate = Fraction(int(sim.sums.ints[0, gk.WIN]), sim.rounds * sim.credits_per_bet)
    assert float(estimate) == pytest.approx(float(a.rtp), rel=1e-12)
    report = json.loads((out / "report.json").read_text())["modes"][0]
    stated = Fraction(report["rtp_change"]["total"]["exact"])
    assert rtp - estimate == stated
    assert abs(rtp - estimate) <= Fraction(1, 20)  # nearest moves no win by more than 0.05x
    assert report["simulated"]["rounds"] == sim.rounds and report["simulated"]["seed"] == SEED
    assert report["simulated"]["std_error"] == pytest.approx(sim.rtp.std_error, rel=1e-12)


def test_verify_passes_but_the_sample_rules(exported):
    _, _, _, out, _ = exported
    result = verify_stake(out)
    failed = [c.name for c in result.checks if not c.passed]
    assert set(failed) <= set(SAMPLE_RULES), result.text()
    names = {c.name for c in result.checks}
    assert "table RTP against the simulated RTP of report.json" in names


def test_keep_rtp_table_is_the_estimate_exactly(tmp_path):
    game = _game("cluster_crush")
    e = export_stake(game, tmp_path / "x", rounds=5000, seed=3, rounding="keep-rtp")
    rows = _table(tmp_path / "x")
    rtp = Fraction(sum(w * p for _, w, p in rows), 100 * sum(w for _, w, _ in rows))
    sim = e.modes["base"].law
    a = slotmath.analyze(dataclasses.replace(game, analysis=dataclasses.replace(
        game.analysis, rounds=5000, seed=3)))
    owner = next(r for r in a.features.values() if getattr(r, "simulation", None))
    assert rtp == Fraction(int(owner.simulation.sums.ints[0, gk.WIN]),
                           5000 * owner.simulation.credits_per_bet)
    assert sim.rounds == 5000


def test_cli_rounds_and_seed(tmp_path, capsys):
    out = tmp_path / "cli"
    code = main(["export-stake", str(ROOT / "data/games/sugar_tumble.toml"), "--out", str(out),
                 "--rounds", "3000", "--seed", "2"])
    text = capsys.readouterr().out
    assert code == 0 and "3,000 simulated rounds, seed 2" in text
    assert len(_table(out)) == len(_books(out))
    # rounds for a game whose law is not simulated: one line, exit 2
    code = main(["export-stake", str(ROOT / "data/games/classic_3reel.toml"), "--out",
                 str(tmp_path / "no"), "--rounds", "10"])
    err = capsys.readouterr().err
    assert code == 2 and len(err.strip().splitlines()) == 1 and "[analysis]" in err


def test_a_player_that_pays_otherwise_stops_the_export(tmp_path, monkeypatch):
    from slotmath.publish import grid

    real = grid.GridRoundPlayer._pay

    def doubled(self, name, count, reached):  # a player with one pay wrong
        pay = real(self, name, count, reached)
        return 2 * pay if name == "L3" else pay
    monkeypatch.setattr(grid.GridRoundPlayer, "_pay", doubled)
    with pytest.raises(AssertionError, match="disagree on round"):
        export_stake(_game("cluster_crush"), tmp_path / "x", rounds=3000, seed=1)
    assert not (tmp_path / "x").exists()


def test_an_exact_grid_game_is_refused_in_one_line():
    from slotmath.publish import refusal

    why = refusal(slotmath.load_game(ROOT / "tests/data/grid/cluster_tiny.toml"))
    assert why is not None and "\n" not in why and "analysed exact" in why


def test_the_players_stream_is_the_simulators():
    """The plain player's xoshiro256** draws against the simulator's compiled ones, from one
    seeded state, over draws of every size the games use."""
    import numpy as np
    from numba import njit

    from slotmath.publish.grid import Xoshiro
    from slotmath.simulate.grid import _states

    @njit
    def draws(s, sizes):
        out = np.zeros(len(sizes), np.int64)
        for i in range(len(sizes)):
            out[i] = gk.below(s, sizes[i])
        return out

    state = _states(np.random.SeedSequence(11), 1)[0]
    sizes = np.array([1, 2, 3, 7, 60, 80, 100, 1000, 2**31 - 1, 2**32 - 5] * 300, np.int64)
    x = Xoshiro(state.tolist())
    assert draws(state.copy(), sizes).tolist() == [x.below(int(n)) for n in sizes]
