"""The PAR workbook opens in a real spreadsheet program and shows the same figures.

LibreOffice (Debian's ``libreoffice-calc-nogui``, installed by ``.ci/run``) converts the
workbook headless to a flat OpenDocument spreadsheet (``.fods``, plain XML); the test reads
every sheet's cells from that XML (repeated rows and columns expanded) and requires each cell
the workbook holds, read by openpyxl, to show there with the same value: text equal, numbers
equal to LibreOffice's ``office:value`` within 1e-12 relative or 1e-20 absolute (its flat
ODS export writes at most 20 decimal places; the exact figures are text and compared as
text). A missing
LibreOffice fails the test (it does not skip): CI installs it.
"""

from __future__ import annotations

import io
import math
import shutil
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

import openpyxl

import slotmath
from slotmath.report.workbook import workbook_bytes

GAMES = Path(__file__).resolve().parents[1] / "data" / "games"
NS = {"table": "urn:oasis:names:tc:opendocument:xmlns:table:1.0",
      "office": "urn:oasis:names:tc:opendocument:xmlns:office:1.0",
      "text": "urn:oasis:names:tc:opendocument:xmlns:text:1.0"}


def _q(prefix: str, name: str) -> str:
    return f"{{{NS[prefix]}}}{name}"


def fods_sheets(path: Path) -> dict[str, dict[tuple[int, int], object]]:
    """Sheet title -> {(row, column) 1-based: value} from a flat ODS file."""
    out = {}
    root = ET.parse(path).getroot()
    for table in root.iter(_q("table", "table")):
        cells: dict[tuple[int, int], object] = {}
        r = 0
        for row in table.iter(_q("table", "table-row")):
            rows = int(row.get(_q("table", "number-rows-repeated"), "1"))
            c = 0
            values = []
            for cell in row:
                if cell.tag not in (_q("table", "table-cell"), _q("table", "covered-table-cell")):
                    continue
                repeat = int(cell.get(_q("table", "number-columns-repeated"), "1"))
                kind = cell.get(_q("office", "value-type"))
                if kind in ("float", "percentage", "currency"):
                    value = float(cell.get(_q("office", "value")))
                elif kind == "boolean":
                    value = cell.get(_q("office", "boolean-value")) == "true"
                else:
                    text = "\n".join("".join(p.itertext()) for p in cell.iter(_q("text", "p")))
                    value = text if text else None
                values.append((repeat, value))
            for _ in range(min(rows, 2000)):
                r += 1
                c = 0
                for repeat, value in values:
                    for _ in range(min(repeat, 200)):
                        c += 1
                        if value is not None:
                            cells[r, c] = value
        out[table.get(_q("table", "name"))] = cells
    return out


def test_workbook_opens_in_libreoffice_with_the_same_figures(tmp_path):
    soffice = shutil.which("soffice") or shutil.which("libreoffice")
    assert soffice, "LibreOffice is not installed (apt-get install libreoffice-calc-nogui)"
    game = slotmath.load_game(GAMES / "gold_money_frog.toml")
    data = workbook_bytes(slotmath.analyze(game, 4))
    xlsx = tmp_path / "frog4.xlsx"
    xlsx.write_bytes(data)
    profile = f"-env:UserInstallation=file://{tmp_path / 'profile'}"  # a fresh, private one
    subprocess.run([soffice, "--headless", "--norestore", profile, "--convert-to", "fods",
                    "--outdir", str(tmp_path), str(xlsx)], check=True, capture_output=True,
                   timeout=240)
    converted = fods_sheets(tmp_path / "frog4.fods")
    book = openpyxl.load_workbook(io.BytesIO(data))
    assert set(converted) == set(book.sheetnames)
    compared = 0
    for ws in book.worksheets:
        shown = converted[ws.title]
        for row in ws.iter_rows():
            for cell in row:
                if cell.value is None:
                    continue
                got = shown.get((cell.row, cell.column))
                if isinstance(cell.value, bool):
                    assert got == cell.value, (ws.title, cell.coordinate)
                elif isinstance(cell.value, (int, float)):
                    assert isinstance(got, float) and math.isclose(
                        got, cell.value, rel_tol=1e-12, abs_tol=1e-20), (
                        ws.title, cell.coordinate, cell.value, got)
                else:
                    assert got == str(cell.value), (ws.title, cell.coordinate, cell.value, got)
                compared += 1
    assert compared > 500  # every sheet's figures, not an empty file
