"""Issue 24 item 1: the ROS half of set-up and its shell, where ROS 2 is absent or untrusted. A
workspace with no ROS 2 is the embedded world alone: nothing is built, the ROS tier says in one
line that it was skipped, and `source tools/ros2_env.sh` says why in one line and fails. A shared
build (the ROS 2 core, Gazebo) whose checksum does not match is not unpacked."""
from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
from pathlib import Path

import pytest

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


@pytest.mark.parametrize('script, shared, name, unpacked', [
    ('setup_ros.sh', 'ros2', 'ros2-jazzy-core-test.tar.zst', '.ros2'),
    ('setup_gz.sh', 'gz', 'gz-harmonic-test.tar.zst', '.gz')])
def test_a_shared_build_whose_checksum_does_not_match_is_not_unpacked(tmp_path, script, shared,
                                                                      name, unpacked):
    ws = tmp_path / 'ws'
    (ws / 'tools').mkdir(parents=True)
    for f in (script, 'ros2_find.sh', 'gz_find.sh', 'colcon_build.sh', 'shared_tarball.sh'):
        shutil.copy(WS / 'tools' / f, ws / 'tools' / f)
    core = tmp_path / 'shared' / shared
    core.mkdir(parents=True)
    tarball = core / name
    tarball.write_bytes(b'not the build')
    (core / 'SHA256SUMS').write_text(
        f'{hashlib.sha256(b"the build").hexdigest()}  {tarball.name}\n')
    env = {k: v for k, v in NO_ROS.items() if k not in ('ROBOZOO_ROS', 'ROBOZOO_GZ')}
    if shared == 'ros2' and Path('/opt/ros/jazzy/setup.bash').is_file():
        return  # a user's ROS 2 would be taken first
    out = subprocess.run(['bash', str(ws / 'tools' / script)], env=env,
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 1, out.stderr
    assert len(out.stderr.splitlines()) == 1, out.stderr
    assert f'{tarball}: checksum' in out.stderr and 'not unpacked' in out.stderr
    assert not (ws / unpacked).exists()
