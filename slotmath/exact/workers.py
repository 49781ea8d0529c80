"""Worker processes for the exact engines that split a full cycle into parts.

The engines (cascade chains, modifier tables) compile their kernels in this process, put
their prepared arrays in a module global and then *fork*: the children inherit both, so
nothing is pickled or compiled again. Where fork is not available (Windows) the parts run in
this process instead, the same tables, only slower.

Python 3.12 warns when a process with threads forks (a thread may hold a lock the child then
waits on forever). Ours has threads when a ``parallel=True`` kernel has run (numba's
OpenMP/TBB pool) or under Jupyter; the children run only single-threaded compiled kernels
and NumPy, compiled before the fork (``ready``), so that warning is silenced here and only
here.
"""

from __future__ import annotations

import multiprocessing
import os
import warnings
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor

__all__ = ["default_workers", "map_parts"]


def default_workers() -> int:
    """Worker processes to use: the cores, at most 2 (the machines this runs on)."""
    return min(os.cpu_count() or 1, 2)


def map_parts(fn: Callable, parts: Iterable, workers: int) -> Iterator:
    """``fn(part)`` for every part, in order: over ``workers`` forked processes when
    ``workers > 1`` and fork exists, else here.

    ``fn`` must be a module-level function reading what the parent prepared before the call
    (a module global), with every kernel it calls already compiled.

    Examples
    --------
    >>> list(map_parts(abs, [-1, 2, -3], 1))
    [1, 2, 3]
    """
    parts = list(parts)
    if workers <= 1 or len(parts) <= 1 or "fork" not in multiprocessing.get_all_start_methods():
        yield from map(fn, parts)
        return
    ex = ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("fork"))
    try:
        with warnings.catch_warnings():  # the children are forked at the first submissions
            warnings.filterwarnings("ignore", message=r".*fork\(\) may lead to deadlocks",
                                    category=DeprecationWarning)
            futures = [ex.submit(fn, part) for part in parts]
        for future in futures:
            yield future.result()
    finally:
        ex.shutdown(cancel_futures=True)
