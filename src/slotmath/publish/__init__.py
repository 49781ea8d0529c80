"""Publishing a game: the Stake Engine RGS upload (``slotmath export-stake``) and its checks
(``slotmath verify-stake``).

- :func:`export_stake` (:mod:`slotmath.publish.stake`): ``index.json``, the lookup table
  ``lookUpTable_<mode>_0.csv`` made from the game's exact win law
  (:mod:`slotmath.publish.table`) and the books ``books_<mode>.jsonl.zst``, one real round of
  the game per row (:mod:`slotmath.publish.books`), with a report of every change the export
  makes to the RTP;
- :func:`verify_stake` (:mod:`slotmath.publish.verify`): Stake's format and approval checks of
  any export directory, read back from the files alone.

See ``docs/publish.md``.
"""

from slotmath.publish.cascade_rounds import RoundSearch
from slotmath.publish.stake import (
    STANDARD,
    ModeExport,
    StakeExport,
    export_stake,
    mode_names,
    refusal,
)
from slotmath.publish.table import ROUNDINGS, LookupTable, lookup_table, round_amount
from slotmath.publish.verify import BadExport, VerifyReport, verify_stake

__all__ = ["ROUNDINGS", "STANDARD", "BadExport", "LookupTable", "ModeExport", "RoundSearch",
           "StakeExport", "VerifyReport", "export_stake", "lookup_table", "mode_names", "refusal",
           "round_amount", "verify_stake"]
