"""The ``hold_and_win`` section of ``slotmath analyze --json`` and the round's top award."""

from __future__ import annotations

from slotmath.report.figures import figure

#: Round wins (total bets) at which the tail of the respin round's law is reported.
TAIL_AT = (10, 50, 100, 250, 500, 1000, 2000, 5000, 10000, 20000)


def hold_and_win_section(a) -> dict:
    """Trigger, RTP, fill probability, booster frequencies, expected respins and the tail of
    the respin round's win (per started round); every figure ``{"exact", "float"}``
    (:func:`slotmath.report.figures.figure`: exact text where the chain is exact)."""
    h = a.hold_and_win
    spec = a.game.hold_and_win
    return {
        "trigger_probability": figure(h.trigger_probability),
        "trigger_one_in": (figure(1 / float(h.trigger_probability))
                           if h.trigger_probability else None),
        "rtp": figure(h.rtp),
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
    }


def modifiers_section(a) -> dict:
    """Each base-game modifier's figures (:class:`slotmath.features.modifiers.ModifierShare`):
    its frequency, the window's RTP of a spin it acts on, the RTP of a round it acts on
    (``round``), ``rtp`` = frequency x round (the RTP its spins carry) and ``uplift`` =
    frequency x (round - the plain round's), its entry in ``components``."""
    out = {}
    for name, s in a.modifiers.items():
        out[name] = {
            "kind": s.kind,
            "frequency": figure(s.frequency),
            "lines": figure(s.lines),
            "round": figure(s.round),
            "rtp": figure(s.rtp),
            "uplift": figure(s.uplift),
            "trigger_probability": None if s.trigger is None else figure(s.trigger),
        }
    return {"by_modifier": out,
            "share": "uplift = frequency x (RTP of a round it acts on - RTP of a plain round), "
                     "the modifier's entry in components (the plain game's parts + the "
                     "uplifts = the RTP); rtp = frequency x RTP of a round it acts on"}


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
