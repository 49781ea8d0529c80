"""Fixtures of the browser suite: Debian's headless Chromium driven by Playwright, one
JupyterLab server for the session, a fresh Voila server per app, screenshots kept.

Nothing here skips: without chromium, playwright, JupyterLab or Voila the suite fails, saying
what to install (``.ci/run`` installs all of them).
"""

from __future__ import annotations

import re
import tempfile
from pathlib import Path
from urllib.parse import urlparse

import pytest

from browser import servers

SCREENSHOTS = Path(__file__).parent / "screenshots"

WORKBENCH_GAMES = servers.WORKBENCH_GAMES


@pytest.fixture(scope="session")
def playwright_instance():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        yield p


@pytest.fixture(scope="session")
def browser(playwright_instance):
    browser = playwright_instance.chromium.launch(
        executable_path=servers.chromium_executable(),
        args=["--no-sandbox", "--disable-dev-shm-usage"])
    yield browser
    browser.close()


@pytest.fixture(scope="session")
def workspace(tmp_path_factory):
    """The served folder: copies of every notebook in notebooks/, plus the workbenches."""
    from slotmath.cli import main

    root = servers.workspace(tmp_path_factory.getbasetemp())
    for name, game in WORKBENCH_GAMES.items():
        assert main(["workbench", str(game), "--no-open",
                     "--output", str(root / "notebooks" / name)]) == 0
    return root


@pytest.fixture(scope="session")
def lab_server(workspace):
    server = servers.start_lab(workspace)
    yield server
    server.stop()


@pytest.fixture
def lab(lab_server, page):
    """The session's JupyterLab; the test's kernels are shut down after it (the page's
    console read first)."""
    yield lab_server
    page.console.freeze()
    lab_server.shut_down_kernels()


@pytest.fixture
def voila(workspace, page):
    """Start a fresh Voila server on a notebook of the workspace: ``voila(name)``. The page's
    console is read before the servers stop (the page then loses its kernel)."""
    started = []

    def start(notebook: str, *, cold_numba: bool = False):
        """``cold_numba``: the kernel compiles every numba function afresh (an empty cache
        of its own), as on a machine where slotmath has never run."""
        env = None
        if cold_numba:
            env = {"NUMBA_CACHE_DIR": tempfile.mkdtemp(prefix="numba-", dir=workspace)}
        server = servers.start_voila(workspace, notebook, env)
        started.append(server)
        return server

    yield start
    page.console.freeze()
    for server in started:
        server.stop()


class Console:
    """The page's console errors and uncaught exceptions, and the requests that failed."""

    def __init__(self, page):
        self.errors: list[str] = []
        self.failed_requests: list[str] = []
        page.on("console", self._console)
        page.on("pageerror", lambda exc: None if self._frozen
                else self.errors.append(f"uncaught: {exc}"))
        page.on("requestfailed", lambda r: None if self._frozen
                else self.failed_requests.append(r.url))

    def freeze(self) -> None:
        """Keep what was seen so far; ignore what comes after (a server being stopped)."""
        self.errors, self.failed_requests = list(self.errors), list(self.failed_requests)
        self._frozen = True

    _frozen = False

    def _console(self, message):
        if message.type == "error" and not self._frozen:
            self.errors.append(message.text)

    def real_errors(self) -> list[str]:
        """Console errors, less the failed loads of resources outside this machine (fonts or
        scripts a page asks a CDN for: the CI machine has no network beyond the registries;
        a failed local request still counts)."""
        outside = [u for u in self.failed_requests
                   if urlparse(u).hostname not in ("127.0.0.1", "localhost")]
        local_failures = len(self.failed_requests) - len(outside)
        errors = []
        unexplained = len(outside)
        for e in self.errors:
            if re.match(r"Failed to load resource: net::ERR_(NAME_NOT_RESOLVED|INTERNET_"
                        r"DISCONNECTED|CONNECTION_REFUSED)", e) and unexplained > 0:
                unexplained -= 1
                continue
            errors.append(e)
        if local_failures:
            errors.append(f"{local_failures} local requests failed")
        return errors


@pytest.fixture
def page(browser, request):
    """A fresh browser page; after the test its screenshot is kept under
    tests/browser/screenshots/ and its console must hold no error."""
    context = browser.new_context(viewport={"width": 1500, "height": 1000})
    page = context.new_page()
    page.console = Console(page)
    yield page
    SCREENSHOTS.mkdir(exist_ok=True)
    name = re.sub(r"[^\w.-]+", "_", request.node.name)
    try:
        page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), full_page=True)
    finally:
        errors = page.console.real_errors()
        context.close()
    assert not errors, f"console errors: {errors}"
