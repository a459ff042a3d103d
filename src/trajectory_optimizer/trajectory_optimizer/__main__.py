"""``python -m trajectory_optimizer``: the `robozoo plan` command line (cli.main)."""
import sys

from .cli import main

sys.exit(main())
