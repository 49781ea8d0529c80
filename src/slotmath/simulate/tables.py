"""Integer tables the simulation kernels work on, derived from the compiled game.

The rules live in :mod:`slotmath.evaluate.window` and the game as arrays in
:mod:`slotmath.evaluate.compiled` (:func:`~slotmath.evaluate.compiled.compile_game`: pays,
strips, scatters, awards); this module only re-expresses those arrays as tables indexed by
(reel, stop, ...) so that a numba kernel can pay a spin with a handful of loads. Everything is
in the pay model's integer credits.

Lines
    Symbols that behave identically on a line (same pay-table memberships and, if they
    belong anywhere, the same multiplier) are merged into one *line class*; scatters,
    bonus and non-paying symbols all become the blank class. A line's pay is a function of
    the classes on it, so when ``classes ** reels`` is small it is tabulated once
    (``pay_table``) and each line costs one lookup at the index
    ``sum_j class_j * classes ** (reels - 1 - j)``; ``line_part[j, stop, line]`` holds reel
    j's term of that sum for every line. Most lines pay nothing whatever the later reels
    show once the first reels disagree, so only lines in two bit sets (64 lines a word)
    are looked up: the lines that may still pay after stops s0, s1 of reels 1 and 2
    (``mask_12``), and the lines whose classes at stops s1, s2 of reels 2 and 3 occur
    together in some paying line (``mask_23``, a necessary condition when there are 3
    reels or more). Each is a flat array read at ``a * stride_a + b * stride_b + word``
    for stops a, b; for very long reels the strides are 0 and the one bit set holds every
    line. Otherwise (a huge table, or a single reel)
    ``line_part`` holds the classes and the kernel pays each line by walking the pay-table
    entries.
Ways
    ``ways_count[j, stop, key]``: the ways reel j contributes to pay-table entry ``key``
    (positions showing a member, a multiplier symbol counting as that many).
Scatters and the trigger
    The counts of the counted symbols (every scatter, and the free-spins trigger) are the
    digits, base ``window + 1``, of one number: ``count_code[j, stop]`` is reel j's share,
    and the sum over the reels indexes ``scatter_table`` (credits of all scatters) and
    ``award_table`` (free spins awarded). With too many counted symbols for a table the
    kernel reads the digits and pays each from ``counted_credits[s, count]``.
Bonus wheel
    A line triggers the wheel when its first ``count`` reels all show the wheel symbol
    (wilds never stand in). ``wheel_mask[j, stop, word]`` is the bit set (64 lines a word)
    of the lines that show the symbol on reel j at that stop, for reels j < ``count``; the
    kernel ANDs them and counts the bits. Without a wheel it is empty and never read.
Kernel input
    :func:`spin_tables` gathers the arrays of one reel set and its pay tables into the one
    :class:`~slotmath.simulate._kernels.SpinTables` the kernel reads (``wheel_mask`` None
    without a wheel).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from slotmath.evaluate.compiled import compile_game
from slotmath.evaluate.window import PayModel
from slotmath.model.game import Game
from slotmath.simulate._kernels import SpinTables, line_pay_table

MODE_LINE_TABLE, MODE_LINE_GENERIC, MODE_WAYS = 0, 1, 2
MAX_TABLE_ENTRIES = 1 << 21  # 16 MB of int64 line pays at most
MAX_MASK_ENTRIES = 1 << 20  # stop pairs of reels 1 and 2 with their own line mask, at most
MAX_COUNT_CODES = 1 << 16  # scatter and award tables by count code, at most
NARROW_LIMIT = 1 << 10  # reels of total weight up to this take 16 random bits a stop
WIDE_LIMIT = 1 << 32  # below this 32 bits; a larger total is drawn by the Generator alone


@dataclass(frozen=True, eq=False)
class PayTables:
    """A pay model's rules as arrays (shared by every reel set of the game)."""

    mode: int
    symbol_class: dict[str, int]  # line class of each symbol (lines games)
    n_classes: int
    member: np.ndarray  # uint8 [key, class]: class takes part in the key's run
    class_multiplier: np.ndarray  # int64 [class]
    key_pay: np.ndarray  # int64 [key, run length 0..reels]: credits
    pay_table: np.ndarray  # int64 [classes ** reels] (MODE_LINE_TABLE), else empty
    may_pay_12: np.ndarray  # bool [class on reel 1, class on reel 2]: a line may still pay
    may_pay_23: np.ndarray  # bool [class on reel 2, class on reel 3]: together in a paying line
    counted: tuple[str, ...]  # symbols counted anywhere in the window
    counted_credits: np.ndarray  # int64 [counted symbol, count 0..window]
    count_radix: int  # window + 1: the base of the count code
    scatter_table: np.ndarray  # int64 [count code]: credits of all scatters; or empty
    award_table: np.ndarray  # int64 [count code]: free spins awarded; or empty
    trigger: int  # index of the free-spins trigger in ``counted``; -1 without free spins
    trigger_cap: int
    awards: np.ndarray  # int64 [capped trigger count]: free spins awarded
    credits_per_bet: int
    wheel_symbol: str | None  # the bonus wheel's trigger symbol; None without a wheel
    wheel_count: int  # reels from reel 1 it must show on a line; 0 without a wheel
    wheel_per_line: bool  # one wheel spin per trigger line (else one per spin that triggers)
    wheel_cumulative: np.ndarray  # int64 [division]: cumulative weights of the wheel
    wheel_credits: np.ndarray  # int64 [division]: prize in credits


@dataclass(frozen=True, eq=False)
class ReelTables:
    """One reel set, stop by stop."""

    lengths: np.ndarray  # int64 [reel]
    totals: np.ndarray  # uint64 [reel]: total stop weight
    thresholds: np.ndarray  # uint64 [16 or 32 bits, reel]: (2**bits - total) % total
    weighted: np.ndarray  # bool [reel]
    cumulative: np.ndarray  # int64 [reel, stop]: cumulative weights
    line_part: np.ndarray  # int32 [reel, stop, line]
    mask_strides: np.ndarray  # int64 [4]: strides of mask_12 (2), then of mask_23 (2)
    mask_12: np.ndarray  # uint64 [flat]: lines that may pay (MODE_LINE_TABLE)
    mask_23: np.ndarray  # uint64 [flat]: lines that may pay (MODE_LINE_TABLE)
    ways_count: np.ndarray  # int64 [reel, stop, key]
    count_code: np.ndarray  # int64 [reel, stop]: sum of count * radix ** counted symbol
    wheel_mask: np.ndarray  # uint64 [reel < wheel count, stop, word]: lines showing the symbol
    bit_widths: tuple[int, ...]  # random bits a stop may take: (16, 32), (32,) or ()


def compile_pays(game: Game, model: PayModel, max_table_entries: int = MAX_TABLE_ENTRIES
                 ) -> PayTables:
    """The rules of ``model`` as arrays."""
    compiled = compile_game(game, "base", model.level, model=model)
    n_reels = game.n_reels
    keys = model.keys
    key_pay = np.ascontiguousarray(compiled.entry_credits[:, : n_reels + 1])

    # Line classes: blank first, then by first appearance (symbols in the game's order).
    signatures: dict[tuple, int] = {((), 1): 0}
    symbol_class = {}
    for s, name in enumerate(game.symbols):
        keys_in = tuple(int(k) for k in np.flatnonzero(compiled.member[:, s]))
        signature = (keys_in, int(compiled.symbol_multiplier[s]) if keys_in else 1)
        symbol_class[name] = signatures.setdefault(signature, len(signatures))
    n_classes = len(signatures)
    member = np.zeros((len(keys), n_classes), np.uint8)
    class_multiplier = np.ones(n_classes, np.int64)
    for (keys_in, multiplier), c in signatures.items():
        class_multiplier[c] = multiplier
        for k in keys_in:
            member[k, c] = 1

    pay_table = np.zeros(0, np.int64)
    may_pay_12 = may_pay_23 = np.ones((n_classes, n_classes), np.bool_)
    if game.paylines is None:
        mode = MODE_WAYS
    elif n_reels >= 2 and n_classes**n_reels <= max_table_entries:
        mode = MODE_LINE_TABLE
        pay_table = line_pay_table(n_classes, n_reels, member, class_multiplier, key_pay)
        pays_at_all = pay_table.reshape(n_classes, n_classes, -1) != 0
        may_pay_12 = pays_at_all.any(axis=2)
        if n_reels >= 3:
            pays_at_all = pays_at_all.reshape(n_classes, n_classes, n_classes, -1)
            may_pay_23 = pays_at_all.any(axis=(0, 3))
    else:
        mode = MODE_LINE_GENERIC

    wheel = game.bonus_wheel
    if wheel is not None and (game.paylines is None or not 1 <= wheel.count <= n_reels):
        raise ValueError(f"bonus wheel: needs paylines and a count of 1 to {n_reels} reels")
    if wheel is not None and not 0 < sum(wheel.weights) < 1 << 62:
        raise ValueError(f"bonus wheel: total weight {sum(wheel.weights)} is out of range")
    free_spins = game.free_spins
    counted = list(game.scatters)  # compiled.scatter_credits holds them in this order
    if free_spins is not None and free_spins.trigger not in counted:
        counted.append(free_spins.trigger)
    window = sum(game.rows)
    counted_credits = np.zeros((len(counted), window + 1), np.int64)
    counted_credits[: len(game.scatters)] = compiled.scatter_credits[: len(game.scatters)]
    if free_spins is not None:
        trigger = counted.index(free_spins.trigger)
        trigger_cap = max(free_spins.awards)
        awards = compiled.awards[: trigger_cap + 1].copy()
    else:
        trigger, trigger_cap, awards = -1, 0, np.zeros(1, np.int64)
    radix = window + 1
    if radix ** len(counted) >= 1 << 62:
        raise ValueError(f"{len(counted)} scatter symbols in a window of {window}: too many")
    scatter_table = award_table = np.zeros(0, np.int64)
    if radix ** len(counted) <= MAX_COUNT_CODES:
        digits = np.indices((radix,) * len(counted)).reshape(len(counted), radix ** len(counted))
        digits = digits[::-1]  # digits[s, code]: the count of counted symbol s
        scatter_table = np.zeros(digits.shape[1], np.int64)  # code = sum digit_s radix**s
        for s in range(len(counted)):
            scatter_table += counted_credits[s, digits[s]]
        award_table = np.zeros(digits.shape[1], np.int64)
        if trigger >= 0:
            award_table = awards[np.minimum(digits[trigger], trigger_cap)]
    return PayTables(
        mode=mode, symbol_class=symbol_class, n_classes=n_classes, member=member,
        class_multiplier=class_multiplier, key_pay=key_pay, pay_table=pay_table,
        may_pay_12=may_pay_12, may_pay_23=may_pay_23,
        counted=tuple(counted), counted_credits=counted_credits, count_radix=radix,
        scatter_table=scatter_table, award_table=award_table, trigger=trigger,
        trigger_cap=trigger_cap, awards=awards, credits_per_bet=model.credits_per_bet,
        wheel_symbol=wheel.symbol if wheel is not None else None,
        wheel_count=wheel.count if wheel is not None else 0,
        wheel_per_line=wheel is not None and wheel.per_spin == "per_line",
        wheel_cumulative=np.cumsum(np.array(wheel.weights if wheel else (), np.int64)),
        wheel_credits=np.array(model.wheel_credits, np.int64),
    )


def compile_reels(game: Game, model: PayModel, pays: PayTables, reel_set: str) -> ReelTables:
    """Stop-by-stop tables of one reel set for the rules in ``pays``."""
    reels = game.reel_sets[reel_set].reels
    n_reels = len(reels)
    totals = [reel.cycle for reel in reels]
    if max(totals) >= 1 << 62:
        raise ValueError(f"reel set {reel_set!r}: total stop weight {max(totals)} is too large")
    compiled = compile_game(game, reel_set, model.level, model=model)
    lengths, cumulative = compiled.lengths, compiled.cumulative
    max_len = compiled.strips.shape[1]
    # 16 bits a stop halve the drawing work; they are rejected (and the spin drawn again)
    # with probability below total / 2**16 a reel, so only for short reels.
    bit_widths = tuple(w for w, limit in ((16, NARROW_LIMIT + 1), (32, WIDE_LIMIT))
                       if max(totals) < limit)
    totals_u = np.array(totals if bit_widths else [1] * n_reels, np.uint64)
    thresholds = np.array([[(2**w - t) % t if w in bit_widths else 0 for t in totals]
                           for w in (16, 32)], np.uint64)
    weighted = np.array([reel.weights is not None for reel in reels], np.bool_)

    names = list(game.symbols)
    line_class = np.array([pays.symbol_class[n] for n in names], np.int64)
    counted = np.array([names.index(n) for n in pays.counted], np.int64)
    wheel = names.index(pays.wheel_symbol) if pays.wheel_symbol is not None else -1
    n_lines = compiled.paylines.shape[0]
    n_keys = compiled.member.shape[0] if pays.mode == MODE_WAYS else 0
    line_part = np.zeros((n_reels, max_len, n_lines), np.int32)
    ways_count = np.zeros((n_reels, max_len, n_keys), np.int64)
    count_code = np.zeros((n_reels, max_len), np.int64)
    n_words = max(1, (n_lines + 63) // 64)
    wheel_mask = np.zeros((pays.wheel_count, max_len, n_words), np.uint64)
    for j in range(n_reels):
        L = int(lengths[j])
        window = compiled.strips[j, (np.arange(L)[:, None] + np.arange(game.rows[j])) % L]
        on_line = window[:, compiled.paylines[:, j]]  # [stop, line]: the symbol each line reads
        radix = pays.n_classes ** (n_reels - 1 - j) if pays.mode == MODE_LINE_TABLE else 1
        line_part[j, :L] = line_class[on_line] * radix
        if n_keys:  # positions showing a member, a multiplier symbol counting as many
            ways = compiled.member[:, window] * compiled.symbol_multiplier[window]
            ways_count[j, :L] = ways.sum(axis=2).T
        for s, symbol in enumerate(counted):
            count_code[j, :L] += (window == symbol).sum(axis=1) * pays.count_radix**s
        if j < pays.wheel_count:
            wheel_mask[j, :L] = _bit_sets(on_line == wheel, n_words)
    mask_strides = np.zeros(4, np.int64)
    mask_12 = mask_23 = np.zeros(max(1, (n_lines + 63) // 64), np.uint64)
    if pays.mode == MODE_LINE_TABLE:
        classes = [line_part[j] // pays.n_classes ** (n_reels - 1 - j) for j in range(n_reels)]
        mask_strides[:2], mask_12 = _pair_mask(pays.may_pay_12, *classes[:2])
        if n_reels >= 3:
            mask_strides[2:], mask_23 = _pair_mask(pays.may_pay_23, *classes[1:3])
    return ReelTables(
        lengths=lengths, totals=totals_u, thresholds=thresholds, weighted=weighted,
        cumulative=cumulative, line_part=line_part, mask_strides=mask_strides, mask_12=mask_12,
        mask_23=mask_23, ways_count=ways_count, count_code=count_code, wheel_mask=wheel_mask,
        bit_widths=bit_widths,
    )


def _bit_sets(flags: np.ndarray, words: int) -> np.ndarray:
    """``flags[..., line]`` (bool) as bit sets, 64 lines a word: [..., word] uint64."""
    padded = np.zeros(flags.shape[:-1] + (words * 64,), np.uint64)
    padded[..., : flags.shape[-1]] = flags
    bit = np.uint64(1) << np.arange(64, dtype=np.uint64)
    return (padded.reshape(flags.shape[:-1] + (words, 64)) * bit).sum(axis=-1, dtype=np.uint64)


def _pair_mask(may_pay: np.ndarray, classes_a: np.ndarray, classes_b: np.ndarray):
    """Bit sets of the lines with ``may_pay[class on reel a, class on reel b]``, per pair of
    stops of the two reels (``classes_*[stop, line]``, padded to the longest strip).

    Returns the strides of stops a and b and the bit sets, flat; with too many stop pairs,
    strides 0 and one bit set that holds every line.
    """
    len_a, len_b, n_lines = classes_a.shape[0], classes_b.shape[0], classes_a.shape[1]
    words = max(1, (n_lines + 63) // 64)
    if len_a * len_b > MAX_MASK_ENTRIES:
        keep = np.ones((1, 1, n_lines), np.bool_)
        strides = (0, 0)
    else:
        keep = may_pay[classes_a[:, None, :], classes_b[None, :, :]]
        strides = (len_b * words, words)
    return strides, _bit_sets(keep, words).ravel()


def spin_tables(pays: PayTables, reels: ReelTables) -> SpinTables:
    """The kernel's input for spins of ``reels`` paid by ``pays`` (the wheel masks ``None``
    without a bonus wheel, so that numba compiles the spin loop without them)."""
    return SpinTables(
        lengths=reels.lengths, totals=reels.totals, thresholds=reels.thresholds,
        weighted=reels.weighted, cumulative=reels.cumulative, line_part=reels.line_part,
        mask_strides=reels.mask_strides, mask_12=reels.mask_12, mask_23=reels.mask_23,
        ways_count=reels.ways_count, count_code=reels.count_code,
        wheel_mask=reels.wheel_mask if pays.wheel_count else None,
        wheel_count=pays.wheel_count, mode=pays.mode, pay_table=pays.pay_table,
        member=pays.member, class_multiplier=pays.class_multiplier, key_pay=pays.key_pay,
        count_radix=pays.count_radix, scatter_table=pays.scatter_table,
        award_table=pays.award_table, counted_credits=pays.counted_credits,
        trigger=pays.trigger, trigger_cap=pays.trigger_cap, awards=pays.awards,
    )
