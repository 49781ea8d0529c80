"""The CLI's allocator setting (slotmath.allocator): the buffers of FFTs run on a pool's
threads, as the round distribution's are, are reused instead of mapped afresh; the
environment's own tuning is left alone."""

import os
import subprocess
import sys

import pytest

PROBE = """
import resource, sys
from concurrent.futures import ThreadPoolExecutor
import numpy as np
from slotmath.allocator import keep_freed_blocks
did = keep_freed_blocks() if sys.argv[1] == "1" else False
x = np.random.default_rng(1).random(3_000_000)
def work(_):  # pocketfft's own buffers (malloc, ~64 MB an FFT), freed after each
    for _ in range(3):
        np.fft.rfft(x, 4_147_200)
before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
with ThreadPoolExecutor(2) as pool:
    list(pool.map(work, range(4)))
print(did, resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before)
"""


def _run(keep: bool, **env) -> tuple[str, int]:
    base = {k: v for k, v in os.environ.items()
            if not k.startswith("MALLOC_") and k != "GLIBC_TUNABLES"}
    out = subprocess.run([sys.executable, "-c", PROBE, "1" if keep else "0"], check=True,
                         capture_output=True, text=True, env=base | env).stdout.split()
    return out[0], int(out[1])


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's allocator")
def test_freed_blocks_are_reused_on_threads():
    did, kept = _run(True)
    assert did == "True"
    _, fresh = _run(False)
    # 12 FFTs of Frozen Gems' round grid on two threads: without the setting each maps and
    # touches its buffers afresh (~16,000 pages); with it they are reused
    assert fresh > 12 * 10_000
    assert kept < fresh / 3


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's allocator")
def test_the_environments_own_tuning_wins():
    did, _ = _run(True, GLIBC_TUNABLES="glibc.malloc.arena_max=2")
    assert did == "False"
    did, _ = _run(True, MALLOC_ARENA_MAX="2")
    assert did == "False"
