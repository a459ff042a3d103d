"""``python -m zoo_bringup.gait_search``: see :mod:`.cli`."""
import sys

from .cli import main

sys.exit(main())
