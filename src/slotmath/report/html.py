"""The PAR sheet as one self-contained HTML file: tables and charts, no external resources.

The content is the workbook's (:func:`slotmath.report.sheets.par_sheets` and
:func:`slotmath.report.charts.chart_images`): the same frames, the same exact "p/q" texts
beside their decimals, and every decimal written in full (the shortest text that reads back
as the same float64), so nothing is rounded on the way to the lab. Charts are embedded as
base64 PNG ``data:`` URIs; the style sheet is inline.

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
"""

from __future__ import annotations

import base64
import html
import os
from dataclasses import dataclass

from slotmath.report.charts import Chart, chart_images
from slotmath.report.sheets import Sheet, par_sheets
from slotmath.report.workbook import cell_value

__all__ = ["Cell", "html_text", "report_cells", "write_html"]

STYLE = """
body { font-family: sans-serif; margin: 2em; color: #222; }
h1 { font-size: 1.5em; } h2 { margin-top: 2em; border-bottom: 1px solid #999; }
table { border-collapse: collapse; margin: 0.5em 0 1.5em; font-size: 0.85em; }
th, td { border: 1px solid #ccc; padding: 2px 6px; text-align: left; }
th { background: #eee; } td.number { text-align: right; font-family: monospace; }
td.exact { font-family: monospace; } p.note { max-width: 60em; }
"""


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


def _table(title: str, frame) -> str:
    head = "".join(f"<th>{html.escape(str(c))}</th>" for c in frame.columns)
    body = []
    for row in frame.itertuples(index=False):
        cells = []
        for column, value in zip(frame.columns, row):
            shown = cell_value(value)
            kind = ("number" if isinstance(shown, (int, float)) and not isinstance(shown, bool)
                    else "exact" if str(column).endswith("exact") or column == "exact"
                    else "text")
            cells.append(f'<td class="{kind}">{html.escape(_text(value))}</td>')
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
