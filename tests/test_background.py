"""exact.workers.Background (a computation in a forked child while this process goes on) and
the JSON document it serves: the confidence intervals computed beside the other sections."""

import json
import os
import signal

import pytest

import slotmath
from slotmath import report
from slotmath.exact.workers import Background
from slotmath.report.progress import compute

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="forks a child")


def test_the_answer_comes_from_a_child():
    parent = os.getpid()
    assert Background(os.getpid).result() != parent
    assert Background(sorted, [3, 1, 2]).result() == [1, 2, 3]


def _fails(text):
    raise ValueError(text)


def test_the_childs_error_is_raised_here():
    with pytest.raises(ValueError, match="no such band"):
        Background(_fails, "no such band").result()


def _killed():
    os.kill(os.getpid(), signal.SIGKILL)


def test_a_child_that_dies_is_computed_here():
    # killed in the child (no answer down the pipe); here it answers
    parent = os.getpid()

    def once():
        if os.getpid() != parent:
            _killed()
        return "here"

    assert Background(once).result() == "here"


@pytest.mark.parametrize("path", ["data/games/tiny_lines.toml",
                                  "tests/data/cascades/tiny_free_spins.toml"])
def test_the_document_is_the_same_with_the_intervals_beside(path):
    a = compute(slotmath.analyze(slotmath.load_game(path)))
    alone = json.dumps(report.analysis_dict(a), default=str)
    beside = json.dumps(report.analysis_dict(a, beside=True), default=str)
    assert beside == alone
    assert json.loads(beside)["confidence_intervals"]
