"""The first run says it is compiling (issue 23, item 5): numba's compile event, once."""

import io

import numpy as np
from numba import njit

from slotmath import cli
from slotmath.compiling import NOTICE, announced


def test_a_compilation_is_announced_once_and_summed():
    @njit  # a kernel no cache holds: defined here, never cached
    def twice(a):
        return a * 2

    @njit
    def outer(a):
        return twice(a).sum()

    out = io.StringIO()
    with announced(out) as seen:
        assert outer(np.arange(3)) == 6
        assert outer(np.arange(4)) == 12  # the same types: no new compilation
        assert outer(np.arange(4.0)) == 12.0  # new types: compiled again, no second notice
    lines = out.getvalue().splitlines()
    assert lines[0] == NOTICE and len(lines) == 2
    # outer compiled twice (int64 and float64 arrays); twice and numba's own overloads (the
    # sum) nested in each
    assert seen.kernels == 2 and seen.count >= 4
    assert lines[1].startswith(f"slotmath: compiled {seen.count} functions (2 kernels and what "
                               "they call) in ")


def test_nothing_is_said_when_nothing_compiles():
    @njit
    def inc(x):
        return x + 1

    inc(1)  # compiled before the block
    out = io.StringIO()
    with announced(out) as seen:
        assert inc(2) == 3
    assert out.getvalue() == "" and seen.count == 0


def test_the_cli_announces_unless_told_not_to(monkeypatch, capsys):
    calls = []

    def fake(args):
        @njit
        def f(x):
            return x - 1
        calls.append(f(1))
        return 0

    monkeypatch.setattr(cli, "_check", fake)
    monkeypatch.setenv("SLOTMATH_COMPILE_NOTICE", "1")
    assert cli.main(["check", "whatever.toml"]) == 0
    assert NOTICE in capsys.readouterr().err
    monkeypatch.setenv("SLOTMATH_COMPILE_NOTICE", "0")
    assert cli.main(["check", "whatever.toml"]) == 0
    assert capsys.readouterr().err == "" and calls == [0, 0]
