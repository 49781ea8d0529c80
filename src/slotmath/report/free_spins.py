"""Free spins in the PAR reports: the JSON section, the workbook's tables, the summary rows
and the compliance check's entry (``analysis.features["free_spins"]``,
:class:`slotmath.features.free_spins.FreeSpinsSummary`)."""

from __future__ import annotations

from fractions import Fraction

from slotmath.report.figures import figure, figure_row, figure_table, one_in, rules_table

__all__ = ["entries", "json_section", "summary", "tables"]

NEVER = "the trigger can never occur on these reels: the feature is reported as zero"


def json_section(a) -> dict:
    fs, spec = a.features["free_spins"], a.game.free_spins
    out = {
        "trigger_probability": figure(fs.trigger_probability),
        "expected_spins": figure(fs.expected_spins),
        "expected_win": figure(fs.expected_win),
        "rtp": figure(fs.rtp),
        "max_spins": spec.max_spins,
        "spins_distribution_exact": (True if fs.spins_distribution is None
                                     else fs.spins_distribution.exact),
        "spins_tail_mass": (0.0 if fs.spins_distribution is None
                            else fs.spins_distribution.tail_mass),
    }
    if not fs.trigger_probability:
        out["note"] = NEVER
    return {"free_spins": out}


def tables(a) -> list:
    fs, spec = a.features["free_spins"], a.game.free_spins
    awarded = (", ".join(f"{c}: {n}" for c, n in sorted(spec.awards.items()))
               if spec.award_laws is None else
               "; ".join(f"{c}: " + ", ".join(f"{n} (weight {w})" for n, w in law.items())
                         for c, law in sorted(spec.award_laws.items())))
    rows = [
        ("trigger symbol", spec.trigger),
        ("spins awarded (by count)", awarded),
        ("reel set", spec.reels),
        ("win multiplier", spec.multiplier),
        ("retrigger", "yes" if spec.retrigger else "no"),
        ("max spins", "none" if spec.max_spins is None else spec.max_spins),
    ]
    if spec.growth is not None:
        g = spec.growth
        rows.append(("multiplier by spin", "ladder " + " -> ".join(f"x{m}" for m in g.ladder)
                     if g.ladder is not None else
                     f"x{g.start} + {g.step} a spin" + ("" if g.max is None else
                                                        f", at most x{g.max}")))
    if spec.state is not None:
        rows.append(("state", spec.state.kind.replace("_", " ")))
    rules = rules_table(rows)
    if not fs.trigger_probability:
        figures = figure_table([
            figure_row("trigger probability", Fraction(0), method="never: the trigger cannot "
                       "show on these reels; the feature is reported as zero")])
    else:
        figures = figure_table([
            figure_row("trigger probability", fs.trigger_probability),
            figure_row("trigger: 1 in", one_in(fs.trigger_probability)),
            figure_row("spins per feature", fs.expected_spins),
            figure_row("win per feature (x bet)", fs.expected_win),
            figure_row("RTP contribution", a.components["free_spins"]),
        ])
    return [("Free spins: rules", rules), ("Free spins: figures", figures)]


def summary(a) -> list[tuple[str, str]]:
    fs = a.features["free_spins"]
    if not fs.trigger_probability:
        return [("free spins: trigger", "never (the trigger cannot show on these reels)")]
    return [
        ("free spins: trigger", (f"{float(fs.trigger_probability):.6%}  "
                                f"(1 in {float(one_in(fs.trigger_probability)):.1f})")),
        ("free spins: spins per feature", f"{float(fs.expected_spins):.4f}"),
        ("free spins: win per feature (x bet)", f"{float(fs.expected_win):.4f}"),
    ]


def entries(a) -> dict[str, tuple]:
    """GLI-11's entry to the feature: (rate per game, error, note) by subject."""
    p = a.features["free_spins"].trigger_probability
    note = "" if p else (f"the trigger ({a.game.free_spins.trigger}) cannot show in enough "
                         "positions on the base reels")
    return {"free spins trigger": (p, 0.0, note)}
