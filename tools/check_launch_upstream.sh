#!/usr/bin/env bash
# The shipped launch files through the real upstream ROS 2 Jazzy Python sources of launch,
# launch_ros, ros2launch and ament_index_python, at the commits below, as `ros2 launch` runs them,
# stopping where a process would be spawned (src/zoo_bringup/test/test_launch_upstream.py).
#
# Not part of CI or `make test`: it needs bare git mirrors of those repositories (give their
# paths in LAUNCH_GIT, LAUNCH_ROS_GIT, AMENT_INDEX_GIT and optionally RCLPY_GIT; a `git clone
# --bare` of github.com/ros2/launch etc. will do) and pip's index for lark and osrf-pycommon.
# Everything it installs goes to build/launch_upstream/ (git-ignored); nothing upstream enters
# the repository. rclpy and two message packages are the documented stand-ins of
# tools/check_launch_upstream_shim/ (no ROS here), checked first against rclpy's own tests.
#
# Usage: tools/check_launch_upstream.sh [pytest args...]    (after `make build`)
set -euo pipefail
WS=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
MIRRORS=${MIRRORS:-/work/.mirror}
LAUNCH_GIT=${LAUNCH_GIT:-$MIRRORS/ros2+launch/repo}
LAUNCH_ROS_GIT=${LAUNCH_ROS_GIT:-$MIRRORS/ros2+launch_ros/repo}
AMENT_INDEX_GIT=${AMENT_INDEX_GIT:-$MIRRORS/ament+ament_index/repo}
RCLPY_GIT=${RCLPY_GIT:-$MIRRORS/ros2+rclpy/repo}

# Jazzy: the release tags at the heads of the jazzy branches.
LAUNCH_COMMIT=09403fcebedb68dd259e9ab6b35bd8712b6596ec       # ros2/launch 3.4.3
LAUNCH_ROS_COMMIT=62c56e53e86812023697fe330c83d327f54e7b18   # ros2/launch_ros 0.26.6
AMENT_INDEX_COMMIT=0a35ca69b3f3514242282e00ac9170e98c078fcd  # ament/ament_index jazzy, 1.8.1
RCLPY_COMMIT=85415f713bf7f03152799496dc4287a75df1fc36        # ros2/rclpy jazzy (tests only)
LARK=1.1.9            # rosdep's python3-lark-parser is Ubuntu's python3-lark (version not checked)
OSRF_PYCOMMON=2.0.2   # the newest on PyPI; Jazzy releases 2.1.7 (ros/rosdistro 824758a9de jazzy)

OUT=$WS/build/launch_upstream
PY=$WS/.venv/bin/python
STAMP="$LAUNCH_COMMIT $LAUNCH_ROS_COMMIT $AMENT_INDEX_COMMIT lark==$LARK osrf-pycommon==$OSRF_PYCOMMON"

have_commit() { [ -d "$1" ] && git --git-dir="$1" cat-file -e "$2^{commit}" 2>/dev/null; }
for pair in "launch:$LAUNCH_GIT:$LAUNCH_COMMIT" "launch_ros:$LAUNCH_ROS_GIT:$LAUNCH_ROS_COMMIT" \
            "ament_index:$AMENT_INDEX_GIT:$AMENT_INDEX_COMMIT"; do
  IFS=: read -r name dir commit <<<"$pair"
  if ! have_commit "$dir" "$commit"; then
    echo "check_launch_upstream: no $name commit $commit in '$dir'" \
      "(set ${name^^}_GIT to a git mirror of it)" >&2
    exit 2
  fi
done
if [ ! -d "$WS/install/zoo_bringup" ]; then
  echo "check_launch_upstream: no install space: run make build" >&2; exit 2
fi

if [ "$(cat "$OUT/STAMP" 2>/dev/null)" != "$STAMP" ]; then
  rm -rf "$OUT"; mkdir -p "$OUT/src"
  git --git-dir="$LAUNCH_GIT" archive "$LAUNCH_COMMIT" launch | tar -x -C "$OUT/src"
  git --git-dir="$LAUNCH_ROS_GIT" archive "$LAUNCH_ROS_COMMIT" launch_ros ros2launch \
    | tar -x -C "$OUT/src"
  git --git-dir="$AMENT_INDEX_GIT" archive "$AMENT_INDEX_COMMIT" ament_index_python \
    | tar -x -C "$OUT/src"
  if ! "$PY" -m pip install --no-deps --target "$OUT/site" "$OUT/src/launch" "$OUT/src/launch_ros" \
      "$OUT/src/ros2launch" "$OUT/src/ament_index_python" "lark==$LARK" \
      "osrf-pycommon==$OSRF_PYCOMMON" > "$OUT/pip.log" 2>&1; then
    cat "$OUT/pip.log" >&2; echo "check_launch_upstream: pip install failed (log above)" >&2; exit 1
  fi
  echo "$STAMP" > "$OUT/STAMP"
fi

source "$WS/tools/env.sh"
export ZOO_RUNTIME=embedded
export PYTHONPATH="$OUT/site:$WS/tools/check_launch_upstream_shim${PYTHONPATH:+:$PYTHONPATH}"
"$PY" - "$OUT/site" <<'EOF'
import sys
from importlib.metadata import version
import launch, launch_ros, ros2launch, ament_index_python, rclpy
for m in (launch, launch_ros, ros2launch, ament_index_python):
    assert m.__file__.startswith(sys.argv[1]), f'{m.__name__} is not the upstream copy: {m.__file__}'
assert 'check_launch_upstream_shim' in rclpy.__file__, rclpy.__file__
print('upstream: ' + ', '.join(f'{d} {version(d)}' for d in
      ('launch', 'launch_ros', 'ros2launch', 'ament_index_python', 'lark', 'osrf_pycommon')))
EOF

# The rclpy stand-in's name validation against rclpy's own tests for it.
if have_commit "$RCLPY_GIT" "$RCLPY_COMMIT"; then
  mkdir -p "$OUT/rclpy_tests"
  for t in test_validate_namespace.py test_validate_node_name.py; do
    git --git-dir="$RCLPY_GIT" show "$RCLPY_COMMIT:rclpy/test/$t" > "$OUT/rclpy_tests/$t"
  done
  (cd "$OUT/rclpy_tests" && "$PY" -m pytest -q -p no:cacheprovider . | tail -1 \
    | sed 's/^/rclpy stand-in vs rclpy tests: /')
else
  echo "rclpy stand-in vs rclpy tests: not run (no rclpy commit $RCLPY_COMMIT in '$RCLPY_GIT')"
fi

cd "$WS/src/zoo_bringup"
exec "$PY" -m pytest -q -p no:cacheprovider test/test_launch_upstream.py "$@"
