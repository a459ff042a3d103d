# `source tools/ros2_env.sh` (bash): a shell with ROS 2 Jazzy and this workspace's ROS build
# (install_ros/, made by `make setup`), the .venv's Python first on PATH, Cyclone DDS, discovery on
# localhost only. One line and a non-zero status where no ROS 2 or no ROS build is found.
_robozoo_ros_env() {
  local ws
  ws=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
  source "$ws/tools/ros2_find.sh"
  if ! robozoo_find_ros "$ws"; then
    echo "ros2_env: no ROS 2 Jazzy found (none sourced, no /opt/ros/jazzy, no ../shared/ros2 unpacked by 'make setup')" >&2
    return 1
  fi
  if [ ! -f "$ws/install_ros/setup.bash" ]; then
    echo "ros2_env: $ROBOZOO_ROS_ORIGIN found but the workspace has no ROS build: run 'make setup' in $ws" >&2
    return 1
  fi
  # The embedded build (install/, put on the paths by tools/env.sh) must not shadow the ROS one.
  local var
  for var in AMENT_PREFIX_PATH CMAKE_PREFIX_PATH COLCON_PREFIX_PATH PYTHONPATH; do
    export "$var=$(printf '%s' "${!var:-}" | tr ':' '\n' | grep -v "^$ws/install\(/\|$\)" | paste -sd:)"
    [ -n "${!var}" ] || unset "$var"
  done
  export ROS2_PYTHON="$ws/.venv/bin/python"
  export PATH="$ws/.venv/bin:$PATH"
  # colcon's setup scripts must not see `set -u` (a caller's)
  local had_u=no; case $- in *u*) had_u=yes; set +u;; esac
  source "$ROBOZOO_ROS_SETUP" && source "$ws/install_ros/setup.bash"
  local rc=$?
  [ $had_u = yes ] && set -u
  [ $rc -eq 0 ] || return 1
  export ROBOZOO_WS="$ws" ROBOZOO_ROS_ORIGIN
  # Gazebo Harmonic unpacked by set-up (.gz/), for backend:=gazebo; nothing where there is none.
  source "$ws/tools/gz_find.sh" && robozoo_find_gz "$ws" || true
  export RMW_IMPLEMENTATION="${RMW_IMPLEMENTATION:-rmw_cyclonedds_cpp}"
  export ROS_AUTOMATIC_DISCOVERY_RANGE="${ROS_AUTOMATIC_DISCOVERY_RANGE:-LOCALHOST}"
  # Nodes started from this shell use real rclpy (zoo_runtime's choice).
  export ZOO_RUNTIME=ros
}
_robozoo_ros_env
_robozoo_ros_env_rc=$?
unset -f _robozoo_ros_env
if [ "$_robozoo_ros_env_rc" -ne 0 ]; then unset _robozoo_ros_env_rc; return 1 2>/dev/null || exit 1; fi
unset _robozoo_ros_env_rc
