"""GLI-11's award rates of a candidate strip, exactly, from one table per window: no
compliance run.

The solver tries about twenty candidate strips of one reel per step; a compliance check of
each (:func:`slotmath.tune.awards.awards`) is a full analysis at every bet level. For the
awards whose rate is a sum over the tuned reel's windows, the rate of a candidate is
composed here instead, exactly:

* **pay-table entries** (``pay KEY xN``, ``scatter S xN``): on the paid reel set, the hits
  (lines: summed over the paylines; ways: the number of winning ways) and the scatter counts
  of a strip are ``sum over windows w of weight(w) x hits_w``, with ``hits_w`` the hits of
  the reel set with the tuned reel showing only ``w`` (one weighted stop); the free spins'
  part adds (expected spins per paid game, from the round law the window tables compose:
  :meth:`ReelTables.round_law`) x (the rates on their own reel set: the same window sums
  when they play the tuned strips, else fixed by the edit);
* **the top award** (``top award M x bet``): the largest win of the paid spin and its
  probability (0 x bet with probability 1 when it never wins, as the check has it), read
  off the paid spin's exact win law the window tables compose.

Not covered (the solver runs the full compliance check for them): entry to each feature
(each feature's own ``checks`` hook, jackpot hits), a reel set other than the paid spin's,
games with several bet levels (an award at its rarest level), and the top award of a game with an
``operation`` feature (a max-win cap re-shapes the paid spin's law). The final game the
solver returns is always confirmed by the full check, and a disagreement on any award this
module covers is an error (:func:`confirm`).
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction

from slotmath.exact.direct import direct_method
from slotmath.features.base import Kind
from slotmath.model.game import Reel, ReelSet
from slotmath.tune.reel_tables import ReelTables

__all__ = ["FastAwards", "FastAwardsMismatch", "confirm"]


class FastAwardsMismatch(RuntimeError):
    """The window tables' rate of an award differs from the compliance check's: a bug."""


class FastAwards:
    """GLI-11's award rates of the reel set with reel ``tables.index`` replaced, for the
    awards the window tables give exactly (see the module notes).

    Examples
    --------
    >>> import slotmath
    >>> from slotmath.tune.awards import awards
    >>> g = slotmath.load_game("data/games/tiny_lines.toml")
    >>> fast = FastAwards(ReelTables(g, "base", 1))
    >>> rates = fast.rates(g.base.reels[1])
    >>> full = awards(g).rates
    >>> all(full[s] == r for s, r in rates.items()), sorted(set(full) - set(rates))
    (True, ['free spins trigger'])
    """

    def __init__(self, tables: ReelTables):
        self.tables = tables
        game, comp = tables.game, tables.composition
        self.why_not = ""
        if tables.reel_set != comp.paid_reels:
            self.why_not = f"reel set {tables.reel_set!r} is not the paid spin's"
        elif tuple(game.bet_levels) != (tables.level,):
            self.why_not = "several bet levels (an award counts at its rarest)"
        elif comp.owner is not None:
            self.why_not = "an owner feature rates the pay table itself"
        self.pays = not self.why_not
        self.top = self.pays and not any(f.kind == Kind.OPERATION for f in comp.declared)
        self._windows: dict = {}
        self._other: dict = {}

    def covers(self, subject: str) -> bool:
        """Whether :meth:`rates` gives ``subject``'s rate (a compliance check's subject)."""
        if subject.startswith(("pay ", "scatter ")):
            return self.pays
        if subject.startswith("top award "):
            return self.top
        return False

    def _window(self, window: tuple) -> tuple[int, dict, dict]:
        """(cycle, hits per (key, count), scatter counts) of the reel set with the tuned reel
        showing only ``window``: a strip of the window's symbols, one stop weighted."""
        if window not in self._windows:
            t = self.tables
            reels = list(t.game.reel_sets[t.reel_set].reels)
            reels[t.index] = Reel(tuple(window), (1,) + (0,) * (len(window) - 1))
            self._windows[window] = self._hits(ReelSet(t.reel_set, tuple(reels)))
        return self._windows[window]

    def _hits(self, rs) -> tuple[int, dict, dict]:
        d = direct_method(self.tables.game, rs, self.tables.level, self.tables.model)
        hits: dict = {}
        for p in d.pays:
            k = (p.key, p.count)
            hits[k] = hits.get(k, 0) + (p.ways if d.kind == "ways" else p.hits)
        return d.cycle, hits, {s: dict(c) for s, c in d.scatter_counts.items()}

    def _entries(self, cycle: int, hits: dict, scatters: dict) -> dict:
        """The advertised entries' rates per spin, as the compliance check names them."""
        game, model, level = self.tables.game, self.tables.model, self.tables.level
        out: dict = {}
        for key in model.keys:
            for count, credits in sorted(model.key_credits[key].items()):
                if credits > 0:
                    out[f"pay {key} x{count}"] = Fraction(hits.get((key, count), 0), cycle)
        for name in game.scatters:
            sym = game.symbols[name]
            listed = sorted(set(sym.pays) | {c for col in sym.level_pays.values() for c in col})
            counts = scatters.get(name, {})
            for c in listed:
                if sym.pay_at(c, level) <= 0:
                    continue
                w = sum(v for k, v in counts.items() if k == c or (c == listed[-1] and k > c))
                out[f"scatter {name} x{c}"] = Fraction(w, cycle)
        return out

    def _weights(self, reel: Reel) -> dict:
        """Each window of ``reel`` and its weight (the window tables' own count)."""
        return self.tables.window_weights(reel)

    def rates(self, reel: Reel) -> dict:
        """Each covered award's exact rate per paid game with the tuned reel ``reel``."""
        t = self.tables
        out: dict = {}
        if self.pays:
            cycle, hits, scatters = 0, {}, {}
            for window, n in self._weights(reel).items():
                c, h, s = self._window(window)
                cycle += n * c
                for k, v in h.items():
                    hits[k] = hits.get(k, 0) + n * v
                for name, counts in s.items():
                    into = scatters.setdefault(name, {})
                    for k, v in counts.items():
                        into[k] = into.get(k, 0) + n * v
            paid = self._entries(cycle, hits, scatters)
            out = dict(paid)
            law = t.round_law(reel)
            for f in law.features:
                if not getattr(f, "reels", None):
                    continue
                other = getattr(f, "reel_set", f.reels)
                if other == t.reel_set:  # the free spins play the tuned strips too
                    self._other[other] = paid
                elif other not in self._other:
                    rs = t.game.reel_sets[other] if isinstance(other, str) else other
                    self._other[other] = self._entries(*self._hits(rs))
                spins = law.feature_spins(f.name)
                for subject, rate in self._other[other].items():
                    out[subject] = out.get(subject, Fraction(0)) + spins * rate
        if self.top:
            f = t.figures(reel)  # the same law as above (ReelTables keeps it)
            # the check's P(the largest win): P(win 0) = 1 on a paid spin that never wins
            out[f"top award {float(f.top_award):,g} x bet"] = f.probability_of(f.top_credits)
        return out


def confirm(fast: Mapping, checked: Mapping, where: str = "") -> None:
    """Raise :class:`FastAwardsMismatch` unless every award in ``fast`` (the window tables'
    rates) has exactly the same rate in ``checked`` (the compliance check's)."""
    for subject, rate in fast.items():
        if subject not in checked or Fraction(checked[subject]) != Fraction(rate):
            raise FastAwardsMismatch(
                f"GLI-11 fast path{where}: {subject} is {rate} by the window tables but "
                f"{checked.get(subject, 'absent')} by the compliance check")
