"""Backward induction over a hold & win sized chain, side by side with a sparse LU solve.

Builds a random chain of 650,000 states in topological order, shaped like a hold & win
respin chain: from each state one "no coin" move to the next state (one respin fewer) and
10-30 "coins land" moves to later states (more cells filled), the rest of each row
absorbing. Times, in one run:
* slotmath.markov.sparse.backward_induction (mean, second moment, zero probability), with
  and without its input checks (median of repeated runs, after the JIT load);
* scipy.sparse.linalg.spsolve on the same (I - Q) v = reward system (mean only) in natural
  column order (no fill-in, since I - Q is triangular), and
  scipy.sparse.linalg.spsolve_triangular, which knows the system is triangular;
* spsolve with its default column order (COLAMD) on the chain's leading 5,000 states only:
  the reordering fills in so much that the whole chain is out of reach (10,000 states take
  about a minute, 50,000 about seven);
and checks that the answers agree.

Run: python benchmarks/bench_sparse_chains.py [n_states]
"""

from __future__ import annotations

import statistics
import sys
import time

import numpy as np
import scipy.sparse as sp
from scipy.sparse.linalg import spsolve, spsolve_triangular

from slotmath.markov.sparse import backward_induction


def hold_and_win_shaped(n: int, rng: np.random.Generator) -> tuple[sp.csr_array, np.ndarray]:
    """Random topologically ordered chain: row i moves to i + 1 and to 10-30 later states."""
    jumps = rng.integers(10, 31, size=n)
    rows = np.repeat(np.arange(n), jumps)
    # Coins land: a jump forward of up to ~2 fill levels' worth of states.
    cols = rows + rng.integers(2, 4000, size=rows.size)
    vals = rng.random(rows.size)
    keep = cols < n
    rows, cols, vals = rows[keep], cols[keep], vals[keep]
    step = np.arange(n - 1)
    rows = np.concatenate([rows, step])
    cols = np.concatenate([cols, step + 1])
    vals = np.concatenate([vals, np.full(n - 1, 0.0)])
    Q = sp.coo_array((vals, (rows, cols)), shape=(n, n)).tocsr()
    # Per row: coins with total probability 0.3, no coin 0.6, absorbed 0.1 (last states: more).
    coin_mass = Q.sum(axis=1)
    scale = np.divide(0.3, coin_mass, out=np.zeros(n), where=coin_mass > 0)
    Q = (sp.diags_array(scale) @ Q).tocsr()
    no_coin = sp.coo_array((np.full(n - 1, 0.6), (step, step + 1)), shape=(n, n))
    Q = (Q + no_coin).tocsr()
    reward = rng.integers(0, 5, size=n).astype(float)
    return Q, reward


def timed(fn, repeat: int):
    times, out = [], None
    for _ in range(repeat):
        t0 = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times), out


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 650_000
    rng = np.random.default_rng(2026)
    t0 = time.perf_counter()
    Q, reward = hold_and_win_shaped(n, rng)
    t_build = time.perf_counter() - t0
    rows = Q.sum(axis=1)
    print(f"chain: {n:,} states, {Q.nnz:,} transitions "
          f"({Q.nnz / n:.1f} per state), rows sum to {rows.min():.3f}..{rows.max():.3f} "
          f"(the rest absorbs); built in {t_build:.2f} s")

    backward_induction(Q[:100, :100], reward[:100])  # JIT load
    t_checked, result = timed(lambda: backward_induction(Q, reward), 5)
    t_kernel, _ = timed(lambda: backward_induction(Q, reward, check=False), 5)
    print(f"backward induction (mean, 2nd moment, P(0)), checked  {t_checked * 1e3:9.1f} ms")
    print(f"backward induction, check=False (kernel + set-up)     {t_kernel * 1e3:9.1f} ms")

    A = (sp.eye_array(n, format="csr") - Q).tocsr()
    t0 = time.perf_counter()
    v_tri = spsolve_triangular(A, reward, lower=False)
    t_tri = time.perf_counter() - t0
    print(f"scipy spsolve_triangular (mean only)                  {t_tri * 1e3:9.1f} ms"
          f"   ratio {t_tri / t_checked:6.1f} x")
    A_csc = A.tocsc()
    t0 = time.perf_counter()
    v_lu = spsolve(A_csc, reward, permc_spec="NATURAL")
    t_lu = time.perf_counter() - t0
    print(f"scipy spsolve (SuperLU, natural order, mean only)     {t_lu * 1e3:9.1f} ms"
          f"   ratio {t_lu / t_checked:6.1f} x")
    for name, v in (("spsolve", v_lu), ("spsolve_triangular", v_tri)):
        err = np.max(np.abs(v - result.mean) / np.maximum(np.abs(v), 1))
        print(f"  max relative difference of the means vs {name}: {err:.1e}")

    # spsolve's default column order (COLAMD) destroys the triangular shape and fills in:
    # measured on the leading block only (at 10,000 states it already takes about a minute).
    m = min(n, 5_000)
    head, head_reward = Q[:m, :m].tocsr(), reward[:m]
    t_head, head_result = timed(lambda: backward_induction(head, head_reward), 5)
    t0 = time.perf_counter()
    v_head = spsolve((sp.eye_array(m, format="csr") - head).tocsc(), head_reward)
    t_colamd = time.perf_counter() - t0
    err = np.max(np.abs(v_head - head_result.mean) / np.maximum(np.abs(v_head), 1))
    print(f"\nleading {m:,} states only: backward induction {t_head * 1e3:.2f} ms, "
          f"scipy spsolve (default COLAMD order) {t_colamd * 1e3:,.0f} ms, "
          f"ratio {t_colamd / t_head:,.0f} x; max relative difference {err:.1e}")

if __name__ == "__main__":
    main()
