"""The PAR sheet as an xlsx workbook (openpyxl), for the test lab.

Sheets, in order: Summary (the game, the headline figures, and notes saying which figures are
exact and which numerical with their errors), Pay table (exact hit counts; scatters), Reel
strips (every reel set: symbol counts per reel, stop weights where the game has them, the
strips), Win sizes, Confidence, Features (free spins, bonus wheel, each jackpot pool, max-win
cap; left out when the game has none of them) and Charts (PNG images from
:mod:`slotmath.plot`). The content is :func:`slotmath.report.sheets.par_sheets`; this module
only lays it out.

Exact values are text cells ("p/q") beside their decimals, so no program rounds them; every
decimal is stored as the full float64 (shortest round-trip form), whatever the cell shows.
Each table is a bold title row, a bold header row and its data, with one empty row after it.

Examples
--------
>>> import io, openpyxl, slotmath
>>> a = slotmath.analyze(slotmath.load_game("data/games/tiny_lines.toml"))
>>> book = openpyxl.load_workbook(io.BytesIO(workbook_bytes(a, charts=[])))
>>> book.sheetnames
['Summary', 'Pay table', 'Reel strips', 'Win sizes', 'Confidence', 'Features']
"""

from __future__ import annotations

import io
import math
import os

import numpy as np
import pandas as pd

from slotmath.report.charts import Chart, chart_images
from slotmath.report.sheets import Sheet, par_sheets

__all__ = ["cell_value", "workbook_bytes", "write_workbook"]

#: Rows a chart takes on the Charts sheet (a 450-pixel image is about 23 default rows).
CHART_ROWS = 25
MAX_WIDTH = 60


def cell_value(value):
    """What a cell holds for a table entry: plain Python numbers, text for infinities
    ("inf"), None (an empty cell) for missing values.

    Examples
    --------
    >>> cell_value(np.float64(0.5)), cell_value(float("inf")), cell_value(float("nan"))
    (0.5, 'inf', None)
    """
    if value is None or value is pd.NA:
        return None
    if isinstance(value, (np.integer,)):
        return int(value)
    if isinstance(value, (float, np.floating)):
        value = float(value)
        if math.isnan(value):
            return None
        if math.isinf(value):
            return "inf" if value > 0 else "-inf"
        return value
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    if isinstance(value, (int, str)):
        return value
    return str(value)


def _sheet_value(value):
    """What a workbook cell holds: :func:`cell_value`, and the text of an integer a
    spreadsheet number (float64) cannot hold exactly (past 2**53: the hit count of a large
    full cycle), so that no digit is lost.

    Examples
    --------
    >>> _sheet_value(164829706924067488), _sheet_value(2**53), _sheet_value(0.5)
    ('164829706924067488', 9007199254740992, 0.5)
    """
    value = cell_value(value)
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) > 2**53:
        return str(value)
    return value


def _write_sheet(ws, title: str, sheet: Sheet) -> None:
    from openpyxl.styles import Font
    from openpyxl.utils import get_column_letter

    bold = Font(bold=True)
    ws.append([title])
    ws["A1"].font = Font(bold=True, size=14)
    ws.append([])
    widths: dict[int, int] = {}
    if sheet.notes:
        ws.append(["Notes"])
        ws.cell(ws.max_row, 1).font = bold
        for note in sheet.notes:
            ws.append([note])
        ws.append([])
    for table_title, frame in sheet.tables:
        ws.append([table_title])
        ws.cell(ws.max_row, 1).font = bold
        ws.append([str(c) for c in frame.columns])
        for cell in ws[ws.max_row]:
            cell.font = bold
        for i, c in enumerate(frame.columns, 1):
            widths[i] = max(widths.get(i, 0), len(str(c)))
        for row in frame.itertuples(index=False):
            values = [_sheet_value(v) for v in row]
            ws.append(values)
            for i, v in enumerate(values, 1):
                shown = len(v) if isinstance(v, str) else 12 if isinstance(v, float) else 8
                widths[i] = max(widths.get(i, 0), shown)
        ws.append([])
    for i, w in widths.items():
        ws.column_dimensions[get_column_letter(i)].width = min(w + 2, MAX_WIDTH)


def _write_charts(ws, title: str, charts: list[Chart]) -> None:
    from openpyxl.drawing.image import Image
    from openpyxl.styles import Font

    ws.append([title])
    ws["A1"].font = Font(bold=True, size=14)
    row = 3
    for chart in charts:
        ws.cell(row, 1, chart.title).font = Font(bold=True)
        image = Image(io.BytesIO(chart.png))
        image.width, image.height = chart.width, chart.height
        ws.add_image(image, f"A{row + 1}")
        row += CHART_ROWS


def workbook_bytes(analysis, charts: list[Chart] | None = None,
                   sheets: tuple[Sheet, ...] | None = None) -> bytes:
    """The xlsx file of the PAR report of ``analysis``.

    ``charts`` and ``sheets`` default to :func:`~slotmath.report.charts.chart_images` and
    :func:`~slotmath.report.sheets.par_sheets` (pass them to share one rendering with the
    HTML report); ``charts=[]`` leaves the Charts sheet out.
    """
    from openpyxl import Workbook

    a = analysis
    sheets = par_sheets(a) if sheets is None else sheets
    charts = chart_images(a) if charts is None else charts
    book = Workbook()
    book.remove(book.active)
    head = f"{a.game.name}, bet level {a.level}"
    for sheet in sheets:
        _write_sheet(book.create_sheet(sheet.name), f"{head}: {sheet.name}", sheet)
    if charts:
        _write_charts(book.create_sheet("Charts"), f"{head}: charts", charts)
    book.properties.title = f"PAR sheet: {head}"
    book.properties.creator = "slotmath"
    buf = io.BytesIO()
    book.save(buf)
    return buf.getvalue()


def write_workbook(analysis, path: str | os.PathLike, **kwargs) -> None:
    """Write the PAR workbook to ``path`` whole or not at all
    (:func:`slotmath.io.output.write_files`); ``kwargs`` go to :func:`workbook_bytes`."""
    from slotmath.io.output import write_files

    write_files({"xlsx": (path, workbook_bytes(analysis, **kwargs))})
