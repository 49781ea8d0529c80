"""Dead pays: pay-table entries that no outcome of the game can show.

A game file can advertise a pay that its strips never let land: a wild's own 3-of-a-kind when
the wild is never on reel 1, a scatter's 5 when only four reels carry it. The PAR sheet's pay
table lists the entries that are hit, so such a pay would silently be missing from it;
``slotmath analyze`` names it instead (a line on stderr, ``dead_pays`` in the JSON), and
``slotmath check`` fails it ("never").

An entry is dead when its exact hit count is 0 on the paid spin's reels (for a cascading game,
over every drop of its chain) and on the free-spin reels when the free spins can start (their
first window). Hit counts are those of the pay table (the direct method, over the full cycle,
on the reels as listed: random wilds and base-game modifiers are not in it), so an entry always
beaten on its line by a higher pay counts as never hit too.
"""

from __future__ import annotations

from fractions import Fraction

__all__ = ["dead_pay_lines", "dead_pays", "warn_dead_pays"]


def _advertised(analysis) -> list[dict]:
    """Every entry the pay table offers at the analysis's level, in pay-table order."""
    game, level, model = analysis.game, analysis.level, analysis.context.model
    cpb = model.credits_per_bet
    out = [{"kind": "pay", "symbol": key, "count": count,
            "pay_x_bet": float(Fraction(credits, cpb))}
           for key in model.keys for count, credits in sorted(model.key_credits[key].items())
           if credits > 0]
    for name in game.scatters:
        sym = game.symbols[name]
        listed = sorted(set(sym.pays) | {c for col in sym.level_pays.values() for c in col})
        out += [{"kind": "scatter", "symbol": name, "count": c,
                 "pay_x_bet": float(game.scatter_pay(name, c, level))}
                for c in listed if sym.pay_at(c, level) > 0]
    return out


def _scatter_entry(game, name: str, count: int) -> int | None:
    """The listed count whose pay ``count`` scatters earn (a count above the top listed one
    earns the top pay; one between listed counts earns nothing)."""
    sym = game.symbols[name]
    listed = set(sym.pays) | {c for col in sym.level_pays.values() for c in col}
    if count in listed:
        return count
    return max(listed) if listed and count > max(listed) else None


def dead_pays(analysis) -> list[dict]:
    """The pay-table entries no outcome of the game can show, at the analysis's bet level.

    Parameters
    ----------
    analysis : slotmath.analysis.Analysis

    Returns
    -------
    list of dict
        One ``{"kind": "pay" or "scatter", "symbol", "count", "pay_x_bet"}`` per dead entry
        (``pay_x_bet``: line pays in multiples of the total bet, as in the pay table), in
        pay-table order; empty when every entry can land.

    Examples
    --------
    >>> from slotmath import loads_game, analyze
    >>> game = loads_game('''
    ... rows = 1
    ... bet = 1
    ... paylines = [[0, 0, 0]]
    ... [symbols]
    ... W = { wild = true, pays = { 3 = 50 } }
    ... A = { pays = { 3 = 10 } }
    ... B = {}
    ... [reels]
    ... base = [["A", "B"], ["A", "W"], ["A", "W", "B"]]
    ... ''')
    >>> dead_pays(analyze(game))
    [{'kind': 'pay', 'symbol': 'W', 'count': 3, 'pay_x_bet': 50.0}]
    """
    from slotmath.exact.direct import direct_method
    from slotmath.report.figures import is_exact

    game, level = analysis.game, analysis.level
    composition = analysis.composition
    if composition.owner is not None:  # a feature plays the round: it knows what lands
        figures = composition.stationary[composition.owner.name]
        if hasattr(figures, "shown_pays"):
            owned = figures.shown_pays  # None: not known exactly (e.g. simulated): say nothing
            return [] if owned is None else [
                e for e in _advertised(analysis)
                if (e["kind"], e["symbol"], e["count"]) not in owned]
    shown: set[tuple[str, str, int]] = set()
    # the paid spin's window (a cascading one's every drop): the rows of symbol_table and
    # scatter_table, read without making the tables (no pandas on the JSON's path)
    window = analysis.features["pays"]
    shown |= {("pay", p.symbol, int(p.count)) for p in window.pays
              if (p.hits if window.hit_counts else Fraction(str(p.rtp) if is_exact(p.rtp)
                                                            else ""))}
    scatters = [(s.symbol, s.count, s.weight) for s in window.scatters]
    shown |= {("scatter", s, int(c)) for s, c, w in scatters if w}
    fs = game.free_spins
    if fs is not None and fs.reels != "base" and any(  # the free spins can start
            s == fs.trigger and w and fs.award_for(int(c)) for s, c, w in scatters):
        d = direct_method(game, fs.reels, level, analysis.context.model)
        shown |= {("pay", p.key, p.count) for p in d.pays if p.hits}
        shown |= {("scatter", s, c) for s, counts in d.scatter_counts.items()
                  for c, w in counts.items() if w}
    shown |= {("scatter", s, entry) for kind, s, c in list(shown) if kind == "scatter"
              for entry in [_scatter_entry(game, s, c)] if entry is not None}
    return [e for e in _advertised(analysis)
            if (e["kind"], e["symbol"], e["count"]) not in shown]


def dead_pay_lines(analysis, file=None) -> list[str]:
    """One warning line per dead pay (what ``slotmath analyze`` prints on stderr).

    Examples
    --------
    >>> from slotmath import loads_game, analyze
    >>> game = loads_game('''
    ... rows = 1
    ... bet = 1
    ... paylines = [[0, 0, 0]]
    ... [symbols]
    ... W = { wild = true, pays = { 3 = 50 } }
    ... A = { pays = { 3 = 10 } }
    ... [reels]
    ... base = [["A"], ["A", "W"], ["A", "W"]]
    ... ''')
    >>> dead_pay_lines(analyze(game), "g.toml")
    ['slotmath: warning: g.toml: pay W x3 (50 x bet) can never land: no outcome of the game shows it, so the pay table leaves it out']
    """
    where = f"{file}: " if file is not None else ""
    return [f"slotmath: warning: {where}{e['kind']} {e['symbol']} x{e['count']} "
            f"({e['pay_x_bet']:g} x bet) can never land: no outcome of the game shows it, so "
            "the pay table leaves it out" for e in dead_pays(analysis)]


def warn_dead_pays(analysis, file=None, stream=None) -> None:
    """Print :func:`dead_pay_lines` on ``stream`` (default: stderr), nothing when none."""
    import sys

    for line in dead_pay_lines(analysis, file):
        print(line, file=sys.stderr if stream is None else stream)
