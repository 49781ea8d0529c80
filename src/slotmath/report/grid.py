"""Grid games in the PAR reports: the JSON document, the PAR tables, the summary rows, the
error bounds and the compliance entries of the owner feature (Megaways, pay anywhere, cluster
pays) and of the parts played in its round (tumbles, multiplier symbols).

Every figure comes from :class:`slotmath.features.grid.GridFigures` (``analysis.features[
name]``). A simulated figure is an :class:`~slotmath.stats.estimate.Estimate`: in the JSON it is
a figure with ``exact`` null, listed under ``simulated`` with its 95 % interval, standard error
and rounds; in the tables its ``method`` says "simulated" with the interval and ``error`` holds
the interval's half-width.
"""

from __future__ import annotations

import math
from fractions import Fraction

import pandas as pd

from slotmath.report.figures import figure, figure_row, figure_table, is_exact, one_in, rules_table
from slotmath.stats.estimate import Estimate, is_estimate, reciprocal, scaled
from slotmath.stats.par import normal_quantile

__all__ = [
    "entries",
    "errors",
    "json_section",
    "multiplier_symbols_summary",
    "multiplier_symbols_tables",
    "rates",
    "summary",
    "tables",
    "tumbles_summary",
    "tumbles_tables",
]


def _owner(a):
    owner = a.composition.owner
    return owner, a.features[owner.name]


def _interval(value) -> dict:
    lo, hi = value.interval()
    return {"float": float(value), "95": [lo, hi if math.isfinite(hi) else None],
            "std_error": value.std_error, "rounds": value.rounds, "kind": value.kind}


def _walk(doc, path=""):
    if isinstance(doc, dict):
        for k, v in doc.items():
            yield from _walk(v, f"{path}.{k}" if path else str(k))
    elif isinstance(doc, list):
        for i, v in enumerate(doc):
            yield from _walk(v, f"{path}[{i}]")
    else:
        yield path, doc


def _percent(value, digits: int = 4) -> str:
    if is_estimate(value):
        lo, hi = value.interval()
        return f"{float(value):.{digits}%} (95%: {lo:.{digits}%} to {hi:.{digits}%})"
    return f"{float(value):.{digits}%}"


# -- the owner --------------------------------------------------------------------------------
def method_dict(figures) -> dict:
    """How the game was analysed: the plan, every estimate, the simulation's rounds."""
    p = figures.plan
    out = {
        "method": p.method,
        "engine": p.engine,
        "text": p.text(),
        "exact_limit": p.settings.exact_limit,
        "estimates": [{"engine": o.engine, "steps": o.steps, "states": o.states,
                       "seconds": o.seconds, "whole_round": o.full,
                       "within_limit": o.steps <= p.settings.exact_limit}
                      for o in p.options],
        "not_exact_because": p.blocked or None,
    }
    sim = figures.simulation
    if sim is not None:
        out["simulation"] = {
            "rounds": sim.rounds, "seed": sim.seed, "blocks": sim.blocks,
            "accuracy": sim.accuracy, "rtp_half_width_95": sim.rtp.half_width(),
            "seconds": sim.seconds, "threads": sim.threads,
            "rounds_per_second": sim.rounds_per_second,
            "sequences_cut_at_max_drops": sim.cut,
            "reproducible": "the same seed gives the same figures on any number of cores",
        }
    return out


def _grid_dict(a, figures) -> dict:
    game = a.game
    g = game.grid
    out = {
        "pays": g.pays,
        "reels": g.n_reels,
        "heights": [{str(h): w for h, w in law.weights.items()} for law in g.heights],
        "window_cells": g.window_cells,
    }
    if g.pays == "ways":
        out["max_ways"] = g.max_ways
        out["max_ways_probability"] = figure(_ways_law(game)[g.max_ways])
        out["ways_in_play"] = [{"ways": w, "probability": figure(p)}
                               for w, p in _ways_law(game).items()]
        if g.top_reel is not None:
            out["top_reel"] = {"reels": [g.top_reel.first, g.top_reel.last]}
    if g.pays == "cluster":
        out["cluster"] = {"min_size": g.cluster_size, "adjacency": g.adjacency}
    return out


def _ways_law(game) -> dict:
    """The law of the ways in play (exact: a product over the reels' height laws)."""
    g = game.grid
    law = {1: Fraction(1)}
    for j, h in enumerate(g.heights):
        extra = 1 if g.top_reel is not None and g.top_reel.covers(j) else 0
        nxt: dict = {}
        for a, p in law.items():
            for height in h.heights:
                key = a * (height + extra)
                nxt[key] = nxt.get(key, 0) + p * h.probability(height)
        law = nxt
    return dict(sorted(law.items()))


def json_section(a) -> dict:
    """The whole ``slotmath analyze --json`` document of a grid game (the owner plays the
    round): the head and round figures in the one figure shape, the method, every simulated
    figure's interval, and each part's section."""
    from slotmath.report.pays import pay_records, scatter_records
    from slotmath.report.tables import confidence_frame

    owner, f = _owner(a)
    game = a.game
    mw = a.top_award
    intervals = confidence_frame(a)
    doc = {
        "name": game.name,
        "bet": game.bet,
        "bet_level": a.level,
        "total_bet": game.total_bet(a.level),
        "rtp": figure(a.rtp) if a.exact else figure(float(a.rtp)),
        "rtp_float": a.rtp_float,
        "rtp_exact": a.exact,
        "rtp_error": a.rtp_error,
        "target_rtp": float(game.target_rtp) if game.target_rtp is not None else None,
        "components": {k: figure(v) for k, v in a.components.items()},
        "components_float": {k: float(v) for k, v in a.components.items()},
        "method": method_dict(f),
        "hit_frequency": figure(a.hit_frequency),
        "hit_frequency_float": float(a.hit_frequency),
        "base_hit_frequency": figure(a.base_hit_frequency),
        "std": figure(float(a.std)),
        "variance": figure(a.variance),
        "volatility_index": {"90": figure(float(a.volatility_index(0.90))),
                             "95": figure(float(a.volatility_index(0.95)))},
        "max_win": {
            "multiple": figure(mw.multiple if is_exact(mw.multiple) else float(mw.multiple)),
            "probability": figure(mw.probability),
            "one_in": mw.one_in if math.isfinite(mw.one_in) else None,
            "scope": ("largest round win seen in the simulation" if is_estimate(mw.multiple)
                      else "paid spin"),
        },
        "cycle": f.base_table.cycle if f.base_table is not None else None,
        "rounds": f.rounds,
        "confidence_intervals": [
            {"spins": int(r.spins), "95": [r.lower_95, r.upper_95], "90": [r.lower_90, r.upper_90]}
            for r in intervals.itertuples()],
        "confidence_intervals_method": intervals.attrs["method"],
        "round_distribution": (_distribution_notes(f) if f.distribution is not None else
                               {"method": "not computed: the round's law is simulated (the "
                                          "win sizes are simulated bands)", "exact": False}),
        "win_sizes": [{"band": r.label, "probability": figure(r.probability),
                       "rtp_share": figure(r.rtp_share)} for r in a.win_sizes],
        "pays": pay_records(a),
        "scatters": scatter_records(a),
        owner.name: _grid_dict(a, f),
    }
    if f.free_spins:
        doc["free_spins"] = {k: figure(v) if not isinstance(v, float) or math.isfinite(v)
                             else None for k, v in f.free_spins.items()}
    for feature in a.declared:
        if feature.kind.value == "part":
            doc[feature.name] = _part_dict(a, feature.name)
    doc["checks"] = [{"figure": name, "exact": figure(exact), "simulated": figure(sim),
                      "simulated_95": list(sim.interval()),
                      "inside": _inside(exact, sim)} for name, exact, sim in f.checks]
    doc["simulated"] = {path: _interval(v) for path, v in _estimates(a)}
    return doc


def _distribution_notes(f) -> dict:
    """How the owner's round law was computed and its bounds (the generic notes read the
    composition's round, which a grid owner plays itself)."""
    from slotmath.exact.distribution import WinDistribution

    d = f.distribution
    if isinstance(d, WinDistribution):
        return {"method": "exact full-cycle enumeration", "exact": True}
    capped = " and capped" if f.game.max_win is not None else ""
    return {"method": f"FFT over the free-spins chain, convolved with the exact paid "
                      f"spin{capped}",
            "exact": False, "aliased_mass_bound": d.aliased_mass_bound,
            "dropped_mass": d.dropped_mass, "noise_floor": d.noise_floor,
            "mean_error": abs(d.mean_bets - float(f.rtp))}  # against its own RTP


def _estimates(a):
    """(path, Estimate) of every simulated headline figure."""
    _, f = _owner(a)
    found = [("rtp", a.rtp), ("hit_frequency", a.hit_frequency),
             ("base_hit_frequency", a.base_hit_frequency), ("variance", a.variance),
             ("std", a.std), ("max_win.multiple", a.top_award.multiple),
             ("max_win.probability", a.top_award.probability)]
    found += [(f"components.{k}", v) for k, v in a.components.items()]
    found += [(f"win_sizes.{r.label}.probability", r.probability) for r in a.win_sizes]
    found += [(f"win_sizes.{r.label}.rtp_share", r.rtp_share) for r in a.win_sizes]
    found += [(f"pays.{p.symbol} x{p.count}.rtp", p.rtp) for p in a.features["pays"].pays]
    found += [(f"free_spins.{k}", v) for k, v in f.free_spins.items()]
    return [(p, v) for p, v in found if is_estimate(v)]


def _inside(exact, sim) -> bool:
    lo, hi = sim.interval(0.999)
    return lo <= float(exact) <= hi


def _part_dict(a, name: str) -> dict:
    part = a.features[name]
    out = {"rtp": figure(part.rtp)}
    if name == "tumbles":
        t = a.game.tumbles
        out["refill"] = t.refill
        out["max_drops"] = t.max_drops
        out["carry_multiplier"] = t.carry_multiplier
        out["drops"] = [{"drops": d, "probability": figure(p)} for d, p in part.drops.items()]
    else:
        m = a.game.multipliers
        out["values"] = {str(v): w for v, w in m.values.items()}
        out["free_values"] = ({str(v): w for v, w in m.free_values.items()}
                              if m.free_values is not None else None)
        out["combine"] = m.combine
        out["carry"] = m.carry
        out["mean_value"] = figure(m.mean_value(False))
    return out


def _figure_rows(items) -> pd.DataFrame:
    rows = []
    for name, value in items:
        if is_estimate(value) or is_exact(value):
            rows.append(figure_row(name, value))
        else:
            rows.append(figure_row(name, value, None, "numerical"))
    return figure_table(rows)


def tables(a) -> list[tuple[str, pd.DataFrame]]:
    """The owner's PAR tables: the method and its estimates, the simulated figures with their
    intervals, the exact figures beside the simulation, the grid, the free spins."""
    owner, f = _owner(a)
    p = f.plan
    out = []
    est = pd.DataFrame([{"engine": o.engine, "steps": o.steps, "states": o.states,
                         "seconds (estimated)": o.seconds,
                         "whole round": "yes" if o.full else "paid spin",
                         "within limit": "yes" if o.steps <= p.settings.exact_limit else "no"}
                        for o in p.options],
                       columns=["engine", "steps", "states", "seconds (estimated)",
                                "whole round", "within limit"])
    out.append((f"{owner.title}: method", rules_table([
        ("method", p.text()), ("exact limit (steps)", p.settings.exact_limit),
        *([("why not exact", p.blocked)] if p.blocked else []),
        *(_simulation_rows(f.simulation) if f.simulation is not None else []),
    ])))
    if len(est):
        out.append((f"{owner.title}: exact engines and their estimates", est))
    sims = _estimates(a)
    if sims:
        rows = []
        for path, v in sims:
            lo, hi = v.interval()
            rows.append({"figure": path, "value": float(v), "lower_95": lo,
                         "upper_95": hi if math.isfinite(hi) else None,
                         "std_error": v.std_error, "rounds": v.rounds})
        out.append((f"{owner.title}: simulated figures (95% intervals)", pd.DataFrame(rows)))
    if f.checks:
        rows = []
        for name, exact, sim in f.checks:
            lo, hi = sim.interval()
            rows.append({"figure": name, "exact": float(exact),
                         "exact_text": str(Fraction(exact)) if is_exact(exact) else "",
                         "simulated": float(sim), "lower_95": lo, "upper_95": hi,
                         "agrees (99.9%)": "yes" if _inside(exact, sim) else "NO"})
        out.append((f"{owner.title}: exact figures beside the simulation", pd.DataFrame(rows)))
    g = a.game.grid
    grid_rows = [("pays", g.pays), ("reels", g.n_reels),
                 ("rows per reel", ", ".join(
                     "/".join(f"{h}:{w}" for h, w in law.weights.items()) for law in g.heights)),
                 ("window cells (most)", g.window_cells)]
    if g.pays == "ways":
        law = _ways_law(a.game)
        grid_rows += [("ways in play (most)", g.max_ways),
                      ("P(most ways)", str(law[g.max_ways])),
                      ("P(most ways): 1 in", f"{float(1 / law[g.max_ways]):,.6g}")]
        if g.top_reel is not None:
            grid_rows.append(("top reel over reels", f"{g.top_reel.first} to {g.top_reel.last}"))
    if g.pays == "cluster":
        grid_rows += [("smallest cluster", g.cluster_size), ("adjacency", g.adjacency)]
    out.append((f"{owner.title}: the grid", rules_table(grid_rows)))
    if g.pays == "ways" and g.varies:
        law = _ways_law(a.game)
        out.append((f"{owner.title}: ways in play", pd.DataFrame(
            [{"ways": w, "probability": float(p), "probability_exact": str(p)}
             for w, p in law.items()])))
    if f.free_spins:
        fs = a.game.free_spins
        items = [("trigger probability", f.free_spins["trigger_probability"]),
                 ("trigger: 1 in", reciprocal(f.free_spins["trigger_probability"])
                  if is_estimate(f.free_spins["trigger_probability"])
                  else one_in(f.free_spins["trigger_probability"])),
                 ("spins per feature", f.free_spins["expected_spins"]),
                 ("win per feature (x bet)", f.free_spins["expected_win"]),
                 ("RTP contribution", f.free_spins["rtp"])]
        out.append((f"{owner.title}: free spins", _figure_rows(items)))
        out.append((f"{owner.title}: free spins rules", rules_table([
            ("trigger symbol", fs.trigger),
            ("spins awarded (by count)", ", ".join(f"{c}: {n}" for c, n in
                                                   sorted(fs.awards.items()))),
            ("retrigger", "yes" if fs.retrigger else "no"),
            ("max spins", "none" if fs.max_spins is None else fs.max_spins),
            ("win multiplier", fs.multiplier), ("reel set", fs.reels)])))
    return out


def _simulation_rows(sim) -> list:
    rows = [("simulated rounds", f"{sim.rounds:,}"), ("seed", sim.seed),
            ("blocks (one seed stream each)", sim.blocks),
            ("RTP 95% half-width", f"{sim.rtp.half_width():.6f}")]
    if sim.accuracy is not None:
        rows.append(("accuracy asked (RTP 95% half-width)", f"{sim.accuracy:g}"))
    if sim.cut:
        rows.append(("sequences cut at max_drops", sim.cut))
    return rows


def summary(a) -> list[tuple[str, str]]:
    """Rows for the summary: how the game was analysed (for a simulation: the rounds it took
    for the accuracy asked), the target RTP, the free spins."""
    _, f = _owner(a)
    rows = [("method", f.plan.text())]
    sim = f.simulation
    if sim is not None:
        asked = (f" for a 95% half-width of {sim.accuracy:g} asked" if sim.accuracy is not None
                 else "")
        rows.append(("simulated", (f"{sim.rounds:,} rounds (seed {sim.seed}){asked}: RTP "
                                   f"95% half-width {sim.rtp.half_width():.6f}; the same on any "
                                   "number of cores")))
    target = a.game.target_rtp
    if target is not None:
        rtp = float(a.rtp)
        lo, hi = (a.rtp.interval() if is_estimate(a.rtp) else (rtp, rtp))
        within = lo <= float(target) / 100 <= hi if is_estimate(a.rtp) else None
        rows.append(("target RTP", f"{float(target):.4f}%" + (
            "" if within is None else ("  (within the 95% interval)" if within
                                      else "  (OUTSIDE the 95% interval)"))))
    if f.free_spins:
        p = f.free_spins["trigger_probability"]
        rows.append(("free spins: trigger", _percent(p) + (
            f"  (1 in {1 / float(p):,.1f})" if float(p) else "  (never)")))
    if a.game.grid.pays == "ways":
        law = _ways_law(a.game)
        g = a.game.grid
        rows.append(("ways in play: most", (f"{g.max_ways:,}  (1 in "
                                            f"{float(1 / law[g.max_ways]):,.6g} spins)")))
    return rows


def errors(a) -> dict[str, float]:
    """The 95 % half-width of each simulated RTP component."""
    return {k: v.half_width() for k, v in a.components.items() if is_estimate(v)}


def entries(a) -> dict[str, tuple]:
    """GLI-11's entry to the free spins: (rate per game, error, note)."""
    _, f = _owner(a)
    if not f.free_spins:
        return {}
    p = f.free_spins["trigger_probability"]
    error = p.half_width() if is_estimate(p) else 0.0
    note = "simulated" if is_estimate(p) else ""
    return {"free spins trigger": (p, error, note)}


def _advertised(game, level: int) -> list[tuple[str, str, int, list[int]]]:
    """(subject, symbol, count, the symbol's listed counts) of every pay-table entry that pays
    at ``level``, named as the compliance rules name them."""
    out = []
    for name, sym in game.symbols.items():
        listed = sorted(set(sym.pays) | {c for col in sym.level_pays.values() for c in col})
        for c in listed:
            if sym.pay_at(c, level) > 0:
                kind = "scatter" if sym.scatter else "pay"
                out.append((f"{kind} {name} x{c}", name, c, listed))
    return out


def _in_entry(k: int, c: int, listed: list[int]) -> bool:
    """Whether a count ``k`` is paid as the listed entry ``c`` (the highest listed reached)."""
    higher = [x for x in listed if x > c]
    return k >= c and (not higher or k < higher[0])


def rates(a) -> dict[str, tuple]:
    """Each advertised pay-table entry -> (rate per paid game, error, note) for the
    compliance odds rules: how often the paid spin pays it.

    Exact engines count the hits of the paid spin's first drop over the full cycle: a lower
    bound of the rate per game (later drops and free spins can only add), said in the note. A
    simulation counts the paid spin's drops that paid the entry (first and later) and the
    scatters' final counts over its rounds: a rate with the 95 % half-width of a Poisson
    count as its error; an entry no simulated round paid has rate 0 and says in how many
    rounds it was not seen (its odds cannot be shown by that simulation).
    """
    _, f = _owner(a)
    entries = _advertised(a.game, a.level)
    sim = f.simulation if not f.window.pays or f.window.pays[0].hits is None else None
    out: dict[str, tuple] = {}
    if sim is None:  # exact first-drop hits and final-window scatter weights
        w = f.window
        hits = {(r.symbol, r.count): r.hits for r in w.pays}
        by_count = {(r.symbol, r.count): r.weight for r in w.scatters}
        counted = {r.symbol for r in w.scatters}
        for subject, name, c, listed in entries:
            if subject.startswith("scatter") and name not in counted:
                out[subject] = (Fraction(0), 0.0, ("its count is not tallied by the exact "
                                                  "engine (only the trigger scatter's is)"))
                continue
            rows = by_count if subject.startswith("scatter") else hits  # by count shown
            weight = sum(v for (n, k), v in rows.items() if n == name and _in_entry(k, c, listed))
            note = ("" if subject.startswith("scatter") else
                    "exact: the paid spin's first drop (later drops and free spins add to it)")
            out[subject] = (Fraction(weight, w.cycle), 0.0, note)
        return out
    n = sim.rounds
    paid: dict[tuple[str, int], int] = {}
    for first in (True, False):
        for name, c, hits, _ in sim.pay_rows(first=first):
            paid[name, c] = paid.get((name, c), 0) + hits
    # the simulator tallies the final count of one scatter: the trigger, else the only one
    scatters = [name for name, sym in a.game.symbols.items() if sym.scatter]
    trigger = (a.game.free_spins.trigger if a.game.free_spins is not None
               else scatters[0] if len(scatters) == 1 else None)
    for subject, name, c, listed in entries:
        if subject.startswith("scatter"):
            if name != trigger:
                out[subject] = (0.0, 0.0, ("simulated: only the trigger scatter's count is "
                                          "tallied"))
                continue
            count = sum(v for k, v in sim.trigger_counts.items() if _in_entry(k, c, listed))
        else:  # rows by the count shown: the entry is the highest listed count reached
            count = sum(v for (m, k), v in paid.items() if m == name and _in_entry(k, c, listed))
        if count == 0:
            out[subject] = (0.0, 0.0, (f"simulated: not seen in {n:,} paid rounds (below 1 in "
                                      f"{n / 3:,.0f} at 95 %); a simulation that short cannot "
                                      "show its odds"))
        else:
            error = 1.959964 * math.sqrt(count) / n
            low = ("" if count / n > error else
                   "; too few to show its odds: the interval reaches 0")
            out[subject] = (count / n, error, (f"simulated: {count:,} in {n:,} paid rounds "
                                              f"(rate +- {error:.3g} at 95 %){low}"))
    return out


# -- the parts -------------------------------------------------------------------------------
def tumbles_tables(a) -> list[tuple[str, pd.DataFrame]]:
    part = a.features["tumbles"]
    t = a.game.tumbles
    rows = [("refill", t.refill), ("drops at most (a rule)", t.max_drops),
            ("drop multiplier (paid spin)", _rule_text(t.rule(False))),
            ("drop multiplier (free spins)", _rule_text(t.rule(True))),
            ("multiplier carried over free spins", "yes" if t.carry_multiplier else "no")]
    drops = pd.DataFrame([{"drops that won": d, "probability": float(p),
                           "probability_exact": str(p) if is_exact(p) else "",
                           "lower_95": p.interval()[0] if is_estimate(p) else float(p),
                           "upper_95": p.interval()[1] if is_estimate(p) else float(p)}
                          for d, p in part.drops.items()])
    return [("Tumbles: rules", rules_table(rows)),
            ("Tumbles: figures", _figure_rows([("RTP of the later drops", part.rtp)])),
            ("Tumbles: drops a paid spin wins", drops)]


def _rule_text(rule) -> str:
    if rule.ladder is not None:
        return "ladder " + ", ".join(map(str, rule.ladder))
    text = f"{rule.start} + {rule.step} x drop"
    return text + (f", at most {rule.max}" if rule.max is not None else "")


def tumbles_summary(a) -> list[tuple[str, str]]:
    return [("tumbles: RTP of later drops", _percent(a.features["tumbles"].rtp))]


def multiplier_symbols_tables(a) -> list[tuple[str, pd.DataFrame]]:
    m = a.game.multipliers
    part = a.features["multiplier_symbols"]
    values = pd.DataFrame([{"value": v, "weight": m.values.get(v, 0),
                            "free spins weight": (m.free_values or m.values).get(v, 0)}
                           for v in sorted(set(m.values) | set(m.free_values or {}))])
    rules = [("symbol", m.symbol), ("values combine", m.combine),
             ("free spins accumulate", "yes" if m.carry else "no"),
             ("mean value (paid spin)", f"{float(m.mean_value(False)):.6g}"),
             ("mean value (free spins)", f"{float(m.mean_value(True)):.6g}")]
    return [("Multiplier symbols: rules", rules_table(rules)),
            ("Multiplier symbols: values", values),
            ("Multiplier symbols: figures",
             _figure_rows([("RTP they add (paid spin)", part.rtp)]))]


def multiplier_symbols_summary(a) -> list[tuple[str, str]]:
    return [("multiplier symbols: RTP added", _percent(a.features["multiplier_symbols"].rtp))]


def _vi(value, confidence):
    return scaled(value, normal_quantile(confidence)) if isinstance(value, Estimate) else value
