"""``python -m zoo_experiments.gait_search``: the same command as ``bin/robozoo search``; see
:mod:`.cli`."""
import sys

from .cli import main

sys.exit(main())
