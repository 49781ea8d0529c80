"""The C allocator's thresholds for a command-line run (glibc only).

glibc's ``malloc`` serves a block of more than 128 KB (a threshold it raises as such blocks are
freed, at most to 32 MB) by mapping fresh pages, and gives the pages back when the block is
freed; the next block of that size is mapped again, and every page of it is zeroed by the
kernel on its first touch. The analyses allocate and free many large arrays: Frozen Gems'
round distribution makes 15 FFTs of 4,147,200 points, each of which has pocketfft allocate
(with ``malloc``, not numpy's allocator) about 64 MB of buffers; one such FFT took 16,000 page
faults, and ``analyze --json`` took ~420,000 in its main process, most of its 1.5-1.8 s of
system time.

:func:`keep_freed_blocks` sets the threshold to its largest value (32 MB: the FFTs' buffers
fall under it), keeps up to 512 MB of freed memory at the top of the heap, and has every thread
allocate from that one heap (one arena: the FFTs run on a pool's threads, and a thread's own
arena gives its heap back to the system as soon as it is empty): a block freed is reused by the
next one of its size, already mapped. Measured on Frozen Gems' ``analyze --json`` (four runs,
load 4.5): page faults in the main process ~296,000 -> ~165,000, its system time 1.45 -> 0.9 s,
its workers' 0.18-0.27 s -> 0.04-0.08 s, peak resident size 950-975 -> 845-920 MB; the simulators (their
threads allocate from the one arena) played as fast (Gold Money Frog 1e8 spins: 11.1-11.6 s
against 11.5-11.7 s CPU). Its cost is memory kept between uses (what is freed stays mapped
until the process ends or 512 MB are free at the top). The CLI calls it once at its start (its forked workers inherit
it); the library does not (a notebook's process keeps its allocator as it is). A user's own
``MALLOC_*`` or ``GLIBC_TUNABLES`` setting wins: then nothing is changed.
"""

from __future__ import annotations

import ctypes
import os
import sys

__all__ = ["keep_freed_blocks"]

#: mallopt's parameters (malloc.h)
_M_TRIM_THRESHOLD = -1
_M_MMAP_THRESHOLD = -3
_M_ARENA_MAX = -8
#: glibc's largest mmap threshold on 64-bit systems (DEFAULT_MMAP_THRESHOLD_MAX)
MMAP_THRESHOLD = 32 << 20
TRIM_THRESHOLD = 512 << 20


def keep_freed_blocks() -> bool:
    """Raise glibc's mmap and trim thresholds and keep one arena (see the module notes);
    returns whether it did (False off glibc, or when the environment already tunes the
    allocator)."""
    if not sys.platform.startswith("linux"):
        return False
    if any(k.startswith("MALLOC_") for k in os.environ) or "GLIBC_TUNABLES" in os.environ:
        return False
    try:
        libc = ctypes.CDLL(None)
        mallopt = libc.mallopt
        gnu = libc.gnu_get_libc_version  # glibc's own: not musl's mallopt, which does nothing
    except (OSError, AttributeError):
        return False
    gnu.restype = ctypes.c_char_p
    mallopt.argtypes = [ctypes.c_int, ctypes.c_int]
    return bool(mallopt(_M_MMAP_THRESHOLD, MMAP_THRESHOLD)
                and mallopt(_M_TRIM_THRESHOLD, TRIM_THRESHOLD)
                and mallopt(_M_ARENA_MAX, 1))
