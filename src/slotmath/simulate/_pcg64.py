"""NumPy's PCG64 stepped inside numba kernels (private; the simulators' one source of draws).

The compiled simulators draw from the caller's ``numpy.random.Generator(PCG64(seed))``
themselves, so that a seed plays the same rounds in a kernel as in NumPy and the stream goes
on where NumPy's would. Two forms of the same generator:

- a ``uint64`` **state array** (:func:`rng_state`, back with :func:`state_dict`): PCG64's
  state (high, low), its increment (high, low) and NumPy's buffered 32-bit half.
  :func:`next64` and :func:`draw` (``Generator.integers(total)``: Lemire's multiply-shift,
  with NumPy's buffered 32-bit draws below 2**32 and no draw for ``total == 1``) step it;
- four **scalar words** (:func:`words`, back with :func:`set_words`) for a kernel that keeps
  them in locals: :func:`next_double` returns ``Generator.random()``'s double and the new state.

The 128-bit arithmetic is LLVM's (an intrinsic): the LCG step ``state * M + inc`` modulo
2**128 and the high half of a 64 x 64-bit product. The output is XSL-RR 128/64 (O'Neill).
tests/test_pcg64.py compares every function draw for draw with NumPy.
"""

from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.extending import intrinsic

#: PCG64's multiplier (O'Neill's default 128-bit LCG multiplier, as numpy's ``PCG64``)
MULTIPLIER = 0x2360ED051FC65DA44385DF649FCCF645

# the state array: PCG64's state (high, low), increment (high, low), the buffered 32 bits
S_HI, S_LO, INC_HI, INC_LO, HAS32, BUF32 = range(6)

_U32 = np.uint64(32)
_U58 = np.uint64(58)
_U63 = np.uint64(63)
_U64 = np.uint64(64)
_M32 = np.uint64(0xFFFFFFFF)
_MAX64 = np.uint64(0xFFFFFFFFFFFFFFFF)
_ONE = np.uint64(1)
_ZERO = np.uint64(0)
_MASK64 = (1 << 64) - 1


def _pcg64_state(generator: np.random.Generator, who: str) -> dict:
    st = generator.bit_generator.state
    if st["bit_generator"] != "PCG64":
        raise ValueError(f"the {who} plays PCG64, not {st['bit_generator']}")
    return st


def rng_state(generator: np.random.Generator, who: str = "compiled simulator") -> np.ndarray:
    """The PCG64 state of ``generator`` as the kernels' ``uint64`` state array."""
    st = _pcg64_state(generator, who)
    s, inc = st["state"]["state"], st["state"]["inc"]
    return np.array([s >> 64, s & _MASK64, inc >> 64, inc & _MASK64, st["has_uint32"],
                     st["uinteger"]], dtype=np.uint64)


def state_dict(rs: np.ndarray) -> dict:
    """The kernels' state array as ``PCG64().state`` (to continue in NumPy)."""
    v = [int(x) for x in rs]
    return {"bit_generator": "PCG64",
            "state": {"state": (v[S_HI] << 64) | v[S_LO], "inc": (v[INC_HI] << 64) | v[INC_LO]},
            "has_uint32": v[HAS32], "uinteger": v[BUF32]}


def words(generator: np.random.Generator, who: str = "compiled simulator") -> np.ndarray:
    """A PCG64 generator's state and increment as four uint64 words (high, low each)."""
    return rng_state(generator, who)[:4].copy()


def set_words(generator: np.random.Generator, w: np.ndarray) -> None:
    """Write the advanced state of :func:`words` back into ``generator`` (NumPy's buffered
    32-bit half is untouched: :func:`next_double` never uses it)."""
    st = generator.bit_generator.state
    st["state"]["state"] = int(w[0]) << 64 | int(w[1])
    generator.bit_generator.state = st


def _wide(builder, high, low):
    wide = ir.IntType(128)
    return builder.or_(builder.shl(builder.zext(high, wide), ir.Constant(wide, 64)),
                       builder.zext(low, wide))


@intrinsic
def lcg_step(typingctx, high, low, inc_high, inc_low):
    """PCG64's state step, ``state * multiplier + increment`` modulo 2**128, on the state and
    increment given as their high and low 64-bit words; returns the new (high, low)."""
    word = types.uint64
    sig = types.UniTuple(word, 2)(word, word, word, word)

    def codegen(context, builder, signature, args):
        wide, narrow = ir.IntType(128), ir.IntType(64)
        state = builder.add(builder.mul(_wide(builder, args[0], args[1]),
                                        ir.Constant(wide, MULTIPLIER)),
                            _wide(builder, args[2], args[3]))
        return context.make_tuple(builder, signature.return_type, (
            builder.trunc(builder.lshr(state, ir.Constant(wide, 64)), narrow),
            builder.trunc(state, narrow)))

    return sig, codegen


@intrinsic
def mulhi(typingctx, a, b):
    """The high 64 bits of the 128-bit product of two uint64."""
    sig = types.uint64(types.uint64, types.uint64)

    def codegen(context, builder, signature, args):
        wide = ir.IntType(128)
        product = builder.mul(builder.zext(args[0], wide), builder.zext(args[1], wide))
        return builder.trunc(builder.lshr(product, ir.Constant(wide, 64)), ir.IntType(64))

    return sig, codegen


@njit(cache=True, _nrt=False, inline="always")
def output(high, low):
    """PCG64's XSL-RR output of a (new) state."""
    x = high ^ low
    rot = high >> _U58
    return (x >> rot) | (x << ((_U64 - rot) & _U63))


@njit(cache=True, _nrt=False)
def next_double(high, low, inc_high, inc_low):
    """The next double of a PCG64 generator in state (``high``, ``low``) with increment
    (``inc_high``, ``inc_low``), and its new state: what ``Generator.random()`` draws (the top
    53 bits over 2**53). Scalars in and out, for kernels that keep the state in locals."""
    high, low = lcg_step(high, low, inc_high, inc_low)
    return (np.float64(output(high, low) >> np.uint64(11)) * (1.0 / 9007199254740992.0),
            high, low)


@njit(cache=True, _nrt=False, inline="always")
def next64(rs):
    """PCG64's next 64 bits from the state array ``rs`` (advanced in place)."""
    high, low = lcg_step(rs[S_HI], rs[S_LO], rs[INC_HI], rs[INC_LO])
    rs[S_HI], rs[S_LO] = high, low
    return output(high, low)


@njit(cache=True, _nrt=False, inline="always")
def _next32(rs):
    """NumPy's 32-bit draw from PCG64: the low half of a 64-bit draw, the high half kept."""
    if rs[HAS32]:
        rs[HAS32] = _ZERO
        return rs[BUF32]
    v = next64(rs)
    rs[HAS32] = _ONE
    rs[BUF32] = v >> _U32
    return v & _M32


@njit(cache=True, _nrt=False, inline="always")
def draw(rs, total):
    """``Generator.integers(total)`` (``total >= 1``) from the state array: no draw at all
    when ``total == 1``."""
    rng = np.uint64(total - 1)
    if rng == _ZERO:
        return 0
    if rng <= _M32:
        if rng == _M32:
            return np.int64(_next32(rs))
        excl = rng + _ONE
        m = _next32(rs) * excl
        left = m & _M32
        if left < excl:
            threshold = (_M32 - rng) % excl
            while left < threshold:
                m = _next32(rs) * excl
                left = m & _M32
        return np.int64(m >> _U32)
    if rng == _MAX64:
        return np.int64(next64(rs))
    excl = rng + _ONE
    x = next64(rs)
    lo, hi = x * excl, mulhi(x, excl)
    if lo < excl:
        threshold = (_MAX64 - rng) % excl
        while lo < threshold:
            x = next64(rs)
            lo, hi = x * excl, mulhi(x, excl)
    return np.int64(hi)


@njit(cache=True)
def draws(rs, totals, out):
    """``out[i] = integers(totals[i])`` in turn (for the tests)."""
    for i in range(totals.shape[0]):
        out[i] = draw(rs, totals[i])


@njit(cache=True)
def doubles(w, out):
    """``out[i] = random()`` in turn from the words ``w`` (advanced in place; for the tests)."""
    high, low = w[0], w[1]
    for i in range(out.shape[0]):
        out[i], high, low = next_double(high, low, w[2], w[3])
    w[0], w[1] = high, low
