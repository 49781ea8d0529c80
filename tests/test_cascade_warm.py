"""The free-spin chain computed while the paid reels are enumerated (features.cascades._warm):
the round reads that chain, and it is the chain of the free reels' law computed on its own."""

from __future__ import annotations

import numpy as np

import slotmath
from slotmath.exact.cascades import LawRequest, cascade_law, cascade_laws
from slotmath.features.base import Context
from slotmath.features.cascades import FREE, CascadeFreeSpins, _build_round, _laws_at_once, table
from slotmath.markov.cascade_free_spins import CarriedFreeSpins

GAME = "tests/data/cascades/tiny_free_spins.toml"


def test_done_hears_each_law_in_order_as_merged():
    game = slotmath.load_game(GAME)
    heard = []
    requests = [LawRequest(game.free_spins.reels, True, True, True, False), LawRequest()]
    laws = cascade_laws(game, requests, done=lambda i, law: heard.append((i, law)))
    assert [i for i, _ in heard] == [0, 1]
    assert all(law is laws[i] for i, law in heard)
    alone = [cascade_law(game, r.reel_set, free=r.free, keep_a=r.keep_a, lean=r.lean,
                         entries=r.entries) for r in requests]
    for law, one in zip(laws, alone):
        assert dict(law.joint.items()) == dict(one.joint.items()) and law.mean == one.mean


def test_the_round_reads_the_warmed_chain_of_the_free_law_alone():
    game = slotmath.load_game(GAME)
    fs = game.free_spins
    ctx = Context(game, 1)
    _laws_at_once(ctx, "base", None)  # the paid table first, as the CLI's report asks
    feature = _build_round(game, lambda name, level: table(ctx, name))
    assert isinstance(feature, CascadeFreeSpins)
    chain = feature.chain
    assert chain is feature.free.weights.law.chain[1]  # the one warmed
    # the free reels' law enumerated alone, its chain built afresh (no warm, no shared cache)
    law = cascade_law(game, fs.reels, free=True, keep_a=True, lean=True, entries=False)
    fresh = CarriedFreeSpins(fs, dict(law.joint.items()), law.cycle, law.credits_per_bet,
                             feature.beta)
    assert dict(chain.spin.items()) == fresh.spin
    assert chain.cycle == fresh.cycle and chain.beta == fresh.beta == \
        game.cascades.rule(free=True).step * fs.multiplier
    spins = sorted({min(v, fs.max_spins) for v in fs.awards.values()})
    for n in spins:
        for index in (0, 2):
            assert chain.mean(n, index) == fresh.mean(n, index)
            assert chain.second_moment(n, index) == fresh.second_moment(n, index)
        assert chain.spins_distribution(n) == fresh.spins_distribution(n)
        x, y = feature.samples(n)
        fx, fy = fresh.samples(n)
        assert np.array_equal(x, fx) and np.array_equal(y, fy)


def test_the_warm_builds_the_chain_before_the_paid_reels_are_merged():
    """The free reels are enumerated first, their chain built and warmed before the paid
    reels' law is merged; the paid table is the paid reels' law."""
    game = slotmath.load_game(GAME)
    stages = []
    ctx = Context(game, 1, progress=lambda stage, done, total: stages.append(stage))
    free_name = FREE + game.free_spins.reels
    warmed_before_paid = []

    def paid_report(done, total):
        warmed_before_paid.append(any(getattr(law.joint, "chain", None) is not None
                                      for law in seen))
    seen = []
    import slotmath.features.cascades as fc
    warm = fc._warm
    fc._warm = lambda g, law: (warm(g, law), seen.append(law))
    try:
        base = _laws_at_once(ctx, "base", paid_report)
    finally:
        fc._warm = warm
    assert stages and stages[0].startswith(free_name)
    assert len(seen) == 1 and seen[0] is ctx.laws[free_name]
    assert warmed_before_paid and all(warmed_before_paid)
    _, chain = seen[0].joint.chain
    assert chain._sampled and "_solve" in chain.__dict__
    assert base is ctx.laws["base"]
    alone = cascade_law(game, lean=True)
    assert dict(base.joint.items()) == dict(alone.joint.items()) and base.mean == alone.mean


def test_the_free_spins_table_asked_first_enumerates_the_paid_reels_with_it(monkeypatch):
    """``analyze(game).rtp`` asks for the free spins' table before the paid spin's pays: the
    paid reels are enumerated in the same pool, after the free reels, with the chain warmed
    between them (before, the free reels were enumerated alone, then the paid reels, and the
    chain after both); the laws are the ones computed one at a time."""
    import slotmath.features.cascades as fc

    game = slotmath.load_game(GAME)
    free_name = FREE + game.free_spins.reels
    calls, seen = [], []
    warm = fc._warm
    import slotmath.exact.cascades as ec
    original = ec.cascade_laws
    monkeypatch.setattr(ec, "cascade_laws", lambda g, requests, *a, **k: (
        calls.append([r.reel_set for r in requests]), original(g, requests, *a, **k))[1])
    monkeypatch.setattr(fc, "_warm", lambda g, law: (warm(g, law), seen.append(law)))
    ctx = Context(game, 1)
    free = table(ctx, free_name)
    assert calls == [[game.free_spins.reels, "base"]]
    assert len(seen) == 1 and seen[0] is ctx.laws[free_name]
    assert "base" in ctx.laws
    table(ctx, "base")
    assert calls == [[game.free_spins.reels, "base"]]  # read, not enumerated again
    alone = cascade_law(game, lean=True)
    assert dict(ctx.laws["base"].joint.items()) == dict(alone.joint.items())
    assert free.cycle == cascade_law(game, game.free_spins.reels, free=True, keep_a=True,
                                     lean=True, entries=False).cycle
