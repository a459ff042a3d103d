"""The old import path of the walk evaluation, now ``gait_player.walk_evaluation`` (the
player's), kept only for the gait search (``search/``) and zoo_bringup's gait_search, which
other changes move. Delete once they import gait_player.walk_evaluation."""
from gait_player.walk_evaluation import WalkStatistics, evaluate_path  # noqa: F401
