#!/usr/bin/env bash
# The workspace's Gazebo (run by tools/setup.sh), as tools/setup_ros.sh does for ROS 2: where no
# Gazebo Harmonic with gz.sim8 is installed, the shared test build (../shared/gz) is unpacked once
# into .gz/ after its checksum is checked, with its Debian run-time packages (the list inside the
# tarball, share/gz_harmonic_build/debian-runtime-packages.txt). Silent where there is none:
# the MuJoCo backend needs nothing of it.
set -euo pipefail
ws=$(cd "$(dirname "$0")/.." && pwd)
cd "$ws"
source tools/gz_find.sh
source tools/shared_tarball.sh
[ "${ROBOZOO_GZ:-}" = off ] && exit 0
robozoo_find_gz "$ws" && exit 0
robozoo_own_gz "$ws" && exit 0
tarball=$(robozoo_shared_gz_tarball "$ws") || exit 0

have=$(robozoo_verified_sha "$tarball")
echo "setup: unpacking the shared Gazebo Harmonic into .gz/"
robozoo_apt_install "unpacking Gazebo" zstd
rm -rf .gz .gz.tmp && mkdir -p .gz.tmp
tar -C .gz.tmp -I zstd -xf "$tarball"
mapfile -t packages < .gz.tmp/gz-harmonic/share/gz_harmonic_build/debian-runtime-packages.txt
robozoo_apt_install "Gazebo" "${packages[@]}"
echo "$have" > .gz.tmp/.sha256
mv .gz.tmp .gz
# the check the shared README gives: the bindings import
source "$ws/tools/gz_find.sh" && robozoo_find_gz "$ws"
"$ws/.venv/bin/python" -c 'from gz.sim8 import TestFixture, World, world_entity' || {
  echo "setup: .gz/: gz.sim8 does not import (see the line above)" >&2; exit 1; }
