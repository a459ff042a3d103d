# Sourced (bash) by tools/setup.sh and tools/ros2_env.sh: which ROS 2 Jazzy this workspace builds
# its ROS half against. One place decides, so the build and the shell always agree. In order:
#   1. a ROS 2 Jazzy already sourced in this shell (its rclpy prefix on AMENT_PREFIX_PATH),
#   2. /opt/ros/jazzy (a user's apt install),
#   3. the test core ../shared/ros2/*.tar.zst, unpacked by tools/setup.sh into .ros2/ (ignored).
# Sets ROBOZOO_ROS_SETUP (the script to source; empty when none) and ROBOZOO_ROS_ORIGIN (a phrase).
# ROBOZOO_ROS=off makes it find none (the embedded world alone).
robozoo_find_ros() {
  local ws=$1 p
  ROBOZOO_ROS_SETUP=""; ROBOZOO_ROS_ORIGIN=""
  [ "${ROBOZOO_ROS:-}" = off ] && return 1
  if [ "${ROS_DISTRO:-}" = jazzy ]; then
    local IFS=:
    for p in ${AMENT_PREFIX_PATH:-}; do
      if [ -f "$p/share/rclpy/package.xml" ] && [ -f "$p/setup.bash" ]; then
        ROBOZOO_ROS_SETUP="$p/setup.bash"; ROBOZOO_ROS_ORIGIN="sourced ROS 2 Jazzy at $p"; return 0
      fi
    done
  fi
  if [ -f /opt/ros/jazzy/setup.bash ]; then
    ROBOZOO_ROS_SETUP=/opt/ros/jazzy/setup.bash; ROBOZOO_ROS_ORIGIN="/opt/ros/jazzy"; return 0
  fi
  if [ -f "$ws/.ros2/ros2-jazzy-core/activate.sh" ]; then
    ROBOZOO_ROS_SETUP="$ws/.ros2/ros2-jazzy-core/activate.sh"
    ROBOZOO_ROS_ORIGIN="the shared ROS 2 Jazzy core unpacked in $ws/.ros2"; return 0
  fi
  return 1
}

# The shared core's tarball beside the workspace (CI and the developers' machines have ../shared).
robozoo_shared_ros_tarball() {
  local dir f
  dir=$(cd "${ROBOZOO_SHARED_ROS2:-$1/../shared/ros2}" 2>/dev/null && pwd) || return 1
  for f in "$dir"/ros2-jazzy-core-*.tar.zst; do [ -f "$f" ] && { echo "$f"; return 0; }; done
  return 1
}
