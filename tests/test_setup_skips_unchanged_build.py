"""`make demo`/`make test` run tools/setup.sh first; with nothing changed under src/ it must not run
colcon again (issue 10: a second `make demo` starts the scenario within 3 s, colcon takes ~10 s)."""
import os
import subprocess
from pathlib import Path

WS = Path(__file__).resolve().parents[1]


def _setup() -> None:
    env = {k: v for k, v in os.environ.items() if k not in ('PYTHONPATH', 'AMENT_PREFIX_PATH')}
    done = subprocess.run(['bash', str(WS / 'tools' / 'setup.sh')], cwd=WS, env=env,
                          capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, f'tools/setup.sh exited {done.returncode}:\n' \
                                 f'{done.stdout[-3000:]}\n{done.stderr[-3000:]}'


def _last_build() -> str:
    return os.readlink(WS / 'log' / 'latest_build')  # colcon makes a new build_<time> per build


def test_second_setup_does_not_rebuild():
    """Also after a test left MuJoCo's warning log (MUJOCO_LOG.TXT) in a package's folder:
    the stop test's unstable Robobo writes one into src/zoo_sim, which used to change the build
    key and rebuild (tools/colcon_build.sh ignores it, as git does)."""
    _setup()
    before = _last_build()
    log = WS / 'src' / 'zoo_sim' / 'MUJOCO_LOG.TXT'
    had = log.exists()
    with log.open('a') as f:
        f.write('a test run in src/zoo_sim made MuJoCo warn\n')
    try:
        _setup()
    finally:
        if not had:
            log.unlink()
    assert _last_build() == before
    assert (WS / 'install' / '.robozoo_build.sha256').is_file()
