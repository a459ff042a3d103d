# Sourced (bash) by tools/env.sh, tools/ros2_env.sh and tools/setup_gz.sh: which Gazebo Harmonic
# (gz-sim 8 with its Python bindings) the Gazebo backend uses. One place decides. In order:
#   1. one the .venv's Python already imports gz.sim8 from (a user's Gazebo: OSRF's python3-gz-sim8
#      debs, or ROS's gz_sim_vendor, which zoo_sim.gazebo finds itself): nothing to do,
#   2. the test build ../shared/gz/*.tar.zst, unpacked by tools/setup_gz.sh into .gz/ (ignored):
#      its activate.sh puts it on PATH, LD_LIBRARY_PATH, PYTHONPATH and the GZ_* paths.
# Sets ROBOZOO_GZ_ORIGIN (a phrase; empty when none). ROBOZOO_GZ=off: none (MuJoCo alone).
robozoo_find_gz() {
  local ws=$1
  ROBOZOO_GZ_ORIGIN=""
  [ "${ROBOZOO_GZ:-}" = off ] && return 1
  if [ -f "$ws/.gz/gz-harmonic/activate.sh" ]; then
    if [ -z "${GZ_HARMONIC_ROOT:-}" ]; then
      local had_u=no; case $- in *u*) had_u=yes; set +u;; esac
      source "$ws/.gz/gz-harmonic/activate.sh"
      [ $had_u = yes ] && set -u
    fi
    ROBOZOO_GZ_ORIGIN="the shared Gazebo Harmonic unpacked in $ws/.gz"; return 0
  fi
  return 1
}

# A Gazebo of the user's (1. above): the .venv's Python imports gz.sim8 without .gz/. A Python
# start, so only set-up asks.
robozoo_own_gz() {
  [ -x "$1/.venv/bin/python" ] && "$1/.venv/bin/python" -c 'import gz.sim8' >/dev/null 2>&1
}

# The shared build's tarball beside the workspace (CI and the developers' machines have ../shared).
robozoo_shared_gz_tarball() {
  local dir f
  dir=$(cd "${ROBOZOO_SHARED_GZ:-$1/../shared/gz}" 2>/dev/null && pwd) || return 1
  for f in "$dir"/gz-harmonic-*.tar.zst; do [ -f "$f" ] && { echo "$f"; return 0; }; done
  return 1
}
