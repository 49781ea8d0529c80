"""The PAR sheet as one self-contained HTML file: tables and charts, no external resources.

The content is the workbook's (:func:`slotmath.report.sheets.par_sheets` and
:func:`slotmath.report.charts.chart_images`): the same frames and the same exact "p/q" texts.
What a cell shows is written for a lab reading it:

* shares of the bet and probabilities (RTPs, components, hit frequencies, trigger and hit
  probabilities, RTP shares; a figure table's row by its name, another table's column by its
  header) as percentages with 8 significant digits, "92.960005%", their error bounds in
  percentage points beside them;
* "1 in N" readings as "1 in 149,614,080", whole numbers with thousands separators;
* an exact fraction longer than :data:`FOLD` characters folded (its first digits, how many
  there are, the whole text a click away in a ``<details>``), so that fractions hundreds of
  digits long do not push the error and method columns off the page;
* an error bound rounded *up* to 2 significant digits (it stays a bound).

Nothing is lost on the way: every cell whose text is not the whole value carries it in its
``data-value`` attribute (the decimal in full, the shortest text that reads back as the same
float64, or the whole exact text), and in its ``title`` (shown on hover). Charts are
embedded as base64 PNG ``data:`` URIs; the style sheet is inline; no script.

Towards the workbench notebook
------------------------------
Issue 13 asks for the HTML report to be the game's workbench notebook (``slotmath
workbench``), executed and exported with nbconvert. The workbench has not landed, so the
report is built here from the frames, already in the shape of a notebook: :func:`report_cells`
returns an ordered list of cells, each either markdown (a heading, the notes) or an output
(a table, a chart), and :func:`html_text` only concatenates their HTML. When the workbench
lands, each markdown cell becomes a notebook markdown cell and each output a code cell
(``display(sheet.table(title))``, ``plot_*(analysis)``) whose executed output is the same
HTML or PNG; nbconvert's HTML exporter then replaces :func:`html_text`.

Examples
--------
>>> import slotmath
>>> a = slotmath.analyze(slotmath.load_game("data/games/tiny_lines.toml"))
>>> text = html_text(a, charts=[])
>>> text.startswith("<!DOCTYPE html>"), "411/448" in text, "http" in text
(True, True, False)
>>> ">91.741071%<" in text   # the RTP, 411/448
True
"""

from __future__ import annotations

import base64
import html
import math
import os
from dataclasses import dataclass
from decimal import ROUND_CEILING, Decimal

from slotmath.report.charts import Chart, chart_images
from slotmath.report.sheets import Sheet, par_sheets
from slotmath.report.workbook import cell_value

__all__ = ["Cell", "bound_text", "grouped", "html_text", "one_in_text", "percent_text",
           "report_cells", "write_html"]

STYLE = """
body { font-family: sans-serif; margin: 2em; color: #222; }
h1 { font-size: 1.5em; } h2 { margin-top: 2em; border-bottom: 1px solid #999; }
table { border-collapse: collapse; margin: 0.5em 0 1.5em; font-size: 0.85em; }
th, td { border: 1px solid #ccc; padding: 2px 6px; text-align: left; vertical-align: top; }
th { background: #eee; } td.number { text-align: right; font-family: monospace; }
td.exact { font-family: monospace; } p.note { max-width: 60em; }
td.text { min-width: 8em; } td.text div { max-width: 36em; overflow-wrap: anywhere; }
td.exact details div { max-width: 36em; overflow-wrap: anywhere; word-break: break-all; }
td.exact summary { cursor: pointer; white-space: nowrap; }
"""

#: Exact texts longer than this are folded (the whole text a click away).
FOLD = 32
#: Digits kept of each part of a folded fraction.
FOLDED_DIGITS = 10
#: Significant digits of a percentage or a "1 in N" (the full decimal is in the cell's title).
DIGITS = 8
#: Texts longer than this wrap within the cell (a method, a note on one row).
WRAP = 60

#: A figure table's columns (:data:`slotmath.report.figures.FIGURE_COLUMNS`): its rows are
#: read one by one, by the name in ``figure``.
_FIGURE_COLUMNS = ["figure", "value", "exact", "error", "method"]
#: Other tables: columns holding shares of the bet or probabilities (after the suffix
#: ``_exact``/``_error``, `` exact``/`` error`` is taken off).
_PERCENT_WORDS = ("rtp", "probability", "share", "frequency", "uplift")
_PERCENT_COLUMNS = ("contribution", "p_per_wheel_spin", "lower_90", "upper_90", "lower_95",
                    "upper_95")


@dataclass(frozen=True)
class Cell:
    """One cell of the report: ``kind`` "markdown" (text to show) or "output" (a table or a
    chart); ``html`` is how it renders."""

    kind: str
    html: str


def _text(value) -> str:
    """A table entry as text: floats in full (``repr``), missing values empty."""
    value = cell_value(value)
    if value is None:
        return ""
    if isinstance(value, float):
        return repr(value)
    return str(value)


def percent_text(value: float) -> str:
    """A share of the bet or a probability in percent, with :data:`DIGITS` significant
    digits.

    Examples
    --------
    >>> percent_text(0.9296000510), percent_text(0.0175801101), percent_text(0)
    ('92.960005%', '1.7580110%', '0%')
    >>> percent_text(6.6832106e-9), percent_text(-0.0025)
    ('6.6832106e-07%', '-0.25000000%')
    """
    x = float(value) * 100
    if x == 0:
        return "0%"
    decimals = DIGITS - 1 - math.floor(math.log10(abs(x)))
    if decimals > 12:  # below 1e-5 %: the digits, not a row of zeros
        return f"{x:.{DIGITS - 1}e}%"
    return f"{x:.{max(decimals, 0)}f}%"


def grouped(value: float) -> str:
    """A number with thousands separators: whole numbers whole, others with :data:`DIGITS`
    significant digits.

    Examples
    --------
    >>> grouped(149614080.0), grouped(3.430257415674508), grouped(37462740.53030303)
    ('149,614,080', '3.4302574', '37,462,741')
    >>> grouped(13.5), grouped(0.000123456789)
    ('13.5', '0.00012345679')
    """
    x = float(value)
    if not math.isfinite(x):
        return _text(x)
    if x == int(x) and abs(x) < 1e18:
        return f"{int(x):,}"
    digits = math.floor(math.log10(abs(x))) + 1
    if DIGITS - digits > 12:  # below 1e-5: the digits, not a row of zeros
        return f"{x:.{DIGITS - 1}e}"
    text = f"{x:,.{max(DIGITS - digits, 0)}f}"
    return text.rstrip("0").rstrip(".") if "." in text else text


def one_in_text(value: float) -> str:
    """A "1 in N" reading: ``1 in 149,614,080``; ``never`` for an infinite N.

    Examples
    --------
    >>> one_in_text(149614080.0), one_in_text(float("inf"))
    ('1 in 149,614,080', 'never')
    """
    x = float(value)
    return "never" if math.isinf(x) else f"1 in {grouped(x)}"


def bound_text(error: float, percent: bool = False) -> str:
    """An error bound rounded up to 2 significant digits (so it stays a bound), in
    percentage points when ``percent``.

    Examples
    --------
    >>> bound_text(2.0300233647712285e-08, percent=True), bound_text(4e-10), bound_text(0.0)
    ('2.1e-6%', '4.0e-10', '0')
    """
    x = Decimal(repr(float(error))) * (100 if percent else 1)
    if x == 0:
        return "0"
    step = Decimal(1).scaleb(x.adjusted() - 1)  # the second significant digit
    up = (x / step).to_integral_value(ROUND_CEILING) * step
    return f"{up:.1e}" + ("%" if percent else "")


def _percent_figure(name: str) -> bool:
    """Whether a figure table's row is a share of the bet or a probability (by its name)."""
    n = name.lower()
    if "1 in" in n or "x bet" in n or "(currency" in n or "(coins" in n:
        return False
    return ("rtp" in n or "probability" in n or "hit frequency" in n or "share of" in n
            or n.startswith("p("))


def _base_column(column: str) -> str:
    c = str(column).lower()
    for suffix in ("_exact", " exact", "_error", " error"):
        c = c.removesuffix(suffix)
    return c


def _percent_column(column: str) -> bool:
    c = _base_column(column)
    return c in _PERCENT_COLUMNS or any(w in c for w in _PERCENT_WORDS)


def _folded(text: str) -> str:
    """An exact text, folded when long: its first digits, how many, the whole a click away."""
    if len(text) <= FOLD:
        return html.escape(text)
    parts = text.split("/")
    head = "/".join(p if len(p) <= FOLDED_DIGITS else p[:FOLDED_DIGITS] + "…" for p in parts)
    digits = sum(c.isdigit() for c in text)
    return (f"<details><summary>{html.escape(head)} ({digits:,} digits)</summary>"
            f"<div>{html.escape(text)}</div></details>")


def _cell(value, *, kind: str, percent: bool = False, one_in: bool = False,
          error: bool = False) -> str:
    """One ``<td>``: what a lab reads, the whole value in ``data-value`` when the text
    shown is not it."""
    whole = _text(value)
    shown = cell_value(value)
    if one_in and whole == "inf":  # 1 in infinitely many
        shown, kind = math.inf, "number"
    if kind == "number" and shown is not None and (not isinstance(shown, str) or one_in):
        text = (bound_text(shown, percent) if error
                else one_in_text(shown) if one_in
                else percent_text(shown) if percent
                else grouped(shown))
        body = html.escape(text)
    elif kind == "exact":
        text = whole
        body = _folded(whole)
    else:
        text = whole
        body = (f"<div>{html.escape(whole)}</div>" if len(whole) > WRAP
                else html.escape(whole))
    if text == whole and kind != "exact" or body == html.escape(whole):
        return f'<td class="{kind}">{body}</td>'
    value_attr = html.escape(whole, quote=True)
    return f'<td class="{kind}" data-value="{value_attr}" title="{value_attr}">{body}</td>'


def _kind(column, value) -> str:
    shown = cell_value(value)
    if isinstance(shown, (int, float)) and not isinstance(shown, bool):
        return "number"
    if str(column).endswith("exact") or column == "exact":
        return "exact"
    return "text"


def _table(title: str, frame) -> str:
    head = "".join(f"<th>{html.escape(str(c))}</th>" for c in frame.columns)
    figures = list(frame.columns) == _FIGURE_COLUMNS
    shares = any(_percent_column(c) for c in frame.columns)
    body = []
    for row in frame.itertuples(index=False):
        cells = []
        percent_row = figures and _percent_figure(str(row[0]))
        one_in_row = figures and "1 in" in str(row[0])
        for column, value in zip(frame.columns, row):
            c = str(column)
            if figures:
                percent = percent_row and c in ("value", "error")
                one_in = one_in_row and c == "value"
                error = c == "error"
            else:
                error = c.lower().endswith("error")
                percent = _percent_column(c) or (c == "error" and shares)
                one_in = _base_column(c).startswith("one_in")
            cells.append(_cell(value, kind=_kind(column, value), percent=percent,
                               one_in=one_in, error=error))
        body.append("<tr>" + "".join(cells) + "</tr>")
    return (f'<table data-title="{html.escape(title)}"><caption>{html.escape(title)}</caption>'
            f"<thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody></table>")


def _sheet_cells(sheet: Sheet) -> list[Cell]:
    cells = [Cell("markdown", f'<h2 id="{html.escape(sheet.name)}">{html.escape(sheet.name)}</h2>')]
    if sheet.notes:
        cells.append(Cell("markdown", "".join(f'<p class="note">{html.escape(n)}</p>'
                                              for n in sheet.notes)))
    for title, frame in sheet.tables:
        cells.append(Cell("output", _table(title, frame)))
    return cells


def _chart_cell(chart: Chart) -> Cell:
    data = base64.b64encode(chart.png).decode("ascii")
    title = html.escape(chart.title)
    return Cell("output", f'<figure><img alt="{title}" width="{chart.width}" '
                          f'height="{chart.height}" src="data:image/png;base64,{data}">'
                          f"<figcaption>{title}</figcaption></figure>")


def report_cells(analysis, charts: list[Chart] | None = None,
                 sheets: tuple[Sheet, ...] | None = None) -> list[Cell]:
    """The report as an ordered list of cells (the future notebook's cells)."""
    a = analysis
    sheets = par_sheets(a) if sheets is None else sheets
    charts = chart_images(a) if charts is None else charts
    head = f"PAR sheet: {a.game.name}, bet level {a.level}"
    cells = [Cell("markdown", f"<h1>{html.escape(head)}</h1>")]
    for sheet in sheets:
        cells += _sheet_cells(sheet)
    if charts:
        cells.append(Cell("markdown", '<h2 id="Charts">Charts</h2>'))
        cells += [_chart_cell(c) for c in charts]
    return cells


def html_text(analysis, charts: list[Chart] | None = None,
              sheets: tuple[Sheet, ...] | None = None) -> str:
    """The self-contained HTML report of ``analysis`` (``charts=[]``: without charts)."""
    a = analysis
    cells = report_cells(a, charts, sheets)
    title = html.escape(f"PAR sheet: {a.game.name}, bet level {a.level}")
    body = "\n".join(c.html for c in cells)
    return (f'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
            f"<title>{title}</title><style>{STYLE}</style></head>\n<body>\n{body}\n"
            "</body></html>\n")


def write_html(analysis, path: str | os.PathLike, **kwargs) -> None:
    """Write the HTML report to ``path`` whole or not at all; ``kwargs`` go to
    :func:`html_text`."""
    from slotmath.io.output import write_files

    write_files({"html": (path, html_text(analysis, **kwargs).encode("utf-8"))})
