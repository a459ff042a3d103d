"""The ROS tier's launched scenario: zoo_scenario.launched_scenario (benchmarks/bench_ros.py uses
it too)."""
from zoo_scenario.launched_scenario import LaunchedScenario, fully_qualified  # noqa: F401
