"""JupyterLab and Voila servers for the browser suite, each on a temporary copy of the notebooks.

The pitfalls this module handles (measured on the 2-core CI machine):

* as root, JupyterLab refuses to start without ``ServerApp.allow_root``;
* JupyterLab 4 asks about news in a pop-up unless its user settings say no (a private
  settings folder holds that, and no workspace is restored);
* JupyterLab autosaves: the servers get a temporary copy of each notebook (with ``data/``
  linked beside it, so the notebooks' ``../data/games/...`` paths resolve), and autosave is
  off, so a test never reads a copy an earlier test saved half-run;
* servers are stopped by the PID this module started, never by name;
* they die with the test run, however it ends (issue 23: a killed run left its JupyterLab
  server and kernel running): each server leads a process group of its own, which the
  fixtures' finalisers stop, and so do an ``atexit`` hook and handlers for SIGTERM and SIGINT
  (:func:`stop_all`); on Linux the server is also started with a parent-death signal
  (``prctl(PR_SET_PDEATHSIG, SIGTERM)``, set by a two-line launcher that then execs the
  server), so that even a run killed by SIGKILL sends it SIGTERM. A kernel runs in a session
  of its own (jupyter_client starts it so): the server shuts its kernels down on SIGTERM, and a
  kernel whose server is gone exits by itself (ipykernel watches ``JPY_PARENT_PID``).

The kernels import slotmath from this checkout (``PYTHONPATH``), not from wherever the
virtualenv's editable install points.
"""

from __future__ import annotations

import atexit
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
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
    notebooks/) under ``notebooks/``, with the repository's ``data/``, ``docs/`` and
    ``tests/data/`` linked beside it (the game files the notebooks read)."""
    root = Path(tempfile.mkdtemp(prefix="slotmath-browser-", dir=tmp))
    (root / "notebooks").mkdir()
    for nb in notebooks if notebooks is not None else sorted(NOTEBOOKS.glob("*.ipynb")):
        shutil.copy(nb, root / "notebooks" / nb.name)
    (root / "data").symlink_to(REPO / "data")
    (root / "docs").symlink_to(REPO / "docs")  # the worked examples (feature_gallery)
    (root / "tests").mkdir()
    (root / "tests" / "data").symlink_to(REPO / "tests" / "data")
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
        """Stop the server's process group by its PID (SIGTERM, then SIGKILL after 15 s); on
        SIGTERM JupyterLab shuts its kernels down, and a kernel left alone exits once its
        server is gone."""
        _RUNNING.pop(self.process.pid, None)
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


#: the servers started and not yet stopped, by PID
_RUNNING: dict[int, Server] = {}
#: the signal handlers :func:`_stop_on_signals` replaced
_PREVIOUS: dict[int, object] = {}

#: sets the parent-death signal (Linux), checks that the parent still lives, then runs the
#: server in this process (same PID, same process group)
LAUNCHER = ("import ctypes, os, signal, sys\n"
            "try: ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG\n"
            "except (AttributeError, OSError): pass  # not Linux: the finalisers and handlers\n"
            "if os.getppid() != int(sys.argv[1]): sys.exit('the test run is gone')\n"
            "os.execv(sys.argv[2], sys.argv[2:])")


def stop_all() -> None:
    """Stop every server this process started and has not stopped."""
    for server in list(_RUNNING.values()):
        server.stop()


def _on_signal(signum, frame) -> None:
    """Stop the servers, then do what the signal did before (SIGINT: KeyboardInterrupt;
    SIGTERM: end the process)."""
    stop_all()
    previous = _PREVIOUS.get(signum, signal.SIG_DFL)
    if callable(previous):
        previous(signum, frame)
    elif previous != signal.SIG_IGN:
        signal.signal(signum, signal.SIG_DFL)
        os.kill(os.getpid(), signum)


def _stop_on_signals() -> None:
    """Install :func:`_on_signal` for SIGTERM and SIGINT (once; only the main thread can)."""
    if _PREVIOUS or threading.current_thread() is not threading.main_thread():
        return
    for signum in (signal.SIGTERM, signal.SIGINT):
        _PREVIOUS[signum] = signal.getsignal(signum)
        signal.signal(signum, _on_signal)


atexit.register(stop_all)


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
    _stop_on_signals()
    launch = [sys.executable, "-c", LAUNCHER, str(os.getpid()), *args]
    process = subprocess.Popen(launch, cwd=root, env=_env(root, env), stdout=log,
                               stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                               start_new_session=True)  # a process group of its own
    log.close()
    url = f"http://127.0.0.1:{port}"
    server = Server(url, process, log_path, root)
    _RUNNING[process.pid] = server
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
