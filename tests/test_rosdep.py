"""Issue 24 item 4: `rosdep install --from-paths src --ignore-src` resolves every key of every
package.xml for Ubuntu noble and Jazzy, with the real rosdep (pinned in requirements.txt) in
simulate mode and no network: its sources are a trimmed copy of ros/rosdistro kept in
tests/data/rosdistro/ (tools/rosdistro_snapshot.py; commit in each file's header) plus this
repository's rosdep/robozoo.yaml, added by the one line ROS2.md documents, and `rosdep update`
reads them through file:// URLs into a private ROS_HOME."""
from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

WS = Path(__file__).resolve().parents[1]
DATA = WS / 'tests' / 'data' / 'rosdistro'
PRIVATE = WS / 'rosdep' / 'robozoo.yaml'
LIST_NAME = '50-robozoo.list'
ROSDEP = Path(sys.executable).with_name('rosdep')
# the keys rosdistro lacks (absent from rosdep/*.yaml at the snapshot's commit)
PRIVATE_KEYS = {'python3-cma-pip', 'python3-cyclonedds-pip', 'python3-distributed-pip',
                'python3-foxglove-sdk-pip'}

pytestmark = pytest.mark.skipif(not ROSDEP.is_file(),
                                reason='rosdep not installed (pip install -r requirements.txt)')


def documented_line() -> str:
    """The sources line ROS2.md tells a user to add, for this checkout."""
    text = (WS / 'ROS2.md').read_text()
    m = re.search(r'echo "(yaml file://\$PWD/rosdep/robozoo\.yaml)" \| sudo tee '
                  rf'/etc/ros/rosdep/sources\.list\.d/{re.escape(LIST_NAME)}', text)
    assert m, f'ROS2.md: no line adding rosdep/robozoo.yaml as sources.list.d/{LIST_NAME}'
    return m.group(1).replace('$PWD', str(WS))


def rosdep(tmp: Path, *args: str, private: bool = True) -> subprocess.CompletedProcess:
    """The real rosdep, offline: sources from tests/data (the upstream 20-default.list's yaml
    lines, pointed at the snapshot) and, if ``private``, our documented line; cache in ``tmp``."""
    lists = tmp / 'sources.list.d'
    lists.mkdir(exist_ok=True)
    (lists / '20-default.list').write_text(
        ''.join(f'yaml file://{DATA}/rosdep/{n}.yaml\n' for n in ('base', 'python')))
    mine = lists / LIST_NAME
    if private:
        mine.write_text(documented_line() + '\n')
    elif mine.exists():
        mine.unlink()
    env = {k: v for k, v in os.environ.items()  # no sourced ROS: nothing counts as installed,
           if not k.startswith(('ROS_', 'AMENT_', 'COLCON_'))  # and rosdep's own modules
           and k not in ('ROSDISTRO_INDEX_URL', 'PYTHONPATH')}
    env.update(ROSDEP_SOURCE_PATH=str(lists), ROS_HOME=str(tmp / 'ros_home'),
               ROSDISTRO_INDEX_URL=f'file://{DATA}/index-v4.yaml')
    update = subprocess.run([str(ROSDEP), 'update', '--rosdistro', 'jazzy'], env=env,
                            capture_output=True, text=True, timeout=300)
    assert update.returncode == 0, update.stdout + update.stderr
    assert 'http' not in update.stdout.replace('file://', ''), update.stdout  # offline
    return subprocess.run([str(ROSDEP), *args], env=env, capture_output=True, text=True,
                          timeout=300, cwd=WS)


INSTALL = ('install', '--from-paths', 'src', '--ignore-src', '--simulate', '--reinstall',
           '--os=ubuntu:noble', '--rosdistro', 'jazzy', '-y')


def test_every_key_resolves_for_noble_with_our_source(tmp_path):
    out = rosdep(tmp_path, *INSTALL)
    assert out.returncode == 0, out.stdout + out.stderr
    # --reinstall lists every resolved key, installed or not: our pip keys among them
    pips = set(re.findall(r'^ *pip3? install .*?(\S+)$', out.stdout, re.M))
    assert {'cma', 'cyclonedds', 'distributed', 'foxglove-sdk', 'mujoco', 'rosbags',
            'casadi'} <= pips, out.stdout
    assert 'apt-get install -y ros-jazzy-rclpy' in out.stdout


def test_without_our_source_exactly_the_private_keys_fail(tmp_path):
    """The check can fail: without rosdep/robozoo.yaml rosdep names the keys rosdistro lacks."""
    out = rosdep(tmp_path, *INSTALL, private=False)
    assert out.returncode != 0
    unresolved = set(re.findall(r'Cannot locate rosdep definition for \[([^\]]+)\]', out.stderr))
    assert unresolved == PRIVATE_KEYS, out.stdout + out.stderr


def test_our_source_holds_only_keys_rosdistro_lacks_with_ubuntu_pip_rules():
    mine = yaml.safe_load(PRIVATE.read_text())
    assert set(mine) == PRIVATE_KEYS
    upstream = {k for n in ('base', 'python')
                for k in (yaml.safe_load((DATA / 'rosdep' / f'{n}.yaml').read_text()) or {})}
    assert not set(mine) & upstream
    reqs = {ln.split('==')[0].lower() for ln in (WS / 'requirements.txt').read_text().split()}
    for key, rules in mine.items():
        (pkg,) = rules['ubuntu']['pip']['packages']
        assert pkg.lower() in reqs, f'{key}: {pkg} is not pinned in requirements.txt'


def test_the_snapshot_cites_its_rosdistro_commit():
    for f in [DATA / 'index-v4.yaml', DATA / 'jazzy' / 'distribution.yaml',
              *sorted((DATA / 'rosdep').glob('*.yaml'))]:
        assert re.search(r'ros/rosdistro at commit [0-9a-f]{40}', f.read_text()), f

