#!/usr/bin/env bash
# The ROS tier (make test-ros; make test runs it whenever a ROS 2 Jazzy is found): the runtime
# conformance suite with ZOO_RUNTIME=ros (every rt test on both runtimes, real message classes from
# install_ros/), then tests/ros/ (scenarios through `ros2 launch`, the `ros2` CLI, `ros2 bag`,
# --processes beside real rclpy nodes, the real clients against bridges under real ROS).
#   tools/test_ros.sh [--if-available] [pytest args...]
# --if-available: say in one line that the tier is skipped, and exit 0, where no ROS 2 is found.
set -uo pipefail
ws=$(cd "$(dirname "$0")/.." && pwd)
if_available=no
[ "${1:-}" = --if-available ] && { if_available=yes; shift; }
source "$ws/tools/ros2_find.sh"
if ! robozoo_find_ros "$ws" || [ ! -f "$ws/install_ros/setup.bash" ]; then
  if [ "$if_available" = yes ]; then
    echo "ROS tier: skipped, no ROS 2 Jazzy here (none sourced, no /opt/ros/jazzy, no ../shared/ros2)"
    exit 0
  fi
  echo "ROS tier: no ROS 2 Jazzy with a ROS build of this workspace; run 'make setup' (it finds a sourced one, /opt/ros/jazzy or ../shared/ros2)" >&2
  exit 1
fi
unset ZOO_RUNTIME
source "$ws/tools/ros2_env.sh" || exit 1
cd "$ws"
# A DDS domain of this run's own for the conformance suite (tests/ros/ take one per test).
export ROS_DOMAIN_ID=${ROS_DOMAIN_ID:-$(( RANDOM % 100 + 1 ))}
start=$(date +%s)
# launch_testing's pytest plugins predate current pytest (../shared/ros2/README.md, "Known quirks").
export PYTHONPATH="$ws/tools/pytest_plugins${PYTHONPATH:+:$PYTHONPATH}"
# Paths given on the command line replace the default selection.
targets=(src/zoo_runtime/test tests/ros)
for a in "$@"; do [ -e "${a%%::*}" ] && { targets=(); break; }; done
python -m pytest -q -p no:cacheprovider -p no:launch_testing -p no:launch_ros -p ros_tier \
  --timeout 900 "${targets[@]}" "$@"
rc=$?
echo "ROS tier: took $(( $(date +%s) - start )) s ($ROBOZOO_ROS_ORIGIN, RMW $RMW_IMPLEMENTATION)"
exit $rc
