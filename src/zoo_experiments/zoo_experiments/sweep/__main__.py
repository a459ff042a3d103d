"""``python -m zoo_experiments.sweep``: the same command as ``bin/robozoo sweep`` (:mod:`.cli`)."""
import sys

from .cli import main

sys.exit(main())
