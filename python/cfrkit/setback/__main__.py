"""``python -m cfrkit.setback ARGS`` runs ``cfrkit setback ARGS``."""

import sys

from .cli import main

sys.exit(main())
