"""``python -m meeple``: the ``meeple`` command."""

import sys

from meeple.tools.cli import main

sys.exit(main())
