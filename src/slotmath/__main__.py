"""``python -m slotmath``: the same command line as the ``slotmath`` script."""

import sys

from slotmath.cli import main

sys.exit(main())
