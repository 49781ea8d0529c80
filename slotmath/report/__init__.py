"""PAR-sheet tables (pandas) and their renderings (text, JSON), fed by an analysis.

Examples
--------
>>> import slotmath
>>> from slotmath import report
>>> a = slotmath.analyze(slotmath.load_game("data/games/tiny_lines.toml"))
>>> report.analysis_dict(a)["name"], report.par_sheet_text(a).splitlines()[0]
('Tiny Lines', 'PAR sheet: Tiny Lines (bet 5 coins, level 1)')
"""

from slotmath.report.json_report import analysis_dict, distribution_notes
from slotmath.report.tables import (
    confidence_frame,
    jackpot_frame,
    pool_figures,
    scatter_table,
    summary_frame,
    symbol_table,
    win_size_frame,
)
from slotmath.report.text import par_sheet_text

__all__ = [
    "analysis_dict",
    "confidence_frame",
    "distribution_notes",
    "jackpot_frame",
    "par_sheet_text",
    "pool_figures",
    "scatter_table",
    "summary_frame",
    "symbol_table",
    "win_size_frame",
]
