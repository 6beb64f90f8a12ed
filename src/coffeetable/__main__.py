"""``python -m coffeetable`` is the ``coffeetable`` command."""

import sys

from coffeetable.cli import main

sys.exit(main())
