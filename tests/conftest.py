"""Test-wide settings.

* Under CI, hypothesis runs derandomized (the same examples on every machine, so a green run
  is reproducible); locally it explores new examples each run.
* Each test starts with no place-modifier DP kept by an earlier test
  (slotmath.exact.modifier_moves): whether a table is computed or moved is the test's own doing.
* The table store (slotmath.exact.store) is a fresh folder for the session, inherited by
  the notebook kernels and servers the suite starts: no test reads a table an earlier run,
  or other code, left in ``~/.cache``. Set ``SLOTMATH_CACHE_DIR`` to share one between runs.
"""

import atexit
import os
import shutil
import tempfile

import pytest
from hypothesis import settings

settings.register_profile("ci", derandomize=True, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")

if not os.environ.get("SLOTMATH_CACHE_DIR"):
    os.environ["SLOTMATH_CACHE_DIR"] = tempfile.mkdtemp(prefix="slotmath-test-store-")
    atexit.register(shutil.rmtree, os.environ["SLOTMATH_CACHE_DIR"], True)

# The CLI says when numba compiles (slotmath.compiling); the suite's parallel workers compile
# in whatever order they run, so a CLI run under test would say it or not by chance. Off here;
# tests/test_compiling.py checks the notice itself.
os.environ.setdefault("SLOTMATH_COMPILE_NOTICE", "0")


@pytest.fixture(autouse=True)
def _no_kept_modifier_dp():
    from slotmath.exact import modifier_moves

    modifier_moves.forget()
