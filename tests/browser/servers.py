"""JupyterLab and Voila servers for the browser suite, each on a temporary copy of the notebooks.

The pitfalls this module handles (measured on the 2-core CI machine):

* as root, JupyterLab refuses to start without ``ServerApp.allow_root``;
* JupyterLab 4 asks about news in a pop-up unless its user settings say no (a private
  settings folder holds that, and no workspace is restored);
* JupyterLab autosaves: the servers get a temporary copy of each notebook (with ``data/``
  linked beside it, so the notebooks' ``../data/games/...`` paths resolve), and autosave is
  off, so a test never reads a copy an earlier test saved half-run;
* servers are stopped by the PID this module started, never by name.

The kernels import slotmath from this checkout (``PYTHONPATH``), not from wherever the
virtualenv's editable install points.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
NOTEBOOKS = REPO / "notebooks"
#: Workbench notebooks the session writes with ``slotmath workbench --no-open`` into the
#: served folder: a bundled game with every panel, and a game written only from the format doc.
WORKBENCH_GAMES = {
    "workbench_gold_money_frog.ipynb": REPO / "data" / "games" / "gold_money_frog.toml",
    "workbench_doc_game.ipynb": REPO / "tests" / "data" / "doc_game.toml",
}
VOILA_EXTRA = [a for a in os.environ.get("SLOTMATH_VOILA_ARGS", "").split() if a]


def chromium_executable() -> str:
    """Debian's chromium binary, as ``dpkg -L chromium`` lists it (no browser is downloaded)."""
    try:
        listed = subprocess.run(["dpkg", "-L", "chromium"], capture_output=True, text=True,
                                check=True).stdout.split()
    except (OSError, subprocess.CalledProcessError) as err:
        raise RuntimeError("Debian's chromium is not installed: apt-get install -y chromium "
                           f"(.ci/run does it): {err}") from None
    for path in listed:
        if path.endswith("/bin/chromium") and os.access(path, os.X_OK):
            return path
    raise RuntimeError("dpkg -L chromium lists no executable bin/chromium")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def workspace(tmp: Path, notebooks: list[Path] | None = None) -> Path:
    """A temporary folder holding copies of ``notebooks`` (default: every notebook in
    notebooks/) under ``notebooks/``, with the repository's ``data/`` linked beside it."""
    root = Path(tempfile.mkdtemp(prefix="slotmath-browser-", dir=tmp))
    (root / "notebooks").mkdir()
    for nb in notebooks if notebooks is not None else sorted(NOTEBOOKS.glob("*.ipynb")):
        shutil.copy(nb, root / "notebooks" / nb.name)
    (root / "data").symlink_to(REPO / "data")
    return root


def _env(root: Path, extra: dict[str, str] | None = None) -> dict[str, str]:
    env = dict(os.environ)
    env.update(extra or {})
    env["PYTHONPATH"] = os.pathsep.join([str(REPO), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    settings = root / ".lab-settings"
    notification = settings / "@jupyterlab" / "apputils-extension" / "notification.jupyterlab-settings"
    notification.parent.mkdir(parents=True, exist_ok=True)
    notification.write_text(json.dumps({"fetchNews": "false", "checkForUpdates": False}))
    # every cell rendered, not only those scrolled into view, so every output can be checked
    tracker = settings / "@jupyterlab" / "notebook-extension" / "tracker.jupyterlab-settings"
    tracker.parent.mkdir(parents=True, exist_ok=True)
    tracker.write_text(json.dumps({"windowingMode": "none"}))
    # no autosave: a notebook one test runs must not be saved half-run (JupyterLab clears a
    # queued cell's outputs when it sends it) for the next test that reads the saved file;
    # Gus's Gold Christmas computes its Dynamite table in its first run, past the 2-minute
    # autosave interval
    docs = settings / "@jupyterlab" / "docmanager-extension" / "plugin.jupyterlab-settings"
    docs.parent.mkdir(parents=True, exist_ok=True)
    docs.write_text(json.dumps({"autosave": False}))
    env["JUPYTERLAB_SETTINGS_DIR"] = str(settings)
    env["JUPYTERLAB_WORKSPACES_DIR"] = str(root / ".lab-workspaces")
    env["JUPYTER_RUNTIME_DIR"] = str(root / ".runtime")
    env["MPLBACKEND"] = "module://matplotlib_inline.backend_inline"
    env.pop("JUPYTER_CONFIG_DIR", None)
    return env


@dataclass
class Server:
    """A running server started by this module: its URL, process and log."""

    url: str
    process: subprocess.Popen
    log_path: Path
    root: Path
    started: float = field(default_factory=time.monotonic)

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")

    def shut_down_kernels(self) -> None:
        """Shut down every session's kernel (JupyterLab: between tests, to free memory)."""
        with urllib.request.urlopen(self.url + "/api/sessions", timeout=10) as response:
            sessions = json.load(response)
        for session in sessions:
            request = urllib.request.Request(f"{self.url}/api/sessions/{session['id']}",
                                             method="DELETE")
            urllib.request.urlopen(request, timeout=30).close()

    def stop(self) -> None:
        """Stop the server (and its kernels: they are in its process group) by its PID."""
        if self.process.poll() is None:
            try:
                os.killpg(self.process.pid, signal.SIGTERM)
            except ProcessLookupError:
                return
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait(timeout=15)


def _wait_up(url: str, process: subprocess.Popen, log_path: Path, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"server exited with {process.returncode}:\n"
                               f"{log_path.read_text(errors='replace')[-3000:]}")
        try:
            with urllib.request.urlopen(url, timeout=2):
                return
        except urllib.error.HTTPError as err:  # it answers: up (a 404 is an answer)
            if err.code < 500:
                return
        except OSError:
            time.sleep(0.25)
    raise RuntimeError(f"server not up after {timeout:.0f} s:\n"
                       f"{log_path.read_text(errors='replace')[-3000:]}")


def _start(args: list[str], root: Path, probe: str, port: int, name: str,
           env: dict[str, str] | None = None) -> Server:
    log_path = root / f"{name}-{port}.log"
    log = open(log_path, "wb")  # noqa: SIM115 - closed with the process
    process = subprocess.Popen(args, cwd=root, env=_env(root, env), stdout=log,
                               stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                               start_new_session=True)
    log.close()
    url = f"http://127.0.0.1:{port}"
    server = Server(url, process, log_path, root)
    try:
        _wait_up(url + probe, process, log_path, timeout=60)
    except BaseException:
        server.stop()
        raise
    return server


def start_lab(root: Path) -> Server:
    """JupyterLab 4 serving ``root``, no token, root allowed, no news."""
    port = free_port()
    args = [sys.executable, "-m", "jupyterlab", "--no-browser", f"--port={port}",
            "--ServerApp.ip=127.0.0.1", "--IdentityProvider.token=", "--ServerApp.password=",
            "--ServerApp.allow_root=True", "--ServerApp.disable_check_xsrf=True",
            f"--ServerApp.root_dir={root}", "--LabApp.news_url=None",
            "--LabApp.expose_app_in_browser=True",
            "--ServerApp.open_browser=False"]
    return _start(args, root, "/api/status", port, "lab")


def start_voila(root: Path, notebook: str, env: dict[str, str] | None = None) -> Server:
    """A fresh Voila server rendering ``notebooks/<notebook>`` as an app at its root URL
    (``env``: more environment for it and its kernels)."""
    port = free_port()
    args = [sys.executable, "-m", "voila", "--no-browser", f"--port={port}",
            "--Voila.ip=127.0.0.1", "--show_tracebacks=True", *VOILA_EXTRA,
            f"notebooks/{notebook}"]
    return _start(args, root, "/voila/static/no-such-file", port, "voila", env)
