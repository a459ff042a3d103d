"""Shared fixtures: test data paths and small scene builders."""
from __future__ import annotations

from pathlib import Path

import pytest

DATA = Path(__file__).parent / 'data'


@pytest.fixture
def data_dir() -> Path:
    return DATA


def urdf_text(name: str, **replace: str) -> str:
    """A test URDF, with literal text replacements (e.g. a different effort limit)."""
    text = (DATA / name).read_text()
    for old, new in replace.items():
        assert old in text, f'{old} not in {name}'
        text = text.replace(old, new)
    return text


@pytest.fixture
def real_gz():
    """The real gz.sim8 bindings (Gazebo Harmonic: a user's own, or the shared build that
    `make setup` unpacks into .gz/ and tools/env.sh activates). Without them a test skips, except
    where set-up made them (.gz/ exists) or in CI: there a missing Gazebo is a failure, never a
    skip (issue 31)."""
    import os
    from zoo_sim.gazebo.gazebo_backend import import_gz_sim8
    if import_gz_sim8():
        import gz.sim8
        return gz.sim8
    ws = os.environ.get('ROBOZOO_WS')
    if os.environ.get('CI') or (ws and (Path(ws) / '.gz').is_dir()):
        pytest.fail('gz.sim8 does not import, yet Gazebo is expected here (.gz/ or CI): run '
                    "'make setup', or source tools/env.sh")
    pytest.skip('no Gazebo Harmonic (gz.sim8) here')
