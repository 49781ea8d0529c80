"""Hold & win in the PAR reports: the JSON section and the round's top award, the workbook's
tables (the chain's figures, the start counts, the booster table and the tail of the round's
win), the summary rows, the component's error and the compliance check's entry
(``analysis.features["hold_and_win"]``, :class:`slotmath.features.hold_and_win.HoldAndWinSummary`)."""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction

import pandas as pd

from slotmath.report.figures import ROUNDOFF, figure, figure_row, figure_table, one_in, rules_table

__all__ = ["entries", "errors", "hold_and_win_section", "json_section", "simulation",
           "simulation_text", "summary", "tables", "top_award"]

#: Round wins (total bets) at which the tail of the respin round's law is reported.
TAIL_AT = (10, 50, 100, 250, 500, 1000, 2000, 5000, 10000, 20000)


def hold_and_win_section(a) -> dict:
    """Trigger, RTP, fill probability, booster frequencies, expected respins and the tail of
    the respin round's win (per started round); every figure ``{"exact", "float"}``
    (:func:`slotmath.report.figures.figure`: exact text where the chain is exact)."""
    h = a.features["hold_and_win"]
    spec = a.game.hold_and_win
    return {
        "trigger_probability": figure(h.trigger_probability),
        "trigger_one_in": (figure(1 / float(h.trigger_probability))
                           if h.trigger_probability else None),
        "rtp": figure(h.rtp),
        "rtp_scope": _rtp_scope(spec),
        "exact": h.exact,
        "rtp_error": h.error,
        "expected_win": figure(h.expected_win),
        "expected_respins": figure(h.expected_respins),
        "fill_probability": figure(h.fill_probability),
        "boosters": {
            kind: {"at_least": {str(j + 1): figure(p) for j, p in enumerate(levels)},
                   "expected_per_round": figure(sum(levels))}
            for kind, levels in h.booster_levels.items()
        },
        "tail": [{"at_least_bets": x, "probability": figure(h.at_least(x))} for x in TAIL_AT],
        "tail_scope": "per started respin round (its win in total bets, multiplier included)",
        "law_error": h.law_error,
        "method": ("absorbing chain over (held, respins left, gem progress) solved by backward "
                   "induction (values by linearity); the win law from the record of held "
                   "counts at each value step and an FFT of the value laws"
                   + ("" if h.exact else "; float64")),
        "states": next(f for f in a.round.features
                       if f.name == "hold_and_win").chain.n_states,
        "symbol": spec.symbol,
        "start_probabilities": {str(k): figure(p) for k, p in
                                a.round.start_probabilities("hold_and_win").items()},
        **({"named": {r["name"]: {
            "value_x_bet": figure(r["value"]), "full_grid": r.get("full_grid", False),
            "rounds_showing_it": figure(r["at_least_one"]),
            "one_in": figure(1 / r["at_least_one"]) if r["at_least_one"] else None,
            "expected_per_round": figure(r["expected"])} for r in named},
            "named_scope": "per paid round, over the respin rounds the paid spin starts"}
           if (named := named_odds(a)) else {}),
    }


def _rtp_scope(spec) -> str:
    """What ``rtp`` counts, beside the round's ``components.hold_and_win``."""
    out = "the mean win of the respin rounds the paid spin starts, per paid round"
    if spec.in_free_spins:
        return out + ("; those started inside free spins are not in it "
                      "(components.hold_and_win counts both)")
    return out + ("; components.hold_and_win may differ: the components split the round's RTP "
                  "by source")


def named_odds(a) -> list[dict]:
    """Each named value (``[hold_and_win] named_values``: a Link game's fixed jackpots) and the
    named full grid (``full_grid_name``), per paid round over the respin rounds the paid spin
    starts: P(a round shows at least one), the expected number shown, 1 in N.

    The values held are drawn independently of the chain (see
    :mod:`slotmath.model.hold_and_win`), so given the cash symbols held at the end, ``N``,
    a value of probability ``q`` shows at least once with ``1 - (1 - q)^N`` and ``N q`` times on
    average; ``N``'s law per start count is the chain's record (:meth:`~slotmath.markov.
    hold_and_win.HoldAndWinChain.records`; float64 on a float chain), mixed by the start
    counts' exact probabilities per paid round. Exact (Fractions) on an exact chain."""
    spec = a.game.hold_and_win
    if not spec.named_values and spec.full_grid_name is None:
        return []
    chain = next(f for f in a.round.features if f.name == "hold_and_win").chain
    return named_value_odds(spec, chain, a.round.start_probabilities("hold_and_win"))


def named_value_odds(spec, chain, starts: Mapping) -> list[dict]:
    """:func:`named_odds` for the rules ``spec``, their respin chain ``chain`` (a
    :class:`~slotmath.markov.hold_and_win.HoldAndWinChain` of ``spec``) and the start counts'
    probabilities per paid round ``starts`` (held count -> probability): what a panel that
    edits the rules shows before any analysis of the edited game.

    Examples
    --------
    >>> from slotmath.markov.hold_and_win import HoldAndWinChain
    >>> from slotmath.model.hold_and_win import HoldAndWin
    >>> spec = HoldAndWin("C", 1, 1, Fraction(1, 2), (Fraction(1), Fraction(5)), (3, 1),
    ...                   rows=1, max_rows=1, reels=2, named_values=(("MINI", Fraction(5)),))
    >>> chain = HoldAndWinChain(spec, exact=True)
    >>> [(r["name"], r["at_least_one"]) for r in named_value_odds(spec, chain, {1: Fraction(1, 10)})]
    [('MINI', Fraction(11, 320))]

    (Per paid round: a tenth of them start with 1 of the 2 positions held; its one respin
    fills the other with 1/2, so the round ends with 1 or 2 cash symbols, each 5 with 1/4:
    (1/2 x 1/4 + 1/2 x (1 - (3/4)^2)) / 10 = 11/320.)
    """
    if not spec.named_values and spec.full_grid_name is None:
        return []
    ends: dict = {}  # (full, held at the end) -> probability per paid round
    for held, p in starts.items():
        records = (chain.records(held) if chain.exact
                   else {k: v[0] for k, v in chain.float_records([held]).items()})
        for (_, full, end, _), q in records.items():
            ends[full, end] = ends.get((full, end), 0) + p * q
    total = sum(spec.value_weights)
    out = []
    for name, value in spec.named_values:
        q = Fraction(spec.value_weights[spec.values.index(value)], total)
        some = sum((m * (1 - (1 - q) ** n) for (_, n), m in ends.items()), Fraction(0))
        mean = sum((m * n * q for (_, n), m in ends.items()), Fraction(0))
        out.append({"name": name, "value": value, "at_least_one": some, "expected": mean})
    if spec.full_grid_name is not None:
        full = sum((m for (f, _), m in ends.items() if f), Fraction(0))
        out.append({"name": spec.full_grid_name, "value": spec.full_grid_prize,
                    "at_least_one": full, "expected": full, "full_grid": True})
    return out


def simulation(result, game) -> dict:
    """A simulation's named values (``named_values``, ``full_grid_name``): per paid round over
    the respin rounds the paid spin starts, the share of rounds showing each at least once,
    the mean number shown and 1 in N, the simulated counterpart of :func:`named_odds`
    (nothing for a game without names).

    Examples
    --------
    >>> import slotmath
    >>> game = slotmath.load_game("data/games/golden_link.toml")
    >>> doc = simulation(slotmath.simulate(game, 20_000, seed=1), game)
    >>> [row["name"] for row in doc["hold_and_win_named_values"]]
    ['MINI', 'MINOR', 'MAJOR', 'GRAND']
    """
    details = result.details.get("hold_and_win")
    if not details:
        return {}
    rows = [{**row, "one_in": 1 / row["at_least_one"] if row["at_least_one"] else None}
            for row in details["named_values"]]
    return {"hold_and_win_named_values": rows}


def simulation_text(result, game) -> list[str]:
    """:func:`simulation` as lines of text: each name's 1 in N and 95% interval."""
    rows = simulation(result, game).get("hold_and_win_named_values", [])
    lines = []
    for row in rows:
        p, n = row["at_least_one"], result.spins
        half = 1.96 * (p * (1 - p) / n) ** 0.5
        odds = f"1 in {1 / p:,.0f}" if p else "not seen"
        lines.append(f"{row['name']:<8s} ({row['value']:g} x bet) in {p:.6%} of rounds "
                     f"+/- {half:.6%} ({odds}; {row['expected']:.6g} shown per round)")
    return lines


def top_award(a) -> dict:
    """The advertised top award (``[hold_and_win] top_award``): a paid round paying at least
    that many total bets, with its probability per paid round (numerical)."""
    spec = a.game.hold_and_win
    d = a.distribution
    bets = d.credits / d.credits_per_bet
    p = float(d.probs[bets >= float(spec.top_award)].sum())
    return {
        "multiple": figure(spec.top_award),
        "probability": figure(p),
        "one_in": 1 / p if p else None,  # a float, as every game's max_win.one_in
        "scope": "paid round paying at least this multiple (hold_and_win.top_award)",
        "paid_spin_top": {"multiple": figure(a.top_award.multiple),
                          "one_in": a.top_award.one_in},
    }


def json_section(a) -> dict:
    out = {"hold_and_win": hold_and_win_section(a)}
    if a.game.hold_and_win.top_award is not None:
        out["max_win"] = top_award(a)
    return out


def errors(a) -> dict[str, float]:
    h = a.features["hold_and_win"]
    return {} if h.exact else {"hold_and_win": h.error + ROUNDOFF}


def _method(h) -> str:
    return "exact" if h.exact else "numerical: float64 respin chain"


def tables(a) -> list:
    """The rules, the chain's figures per started round, the start counts, each booster's
    P(fires at least j times) and the tail of the started round's win."""
    h, spec = a.features["hold_and_win"], a.game.hold_and_win
    feature = next(f for f in a.round.features if f.name == "hold_and_win")
    rules = rules_table([
        ("cash symbol", spec.symbol),
        ("trigger (cash symbols in the window)", spec.trigger),
        ("respins (reset on a landing)", spec.respins),
        ("rows at the start / at most", f"{spec.rows} / {spec.max_rows}"),
        ("top award (x bet, a round paying at least)",
         "none" if spec.top_award is None else float(spec.top_award)),
    ])
    error = h.error if not h.exact else 0.0
    figures = figure_table([
        figure_row("trigger probability", h.trigger_probability),
        figure_row("trigger: 1 in", one_in(h.trigger_probability)),
        figure_row("RTP contribution", h.rtp, error + ROUNDOFF, _method(h)),
        figure_row("win per started round (x bet)", h.expected_win, None, "float64 of the "
                   "chain's figures, mixed over the start counts"),
        figure_row("respins per started round", h.expected_respins, None, "float64"),
        figure_row("P(grid filled) per started round", h.fill_probability, None, "float64"),
        figure_row("chain states", feature.chain.n_states, 0.0, "count"),
    ])
    starts = pd.DataFrame(
        [{"held at the start": k, "probability": float(p), "probability_exact": str(p)}
         for k, p in a.round.start_probabilities("hold_and_win").items()],
        columns=["held at the start", "probability", "probability_exact"])
    boosters = pd.DataFrame(
        [{"booster": kind, "fires at least": j + 1, "probability": float(p)}
         for kind, levels in h.booster_levels.items() for j, p in enumerate(levels)],
        columns=["booster", "fires at least", "probability"])
    tail = pd.DataFrame([{"round win at least (x bet)": x, "probability": h.at_least(x),
                          "error": h.law_error} for x in TAIL_AT],
                        columns=["round win at least (x bet)", "probability", "error"])
    named = pd.DataFrame(
        [{"name": r["name"], "value (x bet)": float(r["value"]),
          "rounds showing it (per paid round)": float(r["at_least_one"]),
          "1 in": float(1 / r["at_least_one"]) if r["at_least_one"] else float("inf"),
          "expected per paid round": float(r["expected"]),
          "exact": str(r["at_least_one"]) if isinstance(r["at_least_one"], Fraction) else ""}
         for r in named_odds(a)],
        columns=["name", "value (x bet)", "rounds showing it (per paid round)", "1 in",
                 "expected per paid round", "exact"])
    # (a game without boosters has no boosters table: an empty one would be an empty sheet)
    return [("Hold & win: rules", rules), ("Hold & win: figures", figures),
            ("Hold & win: start counts (per paid round)", starts),
            *([("Hold & win: named values (jackpots)", named)] if len(named) else []),
            *([("Hold & win: boosters (per started round)", boosters)] if len(boosters) else []),
            ("Hold & win: tail of a started round's win", tail)]


def summary(a) -> list[tuple[str, str]]:
    h = a.features["hold_and_win"]
    if not h.trigger_probability:
        return [("hold & win: trigger", "never")]
    return [("hold & win: trigger", (f"{float(h.trigger_probability):.6%}  (1 in "
             f"{float(one_in(h.trigger_probability)):.1f})")),
            ("hold & win: win per round (x bet)", f"{float(h.expected_win):.4f}"),
            ("hold & win: respins per round", f"{float(h.expected_respins):.4f}")]


def entries(a) -> dict[str, tuple]:
    """GLI-11's entry to the feature: the trigger, exact."""
    p = a.features["hold_and_win"].trigger_probability
    return {"hold & win trigger": (p, 0.0, "" if p else "the trigger cannot show on the reels")}
