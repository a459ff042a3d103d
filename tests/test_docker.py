"""Issue 16 item 4: the Docker image runs what it builds. Checked with hadolint (pinned in
requirements.txt; skipped if absent) and with structured checks of what no linter knows: the node
scripts' interpreter sees every module rosdep installed (no venv beside a /usr/bin/python3 colcon
build), the entrypoint sources the install space, and a .dockerignore keeps host builds out."""
from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

WS = Path(__file__).resolve().parents[1]
DOCKERFILE = WS / 'docker' / 'Dockerfile'


def instructions() -> list[tuple[str, str]]:
    """(INSTRUCTION, arguments) with continuation lines joined and comments dropped."""
    out, buf = [], ''
    for line in DOCKERFILE.read_text().splitlines():
        if line.lstrip().startswith('#') or not line.strip():
            continue
        buf += line.rstrip('\\').strip() + ' '
        if not line.rstrip().endswith('\\'):
            word, _, rest = buf.strip().partition(' ')
            out.append((word.upper(), rest))
            buf = ''
    return out


def test_hadolint_passes():
    tool = shutil.which('hadolint') or str(WS / '.venv' / 'bin' / 'hadolint')
    if not Path(tool).is_file():
        pytest.skip('hadolint not installed (pip install -r requirements.txt)')
    out = subprocess.run([tool, str(DOCKERFILE)], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stdout + out.stderr


def test_one_python_for_nodes_and_their_dependencies():
    runs = ' '.join(a for i, a in instructions() if i == 'RUN')
    assert 'venv' not in runs, 'a venv hides its modules from /usr/bin/python3 node scripts'
    assert 'rosdep install --from-paths src' in runs  # run dependencies from package.xml
    assert runs.index('rosdep install') < runs.index('colcon build')


def test_entrypoint_sources_ros_and_the_install_space():
    (entry,) = [a for i, a in instructions() if i == 'ENTRYPOINT']
    script = WS / entry.strip('[]" ').replace('/ws/', '', 1)
    text = script.read_text()
    assert 'source /opt/ros/jazzy/setup.bash' in text
    assert 'source /ws/install/setup.bash' in text and 'exec "$@"' in text
    assert script.stat().st_mode & 0o111
    (cmd,) = [a for i, a in instructions() if i == 'CMD']
    assert 'zoo_bringup' in cmd and 'robozoo.launch.py' in cmd and 'scenario:=nao_walk' in cmd


def test_dockerignore_keeps_host_builds_out():
    ignored = set((WS / '.dockerignore').read_text().split())
    assert {'.venv', 'build', 'install', 'log', '.git'} <= ignored


def test_pip_is_installed_for_rosdeps_pip_keys():
    """ros:jazzy-ros-base has no pip; rosdep's pip installer needs it for every *-pip key."""
    runs = [a for i, a in instructions() if i == 'RUN']
    apt = next(a for a in runs if 'apt-get install' in a)
    assert 'python3-pip' in apt.split()
    pip_keys = [ln for ln in (WS / 'rosdep' / 'robozoo.yaml').read_text().splitlines()
                if ln.startswith('python3-') and '-pip:' in ln]
    assert pip_keys and runs.index(apt) < next(k for k, a in enumerate(runs) if 'rosdep install' in a)


def test_our_rosdep_source_is_added_before_rosdep_update():
    runs = ' '.join(a for i, a in instructions() if i == 'RUN')
    line = 'echo "yaml file:///ws/rosdep/robozoo.yaml" > /etc/ros/rosdep/sources.list.d/50-robozoo.list'
    assert line in runs, 'the Dockerfile adds rosdep/robozoo.yaml to rosdep\'s sources'
    assert runs.index(line) < runs.index('rosdep update') < runs.index('rosdep install')
    copy = [k for k, (i, a) in enumerate(instructions()) if i == 'COPY']
    add = next(k for k, (i, a) in enumerate(instructions()) if i == 'RUN' and line in a)
    assert copy and copy[0] < add, 'the file is copied into /ws before rosdep reads it'
    assert 'WORKDIR /ws' in [f'{i} {a.strip()}' for i, a in instructions()]
