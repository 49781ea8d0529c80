"""The JSON document of ``slotmath analyze --json`` (plain dicts of str / int / float).

The head (RTP, components, hit frequency, SD, volatility, top award, confidence intervals,
win sizes, pays and scatters) is the same for every game; each declared feature then adds its
own section (its ``json`` hook, :mod:`slotmath.features.registry`); a feature the game does
not have has no section.
"""

from __future__ import annotations

from fractions import Fraction

from slotmath.features.base import hook
from slotmath.report.dead_pays import dead_pays
from slotmath.report.figures import figure
from slotmath.report.modes import modes_section
from slotmath.report.pays import pay_records, scatter_records
from slotmath.report.tables import confidence_rows

__all__ = ["analysis_dict", "distribution_notes"]

#: what the "coin_round" section means, for a game with a stationary feature or an operation
COIN_ROUND_MEANING = ("paid round with every wheel spin paying coins and no cap (exact); the "
                      "hit frequency, SD, distribution and win sizes are of this round")


def number(value):
    """An exact number as an int when whole, else a float (the game's own parameters)."""
    value = Fraction(value)
    return value.numerator if value.denominator == 1 else float(value)


def distribution_notes(a) -> dict:
    """How the round distribution was computed and its error bounds (probability mass)."""
    if a.distribution_exact:
        return {"method": "exact full-cycle enumeration", "exact": True}
    n = a.distribution
    out = {
        "method": "FFT over the free-spins chain, convolved with the exact base spin",
        "exact": False,
        "aliased_mass_bound": n.aliased_mass_bound,
        "dropped_mass": n.dropped_mass,
        "noise_floor": n.noise_floor,
        "mean_error": abs(n.mean_bets - float(a.round.mean)),  # against its own exact mean
    }
    rounding = getattr(n, "rounding_bets", 0.0)
    if rounding:  # wins moved to a coarser grid than their exact one (past MAX_GRID points)
        out["win_rounding_bets"] = rounding
    return out


def target_section(a) -> dict:
    """The designer's RTP target (``target_rtp``, in percent) and the RTP's difference from
    it (exact where both are), for a game that states one; empty otherwise.

    >>> import slotmath
    >>> from dataclasses import replace
    >>> game = slotmath.load_game("data/games/tiny_lines.toml")
    >>> target_section(slotmath.analyze(replace(game, target_rtp=92)))["rtp_minus_target"]
    {'exact': '-29/11200', 'float': -0.002589285714285714}
    """
    target = a.game.target_rtp
    if target is None:
        return {}
    difference = (a.rtp - Fraction(target) / 100 if a.exact
                  else a.rtp_float - float(target) / 100)
    return {"target_rtp": number(target), "rtp_minus_target": figure(difference)}


def _head(a) -> dict:
    game = a.game
    return {
        "name": game.name,
        "bet": game.bet,
        "bet_level": a.level,
        "total_bet": game.total_bet(a.level),
        "rtp": figure(a.rtp) if a.exact else figure(a.rtp_float),
        "rtp_float": a.rtp_float,
        "rtp_exact": a.exact,
        "rtp_error": a.rtp_error,
        "components": {k: figure(v) for k, v in a.components.items()},
        "components_float": {k: float(v) for k, v in a.components.items()},
    }


def _round_figures(a, rows=None) -> dict:
    """The round's figures; ``rows``: :func:`confidence_rows` of ``a`` being computed beside
    (a :class:`~slotmath.exact.workers.Background`), read last."""
    mw = a.top_award
    notes, win_sizes = distribution_notes(a), a.win_sizes
    pays, scatters = pay_records(a), scatter_records(a)
    intervals, method, _ = rows.result() if rows is not None else confidence_rows(a)
    return {
        "hit_frequency": figure(a.hit_frequency),
        "hit_frequency_float": float(a.hit_frequency),
        "base_hit_frequency": figure(a.base_hit_frequency),
        "std": figure(float(a.std)),
        "std_with_jackpots": figure(float(a.std_total)),
        "variance": figure(a.variance),
        "volatility_index": {"90": figure(float(a.volatility_index(0.90))),
                             "95": figure(float(a.volatility_index(0.95)))},
        "max_win": {
            "multiple": figure(Fraction(mw.multiple)),
            "probability": figure(mw.probability),
            "one_in": mw.one_in,
            "scope": "paid spin",
        },
        "cycle": a.base_table.cycle,
        "credits_per_bet": a.base_table.credits_per_bet,
        "confidence_intervals": [
            {"spins": int(r["spins"]), "95": [r["lower_95"], r["upper_95"]],
             "90": [r["lower_90"], r["upper_90"]]}
            for r in intervals
        ],
        "confidence_intervals_method": method,
        "round_distribution": notes,
        "win_sizes": [
            {"band": r.label, "probability": figure(r.probability),
             "rtp_share": figure(r.rtp_share)}
            for r in win_sizes
        ],
        "pays": pays,
        "scatters": scatters,
    }


def analysis_dict(a, beside: bool = False) -> dict:
    """Everything the PAR sheet shows; every figure in one shape, :func:`figure`.

    A figure is ``{"exact": "p/q" or None, "float": x}`` (docs/game-format.md, "The JSON
    document"); counts, the game's own parameters, "1 in N" readings, error bounds and the
    ``*_float`` copies kept for older readers are plain numbers.

    ``beside``: the confidence intervals (the mean of up to 1e8 rounds, by FFT powers of the
    round's law: Frozen Gems ~0.5 s) are computed in a forked child while this process makes
    the other sections (:class:`~slotmath.exact.workers.Background`); for an analysis whose
    figures are computed already (the CLI's, after its stages): the child reads them. The
    same document.

    Examples
    --------
    >>> import slotmath
    >>> d = analysis_dict(slotmath.analyze(slotmath.load_game("data/games/tiny_lines.toml")))
    >>> sorted(d["components"])
    ['free_spins', 'lines', 'scatter']
    >>> d["rtp"]
    {'exact': '411/448', 'float': 0.9174107142857143}
    """

    owner = a.composition.owner
    if owner is not None:  # it plays the whole round: its document
        return hook(owner, "json")(a) | {"dead_pays": dead_pays(a)}
    game = a.game
    rows = None
    if beside:
        from slotmath.exact.workers import Background

        rows = Background(confidence_rows, a)
    sections = [hook(f, "json") for f in a.declared]
    sections = [section(a) for section in sections if section is not None]
    out = _head(a) | _round_figures(a, rows) | {"dead_pays": dead_pays(a)}
    out |= target_section(a) | modes_section(a)
    if game.coin_value is not None:
        out["coin_value"] = number(game.coin_value)
        out["currency"] = game.currency
        out["bet_value"] = number(game.bet_value(a.level))
    if a.composition.carried or a.composition.operations:
        out["coin_round"] = {"rtp": figure(a.round.mean), "rtp_float": float(a.round.mean),
                             "meaning": COIN_ROUND_MEANING}
    for section in sections:
        out |= section
    return out
