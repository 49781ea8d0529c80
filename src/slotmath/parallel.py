"""One executor for every piece of chunked work: exact tables cut into chunks, simulations cut
into seed streams.

A chunked computation is a module-level *chunk function* ``fn(shared, chunk)`` and a list of
chunks; :func:`map_chunks` returns ``[fn(shared, chunk) for chunk in chunks]`` in chunk order,
computed here or through an executor:

- any :class:`concurrent.futures.Executor` (``submit`` and futures): each chunk is one task,
  ``shared`` travels with it (pickled);
- a Dask ``distributed.Client``: ``shared`` is scattered once to every worker, then one task
  per chunk (``Client.submit``, never cached as pure).

The results come back in chunk order whatever finished first, so the exact engines' integer
tables merge to the same numbers and a simulation's streams add up in the same order on any
number of workers. Chunk functions and their ``shared`` data must pickle: top-level functions,
the game and its prepared arrays as data, no closures over compiled objects.

The *current* executor is set by :func:`executor` (``slotmath.executor``; the CLI's ``--dask
ADDRESS`` and ``--workers N``); :func:`slotmath.exact.workers.map_parts`, which every exact
engine calls, sends its chunks through it, and :func:`slotmath.simulate.simulate` then plays
its rounds in seed streams (:func:`simulate_streams`). Without one, nothing changes: the
engines run here or over their forked pool, the simulators in one stream.

The game's read-only tables are ``types.MappingProxyType`` views, which pickle does not know:
importing this module teaches it (``copyreg``) to send one as a read-only view of a copy of its
dict, which is what the game holds.

Dask is optional (``pip install 'slotmath[dask]'``) and imported only when a cluster is asked
for: ``import slotmath`` never imports it.

Examples
--------
>>> from concurrent.futures import ThreadPoolExecutor
>>> def scaled(k, chunk):
...     return [k * x for x in chunk]
>>> with ThreadPoolExecutor(2) as pool:
...     map_chunks(scaled, [[1, 2], [3], [4, 5]], shared=10, executor=pool)
[[10, 20], [30], [40, 50]]
"""

from __future__ import annotations

import copyreg
import math
import threading
import types
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Executor, Future
from contextlib import contextmanager

import numpy as np

__all__ = [
    "STREAM_ROUNDS",
    "InProcess",
    "current",
    "executor",
    "in_chunk",
    "iter_chunks",
    "map_chunks",
    "simulate_streams",
    "worker_count",
]

#: rounds per seed stream of a simulation run through an executor (the last one shorter); the
#: streams, not the workers, fix the result
STREAM_ROUNDS = 1 << 22

#: seconds to wait for a Dask scheduler (``--dask ADDRESS``) before giving up
CONNECT_TIMEOUT = 10.0

DASK_MISSING = ("Dask distributed is not installed: pip install 'slotmath[dask]' "
                "(or 'dask[distributed]')")



def _mapping_proxy(items: dict) -> types.MappingProxyType:
    return types.MappingProxyType(items)


def _reduce_mapping_proxy(proxy):
    return _mapping_proxy, (dict(proxy),)


copyreg.pickle(types.MappingProxyType, _reduce_mapping_proxy)

_STACK: list = []  # the executors entered with executor(), innermost last
_LOCAL = threading.local()  # .depth > 0 while this thread runs a chunk for map_chunks


class InProcess(Executor):
    """A :class:`concurrent.futures.Executor` that runs each task at once, here (the
    reference the distributed runs are compared with).

    >>> InProcess().submit(pow, 2, 10).result()
    1024
    """

    def submit(self, fn, /, *args, **kwargs) -> Future:
        future: Future = Future()
        try:
            future.set_result(fn(*args, **kwargs))
        except BaseException as exc:  # noqa: BLE001 - handed to the caller by result()
            future.set_exception(exc)
        return future


class _Box:
    """``shared`` wrapped, so that Dask scatters it as one object (a tuple or list would be
    scattered element by element)."""

    __slots__ = ("value",)

    def __init__(self, value):
        self.value = value

    def __getstate__(self):
        return (self.value,)  # never falsy: pickle skips __setstate__ for a falsy state

    def __setstate__(self, state):
        self.value = state[0]


def _run_chunk(fn: Callable, box: _Box, chunk):
    """``fn(shared, chunk)`` on a worker, marked as a chunk: work it cuts further runs here
    (a Dask worker is a daemon process, which may not fork)."""
    _LOCAL.depth = getattr(_LOCAL, "depth", 0) + 1
    try:
        return fn(box.value, chunk)
    finally:
        _LOCAL.depth -= 1


def in_chunk() -> bool:
    """Whether this thread is running a chunk handed out by :func:`map_chunks`."""
    return getattr(_LOCAL, "depth", 0) > 0


def _is_dask(ex) -> bool:
    return hasattr(ex, "scatter") and hasattr(ex, "gather") and hasattr(ex, "scheduler_info")


def current():
    """The executor set by the innermost :func:`executor` block, or None (work runs here).

    >>> current() is None
    True
    """
    return _STACK[-1] if _STACK else None


def worker_count(ex=None) -> int:
    """Worker slots of ``ex`` (default: the current executor): a Dask client's threads over
    its workers, a pool's ``_max_workers``, else 1.

    >>> worker_count(InProcess())
    1
    """
    ex = current() if ex is None else ex
    if ex is None:
        return 1
    if _is_dask(ex):
        return max(1, sum(ex.nthreads().values()))
    return max(1, int(getattr(ex, "_max_workers", 1) or 1))


def map_chunks(fn: Callable, chunks: Iterable, *, shared=None, executor=None) -> list:
    """``[fn(shared, chunk) for chunk in chunks]``, in chunk order, through ``executor``
    (default: :func:`current`; None: here, in order).

    ``fn`` must be a module-level function and ``shared`` must pickle when an executor is
    used; a Dask client receives ``shared`` once per worker (scattered), any other executor
    once per chunk. A chunk that fails raises here, and the chunks not started are cancelled.

    Examples
    --------
    >>> def add(k, x):
    ...     return k + x
    >>> map_chunks(add, [1, 2, 3], shared=10)
    [11, 12, 13]
    >>> map_chunks(add, [1, 2, 3], shared=10, executor=InProcess())
    [11, 12, 13]
    """
    return list(iter_chunks(fn, chunks, shared=shared, executor=executor))


def iter_chunks(fn: Callable, chunks: Iterable, *, shared=None, executor=None) -> Iterator:
    """:func:`map_chunks` one result at a time, in chunk order (for progress reports)."""
    chunks = list(chunks)
    ex = current() if executor is None else executor
    if ex is None:
        for chunk in chunks:
            yield fn(shared, chunk)
        return
    box = _Box(shared)
    if _is_dask(ex):
        box = ex.scatter(box, broadcast=True, hash=False)
        futures = [ex.submit(_run_chunk, fn, box, chunk, pure=False) for chunk in chunks]
    else:
        futures = [ex.submit(_run_chunk, fn, box, chunk) for chunk in chunks]
    try:
        for future in futures:
            yield future.result()
    finally:
        for future in futures:
            future.cancel()


# -- entering an executor ------------------------------------------------------------------

def _distributed():
    try:
        import distributed
    except ImportError:
        raise ValueError(DASK_MISSING) from None
    return distributed


@contextmanager
def executor(target=None, *, dask: str | None = None, workers: int | None = None,
             timeout: float | None = None):
    """Run the chunked work of the block through one executor (``slotmath.executor``).

    Parameters
    ----------
    target : concurrent.futures.Executor or distributed.Client, optional
        Used as it is (and not closed at the end).
    dask : str, optional
        Address of a running Dask scheduler (``tcp://HOST:8786``): a ``distributed.Client``
        connected to it, closed at the end.
    workers : int, optional
        Start a Dask ``LocalCluster`` of ``workers`` processes, one thread each, on this
        machine, for the block.
    timeout : float, optional
        Seconds to wait for the scheduler at ``dask`` (default :data:`CONNECT_TIMEOUT`).

    Yields
    ------
    The executor (the client for ``dask`` and ``workers``).

    Raises
    ------
    ValueError
        In one line: Dask is not installed, no scheduler answers at ``dask`` within
        ``timeout``, ``workers`` below 1, or more than one of the three given.

    Examples
    --------
    >>> import slotmath
    >>> game = slotmath.load_game("data/games/tiny_lines.toml")
    >>> with slotmath.executor(InProcess()):
    ...     streamed = slotmath.simulate(game, 30_000, seed=5)
    >>> streamed.spins
    30000
    """
    given = [x for x in (target, dask, workers) if x is not None]
    if len(given) != 1:
        raise ValueError("give one of an executor, dask=ADDRESS or workers=N")
    if target is not None:
        with _entered(target):
            yield target
        return
    if workers is not None and int(workers) < 1:
        raise ValueError(f"workers must be >= 1, got {workers}")
    distributed = _distributed()
    if workers is not None:
        import logging

        # one core per worker: numba's parallel loops on one thread there too
        cluster = distributed.LocalCluster(n_workers=int(workers), threads_per_worker=1,
                                           processes=True, dashboard_address=":0",
                                           silence_logs=logging.ERROR,
                                           env={"NUMBA_NUM_THREADS": "1"})
        try:
            with distributed.Client(cluster) as client, _entered(client):
                yield client
        finally:
            cluster.close()
        return
    timeout = CONNECT_TIMEOUT if timeout is None else timeout
    try:
        client = distributed.Client(dask, timeout=timeout)
    except (OSError, TimeoutError) as exc:
        raise ValueError(f"no Dask scheduler answers at {dask} within {timeout:g} s "
                         f"({type(exc).__name__}); start one with 'dask scheduler'") from None
    try:
        with _entered(client):
            yield client
    finally:
        client.close()


@contextmanager
def _entered(ex):
    _STACK.append(ex)
    try:
        yield
    finally:
        _STACK.pop()


# -- simulations in seed streams -----------------------------------------------------------

def _stream_seeds(seed: int, n: int) -> list[int]:
    """Stream ``b``'s seed: 128 bits of the ``b``-th child of ``SeedSequence(seed)``."""
    out = []
    for child in np.random.SeedSequence(seed).spawn(n):
        words = child.generate_state(4, np.uint32)
        out.append(sum(int(w) << (32 * i) for i, w in enumerate(words.tolist())))
    return out


def _play_stream(shared, chunk):
    from slotmath.simulate.front import simulate

    game, level, mode = shared
    spins, seed = chunk
    return simulate(game, spins, seed, level=level, mode=mode)


def simulate_streams(game, spins: int, seed: int, level: int = 1, mode: str | None = None,
                     *, stream_rounds: int = STREAM_ROUNDS, executor=None):
    """``spins`` seeded rounds of ``game`` in independent seed streams, through ``executor``
    (default: the current one; none: here).

    The rounds are cut into ``ceil(spins / stream_rounds)`` streams (the last one shorter);
    stream ``b`` plays with the game's own simulator, seeded by the ``b``-th child of
    ``numpy.random.SeedSequence(seed)``, and the streams' results are pooled in stream order:
    the same figures on any number of workers (another sample than the one-stream run of
    :func:`slotmath.simulate.simulate` without an executor). A game with progressive
    jackpots is refused: its pools carry from round to round.

    Examples
    --------
    >>> import slotmath
    >>> game = slotmath.load_game("data/games/tiny_lines.toml")
    >>> a = simulate_streams(game, 30_000, 7, stream_rounds=10_000)
    >>> a == simulate_streams(game, 30_000, 7, stream_rounds=10_000, executor=InProcess())
    True
    >>> a.spins, a.batches
    (30000, 0)
    """
    if game.jackpots:
        raise ValueError(f"{game.name}: progressive jackpots carry their pools from round to "
                         "round; a simulation with them runs in one stream, without "
                         "--dask/--workers")
    if stream_rounds < 1:
        raise ValueError(f"stream_rounds must be >= 1, got {stream_rounds}")
    n = math.ceil(spins / stream_rounds)
    sizes = [stream_rounds] * (n - 1) + [spins - stream_rounds * (n - 1)]
    chunks = list(zip(sizes, _stream_seeds(seed, n)))
    results = map_chunks(_play_stream, chunks, shared=(game, level, mode), executor=executor)
    return _pooled(results, seed, level)


def _pooled(results, seed: int, level: int):
    """One :class:`~slotmath.simulate.monte_carlo.SimulationResult` of independent streams:
    means weighted by rounds, standard errors of independent means, the standard deviation
    pooled with the streams' spread, counts added."""
    from dataclasses import replace

    if len(results) == 1:
        return replace(results[0], seed=seed)
    n = np.asarray([r.spins for r in results], dtype=np.float64)
    total = float(n.sum())

    def mean(attr):
        return float(sum(k * getattr(r, attr) for k, r in zip(n, results)) / total)

    def error(attr):
        return float(math.sqrt(sum((k * getattr(r, attr)) ** 2 for k, r in zip(n, results)))
                     / total)

    rtp = mean("rtp")
    within = sum((k - 1) * r.std ** 2 for k, r in zip(n, results))
    between = sum(k * (r.rtp - rtp) ** 2 for k, r in zip(n, results))
    features = [k * r.trigger_rate for k, r in zip(n, results)]
    feature_total = float(sum(features))
    names = list(dict.fromkeys(c for r in results for c in r.components))
    triggers = list(dict.fromkeys(c for r in results for c in r.trigger_rates))
    first = results[0]
    return replace(
        first, spins=int(total), rtp=rtp, std_error=error("std_error"),
        hit_frequency=mean("hit_frequency"), std=float(math.sqrt((within + between)
                                                                  / max(total - 1, 1))),
        base=mean("base"), free_spins=mean("free_spins"), trigger_rate=mean("trigger_rate"),
        spins_per_feature=(float(sum(f * r.spins_per_feature for f, r in zip(features, results))
                                 / feature_total) if feature_total else 0.0),
        seed=seed, level=level, bonus_wheel=mean("bonus_wheel"),
        max_win_cap=mean("max_win_cap"), max_win_cap_std_error=error("max_win_cap_std_error"),
        capped_rounds=sum(r.capped_rounds for r in results),
        jackpot_rtp=mean("jackpot_rtp"), batches=sum(r.batches for r in results),
        components={c: float(sum(k * r.components.get(c, 0.0) for k, r in zip(n, results))
                             / total) for c in names},
        trigger_rates={c: float(sum(k * r.trigger_rates.get(c, 0.0)
                                    for k, r in zip(n, results)) / total) for c in triggers})
