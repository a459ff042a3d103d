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
    assert 'zoo_bringup' in cmd and 'nao_walk.launch.py' in cmd


def test_dockerignore_keeps_host_builds_out():
    ignored = set((WS / '.dockerignore').read_text().split())
    assert {'.venv', 'build', 'install', 'log', '.git'} <= ignored
