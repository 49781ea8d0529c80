"""Test-wide settings: under CI, hypothesis runs derandomized (the same examples on every
machine, so a green run is reproducible); locally it explores new examples each run."""

import os

from hypothesis import settings

settings.register_profile("ci", derandomize=True, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")
