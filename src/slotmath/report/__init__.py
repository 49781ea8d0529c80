"""PAR-sheet tables (pandas) and their renderings (text, JSON, xlsx workbook, self-contained
HTML), fed by an analysis.

Examples
--------
>>> import slotmath
>>> from slotmath import report
>>> a = slotmath.analyze(slotmath.load_game("data/games/tiny_lines.toml"))
>>> report.analysis_dict(a)["name"], report.par_sheet_text(a).splitlines()[0]
('Tiny Lines', 'PAR sheet: Tiny Lines (bet 5 coins, level 1)')
"""

from slotmath.report.html import html_text, write_html
from slotmath.report.jackpots import jackpot_frame, pool_figures
from slotmath.report.json_report import analysis_dict, distribution_notes
from slotmath.report.sheets import par_sheets
from slotmath.report.tables import (
    confidence_frame,
    scatter_table,
    summary_frame,
    symbol_table,
    win_size_frame,
)
from slotmath.report.text import par_sheet_text
from slotmath.report.workbook import workbook_bytes, write_workbook

__all__ = [
    "analysis_dict",
    "confidence_frame",
    "distribution_notes",
    "html_text",
    "jackpot_frame",
    "par_sheet_text",
    "par_sheets",
    "pool_figures",
    "scatter_table",
    "summary_frame",
    "symbol_table",
    "win_size_frame",
    "workbook_bytes",
    "write_html",
    "write_workbook",
]
