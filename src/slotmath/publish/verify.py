"""``slotmath verify-stake DIR``: Stake Engine's checks of an upload directory, each a plain
line with its figure and where the rule comes from.

Two kinds of rule (read 2025 from StakeEngine/math-sdk and Stake's approval guidelines):

* the format, as the SDK's own verification checks it before upload
  (``utils/rgs_verification.py``: ``verify_lookup_format``, ``verify_books_and_payout_mults``,
  ``compare_payout_values``) and as ``docs/rgs_docs/data_format.md`` states it: ``index.json``
  of the strictly enforced form; lookup-table rows of three unsigned 64-bit integers, no
  header; payouts whole, 0 or at least 10, multiples of 10; the weights' sum within uint64;
  every book a JSON line with ``id``, ``events`` and ``payoutMultiplier``, and the books'
  payouts equal to the table's row by row (the SDK hashes both lists, so the order counts);
* the approval rules for the maths, as the guidelines' users summarise them (Stake Engine
  approval guidelines, "Math" section; distilled in ReSkin-Games/stake-engine-skills,
  ``stake-math-sdk/references/approval-math.md``): the RTP of every mode between 90.0% and
  98.0%; all modes within 0.5% of each other (the SDK itself only warns above a difference
  of 0.05, ``execute_all_tests``); the maximum win more often than 1 in 10,000,000; a hit
  rate of non-zero wins more frequent than 1 in 20 bets.

Figures are computed from the table in exact integer arithmetic (the RTP as a fraction).
The RTP of a mode is the table's mean payout over the mode's ``cost`` (``payoutMultiplier`` is
in hundredths of the base bet; the SDK's ``calculate_rtp(dist, bet_cost)``). When the
export's ``report.json`` is there (a slotmath export), each mode's table RTP is also held to
the exact RTP it states for that mode, within the stated bound (for a law from a seeded
simulation, to the simulated RTP it states, within the change the table made to it).
"""

from __future__ import annotations

import io
import json
import re
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

__all__ = ["APPROVAL", "BadExport", "Check", "VerifyReport", "read_table", "verify_stake"]

UINT64_MAX = 2**64 - 1
SDK = "math-sdk utils/rgs_verification.py"
FORMAT = "math-sdk docs/rgs_docs/data_format.md"
GUIDE = ("Stake Engine approval guidelines, Math (as summarised in ReSkin-Games/"
         "stake-engine-skills approval-math.md)")
#: the approval rules' limits: RTP range, spread between modes, max-win and hit-rate odds
APPROVAL = {"min_rtp": Fraction(90, 100), "max_rtp": Fraction(98, 100),
            "mode_spread": Fraction(5, 1000), "max_win_plays": 10_000_000, "hit_plays": 20}
_UINT = re.compile(r"[0-9]+")


@dataclass(frozen=True)
class Check:
    """One check: what, on which mode, the figure, whether it passed, and the rule's source."""

    name: str
    mode: str
    passed: bool
    figure: str
    source: str

    def line(self) -> str:
        where = f"[{self.mode}] " if self.mode else ""
        return f"{'PASS' if self.passed else 'FAIL'}  {where}{self.name}: {self.figure}  ({self.source})"


@dataclass(frozen=True)
class VerifyReport:
    directory: Path
    checks: tuple[Check, ...]
    rtps: dict

    @property
    def passed(self) -> bool:
        return all(c.passed for c in self.checks)

    def text(self) -> str:
        failed = sum(not c.passed for c in self.checks)
        return "\n".join([f"Stake Engine checks of {self.directory}"]
                         + [c.line() for c in self.checks]
                         + ["all checks pass" if not failed else f"{failed} check(s) FAIL"]) + "\n"


class BadExport(ValueError):
    """The directory cannot be read as an export at all."""


def _index(directory: Path) -> list[dict]:
    path = directory / "index.json"
    if not path.is_file():
        raise BadExport(f"{directory}: no index.json (not a Stake Engine export)")
    try:
        doc = json.loads(path.read_text())
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise BadExport(f"{path}: not JSON: {exc}") from None
    return doc


def _index_checks(doc) -> tuple[list[Check], list[dict]]:
    fields = {"name": str, "cost": (int, float), "events": str, "weights": str}
    problems = []
    modes = doc.get("modes") if isinstance(doc, dict) else None
    if not isinstance(doc, dict) or set(doc) != {"modes"} or not isinstance(modes, list) \
            or not modes:
        problems.append('it must be {"modes": [...]} with at least one mode')
        modes = []
    good = []
    for i, m in enumerate(modes):
        if not isinstance(m, dict) or set(m) != set(fields):
            problems.append(f"mode {i} must have exactly {', '.join(fields)}")
            continue
        bad = [k for k, t in fields.items() if not isinstance(m[k], t) or isinstance(m[k], bool)]
        if bad:
            problems.append(f"mode {i}: {', '.join(bad)} of the wrong type")
            continue
        if not m["events"].endswith(".jsonl.zst"):
            problems.append(f"mode {m['name']}: events must be a .jsonl.zst file")
        if not m["weights"].endswith(".csv"):
            problems.append(f"mode {m['name']}: weights must be a .csv file")
        good.append(m)
    figure = (f"{len(good)} mode(s): " + ", ".join(f"{m['name']} (cost {m['cost']:g})"
                                                     for m in good)) if not problems \
        else "; ".join(problems)
    return [Check("index.json of the enforced form", "", not problems, figure, FORMAT)], good


def read_table(path: Path) -> tuple[list[tuple[int, int, int]], list[str]]:
    """The rows ``(id, weight, payout)`` of a lookup table and the problems of its format
    (each an unsigned 64-bit integer, three a row, no header)."""
    rows, problems = [], []
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            parts = line.strip().split(",")
            if len(parts) != 3 or not all(_UINT.fullmatch(p.strip()) for p in parts):
                if len(problems) < 3:
                    problems.append(f"line {n}: {line.strip()[:60]!r} is not three unsigned "
                                    "integers")
                continue
            values = tuple(int(p) for p in parts)
            if max(values) > UINT64_MAX:
                if len(problems) < 3:
                    problems.append(f"line {n}: a value above uint64")
                continue
            rows.append(values)
    return rows, problems


def _books(path: Path) -> tuple[list[dict], list[str]]:
    import zstandard

    books, problems = [], []
    try:
        with open(path, "rb") as f, zstandard.ZstdDecompressor().stream_reader(f) as reader:
            for n, line in enumerate(io.TextIOWrapper(reader, encoding="utf-8"), 1):
                line = line.strip()
                if not line:
                    continue
                try:
                    blob = json.loads(line)
                except json.JSONDecodeError:
                    problems.append(f"book line {n} is not JSON")
                    break
                missing = [k for k in ("payoutMultiplier", "id", "events") if k not in blob]
                if missing:
                    problems.append(f"book line {n} has no {', '.join(missing)}")
                    break
                books.append({"id": blob["id"], "payoutMultiplier": blob["payoutMultiplier"],
                              "events": len(blob["events"]) if isinstance(blob["events"], list)
                              else None,
                              "final": next((e.get("amount") for e in reversed(blob["events"])
                                             if isinstance(e, dict)
                                             and e.get("type") == "finalWin"), None)
                              if isinstance(blob["events"], list) else None})
    except zstandard.ZstdError as exc:
        problems.append(f"not a zstandard stream: {exc}")
    return books, problems


def _pct(x: Fraction) -> str:
    return f"{float(x):.6%}"


def _mode_checks(directory: Path, mode: dict, report: dict | None) -> tuple[list[Check], Fraction]:
    name = mode["name"]
    checks: list[Check] = []
    table_path, books_path = directory / mode["weights"], directory / mode["events"]
    for path in (table_path, books_path):
        if not path.is_file():
            checks.append(Check(f"file {path.name}", name, False, "missing", FORMAT))
    if not table_path.is_file():
        return checks, None
    rows, problems = read_table(table_path)
    checks.append(Check("lookup table: rows of three uint64, no header", name, not problems
                        and bool(rows),
                        f"{len(rows)} rows" if not problems else "; ".join(problems), SDK))
    if not rows:
        return checks, None
    payouts = [p for _, _, p in rows]
    weights = [w for _, w, _ in rows]
    small = [p for p in payouts if 0 < p < 10]
    odd = [p for p in payouts if p % 10]
    checks.append(Check("payouts 0 or >= 10, multiples of 10", name, not small and not odd,
                        f"{len(set(payouts))} distinct payouts from {min(payouts)} to "
                        f"{max(payouts)} hundredths" + (f"; below 10: {small[:3]}" if small else "")
                        + (f"; not multiples of 10: {odd[:3]}" if odd else ""), SDK))
    total = sum(weights)
    checks.append(Check("sum of weights within uint64", name, 0 < total <= UINT64_MAX,
                        f"{total} ({total.bit_length()} bits)", SDK))
    ids = [i for i, _, _ in rows]
    checks.append(Check("ids 0, 1, 2, ... in order", name, ids == list(range(len(ids))),
                        f"{len(ids)} ids from {ids[0]} to {ids[-1]}", FORMAT))
    if books_path.is_file():
        books, problems = _books(books_path)
        checks.append(Check("books: JSON lines with id, events and payoutMultiplier", name,
                            not problems and len(books) > 0,
                            f"{len(books)} books, {sum(b['events'] or 0 for b in books)} events"
                            if not problems else "; ".join(problems), SDK))
        same = [b["payoutMultiplier"] for b in books] == payouts
        first = next((i for i, (b, p) in enumerate(zip(books, payouts))
                      if b["payoutMultiplier"] != p), None)
        checks.append(Check("books' payouts equal the table's, row by row", name, same,
                            f"{len(books)} books, {len(payouts)} rows" + (
                                "" if same else f"; first difference at row {first}"), SDK))
        checks.append(Check("books' ids equal the table's, row by row", name,
                            [b["id"] for b in books] == ids, f"{len(books)} ids", FORMAT))
        finals = [(b["final"], b["payoutMultiplier"]) for b in books if b["final"] is not None]
        if finals:
            checks.append(Check("each book's finalWin event equals its payout", name,
                                all(a == b for a, b in finals),
                                f"{sum(a == b for a, b in finals)} of {len(finals)} books",
                                "slotmath's own books (events of the round)"))
    # -- the approval rules, from the table in exact arithmetic
    rtp = Fraction(sum(w * p for w, p in zip(weights, payouts)), 100 * total * 1)
    cost = Fraction(str(mode["cost"]))
    rtp = rtp / cost
    lo, hi = APPROVAL["min_rtp"], APPROVAL["max_rtp"]
    checks.append(Check("RTP between 90% and 98%", name, lo <= rtp <= hi,
                        f"{_pct(rtp)} (cost {mode['cost']:g})", GUIDE))
    top = max(payouts)
    p_top = Fraction(sum(w for w, p in zip(weights, payouts) if p == top), total)
    plays = APPROVAL["max_win_plays"]
    checks.append(Check("max win more often than 1 in 10,000,000", name, p_top * plays >= 1,
                        f"{top / 100:g}x, 1 in {float(1 / p_top):,.0f}" if p_top else "never",
                        GUIDE))
    hit = Fraction(sum(w for w, p in zip(weights, payouts) if p > 0), total)
    checks.append(Check("hit rate more often than 1 in 20", name,
                        hit * APPROVAL["hit_plays"] >= 1,
                        f"1 in {float(1 / hit):,.2f} ({_pct(hit)})" if hit else "never", GUIDE))
    if report is not None:
        report = next((m for m in report.get("modes", ()) if isinstance(m, dict)
                       and m.get("mode") == name), None)
    if report is not None and "simulated" in report:  # a law from a seeded simulation
        from slotmath.report.figures import read_figure

        sim = report["simulated"]
        estimate = read_figure(sim["rtp_estimate"])
        bound = float(report.get("rtp_error_bound", 0.0))
        gap = rtp - Fraction(estimate)
        checks.append(Check("table RTP against the simulated RTP of report.json", name,
                            abs(gap) <= Fraction(bound),
                            f"difference {float(gap):+.3e}"
                            + (" (exactly 0)" if gap == 0 else f", stated change {bound:.3e}")
                            + f"; the estimate's standard error {sim['std_error']:.3e} "
                            f"({sim['rounds']:,} rounds, seed {sim['seed']})",
                            "slotmath export report"))
    elif report is not None:
        from slotmath.report.figures import read_figure

        exact = read_figure(report["exact_rtp"])
        bound = float(report.get("rtp_error_bound", 0.0))
        gap = rtp - (exact if isinstance(exact, Fraction) else Fraction(exact))
        tolerance = Fraction(bound) + Fraction(1, 10**15) if not isinstance(exact, Fraction) \
            else Fraction(bound)
        checks.append(Check("table RTP against the exact RTP of report.json", name,
                            abs(gap) <= tolerance,
                            f"difference {float(gap):+.3e}"
                            + (" (exactly 0)" if gap == 0 else f", stated bound {bound:.3e}"),
                            "slotmath export report"))
    return checks, rtp


def verify_stake(directory) -> VerifyReport:
    """Run every check on the export in ``directory`` (see the module notes).

    Raises
    ------
    BadExport
        No ``index.json``, or it is not JSON.
    """
    directory = Path(directory)
    doc = _index(directory)
    checks, modes = _index_checks(doc)
    report = None
    if (directory / "report.json").is_file():
        try:
            report = json.loads((directory / "report.json").read_text())
        except json.JSONDecodeError:
            report = None
    rtps = {}
    for mode in modes:
        mode_checks, rtp = _mode_checks(directory, mode, report)
        checks += mode_checks
        if rtp is not None:
            rtps[mode["name"]] = rtp
    if rtps:
        spread = max(rtps.values()) - min(rtps.values())
        checks.append(Check("modes' RTPs within 0.5% of each other", "",
                            spread <= APPROVAL["mode_spread"],
                            f"{len(rtps)} mode(s), spread {float(spread):.6%}", GUIDE))
    return VerifyReport(directory, tuple(checks), rtps)
