"""Game modes in the reports (``[modes.NAME]``, :mod:`slotmath.model.modes`): the JSON
``modes`` section, the text PAR sheet's "Game modes" table and the workbook's Modes sheet.

Each mode's figures come from its own analysis (:attr:`slotmath.analysis.Analysis.modes`):
the RTP, components and SD per amount the mode costs; the wins (top awards) in total bets of
the game's bet. A bonus buy has no paid spin, so its top award is the round's
(``round_max_win``, read off the round distribution: numerical with round features, its
probability then meaningful only well above the distribution's ``noise_floor``).
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING

from slotmath.report.figures import figure
from slotmath.stats import par

if TYPE_CHECKING:  # pandas is imported where a table is made (the JSON needs none)
    import pandas as pd

__all__ = ["modes_frame", "modes_section", "modes_sheet"]


def _number(value):
    value = Fraction(value)
    return value.numerator if value.denominator == 1 else float(value)


def _mode_figures(m) -> dict:
    """A game mode's figures (``m``: its analysis)."""
    mode = m.game.mode(m.mode)
    out = {
        "cost": _number(mode.cost),
        "rtp": figure(m.rtp) if m.exact else figure(m.rtp_float),
        "rtp_float": m.rtp_float,
        "rtp_exact": m.exact,
        "rtp_error": m.rtp_error,
        "components": {k: figure(v) for k, v in m.components.items()},
        "hit_frequency": figure(m.hit_frequency),
        "std": figure(float(m.std)),
    }
    if mode.buys is None:  # a paid spin: its top award, as the game's max_win
        mw = m.top_award
        out["max_win"] = {"multiple": figure(Fraction(mw.multiple)),
                          "probability": figure(mw.probability), "one_in": mw.one_in,
                          "scope": "paid spin"}
    top = par.top_award(m.distribution)
    out["round_max_win"] = {"multiple": figure(Fraction(top.multiple)),
                            "probability": figure(top.probability), "one_in": top.one_in,
                            "scope": "round", "exact": m.distribution_exact}
    if not m.distribution_exact:
        out["round_max_win"]["noise_floor"] = m.distribution.noise_floor
    if mode.reels is not None:
        out["reels"] = mode.reels
    if mode.buys is not None:
        out["buys"] = mode.buys
        out["trigger"] = {str(k): w for k, w in mode.trigger}
    if mode.description:
        out["description"] = mode.description
    return out


def modes_section(a) -> dict:
    """The ``modes`` section of a game with game modes: each mode's figures by name; empty
    for a game without modes. In a mode's own document: ``mode`` (its name and cost).

    Examples
    --------
    >>> import slotmath
    >>> modes_section(slotmath.analyze(slotmath.load_game("data/games/tiny_lines.toml")))
    {}
    """
    if a.mode is not None:
        return {"mode": {"name": a.mode, "cost": _number(a.game.mode(a.mode).cost)}}
    if not a.game.modes:
        return {}
    return {"modes": {name: _mode_figures(m) for name, m in a.modes.items()}}


def modes_frame(a) -> pd.DataFrame:
    """One row per game mode, the standard game first: cost, RTP (per amount wagered, and
    exactly where it is), hit frequency, SD and the round's top award with its "1 in N".
    Empty for a game without modes."""
    import pandas as pd

    if not a.game.modes or a.mode is not None:
        return pd.DataFrame()
    rows = []
    for name, m in {"(standard)": a, **a.modes}.items():
        cost = Fraction(1) if m.mode is None else m.game.mode(m.mode).cost
        top = par.top_award(m.distribution)
        rows.append({"mode": name, "cost_x_bet": float(cost), "rtp": m.rtp_float,
                     "rtp_exact": str(m.rtp) if m.exact else "",
                     "hit_frequency": float(m.hit_frequency), "sd": float(m.std),
                     "round_max_win_x_bet": float(top.multiple), "one_in": top.one_in})
    return pd.DataFrame(rows)


def modes_sheet(a):
    """The workbook's Modes sheet (None for a game without modes)."""
    from slotmath.report.sheets import Sheet

    frame = modes_frame(a)
    if frame.empty:
        return None
    note = ("RTP and SD per amount the mode costs; wins in total bets of the game's bet. The "
            "round's top award is read off the round distribution (numerical with round "
            "features: a probability near its noise floor is no figure).")
    return Sheet("Modes", (("Game modes", frame),), (note,))
