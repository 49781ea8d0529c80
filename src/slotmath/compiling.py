"""Say so when numba compiles, once: the first run on a machine compiles the kernels a game
needs (later runs load them from numba's cache, next to the package or in ``NUMBA_CACHE_DIR``).

A first ``slotmath analyze`` after install spends most of its time compiling, and without a word
it looks hung. :func:`announced` listens to numba's ``numba:compile`` event, which numba raises
only when a kernel is not in its cache (a cache hit loads without it), and prints one line when
the first compilation starts and one when the command ends, with the number compiled and the
time they took. A run whose kernels are all cached prints nothing.

Examples
--------
>>> import io
>>> out = io.StringIO()
>>> with announced(out) as seen:
...     pass
>>> seen.count, out.getvalue()
(0, '')
"""

from __future__ import annotations

import contextlib
import os
import time
from dataclasses import dataclass, field

__all__ = ["Compilations", "announced"]

NOTICE = ("slotmath: compiling the kernels this game needs for this machine (first run only; "
          "later runs load them from numba's cache) ...")


@dataclass
class Compilations:
    """What :func:`announced` saw: functions numba compiled (a kernel's callees included),
    the outermost of them (``kernels``) and the time those took."""

    count: int = 0
    kernels: int = 0
    seconds: float = 0.0
    depth: int = 0
    started: float = 0.0
    pid: int = field(default_factory=os.getpid)


@contextlib.contextmanager
def announced(stream):
    """Print a notice on ``stream`` when numba first compiles inside the block, and a summary
    line at its end if anything was compiled; yields the :class:`Compilations` seen.

    Only the process that entered the block speaks (forked workers compile silently: the
    parent's line has been printed, or theirs would repeat it once per worker)."""
    from numba.core import event

    seen = Compilations()

    class _Listener(event.Listener):
        def on_start(self, ev):
            if os.getpid() != seen.pid:
                return
            seen.count += 1
            if seen.depth == 0:
                if seen.kernels == 0:
                    print(NOTICE, file=stream, flush=True)
                seen.started = time.perf_counter()
            seen.depth += 1

        def on_end(self, ev):
            if os.getpid() != seen.pid or seen.depth == 0:
                return
            seen.depth -= 1
            if seen.depth == 0:
                seen.kernels += 1
                seen.seconds += time.perf_counter() - seen.started

    listener = _Listener()
    event.register("numba:compile", listener)
    try:
        yield seen
    finally:
        event.unregister("numba:compile", listener)
        if seen.count:
            print(f"slotmath: compiled {seen.count} functions ({seen.kernels} kernels and what "
                  f"they call) in {seen.seconds:.1f} s; "
                  "they are cached for later runs", file=stream, flush=True)
