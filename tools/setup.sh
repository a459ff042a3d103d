#!/usr/bin/env bash
# One-shot, idempotent set-up of the embedded world: Debian packages, .venv with pinned
# requirements, colcon build into install/. Safe to re-run; each step skips itself when done.
set -euo pipefail
ws=$(cd "$(dirname "$0")/.." && pwd)
cd "$ws"

# --- Debian packages: libsdformat's `ign sdf` validates every URDF/SDF we ship.
apt_pkgs=(libsdformat-dev ignition-tools)
missing=()
for p in "${apt_pkgs[@]}"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing Debian packages: ${missing[*]}"
  sudo_cmd=""; [ "$(id -u)" -eq 0 ] || sudo_cmd="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $sudo_cmd apt-get update -qq
  $sudo_cmd apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# --- Python virtual environment with pinned requirements (re-installed when requirements.txt changes).
py=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  echo "setup: creating .venv"
  "$py" -m venv .venv
fi
stamp=.venv/.requirements.sha256
want=$(sha256sum requirements.txt | cut -d' ' -f1)
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
  echo "setup: installing pinned Python requirements"
  .venv/bin/python -m pip install -q --upgrade pip >/dev/null
  .venv/bin/python -m pip install -q -r requirements.txt
  echo "$want" > "$stamp"
fi
# Clients installed without their declared dependencies (why: tools/requirements-nodeps.txt).
stamp=.venv/.requirements-nodeps.sha256
want=$(sha256sum tools/requirements-nodeps.txt | cut -d' ' -f1)
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
  echo "setup: installing pinned Python requirements without dependencies"
  .venv/bin/python -m pip install -q --no-deps -r tools/requirements-nodeps.txt
  echo "$want" > "$stamp"
fi

# --- colcon build. Interface-only ament_cmake packages need a ROS 2 install (rosidl); without one
# they are skipped here and the embedded runtime reads their .msg/.srv files straight from src/.
skip=()
have_rosidl=no
IFS=: read -ra prefixes <<< "${AMENT_PREFIX_PATH:-}"
for p in "${prefixes[@]}"; do [ -d "$p/share/rosidl_default_generators" ] && have_rosidl=yes; done
if [ "$have_rosidl" = no ]; then
  mapfile -t cmake_pkgs < <(.venv/bin/colcon list --base-paths src | awk '$3 == "(ros.ament_cmake)" {print $1}')
  [ ${#cmake_pkgs[@]} -eq 0 ] || skip=(--packages-ignore "${cmake_pkgs[@]}")
fi
mkdir -p install log
echo "${skip[*]}" > install/.robozoo_colcon_selection
source "$ws/tools/colcon_build.sh"
robozoo_colcon_build "colcon build" install log/setup_build.txt "${skip[*]}" \
  .venv/bin/colcon --log-base log build --base-paths src "${skip[@]}"

# --- The ROS half: whenever a ROS 2 Jazzy is found (tools/ros2_find.sh), the workspace is built a
# second time against it into install_ros/ (build_ros/, log/ros/), the interface packages generated
# by the real rosidl. Nothing above changes; without a ROS 2 this step says so in one line.
bash "$ws/tools/setup_ros.sh"

# --- Gazebo Harmonic for the Gazebo backend (sim.backend=gazebo): a user's own, else the shared
# test build unpacked into .gz/ (tools/gz_find.sh); without either, one line when it is asked for.
bash "$ws/tools/setup_gz.sh"
