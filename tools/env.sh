# Sourced by bin/robozoo and the Makefile: puts the colcon install space on the paths, no ROS needed.
_ws=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
export ROBOZOO_WS="$_ws"
if [ -f "$_ws/install/setup.bash" ]; then
  # colcon's generated script sets PYTHONPATH/AMENT_PREFIX_PATH; it must not see `set -u`.
  set +u; source "$_ws/install/setup.bash"; 
fi
export PATH="$_ws/.venv/bin:$PATH"
# Gazebo Harmonic unpacked by set-up (.gz/), for the Gazebo backend; nothing where there is none.
source "$_ws/tools/gz_find.sh" && robozoo_find_gz "$_ws" || true
unset _ws
