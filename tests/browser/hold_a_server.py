"""Not collected on its own (no ``test_`` prefix): ``test_servers_die_with_the_run.py`` runs it in
a pytest of its own. The suite's own fixture starts JupyterLab, a kernel is started in it, and
the test reports the served folder in ``$SLOTMATH_HOLD_REPORT``, then waits to be killed."""

from __future__ import annotations

import json
import os
import time
import urllib.request
from pathlib import Path


def test_hold_a_server_and_a_kernel(lab_server):
    request = urllib.request.Request(lab_server.url + "/api/kernels", data=b"{}", method="POST",
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=120) as response:
        kernel = json.load(response)
    Path(os.environ["SLOTMATH_HOLD_REPORT"]).write_text(json.dumps(
        {"root": str(lab_server.root), "server": lab_server.process.pid,
         "kernel": kernel["id"]}))
    time.sleep(600)  # killed long before
