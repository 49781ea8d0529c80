"""What the browser suite does on a page: run a notebook in JupyterLab or load it in Voila, check
that every output rendered, read a panel's RTP and chart, and move its controls.

JupyterLab: open the notebook, wait for "| Idle" in the status bar, run the menu command
``runmenu:run-all`` and wait until every code cell has an execution count and the kernel is
idle again (the execution indicator alone says nothing about cells still queued). Voila: the
page streams while the server executes; it is loaded when ``#rendered_cells`` shows.

A panel updates its figures (a label) before its chart (an image rendered in the kernel and
sent as PNG), so after each move the suite waits for both: the RTP it computes itself, and a
new ``src`` on the panel's image.
"""

from __future__ import annotations

import os
import re
import time

# a notebook's whole run on the 2-core machine, numba compiling (lower it to debug)
LOAD_TIMEOUT_MS = int(os.environ.get("SLOTMATH_BROWSER_TIMEOUT_MS", "300000"))
MOVE_TIMEOUT_MS = 120_000   # one panel update (a jackpot analysis with its charts)

WIDGET_OUTPUT = '[data-mime-type="application/vnd.jupyter.widget-view+json"]'
ERROR_OUTPUT = '[data-mime-type="application/vnd.jupyter.error"]'


# -- JupyterLab ---------------------------------------------------------------------------

def open_in_lab(page, lab, notebook: str) -> None:
    """Open ``notebooks/<notebook>`` alone (a workspace of its own, reset: no tab of an
    earlier test restored) and wait for its kernel to be idle."""
    workspace = "t" + "".join(ch for ch in notebook if ch.isalnum())
    page.goto(f"{lab.url}/lab/workspaces/{workspace}/tree/notebooks/{notebook}?reset",
              timeout=LOAD_TIMEOUT_MS)
    page.wait_for_selector(".jp-Notebook", timeout=LOAD_TIMEOUT_MS)
    page.wait_for_selector(".jp-StatusBar-TextItem:has-text('| Idle')", timeout=LOAD_TIMEOUT_MS)


def run_all_in_lab(page) -> None:
    """Run every cell (``runmenu:run-all``) and wait until all have run and the kernel idles."""
    page.evaluate("() => window.jupyterapp.commands.execute('runmenu:run-all')")
    page.wait_for_function("""() => {
      const panel = window.jupyterapp.shell.currentWidget;
      const kernel = panel.sessionContext.session && panel.sessionContext.session.kernel;
      const code = panel.content.widgets.filter(c => c.model.type === 'code');
      return kernel && kernel.status === 'idle'
        && code.every(c => c.model.executionCount !== null)
        && !code.some(c => (c.promptNode && c.promptNode.textContent || '').includes('*'));
    }""", timeout=LOAD_TIMEOUT_MS, polling=500)


def lab_errors(page) -> list[str]:
    """The error outputs of the open notebook's cells, as 'cell N: ename: evalue'."""
    return page.evaluate("""() => {
      const out = [];
      window.jupyterapp.shell.currentWidget.content.widgets.forEach((cell, i) => {
        if (cell.model.type !== 'code') return;
        for (const o of cell.model.outputs.toJSON())
          if (o.output_type === 'error') out.push(`cell ${i}: ${o.ename}: ${o.evalue}`);
      });
      return out;
    }""")


def lab_output_count(page) -> int:
    """How many outputs the open notebook's cells hold (in the model)."""
    return page.evaluate("""() => window.jupyterapp.shell.currentWidget.content.widgets
      .filter(c => c.model.type === 'code')
      .reduce((n, c) => n + c.model.outputs.length, 0)""")


# -- Voila --------------------------------------------------------------------------------

def load_in_voila(page, server) -> float:
    """Load the app of a Voila server; the seconds until its cells show."""
    start = time.monotonic()
    page.goto(server.url + "/", wait_until="commit", timeout=LOAD_TIMEOUT_MS)
    page.wait_for_selector("#rendered_cells", state="visible", timeout=LOAD_TIMEOUT_MS)
    return time.monotonic() - start


def loading_text(page) -> str:
    node = page.query_selector("#loading_text")
    return node.inner_text() if node else ""


# -- both ---------------------------------------------------------------------------------

def check_rendered(page, *, expect_widgets: int = 0) -> dict:
    """Every output rendered: no error output, no "Error displaying widget", every image
    loaded, every widget output drawn as widgets (at least ``expect_widgets`` of them), no
    widget shown as its text repr. Returns the counts it checked."""
    page.wait_for_function(f"""() => {{
      const roots = [...document.querySelectorAll('.jupyter-widgets')]
        .filter(w => !w.parentElement.closest('.jupyter-widgets'));
      const views = [...document.querySelectorAll('{WIDGET_OUTPUT}')];
      return roots.length >= {expect_widgets}
        && views.every(v => v.querySelector('.jupyter-widgets')
                            || v.textContent.includes('Error displaying widget'));
    }}""", timeout=LOAD_TIMEOUT_MS, polling=500)
    # images decode asynchronously: wait for every one to be complete
    page.wait_for_function("() => [...document.images].every(i => i.complete)",
                           timeout=MOVE_TIMEOUT_MS)
    found = page.evaluate(f"""() => ({{
      errors: [...document.querySelectorAll('{ERROR_OUTPUT}')].map(e => e.textContent.slice(0, 300)),
      widgetErrors: document.body.innerText.includes('Error displaying widget'),
      broken: [...document.images].filter(i => !i.naturalWidth).map(i => i.src.slice(0, 80)),
      images: document.images.length,
      widgets: [...document.querySelectorAll('.jupyter-widgets')]
        .filter(w => !w.parentElement.closest('.jupyter-widgets')).length,
      reprs: [...document.querySelectorAll('.jp-OutputArea-output')]
        .map(o => o.textContent).filter(t => /^\\s*\\w+\\(children=\\(/.test(t))
        .map(t => t.slice(0, 80)),
      empty: [...document.querySelectorAll('.jp-OutputArea-output')]
        .filter(o => !o.textContent.trim() && !o.querySelector('img, svg, canvas, .jupyter-widgets'))
        .length,
    }})""")
    assert not found["errors"], f"error outputs: {found['errors']}"
    assert not found["widgetErrors"], "'Error displaying widget' on the page"
    assert not found["broken"], f"images that did not load: {found['broken']}"
    assert not found["reprs"], f"widgets shown as text: {found['reprs']}"
    assert not found["empty"], f"{found['empty']} outputs rendered empty"
    return found


# -- panels -------------------------------------------------------------------------------

def panel(page, marker: str, index: int = -1):
    """The panel with class ``marker`` (``slotmath-strip-editor``, ``slotmath-wheel-panel``,
    ``slotmath-jackpot-panel``): the ``index``-th on the page, default the last."""
    panels = page.locator(f".{marker}")
    return panels.nth(index) if index >= 0 else panels.last


def rtp_text(panel_locator) -> str:
    """The RTP as the panel shows it (the figures table's row named RTP)."""
    return panel_locator.evaluate("""p => {
      const row = [...p.querySelectorAll('table tr')]
        .find(r => r.cells.length > 1 && r.cells[0].textContent.trim().startsWith('RTP'));
      return row ? row.cells[1].textContent : '';
    }""")


PERCENT = re.compile(r"(-?\d+(?:\.(\d+))?)%")
FRACTION = re.compile(r"\b(\d+/\d+)\b")


def shown_rtp(panel_locator) -> tuple[str, str | None]:
    """(the RTP's percentage as shown, its exact fraction when shown)."""
    text = rtp_text(panel_locator)
    percent = PERCENT.search(text)
    assert percent, f"no RTP percentage in {text!r}"
    fraction = FRACTION.search(text)
    return percent.group(0), fraction.group(1) if fraction else None


def as_shown(rtp, shown_percent: str) -> str:
    """``rtp`` formatted with as many decimals as the panel shows."""
    decimals = len(shown_percent.rstrip("%").partition(".")[2])
    return f"{float(rtp):.{decimals}%}"


def chart_src(panel_locator) -> str:
    """The ``src`` of the panel's chart (its last image widget)."""
    images = panel_locator.locator("img.widget-image")
    images.last.wait_for(timeout=MOVE_TIMEOUT_MS)
    return images.last.get_attribute("src") or ""


def wait_for_new_chart(panel_locator, old_src: str) -> str:
    """Wait until the panel's chart is a new image (a new src, loaded), and return its src."""
    panel_locator.locator("img.widget-image").last.evaluate(
        """(img, old) => new Promise((resolve, reject) => {
             const t0 = Date.now();
             const poll = () => {
               if (img.isConnected && img.src && img.src !== old && img.complete && img.naturalWidth)
                 return resolve();
               if (Date.now() - t0 > TIMEOUT) return reject(new Error('no new chart image'));
               setTimeout(poll, 200);
             };
             poll();
           })""".replace("TIMEOUT", str(MOVE_TIMEOUT_MS)), old_src)
    return chart_src(panel_locator)


def wait_for_rtp(panel_locator, expected_rtp, exact: bool,
                 timeout_ms: int = MOVE_TIMEOUT_MS) -> None:
    """Wait until the panel shows ``expected_rtp`` digit for digit: its percentage with as
    many decimals as the panel prints, and with ``exact`` its fraction too. While the panel
    computes (no RTP shown) keep waiting."""
    deadline = time.monotonic() + timeout_ms / 1000
    seen = ""
    while True:
        text = rtp_text(panel_locator)
        percent = PERCENT.search(text)
        if percent:
            fraction = FRACTION.search(text)
            want = as_shown(expected_rtp, percent.group(0))
            seen = f"{percent.group(0)} ({fraction.group(1) if fraction else '-'})"
            if percent.group(0) == want and (not exact or (fraction and fraction.group(1)
                                                           == str(expected_rtp))):
                return
        if time.monotonic() > deadline:
            raise AssertionError(f"panel shows RTP {seen or text!r}; the library computes "
                                 f"{float(expected_rtp):.10%}" + (f" = {expected_rtp}"
                                                                  if exact else ""))
        time.sleep(0.25)


def type_into_slider(slider, value) -> None:
    """Set a slider as a user does with the keyboard: its readout, the value, Enter."""
    readout = slider.locator(".widget-readout")
    readout.click()
    readout.press("Control+A")
    readout.type(str(value))
    readout.press("Enter")


def slider_geometry(slider) -> dict:
    """A slider as drawn: its ``value``, ``min`` and ``max`` (the handle's ARIA attributes),
    its track's width in pixels and the pixels per step of 1."""
    return slider.evaluate("""s => {
      const handle = s.querySelector('.noUi-handle');
      const track = s.querySelector('.noUi-target').getBoundingClientRect().width;
      const get = name => Number(handle.getAttribute('aria-value' + name));
      const [lo, hi] = [get('min'), get('max')];
      return {value: get('now'), min: lo, max: hi, track, px_per_step: track / (hi - lo)};
    }""")


def drag_slider(page, slider, pixels: float) -> None:
    """Drag a slider's handle ``pixels`` to the right (left if negative) with the mouse."""
    slider.scroll_into_view_if_needed()
    box = slider.locator(".noUi-handle").bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x + pixels, y, steps=8)
    page.mouse.up()


def type_into_box(box, value) -> None:
    """A number box: the value, then Enter (the boxes apply on Enter)."""
    field = box.locator("input")
    field.fill(str(value))
    field.press("Enter")
