"""The old import path of :mod:`.nao_wave_walk`, kept only for the gait search
(``search/runner.py``, ``search/standin.py``) and zoo_bringup's gait_search, which other changes
move; new code imports ``coupled_wave_gait.nao_wave_walk``. Delete once they do."""
from .nao_wave_walk import PARAM_NAMES, WalkParams  # noqa: F401
