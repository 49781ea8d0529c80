"""The compiled simulators' PCG64 (slotmath/simulate/_pcg64.py) against NumPy's own generator,
draw for draw: ``Generator.integers(total)`` over every width NumPy treats apart (no draw for
1, buffered 32-bit halves, the full 32-bit range, 64-bit Lemire), ``Generator.random()``, and
the state handed back so that NumPy's stream goes on from the same place."""

from __future__ import annotations

import numpy as np
import pytest

from slotmath.simulate import _pcg64 as P

SPECIAL = [1, 2, 3, 34, 762, 2**31 + 1, 2**32 - 1, 2**32, 2**32 + 1, 2**40 + 7, 2**62 + 3,
           2**63 - 1]


@pytest.mark.parametrize("seed", [0, 1, 2**40 + 7])
def test_integers_are_numpys(seed):
    totals = np.random.default_rng(seed).integers(1, 5000, 3000)
    totals[::5] = 1  # no draw at all
    totals[1::7] = np.random.default_rng(seed + 1).choice(SPECIAL, len(totals[1::7]))
    generator = np.random.Generator(np.random.PCG64(seed))
    rs = P.rng_state(generator)
    out = np.empty(len(totals), dtype=np.int64)
    P.draws(rs, totals, out)
    expected = [generator.integers(int(t)) for t in totals]
    assert out.tolist() == expected
    assert P.state_dict(rs) == generator.bit_generator.state  # the stream goes on the same


@pytest.mark.parametrize("seed", [0, 5, 2**64 + 3])
def test_doubles_are_numpys_and_the_stream_goes_on(seed):
    generator = np.random.Generator(np.random.PCG64(seed))
    generator.integers(7)  # a buffered 32-bit half: doubles neither use nor disturb it
    w = P.words(generator)
    out = np.empty(5000)
    P.doubles(w, out)
    assert out.tolist() == generator.random(5000).tolist()
    twin = np.random.Generator(np.random.PCG64(seed))
    twin.integers(7)
    P.set_words(twin, w)
    # after the write-back both generators are in the same state, buffered half included
    assert twin.bit_generator.state == generator.bit_generator.state
    assert twin.integers(1000, size=50).tolist() == generator.integers(1000, size=50).tolist()


def test_the_state_array_round_trips_and_other_generators_are_refused():
    generator = np.random.Generator(np.random.PCG64(11))
    generator.integers(9)
    assert P.state_dict(P.rng_state(generator)) == generator.bit_generator.state
    with pytest.raises(ValueError, match="plays PCG64, not MT19937"):
        P.rng_state(np.random.Generator(np.random.MT19937(1)), "test kernel")
