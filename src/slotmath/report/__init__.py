"""PAR-sheet tables (pandas) and their renderings (text, JSON, xlsx workbook, self-contained
HTML), fed by an analysis.

Each name is imported from its module when first read: ``slotmath analyze --json`` reads
:func:`analysis_dict` alone, which needs no pandas (0.25 s to import; the tables, the text,
the workbook and the HTML import it).

Examples
--------
>>> import slotmath
>>> from slotmath import report
>>> a = slotmath.analyze(slotmath.load_game("data/games/tiny_lines.toml"))
>>> report.analysis_dict(a)["name"], report.par_sheet_text(a).splitlines()[0]
('Tiny Lines', 'PAR sheet: Tiny Lines (bet 5 coins, level 1)')
"""

from importlib import import_module

#: each public name -> the module of this package that defines it
_WHERE = {
    "analysis_dict": "json_report",
    "confidence_frame": "tables",
    "distribution_notes": "json_report",
    "html_text": "html",
    "jackpot_frame": "jackpots",
    "par_sheet_text": "text",
    "par_sheets": "sheets",
    "pool_figures": "jackpots",
    "scatter_table": "tables",
    "summary_frame": "tables",
    "symbol_table": "tables",
    "win_size_frame": "tables",
    "workbook_bytes": "workbook",
    "write_html": "html",
    "write_workbook": "workbook",
}

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


def __getattr__(name: str):
    if name not in _WHERE:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(f"{__name__}.{_WHERE[name]}"), name)
    globals()[name] = value
    return value


def __dir__():
    return sorted(set(globals()) | set(_WHERE))
