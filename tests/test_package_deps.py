"""Issue 16 item 8: `rosdep install --from-paths src` gives an install that runs. Each package.xml
(parsed by catkin_pkg, as rosdep and colcon do) declares a run dependency for every third-party
module its code imports, node packages depend on rclpy, and every key resolves: a workspace
package, a Jazzy release package, or a rosdep key with an Ubuntu rule, from ros/rosdistro
(tests/data/rosdistro/, a trimmed copy whose files cite their commit) or, for the keys rosdistro
lacks, from this repository's rosdep/robozoo.yaml. tests/test_rosdep.py runs the real rosdep on
the same data."""
from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest
import yaml
from catkin_pkg.package import parse_package

WS = Path(__file__).resolve().parents[1]
SNAPSHOT = WS / 'tests' / 'data' / 'rosdistro'
JAZZY_PACKAGES = {p for repo, e in yaml.safe_load(
    (SNAPSHOT / 'jazzy' / 'distribution.yaml').read_text())['repositories'].items()
                  for p in e['release'].get('packages') or [repo]}
ROSDEP_KEYS = {k: v for f in [SNAPSHOT / 'rosdep' / 'base.yaml', SNAPSHOT / 'rosdep' / 'python.yaml',
                              WS / 'rosdep' / 'robozoo.yaml']
               for k, v in (yaml.safe_load(f.read_text()) or {}).items()}
# import name -> rosdep key / ROS package
MODULE_KEYS = {'numpy': 'python3-numpy', 'yaml': 'python3-yaml', 'matplotlib': 'python3-matplotlib',
               'tqdm': 'python3-tqdm', 'serial': 'python3-serial', 'PIL': 'python3-pil',
               'websockets': 'python3-websockets', 'mujoco': 'python3-mujoco-pip',
               'rosbags': 'python3-rosbags-pip', 'casadi': 'casadi-pip', 'pinocchio': 'pinocchio',
               'xacro': 'xacro', 'launch': 'launch', 'launch_ros': 'launch_ros',
               'ament_index_python': 'ament_index_python', 'gz': 'gz_sim_vendor',
               'dynamixel_sdk': 'dynamixel_sdk', 'foxglove': 'python3-foxglove-sdk-pip',
               'cma': 'python3-cma-pip', 'cyclonedds': 'python3-cyclonedds-pip',
               'distributed': 'python3-distributed-pip', 'rclpy': 'rclpy',
               'nav_msgs': 'nav_msgs', 'rosgraph_msgs': 'rosgraph_msgs'}
# code that is not the package's runtime: examples run by hand with extra tools (robobopy)
SKIP_DIRS = {'test', 'examples'}
PACKAGES = sorted(p.parent for p in (WS / 'src').glob('*/package.xml'))
WS_NAMES = {p.parent.name for p in (WS / 'src').glob('*/package.xml')}


def imports(pkg: Path) -> set[str]:
    out: set[str] = set()
    for f in pkg.rglob('*.py'):
        if SKIP_DIRS & set(f.relative_to(pkg).parts[:-1]) or f.name == 'setup.py':
            continue
        for n in ast.walk(ast.parse(f.read_text())):
            if isinstance(n, ast.Import):
                out |= {a.name.split('.')[0] for a in n.names}
            elif isinstance(n, ast.ImportFrom) and n.level == 0 and n.module:
                out.add(n.module.split('.')[0])
    return out - set(sys.stdlib_module_names) - {'__future__'}


def run_deps(pkg: Path) -> set[str]:
    p = parse_package(str(pkg / 'package.xml'))
    return {d.name for d in p.exec_depends + p.run_depends + p.build_export_depends}


@pytest.mark.parametrize('pkg', PACKAGES, ids=lambda p: p.name)
def test_every_import_has_a_run_dependency(pkg):
    deps = run_deps(pkg)
    local = {m for m in imports(pkg) if (pkg / m).is_dir() or (pkg / f'{m}.py').is_file()}
    for mod in sorted(imports(pkg) - local - {pkg.name}):
        key = mod if mod in WS_NAMES else MODULE_KEYS.get(mod)
        assert key is not None, f'{pkg.name}: import {mod}: no rosdep key known (add to the test)'
        assert key in deps, f'{pkg.name}: imports {mod} but has no <exec_depend>{key}'


@pytest.mark.parametrize('pkg', PACKAGES, ids=lambda p: p.name)
def test_node_packages_depend_on_rclpy(pkg):
    setup = (pkg / 'setup.py').read_text() if (pkg / 'setup.py').is_file() else ''
    if 'console_scripts' in setup or 'robozoo.nodes' in setup or pkg.name == 'zoo_runtime':
        assert 'rclpy' in run_deps(pkg), f'{pkg.name} runs nodes under ROS: needs rclpy'


@pytest.mark.parametrize('pkg', PACKAGES, ids=lambda p: p.name)
def test_every_key_resolves_for_jazzy_on_ubuntu(pkg):
    p = parse_package(str(pkg / 'package.xml'))
    for dep in p.buildtool_depends + p.build_depends + p.exec_depends + p.test_depends:
        name = dep.name
        if name in WS_NAMES or name in JAZZY_PACKAGES:
            continue
        assert name in ROSDEP_KEYS and ROSDEP_KEYS[name].get('ubuntu'), \
            f'{pkg.name}: <{dep.tagname if hasattr(dep, "tagname") else "depend"}>{name}: no ' \
            'Jazzy package or rosdep key with an Ubuntu rule'


def test_the_robobo_builds_on_jazzy_with_the_opencv_apps_stand_in():
    """opencv_apps has no Jazzy release (absent from the rosdistro snapshot, which keeps every
    repository releasing a package named like one of ours), so the
    workspace carries the one message robobo_msgs uses, with upstream's package, type and fields
    (ros-perception/opencv_apps msg/Point2D.msg); neither ROS2.md nor the Dockerfile skips the
    Robobo any more, and the embedded runtime reads the same file."""
    assert 'opencv_apps' not in JAZZY_PACKAGES
    assert 'opencv_apps' in run_deps(WS / 'src' / 'robobo_msgs') and 'opencv_apps' in WS_NAMES
    stand_in = parse_package(str(WS / 'src' / 'opencv_apps' / 'package.xml'))
    assert 'rosidl_interface_packages' in [g.name for g in stand_in.member_of_groups]
    fields = [ln.split() for ln in (WS / 'src/opencv_apps/msg/Point2D.msg').read_text().splitlines()
              if ln.strip() and not ln.startswith('#')]
    assert fields == [['float64', 'x'], ['float64', 'y']]
    for doc in ('ROS2.md', 'docker/Dockerfile'):
        text = (WS / doc).read_text()
        assert '--skip-keys opencv_apps' not in text and 'robobo_msgs robobo_api' not in text, doc
    from zoo_runtime.interfaces.robobo_msgs.msg import Blob
    assert type(Blob().center).__name__ == 'Point2D'


# Issue 26: the application sits on top. Who may import each application package: the scenario
# library (no command line), the experiments (searches, sweeps, studies and their commands) and
# the CLI; a domain package (robot, controller, bridge, simulator) imports none of them.
APP_IMPORTERS = {'zoo_scenario': {'zoo_scenario', 'zoo_experiments', 'zoo_bringup'},
                 'zoo_experiments': {'zoo_experiments', 'zoo_bringup'},
                 'zoo_bringup': {'zoo_bringup'}}


@pytest.mark.parametrize('pkg', PACKAGES, ids=lambda p: p.name)
def test_no_package_below_the_application_imports_it(pkg):
    wrong = sorted(app for app, importers in APP_IMPORTERS.items()
                   if app in imports(pkg) and pkg.name not in importers)
    assert not wrong, (f'{pkg.name} (non-test code) imports {wrong}: only '
                       f'{sorted(APP_IMPORTERS[wrong[0]])} may')


def test_the_scenario_library_has_no_command_line():
    files = sorted((WS / 'src' / 'zoo_scenario' / 'zoo_scenario').rglob('*.py'))
    assert files
    for f in files:
        for n in ast.walk(ast.parse(f.read_text())):
            names = [a.name for a in n.names] if isinstance(n, ast.Import) else (
                [n.module] if isinstance(n, ast.ImportFrom) and n.module else [])
            assert 'argparse' not in names, f'{f.relative_to(WS)}: imports argparse (CLI only)'


def test_the_app_test_catches_a_domain_import(tmp_path):
    """The scan sees a lazy import inside a function, as the runner's users had it."""
    mod = tmp_path / 'robot_pkg' / 'robot_pkg'
    mod.mkdir(parents=True)
    (mod / 'node.py').write_text('def f():\n    from zoo_scenario.runner import RunStopped\n')
    assert 'zoo_scenario' in imports(tmp_path / 'robot_pkg')
