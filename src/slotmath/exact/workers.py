"""Worker processes for the exact engines that split a full cycle into parts.

The engines (cascade chains, modifier tables) compile their kernels in this process and hand
:func:`map_parts` their prepared arrays (``shared``); it puts them in this module's global and
then *forks*: the children inherit both, so nothing is pickled or compiled again. A lock
makes two threads that run parts at once take turns with that global. Where fork is not available (Windows) the parts run in
this process instead, the same tables, only slower.

Python 3.12 warns when a process with threads forks (a thread may hold a lock the child then
waits on forever). Ours has threads when a ``parallel=True`` kernel has run (numba's
OpenMP/TBB pool) or under Jupyter; the children run only single-threaded compiled kernels
and NumPy, compiled before the fork, so that warning is silenced here and only
here.
"""

from __future__ import annotations

import multiprocessing
import os
import threading
import warnings
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor

from slotmath import parallel

__all__ = ["default_workers", "map_parts"]


def default_workers() -> int:
    """Workers to cut the work for: the current executor's worker slots
    (:func:`slotmath.parallel.worker_count`), else the cores, at most 2 (the machines this runs
    on); 1 inside a part already running on a worker."""
    if parallel.in_chunk():
        return 1
    if parallel.current() is not None:
        return parallel.worker_count()
    return min(os.cpu_count() or 1, 2)


_SHARED: list = []  # what the running map_parts hands its forked workers
_SHARED_LOCK = threading.Lock()


def map_parts(fn: Callable, parts: Iterable, workers: int, shared=None) -> Iterator:
    """``fn(shared, part)`` for every part, in order: through the current executor when there
    is one (:func:`slotmath.parallel.current`), else over ``workers`` forked processes when
    ``workers > 1`` and fork exists, else here.

    ``fn`` must be a module-level function, with every kernel it calls already compiled;
    ``shared`` (the prepared arrays) reaches the children by the fork, never pickled.

    Examples
    --------
    >>> list(map_parts(lambda sign, x: sign * x, [-1, 2, -3], 1, shared=-1))
    [1, -2, 3]
    """
    parts = list(parts)
    if parallel.current() is not None and not parallel.in_chunk():
        yield from parallel.iter_chunks(fn, parts, shared=shared)
        return
    if (workers <= 1 or len(parts) <= 1 or parallel.in_chunk()
            or multiprocessing.current_process().daemon
            or "fork" not in multiprocessing.get_all_start_methods()):
        for part in parts:
            yield fn(shared, part)
        return
    with _SHARED_LOCK:  # held until every child has run: they read _SHARED
        _SHARED[:] = [shared]
        ex = ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("fork"))
        try:
            with warnings.catch_warnings():  # the children are forked at the first submissions
                warnings.filterwarnings("ignore", message=r".*fork\(\) may lead to deadlocks",
                                        category=DeprecationWarning)
                futures = [ex.submit(_in_child, fn, part) for part in parts]
            for future in futures:
                yield future.result()
        finally:
            ex.shutdown(cancel_futures=True)
            _SHARED.clear()


def _in_child(fn: Callable, part):
    return fn(_SHARED[0], part)
