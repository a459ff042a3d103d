"""Issue 16 item 5: in a shell where a sourced ROS 2 makes ``rclpy`` importable, the embedded CLI
and the package tests still run the embedded runtime (bin/robozoo and the Makefile set
ZOO_RUNTIME=embedded; zoo_runtime's pytest plugin does for direct pytest runs). The stand-in
``rclpy`` imports and has nothing inside, so any use of it fails loudly."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

WS = Path(__file__).resolve().parents[1]


def ros_shell_env(tmp_path: Path) -> dict[str, str]:
    fake = tmp_path / 'fake_ros' / 'rclpy'
    fake.mkdir(parents=True, exist_ok=True)
    (fake / '__init__.py').write_text('"""stand-in for a sourced ROS 2: importable, empty"""\n')
    env = {k: v for k, v in os.environ.items() if k != 'ZOO_RUNTIME'}
    env['PYTHONPATH'] = os.pathsep.join(filter(None, [str(fake.parent),
                                                      env.get('PYTHONPATH', '')]))
    return env


def test_the_stand_in_is_what_zoo_runtime_would_pick(tmp_path):
    env = ros_shell_env(tmp_path)
    out = subprocess.run([sys.executable, '-c', 'import zoo_runtime; print(zoo_runtime.EMBEDDED)'],
                         env=env, capture_output=True, text=True, timeout=60)
    assert out.stdout.strip() == 'False', out.stderr  # the shell this test stands for


def test_robozoo_run_works_in_a_ros_shell(tmp_path):
    out = subprocess.run([str(WS / 'bin' / 'robozoo'), 'run', 'talker_listener', '--quiet',
                          '--output', str(tmp_path / 'out')], env=ros_shell_env(tmp_path),
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr[-2000:]
    assert 'received=50' in out.stdout


def test_make_exports_the_embedded_runtime():
    out = subprocess.run(['make', '-s', '-C', str(WS), '--eval',
                          'print-runtime: ; @echo $$ZOO_RUNTIME', 'print-runtime'],
                         env={k: v for k, v in os.environ.items() if k != 'ZOO_RUNTIME'},
                         capture_output=True, text=True, timeout=60)
    assert out.stdout.strip() == 'embedded', out.stderr


def test_package_tests_run_embedded_in_a_ros_shell(tmp_path):
    for pkg, test in (('zoo_scenario', 'test/test_runner.py'),
                      ('zoo_sim', 'test/test_robot_interface.py')):
        out = subprocess.run([sys.executable, '-m', 'pytest', '-q', '-p', 'no:cacheprovider',
                              test], cwd=WS / 'src' / pkg, env=ros_shell_env(tmp_path),
                             capture_output=True, text=True, timeout=120)
        assert out.returncode == 0, out.stdout[-3000:]
