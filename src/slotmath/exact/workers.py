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
import pickle
import threading
import warnings
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor

from slotmath import parallel

__all__ = ["Background", "default_workers", "map_parts"]


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


class Background:
    """``fn(*args)`` computed in a forked child while this process goes on; :meth:`result`
    waits for it (the child's answer, pickled back through a pipe, or its exception raised
    here). Where fork is not available, inside a chunk already running on a worker, or when
    the child could not answer (killed), :meth:`result` computes it here instead: the same
    answer, only not beside the rest.

    The child sees this process as it was at the fork (nothing is pickled to it): ``fn`` must
    only read what is computed already (what it computes itself is lost with the child) and
    write nothing but its answer. Like :func:`map_parts`' workers, it is forked while this
    process may have threads (a progress bar's monitor): it runs compiled kernels and NumPy
    only, and leaves by ``os._exit`` (no exit handlers, no flush of this process' buffers).

    Examples
    --------
    >>> Background(sum, [1, 2, 3]).result()
    6
    """

    def __init__(self, fn: Callable, *args):
        self.fn, self.args = fn, args
        self.pid = None
        self.read = None
        if (parallel.in_chunk() or parallel.current() is not None
                or multiprocessing.current_process().daemon or not hasattr(os, "fork")):
            return
        read, write = os.pipe()
        with warnings.catch_warnings():
            warnings.filterwarnings("ignore", message=r".*fork\(\) may lead to deadlocks",
                                    category=DeprecationWarning)
            pid = os.fork()
        if pid == 0:  # the child: its answer (or its error) down the pipe, and out
            os.close(read)
            code = 0
            try:
                try:
                    answer = (True, fn(*args))
                except Exception as exc:  # noqa: BLE001 - raised again in the parent
                    answer = (False, exc)
                with os.fdopen(write, "wb") as out:
                    pickle.dump(answer, out, protocol=pickle.HIGHEST_PROTOCOL)
            except BaseException:  # noqa: BLE001 - the parent computes it itself
                code = 1
            finally:
                os._exit(code)
        os.close(write)
        self.pid, self.read = pid, read

    def __del__(self):  # never read: the child is reaped, its pipe closed
        if getattr(self, "pid", None) is not None:
            os.close(self.read)
            os.waitpid(self.pid, 0)

    def result(self):
        if self.pid is None:
            return self.fn(*self.args)
        pid, self.pid = self.pid, None
        try:
            with os.fdopen(self.read, "rb") as src:
                ok, answer = pickle.load(src)
        except (EOFError, pickle.UnpicklingError, OSError):  # the child died: compute here
            os.waitpid(pid, 0)
            return self.fn(*self.args)
        os.waitpid(pid, 0)
        if not ok:
            raise answer
        return answer
