"""Issue 24 item 1: the ROS half of set-up and its shell, where ROS 2 is absent or untrusted. A
workspace with no ROS 2 is the embedded world alone: nothing is built, the ROS tier says in one
line that it was skipped, and `source tools/ros2_env.sh` says why in one line and fails. A test
core whose checksum does not match is not unpacked."""
from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
from pathlib import Path

WS = Path(__file__).resolve().parents[1]
NO_ROS = {k: v for k, v in os.environ.items()
          if k not in ('ROS_DISTRO', 'AMENT_PREFIX_PATH', 'ZOO_RUNTIME')}


def test_without_ros_the_tier_is_skipped_in_one_line():
    out = subprocess.run(['bash', str(WS / 'tools' / 'test_ros.sh'), '--if-available'],
                         env=dict(NO_ROS, ROBOZOO_ROS='off'), capture_output=True, text=True,
                         timeout=60)
    assert out.returncode == 0
    assert out.stdout.splitlines() == [
        'ROS tier: skipped, no ROS 2 Jazzy here (none sourced, no /opt/ros/jazzy, no '
        '../shared/ros2)']


def test_ros2_env_says_in_one_line_that_no_ros_was_found():
    out = subprocess.run(['bash', '-c', f'source {WS}/tools/ros2_env.sh; echo "rc=$?"'],
                         env=dict(NO_ROS, ROBOZOO_ROS='off'), capture_output=True, text=True,
                         timeout=60)
    assert out.stdout.strip() == 'rc=1'
    assert len(out.stderr.splitlines()) == 1 and 'no ROS 2 Jazzy found' in out.stderr


def test_a_core_whose_checksum_does_not_match_is_not_unpacked(tmp_path):
    ws = tmp_path / 'ws'
    (ws / 'tools').mkdir(parents=True)
    for f in ('setup_ros.sh', 'ros2_find.sh', 'colcon_build.sh'):
        shutil.copy(WS / 'tools' / f, ws / 'tools' / f)
    core = tmp_path / 'shared' / 'ros2'
    core.mkdir(parents=True)
    tarball = core / 'ros2-jazzy-core-test.tar.zst'
    tarball.write_bytes(b'not the core')
    (core / 'SHA256SUMS').write_text(
        f'{hashlib.sha256(b"the core").hexdigest()}  {tarball.name}\n')
    env = {k: v for k, v in NO_ROS.items() if k != 'ROBOZOO_ROS'}
    if Path('/opt/ros/jazzy/setup.bash').is_file():  # a user's ROS 2 would be taken first
        return
    out = subprocess.run(['bash', str(ws / 'tools' / 'setup_ros.sh')], env=env,
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 1
    assert len(out.stderr.splitlines()) == 1
    assert f'{tarball}: checksum' in out.stderr and 'not unpacked' in out.stderr
    assert not (ws / '.ros2').exists()
