"""``python -m coupled_wave_gait.search``: see :mod:`.cli`."""
import sys

from .cli import main

sys.exit(main())
