"""A test run that is killed takes its JupyterLab server and kernels with it (issue 23: they
kept running). A pytest of its own runs ``hold_a_server.py``, whose test starts JupyterLab with
the suite's fixture and a kernel in it; this test kills that pytest (SIGTERM as a CI timeout
does, SIGINT as Ctrl-C does, SIGKILL as an out-of-memory killer does) and checks that no
process serving its folder survives: not the server, not the kernel.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from browser import servers


def _serving(root: str) -> dict[int, str]:
    """Processes whose command line names the served folder ``root`` (the server's
    ``--ServerApp.root_dir``, the kernel's connection file in its runtime folder), by PID."""
    out = {}
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            cmdline = (proc / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:  # gone meanwhile, or not ours to read
            continue
        if root in cmdline and not cmdline.startswith("/bin/sh"):
            out[int(proc.name)] = cmdline
    return out


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT, signal.SIGKILL],
                         ids=["SIGTERM", "SIGINT", "SIGKILL"])
def test_a_killed_run_leaves_no_server_or_kernel(tmp_path, signum):
    report = tmp_path / "report.json"
    env = dict(os.environ, SLOTMATH_HOLD_REPORT=str(report))
    run = subprocess.Popen(
        [sys.executable, "-m", "pytest", "-n", "0", "-p", "no:randomly", "-p", "no:cacheprovider",
         "-q", "--basetemp", str(tmp_path / "run"), "tests/browser/hold_a_server.py"],
        cwd=servers.REPO, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 300
    while not report.exists() and run.poll() is None and time.monotonic() < deadline:
        time.sleep(0.5)
    if not report.exists():
        run.kill()
        pytest.fail(f"the run started no server: {run.communicate()[0].decode()[-3000:]}")
    held = json.loads(report.read_text())
    deadline = time.monotonic() + 60  # its kernel's process is launched
    while True:
        alive = _serving(held["root"])
        if any(f"kernel-{held['kernel']}" in c for c in alive.values()):
            break
        if time.monotonic() > deadline:
            break
        time.sleep(0.5)
    assert held["server"] in alive, alive
    assert any(f"kernel-{held['kernel']}" in c for c in alive.values()), alive
    os.kill(run.pid, signum)
    run.communicate(timeout=120)
    deadline = time.monotonic() + 30  # a kernel notices its server is gone within a second
    while (left := _serving(held["root"])) and time.monotonic() < deadline:
        time.sleep(0.5)
    for pid in left:  # ours: stop them by PID so the suite runs on, then fail
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    assert not left, f"survived the killed run: {left}"
