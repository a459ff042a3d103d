"""`make demo`/`make test` run tools/setup.sh first; with nothing changed under src/ it must not run
colcon again (issue 10: a second `make demo` starts the scenario within 3 s, colcon takes ~10 s)."""
import os
import subprocess
from pathlib import Path

WS = Path(__file__).resolve().parents[1]


def _setup() -> None:
    env = {k: v for k, v in os.environ.items() if k not in ('PYTHONPATH', 'AMENT_PREFIX_PATH')}
    subprocess.run(['bash', str(WS / 'tools' / 'setup.sh')], cwd=WS, env=env, check=True,
                   capture_output=True, timeout=900)


def _last_build() -> str:
    return os.readlink(WS / 'log' / 'latest_build')  # colcon makes a new build_<time> per build


def test_second_setup_does_not_rebuild():
    _setup()
    before = _last_build()
    _setup()
    assert _last_build() == before
    assert (WS / 'install' / '.robozoo_build.sha256').is_file()
