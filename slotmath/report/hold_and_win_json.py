"""The ``hold_and_win`` section of ``slotmath analyze --json`` and the round's top award."""

from __future__ import annotations

from fractions import Fraction

#: Round wins (total bets) at which the tail of the respin round's law is reported.
TAIL_AT = (10, 50, 100, 250, 500, 1000, 2000, 5000, 10000, 20000)


def _exact_or_float(value):
    return str(value) if isinstance(value, (int, Fraction)) else float(value)


def hold_and_win_section(a) -> dict:
    """Trigger, RTP, fill probability, booster frequencies, expected respins and the tail of
    the respin round's win (per started round), exact text beside floats where exact."""
    h = a.hold_and_win
    spec = a.game.hold_and_win
    return {
        "trigger_probability": str(h.trigger_probability),
        "trigger_probability_float": float(h.trigger_probability),
        "trigger_one_in": 1 / float(h.trigger_probability) if h.trigger_probability else None,
        "rtp": _exact_or_float(h.rtp),
        "rtp_float": float(h.rtp),
        "exact": h.exact,
        "rtp_error": h.error,
        "expected_win": h.expected_win,
        "expected_respins": h.expected_respins,
        "fill_probability": h.fill_probability,
        "boosters": {
            kind: {"at_least": {str(j + 1): p for j, p in enumerate(levels)},
                   "expected_per_round": sum(levels)}
            for kind, levels in h.booster_levels.items()
        },
        "tail": [{"at_least_bets": x, "probability": h.at_least(x)} for x in TAIL_AT],
        "tail_scope": "per started respin round (its win in total bets, multiplier included)",
        "law_error": h.law_error,
        "method": ("absorbing chain over (held, respins left, gem progress) solved by backward "
                   "induction (values by linearity); the win law from the record of held "
                   "counts at each value step and an FFT of the value laws"
                   + ("" if h.exact else "; float64")),
        "states": next(f for f in a.round.features
                       if f.name == "hold_and_win").chain.n_states,
        "symbol": spec.symbol,
    }


def top_award(a) -> dict:
    """The advertised top award (``[hold_and_win] top_award``): a paid round paying at least
    that many total bets, with its probability per paid round (numerical)."""
    spec = a.game.hold_and_win
    d = a.distribution
    bets = d.credits / d.credits_per_bet
    p = float(d.probs[bets >= float(spec.top_award)].sum())
    return {
        "multiple": int(spec.top_award) if spec.top_award.denominator == 1 else float(
            spec.top_award),
        "probability": p,
        "one_in": 1 / p if p else None,
        "scope": "paid round paying at least this multiple (hold_and_win.top_award)",
        "paid_spin_top": {"multiple": float(a.top_award.multiple),
                          "one_in": a.top_award.one_in},
    }
