"""Base-game modifiers in the PAR reports: the JSON section, the workbook's table and the
component errors (``analysis.features["modifiers"]``,
:class:`slotmath.features.modifiers.ModifierFigures`)."""

from __future__ import annotations

import pandas as pd

from slotmath.report.figures import ROUNDOFF, exact_text, figure, is_exact

__all__ = ["errors", "json_section", "tables"]


def json_section(a) -> dict:
    """Each base-game modifier's figures (:class:`slotmath.features.modifiers.ModifierShare`):
    its frequency, the window's RTP of a spin it acts on, the RTP of a round it acts on
    (``round``), ``rtp`` = frequency x round (the RTP its spins carry) and ``uplift`` =
    frequency x (round - the plain round's), its entry in ``components``."""
    out = {}
    for name, s in a.features["modifiers"].shares.items():
        out[name] = {
            "kind": s.kind,
            "frequency": figure(s.frequency),
            "lines": figure(s.lines),
            "round": figure(s.round),
            "rtp": figure(s.rtp),
            "uplift": figure(s.uplift),
            "trigger_probability": None if s.trigger is None else figure(s.trigger),
        }
    return {"modifiers": {"by_modifier": out,
            "share": "uplift = frequency x (RTP of a round it acts on - RTP of a plain round), "
                     "the modifier's entry in components (the plain game's parts + the "
                     "uplifts = the RTP); rtp = frequency x RTP of a round it acts on"}}




def errors(a) -> dict[str, float]:
    return {k: v + ROUNDOFF for k, v in a.features["modifiers"].errors.items()}


def tables(a) -> list:
    """Each modifier: its frequency, the RTP of the window and of a round it acts on, the RTP
    its spins carry and its uplift (exact text where exact)."""
    rows = []
    for name, s in a.features["modifiers"].shares.items():
        row = {"modifier": name, "kind": s.kind}
        for key, value in (("frequency", s.frequency), ("window rtp", s.lines),
                           ("round rtp", s.round), ("rtp", s.rtp), ("uplift", s.uplift),
                           ("trigger probability", s.trigger)):
            row[key] = None if value is None else float(value)
            row[f"{key} exact"] = exact_text(value) if is_exact(value) else ""
        rows.append(row)
    return [("Base-game modifiers (per paid round, x bet)", pd.DataFrame(rows))]
