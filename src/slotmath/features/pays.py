"""The paid spin's own window pays (lines or ways, and scatters) as a feature of kind ``pays``.

Every game has it. Its result (:class:`Window`) holds the window's RTP components and the
pay-table and scatter rows with exact fractions, computed once: by the direct method
(:func:`slotmath.exact.direct.direct_method`) on a plain game, or by the game's ``outcome``
feature (cascades: every drop of the chain) when it has one. The PAR tables, the JSON and the
text sheet read these rows; none computes a pay or a scatter figure of its own. Simulator
counterpart: :func:`slotmath.simulate.spins.play_paid_spins`.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property

from slotmath.exact.direct import DirectResult, direct_method
from slotmath.features.base import Feature, Kind

__all__ = ["FEATURE", "PayRow", "ScatterRow", "Window", "window"]


@dataclass(frozen=True)
class PayRow:
    """One pay-table entry and count: ``credits`` per hit (per way for ways games),
    ``hits`` over the full cycle (None when not counted: a cascading spin can pay one entry
    in several drops), ``ways`` summed over the hits (ways games), ``rtp`` exact."""

    symbol: str
    count: int
    credits: int
    hits: int | None
    ways: int | None
    rtp: Fraction


@dataclass(frozen=True)
class ScatterRow:
    """One scatter symbol and count anywhere in the window: its ``weight`` over the full
    cycle, ``pay`` in total bets, ``awards`` (what each round feature started by this count
    awards, by feature name) and its exact ``rtp``."""

    symbol: str
    count: int
    weight: int
    pay: Fraction
    awards: tuple[tuple[str, int], ...]
    rtp: Fraction


@dataclass(frozen=True, eq=False)
class Window:
    """The paid spin's own pays: ``components`` (exact, in total bets; "lines" or "ways",
    "scatter" and any the outcome feature adds), the pay and scatter rows, the full cycle
    and its credits per bet, and ``kind`` ("lines" or "ways")."""

    kind: str
    cycle: int
    credits_per_bet: int
    components: dict
    pays: tuple[PayRow, ...]
    scatters: tuple[ScatterRow, ...]
    direct: DirectResult | None = None  # the direct method's result (a plain game)
    title: str | None = None  # the pay table's title where it is not the plain game's
    note: str | None = None  # what its rows count, where it is not the plain game's

    @cached_property
    def hit_counts(self) -> bool:
        """Whether the pay rows count hits (a plain game) or only RTP (cascades)."""
        return all(p.hits is not None for p in self.pays)


def awards_of(game, symbol: str, count: int) -> tuple[tuple[str, int], ...]:
    """What each declared feature with an ``awards`` table gives for ``count`` of ``symbol``
    (e.g. the free spins a scatter count awards), by feature name."""
    from slotmath.features.registry import REGISTRY

    out = []
    for f in REGISTRY:
        awards = getattr(f, "awards", None)
        if awards is None:
            continue
        if f.present(game):
            out.append((f.name, awards(game, symbol, count)))
    return tuple(out)


def scatter_rows(game, counts: dict[str, dict[int, int]], credits: dict[str, tuple],
                 cycle: int, credits_per_bet: int) -> tuple[ScatterRow, ...]:
    """The scatter rows from each scatter's count weights and its credits by count."""
    rows = []
    for name, by_count in counts.items():
        pays = credits.get(name, ())
        for c in sorted(by_count):
            w = by_count[c]
            credit = pays[c] if c < len(pays) else 0
            rows.append(ScatterRow(name, c, w, Fraction(credit, credits_per_bet),
                                   awards_of(game, name, c),
                                   Fraction(w * credit, cycle * credits_per_bet)))
    return tuple(rows)


def window(context) -> Window:
    """The plain paid spin's window (on the paid reels) by the direct method."""
    d = direct_method(context.game, context.paid_reels, context.level, context.model)
    pays = tuple(PayRow(p.key, p.count, p.credits, p.hits, p.ways if d.kind == "ways" else None,
                        Fraction(p.total_credits, d.cycle * d.credits_per_bet))
                 for p in d.pays)
    scatters = scatter_rows(context.game, d.scatter_counts, d.scatter_credits, d.cycle,
                            d.credits_per_bet)
    components = {k: v for k, v in d.components.items()
                  if k != "scatter" or context.game.scatters}  # no scatter, no component
    return Window(d.kind, d.cycle, d.credits_per_bet, components, pays, scatters, d)


FEATURE = Feature(
    name="pays",
    kind=Kind.PAYS,
    title="Pay table",
    present=lambda game: True,
    window=window,
    result=lambda composition: composition.window,
    tables="slotmath.report.pays:tables",
    simulator="slotmath.simulate.spins:play_paid_spins",
    round_simulator="slotmath.simulate.monte_carlo:simulate_rounds",
    plays=("pays", "free_spins", "bonus_wheel", "jackpots", "max_win_cap"),
    book="slotmath.publish.pays:book",
)
