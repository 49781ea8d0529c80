"""slotmath.executor: the chunked work on a Dask LocalCluster (2 processes, 1 thread each)
gives exactly the figures of the run in this process (the same Fractions, the same integer
tables), and the modifier table also equals the brute force written from the rules
(tests/modifiers_reference.py). Simulations in seed streams are the same on 1 worker and on
2, and agree with the exact figures. The CLI's --workers and --dask end to end, and their
one-line refusals."""

from __future__ import annotations

import dataclasses
import json
import logging
import socket
import subprocess
import sys
from fractions import Fraction

import numpy as np
import pytest
from distributed import Client, LocalCluster, get_task_stream
from modifiers_reference import modified_law
from test_modifiers import BIG, BIG_DYNAMITE, _modifier_dict, _text

import slotmath
from slotmath import parallel
from slotmath.cli import main
from slotmath.exact.cascades import cascade_law
from slotmath.exact.modifiers import modifier_table
from slotmath.io.toml_loader import loads_game
from slotmath.report import analysis_dict
from slotmath.simulate.grid import simulate_grid

TINY = "data/games/tiny_lines.toml"
CASCADE = "tests/data/cascades/tiny_bonus.toml"
LINK = "tests/data/link_modes.toml"  # hold & win solved exactly, laws one start count a chunk


def _cluster(n: int):
    # dashboard_address=":0": any free port, so no "port 8787 is already in use" warning when
    # another cluster (another test worker, another user) holds it
    cluster = LocalCluster(n_workers=n, threads_per_worker=1, processes=True,
                           dashboard_address=":0", silence_logs=logging.ERROR)
    return cluster, Client(cluster)


@pytest.fixture(scope="module")
def client():
    cluster, client = _cluster(2)
    yield client
    client.close()
    cluster.close()


def _on_workers(client, run):
    """``run()`` under the client, and the workers its chunks ran on (none if no chunk went)."""
    with get_task_stream(client) as stream, slotmath.executor(client):
        out = run()
    return out, {t["worker"] for t in stream.data if t["key"].startswith("_run_chunk")}


def _fields(obj) -> dict:
    return {f.name: getattr(obj, f.name) for f in dataclasses.fields(obj)}


def _figures(analysis):
    """The exact figures, the paid spin's integer histogram, and the whole JSON report."""
    base = analysis.base_distribution
    return (analysis.rtp, analysis.variance, analysis.hit_frequency, base.credits.tolist(),
            base.weights.tolist(), json.dumps(analysis_dict(analysis), default=str))


def test_lines_full_cycle_on_two_workers_equals_in_process(client):
    game = slotmath.load_game(TINY)
    table = slotmath.spin_table(game)
    ref = _figures(slotmath.analyze(game))
    assert isinstance(ref[0], Fraction)
    (got_table, got), workers = _on_workers(
        client, lambda: (slotmath.spin_table(game), _figures(slotmath.analyze(game))))
    assert len(workers) == 2  # the reel-1 stops were cut into chunks run on both
    assert got == ref
    assert got_table.cycle == table.cycle
    assert np.array_equal(got_table.weights, table.weights)


def test_cascade_chains_on_two_workers_equal_in_process(client):
    game = slotmath.load_game(CASCADE)
    law, ref = cascade_law(game), _figures(slotmath.analyze(game))
    (got_law, got), workers = _on_workers(
        client, lambda: (cascade_law(game), _figures(slotmath.analyze(game))))
    assert workers
    assert _fields(got_law) == _fields(law)  # every integer table of the law, key by key
    assert got == ref


def test_hold_and_win_laws_on_two_workers_equal_in_process(client):
    game = slotmath.load_game(LINK)
    ref = _figures(slotmath.analyze(game))
    got, workers = _on_workers(client, lambda: _figures(slotmath.analyze(game)))
    assert workers
    assert got == ref


def test_sticky_wild_states_with_progress_on_two_workers_equal_in_process(client):
    """The free-spin states' spins in chunks; the progress reporter stays here (it does not
    pickle) and still hears every stage."""
    game = slotmath.load_game("tests/data/free_spin_state/tiny_sticky.toml")
    heard, heard_here = [], []
    ref = _figures(slotmath.analyze(game, progress=lambda *a: heard_here.append(a[0])))
    got, workers = _on_workers(client, lambda: _figures(
        slotmath.analyze(game, progress=lambda *a: heard.append(a[0]))))
    assert workers
    assert got == ref
    assert set(heard) == set(heard_here) and heard


def test_random_wild_spin_law_on_two_workers_equals_in_process(client, monkeypatch):
    from slotmath.exact.random_wilds import WildSpinLaw

    monkeypatch.setenv("SLOTMATH_CACHE", "off")  # computed, not read from the table store
    game = slotmath.load_game("tests/data/conveyor_tiny.toml")
    here = WildSpinLaw(game, "base")._all_rows
    got, workers = _on_workers(client, lambda: WildSpinLaw(game, "base")._all_rows)
    assert workers
    assert got.dtype == here.dtype and np.array_equal(got, here)


def test_modifier_table_on_two_workers_equals_the_brute_force(client, tmp_path, monkeypatch):
    monkeypatch.setenv("SLOTMATH_CACHE_DIR", str(tmp_path))  # computed, not read back
    game = loads_game(_text(BIG))
    here = modifier_table(game, BIG_DYNAMITE, count_symbol="S", workers=1)
    monkeypatch.setenv("SLOTMATH_CACHE_DIR", str(tmp_path / "again"))
    t, workers = _on_workers(client, lambda: modifier_table(game, BIG_DYNAMITE,
                                                            count_symbol="S"))
    assert len(workers) == 2
    assert t.weights == here.weights and t.cycle == here.cycle
    cpb = t.credits_per_bet
    law = {(c, Fraction(cr, cpb)): Fraction(w, t.cycle) for (c, cr), w in t.weights.items()}
    assert law == modified_law(BIG, _modifier_dict(BIG_DYNAMITE), "S")


def test_simulation_streams_are_the_same_on_one_and_two_workers(client):
    game = slotmath.load_game(TINY)
    args = (game, 240_000, 11)
    here = parallel.simulate_streams(*args, stream_rounds=40_000, executor=parallel.InProcess())
    two, workers = _on_workers(client, lambda: parallel.simulate_streams(
        *args, stream_rounds=40_000))
    assert len(workers) == 2
    cluster1, one = _cluster(1)
    try:
        with slotmath.executor(one):
            single = parallel.simulate_streams(*args, stream_rounds=40_000)
    finally:
        one.close()
        cluster1.close()
    assert single == two == here
    # six independent streams pooled: the exact figures within their errors
    exact = slotmath.analyze(game)
    assert two.spins == 240_000
    assert abs(two.rtp - float(exact.rtp)) < 4 * two.std_error
    assert abs(two.std / float(exact.std) - 1) < 0.05
    assert abs(two.hit_frequency - float(exact.hit_frequency)) < 0.01
    assert abs(sum(two.components.values()) - two.rtp) < 1e-12
    # another seed is another sample
    other = parallel.simulate_streams(game, 240_000, 12, stream_rounds=40_000,
                                      executor=parallel.InProcess())
    assert other.rtp != two.rtp


def test_grid_blocks_on_two_workers_are_the_blocks_in_process(client):
    game = slotmath.load_game("tests/data/grid/cluster_tiny.toml")
    here = simulate_grid(game, rounds=200_000, seed=9)
    got, workers = _on_workers(client, lambda: simulate_grid(game, rounds=200_000, seed=9))
    assert workers
    assert got == here  # every sum array, element by element
    assert float(got.rtp) == float(here.rtp) and got.rtp.std_error == here.rtp.std_error


def test_cli_workers_2_end_to_end(capsys):
    assert main(["analyze", TINY, "--json"]) == 0
    ref = json.loads(capsys.readouterr().out)
    assert main(["analyze", TINY, "--json", "--workers", "2"]) == 0
    assert json.loads(capsys.readouterr().out) == ref


def test_cli_dask_nobody_listens_is_one_line_exit_2(capsys, monkeypatch):
    with socket.socket() as s:  # a port that was free a moment ago
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    monkeypatch.setattr(parallel, "CONNECT_TIMEOUT", 2.0)
    assert main(["simulate", TINY, "--spins", "1000", "--seed", "1",
                 "--dask", f"tcp://127.0.0.1:{port}"]) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and "Traceback" not in err
    assert err.startswith(f"slotmath: error: --dask: no Dask scheduler answers at "
                          f"tcp://127.0.0.1:{port} within 2 s")


def test_without_dask_one_line_says_what_to_install(capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)  # import distributed fails
    assert main(["analyze", TINY, "--workers", "2"]) == 2
    err = capsys.readouterr().err.strip()
    assert err == ("slotmath: error: --workers: Dask distributed is not installed: pip install "
                   "'slotmath[dask]' (or 'dask[distributed]')")
    assert main(["analyze", TINY, "--workers", "0"]) == 2
    assert "--workers: workers must be >= 1, got 0" in capsys.readouterr().err
    assert main(["analyze", TINY, "--workers", "2", "--dask", "tcp://x:1"]) == 2
    assert "not allowed with argument" in capsys.readouterr().err


def test_importing_and_analysing_never_imports_dask():
    code = ("import sys, slotmath, slotmath.parallel; "
            f"slotmath.analyze(slotmath.load_game({TINY!r})).rtp; "
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('dask', 'distributed')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == "[]"


def test_jackpot_pools_are_not_cut_into_streams():
    game = slotmath.load_game("data/games/gold_money_frog.toml")
    with slotmath.executor(parallel.InProcess()), pytest.raises(
            ValueError, match="progressive jackpots carry their pools"):
        slotmath.simulate(game, 1000, seed=1)
    with pytest.raises(ValueError, match="give one of"), slotmath.executor():
        pass
