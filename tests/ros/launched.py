"""The ROS tier's launched scenario: zoo_bringup.launched_scenario (benchmarks/bench_ros.py uses
it too)."""
from zoo_bringup.launched_scenario import LaunchedScenario, fully_qualified  # noqa: F401
